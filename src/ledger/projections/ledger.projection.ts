import { Injectable } from '@nestjs/common';
import { LogSubscriber } from '../../platform/background.decorators';
import { RecordedEvent } from '../../platform/event-store/event-store.port';
import { parseCents } from '../../platform/money/money';
import { Projection, ProjectionWriter } from '../../platform/projections/projection';
import { PAYOUT_STREAM_PREFIX, PayoutEvent } from '../../payouts';
import { DistributionData, SPLIT_STREAM_PREFIX, SplitEvent } from '../../split';
import { BALANCE_STREAM_PREFIX, BalanceEvent } from '../../payout-embed';
import { BookingWriter, LEDGER_LINE_COLLECTIONS } from './ledger-lines';
import { BANK_TRANSFER_STREAM_PREFIX, INVOICE_STREAM_PREFIX } from '../../collection';
import { applyBankTransfer, applyCollection, COLLECTION_EVENT_TYPES } from './collection-postings';
import { accounts, BalancePosting, credit, debit, Entry, nonZero, PostingKind, SplitPosting, WithdrawalPosting } from '../domain/posting';

export const LEDGER_POSTINGS = 'ledger_postings';
export const LEDGER_SPLITS = 'ledger_splits';
/** Per (company, currency): the company_balance and payout_reserve accounts, for GET /api/commerce/balance. */
export const LEDGER_COMPANY_BALANCES = 'ledger_company_balances';

/** A company's balance in one currency as the ledger holds it (credit-positive). */
export interface CompanyBalanceDoc {
  id: string;
  companyId: string;
  currency: string;
  /** company_balance:<co>: what the company has with us and has not reserved. */
  balanceCents: string;
  /** payout_reserve:<co>: reserved for Payout Embed sessions not yet paid or released. */
  reservedCents: string;
  /**
   * The part of balanceCents owed to contractors: roster sums of funded Splits whose rows have not
   * transferred yet. Funding credits it to company_balance, each row's transfer draws it out.
   */
  committedCents: string;
  /** sme_margin_hold:<co>: Split margins held (absent on documents projected before it was kept). */
  marginHeldCents?: string;
  /** sme_fee_reserve:<co>: set aside for the fees the SME covers, not yet paid (absent before issue 23). */
  feeReservedCents?: string;
}

export const companyBalanceDocId = (companyId: string, currency: string) => `${companyId}:${currency}`;

/** Per contractor ledger account and currency: what its rows brought in, for the earnings view and withdrawals. */
export const LEDGER_CONTRACTOR_ACCOUNTS = 'ledger_contractor_accounts';
/** One document per row transfer credited to a contractor account (the contractor's "transfers received"). */
export const LEDGER_CONTRACTOR_CREDITS = 'ledger_contractor_credits';

export interface ContractorAccountDoc {
  id: string;
  /** The account key after `contractor_balance:` (a cpp_ or sv_ id). */
  contractor: string;
  currency: string;
  /** Row transfers credited (nets), ever. */
  creditedCents: string;
  /** Of those, rows that go on to the wallet by auto-withdraw (not the contractor's to withdraw), unless that payout failed. */
  autoWithdrawCents: string;
  /**
   * Issue 26 (absent on documents projected before): what row reversals and receivable repayments took
   * out of contractor_balance (less what a later withdrawal turned into a receivable); what this person's
   * withdrawals requested and not failed; and contractor_receivable, what the account owes.
   */
  reversedCents?: string;
  withdrawnCents?: string;
  owedCents?: string;
}

/** Issue 26: one reversal of a row, as the contractor's earnings page lists it. */
export interface ContractorReversalDoc {
  id: string;
  contractor: string;
  splitId: string;
  rosterEntryId: string;
  smeCompanyId: string;
  currency: string;
  amountCents: string;
  /** Taken from the service balance; the rest (owedCents) the contractor had withdrawn and now owes. */
  fromBalanceCents: string;
  owedCents: string;
  postedAt: string;
}

export const LEDGER_CONTRACTOR_REVERSALS = 'ledger_contractor_reversals';

export interface ContractorCreditDoc {
  id: string;
  contractor: string;
  splitId: string;
  rosterEntryId: string;
  smeCompanyId: string;
  currency: string;
  amountCents: string;
  postedAt: string;
}

export const contractorAccountDocId = (contractor: string, currency: string) => `${contractor}:${currency}`;

interface LedgerRow {
  amountCents: string;
  contractor: string;
  feeAmountCents: string | null;
  netAmountCents: string | null;
  businessCoversFee: boolean;
  /** The row goes on to the contractor's wallet by itself once settled (auto-withdraw with a wallet on file). */
  autoWithdraws?: boolean;
  /** Issue 26: what reversals took back of the net, and the SME took the row back after it failed for good. */
  reversedCents?: string;
  takenBack?: boolean;
}

/** What the ledger needs to remember about a Split between its events (also what ledger:verify checks). */
export interface LedgerSplit {
  id: string;
  smeCompanyId: string;
  enterpriseCompanyId: string;
  currency: string;
  totalAmountCents: string;
  enterpriseFeeAmountCents: string;
  marginAmountCents: string;
  rows: Record<string, LedgerRow>;
  /** SME-covered fees advanced by the platform, not yet recovered from the margin. */
  feeDueCents: string;
  /** Covered fees are paid with each row's transfer from the SME's own money (issue 23); absent on Splits created before. */
  smeCoveredFeesDrawn?: boolean;
  marginReleasedCents: string;
  /** Issue 27: the invoice billed at funding, and what its payments applied to it (absent on Splits funded before). */
  invoiceId?: string;
  collectedCents?: string;
  funded: boolean;
  settled: boolean;
  sequence: number;
}

const HANDLED = new Set([
  'split.created',
  'split.roster.revised',
  'split.funded',
  'split.roster_entry.transfer_started',
  'split.roster_entry.settled',
  'split.margin.settled',
  'split.settled',
  'payout.requested',
  'payout.completed',
  'payout.failed',
  'company_balance.topped_up',
  'company_balance.reserved',
  'company_balance.reservation_released',
  'company_balance.reservation_paid',
  'company_balance.split_fees_reserved',
  'company_balance.split_fees_released',
  'split.roster_entry.reversed',
  'split.roster_entry.repointed',
  'split.roster_entry.taken_back',
  'company_balance.invoice_paid',
  'company_balance.invoice_overpayment_credited',
  ...COLLECTION_EVENT_TYPES,
]);

/**
 * Double-entry postings for every money movement of a Split: funding, each row's transfer, the
 * margin's release and each withdrawal to a wallet. Posting ids derive from the Split and a sequence,
 * so a rebuild produces the very same documents.
 */
@Injectable()
@LogSubscriber()
export class LedgerProjection implements Projection {
  readonly name = 'ledger';
  /** 2: books ledger lines (issue 28); a read model built by version 1 has none and is rebuilt at start. */
  readonly version = 2;
  readonly streams = [SPLIT_STREAM_PREFIX, PAYOUT_STREAM_PREFIX, BALANCE_STREAM_PREFIX, INVOICE_STREAM_PREFIX, BANK_TRANSFER_STREAM_PREFIX];
  readonly collections = [
    { name: LEDGER_POSTINGS, indexes: [['splitId', 'sequence'], ['sessionId']] },
    { name: LEDGER_SPLITS },
    { name: LEDGER_COMPANY_BALANCES, indexes: [['companyId']] },
    { name: LEDGER_CONTRACTOR_ACCOUNTS, indexes: [['contractor']] },
    { name: LEDGER_CONTRACTOR_CREDITS, indexes: [['contractor', 'postedAt']] },
    ...LEDGER_LINE_COLLECTIONS,
    { name: LEDGER_CONTRACTOR_REVERSALS, indexes: [['contractor', 'postedAt']] },
  ];

  handles(event: RecordedEvent): boolean {
    return HANDLED.has(event.type);
  }

  /** Applies the event's postings, then books their lines (ledger-lines.ts): whatever the posting kind. */
  async apply(recorded: RecordedEvent, writer: ProjectionWriter): Promise<void> {
    const booking = new BookingWriter(writer, LEDGER_POSTINGS);
    await this.applyPostings(recorded, booking);
    await booking.book(recorded, async (companyId, currency) => {
      const doc = await writer.get<CompanyBalanceDoc>(LEDGER_COMPANY_BALANCES, companyBalanceDocId(companyId, currency));
      if (!doc) return null;
      const { balanceCents, reservedCents, committedCents, marginHeldCents, feeReservedCents } = doc;
      return { balanceCents, reservedCents, committedCents, ...(marginHeldCents ? { marginHeldCents } : {}), ...(feeReservedCents ? { feeReservedCents } : {}) };
    });
  }

  private async applyPostings(recorded: RecordedEvent, writer: ProjectionWriter): Promise<void> {
    if (recorded.type.startsWith('company_balance.')) return this.applyBalance(recorded, writer);
    if (recorded.type.startsWith('invoice.')) return applyCollection(recorded, writer);
    if (recorded.type.startsWith('bank_transfer.')) return applyBankTransfer(recorded, writer);
    const event = { type: recorded.type, data: recorded.data } as SplitEvent | PayoutEvent;
    if (event.type.startsWith('payout.') && (event as PayoutEvent).data.kind === 'contractor_withdrawal') return this.applyWithdrawal(recorded, event as PayoutEvent, writer);
    if (event.type === 'split.created') {
      const d = event.data;
      writer.put<LedgerSplit>(LEDGER_SPLITS, {
        id: d.splitId,
        smeCompanyId: d.smeCompanyId,
        enterpriseCompanyId: d.enterpriseCompanyId,
        currency: d.currency,
        totalAmountCents: d.totalAmountCents,
        enterpriseFeeAmountCents: d.enterpriseFeeAmountCents,
        marginAmountCents: d.marginAmountCents,
        rows: rowsOf(d.distributions),
        feeDueCents: '0',
        ...(d.smeCoveredFeesDrawn ? { smeCoveredFeesDrawn: true } : {}),
        marginReleasedCents: '0',
        funded: false,
        settled: false,
        sequence: 0,
      } satisfies LedgerSplit);
      return;
    }
    if (!('splitId' in event.data)) return;
    const splitId = event.data.splitId;
    // The batch's working copy, changed in place: serialized once, when the batch commits.
    const split = await writer.edit<LedgerSplit>(LEDGER_SPLITS, splitId);
    if (!split) return;
    const post = (kind: PostingKind, memo: string, entries: ReturnType<typeof nonZero>) => {
      split.sequence += 1;
      const posting: SplitPosting = {
        id: `${splitId}:${String(split.sequence).padStart(4, '0')}`,
        splitId,
        sequence: split.sequence,
        position: recorded.position,
        currency: split.currency,
        kind,
        memo,
        postedAt: recorded.metadata.occurredAt,
        eventId: recorded.id,
        entries: nonZero(entries),
      };
      writer.put<SplitPosting>(LEDGER_POSTINGS, posting);
      return moveCompanyBalances(writer, posting);
    };

    /** Part of the held margin set aside for covered fees (issue 23): it leaves the hold for sme_fee_reserve. */
    const coverFeesFromMargin = async (amountCents: string | undefined, what: string) => {
      const amount = parseCents(amountCents ?? '0');
      if (amount === 0n) return;
      await post('sme_fee_cover_from_margin', `Set aside from the margin: ${what}`, [
        debit(accounts.smeMarginHold(split.smeCompanyId), amount),
        credit(accounts.smeFeeReserve(split.smeCompanyId), amount),
      ]);
    };

    switch (event.type) {
      case 'split.roster.revised':
        Object.assign(split, {
          totalAmountCents: event.data.totalAmountCents,
          marginAmountCents: event.data.marginAmountCents,
          enterpriseFeeAmountCents: event.data.enterpriseFeeAmountCents,
          rows: rowsOf(event.data.distributions),
        });
        if (event.data.smeCoveredFeesDrawn) split.smeCoveredFeesDrawn = true;
        break;
      case 'split.funded': {
        const receivable = parseCents(split.totalAmountCents) + parseCents(split.enterpriseFeeAmountCents);
        await moveCommitted(writer, split.smeCompanyId, split.currency, parseCents(event.data.rosterSumCents));
        await post('funding', 'Leg A: the enterprise owes the total; the SME is credited the roster sum; the margin is held', [
          debit(accounts.enterpriseReceivable(split.enterpriseCompanyId), receivable),
          credit(accounts.companyBalance(split.smeCompanyId), parseCents(event.data.rosterSumCents)),
          credit(accounts.smeMarginHold(split.smeCompanyId), parseCents(split.marginAmountCents)),
          credit(accounts.platformFees(), parseCents(split.enterpriseFeeAmountCents)),
        ]);
        await coverFeesFromMargin(event.data.feeCoverFromMarginCents, 'the part of the covered early-payout fees the margin pays');
        split.funded = true;
        break;
      }
      case 'split.roster_entry.transfer_started': {
        const row = split.rows[event.data.rosterEntryId];
        if (row) Object.assign(row, { feeAmountCents: event.data.feeAmountCents, netAmountCents: event.data.netAmountCents });
        await coverFeesFromMargin(event.data.feeCoverFromMarginCents, `the covered fee of row ${event.data.rosterEntryId}, paid out on demand`);
        break;
      }
      case 'split.roster_entry.settled': {
        const row = split.rows[event.data.rosterEntryId];
        if (!row || row.netAmountCents === null || row.feeAmountCents === null) break;
        const fee = parseCents(row.feeAmountCents);
        const covered = row.businessCoversFee ? fee : 0n;
        await moveCommitted(writer, split.smeCompanyId, split.currency, -parseCents(row.amountCents));
        await creditContractor(writer, split, event.data.rosterEntryId, row, recorded.metadata.occurredAt, `${splitId}:${String(split.sequence + 1).padStart(4, '0')}`);
        await post('row_transfer', `Row ${event.data.rosterEntryId} transferred to its contractor`, [
          debit(accounts.companyBalance(split.smeCompanyId), parseCents(row.amountCents)),
          debit(accounts.smeFeeDue(split.smeCompanyId), covered),
          credit(accounts.contractorBalance(row.contractor), parseCents(row.netAmountCents)),
          credit(accounts.platformFees(), fee),
        ]);
        split.feeDueCents = (parseCents(split.feeDueCents) + covered).toString();
        await repayReceivable(writer, row.contractor, split.currency, (amount, entries) =>
          post('contractor_receivable_repaid', `Row ${event.data.rosterEntryId}'s credit repays what the contractor owes (${amount})`, entries),
        );
        const paid = parseCents(event.data.coveredFeePaidCents ?? '0');
        if (paid > 0n) {
          await post('sme_fee_paid', `The SME pays the fee it covers on row ${event.data.rosterEntryId} out of what it set aside`, [
            debit(accounts.smeFeeReserve(split.smeCompanyId), paid),
            credit(accounts.smeFeeDue(split.smeCompanyId), paid),
          ]);
          split.feeDueCents = (parseCents(split.feeDueCents) - paid).toString();
        }
        break;
      }
      case 'split.margin.settled': {
        // The decider split the margin (fees recovered first, the rest to the balance); the ledger posts
        // exactly that, so the balance stream's credit and company_balance agree to the cent.
        // What the margin set aside for covered fees already left the hold (sme_fee_cover_from_margin).
        const margin = parseCents(event.data.marginAmountCents);
        const recovered = parseCents(event.data.feeRecoveredCents);
        const credited = parseCents(event.data.creditedToBalanceCents);
        await post('margin_release', 'The margin leaves the hold; SME-covered fees are recovered from it first', [
          debit(accounts.smeMarginHold(split.smeCompanyId), recovered + credited),
          credit(accounts.smeFeeDue(split.smeCompanyId), recovered),
          credit(accounts.companyBalance(split.smeCompanyId), credited),
        ]);
        split.feeDueCents = (parseCents(split.feeDueCents) - recovered).toString();
        split.marginReleasedCents = margin.toString();
        break;
      }
      case 'split.settled':
        split.settled = true;
        break;
      case 'split.roster_entry.reversed': {
        const row = split.rows[event.data.rosterEntryId];
        if (!row) break;
        const amount = parseCents(event.data.amountCents);
        const fee = parseCents(event.data.feeRefundedCents);
        // What the contractor still has takes the reversal; what it already withdrew, the platform advances and the contractor owes.
        const fromBalance = minOf(amount, await availableOf(writer, row.contractor, split.currency));
        const owed = amount - fromBalance;
        await post('row_reversal', `Row ${event.data.rosterEntryId} reversed (${event.data.reversalId}): back to the SME's balance`, [
          debit(accounts.contractorBalance(row.contractor), fromBalance),
          debit(accounts.contractorReceivable(row.contractor), owed),
          debit(accounts.platformFees(), fee),
          credit(accounts.companyBalance(split.smeCompanyId), amount + fee),
        ]);
        await moveContractorAccount(writer, row.contractor, split.currency, { reversedCents: fromBalance, owedCents: owed });
        row.reversedCents = (parseCents(row.reversedCents ?? '0') + amount).toString();
        writer.put<ContractorReversalDoc>(LEDGER_CONTRACTOR_REVERSALS, {
          id: event.data.reversalId,
          contractor: row.contractor,
          splitId,
          rosterEntryId: event.data.rosterEntryId,
          smeCompanyId: split.smeCompanyId,
          currency: split.currency,
          amountCents: amount.toString(),
          fromBalanceCents: fromBalance.toString(),
          owedCents: owed.toString(),
          postedAt: recorded.metadata.occurredAt,
        });
        break;
      }
      case 'split.roster_entry.repointed': {
        const row = split.rows[event.data.rosterEntryId];
        const { contractorPaymentProfileId, subVendorId, walletEmail } = event.data.contractor;
        if (row) Object.assign(row, { contractor: contractorPaymentProfileId ?? subVendorId ?? event.data.rosterEntryId, feeAmountCents: null, netAmountCents: null });
        if (row && row.autoWithdraws !== undefined) row.autoWithdraws = row.autoWithdraws && walletEmail !== null;
        break;
      }
      case 'split.roster_entry.taken_back': {
        // Nothing moves: the row's amount never left company_balance; it is no longer owed to a contractor.
        const row = split.rows[event.data.rosterEntryId];
        if (!row) break;
        row.takenBack = true;
        await moveCommitted(writer, split.smeCompanyId, split.currency, -parseCents(row.amountCents));
        break;
      }
      case 'payout.failed': {
        // A failed auto-withdrawal leaves the row's net in the contractor's balance: it is the contractor's to withdraw.
        if (event.data.kind !== 'leg_b_withdrawal') return;
        const distributionId = event.data.distributionId;
        const row = split.rows[distributionId];
        if (row?.autoWithdraws && row.netAmountCents) {
          await moveContractorAccount(writer, row.contractor, split.currency, { autoWithdrawCents: -parseCents(row.netAmountCents) });
          await repayReceivable(writer, row.contractor, split.currency, (amount, entries) =>
            post('contractor_receivable_repaid', `Row ${distributionId}'s failed auto-withdrawal stays in the balance and repays what the contractor owes (${amount})`, entries),
          );
        }
        return;
      }
      case 'payout.completed': {
        if (event.data.kind !== 'leg_b_withdrawal' || !event.data.distributionId) return;
        const row = split.rows[event.data.distributionId];
        if (!row?.netAmountCents) return;
        await post('withdrawal', `Row ${event.data.distributionId} forwarded to the contractor's wallet`, [
          debit(accounts.contractorBalance(row.contractor), parseCents(row.netAmountCents)),
          credit(accounts.contractorWallet(row.contractor), parseCents(row.netAmountCents)),
        ]);
        break;
      }
      default:
        return;
    }
  }

  /**
   * A contractor's withdrawal (docs/earnings.md): on request its allocations leave the contractor accounts
   * for the in-transit account; the rail's answer moves them on to the wallet, or back where they came
   * from. Posting ids from the payout and the step, so a rebuild makes the same documents.
   */
  private async applyWithdrawal(recorded: RecordedEvent, event: PayoutEvent, writer: ProjectionWriter): Promise<void> {
    const ref = event.data;
    if (ref.kind !== 'contractor_withdrawal') return;
    const total = ref.allocations.reduce((sum, a) => sum + parseCents(a.amountCents), 0n);
    const transit = accounts.contractorInTransit(ref.userId);
    const fromAccounts = ref.allocations.map((a) => debit(accounts.contractorBalance(a.contractor), parseCents(a.amountCents)));
    const backToAccounts = ref.allocations.map((a) => credit(accounts.contractorBalance(a.contractor), parseCents(a.amountCents)));
    const step: [number, PostingKind, string, Entry[]] | null =
      event.type === 'payout.requested'
        ? [1, 'contractor_withdrawal', `Withdrawal ${ref.payoutId} requested: the balance leaves for the wallet`, [...fromAccounts, credit(transit, total)]]
        : event.type === 'payout.completed'
          ? [
              2,
              'contractor_withdrawal_paid',
              `Withdrawal ${ref.payoutId} paid to the contractor's wallet`,
              [debit(transit, total), credit(accounts.contractorWallet(ref.userId), total)],
            ]
          : event.type === 'payout.failed'
            ? [2, 'contractor_withdrawal_reversed', `Withdrawal ${ref.payoutId} failed: back to the balance`, [debit(transit, total), ...backToAccounts]]
            : null;
    if (!step) return;
    const put = (sequence: number, kind: PostingKind, memo: string, entries: Entry[]) =>
      writer.put<WithdrawalPosting>(LEDGER_POSTINGS, {
        id: `${ref.payoutId}:${String(sequence).padStart(4, '0')}`,
        payoutId: ref.payoutId,
        sequence,
        position: recorded.position,
        currency: ref.currency,
        kind,
        memo,
        postedAt: recorded.metadata.occurredAt,
        eventId: recorded.id,
        entries: nonZero(entries),
      });
    if (event.type === 'payout.requested')
      await this.owedBeforeWithdrawal(ref.allocations, ref.currency, writer, (entries) =>
        put(
          0,
          'contractor_receivable_from_withdrawal',
          `Withdrawal ${ref.payoutId} was decided before a reversal reached the ledger: what the reversal took from the balance is owed instead`,
          entries,
        ),
      );
    const [sequence, kind, memo, entries] = step;
    put(sequence, kind, memo, entries);
    const sign = event.type === 'payout.requested' ? 1n : event.type === 'payout.failed' ? -1n : 0n;
    for (const a of ref.allocations) if (sign !== 0n) await moveContractorAccount(writer, a.contractor, ref.currency, { withdrawnCents: sign * parseCents(a.amountCents) });
    if (event.type === 'payout.failed') {
      let step3 = 3;
      for (const a of ref.allocations) {
        await repayReceivable(writer, a.contractor, ref.currency, (amount, repay) =>
          put(step3++, 'contractor_receivable_repaid', `Withdrawal ${ref.payoutId} failed: the money back repays what the contractor owes (${amount})`, repay),
        );
      }
    }
  }

  /**
   * A withdrawal is decided on what the ledger showed when it was requested; a reversal the ledger
   * posted in between may have taken part of that money from the balance. That part becomes what the
   * contractor owes instead (contractor_receivable), so the balance never goes below zero.
   */
  private async owedBeforeWithdrawal(
    allocations: { contractor: string; amountCents: string }[],
    currency: string,
    writer: ProjectionWriter,
    post: (entries: Entry[]) => void,
  ): Promise<void> {
    const entries: Entry[] = [];
    for (const a of allocations) {
      const doc = await writer.get<ContractorAccountDoc>(LEDGER_CONTRACTOR_ACCOUNTS, contractorAccountDocId(a.contractor, currency));
      const available = await availableOf(writer, a.contractor, currency);
      const short = parseCents(a.amountCents) - (available > 0n ? available : 0n);
      const turned = minOf(short, parseCents(doc?.reversedCents ?? '0'));
      if (turned <= 0n) continue;
      entries.push(debit(accounts.contractorReceivable(a.contractor), turned), credit(accounts.contractorBalance(a.contractor), turned));
      await moveContractorAccount(writer, a.contractor, currency, { reversedCents: -turned, owedCents: turned });
    }
    if (entries.length > 0) post(entries);
  }

  /**
   * The company balance stream (top-ups and Payout Embed reservations): one posting per event, its id
   * from the stream and revision, so a rebuild makes the same documents.
   */
  private async applyBalance(recorded: RecordedEvent, writer: ProjectionWriter): Promise<void> {
    const event = { type: recorded.type, data: recorded.data } as BalanceEvent;
    // The Split's margin_release posting already credited company_balance; the balance stream's record of it posts nothing.
    if (event.type === 'company_balance.split_margin_credited') return;
    // Issue 26: the reversal or take-back posting already credited company_balance; the stream's record of it (never handled here) posts nothing.
    if (event.type === 'company_balance.split_return_credited') return;
    // An invoice paid from the balance, or an overpayment credited to it: the invoice's `collection` posting moved the money (issue 27).
    if (event.type === 'company_balance.invoice_paid' || event.type === 'company_balance.invoice_overpayment_credited') return;
    const d = event.data;
    const amount = parseCents(d.amountCents);
    const co = d.companyId;
    const [kind, memo, entries, sessionId]: [PostingKind, string, Entry[], string | undefined] = (() => {
      switch (event.type) {
        case 'company_balance.topped_up':
          return ['top_up', `Top-up ${event.data.topUpId}`, [debit(accounts.companyDeposits(co), amount), credit(accounts.companyBalance(co), amount)], undefined];
        case 'company_balance.reserved':
          return [
            'payout_reserve',
            `Reserved for Payout Embed session ${event.data.sessionId}`,
            [debit(accounts.companyBalance(co), amount), credit(accounts.payoutReserve(co), amount)],
            event.data.sessionId,
          ];
        case 'company_balance.reservation_released':
          return [
            'payout_release',
            `Payout Embed session ${event.data.sessionId} ${event.data.reason}: reservation released`,
            [debit(accounts.payoutReserve(co), amount), credit(accounts.companyBalance(co), amount)],
            event.data.sessionId,
          ];
        case 'company_balance.reservation_paid':
          return [
            'payout_paid',
            `Payout Embed session ${event.data.sessionId} paid out (${event.data.payoutId})`,
            [debit(accounts.payoutReserve(co), amount), credit(accounts.recipientWallet(event.data.walletEmail), amount)],
            event.data.sessionId,
          ];
        case 'company_balance.split_fees_reserved':
          return [
            'sme_fee_set_aside',
            `Set aside for the fees the SME covers on Split ${event.data.splitId}`,
            [debit(accounts.companyBalance(co), amount), credit(accounts.smeFeeReserve(co), amount)],
            undefined,
          ];
        case 'company_balance.split_fees_released':
          return [
            'sme_fee_set_aside_released',
            `Split ${event.data.splitId} ${event.data.reason}: what its covered fees did not need is available again`,
            [debit(accounts.smeFeeReserve(co), amount), credit(accounts.companyBalance(co), amount)],
            undefined,
          ];
      }
    })();
    const posting: BalancePosting = {
      id: `${recorded.streamId}:${String(recorded.revision).padStart(6, '0')}`,
      ...(sessionId ? { sessionId } : {}),
      companyId: co,
      sequence: recorded.revision,
      position: recorded.position,
      currency: d.currency,
      kind,
      memo,
      postedAt: recorded.metadata.occurredAt,
      eventId: recorded.id,
      entries: nonZero(entries),
    };
    writer.put<BalancePosting>(LEDGER_POSTINGS, posting);
    await moveCompanyBalances(writer, posting);
  }
}

/** Keeps each company's balance document in step with its company_balance, payout_reserve, sme_margin_hold and sme_fee_reserve accounts. */
export async function moveCompanyBalances(writer: ProjectionWriter, posting: SplitPosting | BalancePosting): Promise<void> {
  for (const entry of posting.entries) {
    const match = /^(company_balance|payout_reserve|sme_margin_hold|sme_fee_reserve):(.+)$/.exec(entry.account);
    if (!match) continue;
    const [, account, companyId] = match as unknown as [string, string, string];
    const delta = BigInt(entry.credit) - BigInt(entry.debit);
    await changeBalanceDoc(writer, companyId, posting.currency, (doc) => {
      if (account === 'company_balance') doc.balanceCents = (BigInt(doc.balanceCents) + delta).toString();
      else if (account === 'payout_reserve') doc.reservedCents = (BigInt(doc.reservedCents) + delta).toString();
      else if (account === 'sme_fee_reserve') doc.feeReservedCents = (BigInt(doc.feeReservedCents ?? '0') + delta).toString();
      else doc.marginHeldCents = (BigInt(doc.marginHeldCents ?? '0') + delta).toString();
    });
  }
}

/** Roster money owed to contractors moves in at funding and out with each row's transfer. */
function moveCommitted(writer: ProjectionWriter, companyId: string, currency: string, delta: bigint): Promise<void> {
  return changeBalanceDoc(writer, companyId, currency, (doc) => {
    doc.committedCents = (BigInt(doc.committedCents ?? '0') + delta).toString();
  });
}

async function changeBalanceDoc(writer: ProjectionWriter, companyId: string, currency: string, change: (doc: CompanyBalanceDoc) => void): Promise<void> {
  const id = companyBalanceDocId(companyId, currency);
  const stored = await writer.edit<CompanyBalanceDoc>(LEDGER_COMPANY_BALANCES, id);
  if (stored) return change(stored);
  const doc = { id, companyId, currency, balanceCents: '0', reservedCents: '0', committedCents: '0', marginHeldCents: '0' };
  change(doc);
  writer.put<CompanyBalanceDoc>(LEDGER_COMPANY_BALANCES, doc);
}

/** A row transfer credited a contractor account: count it (and whether auto-withdraw takes it on) and list it. */
async function creditContractor(writer: ProjectionWriter, split: LedgerSplit, rosterEntryId: string, row: LedgerRow, postedAt: string, postingId: string): Promise<void> {
  const net = parseCents(row.netAmountCents ?? '0');
  await moveContractorAccount(writer, row.contractor, split.currency, { creditedCents: net, autoWithdrawCents: row.autoWithdraws ? net : 0n });
  // Frozen: never changed once put, so staged as it is rather than copied (ledger-lines.ts, frozenPosting).
  writer.put<ContractorCreditDoc>(
    LEDGER_CONTRACTOR_CREDITS,
    Object.freeze({
      id: postingId,
      contractor: row.contractor,
      splitId: split.id,
      rosterEntryId,
      smeCompanyId: split.smeCompanyId,
      currency: split.currency,
      amountCents: net.toString(),
      postedAt,
    }),
  );
}

type AccountDelta = { creditedCents?: bigint; autoWithdrawCents?: bigint; reversedCents?: bigint; withdrawnCents?: bigint; owedCents?: bigint };

async function moveContractorAccount(writer: ProjectionWriter, contractor: string, currency: string, delta: AccountDelta): Promise<void> {
  const id = contractorAccountDocId(contractor, currency);
  const stored = await writer.edit<ContractorAccountDoc>(LEDGER_CONTRACTOR_ACCOUNTS, id);
  const doc: ContractorAccountDoc = stored ?? { id, contractor, currency, creditedCents: '0', autoWithdrawCents: '0' };
  doc.creditedCents = (BigInt(doc.creditedCents) + (delta.creditedCents ?? 0n)).toString();
  doc.autoWithdrawCents = (BigInt(doc.autoWithdrawCents) + (delta.autoWithdrawCents ?? 0n)).toString();
  // Issue 26 counters: written only once one of them moves, so a document without reversals stays as it was.
  for (const field of ['reversedCents', 'withdrawnCents', 'owedCents'] as const) {
    if (delta[field] !== undefined) doc[field] = (BigInt(doc[field] ?? '0') + delta[field]).toString();
  }
  if (!stored) writer.put<ContractorAccountDoc>(LEDGER_CONTRACTOR_ACCOUNTS, doc);
}

/**
 * What a contractor account has that its owner may still withdraw, as the ledger sees it now: credits,
 * less rows auto-withdrawn, less reversals and repayments, less withdrawals requested and not failed.
 */
async function availableOf(writer: ProjectionWriter, contractor: string, currency: string): Promise<bigint> {
  const doc = await writer.get<ContractorAccountDoc>(LEDGER_CONTRACTOR_ACCOUNTS, contractorAccountDocId(contractor, currency));
  if (!doc) return 0n;
  const available = BigInt(doc.creditedCents) - BigInt(doc.autoWithdrawCents) - BigInt(doc.reversedCents ?? '0') - BigInt(doc.withdrawnCents ?? '0');
  return available > 0n ? available : 0n;
}

/** What the account owes is repaid first out of what it has available (issue 26): one posting, when there is something to repay. */
async function repayReceivable(writer: ProjectionWriter, contractor: string, currency: string, post: (amount: bigint, entries: Entry[]) => unknown): Promise<void> {
  const doc = await writer.get<ContractorAccountDoc>(LEDGER_CONTRACTOR_ACCOUNTS, contractorAccountDocId(contractor, currency));
  const owed = BigInt(doc?.owedCents ?? '0');
  if (owed <= 0n) return;
  const repaid = minOf(owed, await availableOf(writer, contractor, currency));
  if (repaid <= 0n) return;
  await post(repaid, [debit(accounts.contractorBalance(contractor), repaid), credit(accounts.contractorReceivable(contractor), repaid)]);
  await moveContractorAccount(writer, contractor, currency, { reversedCents: repaid, owedCents: -repaid });
}

const minOf = (a: bigint, b: bigint): bigint => (a < b ? a : b);

function rowsOf(distributions: DistributionData[]): Record<string, LedgerRow> {
  return Object.fromEntries(
    distributions.map((d) => [
      d.id,
      {
        amountCents: d.amountCents,
        contractor: d.contractorPaymentProfileId ?? d.subVendorId ?? d.id,
        feeAmountCents: null,
        netAmountCents: null,
        businessCoversFee: d.businessCoversFee,
        autoWithdraws: d.autoWithdrawElected && d.walletEmail !== null,
      },
    ]),
  );
}
