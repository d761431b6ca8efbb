import { firing, givenWorkflow, recorded } from '../../../test/support/workflow-given-when-then';
import { OrderState } from '../domain/checkout-order.decider';
import { SavedCard } from '../domain/checkout.events';
import { SubscriptionState } from '../domain/subscription.decider';
import { ChargeRenewalMessage } from './charge-renewal.handler';
import { orderExpiryTimer, paymentAttemptCheckTimer, refundCheckTimer, renewalTimer } from './checkout.timers';
import { DebitMerchantRefundMessage } from './debit-merchant-refund.handler';
import { PayOutOrderMessage } from './pay-out-order.handler';
import { SettleRefundMessage } from './settle-refund.handler';
import { checkoutWorkflow } from './checkout.workflow';
import { CreditFailedPayoutMessage } from './credit-failed-payout.handler';
import { PLATFORM_COLLECTIONS_MERCHANT } from '../domain/platform-merchants';
import { CompletePaidOutOrderMessage } from './complete-paid-out-order.handler';
import { ExpireOrderMessage } from './expire-order.handler';
import { RecordRenewalDeclineMessage } from './record-renewal-decline.handler';
import { RecordRenewalMessage } from './record-renewal.handler';
import { StartSubscriptionMessage } from './start-subscription.handler';
import { SettlePaymentAttemptMessage } from './settle-payment-attempt.handler';
import { VoidChargeMessage } from './void-charge.handler';
import { SendRenewalEmailMessage } from './send-renewal-email.handler';

const card: SavedCard = { brand: 'visa', last4: '4242', token: 'tok_1' } as SavedCard;
const ANCHOR = '2026-01-31T10:00:00.000Z';
const fromEvent = (type: string) => ({ actor: 'system:checkout', correlationId: 'corr-1', causationId: `evt-${type}` });
const fromTimer = (id: string) => ({ actor: 'system:checkout', correlationId: id, causationId: null });

const paid = (overrides: object = {}) => ({
  orderId: 'ord_1',
  merchantCompanyId: 'co_m',
  amountMinorUnits: '4250',
  currency: 'USD',
  provider: 'CARD_PROCESSOR',
  card,
  payoutId: 'po_m1',
  subscriptionId: 'sub_1',
  subscriptionIntervalUnit: 'MONTHLY',
  renewal: null,
  paidAt: ANCHOR,
  ...overrides,
});
/** The merchant payout of a PAID order: PayOutOrder nets what refunds left owing, then requests the payout (issue 26). */
const merchantPayout = (data: object) => new PayOutOrderMessage(data as never, fromEvent('checkout.order.paid'));
const subscription = { status: 'ACTIVE', subscriptionId: 'sub_1', anchorAt: ANCHOR, intervalUnit: 'MONTHLY', periodIndex: 1 } as SubscriptionState;

describe('checkout workflow', () => {
  it("sets a buyer order's expiry timer, and none for an order that does not expire", () => {
    givenWorkflow(checkoutWorkflow, null)
      .when(recorded('checkout.order.created', { orderId: 'ord_1', expiresAt: '2026-02-01T10:00:00.000Z' }))
      .then({ timers: [orderExpiryTimer.at('2026-02-01T10:00:00.000Z', { orderId: 'ord_1' })] });
    givenWorkflow(checkoutWorkflow, null)
      .when(recorded('checkout.order.created', { orderId: 'ord_2', expiresAt: null }))
      .thenNothing();
  });

  it('voids at the processor, by its attempt id, a charge the order recorded void (issue 23)', () => {
    givenWorkflow(checkoutWorkflow, null)
      .when(
        recorded('checkout.order.charge_voided', {
          orderId: 'ord_1',
          attemptId: 'pay_a',
          amountMinorUnits: '4250',
          currency: 'USD',
          provider: 'CARD_PROCESSOR',
          reason: 'ORDER_EXPIRED',
          at: ANCHOR,
        }),
      )
      .then({ commands: [new VoidChargeMessage('CARD_PROCESSOR', 'pay_a')] });
  });

  it("checks a buyer's payment attempt once it goes stale (recovery by key), and leaves a renewal's to its renewal timer", () => {
    givenWorkflow(checkoutWorkflow, null)
      .when(recorded('checkout.order.payment_attempt_started', { orderId: 'ord_1', attemptId: 'pay_a', method: 'CARD', at: ANCHOR }))
      .then({ timers: [paymentAttemptCheckTimer.at('2026-01-31T10:01:00.000Z', { orderId: 'ord_1', attemptId: 'pay_a' })] });
    givenWorkflow(checkoutWorkflow, null)
      .when(recorded('checkout.order.payment_attempt_started', { orderId: 'ord_2', attemptId: 'pay_r', method: 'SAVED_CARD', at: ANCHOR }))
      .thenNothing();
    const timer = paymentAttemptCheckTimer.at('2026-01-31T10:01:00.000Z', { orderId: 'ord_1', attemptId: 'pay_a' });
    givenWorkflow(checkoutWorkflow, null)
      .when(firing(timer))
      .then({ commands: [new SettlePaymentAttemptMessage('ord_1', 'pay_a', fromTimer(timer.id))] });
  });

  it('expires the order when its timer fires', () => {
    const timer = orderExpiryTimer.at('2026-02-01T10:00:00.000Z', { orderId: 'ord_1' });
    givenWorkflow(checkoutWorkflow, null)
      .when(firing(timer))
      .then({ commands: [new ExpireOrderMessage('ord_1', fromTimer(timer.id))] });
  });

  it("starts a founding order's subscription and pays the merchant", () => {
    const data = paid();
    givenWorkflow(checkoutWorkflow, null)
      .when(recorded('checkout.order.paid', data))
      .then({ commands: [new StartSubscriptionMessage(data as never, fromEvent('checkout.order.paid')), merchantPayout(data)] });
  });

  it("starts no merchant payout for an invoice's card order: its merchant is the platform's collections account (issue 27)", () => {
    const data = paid({ merchantCompanyId: PLATFORM_COLLECTIONS_MERCHANT, subscriptionId: null, subscriptionIntervalUnit: null });
    givenWorkflow(checkoutWorkflow, null)
      .when(recorded('checkout.order.paid', data))
      .then({ commands: [new StartSubscriptionMessage(data as never, fromEvent('checkout.order.paid'))] });
  });

  it('records a paid renewal on the subscription and pays the merchant', () => {
    const renewal = { subscriptionId: 'sub_1', periodIndex: 2, attempt: 1 };
    const data = paid({ orderId: 'ord_r2', payoutId: 'po_r2', renewal });
    givenWorkflow(checkoutWorkflow, null)
      .when(recorded('checkout.order.paid', data))
      .then({ commands: [new RecordRenewalMessage(renewal, 'ord_r2', fromEvent('checkout.order.paid')), merchantPayout(data)] });
  });

  it('checks a requested refund a minute later (recovery by its key), and settles it when the timer fires (issue 26)', () => {
    givenWorkflow(checkoutWorkflow, null)
      .when(recorded('checkout.order.refund_requested', { orderId: 'ord_1', refundId: 'rf_1', at: ANCHOR }))
      .then({ timers: [refundCheckTimer.at('2026-01-31T10:01:00.000Z', { orderId: 'ord_1', refundId: 'rf_1' })] });
    const timer = refundCheckTimer.at('2026-01-31T10:01:00.000Z', { orderId: 'ord_1', refundId: 'rf_1' });
    givenWorkflow(checkoutWorkflow, null)
      .when(firing(timer))
      .then({ commands: [new SettleRefundMessage('ord_1', 'rf_1', fromTimer(timer.id))] });
  });

  it("debits a succeeded refund from the merchant's checkout balance (issue 26)", () => {
    const data = { orderId: 'ord_1', merchantCompanyId: 'co_m', refundId: 'rf_1', amountMinorUnits: '500', currency: 'USD', at: ANCHOR };
    givenWorkflow(checkoutWorkflow, null)
      .when(recorded('checkout.order.refund_succeeded', data))
      .then({ commands: [new DebitMerchantRefundMessage(data as never, fromEvent('checkout.order.refund_succeeded'))] });
  });

  it('completes the order once the merchant payout completed', () => {
    givenWorkflow(checkoutWorkflow, null)
      .when(recorded('payout.completed', { payoutId: 'po_m1', kind: 'merchant', orderId: 'ord_1', at: ANCHOR }))
      .then({ commands: [new CompletePaidOutOrderMessage('ord_1', 'po_m1', fromEvent('payout.completed'))] });
  });

  it("credits a failed merchant payout back to the merchant's checkout balance (issue 26)", () => {
    givenWorkflow(checkoutWorkflow, null)
      .when(recorded('payout.failed', { payoutId: 'po_m1', kind: 'merchant', orderId: 'ord_1', reason: 'Sandbox rail', at: ANCHOR }))
      .then({ commands: [new CreditFailedPayoutMessage('ord_1', 'po_m1', fromEvent('payout.failed'))] });
    expect(checkoutWorkflow.handles(recorded('payout.failed', { kind: 'leg_b_transfer' }))).toBe(false);
  });

  it('schedules the first renewal a period after the founding payment, clamped to the month end', () => {
    givenWorkflow(checkoutWorkflow, null)
      .when(recorded('checkout.subscription.started', { subscriptionId: 'sub_1', anchorAt: ANCHOR, intervalUnit: 'MONTHLY' }))
      .then({ timers: [renewalTimer.at('2026-02-28T10:00:00.000Z', { subscriptionId: 'sub_1', periodIndex: 1, attempt: 1 })] });
  });

  it('schedules the next period after a renewal, from the anchor, and emails the buyer', () => {
    const renewed = { subscriptionId: 'sub_1', periodIndex: 2 };
    givenWorkflow(checkoutWorkflow, { subscription })
      .when(recorded('checkout.subscription.renewed', renewed))
      .then({
        commands: [new SendRenewalEmailMessage({ type: 'checkout.subscription.renewed', data: renewed } as never)],
        timers: [renewalTimer.at('2026-04-30T10:00:00.000Z', { subscriptionId: 'sub_1', periodIndex: 3, attempt: 1 })],
      });
  });

  it('charges a renewal when its timer fires', () => {
    const timer = renewalTimer.at('2026-02-28T10:00:00.000Z', { subscriptionId: 'sub_1', periodIndex: 1, attempt: 1 });
    givenWorkflow(checkoutWorkflow, null)
      .when(firing(timer))
      .then({ commands: [new ChargeRenewalMessage({ subscriptionId: 'sub_1', periodIndex: 1, attempt: 1 }, fromTimer(timer.id))] });
  });

  it('counts a failed renewal order as a decline, and retries when the subscription set a date', () => {
    const renewal = { subscriptionId: 'sub_1', periodIndex: 2, attempt: 1 };
    givenWorkflow(checkoutWorkflow, { order: { status: 'FAILED', renewal } as unknown as OrderState })
      .when(recorded('checkout.order.failed', { orderId: 'ord_r2', subscriptionId: 'sub_1' }))
      .then({ commands: [new RecordRenewalDeclineMessage(renewal, 'ord_r2', fromEvent('checkout.order.failed'))] });
    const declined = { subscriptionId: 'sub_1', periodIndex: 2, attempt: 1, nextAttemptAt: '2026-03-29T10:00:00.000Z' };
    givenWorkflow(checkoutWorkflow, null)
      .when(recorded('checkout.subscription.renewal_declined', declined))
      .then({
        commands: [new SendRenewalEmailMessage({ type: 'checkout.subscription.renewal_declined', data: declined } as never)],
        timers: [renewalTimer.at('2026-03-29T10:00:00.000Z', { subscriptionId: 'sub_1', periodIndex: 2, attempt: 2 })],
      });
  });

  it('sets no retry after the decline that cancels the subscription (the buyer is told)', () => {
    const declined = { subscriptionId: 'sub_1', periodIndex: 2, attempt: 3, nextAttemptAt: null };
    givenWorkflow(checkoutWorkflow, null)
      .when(recorded('checkout.subscription.renewal_declined', declined))
      .then({ commands: [new SendRenewalEmailMessage({ type: 'checkout.subscription.renewal_declined', data: declined } as never)] });
  });

  it("leaves Split payouts to the Split's workflow", () => {
    expect(checkoutWorkflow.handles(recorded('payout.completed', { kind: 'leg_a' }))).toBe(false);
  });
});
