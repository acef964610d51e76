/* Scorebook at the table: nothing typed is lost, nothing is entered twice.
 *
 * - Drafts: every deal form (data-draft) is kept in localStorage as it is typed, with its
 *   Idempotency-Key (made here, in the browser), and restored after a reload.
 * - Queue: a save (data-queue form) goes into a queue first, then is sent. Without a
 *   connection it waits ("1 deal waiting to be sent") and is sent again when the
 *   connection returns (the online event, and a retry every few seconds). The same key
 *   is sent every time, so the server stores it once and replays its answer.
 * - Any answer that is not a success (a rule problem, a 409 from another phone) replaces
 *   the page's main part: the user sees it and chooses. The draft stays until a save is
 *   acknowledged.
 * No rules here: the server's engine judges every deal.
 */
(function () {
  "use strict";
  var QUEUE = "sb:queue";
  var script = document.currentScript;
  var words = (script && script.dataset) || {};
  var sending = false;

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
    try { localStorage.setItem(key, JSON.stringify(value)); } catch (e) { /* full: nothing to do */ }
  }
  function queue() { return load(QUEUE, []); }

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
    if (!draft) {
      if (key) key.value = uuid4();
      keep(form);
      return;
    }
    var seen = {};
    Array.prototype.forEach.call(form.elements, function (el) {
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
    if (key && !key.value) key.value = uuid4();
    // Ask the server's engine about the restored form once htmx has set the form up.
    afterLoad(function () { form.dispatchEvent(new Event("change", {bubbles: true})); });
  }
  function afterLoad(fn) {
    if (document.readyState === "complete") fn();
    else window.addEventListener("load", fn);
  }
  function forget(prefix) {
    for (var i = localStorage.length - 1; i >= 0; i--) {
      var k = localStorage.key(i);
      if (k && k.indexOf("sb:draft:" + prefix) === 0) localStorage.removeItem(k);
    }
  }

  /* -- the queue --------------------------------------------------------------------- */
  function banner() {
    var box = document.getElementById("queue-status");
    var n = queue().length;
    if (!box) {
      if (!n) return;
      box = document.createElement("div");
      box.id = "queue-status";
      box.className = "queue";
      box.setAttribute("role", "status");
      box.setAttribute("aria-live", "polite");
      var main = document.querySelector("main");
      if (!main) return;
      main.insertBefore(box, main.firstChild);
    }
    if (!n) { box.hidden = true; box.textContent = ""; return; }
    var text = n === 1 ? (words.one || "1 deal waiting to be sent")
      : (words.many || "N deals waiting to be sent").replace("N", n);
    box.textContent = text;
    var again = document.createElement("button");
    again.type = "button";
    again.textContent = words.send || "Send now";
    again.addEventListener("click", flush);
    box.appendChild(document.createElement("br"));
    box.appendChild(again);
    box.hidden = false;
  }
  function drop(key) {
    save(QUEUE, queue().filter(function (e) { return e.key !== key; }));
    banner();
  }
  function show(html) {
    var doc = new DOMParser().parseFromString(html, "text/html");
    var fresh = doc.querySelector("main");
    var main = document.querySelector("main");
    if (!fresh || !main) return;
    main.innerHTML = fresh.innerHTML;
    if (doc.title) document.title = doc.title;
    if (window.htmx) window.htmx.process(main);
    init(main);
    banner();
    window.scrollTo(0, 0);
  }
  function send(entry) {
    return fetch(entry.url, {
      method: "POST",
      body: entry.body,
      credentials: "same-origin",
      headers: {"Content-Type": "application/x-www-form-urlencoded", "Idempotency-Key": entry.key}
    }).then(function (response) {
      if (response.status >= 500) return "wait";
      drop(entry.key);
      if (response.ok) {
        if (entry.draft) forget(entry.draft);
        if (response.redirected) window.location.assign(response.url);
        return "done";
      }
      return response.text().then(function (html) { show(html); return "answered"; });
    }, function () { return "wait"; });
  }
  function flush() {
    if (sending) return Promise.resolve();
    var pending = queue();
    if (!pending.length) { banner(); return Promise.resolve(); }
    sending = true;
    return pending.reduce(function (chain, entry) {
      return chain.then(function (stop) { return stop ? stop : send(entry).then(function (r) { return r === "wait" ? "stop" : null; }); });
    }, Promise.resolve(null)).then(function () { sending = false; banner(); });
  }
  function submit(event) {
    var form = event.target;
    if (!form.matches || !form.matches("form[data-queue]")) return;
    event.preventDefault();
    keep(form);
    var key = form.querySelector("[data-key]");
    var entry = {
      key: key ? key.value : uuid4(),
      url: form.action,
      body: new URLSearchParams(new FormData(form)).toString(),
      label: form.dataset.queue,
      draft: (form.dataset.draft || "").split(":").slice(0, 3).join(":"),
      at: Date.now()
    };
    save(QUEUE, queue().filter(function (e) { return e.key !== entry.key; }).concat([entry]));
    banner();
    var button = form.querySelector("[type=submit]");
    if (button) button.disabled = true;
    send(entry).then(function (result) {
      if (button) button.disabled = false;
      banner();
    });
  }

  /* -- wiring ------------------------------------------------------------------------ */
  function init(root) {
    Array.prototype.forEach.call(root.querySelectorAll("form[data-draft]"), restore);
  }
  document.addEventListener("submit", submit);
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
    var link = e.target.closest && e.target.closest("[data-queue-drop]");
    if (link && link.dataset.queueDrop) forget(link.dataset.queueDrop);
  });
  window.addEventListener("online", flush);
  setInterval(function () { if (queue().length) flush(); }, 5000);
  function start() { init(document); banner(); flush(); }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
