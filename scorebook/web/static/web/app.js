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
