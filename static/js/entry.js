/* The table link on a poor hall network: a deal the phone could not deliver is sent again.
 *
 * htmx alone does nothing visible when a POST never reaches the office (no network, the
 * request timed out, the proxy answered 502/503/504): the scorekeeper taps "Enter deal"
 * and nothing happens. Here the phone says so and sends the same deal again, with
 * growing pauses, until the office answers; coming back online sends it at once.
 *
 * Sending again is safe: the form carries the client_id made when it was shown, so
 * the office stores the deal once however often it arrives (scoring/entry.py), and
 * answers a resend with the sheet as it is. The same button is pressed again, so a
 * "Passed out" stays a passed-out deal. The texts come translated from the page
 * (#connection's data attributes). A refused deal scrolls its rule into view.
 */
(function () {
  "use strict";

  var PAUSES = [1, 2, 4, 8, 15, 30]; // seconds before each further attempt
  var RETRY_STATUSES = [0, 502, 503, 504];
  var attempt = 0;
  var timer = null;
  var submitter = null;

  function banner() {
    return document.getElementById("connection");
  }

  function show(text, kind) {
    var element = banner();
    if (!element) return;
    element.textContent = text;
    element.className = "connection " + kind;
    element.hidden = false;
  }

  function hide() {
    var element = banner();
    if (element) element.hidden = true;
  }

  function isEntry(element) {
    return element && element.id === "game-form";
  }

  function cancelRetry() {
    if (timer !== null) {
      window.clearTimeout(timer);
      timer = null;
    }
  }

  function sendAgain(form) {
    cancelRetry();
    if (!document.body.contains(form)) return; // the sheet was replaced meanwhile
    if (submitter && form.contains(submitter)) {
      submitter.click();
    } else {
      form.requestSubmit();
    }
  }

  function retryLater(form) {
    var element = banner();
    var seconds = PAUSES[Math.min(attempt, PAUSES.length - 1)];
    attempt += 1;
    if (element) show(element.dataset.retrying.replace("%(seconds)s", seconds), "offline");
    cancelRetry();
    timer = window.setTimeout(function () {
      if (navigator.onLine === false) {
        retryLater(form); // still offline: wait again; the "online" event sends at once
      } else {
        sendAgain(form);
      }
    }, seconds * 1000);
  }

  // The button that sent the form ("Enter deal" or "Passed out"), to press it again.
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("#game-form button[type=submit]");
    if (button) submitter = button;
  });

  document.addEventListener("htmx:beforeRequest", function (event) {
    if (!isEntry(event.detail.elt)) return;
    cancelRetry();
    var element = banner();
    if (element && attempt > 0) show(element.dataset.sending, "offline");
  });

  document.addEventListener("htmx:sendError", function (event) {
    if (isEntry(event.detail.elt)) retryLater(event.detail.elt);
  });

  document.addEventListener("htmx:timeout", function (event) {
    if (isEntry(event.detail.elt)) retryLater(event.detail.elt);
  });

  document.addEventListener("htmx:responseError", function (event) {
    if (!isEntry(event.detail.elt)) return;
    var status = event.detail.xhr.status;
    if (RETRY_STATUSES.indexOf(status) >= 0) {
      retryLater(event.detail.elt);
      return;
    }
    var element = banner();
    attempt = 0;
    if (element && !event.detail.xhr.getResponseHeader("HX-Redirect")) {
      show(element.dataset.failed.replace("%(status)s", status), "failed");
    }
  });

  // The office answered and its sheet is about to replace the form: delivered. (Not
  // htmx:afterRequest: that fires on the form, already gone from the page by then.)
  document.addEventListener("htmx:beforeSwap", function (event) {
    var config = event.detail.requestConfig;
    if (config && isEntry(config.elt) && event.detail.shouldSwap) {
      attempt = 0;
      submitter = null;
      hide();
    }
  });

  // A refused deal (422): the answer shows the sheet from its top, but the rule that
  // refused it is listed just above "Enter deal": bring that list into view.
  document.addEventListener("htmx:afterSettle", function (event) {
    var config = event.detail.requestConfig;
    if (!config || !isEntry(config.elt) || !event.detail.xhr || event.detail.xhr.status !== 422) return;
    var refusal = document.querySelector("#preview .errorlist") || document.querySelector("#game-form .errorlist");
    // After htmx's own "show:#sheet:top", which runs once this event is handled.
    if (refusal) window.setTimeout(function () { refusal.scrollIntoView({ block: "center" }); }, 0);
  });

  window.addEventListener("online", function () {
    var form = document.getElementById("game-form");
    if (timer !== null && form) sendAgain(form);
  });
})();
