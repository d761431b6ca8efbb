/*
 * Served at /assets/payout-embed.js. Plain ES2017, no build step: renders each state, and tells an allowed
 * parent frame about every status change. The session id comes from the page's `data-session-id`.
 */
(function () {
  'use strict';
  var id = document.body.getAttribute('data-session-id') || '';
  var token = new URLSearchParams(location.hash.slice(1)).get('t') || '';
  var main = document.getElementById('main');
  var framed = window.parent !== window;
  if (framed) document.body.classList.add('framed');
  var view = null, lastStatus = null, pollTimer = null, busy = false;
  /** The wallet email typed, shown back for a check before anything is sent (issue 29 item 8); null while typing. */
  var reviewing = null, typed = '';

  function esc(s) { return String(s == null ? '' : s).replace(/[&<>"']/g, function (c) { return { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c]; }); }
  function money(v) {
    var nf = new Intl.NumberFormat(undefined, { style: 'currency', currency: v.currency });
    var digits = nf.resolvedOptions().maximumFractionDigits;
    return nf.format(Number(v.amountCents) / Math.pow(10, digits));
  }
  /** With the zone ("Dec 3, 2026, 4:00 PM GMT+1"): a deadline means nothing without it (dateStyle cannot take a zone name). */
  function when(iso) { return new Intl.DateTimeFormat(undefined, { year: 'numeric', month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit', timeZoneName: 'short' }).format(new Date(iso)); }
  function time(iso) { return new Intl.DateTimeFormat(undefined, { timeStyle: 'short' }).format(new Date(iso)); }

  function api(method, path, body) {
    return fetch('/api/embed/payouts/' + encodeURIComponent(id) + path, {
      method: method,
      headers: Object.assign({ authorization: 'Bearer ' + token }, body ? { 'content-type': 'application/json' } : {}),
      body: body ? JSON.stringify(body) : undefined,
      cache: 'no-store',
      referrerPolicy: 'no-referrer'
    }).then(function (r) { return r.json().catch(function () { return {}; }).then(function (j) { return { status: r.status, body: j }; }); });
  }

  /** Only to an allowed parent origin: the exact ancestor origin when the browser tells it, else each allowed origin (others drop it). */
  function notify(status) {
    if (!framed || !view) return;
    var message = { type: 'paysplit.payout_embed', status: status };
    var ancestors = location.ancestorOrigins;
    if (ancestors && ancestors.length) {
      if (view.allowedOrigins.indexOf(ancestors[0]) >= 0) window.parent.postMessage(message, ancestors[0]);
      return;
    }
    view.allowedOrigins.forEach(function (origin) { try { window.parent.postMessage(message, origin); } catch (e) { /* another origin */ } });
  }

  function steps(current) {
    var names = ['Verify email', 'Choose wallet', 'Paid'];
    return '<ol class="steps" aria-label="Progress">' + names.map(function (n, i) {
      var cls = i < current ? 'done' : i === current ? 'current' : '';
      return '<li class="' + cls + '"' + (i === current ? ' aria-current="step"' : '') + '>' + n + '</li>';
    }).join('') + '</ol>';
  }
  function header(title) {
    return '<h1 tabindex="-1" id="title">' + esc(title) + '</h1>' +
      '<p class="amount">' + esc(money(view)) + '</p>' +
      '<p class="muted" id="sender">From <strong>' + esc(view.senderName) + '</strong></p>' +
      (view.description ? '<p class="muted">' + esc(view.description) + '</p>' : '');
  }
  function back() {
    return !framed && view.returnUrl ? '<p><a href="' + esc(view.returnUrl) + '" rel="noreferrer">Back to the sender’s site</a></p>' : '';
  }

  function render(message, focusSelector) {
    var v = view, html;
    if (v.status === 'created' && v.lockedUntil) {
      html = steps(0) + header('Claim your payout') + '<div class="error" role="alert">Too many wrong codes. For your safety, claiming is paused until ' + esc(time(v.lockedUntil)) + '. Then ask for a new code.</div>';
    } else if (v.status === 'created' && !v.codeSent) {
      html = steps(0) + header((v.recipientName ? v.recipientName + ', you' : 'You') + ' have a payout') +
        '<p>To make sure it is you, we will email a 6-digit code to <strong>' + esc(v.recipientEmailHint) + '</strong>.</p>' +
        (message ? message : '') +
        '<button type="button" id="send-code">Email me a code</button>' +
        '<p class="hint">Claim by ' + esc(when(v.expiresAt)) + '.</p>';
    } else if (v.status === 'created') {
      html = steps(0) + header('Enter your code') +
        '<p>We emailed a 6-digit code to <strong>' + esc(v.recipientEmailHint) + '</strong>. It works for 10 minutes.</p>' +
        '<form id="claim-form" novalidate>' + (message ? message : '') +
        '<label for="code">6-digit code</label>' +
        '<input id="code" name="code" class="code" inputmode="numeric" autocomplete="one-time-code" maxlength="6" pattern="[0-9]{6}" required aria-describedby="code-hint code-error">' +
        '<p class="hint" id="code-hint">Check your inbox and spam folder.</p>' +
        '<button type="submit">Verify code</button></form>' +
        '<button type="button" class="link" id="send-code">Send a new code</button>';
    } else if (v.status === 'claimed' && !v.payoutInProgress && reviewing) {
      html = steps(1) + header('Is this your wallet?') + (message ? message : '') +
        '<p>We will send ' + esc(money(v)) + ' to the wallet account <strong id="wallet-review">' + esc(reviewing) + '</strong>.</p>' +
        '<p class="hint">Check every letter: money sent to a wrong address cannot be taken back.</p>' +
        '<button type="button" id="wallet-send">Send ' + esc(money(v)) + ' to my wallet</button>' +
        '<button type="button" class="link" id="wallet-change">Change the address</button>';
    } else if (v.status === 'claimed' && !v.payoutInProgress) {
      html = steps(1) + header('Where should we send it?') +
        '<form id="wallet-form" novalidate>' + (message ? message : '') +
        '<label for="wallet">Wallet email</label>' +
        '<input id="wallet" name="walletEmail" type="email" autocomplete="email" required aria-describedby="wallet-hint wallet-error" value="' + esc(typed) + '">' +
        '<p class="hint" id="wallet-hint">The email address of the wallet account that receives the money. You check it on the next step before anything is sent.</p>' +
        '<button type="submit">Continue</button></form>';
    } else if (v.status === 'claimed') {
      html = steps(2) + header('Sending your money') + '<p role="status"><span class="spinner" aria-hidden="true"></span>Paying to <strong>' + esc(v.walletEmail) + '</strong>…</p>';
    } else if (v.status === 'completed') {
      html = steps(3) + header('Payout sent') + '<div class="ok" role="status">' + esc(money(v)) + ' was sent to <strong>' + esc(v.walletEmail) + '</strong>.</div>' + back();
    } else if (v.status === 'failed') {
      html = header('The payout did not go through') + '<div class="error" role="alert">Your wallet (' + esc(v.walletEmail) + ') did not accept it. The money went back to the sender; contact them to be paid another way.</div>' + back();
    } else if (v.status === 'expired') {
      html = header('This payout has expired') + '<p>It was not claimed before ' + esc(when(v.expiresAt)) + ', so the money went back to the sender. Ask them to send a new one.</p>' + back();
    } else {
      html = header('This payout was cancelled') + '<p>The sender cancelled it. Contact them if you expected to be paid.</p>' + back();
    }
    main.innerHTML = html;
    wire();
    var target = focusSelector && document.querySelector(focusSelector);
    (target || document.getElementById('title')).focus();
    if (v.status !== lastStatus) { lastStatus = v.status; notify(v.status); }
    clearTimeout(pollTimer);
    if (v.status === 'claimed' && v.payoutInProgress) pollTimer = setTimeout(load, 1000);
  }

  function errorBox(fieldId, text) { return '<div class="error" role="alert" id="' + fieldId + '-error">' + esc(text) + '</div>'; }
  function invalid(fieldId, text) {
    var input = document.getElementById(fieldId);
    var old = document.getElementById(fieldId + '-error');
    if (old) old.remove();
    input.insertAdjacentHTML('afterend', errorBox(fieldId, text));
    input.setAttribute('aria-invalid', 'true');
    input.focus();
  }
  function failed(response) {
    var e = (response.body && response.body.error) || {};
    return e.message || 'Something went wrong. Please try again.';
  }
  function act(button, promise, onError) {
    if (busy) return;
    busy = true;
    if (button) button.disabled = true;
    promise.then(function (r) {
      busy = false;
      if (r.status === 200) { view = r.body.data; render(null, null); return; }
      if (button) button.disabled = false;
      onError(r);
    }, function () { busy = false; if (button) button.disabled = false; onError({ status: 0, body: { error: { message: 'You seem to be offline. Check your connection and try again.' } } }); });
  }

  function wire() {
    var send = document.getElementById('send-code');
    if (send) send.addEventListener('click', function () {
      act(send, api('POST', '/code'), function (r) {
        if (r.status === 409 || r.status === 422) return reload(errorBox('send', failed(r)));
        render(errorBox('send', failed(r)), null);
      });
    });
    var claim = document.getElementById('claim-form');
    if (claim) claim.addEventListener('submit', function (event) {
      event.preventDefault();
      var code = document.getElementById('code').value.replace(/\s+/g, '');
      if (!/^[0-9]{6}$/.test(code)) return invalid('code', 'Enter the 6 digits from the email.');
      act(claim.querySelector('button'), api('POST', '/claim', { code: code }), function (r) {
        if (r.body && r.body.error && r.body.error.code === 'PAYOUT_EMBED_CODE_INVALID') return invalid('code', failed(r));
        reload(errorBox('claim', failed(r)));
      });
    });
    var wallet = document.getElementById('wallet-form');
    if (wallet) wallet.addEventListener('submit', function (event) {
      event.preventDefault();
      var email = document.getElementById('wallet').value.trim();
      if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) return invalid('wallet', 'Enter an email address, like name@example.com.');
      typed = email;
      reviewing = email;
      render(null, '#wallet-send');
    });
    var change = document.getElementById('wallet-change');
    if (change) change.addEventListener('click', function () { reviewing = null; render(null, '#wallet'); });
    var sendWallet = document.getElementById('wallet-send');
    if (sendWallet) sendWallet.addEventListener('click', function () {
      var email = reviewing;
      act(sendWallet, api('POST', '/wallet', { walletEmail: email }), function (r) {
        reviewing = null;
        if (r.status === 400) { render(null, null); return invalid('wallet', 'Enter an email address, like name@example.com.'); }
        reload(errorBox('wallet', failed(r)));
      });
    });
  }

  /** Shows the latest state with a message on top (after a refusal the state may have moved on). */
  function reload(message) {
    api('GET', '').then(function (r) { if (r.status === 200) { view = r.body.data; render(message, null); } else gone(); }, gone);
  }
  function gone() {
    main.innerHTML = '<h1 tabindex="-1" id="title">This payout link is not valid</h1><p>Check that you opened the whole link from the sender, or ask them for a new one.</p>';
    document.getElementById('title').focus();
  }
  function load() {
    api('GET', '').then(function (r) {
      if (r.status !== 200) return gone();
      var changed = !view || r.body.data.status !== view.status || r.body.data.payoutInProgress !== view.payoutInProgress;
      view = r.body.data;
      if (changed) render(null, null); else pollTimer = setTimeout(load, 1000);
    }, function () { pollTimer = setTimeout(load, 2000); });
  }
  if (!token) gone(); else load();
})();
