// Offline, on every page: registers the service worker (static/js/service-worker.js,
// served as /sw.js) and says when the phone is offline.
//
// Markup (templates/partials/offline_banner.html): [data-offline-banner] with its
// texts in data-text-* (in the page's language). The service worker marks a page it
// answers from its copy: <html data-offline-copy="<ISO time saved>">, the offline page
// with data-offline-missing (never seen) or data-offline-unsent (a form that could not
// be sent). The script tag carries data-sw (the worker's URL) and data-scope.
//
// While the page is offline it asks the server about every 5 seconds (a HEAD of the
// manifest, never kept by any cache; up to 30 s apart); when it answers, the page
// catches up: a live page (static/js/live.js) refreshes itself, an untouched page is
// loaded again, and a page with something typed in it keeps it and offers a reload.
//
// Events on document, for the other scripts (the offline hand queue listens here):
// "scorebook:offline" when the server stops answering, "scorebook:online" when it
// answers again. window.ScorebookConnection.online() tells the state now; .settled()
// takes the "back online" banner away once the page has caught up by itself.
(function () {
  "use strict";

  var script = document.currentScript;
  var html = document.documentElement;
  var banner = document.querySelector("[data-offline-banner]");
  var probeUrl = null;
  var manifest = document.querySelector("link[rel=manifest]");
  if (manifest) probeUrl = manifest.href;

  // --- the service worker -------------------------------------------------------------
  if (script && "serviceWorker" in navigator && window.isSecureContext) {
    var url = script.getAttribute("data-sw");
    var scope = script.getAttribute("data-scope") || "/";
    if (url) {
      navigator.serviceWorker.register(url, { scope: scope }).catch(function () {
        /* no worker (a private window, say): the site works as before, online only */
      });
    }
  }

  // --- the banner -------------------------------------------------------------------------
  var state = html.hasAttribute("data-offline-copy") || html.hasAttribute("data-offline-missing") ||
    html.hasAttribute("data-offline-unsent") ? "offline" : (navigator.onLine === false ? "offline" : "online");
  var timer = null;
  var wait = 5000;

  function text(name) {
    return banner ? banner.getAttribute("data-text-" + name) || "" : "";
  }

  function savedAt() {
    var at = html.getAttribute("data-offline-copy");
    var when = at ? new Date(at) : null;
    if (!when || isNaN(when.getTime())) return "";
    var today = new Date().toDateString() === when.toDateString();
    var options = today ? { hour: "2-digit", minute: "2-digit" }
      : { day: "numeric", month: "short", hour: "2-digit", minute: "2-digit" };
    try { return when.toLocaleString(html.lang || undefined, options); } catch (e) { return when.toLocaleString(); }
  }

  function show(message, action) {
    if (!banner) return;
    var body = banner.querySelector("[data-offline-text]");
    var button = banner.querySelector("[data-offline-action]");
    if (body) body.textContent = message;
    if (button) {
      button.hidden = !action;
      if (action) {
        button.textContent = action.label;
        button.onclick = action.run;
      }
    }
    banner.hidden = !message;
  }

  function describe() {
    if (state === "online") { show(""); return; }
    if (html.hasAttribute("data-offline-copy")) {
      show(text("copy").replace("{time}", savedAt()));
    } else if (banner && !html.hasAttribute("data-offline-missing") && !html.hasAttribute("data-offline-unsent")) {
      show(text("offline"));
    }
  }

  function edited() {
    var fields = document.querySelectorAll("form input, form textarea, form select");
    for (var i = 0; i < fields.length; i++) {
      var f = fields[i];
      if (f.type === "hidden" || f.type === "submit" || f.type === "button") continue;
      if (f.type === "checkbox" || f.type === "radio") {
        if (f.checked !== f.defaultChecked) return true;
      } else if (f.tagName === "SELECT") {
        for (var j = 0; j < f.options.length; j++) {
          if (f.options[j].selected !== f.options[j].defaultSelected) return true;
        }
      } else if (f.value !== f.defaultValue) {
        return true;
      }
    }
    return false;
  }

  function reload() { window.location.reload(); }

  // The server answers again: catch up.
  function backOnline() {
    var wasCopy = html.hasAttribute("data-offline-copy") || html.hasAttribute("data-offline-missing");
    state = "online";
    document.dispatchEvent(new CustomEvent("scorebook:online"));
    if (html.hasAttribute("data-offline-unsent")) {
      // A form that was not sent: the person goes back to it (it is still there) and
      // sends it again; reloading here would post it without them seeing it.
      show(text("back-unsent"), { label: text("go-back"), run: function () { history.back(); } });
      return;
    }
    if (!wasCopy) { show(""); return; }
    if (document.querySelector("[data-live-version-url]") && !html.hasAttribute("data-offline-missing")) {
      // live.js asks for the game's version and swaps in what changed.
      html.removeAttribute("data-offline-copy");
      show("");
      return;
    }
    if (edited()) {
      show(text("back"), { label: text("reload"), run: reload });
      return;
    }
    reload();
  }

  function wentOffline() {
    if (state === "offline") return;
    state = "offline";
    describe();
    document.dispatchEvent(new CustomEvent("scorebook:offline"));
    probeSoon(wait = 5000);
  }

  function probe() {
    timer = null;
    if (!probeUrl || !window.fetch) return;
    fetch(probeUrl, { method: "HEAD", cache: "no-store", credentials: "same-origin" })
      .then(function (response) {
        if (response.status >= 500) throw new Error("HTTP " + response.status);
        backOnline();
      }, function () {
        wait = Math.min(wait * 1.5, 30000);
        probeSoon(wait);
      });
  }

  function probeSoon(ms) {
    clearTimeout(timer);
    if (state === "online") return;
    timer = setTimeout(probe, ms);
  }

  window.addEventListener("offline", wentOffline);
  window.addEventListener("online", function () { if (state === "offline") probeSoon(0); });
  // live.js found the server gone (the laptop shut, the Wi-Fi still up).
  document.addEventListener("live:offline", wentOffline);

  window.ScorebookConnection = {
    online: function () { return state === "online"; },
    // The page has caught up by itself (a hand kept offline was sent and the page says
    // so): the banner's "back online, reload" has nothing left to offer.
    settled: function () { if (state === "online") { show(""); } }
  };

  // --- the offline page: what this phone keeps -------------------------------------------
  var list = document.querySelector("[data-kept-pages]");
  if (list && window.caches) {
    caches.open("scorebook-pages").then(function (cache) {
      return cache.keys().then(function (requests) {
        return Promise.all(requests.map(function (request) {
          return cache.match(request).then(function (response) {
            return { url: request.url, title: decodeURIComponent(response.headers.get("X-Scorebook-Title") || ""),
                     at: response.headers.get("X-Scorebook-Saved-At") || "" };
          });
        }));
      });
    }).then(function (pages) {
      pages = pages.filter(function (p) { return p.title && !/\/offline$/.test(p.url); });
      pages.sort(function (a, b) { return a.at < b.at ? 1 : -1; });
      pages.forEach(function (p) {
        var item = document.createElement("li");
        var link = document.createElement("a");
        link.href = p.url;
        // The <title> as written in the page (entities and all), as text; "Game 2 · Rummy
        // Scorebook": the page's own name is enough here.
        var title = new DOMParser().parseFromString(p.title, "text/html").documentElement.textContent;
        link.textContent = title.indexOf(" · ") > 0 ? title.replace(/ · [^·]*$/, "") : title;
        item.appendChild(link);
        list.appendChild(item);
      });
      var section = list.closest("[data-kept-section]");
      if (section && pages.length) section.hidden = false;
    }).catch(function () { /* no cache to read: the page says what it can */ });
  }

  describe();
  if (state === "offline") probeSoon(html.hasAttribute("data-offline-unsent") ? 3000 : 2000);
})();
