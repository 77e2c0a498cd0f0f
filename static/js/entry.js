/* The table link on a poor hall network: every entered deal waits on the phone until the
 * office has it.
 *
 * "Enter deal" does not post the form itself. The deal (the form's fields, with the
 * client_id made when the form was shown) goes into a queue kept in localStorage under
 * the link, so a reload, a closed tab or a restarted browser keeps it; the queue is sent
 * in deal order, one deal at a time, and a deal leaves it only once the office has
 * answered for it. Sending again is safe: the office stores a client id once
 * (scoring/entry.py) and answers a resend with the sheet as it is. Its answers:
 *   200  stored (or stored before): the sheet as it is; the next waiting deal is sent.
 *   409  the deal was entered on another device: the answer says so (with the fields
 *        that differ), the deal leaves; that message stays until tapped away, whatever
 *        the next answers say.
 *   422  refused with its rule: the queue stops there, the deal comes back in the form
 *        for correction (same client id), named by its number, and the deals after it
 *        wait. What was half typed for the next deal is kept and comes back in the form
 *        once the refused deal is entered again.
 * Before a deal waits at all, the form's ranges by the rules are checked here (#entry-checks,
 * the engine's own messages: tops 1-11 or 1-4, card points 0-120, ...), never its value.
 *   none, 502/503/504: sent again after a pause, at once when the phone is online again.
 *   else: said; the deal keeps waiting and is sent when the page is opened again.
 *
 * Meanwhile the next deal's form is made on the phone (entry-form.js: its number, who
 * deals and who plays, seating known from the table's size). Its value is the office's
 * alone (scoring/rules.py): a waiting deal says "valued when sent".
 * A service worker (table-worker.js, served as /s/worker.js) keeps this page and its
 * assets so the link opens without network; after every answer the page it keeps
 * becomes the sheet as the office sent it. The texts, the seating data and the players'
 * names come from the page (#connection's data attributes, #table-players).
 */
(function () {
  "use strict";

  var PAUSES = [1, 2, 4, 8, 15, 30]; // seconds before each further attempt
  var RETRY_STATUSES = [0, 502, 503, 504];
  var TIMEOUT = 15000; // ms without an answer: sent again
  var banner = document.getElementById("connection");
  if (!banner || !banner.dataset.link || location.pathname !== banner.dataset.link) return;
  var text = banner.dataset;
  var link = text.link;
  var size = parseInt(text.size, 10);
  var forms = window.TableLinkForm({
    text: text,
    players: JSON.parse(document.getElementById("table-players").textContent),
    size: size,
    deals: parseInt(text.deals, 10),
  });
  var entrySection = forms.entrySection;
  var formOf = forms.formOf;
  var numberOf = forms.numberOf;
  var previewSays = forms.previewSays;
  var KEY = "skat-office:waiting:" + link;

  var memory = null; // the queue when localStorage cannot keep it (private mode, full)
  var busy = false; // a deal is on its way
  var stopped = null; // "refused" (422: corrected in the form) or "failed" (another error)
  var failedStatus = 0;
  var attempt = 0;
  var timer = null;
  var serverNext = null; // the deal of the form the office last sent
  var draft = null; // what was half typed for the next deal when a waiting deal was refused
  var checksNode = document.getElementById("entry-checks");
  var checks = checksNode ? JSON.parse(checksNode.textContent) : null;

  // --- The queue, per link ------------------------------------------------------------

  function load() {
    if (memory) return memory.slice();
    try {
      var queue = JSON.parse(window.localStorage.getItem(KEY) || "[]");
      return Array.isArray(queue) ? queue : [];
    } catch (error) {
      return [];
    }
  }

  function save(queue) {
    try {
      if (queue.length) window.localStorage.setItem(KEY, JSON.stringify(queue));
      else window.localStorage.removeItem(KEY);
      memory = null;
    } catch (error) {
      memory = queue.slice();
    }
  }

  function drop(id) {
    save(load().filter(function (item) { return item.id !== id; }));
  }

  function nextNumber(queue) {
    var number = serverNext || 1;
    queue.forEach(function (item) { if (item.number >= number) number = item.number + 1; });
    return number;
  }

  // --- Small helpers ------------------------------------------------------------------

  function format(template, values) {
    return template.replace(/%\((\w+)\)s/g, function (all, name) { return values[name]; });
  }

  function remove(element) {
    element.parentNode.removeChild(element);
  }

  // --- What the page shows: waiting rows, the banner ----------------------------------

  function unreachable() {
    return timer !== null || navigator.onLine === false;
  }

  function show(words, kind) {
    banner.textContent = words;
    banner.className = "connection " + kind;
    banner.hidden = false;
  }

  function cell(row, words, className, span) {
    var td = document.createElement("td");
    td.textContent = words;
    if (className) td.className = className;
    if (span) td.colSpan = span;
    row.appendChild(td);
  }

  function render() {
    var queue = load();
    document.querySelectorAll("#sheet tr.queued").forEach(remove);
    var body = document.querySelector("#sheet table.sheet tbody");
    var empty = document.querySelector("#sheet tr.empty");
    if (empty) empty.hidden = queue.length > 0;
    queue.forEach(function (item, index) {
      var refused = index === 0 && stopped === "refused";
      var row = document.createElement("tr");
      row.className = "queued" + (refused ? " refused" : "");
      row.dataset.deal = item.number;
      cell(row, item.number, "num");
      if (item.shown.passed) {
        cell(row, item.shown.passed, "muted", 2);
      } else {
        cell(row, item.shown.declarer);
        cell(row, item.shown.game);
      }
      cell(row, refused ? text.refused : text.waiting, "waiting", size + 1);
      if (body) body.appendChild(row);
    });
    // "Correct deal n" corrects the office's last deal, no longer the last once others wait.
    var correct = document.querySelector("#sheet .correct-last");
    if (correct) correct.hidden = queue.length > 0;
    if (stopped === "failed") show(format(text.failed, { status: failedStatus }), "failed");
    else if (queue.length && unreachable()) show(format(text.offline, { count: queue.length }), "offline");
    else if (queue.length && busy && attempt > 0) show(format(text.sending, { count: queue.length }), "offline");
    else banner.hidden = true;
    // What scrolls into view lands below the sticky banner, not under it (office.css).
    var height = banner.hidden ? 0 : banner.getBoundingClientRect().height + 8;
    document.documentElement.style.setProperty("--banner", height + "px");
  }

  // --- Sending, in order, one at a time -----------------------------------------------

  // The page's CSRF token, remembered: once the last deal of the series is entered its
  // form leaves the page, and the deal still waiting to be sent needs the token.
  var pageToken = "";

  function csrfToken() {
    var field = document.querySelector("input[name=csrfmiddlewaretoken]");
    if (field && field.value) pageToken = field.value;
    return pageToken;
  }
  csrfToken();

  function pump() {
    if (busy || stopped) return;
    var queue = load();
    if (!queue.length) return;
    // The phone knows it has no network: wait for its "online" event. (A POST the page's
    // service worker lets through is not always held back by the browser's own switch.)
    if (navigator.onLine === false) {
      retryLater();
      return;
    }
    var item = queue[0];
    busy = true;
    render();
    var controller = window.AbortController ? new AbortController() : null;
    var guard = window.setTimeout(function () { if (controller) controller.abort(); }, TIMEOUT);
    window.fetch(link, {
      method: "POST",
      credentials: "same-origin",
      headers: { "HX-Request": "true", "Content-Type": "application/x-www-form-urlencoded;charset=UTF-8" },
      // The page's own token: the one the deal was entered with may be older.
      body: item.body + "&csrfmiddlewaretoken=" + encodeURIComponent(csrfToken()),
      signal: controller ? controller.signal : undefined,
    }).then(function (response) {
      return response.text().then(function (html) { return { status: response.status, html: html }; });
    }).then(function (answer) {
      window.clearTimeout(guard);
      busy = false;
      answered(item, answer.status, answer.html);
    }, function () {
      window.clearTimeout(guard);
      busy = false;
      retryLater();
    });
  }

  function retryLater() {
    var seconds = PAUSES[Math.min(attempt, PAUSES.length - 1)];
    attempt += 1;
    window.clearTimeout(timer);
    timer = window.setTimeout(function () {
      timer = null;
      if (navigator.onLine === false) retryLater(); // the "online" event sends at once
      else pump();
    }, seconds * 1000);
    render();
  }

  function sendNow() {
    if (timer !== null) {
      window.clearTimeout(timer);
      timer = null;
    }
    pump();
  }

  function answered(item, status, html) {
    if (RETRY_STATUSES.indexOf(status) >= 0) {
      retryLater();
      return;
    }
    attempt = 0;
    var incoming = status === 200 || status === 409 || status === 422 ? parse(html) : null;
    if (!incoming) {
      stopped = "failed";
      failedStatus = status;
      render();
      return;
    }
    if (status === 422) {
      stopped = "refused";
      var live = entrySection();
      if (!draft && formOf(live) && numberOf(live) !== item.number && forms.typed(live)) {
        draft = { number: numberOf(live), values: forms.values(live) };
      }
      swap(incoming, false);
      render();
      refusedNote(item.number);
      var refusal = document.querySelector("#preview .errorlist") || document.querySelector("#game-form .rule");
      if (refusal) refusal.scrollIntoView({ block: "center" });
      return;
    }
    drop(item.id);
    swap(incoming, true);
    render();
    revalue();
    pump();
  }

  /* Above the refused deal's form: which deal it is, and that the half-typed next one is kept. */
  function refusedNote(number) {
    var section = entrySection();
    if (!section) return;
    var note = document.createElement("div");
    note.className = "refused-deal rule";
    note.setAttribute("role", "alert");
    var line = document.createElement("p");
    line.textContent = format(text.refusedDeal, { number: number });
    note.appendChild(line);
    if (draft) {
      var kept = document.createElement("p");
      kept.textContent = format(text.draftKept, { number: draft.number });
      note.appendChild(kept);
    }
    section.insertBefore(note, section.firstChild);
  }

  /* The office answers again: the form being filled in gets its live value back. */
  function revalue() {
    var section = entrySection();
    var box = section && section.querySelector("#preview");
    if (!box || box.textContent.trim() !== text.valued) return;
    previewSays(section, text.preview);
    if (section.querySelector("input[name=declarer_seat]:checked, input[name=contract]:checked")) {
      window.htmx.trigger(section.querySelector(".fields"), "change");
    }
  }

  function parse(html) {
    var template = document.createElement("template");
    template.innerHTML = html;
    return template.content.getElementById("sheet");
  }

  /* The office's sheet replaces the page's. The form being filled in stays where it is
   * (moving it would close the phone's keyboard) unless the office asks for a later deal. */
  function swap(incoming, keepForm) {
    if (keepForm) keep(incoming); // not a refusal: reopened, the page shows the sheet, not the rule
    var current = document.getElementById("sheet");
    // "Deal n was entered on another device" stays until tapped away: the next deal's
    // "entered" must not replace it a second later.
    var told = Array.prototype.slice.call(current.querySelectorAll(".messages-inline.taken"));
    var head = incoming.querySelector(".table-head");
    told.forEach(function (message) {
      if (incoming.querySelector('.messages-inline.taken[data-deal="' + message.dataset.deal + '"]')) return;
      if (head) head.parentNode.insertBefore(message, head.nextSibling);
    });
    var live = entrySection();
    var arriving = entrySection(incoming);
    serverNext = numberOf(arriving);
    if (keepForm && formOf(live) && arriving && live.parentNode === current && numberOf(live) >= serverNext) {
      var nodes = Array.prototype.slice.call(incoming.childNodes);
      var at = nodes.indexOf(arriving);
      Array.prototype.slice.call(current.childNodes).forEach(function (node) { if (node !== live) remove(node); });
      nodes.slice(0, at).forEach(function (node) { current.insertBefore(node, live); });
      nodes.slice(at + 1).forEach(function (node) { current.appendChild(node); });
    } else {
      current.parentNode.replaceChild(incoming, current);
      current = incoming;
    }
    window.htmx.process(current);
    if (stopped !== "refused") forms.show(nextNumber(load()), unreachable());
  }

  // --- The page kept for a reload without network (table-worker.js) ------------------

  function worker(message) {
    if (!("serviceWorker" in navigator)) return;
    navigator.serviceWorker.ready.then(function (registration) {
      if (registration.active) registration.active.postMessage(message);
    });
  }

  /* Keep this page as the office sent it (``sheet``: its latest sheet), nothing of the phone's own. */
  function keep(sheet) {
    if (!("serviceWorker" in navigator)) return;
    var page = document.documentElement.cloneNode(true);
    if (sheet) {
      var old = page.querySelector("#sheet");
      old.parentNode.replaceChild(sheet.cloneNode(true), old);
    }
    page.querySelectorAll(".messages, .messages-inline, tr.queued").forEach(remove);
    var status = page.querySelector("#connection");
    status.hidden = true;
    status.textContent = "";
    status.className = "connection";
    var assets = Array.prototype.map.call(document.querySelectorAll("link[rel=stylesheet], script[src]"), function (e) {
      return e.href || e.src;
    });
    worker({ page: link, html: "<!doctype html>\n" + page.outerHTML, assets: assets });
  }

  // --- Events -------------------------------------------------------------------------

  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("[data-dismiss]");
    if (button) remove(button.closest(".messages-inline"));
  });

  document.addEventListener("submit", function (event) {
    var entered = event.target;
    if (!entered.matches || !entered.matches("form[data-queue]")) return;
    event.preventDefault();
    var submitter = event.submitter;
    var passed = Boolean(submitter && submitter.name === "passed_out");
    if (!passed && !entered.querySelector("input[name=declarer_seat]:checked, input[name=contract]:checked")) {
      // Nothing chosen (a second tap on the next deal's button, say): not a deal to
      // keep; the live value asks the office what is missing.
      window.htmx.trigger(entered.querySelector(".fields"), "change");
      return;
    }
    // The form's ranges by the rules, before the deal waits: refused here with the
    // engine's own message, so a deal the office would refuse never stops the queue.
    var problem = checks && !passed ? forms.check(entered, checks) : null;
    if (problem) {
      forms.refuse(entered, problem);
      return;
    }
    var data = new FormData(entered);
    if (submitter && submitter.name) data.append(submitter.name, submitter.value);
    data.delete("csrfmiddlewaretoken");
    var item = {
      id: data.get("client_id"),
      number: parseInt(data.get("number"), 10),
      body: new URLSearchParams(data).toString(),
      shown: forms.describe(entered, passed),
    };
    var queue = load();
    var at = queue.findIndex(function (waiting) { return waiting.id === item.id; });
    if (at >= 0) queue[at] = item; // a refused deal, corrected: sent again in its place
    else queue.push(item);
    save(queue);
    if (at === 0) stopped = null;
    forms.show(nextNumber(queue), unreachable());
    if (at === 0 && draft) {
      // The refused deal is entered again: what was half typed for the next one comes back.
      if (draft.number === nextNumber(queue)) forms.restore(entrySection(), draft.values, !unreachable());
      draft = null;
    }
    render();
    document.getElementById("sheet").scrollIntoView({ block: "start" });
    pump();
  });

  // The live value (htmx, scoring/views.preview) without the office: valued when sent.
  function previewFailed(event) {
    var elt = event.detail.elt;
    if (!elt || !elt.matches || !elt.matches("#game-form .fields")) return;
    if (event.type === "htmx:responseError" && RETRY_STATUSES.indexOf(event.detail.xhr.status) < 0) return;
    previewSays(elt.closest("section.entry"), text.valued);
  }
  document.addEventListener("htmx:sendError", previewFailed);
  document.addEventListener("htmx:timeout", previewFailed);
  document.addEventListener("htmx:responseError", previewFailed);

  window.addEventListener("online", function () {
    revalue();
    sendNow();
  });
  document.addEventListener("visibilitychange", function () { if (!document.hidden) sendNow(); });
  // Another tab of the same link changed the queue.
  window.addEventListener("storage", function (event) {
    if (event.key !== KEY) return;
    forms.show(nextNumber(load()), unreachable());
    render();
    pump();
  });

  // --- Start: keep the page, show what waits, send it ---------------------------------

  serverNext = numberOf(entrySection());
  if ("serviceWorker" in navigator) {
    navigator.serviceWorker.addEventListener("message", function (event) {
      if (event.data && event.data.kept) document.documentElement.dataset.offline = "ready";
    });
    navigator.serviceWorker.register(text.worker, { scope: link }).catch(function () {});
    keep(null);
  }
  forms.show(nextNumber(load()), unreachable());
  render();
  pump();
})();
