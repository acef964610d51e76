/* Scorebook's few behaviours, loaded as a file: the Content-Security-Policy allows no inline
   script. Every page works without it; it only saves a tap. */
(function () {
  "use strict";
  function ready(fn) {
    if (document.readyState !== "loading") fn();
    else document.addEventListener("DOMContentLoaded", fn);
  }
  ready(function () {
    // <select data-autosubmit> submits its form as soon as a choice is made.
    document.body.addEventListener("change", function (event) {
      var el = event.target;
      if (el.matches && el.matches("[data-autosubmit]") && el.form) el.form.requestSubmit();
    });
    // <form data-carry="id">: what was already chosen on the form #id goes along (the
    // house rules' choice keeps the seats, guests and stake), not its CSRF token or rules.
    document.body.addEventListener("submit", function (event) {
      var form = event.target;
      var from = form.matches && form.matches("[data-carry]") && document.getElementById(form.getAttribute("data-carry"));
      if (!from) return;
      Array.prototype.forEach.call(form.querySelectorAll("input[data-carried]"), function (el) { el.remove(); });
      new FormData(from).forEach(function (value, name) {
        if (typeof value !== "string" || !value || name === "csrfmiddlewaretoken" || name.indexOf("rules.") === 0 || form.elements[name]) return;
        var input = document.createElement("input");
        input.type = "hidden";
        input.name = name;
        input.value = value;
        input.setAttribute("data-carried", "");
        form.appendChild(input);
      });
    });
    // The share block (templates/web/partials/share.html): where the Web Share API exists
    // (phones), one button opens the phone's own share sheet; the WhatsApp link and the
    // text to copy stay for the rest, and come back if the sheet cannot open.
    if (navigator.share) {
      Array.prototype.forEach.call(document.querySelectorAll("[data-share]"), function (box) {
        var button = box.querySelector("[data-share-button]");
        var fallback = box.querySelector("[data-share-fallback]");
        if (!button) return;
        button.hidden = false;
        if (fallback) fallback.hidden = true;
        button.addEventListener("click", function () {
          navigator.share({
            title: box.getAttribute("data-share-title"),
            text: box.getAttribute("data-share-text"),
            url: box.getAttribute("data-share-url")
          }).catch(function (error) {
            if (fallback && (!error || error.name !== "AbortError")) fallback.hidden = false;
          });
        });
      });
    }
    // The deal form's first field takes the cursor without scrolling the page: after a
    // save, the line saying what was saved and the other side's buttons stay in view
    // above it (autofocus scrolled to the field and hid them).
    var first = document.querySelector("[data-first]");
    if (first && !document.querySelector(":focus")) first.focus({preventScroll: true});
    // The deal form's save bar (.save-bar, fixed at the bottom) stays above the keyboard
    // where the browser shrinks only the visual viewport for it (iOS Safari; Chrome reads
    // the viewport's interactive-widget=resizes-content and shrinks the page instead).
    var viewport = window.visualViewport;
    if (viewport && document.querySelector(".save-bar")) {
      var lift = function () {
        var hidden = Math.max(0, window.innerHeight - viewport.height - viewport.offsetTop);
        document.documentElement.style.setProperty("--keyboard", Math.round(hidden) + "px");
      };
      viewport.addEventListener("resize", lift);
      viewport.addEventListener("scroll", lift);
      lift();
    }
    // A typed number's tens (button[data-tens-for], Trappola's card points): a tap writes
    // the tens digit in the field and leaves the cursor after it, for the unit; the whole
    // number may be typed in the field instead.
    document.body.addEventListener("click", function (event) {
      var chip = event.target.closest && event.target.closest("[data-tens-for]");
      var field = chip && chip.form && chip.form.elements.namedItem(chip.getAttribute("data-tens-for"));
      if (!field) return;
      field.value = String(Math.floor(parseInt(chip.getAttribute("data-tens"), 10) / 10));
      field.focus({preventScroll: true});
      field.setSelectionRange(field.value.length, field.value.length);
      field.dispatchEvent(new Event("input", {bubbles: true}));
    });
    // <button data-copy="text"> copies the text (the invitation link) to the clipboard.
    document.body.addEventListener("click", function (event) {
      var button = event.target.closest && event.target.closest("[data-copy]");
      if (!button || !navigator.clipboard) return;
      navigator.clipboard.writeText(button.getAttribute("data-copy")).then(function () {
        button.classList.add("done");
      });
    });
  });
})();
