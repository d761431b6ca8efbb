import { OrderView, PaymentLinkView } from '../projections/checkout-read-model.projection';

/** Server-rendered buyer pages: plain HTML, labelled fields, native forms (keyboard-usable without script). */

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** "USD 19.99" from minor units, exact (no floats), with the currency's own number of decimals. */
export function formatAmount(amountMinorUnits: string, currency: string): string {
  let digits: number;
  try {
    digits = new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    digits = 2;
  }
  if (digits === 0) return `${currency} ${amountMinorUnits}`;
  const padded = amountMinorUnits.padStart(digits + 1, '0');
  return `${currency} ${padded.slice(0, -digits)}.${padded.slice(-digits)}`;
}

/** The merchant's return address with `order=<orderId>` appended, keeping its other query parameters. */
export function returnAddress(returnUrl: string, orderId: string): string {
  const url = new URL(returnUrl);
  url.searchParams.set('order', orderId);
  return url.toString();
}

const STYLE = `
body{font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:0;background:#f6f7f9;color:#1a1d21}
main{max-width:28rem;margin:2rem auto;background:#fff;border-radius:8px;padding:1.5rem;box-shadow:0 1px 3px rgba(0,0,0,.12)}
body.embed main{margin:0 auto;box-shadow:none}
header.chrome,footer.chrome{max-width:28rem;margin:1rem auto;color:#555;font-size:.9rem}
label{display:block;margin:.75rem 0 .25rem;font-weight:600}
input{width:100%;box-sizing:border-box;padding:.55rem;font-size:1rem;border:1px solid #8a9099;border-radius:4px}
.row{display:flex;gap:.75rem}.row>div{flex:1}
button{margin-top:1rem;width:100%;padding:.7rem;font-size:1rem;border:0;border-radius:4px;background:#1f5fd1;color:#fff;cursor:pointer}
button.secondary{background:#e4e7eb;color:#1a1d21}
button:focus,input:focus,a:focus{outline:3px solid #f2b600;outline-offset:2px}
.error{background:#fdecea;border:1px solid #c62828;color:#8e1c1c;padding:.6rem;border-radius:4px}
.amount{font-size:1.5rem;font-weight:700}`;

export function page(title: string, body: string, embed: boolean): string {
  const chromeTop = embed ? '' : '<header class="chrome" role="banner"><strong>Paysplit</strong> secure checkout</header>';
  const chromeBottom = embed ? '' : '<footer class="chrome" role="contentinfo">Payments processed by Paysplit. Never share your card details by email.</footer>';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)}</title><style>${STYLE}</style></head>
<body class="${embed ? 'embed' : 'full'}">${chromeTop}<main id="main">${body}</main>${chromeBottom}</body></html>`;
}

const hidden = (name: string, value: string) => `<input type="hidden" name="${name}" value="${escapeHtml(value)}">`;

export function errorBox(message: string | null): string {
  return message ? `<div class="error" role="alert" id="payment-error">${escapeHtml(message)}</div>` : '';
}

export function cardForm(action: string, fields: Record<string, string>, submitLabel: string, error: string | null): string {
  return `${errorBox(error)}
<form method="post" action="${escapeHtml(action)}" aria-describedby="${error ? 'payment-error' : ''}">
${Object.entries(fields)
  .map(([k, v]) => hidden(k, v))
  .join('')}
<label for="card-number">Card number</label>
<input id="card-number" name="number" inputmode="numeric" autocomplete="cc-number" required pattern="[0-9 ]{12,23}" placeholder="4242 4242 4242 4242">
<div class="row">
<div><label for="card-exp-month">Expiry month (MM)</label><input id="card-exp-month" name="expMonth" inputmode="numeric" autocomplete="cc-exp-month" required pattern="[0-9]{1,2}" placeholder="12"></div>
<div><label for="card-exp-year">Expiry year (YYYY)</label><input id="card-exp-year" name="expYear" inputmode="numeric" autocomplete="cc-exp-year" required pattern="[0-9]{4}" placeholder="2030"></div>
</div>
<label for="card-cvc">Security code (CVC)</label>
<input id="card-cvc" name="cvc" inputmode="numeric" autocomplete="cc-csc" required pattern="[0-9]{3,4}" placeholder="123">
<button type="submit">${escapeHtml(submitLabel)}</button>
</form>`;
}

export function payPage(order: OrderView, token: string, embed: boolean, error: string | null): string {
  const amount = formatAmount(order.amountMinorUnits, order.currency);
  const heading = `<h1>Pay ${escapeHtml(amount)}</h1><p class="amount" aria-hidden="true">${escapeHtml(amount)}</p>`;
  const note = order.subscriptionIntervalUnit
    ? `<p>This payment starts a ${order.subscriptionIntervalUnit.toLowerCase()} subscription; your card is saved for the renewals.</p>`
    : '';
  const fields = { t: token, ...(embed ? { embed: 'true' } : {}) };
  if (order.provider === 'WALLET_PROCESSOR') {
    const action = `/pay/${order.id}/wallet`;
    return page(
      `Pay ${amount}`,
      `${heading}${errorBox(error)}
<p>Approve this payment in your wallet.</p>
<form method="post" action="${action}">${Object.entries(fields)
        .map(([k, v]) => hidden(k, v))
        .join('')}${hidden('decision', 'approve')}<button type="submit">Approve payment</button></form>
<form method="post" action="${action}">${Object.entries(fields)
        .map(([k, v]) => hidden(k, v))
        .join('')}${hidden('decision', 'cancel')}<button type="submit" class="secondary">Cancel and return to the merchant</button></form>`,
      embed,
    );
  }
  return page(`Pay ${amount}`, `${heading}${note}${cardForm(`/pay/${order.id}`, fields, `Pay ${amount}`, error)}`, embed);
}

export function authenticationPage(order: OrderView, token: string, embed: boolean): string {
  const amount = formatAmount(order.amountMinorUnits, order.currency);
  const fields = { t: token, ...(embed ? { embed: 'true' } : {}) };
  const card = order.card ? `${order.card.brand} ending in ${order.card.last4}` : 'your card';
  return page(
    'Confirm your payment',
    `<h1>Confirm your payment</h1>
<p>Your bank asks you to confirm the payment of <strong>${escapeHtml(amount)}</strong> with ${escapeHtml(card)}.</p>
<form method="post" action="/pay/${order.id}/authenticate">${Object.entries(fields)
      .map(([k, v]) => hidden(k, v))
      .join('')}<button type="submit">Confirm payment</button></form>
<p><a href="/pay/${order.id}?t=${encodeURIComponent(token)}${embed ? '&amp;embed=true' : ''}">Use another card instead</a></p>`,
    embed,
  );
}

export function messagePage(title: string, message: string, embed: boolean, link?: { href: string; label: string }): string {
  return page(
    title,
    `<h1>${escapeHtml(title)}</h1><p role="status">${escapeHtml(message)}</p>${link ? `<p><a href="${escapeHtml(link.href)}">${escapeHtml(link.label)}</a></p>` : ''}`,
    embed,
  );
}

export function paymentLinkPage(link: PaymentLinkView, embed: boolean): string {
  const amount = formatAmount(link.amountMinorUnits, link.currency);
  return page(
    link.title,
    `<h1>${escapeHtml(link.title)}</h1><p class="amount">${escapeHtml(amount)}</p>
<form method="post" action="/checkout/${escapeHtml(link.slug)}">${embed ? hidden('embed', 'true') : ''}<button type="submit">Continue to payment</button></form>`,
    embed,
  );
}
