import { CommandBus } from '@nestjs/cqrs';
import { ApproveWalletPaymentMessage } from '../../src/checkout/application/approve-wallet-payment.handler';
import { DomainError, ErrorKind } from '../../src/platform/domain/domain-error';
import { statusOfKind } from '../../src/platform/http/error-filter';
import { expectPageHeaders } from '../support/page-headers';
import { subscriptionStreamId } from '../../src/checkout/domain/subscription.events';
import { startTestApp, TestApp } from '../support/test-app';
import { dataOf, errorEnvelope, issueApiKey } from '../support/split-fixtures';
import { jsonOf, startWebhookReceiver, WebhookReceiver } from '../support/webhook-receiver';
import {
  advance,
  allEvents,
  CARDS,
  card,
  checkoutBody,
  confirm,
  createCheckout,
  createdCheckout,
  createMerchant,
  form,
  Merchant,
  ORDER_ID,
  orderStatus,
  SUBSCRIPTION_ID,
} from '../browser/checkout-fixtures';

const DAY = 86_400;

describe('Checkout over HTTP', () => {
  let app: TestApp;
  let merchant: Merchant;
  let receiver: WebhookReceiver;
  let endpointId: string;
  const setEndpoint = async (enabled: boolean) =>
    dataOf(await app.request('PATCH', `/api/commerce/webhooks/endpoints/${endpointId}`, { token: merchant.sessionToken, body: { enabled } }), 200);

  beforeAll(async () => {
    app = await startTestApp({ WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' });
    receiver = await startWebhookReceiver();
    merchant = await createMerchant(app);
    endpointId = dataOf(
      await app.request('POST', '/api/commerce/webhooks/endpoints', { token: merchant.sessionToken, body: { url: `${receiver.url}/hooks`, eventTypes: ['checkout.completed'] } }),
      201,
    ).id;
  });
  afterAll(async () => {
    await app.close();
    await receiver.close();
  });

  const deliveriesFor = (payoutId: string) => receiver.requests.map(jsonOf).filter((body) => body.type === 'checkout.completed' && body.data.payoutId === payoutId);

  describe('create (spec 4.1)', () => {
    it.each([
      ['amount zero', { amountMinorUnits: '0' }, 'amountMinorUnits'],
      ['negative amount', { amountMinorUnits: '-5' }, 'amountMinorUnits'],
      ['decimal amount', { amountMinorUnits: '19.99' }, 'amountMinorUnits'],
      ['numeric amount', { amountMinorUnits: 1999 }, 'amountMinorUnits'],
      ['leading zero', { amountMinorUnits: '0100' }, 'amountMinorUnits'],
      ['missing amount', { amountMinorUnits: undefined }, 'amountMinorUnits'],
      ['lower-case currency', { currency: 'usd' }, 'currency'],
      ['unknown currency', { currency: 'ABC' }, 'currency'],
      ['unknown provider', { provider: 'PAYPAL' }, 'provider'],
      ['http returnUrl', { returnUrl: 'http://shop.example/thanks' }, 'returnUrl'],
      ['relative returnUrl', { returnUrl: '/thanks' }, 'returnUrl'],
      ['missing returnUrl', { returnUrl: undefined }, 'returnUrl'],
      ['unknown checkoutMode', { checkoutMode: 'POPUP' }, 'checkoutMode'],
      ['unknown interval', { subscriptionIntervalUnit: 'WEEKLY' }, 'subscriptionIntervalUnit'],
      ['empty idempotencyKey', { idempotencyKey: '' }, 'idempotencyKey'],
      ['numeric idempotencyKey', { idempotencyKey: 42 }, 'idempotencyKey'],
      ['over-long externalOrderRef', { externalOrderRef: 'x'.repeat(256) }, 'externalOrderRef'],
      ['returnUrl with credentials', { returnUrl: 'https://user:pw@shop.example/thanks' }, 'returnUrl'],
      ['unknown field', { tip: '5' }, 'tip'],
    ])('refuses %s with 400 and appends nothing', async (_label, overrides, field) => {
      const before = await app.eventCount();
      const response = await createCheckout(app, merchant.apiKey, checkoutBody(overrides));
      expect(response.status).toBe(400);
      expect(response.body).toEqual(errorEnvelope('VALIDATION_FAILED'));
      expect(response.body.error.details.map((d: { field: string }) => d.field)).toContain(field);
      expect(await app.eventCount()).toBe(before);
    });

    it.each([
      ['an array', '[]'],
      ['a string', '"USD"'],
      ['null', 'null'],
    ])('refuses a body that is %s with 400 and appends nothing', async (_label, rawBody) => {
      const before = await app.eventCount();
      const response = await app.request('POST', '/api/commerce/integration/checkout', {
        token: merchant.apiKey,
        rawBody,
        headers: { 'content-type': 'application/json' },
      });
      expect(response.status).toBe(400);
      expect(response.body).toEqual(errorEnvelope('VALIDATION_FAILED'));
      expect(await app.eventCount()).toBe(before);
    });

    it('refuses EMBEDDED and subscriptions with the wallet processor (422) and appends nothing', async () => {
      const before = await app.eventCount();
      const embedded = await createCheckout(app, merchant.apiKey, checkoutBody({ provider: 'WALLET_PROCESSOR', checkoutMode: 'EMBEDDED' }));
      expect(embedded.status).toBe(422);
      expect(embedded.body.error.code).toBe('CHECKOUT_EMBEDDED_NEEDS_CARD');
      const recurring = await createCheckout(app, merchant.apiKey, checkoutBody({ provider: 'WALLET_PROCESSOR', subscriptionIntervalUnit: 'MONTHLY' }));
      expect(recurring.status).toBe(422);
      expect(recurring.body.error.code).toBe('CHECKOUT_SUBSCRIPTION_NEEDS_CARD');
      expect(await app.eventCount()).toBe(before);
    });

    it('needs an API key with checkout:write', async () => {
      expect((await createCheckout(app, '', checkoutBody())).status).toBe(401);
      expect((await createCheckout(app, 'sk_not_a_key', checkoutBody())).status).toBe(401);
      expect((await createCheckout(app, merchant.sessionToken, checkoutBody())).status).toBe(403);
      const splitKey = await issueApiKey(app, merchant.sessionToken, ['split:write']);
      const wrongScope = await createCheckout(app, splitKey, checkoutBody());
      expect(wrongScope.status).toBe(403);
    });

    it('answers a REDIRECT order with its hosted page and an EMBEDDED one with a clientSecret; status is public', async () => {
      const redirect = await createdCheckout(app, merchant.apiKey);
      expect(Object.keys(redirect).sort()).toEqual(['checkoutMode', 'orderId', 'provider', 'redirectUrl']);
      expect(redirect).toMatchObject({ orderId: expect.stringMatching(ORDER_ID), provider: 'CARD_PROCESSOR', checkoutMode: 'REDIRECT' });
      expect(redirect.redirectUrl).toMatch(new RegExp(`^${app.platform.config.hostedCheckoutUrl}/pay/${redirect.orderId}\\?t=[0-9a-z]{32}$`));
      const embedded = await createdCheckout(app, merchant.apiKey, { checkoutMode: 'EMBEDDED' });
      expect(Object.keys(embedded).sort()).toEqual(['checkoutMode', 'clientSecret', 'orderId', 'provider']);
      expect(embedded.clientSecret).toMatch(new RegExp(`^${embedded.orderId}_secret_[0-9a-z]{32}$`));
      expect(await orderStatus(app, redirect.orderId)).toEqual({ status: 'OPEN', amountMinorUnits: '1999', currency: 'USD', subscriptionId: null });
      const unknown = await app.request('GET', '/api/commerce/checkout/orders/ord_unknown/status');
      expect(unknown.status).toBe(404);
      expect(unknown.body.error.code).toBe('CHECKOUT_ORDER_NOT_FOUND');
      expect(dataOf(await createCheckout(app, merchant.apiKey, checkoutBody({ idempotencyKey: undefined })), 201).orderId).toMatch(ORDER_ID);
    });

    it('replays the same idempotencyKey (per company) with 200 and Idempotent-Replayed', async () => {
      const body = checkoutBody({ externalOrderRef: 'A-1' });
      const first = await createCheckout(app, merchant.apiKey, body);
      expect(first.status).toBe(201);
      expect(first.headers.get('idempotent-replayed')).toBeNull();
      const again = await createCheckout(app, merchant.apiKey, body);
      expect(again.status).toBe(200);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect(again.body).toEqual(first.body);
      const other = await createMerchant(app, 'Other Shop');
      const theirs = await createCheckout(app, other.apiKey, body);
      expect(theirs.status).toBe(201);
      expect(theirs.body.data.orderId).not.toBe(first.body.data.orderId);
    });

    it('creates exactly one order for 50 concurrent identical requests', async () => {
      const body = checkoutBody();
      const responses = await Promise.all(Array.from({ length: 50 }, () => createCheckout(app, merchant.apiKey, body)));
      const statuses = responses.map((r) => r.status);
      expect(statuses.filter((s) => s === 201)).toHaveLength(1);
      expect(statuses.filter((s) => s === 200)).toHaveLength(49);
      expect(new Set(responses.map((r) => JSON.stringify(r.body))).size).toBe(1);
      const orderId = responses[0]!.body.data.orderId;
      const created = (await allEvents(app)).filter((e) => e.type === 'checkout.order.created' && (e.data as { orderId: string }).orderId === orderId);
      expect(created).toHaveLength(1);
    });

    it('expires an unpaid order after 24 hours', async () => {
      const order = await createdCheckout(app, merchant.apiKey, { checkoutMode: 'EMBEDDED' });
      await advance(app, DAY + 1);
      expect((await orderStatus(app, order.orderId)).status).toBe('EXPIRED');
      const late = await confirm(app, order.orderId, order.clientSecret, CARDS.ok);
      expect(late.status).toBe(409);
      expect(late.body.error.code).toBe('CHECKOUT_ORDER_NOT_PAYABLE');
    });
  });

  describe('hosted payment page (REDIRECT)', () => {
    it('pays by card through the form and sends the buyer to returnUrl with order= appended', async () => {
      const order = await createdCheckout(app, merchant.apiKey);
      const url = new URL(order.redirectUrl);
      const token = url.searchParams.get('t')!;
      const page = await fetch(`${app.url}${url.pathname}${url.search}`);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toContain('text/html');
      expect(page.headers.get('x-frame-options')).toBe('DENY');
      const html = await page.text();
      expect(html).toContain('<label for="card-number">Card number</label>');
      expect((await fetch(`${app.url}${url.pathname}?t=wrong`)).status).toBe(404);

      const declined = await form(app, url.pathname, { t: token, number: CARDS.declines, expMonth: '12', expYear: '2040', cvc: '123' });
      expect(declined.status).toBe(402);
      expect(await declined.text()).toMatch(/role="alert"[^>]*>Your card was declined/);
      expect((await orderStatus(app, order.orderId)).status).toBe('OPEN');

      const paid = await form(app, url.pathname, { t: token, number: CARDS.ok, expMonth: '12', expYear: '2040', cvc: '123' });
      expect(paid.status).toBe(303);
      const location = new URL(paid.headers.get('location')!);
      expect(`${location.origin}${location.pathname}`).toBe('https://shop.example/thanks');
      expect(Object.fromEntries(location.searchParams)).toEqual({ cart: '42', order: order.orderId });
      expect((await orderStatus(app, order.orderId)).status).toBe('PAID');

      // The live workers deliver it (no clock advance needed).
      await receiver.waitFor(() => receiver.requests.some((r) => jsonOf(r).type === 'checkout.completed'), 10_000);
      const [payoutId] = (await allEvents(app))
        .filter((e) => e.type === 'checkout.order.paid' && (e.data as { orderId: string }).orderId === order.orderId)
        .map((e) => (e.data as { payoutId: string }).payoutId);
      await receiver.waitFor(() => deliveriesFor(payoutId!).length === 1, 10_000, 'checkout.completed');
      expect(deliveriesFor(payoutId!)[0].data).toEqual({ payoutId, amount: '1999', currency: 'USD', provider: 'CARD_PROCESSOR' });
    });

    it('takes the 3155 card through the buyer-authentication step', async () => {
      const order = await createdCheckout(app, merchant.apiKey);
      const url = new URL(order.redirectUrl);
      const token = url.searchParams.get('t')!;
      const started = await form(app, url.pathname, { t: token, number: CARDS.authenticate, expMonth: '12', expYear: '2040', cvc: '123' });
      expect(started.status).toBe(303);
      expect(started.headers.get('location')).toBe(`/pay/${order.orderId}/authenticate?t=${token}`);
      expect((await orderStatus(app, order.orderId)).status).toBe('REQUIRES_ACTION');
      const step = await fetch(`${app.url}/pay/${order.orderId}/authenticate?t=${token}`);
      expect(await step.text()).toContain('Confirm your payment');
      const done = await form(app, `/pay/${order.orderId}/authenticate`, { t: token });
      expect(done.status).toBe(303);
      expect(done.headers.get('location')).toBe(`https://shop.example/thanks?cart=42&order=${order.orderId}`);
      expect((await orderStatus(app, order.orderId)).status).toBe('PAID');
    });

    it('pays with the wallet by approval; cancel returns without paying', async () => {
      const order = await createdCheckout(app, merchant.apiKey, { provider: 'WALLET_PROCESSOR' });
      const url = new URL(order.redirectUrl);
      const token = url.searchParams.get('t')!;
      expect(await (await fetch(order.redirectUrl.replace(app.platform.config.hostedCheckoutUrl, app.url))).text()).toContain('Approve payment');
      const cancelled = await form(app, `/pay/${order.orderId}/wallet`, { t: token, decision: 'cancel' });
      expect(cancelled.status).toBe(303);
      expect((await orderStatus(app, order.orderId)).status).toBe('OPEN');
      const approved = await form(app, `/pay/${order.orderId}/wallet`, { t: token, decision: 'approve' });
      expect(approved.status).toBe(303);
      expect(approved.headers.get('location')).toBe(`https://shop.example/thanks?cart=42&order=${order.orderId}`);
      expect((await orderStatus(app, order.orderId)).status).toBe('PAID');
    });

    it('answers a refused action with the status the API gives the same error (400 for invalid, not 422), and Retry-After on 429', async () => {
      class RefusedError extends DomainError {
        readonly code = 'REFUSED_IN_TEST';
        constructor(
          readonly kind: ErrorKind,
          override readonly retryAfterSeconds?: number,
        ) {
          super(`Refused as ${kind}`);
        }
      }
      const order = await createdCheckout(app, merchant.apiKey, { provider: 'WALLET_PROCESSOR' });
      const token = new URL(order.redirectUrl).searchParams.get('t')!;
      const kinds: ErrorKind[] = ['invalid', 'unauthenticated', 'forbidden', 'not_found', 'conflict', 'unprocessable', 'rate_limited', 'unavailable'];
      const bus = app.app.get(CommandBus);
      const execute = bus.execute.bind(bus);
      const answers = [];
      for (const kind of kinds) {
        // The real server, route and page; only the wallet approval's answer is made up, as no real order reaches most kinds here.
        const refused = new RefusedError(kind, kind === 'rate_limited' ? 7 : undefined);
        const spy = jest.spyOn(bus, 'execute').mockImplementation((command) => (command instanceof ApproveWalletPaymentMessage ? Promise.reject(refused) : execute(command)));
        const page = await form(app, `/pay/${order.orderId}/wallet`, { t: token, decision: 'approve' });
        spy.mockRestore();
        answers.push({ kind, status: page.status, retryAfter: page.headers.get('retry-after'), refused: (await page.text()).includes(`Refused as ${kind}`) });
      }
      expect(answers).toEqual(kinds.map((kind) => ({ kind, status: statusOfKind(kind), retryAfter: kind === 'rate_limited' ? '7' : null, refused: true })));
      expect(answers.find((a) => a.kind === 'invalid')?.status).toBe(400);
      expect((await orderStatus(app, order.orderId)).status).toBe('OPEN');
    });
  });

  describe('embedded confirm (public)', () => {
    it('answers each sandbox card as documented', async () => {
      const order = await createdCheckout(app, merchant.apiKey, { checkoutMode: 'EMBEDDED' });
      const badShape = await app.request('POST', `/api/commerce/checkout/orders/${order.orderId}/confirm`, {
        body: { clientSecret: order.clientSecret, card: { ...card(CARDS.ok), number: '42' } },
      });
      expect(badShape.status).toBe(400);
      const wrongSecret = await confirm(app, order.orderId, `${order.orderId}_secret_nope`, CARDS.ok);
      expect(wrongSecret.status).toBe(403);
      expect(wrongSecret.body.error.code).toBe('CHECKOUT_CLIENT_SECRET_INVALID');
      expect((await confirm(app, 'ord_unknown', 'x', CARDS.ok)).status).toBe(404);

      const declined = await confirm(app, order.orderId, order.clientSecret, CARDS.declines);
      expect(declined.status).toBe(422);
      expect(declined.body.error).toMatchObject({ code: 'CARD_DECLINED', details: [{ field: 'card', declineCode: 'card_declined' }] });
      expect((await orderStatus(app, order.orderId)).status).toBe('OPEN');

      const action = dataOf(await confirm(app, order.orderId, order.clientSecret, CARDS.authenticate), 200);
      expect(action).toEqual({ status: 'REQUIRES_ACTION', nextAction: { redirectUrl: expect.stringContaining(`/pay/${order.orderId}/authenticate?t=`) } });
      expect((await orderStatus(app, order.orderId)).status).toBe('REQUIRES_ACTION');

      // The buyer may still pay with another card instead of authenticating.
      expect(dataOf(await confirm(app, order.orderId, order.clientSecret, CARDS.ok), 200)).toEqual({ status: 'PAID' });
      expect((await orderStatus(app, order.orderId)).status).toBe('PAID');
      const twice = await confirm(app, order.orderId, order.clientSecret, CARDS.ok);
      expect(twice.status).toBe(409);

      const other = await createdCheckout(app, merchant.apiKey, { checkoutMode: 'EMBEDDED' });
      const step = dataOf(await confirm(app, other.orderId, other.clientSecret, CARDS.authenticate), 200);
      const token = new URL(step.nextAction.redirectUrl).searchParams.get('t')!;
      expect((await form(app, `/pay/${other.orderId}/authenticate`, { t: token })).status).toBe(303);
      expect((await orderStatus(app, other.orderId)).status).toBe('PAID');

      const third = await createdCheckout(app, merchant.apiKey, { checkoutMode: 'EMBEDDED' });
      expect(dataOf(await confirm(app, third.orderId, third.clientSecret, CARDS.offSessionDeclines), 200)).toEqual({ status: 'PAID' });
    });

    it('refuses the card confirm on a wallet order', async () => {
      const order = await createdCheckout(app, merchant.apiKey, { provider: 'WALLET_PROCESSOR' });
      const response = await confirm(app, order.orderId, 'anything', CARDS.ok);
      expect(response.status).toBe(403);
    });
  });

  describe('subscriptions', () => {
    it('renews a monthly subscription 12 times on anchored dates, each renewal a PAID order with its merchant payout and completion', async () => {
      const order = await createdCheckout(app, merchant.apiKey, { checkoutMode: 'EMBEDDED', subscriptionIntervalUnit: 'MONTHLY', amountMinorUnits: '990' });
      expect(dataOf(await confirm(app, order.orderId, order.clientSecret, CARDS.ok), 200)).toEqual({ status: 'PAID' });
      const status = await orderStatus(app, order.orderId);
      expect(status).toMatchObject({ status: 'PAID', subscriptionId: expect.stringMatching(SUBSCRIPTION_ID) });
      const subscriptionId = status.subscriptionId;
      const sub = dataOf(await app.request('GET', `/api/commerce/checkout/subscriptions/${subscriptionId}`), 200);
      expect(sub).toEqual({
        subscriptionId,
        status: 'ACTIVE',
        intervalUnit: 'MONTHLY',
        amountMinorUnits: '990',
        currency: 'USD',
        provider: 'CARD_PROCESSOR',
        currentPeriodStart: expect.any(String),
        currentPeriodEnd: expect.any(String),
        consecutiveDeclines: 0,
        card: { brand: 'visa', last4: '4242' },
        cancelledAt: null,
        cancellationReason: null,
      });
      const anchor = new Date(sub.currentPeriodStart);

      // The merchant's endpoint stays on: each renewal's checkout.completed goes out while the clock moves.
      await setEndpoint(true);
      for (let month = 1; month <= 12; month++) await advance(app, 31 * DAY);

      const events = await allEvents(app);
      const renewalsPaid = events.filter((e) => e.type === 'checkout.order.paid' && (e.data as any).renewal?.subscriptionId === subscriptionId);
      // 12 * 31 days covers the renewals of months 1..12 (month 13 falls after it).
      expect(renewalsPaid).toHaveLength(12);
      for (const paid of renewalsPaid)
        expect(await orderStatus(app, (paid.data as any).orderId)).toEqual({ status: 'PAID', amountMinorUnits: '990', currency: 'USD', subscriptionId });
      const renewed = events
        .filter((e) => e.type === 'checkout.subscription.renewed' && (e.data as any).subscriptionId === subscriptionId)
        .map((e) => (e.data as any).currentPeriodStart);
      const expected = Array.from({ length: 12 }, (_, i) => {
        const n = i + 1;
        const total = anchor.getUTCFullYear() * 12 + anchor.getUTCMonth() + n;
        const last = new Date(Date.UTC(Math.floor(total / 12), (total % 12) + 1, 0)).getUTCDate();
        return new Date(
          Date.UTC(
            Math.floor(total / 12),
            total % 12,
            Math.min(anchor.getUTCDate(), last),
            anchor.getUTCHours(),
            anchor.getUTCMinutes(),
            anchor.getUTCSeconds(),
            anchor.getUTCMilliseconds(),
          ),
        ).toISOString();
      });
      expect(renewed).toEqual(expected);
      const after = dataOf(await app.request('GET', `/api/commerce/checkout/subscriptions/${subscriptionId}`), 200);
      expect(after).toMatchObject({ status: 'ACTIVE', currentPeriodStart: expected[11], consecutiveDeclines: 0 });
      const payouts = events.filter(
        (e) => e.type === 'payout.completed' && (e.data as any).kind === 'merchant' && renewalsPaid.some((p) => (p.data as any).payoutId === (e.data as any).payoutId),
      );
      expect(payouts).toHaveLength(12);
      const completed = events.filter((e) => e.type === 'checkout.order.completed' && (e.data as any).renewalOf === subscriptionId);
      expect(completed).toHaveLength(12);
      for (const paid of renewalsPaid) {
        const payoutId = (paid.data as any).payoutId as string;
        await receiver.waitFor(() => deliveriesFor(payoutId).length >= 1, 10_000, `checkout.completed for ${payoutId}`);
        expect(deliveriesFor(payoutId)[0].data).toEqual({ payoutId, amount: '990', currency: 'USD', provider: 'CARD_PROCESSOR', subscriptionId });
      }
    }, 120_000);

    it('sends checkout.completed with subscriptionId on a renewal and without it on the founding order', async () => {
      const order = await createdCheckout(app, merchant.apiKey, { checkoutMode: 'EMBEDDED', subscriptionIntervalUnit: 'MONTHLY', amountMinorUnits: '4500' });
      dataOf(await confirm(app, order.orderId, order.clientSecret, CARDS.ok), 200);
      const subscriptionId = (await orderStatus(app, order.orderId)).subscriptionId;
      const paidOf = async () =>
        (await allEvents(app))
          .filter((e) => e.type === 'checkout.order.paid' && ((e.data as any).orderId === order.orderId || (e.data as any).renewal?.subscriptionId === subscriptionId))
          .map((e) => (e.data as any).payoutId as string);
      const [founding] = await paidOf();
      await receiver.waitFor(() => deliveriesFor(founding!).length === 1, 10_000, 'founding checkout.completed');
      expect(deliveriesFor(founding!)[0].data).toEqual({ payoutId: founding, amount: '4500', currency: 'USD', provider: 'CARD_PROCESSOR' });
      await advance(app, 31 * DAY);
      const [, renewal] = await paidOf();
      await receiver.waitFor(() => deliveriesFor(renewal!).length >= 1, 20_000, 'renewal checkout.completed');
      expect(deliveriesFor(renewal!)[0].data).toEqual({ payoutId: renewal, amount: '4500', currency: 'USD', provider: 'CARD_PROCESSOR', subscriptionId });
      await setEndpoint(false);
    }, 90_000);

    it('cancels after exactly 3 declines (first, then 1 day and 3 days later) with the 0341 card, and charges no more', async () => {
      const order = await createdCheckout(app, merchant.apiKey, { checkoutMode: 'EMBEDDED', subscriptionIntervalUnit: 'MONTHLY' });
      dataOf(await confirm(app, order.orderId, order.clientSecret, CARDS.offSessionDeclines), 200);
      const subscriptionId = (await orderStatus(app, order.orderId)).subscriptionId;
      const read = async () => dataOf(await app.request('GET', `/api/commerce/checkout/subscriptions/${subscriptionId}`), 200);
      const sub = await read();
      const renewalAt = Date.parse(sub.currentPeriodEnd);
      const clockNow = async () => Date.parse(dataOf(await app.request('GET', '/api/sandbox/clock'), 200).now);
      await advance(app, Math.ceil((renewalAt - (await clockNow())) / 1000) + 60);
      expect(await read()).toMatchObject({ status: 'ACTIVE', consecutiveDeclines: 1 });
      await advance(app, DAY);
      expect(await read()).toMatchObject({ status: 'ACTIVE', consecutiveDeclines: 2 });
      await advance(app, 2 * DAY);
      expect(await read()).toMatchObject({ status: 'ACTIVE', consecutiveDeclines: 2 });
      await advance(app, DAY);
      const cancelled = await read();
      expect(cancelled).toMatchObject({ status: 'CANCELLED', consecutiveDeclines: 3, cancellationReason: 'PAYMENT_FAILED', cancelledAt: expect.any(String) });
      await advance(app, 90 * DAY);
      const events = await allEvents(app);
      const renewalOrders = events.filter((e) => e.type === 'checkout.order.created' && (e.data as any).renewal?.subscriptionId === subscriptionId);
      expect(renewalOrders.map((e) => (e.data as any).renewal.attempt)).toEqual([1, 2, 3]);
      const failed = events.filter((e) => e.type === 'checkout.order.failed' && (e.data as any).subscriptionId === subscriptionId);
      expect(failed).toHaveLength(3);
      for (const e of renewalOrders) expect((await orderStatus(app, (e.data as any).orderId)).status).toBe('FAILED');
      const declines = events.filter((e) => e.type === 'checkout.subscription.renewal_declined' && (e.data as any).subscriptionId === subscriptionId);
      const at = declines.map((e) => Date.parse((e.data as any).at));
      expect(declines.map((e) => (e.data as any).nextAttemptAt)).toEqual([new Date(at[0]! + DAY * 1000).toISOString(), new Date(at[1]! + 3 * DAY * 1000).toISOString(), null]);
      // The sandbox clock also runs in real time: the retries fire at their due time plus a few ms.
      expect(Math.abs(at[1]! - at[0]! - DAY * 1000)).toBeLessThan(1000);
      expect(Math.abs(at[2]! - at[1]! - 3 * DAY * 1000)).toBeLessThan(1000);
      expect(events.filter((e) => e.type === 'checkout.order.paid' && (e.data as any).renewal?.subscriptionId === subscriptionId)).toHaveLength(0);
    }, 60_000);

    it('lets the buyer cancel, idempotently; unknown ids are 404', async () => {
      const order = await createdCheckout(app, merchant.apiKey, { checkoutMode: 'EMBEDDED', subscriptionIntervalUnit: 'YEARLY' });
      dataOf(await confirm(app, order.orderId, order.clientSecret, CARDS.ok), 200);
      const subscriptionId = (await orderStatus(app, order.orderId)).subscriptionId;
      const first = dataOf(await app.request('POST', `/api/commerce/checkout/subscriptions/${subscriptionId}/cancel`), 200);
      expect(first).toMatchObject({ subscriptionId, status: 'CANCELLED', intervalUnit: 'YEARLY', cancellationReason: 'BUYER_REQUEST', cancelledAt: expect.any(String) });
      // The merchant payout may still be completing in the background; the subscription's stream must not move.
      const subscriptionEvents = async () => (await app.platform.events.readStream(subscriptionStreamId(subscriptionId))).length;
      const before = await subscriptionEvents();
      const again = dataOf(await app.request('POST', `/api/commerce/checkout/subscriptions/${subscriptionId}/cancel`), 200);
      expect(again).toEqual(first);
      expect(await subscriptionEvents()).toBe(before);
      for (const [method, path] of [
        ['GET', '/api/commerce/checkout/subscriptions/sub_nope'],
        ['POST', '/api/commerce/checkout/subscriptions/sub_nope/cancel'],
      ] as const) {
        const response = await app.request(method, path);
        expect(response.status).toBe(404);
        expect(response.body.error.code).toBe('CHECKOUT_SUBSCRIPTION_NOT_FOUND');
      }
      await advance(app, 400 * DAY);
      const events = await allEvents(app);
      expect(events.filter((e) => e.type === 'checkout.order.created' && (e.data as any).renewal?.subscriptionId === subscriptionId)).toHaveLength(0);
    }, 60_000);
  });

  describe('payment links', () => {
    it('creates a link with a session only; the page can be framed only with ?embed=true', async () => {
      const body = { title: 'Yoga class', amountMinorUnits: '2500', currency: 'EUR', provider: 'CARD_PROCESSOR' };
      expect((await app.request('POST', '/api/commerce/payment-links', { token: merchant.apiKey, body })).status).toBe(403);
      expect((await app.request('POST', '/api/commerce/payment-links', { token: merchant.sessionToken, body: { ...body, amountMinorUnits: '0' } })).status).toBe(400);
      const link = dataOf(await app.request('POST', '/api/commerce/payment-links', { token: merchant.sessionToken, body }), 201);
      expect(link.url).toBe(`${app.platform.config.hostedCheckoutUrl}/checkout/${link.slug}`);
      const full = await fetch(`${app.url}/checkout/${link.slug}`);
      expectPageHeaders(full.headers, "'none'");
      const fullHtml = await full.text();
      expect(fullHtml).toContain('Yoga class');
      expect(fullHtml).toContain('€25.00');
      expect(fullHtml).toContain('class="chrome"');
      const embedded = await fetch(`${app.url}/checkout/${link.slug}?embed=true`);
      expectPageHeaders(embedded.headers, '*');
      expect(await embedded.text()).not.toContain('class="chrome"');
      expect((await fetch(`${app.url}/checkout/nope`)).status).toBe(404);

      const started = await form(app, `/checkout/${link.slug}`, {});
      expect(started.status).toBe(303);
      const payUrl = started.headers.get('location')!;
      const token = new URL(payUrl, app.url).searchParams.get('t')!;
      const orderId = payUrl.split('/')[2]!.split('?')[0]!;
      const paid = await form(app, `/pay/${orderId}`, { t: token, number: CARDS.ok, expMonth: '1', expYear: '2041', cvc: '999' });
      expect(paid.headers.get('location')).toBe(`${app.platform.config.hostedCheckoutUrl}/checkout/${link.slug}/complete?order=${orderId}`);
      expect(await orderStatus(app, orderId)).toMatchObject({ status: 'PAID', amountMinorUnits: '2500', currency: 'EUR' });
    });
  });

  it('never stores a card number in the event log', async () => {
    const log = JSON.stringify(await allEvents(app));
    for (const number of Object.values(CARDS)) expect(log).not.toContain(number);
    expect(log).toContain('"last4":"4242"');
  });
});
