import { RecordedEvent } from '../../platform/event-store/event-store.port';
import { DocumentReader } from '../../platform/read-store/document-store.port';
import { StagedWriter } from '../../platform/projections/staged-writer';
import { Posting } from '../domain/posting';
import { CompanyBalanceDoc, LEDGER_COMPANY_BALANCES, LEDGER_POSTINGS, LEDGER_SPLITS, LedgerProjection, LedgerSplit } from '../projections/ledger.projection';
import { verifyLedger } from './ledger-verifier';

const NOTHING: DocumentReader = { get: async () => null, find: async () => [], count: async () => 0 };
const CO = 'co_1';
let revision = 0;
const ev = (type: string, data: Record<string, unknown>): RecordedEvent =>
  ({
    id: `evt-${revision}`,
    type,
    data: { companyId: CO, currency: 'USD', ...data },
    streamId: `balance-${CO}`,
    revision: revision,
    position: ++revision,
    metadata: { correlationId: 'c', causationId: null, actor: 't', occurredAt: '2026-03-01T12:00:00.000Z' },
  }) as RecordedEvent;
const topUp = (amountCents: string) => ev('company_balance.topped_up', { topUpId: `t${revision}`, amountCents, toppedUpAt: 'x' });
const reserved = (sessionId: string, amountCents: string) => ev('company_balance.reserved', { sessionId, amountCents, requestHash: 'h', reservedAt: 'x' });
const released = (sessionId: string, amountCents: string) => ev('company_balance.reservation_released', { sessionId, amountCents, reason: 'cancelled', releasedAt: 'x' });
const paid = (sessionId: string, amountCents: string) =>
  ev('company_balance.reservation_paid', { sessionId, amountCents, payoutId: 'po_1', walletEmail: 'w@x.example', paidAt: 'x' });

async function ledgerOf(events: RecordedEvent[]) {
  const projection = new LedgerProjection();
  const writer = new StagedWriter(NOTHING);
  for (const event of events) await projection.apply(event, writer);
  const puts = writer.writes().flatMap((w) => (w.kind === 'put' ? [w] : []));
  return {
    postings: puts.filter((w) => w.collection === LEDGER_POSTINGS).map((w) => w.doc as Posting),
    balances: puts.filter((w) => w.collection === LEDGER_COMPANY_BALANCES).map((w) => w.doc as CompanyBalanceDoc),
  };
}

describe('ledger: company balance and Payout Embed reservations', () => {
  beforeEach(() => (revision = 0));

  it('posts top-up, reserve, release and pay as balanced postings and keeps the balance document in step', async () => {
    const { postings, balances } = await ledgerOf([topUp('1000'), reserved('pes_1', '300'), reserved('pes_2', '200'), released('pes_1', '300'), paid('pes_2', '200')]);
    expect(postings.map((p) => [p.kind, p.entries])).toEqual([
      [
        'top_up',
        [
          { account: 'company_deposits:co_1', debit: '1000', credit: '0' },
          { account: 'company_balance:co_1', debit: '0', credit: '1000' },
        ],
      ],
      [
        'payout_reserve',
        [
          { account: 'company_balance:co_1', debit: '300', credit: '0' },
          { account: 'payout_reserve:co_1', debit: '0', credit: '300' },
        ],
      ],
      [
        'payout_reserve',
        [
          { account: 'company_balance:co_1', debit: '200', credit: '0' },
          { account: 'payout_reserve:co_1', debit: '0', credit: '200' },
        ],
      ],
      [
        'payout_release',
        [
          { account: 'payout_reserve:co_1', debit: '300', credit: '0' },
          { account: 'company_balance:co_1', debit: '0', credit: '300' },
        ],
      ],
      [
        'payout_paid',
        [
          { account: 'payout_reserve:co_1', debit: '200', credit: '0' },
          { account: 'recipient_wallet:w@x.example', debit: '0', credit: '200' },
        ],
      ],
    ]);
    expect(balances.at(-1)).toEqual({ id: 'co_1:USD', companyId: CO, currency: 'USD', balanceCents: '800', reservedCents: '0', committedCents: '0', marginHeldCents: '0' });
    const report = verifyLedger(postings, []);
    expect(report.violations).toEqual([]);
    expect(report).toMatchObject({ reservations: 2, openReservations: 0 });
  });

  it('flags a reservation released twice, or both paid and released', async () => {
    const twice = await ledgerOf([topUp('1000'), reserved('pes_1', '300'), released('pes_1', '300'), released('pes_1', '300')]);
    expect(verifyLedger(twice.postings, []).violations).toEqual([
      { rule: 'negative_balance', message: 'payout_reserve:co_1 went to -300 at posting balance-co_1:000003' },
      { rule: 'reservation', message: 'pes_1: paid or released 2 times (payout_release, payout_release)' },
    ]);
    const both = await ledgerOf([topUp('1000'), reserved('pes_1', '300'), paid('pes_1', '300'), released('pes_1', '300')]);
    expect(verifyLedger(both.postings, []).violations.map((v) => v.rule)).toContain('reservation');
  });

  it('flags a reservation that overdraws the company balance', async () => {
    const { postings } = await ledgerOf([topUp('100'), reserved('pes_1', '300')]);
    expect(verifyLedger(postings, []).violations).toEqual([
      expect.objectContaining({ rule: 'negative_balance', message: expect.stringContaining('company_balance:co_1 went to -200') }),
    ]);
  });

  it('counts an open reservation without flagging it', async () => {
    const { postings } = await ledgerOf([topUp('1000'), reserved('pes_1', '300')]);
    expect(verifyLedger(postings, [])).toMatchObject({ violations: [], reservations: 1, openReservations: 1 });
  });
});

describe('ledger: contractor withdrawals', () => {
  const ref = { payoutId: 'po_w', kind: 'contractor_withdrawal', userId: 'usr_1', currency: 'USD', allocations: [{ contractor: 'cpp_1', amountCents: '400' }] };
  const payout = (type: string, extra: Record<string, unknown> = {}): RecordedEvent =>
    ({
      id: `evt-${revision}`,
      type,
      data: { ...ref, ...extra },
      streamId: 'payout-po_w',
      revision,
      position: ++revision,
      metadata: { correlationId: 'c', causationId: null, actor: 't', occurredAt: '2026-03-01T12:00:00.000Z' },
    }) as RecordedEvent;
  const requested = () => payout('payout.requested', { amountCents: '400', destination: 'w@x.example', attempt: 1, requestedAt: 'x' });
  /** The contractor account's 400 of credit, as a row transfer would post it. */
  const credit400: Posting = {
    id: 'spl_1:0002',
    splitId: 'spl_1',
    sequence: 2,
    position: 0,
    currency: 'USD',
    kind: 'row_transfer',
    memo: 'row',
    postedAt: 'x',
    eventId: 'e',
    entries: [
      { account: 'enterprise_receivable:co_e', debit: '400', credit: '0' },
      { account: 'contractor_balance:cpp_1', debit: '0', credit: '400' },
    ],
  };
  beforeEach(() => (revision = 0));

  it('posts request, then paid or reversed, through the in-transit account', async () => {
    const paidOut = await ledgerOf([requested(), payout('payout.processing', { at: 'x' }), payout('payout.completed', { at: 'x' })]);
    expect(paidOut.postings.map((p) => [p.kind, p.entries.map((e) => `${e.account} ${e.debit}/${e.credit}`)])).toEqual([
      ['contractor_withdrawal', ['contractor_balance:cpp_1 400/0', 'contractor_in_transit:usr_1 0/400']],
      ['contractor_withdrawal_paid', ['contractor_in_transit:usr_1 400/0', 'contractor_wallet:usr_1 0/400']],
    ]);
    expect(verifyLedger([credit400, ...paidOut.postings], [])).toMatchObject({ violations: [], contractorWithdrawals: 1, withdrawalsInTransit: 0 });
    revision = 0;
    const reversed = await ledgerOf([requested(), payout('payout.failed', { reason: 'no', at: 'x' })]);
    expect(reversed.postings.map((p) => p.kind)).toEqual(['contractor_withdrawal', 'contractor_withdrawal_reversed']);
    expect(verifyLedger([credit400, ...reversed.postings], []).violations).toEqual([]);
  });

  it('flags a withdrawal beyond the balance, and one that ends twice', async () => {
    const { postings } = await ledgerOf([requested(), payout('payout.completed', { at: 'x' })]);
    expect(verifyLedger(postings, []).violations).toEqual([
      expect.objectContaining({ rule: 'negative_balance', message: expect.stringContaining('contractor_balance:cpp_1 went to -400') }),
    ]);
    const ended = postings[1]!;
    expect(verifyLedger([credit400, ...postings, { ...ended, id: 'again', kind: 'contractor_withdrawal_reversed' }], []).violations.map((v) => v.rule)).toEqual([
      'negative_balance',
      'contractor_withdrawal',
    ]);
    // The in-transit account went below zero (ended twice) and the payout ended twice: both caught.
  });
});

describe('ledger: fees the SME covers (issue 23)', () => {
  const SME = 'co_sme';
  let position = 1000;
  const revisions = new Map<string, number>();
  const at = (type: string, streamId: string, data: Record<string, unknown>): RecordedEvent =>
    ({
      id: `evt-${position}`,
      type,
      data,
      streamId,
      revision: revisions.set(streamId, (revisions.get(streamId) ?? -1) + 1).get(streamId),
      position: ++position,
      metadata: { correlationId: 'c', causationId: null, actor: 't', occurredAt: '2026-03-01T12:00:00.000Z' },
    }) as RecordedEvent;
  const split = (type: string, data: Record<string, unknown>) => at(type, 'split-spl_1', { splitId: 'spl_1', ...data });
  const distribution = {
    id: 'dst_1',
    contractorPaymentProfileId: null,
    subVendorId: 'sv_1',
    contractorDisplayName: 'V',
    creatorProfileId: null,
    walletEmail: 'w@x.example',
    contractorEmail: 'v@x.example',
    amountCents: '1000000',
    earlyPayoutElected: true,
    autoWithdrawElected: false,
    businessCoversFee: true,
  };
  /** The example: one row of 1000000, early payout, fee (15000) covered by the SME, no margin. */
  const lifecycle = (options: { drawn: boolean; paid: boolean }) => [
    at('company_balance.topped_up', `balance-${SME}`, { companyId: SME, currency: 'USD', topUpId: 't1', amountCents: '20000', toppedUpAt: 'x' }),
    ...(options.drawn
      ? [
          at('company_balance.split_fees_reserved', `balance-${SME}`, {
            companyId: SME,
            currency: 'USD',
            splitId: 'spl_1',
            amountCents: '15000',
            setAsideCents: '15000',
            reservedAt: 'x',
          }),
        ]
      : []),
    split('split.created', {
      smeCompanyId: SME,
      enterpriseCompanyId: 'co_ent',
      currency: 'USD',
      totalAmountCents: '1000000',
      marginAmountCents: '0',
      enterpriseFeeAmountCents: '0',
      distributions: [distribution],
      ...(options.drawn ? { smeCoveredFeesDrawn: true } : {}),
    }),
    split('split.funded', {
      legAPayoutId: 'po_a',
      rosterSumCents: '1000000',
      feeBufferAmountCents: '15000',
      ...(options.drawn ? { feeCoverFromMarginCents: '0' } : {}),
      fundedAt: 'x',
    }),
    split('split.roster_entry.transfer_started', {
      rosterEntryId: 'dst_1',
      payoutId: 'po_t',
      attempt: 1,
      instant: true,
      amountCents: '1000000',
      feeAmountCents: '15000',
      netAmountCents: '1000000',
      businessCoversFee: true,
    }),
    split('split.roster_entry.settled', { rosterEntryId: 'dst_1', payoutId: 'po_t', ...(options.paid ? { coveredFeePaidCents: '15000' } : {}), settledAt: 'x' }),
    split('split.settled', { settledAt: 'x' }),
  ];
  async function verify(events: RecordedEvent[]) {
    const projection = new LedgerProjection();
    const writer = new StagedWriter(NOTHING);
    for (const event of events) await projection.apply(event, writer);
    const docs = writer.writes().flatMap((w) => (w.kind === 'put' ? [w] : []));
    const postings = docs.filter((w) => w.collection === LEDGER_POSTINGS).map((w) => w.doc as Posting);
    const splits = docs.filter((w) => w.collection === LEDGER_SPLITS).map((w) => w.doc as LedgerSplit);
    const balance = docs.filter((w) => w.collection === LEDGER_COMPANY_BALANCES).map((w) => w.doc as CompanyBalanceDoc);
    return { postings, report: verifyLedger(postings, splits), balance: balance.at(-1) };
  }

  it('pays the covered fee out of what was set aside from the balance: nothing stays due, nothing stays set aside', async () => {
    const { postings, report, balance } = await verify(lifecycle({ drawn: true, paid: true }));
    expect(report.violations).toEqual([]);
    expect(report.legacyFeesDue).toEqual([]);
    expect(postings.map((p) => [p.kind, p.entries])).toEqual(
      expect.arrayContaining([
        [
          'sme_fee_set_aside',
          [
            { account: `company_balance:${SME}`, debit: '15000', credit: '0' },
            { account: `sme_fee_reserve:${SME}`, debit: '0', credit: '15000' },
          ],
        ],
        [
          'sme_fee_paid',
          [
            { account: `sme_fee_reserve:${SME}`, debit: '15000', credit: '0' },
            { account: `sme_fee_due:${SME}`, debit: '0', credit: '15000' },
          ],
        ],
      ]),
    );
    // 20000 topped up, 15000 paid as the fee: 5000 left, nothing set aside any more, nothing owed to the contractor.
    expect(balance).toMatchObject({ balanceCents: '5000', committedCents: '0', feeReservedCents: '0' });
  });

  it('flags an sme_fee_due left open on a settled Split without a margin', async () => {
    const { report } = await verify(lifecycle({ drawn: true, paid: false }));
    expect(report.violations).toEqual([{ rule: 'sme_fee_due', message: 'spl_1: 15000 of the fees its SME covers is still due (sme_fee_due) after settlement' }]);
  });

  it('flags a covered fee paid out of money that was never set aside (sme_fee_reserve below zero)', async () => {
    const events = lifecycle({ drawn: true, paid: true }).filter((e) => e.type !== 'company_balance.split_fees_reserved');
    const { report } = await verify(events);
    expect(report.violations.map((v) => v.rule)).toEqual(['negative_balance']);
  });

  it('reports, without failing, the open fee of a Split created before issue 23 (the old rule never drew it)', async () => {
    const { report } = await verify(lifecycle({ drawn: false, paid: false }));
    expect(report.violations).toEqual([]);
    expect(report.legacyFeesDue).toEqual([{ splitId: 'spl_1', dueCents: '15000' }]);
  });
});
