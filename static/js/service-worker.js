// The service worker: keeps the site going on a phone that loses the Wi-Fi.
//
// Served as /sw.js (scorebook/web/install/views.py), after one line that sets
// self.SCOREBOOK = {version, root, static: [urls], stylesheet: url, pages: [urls],
// offline: url}. Plain JavaScript, no build step, no library.
//
// What it keeps, in two caches:
// - "scorebook-static-<version>": every static file a page asks for (the one
//   stylesheet, the scripts, the icons the pages show) by its versioned URL
//   (/static/js/live.js?v=<hash of the file>, scorebook/assets.py), fetched when this
//   version installs and answered from the cache. A new version of any file is a new
//   URL and a new version of the worker, which fetches the new URLs (the browser's
//   HTTP cache has those a page already loaded: they are cached for good) and drops
//   the old cache when it takes over. Offline, a page kept from before asks for files
//   by their old URLs: it gets today's copy of the same file, and for a stylesheet
//   the one stylesheet (it holds every rule of every page).
// - "scorebook-pages": pages as this phone last saw them. The rule book and the offline
//   page from the start; the home page, each game's scoreboard and its record-hand page
//   whenever they are opened or live.js fetches them again after another phone changed
//   the game (a scoreboard's live.js fetches only its board, games/<id>/board, which is
//   spliced into the kept scoreboard: keepBoard) (the scoreboard also fetches its
//   record-hand page, so
//   "Record hand" works offline right after the scoreboard was seen). Pages are asked
//   of the network first and kept when they answer 200; only when the network fails is
//   the kept copy shown, marked <html data-offline-copy="<when it was saved>"> so the
//   page (static/js/offline.js) says it is offline and catches up when it is back.
//   A page never seen shows the offline page instead.
//
// What it never keeps: anything not named above — invite links and the "Add a phone"
// page (they hold secrets), the live polls (/games/<id>/version), the JSON API,
// exports. Those go to the network as if there were no service worker.
(function () {
  "use strict";

  var CONFIG = self.SCOREBOOK || { version: "none", root: "/", static: [], stylesheet: null, pages: [], offline: null };
  var ROOT = CONFIG.root || "/";
  var STATIC_CACHE = "scorebook-static-" + CONFIG.version;
  var PAGES_CACHE = "scorebook-pages";
  var SAVED_AT = "X-Scorebook-Saved-At";   // when a kept page was fetched (ISO time)
  var TITLE = "X-Scorebook-Title";         // its <title>, for the offline page's list
  var KEEP_GAMES = 12;                      // scoreboards kept (and their record pages)

  // --- which pages are kept --------------------------------------------------------------
  // Paths under ROOT; the key of a kept page is its path without the query string.
  var KEPT = [
    /^$/,                          // the home page (the installed app opens here)
    /^rules\/([a-z0-9-]+)?$/,      // the rule book
    /^offline$/,                   // the page for pages never seen
    /^games\/\d+$/,                // a game's scoreboard
    /^games\/\d+\/hands\/new$/     // its record-hand page
  ];
  var GAME = /^games\/(\d+)(\/|$)/;
  // live.js on a scoreboard fetches only its board (games/<id>/board) after a change:
  // the kept scoreboard gets that board spliced in between these marks, and its version.
  var BOARD = /^games\/\d+\/board$/;
  var BOARD_START = "<!--live-board-->";
  var BOARD_END = "<!--/live-board-->";

  function local(url) {
    var u = new URL(url, self.location.href);
    if (u.origin !== self.location.origin || u.pathname.indexOf(ROOT) !== 0) return null;
    return u.pathname.slice(ROOT.length);
  }

  function kept(url) {
    var path = local(url);
    if (path === null) return false;
    return KEPT.some(function (pattern) { return pattern.test(path); });
  }

  function key(url) {
    var u = new URL(url, self.location.href);
    return u.origin + u.pathname;
  }

  // --- keeping a page -------------------------------------------------------------------
  function keepPage(url, response) {
    if (!response || response.status !== 200 || response.redirected) return Promise.resolve();
    var type = response.headers.get("Content-Type") || "";
    if (type.indexOf("text/html") !== 0) return Promise.resolve();
    return response.text().then(function (html) {
      var headers = new Headers(response.headers);
      headers.set(SAVED_AT, new Date().toISOString());
      var title = /<title>([^<]*)<\/title>/.exec(html);
      headers.set(TITLE, encodeURIComponent(title ? title[1].trim() : ""));
      return caches.open(PAGES_CACHE).then(function (cache) {
        return cache.put(key(url), new Response(html, { status: 200, headers: headers }));
      }).then(function () {
        // The scoreboard's "Record hand" link: fetch that page too, while online.
        var record = /href="([^"]*\/games\/\d+\/hands\/new)"/.exec(html);
        var path = local(url);
        if (record && path !== null && /^games\/\d+$/.test(path)) {
          return fetch(record[1], { credentials: "same-origin" }).then(function (r) {
            return keepPage(new URL(record[1], url).href, r);
          }, function () { /* offline again: keep what we have */ });
        }
      }).then(trimGames);
    });
  }

  // The board live.js fetched (games/<id>/board) into the kept copy of its scoreboard,
  // so "as last seen" stays what the phone last showed; the kept record-hand page of
  // that game is fetched again too (its hand number follows), as keepPage does.
  function keepBoard(url, response) {
    if (!response || response.status !== 200 || response.redirected) return Promise.resolve();
    var board = new URL(url, self.location.href);
    var pageUrl = board.origin + board.pathname.replace(/\/board$/, "");
    return response.text().then(function (part) {
      var from = part.indexOf(BOARD_START), to = part.indexOf(BOARD_END);
      var version = /data-live-version="([^"]*)"/.exec(part);
      if (from < 0 || to < from || !version) return;
      return caches.open(PAGES_CACHE).then(function (cache) {
        return cache.match(key(pageUrl)).then(function (copy) {
          if (!copy) return;
          return copy.text().then(function (html) {
            var start = html.indexOf(BOARD_START), end = html.indexOf(BOARD_END);
            if (start < 0 || end < start) return;
            var fresh = html.slice(0, start) + part.slice(from, to) + html.slice(end);
            fresh = fresh.replace(/data-live-version="[^"]*"/,
                                  'data-live-version="' + version[1] + '"');
            var headers = new Headers(copy.headers);
            headers.set(SAVED_AT, new Date().toISOString());
            return cache.put(key(pageUrl), new Response(fresh, { status: 200, headers: headers }));
          }).then(function () {
            var record = pageUrl + "/hands/new";
            return cache.match(key(record)).then(function (kept) {
              if (!kept) return;
              return fetch(record, { credentials: "same-origin" }).then(function (r) {
                return keepPage(record, r);
              }, function () { /* offline again: keep what we have */ });
            });
          });
        });
      });
    });
  }

  function forgetPage(url) {
    return caches.open(PAGES_CACHE).then(function (cache) { return cache.delete(key(url)); });
  }

  // Keep the KEEP_GAMES games seen last (each with its record page).
  function trimGames() {
    return caches.open(PAGES_CACHE).then(function (cache) {
      return cache.keys().then(function (requests) {
        return Promise.all(requests.map(function (request) {
          return cache.match(request).then(function (response) {
            var path = local(request.url) || "";
            var game = GAME.exec(path);
            return { request: request, game: game && game[1], at: response.headers.get(SAVED_AT) || "" };
          });
        }));
      }).then(function (entries) {
        var last = {};
        entries.forEach(function (e) {
          if (e.game && (!last[e.game] || e.at > last[e.game])) last[e.game] = e.at;
        });
        var games = Object.keys(last).sort(function (a, b) { return last[b] < last[a] ? -1 : 1; });
        var drop = games.slice(KEEP_GAMES);
        return Promise.all(entries.filter(function (e) { return drop.indexOf(e.game) >= 0; })
          .map(function (e) { return cache.delete(e.request); }));
      });
    });
  }

  // Whose pages these are may have changed (a league joined, left, logged into, its
  // links stopped): keep only the pages that are the same for everyone.
  function forgetLeaguePages() {
    return caches.open(PAGES_CACHE).then(function (cache) {
      return cache.keys().then(function (requests) {
        return Promise.all(requests.map(function (request) {
          var path = local(request.url) || "";
          if (/^rules\//.test(path) || path === "offline") return null;
          return cache.delete(request);
        }));
      });
    });
  }

  function fetchPages(urls) {
    return Promise.all(urls.map(function (url) {
      return fetch(url, { credentials: "same-origin" })
        .then(function (response) { return keepPage(new URL(url, self.location.href).href, response); })
        .catch(function () { /* kept next time the phone is online */ });
    }));
  }

  // --- a kept page, shown offline ------------------------------------------------------
  // The page as it was, with one mark on <html> that offline.js reads. The response
  // keeps the page's own headers: its Content-Security-Policy still applies.
  function marked(response, attribute, value) {
    return response.text().then(function (html) {
      var headers = new Headers(response.headers);
      var mark = " " + attribute + "=\"" + String(value).replace(/[^0-9A-Za-z:.+-]/g, "") + "\"";
      return new Response(html.replace(/<html\b/i, "<html" + mark), {
        status: 200, statusText: "OK", headers: headers
      });
    });
  }

  function offlinePage(attribute, value) {
    return caches.open(PAGES_CACHE).then(function (cache) {
      return CONFIG.offline ? cache.match(key(CONFIG.offline)) : null;
    }).then(function (page) {
      if (page) return marked(page, attribute, value);
      return Response.error();
    });
  }

  function keptCopy(request) {
    return caches.open(PAGES_CACHE).then(function (cache) {
      return cache.match(key(request.url));
    }).then(function (copy) {
      if (copy) return marked(copy, "data-offline-copy", copy.headers.get(SAVED_AT) || "");
      return offlinePage("data-offline-missing", "1");
    });
  }

  // --- answering -------------------------------------------------------------------------
  // A static file: by its exact URL (its version is in it) from the cache, else from
  // the network (kept when the URL names a version); offline, the same file of this
  // version, or for a stylesheet the one stylesheet.
  function versioned(url) {
    return new URL(url, self.location.href).searchParams.has("v");
  }

  function staticFile(request) {
    return caches.open(STATIC_CACHE).then(function (cache) {
      return cache.match(request).then(function (hit) {
        if (hit) return hit;
        return fetch(request).then(function (response) {
          if (response.ok && versioned(request.url)) cache.put(request, response.clone());
          return response;
        }, function (error) {
          return cache.match(request, { ignoreSearch: true }).then(function (same) {
            if (same) return same;
            var path = local(request.url) || "";
            if (/\.css$/.test(path) && CONFIG.stylesheet) return cache.match(CONFIG.stylesheet);
            return null;
          }).then(function (answer) {
            if (answer) return answer;
            throw error;
          });
        });
      });
    });
  }

  function page(event) {
    var request = event.request;
    var keep = kept(request.url);
    return fetch(request).then(function (response) {
      if (keep) {
        if (response.status === 200) {
          event.waitUntil(keepPage(request.url, response.clone()));
        } else if (response.status === 403 || response.status === 404 || response.status === 410) {
          event.waitUntil(forgetPage(request.url));  // no longer this phone's to see
        }
      }
      var path = local(request.url) || "";
      if (/^language\//.test(path) && response.ok) {
        // The rule book and the offline page in the language just chosen.
        event.waitUntil(fetchPages(CONFIG.pages.concat(CONFIG.offline ? [CONFIG.offline] : [])));
      }
      return response;
    }, function () {
      return keep ? keptCopy(request) : offlinePage("data-offline-missing", "1");
    });
  }

  // --- SEAM: writes made while offline ----------------------------------------------------
  // Every form the phone sends by navigating (a POST: record or edit a hand, a live move,
  // start a game, join a league, ...) comes through sendWrite(). Today it goes to the
  // network; if the network fails, nothing was sent, and the phone shows the offline
  // page marked data-offline-unsent="1", which says so (nothing is stored anywhere: the
  // person goes Back, where the form still is, and saves again when online).
  //
  // The offline hand queue is in the pages, not here (static/js/outbox.js, on
  // drafts.js's store, which is localStorage: a worker cannot read it): the record-hand
  // page (static/js/record-hand.js) does not navigate when offline.js says the phone is
  // offline, it queues the hand, and whichever page is open when the connection is back
  // sends it with fetch() — a script's own write, which this worker leaves to the
  // network (below). A navigation that fails here is a form sent while the page still
  // thought it was online: the unsent page, and the form's draft keeps its send key, so
  // saving it again can never store it twice.
  function sendWrite(event) {
    var request = event.request;
    return fetch(request).then(function (response) {
      var path = local(request.url) || "";
      if (response.ok && /^(leagues|join)\//.test(path)) {
        event.waitUntil(forgetLeaguePages());
      }
      return response;
    }, function () {
      return offlinePage("data-offline-unsent", "1");
    });
  }

  // Messages a page may send (navigator.serviceWorker.controller.postMessage({type})).
  var MESSAGES = {
    "forget-league-pages": forgetLeaguePages
  };

  // --- lifecycle ---------------------------------------------------------------------------
  self.addEventListener("install", function (event) {
    event.waitUntil(
      caches.open(STATIC_CACHE)
        .then(function (cache) { return cache.addAll(CONFIG.static); })
        .then(function () {
          return fetchPages(CONFIG.pages.concat(CONFIG.offline ? [CONFIG.offline] : []));
        })
        .then(function () { return self.skipWaiting(); })
    );
  });

  self.addEventListener("activate", function (event) {
    event.waitUntil(caches.keys().then(function (names) {
      return Promise.all(names.map(function (name) {
        if (name.indexOf("scorebook-static-") === 0 && name !== STATIC_CACHE) {
          return caches.delete(name);
        }
        return null;
      }));
    }).then(function () { return self.clients.claim(); }));
  });

  self.addEventListener("fetch", function (event) {
    var request = event.request;
    if (local(request.url) === null) return;  // another site: not ours to answer
    if (request.mode === "navigate") {
      event.respondWith(request.method === "GET" ? page(event) : sendWrite(event));
      return;
    }
    if (request.method !== "GET") return;     // scripts' own writes: straight to the network
    var path = local(request.url);
    if (/^static\//.test(path)) {
      event.respondWith(staticFile(request));
    } else if (kept(request.url) && request.headers.get("X-Live-Refresh")) {
      // live.js fetching a kept page again after another phone changed the game: keep
      // the fresh copy, so "as last seen" is what the phone last showed.
      event.respondWith(fetch(request).then(function (response) {
        if (response.status === 200) event.waitUntil(keepPage(request.url, response.clone()));
        return response;
      }));
    } else if (BOARD.test(path)) {
      event.respondWith(fetch(request).then(function (response) {
        if (response.status === 200) event.waitUntil(keepBoard(request.url, response.clone()));
        return response;
      }));
    }
    // everything else (polls, API, exports): the network, untouched
  });

  self.addEventListener("message", function (event) {
    var handler = event.data && MESSAGES[event.data.type];
    if (handler) event.waitUntil(handler(event.data));
  });
})();
