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
 *        A deal appended is answered with only what changed (#sheet-delta: the new
 *        row, the sheet's foot, the progress, the next form, ...; tablelink/answers.py),
 *        put in place as htmx's out-of-band swaps; a page that is not the sheet that
 *        answer follows asks for the whole sheet instead.
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
 *   507  the office's disk is full (config/diskfull.py): it stored nothing; the deal stays
 *        waiting and is sent again after a pause, the banner says why.
 *   any other 5xx: the office had a problem (not a refusal: it said nothing about the
 *        deal); the deal stays waiting and is sent again after the pauses, the banner
 *        says the office had a problem, with its error number.
 *   else (a 4xx without a rule: 403, 404, ...): said as a refusal; the deal keeps waiting
 *        and is sent when the page is opened again.
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
  var RETRY_STATUSES = [0, 502, 503, 504, 507];
  var DISK_FULL = 507;
  var OFFICE_TROUBLE = 500; // 500-599 not listed above: the office's own problem, tried again
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
  var diskFull = false; // the office's last answer: its disk is full
  var troubleStatus = 0; // the office's last answer was this 5xx (its own problem): tried again
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
    else if (queue.length && diskFull) show(text.diskFull, "failed");
    else if (queue.length && troubleStatus) show(format(text.trouble, { status: troubleStatus }), "offline");
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
      diskFull = false; // no answer at all: the banner says the office cannot be reached
      troubleStatus = 0;
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

  /* Worth sending again: no answer, a gateway's, a full disk, or any other 5xx (the
   * office's own problem says nothing about the deal; a refusal is a 4xx with its rule). */
  function retried(status) {
    return RETRY_STATUSES.indexOf(status) >= 0 || (status >= OFFICE_TROUBLE && status < 600);
  }

  function answered(item, status, html) {
    diskFull = status === DISK_FULL;
    troubleStatus = retried(status) && RETRY_STATUSES.indexOf(status) < 0 ? status : 0;
    if (retried(status)) {
      retryLater();
      return;
    }
    attempt = 0;
    var delta = status === 200 ? parseDelta(html) : null;
    if (delta) {
      // A deal appended: only what changed (tablelink/answers.py); a page that is not the
      // sheet it follows gets the whole sheet instead.
      if (!applyDelta(delta)) {
        wholeSheet(item);
        return;
      }
      drop(item.id);
      render();
      revalue();
      pump();
      return;
    }
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

  function parseDelta(html) {
    var template = document.createElement("template");
    template.innerHTML = html;
    return template.content.getElementById("sheet-delta");
  }

  /* The office's last deal on the page's sheet (0: none), the rows waiting on the phone left out. */
  function lastDeal(sheet) {
    var rows = sheet.querySelectorAll("table.sheet > tbody > tr:not(.queued):not(.empty)");
    if (!rows.length) return 0;
    return parseInt(rows[rows.length - 1].querySelector("td").textContent, 10) || 0;
  }

  /* The parts of a lean answer put in place in ``sheet``, as htmx's out-of-band swaps:
   * "outerHTML:<selector>" replaces, "beforeend:<selector>" appends the element's
   * children, "beforebegin:<selector>" inserts before, "true" replaces the element of its
   * id. ``skip`` (the arriving form, when the one being filled in stays) is left out.
   * False, and nothing changed, when a part finds no place on the page. */
  function placeParts(delta, sheet, skip) {
    var parts = Array.prototype.slice.call(delta.querySelectorAll("[hx-swap-oob]"));
    var places = parts.map(function (part) {
      var spec = part.getAttribute("hx-swap-oob");
      var colon = spec.indexOf(":");
      var how = colon < 0 ? spec : spec.slice(0, colon);
      var target = colon < 0 ? sheet.querySelector("#" + part.id) : sheet.querySelector(spec.slice(colon + 1));
      if (how === "true") how = "outerHTML";
      return { part: part, how: how, target: target };
    });
    if (places.some(function (place) { return !place.target && place.part !== skip; })) return false;
    // The note of the deal entered before this one leaves (as when the whole sheet came).
    sheet.querySelectorAll(".messages-inline.entered").forEach(remove);
    // Insertions first: a part placed before the form must find it before it is replaced.
    places.sort(function (a, b) { return (a.how === "beforebegin" ? 0 : 1) - (b.how === "beforebegin" ? 0 : 1); });
    places.forEach(function (place) {
      var part = place.part;
      part.removeAttribute("hx-swap-oob");
      if (part === skip) return;
      if (place.how === "outerHTML") place.target.parentNode.replaceChild(part, place.target);
      else if (place.how === "beforebegin") place.target.parentNode.insertBefore(part, place.target);
      else if (place.how === "beforeend") {
        while (part.firstChild) place.target.appendChild(part.firstChild);
      }
    });
    return true;
  }

  /* The form kept in place (being filled in) stands on the office's sheet now: it carries
   * that sheet's version, as the office's own form would (tablelink/answers.py answers
   * lean only to a page at the sheet's version before the deal). */
  function takeVersion(live, arriving) {
    var from = formOf(arriving) && formOf(arriving).elements.sheet_version;
    var to = formOf(live) && formOf(live).elements.sheet_version;
    if (from && to) to.value = from.value;
  }

  /* A lean answer on the page; false when the page is not the sheet it follows. */
  function applyDelta(delta) {
    var current = document.getElementById("sheet");
    if (lastDeal(current) !== parseInt(delta.dataset.after, 10)) return false;
    // The page the service worker keeps: the office's sheet with the office's form.
    var kept = current.cloneNode(true);
    kept.querySelectorAll("tr.queued").forEach(remove);
    if (!placeParts(delta.cloneNode(true), kept, null)) return false;
    var live = entrySection();
    var arriving = delta.querySelector("section.entry");
    serverNext = numberOf(arriving);
    var keepLive = formOf(live) && live.parentNode === current && numberOf(live) >= serverNext;
    if (keepLive) takeVersion(live, arriving);
    if (!placeParts(delta, current, keepLive ? arriving : null)) return false;
    keep(kept);
    window.htmx.process(current);
    if (stopped !== "refused") forms.show(nextNumber(load()), unreachable());
    return true;
  }

  /* The page could not take the lean answer (another device entered meanwhile, or the
   * phone made its own forms): the whole sheet, as a reload would show it. The deal is
   * stored; it leaves the queue once the sheet is here. */
  function wholeSheet(item) {
    busy = true;
    window.fetch(link, { credentials: "same-origin" }).then(function (response) {
      return response.text().then(function (html) { return { status: response.status, html: html }; });
    }).then(function (answer) {
      busy = false;
      var incoming = answer.status === 200 ? parse(answer.html) : null;
      drop(item.id);
      if (incoming) swap(incoming, true);
      render();
      revalue();
      pump();
    }, function () {
      busy = false;
      drop(item.id); // stored: the office answered for it; the sheet comes with the next answer
      render();
      pump();
    });
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
      takeVersion(live, arriving);
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

  // --- "Passed out" at a second tap ---------------------------------------------------
  // A stray tap on "Passed out" stores nothing: the first tap asks again on the button
  // itself, for a few seconds or until anything else in the form is touched. Asked before
  // the deal waits, never taken back after: nothing stored is ever deleted, so an entry id
  // a phone resends always means the deal it stored (scoring/entry.py).
  var CONFIRM_PASSED = 4000; // ms the second tap is awaited
  var armedTimer = null;

  function disarm() {
    window.clearTimeout(armedTimer);
    armedTimer = null;
    document.querySelectorAll("button.passed.armed").forEach(function (button) {
      button.classList.remove("armed");
      button.textContent = button.dataset.label;
      button.removeAttribute("aria-pressed");
    });
  }

  /* The first tap: the button asks "Passed out? Tap again"; true when that tap is the second. */
  function confirmedPassedOut(button) {
    if (button.classList.contains("armed")) {
      disarm();
      return true;
    }
    disarm();
    button.dataset.label = button.textContent;
    button.textContent = button.dataset.askAgain;
    button.classList.add("armed");
    button.setAttribute("aria-pressed", "true");
    armedTimer = window.setTimeout(disarm, CONFIRM_PASSED);
    return false;
  }

  document.addEventListener("input", disarm, true);
  document.addEventListener("change", disarm, true);

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
    if (passed && submitter.dataset.askAgain && !confirmedPassedOut(submitter)) return;
    if (!passed) disarm();
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
    if (event.type === "htmx:responseError" && !retried(event.detail.xhr.status)) return;
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
