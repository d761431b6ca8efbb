import { wasPaid } from '../domain/checkout.events';
import { formatAmount } from '../../platform/money/format-amount';
import { chromeHeader, escapeHtml, htmlPage } from '../../platform/http/html-page';
import { OrderView, PaymentLinkView } from '../projections/checkout-read-model.projection';

/**
 * Server-rendered buyer pages: labelled fields, native forms (they work without script; the card checks in
 * /assets/card-form.js only help), amounts formatted for the currency, the merchant's name on every page.
 */

/** The merchant's return address with `order=<orderId>` appended, keeping its other query parameters. */
export function returnAddress(returnUrl: string, orderId: string): string {
  const url = new URL(returnUrl);
  url.searchParams.set('order', orderId);
  return url.toString();
}

/** Who is paid and for what: shown at the top of every buyer page. */
export interface PageParty {
  merchant: string;
  /** The merchant's order reference or the payment link's title; null when the merchant gave none. */
  item: string | null;
}

export interface PageOptions {
  embed: boolean;
  /** Inside the embedded checkout frame (`/embed/checkout/:orderId`): the frame script runs on the page. */
  frame?: { orderId: string; status: string; message?: string };
  scripts?: string[];
}

export function page(title: string, body: string, options: PageOptions): string {
  const { embed, frame } = options;
  const chromeTop = embed ? '' : chromeHeader('secure checkout');
  const chromeBottom = embed ? '' : '<footer class="chrome"><span>Payments are processed securely by Paysplit.</span></footer>';
  const frameAttrs = frame
    ? ` data-order-id="${escapeHtml(frame.orderId)}" data-status="${escapeHtml(frame.status)}"${frame.message ? ` data-message="${escapeHtml(frame.message)}"` : ''}`
    : '';
  const scripts = [...(options.scripts ?? []), ...(frame ? ['/assets/frame.js'] : [])];
  return htmlPage(title, body, { bodyAttributes: ` class="${embed ? 'embed' : 'full'}"${frameAttrs}`, header: chromeTop, footer: chromeBottom, scripts });
}

const hidden = (name: string, value: string) => `<input type="hidden" name="${name}" value="${escapeHtml(value)}">`;
const hiddenFields = (fields: Record<string, string>) =>
  Object.entries(fields)
    .map(([k, v]) => hidden(k, v))
    .join('');

export function errorBox(message: string | null): string {
  return `<div class="error" role="alert" id="payment-error">${message ? escapeHtml(message) : ''}</div>`;
}

/** The heading block: who is paid, for what, how much. */
function summary(party: PageParty, amount: string, heading = `Pay ${party.merchant}`): string {
  return `<h1>${escapeHtml(heading)}</h1>
<div class="summary"><p class="item">${party.item ? escapeHtml(party.item) : 'Your order'}</p><p class="amount">${escapeHtml(amount)}</p></div>`;
}

export interface CardFormOptions {
  action: string;
  fields: Record<string, string>;
  submitLabel: string;
  error: string | null;
  /** Kept after a decline (not sensitive); the card number and CVC are never echoed back into HTML. */
  expiry?: { month: string; year: string };
  /** 'hosted' posts the form; 'embed' pays through the confirm API from the frame script. */
  mode: 'hosted' | 'embed';
  /** A subscription order's hosted form asks the buyer's email (issue 29): prefilled, and whether the last try's was missing or invalid. */
  email?: { value: string; invalid: boolean };
}

/** The hosted form's email field of a subscription order: where renewal emails (with the cancel link) go. */
function emailField(email: { value: string; invalid: boolean }): string {
  const message = email.invalid ? 'Enter the email address for renewal notices, like name@example.com.' : '';
  return `<label for="customer-email">Email for renewal notices (optional)</label>
<input id="customer-email" name="customerEmail" type="email" autocomplete="email" maxlength="254" aria-describedby="customer-email-error customer-email-hint"${email.value ? ` value="${escapeHtml(email.value)}"` : ''}${email.invalid ? ' aria-invalid="true" autofocus' : ''}>
<p class="note" id="customer-email-hint">We email you only about this subscription: each renewal charge, a failed charge, and the link to cancel it. Leave it blank to get no emails.</p>
<p class="field-error" id="customer-email-error">${escapeHtml(message)}</p>
`;
}

export function cardForm(options: CardFormOptions): string {
  const { action, fields, submitLabel, error, expiry, mode } = options;
  const value = (v: string | undefined) => (v ? ` value="${escapeHtml(v)}"` : '');
  const described = (id: string, extra = '') => ` aria-describedby="${id}-error${extra}"`;
  return `${errorBox(error)}
<form method="post" action="${escapeHtml(action)}" novalidate data-card-form="${mode}" aria-label="Card payment">
${hiddenFields(fields)}
${options.email ? emailField(options.email) : ''}<label for="card-number">Card number</label>
<input id="card-number" name="number" type="text" inputmode="numeric" autocomplete="cc-number" autocorrect="off" spellcheck="false" maxlength="23" required${described('card-number', error ? ' payment-error' : '')}${error ? ' autofocus' : ''}>
<p class="field-error" id="card-number-error"></p>
<div class="row">
<div><label for="card-exp-month">Expiry month (MM)</label><input id="card-exp-month" name="expMonth" type="text" inputmode="numeric" autocomplete="cc-exp-month" maxlength="2" required${value(expiry?.month)}${described('card-exp-month')}><p class="field-error" id="card-exp-month-error"></p></div>
<div><label for="card-exp-year">Expiry year (YYYY)</label><input id="card-exp-year" name="expYear" type="text" inputmode="numeric" autocomplete="cc-exp-year" maxlength="4" required${value(expiry?.year)}${described('card-exp-year')}><p class="field-error" id="card-exp-year-error"></p></div>
<div><label for="card-cvc">Security code (CVC)</label><input id="card-cvc" name="cvc" type="text" inputmode="numeric" autocomplete="cc-csc" maxlength="4" required${described('card-cvc')}><p class="field-error" id="card-cvc-error"></p></div>
</div>
<button type="submit">${escapeHtml(submitLabel)}</button>
<p class="secure">Your card details go straight to Paysplit; ${mode === 'embed' ? 'this shop never sees them' : 'they are never stored on this page'}.</p>
</form>`;
}

export function payPage(
  order: OrderView,
  party: PageParty,
  token: string,
  embed: boolean,
  error: string | null,
  expiry?: { month: string; year: string },
  email?: { value: string; invalid: boolean },
): string {
  const amount = formatAmount(order.amountMinorUnits, order.currency);
  const fields = { t: token, ...(embed ? { embed: 'true' } : {}) };
  if (order.provider === 'WALLET_PROCESSOR') {
    const action = `/pay/${order.id}/wallet`;
    return page(
      `Pay ${amount} to ${party.merchant} with your wallet`,
      `${summary(party, amount, `Pay ${party.merchant} with your wallet`)}${error ? errorBox(error) : ''}
<p>Approving sends <strong>${escapeHtml(amount)}</strong> from your Paysplit wallet to ${escapeHtml(party.merchant)}. No card details are needed.</p>
<form method="post" action="${action}">${hiddenFields(fields)}${hidden('decision', 'approve')}<button type="submit">Approve payment of ${escapeHtml(amount)}</button></form>
<form method="post" action="${action}">${hiddenFields(fields)}${hidden('decision', 'cancel')}<button type="submit" class="secondary">Cancel and return to ${escapeHtml(party.merchant)}</button></form>
<p class="note">If you cancel, nothing is paid and you go back to ${escapeHtml(party.merchant)}.</p>`,
      { embed },
    );
  }
  const note = order.subscriptionIntervalUnit
    ? `<p class="note">This payment starts a ${order.subscriptionIntervalUnit.toLowerCase()} subscription; your card is saved for the renewals.</p>`
    : '';
  return page(
    `Pay ${amount} to ${party.merchant}`,
    `${summary(party, amount)}${note}${cardForm({
      action: `/pay/${order.id}`,
      fields,
      submitLabel: `Pay ${amount}`,
      error,
      expiry,
      mode: 'hosted',
      email: order.subscriptionIntervalUnit ? (email ?? { value: order.customerEmail ?? '', invalid: false }) : undefined,
    })}`,
    { embed, scripts: ['/assets/card-form.js'] },
  );
}

/** The embedded frame's page: the card form (or the paid state), paid through the confirm API by /assets/frame.js. */
export function embedPage(order: OrderView, party: PageParty, subscription: { rows: string; after: string } | null = null): string {
  const amount = formatAmount(order.amountMinorUnits, order.currency);
  const paid = wasPaid(order.status);
  const closed = !paid && order.status !== 'OPEN' && order.status !== 'REQUIRES_ACTION';
  const message = closed ? (order.status === 'EXPIRED' ? 'This checkout has expired.' : 'This order can no longer be paid.') : undefined;
  // A subscription's terms, as on the hosted receipt (issue 29); a frame paid live fetches them from this page once paid.
  const terms = subscription
    ? `<dl class="receipt">
${subscription.rows}</dl>
${subscription.after}`
    : '';
  const receipt = `<div id="paid"${paid ? '' : ' hidden'}${order.subscriptionIntervalUnit && !order.renewal ? ' data-subscription' : ''}>
<h2 class="done" id="paid-heading" tabindex="-1">${CHECK_ICON}Payment received</h2>
<p role="status">${escapeHtml(amount)} paid to ${escapeHtml(party.merchant)}. <span id="paid-card">${paid && order.card ? escapeHtml(`${capitalise(order.card.brand)} ending in ${order.card.last4}.`) : ''}</span></p>
<div id="paid-terms">${terms}</div>
<p class="note">Order ${escapeHtml(order.id)}</p></div>`;
  const body = closed
    ? `<p role="status">${escapeHtml(message!)}</p>`
    : `${paid ? '' : cardForm({ action: `/embed/checkout/${order.id}`, fields: {}, submitLabel: `Pay ${amount}`, error: null, mode: 'embed' })}${receipt}`;
  return page(`Pay ${amount} to ${party.merchant}`, body, {
    embed: true,
    frame: { orderId: order.id, status: closed ? order.status : paid ? 'PAID' : 'OPEN', message },
    scripts: ['/assets/card-form.js'],
  });
}

const CHECK_ICON =
  '<svg width="24" height="24" viewBox="0 0 24 24" aria-hidden="true" focusable="false"><circle cx="12" cy="12" r="12" fill="#1e7b34"/><path d="M7 12.5l3.2 3.2L17 9" stroke="#fff" stroke-width="2.4" fill="none" stroke-linecap="round" stroke-linejoin="round"/></svg>';

export function authenticationPage(order: OrderView, party: PageParty, token: string, embed: boolean, frame: boolean): string {
  const amount = formatAmount(order.amountMinorUnits, order.currency);
  const fields = { t: token, ...(embed ? { embed: 'true' } : {}), ...(frame ? { frame: '1' } : {}) };
  const card = order.card ? `your ${capitalise(order.card.brand)} card ending in ${order.card.last4}` : 'your card';
  return page(
    'Confirm your payment',
    `<h1>Confirm your payment</h1>
<p>Your bank asks you to confirm the payment of <strong>${escapeHtml(amount)}</strong> to ${escapeHtml(party.merchant)} with ${escapeHtml(card)}.</p>
<p class="note">Sandbox: this page stands in for your bank's confirmation step.</p>
<form method="post" action="/pay/${order.id}/authenticate">${hiddenFields(fields)}<button type="submit">Confirm payment</button></form>
<form method="post" action="/pay/${order.id}/another-card">${hiddenFields(fields)}<button type="submit" class="link">Use another card instead</button></form>`,
    { embed, frame: frame ? { orderId: order.id, status: 'REQUIRES_ACTION' } : undefined },
  );
}

/** After payment: amount, merchant, order id, card brand and last4, a link back. */
export function receiptPage(
  order: OrderView,
  party: PageParty,
  embed: boolean,
  back: { href: string; label: string } | null,
  /** A subscription's founding order (issue 29 item 8): its interval and next charge in the list, how to cancel below it. */
  subscription: { rows: string; after: string } | null = null,
): string {
  const amount = formatAmount(order.amountMinorUnits, order.currency);
  const paidAt = order.paidAt ? new Date(order.paidAt) : null;
  const when = paidAt ? new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' }).format(paidAt) + ' UTC' : null;
  const method = order.card ? `${capitalise(order.card.brand)} ending in ${order.card.last4}` : order.provider === 'WALLET_PROCESSOR' ? 'Paysplit wallet' : 'Card';
  // Refunds (issue 26): what went back to the buyer, and the order's status in words.
  const refunded = order.refundedMinorUnits && order.refundedMinorUnits !== '0' ? formatAmount(order.refundedMinorUnits, order.currency) : null;
  const refundLine = refunded
    ? `<dt>Status</dt><dd>${order.status === 'REFUNDED' ? 'Refunded' : 'Partially refunded'}</dd>
<dt>Refunded</dt><dd>${escapeHtml(refunded)}</dd>
`
    : '';
  return page(
    `Receipt: ${amount} paid to ${party.merchant}`,
    `<h1 class="done">${CHECK_ICON}Payment received</h1>
<p role="status">Thank you. You paid <strong>${escapeHtml(amount)}</strong> to ${escapeHtml(party.merchant)}.</p>
<dl class="receipt">
<dt>Paid to</dt><dd>${escapeHtml(party.merchant)}</dd>
${party.item ? `<dt>For</dt><dd>${escapeHtml(party.item)}</dd>` : ''}
<dt>Amount</dt><dd>${escapeHtml(amount)}</dd>
<dt>Paid with</dt><dd>${escapeHtml(method)}</dd>
${when ? `<dt>Date</dt><dd>${escapeHtml(when)}</dd>` : ''}
${refundLine}${subscription?.rows ?? ''}<dt>Order</dt><dd>${escapeHtml(order.id)}</dd>
</dl>
${subscription?.after ?? ''}
${back ? `<a class="button" href="${escapeHtml(back.href)}">${escapeHtml(back.label)}</a>` : ''}`,
    { embed },
  );
}

const capitalise = (value: string) => value.charAt(0).toUpperCase() + value.slice(1);

export function messagePage(title: string, message: string, embed: boolean, link?: { href: string; label: string }): string {
  return page(
    title,
    `<h1>${escapeHtml(title)}</h1><p role="status">${escapeHtml(message)}</p>${link ? `<p><a href="${escapeHtml(link.href)}">${escapeHtml(link.label)}</a></p>` : ''}`,
    { embed },
  );
}

export function paymentLinkPage(link: PaymentLinkView, merchant: string, embed: boolean): string {
  const amount = formatAmount(link.amountMinorUnits, link.currency);
  return page(
    `${link.title}: ${amount}`,
    `<p class="merchant">${escapeHtml(merchant)}</p><h1>${escapeHtml(link.title)}</h1><p class="amount">${escapeHtml(amount)}</p>
<form method="post" action="/checkout/${escapeHtml(link.slug)}">${embed ? hidden('embed', 'true') : ''}<button type="submit">Continue to payment</button></form>`,
    { embed },
  );
}

/** One plain sentence per decline code (the processor's own reason stays in the event). */
export function declineSentence(declineCode: string): string {
  switch (declineCode) {
    case 'expired_card':
      return 'This card has expired. Try another card.';
    case 'incorrect_number':
      return 'This card number is not valid. Check it and try again.';
    default:
      return 'Your card was declined. Try another card or contact your bank.';
  }
}
