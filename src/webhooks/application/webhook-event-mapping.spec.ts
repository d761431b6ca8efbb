import { NOW, recorded } from '../../../test/support/workflow-given-when-then';
import { WEBHOOK_EVENT_TYPES } from '../domain/webhook-event-types';
import { publicWebhookEvent } from './webhook-event-mapping';

const session = { sessionId: 'pes_1', companyId: 'co_1', amountCents: '15000', currency: 'USD' };
const sessionData = { sessionId: 'pes_1', amountCents: '15000', currency: 'USD' };

/** One recorded event per public type, as the owning module records it, and the delivery `data` it becomes. */
const CASES: [string, object, object | null][] = [
  ['split.leg_a.approved', { splitId: 'spl_1', legAPayoutId: 'po_a', approvedBy: 'usr', autoAccepted: false, approvedAt: NOW }, { splitId: 'spl_1', legAPayoutId: 'po_a' }],
  ['split.leg_a.rejected', { splitId: 'spl_1', legAPayoutId: 'po_a', rejectedBy: 'usr', reason: null, rejectedAt: NOW }, { splitId: 'spl_1', legAPayoutId: 'po_a' }],
  ['split.leg_a.claimed', { splitId: 'spl_1', legAPayoutId: 'po_a', amountCents: '100', claimedAt: NOW }, { splitId: 'spl_1', legAPayoutId: 'po_a' }],
  ['split.roster_entry.settled', { splitId: 'spl_1', rosterEntryId: 'dst_1', payoutId: 'po_r', settledAt: NOW }, { splitId: 'spl_1', rosterEntryId: 'dst_1' }],
  [
    'split.roster_entry.failed',
    { splitId: 'spl_1', rosterEntryId: 'dst_1', payoutId: null, attempt: 1, reason: 'x', nextAttemptAt: NOW, failedAt: NOW },
    { splitId: 'spl_1', rosterEntryId: 'dst_1', final: false },
  ],
  [
    'split.margin.settled',
    { splitId: 'spl_1', smeCompanyId: 'co_1', currency: 'USD', marginAmountCents: '5', feeRecoveredCents: '0', creditedToBalanceCents: '5', via: 'net_terms', releasedAt: NOW },
    { splitId: 'spl_1' },
  ],
  [
    'checkout.order.completed',
    { orderId: 'ord_1', merchantCompanyId: 'co_m', payoutId: 'po_c', amountMinorUnits: '2500', currency: 'EUR', provider: 'CARD_PROCESSOR', renewalOf: null, at: NOW },
    { payoutId: 'po_c', amount: '2500', currency: 'EUR', provider: 'CARD_PROCESSOR' },
  ],
  ['payout_embed.session.created', { ...session, payoutId: 'po_s', createdAt: NOW }, { ...sessionData, status: 'created' }],
  ['payout_embed.session.claimed', { ...session, claimedAt: NOW }, { ...sessionData, status: 'claimed' }],
  ['payout_embed.session.completed', { ...session, payoutId: 'po_s', walletEmail: 'w@x', completedAt: NOW }, { ...sessionData, status: 'completed', payoutId: 'po_s' }],
  [
    'payout_embed.session.failed',
    { ...session, payoutId: 'po_s', walletEmail: 'w@x', failureReason: 'refused', failedAt: NOW },
    { ...sessionData, status: 'failed', payoutId: 'po_s', failureReason: 'refused' },
  ],
  ['payout_embed.session.expired', { ...session, expiredAt: NOW }, { ...sessionData, status: 'expired' }],
  ['payout_embed.session.cancelled', { ...session, cancelledAt: NOW }, { ...sessionData, status: 'cancelled' }],
  [
    'checkout.order.refund_succeeded',
    { orderId: 'ord_1', merchantCompanyId: 'co_m', refundId: 'rf_1', amountMinorUnits: '500', currency: 'EUR', at: NOW },
    { orderId: 'ord_1', refundId: 'rf_1', amount: '500', currency: 'EUR', status: 'succeeded' },
  ],
  [
    'checkout.order.refund_failed',
    { orderId: 'ord_1', merchantCompanyId: 'co_m', refundId: 'rf_2', amountMinorUnits: '500', currency: 'EUR', failureCode: 'refund_declined', failureReason: 'no', at: NOW },
    { orderId: 'ord_1', refundId: 'rf_2', amount: '500', currency: 'EUR', status: 'failed' },
  ],
  ['checkout.order.refund_requested', { orderId: 'ord_1', refundId: 'rf_1' }, null],
  ['split.funded', { splitId: 'spl_1' }, null],
  ['payout_embed.session.payout_started', { ...session, payoutId: 'po_s' }, null],
  ['checkout.order.paid', { orderId: 'ord_1' }, null],
  // Issue 26: a row that failed for good is the same public type, final: true; a reversal names its amount.
  [
    'split.roster_entry.failed_for_good',
    { splitId: 'spl_1', rosterEntryId: 'dst_1', payoutId: 'po_r', attempt: 9, reason: 'x', firstFailedAt: NOW, failedAt: NOW },
    { splitId: 'spl_1', rosterEntryId: 'dst_1', final: true },
  ],
  [
    'split.roster_entry.reversed',
    {
      splitId: 'spl_1',
      rosterEntryId: 'dst_1',
      reversalId: 'rev_1',
      amountCents: '250',
      feeRefundedCents: '3',
      reason: 'r',
      idempotencyKey: 'k',
      requestHash: 'h',
      reversedBy: 'u',
      reversedAt: NOW,
    },
    { splitId: 'spl_1', rosterEntryId: 'dst_1', reversalId: 'rev_1', amountCents: '250' },
  ],
  ['split.roster_entry.repointed', { splitId: 'spl_1' }, null],
  ['split.roster_entry.taken_back', { splitId: 'spl_1' }, null],
  // Issue 27: the Split's invoice, to both parties.
  [
    'invoice.paid',
    { invoiceId: 'inv_1', splitId: 'spl_1', collectionStatus: 'PAID', smeCompanyId: 'co_s', enterpriseCompanyId: 'co_e', currency: 'USD', amountCents: '1000', paidAt: NOW },
    { invoiceId: 'inv_1', splitId: 'spl_1', amountCents: '1000', currency: 'USD' },
  ],
  [
    'invoice.overdue',
    {
      invoiceId: 'inv_1',
      splitId: 'spl_1',
      collectionStatus: 'OVERDUE',
      smeCompanyId: 'co_s',
      enterpriseCompanyId: 'co_e',
      currency: 'USD',
      outstandingCents: '400',
      dueAt: NOW,
      overdueAt: NOW,
    },
    { invoiceId: 'inv_1', splitId: 'spl_1', outstandingCents: '400', currency: 'USD', dueAt: NOW },
  ],
  ['invoice.reminder_sent', { invoiceId: 'inv_1', splitId: 'spl_1' }, null],
];

describe('public webhook events, as each module maps its own recorded events', () => {
  it.each(CASES)('%s becomes exactly its documented payload', (type, data, payload) => {
    const published = publicWebhookEvent(recorded(type, data));
    expect(published?.data ?? null).toStrictEqual(payload);
  });

  it('maps a source event to every public type', () => {
    const types = CASES.map(([type, data]) => publicWebhookEvent(recorded(type, data))?.type).filter(Boolean);
    expect(new Set(types)).toEqual(new Set(WEBHOOK_EVENT_TYPES));
  });

  it('names the recipient: the Split for Split events, the company for the others', () => {
    expect(publicWebhookEvent(recorded(...(CASES[0]!.slice(0, 2) as [string, object])))).toMatchObject({ splitId: 'spl_1' });
    expect(publicWebhookEvent(recorded(...(CASES[6]!.slice(0, 2) as [string, object])))).toMatchObject({ companyId: 'co_m' });
    expect(publicWebhookEvent(recorded(...(CASES[7]!.slice(0, 2) as [string, object])))).toMatchObject({ companyId: 'co_1' });
  });

  it('names both parties of the Split as the recipients of an invoice event', () => {
    const paid = CASES.find(([type]) => type === 'invoice.paid')!;
    expect(publicWebhookEvent(recorded(paid[0], paid[1]))).toMatchObject({ companyIds: ['co_s', 'co_e'] });
  });

  it('adds subscriptionId to a renewal order only', () => {
    const renewal = {
      orderId: 'ord_2',
      merchantCompanyId: 'co_m',
      payoutId: 'po_c',
      amountMinorUnits: '2500',
      currency: 'EUR',
      provider: 'WALLET_PROCESSOR',
      renewalOf: 'sub_1',
      at: NOW,
    };
    expect(publicWebhookEvent(recorded('checkout.order.completed', renewal))?.data).toStrictEqual({
      payoutId: 'po_c',
      amount: '2500',
      currency: 'EUR',
      provider: 'WALLET_PROCESSOR',
      subscriptionId: 'sub_1',
    });
  });
});
