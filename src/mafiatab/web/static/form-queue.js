/* The protocol form's queue: every change is a save that waits on the phone (IndexedDB,
 * queue.js) with its id and time until the server has it; a reload, a closed tab or a
 * restarted phone without network finds the form as the judge left it. When the network
 * is there the saves go in order to /queued, each applied once by its id; a submit made
 * offline waits in the same queue. The server's refusals appear beside their fields,
 * with their rule; a save based on a version somebody else replaced opens the conflict
 * screen (conflict.js): both versions side by side, the judge chooses.
 *
 * No rules here: the server checks the protocol (and the form's htmx check shows its
 * problems as the judge types, when online).
 */
(function () {
  'use strict';
  var form = document.getElementById('protocol');
  var bootEl = document.getElementById('oq-boot');
  if (!form || !bootEl || !window.mafiatabQueue) { return; }
  var boot = JSON.parse(bootEl.textContent);
  var W = boot.words;
  var Q = window.mafiatabQueue;
  var KEY = 'mafiatab-form:' + boot.tid + ':' + boot.code;
  var device = Q.device();
  var csrf = (form.elements.csrf && form.elements.csrf.value) || '';
  var baseInput = document.getElementById('base');
  var rec = {items: [], base: Number(baseInput.value) || 0, values: null};
  var sending = false, conflict = null, last = null, timer = null, ready = false, leaving = false;

  var status = document.createElement('p');
  status.id = 'oq-status';
  status.className = 'oq-status';
  status.hidden = true;
  status.setAttribute('aria-live', 'polite');
  var anchor = document.querySelector('.pf-status') || form;
  anchor.parentNode.insertBefore(status, anchor.nextSibling);
  var panel = document.createElement('div');
  panel.id = 'oq-conflict';
  anchor.parentNode.insertBefore(panel, status.nextSibling);

  function fmt(s, v) { return s.replace(/\{(\w+)\}/g, function (_, k) { return v[k] == null ? '' : v[k]; }); }
  function fields() {
    var out = [];
    new FormData(form).forEach(function (v, k) {
      if (typeof v === 'string' && k !== 'csrf' && k !== 'base') { out.push([k, v]); }
    });
    return out;
  }
  function same(a, b) { return JSON.stringify(a) === JSON.stringify(b); }
  function show(text, kind) {
    status.hidden = !text;
    status.textContent = text || '';
    status.className = 'oq-status' + (kind ? ' ' + kind : '');
  }
  function showQueue() {
    if (conflict) { return; }
    var n = rec.items.length;
    var submit = rec.items.some(function (i) { return i.action === 'submit'; });
    if (!navigator.onLine || (n && !sending)) {
      show(n ? (submit ? W.submit_queued : W.offline) + ' · ' + fmt(W.queued_n, {n: n}) : W.offline, 'off');
    } else if (sending) {
      show(W.sending, '');
    }
  }
  // how many saves wait ("typing": one is about to), for whoever watches the page
  function mark(typing) { form.setAttribute('data-queued', typing ? 'typing' : String(rec.items.length)); }
  function store() { return Q.save(KEY, rec).then(function () { mark(); }); }

  // --- the form as the queue left it ------------------------------------------------------
  function apply(values) {
    var byName = {};
    values.forEach(function (p) { byName[p[0]] = p[1]; });
    Array.prototype.forEach.call(form.elements, function (el) {
      if (!el.name || el.name === 'csrf' || el.name === 'base' || el.disabled) { return; }
      var v = byName[el.name];
      if (el.type === 'radio') { el.checked = v === el.value; }
      else if (el.type === 'checkbox') { el.checked = v === el.value || (v === 'on' && el.value === 'on'); }
      else if (el.type !== 'hidden' || v !== undefined) {
        if (v !== undefined) { el.value = v; } else if (el.tagName !== 'SELECT') { el.value = ''; }
      }
    });
    // the problems drawn with the page belong to the version it was drawn from: they go
    // until the server checks this one (recheck)
    Array.prototype.forEach.call(document.querySelectorAll('#protocol .problem'), function (p) { p.remove(); });
    var list = document.getElementById('problem-list');
    if (list) { list.hidden = true; }
    // the folded parts with something in them are open, as the server would draw them
    Array.prototype.forEach.call(form.querySelectorAll('.pf-day[hidden]'), function (d) {
      if (Array.prototype.some.call(d.querySelectorAll('input'), function (i) { return i.value; })) { d.hidden = false; }
    });
  }

  // the server's check of the form as it is now (htmx: the problems beside their fields)
  function recheck() {
    if (navigator.onLine && window.htmx) { window.htmx.trigger(form, 'change'); }
  }

  // --- the queue ------------------------------------------------------------------------------
  function enqueue(action) {
    if (leaving) { return; }
    var now = fields();
    if (action === 'draft' && last && same(now, last)) { mark(); return; }
    last = now;
    var inFlight = sending ? rec.items[0] : null;
    // a protocol is saved whole: a newer save replaces the unsent ones before it
    rec.items = rec.items.filter(function (i) { return i === inFlight || i.action === 'submit'; });
    if (action === 'submit') { rec.items = rec.items.filter(function (i) { return i === inFlight; }); }
    rec.items.push({id: Q.newId(), action: action, fields: now, at: new Date().toISOString()});
    rec.values = now;
    store().then(function () { showQueue(); flush(); });
  }
  function slotOf(name) { return document.getElementById('slot-' + name); }
  function showRefused(problems) {
    Array.prototype.forEach.call(document.querySelectorAll('.pf-refused'), function (el) { el.remove(); });
    var loose = [];
    (problems || []).forEach(function (p) {
      if (p.warning) { return; }
      var slot = p.slot && slotOf(p.slot);
      var line = document.createElement('div');
      line.className = 'pf-refused problem';
      line.textContent = p.text || p.message;
      var there = slot && Array.prototype.some.call(slot.querySelectorAll('.problem'), function (x) {
        return x.textContent.trim() === line.textContent.trim();
      });
      if (slot && !there) { slot.appendChild(line); } else if (!slot) { loose.push(p.text || p.message); }
    });
    show(W.refused + ': ' + ((problems || []).filter(function (p) { return !p.warning; })
      .map(function (p) { return p.text || p.message; }).join('; ')), 'err');
    return loose;
  }
  function post(item) {
    var body = new URLSearchParams();
    item.fields.forEach(function (p) { body.append(p[0], p[1]); });
    body.append('queue_id', item.id);
    body.append('device', device);
    body.append('base', String(rec.base));
    body.append('action', item.action);
    body.append('at', item.at);
    return fetch(boot.url, {method: 'POST', credentials: 'same-origin', body: body,
                            headers: {'X-CSRF-Token': csrf, 'Accept': 'application/json'}})
      .then(function (r) {
        return r.json().catch(function () { return {}; }).then(function (d) { return {status: r.status, data: d}; });
      });
  }
  function flush() {
    if (!ready || sending || conflict || !rec.items.length) { showQueue(); return; }
    var item = rec.items[0];
    sending = true;
    showQueue();
    post(item).then(function (r) {
      sending = false;
      if (r.status === 200) {
        rec.items = rec.items.filter(function (i) { return i.id !== item.id; });
        rec.base = r.data.revision;
        baseInput.value = String(r.data.revision);
        var saved = document.getElementById('save-status');
        if (saved) { saved.textContent = fmt(W.sent, {n: r.data.revision}); }
        if (r.data.state === 'submitted') {
          Q.remove(KEY).then(function () { location.assign(r.data.next || location.pathname.replace(/\/edit$/, '')); });
          return;
        }
        store().then(function () {
          // all sent: the form's own status line says so (the queue's line only speaks
          // while something waits, is on its way or was refused)
          if (rec.items.length) { flush(); } else { show('', ''); recheck(); }
        });
      } else if (r.status === 409 && r.data.error === 'conflict') {
        conflict = r.data;
        drawConflict(item);
      } else if (r.status === 422 && r.data.error === 'refused') {
        rec.items = rec.items.filter(function (i) { return i.id !== item.id; });
        if (r.data.revision) { rec.base = r.data.revision; baseInput.value = String(r.data.revision); }
        store();
        showRefused(r.data.problems);
      } else {
        show((r.data && (r.data.message || r.data.error)) || String(r.status), 'err');
      }
    }, function () {
      sending = false;
      showQueue();
      setTimeout(function () { if (navigator.onLine) { flush(); } }, 3000);
    });
  }

  // --- both versions side by side --------------------------------------------------------------
  function labelOf(name) {
    var el = form.elements[name];
    if (el && el.length && !el.tagName) { el = el[0]; }
    if (!el) { return name; }
    var text = el.getAttribute('aria-label');
    if (el.type === 'radio') {
      var group = el.closest('[role=radiogroup]');
      text = group ? group.getAttribute('aria-label') : (name === 'result' ? (document.querySelector('#box-result .pf-flabel') || {}).textContent : text);
    }
    if (!text && el.id) {
      var lab = form.querySelector('label[for="' + el.id + '"]');
      if (lab) { text = lab.textContent; }
    }
    if (!text) { var wrap = el.closest('label'); if (wrap) { text = wrap.textContent; } }
    return (text || name).trim();
  }
  function shown(name, value) {
    if (value == null || value === '') { return W.empty; }
    var el = form.elements[name];
    if (el && el.length && !el.tagName) {
      var pick = Array.prototype.filter.call(el, function (x) { return x.value === value; })[0];
      if (pick) { return (pick.getAttribute('aria-label') || value).replace(/\s+\d+$/, ''); }
    }
    if (el && el.tagName === 'SELECT') {
      var opt = Array.prototype.filter.call(el.options, function (o) { return o.value === value; })[0];
      if (opt) { return opt.textContent; }
    }
    if (el && el.type === 'checkbox') { return value ? '✓' : W.empty; }
    return value;
  }
  function norm(name, v) {
    v = (v == null ? '' : String(v)).trim().replace(/,/g, '.').replace(/\u2212/g, '-');
    if (v === '0' && /^fouls_/.test(name)) { return ''; }
    return v;
  }
  function drawConflict(item) {
    var mine = {};
    item.fields.forEach(function (p) { mine[p[0]] = p[1]; });
    var theirs = conflict.values || {};
    var names = [];
    Array.prototype.forEach.call(form.elements, function (el) {
      if (el.name && el.name !== 'csrf' && el.name !== 'base' && names.indexOf(el.name) < 0) { names.push(el.name); }
    });
    var rows = names.filter(function (n) { return norm(n, mine[n]) !== norm(n, theirs[n]); }).map(function (n) {
      return {name: n, label: labelOf(n), mine: shown(n, mine[n]), theirs: shown(n, theirs[n])};
    });
    status.hidden = true;
    panel.replaceChildren(window.mafiatabConflict({
      title: W.conflict_title,
      text: fmt(W.conflict_text, {author: conflict.author, head: conflict.head, at: conflict.at}),
      fieldTitle: W.field, mineTitle: W.mine, theirsTitle: W.theirs, rows: rows,
      keepMine: W.keep_mine, takeTheirs: W.take_theirs,
      onKeepMine: function () {
        // the judge read the server's version and keeps his: saved on top of it
        rec.base = conflict.head;
        baseInput.value = String(conflict.head);
        conflict = null;
        panel.replaceChildren();
        store().then(flush);
      },
      onTakeTheirs: function () {
        var values = Object.keys(theirs).map(function (k) { return [k, theirs[k]]; });
        rec = {items: [], base: conflict.head, values: null};
        conflict = null;
        panel.replaceChildren();
        Q.remove(KEY).then(function () {
          apply(values);
          baseInput.value = String(rec.base);
          last = fields();
          location.reload();
        });
      }
    }));
    panel.scrollIntoView({block: 'start'});
  }

  // --- the judge's work -----------------------------------------------------------------------
  function changed() {
    if (!ready) { return; }
    clearTimeout(timer);
    mark(true);
    timer = setTimeout(function () { enqueue('draft'); }, 500);
  }
  form.addEventListener('input', changed);
  form.addEventListener('change', changed);
  form.addEventListener('submit', function (e) {
    // online with nothing waiting: the form's own submit (the server draws its answer);
    // otherwise the submit joins the queue behind the saves
    if (!ready || (navigator.onLine && !rec.items.length && !conflict)) {
      // the form's own submit carries the whole protocol: nothing is left to send after it
      clearTimeout(timer);
      leaving = true;
      Q.remove(KEY);
      return;
    }
    e.preventDefault();
    clearTimeout(timer);
    enqueue('submit');
  });
  window.addEventListener('online', function () { recheck(); flush(); });
  window.addEventListener('offline', showQueue);

  Q.load(KEY).then(function (saved) {
    if (saved && saved.items && saved.items.length) {
      rec = saved;
      if (saved.values) { apply(saved.values); recheck(); }
    }
    last = fields();
    ready = true;
    mark();
    form.setAttribute('data-queue', 'ready');
    showQueue();
    flush();
  });
}());
