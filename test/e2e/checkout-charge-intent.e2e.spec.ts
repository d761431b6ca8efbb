import { PAYMENT_PROCESSORS, PaymentProcessors } from '../../src/checkout/domain/payment-processor.port';
import { OperationalChargeBook, SandboxCardProcessor } from '../../src/checkout/infrastructure/sandbox-processors';
import { renewalOrderId } from '../../src/checkout/application/checkout-payments';
import { replayCheckoutCharges, verifyCheckoutCharges } from '../../src/checkout/application/charge-verifier';
import { dataOf, errorEnvelope } from '../support/split-fixtures';
import { startTestApp, TestApp } from '../support/test-app';
import { tempDir } from '../support/temp-dir';
import { randomUUID } from 'node:crypto';
import { sha256Hex } from '../../src/platform/ids/ids';
import { advance, allEvents, CARDS, confirm, createdCheckout, createMerchant, form, Merchant, orderStatus } from '../browser/checkout-fixtures';

/**
 * Issue 23 item 3, "intent before effect" (docs/money.md#charge-intent): the charge is recorded as an
 * attempt before the processor is called, the call carries the attempt id as its idempotency key, and
 * what the sandbox processor took is read back from its own record (by key) to prove that no card is
 * charged twice and no charge is left unrecorded.
 */

const DAY = 86_400;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** What the sandbox processor took for an order, from its own record (kept in DATA_DIR, outside the event log). */
async function chargesAtProcessor(app: TestApp, orderId: string) {
  return (await new OperationalChargeBook(app.platform.readStore).all()).filter((c) => c.orderId === orderId);
}

/** What `ledger:verify` says about checkout charges (the same functions the command runs). */
async function chargeViolations(app: TestApp) {
  return verifyCheckoutCharges(await replayCheckoutCharges(app.platform.events), await new OperationalChargeBook(app.platform.readStore).all()).violations.map((v) => v.message);
}

const cardProcessor = (app: TestApp) => ((app.app.get(PAYMENT_PROCESSORS) as PaymentProcessors).for('CARD_PROCESSOR') as SandboxCardProcessor).faults;

async function orderEvents(app: TestApp, orderId: string) {
  return (await allEvents(app)).filter((e) => e.streamId === `checkout_order-${orderId}`);
}

const typesOf = (events: { type: string }[]) => events.map((e) => e.type);

describe('Checkout charges: one attempt in flight, the attempt id as the idempotency key (issue 23)', () => {
  describe('with a slow processor (SANDBOX_PROCESSOR_DELAY_MS)', () => {
    let app: TestApp;
    let merchant: Merchant;
    beforeAll(async () => {
      app = await startTestApp({ SANDBOX_PROCESSOR_DELAY_MS: '1500' });
      merchant = await createMerchant(app);
    });
    afterAll(() => app.close());

    it('20 concurrent confirms of one order charge the card once and pay the order once; the others answer 409 CHECKOUT_PAYMENT_IN_PROGRESS', async () => {
      const order = await createdCheckout(app, merchant.apiKey, { checkoutMode: 'EMBEDDED' });
      const answers = await Promise.all(Array.from({ length: 20 }, () => confirm(app, order.orderId, order.clientSecret, CARDS.ok)));
      const paid = answers.filter((a) => a.status === 200);
      const refused = answers.filter((a) => a.status !== 200);
      expect(paid.map((a) => a.body.data)).toEqual([{ status: 'PAID' }]);
      for (const answer of refused) {
        expect(answer.status).toBe(409);
        expect(answer.body).toEqual(errorEnvelope('CHECKOUT_PAYMENT_IN_PROGRESS', []));
      }
      expect(await chargesAtProcessor(app, order.orderId)).toEqual([expect.objectContaining({ status: 'captured', amountMinorUnits: '1999' })]);
      const events = await orderEvents(app, order.orderId);
      expect(typesOf(events).filter((t) => t === 'checkout.order.paid')).toHaveLength(1);
      expect(typesOf(events).filter((t) => t === 'checkout.order.payment_attempt_started')).toHaveLength(1);
      const [charge] = await chargesAtProcessor(app, order.orderId);
      expect(events.find((e) => e.type === 'checkout.order.paid')!.data).toMatchObject({ attemptId: charge!.attemptId });
      expect((await orderStatus(app, order.orderId)).status).toBe('PAID');
      expect(await chargeViolations(app)).toEqual([]);
    }, 60_000);

    it('a double-submitted hosted card form charges once', async () => {
      const order = await createdCheckout(app, merchant.apiKey);
      const url = new URL(order.redirectUrl);
      const fields = { t: url.searchParams.get('t')!, number: CARDS.ok, expMonth: '12', expYear: '2040', cvc: '123' };
      const [first, second] = await Promise.all([form(app, url.pathname, fields), form(app, url.pathname, fields)]);
      expect([first.status, second.status].sort()).toEqual([303, 409]);
      expect(await chargesAtProcessor(app, order.orderId)).toHaveLength(1);
      expect((await orderStatus(app, order.orderId)).status).toBe('PAID');
    }, 30_000);

    it('a charge that lands after the order expired is voided at the processor and recorded void in the order history', async () => {
      const order = await createdCheckout(app, merchant.apiKey, { checkoutMode: 'EMBEDDED' });
      const paying = confirm(app, order.orderId, order.clientSecret, CARDS.ok);
      // The attempt is recorded and the processor is taking its time: the order expires meanwhile.
      await sleep(400);
      expect(typesOf(await orderEvents(app, order.orderId))).toContain('checkout.order.payment_attempt_started');
      await advance(app, DAY + 60);
      expect((await orderStatus(app, order.orderId)).status).toBe('EXPIRED');
      const answer = await paying;
      expect(answer.status).toBe(409);
      expect(answer.body).toEqual(errorEnvelope('CHECKOUT_CHARGE_VOIDED', []));
      await app.eventCount(); // the workflow voids it at the processor
      const [charge, ...more] = await chargesAtProcessor(app, order.orderId);
      expect(more).toEqual([]);
      expect(charge).toMatchObject({ status: 'voided', voidedAt: expect.any(String) });
      const events = await orderEvents(app, order.orderId);
      // The clock jump also makes the attempt stale: its check finds nothing at the processor yet and abandons it.
      expect(typesOf(events)).toEqual([
        'checkout.order.created',
        'checkout.order.payment_attempt_started',
        'checkout.order.payment_attempt_abandoned',
        'checkout.order.expired',
        'checkout.order.charge_voided',
      ]);
      expect(events[4]!.data).toMatchObject({ attemptId: charge!.attemptId, reason: 'ORDER_EXPIRED', amountMinorUnits: '1999', currency: 'USD' });
      expect((await orderStatus(app, order.orderId)).status).toBe('EXPIRED');
      expect(await chargeViolations(app)).toEqual([]);
    }, 30_000);

    it('a renewal charge that lands after the buyer cancelled the subscription is voided, and the period is not recorded', async () => {
      const order = await createdCheckout(app, merchant.apiKey, { checkoutMode: 'EMBEDDED', subscriptionIntervalUnit: 'MONTHLY' });
      dataOf(await confirm(app, order.orderId, order.clientSecret, CARDS.ok), 200);
      const subscriptionId = (await orderStatus(app, order.orderId)).subscriptionId;
      const renewalOrder = renewalOrderId({ subscriptionId, periodIndex: 1, attempt: 1 });
      const renewing = advance(app, 32 * DAY);
      // The renewal's attempt is recorded and the saved card is being charged: the buyer cancels.
      for (let i = 0; i < 50 && !typesOf(await orderEvents(app, renewalOrder)).includes('checkout.order.payment_attempt_started'); i++) await sleep(100);
      dataOf(await app.request('POST', `/api/commerce/checkout/subscriptions/${subscriptionId}/cancel`), 200);
      await renewing;
      await app.eventCount();
      expect(await chargesAtProcessor(app, renewalOrder)).toEqual([expect.objectContaining({ status: 'voided' })]);
      const events = await orderEvents(app, renewalOrder);
      expect(events.find((e) => e.type === 'checkout.order.charge_voided')!.data).toMatchObject({ reason: 'SUBSCRIPTION_CANCELLED' });
      expect(typesOf(events)).not.toContain('checkout.order.paid');
      const sub = dataOf(await app.request('GET', `/api/commerce/checkout/subscriptions/${subscriptionId}`), 200);
      expect(sub).toMatchObject({ status: 'CANCELLED', cancellationReason: 'BUYER_REQUEST' });
      const subEvents = (await allEvents(app)).filter((e) => e.streamId === `checkout_subscription-${subscriptionId}`);
      expect(typesOf(subEvents)).toEqual(['checkout.subscription.started', 'checkout.subscription.renewal_attempt_started', 'checkout.subscription.cancelled']);
    }, 60_000);
  });

  describe('old data', () => {
    it('an order written before attempts were recorded is paid with one; one paid before passes the check', async () => {
      const app = await startTestApp();
      try {
        const merchant = await createMerchant(app);
        const now = dataOf(await app.request('GET', '/api/sandbox/clock'), 200).now as string;
        const metadata = { correlationId: 'old', causationId: null, actor: 'system:test', occurredAt: now };
        const oldOrder = (orderId: string, secret: string) => ({
          id: randomUUID(),
          type: 'checkout.order.created',
          // The shape an earlier version wrote: no requestHash, subscriptionId or attempt fields.
          data: {
            orderId,
            merchantCompanyId: merchant.companyId,
            amountMinorUnits: '1500',
            currency: 'USD',
            provider: 'CARD_PROCESSOR',
            checkoutMode: 'EMBEDDED',
            returnUrl: 'https://shop.example/thanks',
            externalOrderRef: null,
            idempotencyKey: null,
            subscriptionIntervalUnit: null,
            renewal: null,
            pageTokenHash: sha256Hex(`${secret}-page`),
            clientSecretHash: sha256Hex(secret),
            createdAt: now,
            expiresAt: new Date(Date.parse(now) + DAY * 1000).toISOString(),
          },
          metadata,
        });
        await app.platform.events.append('checkout_order-ord_old_open', [oldOrder('ord_old_open', 'ord_old_open_secret_x')], 'no_stream');
        const paidBefore = {
          id: randomUUID(),
          type: 'checkout.order.paid',
          data: {
            orderId: 'ord_old_paid',
            merchantCompanyId: merchant.companyId,
            amountMinorUnits: '1500',
            currency: 'USD',
            provider: 'CARD_PROCESSOR',
            card: { brand: 'visa', last4: '4242', token: 'tok_sandbox_ok_old' },
            payoutId: 'po_old',
            subscriptionId: null,
            subscriptionIntervalUnit: null,
            renewal: null,
            paidAt: now,
          },
          metadata,
        };
        await app.platform.events.append('checkout_order-ord_old_paid', [oldOrder('ord_old_paid', 'ord_old_paid_secret_x'), paidBefore], 'no_stream');
        await app.eventCount();

        expect(dataOf(await confirm(app, 'ord_old_open', 'ord_old_open_secret_x', CARDS.ok), 200)).toEqual({ status: 'PAID' });
        expect(typesOf(await orderEvents(app, 'ord_old_open')).slice(0, 3)).toEqual(['checkout.order.created', 'checkout.order.payment_attempt_started', 'checkout.order.paid']);
        expect(await chargesAtProcessor(app, 'ord_old_open')).toHaveLength(1);
        expect(await confirm(app, 'ord_old_paid', 'ord_old_paid_secret_x', CARDS.ok)).toMatchObject({ status: 409, body: errorEnvelope('CHECKOUT_ORDER_NOT_PAYABLE', []) });
        expect(await chargeViolations(app)).toEqual([]);
      } finally {
        await app.close();
      }
    }, 60_000);
  });

  describe('a crash between the processor answer and the append', () => {
    it('a confirm retried after the restart records the charge taken before the crash, without charging again', async () => {
      const dataDir = tempDir('charge-crash');
      let app = await startTestApp({ DATA_DIR: dataDir });
      const merchant = await createMerchant(app);
      const order = await createdCheckout(app, merchant.apiKey, { checkoutMode: 'EMBEDDED' });
      cardProcessor(app).loseNextAnswer = true;
      expect((await confirm(app, order.orderId, order.clientSecret, CARDS.ok)).status).toBe(500);
      expect(await chargesAtProcessor(app, order.orderId)).toEqual([expect.objectContaining({ status: 'captured' })]);
      expect(typesOf(await orderEvents(app, order.orderId))).toEqual(['checkout.order.created', 'checkout.order.payment_attempt_started']);
      // Charged and not recorded: ledger:verify says so until the charge is recorded.
      expect(await chargeViolations(app)).toEqual([expect.stringContaining(`${order.orderId}: the processor captured 1999 USD under`)]);
      await app.close();

      app = await startTestApp({ DATA_DIR: dataDir });
      try {
        expect(dataOf(await confirm(app, order.orderId, order.clientSecret, CARDS.ok), 200)).toEqual({ status: 'PAID' });
        const charges = await chargesAtProcessor(app, order.orderId);
        expect(charges).toEqual([expect.objectContaining({ status: 'captured' })]);
        const events = await orderEvents(app, order.orderId);
        expect(typesOf(events)).toEqual(['checkout.order.created', 'checkout.order.payment_attempt_started', 'checkout.order.paid']);
        expect(events[2]!.data).toMatchObject({ attemptId: charges[0]!.attemptId });
        expect(await chargeViolations(app)).toEqual([]);
      } finally {
        await app.close();
      }
    }, 60_000);

    it('without a retry by the buyer, the stale attempt is checked after the restart and the charge taken before the crash is recorded', async () => {
      const dataDir = tempDir('charge-crash-check');
      let app = await startTestApp({ DATA_DIR: dataDir });
      const merchant = await createMerchant(app);
      const order = await createdCheckout(app, merchant.apiKey, { checkoutMode: 'EMBEDDED' });
      cardProcessor(app).loseNextAnswer = true;
      expect((await confirm(app, order.orderId, order.clientSecret, CARDS.ok)).status).toBe(500);
      await app.close();

      app = await startTestApp({ DATA_DIR: dataDir });
      try {
        await advance(app, 61);
        expect((await orderStatus(app, order.orderId)).status).toBe('PAID');
        const charges = await chargesAtProcessor(app, order.orderId);
        expect(charges).toEqual([expect.objectContaining({ status: 'captured' })]);
        const events = await orderEvents(app, order.orderId);
        expect(typesOf(events).slice(0, 3)).toEqual(['checkout.order.created', 'checkout.order.payment_attempt_started', 'checkout.order.paid']);
        expect(events[2]!.data).toMatchObject({ attemptId: charges[0]!.attemptId });
        expect(await chargeViolations(app)).toEqual([]);
      } finally {
        await app.close();
      }
    }, 60_000);

    it('the renewal timer firing again records the off-session charge taken before the crash, without charging the saved card again, and a restart changes nothing', async () => {
      const dataDir = tempDir('renewal-crash');
      let app = await startTestApp({ DATA_DIR: dataDir });
      const merchant = await createMerchant(app);
      const order = await createdCheckout(app, merchant.apiKey, { checkoutMode: 'EMBEDDED', subscriptionIntervalUnit: 'MONTHLY', amountMinorUnits: '990' });
      dataOf(await confirm(app, order.orderId, order.clientSecret, CARDS.ok), 200);
      const subscriptionId = (await orderStatus(app, order.orderId)).subscriptionId;
      const renewalOrder = renewalOrderId({ subscriptionId, periodIndex: 1, attempt: 1 });
      const faults = cardProcessor(app);
      faults.loseNextAnswer = true;
      // The renewal timer fires, the card is charged and the answer lost; the failed timer fires again (2 s later) and recovers.
      await advance(app, 32 * DAY);
      expect(faults.loseNextAnswer).toBe(false);
      const check = async () => {
        const charges = await chargesAtProcessor(app, renewalOrder);
        expect(charges).toEqual([expect.objectContaining({ status: 'captured', amountMinorUnits: '990' })]);
        const events = await orderEvents(app, renewalOrder);
        expect(typesOf(events)).toEqual(['checkout.order.created', 'checkout.order.payment_attempt_started', 'checkout.order.paid', 'checkout.order.completed']);
        expect(events[2]!.data).toMatchObject({ attemptId: charges[0]!.attemptId });
        const renewed = (await allEvents(app)).filter(
          (e) => e.type === 'checkout.subscription.renewed' && (e.data as { subscriptionId: string }).subscriptionId === subscriptionId,
        );
        expect(renewed.map((e) => e.data)).toEqual([expect.objectContaining({ periodIndex: 1, orderId: renewalOrder })]);
        const sub = dataOf(await app.request('GET', `/api/commerce/checkout/subscriptions/${subscriptionId}`), 200);
        expect(sub).toMatchObject({ status: 'ACTIVE', consecutiveDeclines: 0 });
      };
      await check();
      await app.close();

      app = await startTestApp({ DATA_DIR: dataDir });
      try {
        await advance(app, 60);
        await check();
        expect(await chargeViolations(app)).toEqual([]);
      } finally {
        await app.close();
      }
    }, 60_000);
  });
});
