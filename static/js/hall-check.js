/* The hall check before the doors open (dashboard/hall.py, tablelink/hall_views.py).
 *
 * Before a table's first deal its link page shows #hall-check. The check sends
 * data-pings round trips to data-ping, one every data-interval ms, each counted lost
 * after data-timeout ms without an answer, measures each on this phone, and posts what
 * it measured (sent, received, and the answered round trips' median, 95th percentile and
 * slowest, in ms) to data-report; the office keeps it for the director's hall map and
 * answers what to say here. It runs by itself when the page opens on a table never
 * checked (data-auto: a helper scanning the table cards) and on the "Check connection"
 * button.
 *
 * It adds nothing while play is on: it stops when a deal is entered on this phone (the
 * entry form's submit, or the sheet replaced), and when the office answers a round trip
 * with 409 (a deal entered on another phone) or 410 (the series is finished). Stopped so,
 * it reports the round trips it had (marked "cut"), once. The texts
 * come from the section's data attributes (translated by the office).
 */
(function () {
  "use strict";

  var running = null;

  function section() {
    return document.getElementById("hall-check");
  }

  function format(template, values) {
    return template.replace(/%\((\w+)\)s/g, function (all, name) { return values[name]; });
  }

  /* The status line; ``busy`` while the round trips count up, so a screen reader says the result, not every step. */
  function say(node, words, busy) {
    var line = node.querySelector(".hall-state");
    line.textContent = words;
    line.setAttribute("aria-busy", busy ? "true" : "false");
  }

  /* Nearest rank: the smallest time at least ``share`` of the answers took at most. */
  function percentile(sorted, share) {
    return sorted[Math.max(0, Math.ceil(share * sorted.length) - 1)];
  }

  function stop(words) {
    var run = running;
    if (!run) return;
    running = null;
    run.stopped = true;
    run.timers.forEach(clearTimeout);
    run.controllers.forEach(function (controller) { controller.abort(); });
    reportCut(run);
    if (words && document.body.contains(run.node)) {
      say(run.node, words);
      run.button.hidden = true;
    }
  }

  function check() {
    var node = section();
    if (!node || running) return;
    var data = node.dataset;
    var run = {
      node: node,
      button: node.querySelector("[data-hall-check]"),
      count: parseInt(data.pings, 10),
      interval: parseInt(data.interval, 10),
      timeout: parseInt(data.timeout, 10),
      stopped: false,
      timers: [],
      controllers: [],
      times: [],
      settled: 0,
    };
    running = run;
    run.button.disabled = true;
    node.dataset.state = "checking";
    say(node, format(data.running, { done: 0, count: run.count }), true);
    for (var i = 0; i < run.count; i++) {
      run.timers.push(setTimeout(ping.bind(null, run, i), i * run.interval));
    }
  }

  function ping(run, index) {
    if (run.stopped) return;
    if (!document.body.contains(run.node)) {
      stop(); // the sheet was replaced: a deal was entered
      return;
    }
    var controller = new AbortController();
    run.controllers.push(controller);
    var timer = setTimeout(function () { controller.abort(); }, run.timeout);
    var started = performance.now();
    fetch(run.node.dataset.ping + "?n=" + index, { cache: "no-store", credentials: "same-origin", signal: controller.signal })
      .then(function (response) {
        var took = performance.now() - started;
        if (response.status === 409 || response.status === 410) {
          stop(run.node.dataset.stopped);
        } else if (response.ok) {
          run.times.push(Math.round(took));
        } // any other answer (the office overloaded) counts as lost
      })
      .catch(function () {}) // no answer in time: lost
      .then(function () {
        clearTimeout(timer);
        run.settled += 1;
        if (run.stopped) return;
        say(run.node, format(run.node.dataset.running, { done: run.settled, count: run.count }), true);
        if (run.settled === run.count) report(run);
      });
  }

  /* The first deal cut the check short: what it measured so far goes to the office all the
   * same ("cut": kept once for a table never checked, dashboard/hall.py), so the dashboard
   * shows the table as measured, not "not checked". Nothing measured: nothing to say. */
  function reportCut(run) {
    if (!run.settled) return;
    var sorted = run.times.slice().sort(function (a, b) { return a - b; });
    var answered = sorted.length > 0;
    var token = run.node.querySelector("input[name=csrfmiddlewaretoken]");
    fetch(run.node.dataset.report, {
      method: "POST",
      credentials: "same-origin",
      keepalive: true,
      headers: { "X-CSRFToken": token ? token.value : "" },
      body: new URLSearchParams({
        sent: run.settled,
        received: sorted.length,
        p50: answered ? percentile(sorted, 0.5) : "",
        p95: answered ? percentile(sorted, 0.95) : "",
        max: answered ? sorted[sorted.length - 1] : "",
        cut: "1",
      }),
    }).catch(function () {});
  }

  function report(run) {
    running = null;
    var node = run.node;
    var sorted = run.times.slice().sort(function (a, b) { return a - b; });
    var answered = sorted.length > 0;
    var summary = {
      sent: run.count,
      received: sorted.length,
      p50: answered ? percentile(sorted, 0.5) : "",
      p95: answered ? percentile(sorted, 0.95) : "",
      max: answered ? sorted[sorted.length - 1] : "",
    };
    var token = node.querySelector("input[name=csrfmiddlewaretoken]");
    var finish = function (state, words) {
      node.dataset.state = state;
      say(node, words);
      run.button.disabled = false;
    };
    var unsent = function (reason) {
      finish("unsent", format(node.dataset.unsent, {
        received: summary.received, sent: summary.sent, max: answered ? summary.max : "–", reason: reason,
      }));
    };
    fetch(node.dataset.report, {
      method: "POST",
      credentials: "same-origin",
      headers: { "X-CSRFToken": token ? token.value : "" },
      body: new URLSearchParams(summary),
    })
      .then(function (response) {
        return response.json().catch(function () { return { error: "HTTP " + response.status }; }).then(function (answer) {
          if (response.ok && answer.state) finish(answer.state, answer.text);
          else if (response.status === 409 || response.status === 410) {
            finish("stopped", answer.error);
            run.button.hidden = true;
          }
          else unsent(answer.error || "HTTP " + response.status);
        });
      })
      .catch(function () { unsent(node.dataset.offline); });
  }

  document.addEventListener("click", function (event) {
    if (event.target.closest && event.target.closest("[data-hall-check]")) check();
  });

  // A deal entered on this phone: play is on, the check stops.
  document.addEventListener("submit", function (event) {
    if (event.target.matches && event.target.matches("form[data-queue]") && running) stop(running.node.dataset.stopped);
  }, true);

  // The sheet answered for a refused first deal comes with the section again: its button too.
  document.addEventListener("htmx:afterSettle", function () {
    var node = section();
    if (node && !running) node.querySelector("[data-hall-check]").hidden = false;
  });

  var node = section();
  if (!node) return;
  node.querySelector("[data-hall-check]").hidden = false;
  if (node.hasAttribute("data-auto")) {
    node.removeAttribute("data-auto");
    // Once the page's own files are in (they would slow the first round trips), and a
    // moment apart for phones opened together.
    var start = function () { setTimeout(check, Math.random() * parseInt(node.dataset.interval, 10)); };
    if (document.readyState === "complete") start();
    else window.addEventListener("load", start);
  }
})();
