/* The stream overlay: draws the state the server sends (ScreenService.overlay_state with
   its words). It knows no rule and no role the server did not send: before the head
   judge's delay the state simply has none. Parts the operator switched off are not drawn. */
(function () {
  "use strict";
  var boot = JSON.parse(document.getElementById("ov-boot").textContent);
  var parts = {};
  boot.parts.forEach(function (p) { parts[p] = true; });
  var W = boot.words;

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) { e.className = cls; }
    if (text !== undefined && text !== null) { e.textContent = String(text); }
    return e;
  }
  function fmt(s, vals) {
    return s.replace(/\{(\w+)\}/g, function (_m, k) { return vals[k] !== undefined ? vals[k] : ""; });
  }
  function show(id, on) { document.getElementById(id).classList.toggle("ov-hidden", !on); }
  function clear(id) { var e = document.getElementById(id); e.textContent = ""; return e; }

  function header(st) {
    var h = clear("ov-header");
    show("ov-header", !!parts.header);
    var line = el("div");
    line.appendChild(el("b", null, fmt(W.table, { table: st.table })));
    line.appendChild(document.createTextNode(" · " + st.stage + ", " + fmt(W.round, { round: st.round })));
    if (st.phase_text) { line.appendChild(document.createTextNode(" · " + st.phase_text)); }
    if (parts.timer && st.time) { line.appendChild(el("span", "ov-time", st.time)); }
    h.appendChild(line);
    if (parts.roles && st.dealt && !st.roles_shown) {
      var when = W.roles_hidden;
      if (st.reveal_at) {
        var d = new Date(st.reveal_at);
        var hh = ("0" + d.getHours()).slice(-2), mm = ("0" + d.getMinutes()).slice(-2);
        when = fmt(W.roles_at, { time: hh + ":" + mm });
      }
      h.appendChild(el("div", "ov-note", when));
    }
    if (!st.dealt) { h.appendChild(el("div", "ov-note", W.not_dealt)); }
  }

  // the page's own overlay key goes with each photo's address (one render serves all)
  var key = new URLSearchParams(location.search).get("key");
  function photo(s) {
    var box = el("div", "ov-photo");
    if (s.photo) {
      var img = el("img");
      img.alt = "";
      img.src = s.photo + (key ? "&key=" + encodeURIComponent(key) : "");
      img.onerror = function () { box.classList.add("none"); img.remove(); };
      box.appendChild(img);
    } else {
      box.classList.add("none");  // the placeholder: the nickname's first letter
      box.appendChild(el("span", null, (s.name || "?").trim().charAt(0).toUpperCase()));
    }
    return box;
  }

  function seats(st) {
    var box = clear("ov-seats");
    show("ov-seats", !!parts.seats);
    st.seats.forEach(function (s) {
      var c = el("div", "ov-seat");
      c.id = "ov-seat-" + s.seat;
      if (s.out && parts.out) { c.classList.add("out"); }
      if (s.speaking) { c.classList.add("speaking"); }
      if (s.nominated && parts.nominations) { c.classList.add("nominated"); }
      if (parts.photos) { c.appendChild(photo(s)); }
      c.appendChild(el("span", "ov-no", s.seat));
      if (parts.names) { c.appendChild(el("span", "ov-name", s.name)); }
      if (parts.fouls && s.fouls) {
        var f = el("span", "ov-fouls");
        f.title = s.fouls + " " + W.fouls;
        for (var i = 0; i < s.fouls; i++) { f.appendChild(el("i")); }
        c.appendChild(f);
      }
      if (parts.roles && s.role) {
        var r = el("span", "ov-role " + s.role, s.role_text);
        r.id = "ov-role-" + s.seat;
        c.appendChild(r);
      }
      if (parts.out && s.out_text) { c.appendChild(el("span", "ov-out", s.out_text)); }
      box.appendChild(c);
    });
  }

  function side(st) {
    var nom = clear("ov-nominations");
    show("ov-nominations", !!parts.nominations);
    if (st.nominations.length) {
      nom.appendChild(el("h3", null, W.nominated));
      nom.appendChild(el("div", null, st.nominations.join(", ")));
    }
    var vote = clear("ov-vote");
    show("ov-vote", !!parts.vote);
    if (st.vote) {
      vote.appendChild(el("h3", null, W.vote));
      var counts = st.vote.counts, max = 1;
      Object.keys(counts).forEach(function (k) { max = Math.max(max, counts[k]); });
      Object.keys(counts).forEach(function (k) {
        var row = el("div", "ov-bar");
        row.appendChild(el("b", null, k));
        var bar = el("i");
        bar.style.width = (counts[k] / max * 300) + "px";
        row.appendChild(bar);
        row.appendChild(el("span", null, counts[k]));
        vote.appendChild(row);
      });
      if (st.lift !== null && st.lift !== undefined) {
        vote.appendChild(el("div", null, fmt(W.lift, { n: st.lift })));
      }
    }
    var checks = clear("ov-checks");
    show("ov-checks", !!(parts.checks && parts.roles));
    if (st.checks.length) {
      checks.appendChild(el("h3", null, W.checks));
      st.checks.forEach(function (c) { checks.appendChild(el("div", null, c.text)); });
    }
    var best = clear("ov-best");
    show("ov-best", !!parts.best_move);
    if (st.best_move) {
      best.appendChild(el("h3", null, W.best_move));
      best.appendChild(el("div", null, st.best_move.seat + " → " + st.best_move.seats.join(", ")));
    }
  }

  function result(st) {
    var r = clear("ov-result");
    show("ov-result", !!parts.result);
    r.className = "ov-part ov-result" + (st.result ? " " + st.result : "") + (parts.result ? "" : " ov-hidden");
    if (st.result_text) { r.textContent = st.result_text; }
  }

  function draw(st) {
    header(st); seats(st); side(st); result(st);
    document.body.dataset.revision = st.revision;
    document.body.dataset.roles = st.roles_shown ? "shown" : "hidden";
  }

  draw(boot.state);
  window.mafiatabPush(boot.events, function (text) {
    try { draw(JSON.parse(text)); } catch (e) { /* a broken event: keep the last state */ }
  }, { poll: boot.poll, every: 3000, onGone: function () {
    document.body.textContent = "";
  } });
})();
