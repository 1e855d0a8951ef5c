// Live pages: keep a game's scoreboard and its live hand up to date while other
// phones record.
//
// Markup: an element with data-live-version-url (the game's GET /games/<id>/version),
// data-live-version (the version the page was built from) and data-live-poll-ms;
// the parts to refresh carry data-live-region and an id; a form field outside them
// whose value must follow the game (a hidden version for optimistic locking) carries
// data-live-value and an id; data-live-page-url names the page to fetch again when
// it is not the one in the address bar, data-live-part-url a smaller answer holding
// only the live regions (and the version element), fetched instead of the page. An optional element with data-live-status
// shows "live" / "offline" using its data-text-live and data-text-offline. Without
// JavaScript the page simply stays as it was served.
//
// What the reader is doing survives a refresh: text typed, a choice ticked, a
// <details> opened, the field with the focus, a message marked data-live-keep. The
// field being typed into is not swapped at all: it stays in the page (its value, its
// caret, a word the phone's keyboard is composing), the fresh region around it. When
// the fresh page no longer has one of the regions (the live hand ended on another
// phone), the whole page is loaded again ("live:reloading" first: a page script may
// cancel it when it is already leaving for another page).
//
// While the page is visible it asks for the version about once a second with
// If-None-Match (a 304 costs the server one small query). When the version
// changes it fetches the page again and swaps each live region for the new one.
// Offline, it backs off; back online (or visible again) it asks at once, so a
// phone that was away catches up on its first answer. A page's own script that has
// just stored something (a live move sent in the background) fires "live:check" on
// the document to have the page follow at once.
(function () {
  "use strict";

  var root = document.querySelector("[data-live-version-url]");
  if (!root || !window.fetch || !window.DOMParser) return;

  var versionUrl = root.getAttribute("data-live-version-url");
  // The page to fetch again: its own URL, unless it names another (a page shown as the
  // answer to a form has the form's URL).
  var pageUrl = root.getAttribute("data-live-page-url") || window.location.href;
  // What to fetch after a change: only the live part when the page names one
  // (data-live-part-url: the scoreboard's board alone), else the page again.
  var partUrl = root.getAttribute("data-live-part-url") || pageUrl;
  var known = root.getAttribute("data-live-version") || "";
  var every = parseInt(root.getAttribute("data-live-poll-ms"), 10) || 1000;
  var status = document.querySelector("[data-live-status]");
  var timer = null;
  var busy = false;
  var again = false;
  var failures = 0;
  var leaving = false; // the page is being left: nothing more to follow

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

  function edited(field) {
    if (field.type === "checkbox" || field.type === "radio") {
      return field.checked !== field.defaultChecked;
    }
    if (field.tagName === "SELECT") {
      for (var i = 0; i < field.options.length; i++) {
        if (field.options[i].selected !== field.options[i].defaultSelected) return true;
      }
      return false;
    }
    return field.type !== "hidden" && field.value !== field.defaultValue;
  }

  // The field in ``fresh`` that stands for ``field``: a choice by its name and value
  // (a list of choices may have grown), anything else by its id.
  function counterpart(fresh, field) {
    if ((field.type === "checkbox" || field.type === "radio") && field.name) {
      var same = fresh.querySelectorAll("input[name=\"" + CSS.escape(field.name) + "\"]");
      for (var i = 0; i < same.length; i++) {
        if (same[i].value === field.value) return same[i];
      }
      return null;
    }
    return field.id ? fresh.querySelector("#" + CSS.escape(field.id)) : null;
  }

  // Carry what the reader did in ``old`` over to ``fresh`` before the swap.
  function keepState(old, fresh) {
    var opened = old.querySelectorAll("details[open][id]");
    for (var j = 0; j < opened.length; j++) {
      var same = fresh.querySelector("#" + CSS.escape(opened[j].id));
      if (same) same.setAttribute("open", "");
    }
    // A message this phone was shown (a refused lay-off) stays where it was, until the
    // reader acts: the fresh part's own (empty) box of that id gives way to it.
    var kept = old.querySelectorAll("[data-live-keep][id]");
    for (var n = 0; n < kept.length; n++) {
      var blank = fresh.querySelector("#" + CSS.escape(kept[n].id));
      if (blank) { blank.replaceWith(kept[n].cloneNode(true)); continue; }
      var parent = kept[n].parentElement;
      var home = parent === old ? fresh : parent.id && fresh.querySelector("#" + CSS.escape(parent.id));
      if (!home) continue;
      var at = Array.prototype.indexOf.call(parent.children, kept[n]);
      home.insertBefore(kept[n].cloneNode(true), home.children[at] || null);
    }
    var fields = old.querySelectorAll("input, select, textarea");
    for (var k = 0; k < fields.length; k++) {
      var field = fields[k];
      if (!edited(field)) continue;
      var twin = counterpart(fresh, field);
      if (!twin) continue;
      if (field.type === "checkbox" || field.type === "radio") twin.checked = field.checked;
      else twin.value = field.value;
    }
  }

  // A field a person is typing into (text, a number) is never swapped: the element itself
  // stays, with its value, caret, and the word a phone's keyboard is still composing.
  function typedInto(el) {
    if (!el || el === document.body) return false;
    if (el.tagName === "TEXTAREA") return true;
    return el.tagName === "INPUT" &&
      /^(text|search|number|tel|email|url|)$/.test(el.getAttribute("type") || "");
  }

  // From ``top`` down to ``el`` (both included), or null when ``el`` is not inside ``top``.
  function pathTo(top, el) {
    var path = [];
    for (var n = el; n; n = n.parentElement) {
      path.unshift(n);
      if (n === top) return path;
    }
    return null;
  }

  function copyAttributes(from, to) {
    var k;
    for (k = to.attributes.length - 1; k >= 0; k--) {
      if (!from.hasAttribute(to.attributes[k].name)) to.removeAttribute(to.attributes[k].name);
    }
    for (k = 0; k < from.attributes.length; k++) {
      to.setAttribute(from.attributes[k].name, from.attributes[k].value);
    }
  }

  // Make the region ``old`` (in the page) read as ``fresh`` while the element ``keep``
  // inside it stays in the page: each element from ``old`` down to ``keep`` is kept and
  // takes the fresh attributes, everything around them is the fresh page's. Returns false
  // (nothing changed) when the fresh region has no such field in the same place.
  function graft(old, fresh, keep) {
    var twin = counterpart(fresh, keep);
    var mine = pathTo(old, keep);
    var theirs = twin && pathTo(fresh, twin);
    if (!mine || !theirs || mine.length !== theirs.length) return false;
    for (var d = 0; d < mine.length; d++) {
      if (mine[d].tagName !== theirs[d].tagName) return false;
    }
    for (var i = 0; i < mine.length - 1; i++) {
      var here = mine[i], there = theirs[i], stay = mine[i + 1], stand = theirs[i + 1];
      copyAttributes(there, here);
      Array.prototype.slice.call(here.childNodes).forEach(function (child) {
        if (child !== stay) here.removeChild(child);
      });
      var before = true;
      Array.prototype.slice.call(there.childNodes).forEach(function (child) {
        if (child === stand) { before = false; return; }
        if (before) here.insertBefore(child, stay);
        else here.appendChild(child);
      });
    }
    return true;
  }

  // Returns the fresh page's version, or null when the page must be loaded again.
  function swapRegions(html) {
    var doc = new DOMParser().parseFromString(html, "text/html");
    var regions = document.querySelectorAll("[data-live-region]");
    for (var m = 0; m < regions.length; m++) {
      if (!regions[m].id || !doc.getElementById(regions[m].id)) return null;
    }
    var focused = document.activeElement;
    var focusId = focused && focused.id && focused !== document.body ? focused.id : null;
    var selection = null;
    try {
      if (focusId) selection = [focused.selectionStart, focused.selectionEnd];
    } catch (e) { selection = null; } // radios and buttons have no selection
    for (var i = 0; i < regions.length; i++) {
      var old = regions[i];
      var fresh = document.importNode(doc.getElementById(old.id), true);
      keepState(old, fresh);
      if (typedInto(focused) && old.contains(focused) && graft(old, fresh, focused)) continue;
      old.replaceWith(fresh);
    }
    var values = document.querySelectorAll("[data-live-value][id]");
    for (var v = 0; v < values.length; v++) {
      var newer = doc.getElementById(values[v].id);
      if (newer) values[v].value = newer.value;
    }
    if (focusId && document.activeElement !== focused) {
      var again = document.getElementById(focusId);
      if (again) {
        again.focus({ preventScroll: true });
        if (selection && selection[0] !== null && again.setSelectionRange) {
          try { again.setSelectionRange(selection[0], selection[1]); } catch (e) { /* not text */ }
        }
      }
    }
    var freshRoot = doc.querySelector("[data-live-version-url]");
    return freshRoot ? freshRoot.getAttribute("data-live-version") : "";
  }

  function refresh(version) {
    return fetch(partUrl, {
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
        if (shown === null) {
          known = version;
          // (not reload(): a page answering a form would post the form again). A page
          // script that would ask before leaving lets this one go ("live:reloading"):
          // what it holds is kept as a draft, and the fresh page says so. A page script
          // already on its way elsewhere (the hand it finished stored: to the game)
          // cancels the event, and this page goes where it sends it.
          var going = new CustomEvent("live:reloading", { cancelable: true });
          if (leaving || !document.dispatchEvent(going)) { leaving = true; return; }
          leaving = true;
          window.location.assign(pageUrl.split("#")[0]);
          return;
        }
        known = shown || version;
        document.dispatchEvent(new CustomEvent("live:updated", { detail: { version: known } }));
      });
    });
  }

  function poll() {
    if (busy || leaving) return;
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
    }, function (error) {
      failures += 1;
      show("offline");
      // The server is out of reach (not merely refusing): offline.js says so, and
      // says "scorebook:online" when it answers again.
      if (failures === 1 && error instanceof TypeError) {
        document.dispatchEvent(new CustomEvent("live:offline"));
      }
    }).then(function () {
      busy = false;
      if (again) { again = false; schedule(0); return; }
      // Back off while the server cannot be reached: 1, 2, 4, 8, at most 15 s.
      schedule(failures ? Math.min(every * Math.pow(2, failures - 1), 15000) : every);
    });
  }

  function now() {
    failures = 0;
    if (busy) { again = true; return; } // asked while a poll is out: poll once more after it
    schedule(0);
  }

  window.addEventListener("online", now);
  document.addEventListener("scorebook:online", now);
  document.addEventListener("live:check", now);
  window.addEventListener("offline", function () { show("offline"); });
  window.addEventListener("pageshow", function (event) { if (event.persisted) now(); });
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") now();
    else { clearTimeout(timer); timer = null; }
  });
  // An undo offer (templates/games/_undo.html) ends at its data-undo-until; a board kept
  // from before, or a page left open, still holds it: hide it then (the server refuses
  // an undo past its time anyway, and says so).
  function hideEndedUndo() {
    var now = Date.now();
    Array.prototype.forEach.call(document.querySelectorAll("[data-undo-until]"), function (el) {
      var until = Date.parse(el.getAttribute("data-undo-until"));
      if (!isNaN(until) && until <= now) el.hidden = true;
    });
  }
  hideEndedUndo();
  document.addEventListener("live:updated", hideEndedUndo);
  setInterval(hideEndedUndo, 5000);

  schedule(every);
})();
