/* Scorebook at the table, offline: what a waiting deal adds to the score.
 *
 * The server writes beside the quick form the engine's description of how an ordinary
 * deal counts (scorebook/rules/table.py's Tally, as scorebook/web/offline_checks.py's
 * "tally"): each scorer's pile in thirds, three to the point, rounded as the house rules
 * say, and the last trick's point. A deal that names anything else (a declaration, a
 * sweep, a claim), or whose piles make an event the engine scores (a side below a point,
 * one with all the points), is not counted here: adds() says null and the phone says the
 * deal is not counted yet. No game key and no rule of a game here: only the description.
 *
 * adds(tally, posted): posted is the deal as the form posts it (URLSearchParams, or any
 * object with get(name)); the result maps each scorer to its points, or null. queue.js
 * keeps it with the waiting deal (entry.adds) and, on the deal form and the match page,
 * shows the score with the waiting deals added and marked "not sent yet" (form, board);
 * a deal it could not count is said "not counted yet", never given a number. The match
 * page's "leading" mark follows the score shown (leader(): the one scorer ahead of all
 * the others, as scorebook/web/scores.py's scoreboard marks it), and is the server's again
 * when no waiting deal is counted; a finished match keeps its winners.
 */
(function (root) {
  "use strict";
  var ROUNDINGS = ["floor_per_scorer", "remainder_to_last_trick", "round_two_thirds_up"];

  // Points as the server's form reads them (deal_forms/reading.py's _POINTS): "6" with
  // the figures chip 2, or "6 e 2" typed, are 20 thirds; anything else: null.
  var POINTS = /^(\d{1,3})(?:\s*(?:e|and|\+|,|\.|\s)\s*([0-2]))?$/;
  function thirdsOf(posted, pile) {
    var lead = POINTS.exec(String(posted.get(pile.name) || "").trim().toLowerCase());
    if (!lead) return null;
    var figures = posted.get(pile.figures) || "";
    figures = lead[2] || (/^[0-2]$/.test(figures) ? figures : "0");
    return parseInt(lead[1], 10) * 3 + parseInt(figures, 10);
  }

  function adds(tally, posted) {
    if (!tally || !posted || ROUNDINGS.indexOf(tally.rounding) === -1) return null;
    var i, blank = tally.blank || [];
    for (i = 0; i < blank.length; i++) {
      var value = posted.get(blank[i]);
      if (value !== null && value !== undefined && String(value).trim() !== "") return null;
    }
    var last = posted.get(tally.last) || "";
    var thirds = {}, typed = 0, piles = [];
    for (i = 0; i < tally.piles.length; i++) {
      var th = thirdsOf(posted, tally.piles[i]);
      if (th === null) return null;
      piles.push(th);
    }
    // Where the score reads whole points only, the points the figures left over lost in
    // all are figures of the typed piles, two each at most, as the server reads them.
    var lost = tally.lost ? String(posted.get(tally.lost) || "") : "";
    var need = /^[0-9]+$/.test(lost) ? 3 * parseInt(lost, 10) : 0;
    for (i = 0; i < piles.length; i++) {
      var more = Math.min(2 - piles[i] % 3, need);
      piles[i] += more;
      need -= more;
      thirds[tally.piles[i].scorer] = piles[i];
      typed += piles[i];
    }
    if (tally.rest) thirds[tally.rest.scorer] = tally.whole - typed;
    if (!Object.prototype.hasOwnProperty.call(thirds, last)) return null;
    var out = {}, scorer;
    for (scorer in thirds) {
      var t = thirds[scorer];
      if (t < (tally.least || 0) || t > tally.whole) return null;
      var whole = Math.floor(t / 3);
      if (tally.rounding === "round_two_thirds_up" && t % 3 === 2) whole += 1;
      out[scorer] = whole + (scorer === last ? tally.last_trick : 0);
    }
    if (tally.rounding === "remainder_to_last_trick") {
      var others = 0;
      for (scorer in out) if (scorer !== last) others += out[scorer];
      out[last] = tally.points - others;
    }
    if (tally.sweep_event) {
      for (scorer in out) if (out[scorer] >= tally.points) return null;
    }
    return out;
  }

  /* -- the score shown, with the waiting deals ---------------------------------------- */
  function number(n) { return n < 0 ? "\u2212" + Math.abs(n) : String(n); }
  function signed(n) { return n > 0 ? "+" + n : number(n); }
  function count(n, one, many) { return n === 1 ? one : many.replace(/\bN\b/, n); }

  function line(adds, names) {
    // What a waiting deal adds, every scorer's points: "Nino & Salvo +7 · Ettore & Walter +4".
    return names.filter(function (p) { return Object.prototype.hasOwnProperty.call(adds, p[0]); })
      .map(function (p) { return p[1] + " " + signed(adds[p[0]]); }).join(" · ");
  }

  function waiting(all, match) {
    // The match's deals not sent yet, in order; a deal the server refused is not in it.
    return all.filter(function (e) { return String(e.match) === String(match) && !e.kind; });
  }

  function show(cells, base, all, match, note, words) {
    // cells: [element, scorer, the server's total, the element whose text is the number].
    var mine = waiting(all, match), sums = {}, counted = 0, uncounted = 0;
    mine.forEach(function (e) {
      if (!e.adds) { uncounted++; return; }
      counted++;
      for (var s in e.adds) sums[s] = (sums[s] || 0) + e.adds[s];
    });
    var shown = [];
    cells.forEach(function (c) {
      var added = counted && Object.prototype.hasOwnProperty.call(sums, c[1]);
      var total = c[2] + (added ? sums[c[1]] : 0);
      shown.push([c[1], total]);
      c[3].textContent = number(total);
      c[0].classList.toggle("has-unsent", !!added);
    });
    if (base) base.classList.toggle("with-unsent", counted > 0);
    if (note) say(note, counted, uncounted, words);
    return {counted: counted, shown: shown};
  }

  function say(note, counted, uncounted, words) {
    var said = [];
    if (counted) said.push("* " + count(counted, words.countedOne || "In the score: 1 deal not sent yet.",
      words.countedMany || "In the score: N deals not sent yet."));
    if (uncounted) said.push(count(uncounted, words.uncountedOne || "1 deal not counted yet: its points come when it is sent.",
      words.uncountedMany || "N deals not counted yet: their points come when they are sent."));
    note.textContent = said.join(" ");
    note.hidden = !said.length;
  }

  function form(all, match, words, keepShown) {
    // The deal form's score line: the server's totals plus what the waiting deals add,
    // each number they change marked; a note under it says how many, and how many the
    // phone cannot count. keepShown: the queue was just sent, the server's score is on
    // its way (the numbers stay until it comes).
    var row = document.querySelector("p.scoreline");
    if (!row) return;
    var spans = row.querySelectorAll("span[data-scorer]");
    var note = document.getElementById("queue-score");
    if (!note) {
      note = document.createElement("p");
      note.id = "queue-score";
      note.className = "queue-note";
      note.hidden = true;
      row.parentNode.insertBefore(note, row.nextSibling);
    }
    if (keepShown && !waiting(all, match).length) return;
    var cells = Array.prototype.map.call(spans, function (el) {
      return [el, el.dataset.scorer, parseInt(el.dataset.total, 10) || 0, el.querySelector("strong") || el];
    });
    show(cells, row, all, match, note, words);
  }

  function leader(totals) {
    // totals: [[scorer, points], ...] as shown. The scorer ahead of every other, or null
    // (a tie for the top, a single scorer): scores.py's scoreboard, the same rule.
    var top = null, ahead = [], behind = false;
    totals.forEach(function (t) {
      if (top === null || t[1] > top) { if (top !== null) behind = true; top = t[1]; ahead = [t[0]]; }
      else if (t[1] === top) ahead.push(t[0]);
      else behind = true;
    });
    return ahead.length === 1 && behind ? ahead[0] : null;
  }

  function board(all, match, note, words) {
    // The match page's scoreboard, as the form's score line; its "leading" mark follows
    // the score shown (the server's own mark again when no waiting deal is counted).
    var box = document.querySelector(".scoreboard");
    if (!box) return;
    var cells = Array.prototype.map.call(box.querySelectorAll(".score[data-scorer]"), function (el) {
      return [el, el.dataset.scorer, parseInt(el.dataset.points, 10) || 0, el.querySelector(".points") || el];
    });
    var done = show(cells, box, all, match, note, words);
    if (box.querySelector(".score[data-won]")) return; // a finished match: its winners
    var first = done.counted ? leader(done.shown) : null;
    cells.forEach(function (c) {
      var on = done.counted ? c[1] === first : c[0].hasAttribute("data-leading");
      c[0].classList.toggle("leading", on);
      var help = c[0].querySelector(".help");
      if (help) help.textContent = on ? (box.dataset.leadingWord || "leading") : "\u00a0";
    });
  }

  function names(selector) {
    // [scorer, names] as the page writes them (the score line's or the scoreboard's).
    return Array.prototype.map.call(document.querySelectorAll(selector), function (el) {
      return [el.dataset.scorer, el.dataset.who || el.dataset.scorer];
    });
  }

  var api = {adds: adds, line: line, form: form, board: board, names: names, leader: leader};
  if (typeof module !== "undefined" && module.exports) module.exports = api;
  else root.ScorebookTally = api;
})(this);
