/* The protocol form: lift the "nothing typed yet" state on the first input, and make a
 * problem's link open what folds its field (a row's "more", the days, the protest) and
 * put the cursor there. The problems themselves come from the server (htmx swaps). */
(function () {
  'use strict';
  var form = document.getElementById('protocol');
  if (!form) { return; }
  function started() { form.classList.remove('pristine'); }
  form.addEventListener('input', started, {once: true});
  form.addEventListener('change', started, {once: true});
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
