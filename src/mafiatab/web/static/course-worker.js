/* The game's course engine in a worker (see course.js): Pyodide and the pure core run here,
 * off the page's thread, so the screen never freezes while the engine starts or replays.
 * Messages: {id, op, args} in, {id, ok, value | error} out; ops: start(setup),
 * open(setupJson) -> handle, apply(handle, eventJson), view(handle), undo(handle),
 * log(handle), close(handle). Values cross as JSON text.
 */
'use strict';
var py = null, mod = null, games = {}, next = 1, starting = null;

function start(setup) {
  if (starting) { return starting; }
  starting = import(setup.runtime + 'pyodide.mjs').then(function (m) {
    return m.loadPyodide({indexURL: setup.runtime});
  }).then(function (p) {
    py = p;
    return Promise.all([py.loadPackage(setup.wheel), fetch(setup.bundle).then(function (r) {
      if (!r.ok) { throw new Error('bundle ' + r.status); }
      return r.arrayBuffer();
    })]);
  }).then(function (got) {
    py.unpackArchive(got[1], 'zip', {extractDir: '/home/pyodide/core'});
    py.runPython("import sys\nif '/home/pyodide/core' not in sys.path: sys.path.insert(0, '/home/pyodide/core')");
    mod = py.pyimport('mafiatab.domain.course');
    return true;
  });
  return starting;
}

var ops = {
  start: start,
  open: function (setup) { var h = next++; games[h] = mod.open_json(setup); return h; },
  apply: function (h, event) { return games[h].apply_json(event); },
  view: function (h) { return games[h].view_json(); },
  undo: function (h) { return games[h].undo_json(); },
  log: function (h) { return mod.log_json(games[h]); },
  close: function (h) { if (games[h]) { games[h].destroy(); delete games[h]; } return null; }
};

self.onmessage = function (e) {
  var msg = e.data;
  Promise.resolve().then(function () { return ops[msg.op].apply(null, msg.args || []); })
    .then(function (value) { self.postMessage({id: msg.id, ok: true, value: value}); },
          function (err) { self.postMessage({id: msg.id, ok: false, error: String(err && err.message || err)}); });
};
