import { Inject, Injectable } from '@nestjs/common';
import { company } from '../../identity';
import { accountBalancesAsOf, contractorCredits, contractorReversals, owedByCurrency, withdrawableByAccount } from '../../ledger';
import { EVENT_STORE, EventStore } from '../../platform/event-store/event-store.port';
import { AggregateRepository } from '../../platform/event-sourcing/aggregate-repository';
import { DOCUMENT_READER, DocumentReader } from '../../platform/read-store/document-store.port';
import { availableByAccount, ContractorWithdrawalsState, contractorWithdrawalsDecider, Wallet } from '../domain/contractor-withdrawals.decider';
import { ContractorWithdrawalEvent, contractorWithdrawalsStreamId } from '../domain/contractor-withdrawals.events';
import { contractorAccountsOf } from './contractor-accounts';
import { upcomingRowsOf, type UpcomingRow } from '../../split';
import { WithdrawalView } from './request-withdrawal.handler';

export interface EarningsView {
  /** Per currency: what the person may withdraw now (the same rule POST /me/withdrawals applies). */
  balances: { currency: string; availableCents: string; owedCents: string }[];
  /** Row transfers received, newest first (at most 100). */
  transfers: { id: string; splitId: string; rosterEntryId: string; amountCents: string; currency: string; occurredAt: string; smeCompanyName: string }[];
  /** Withdrawals, newest first. */
  withdrawals: WithdrawalView[];
  /** Issue 26: rows the SMEs took back, newest first (at most 100). */
  reversals: {
    id: string;
    splitId: string;
    rosterEntryId: string;
    amountCents: string;
    fromBalanceCents: string;
    owedCents: string;
    currency: string;
    occurredAt: string;
    smeCompanyName: string;
  }[];
  wallet: Wallet | null;
  /** Issue 29: a wallet the person named that waits for its emailed code (the wallet above stays in use until then). */
  pendingWallet: { email: string; codeExpiresAt: string } | null;
}

const TRANSFERS_SHOWN = 100;

type Balances = EarningsView['balances'];

/** GET /api/commerce/me/earnings: a contractor's service balance, what it received and what it withdrew. */
@Injectable()
export class EarningsQuery {
  constructor(
    @Inject(DOCUMENT_READER) private readonly documents: DocumentReader,
    private readonly aggregates: AggregateRepository,
    @Inject(EVENT_STORE) private readonly events: EventStore,
  ) {}

  /**
   * `asOf` (canonical ISO UTC, issue 28): the earnings as they stood then. Balances come from the ledger
   * (each contractor account's running balance after its last line by then), transfers and reversals are
   * those posted by then, withdrawals the person's withdrawal stream folded up to then; the wallet is the
   * one on file now.
   */
  async earnings(userId: string, asOf?: string): Promise<EarningsView> {
    const { contractors, wallet, pendingWallet } = await contractorAccountsOf(this.documents, userId);
    const [credits, state, reversals] = await Promise.all([
      contractorCredits(this.documents, contractors, TRANSFERS_SHOWN, asOf),
      asOf ? this.withdrawalsAsOf(userId, asOf) : this.aggregates.load(contractorWithdrawalsStreamId(userId), contractorWithdrawalsDecider).then((loaded) => loaded.state),
      contractorReversals(this.documents, contractors, TRANSFERS_SHOWN, asOf),
    ]);
    const withdrawals = Object.values(state.withdrawals);
    const balances = asOf ? await this.balancesAsOf(contractors, asOf, withdrawals) : await this.balancesNow(contractors, state);
    const names = new Map<string, string>();
    for (const smeCompanyId of new Set([...credits, ...reversals].map((c) => c.smeCompanyId)))
      names.set(smeCompanyId, (await company(this.documents, smeCompanyId))?.name ?? smeCompanyId);
    return {
      balances,
      transfers: credits.map((c) => ({
        id: c.id,
        splitId: c.splitId,
        rosterEntryId: c.rosterEntryId,
        amountCents: c.amountCents,
        currency: c.currency,
        occurredAt: c.postedAt,
        smeCompanyName: names.get(c.smeCompanyId)!,
      })),
      withdrawals: withdrawals
        .map(({ payoutId, amountCents, currency, status, requestedAt }) => ({ id: payoutId, amountCents, currency, status, requestedAt }))
        .sort((a, b) => (a.requestedAt === b.requestedAt ? (a.id < b.id ? 1 : -1) : a.requestedAt < b.requestedAt ? 1 : -1)),
      reversals: reversals.map((r) => ({
        id: r.id,
        splitId: r.splitId,
        rosterEntryId: r.rosterEntryId,
        amountCents: r.amountCents,
        fromBalanceCents: r.fromBalanceCents,
        owedCents: r.owedCents,
        currency: r.currency,
        occurredAt: r.postedAt,
        smeCompanyName: names.get(r.smeCompanyId)!,
      })),
      wallet,
      pendingWallet,
    };
  }

  /** Issue 29: the person's rows in approved Splits that were not transferred yet, soonest payday first. */
  async upcoming(userId: string): Promise<UpcomingRow[]> {
    const { subVendors, creatorPaymentProfileId } = await contractorAccountsOf(this.documents, userId);
    // Issue 29: the rows paid through the person's creator payment profile too.
    return upcomingRowsOf(this.documents, subVendors, creatorPaymentProfileId);
  }

  /** Now: what POST /me/withdrawals would allow (the withdrawal rule over the ledger's withdrawable amounts), and what is owed. */
  private async balancesNow(contractors: string[], state: ContractorWithdrawalsState): Promise<Balances> {
    const [earned, owed] = await Promise.all([withdrawableByAccount(this.documents, contractors), owedByCurrency(this.documents, contractors)]);
    const withdrawals = Object.values(state.withdrawals);
    const currencies = [...new Set([...Object.keys(earned), ...withdrawals.map((w) => w.currency), ...Object.keys(owed)])].sort();
    return currencies.map((currency) => {
      const available = Object.values(availableByAccount(state, currency, earned[currency] ?? {})).reduce((sum, cents) => sum + (cents > 0n ? cents : 0n), 0n);
      return { currency, availableCents: available.toString(), owedCents: owed[currency] ?? '0' };
    });
  }

  /**
   * At `asOf`, from the ledger: available is the sum of the contractor_balance accounts above 0 (a
   * withdrawal's request moves its amount out of them at once, as the rule above subtracts it), owed the
   * contractor_receivable accounts (debit-positive).
   */
  private async balancesAsOf(contractors: string[], asOf: string, withdrawals: { currency: string }[]): Promise<Balances> {
    const accounts = await accountBalancesAsOf(this.documents, contractors, asOf, ['contractor_balance', 'contractor_receivable']);
    const byCurrency = new Map<string, { available: bigint; owed: bigint }>();
    for (const currency of withdrawals.map((w) => w.currency)) byCurrency.set(currency, { available: 0n, owed: 0n });
    for (const { accountType, currency, balanceCents } of accounts) {
      const figures = byCurrency.get(currency) ?? { available: 0n, owed: 0n };
      const cents = BigInt(balanceCents);
      if (accountType === 'contractor_balance' && cents > 0n) figures.available += cents;
      if (accountType === 'contractor_receivable' && cents < 0n) figures.owed -= cents;
      byCurrency.set(currency, figures);
    }
    return [...byCurrency.entries()]
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([currency, { available, owed }]) => ({ currency, availableCents: available.toString(), owedCents: owed.toString() }));
  }

  /** The person's withdrawals as they stood at `asOf`: its stream's events up to then, folded. */
  private async withdrawalsAsOf(userId: string, asOf: string): Promise<ContractorWithdrawalsState> {
    const recorded = await this.events.readStream(contractorWithdrawalsStreamId(userId));
    return recorded
      .filter((event) => event.metadata.occurredAt <= asOf)
      .reduce(
        (state, event) => contractorWithdrawalsDecider.evolve(state, { type: event.type, data: event.data } as ContractorWithdrawalEvent),
        contractorWithdrawalsDecider.initialState(),
      );
  }
}
