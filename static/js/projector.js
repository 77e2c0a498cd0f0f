/* The projector page (templates/tournaments/live.html): the next page of the standings
 * every data-seconds, and a clock.
 *
 * Each page's board names the next one (data-next: the last page names the first), so
 * the screen rotates through the whole field. The hall's Wi-Fi fails now and then: a
 * fetch that fails or takes too long keeps the page on the screen, says so in one line,
 * and the same page is asked for again at the next turn. The browser revalidates with
 * the page's ETag, so an unchanged page costs the office a 304. When the office answers
 * that the standings are no longer public (404: the director withdrew them), the board
 * leaves the screen at once and a line says so; the screen keeps asking and shows the
 * standings again when they are published again. A director's preview of standings not
 * yet published (data-preview) keeps its first page and its note instead of blanking; once
 * they are published the screen turns and the note goes.
 */
(function () {
  "use strict";

  var screen = document.querySelector("[data-seconds]");
  var board = document.getElementById("board");
  if (!screen || !board) {
    return;
  }
  var seconds = Math.max(parseInt(screen.getAttribute("data-seconds"), 10) || 12, 2);
  var clock = document.querySelector("[data-clock]");
  var offline = document.querySelector("[data-offline]");
  var withdrawn = document.querySelector("[data-withdrawn]");
  var previewNote = document.querySelector("[data-preview-note]");
  var preview = screen.hasAttribute("data-preview");
  var busy = false;

  function two(n) {
    return (n < 10 ? "0" : "") + n;
  }

  function showTime() {
    var now = new Date();
    if (clock) {
      clock.textContent = two(now.getHours()) + ":" + two(now.getMinutes());
    }
  }

  function connected(yes) {
    if (offline) {
      offline.hidden = yes;
    }
  }

  function published(yes) {
    if (preview && !yes) {
      return; // the director's preview: the first page and the note stay
    }
    if (previewNote && yes) {
      previewNote.hidden = true;
    }
    board.hidden = !yes;
    if (withdrawn) {
      withdrawn.hidden = yes;
    }
  }

  function turn() {
    var part = board.querySelector("[data-next]");
    if (!part || busy) {
      return;
    }
    busy = true;
    var controller = window.AbortController ? new AbortController() : null;
    var timer = controller ? window.setTimeout(function () { controller.abort(); }, Math.max(seconds * 1000 - 500, 1500)) : null;
    fetch(part.getAttribute("data-next"), {
      credentials: "same-origin",
      headers: { Accept: "text/html" },
      signal: controller ? controller.signal : undefined
    }).then(function (response) {
      if (response.status === 404) {
        published(false); // the office answered: not public; the same page is asked again
        connected(true);
        return null;
      }
      if (!response.ok) {
        throw new Error("HTTP " + response.status);
      }
      return response.text();
    }).then(function (html) {
      if (html === null) {
        return;
      }
      if (html.indexOf("data-next") < 0) {
        throw new Error("not a board");
      }
      board.innerHTML = html;
      published(true);
      connected(true);
    }).catch(function () {
      connected(false); // the last page stays; the next turn asks again
    }).then(function () {
      if (timer) {
        window.clearTimeout(timer);
      }
      busy = false;
    });
  }

  showTime();
  window.setInterval(showTime, 1000);
  window.setInterval(turn, seconds * 1000);
})();
