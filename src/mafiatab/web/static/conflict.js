/* The conflict screen, the protocol form's and the live screen's: while the judge's work
 * waited on the phone, somebody else (the head judge, the judge's other phone) saved the
 * same game. Nothing is overwritten: both versions side by side, and the judge chooses.
 *
 *   mafiatabConflict({title, text, mineTitle, theirsTitle, keepMine, takeTheirs,
 *                     onKeepMine, onTakeTheirs, rows: [{label, mine, theirs}]
 *                     | lists: {mine: [text], theirs: [{text, fresh}]}, freshWord})
 *   -> the element to put on the page (id "conflict")
 */
(function () {
  'use strict';
  function h(tag, attrs, kids) {
    var el = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) {
      if (k === 'text') { el.textContent = attrs.text; } else { el.setAttribute(k, attrs[k]); }
    });
    (kids || []).forEach(function (c) { if (c) { el.appendChild(c); } });
    return el;
  }
  function button(text, id, cls, on) {
    var b = h('button', {type: 'button', id: id, 'class': cls, text: text});
    b.addEventListener('click', function () {
      Array.prototype.forEach.call(b.parentNode.querySelectorAll('button'), function (x) { x.disabled = true; });
      on();
    });
    return b;
  }
  window.mafiatabConflict = function (o) {
    var body;
    if (o.rows) {
      body = h('table', {'class': 'cf-table', id: 'cf-table'}, [
        h('thead', null, [h('tr', null, [h('th', {text: o.fieldTitle || ''}),
          h('th', {'class': 'cf-mine', text: o.mineTitle}), h('th', {'class': 'cf-theirs', text: o.theirsTitle})])]),
        h('tbody', null, o.rows.map(function (r) {
          return h('tr', {'data-field': r.name || ''}, [h('th', {scope: 'row', text: r.label}),
            h('td', {'class': 'cf-mine', text: r.mine}), h('td', {'class': 'cf-theirs', text: r.theirs})]);
        }))]);
    } else {
      var mine = h('ol', {'class': 'cf-list', id: 'cf-mine'}, o.lists.mine.map(function (t) { return h('li', {text: t}); }));
      var theirs = h('ol', {'class': 'cf-list', id: 'cf-theirs'}, o.lists.theirs.map(function (e) {
        return h('li', {'class': e.fresh ? 'cf-fresh' : '', text: e.text + (e.fresh && o.freshWord ? ' — ' + o.freshWord : '')});
      }));
      body = h('div', {'class': 'cf-sides'}, [
        h('div', {'class': 'cf-side cf-mine'}, [h('h3', {text: o.mineTitle}), mine]),
        h('div', {'class': 'cf-side cf-theirs'}, [h('h3', {text: o.theirsTitle}), theirs])]);
    }
    return h('section', {'class': 'cf', id: 'conflict', role: 'alertdialog'}, [
      h('h2', {text: o.title}), h('p', {'class': 'cf-text', text: o.text}), body,
      h('div', {'class': 'cf-choose'}, [button(o.keepMine, 'cf-keep-mine', '', o.onKeepMine),
        button(o.takeTheirs, 'cf-take-theirs', 'sec', o.onTakeTheirs)])]);
  };
}());
