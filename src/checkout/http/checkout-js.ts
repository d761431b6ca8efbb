/**
 * `/checkout.js`: the embedded payment component. A merchant page loads it and calls
 * `Paysplit.mount(elementOrSelector, {orderId, clientSecret, onSuccess?, returnUrl?})`; it renders a
 * labelled card form and calls the public confirm API with the clientSecret. REQUIRES_ACTION sends the
 * buyer to the authentication page (the only redirect EMBEDDED mode makes); a decline shows the reason.
 */
export const CHECKOUT_JS = `(function () {
  'use strict';
  var script = document.currentScript;
  var base = script ? new URL(script.src).origin : window.location.origin;
  var counter = 0;
  function el(tag, attrs, text) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) { node.setAttribute(k, attrs[k]); });
    if (text) node.textContent = text;
    return node;
  }
  function field(form, id, label, name, attrs) {
    var l = el('label', { for: id }, label);
    var input = el('input', Object.assign({ id: id, name: name, inputmode: 'numeric', required: 'required' }, attrs));
    form.appendChild(l); form.appendChild(input);
    return input;
  }
  function mount(target, options) {
    var root = typeof target === 'string' ? document.querySelector(target) : target;
    if (!root) throw new Error('Paysplit.mount: element not found');
    if (!options || !options.orderId || !options.clientSecret) throw new Error('Paysplit.mount: orderId and clientSecret are required');
    var n = ++counter;
    var form = el('form', { 'class': 'paysplit-card-form', novalidate: 'novalidate', 'aria-label': 'Card payment' });
    var alert = el('div', { role: 'alert', 'class': 'paysplit-error', id: 'paysplit-error-' + n });
    var status = el('div', { role: 'status', 'class': 'paysplit-status', id: 'paysplit-status-' + n });
    form.appendChild(alert);
    var number = field(form, 'paysplit-number-' + n, 'Card number', 'number', { autocomplete: 'cc-number', placeholder: '4242 4242 4242 4242' });
    var month = field(form, 'paysplit-exp-month-' + n, 'Expiry month (MM)', 'expMonth', { autocomplete: 'cc-exp-month', placeholder: '12' });
    var year = field(form, 'paysplit-exp-year-' + n, 'Expiry year (YYYY)', 'expYear', { autocomplete: 'cc-exp-year', placeholder: '2030' });
    var cvc = field(form, 'paysplit-cvc-' + n, 'Security code (CVC)', 'cvc', { autocomplete: 'cc-csc', placeholder: '123' });
    var button = el('button', { type: 'submit' }, options.buttonLabel || 'Pay');
    form.appendChild(button);
    root.appendChild(form);
    root.appendChild(status);
    form.addEventListener('submit', function (event) {
      event.preventDefault();
      alert.textContent = '';
      status.textContent = 'Processing payment...';
      button.disabled = true;
      var body = { clientSecret: options.clientSecret, card: { number: number.value.replace(/\\s+/g, ''), expMonth: parseInt(month.value, 10), expYear: parseInt(year.value, 10), cvc: cvc.value.trim() } };
      fetch(base + '/api/commerce/checkout/orders/' + encodeURIComponent(options.orderId) + '/confirm', {
        method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body)
      }).then(function (response) {
        return response.json().then(function (json) { return { ok: response.ok, json: json }; });
      }).then(function (result) {
        button.disabled = false;
        if (!result.ok) {
          status.textContent = '';
          var error = result.json && result.json.error;
          alert.textContent = error ? (error.code === 'VALIDATION_FAILED' ? 'Check the card details and try again.' : error.message) : 'The payment failed; try again.';
          return;
        }
        var data = result.json.data;
        if (data.status === 'REQUIRES_ACTION' && data.nextAction) { window.location.assign(data.nextAction.redirectUrl); return; }
        status.textContent = 'Payment successful.';
        form.hidden = true;
        if (typeof options.onSuccess === 'function') options.onSuccess({ orderId: options.orderId, status: data.status });
        if (options.returnUrl) { var url = new URL(options.returnUrl); url.searchParams.set('order', options.orderId); window.location.assign(url.toString()); }
      }).catch(function () {
        button.disabled = false;
        status.textContent = '';
        alert.textContent = 'The payment service could not be reached; try again.';
      });
    });
    return { unmount: function () { root.removeChild(form); root.removeChild(status); } };
  }
  window.Paysplit = { mount: mount };
})();
`;
