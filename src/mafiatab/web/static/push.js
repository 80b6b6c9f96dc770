/* Pushed updates (server-sent events) with polling as the fallback.

   mafiatabPush(url, onData, opts) opens an EventSource on `url` and calls onData(text)
   with every "update" event. The browser reconnects a dropped stream by itself (the
   server's `retry`); a stream the server refused (403, 404) is tried again every 15 s.
   While the stream is down, `opts.poll` (a URL) is fetched every `opts.every` ms and its
   body handed to onData, so a screen never freezes. "gone": access was revoked.

   An element with data-push="URL" (the public standings) is filled with the pushed HTML;
   the event "reread" means "re-read it yourself" (staff), done through the element's own
   htmx request. Its htmx poll is held back while the stream is up. */
(function () {
  "use strict";

  function mafiatabPush(url, onData, opts) {
    opts = opts || {};
    var state = { up: false, source: null, closed: false };
    function open() {
      if (!window.EventSource || state.closed) { return; }
      var es = new EventSource(url);
      state.source = es;
      es.onopen = function () { state.up = true; document.documentElement.dataset.push = "up"; };
      es.onerror = function () {
        state.up = false;
        document.documentElement.dataset.push = "down";
        if (es.readyState === 2) {  // refused: the browser will not retry by itself
          setTimeout(open, 15000);
        }
      };
      es.addEventListener("update", function (e) { state.up = true; onData(e.data); });
      es.addEventListener("gone", function () {
        es.close(); state.up = false; state.closed = true;
        if (opts.onGone) { opts.onGone(); }
      });
    }
    open();
    if (opts.poll) {
      setInterval(function () {
        if (state.up || state.closed) { return; }
        fetch(opts.poll, { credentials: "same-origin", cache: "no-store" })
          .then(function (r) { return r.ok ? r.text() : null; })
          .then(function (t) { if (t !== null) { onData(t); } })
          .catch(function () { /* offline: the next tick tries again */ });
      }, opts.every || 5000);
    }
    return state;
  }
  window.mafiatabPush = mafiatabPush;

  function wire(el) {
    var state;
    var reread = false;
    el.addEventListener("htmx:beforeRequest", function (e) {
      if (state && state.up && !reread) { e.preventDefault(); }
      reread = false;
    });
    state = mafiatabPush(el.getAttribute("data-push"), function (html) {
      if (html && html !== "reread") {
        el.innerHTML = html;
        el.dispatchEvent(new CustomEvent("mafiatab:pushed", { bubbles: true }));
      } else if (window.htmx && el.getAttribute("hx-get")) {
        reread = true;
        window.htmx.ajax("GET", el.getAttribute("hx-get"), { target: el, swap: "innerHTML" });
      }
    });
  }
  document.addEventListener("DOMContentLoaded", function () {
    var els = document.querySelectorAll("[data-push]");
    for (var i = 0; i < els.length; i++) { wire(els[i]); }
  });
})();
