/* Every page's small behaviours, from a static file: the Content-Security-Policy
 * (config/headers.py) runs no inline script, so no template has onclick or onsubmit.
 *
 * - data-confirm="question" on a form or on its submit button: the browser asks first,
 *   and "Cancel" sends nothing.
 * - data-search="id" on a list: after a tap in it was answered, the search field "id" is
 *   emptied and has the focus again, ready for the next arrival (the desk); unless the
 *   next name was typed while the tap was on its way.
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

  function searchOf(event) {
    var source = event.detail && event.detail.elt;
    var list = source && source.closest && source.closest("[data-search]");
    return list ? document.getElementById(list.getAttribute("data-search")) : null;
  }

  // What the search field held when the tap was sent: if the desk has typed the next
  // arrival's name since, the answer must not wipe it (nor the search it started).
  var typedBefore = new WeakMap();
  document.addEventListener("htmx:beforeRequest", function (event) {
    var field = searchOf(event);
    if (field) {
      typedBefore.set(event.detail.elt, field.value);
    }
  });

  document.addEventListener("htmx:afterRequest", function (event) {
    var field = searchOf(event);
    if (!field || !event.detail.successful) {
      return;
    }
    var before = typedBefore.get(event.detail.elt);
    typedBefore.delete(event.detail.elt);
    if (before === undefined || field.value === before) {
      field.value = "";
      field.focus();
    }
  });
})();
