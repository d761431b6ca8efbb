/*
 * Client-side card checks (Luhn, expiry in the future, CVC length) for the hosted card form and the
 * embedded frame. They only help the buyer: the server checks the same again. A bad field gets
 * `aria-invalid="true"` and a message tied to it by `aria-describedby`; focus moves to the first bad field.
 */
(function () {
  'use strict';
  function digits(value) { return String(value || '').replace(/\D+/g, ''); }
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
    // A subscription order's email (issue 29), optional: checked first when given.
    var email = form.querySelector('[name=customerEmail]');
    if (email) {
      setError(email, null);
      if (email.value.trim() && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email.value.trim())) errors.unshift([email, 'Enter the email address for renewal notices, like name@example.com.']);
    }
    var cvc = digits(f.cvc.value);
    if (!(amex ? cvc.length === 4 : cvc.length === 3 || cvc.length === 4) || cvc.length !== f.cvc.value.trim().length) errors.push([f.cvc, amex ? 'Enter the 4-digit security code.' : 'Enter the 3-digit security code from the back of the card.']);
    [f.number, f.month, f.year, f.cvc].forEach(function (input) { setError(input, null); });
    // A new try: the previous answer (a decline banner) no longer applies, so only this check's messages show (issue 29 item 8).
    var banner = document.getElementById('payment-error');
    if (banner) banner.textContent = '';
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
      var grouped = digits(f.number.value).slice(0, 19).replace(/(\d{4})(?=\d)/g, '$1 ');
      if (atEnd && grouped !== f.number.value) f.number.value = grouped;
    });
    [f.number, f.month, f.year, f.cvc, form.querySelector('[name=customerEmail]')].filter(Boolean).forEach(function (input) {
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
