/* The office grid (templates/scoring/grid.html): a paper list typed with the keyboard only.
 *
 * Each row's line is valued by the office as it is typed (htmx posts it to the preview
 * URL; the rules live in scoring/rules.py only, never here). This file moves the cursor:
 * Enter goes to the next row (it never sends the form), the arrow keys up and down move
 * between rows, Ctrl+Enter (or Cmd+Enter) saves the whole list. On load the cursor
 * stands in the first refused row, else the first row.
 *
 * The players' running totals, as on the paper list, add up the scores the office gave
 * each row (data-score, data-seat) from the totals already entered (data-totals): a
 * sum, never a value. After a row without a score (empty, refused, not valued yet) the
 * totals stay empty: the list is not whole there.
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

  function totals() {
    var table = document.querySelector("table.grid[data-totals]");
    if (!table) {
      return;
    }
    var sums = table.getAttribute("data-totals").split(",").map(Number);
    var whole = true;
    Array.prototype.forEach.call(table.querySelectorAll("tbody tr"), function (row) {
      var score = row.querySelector(".outputs [data-score]");
      var seat = score ? parseInt(score.getAttribute("data-seat"), 10) : 0;
      whole = whole && score !== null;
      if (whole && seat) {
        sums[seat - 1] += parseInt(score.getAttribute("data-score"), 10);
      }
      Array.prototype.forEach.call(row.querySelectorAll("td.total"), function (cell, index) {
        cell.textContent = whole ? String(sums[index]) : "";
        cell.classList.toggle("declarer", whole && index + 1 === seat);
      });
    });
  }

  document.addEventListener("htmx:afterSwap", totals);

  document.addEventListener("DOMContentLoaded", function () {
    totals();
    var first = document.querySelector("[data-grid-line][aria-invalid=true]") || lines()[0];
    if (first) {
      first.focus();
    }
  });
})();
