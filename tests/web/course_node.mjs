/* The phone's course engine under Node, for the differential test (test_course_node.py).
 *
 * It loads what the live screen's worker (static/course-worker.js) loads: the Pyodide
 * runtime the server serves from /static/pyodide/, msgspec's WebAssembly wheel, and the pure
 * core's source as web/course_files.py bundles it, and walks games through the same calls
 * (open_json, apply_json, view_json, undo_json, log_json). One long-lived process: Pyodide
 * starts once, then each line of stdin is a batch of games (JSON) and each line of stdout
 * the batch's traces (JSON), in the walk the browser test's page runs (tests/web/course_walk.py
 * is the server's side), with the process's CPU time so far.
 *
 * Usage: node course_node.mjs <runtime dir> <wheel file> <bundle zip>
 * Prints "ready" once the engine has started.
 */
import {readFileSync} from 'node:fs';
import {createInterface} from 'node:readline';
import {pathToFileURL} from 'node:url';

const [runtime, wheel, bundle] = process.argv.slice(2);
const dir = runtime.endsWith('/') ? runtime : runtime + '/';
const {loadPyodide} = await import(pathToFileURL(dir + 'pyodide.mjs').href);
const py = await loadPyodide({indexURL: dir, stdout: () => {}, stderr: (t) => process.stderr.write(t + '\n')});
await py.loadPackage(wheel, {messageCallback: () => {}});
py.unpackArchive(new Uint8Array(readFileSync(bundle)), 'zip', {extractDir: '/home/pyodide/core'});
py.runPython("import sys\nif '/home/pyodide/core' not in sys.path: sys.path.insert(0, '/home/pyodide/core')");
const mod = py.pyimport('mafiatab.domain.course');

function walk(g) {
  const game = mod.open_json(JSON.stringify({rules: g.rules, options: g.options, roles: g.roles,
                                             lang: g.lang, log: []}));
  try {
    const trace = [JSON.parse(game.view_json())];
    for (const [wrong, event] of g.steps) {
      if (wrong !== null) {
        const r = JSON.parse(game.apply_json(JSON.stringify(wrong)));
        trace.push(r);
        if (r.ok) { trace.push(JSON.parse(game.undo_json())); }
      }
      trace.push(JSON.parse(game.apply_json(JSON.stringify(event))));
    }
    trace.push(JSON.parse(mod.log_json(game)));
    return trace;
  } finally {
    game.destroy();
  }
}

process.stdout.write('ready\n');
const lines = createInterface({input: process.stdin, crlfDelay: Infinity});
for await (const line of lines) {
  if (!line.trim()) { continue; }
  let out;
  try {
    out = {ok: true, traces: JSON.parse(line).map(walk), cpu_ms: process.cpuUsage().user / 1000};
  } catch (e) {
    out = {ok: false, error: String(e && e.stack || e)};
  }
  process.stdout.write(JSON.stringify(out) + '\n');
}
