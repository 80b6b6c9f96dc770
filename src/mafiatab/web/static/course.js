/* The game's course on the judge's phone: the server's own game-log engine, run here.
 *
 * There is no second copy of the rules in JavaScript. A worker (course-worker.js, served as
 * /course/worker.js) loads Pyodide (CPython built for WebAssembly, served by our own server
 * from /static/pyodide/, never from a CDN), the WebAssembly build of msgspec, and the pure
 * core's Python source as the server runs it (/course/mafiatab-<hash>.zip, see
 * web/course_files.py), and calls mafiatab.domain.course: the same next step, legal events
 * and refusals, in the same words and by the same clause as the server, offline as online.
 * The server stays the authority: it replays every queued event again when the batch
 * arrives. The engine runs off the page's thread, so every call answers with a Promise.
 *
 * API (window.mafiaCourse):
 *   mafiaCourse.ready(boot.course) -> Promise<true|false>
 *       starts the engine once (seconds the first time; the service worker caches the
 *       files, `GET /course/files.json` lists them); false when the server has no runtime
 *       to give or it cannot start (then the screen asks the server).
 *   mafiaCourse.isReady() -> bool
 *   mafiaCourse.open({rules, options, roles, lang, log}) -> Promise<game>
 *       a game under a tournament's rules and switched readings, roles seat 1 first, with
 *       the events of `log` recorded (as far as they are legal).
 *   game.apply(event) -> Promise<{ok: true, view} | {ok: false, problems: [{code, clause, text, ...}]}>
 *       records one event of the log (docs/gamelog.md); a refused one changes nothing.
 *   game.view() -> Promise<{step: {line, text, phase, kind, kinds, seat, candidates,
 *                   last_words, at_table, seconds, notes, revote}, discipline, fouls,
 *                   first_killed, best_move_open, applied, ended, result, result_text}>
 *       the next step and the events that move the game on (`step.kinds`), who speaks
 *       (`step.seat`, `step.last_words`: e.g. the last words of the player just shot; the
 *       first killed's best move while `best_move_open`): the server's live state's keys.
 *   game.undo() -> Promise<view>     takes back the last event
 *   game.log() -> Promise<[event]>   the events recorded
 *   game.close() -> Promise          frees the game
 */
(function () {
  'use strict';
  var worker = null, calls = {}, next = 1, ready = false, starting = null;

  function call(op, args) {
    return new Promise(function (resolve, reject) {
      var id = next++;
      calls[id] = {resolve: resolve, reject: reject};
      worker.postMessage({id: id, op: op, args: args});
    });
  }
  function json(p) { return p.then(function (text) { return JSON.parse(text); }); }

  function start(setup) {
    if (starting) { return starting; }
    if (!setup || !window.Worker) { return Promise.resolve(false); }
    worker = new Worker(setup.worker, {type: 'module'});
    worker.onmessage = function (e) {
      var c = calls[e.data.id];
      delete calls[e.data.id];
      if (c) { if (e.data.ok) { c.resolve(e.data.value); } else { c.reject(new Error(e.data.error)); } }
    };
    starting = call('start', [setup]).then(function () { ready = true; return true; }, function (e) {
      if (window.console) { console.warn('course: the engine did not start', e); }
      worker.terminate();
      starting = null;
      return false;
    });
    return starting;
  }

  function Game(handle) { this.h = handle; }
  Game.prototype.apply = function (event) { return json(call('apply', [this.h, JSON.stringify(event)])); };
  Game.prototype.view = function () { return json(call('view', [this.h])); };
  Game.prototype.undo = function () { return json(call('undo', [this.h])); };
  Game.prototype.log = function () { return json(call('log', [this.h])); };
  Game.prototype.close = function () { return call('close', [this.h]); };

  window.mafiaCourse = {
    ready: start,
    isReady: function () { return ready; },
    open: function (setup) {
      if (!ready) { return Promise.reject(new Error('course: not started')); }
      return call('open', [JSON.stringify(setup)]).then(function (h) { return new Game(h); });
    }
  };
}());
