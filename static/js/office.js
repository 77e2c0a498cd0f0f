/* Every page's small behaviours, from a static file: the Content-Security-Policy
 * (config/headers.py) runs no inline script, so no template has onclick or onsubmit.
 *
 * - data-confirm="question" on a form or on its submit button: the browser asks first,
 *   and "Cancel" sends nothing.
 * - data-autosubmit on a field: a change sends its form (the language switch).
 * - data-search="id" on a list: after a tap in it was answered, the search field "id" is
 *   emptied and has the focus again, ready for the next arrival (the desk).
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

  document.addEventListener("htmx:afterRequest", function (event) {
    var source = event.detail && event.detail.elt;
    var list = source && source.closest && source.closest("[data-search]");
    if (!list || !event.detail.successful) {
      return;
    }
    var field = document.getElementById(list.getAttribute("data-search"));
    if (field) {
      field.value = "";
      field.focus();
    }
  });
})();
