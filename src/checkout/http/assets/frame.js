/*
 * The embedded frame (`/embed/checkout/:orderId#cs=...&origin=...`): pays with the public confirm API
 * (same origin as the frame), tells the mounting page what happened by postMessage (only to the origin
 * that mounted it), and sizes itself. A payment that needs buyer authentication continues inside the
 * frame; the frame's state (client secret, parent origin, appearance) is kept in sessionStorage for it.
 */
(function () {
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
  if (state.radius && /^\d{1,2}(px)?$/.test(state.radius)) style.setProperty('--radius', parseInt(state.radius, 10) + 'px');
  if (state.font && /^[\w\s,'"-]{1,100}$/.test(state.font)) style.setProperty('--font', state.font);

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
      var paid = document.getElementById('paid');
      paid.hidden = false;
      document.getElementById('paid-heading').focus();
      post('paid', { status: 'PAID' });
      // A subscription's terms (interval, next charge, how to cancel) date from the payment: the frame's own page renders them now (issue 29).
      if (paid.hasAttribute('data-subscription')) {
        fetch(window.location.pathname, { credentials: 'same-origin' }).then(function (response) { return response.text(); }).then(function (html) {
          var fresh = new DOMParser().parseFromString(html, 'text/html').getElementById('paid-terms');
          var terms = document.getElementById('paid-terms');
          if (fresh && terms) terms.innerHTML = fresh.innerHTML;
        }).catch(function () { /* The payment stands; the terms are on the receipt the merchant links. */ });
      }
    }).catch(function () {
      button.disabled = false;
      button.textContent = buttonLabel;
      alertBox.textContent = 'The payment service could not be reached. Check your connection and try again.';
      post('error', { status: 'OPEN', code: 'NETWORK', message: alertBox.textContent });
    });
  });
  post('ready', { status: 'OPEN' });
})();
