/* The installable app on a signed-in phone: registers the service worker (sw.js, scope:
 * the whole site), asks it to keep the judge's games' pages when his tables page is open
 * (links marked data-keep), and empties its caches when he signs out. */
(function () {
  'use strict';
  if (!('serviceWorker' in navigator)) { return; }
  function keepTables(reg) {
    var urls = Array.prototype.map.call(document.querySelectorAll('a[data-keep]'), function (a) {
      return a.getAttribute('href');
    });
    var worker = navigator.serviceWorker.controller || (reg && reg.active);
    if (urls.length && worker) { worker.postMessage({type: 'keep', urls: urls}); }
  }
  navigator.serviceWorker.register('/sw.js', {scope: '/'}).then(function () {
    return navigator.serviceWorker.ready;
  }).then(function (reg) {
    document.documentElement.setAttribute('data-sw', 'ready');
    keepTables(reg);
  }).catch(function () { /* no worker: the pages still work online */ });
  navigator.serviceWorker.addEventListener('message', function (e) {
    if (e.data && e.data.type === 'kept') { document.documentElement.setAttribute('data-kept', 'yes'); }
  });
  // signing out: the kept pages go before the session does
  document.addEventListener('submit', function (e) {
    var form = e.target;
    var action = form.getAttribute && form.getAttribute('action');
    if (action !== '/logout' && action !== '/logout/everywhere') { return; }
    if (form.getAttribute('data-cleared')) { return; }
    e.preventDefault();
    var worker = navigator.serviceWorker.controller;
    if (worker) { worker.postMessage({type: 'logout'}); }
    var clear = window.caches ? caches.keys().then(function (names) {
      return Promise.all(names.filter(function (n) { return n.indexOf('mafiatab-pages') === 0; })
        .map(function (n) { return caches.delete(n); }));
    }) : Promise.resolve();
    clear.catch(function () { /* nothing kept */ }).then(function () {
      form.setAttribute('data-cleared', '1');
      form.submit();
    });
  }, true);
}());
