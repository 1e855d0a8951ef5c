// The offline queue: a hand saved while the phone is offline is kept on the phone and
// sent when the connection is back, exactly once.
//
// The store is the drafts' (static/js/drafts.js): a queued hand is the page's draft
// (record|<game>|<number> or edit|<game>|<hand id>) in the state "queued", whose meta
// holds the form to send (meta.send = {url, fields: [[name, value], ...]}) and the key
// of the send (meta.clientKey, also one of the fields: client_key). So it survives a
// reload and a closed tab, and any page of the site (this script is on every one) sends
// it: on load when online, and when static/js/offline.js says "scorebook:online".
//
// A send is the form's own POST, with "X-Scorebook-Send: queued" and Accept JSON: the
// server makes every check it makes for the form (scorebook/web/hands/views.py) and answers
// in JSON. Then:
// - stored (200, ok): the draft is cleared; "scorebook:sent" on document, detail
//   {key, answer: {number, url, game_url, message}};
// - refused (any other 4xx: a second phone's hand, a renumbered game, a hand the referee
//   refuses, an expired form): the draft stays, in the state "refused" with
//   meta.refusal = {message, url, number, status, gone}; "scorebook:refused". Nothing is
//   shown as stored; the record page opens the draft again with the reason, to fix and save;
// - gone (410: the hand this key stored was deleted since on another phone): refused as
//   above, never sent again by itself; the draft forgets its key, so saving it once more,
//   on purpose, is a new send that stores it;
// - no answer (the network failed, or a 5xx): it stays queued and is sent again later.
//   A send whose answer was lost may have been stored: sent again with the same key,
//   the server answers with the hand it stored and stores nothing twice.
//
// Two tabs sending at once: each marks the draft "sending" first and skips one another
// tab marked in the last LOCK_MS; if both send anyway, the key makes it one hand.
//
// Status on every page: the element [data-outbox] (templates/partials/offline_banner.html)
// says how many hands wait, and what became of one sent or refused from this page, with a
// link; texts in its data-text-* attributes, in the page's language. A page that shows
// its own hand's status (the record page) says so with ScorebookOutbox.own(key).
//
// window.ScorebookOutbox: newKey(), queue(key, data, meta, form), flush(), waiting(),
// own(key), text(name, values).
(function () {
  "use strict";

  var Drafts = window.ScorebookDrafts;
  if (!Drafts || !window.fetch || !window.URLSearchParams) { return; }

  var LOCK_MS = 20000;
  var RETRY_MS = 15000;
  var box = document.querySelector("[data-outbox]");
  var owned = {};
  var sending = false;
  var retry = null;

  function text(name, values) {
    var t = (box && box.getAttribute("data-text-" + name)) || "";
    Object.keys(values || {}).forEach(function (k) { t = t.split("{" + k + "}").join(values[k]); });
    return t;
  }

  function online() {
    if (navigator.onLine === false) { return false; }
    return !window.ScorebookConnection || window.ScorebookConnection.online();
  }

  function newKey() {
    if (window.crypto && crypto.randomUUID) { return crypto.randomUUID(); }
    var bytes = new Uint8Array(16);
    (window.crypto || window.msCrypto).getRandomValues(bytes);
    return Array.prototype.map.call(bytes, function (b) {
      return ("0" + b.toString(16)).slice(-2);
    }).join("");
  }

  function waiting() {
    return Drafts.list("").filter(function (d) {
      return (d.state === "queued" || d.state === "sending") && d.meta && d.meta.send;
    });
  }

  // The form as it would be posted now (every field, the key among them).
  function fieldsOf(form) {
    var out = [];
    new FormData(form).forEach(function (value, name) {
      if (typeof value === "string") { out.push([name, value]); }
    });
    return out;
  }

  function queue(key, data, meta, form) {
    var send = { url: form.action || window.location.href, fields: fieldsOf(form) };
    var kept = Drafts.open(key).save(data, Object.assign({}, meta, { send: send, queuedAt: Date.now() }));
    if (!kept) { return false; }
    Drafts.update(key, { state: "queued", meta: { refusal: null } });
    render();
    return true;
  }

  function fire(name, detail) {
    document.dispatchEvent(new CustomEvent(name, { detail: detail }));
  }

  function readAnswer(response) {
    var type = response.headers.get("Content-Type") || "";
    if (type.indexOf("application/json") === 0) {
      return response.json().catch(function () { return {}; });
    }
    return Promise.resolve({});
  }

  function sendOne(draft) {
    var send = draft.meta.send;
    Drafts.update(draft.key, { state: "sending", meta: { sendingAt: Date.now() } });
    var body = new URLSearchParams();
    send.fields.forEach(function (pair) { body.append(pair[0], pair[1]); });
    return fetch(send.url, {
      method: "POST", body: body, credentials: "same-origin", cache: "no-store",
      headers: { "Accept": "application/json", "X-Scorebook-Send": "queued" }
    }).then(function (response) {
      return readAnswer(response).then(function (answer) {
        if (response.ok && answer.ok) {
          Drafts.clear(draft.key);
          var sent = { key: draft.key, number: answer.number, url: answer.url,
            game_url: answer.game_url, kind: draft.meta.kind };
          last = { sent: sent };
          fire("scorebook:sent", { key: draft.key, answer: answer });
          return "sent";
        }
        if (response.status >= 400 && response.status < 500) {
          var error = answer.error || {};
          var gone = response.status === 410;
          var refusal = {
            message: answer.message || error.message || text("refused-unknown", { status: response.status }),
            url: answer.url || null, number: answer.number || null, status: response.status,
            code: answer.code || error.code || "", gone: gone
          };
          var meta = { refusal: refusal };
          if (gone) { meta.clientKey = ""; }  // a new save of it is a new send
          Drafts.update(draft.key, { state: "refused", meta: meta });
          last = { refused: { key: draft.key, number: draft.meta.number, kind: draft.meta.kind,
            message: refusal.message, fix: send.url, gone: gone } };
          fire("scorebook:refused", { key: draft.key, refusal: refusal });
          return "refused";
        }
        throw new Error("HTTP " + response.status);  // the server failed: try again later
      });
    }).catch(function () {
      var now = Drafts.open(draft.key).load();
      if (now && now.state === "sending") { Drafts.mark(draft.key, "queued"); }
      return "failed";
    });
  }

  function flush() {
    if (sending || !online()) { return Promise.resolve(); }
    var now = Date.now();
    var due = waiting().filter(function (d) {
      return d.state === "queued" || !d.meta.sendingAt || now - d.meta.sendingAt > LOCK_MS;
    }).sort(function (a, b) { return (a.meta.queuedAt || 0) - (b.meta.queuedAt || 0); });
    if (!due.length) { scheduleRetry(); return Promise.resolve(); }
    sending = true;
    render();
    var failed = false;
    return due.reduce(function (chain, draft) {
      return chain.then(function () {
        if (failed) { return null; }
        var fresh = Drafts.open(draft.key).load();  // another tab may have sent it meanwhile
        if (!fresh || !fresh.meta || !fresh.meta.send ||
            !(fresh.state === "queued" || now - (fresh.meta.sendingAt || 0) > LOCK_MS)) { return null; }
        return sendOne(fresh).then(function (result) {
          if (result === "failed") {
            failed = true;
            // the server is out of reach: offline.js says so, and "scorebook:online" later
            if (navigator.onLine !== false) { fire("live:offline", {}); }
          }
        });
      });
    }, Promise.resolve()).then(function () {
      sending = false;
      render();
      scheduleRetry();
    });
  }

  function scheduleRetry() {
    clearTimeout(retry);
    if (waiting().length) { retry = setTimeout(flush, RETRY_MS); }
  }

  // --- what this page says -------------------------------------------------------------
  var last = null;  // {sent} or {refused}: what became of a hand sent from this page

  function link(href, label) {
    var a = document.createElement("a");
    a.href = href;
    a.textContent = label;
    return a;
  }

  function render() {
    if (!box) { return; }
    var body = box.querySelector("[data-outbox-text]");
    var links = box.querySelector("[data-outbox-links]");
    if (!body || !links) { return; }
    links.textContent = "";
    var others = waiting().filter(function (d) { return !owned[d.key]; });
    var message = "";
    box.classList.remove("outbox-refused");
    if (last && last.sent && !owned[last.sent.key]) {
      message = text(last.sent.kind === "edit" ? "sent-edit" : "sent", { number: last.sent.number });
      if (last.sent.url) { links.appendChild(link(last.sent.url, text("see", { number: last.sent.number }))); }
    } else if (last && last.refused && !owned[last.refused.key]) {
      message = last.refused.gone ? text("gone", { number: last.refused.number })
        : text("refused", { number: last.refused.number, reason: last.refused.message });
      links.appendChild(link(last.refused.fix, text("fix")));
      box.classList.add("outbox-refused");
    }
    if (others.length) {
      var count = others.length === 1 ? text("waiting-one") : text("waiting-many", { count: others.length });
      if (sending && online()) { count = text("sending-all"); }
      message = message ? message + " " + count : count;
    }
    body.textContent = message;
    box.hidden = !message;
  }

  Drafts.onChange(function () { render(); });
  document.addEventListener("scorebook:online", function () { flush(); });
  window.addEventListener("online", function () { setTimeout(flush, 500); });

  window.ScorebookOutbox = {
    newKey: newKey,
    queue: queue,
    flush: flush,
    waiting: waiting,
    online: online,
    own: function (key) { owned[key] = true; render(); },
    text: text
  };

  render();
  // A page shown from the service worker's copy is offline by definition: offline.js
  // says "scorebook:online" when the server answers again.
  if (!document.documentElement.hasAttribute("data-offline-copy")) {
    setTimeout(flush, 0);
  }
})();
