/* The table links' service worker: a link page opens on the phone without network.
 *
 * Served as /s/worker.js (scoring/views.table_worker) and registered by each link page
 * (static/js/entry.js) for its own link only, scope /s/<token>/. The page hands it what
 * to keep: the page itself as the office last sent it, and its stylesheet and scripts.
 * Opening the link asks the office first; without an answer in WAIT ms (or none at all)
 * the kept page is shown, and entry.js sends the deals waiting on the phone once the
 * office answers. Only the link page itself and the kept assets are ever answered from
 * here; every POST (entering a deal, its live value), the hall check's round trips and
 * every other page go to the office as before.
 */
"use strict";

var CACHE = "table-link-v1";
var WAIT = 5000;

self.addEventListener("install", function () {
  self.skipWaiting();
});

self.addEventListener("activate", function (event) {
  event.waitUntil(
    caches.keys().then(function (names) {
      return Promise.all(names.filter(function (name) {
        return name.indexOf("table-link-") === 0 && name !== CACHE;
      }).map(function (name) { return caches.delete(name); }));
    }).then(function () { return self.clients.claim(); })
  );
});

// From the page: {page, html, assets}. Answered with {kept: page} once stored.
self.addEventListener("message", function (event) {
  var data = event.data || {};
  var work = caches.open(CACHE).then(function (cache) {
    var jobs = (data.assets || []).map(function (asset) {
      return cache.match(asset).then(function (hit) { return hit || cache.add(asset); }).catch(function () {});
    });
    if (data.page && data.html) {
      var page = new Response(data.html, { headers: { "Content-Type": "text/html; charset=utf-8" } });
      jobs.push(cache.put(data.page, page));
    }
    return Promise.all(jobs);
  }).then(function () {
    if (event.source) event.source.postMessage({ kept: data.page || true });
  });
  event.waitUntil(work);
});

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") return;
  // The hall check's round trips (hall-check.js) measure the network: straight to the office.
  if (/\/ping\/$/.test(new URL(request.url).pathname)) return;
  if (request.mode === "navigate") {
    if (new URL(request.url).pathname === new URL(self.registration.scope).pathname) event.respondWith(linkPage(request));
    return;
  }
  event.respondWith(asset(request, event));
});

/* The office's page if it answers in time, else the kept one (else the office's late answer or error). */
function linkPage(request) {
  var network = fetch(request);
  var late = new Promise(function (resolve) { setTimeout(resolve, WAIT); });
  return Promise.race([network.catch(function () { return null; }), late]).then(function (response) {
    if (response && (response.status < 502 || response.status > 504)) return response;
    return caches.match(request, { ignoreSearch: true }).then(function (kept) { return kept || network; });
  });
}

/* A kept asset at once (and fetched again for the next time); anything else from the office. */
function asset(request, event) {
  return caches.match(request).then(function (kept) {
    if (!kept) return fetch(request);
    event.waitUntil(caches.open(CACHE).then(function (cache) {
      return fetch(request).then(function (response) {
        if (response.ok) return cache.put(request, response);
      }).catch(function () {});
    }));
    return kept;
  });
}
