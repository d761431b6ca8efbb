import { given } from '../../../test/support/given-when-then';
import { OrderCommand, checkoutOrderDecider } from './checkout-order.decider';
import { OrderCreated, OrderEvent, SavedCard } from './checkout.events';
import { sha256Hex } from '../../platform/ids/ids';

const now = '2026-01-01T00:00:00.000Z';
const later = '2026-01-01T01:00:00.000Z';
const dayLater = '2026-01-02T00:00:00.000Z';
const card: SavedCard = { brand: 'visa', last4: '4242', token: 'tok_sandbox_ok_1' };

const create = (overrides: Partial<Extract<OrderCommand, { type: 'CreateOrder' }>['data']> = {}): Extract<OrderCommand, { type: 'CreateOrder' }> => ({
  type: 'CreateOrder',
  data: {
    orderId: 'ord_1',
    merchantCompanyId: 'co_m',
    amountMinorUnits: '1999',
    currency: 'USD',
    provider: 'CARD_PROCESSOR',
    checkoutMode: 'REDIRECT',
    returnUrl: 'https://shop.test/done',
    externalOrderRef: null,
    idempotencyKey: 'k1',
    requestHash: null,
    subscriptionIntervalUnit: null,
    renewal: null,
    pageTokenHash: 'hash-of-tok',
    clientSecretHash: null,
    subscriptionId: null,
    ...overrides,
  },
  metadata: { now, actor: 'system' },
});
const created = (overrides: Parameters<typeof create>[0] = {}): OrderCreated => {
  const { data } = create(overrides);
  return { type: 'checkout.order.created', data: { ...data, createdAt: now, expiresAt: data.renewal ? null : dayLater } };
};
const paid = (overrides: Partial<Extract<OrderEvent, { type: 'checkout.order.paid' }>['data']> = {}): OrderEvent => ({
  type: 'checkout.order.paid',
  data: {
    orderId: 'ord_1',
    merchantCompanyId: 'co_m',
    amountMinorUnits: '1999',
    currency: 'USD',
    provider: 'CARD_PROCESSOR',
    card,
    payoutId: 'po_1',
    subscriptionId: null,
    subscriptionIntervalUnit: null,
    renewal: null,
    paidAt: later,
    ...overrides,
  },
});

describe('CheckoutOrder decider', () => {
  it('creates an OPEN order that expires after 24 h', () => {
    given(checkoutOrderDecider).when(create()).then([created()]);
  });

  it('records only the hashes of the buyer secrets; an order from before issue 15 is checked against the hash of its plaintext', () => {
    const { data } = created({ checkoutMode: 'EMBEDDED', clientSecretHash: 'hash-of-secret' });
    expect(data).not.toHaveProperty('pageToken');
    expect(data).not.toHaveProperty('clientSecret');
    const folded = checkoutOrderDecider.evolve(checkoutOrderDecider.initialState(), { type: 'checkout.order.created', data });
    expect(folded).toMatchObject({ pageTokenHash: 'hash-of-tok', clientSecretHash: 'hash-of-secret', pageToken: null, clientSecret: null });
    const { pageTokenHash: _p, clientSecretHash: _c, ...legacy } = data;
    const old = checkoutOrderDecider.evolve(checkoutOrderDecider.initialState(), {
      type: 'checkout.order.created',
      data: { ...legacy, pageToken: 'tok', clientSecret: 'ord_1_secret_x' },
    });
    expect(old).toMatchObject({ pageTokenHash: sha256Hex('tok'), clientSecretHash: sha256Hex('ord_1_secret_x'), pageToken: 'tok' });
  });

  it('creating again decides nothing (idempotent replay)', () => {
    given(checkoutOrderDecider, created())
      .when(create({ amountMinorUnits: '5' }))
      .thenNothing();
  });

  it('refuses EMBEDDED with the wallet processor', () => {
    given(checkoutOrderDecider)
      .when(create({ provider: 'WALLET_PROCESSOR', checkoutMode: 'EMBEDDED' }))
      .thenFails('CHECKOUT_EMBEDDED_NEEDS_CARD');
  });

  it('refuses a subscription opt-in with the wallet processor', () => {
    given(checkoutOrderDecider)
      .when(create({ provider: 'WALLET_PROCESSOR', subscriptionIntervalUnit: 'MONTHLY' }))
      .thenFails('CHECKOUT_SUBSCRIPTION_NEEDS_CARD');
  });

  it('records a decline and stays payable', () => {
    given(checkoutOrderDecider, created())
      .when({
        type: 'RecordDecline',
        data: { card: { brand: 'visa', last4: '0002' }, declineCode: 'card_declined', reason: 'declined' },
        metadata: { now: later, actor: 'system' },
      })
      .then([
        {
          type: 'checkout.order.payment_declined',
          data: { orderId: 'ord_1', card: { brand: 'visa', last4: '0002' }, declineCode: 'card_declined', reason: 'declined', at: later },
        },
      ]);
    given(checkoutOrderDecider, created(), { type: 'checkout.order.payment_declined', data: { orderId: 'ord_1', card: null, declineCode: 'x', reason: 'x', at: later } })
      .when({ type: 'MarkPaid', data: { card, payoutId: 'po_1', subscriptionId: null }, metadata: { now: later, actor: 'system' } })
      .then([paid()]);
  });

  it('goes through REQUIRES_ACTION to PAID', () => {
    given(checkoutOrderDecider, created())
      .when({ type: 'RequireAction', data: { card }, metadata: { now: later, actor: 'system' } })
      .then([{ type: 'checkout.order.action_required', data: { orderId: 'ord_1', card, at: later } }]);
  });

  it('"use another card" on the authentication step returns the order to OPEN; then a new card can require action again', () => {
    const actionRequired: OrderEvent = { type: 'checkout.order.action_required', data: { orderId: 'ord_1', card, at: later } };
    const abandoned: OrderEvent = { type: 'checkout.order.authentication_abandoned', data: { orderId: 'ord_1', at: later } };
    given(checkoutOrderDecider, created(), actionRequired)
      .when({ type: 'AbandonAuthentication', data: {}, metadata: { now: later, actor: 'system' } })
      .then([abandoned]);
    given(checkoutOrderDecider, created(), actionRequired, abandoned)
      .when({ type: 'AbandonAuthentication', data: {}, metadata: { now: later, actor: 'system' } })
      .thenNothing();
    given(checkoutOrderDecider, created(), actionRequired, abandoned)
      .when({ type: 'RequireAction', data: { card }, metadata: { now: later, actor: 'system' } })
      .then([actionRequired]);
  });

  it('"use another card" is refused on a PAID order, and after the expiry', () => {
    given(checkoutOrderDecider, created(), paid())
      .when({ type: 'AbandonAuthentication', data: {}, metadata: { now: later, actor: 'system' } })
      .thenFails('CHECKOUT_ORDER_NOT_PAYABLE');
    given(checkoutOrderDecider, created(), { type: 'checkout.order.action_required', data: { orderId: 'ord_1', card, at: later } })
      .when({ type: 'AbandonAuthentication', data: {}, metadata: { now: dayLater, actor: 'system' } })
      .thenFails('CHECKOUT_ORDER_NOT_PAYABLE');
    given(checkoutOrderDecider)
      .when({ type: 'AbandonAuthentication', data: {}, metadata: { now: later, actor: 'system' } })
      .thenFails('CHECKOUT_ORDER_NOT_FOUND');
  });

  it('paying a PAID order again decides nothing; confirming a card on it is refused', () => {
    given(checkoutOrderDecider, created(), paid())
      .when({ type: 'MarkPaid', data: { card, payoutId: 'po_1', subscriptionId: null }, metadata: { now: later, actor: 'system' } })
      .thenNothing();
    given(checkoutOrderDecider, created(), paid())
      .when({ type: 'RequireAction', data: { card }, metadata: { now: later, actor: 'system' } })
      .thenFails('CHECKOUT_ORDER_NOT_PAYABLE');
  });

  it('cannot be paid after its expiry, even before the timer ran', () => {
    given(checkoutOrderDecider, created())
      .when({ type: 'MarkPaid', data: { card, payoutId: 'po_1', subscriptionId: null }, metadata: { now: dayLater, actor: 'system' } })
      .thenFails('CHECKOUT_ORDER_NOT_PAYABLE');
  });

  it('expires an OPEN order at 24 h, never a PAID one, and not early', () => {
    given(checkoutOrderDecider, created())
      .when({ type: 'Expire', data: {}, metadata: { now: dayLater, actor: 'system' } })
      .then([{ type: 'checkout.order.expired', data: { orderId: 'ord_1', at: dayLater } }]);
    given(checkoutOrderDecider, created())
      .when({ type: 'Expire', data: {}, metadata: { now: later, actor: 'system' } })
      .thenNothing();
    given(checkoutOrderDecider, created(), paid())
      .when({ type: 'Expire', data: {}, metadata: { now: dayLater, actor: 'system' } })
      .thenNothing();
  });

  it('fails only renewal orders', () => {
    const renewal = { subscriptionId: 'sub_1', periodIndex: 1, attempt: 1 };
    given(checkoutOrderDecider, created({ renewal, pageTokenHash: null }))
      .when({ type: 'FailRenewal', data: { declineCode: 'card_declined', reason: 'no' }, metadata: { now: later, actor: 'system' } })
      .then([{ type: 'checkout.order.failed', data: { orderId: 'ord_1', subscriptionId: 'sub_1', declineCode: 'card_declined', reason: 'no', at: later } }]);
  });

  it('completes once when its merchant payout completes; the renewal mark is carried for the webhook', () => {
    const completed = (renewalOf: string | null): OrderEvent => ({
      type: 'checkout.order.completed',
      data: { orderId: 'ord_1', merchantCompanyId: 'co_m', payoutId: 'po_1', amountMinorUnits: '1999', currency: 'USD', provider: 'CARD_PROCESSOR', renewalOf, at: later },
    });
    given(checkoutOrderDecider, created(), paid())
      .when({ type: 'CompleteOrder', data: { payoutId: 'po_1' }, metadata: { now: later, actor: 'system' } })
      .then([completed(null)]);
    given(checkoutOrderDecider, created(), paid(), completed(null))
      .when({ type: 'CompleteOrder', data: { payoutId: 'po_1' }, metadata: { now: later, actor: 'system' } })
      .thenNothing();
    const renewal = { subscriptionId: 'sub_1', periodIndex: 2, attempt: 1 };
    given(checkoutOrderDecider, created({ renewal, pageTokenHash: null }), paid({ renewal, subscriptionId: 'sub_1' }))
      .when({ type: 'CompleteOrder', data: { payoutId: 'po_1' }, metadata: { now: later, actor: 'system' } })
      .then([completed('sub_1')]);
  });

  describe('intent before effect (issue 23): one payment attempt in flight, each charge recorded once as paid or void', () => {
    const start = (attemptId: string, at = later): OrderCommand => ({ type: 'StartPaymentAttempt', data: { attemptId, method: 'CARD' }, metadata: { now: at, actor: 'system' } });
    const started = (attemptId: string, at = later): OrderEvent => ({ type: 'checkout.order.payment_attempt_started', data: { orderId: 'ord_1', attemptId, method: 'CARD', at } });
    const charged = (attemptId: string, at = later, voidReason?: 'SUBSCRIPTION_CANCELLED'): OrderCommand => ({
      type: 'MarkPaid',
      data: { card, payoutId: 'po_1', subscriptionId: null, attemptId, ...(voidReason ? { voidReason } : {}) },
      metadata: { now: at, actor: 'system' },
    });
    const voided = (attemptId: string, reason: string, at = later): OrderEvent =>
      ({
        type: 'checkout.order.charge_voided',
        data: { orderId: 'ord_1', attemptId, amountMinorUnits: '1999', currency: 'USD', provider: 'CARD_PROCESSOR', reason, at },
      }) as OrderEvent;

    it('records the attempt before the processor is called; a repeat of the same attempt decides nothing', () => {
      given(checkoutOrderDecider, created())
        .when(start('pay_a'))
        .then([started('pay_a')]);
      given(checkoutOrderDecider, created(), started('pay_a')).when(start('pay_a')).thenNothing();
    });

    it('refuses a second attempt while one is in flight (a concurrent confirm, a double-submitted form): 409, nothing charged', () => {
      given(checkoutOrderDecider, created(), started('pay_a'))
        .when(start('pay_b'))
        .thenFails('CHECKOUT_PAYMENT_IN_PROGRESS', (error) => expect(error.kind).toBe('conflict'));
    });

    it('takes another attempt once the first is answered (declined) or abandoned, and none on an order that cannot be paid', () => {
      const declinedA: OrderEvent = {
        type: 'checkout.order.payment_declined',
        data: { orderId: 'ord_1', card: null, declineCode: 'card_declined', reason: 'no', attemptId: 'pay_a', at: later },
      };
      given(checkoutOrderDecider, created(), started('pay_a'), declinedA)
        .when(start('pay_b'))
        .then([started('pay_b')]);
      const abandonedA: OrderEvent = { type: 'checkout.order.payment_attempt_abandoned', data: { orderId: 'ord_1', attemptId: 'pay_a', at: later } };
      given(checkoutOrderDecider, created(), started('pay_a'))
        .when({ type: 'AbandonPaymentAttempt', data: { attemptId: 'pay_a' }, metadata: { now: later, actor: 'system' } })
        .then([abandonedA]);
      given(checkoutOrderDecider, created(), started('pay_a'), abandonedA)
        .when(start('pay_b'))
        .then([started('pay_b')]);
      given(checkoutOrderDecider, created(), started('pay_a'), paid({ attemptId: 'pay_a' }))
        .when(start('pay_b'))
        .thenFails('CHECKOUT_ORDER_NOT_PAYABLE');
      given(checkoutOrderDecider, created()).when(start('pay_a', dayLater)).thenFails('CHECKOUT_ORDER_NOT_PAYABLE');
    });

    it('records the charge of the attempt in flight as PAID, naming the attempt, exactly once', () => {
      given(checkoutOrderDecider, created(), started('pay_a'))
        .when(charged('pay_a'))
        .then([paid({ attemptId: 'pay_a' })]);
      given(checkoutOrderDecider, created(), started('pay_a'), paid({ attemptId: 'pay_a' }))
        .when(charged('pay_a'))
        .thenNothing();
    });

    it('voids a charge that lands after the order expired (timer ran or not) instead of leaving it unrecorded', () => {
      const expired: OrderEvent = { type: 'checkout.order.expired', data: { orderId: 'ord_1', at: dayLater } };
      given(checkoutOrderDecider, created(), started('pay_a'), expired)
        .when(charged('pay_a', dayLater))
        .then([voided('pay_a', 'ORDER_EXPIRED', dayLater)]);
      given(checkoutOrderDecider, created(), started('pay_a'))
        .when(charged('pay_a', dayLater))
        .then([voided('pay_a', 'ORDER_EXPIRED', dayLater)]);
      given(checkoutOrderDecider, created(), started('pay_a'), expired, voided('pay_a', 'ORDER_EXPIRED', dayLater))
        .when(charged('pay_a', dayLater))
        .thenNothing();
    });

    it('voids a charge of an abandoned attempt, of an order another attempt paid, and one the caller refuses (subscription cancelled)', () => {
      const abandonedA: OrderEvent = { type: 'checkout.order.payment_attempt_abandoned', data: { orderId: 'ord_1', attemptId: 'pay_a', at: later } };
      given(checkoutOrderDecider, created(), started('pay_a'), abandonedA)
        .when(charged('pay_a'))
        .then([voided('pay_a', 'ATTEMPT_ABANDONED')]);
      given(checkoutOrderDecider, created(), started('pay_a'), abandonedA, started('pay_b'), paid({ attemptId: 'pay_b' }))
        .when(charged('pay_a'))
        .then([voided('pay_a', 'ORDER_ALREADY_PAID')]);
      given(checkoutOrderDecider, created(), started('pay_a'))
        .when(charged('pay_a', later, 'SUBSCRIPTION_CANCELLED'))
        .then([voided('pay_a', 'SUBSCRIPTION_CANCELLED')]);
    });

    it('records an answer for an attempt no longer in flight as nothing (a recovery racing the request that made the call)', () => {
      const declinedA: OrderEvent = {
        type: 'checkout.order.payment_declined',
        data: { orderId: 'ord_1', card: null, declineCode: 'card_declined', reason: 'no', attemptId: 'pay_a', at: later },
      };
      given(checkoutOrderDecider, created(), started('pay_a'), declinedA)
        .when({ type: 'RecordDecline', data: { card: null, declineCode: 'card_declined', reason: 'no', attemptId: 'pay_a' }, metadata: { now: later, actor: 'system' } })
        .thenNothing();
      given(checkoutOrderDecider, created(), started('pay_a'))
        .when({ type: 'RequireAction', data: { card, attemptId: 'pay_a' }, metadata: { now: later, actor: 'system' } })
        .then([{ type: 'checkout.order.action_required', data: { orderId: 'ord_1', card, attemptId: 'pay_a', at: later } }]);
    });

    it('records nothing for an answer that moved no money once the order can no longer be paid (the expiry ended the attempt)', () => {
      given(checkoutOrderDecider, created(), started('pay_a'))
        .when({ type: 'RecordDecline', data: { card: null, declineCode: 'card_declined', reason: 'no', attemptId: 'pay_a' }, metadata: { now: dayLater, actor: 'system' } })
        .thenNothing();
      given(checkoutOrderDecider, created(), started('pay_a'))
        .when({ type: 'RequireAction', data: { card, attemptId: 'pay_a' }, metadata: { now: dayLater, actor: 'system' } })
        .thenNothing();
    });

    it('folds orders written before attempts were recorded: paid without an attemptId, and an OPEN one takes a first attempt', () => {
      const state = [created(), paid()].reduce(checkoutOrderDecider.evolve, checkoutOrderDecider.initialState());
      expect(state).toMatchObject({ status: 'PAID', inFlight: null, paidAttemptId: null, voidedAttemptIds: [] });
      given(checkoutOrderDecider, created(), { type: 'checkout.order.payment_declined', data: { orderId: 'ord_1', card: null, declineCode: 'x', reason: 'x', at: later } })
        .when(start('pay_a'))
        .then([started('pay_a')]);
    });
  });

  describe('refunds (issue 26)', () => {
    const refund = (refundId: string, amountMinorUnits: string, requestHash = `hash-${refundId}`): Extract<OrderCommand, { type: 'RequestRefund' }> => ({
      type: 'RequestRefund',
      data: { refundId, amountMinorUnits, reason: null, idempotencyKey: `key-${refundId}`, requestHash },
      metadata: { now: later, actor: 'system' },
    });
    const requested = (refundId: string, amountMinorUnits: string): OrderEvent => ({
      type: 'checkout.order.refund_requested',
      data: {
        orderId: 'ord_1',
        merchantCompanyId: 'co_m',
        refundId,
        amountMinorUnits,
        currency: 'USD',
        provider: 'CARD_PROCESSOR',
        reason: null,
        idempotencyKey: `key-${refundId}`,
        requestHash: `hash-${refundId}`,
        at: later,
      },
    });
    const base = (refundId: string, amountMinorUnits: string) => ({ orderId: 'ord_1', merchantCompanyId: 'co_m', refundId, amountMinorUnits, currency: 'USD', at: later });
    const succeeded = (refundId: string, amountMinorUnits: string): OrderEvent => ({ type: 'checkout.order.refund_succeeded', data: base(refundId, amountMinorUnits) });
    const failed = (refundId: string, amountMinorUnits: string): OrderEvent => ({
      type: 'checkout.order.refund_failed',
      data: { ...base(refundId, amountMinorUnits), failureCode: 'refund_declined', failureReason: 'no' },
    });
    const outcome = (refundId: string, kind: 'succeeded' | 'failed'): OrderCommand => ({
      type: 'RecordRefundOutcome',
      data: { refundId, outcome: kind === 'succeeded' ? { kind } : { kind, failureCode: 'refund_declined', failureReason: 'no' } },
      metadata: { now: later, actor: 'system' },
    });

    it('records a refund of a PAID order as pending, before the processor is called', () => {
      given(checkoutOrderDecider, created(), paid())
        .when(refund('rf_1', '500'))
        .then([requested('rf_1', '500')]);
    });

    it('takes several partial refunds up to exactly the captured amount, and refuses one cent more (422)', () => {
      given(checkoutOrderDecider, created(), paid(), requested('rf_1', '500'), succeeded('rf_1', '500'))
        .when(refund('rf_2', '1499'))
        .then([requested('rf_2', '1499')]);
      given(checkoutOrderDecider, created(), paid(), requested('rf_1', '500'), succeeded('rf_1', '500'), requested('rf_2', '1499'), succeeded('rf_2', '1499'))
        .when(refund('rf_3', '1'))
        .thenFails('CHECKOUT_REFUND_EXCEEDS_CAPTURED', (error) => expect(error.details).toEqual([{ field: 'amountMinorUnits', message: 'at most 0' }]));
      given(checkoutOrderDecider, created(), paid()).when(refund('rf_1', '2000')).thenFails('CHECKOUT_REFUND_EXCEEDS_CAPTURED');
    });

    it('counts a pending refund against what is refundable, and gives back what a failed refund held', () => {
      given(checkoutOrderDecider, created(), paid(), requested('rf_1', '1999')).when(refund('rf_2', '1')).thenFails('CHECKOUT_REFUND_EXCEEDS_CAPTURED');
      given(checkoutOrderDecider, created(), paid(), requested('rf_1', '1999'), failed('rf_1', '1999'))
        .when(refund('rf_2', '1999'))
        .then([requested('rf_2', '1999')]);
    });

    it('refuses an order that is not PAID (422) and an unknown order (404)', () => {
      given(checkoutOrderDecider, created()).when(refund('rf_1', '1')).thenFails('CHECKOUT_ORDER_NOT_REFUNDABLE');
      given(checkoutOrderDecider, created(), { type: 'checkout.order.expired', data: { orderId: 'ord_1', at: dayLater } })
        .when(refund('rf_1', '1'))
        .thenFails('CHECKOUT_ORDER_NOT_REFUNDABLE');
      given(checkoutOrderDecider).when(refund('rf_1', '1')).thenFails('CHECKOUT_ORDER_NOT_FOUND');
    });

    it('decides nothing for the same refund again (same key and request), and refuses its key with another request (409)', () => {
      given(checkoutOrderDecider, created(), paid(), requested('rf_1', '500')).when(refund('rf_1', '500')).thenNothing();
      given(checkoutOrderDecider, created(), paid(), requested('rf_1', '500'), succeeded('rf_1', '500'))
        .when(refund('rf_1', '700', 'another-hash'))
        .thenFails('IDEMPOTENCY_KEY_REUSED');
    });

    it("records the processor's answer once, against a pending refund only", () => {
      given(checkoutOrderDecider, created(), paid(), requested('rf_1', '500'))
        .when(outcome('rf_1', 'succeeded'))
        .then([succeeded('rf_1', '500')]);
      given(checkoutOrderDecider, created(), paid(), requested('rf_1', '500'))
        .when(outcome('rf_1', 'failed'))
        .then([failed('rf_1', '500')]);
      given(checkoutOrderDecider, created(), paid(), requested('rf_1', '500'), succeeded('rf_1', '500')).when(outcome('rf_1', 'failed')).thenNothing();
      given(checkoutOrderDecider, created(), paid()).when(outcome('rf_9', 'succeeded')).thenNothing();
    });

    it('never touches the payout: a refunded order still completes when its payout does', () => {
      given(checkoutOrderDecider, created(), paid(), requested('rf_1', '1999'), succeeded('rf_1', '1999'))
        .when({ type: 'CompleteOrder', data: { payoutId: 'po_1' }, metadata: { now: later, actor: 'system' } })
        .then((events) => expect(events.map((e) => e.type)).toEqual(['checkout.order.completed']));
    });
  });
});
