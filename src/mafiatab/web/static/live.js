/* The judge's live screen: draws the game's state, queues the judge's taps.
 *
 * No rules here. The game-log engine says what comes next (state.step), which special
 * situation applies and which tap it refuses: the server's, and, while taps wait in the
 * queue (offline, or on their way), the same engine run on the phone (course.js), so the
 * screen goes on with the next step and refuses a wrong tap at once, by its clause. This
 * file keeps the taps on the phone (IndexedDB through queue.js: each with an id, a
 * sequence number and its time; beside them the last state the server gave), sends them
 * in order when it can (the server checks every one again), and shows what is still
 * queued as "not yet checked". When another device changed the log meanwhile,
 * conflict.js shows both and the judge chooses.
 */
(function () {
  'use strict';
  var boot = JSON.parse(document.getElementById('live-boot').textContent);
  var W = boot.words, ET = boot.event_text;
  var root = document.getElementById('live');
  var KEY = 'mafiatab-live:' + boot.tid + ':' + boot.code;
  var csrf = '';
  try { csrf = JSON.parse(document.body.getAttribute('hx-headers'))['X-CSRF-Token']; } catch (e) { /* none */ }

  var server = boot.state;          // the last state the server replayed
  var queue = [];                   // operations not yet confirmed by the server
  var seen = null;                  // the server's event ids when the queue began
  var conflict = null;              // {state}: another device's log, the judge to choose
  var loaded = false;               // the queue read back from the phone
  var localView = null;             // the phone's engine's course of the log and the queue
  var online = navigator.onLine;
  var sending = false;
  var notice = null;                // {text, err}
  var ui = {nominee: null, open: false, after: [], votes: {}, counts: {}, mode: 'voters',
            cands: [], lift: [], bm: [], kind: null, roles: null, menu: null, speaker: null};
  var timer = {total: 60, left: 60, running: false, handle: null, key: ''};

  var Q = window.mafiatabQueue;
  var OW = boot.offline_words || {};
  function saveQueue() {
    if (!queue.length) { seen = null; }
    else if (!seen) { seen = server.events.map(function (e) { return e.id; }); }
    if (Q) { Q.save(KEY, {queue: queue, server: server, seen: seen}); }
  }
  function newId() {
    if (window.crypto && crypto.randomUUID) { return crypto.randomUUID(); }
    return Date.now().toString(36) + '-' + Math.random().toString(36).slice(2);
  }
  function fmt(s, v) { return s.replace(/\{(\w+)\}/g, function (_, k) { return v[k] == null ? '' : v[k]; }); }
  function describe(ev) {
    var k = ev.type, v = Object.assign({}, ev);
    if (k === 'shot' && ev.target == null) { k = 'miss'; }
    if (k === 'speech' && ev.nominates != null) { k = 'nominates'; }
    if (k === 'best_move') { v.seats = (ev.seats || []).join(', '); }
    if (k === 'vote') {
      var t = ev.votes || ev.counts || {};
      v.tally = Object.keys(t).map(function (c) { return c + ': ' + (Array.isArray(t[c]) ? t[c].length : t[c]); }).join(', ');
    }
    if (k === 'lift') { v.count = ev.voters ? ev.voters.length : ev.count; }
    return ET[k] ? fmt(ET[k], v) : k;
  }
  // a seat's player by nickname (the state names players by id, which nobody at the table knows)
  var nicks = boot.nicks || {};
  function nick(seat) { var id = (server.players || [])[seat - 1]; return (id && nicks[id]) || ''; }
  function withNick(text, seat) { var n = nick(seat); return n ? text + ' — ' + n : text; }
  function renumber() {
    queue.forEach(function (op, i) { op.seq = server.seq + i + 1; });
    saveQueue();
  }

  // --- the queue and the server -------------------------------------------------------
  function enqueue(op) {
    op.id = newId();
    op.seq = server.seq + queue.length + 1;
    op.at = new Date().toISOString();  // the tap's time: queued offline, sent later
    queue.push(op);
    saveQueue();
    render();
    flush();
  }
  function record(event) {
    checked([event], function () { ui.kind = null; enqueue({event: event}); });
  }

  // --- the phone's engine (course.js): the course while taps wait in the queue ----------
  var builtFor = null, building = 0, checks = Promise.resolve();
  function cur() { return localView ? Object.assign({}, server, localView) : server; }
  function engineOn() { return !!(window.mafiaCourse && mafiaCourse.isReady()); }
  function rolesNow() {
    if (server.dealt) { return server.roles; }
    var deal = queue.filter(function (op) { return op.event && op.event.type === 'deal'; })[0];
    return deal && deal.event.roles ? deal.event.roles : null;
  }
  // the server's log with the queue on top, as the phone's engine is to replay it
  function setupNow() {
    var roles = rolesNow();
    if (!roles) { return null; }
    var log = server.events.map(function (e) { return e.event; });
    queue.forEach(function (op) { if (op.undo) { log.pop(); } else { log.push(op.event); } });
    return {rules: boot.rules, options: boot.options, roles: roles, lang: boot.lang, log: log};
  }
  // the engine's view of that log, shown only while something is queued (otherwise the
  // server's own state is the newer); drawn again when the engine answers
  function rebuild() {
    var key = server.revision + ':' + queue.map(function (op) { return op.id; }).join(',');
    if (!engineOn() || key === builtFor) { return; }
    builtFor = key;
    var setup = queue.length ? setupNow() : null;
    if (!setup) { localView = null; return; }
    var mine = ++building;
    mafiaCourse.open(setup).then(function (game) {
      return game.view().then(function (v) { game.close(); return v; });
    }).then(function (v) {
      if (mine === building) { localView = v; render(); }
    }, function () { if (mine === building) { localView = null; } });
  }
  // a tap the engine refuses is not queued: the judge sees the rule at once, offline too;
  // taps are checked one after another, each on top of the ones before it
  function checked(events, then) {
    if (!engineOn()) { then(); return; }
    checks = checks.then(function () {
      var setup = setupNow();
      if (!setup) { then(); return null; }
      return mafiaCourse.open(setup).then(function (game) {
        var refused = null, k = 0;
        function step() {
          if (k >= events.length) { return null; }
          var ev = events[k++];
          return game.apply(ev).then(function (r) {
            if (!r.ok) { refused = {event: ev, problems: r.problems}; return null; }
            return step();
          });
        }
        return Promise.resolve(step()).then(function () {
          game.close();
          if (refused) {
            notice = {err: true, text: W.refused + ' (' + describe(refused.event) + '): ' +
                      refused.problems.map(function (p) { return p.text || p.message; }).join('; ')};
            render();
          } else {
            then();
          }
        });
      });
    }).catch(function () { then(); });
  }

  // A request the network never answers must not hold the queue: one started while the
  // phone was offline is given up when the network returns, any other after LONG (a whole
  // game's batch on a busy server takes a minute or two). The server takes every tap once
  // (by its id), so a batch it applied after all is only confirmed by the next one.
  var LONG = 180000;
  var inFlight = null;              // {abort, offline}: the batch on its way
  function send(method, body) {
    var opts = {method: method, headers: {'X-CSRF-Token': csrf, 'Accept': 'application/json'},
                credentials: 'same-origin'};
    if (body) { opts.headers['Content-Type'] = 'application/json'; opts.body = JSON.stringify(body); }
    var ctl = window.AbortController ? new AbortController() : null;
    var cut = null;
    if (ctl) {
      opts.signal = ctl.signal;
      cut = setTimeout(function () { ctl.abort(); }, LONG);
      if (method === 'POST') { inFlight = {abort: function () { ctl.abort(); }, offline: !navigator.onLine}; }
    }
    function done() { clearTimeout(cut); if (method === 'POST') { inFlight = null; } }
    return fetch(boot.api, opts).then(function (r) {
      return r.json().then(function (data) { done(); return {status: r.status, data: data}; });
    }).catch(function (e) { done(); throw e; });
  }
  function refresh() {
    return send('GET').then(function (r) {
      if (r.status === 200) { server = r.data; renumber(); }
      return r;
    });
  }

  // The queue is never given up: while anything is queued and the page is seen, a batch
  // that did not go through (no network, a server error, a refresh that failed, a 409 that
  // renumbering did not settle) is sent again after a pause that doubles up to MAX; the
  // network's return, the page's load and its coming back to sight send at once. An
  // `online` event alone is not enough: it may fire before this script runs (a reload),
  // or never where the network came back without the phone noticing.
  var FIRST = 2000, MAX = 30000;
  var pause = 0, retryAt = null;
  function retryLater() {
    if (retryAt || !queue.length || conflict || document.hidden) { return; }
    pause = Math.min(pause ? pause * 2 : FIRST, MAX);
    retryAt = setTimeout(function () { retryAt = null; flush(); }, pause);
  }
  function sendNow() {
    pause = 0;
    if (retryAt) { clearTimeout(retryAt); retryAt = null; }
    if (sending && inFlight && inFlight.offline) { inFlight.abort(); }  // it went nowhere
    flush();
  }
  function flush(retries) {
    if (retries === undefined) { retries = 3; }
    if (!loaded || conflict || sending || !queue.length) { render(); return; }
    sending = true;
    var batch = queue.slice();
    render();
    send('POST', {base_revision: server.revision, events: batch.map(function (op) {
      var o = {id: op.id, seq: op.seq};
      if (op.at) { o.at = op.at; }
      if (op.undo) { o.undo = op.undo; } else { o.event = op.event; }
      return o;
    })}).then(function (r) {
      sending = false;
      online = true;
      var sent = {};
      batch.forEach(function (op) { sent[op.id] = true; });
      if (r.status === 200) {
        pause = 0;
        queue = queue.filter(function (op) { return !sent[op.id]; });
        server = r.data;
        renumber();
        if (notice && !notice.err) { notice = null; }
      } else if (r.status === 422 && r.data.refused) {
        queue = queue.filter(function (op) { return op.id !== r.data.refused; });
        var refused = batch.filter(function (op) { return op.id === r.data.refused; })[0];
        notice = {err: true, text: W.refused + (refused ? ' (' + label(refused) + ')' : '') + ': ' +
                  (r.data.problems || []).map(function (p) { return p.text || p.message; }).filter(Boolean).join('; ')};
        renumber();
      } else if (r.status === 409) {
        // another device wrote the log meanwhile (the head judge, the judge's other
        // phone): the judge sees both and chooses. A batch of this screen whose answer
        // was lost (the server applied it as the network went) is no conflict: its taps
        // are on the server already, by their ids; they leave the queue and the rest goes
        // on, renumbered, as after any renumbering
        return refresh().then(function () {
          var own = confirmed();
          if (foreign() || (r.data.error === 'conflict' && !own.length)) {
            conflict = {state: server}; render(); return;
          }
          if (own.length) {
            // the server's log as this queue now begins from
            seen = server.events.map(function (e) { return e.id; });
            queue = queue.filter(function (op) { return own.indexOf(op.id) < 0; });
            renumber();
          }
          if (retries > 0) { flush(retries - 1); } else { render(); retryLater(); }
        });
      } else {
        // the server could not take it now (busy, restarting, a proxy's error page):
        // shown, and sent again later
        notice = {err: true, text: (r.data && (r.data.message || r.data.error)) || String(r.status)};
        render();
        retryLater();
        return null;
      }
      render();
      // taps made while the batch was on its way go at once
      if (queue.length && retries > 0) { flush(retries - 1); } else { retryLater(); }
      return null;
    }).catch(function () {
      sending = false;
      online = false;
      render();
      retryLater();
    });
  }
  window.addEventListener('online', function () { online = true; sendNow(); });
  window.addEventListener('offline', function () { online = false; render(); });
  document.addEventListener('visibilitychange', function () { if (!document.hidden) { sendNow(); } });
  window.addEventListener('pageshow', function (e) { if (e.persisted) { sendNow(); } });

  // --- drawing -------------------------------------------------------------------------
  function h(tag, attrs) {
    var el = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) {
      if (k === 'on') { el.addEventListener('click', attrs.on); }
      else if (k === 'text') { el.textContent = attrs.text; }
      else if (attrs[k] !== false && attrs[k] != null) { el.setAttribute(k, attrs[k]); }
    });
    for (var i = 2; i < arguments.length; i++) {
      var c = arguments[i];
      if (c == null || c === false) { continue; }
      if (Array.isArray(c)) { c.forEach(function (x) { if (x) { el.appendChild(x); } }); }
      else { el.appendChild(typeof c === 'string' ? document.createTextNode(c) : c); }
    }
    return el;
  }
  function btn(text, on, cls, id) { return h('button', {type: 'button', 'class': cls || '', id: id, on: on, text: text}); }
  function label(op) { return op.undo ? W.undo : describe(op.event); }
  function atTable() { var st = cur().step; return (st && st.at_table.length) ? st.at_table : [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]; }
  function chips(seats, chosen, onTap, prefix) {
    return h('div', {'class': 'lv-chips'}, seats.map(function (s) {
      return h('button', {type: 'button', 'class': 'lv-chip' + (chosen(s) ? ' on' : ''), title: nick(s) || null,
                          id: prefix ? prefix + s : null, on: function () { onTap(s); }},
               h('b', {text: String(s)}), nick(s) ? h('small', {text: nick(s)}) : null);
    }));
  }
  function section(title, id) {
    var rest = Array.prototype.slice.call(arguments, 2);
    return h.apply(null, ['section', {'class': 'lv-sec', id: id}, h('h2', {text: title})].concat(rest));
  }

  function timerBox(seconds, key) {
    if (timer.key !== key) {
      stopTimer();
      timer = {total: seconds, left: seconds, running: false, handle: null, key: key};
    }
    return h('div', {'class': 'lv-timer'},
      h('span', {id: 'lv-clock', 'class': clockClass(), text: clock()}),
      btn(timer.running ? W.pause : W.start, function () {
        if (timer.running) { stopTimer(); } else { wakeAudio(); startTimer(); ui.open = true; }
        render();
      }, 'sec', 'lv-start'),
      btn(W.reset, function () { stopTimer(); timer.left = timer.total; render(); }, 'sec'));
  }
  function clock() { var s = Math.max(timer.left, 0); return Math.floor(s / 60) + ':' + ('0' + (s % 60)).slice(-2); }
  function clockClass() { return 'lv-clock' + (timer.left <= 0 ? ' over' : timer.left <= 10 ? ' warn' : ''); }
  function startTimer() {
    timer.running = true;
    timer.handle = setInterval(function () {
      timer.left -= 1;
      var el = document.getElementById('lv-clock');
      if (el) { el.textContent = clock(); el.className = clockClass(); }
      if (timer.left === 10) { alarm(150); }
      if (timer.left <= 0) { stopTimer(); alarm(400); }
    }, 1000);
  }
  // ten seconds left, and time up: a vibration where the phone has one, and a short beep
  var audio = null;
  function wakeAudio() {
    // a browser lets a page sound only after a tap: the Start tap opens the sound
    try {
      var AC = window.AudioContext || window.webkitAudioContext;
      if (AC && !audio) { audio = new AC(); }
      if (audio && audio.state === 'suspended') { audio.resume(); }
    } catch (e) { audio = null; }
  }
  function alarm(ms) {
    if (navigator.vibrate) { try { navigator.vibrate(ms); } catch (e) { /* not allowed */ } }
    try {
      var AC = window.AudioContext || window.webkitAudioContext;
      if (!AC) { return; }
      audio = audio || new AC();
      var osc = audio.createOscillator(), gain = audio.createGain();
      osc.frequency.value = 880;
      gain.gain.value = 0.2;
      osc.connect(gain); gain.connect(audio.destination);
      osc.start(); osc.stop(audio.currentTime + ms / 1000);
    } catch (e) { /* no sound here */ }
  }
  function stopTimer() { timer.running = false; if (timer.handle) { clearInterval(timer.handle); timer.handle = null; } }

  function endSpeech(kind, seat) {
    var ev = {type: kind, seat: seat};
    if (kind === 'speech' && ui.nominee != null) { ev.nominates = ui.nominee; }
    var after = ui.after;
    checked([ev].concat(after), function () {
      ui.nominee = null; ui.open = false; ui.after = []; ui.speaker = null;
      stopTimer(); timer.key = '';
      var at = new Date().toISOString();
      queue.push({event: ev, id: newId(), seq: 0, at: at});
      after.forEach(function (e) { queue.push({event: e, id: newId(), seq: 0, at: at}); });
      queue.forEach(function (op, i) { op.seq = server.seq + i + 1; });
      saveQueue(); render(); flush();
    });
  }

  function speechSec(seat, seconds, offline) {
    if (offline) {
      seat = ui.speaker != null ? ui.speaker : guessSpeaker();
    }
    var parts = [];
    if (offline) {
      parts.push(chips(atTable(), function (s) { return s === seat; }, function (s) { ui.speaker = s; render(); }, 'lv-spk-'));
    }
    parts.push(timerBox(seconds, 'speech-' + seat + '-' + server.seq + '-' + queue.length));
    parts.push(h('p', {'class': 'muted', text: ui.nominee != null ? fmt(W.nominated, {seat: ui.nominee}) : W.nominate}));
    parts.push(chips(atTable(), function (s) { return s === ui.nominee; }, function (s) {
      ui.nominee = ui.nominee === s ? null : s; ui.open = true; render();
    }, 'lv-nom-'));
    if (ui.after.length) {
      parts.push(h('p', {'class': 'muted', text: ui.after.map(describe).filter(Boolean).join('; ')}));
    }
    parts.push(btn(W.end_speech, function () { endSpeech('speech', seat); }, 'lv-big', 'lv-end-speech'));
    return section(withNick(fmt(W.speaks, {seat: seat}), seat), 'lv-speech', parts);
  }
  function guessSpeaker() {
    // offline only: the next seat at the table after the last speech queued (not a rule
    // check; the server judges the order when the connection returns)
    var out = queuedOut(), last = null;
    var seats = atTable().filter(function (s) { return out.indexOf(s) < 0; });
    if (!seats.length) { seats = atTable(); }
    queue.forEach(function (op) { if (op.event && op.event.type === 'speech') { last = op.event.seat; } });
    if (last == null) {
      var seat = cur().step && cur().step.seat;
      return seat != null && seats.indexOf(seat) >= 0 ? seat : seats[0];
    }
    var later = seats.filter(function (s) { return s > last; });
    return later.length ? later[0] : seats[0];
  }
  function defenceSec(seat) {
    return section(withNick(fmt(W.defence, {seat: seat}), seat), 'lv-defence', timerBox(30, 'def-' + seat + '-' + server.seq),
      btn(W.end_defence, function () { endSpeech('defence', seat); }, 'lv-big', 'lv-end-defence'));
  }
  function voteSec(cands, offline) {
    if (offline) {
      cands = ui.cands;
    }
    var parts = [];
    if (offline) {
      parts.push(chips(atTable(), function (s) { return cands.indexOf(s) >= 0; }, function (s) {
        var i = ui.cands.indexOf(s); if (i >= 0) { ui.cands.splice(i, 1); } else { ui.cands.push(s); } render();
      }, 'lv-cand-'));
    }
    parts.push(h('div', {'class': 'lv-row'},
      btn(W.by_voters, function () { ui.mode = 'voters'; render(); }, ui.mode === 'voters' ? '' : 'sec'),
      btn(W.by_counts, function () { ui.mode = 'counts'; render(); }, ui.mode === 'counts' ? '' : 'sec')));
    var head = cands.slice(0, -1), last = cands[cands.length - 1];
    head.forEach(function (c) {
      if (ui.mode === 'voters') {
        var mine = ui.votes[c] || [];
        parts.push(h('div', {'class': 'lv-cand'}, h('b', {text: '→ ' + c + ': ' + mine.length}),
          chips(atTable(), function (s) { return mine.indexOf(s) >= 0; }, function (s) {
            Object.keys(ui.votes).forEach(function (k) { ui.votes[k] = ui.votes[k].filter(function (x) { return x !== s; }); });
            if (mine.indexOf(s) < 0) { ui.votes[c] = (ui.votes[c] || []).concat([s]); }
            render();
          }, 'lv-v' + c + '-')));
      } else {
        var n = ui.counts[c] || 0;
        parts.push(h('div', {'class': 'lv-cand lv-row'}, h('b', {text: '→ ' + c}),
          btn('−', function () { ui.counts[c] = Math.max(0, n - 1); render(); }, 'sec lv-pm'),
          h('span', {'class': 'lv-n', id: 'lv-count-' + c, text: String(n)}),
          btn('+', function () { ui.counts[c] = n + 1; render(); }, 'sec lv-pm', 'lv-plus-' + c)));
      }
    });
    if (last != null) { parts.push(h('p', {'class': 'muted', text: fmt(W.rest_last, {seat: last})})); }
    parts.push(btn(W.record_vote, function () {
      var ev = {type: 'vote'}, key = ui.mode === 'voters' ? 'votes' : 'counts', t = {};
      // only the hands raised for all but the last candidate: the rest count for the last
      head.forEach(function (c) { t[String(c)] = ui.mode === 'voters' ? (ui.votes[c] || []) : (ui.counts[c] || 0); });
      ev[key] = t;
      ui.votes = {}; ui.counts = {}; ui.cands = [];
      record(ev);
    }, 'lv-big', 'lv-record-vote'));
    var title = (cur().step && cur().step.revote && !offline) ? W.revote : W.vote;
    return section(title + (cands.length ? ': ' + cands.join(', ') : ''), 'lv-vote', parts);
  }
  function liftSec(cands) {
    return section(W.lift + ': ' + cands.join(', '), 'lv-lift', h('p', {'class': 'muted', text: W.lift_for + ': ' + ui.lift.length}),
      chips(atTable(), function (s) { return ui.lift.indexOf(s) >= 0; }, function (s) {
        var i = ui.lift.indexOf(s); if (i >= 0) { ui.lift.splice(i, 1); } else { ui.lift.push(s); } render();
      }, 'lv-lift-'),
      btn(W.record, function () { var v = ui.lift; ui.lift = []; record({type: 'lift', voters: v}); }, 'lv-big', 'lv-record-lift'));
  }
  function shotSec() {
    return section(W.shot, 'lv-shot',
      chips(atTable(), function () { return false; }, function (s) { record({type: 'shot', target: s}); }, 'lv-shot-'),
      btn(W.miss, function () { record({type: 'shot', target: null}); }, 'sec lv-big', 'lv-miss'));
  }
  function checkSec(kind) {
    return section(W[kind], 'lv-' + kind,
      chips([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], function () { return false; }, function (s) { record({type: kind, target: s}); }, 'lv-' + kind + '-'));
  }
  function bestMoveSec(seat) {
    return section(withNick(fmt(W.best_move, {seat: seat}), seat), 'lv-best-move',
      chips([1, 2, 3, 4, 5, 6, 7, 8, 9, 10].filter(function (s) { return s !== seat; }), function (s) { return ui.bm.indexOf(s) >= 0; }, function (s) {
        var i = ui.bm.indexOf(s); if (i >= 0) { ui.bm.splice(i, 1); } else if (ui.bm.length < 3) { ui.bm.push(s); } render();
      }, 'lv-bm-'),
      btn(W.record, function () { var v = ui.bm; ui.bm = []; record({type: 'best_move', seat: seat, seats: v}); }, 'lv-big', 'lv-record-bm'));
  }
  function lastWordsSec(seats) {
    return h('div', {'class': 'lv-sec', id: 'lv-last-words'}, seats.map(function (s) {
      return btn(withNick(fmt(W.last_words, {seat: s}), s), function () { record({type: 'last_words', seat: s}); }, 'sec lv-big', 'lv-lw-' + s);
    }));
  }

  function dealSec() {
    if (!ui.roles) {
      var ok = server.roles.filter(function (r) { return r; }).length === 10;
      ui.roles = ok ? server.roles.slice() : server.roles.map(function () { return 'red'; });
    }
    var marks = boot.lang === 'ru' ? {red: 'К', sheriff: 'Ш', black: 'Ч', don: 'Д'} : {red: 'R', sheriff: 'S', black: 'B', don: 'D'};
    var rows = ui.roles.map(function (role, i) {
      return h('div', {'class': 'lv-row lv-deal'}, h('b', {'class': 'lv-seatno', text: String(i + 1)}),
        h('span', {'class': 'lv-player', text: nick(i + 1)}),
        ['red', 'sheriff', 'black', 'don'].map(function (r) {
          return btn(marks[r], function () { ui.roles[i] = r; render(); }, 'lv-role' + (role === r ? ' on' : ''), 'lv-role-' + (i + 1) + '-' + r);
        }));
    });
    return section(W.deal, 'lv-deal', rows,
      btn(W.deal_btn, function () { record({type: 'deal', roles: ui.roles.slice()}); }, 'lv-big', 'lv-deal-btn'));
  }

  function seatGrid() {
    var pending = {};
    // the engine's count has the queued fouls already; a speech's fouls wait for its end
    (localView ? [] : queue).concat(ui.after.map(function (e) { return {event: e}; })).forEach(function (op) {
      if (op.event && op.event.type === 'foul') { pending[op.event.seat] = (pending[op.event.seat] || 0) + 1; }
    });
    var at = atTable();
    return section(W.fouls, 'lv-seats', h('div', {'class': 'lv-grid'}, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map(function (s) {
      var n = cur().fouls[String(s)] || 0, p = pending[s] || 0;
      var tile = h('div', {'class': 'lv-tile' + (at.indexOf(s) < 0 ? ' out' : ''), id: 'lv-seat-' + s},
        h('b', {text: String(s)}),
        h('span', {'class': 'lv-tnick', text: nick(s)}),
        h('span', {'class': 'lv-fouls', id: 'lv-fouls-' + s, text: n + (p ? '+' + p : '')}),
        btn(W.foul, function () {
          var ev = {type: 'foul', seat: s};
          // the 4th foul removes the player from the table: asked before it is recorded
          if (n + p + 1 === 4 && !confirm(fmt(W.fourth_foul, {seat: s}))) { return; }
          if (ui.open) { ui.after.push(ev); render(); } else { record(ev); }
        }, 'lv-foul', 'lv-foul-' + s),
        btn('⋯', function () { ui.menu = ui.menu === s ? null : s; render(); }, 'sec lv-more', 'lv-more-' + s));
      if (ui.menu === s) {
        tile.appendChild(h('div', {'class': 'lv-menu'},
          btn(W.disqualify, function () {
            if (confirm(fmt(W.sure, {seat: s, what: W.disqualify}))) { ui.menu = null; record({type: 'disqualify', seat: s}); }
          }, 'lv-danger', 'lv-dq-' + s),
          btn(W.team_loss, function () {
            if (confirm(fmt(W.sure, {seat: s, what: W.team_loss}))) { ui.menu = null; record({type: 'team_loss', seat: s}); }
          }, 'lv-danger', 'lv-tl-' + s)));
      }
      return tile;
    })));
  }

  // a moment on the tournament's clock (the server's log shows its times so), HH:MM:SS
  function tapTime(at) {
    var d = new Date(at);
    try {
      return d.toLocaleTimeString('en-GB', {timeZone: boot.zone || 'UTC', hourCycle: 'h23'});
    } catch (e) {
      return d.toISOString().slice(11, 19);
    }
  }

  function journal() {
    var items = server.events.slice(-12).filter(function (e) { return e.text && e.text.trim(); })
      .map(function (e) { return h('li', {text: (e.time ? e.time + ' · ' : '') + e.text}); });
    var counts = {};
    Object.keys(server.fouls || {}).forEach(function (k) { counts[k] = server.fouls[k]; });
    queue.forEach(function (op) {
      var text = label(op);
      if (op.event && op.event.type === 'foul') {
        var k = String(op.event.seat);
        counts[k] = (counts[k] || 0) + 1;
        if (counts[k] === 4) { text = fmt(W.removed_4th, {seat: op.event.seat}); }
      }
      // the tap's own moment on the phone's clock: it is sent with it
      var at = op.at ? tapTime(op.at) + ' · ' : '';
      items.push(h('li', {'class': 'lv-queued', text: at + text + ' — ' + W.queued}));
    });
    var total = server.events.length + queue.length;
    return section(W.log, 'lv-log', h('ol', {reversed: 'reversed', start: String(total)}, items.reverse()));
  }

  // offline only: the seats the queued taps may concern beyond those at the table (the
  // player just shot or voted out still has his last words)
  function queuedOut() {
    var out = [];
    queue.forEach(function (op) {
      var ev = op.event;
      if (ev && ev.type === 'shot' && ev.target != null) { out.push(ev.target); }
    });
    ((server.step && server.step.last_words) || []).forEach(function (s) { out.push(s); });
    return out;
  }
  function lastWordsSeats() {
    var seats = atTable().concat(queuedOut());
    return seats.filter(function (s, i) { return seats.indexOf(s) === i; }).sort(function (a, b) { return a - b; });
  }
  // offline only: whose best move (the first player killed: the server's, or the first
  // queued shot's target when the server has none yet)
  function bestMoveSeat() {
    if (server.first_killed) { return server.first_killed; }
    var shot = queue.filter(function (op) { return op.event && op.event.type === 'shot' && op.event.target != null; })[0];
    return shot ? shot.event.target : null;
  }
  // offline only: the form the select opens on after the last queued tap (a guess the
  // judge may change; the server judges the order when the connection returns)
  var AFTER = {shot: 'don_check', don_check: 'sheriff_check', vote: 'last_words', lift: 'last_words',
               best_move: 'last_words', last_words: 'speech', speech: 'speech', defence: 'vote'};
  function guessKind() {
    var lastOp = queue.filter(function (op) { return op.event && op.event.type !== 'foul'; }).slice(-1)[0];
    var k = lastOp ? lastOp.event.type : null;
    if (k === 'sheriff_check') {
      var bm = bestMoveSeat();
      var bmDone = queue.some(function (op) { return op.event && op.event.type === 'best_move'; }) || !server.best_move_open && server.first_killed;
      return bm && !bmDone ? 'best_move' : 'last_words';
    }
    return AFTER[k] || 'speech';
  }
  function offlineSec() {
    var kinds = ['speech', 'vote', 'shot', 'don_check', 'sheriff_check', 'best_move', 'last_words', 'defence', 'lift'];
    if (bestMoveSeat() == null) { kinds = kinds.filter(function (k) { return k !== 'best_move'; }); }
    var kind = ui.kind || guessKind();
    if (kinds.indexOf(kind) < 0) { kind = 'speech'; }
    var sel = h('select', {id: 'lv-kind'}, kinds.map(function (k) {
      return h('option', {value: k, selected: k === kind ? 'selected' : false, text: ET[k] ? ET[k].replace(/[:{].*$/, '').replace(/\s*места?\s*$/, '') : k});
    }));
    sel.addEventListener('change', function () { ui.kind = sel.value; render(); });
    var body;
    if (kind === 'speech') { body = speechSec(null, 60, true); }
    else if (kind === 'vote') { body = voteSec([], true); }
    else if (kind === 'shot') { body = shotSec(); }
    else if (kind === 'don_check' || kind === 'sheriff_check') { body = checkSec(kind); }
    else if (kind === 'last_words') { body = lastWordsSec(lastWordsSeats()); }
    else if (kind === 'best_move') { body = bestMoveSec(bestMoveSeat()); }
    else if (kind === 'defence') { body = defenceSec(ui.speaker || atTable()[0]); }
    else { body = liftSec(ui.cands); }
    return h('div', null, h('label', {'class': 'lv-row'}, W.any_event + ' ', sel), body);
  }

  function stepSecs(step) {
    var out = [], k = step.kinds;
    if (k.indexOf('don_check') >= 0) { out.push(checkSec('don_check')); }
    if (k.indexOf('sheriff_check') >= 0) { out.push(checkSec('sheriff_check')); }
    var now = cur();
    if ((k.indexOf('best_move') >= 0 || (now.ended && now.best_move_open)) && now.first_killed) {
      out.push(bestMoveSec(now.first_killed));
    }
    if (k.indexOf('last_words') >= 0 && step.last_words.length) { out.push(lastWordsSec(step.last_words)); }
    if (k.indexOf('defence') >= 0 && step.seat != null) { out.push(defenceSec(step.seat)); }
    if (k.indexOf('vote') >= 0) { out.push(voteSec(step.candidates)); }
    if (k.indexOf('lift') >= 0) { out.push(liftSec(step.candidates)); }
    if (k.indexOf('shot') >= 0) { out.push(shotSec()); }
    if (k.indexOf('speech') >= 0 && step.seat != null) { out.push(speechSec(step.seat, step.seconds)); }
    return out;
  }

  function render() {
    rebuild();
    var offline = !online || (queue.length > 0 && !sending);
    var status = h('div', {'class': 'lv-status ' + (online ? 'on' : 'off'), id: 'lv-status'},
      online ? (sending ? W.sending : W.online) : W.offline,
      queue.length ? ' · ' + queue.length + ' — ' + W.queued : '');
    var parts = [status];
    if (conflict && window.mafiatabConflict) {
      parts.push(conflictSec());
    }
    if (notice) {
      parts.push(h('div', {'class': 'lv-notice' + (notice.err ? ' err' : ''), id: 'lv-notice', role: 'alert'},
        h('span', {text: notice.text}), h('small', {text: W.tap_to_close})));
    }
    var record = server.record_problems || [];
    if (record.length) {
      // the tournament-wide problems of the protocol as kept, in words with their rule
      parts.push(h('div', {'class': 'lv-record', id: 'lv-record', role: 'alert'},
        h('b', {text: W.record_problems}),
        h('ul', null, record.map(function (p) { return h('li', {text: p.text}); }))));
    }
    var now = cur(), step = now.step;
    var dealQueued = queue.some(function (op) { return op.event && op.event.type === 'deal'; });
    if (!server.dealt && !dealQueued) {
      parts.push(dealSec());
    } else {
      if (step) {
        // the engine's line ends with its notes; they are listed below, each with its clause
        var line = step.line || (step.notes.length ? step.text.split(' — ')[0] : step.text);
        if (step.seat != null && nick(step.seat)) { line = withNick(line, step.seat); }
        parts.push(h('div', {'class': 'lv-next', id: 'lv-next'}, h('b', {text: line}),
          queue.length ? h('span', {'class': 'muted', text: ' (' + W.queued + ')'}) : null));
        if (step.notes.length) {
          parts.push(h('ul', {'class': 'lv-notes', id: 'lv-notes'}, step.notes.filter(function (n) { return n && n.trim(); }).map(function (n) { return h('li', {text: n}); })));
        }
      }
      if (now.ended && (!queue.length || localView)) {
        parts.push(section(W.ended, 'lv-ended', h('p', {'class': 'lv-result', id: 'lv-result', text: now.result_text || ''}),
          h('a', {'class': 'lv-go', id: 'lv-to-protocol', href: boot.protocol_url, text: W.to_protocol})));
      }
      if (offline && !localView && (queue.length || !step)) { parts.push(offlineSec()); }
      else if (step) { parts = parts.concat(stepSecs(step)); }
      parts.push(seatGrid());
    }
    parts.push(h('div', {'class': 'lv-row'}, btn(W.undo, undo, 'sec lv-undo', 'lv-undo')));
    parts.push(journal());
    root.replaceChildren.apply(root, parts);
  }

  // whether the server's log has changed by somebody else since the queue began: an event
  // neither seen then nor sent from this queue, or one seen then and gone (not by an undo
  // of this queue)
  function foreign() {
    if (!seen) { return false; }
    var mine = {}, now = {};
    queue.forEach(function (op) { mine[op.id] = true; if (op.undo) { mine[op.undo] = true; } });
    server.events.forEach(function (e) { now[e.id] = true; });
    return server.events.some(function (e) { return seen.indexOf(e.id) < 0 && !mine[e.id]; }) ||
      seen.some(function (id) { return !now[id] && !mine[id]; });
  }
  // the queued taps the server's log has already (by id): a batch applied whose answer
  // never came; an undo counts when the event it took back is gone from the server
  function confirmed() {
    var there = {};
    server.events.forEach(function (e) { there[e.id] = true; });
    return queue.filter(function (op) {
      return op.undo ? !there[op.undo] && (seen || []).indexOf(op.undo) >= 0 : there[op.id];
    }).map(function (op) { return op.id; });
  }
  function conflictSec() {
    var known = {};
    (seen || []).forEach(function (id) { known[id] = true; });
    var theirs = server.events.filter(function (e) { return e.text && e.text.trim(); }).map(function (e) {
      return {text: (e.time ? e.time + ' · ' : '') + e.text, fresh: !known[e.id]};
    });
    // the server's newest events and the last few before them
    var firstNew = theirs.findIndex(function (e) { return e.fresh; });
    theirs = theirs.slice(Math.max(0, (firstNew < 0 ? theirs.length : firstNew) - 3));
    return window.mafiatabConflict({
      title: OW.conflict_title, text: OW.live_conflict_text,
      mineTitle: OW.live_mine, theirsTitle: OW.live_theirs, freshWord: OW.new_there,
      lists: {mine: queue.map(function (op) {
        return (op.at ? tapTime(op.at) + ' · ' : '') + label(op);
      }), theirs: theirs},
      keepMine: OW.live_keep_mine, takeTheirs: OW.live_take_theirs,
      onKeepMine: function () { conflict = null; seen = null; renumber(); flush(); },
      onTakeTheirs: function () { conflict = null; queue = []; saveQueue(); render(); }
    });
  }

  function undo() {
    if (sending) { return; }
    if (ui.after.length) { ui.after.pop(); render(); return; }
    if (queue.length) { queue.pop(); saveQueue(); render(); return; }
    var last = server.events[server.events.length - 1];
    if (last) { enqueue({undo: last.id}); }
  }

  // a refusal stays on screen until the judge's next tap (that tap then does its own work)
  root.addEventListener('click', function (e) {
    if (notice && e.target.closest && e.target.closest('button, select, #lv-notice')) {
      notice = null;
      var el = document.getElementById('lv-notice');
      if (el) { el.remove(); }
    }
  }, true);

  render();
  function begin(kept) {
    var old = null;
    try { old = JSON.parse(localStorage.getItem(KEY) || 'null'); } catch (e) { old = null; }
    if (!kept && Array.isArray(old)) { kept = {queue: old}; }  // kept by an older version
    if (kept && kept.server && kept.server.revision > server.revision) {
      server = kept.server;  // the page came from the phone's cache: the newer state is here
    }
    if (kept && Array.isArray(kept.queue) && kept.queue.length) {
      queue = kept.queue.concat(queue);  // a tap made while the phone was read stays last
      seen = kept.seen || null;
    }
    loaded = true;
    root.setAttribute('data-queue', 'ready');
    renumber();
    render();
    flush();
  }
  if (Q) { Q.load(KEY).then(begin, function () { begin(null); }); } else { begin(null); }
  // the phone's engine starts in the background; until it runs, the server's state leads
  if (window.mafiaCourse && boot.course) {
    mafiaCourse.ready(boot.course).then(function (ok) { if (ok) { render(); } });
  }
  // another device's write (the head judge, the judge's second phone) comes pushed; it
  // is taken only while nothing of this screen is queued or on its way
  if (window.mafiatabPush && boot.events) {
    window.mafiatabPush(boot.events, function (text) {
      var st;
      try { st = JSON.parse(text); } catch (e) { return; }
      if (!sending && !queue.length && st.revision !== server.revision) {
        server = st; renumber(); render();
      }
    });
  }
}());
