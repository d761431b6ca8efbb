/*
 * `/checkout.js`: the embedded payment component (docs/checkout.md#embedded-checkout). A merchant page
 * loads it and calls `Paysplit.mount(elementOrSelector, {clientSecret, appearance?})`; it mounts an
 * iframe served by the service (`/embed/checkout/:orderId#cs=<clientSecret>&origin=<page origin>`), so the
 * card fields live only in the frame and never in the merchant's DOM. The frame sizes itself and reports
 * `change`, `paid`, `requires_action` and `error` by postMessage; `mount` returns `{on(event, fn), unmount()}`.
 * The merchant page is never redirected: buyer authentication happens inside the frame.
 */
(function () {
  'use strict';
  var script = document.currentScript;
  var base = script ? new URL(script.src).origin : window.location.origin;
  var EVENTS = ['ready', 'change', 'paid', 'requires_action', 'error'];
  function mount(target, options) {
    var root = typeof target === 'string' ? document.querySelector(target) : target;
    if (!root) throw new Error('Paysplit.mount: element not found');
    if (!options || !options.clientSecret) throw new Error('Paysplit.mount: clientSecret is required');
    var orderId = options.orderId || String(options.clientSecret).split('_secret_')[0];
    var appearance = options.appearance || {};
    var fragment = new URLSearchParams({ cs: options.clientSecret, origin: window.location.origin });
    ['accent', 'radius', 'font'].forEach(function (k) { if (appearance[k] !== undefined && appearance[k] !== null) fragment.set(k, String(appearance[k])); });
    var frame = document.createElement('iframe');
    frame.src = base + '/embed/checkout/' + encodeURIComponent(orderId) + '#' + fragment.toString();
    frame.title = options.title || 'Secure card payment';
    frame.setAttribute('allow', 'payment');
    frame.style.cssText = 'border:0;width:100%;min-width:0;display:block;height:' + (options.initialHeight || 360) + 'px;overflow:hidden;background:transparent';
    var listeners = {};
    EVENTS.forEach(function (e) { listeners[e] = []; });
    function emit(event, data) { (listeners[event] || []).forEach(function (fn) { try { fn(data); } catch (e) { setTimeout(function () { throw e; }); } }); }
    function onMessage(event) {
      if (event.origin !== base || event.source !== frame.contentWindow) return;
      var data = event.data;
      if (!data || data.type !== 'paysplit.checkout' || data.orderId !== orderId) return;
      if (data.event === 'resize') { if (data.height > 0) frame.style.height = data.height + 'px'; return; }
      emit(data.event, data);
    }
    window.addEventListener('message', onMessage);
    root.appendChild(frame);
    var controller = {
      on: function (event, fn) {
        if (!listeners[event]) throw new Error('Paysplit: unknown event ' + event + ' (one of ' + EVENTS.join(', ') + ')');
        listeners[event].push(fn);
        return controller;
      },
      unmount: function () { window.removeEventListener('message', onMessage); if (frame.parentNode) frame.parentNode.removeChild(frame); },
      frame: frame
    };
    if (typeof options.onSuccess === 'function') controller.on('paid', options.onSuccess);
    return controller;
  }
  window.Paysplit = { mount: mount };
})();
