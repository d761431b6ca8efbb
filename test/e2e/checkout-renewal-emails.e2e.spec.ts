import { CommandBus } from '@nestjs/cqrs';
import { SendRenewalEmailMessage } from '../../src/checkout/application/send-renewal-email.handler';
import { dataOf, errorEnvelope } from '../support/split-fixtures';
import { startTestApp, TestApp } from '../support/test-app';
import { advance, allEvents, CARDS, createCheckout, checkoutBody, createdCheckout, createMerchant, Merchant } from '../browser/checkout-fixtures';

/**
 * Issue 29 item 8: a subscription order collects the buyer's email (the merchant's customerEmail, or asked on the
 * hosted page), and each renewal, charged or failed, emails the buyer from the sandbox outbox with the link to the
 * buyer's subscription page, where it can cancel.
 */
describe('Renewal emails to the buyer (issue 29)', () => {
  let app: TestApp;
  let shop: Merchant;
  const DAY = 86_400;

  beforeAll(async () => {
    app = await startTestApp();
    shop = await createMerchant(app, 'Email Shop');
  });
  afterAll(async () => {
    await app.close();
  });

  type Mail = { id: string; to: string; subject: string; body: string; link: string };
  const outbox = async () => dataOf(await app.request('GET', '/api/sandbox/outbox'), 200) as Mail[];
  const mailsTo = async (to: string) => (await outbox()).filter((m) => m.to === to);

  /** Pays a REDIRECT subscription order on its hosted page, with `email` in the form. */
  async function payHosted(order: { redirectUrl: string }, number: string, email: string | undefined) {
    const url = new URL(order.redirectUrl);
    const form: Record<string, string> = { t: url.searchParams.get('t')!, number, expMonth: '12', expYear: '2040', cvc: '123' };
    if (email !== undefined) form.customerEmail = email;
    return fetch(`${app.url}${url.pathname}`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(form).toString(),
    });
  }
  async function subscriptionOf(orderId: string): Promise<string> {
    await app.eventCount();
    return dataOf(await app.request('GET', `/api/commerce/checkout/orders/${orderId}/status`), 200).subscriptionId as string;
  }

  it('refuses a customerEmail that is not an email, in the envelope, and creates nothing', async () => {
    const response = await createCheckout(app, shop.apiKey, checkoutBody({ subscriptionIntervalUnit: 'MONTHLY', customerEmail: 'not-an-email' }));
    expect(response.status).toBe(400);
    expect(response.body).toEqual(errorEnvelope('VALIDATION_FAILED'));
    expect(response.body.error.details.map((d: { field: string }) => d.field)).toContain('customerEmail');
  });

  it('asks the email on the hosted page of a subscription order, prefilled from customerEmail, and pays without one (optional)', async () => {
    const prefilled = await createdCheckout(app, shop.apiKey, { subscriptionIntervalUnit: 'MONTHLY', customerEmail: 'pre@example.com' });
    const page = await (await fetch(prefilled.redirectUrl.replace(/^https?:\/\/[^/]+/, app.url))).text();
    expect(page).toContain('<label for="customer-email">Email for renewal notices (optional)</label>');
    expect(page).toMatch(/<input id="customer-email" name="customerEmail" type="email"[^>]* value="pre@example.com"/);
    expect(page).not.toMatch(/<input id="customer-email"[^>]* required/);
    const oneOff = await createdCheckout(app, shop.apiKey, {});
    expect(await (await fetch(oneOff.redirectUrl.replace(/^https?:\/\/[^/]+/, app.url))).text()).not.toContain('customer-email');

    const order = await createdCheckout(app, shop.apiKey, { subscriptionIntervalUnit: 'MONTHLY' });
    const refused = await payHosted(order, CARDS.ok, 'nope');
    expect(refused.status).toBe(400);
    const html = await refused.text();
    expect(html).toContain('aria-invalid="true"');
    expect(html).toContain('Enter the email address for renewal notices');
    await app.eventCount();
    expect(dataOf(await app.request('GET', `/api/commerce/checkout/orders/${order.orderId}/status`), 200).status).toBe('OPEN');

    // Left blank, the order pays as it did before the field existed; its subscription has no email to write to.
    expect((await payHosted(order, CARDS.ok, '')).status).toBe(303);
    const subscriptionId = await subscriptionOf(order.orderId);
    expect(subscriptionId).toMatch(/^sub_/);
  });

  it('emails the buyer after a renewal with the amount, the dates and the manage link, once, and the link opens the cancel page', async () => {
    const order = await createdCheckout(app, shop.apiKey, { subscriptionIntervalUnit: 'MONTHLY', amountMinorUnits: '1250', currency: 'EUR' });
    expect((await payHosted(order, CARDS.ok, 'renew@example.com')).status).toBe(303);
    const subscriptionId = await subscriptionOf(order.orderId);
    expect(subscriptionId).toMatch(/^sub_/);
    expect(await mailsTo('renew@example.com')).toEqual([]);

    await advance(app, 32 * DAY);
    await app.eventCount();
    const sub = dataOf(await app.request('GET', `/api/commerce/checkout/subscriptions/${subscriptionId}`), 200);
    const mails = await mailsTo('renew@example.com');
    expect(mails).toHaveLength(1);
    const [mail] = mails;
    expect(mail.subject).toBe('Your monthly subscription renewed: €12.50 charged');
    expect(mail.body).toContain('€12.50 was charged on ');
    expect(mail.body).toContain(`Next charge: €12.50 on ${(sub.currentPeriodEnd as string).slice(0, 10)}.`);
    expect(mail.link).toMatch(new RegExp(`/subscriptions/${subscriptionId}$`));
    expect(mail.body).toContain(mail.link);

    // The merchant that owns the order sees its customer's email on the order; the buyer-facing status does not carry it.
    expect(dataOf(await app.request('GET', `/api/commerce/checkout/orders/${order.orderId}`, { token: shop.sessionToken }), 200).customerEmail).toBe('renew@example.com');
    expect(JSON.stringify(dataOf(await app.request('GET', `/api/commerce/checkout/orders/${order.orderId}/status`), 200))).not.toContain('renew@example.com');
    const other = await createMerchant(app, 'Other Email Shop');
    expect((await app.request('GET', `/api/commerce/checkout/orders/${order.orderId}`, { token: other.sessionToken })).status).toBe(404);

    // A replayed event (a restarted worker reacting again) sends nothing more: the message id is fixed per renewal.
    const renewed = (await allEvents(app)).find((e) => e.type === 'checkout.subscription.renewed' && (e.data as { subscriptionId: string }).subscriptionId === subscriptionId)!;
    await app.app.get(CommandBus).execute(new SendRenewalEmailMessage({ type: renewed.type, data: renewed.data } as never));
    expect(await mailsTo('renew@example.com')).toEqual([mail]);

    const manage = await fetch(`${app.url}${new URL(mail.link).pathname}`);
    expect(manage.status).toBe(200);
    expect(await manage.text()).toContain('Cancel');
  });

  it('emails the buyer when a renewal charge fails, saying when it is tried again; the merchant customerEmail is used without the form', async () => {
    const order = await createdCheckout(app, shop.apiKey, { subscriptionIntervalUnit: 'MONTHLY', amountMinorUnits: '990', customerEmail: 'declined@example.com' });
    expect((await payHosted(order, CARDS.offSessionDeclines, undefined)).status).toBe(303);
    await subscriptionOf(order.orderId);
    await advance(app, 32 * DAY);
    await app.eventCount();
    // 32 days cover the first attempt and its retry a day later: one email per declined attempt.
    const mails = await mailsTo('declined@example.com');
    expect(mails).toHaveLength(2);
    expect(new Set(mails.map((m) => m.id)).size).toBe(2);
    for (const mail of mails) {
      expect(mail.subject).toBe('Your monthly subscription renewal of $9.90 failed');
      expect(mail.body).toMatch(/We will try the card again on \d{4}-\d{2}-\d{2}\. After three failed charges in a row the subscription is cancelled\./);
    }
  });

  it('sends nothing for a subscription without an email (an embedded order paid through the API)', async () => {
    const order = await createdCheckout(app, shop.apiKey, { checkoutMode: 'EMBEDDED', subscriptionIntervalUnit: 'MONTHLY' });
    dataOf(
      await app.request('POST', `/api/commerce/checkout/orders/${order.orderId}/confirm`, {
        body: { clientSecret: order.clientSecret, card: { number: CARDS.ok, expMonth: 12, expYear: 2040, cvc: '123' } },
      }),
      200,
    );
    const subscriptionId = await subscriptionOf(order.orderId);
    await advance(app, 32 * DAY);
    await app.eventCount();
    // It did renew (so the silence below is about the missing email).
    const renewed = (await allEvents(app)).filter((e) => e.type === 'checkout.subscription.renewed' && (e.data as { subscriptionId: string }).subscriptionId === subscriptionId);
    expect(renewed).toHaveLength(1);
    expect((await outbox()).filter((m) => m.link.includes(subscriptionId))).toEqual([]);
  });
});
