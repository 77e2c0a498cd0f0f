/* The office grid (templates/scoring/grid.html): a paper list typed with the keyboard only.
 *
 * Each row's line is valued by the office as it is typed (htmx posts it to the preview
 * URL; the rules live in scoring/rules.py only, never here). This file moves the cursor:
 * Enter goes to the next row (it never sends the form), the arrow keys up and down move
 * between rows, Ctrl+Enter (or Cmd+Enter) saves the whole list. On load the cursor
 * stands in the first refused row, else the first row.
 */
(function () {
  "use strict";

  function lines() {
    return Array.prototype.slice.call(document.querySelectorAll("[data-grid-line]"));
  }

  function move(from, step) {
    var all = lines();
    var next = all[all.indexOf(from) + step];
    if (next) {
      next.focus();
      next.select();
    }
  }

  document.addEventListener("keydown", function (event) {
    var field = event.target;
    if (!field.hasAttribute || !field.hasAttribute("data-grid-line")) {
      return;
    }
    if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      field.form.requestSubmit ? field.form.requestSubmit() : field.form.submit();
    } else if (event.key === "Enter" || event.key === "ArrowDown") {
      event.preventDefault();
      move(field, 1);
    } else if (event.key === "ArrowUp") {
      event.preventDefault();
      move(field, -1);
    }
  });

  document.addEventListener("DOMContentLoaded", function () {
    var first = document.querySelector("[data-grid-line][aria-invalid=true]") || lines()[0];
    if (first) {
      first.focus();
    }
  });
})();
