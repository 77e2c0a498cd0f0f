/* Every page's small behaviours, from a static file: the Content-Security-Policy
 * (config/headers.py) runs no inline script, so no template has onclick or onsubmit.
 *
 * - data-confirm="question" on a form or on its submit button: the browser asks first,
 *   and "Cancel" sends nothing.
 * - data-search="id" on a list: after a tap in it was answered, the search field "id" is
 *   emptied and has the focus again, ready for the next arrival (the desk); unless the
 *   next name was typed while the tap was on its way.
 * - A search field htmx drives (hx-get, hx-trigger with "search" or "input") that was
 *   typed into before htmx took the page over has its search sent then: see below.
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

  // Typed before the page's scripts ran: the desk's search field has the focus as soon as
  // it shows (autofocus), while htmx, loaded at the end of the page, listens to its fields
  // only once the whole page is parsed (DOMContentLoaded), after this file has run. A name
  // typed in between fired its input events at nobody, and htmx's "changed" takes the
  // value it then finds for one already searched: the list would stay the whole list
  // under the typed name. So once htmx has processed the page (its first htmx:load, on
  // the body), each such field whose value is not the one the page came with sends its
  // search.
  var SEARCHED_BY = /(^|[\s,])(search|input)(?=[\s,[]|$)/;
  var loaded = false;
  document.addEventListener("htmx:load", function (event) {
    if (loaded || event.target !== document.body || !window.htmx) {
      return;
    }
    loaded = true;
    var fields = document.querySelectorAll("input[hx-get][hx-trigger], textarea[hx-get][hx-trigger]");
    Array.prototype.forEach.call(fields, function (field) {
      var trigger = field.getAttribute("hx-trigger");
      if (field.value === field.defaultValue || !SEARCHED_BY.test(trigger)) {
        return;
      }
      // "search" has no "changed" to stop it; a field listening to "input" alone is sent
      // that (one with "input changed" and no "search" would count this value as seen).
      window.htmx.trigger(field, /(^|[\s,])search(?=[\s,[]|$)/.test(trigger) ? "search" : "input");
    });
  });
})();
