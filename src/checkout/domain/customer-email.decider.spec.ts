import { given } from '../../../test/support/given-when-then';
import { checkoutOrderDecider } from './checkout-order.decider';
import { OrderCreated, OrderEvent, SavedCard } from './checkout.events';
import { subscriptionDecider } from './subscription.decider';
import { SubscriptionStarted } from './subscription.events';

/**
 * Issue 29: the buyer's email rides on optional fields (order created, payment attempt, paid, subscription
 * started), written only when there is one, so events without it keep their exact shape and old ones fold.
 */
const now = '2026-01-01T00:00:00.000Z';
const later = '2026-01-01T01:00:00.000Z';
const card: SavedCard = { brand: 'visa', last4: '4242', token: 'tok_sandbox_ok_1' };
const meta = (at: string) => ({ now: at, actor: 'system' });

const created = (customerEmail?: string): OrderCreated => ({
  type: 'checkout.order.created',
  data: {
    orderId: 'ord_1',
    merchantCompanyId: 'co_m',
    amountMinorUnits: '990',
    currency: 'USD',
    provider: 'CARD_PROCESSOR',
    checkoutMode: 'REDIRECT',
    returnUrl: 'https://shop.test/done',
    externalOrderRef: null,
    idempotencyKey: null,
    requestHash: null,
    subscriptionIntervalUnit: 'MONTHLY',
    renewal: null,
    pageTokenHash: 'h',
    clientSecretHash: null,
    subscriptionId: 'sub_1',
    ...(customerEmail ? { customerEmail } : {}),
    createdAt: now,
    expiresAt: '2026-01-02T00:00:00.000Z',
  },
});
const attempt = (customerEmail?: string): OrderEvent => ({
  type: 'checkout.order.payment_attempt_started',
  data: { orderId: 'ord_1', attemptId: 'pay_1', method: 'CARD', ...(customerEmail ? { customerEmail } : {}), at: now },
});
const markPaid = { type: 'MarkPaid' as const, data: { card, payoutId: 'po_1', subscriptionId: 'sub_1', attemptId: 'pay_1' }, metadata: meta(later) };
const paid = (customerEmail?: string): OrderEvent => ({
  type: 'checkout.order.paid',
  data: {
    orderId: 'ord_1',
    merchantCompanyId: 'co_m',
    amountMinorUnits: '990',
    currency: 'USD',
    provider: 'CARD_PROCESSOR',
    card,
    payoutId: 'po_1',
    subscriptionId: 'sub_1',
    subscriptionIntervalUnit: 'MONTHLY',
    renewal: null,
    attemptId: 'pay_1',
    ...(customerEmail ? { customerEmail } : {}),
    paidAt: later,
  },
});

describe('The buyer email on checkout events (issue 29)', () => {
  it('records the email typed with an attempt, and only then', () => {
    given(checkoutOrderDecider, created())
      .when({ type: 'StartPaymentAttempt', data: { attemptId: 'pay_1', method: 'CARD', customerEmail: 'b@example.com' }, metadata: meta(now) })
      .then([attempt('b@example.com')]);
    given(checkoutOrderDecider, created())
      .when({ type: 'StartPaymentAttempt', data: { attemptId: 'pay_1', method: 'CARD' }, metadata: meta(now) })
      .then([attempt()]);
  });

  it("pays with the email typed on the page over the merchant's, the merchant's without one, and none without either", () => {
    given(checkoutOrderDecider, created('merchant@example.com'), attempt('typed@example.com'))
      .when(markPaid)
      .then([paid('typed@example.com')]);
    given(checkoutOrderDecider, created('merchant@example.com'), attempt())
      .when(markPaid)
      .then([paid('merchant@example.com')]);
    // An order written before issue 29 (no field anywhere) pays exactly as before.
    given(checkoutOrderDecider, created(), attempt()).when(markPaid).then([paid()]);
  });

  it('starts the subscription with the email, and folds one started without it to none', () => {
    const data: SubscriptionStarted['data'] = {
      subscriptionId: 'sub_1',
      merchantCompanyId: 'co_m',
      foundingOrderId: 'ord_1',
      intervalUnit: 'MONTHLY',
      amountMinorUnits: '990',
      currency: 'USD',
      provider: 'CARD_PROCESSOR',
      card,
      anchorAt: later,
      customerEmail: 'b@example.com',
      currentPeriodStart: later,
      currentPeriodEnd: '2026-02-01T01:00:00.000Z',
      startedAt: later,
    };
    const { currentPeriodStart: _s, currentPeriodEnd: _e, startedAt: _a, ...command } = data;
    given(subscriptionDecider)
      .when({ type: 'StartSubscription', data: command, metadata: meta(later) })
      .then([{ type: 'checkout.subscription.started', data }]);
    const { customerEmail: _c, ...old } = data;
    const folded = [{ type: 'checkout.subscription.started', data: old } as const].reduce(subscriptionDecider.evolve, subscriptionDecider.initialState());
    expect(folded).toMatchObject({ status: 'ACTIVE', customerEmail: null });
  });
});
