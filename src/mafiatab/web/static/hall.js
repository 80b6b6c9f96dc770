/* The hall's TV: draws the pushed state and pages through what does not fit, each list
   by itself every `page_seconds`: as many standings rows as the screen holds, then the
   next ones; two tables of the next round's seating at a time. Announcements take turns
   in the footer. Everything is drawn from the state the server sends. */
(function () {
  "use strict";
  var boot = JSON.parse(document.getElementById("hall-boot").textContent);
  var W = boot.words;
  var state = boot.state;
  var page = { rows: 0, tables: 0, news: 0 };

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) { e.className = cls; }
    if (text !== undefined && text !== null) { e.textContent = String(text); }
    return e;
  }
  function fmt(s, v) { return s.replace(/\{(\w+)\}/g, function (_m, k) { return v[k]; }); }

  function columns() {
    if (state.extras_hidden) {
      return [["name", W.player, ""], ["games", W.games, "n"], ["wins", W.wins, "n"], ["main", W.main, "n"]];
    }
    return [["place", W.place, "n"], ["name", W.player, ""], ["total", W.total, "n"],
            ["games", W.games, "n"], ["wins", W.wins, "n"]];
  }

  function rowsPerPage() {
    var sec = document.getElementById("hall-standings");
    var table = document.getElementById("hall-table");
    var probe = table.querySelector("tr.r");
    var head = table.querySelector("tr");
    if (!probe) { return 12; }
    var free = sec.clientHeight - table.offsetTop + sec.offsetTop - (head ? head.offsetHeight : 0) -
      document.getElementById("hall-st-page").offsetHeight - 8;
    return Math.max(3, Math.floor(free / probe.offsetHeight));
  }

  function drawStandings() {
    var table = document.getElementById("hall-table");
    var pager = document.getElementById("hall-st-page");
    table.textContent = "";
    pager.textContent = "";
    document.getElementById("hall-st-title").textContent = W.standings;
    var sec = document.getElementById("hall-standings");
    var old = sec.querySelector(".msg");
    if (old) { old.remove(); }
    if (state.rows === null) {
      sec.insertBefore(el("p", "msg", W.hidden), table);
      return;
    }
    var cols = columns();
    var head = el("tr");
    cols.forEach(function (c) { head.appendChild(el("th", c[2], c[1])); });
    table.appendChild(head);
    function add(r) {
      var tr = el("tr", "r");
      cols.forEach(function (c) { tr.appendChild(el("td", c[0] === "name" ? "name" : c[2], r[c[0]])); });
      table.appendChild(tr);
    }
    if (!state.rows.length) { return; }
    add(state.rows[0]);  // measure one row, then lay out the page
    var per = rowsPerPage();
    var pages = Math.max(1, Math.ceil(state.rows.length / per));
    if (page.rows >= pages) { page.rows = 0; }
    table.removeChild(table.querySelector("tr.r"));
    state.rows.slice(page.rows * per, page.rows * per + per).forEach(add);
    table.dataset.page = page.rows + 1;
    table.dataset.pages = pages;
    if (pages > 1) { pager.textContent = fmt(W.page, { n: page.rows + 1, m: pages }); }
  }

  function drawSeating() {
    var box = document.getElementById("hall-tables");
    var pager = document.getElementById("hall-se-page");
    box.textContent = "";
    pager.textContent = "";
    document.getElementById("hall-se-title").textContent =
      W.seating + (state.next ? ": " + state.next : "");
    if (!state.tables.length) { box.appendChild(el("p", "msg", W.no_seating)); return; }
    var per = 2;
    var pages = Math.ceil(state.tables.length / per);
    if (page.tables >= pages) { page.tables = 0; }
    state.tables.slice(page.tables * per, page.tables * per + per).forEach(function (t) {
      var card = el("div", "tbl");
      card.id = "hall-tbl-" + t.table;
      card.appendChild(el("h3", null, t.title));
      var ol = el("ol");
      t.seats.forEach(function (s) {
        var li = el("li");
        li.appendChild(el("b", null, s[0]));
        li.appendChild(document.createTextNode(s[1]));
        ol.appendChild(li);
      });
      card.appendChild(ol);
      box.appendChild(card);
    });
    box.dataset.page = page.tables + 1;
    box.dataset.pages = pages;
    if (pages > 1) { pager.textContent = fmt(W.page, { n: page.tables + 1, m: pages }); }
  }

  function drawNews() {
    var f = document.getElementById("hall-news");
    var list = state.announcements;
    f.textContent = "";
    if (!list.length) { return; }
    if (page.news >= list.length) { page.news = 0; }
    f.textContent = list[page.news];
  }

  function draw() {
    document.getElementById("hall-title").textContent = state.tournament;
    document.getElementById("hall-sub").textContent = state.title;
    drawNews(); drawStandings(); drawSeating();
  }

  draw();
  window.addEventListener("resize", draw);
  setInterval(function () {
    page.rows += 1; page.tables += 1; page.news += 1;
    draw();
  }, boot.page_seconds * 1000);
  window.mafiatabPush(boot.events, function (text) {
    try { state = JSON.parse(text); draw(); } catch (e) { /* keep the last state */ }
  }, { poll: boot.poll, every: 5000 });
})();
