// Live scoreboards: keep a game's page up to date while other phones record hands.
//
// Markup: an element with data-live-version-url (the game's GET /games/<id>/version),
// data-live-version (the version the page was built from) and data-live-poll-ms;
// the parts to refresh carry data-live-region and an id. An optional element with
// data-live-status shows "live" / "offline" using its data-text-live and
// data-text-offline. Without JavaScript the page simply stays as it was served.
//
// While the page is visible it asks for the version about once a second with
// If-None-Match (a 304 costs the server one small query). When the version
// changes it fetches the page again and swaps each live region for the new one.
// Offline, it backs off; back online (or visible again) it asks at once, so a
// phone that was away catches up on its first answer.
(function () {
  "use strict";

  var root = document.querySelector("[data-live-version-url]");
  if (!root || !window.fetch || !window.DOMParser) return;

  var versionUrl = root.getAttribute("data-live-version-url");
  var known = root.getAttribute("data-live-version") || "";
  var every = parseInt(root.getAttribute("data-live-poll-ms"), 10) || 1000;
  var status = document.querySelector("[data-live-status]");
  var timer = null;
  var busy = false;
  var failures = 0;

  function show(state) {
    if (!status) return;
    status.setAttribute("data-state", state);
    var text = status.getAttribute("data-text-" + state);
    if (text && status.textContent !== text) status.textContent = text;
  }

  function schedule(ms) {
    clearTimeout(timer);
    timer = null;
    if (document.visibilityState === "hidden") return; // resumes on visibilitychange
    timer = setTimeout(poll, ms);
  }

  function swapRegions(html) {
    var doc = new DOMParser().parseFromString(html, "text/html");
    var regions = document.querySelectorAll("[data-live-region]");
    for (var i = 0; i < regions.length; i++) {
      var old = regions[i];
      var fresh = old.id && doc.getElementById(old.id);
      if (!fresh) continue;
      // Keep what the reader opened (a <details>) open.
      var opened = old.querySelectorAll("details[open][id]");
      for (var j = 0; j < opened.length; j++) {
        var same = fresh.querySelector("#" + CSS.escape(opened[j].id));
        if (same) same.setAttribute("open", "");
      }
      old.replaceWith(document.importNode(fresh, true));
    }
    var freshRoot = doc.querySelector("[data-live-version-url]");
    return freshRoot ? freshRoot.getAttribute("data-live-version") : null;
  }

  function refresh(version) {
    return fetch(window.location.href, {
      cache: "no-store",
      credentials: "same-origin",
      headers: { "X-Live-Refresh": "1" }
    }).then(function (response) {
      if (!response.ok || response.redirected) {
        // The page itself is gone or moved (a deleted hand, say): stop chasing it.
        known = version;
        return;
      }
      return response.text().then(function (html) {
        var shown = swapRegions(html);
        known = shown || version;
        document.dispatchEvent(new CustomEvent("live:updated", { detail: { version: known } }));
      });
    });
  }

  function poll() {
    if (busy) return;
    busy = true;
    fetch(versionUrl, {
      cache: "no-store",
      credentials: "same-origin",
      headers: { "If-None-Match": '"' + known + '"', "Accept": "application/json" }
    }).then(function (response) {
      if (response.status === 304) return null;
      if (!response.ok) throw new Error("version: HTTP " + response.status);
      return response.json();
    }).then(function (answer) {
      if (answer && answer.version !== known) return refresh(answer.version);
    }).then(function () {
      failures = 0;
      show("live");
    }, function () {
      failures += 1;
      show("offline");
    }).then(function () {
      busy = false;
      // Back off while the server cannot be reached: 1, 2, 4, 8, at most 15 s.
      schedule(failures ? Math.min(every * Math.pow(2, failures - 1), 15000) : every);
    });
  }

  function now() {
    failures = 0;
    schedule(0);
  }

  window.addEventListener("online", now);
  window.addEventListener("offline", function () { show("offline"); });
  window.addEventListener("pageshow", function (event) { if (event.persisted) now(); });
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") now();
    else { clearTimeout(timer); timer = null; }
  });
  schedule(every);
})();
