import { given } from '../../../test/support/given-when-then';
import { created, row, SPLIT_CREATED_AT } from '../../../test/support/split-events';
import { SplitCommand } from './split.commands';
import { splitDecider } from './split.decider';

/** Issue 27: an enterprise with an invoice overdue beyond the limit approves nothing, and its auto-accept waits. */
describe('split decider: approvals while an invoice is overdue', () => {
  const overdueInvoice = { invoiceId: 'inv_9', daysOverdue: 31 };
  const approve = (blocked: typeof overdueInvoice | null): SplitCommand => ({
    type: 'ApproveSplit',
    data: { splitId: 'spl_1', enterpriseCompanyId: 'co_ent', expectedRevision: 1, overdueInvoice: blocked },
    metadata: { now: SPLIT_CREATED_AT, actor: 'usr_ent' },
  });
  const create = (blocked: typeof overdueInvoice | null): SplitCommand => ({
    type: 'CreateSplit',
    data: {
      splitId: 'spl_1',
      legAPayoutId: 'po_a',
      smeCompanyId: 'co_sme',
      smeCompanyName: 'SME',
      enterprise: { companyId: 'co_ent', name: 'Ent', netTermsDays: 30 },
      apContactBusinessProfileId: 'bp_1',
      clientIdempotencyKey: 'k',
      requestHash: 'h',
      totalAmountCents: null,
      currency: 'USD',
      rows: [
        {
          distributionId: 'dst_1',
          contractor: { kind: 'sub_vendor', subVendorId: 'sv_1', creatorProfileId: null, displayName: 'Vendor 1', email: 'v1@example.com', walletEmail: null },
          amountCents: '1000',
          earlyPayoutElected: false,
          autoWithdrawElected: false,
          businessCoversFee: false,
        },
      ],
      settings: { autoAccept: true, coverFees: false },
      overdueInvoice: blocked,
      legAFeeBps: 100,
    },
    metadata: { now: SPLIT_CREATED_AT, actor: 'usr_sme' },
  });

  it('refuses the approval with ENTERPRISE_INVOICE_OVERDUE, naming the invoice, and appends nothing', () =>
    given(splitDecider, created([row(1, '1000')], '1000', '0'))
      .when(approve(overdueInvoice))
      .thenFails('ENTERPRISE_INVOICE_OVERDUE', (error) => {
        expect(error.kind).toBe('unprocessable');
        expect(error.details).toEqual([expect.objectContaining({ invoiceId: 'inv_9' })]);
      }));

  it('approves once nothing is overdue beyond the limit', () =>
    given(splitDecider, created([row(1, '1000')], '1000', '0'))
      .when(approve(null))
      .then((events) => expect(events.map((e) => e.type)).toEqual(['split.leg_a.approved'])));

  it('suspends auto-accept: the Split is created and waits for approval', () => {
    given(splitDecider)
      .when(create(overdueInvoice))
      .then((events) => expect(events.map((e) => e.type)).toEqual(['split.created']));
    given(splitDecider)
      .when(create(null))
      .then((events) => expect(events.map((e) => e.type)).toEqual(['split.created', 'split.leg_a.approved']));
  });
});
