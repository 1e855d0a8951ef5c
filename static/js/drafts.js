// Drafts: work in progress kept in the browser until the server has stored it.
//
// A hand is 20 to 40 taps. A reload, Back, a tap on a header link or the phone
// discarding a background tab must not throw them away, so each page that takes a
// hand (record, edit, the live hand's forms) keeps what has been entered so far as a
// draft in the browser's storage, under a key that names the game and the hand:
//
//   record|<game id>|<hand number>        a hand being recorded at the end
//   edit|<game id>|<hand id>              changes to a stored hand (its id never moves)
//   live|<game id>|<hand id>|<form>       a live hand's meld, lay-off or finish form
//
// The API (window.ScorebookDrafts, no build step, no libraries):
//
//   var draft = ScorebookDrafts.open("record|12|4");
//   draft.save(data, meta)    // data: anything JSON; meta: {label, number, version, ...}
//   draft.load()              // -> {key, data, meta, savedAt, state} or null
//   draft.clear()
//   ScorebookDrafts.list("live|12|")   // every draft whose key starts so, newest first
//   ScorebookDrafts.clear("live|12|34")  // that key, and every key below it ("…|meld")
//   ScorebookDrafts.mark(key, "queued")  // a draft's state: "draft" (the default) or any
//                                        // word a caller needs ("queued": to be sent)
//   ScorebookDrafts.update(key, {state, meta})  // the state and/or some meta fields
//                                        // (merged into the draft's meta), data untouched
//   ScorebookDrafts.available  // false where the browser keeps nothing (storage off/full)
//   ScorebookDrafts.onChange(function (key) {…})  // saved, cleared or marked, in this tab
//                                                 // or another one
//
// A draft is stored in localStorage as {"v": 1, "data", "meta", "state", "savedAt"} under
// "scorebook:draft:" + key, so it survives the tab being closed; drafts not touched for
// 14 days are dropped when a page loads. Nothing here sends anything: a draft is cleared
// only when the server has stored what it holds. The offline queue (static/js/outbox.js)
// keeps a hand saved offline here too, as a draft in the state "queued" whose meta holds
// the form to send (meta.send) and the send's key (meta.clientKey). The server says so on the next page
// with an element carrying data-draft-saved="<key>" (the page after a save), and this
// module clears those drafts as it loads.
(function () {
  "use strict";

  var PREFIX = "scorebook:draft:";
  var VERSION = 1;
  var MAX_AGE_MS = 14 * 24 * 3600 * 1000;
  var listeners = [];
  var store = null;

  try {
    store = window.localStorage;
    var probe = PREFIX + "probe";
    store.setItem(probe, "1");
    store.removeItem(probe);
  } catch (e) {
    store = null; // private mode, storage disabled or full: drafts are simply not kept
  }

  function notify(key) {
    listeners.forEach(function (fn) {
      try { fn(key); } catch (e) { /* one listener failing must not stop the others */ }
    });
  }

  function read(key) {
    if (!store) { return null; }
    var raw;
    try { raw = store.getItem(PREFIX + key); } catch (e) { return null; }
    if (!raw) { return null; }
    try {
      var stored = JSON.parse(raw);
      if (!stored || stored.v !== VERSION) { return null; }
      return { key: key, data: stored.data, meta: stored.meta || {},
        state: stored.state || "draft", savedAt: stored.savedAt || 0 };
    } catch (e) {
      return null;
    }
  }

  function write(key, data, meta, state) {
    if (!store) { return false; }
    try {
      store.setItem(PREFIX + key, JSON.stringify({ v: VERSION, data: data, meta: meta || {},
        state: state || "draft", savedAt: Date.now() }));
    } catch (e) {
      return false; // full: the page goes on working, only without a draft
    }
    notify(key);
    return true;
  }

  function keys(prefix) {
    var found = [];
    if (!store) { return found; }
    try {
      for (var i = 0; i < store.length; i++) {
        var name = store.key(i);
        if (name && name.indexOf(PREFIX) === 0) {
          var key = name.slice(PREFIX.length);
          if (!prefix || key.indexOf(prefix) === 0) { found.push(key); }
        }
      }
    } catch (e) { /* storage went away */ }
    return found;
  }

  function remove(key) {
    if (!store) { return; }
    try { store.removeItem(PREFIX + key); } catch (e) { return; }
    notify(key);
  }

  // A key and everything below it: "live|12|34" also clears "live|12|34|meld".
  function clear(key) {
    keys(key).forEach(function (k) {
      if (k === key || k.indexOf(key + "|") === 0) { remove(k); }
    });
  }

  function list(prefix) {
    return keys(prefix).map(read).filter(Boolean).sort(function (a, b) {
      return b.savedAt - a.savedAt;
    });
  }

  function open(key) {
    return {
      key: key,
      load: function () { return read(key); },
      save: function (data, meta) {
        var old = read(key);
        return write(key, data, meta, old ? old.state : "draft");
      },
      clear: function () { remove(key); }
    };
  }

  function mark(key, state) {
    var old = read(key);
    if (old) { write(key, old.data, old.meta, state); }
  }

  function update(key, changes) {
    var old = read(key);
    if (!old) { return false; }
    var meta = old.meta || {};
    if (changes.meta) {
      meta = Object.assign({}, meta, changes.meta);
    }
    return write(key, old.data, meta, changes.state || old.state);
  }

  function prune() {
    var now = Date.now();
    list("").forEach(function (d) {
      if (!d.savedAt || now - d.savedAt > MAX_AGE_MS) { remove(d.key); }
    });
  }

  // The server's word that these drafts are stored now; and a page that says "what you
  // entered is still kept" (data-kept-draft="<key>") shows it only when it is.
  function clearSaved() {
    // A page shown from the service worker's copy, offline, is not the server's word now.
    if (document.documentElement.hasAttribute("data-offline-copy")) { return; }
    var saved = document.querySelectorAll("[data-draft-saved]");
    Array.prototype.forEach.call(saved, function (el) {
      clear(el.getAttribute("data-draft-saved"));
    });
    var kept = document.querySelectorAll("[data-kept-draft]");
    Array.prototype.forEach.call(kept, function (el) {
      el.hidden = !list(el.getAttribute("data-kept-draft")).length;
    });
  }

  window.addEventListener("storage", function (event) {
    if (event.key && event.key.indexOf(PREFIX) === 0) { notify(event.key.slice(PREFIX.length)); }
  });

  window.ScorebookDrafts = {
    available: !!store,
    open: open,
    list: list,
    clear: clear,
    mark: mark,
    update: update,
    onChange: function (fn) { listeners.push(fn); }
  };

  prune();
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", clearSaved);
  } else {
    clearSaved();
  }
})();
