/* The protocol form: lift the "nothing typed yet" state on the first input, and make a
 * problem's link open what folds its field (a row's "more", the days, the protest) and
 * put the cursor there. The problems themselves come from the server (htmx swaps). */
(function () {
  'use strict';
  var form = document.getElementById('protocol');
  if (!form) { return; }
  // A blank protocol, once the judge starts: only what he has touched shows its problems
  // (a row he has not reached yet stays quiet, so rows do not jump under his finger);
  // a submit shows them all (the server's answer is a whole page without this state).
  var typing = form.classList.contains('pristine');
  var list = document.getElementById('problem-list');
  function containerOf(slot) {
    if (slot.indexOf('seat-') === 0) { return document.getElementById(slot); }
    if (slot === 'pu' || slot === 'days') { return document.getElementById(slot); }
    return document.getElementById('box-' + slot);
  }
  function showTouched() {
    list = document.getElementById('problem-list');
    if (!typing || !list) { return; }
    var any = false;
    Array.prototype.forEach.call(list.querySelectorAll('li'), function (li) {
      var shown = Array.prototype.some.call(li.querySelectorAll('a[data-slot]'), function (a) {
        var c = containerOf(a.getAttribute('data-slot'));
        return c && c.classList.contains('touched');
      });
      li.classList.toggle('shown', shown);
      any = any || shown;
    });
    list.classList.toggle('quiet', !any);
  }
  function touched(e) {
    if (!typing) { return; }
    form.classList.remove('pristine');
    document.body.classList.add('pf-typing');
    var c = e.target.closest('.pf-row, .pf-field, .pf-fold, .pf-sign');
    if (c) { c.classList.add('touched'); }
    if (c && c.classList.contains('pf-row')) {
      document.getElementById('box-scores').classList.add('touched');
      if (form.querySelectorAll('.pf-row.touched').length === form.querySelectorAll('.pf-row').length) {
        document.getElementById('box-seats').classList.add('touched');
      }
    }
    showTouched();
  }
  // what the judge typed and the draft kept unread is his typing: a reload shows its
  // problems on a blank form as if he had just typed it
  (form.getAttribute('data-typed') || '').split(' ').forEach(function (name) {
    var input = name && form.elements[name];
    if (input && input.closest) { touched({target: input}); }
  });
  form.addEventListener('input', touched);
  form.addEventListener('change', touched);
  document.body.addEventListener('htmx:afterSettle', showTouched);
  document.body.addEventListener('htmx:oobAfterSwap', showTouched);
  // the days not yet on screen come one at a time (all of them are in the form anyway)
  var add = document.getElementById('add-day');
  function hiddenDays() { return form.querySelectorAll('.pf-day[hidden]'); }
  if (add) {
    add.hidden = !hiddenDays().length;
    add.addEventListener('click', function () {
      var next = hiddenDays()[0];
      if (next) { next.hidden = false; var i = next.querySelector('input'); if (i) { i.focus(); } }
      add.hidden = !hiddenDays().length;
    });
  }
  // a row's second and third penalty lines, one at a time
  Array.prototype.forEach.call(form.querySelectorAll('.pf-addpen'), function (b) {
    var body = b.parentElement;
    function left() { return body.querySelectorAll('.pf-pen[hidden]'); }
    b.hidden = !left().length;
    b.addEventListener('click', function () {
      var next = left()[0];
      if (next) { next.hidden = false; next.querySelector('select').focus(); }
      b.hidden = !left().length;
    });
  });
  document.addEventListener('click', function (e) {
    var a = e.target.closest && e.target.closest('a.pf-plink');
    if (!a) { return; }
    var target = document.getElementById(a.getAttribute('href').slice(1));
    if (!target) { return; }
    var slot = document.getElementById('slot-' + a.getAttribute('data-slot'));
    [target, slot].forEach(function (el) {
      for (var d = el; d; d = d.parentElement) { if (d.tagName === 'DETAILS') { d.open = true; } }
    });
    if (target.tagName === 'DETAILS') { target.open = true; }
    // a seat's problem about a folded field (will, penalties, explanation) opens the fold
    var row = slot && slot.closest('.pf-row');
    if (row) {
      var folded = Array.prototype.some.call(slot.querySelectorAll('.problem'), function (p) {
        return /^(will|protocol|same|approved|penalt|expl)/.test(p.getAttribute('data-field') || '');
      });
      var more = row.querySelector('details.pf-more');
      if (folded && more) { more.open = true; }
    }
    var field = target.querySelector('input:not([type=hidden]),select,textarea') || target;
    setTimeout(function () {
      if (field.focus) { field.focus({preventScroll: true}); }
    }, 0);
  });
}());
