/* What the judge did while the network was down, kept on the phone in IndexedDB: one
 * record per screen and game (the live screen's taps, the protocol form's saves), each
 * item with its id and the moment it was made. A reload, a closed tab or a restarted
 * phone finds it here; the page's script sends it in order when the network returns and
 * removes what the server confirmed.
 *
 *   mafiatabQueue.load(key) -> Promise(record or null)
 *   mafiatabQueue.save(key, record) -> Promise
 *   mafiatabQueue.remove(key) -> Promise
 *   mafiatabQueue.device() -> this phone's id (made once, kept)
 *
 * Where IndexedDB is missing (a private window of an old browser), localStorage keeps it.
 */
(function () {
  'use strict';
  var DB = 'mafiatab', STORE = 'queues';
  var opening = null;

  function open() {
    if (!window.indexedDB) { return Promise.reject(new Error('no IndexedDB')); }
    if (!opening) {
      opening = new Promise(function (resolve, reject) {
        var req = indexedDB.open(DB, 1);
        req.onupgradeneeded = function () { req.result.createObjectStore(STORE); };
        req.onsuccess = function () { resolve(req.result); };
        req.onerror = function () { reject(req.error); };
      });
    }
    return opening;
  }
  function run(mode, work) {
    return open().then(function (db) {
      return new Promise(function (resolve, reject) {
        var tx = db.transaction(STORE, mode), out;
        var req = work(tx.objectStore(STORE));
        if (req) { req.onsuccess = function () { out = req.result; }; }
        tx.oncomplete = function () { resolve(out); };
        tx.onerror = function () { reject(tx.error); };
        tx.onabort = function () { reject(tx.error); };
      });
    });
  }
  function local(key) {
    try { return JSON.parse(localStorage.getItem(key) || 'null'); } catch (e) { return null; }
  }
  // writes of one key go one after another, in the order they were asked for
  var chains = {};
  function serial(key, work) {
    var next = (chains[key] || Promise.resolve()).then(work, work);
    chains[key] = next.catch(function () { /* the next write still runs */ });
    return next;
  }

  window.mafiatabQueue = {
    load: function (key) {
      return run('readonly', function (s) { return s.get(key); }).then(function (rec) {
        return rec === undefined ? local(key) : rec;
      }, function () { return local(key); });
    },
    save: function (key, record) {
      var copy = JSON.parse(JSON.stringify(record));
      return serial(key, function () {
        return run('readwrite', function (s) { return s.put(copy, key); }).then(function () {
          try { localStorage.removeItem(key); } catch (e) { /* none */ }
        }, function () {
          localStorage.setItem(key, JSON.stringify(copy));
        });
      });
    },
    remove: function (key) {
      return serial(key, function () {
        try { localStorage.removeItem(key); } catch (e) { /* none */ }
        return run('readwrite', function (s) { return s.delete(key); }).catch(function () { /* gone */ });
      });
    },
    device: function () {
      var id = null;
      try { id = localStorage.getItem('mafiatab-device'); } catch (e) { /* none */ }
      if (!id) {
        id = (window.crypto && crypto.randomUUID) ? crypto.randomUUID()
          : Date.now().toString(36) + '-' + Math.random().toString(36).slice(2);
        try { localStorage.setItem('mafiatab-device', id); } catch (e) { /* none */ }
      }
      return id;
    },
    newId: function () {
      if (window.crypto && crypto.randomUUID) { return crypto.randomUUID(); }
      return Date.now().toString(36) + '-' + Math.random().toString(36).slice(2);
    }
  };
}());
