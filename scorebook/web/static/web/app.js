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
