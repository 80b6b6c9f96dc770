/* The judge's phone without a network: this service worker keeps the judge's own pages
 * (his tables, the protocol form, the live screen of each of his games) and the static
 * files, so that a reload, a closed tab or a restarted phone in a hall without Wi-Fi
 * comes back where he was. It keeps nothing else of anybody's: the public list of
 * tournaments at most, never another page's data. Signing out empties its caches.
 *
 * Pages: network first (the newest version whenever the network answers), the kept copy
 * when it does not. Static files: a versioned address (?v=) from the cache first; the
 * others network first as the pages. What the judge does offline is not here: the pages'
 * own scripts keep it in IndexedDB (queue.js) and send it when the network returns.
 */
'use strict';
var PAGES = 'mafiatab-pages-1';
var STATIC = 'mafiatab-static-1';
var KEPT = [PAGES, STATIC];
var ASSETS = ['/static/style.css', '/static/live.css', '/static/live.js', '/static/protocol.js',
  '/static/htmx.min.js', '/static/push.js', '/static/queue.js', '/static/offline.js',
  '/static/form-queue.js', '/static/conflict.js', '/static/offline.css', '/static/icon.svg'];
/* the judge's own pages: his tables, a game's protocol form and live screen (only a 200
 * answer is kept: anybody else gets 403, a signed-out phone a redirect) */
var JUDGE_PAGES = [/^\/$/, /^\/t\/\d+\/judge$/, /^\/t\/\d+\/games\/[^/]+\/(live|edit)$/];
/* the pure core's source the phone's course engine runs (web/course_files.py) */
var COURSE_CORE = /^\/course\/mafiatab-[0-9a-f]+\.zip$/;

function judgePage(url) {
  return JUDGE_PAGES.some(function (re) { return re.test(url.pathname); });
}

self.addEventListener('install', function (event) {
  event.waitUntil(caches.open(STATIC).then(function (c) {
    return Promise.all(ASSETS.map(function (a) {
      return c.add(a).catch(function () { /* one missing file does not stop the rest */ });
    }));
  }).then(function () { return self.skipWaiting(); }));
});

self.addEventListener('activate', function (event) {
  event.waitUntil(caches.keys().then(function (names) {
    return Promise.all(names.filter(function (n) {
      return n.indexOf('mafiatab-') === 0 && KEPT.indexOf(n) < 0;
    }).map(function (n) { return caches.delete(n); }));
  }).then(function () { return self.clients.claim(); }));
});

function keep(cacheName, request, response) {
  if (response && response.status === 200 && !response.redirected && response.type === 'basic') {
    var copy = response.clone();
    caches.open(cacheName).then(function (c) { return c.put(request, copy); });
  }
  return response;
}

function networkFirst(request, cacheName) {
  // the network's answer whenever there is one (a slow one too: a kept copy must never
  // stand in for a page the server has changed); the kept copy only without a network
  return fetch(request).then(function (response) {
    return keep(cacheName, request, response);
  }, function (err) {
    return caches.match(request, {ignoreVary: true}).then(function (hit) {
      if (hit) { return hit; }
      throw err;
    });
  });
}

function cacheFirst(request) {
  return caches.match(request).then(function (hit) {
    return hit || fetch(request).then(function (r) { return keep(STATIC, request, r); });
  });
}

self.addEventListener('fetch', function (event) {
  var request = event.request;
  if (request.method !== 'GET') { return; }
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) { return; }
  if (url.pathname.indexOf('/static/') === 0) {
    event.respondWith(url.searchParams.has('v') ? cacheFirst(request) : networkFirst(request, STATIC));
    return;
  }
  // the game's course engine (course.js): its worker, and the pure core's source, whose
  // address names its hash (so kept for good); the runtime is under /static/pyodide/
  if (COURSE_CORE.test(url.pathname)) {
    event.respondWith(cacheFirst(request));
    return;
  }
  if (url.pathname === '/course/worker.js') {
    event.respondWith(networkFirst(request, STATIC));
    return;
  }
  if (request.mode === 'navigate' && judgePage(url) && !url.search) {
    event.respondWith(networkFirst(request, PAGES));
  }
});

/* the files the live screen's course engine needs (GET /course/files.json lists them),
 * kept with the judge's pages so that his live screen computes the game's course offline
 * even if it was never opened online; those kept already are not fetched again */
function keepCourse() {
  return fetch('/course/files.json', {credentials: 'same-origin'}).then(function (r) {
    return r.ok ? r.json() : {files: []};
  }).then(function (data) {
    return caches.open(STATIC).then(function (c) {
      return Promise.all((data.files || []).slice(0, 40).map(function (f) {
        return c.match(f).then(function (hit) {
          return hit || c.add(f).catch(function () { return null; });
        });
      }));
    });
  }).catch(function () { return null; });
}

self.addEventListener('message', function (event) {
  var data = event.data || {};
  if (data.type === 'logout') {
    // signing out: nothing of the account stays on the phone's caches
    event.waitUntil(caches.delete(PAGES).then(function () {
      if (event.source) { event.source.postMessage({type: 'logged-out'}); }
    }));
  } else if (data.type === 'keep' && Array.isArray(data.urls)) {
    // the judge's tables page names his games' pages: kept before the network goes
    event.waitUntil(caches.open(PAGES).then(function (c) {
      return Promise.all(data.urls.slice(0, 60).map(function (u) {
        var url = new URL(u, self.location.origin);
        if (url.origin !== self.location.origin || !judgePage(url)) { return null; }
        return fetch(url.href, {credentials: 'same-origin'}).then(function (r) {
          if (r.status === 200 && !r.redirected) { return c.put(url.href, r); }
          return null;
        }).catch(function () { return null; });
      }));
    }).then(function () {
      if (event.source) { event.source.postMessage({type: 'kept'}); }
      return keepCourse();  // megabytes: after the pages, which the judge needs first
    }));
  }
});
