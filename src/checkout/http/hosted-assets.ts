/**
 * Static assets of the buyer pages, served from the service's own origin (`/assets/*`, `/favicon.ico`)
 * rather than inlined, so the pages work under a `script-src 'self'` / `style-src 'self'` policy.
 */

export const FAVICON_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="#1f5fd1"/><path d="M10 24V8h7a5 5 0 0 1 0 10h-4v6z" fill="#fff"/><rect x="13" y="11" width="4" height="4" rx="1" fill="#1f5fd1"/></svg>`;

export const PAGES_CSS = `
:root{--accent:#1f5fd1;--radius:6px;--font:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;--text:#1a1d21;--muted:#505863;--line:#8a9099;--bad:#b3261e}
*{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{font-family:var(--font);margin:0;background:#f3f4f6;color:var(--text);line-height:1.45;overflow-wrap:anywhere}
body.embed{background:transparent}
main{max-width:30rem;margin:1.5rem auto;background:#fff;border-radius:calc(var(--radius) + 4px);padding:1.5rem;box-shadow:0 1px 3px rgba(0,0,0,.12),0 4px 16px rgba(0,0,0,.04)}
body.embed main{margin:0;max-width:none;box-shadow:none;padding:.25rem .25rem .5rem;background:transparent}
header.chrome,footer.chrome{max-width:30rem;margin:1rem auto;padding:0 1rem;color:var(--muted);font-size:.875rem;display:flex;align-items:center;gap:.5rem}
header.chrome img{width:20px;height:20px}
@media (max-width:32rem){main{margin:0 .5rem;padding:1.25rem 1rem}}
h1{font-size:1.25rem;margin:0 0 .25rem}
.merchant{color:var(--muted);margin:0;font-size:.95rem}
.summary{display:flex;justify-content:space-between;align-items:baseline;flex-wrap:wrap;gap:.25rem 1rem;border-bottom:1px solid #e4e7eb;padding-bottom:1rem;margin-bottom:1rem}
.summary .item{margin:0;color:var(--text)}
.amount{font-size:1.6rem;font-weight:700;margin:0;font-variant-numeric:tabular-nums}
label{display:block;margin:.85rem 0 .3rem;font-weight:600;font-size:.95rem}
.hint{font-weight:400;color:var(--muted)}
input{width:100%;padding:.6rem .7rem;font:inherit;font-size:1rem;border:1px solid var(--line);border-radius:var(--radius);background:#fff;color:var(--text)}
input[aria-invalid="true"]{border-color:var(--bad);box-shadow:0 0 0 1px var(--bad)}
.field-error{color:var(--bad);font-size:.875rem;margin:.3rem 0 0}
.field-error:empty{display:none}
.row{display:grid;grid-template-columns:repeat(3,minmax(0,1fr));gap:.75rem;align-items:start}
.row>div{min-width:0}
@media (max-width:26rem){.row{grid-template-columns:repeat(2,minmax(0,1fr))}.row>div:last-child{grid-column:1 / -1}}
button,.button{display:block;margin-top:1.25rem;width:100%;padding:.75rem;font:inherit;font-size:1rem;font-weight:600;border:0;border-radius:var(--radius);background:var(--accent);color:#fff;cursor:pointer;text-align:center;text-decoration:none}
button[disabled]{opacity:.65;cursor:progress}
button.secondary{background:#e4e7eb;color:var(--text)}
button.link{background:none;color:var(--accent);padding:.25rem 0;margin-top:.75rem;width:auto;font-weight:400;text-decoration:underline}
button:focus-visible,input:focus-visible,a:focus-visible{outline:3px solid #f2b600;outline-offset:2px}
a{color:var(--accent)}
.error{background:#fdecea;border:1px solid var(--bad);color:#8e1c1c;padding:.6rem .75rem;border-radius:var(--radius);margin:0 0 .5rem}
.error:empty{display:none}
.note{color:var(--muted);font-size:.9rem}
.secure{color:var(--muted);font-size:.8rem;text-align:center;margin:.75rem 0 0}
dl.receipt{display:grid;grid-template-columns:max-content 1fr;gap:.4rem 1rem;margin:1rem 0}
dl.receipt dt{color:var(--muted)}
dl.receipt dd{margin:0;font-weight:600}
.done{display:flex;align-items:center;gap:.5rem}
.done svg{flex:none}
[hidden]{display:none!important}
`;

/**
 * Client-side card checks (Luhn, expiry in the future, CVC length) for the hosted card form and the
 * embedded frame. They only help the buyer: the server checks the same again. A bad field gets
 * `aria-invalid="true"` and a message tied to it by `aria-describedby`; focus moves to the first bad field.
 */
export const CARD_FORM_JS = `(function () {
  'use strict';
  function digits(value) { return String(value || '').replace(/\\D+/g, ''); }
  function luhn(number) {
    var sum = 0, double = false;
    for (var i = number.length - 1; i >= 0; i--) {
      var d = number.charCodeAt(i) - 48;
      if (double) { d *= 2; if (d > 9) d -= 9; }
      sum += d; double = !double;
    }
    return sum % 10 === 0;
  }
  function setError(input, message) {
    var box = document.getElementById(input.id + '-error');
    if (message) input.setAttribute('aria-invalid', 'true'); else input.removeAttribute('aria-invalid');
    if (box) box.textContent = message || '';
  }
  function check(form) {
    var f = fields(form);
    var number = digits(f.number.value);
    var month = parseInt(digits(f.month.value), 10);
    var yearText = digits(f.year.value);
    var year = parseInt(yearText, 10);
    if (yearText.length === 2) year += 2000;
    var now = new Date();
    var errors = [];
    var amex = /^3[47]/.test(number);
    if (!number) errors.push([f.number, 'Enter your card number.']);
    else if (number.length < 12 || number.length > 19 || !luhn(number)) errors.push([f.number, 'This card number is not valid. Check it and try again.']);
    if (!(month >= 1 && month <= 12)) errors.push([f.month, 'Enter the expiry month, 01 to 12.']);
    if (!(yearText.length === 2 || yearText.length === 4)) errors.push([f.year, 'Enter the expiry year, for example ' + (now.getFullYear() + 3) + '.']);
    else if (month >= 1 && month <= 12 && (year < now.getFullYear() || (year === now.getFullYear() && month < now.getMonth() + 1))) errors.push([f.year, 'This card has expired.']);
    var cvc = digits(f.cvc.value);
    if (!(amex ? cvc.length === 4 : cvc.length === 3 || cvc.length === 4) || cvc.length !== f.cvc.value.trim().length) errors.push([f.cvc, amex ? 'Enter the 4-digit security code.' : 'Enter the 3-digit security code from the back of the card.']);
    [f.number, f.month, f.year, f.cvc].forEach(function (input) { setError(input, null); });
    errors.forEach(function (e) { setError(e[0], e[1]); });
    if (errors.length) errors[0][0].focus();
    return { ok: errors.length === 0, card: { number: number, expMonth: month, expYear: year, cvc: cvc } };
  }
  function fields(form) {
    return { number: form.querySelector('[name=number]'), month: form.querySelector('[name=expMonth]'), year: form.querySelector('[name=expYear]'), cvc: form.querySelector('[name=cvc]') };
  }
  function complete(form) {
    var f = fields(form);
    var n = digits(f.number.value);
    return n.length >= 12 && luhn(n) && digits(f.month.value).length > 0 && digits(f.year.value).length >= 2 && digits(f.cvc.value).length >= 3;
  }
  function enhance(form, onValid) {
    var f = fields(form);
    f.number.addEventListener('input', function () {
      var atEnd = f.number.selectionStart === f.number.value.length;
      var grouped = digits(f.number.value).slice(0, 19).replace(/(\\d{4})(?=\\d)/g, '$1 ');
      if (atEnd && grouped !== f.number.value) f.number.value = grouped;
    });
    [f.number, f.month, f.year, f.cvc].forEach(function (input) {
      input.addEventListener('input', function () { if (input.getAttribute('aria-invalid')) setError(input, null); });
    });
    form.addEventListener('submit', function (event) {
      var result = check(form);
      if (!result.ok) { event.preventDefault(); return; }
      if (onValid) { event.preventDefault(); onValid(result.card); }
    });
  }
  window.PaysplitCardForm = { enhance: enhance, complete: complete, luhn: luhn };
  var hosted = document.querySelector('form[data-card-form="hosted"]');
  if (hosted) enhance(hosted, null);
})();
`;

/**
 * The embedded frame (`/embed/checkout/:orderId#cs=...&origin=...`): pays with the public confirm API
 * (same origin as the frame), tells the mounting page what happened by postMessage (only to the origin
 * that mounted it), and sizes itself. A payment that needs buyer authentication continues inside the
 * frame; the frame's state (client secret, parent origin, appearance) is kept in sessionStorage for it.
 */
export const FRAME_JS = `(function () {
  'use strict';
  var root = document.querySelector('[data-order-id]');
  if (!root) return;
  var orderId = root.getAttribute('data-order-id');
  var key = 'paysplit.checkout:' + orderId;
  var params = new URLSearchParams(window.location.hash.slice(1));
  var state = null;
  if (params.get('cs')) {
    state = { cs: params.get('cs'), origin: params.get('origin') || '', accent: params.get('accent'), radius: params.get('radius'), font: params.get('font') };
    try { sessionStorage.setItem(key, JSON.stringify(state)); } catch (e) { /* storage off: the frame still works until it navigates */ }
    history.replaceState(null, '', window.location.pathname + window.location.search);
  } else {
    try { state = JSON.parse(sessionStorage.getItem(key) || 'null'); } catch (e) { state = null; }
  }
  state = state || { cs: '', origin: '' };
  var ancestors = window.location.ancestorOrigins;
  var parentOrigin = state.origin && (!ancestors || !ancestors.length || ancestors[0] === state.origin) ? state.origin : null;

  var style = document.documentElement.style;
  if (state.accent && /^(#[0-9a-fA-F]{3,8}|[a-zA-Z]{3,20})$/.test(state.accent)) style.setProperty('--accent', state.accent);
  if (state.radius && /^\\d{1,2}(px)?$/.test(state.radius)) style.setProperty('--radius', parseInt(state.radius, 10) + 'px');
  if (state.font && /^[\\w\\s,'"-]{1,100}$/.test(state.font)) style.setProperty('--font', state.font);

  function post(event, extra) {
    if (!parentOrigin || window.parent === window) return;
    var message = { type: 'paysplit.checkout', event: event, orderId: orderId };
    Object.keys(extra || {}).forEach(function (k) { message[k] = extra[k]; });
    window.parent.postMessage(message, parentOrigin);
  }
  var lastHeight = 0;
  function resize() {
    var height = Math.ceil(document.documentElement.getBoundingClientRect().height);
    if (height !== lastHeight) { lastHeight = height; post('resize', { height: height }); }
  }
  if (window.ResizeObserver) new ResizeObserver(resize).observe(document.documentElement);
  window.addEventListener('load', resize);
  resize();

  var frameStatus = root.getAttribute('data-status');
  if (frameStatus === 'PAID') { post('paid', { status: 'PAID' }); return; }
  var form = document.querySelector('form[data-card-form="embed"]');
  if (!form) {
    if (root.getAttribute('data-message')) post('error', { status: frameStatus, code: 'CHECKOUT_ORDER_NOT_PAYABLE', message: root.getAttribute('data-message') });
    return;
  }
  if (!state.cs) { showAlert('This payment form is missing its client secret. Reload the page.'); post('error', { code: 'CLIENT_SECRET_MISSING', message: 'mount() needs the clientSecret' }); }

  var alertBox = document.getElementById('payment-error');
  var button = form.querySelector('button[type=submit]');
  var buttonLabel = button.textContent;
  function showAlert(text) { var box = document.getElementById('payment-error'); if (box) box.textContent = text; }
  form.addEventListener('input', function () {
    post('change', { status: 'OPEN', complete: window.PaysplitCardForm.complete(form), empty: !Array.prototype.some.call(form.querySelectorAll('input'), function (i) { return i.value; }) });
  });
  var sentences = {
    card_declined: 'Your card was declined. Try another card or contact your bank.',
    expired_card: 'This card has expired. Try another card.',
    incorrect_number: 'This card number is not valid. Check it and try again.'
  };
  window.PaysplitCardForm.enhance(form, function (card) {
    alertBox.textContent = '';
    button.disabled = true;
    button.textContent = 'Processing...';
    fetch('/api/commerce/checkout/orders/' + encodeURIComponent(orderId) + '/confirm', {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ clientSecret: state.cs, card: card })
    }).then(function (response) {
      return response.json().then(function (json) { return { ok: response.ok, json: json }; });
    }).then(function (result) {
      button.disabled = false;
      button.textContent = buttonLabel;
      if (!result.ok) {
        var error = (result.json && result.json.error) || { code: 'UNKNOWN', message: '' };
        var detail = error.details && error.details[0];
        var sentence = error.code === 'CARD_DECLINED' ? sentences[detail && detail.declineCode] || sentences.card_declined
          : error.code === 'VALIDATION_FAILED' ? 'Check the card details and try again.'
          : error.code === 'CHECKOUT_ORDER_NOT_PAYABLE' ? 'This order can no longer be paid.'
          : 'The payment did not go through. Try again.';
        alertBox.textContent = sentence;
        form.querySelector('[name=number]').focus();
        post('error', { status: 'OPEN', code: error.code, declineCode: detail && detail.declineCode || null, message: sentence });
        return;
      }
      var data = result.json.data;
      if (data.status === 'REQUIRES_ACTION' && data.nextAction) {
        post('requires_action', { status: 'REQUIRES_ACTION' });
        var next = new URL(data.nextAction.redirectUrl);
        next.searchParams.set('embed', 'true');
        next.searchParams.set('frame', '1');
        window.location.assign(next.pathname + next.search);
        return;
      }
      var last4 = card.number.slice(-4);
      document.getElementById('paid-card').textContent = 'Card ending in ' + last4 + '.';
      form.hidden = true;
      document.getElementById('paid').hidden = false;
      document.getElementById('paid-heading').focus();
      post('paid', { status: 'PAID' });
    }).catch(function () {
      button.disabled = false;
      button.textContent = buttonLabel;
      alertBox.textContent = 'The payment service could not be reached. Check your connection and try again.';
      post('error', { status: 'OPEN', code: 'NETWORK', message: alertBox.textContent });
    });
  });
  post('ready', { status: 'OPEN' });
})();
`;
