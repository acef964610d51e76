/* Scorebook at the table: nothing typed is lost, nothing is entered twice, and a Wi-Fi
 * outage does not stop the night.
 *
 * - Drafts: every deal form (data-draft) is kept in localStorage as it is typed, with its
 *   Idempotency-Key (made here, in the browser), and restored after a reload.
 * - Queue: a save (form data-queue) goes into a queue in IndexedDB first, with its key and
 *   expected deal number, then is sent. Without a connection it waits ("1 deal waiting to
 *   be sent"), survives closing the browser, and is sent when the connection returns (the
 *   online event, a retry every few seconds, every page): in order, the same key every
 *   time, so the server stores it once and replays its answer.
 * - A save answered at once with a refusal (the engine's, another phone's deal) is never
 *   queued: the server's page replaces the main part, the typed values in it (and in the
 *   draft, so a reload keeps them). One deal number has one save in the queue: a new
 *   save of that number replaces the one waiting.
 * - A waiting deal refused when it is sent later (the server says why in Refusal-Codes:
 *   a closed night, a finished match, another phone's deal of that number, the rules)
 *   is kept, marked, and shown one at a time in words with the choices that make sense:
 *   discard it, keep the stored one, correct the stored one with it (with a reason), put
 *   it right. The match's later deals wait behind it until the choice; nothing stays
 *   stuck without a way on.
 * - Offline: the service worker (/sw.js, registered here) keeps the match page and the
 *   next deal's form. A form opened while deals wait takes the number after them (the
 *   server marks what carries the number: data-numbered; and what holds only for the
 *   number it rendered: data-this-deal). Offline, the form checks its shape from the
 *   engine's description the server writes beside it (#offline-checks); a deal refused
 *   by it is not queued. No rules here: the server's engine judges.
 * - The score, offline: the deal form and the match page add the waiting deals to the
 *   server's score, marked "not sent yet" (tally.js: what a deal adds, from the same
 *   description; a deal it cannot count is "not counted yet"). When the match's queue is
 *   empty the open form's score, dealer and number catch up in place.
 */
(function () {
  "use strict";
  var script = document.currentScript;
  var words = (script && script.dataset) || {};
  var OLD_QUEUE = "sb:queue";
  var sending = null; // the flush under way (a promise), or null
  // A send the server has not answered in this long is given up (and sent again later
  // with the same Idempotency-Key, which the server answers once): a request that hangs
  // on a bad network must not hold the whole queue. A test may shorten it.
  var SEND_TIMEOUT = window.ScorebookSendTimeout || 20000;
  var catching = false; // the queue was just sent: the form's score is the server's next
  var tallies = window.ScorebookTally || null; // tally.js: what a waiting deal adds
  var follow = null; // the key of the save this page made: its success opens its page

  function uuid4() {
    var b = new Uint8Array(16);
    crypto.getRandomValues(b);
    b[6] = (b[6] & 0x0f) | 0x40;
    b[8] = (b[8] & 0x3f) | 0x80;
    var h = Array.prototype.map.call(b, function (x) { return (x + 0x100).toString(16).slice(1); }).join("");
    return h.slice(0, 8) + "-" + h.slice(8, 12) + "-" + h.slice(12, 16) + "-" + h.slice(16, 20) + "-" + h.slice(20);
  }
  function load(key, fallback) {
    try { var v = JSON.parse(localStorage.getItem(key)); return v === null ? fallback : v; }
    catch (e) { return fallback; }
  }
  function save(key, value) {
    // false when the storage is full or refused: the queue's own write must know it.
    try { localStorage.setItem(key, JSON.stringify(value)); return true; } catch (e) { return false; }
  }
  function each(list, fn) { Array.prototype.forEach.call(list, fn); }

  /* -- the queue's store: IndexedDB (localStorage where there is none) ----------------- */
  var opened = null;
  function db() {
    if (!opened) {
      opened = new Promise(function (resolve) {
        if (!window.indexedDB) { resolve(null); return; }
        var req = indexedDB.open("scorebook", 1);
        req.onupgradeneeded = function () { req.result.createObjectStore("queue", {keyPath: "key"}); };
        req.onsuccess = function () { resolve(req.result); };
        req.onerror = function () { resolve(null); };
      });
    }
    return opened;
  }
  function tx(mode, fn) {
    return db().then(function (d) {
      if (!d) { var o = fn(null); return o && "result" in o ? o.result : undefined; }
      return new Promise(function (resolve, reject) {
        var t = d.transaction("queue", mode);
        var out = fn(t.objectStore("queue"));
        t.oncomplete = function () { resolve(out && "result" in out ? out.result : undefined); };
        t.onerror = t.onabort = function () { reject(t.error); };
      });
    });
  }
  function entries() {
    return tx("readonly", function (store) {
      return store ? store.getAll() : {result: load(OLD_QUEUE, [])};
    }).then(function (all) {
      // This user's saves only: on a phone passed around the table, another player's
      // waiting deals stay on it (untouched, not sent as this one) until they sign in.
      return (all || []).filter(function (e) {
        return !e.user || !words.user || String(e.user) === words.user;
      }).sort(function (a, b) { return a.at - b.at; });
    });
  }
  function put(entry) {
    return tx("readwrite", function (store) {
      if (store) { store.put(entry); return null; }
      if (!save(OLD_QUEUE, load(OLD_QUEUE, []).filter(function (e) { return e.key !== entry.key; }).concat([entry]))) {
        throw new Error("the phone's storage refused the deal");
      }
      return null;
    });
  }
  function remove(key) {
    return tx("readwrite", function (store) {
      if (store) { store.delete(key); return null; }
      save(OLD_QUEUE, load(OLD_QUEUE, []).filter(function (e) { return e.key !== key; }));
      return null;
    });
  }
  function migrate() {
    // Saves queued by the earlier page script, in localStorage: into IndexedDB, in order.
    return db().then(function (d) {
      var old = load(OLD_QUEUE, []);
      if (!d || !old.length) return;
      return Promise.all(old.map(function (e) {
        var parts = (e.draft || "").split(":");
        e.match = e.match || parts[1] || "";
        e.number = e.number || parseInt(parts[2], 10) || 0;
        return put(e);
      })).then(function () { localStorage.removeItem(OLD_QUEUE); });
    });
  }

  /* -- drafts ---------------------------------------------------------------------- */
  function fields(form) {
    var out = [];
    new FormData(form).forEach(function (value, name) {
      if (typeof value === "string" && name !== "csrfmiddlewaretoken") out.push([name, value]);
    });
    return out;
  }
  function keep(form) {
    if (form.dataset.draft) save("sb:draft:" + form.dataset.draft, fields(form));
  }
  function restore(form) {
    var key = form.querySelector("[data-key]");
    var draft = form.dataset.draft ? load("sb:draft:" + form.dataset.draft, null) : null;
    // No draft: the deal was saved from this tab; Back to its form shows what was saved
    // (the browser restores the chips but not the points, autocomplete="off"), so a save
    // from it compares the player's deal, not an empty one (issue 32 item 5).
    var saved = draft ? null : sent(form.dataset.draft);
    if (!draft && !saved) {
      if (key) key.value = uuid4();
      keep(form);
      return;
    }
    draft = draft || saved;
    var seen = {};
    each(form.elements, function (el) {
      if (!el.name || el.name === "csrfmiddlewaretoken" || el.type === "file") return;
      var values = draft.filter(function (p) { return p[0] === el.name; }).map(function (p) { return p[1]; });
      if (el.type === "checkbox" || el.type === "radio") {
        el.checked = values.indexOf(el.value) !== -1 || (el.value === "on" && values.indexOf("on") !== -1);
      } else if (el.type !== "hidden" || el.hasAttribute("data-key")) {
        var i = seen[el.name] || 0;
        if (i < values.length) el.value = values[i];
        seen[el.name] = i + 1;
      }
    });
    if (key && (saved || !key.value)) key.value = uuid4(); // a save again is a new one
    // Ask the server's engine about the restored form once htmx has set the form up.
    afterLoad(function () { form.dispatchEvent(new Event("change", {bubbles: true})); });
  }
  function afterLoad(fn) {
    if (document.readyState === "complete") fn();
    else window.addEventListener("load", fn);
  }
  function sent(name) {
    // The draft a deal was saved with, kept for this tab (without its idempotency key).
    try { return name ? JSON.parse(sessionStorage.getItem("sb:sent:" + name)) : null; }
    catch (e) { return null; }
  }
  function remember(prefix) {
    for (var i = localStorage.length - 1; i >= 0; i--) {
      var k = localStorage.key(i);
      if (!k || k.indexOf("sb:draft:" + prefix) !== 0) continue;
      var kept = load(k, []).filter(function (p) { return p[0] !== "idempotency_key"; });
      try { sessionStorage.setItem("sb:sent:" + k.slice(9), JSON.stringify(kept)); } catch (e) { /* full */ }
    }
  }
  function forget(prefix) {
    for (var i = localStorage.length - 1; i >= 0; i--) {
      var k = localStorage.key(i);
      if (k && k.indexOf("sb:draft:" + prefix) === 0) localStorage.removeItem(k);
    }
  }

  /* -- the next deal's number, when deals wait ---------------------------------------- */
  function advance(form) {
    // A form (from the server, or the worker's copy) for deal n while deals n, n+1 ...
    // of its match wait here: it becomes the form for the deal after them.
    var field = form.querySelector("[name=expected_number]");
    var match = form.dataset.match;
    if (!field || !match) return Promise.resolve();
    var from = parseInt(field.value, 10);
    return entries().then(function (all) {
      var to = from;
      all.forEach(function (e) { if (String(e.match) === match && e.number >= to) to = e.number + 1; });
      if (!(to > from)) return;
      var re = new RegExp("(^|\\D)" + from + "(?!\\d)");
      var swap = function (text) { return text.replace(re, "$1" + to); };
      field.value = to;
      each(document.querySelectorAll("[data-numbered]"), function (el) {
        if ("value" in el && el.tagName === "INPUT") el.value = to;
        else el.textContent = swap(el.textContent);
      });
      each(document.querySelectorAll("[data-this-deal]"), function (el) {
        if (el.tagName === "INPUT") el.parentNode.removeChild(el);
        else if (!el.classList.contains("scoreline")) el.hidden = true; // the deals sent
      });
      if (form.dataset.queue) form.dataset.queue = swap(form.dataset.queue);
      if (form.dataset.draft) form.dataset.draft = form.dataset.draft.replace(":" + from + ":", ":" + to + ":");
      document.title = swap(document.title);
    });
  }

  /* -- offline: the form's shape only ------------------------------------------------- */
  function labelOf(el) {
    if (el.labels && el.labels.length) return el.labels[0].textContent.trim();
    var set = el.closest && el.closest("fieldset");
    var legend = set && set.querySelector("legend");
    return legend ? legend.textContent.trim() : (el.getAttribute("aria-label") || el.name);
  }
  function shape(form) {
    var typed = 0, problem = null;
    var checked = !!document.getElementById("offline-checks"); // the server's words for bounds
    each(form.elements, function (el) {
      if (!el.name || el.disabled || el.type === "hidden" || el.type === "submit" || el.type === "file") return;
      if (el.type === "checkbox" || el.type === "radio") { if (el.checked && el.value) typed++; return; }
      var v = String(el.value || "").trim();
      if (!v || el.tagName === "SELECT") return;
      typed++;
      if (el.getAttribute("inputmode") !== "numeric" || problem) return;
      // A number first ("6", or "6 e 2" where the form takes it): the server reads the rest.
      var lead = /^-?[0-9]+/.exec(v), max = el.dataset.max;
      if (!lead || (el.validity && el.validity.patternMismatch)) {
        problem = [el, (words.whole || "LABEL: a whole number").replace("LABEL", labelOf(el))];
      } else if (!checked && max !== undefined && (parseInt(lead[0], 10) > parseInt(max, 10) || parseInt(lead[0], 10) < 0)) {
        problem = [el, (words.above || "LABEL: from 0 to MAX").replace("LABEL", labelOf(el)).replace("MAX", max)];
      }
    });
    if (problem) return problem;
    if (!typed) return [null, words.empty || "Enter the deal first."];
    return described(form);
  }
  function described(form) {
    // The checks the server wrote beside the form from the engine's description of the
    // table (scorebook/web/offline_checks.py), in the words its form says them: each
    // pile within a deal's, the rest not below nothing, the choices the engine asks for.
    var node = document.getElementById("offline-checks");
    var checks;
    try { checks = node ? JSON.parse(node.textContent) : null; } catch (e) { checks = null; }
    if (!checks || !checks.numbers) return null;
    var said = [], first = null, total = 0, all = true;
    function value(name) { var el = form.elements[name]; return el && !el.disabled ? el : null; }
    function chosen(name) {
      var el = form.querySelector('[name="' + name + '"]:checked');
      return el && el.value ? el.value : "";
    }
    function note(el, text, n) {
      said.push(String(text).split(String(checks.value)).join(String(n)));
      if (!first && el) first = el;
    }
    checks.numbers.forEach(function (c) {
      var el = value(c.name);
      var lead = el && /^\s*(-?[0-9]+)(?:\s*\D+\s*([0-2]))?\s*$/.exec(el.value || "");
      if (!lead) { if (c.pile !== false) all = false; return; }
      var n = parseInt(lead[1], 10) * c.scale + parseInt(lead[2] || chosen(c.figures) || "0", 10);
      if (c.pile !== false) total += n; // the piles add up to the whole; other numbers not
      if (n < (c.low || 0) || n > c.high) note(el, c.words, n);
    });
    if (checks.rest && all && checks.numbers.length && checks.rest.whole - total < 0) {
      note(null, checks.rest.words, checks.rest.whole - total);
    }
    (checks.required || []).forEach(function (c) {
      if (!form.querySelector('[name="' + c.name + '"]') || chosen(c.name)) return;
      if (c.unless && chosen(c.unless)) return;
      note(form.querySelector('[name="' + c.name + '"]'), c.words, "");
    });
    return said.length ? [first, said.join(" ")] : null;
  }
  function say(form, problem) {
    var box = form.querySelector("#shape-problem");
    if (!box) {
      box = document.createElement("p");
      box.id = "shape-problem";
      box.className = "error";
      box.setAttribute("role", "alert");
      var button = form.querySelector("[type=submit]");
      form.insertBefore(box, button);
    }
    box.textContent = problem ? problem[1] : "";
    box.hidden = !problem;
    each(form.querySelectorAll("[aria-invalid]"), function (el) { el.removeAttribute("aria-invalid"); });
    if (problem && problem[0]) { problem[0].setAttribute("aria-invalid", "true"); problem[0].focus(); }
  }
  function summary(form) {
    // What was typed, in the form's own words: shown while the deal waits.
    var out = [], ticked = {};
    each(form.elements, function (el) {
      if (!el.name || el.disabled || el.type === "hidden" || el.type === "submit" || el.type === "file") return;
      if (el.type === "checkbox" || el.type === "radio") {
        if (!el.checked || !el.value) return;
        var set = el.closest("fieldset");
        var legend = set && set.querySelector("legend");
        var text = el.labels && el.labels.length ? el.labels[0].textContent.trim() : el.value;
        if (!legend) { out.push([text, ""]); return; }
        if (!ticked[el.name]) { ticked[el.name] = [legend.textContent.trim(), []]; out.push(ticked[el.name]); }
        ticked[el.name][1].push(text);
        return;
      }
      if (el.tagName === "TEXTAREA") { if (el.value.trim()) out.push([labelOf(el), "…"]); return; }
      if (el.tagName === "SELECT") {
        if (el.value) out.push([labelOf(el), el.options[el.selectedIndex].text]);
        return;
      }
      if (String(el.value).trim()) out.push([labelOf(el), String(el.value).trim()]);
    });
    return out.map(function (p) {
      var value = p[1];
      if (Array.isArray(value)) value = value.length > 3 ? String(value.length) : value.join(", ");
      // "Nino & Salvo: punti 6", "Ultima presa: Nino & Salvo"
      return value === "" ? p[0] : p[0] + (p[0].indexOf(":") === -1 ? ": " : " ") + value;
    }).join(" · ");
  }

  /* -- the queue --------------------------------------------------------------------- */
  function say_n(n, one, many, fallbackOne, fallbackMany) {
    return n === 1 ? (one || fallbackOne) : (many || fallbackMany).replace("N", n);
  }
  function banner(all) {
    var box = document.getElementById("queue-status");
    var waiting = all.filter(function (e) { return !e.kind; });
    var n = waiting.length;
    if (!box) {
      if (!all.length && !note) return;
      box = document.createElement("div");
      box.id = "queue-status";
      box.className = "queue";
      box.setAttribute("role", "status");
      box.setAttribute("aria-live", "polite");
      var main = document.querySelector("main");
      if (!main) return;
      main.insertBefore(box, main.firstChild);
    }
    review(box, all);
    if (!n && !note) { box.hidden = true; box.textContent = ""; box.dataset.said = ""; return; }
    var text = n ? say_n(n, words.one, words.many, "1 deal waiting to be sent", "N deals waiting to be sent") : "";
    if (note) text = text ? note + " " + text : note;
    if (box.dataset.said === text && !box.hidden) return; // said already: no new announcement
    box.dataset.said = text;
    box.textContent = text;
    box.hidden = false;
    if (!n) return;
    var again = document.createElement("button");
    again.type = "button";
    again.textContent = words.send || "Send now";
    again.addEventListener("click", function () { flush({retry: true, manual: true}); });
    box.appendChild(document.createElement("br"));
    box.appendChild(again);
    var form = document.querySelector("form[data-queue][data-match]");
    var queued = form && all.some(function (e) { return String(e.match) === form.dataset.match; });
    if (queued && form.dataset.next) {
      // Deals wait: the next deal's form is this page again, with the number after them.
      var next = document.createElement("a");
      next.className = "button primary";
      next.href = form.dataset.next;
      next.textContent = words.next || "Next deal";
      box.appendChild(document.createTextNode(" "));
      box.appendChild(next);
    }
  }
  var WHY = {
    closed: ["whyClosed", "LABEL was not saved: the night is closed. Only a director can add a deal to it now."],
    finished: ["whyFinished", "LABEL was not saved: the match is over."],
    conflict: ["whyConflict", "LABEL: another phone saved this deal number first."],
    refused: ["whyRefused", "LABEL was refused:"]
  };
  function review(box, all) {
    // The first waiting deal the server refused, in words, with its choices; the others
    // after it, one at a time.
    var problems = all.filter(function (e) { return e.kind; });
    var card = document.getElementById("queue-review");
    if (!problems.length) { if (card) card.parentNode.removeChild(card); return; }
    var e = problems[0];
    if (card && card.dataset.key === e.key && card.dataset.kind === e.kind) return;
    if (!card) {
      card = document.createElement("section");
      card.id = "queue-review";
      card.className = "queue problem";
      card.setAttribute("role", "alert");
      box.parentNode.insertBefore(card, box.nextSibling);
    }
    card.dataset.key = e.key;
    card.dataset.kind = e.kind;
    card.textContent = "";
    var why = WHY[e.kind] || WHY.refused;
    var title = document.createElement("h2");
    title.textContent = (words.review || "To review: LABEL").replace("LABEL", e.label);
    card.appendChild(title);
    var text = document.createElement("p");
    text.className = "why";
    text.textContent = (words[why[0]] || why[1]).replace("LABEL", e.label) + (e.kind === "refused" && e.reason ? " " + e.reason : "");
    card.appendChild(text);
    if (e.summary) {
      var typed = document.createElement("p");
      typed.className = "meta";
      typed.textContent = (words.typed || "Typed:") + " " + e.summary;
      card.appendChild(typed);
    }
    if (problems.length > 1) {
      var more = document.createElement("p");
      more.className = "meta";
      more.textContent = (words.more || "Then N more to review.").replace("N", problems.length - 1);
      card.appendChild(more);
    }
    var actions = document.createElement("div");
    actions.className = "actions stack";
    function button(label, primary, fn) {
      var b = document.createElement("button");
      b.type = "button";
      b.className = "big" + (primary ? " primary" : "");
      b.textContent = label;
      b.addEventListener("click", fn);
      actions.appendChild(b);
    }
    var open = function () { flush({open: e.key, manual: true}); };
    if (e.kind === "conflict") {
      button(words.compare || "Compare, and correct the stored one with mine", true, open);
      button(words.keep || "Keep the stored one", false, function () { discard(e); });
    } else if (e.kind === "refused") {
      button(words.fix || "Put it right", true, open);
      button(words.discard || "Discard it", false, function () { discard(e); });
    } else {
      button(words.discard || "Discard it", true, function () { discard(e); });
    }
    card.appendChild(actions);
  }
  var note = "";
  function discard(e) {
    // The user chose: this waiting deal goes (with its draft); the ones behind it are sent.
    if (e.draft) forget(e.draft + ":");
    return remove(e.key).then(function () {
      note = (words.discarded || "LABEL discarded.").replace("LABEL", e.label);
      return refresh();
    }).then(function () { return flush({}); });
  }
  function pending(all) {
    // The next deal's form: the score is the server's; the deals not sent yet are listed
    // under it, marked, with what was typed.
    var form = document.querySelector("form[data-queue][data-match]");
    var line = document.querySelector(".scoreline");
    var list = document.getElementById("queue-unsent");
    var mine = form ? all.filter(function (e) { return String(e.match) === form.dataset.match; }) : [];
    if (tallies && form) tallies.form(all, form.dataset.match, words, catching);
    if (!line || !mine.length) { if (list) list.parentNode.removeChild(list); return; }
    var who = tallies ? tallies.names("p.scoreline span[data-scorer]") : [];
    if (!list) {
      list = document.createElement("ul");
      list.id = "queue-unsent";
      list.className = "unsent";
      line.parentNode.insertBefore(list, line.nextSibling);
    }
    list.textContent = "";
    mine.forEach(function (e) {
      var item = document.createElement("li");
      var badge = document.createElement("span");
      badge.className = "badge wait";
      badge.textContent = e.kind ? (words.toreview || "to be reviewed") : (words.unsent || "not sent yet");
      item.appendChild(document.createTextNode(e.label + " "));
      item.appendChild(badge);
      adds(item, e, who);
      if (e.summary) item.appendChild(document.createTextNode(" · " + e.summary));
      list.appendChild(item);
    });
  }
  function adds(where, e, who) {
    // What the waiting deal adds to the score, or the word for one the phone cannot count.
    if (e.kind || !tallies) return;
    if (e.adds) {
      var points = document.createElement("strong");
      points.className = "adds";
      points.textContent = tallies.line(e.adds, who);
      where.appendChild(document.createTextNode(" "));
      where.appendChild(points);
      return;
    }
    var word = document.createElement("span");
    word.className = "badge uncounted";
    word.textContent = words.uncounted || "not counted yet";
    where.appendChild(document.createTextNode(" "));
    where.appendChild(word);
  }
  function tallyOf(body) {
    // What this deal adds, from the engine's description beside the form (null: the
    // phone cannot count it; the server will).
    var node = document.getElementById("offline-checks");
    try {
      var checks = node ? JSON.parse(node.textContent) : null;
      return tallies && checks && checks.tally ? tallies.adds(checks.tally, new URLSearchParams(body)) : null;
    } catch (err) { return null; }
  }
  function catchUp(all) {
    // The queue of this form's match is empty: its score, dealer and shape come from
    // the server again, in place (the form keeps what is typed in it).
    var form = document.querySelector("form[data-queue][data-match]");
    if (!form || all.some(function (e) { return String(e.match) === form.dataset.match; })) {
      if (catching) { catching = false; refresh(); }
      return;
    }
    var number = form.querySelector("[name=expected_number]");
    fetch(form.dataset.next || location.href, {credentials: "same-origin"}).then(function (r) {
      return r.ok && !r.redirected ? r.text() : null;
    }).then(function (html) {
      if (!html || !number) return;
      var doc = new DOMParser().parseFromString(html, "text/html");
      var fresh = doc.querySelector("form[data-queue][data-match]");
      var at = fresh && fresh.querySelector("[name=expected_number]");
      if (!at || at.value !== number.value) return; // another phone saved meanwhile
      each(["p.scoreline", "p.dealer"], function (sel) {
        var old = document.querySelector(sel), neu = doc.querySelector(sel);
        if (old && neu) { neu = document.importNode(neu, true); neu.hidden = false; old.parentNode.replaceChild(neu, old); }
      });
      var shape = fresh.querySelector("input[name=shape]");
      if (shape && !form.querySelector("[name=shape]")) form.appendChild(document.importNode(shape, true));
      document.documentElement.dataset.caughtUp = number.value;
    }, function () { /* offline again: the next empty queue tries again */ }).then(function () {
      // The server's score is in (or did not come): the form's score is its own again.
      catching = false;
      return refresh();
    });
  }
  function queued(all) {
    // The match page: its waiting deals, "not yet checked", above the stored ones.
    var box = document.querySelector("[data-queued]");
    var note = document.querySelector("[data-queued-note]");
    if (!box) return;
    var match = box.dataset.queued;
    var mine = all.filter(function (e) { return String(e.match) === match; });
    box.textContent = "";
    box.hidden = !mine.length;
    // The scoreboard with the waiting deals added, marked; the note says how many.
    if (tallies) tallies.board(all, match, note, words);
    var who = tallies ? tallies.names(".scoreboard .score[data-scorer]") : [];
    each(document.querySelectorAll("[data-this-deal]"), function (el) { el.hidden = !!mine.length; });
    mine.slice().reverse().forEach(function (e) {
      var card = document.createElement("section");
      card.className = "card deal queued";
      var title = document.createElement("h3");
      title.textContent = e.label + " ";
      var badge = document.createElement("span");
      badge.className = "badge wait";
      badge.textContent = e.refused ? (box.dataset.refused || "to be reviewed") : (box.dataset.label || "not yet checked");
      title.appendChild(badge);
      card.appendChild(title);
      if (!e.kind && tallies) {
        var added = document.createElement("p");
        adds(added, e, who);
        card.appendChild(added);
      }
      if (e.summary) {
        var what = document.createElement("p");
        what.className = "meta";
        what.textContent = e.summary;
        card.appendChild(what);
      }
      box.appendChild(card);
    });
  }
  function refresh() {
    return entries().then(function (all) { banner(all); queued(all); pending(all); return all; });
  }
  function show(html) {
    var doc = new DOMParser().parseFromString(html, "text/html");
    var fresh = doc.querySelector("main");
    var main = document.querySelector("main");
    if (!fresh || !main) return;
    // The page's own stylesheets (the deal form's table.css) come with it.
    each(doc.querySelectorAll("link[rel=stylesheet]"), function (link) {
      var href = link.getAttribute("href");
      if (href && !document.querySelector('link[rel=stylesheet][href="' + href + '"]')) {
        document.head.appendChild(document.importNode(link, true));
      }
    });
    main.innerHTML = fresh.innerHTML;
    if (doc.title) document.title = doc.title;
    if (window.htmx) window.htmx.process(main);
    each(main.querySelectorAll("form[data-draft]"), restore);
    window.scrollTo(0, 0);
  }
  function csrf() {
    var m = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
    if (m) return decodeURIComponent(m[1]);
    var field = document.querySelector("[name=csrfmiddlewaretoken]");
    return field ? field.value : "";
  }
  function send(entry) {
    var abort = window.AbortController ? new AbortController() : null;
    var timer = abort ? setTimeout(function () { abort.abort(); }, SEND_TIMEOUT) : null;
    return fetch(entry.url, {
      method: "POST",
      body: entry.body,
      credentials: "same-origin",
      signal: abort ? abort.signal : undefined,
      headers: {
        "Content-Type": "application/x-www-form-urlencoded",
        "Idempotency-Key": entry.key,
        "X-CSRFToken": csrf()
      }
    }).then(function (response) {
      clearTimeout(timer);
      if (response.status >= 500) return {state: "wait"};
      var landed = new URL(response.url, location.href).pathname;
      if (response.redirected && landed === words.login) {
        // Signed out meanwhile: the deal stays queued; the login page is shown.
        return response.text().then(function (html) { return {state: "login", html: html}; });
      }
      if (response.ok && response.redirected) {
        return remove(entry.key).then(function () {
          if (entry.draft) { remember(entry.draft + ":"); forget(entry.draft); }
          return {state: "done", url: response.url};
        });
      }
      // Another phone's deal, a closed night, a finished match, the engine's refusal.
      var kind = kindOf(response.headers.get("Refusal-Codes") || "", response.status);
      return response.text().then(function (html) {
        return {state: "refused", html: html, kind: kind, status: response.status, reason: reasons(html)};
      });
    }, function () { clearTimeout(timer); return {state: "offline"}; });
  }
  function kindOf(codes, status) {
    // The server's codes: which choices make sense for this refusal.
    var list = " " + codes + " ";
    if (list.indexOf(" night.closed ") !== -1) return "closed";
    if (list.indexOf(" match.finished ") !== -1 || list.indexOf(" match.abandoned ") !== -1) return "finished";
    if (list.indexOf(" deal.conflict ") !== -1) return "conflict";
    return status === 409 ? "conflict" : "refused";
  }
  function reasons(html) {
    // The refusal's words on the server's page (its notes in red), in the page's language.
    var doc = new DOMParser().parseFromString(html, "text/html");
    var seen = [];
    each(doc.querySelectorAll("main .error, main .errorlist li"), function (el) {
      var text = el.textContent.replace(/\s+/g, " ").trim();
      if (text && seen.indexOf(text) === -1) seen.push(text);
    });
    if (!seen.length && doc.body && !doc.querySelector("main")) seen.push(doc.body.textContent.trim());
    return seen.join(" ").slice(0, 400);
  }
  function flush(options) {
    // options: retry (send the deals marked refused again), manual (the user asked: try
    // even when the phone says it is offline), open (the key of a refused deal whose
    // server page the user asked to see: it replaces the main part).
    options = options || {};
    // A save tapped while another send is under way goes right after it (it waited for
    // the next round of the timer, up to 5 s).
    if (sending) return sending.then(function () { return flush(options); });
    // The phone knows it has no network: nothing is tried until the online event (or
    // the user's "Send now"). With a network that does not answer, each send just fails.
    if (navigator.onLine === false && !options.manual) return refresh().then(function () { return {stopped: "offline"}; });
    var result = {sent: 0};
    sending = entries().then(function (all) {
      var blocked = {};
      function next(i) {
        if (i >= all.length) return result;
        var e = all[i];
        if (blocked[e.match]) return next(i + 1);
        var asked = options.open === e.key;
        if (e.refused && !options.retry && !asked) { blocked[e.match] = true; return next(i + 1); }
        return send(e).then(function (r) {
          if (r.state === "done") {
            result.sent++;
            if (e.key === follow) result.go = r.url;
            return next(i + 1);
          }
          if (r.state === "offline" || r.state === "wait") {
            result.stopped = r.state;
            if (!e.fresh) return result;
            e.fresh = false; // it waits now: a refusal later is shown in words
            return put(e).then(function () { return result; });
          }
          if (r.state === "login") { result.html = r.html; return result; }
          blocked[e.match] = true;
          if (e.fresh && e.key === follow) {
            // Answered at once, on the page that saved it: not queued. The server's page
            // shows why, with the values typed (kept in the draft too).
            result.html = result.html || r.html;
            return remove(e.key).then(function () { return next(i + 1); });
          }
          if (asked) result.html = result.html || r.html;
          e.fresh = false;
          e.refused = r.status;
          e.kind = r.kind;
          e.reason = r.reason;
          return put(e).then(function () { return next(i + 1); });
        });
      }
      return next(0);
    }).then(function (done) {
      sending = null;
      if (done.html) { follow = null; show(done.html); }
      else if (done.go) { window.location.assign(done.go); return done; }
      else if (done.sent && document.querySelector("[data-queued]")) { window.location.reload(); return done; }
      // Deals sent from the form: its score stays as shown until the server's comes.
      if (done.sent) catching = !!document.querySelector("form[data-queue][data-match]");
      return refresh().then(function (all) {
        if (done.sent) catchUp(all);
        return done;
      });
    }, function () { sending = null; return null; });
    return sending;
  }
  function submit(event) {
    var form = event.target;
    if (!form.matches || !form.matches("form[data-queue]")) return;
    event.preventDefault();
    if (navigator.onLine === false) {
      var problem = shape(form);
      say(form, problem);
      if (problem) return;
    } else say(form, null);
    keep(form);
    var key = form.querySelector("[data-key]");
    var number = form.querySelector("[name=expected_number]");
    var data = new FormData(form);
    data.delete("csrfmiddlewaretoken");
    var body = new URLSearchParams();
    data.forEach(function (value, name) { if (typeof value === "string") body.append(name, value); });
    var entry = {
      key: key && key.value ? key.value : uuid4(),
      url: form.action,
      body: body.toString(),
      label: form.dataset.queue,
      draft: (form.dataset.draft || "").split(":").slice(0, 3).join(":"),
      match: form.dataset.match || "",
      number: number ? parseInt(number.value, 10) || 0 : 0,
      summary: summary(form),
      adds: tallyOf(body.toString()),
      user: words.user || "",
      at: Date.now(),
      refused: 0,
      kind: "",
      // Sent at once (the phone has a connection): an answer that refuses it is shown on
      // this page and it leaves the queue. Saved offline: it waits, and a later refusal
      // is shown in words with the choices.
      fresh: navigator.onLine !== false
    };
    var button = form.querySelector("[type=submit]");
    if (button) button.disabled = true;
    follow = entry.key;
    entries().then(function (all) {
      // The same save again (after a refusal, corrected): it keeps its place in the line.
      // Another save of the same deal number of the match replaces the one waiting: one
      // version of a deal in the queue.
      var twins = [];
      all.forEach(function (e) {
        if (e.key === entry.key) entry.at = e.at;
        else if (entry.number && String(e.match) === entry.match && e.number === entry.number) {
          entry.at = Math.min(entry.at, e.at);
          twins.push(e.key);
        }
      });
      return Promise.all(twins.map(remove)).then(function () { return put(entry); });
    }).then(function () {
      // With a connection the save is on its way: no "waiting" banner unless it must wait
      // (flush says so when a send fails). Without one, the banner says it at once.
      if (navigator.onLine === false) return refresh();
      return null;
    }, function () {
      // The phone did not keep the deal (its storage full, refused or broken). With a
      // connection the form goes as a plain POST: the server answers its idempotency key
      // once, so a deal kept after all is not saved twice. Without one, the player is told
      // to keep it on paper, and the form stays as typed.
      follow = null;
      if (button) button.disabled = false;
      if (navigator.onLine === false) {
        say(form, [null, words.unkept || "This phone could not keep the deal."]);
      } else form.submit();
      return false;
    }).then(function (kept) {
      if (kept === false) return null;
      return flush({retry: true}).then(null, function () { return null; }).then(function () {
        if (button) button.disabled = false;
      });
    }, function () { if (button) button.disabled = false; });
  }

  /* -- the service worker -------------------------------------------------------------- */
  function worker() {
    if (!words.sw || !("serviceWorker" in navigator)) return;
    var sw = navigator.serviceWorker;
    var controlled = !!sw.controller;
    sw.addEventListener("controllerchange", function () {
      // A new deploy's worker took over: this page is the old one's, load it afresh.
      if (controlled) window.location.reload();
      controlled = true;
    });
    sw.register(words.sw, {scope: "/"}).then(function (registration) {
      return sw.ready.then(function (ready) {
        var warm = [];
        each(document.querySelectorAll("a[data-warm]"), function (a) { warm.push(a.href); });
        if (!controlled) warm.push(location.href); // this very page, on the first visit
        if (ready.active && warm.length) ready.active.postMessage({warm: warm});
        return registration;
      });
    }).catch(function () { /* no worker: the queue still keeps every save */ });
  }

  /* -- wiring ------------------------------------------------------------------------ */
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (form.matches && form.matches("form[data-queue-drop]")) {
      // Gone from the queue before the page goes (IndexedDB may not finish an unload).
      event.preventDefault();
      var go = function () { form.submit(); };
      drop(form.dataset.queueDrop).then(go, go);
      return;
    }
    submit(event);
  });
  function drop(prefix) {
    // The user chose (kept the stored deal, or corrected it with theirs): the waiting
    // save of that deal goes, with its draft.
    if (!prefix) return Promise.resolve();
    forget(prefix);
    return entries().then(function (all) {
      return Promise.all(all.filter(function (e) {
        return e.draft && (e.draft + ":").indexOf(prefix) === 0;
      }).map(function (e) { return remove(e.key); }));
    });
  }
  document.addEventListener("input", function (e) { if (e.target.form) keep(e.target.form); });
  document.addEventListener("change", function (e) {
    var el = e.target;
    if (el.matches && el.matches("[data-record-file]") && el.files && el.files[0]) {
      var reader = new FileReader();
      reader.onload = function () {
        var area = el.form && el.form.querySelector("textarea[name=record]");
        if (area) { area.value = String(reader.result); area.dispatchEvent(new Event("change", {bubbles: true})); }
      };
      reader.readAsText(el.files[0]);
      return;
    }
    if (el.form) keep(el.form);
  });
  document.addEventListener("click", function (e) {
    var link = e.target.closest && e.target.closest("a[data-queue-drop]");
    if (!link) return;
    e.preventDefault();
    var go = function () { window.location.assign(link.href); };
    drop(link.dataset.queueDrop).then(go, go);
  });
  // The match page's live part is replaced every few seconds: its waiting deals again.
  document.addEventListener("htmx:afterSettle", function (e) {
    var root = e.target;
    if (root && root.querySelector && root.querySelector("[data-queued]")) refresh();
  });
  window.addEventListener("online", function () { flush({}); });
  setInterval(function () {
    if (!sending) entries().then(function (all) { if (all.some(function (e) { return !e.refused; })) flush({}); });
  }, 5000);
  function start() {
    worker();
    migrate().then(function () {
      return Promise.all(Array.prototype.map.call(document.querySelectorAll("form[data-draft]"), function (form) {
        return advance(form).then(function () { restore(form); });
      }));
    }).then(refresh).catch(function () { /* no storage: the form is as the server sent it */ }).then(function () {
      // Said on the page (a browser test waits for it): the form is what it will stay,
      // its draft restored and its save key made, before anyone types in it.
      document.documentElement.dataset.queueReady = "1";
      return flush({});
    });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
