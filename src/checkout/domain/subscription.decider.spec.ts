import { given } from '../../../test/support/given-when-then';
import { subscriptionDecider } from './subscription.decider';
import { SubscriptionEvent } from './subscription.events';

const anchor = '2025-01-31T12:00:00.000Z';
const started: SubscriptionEvent = {
  type: 'checkout.subscription.started',
  data: {
    subscriptionId: 'sub_1',
    merchantCompanyId: 'co_m',
    foundingOrderId: 'ord_0',
    intervalUnit: 'MONTHLY',
    amountMinorUnits: '999',
    currency: 'USD',
    provider: 'CARD_PROCESSOR',
    card: { brand: 'visa', last4: '0341', token: 'tok_sandbox_offdecl_x' },
    anchorAt: anchor,
    currentPeriodStart: anchor,
    currentPeriodEnd: '2025-02-28T12:00:00.000Z',
    startedAt: anchor,
  },
};
const decline = (attempt: number, now: string) => ({
  type: 'RecordRenewalDecline' as const,
  data: { periodIndex: 1, attempt, orderId: `ord_r${attempt}` },
  metadata: { now, actor: 'system' },
});
const declined = (attempt: number, count: number, at: string, nextAttemptAt: string | null): SubscriptionEvent => ({
  type: 'checkout.subscription.renewal_declined',
  data: { subscriptionId: 'sub_1', orderId: `ord_r${attempt}`, periodIndex: 1, attempt, consecutiveDeclines: count, nextAttemptAt, at },
});

describe('Subscription decider', () => {
  it('starts with the first period anchored at the founding payment (month-end clamped)', () => {
    const { currentPeriodStart: _s, currentPeriodEnd: _e, startedAt: _a, ...data } = started.data;
    given(subscriptionDecider)
      .when({ type: 'StartSubscription', data, metadata: { now: anchor, actor: 'system' } })
      .then([started]);
    given(subscriptionDecider, started)
      .when({ type: 'StartSubscription', data, metadata: { now: anchor, actor: 'system' } })
      .thenNothing();
  });

  it('moves to the next anchored period on a paid renewal, once', () => {
    const renewed: SubscriptionEvent = {
      type: 'checkout.subscription.renewed',
      data: {
        subscriptionId: 'sub_1',
        orderId: 'ord_r',
        periodIndex: 1,
        currentPeriodStart: '2025-02-28T12:00:00.000Z',
        currentPeriodEnd: '2025-03-31T12:00:00.000Z',
        at: '2025-02-28T12:00:00.000Z',
      },
    };
    given(subscriptionDecider, started)
      .when({ type: 'RecordRenewal', data: { periodIndex: 1, orderId: 'ord_r' }, metadata: { now: '2025-02-28T12:00:00.000Z', actor: 'system' } })
      .then([renewed]);
    given(subscriptionDecider, started, renewed)
      .when({ type: 'RecordRenewal', data: { periodIndex: 1, orderId: 'ord_r' }, metadata: { now: '2025-02-28T12:00:00.000Z', actor: 'system' } })
      .thenNothing();
  });

  it('retries after 1 day, then 3 days, and cancels on the 3rd consecutive decline', () => {
    const d1 = '2025-02-28T12:00:00.000Z';
    const d2 = '2025-03-01T12:00:00.000Z';
    const d3 = '2025-03-04T12:00:00.000Z';
    given(subscriptionDecider, started)
      .when(decline(1, d1))
      .then([declined(1, 1, d1, d2)]);
    given(subscriptionDecider, started, declined(1, 1, d1, d2))
      .when(decline(2, d2))
      .then([declined(2, 2, d2, d3)]);
    given(subscriptionDecider, started, declined(1, 1, d1, d2), declined(2, 2, d2, d3))
      .when(decline(3, d3))
      .then([declined(3, 3, d3, null), { type: 'checkout.subscription.cancelled', data: { subscriptionId: 'sub_1', reason: 'PAYMENT_FAILED', at: d3 } }]);
  });

  it('counts a repeated decline of the same attempt once', () => {
    given(subscriptionDecider, started, declined(1, 1, 'a', 'b'))
      .when(decline(1, 'c'))
      .thenNothing();
  });

  it('a paid renewal resets the decline count', () => {
    const renewed: SubscriptionEvent = {
      type: 'checkout.subscription.renewed',
      data: { subscriptionId: 'sub_1', orderId: 'ord_r2', periodIndex: 1, currentPeriodStart: 'x', currentPeriodEnd: 'y', at: 'z' },
    };
    const state = [started, declined(1, 1, 'a', 'b'), renewed].reduce(subscriptionDecider.evolve, subscriptionDecider.initialState());
    expect(state).toMatchObject({ consecutiveDeclines: 0, periodIndex: 1 });
  });

  it('cancels on request once; cancelling again is idempotent', () => {
    given(subscriptionDecider, started)
      .when({ type: 'CancelSubscription', data: { reason: 'BUYER_REQUEST' }, metadata: { now: 'n', actor: 'system' } })
      .then([{ type: 'checkout.subscription.cancelled', data: { subscriptionId: 'sub_1', reason: 'BUYER_REQUEST', at: 'n' } }]);
    given(subscriptionDecider, started, { type: 'checkout.subscription.cancelled', data: { subscriptionId: 'sub_1', reason: 'BUYER_REQUEST', at: 'n' } })
      .when({ type: 'CancelSubscription', data: { reason: 'BUYER_REQUEST' }, metadata: { now: 'm', actor: 'system' } })
      .thenNothing();
    given(subscriptionDecider)
      .when({ type: 'CancelSubscription', data: { reason: 'BUYER_REQUEST' }, metadata: { now: 'm', actor: 'system' } })
      .thenFails('CHECKOUT_SUBSCRIPTION_NOT_FOUND');
  });

  describe('renewal charge intent (issue 23)', () => {
    const startAttempt = (now: string) => ({
      type: 'StartRenewalAttempt' as const,
      data: { periodIndex: 1, attempt: 1, orderId: 'ord_r1', attemptId: 'pay_r1' },
      metadata: { now, actor: 'system' },
    });
    const attemptStarted: SubscriptionEvent = {
      type: 'checkout.subscription.renewal_attempt_started',
      data: { subscriptionId: 'sub_1', orderId: 'ord_r1', attemptId: 'pay_r1', periodIndex: 1, attempt: 1, at: '2025-02-28T12:00:00.000Z' },
    };
    const cancelled: SubscriptionEvent = { type: 'checkout.subscription.cancelled', data: { subscriptionId: 'sub_1', reason: 'BUYER_REQUEST', at: '2025-02-28T12:00:01.000Z' } };
    const accept = { type: 'AcceptRenewalCharge' as const, data: { periodIndex: 1, orderId: 'ord_r1' }, metadata: { now: '2025-02-28T12:00:02.000Z', actor: 'system' } };

    it('records the renewal attempt before the saved card is charged, once; never on a cancelled subscription or a paid period', () => {
      given(subscriptionDecider, started).when(startAttempt('2025-02-28T12:00:00.000Z')).then([attemptStarted]);
      given(subscriptionDecider, started, attemptStarted).when(startAttempt('2025-02-28T12:00:00.000Z')).thenNothing();
      given(subscriptionDecider, started, cancelled).when(startAttempt('2025-02-28T12:00:00.000Z')).thenNothing();
    });

    it('accepts the captured charge as the paid period, unless the subscription was cancelled first (the charge is then voided)', () => {
      given(subscriptionDecider, started, attemptStarted)
        .when(accept)
        .then((events) =>
          expect(events).toEqual([expect.objectContaining({ type: 'checkout.subscription.renewed', data: expect.objectContaining({ periodIndex: 1, orderId: 'ord_r1' }) })]),
        );
      given(subscriptionDecider, started, attemptStarted, cancelled).when(accept).thenNothing();
    });
  });
});
