import { RecordedEvent } from '../../platform/event-store/event-store.port';
import { DocumentReader } from '../../platform/read-store/document-store.port';
import { StagedWriter } from '../../platform/projections/staged-writer';
import { Posting } from '../domain/posting';
import { ContractorAccountDoc, LEDGER_CONTRACTOR_ACCOUNTS, LEDGER_POSTINGS, LEDGER_SPLITS, LedgerProjection, LedgerSplit } from '../projections/ledger.projection';
import { verifyLedger } from './ledger-verifier';

/**
 * Issue 26 in the ledger: a row reversal takes what the contractor still has from its service balance
 * and records what it already withdrew as its receivable; its next credits repay that first; a withdrawal
 * decided before a reversal reached the ledger turns the reversal's part into a receivable, so no
 * balance ever goes below zero. ledger:verify checks reversals <= transferred and receivables >= 0.
 */
const NOTHING: DocumentReader = { get: async () => null, find: async () => [], count: async () => 0 };
const T = '2026-03-01T12:00:00.000Z';
let position = 0;
const ev = (streamId: string, type: string, data: Record<string, unknown>): RecordedEvent =>
  ({
    id: `evt-${position}`,
    type,
    data,
    streamId,
    revision: position,
    position: ++position,
    metadata: { correlationId: 'c', causationId: null, actor: 't', occurredAt: T },
  }) as RecordedEvent;

const split = (...e: [string, Record<string, unknown>][]) => e.map(([type, data]) => ev('split-spl_1', type, { splitId: 'spl_1', ...data }));
const dist = (n: number, amountCents: string) => ({
  id: `dst_${n}`,
  contractorPaymentProfileId: null,
  subVendorId: `sv_${n}`,
  contractorDisplayName: `V${n}`,
  creatorProfileId: null,
  walletEmail: null,
  contractorEmail: `v${n}@x.test`,
  amountCents,
  earlyPayoutElected: n === 1,
  autoWithdrawElected: false,
  businessCoversFee: false,
});
const created = (): [string, Record<string, unknown>] => [
  'split.created',
  {
    smeCompanyId: 'co_sme',
    enterpriseCompanyId: 'co_ent',
    currency: 'USD',
    totalAmountCents: '15000',
    enterpriseFeeAmountCents: '0',
    marginAmountCents: '0',
    distributions: [dist(1, '10000'), dist(2, '5000')],
    smeCoveredFeesDrawn: true,
  },
];
const funded = (): [string, Record<string, unknown>] => ['split.funded', { rosterSumCents: '15000', feeBufferAmountCents: '0' }];
const started = (n: number, fee: string, net: string): [string, Record<string, unknown>] => [
  'split.roster_entry.transfer_started',
  { rosterEntryId: `dst_${n}`, payoutId: `po_t${n}`, feeAmountCents: fee, netAmountCents: net },
];
const settled = (n: number): [string, Record<string, unknown>] => ['split.roster_entry.settled', { rosterEntryId: `dst_${n}`, payoutId: `po_t${n}` }];
const reversed = (amount: string, fee = '0', id = 'rev_1'): [string, Record<string, unknown>] => [
  'split.roster_entry.reversed',
  { rosterEntryId: 'dst_1', reversalId: id, amountCents: amount, feeRefundedCents: fee, reason: 'r', idempotencyKey: id, requestHash: 'h', reversedBy: 'u', reversedAt: T },
];
const withdrawal = (type: 'payout.requested' | 'payout.completed' | 'payout.failed', amount: string, payoutId = 'po_w1') =>
  ev(`payout-${payoutId}`, type, {
    payoutId,
    kind: 'contractor_withdrawal',
    userId: 'usr_1',
    currency: 'USD',
    allocations: [{ contractor: 'sv_1', amountCents: amount }],
    amountCents: amount,
    destination: 'w@x.test',
    attempt: 1,
    reason: 'refused',
    at: T,
  });

async function ledgerOf(events: RecordedEvent[]) {
  const projection = new LedgerProjection();
  const writer = new StagedWriter(NOTHING);
  for (const event of events) if (projection.handles(event)) await projection.apply(event, writer);
  const puts = writer.writes().flatMap((w) => (w.kind === 'put' ? [w] : []));
  const postings = puts.filter((w) => w.collection === LEDGER_POSTINGS).map((w) => w.doc as Posting);
  const splits = puts.filter((w) => w.collection === LEDGER_SPLITS).map((w) => w.doc as LedgerSplit);
  const account = (await writer.get<ContractorAccountDoc>(LEDGER_CONTRACTOR_ACCOUNTS, 'sv_1:USD'))!;
  return { postings, splits, account, report: verifyLedger(postings, splits) };
}
const line = (account: string, debit: string, credit: string) => ({ account, debit, credit });
const shape = (p: Posting) => [p.kind, p.entries];

describe('ledger: row reversals and contractor receivables (issue 26)', () => {
  beforeEach(() => (position = 0));
  const transferred = () => split(created(), funded(), started(1, '150', '9850'), settled(1));

  it('takes a reversal from the service balance to the SME, with the fee share from platform_fees', async () => {
    const { postings, account, report } = await ledgerOf([...transferred(), ...split(reversed('2500', '38'))]);
    expect(shape(postings.at(-1)!)).toEqual([
      'row_reversal',
      [line('contractor_balance:sv_1', '2500', '0'), line('platform_fees', '38', '0'), line('company_balance:co_sme', '0', '2538')],
    ]);
    expect(account).toMatchObject({ creditedCents: '9850', reversedCents: '2500', owedCents: '0' });
    expect(report.violations).toEqual([]);
  });

  it("records what the contractor already withdrew as its receivable; another contractor's credit repays nothing of it", async () => {
    const { postings, account, report } = await ledgerOf([
      ...transferred(),
      withdrawal('payout.requested', '9000'),
      withdrawal('payout.completed', '9000'),
      ...split(reversed('2500'), started(2, '0', '5000'), settled(2)),
    ]);
    const kinds = postings.map((p) => p.kind);
    expect(kinds.slice(-2)).toEqual(['row_reversal', 'row_transfer']);
    // 850 still in the balance; 1650 had been withdrawn: owed.
    expect(shape(postings.find((p) => p.kind === 'row_reversal')!)).toEqual([
      'row_reversal',
      [line('contractor_balance:sv_1', '850', '0'), line('contractor_receivable:sv_1', '1650', '0'), line('company_balance:co_sme', '0', '2500')],
    ]);
    // Row 2 pays sv_2: sv_1 owes on until a credit of its own.
    expect(account).toMatchObject({ reversedCents: '850', owedCents: '1650' });
    expect(report.violations).toEqual([]);
  });

  it("repays the receivable out of the same contractor's next credit, before anything is withdrawable", async () => {
    position = 0;
    const twoSplits = [
      ...transferred(),
      withdrawal('payout.requested', '9850'),
      withdrawal('payout.completed', '9850'),
      ...split(reversed('2500')),
      // A second Split paying the same contractor (sv_1) 4000.
      ev('split-spl_2', 'split.created', { ...created()[1], splitId: 'spl_2', totalAmountCents: '4000', distributions: [dist(1, '4000')] }),
      ev('split-spl_2', 'split.funded', { splitId: 'spl_2', rosterSumCents: '4000', feeBufferAmountCents: '0' }),
      ev('split-spl_2', 'split.roster_entry.transfer_started', { splitId: 'spl_2', rosterEntryId: 'dst_1', payoutId: 'po_x', feeAmountCents: '0', netAmountCents: '4000' }),
      ev('split-spl_2', 'split.roster_entry.settled', { splitId: 'spl_2', rosterEntryId: 'dst_1', payoutId: 'po_x' }),
    ];
    const { postings, account, report } = await ledgerOf(twoSplits);
    expect(shape(postings.at(-1)!)).toEqual(['contractor_receivable_repaid', [line('contractor_balance:sv_1', '2500', '0'), line('contractor_receivable:sv_1', '0', '2500')]]);
    // 9850 + 4000 credited, 9850 withdrawn, 2500 reversed: 1500 left to withdraw, nothing owed.
    expect(account).toMatchObject({ creditedCents: '13850', withdrawnCents: '9850', reversedCents: '2500', owedCents: '0' });
    expect(report.violations).toEqual([]);
  });

  it('turns a reversal into a receivable when a withdrawal decided before it reaches the ledger after it', async () => {
    const { postings, account, report } = await ledgerOf([...transferred(), ...split(reversed('2500')), withdrawal('payout.requested', '9850')]);
    const request = postings.filter((p) => p.kind.startsWith('contractor_'));
    expect(request.map(shape)).toEqual([
      ['contractor_receivable_from_withdrawal', [line('contractor_receivable:sv_1', '2500', '0'), line('contractor_balance:sv_1', '0', '2500')]],
      ['contractor_withdrawal', [line('contractor_balance:sv_1', '9850', '0'), line('contractor_in_transit:usr_1', '0', '9850')]],
    ]);
    expect(account).toMatchObject({ reversedCents: '0', owedCents: '2500', withdrawnCents: '9850' });
    expect(report.violations).toEqual([]);
  });

  it('repays the receivable out of a failed withdrawal that comes back to the balance', async () => {
    const { postings, account, report } = await ledgerOf([
      ...transferred(),
      withdrawal('payout.requested', '9850'),
      ...split(reversed('2500')),
      withdrawal('payout.failed', '9850'),
    ]);
    expect(postings.slice(-2).map(shape)).toEqual([
      ['contractor_withdrawal_reversed', [line('contractor_in_transit:usr_1', '9850', '0'), line('contractor_balance:sv_1', '0', '9850')]],
      ['contractor_receivable_repaid', [line('contractor_balance:sv_1', '2500', '0'), line('contractor_receivable:sv_1', '0', '2500')]],
    ]);
    expect(account).toMatchObject({ owedCents: '0', reversedCents: '2500', withdrawnCents: '0' });
    expect(report.violations).toEqual([]);
  });

  it('flags a reversal beyond what the row transferred, and a receivable repaid beyond what was owed', async () => {
    const { postings, splits } = await ledgerOf([...transferred(), ...split(reversed('9000'), reversed('900', '0', 'rev_2'))]);
    expect(verifyLedger(postings, splits).violations.map((v) => v.rule)).toContain('row_reversal');
    const overRepaid: Posting = {
      ...postings.at(-1)!,
      id: 'x',
      position: 999,
      kind: 'contractor_receivable_repaid',
      entries: [line('contractor_balance:sv_9', '5', '0'), line('contractor_receivable:sv_9', '0', '5')],
    };
    expect(verifyLedger([...postings, overRepaid], splits).violations.map((v) => v.rule)).toContain('contractor_receivable');
  });

  it('counts a row the SME took back as delivered to nobody: the settled Split still verifies', async () => {
    const { splits, postings, report } = await ledgerOf([
      ...transferred(),
      ...split(
        started(2, '0', '5000'),
        ['split.roster_entry.failed_for_good', { rosterEntryId: 'dst_2' }],
        ['split.roster_entry.taken_back', { rosterEntryId: 'dst_2', amountCents: '5000' }],
        ['split.settled', {}],
      ),
    ]);
    expect(splits[0]!.settled).toBe(true);
    expect(postings.filter((p) => p.kind === 'row_transfer')).toHaveLength(1);
    expect(report.violations).toEqual([]);
  });
});
