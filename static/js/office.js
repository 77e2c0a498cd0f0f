/* Every page's small behaviours, from a static file: the Content-Security-Policy
 * (config/headers.py) runs no inline script, so no template has onclick or onsubmit.
 *
 * - data-confirm="question" on a form or on its submit button: the browser asks first,
 *   and "Cancel" sends nothing.
 * - data-autosubmit on a field: a change sends its form (the language switch).
 */
(function () {
  "use strict";

  document.addEventListener("submit", function (event) {
    var asking = (event.submitter && event.submitter.closest("[data-confirm]")) || event.target.closest("[data-confirm]");
    if (asking && !window.confirm(asking.getAttribute("data-confirm"))) {
      event.preventDefault();
      event.stopImmediatePropagation();
    }
  }, true);

  document.addEventListener("change", function (event) {
    var field = event.target;
    if (field.form && field.hasAttribute("data-autosubmit")) {
      field.form.requestSubmit ? field.form.requestSubmit() : field.form.submit();
    }
  });
})();
