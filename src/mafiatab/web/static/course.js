/* The game's course on the judge's phone: the server's own game-log engine, run here.
 *
 * There is no second copy of the rules in JavaScript. The page loads Pyodide (CPython built
 * for WebAssembly, served by our own server from /static/pyodide/, never from a CDN), the
 * WebAssembly build of msgspec, and the pure core's Python source as the server runs it
 * (/course/mafiatab-<hash>.zip, see web/course_files.py), and calls
 * mafiatab.domain.course: the same next step, legal events and refusals, in the same words
 * and by the same clause as the server, offline as online. The server stays the authority:
 * it replays every queued event again when the batch arrives.
 *
 * API (window.mafiaCourse):
 *   mafiaCourse.ready(boot.course) -> Promise<true|false>
 *       starts the engine once (a few seconds the first time; the service worker caches the
 *       files); false when the server has no runtime to give (then the screen asks it).
 *   mafiaCourse.isReady() -> bool
 *   mafiaCourse.open({rules, options, roles, lang, log}) -> game
 *       a game under a tournament's rules and switched readings, roles seat 1 first, with
 *       the events of `log` recorded (as far as they are legal).
 *   game.apply(event) -> {ok: true, view} | {ok: false, problems: [{code, clause, text, ...}]}
 *       records one event of the log (docs/gamelog.md); a refused one changes nothing.
 *   game.view() -> {step: {line, text, phase, kind, kinds, seat, candidates, last_words,
 *                   at_table, seconds, notes, revote}, discipline, fouls, first_killed,
 *                   best_move_open, applied, ended, result, result_text}
 *       the next step and the events that move the game on (`step.kinds`), who speaks
 *       (`step.seat`, `step.last_words`: e.g. the last words of the player just shot, the
 *       first killed's best move while `best_move_open`); the same keys as the server's
 *       live state.
 *   game.undo() -> view        takes back the last event
 *   game.log() -> [event]      the events recorded
 *   game.close()               frees the Python object
 */
(function () {
  'use strict';
  var py = null;        // the Pyodide instance
  var mod = null;       // mafiatab.domain.course
  var starting = null;  // the promise of the start

  function start(setup) {
    if (starting) { return starting; }
    if (!setup) { return Promise.resolve(false); }
    starting = import(setup.runtime + 'pyodide.mjs').then(function (m) {
      return m.loadPyodide({indexURL: setup.runtime});
    }).then(function (p) {
      py = p;
      return Promise.all([py.loadPackage(setup.wheel),
                          fetch(setup.bundle).then(function (r) {
                            if (!r.ok) { throw new Error('bundle ' + r.status); }
                            return r.arrayBuffer();
                          })]);
    }).then(function (got) {
      py.unpackArchive(got[1], 'zip', {extractDir: '/home/pyodide/core'});
      py.runPython("import sys\nif '/home/pyodide/core' not in sys.path: sys.path.insert(0, '/home/pyodide/core')");
      mod = py.pyimport('mafiatab.domain.course');
      return true;
    }).catch(function (e) {
      if (window.console) { console.warn('course: the engine did not start', e); }
      starting = null;
      return false;
    });
    return starting;
  }

  function Game(proxy) { this.py = proxy; }
  Game.prototype.apply = function (event) { return JSON.parse(this.py.apply_json(JSON.stringify(event))); };
  Game.prototype.view = function () { return JSON.parse(this.py.view_json()); };
  Game.prototype.undo = function () { return JSON.parse(this.py.undo_json()); };
  Game.prototype.log = function () { return JSON.parse(mod.log_json(this.py)); };
  Game.prototype.close = function () { if (this.py) { this.py.destroy(); this.py = null; } };

  window.mafiaCourse = {
    ready: start,
    isReady: function () { return mod !== null; },
    open: function (setup) {
      if (!mod) { throw new Error('course: not started'); }
      return new Game(mod.open_json(JSON.stringify(setup)));
    }
  };
}());
