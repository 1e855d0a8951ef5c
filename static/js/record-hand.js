// Record a hand with the card picker.  Without this script the page works by typing
// the cards into each player's text fields; with it, each player gets buttons —
// New meld, Lay off, In hand, Group my cards — and the cards are tapped in.  Each
// meld is checked by the referee as it is entered (POST /api/v1/referee/meld), a
// lay-off finds its meld (POST /api/v1/referee/layoff), "Group my cards" splits a
// player's cards into melds (POST /api/v1/arrange) and the scores are previewed
// (POST /api/v1/score/hand).  On submit the hand goes to the server as JSON in the
// hidden field hand_json; the server checks everything again.
//
// Tapped cards are a loose bunch (meld.joker): when a meld can be read several ways
// (which card a joker is, or where the ace of a 13-card run lies) the page asks, and
// the hand is not saved until every such meld has its answer.  Melds whose cards lie
// in order (loaded from the stored hand, a reading chosen, "Group my cards") are read
// as they lie, like the server reads them.  An ace laid off on a run 2..K asks
// "low or high?" (values.ace-end) and the lay-off keeps the end it went to.
//
// What is entered is kept as a draft in the browser (static/js/drafts.js) until the
// server has stored it: a reload, Back or a lost tab brings it back, with a notice
// offering to discard it; leaving the page with unsaved entries asks first.  A form
// reached by Back after its hand was saved (or one saved meanwhile on another phone)
// says it is out of date instead of saving again.  The server's one check of a hand
// serves both ways in: how the hand ended must be said, a hand with no cards is refused.
//
// Offline (static/js/offline.js says so), Save keeps the hand on the phone instead: the
// offline queue (static/js/outbox.js) holds it as this page's draft in the state
// "queued" and sends it when the connection is back, from this page or the next one
// loaded.  The page says "saved on this phone — will be sent when online", then "sent"
// with a link to the stored hand, or why the server refused it (the entries stay, to fix
// and save again).  Every send carries the key in client_key, kept with the draft, so a
// send tried again after its answer was lost is never stored twice.
(function () {
  "use strict";

  var form = document.getElementById("record-form");
  var dock = document.querySelector("[data-picker-dock]");
  if (!form || !dock || !window.CardPicker || !window.fetch || !window.JSON) { return; }
  var CP = window.CardPicker;

  var texts = JSON.parse(form.getAttribute("data-texts") || "{}");
  var names = JSON.parse(form.getAttribute("data-players") || "[]");
  var rules = JSON.parse(form.getAttribute("data-rules") || "{}");
  var decks = parseInt(form.getAttribute("data-decks"), 10) || 1;
  var jokers = parseInt(form.getAttribute("data-jokers"), 10) || 0;
  var dealt = parseInt(form.getAttribute("data-dealt"), 10) || 0;
  var api = form.getAttribute("data-api");
  var hidden = form.querySelector("input[name=hand_json]");
  var outcomeInputs = form.querySelectorAll("input[name=outcome]");
  var previewBox = form.querySelector("[data-preview]");
  var previewBody = form.querySelector("[data-preview-body]");
  var f = CP.format;

  var gameId = parseInt(form.getAttribute("data-game"), 10);
  var kind = form.getAttribute("data-kind") || "record";
  var number = parseInt(form.getAttribute("data-number"), 10);
  var resent = form.getAttribute("data-resent") === "true";
  var versionInput = form.querySelector("input[name=version]");
  var handIdInput = form.querySelector("input[name=hand_id]");
  var saveButton = form.querySelector("[data-save]");
  var Drafts = window.ScorebookDrafts;
  var draftKey = form.getAttribute("data-draft");
  var draft = Drafts && Drafts.available && draftKey ? Drafts.open(draftKey) : null;
  var Outbox = draft ? window.ScorebookOutbox : null;
  var keyInput = form.querySelector("input[name=client_key]");
  if (!keyInput) {
    keyInput = document.createElement("input");
    keyInput.type = "hidden";
    keyInput.name = "client_key";
    form.appendChild(keyInput);
  }
  var queued = false;   // this page's hand is kept on the phone, waiting to be sent

  var seq = 0;
  var state = names.map(function (name) {
    return { name: name, melds: [], layoffs: [], hand: [], held: "", score: null };
  });
  var active = { player: 0, mode: "meld", meld: null };
  var pending = null;   // a lay-off waiting for its meld: {player, card, placements}
  var notes = {};       // per player: a message shown under their tools
  var userChoseOutcome = false;
  // The verdict codes of a legal meld that can be read several ways (referee.melds).
  var SEVERAL = ["meld.ambiguous", "meld.joker-place", "meld.ace-either-end"];
  var autoChosen = null; // the player taken as having gone out, when the cards say so
  var submitting = false;
  var staleBlock = false;

  function newId() { seq += 1; return "m" + seq; }

  // --- loading what the server sent (the stored hand of an edit, or a form sent back
  // with its problems), or a draft kept in the browser ---------------------------------
  function loadPlayers(players) {
    state.forEach(function (p) { p.melds = []; p.layoffs = []; p.hand = []; p.held = ""; p.score = null; });
    (players || []).forEach(function (p) {
      var i = names.indexOf(p.name);
      if (i < 0) { return; }
      state[i].melds = (p.melds || []).map(function (m) {
        var id = String(m.id || newId());
        var n = /^m(\d+)$/.exec(id);
        if (n) { seq = Math.max(seq, parseInt(n[1], 10)); }
        // stored (or submitted) cards lie in their order: a joker is read from its place;
        // a draft says for each meld whether its cards were tapped loose
        var laid = m.laid === undefined ? true : !!m.laid;
        return { id: id, cards: (m.cards || []).slice(), verdict: null, token: 0, laid: laid };
      });
      state[i].layoffs = (p.layoffs || []).map(function (l) {
        var lay = { card: l.card, onto: String(l.onto) };
        if (l.end === "low" || l.end === "high") { lay.end = l.end; }
        return lay;
      });
      state[i].hand = (p.hand || []).slice();
      // the points of a hand whose cards nobody remembers (issue 27): as typed in a draft
      var held = p.held !== undefined ? p.held : p.held_points;
      state[i].held = held === undefined || held === null ? "" : String(held);
    });
  }

  var initial = null;
  (function load() {
    var text = form.getAttribute("data-initial") || "";
    try { initial = text ? JSON.parse(text) : null; } catch (e) { initial = null; }
    hidden.value = "";
    if (initial && initial.players) { loadPlayers(initial.players); }
    userChoseOutcome = Array.prototype.some.call(outcomeInputs, function (r) { return r.checked; });
  })();

  // --- helpers -------------------------------------------------------------------------

  function post(path, body) {
    return fetch(api + path, {
      method: "POST",
      headers: { "Content-Type": "application/json", "Accept": "application/json" },
      body: JSON.stringify(body),
      credentials: "same-origin"
    }).then(function (response) {
      return response.json().then(function (json) {
        return { ok: response.ok, status: response.status, json: json };
      });
    });
  }

  function findMeld(id) {
    for (var i = 0; i < state.length; i++) {
      for (var k = 0; k < state[i].melds.length; k++) {
        if (state[i].melds[k].id === id) { return { player: i, index: k, meld: state[i].melds[k] }; }
      }
    }
    return null;
  }

  function meldName(id, by) {
    var found = findMeld(id);
    if (!found) { return id; }
    if (by === found.player) { return f(texts.ownMeld, { n: found.index + 1 }); }
    return f(texts.onMeld, { name: names[found.player], n: found.index + 1 });
  }

  // The meld inside a sentence ("fits at both ends of Ann's meld 2"), with the article
  // Spanish and Italian join to the preposition ("della combinazione 2 di Ann").
  function ofMeld(id, by) {
    var found = findMeld(id);
    if (!found) { return id; }
    if (by === found.player) { return f(texts.ofOwnMeld, { n: found.index + 1 }); }
    return f(texts.ofMeld, { name: names[found.player], n: found.index + 1 });
  }

  // The cards of a meld as they lie on the table (its own, then those laid off on it):
  // "Ben's meld 1: 7♠ 8♠ 9♠ 10♠", so two melds of one player are told apart.
  function meldWithCards(id, label) {
    var found = findMeld(id);
    if (!found) { return label; }
    var cards = found.meld.cards.slice();
    state.forEach(function (q) {
      q.layoffs.forEach(function (l) { if (l.onto === id) { cards.push(l.card); } });
    });
    return f(texts.meldCards, { meld: label, cards: cards.map(CP.label).join(" ") });
  }

  function usedCounts() {
    var counts = {};
    function count(card) { var c = CP.natural(card); counts[c] = (counts[c] || 0) + 1; }
    state.forEach(function (p) {
      p.melds.forEach(function (m) { m.cards.forEach(count); });
      p.layoffs.forEach(function (l) { count(l.card); });
      p.hand.forEach(count);
    });
    return counts;
  }

  // Basic's "went Rummy" box: it doubles the points of the player who went out.
  var goingRummyBox = form.querySelector("input[name=going_rummy]");

  function payloadPlayers() {
    var out = outcome();
    var wentRummy = !!(goingRummyBox && goingRummyBox.checked);
    return state.map(function (p) {
      var one = {
        name: p.name,
        melds: p.melds.filter(function (m) { return m.cards.length; })
          .map(function (m) { return { id: m.id, cards: m.cards.slice() }; }),
        layoffs: p.layoffs.map(layoffJson),
        hand: p.hand.slice(),
        going_rummy: wentRummy && out.went_out === p.name
      };
      var held = heldPoints(p);
      // points typed for the cards in hand (nobody remembers them); what is not a
      // number goes as typed, for the server to say so
      if (held !== null) { one.held_points = held; }
      return one;
    });
  }

  // The points typed for a player's hand, a whole number; the text itself when it is
  // not one (the server refuses it, saying why); null when nothing is typed.
  function heldPoints(p) {
    var text = String(p.held || "").trim();
    if (!text) { return null; }
    return /^[0-9]+$/.test(text) ? parseInt(text, 10) : text;
  }

  function heldField(i) {
    return document.querySelector("#player-" + i + " [data-held] input");
  }

  // Typed points for the hand: scored (the preview), who went out worked out again.
  state.forEach(function (p, i) {
    var input = heldField(i);
    if (!input) { return; }
    input.addEventListener("input", function () {
      p.held = input.value;
      changed();
    });
  });

  function holds(p) {
    return p.hand.length > 0 || heldPoints(p) !== null;
  }

  function layoffJson(l) {
    var out = { card: l.card, onto: l.onto };
    if (l.end) { out.end = l.end; }
    return out;
  }

  function isAce(card) {
    var c = card.indexOf("JK=") === 0 ? card.slice(3) : card;
    return c.charAt(0) === "A";
  }

  // A meld the referee reads several ways, with no answer yet: it needs the player's word.
  function unresolved(meld) {
    return !!(meld.verdict && meld.verdict.legal && SEVERAL.indexOf(meld.verdict.code) >= 0);
  }

  // Do the cards, in the order they lie, make this reading (up or down)?  A set always
  // does (as the server's referee.table.resolve_meld reads a meld put down).
  function liesAs(cards, reading) {
    if (reading.kind === "set") { return true; }
    var given = cards.map(CP.natural).join(" ");
    var laid = reading.cards.map(CP.natural);
    return given === laid.join(" ") || given === laid.slice().reverse().join(" ");
  }

  // A meld whose cards lie in order: the one reading they lie as, when there is one.
  function settle(meld) {
    if (!meld.laid || !unresolved(meld) || !meld.verdict.readings) { return; }
    var lying = meld.verdict.readings.filter(function (r) { return liesAs(meld.cards, r); });
    if (lying.length !== 1) { return; }
    var r = lying[0];
    meld.cards = r.cards.slice();
    meld.verdict = { legal: true, kind: r.kind, code: "meld.ok-" + r.kind, readings: [r] };
  }

  function outcome() {
    var chosen = Array.prototype.filter.call(outcomeInputs, function (r) { return r.checked; })[0];
    if (!chosen) { return { went_out: null, ending: null }; }
    var m = /^p(\d+)$/.exec(chosen.value);
    if (m) { return { went_out: names[parseInt(m[1], 10)], ending: "out" }; }
    return { went_out: null, ending: chosen.value };
  }

  // The melds on the table that the referee has read (for lay-off questions).
  function tableForApi() {
    var table = [];
    state.forEach(function (p) {
      p.melds.forEach(function (m) {
        if (!m.verdict || !m.verdict.legal || unresolved(m)) { return; }
        var cards = m.cards.slice();
        state.forEach(function (q) {
          q.layoffs.forEach(function (l) {
            if (l.onto !== m.id) { return; }
            // the cards as they lie: an ace at the low end goes first (also an ace of an
            // older record, which lay low), every other lay-off at the end
            var entry = { card: l.card, by: q.name };
            if (l.end === "low" || (!l.end && isAce(l.card))) { cards.unshift(entry); }
            else { cards.push(entry); }
          });
        });
        table.push({ id: m.id, owner: p.name, cards: cards });
      });
    });
    return table;
  }

  // --- checking with the referee ----------------------------------------------------------

  function validate(meld) {
    meld.token += 1;
    var token = meld.token;
    if (meld.cards.length < 3) {
      meld.verdict = meld.cards.length ? { legal: false, pending: true, message: texts.needThree } : null;
      render();
      return;
    }
    meld.verdict = { legal: false, checking: true, message: texts.checking };
    post("/referee/meld", { rules: rules, players: names.length, cards: meld.cards })
      .then(function (answer) {
        if (token !== meld.token) { return; }
        if (answer.ok) {
          meld.verdict = answer.json;
          settle(meld);
        } else {
          meld.verdict = { legal: false, message: (answer.json.error || {}).message || "" };
        }
        render();
        schedulePreview();
      })
      .catch(function () {
        if (token !== meld.token) { return; }
        meld.verdict = { legal: false, offline: true, message: texts.offline };
        render();
      });
  }

  var previewTimer = null;
  function schedulePreview() {
    clearTimeout(previewTimer);
    previewTimer = setTimeout(preview, 250);
  }

  function preview() {
    var counts = usedCounts();
    if (!Object.keys(counts).length) { previewBox.hidden = true; return; }
    var out = outcome();
    post("/score/hand", { rules: rules, players: payloadPlayers(), went_out: out.went_out })
      .then(function (answer) {
        previewBox.hidden = false;
        previewBody.textContent = "";
        state.forEach(function (p) { p.score = null; });
        if (!answer.ok) {
          var p = document.createElement("p");
          p.className = "field-error";
          var why = texts.previewErrors || {};
          var code = (answer.json.error || {}).code;
          p.textContent = f(texts.previewError, { message: why[code] || why.other || "" });
          previewBody.appendChild(p);
          renderHeads();
          return;
        }
        var table = document.createElement("table");
        answer.json.players.forEach(function (score) {
          var row = table.insertRow();
          var th = document.createElement("th");
          th.scope = "row";
          th.textContent = score.name;
          row.appendChild(th);
          var td = row.insertCell();
          td.textContent = f(texts.points, { score: signed(score.score), melded: score.melded,
            stranded: score.stranded });
          var i = names.indexOf(score.name);
          if (i >= 0) { state[i].score = score.score; }
        });
        previewBody.appendChild(table);
        renderHeads();
      })
      .catch(function () { previewBox.hidden = true; });
  }

  function signed(n) {
    if (!n) { return "0"; }
    return (n > 0 ? "+" : "\u2212") + Math.abs(n);
  }

  // --- what a tap does --------------------------------------------------------------

  function activeMeld() {
    var p = state[active.player];
    for (var k = 0; k < p.melds.length; k++) {
      if (p.melds[k].id === active.meld) { return p.melds[k]; }
    }
    return null;
  }

  function startMeld(i) {
    var p = state[i];
    var last = p.melds[p.melds.length - 1];
    var meld = last && !last.cards.length ? last : null;
    if (!meld) {
      meld = { id: newId(), cards: [], verdict: null, token: 0, laid: false };
      p.melds.push(meld);
    }
    active = { player: i, mode: "meld", meld: meld.id };
  }

  function onPick(card) {
    var p = state[active.player];
    pending = null;
    notes[active.player] = "";
    if (active.mode === "hand") {
      p.hand.push(CP.natural(card));
    } else if (active.mode === "layoff") {
      layOff(active.player, card);
      return;
    } else {
      var meld = activeMeld();
      var said = "";
      if (meld && !fits(meld.cards, card)) {
        // a whole meld, and this card cannot go on it: it begins the next one
        var k = p.melds.indexOf(meld);
        startMeld(active.player);
        said = f(texts.nextMeld, { card: CP.label(card), n: p.melds.length, meld: k + 1 });
      }
      meld = activeMeld();
      if (!meld) { startMeld(active.player); meld = activeMeld(); }
      var run = meld.cards.length === 1 ? runBetween(meld.cards[0], card) : null;
      if (run) {
        // a run by its two ends: the cards between are filled in, lowest first
        meld.cards = [meld.cards[0]].concat(run.cards, [card]);
        if (!run.up) { meld.cards.reverse(); }
        said = f(texts.runFilled, { first: CP.label(meld.cards[0]),
          last: CP.label(meld.cards[meld.cards.length - 1]),
          cards: run.cards.map(CP.label).join(" ") });
      } else {
        meld.cards.push(card);
      }
      meld.laid = false;  // tapped in: a loose bunch again
      validate(meld);
      changed();
      if (said) { picker.note(said); }
      return;
    }
    changed();
  }

  // --- fewer taps: a run by its two ends, a set completed, the next meld begun ------------
  // All of it from the cards alone (no joker in them; the referee still checks each meld).

  var M = window.CardPicker.melds;
  var fits = M.mayFit;

  // Free copies of a card: the decks' number, less those entered anywhere.
  function freeOf(counts) {
    return function (card) { return decks - (counts[card] || 0); };
  }

  function runBetween(first, last) { return M.runBetween(first, last, freeOf(usedCounts())); }

  function completions(meld) {
    if (meld.cards.length !== 1) { return []; }
    return M.setCompletions(meld.cards[0], freeOf(usedCounts()));
  }

  function layOff(i, card) {
    var table = tableForApi();
    if (!table.length) {
      notes[i] = texts.noTable;
      render();
      return;
    }
    post("/referee/layoff", { rules: rules, players: names.length, table: table, card: card })
      .then(function (answer) {
        if (!answer.ok) {
          notes[i] = (answer.json.error || {}).message || "";
          render();
          return;
        }
        var placements = distinct(answer.json.placements || []);
        if (!placements.length) {
          notes[i] = answer.json.message;
          render();
          return;
        }
        if (placements.length === 1) {
          state[i].layoffs.push(placed(placements[0]));
          changed();
          laidOffNote(i, placements[0]);
          return;
        }
        pending = { player: i, card: card, placements: placements };
        render();
      })
      .catch(function () { notes[i] = texts.offline; render(); });
  }

  // What a lay-off did, in the picker where the person is looking ("10♥ → Ben's meld 1"):
  // the player's panel, which says it too, is often behind the picker.
  function laidOffNote(i, pl) {
    picker.note(f(texts.laidOffNote, { card: CP.label(pl.card), meld: meldName(pl.meld, i) }));
  }

  // A lay-off is recorded as a card and a meld, and an ace on a run with the end it
  // went to: an ace that fits both ends of a 2..K run is two choices (values.ace-end).
  function distinct(placements) {
    var seen = {};
    return placements.filter(function (pl) {
      var key = pl.meld + " " + pl.card + (isAce(pl.card) ? " " + pl.end : "");
      if (seen[key]) { return false; }
      seen[key] = true;
      return true;
    });
  }

  // The lay-off a placement makes; an ace on a run keeps its end.
  function placed(pl) {
    var lay = { card: pl.card, onto: pl.meld };
    if (isAce(pl.card) && (pl.end === "low" || pl.end === "high")) { lay.end = pl.end; }
    return lay;
  }

  // Does another placement put the same card on the same meld (at its other end)?
  function bothEnds(pl, placements) {
    return placements.some(function (other) {
      return other !== pl && other.meld === pl.meld && other.card === pl.card;
    });
  }

  function changed() {
    say(saveError, "");  // "No cards were entered" and the like: the form has changed
    render();
    autoOutcome();
    schedulePreview();
    keepDraft();
  }

  // Who went out, when the cards leave one possibility only: every other player still
  // holds cards, and this one played and holds none. The page says it chose.
  var outcomeNote = form.querySelector("[data-outcome-note]");
  var outcomeError = form.querySelector("[data-outcome-error]");
  var saveError = form.querySelector("[data-save-error]");

  function autoOutcome() {
    if (userChoseOutcome) { showOutcomeNote(null); return; }
    var out = [];
    var holding = 0;
    state.forEach(function (p, i) {
      var played = p.melds.some(function (m) { return m.cards.length; }) || p.layoffs.length;
      if (holds(p)) { holding += 1; }
      else if (played) { out.push(i); }
    });
    var only = out.length === 1 && holding === state.length - 1 ? out[0] : null;
    Array.prototype.forEach.call(outcomeInputs, function (r) {
      r.checked = only !== null && r.value === "p" + only;
    });
    autoChosen = only;
    showOutcomeNote(only);
  }

  function showOutcomeNote(i) {
    if (!outcomeNote) { return; }
    outcomeNote.hidden = i === null || i === undefined;
    outcomeNote.textContent = outcomeNote.hidden ? "" : f(texts.outcomeAuto, { name: names[i] });
  }

  // --- drawing ------------------------------------------------------------------------

  function node(tag, className, text) {
    var n = document.createElement(tag);
    if (className) { n.className = className; }
    if (text !== undefined) { n.textContent = text; }
    return n;
  }

  function chip(card, act, data, extra) {
    var b = node("button", "card-chip" + (extra ? " " + extra : ""));
    b.type = "button";
    var suit = CP.suitOf(card);
    if (suit) { b.classList.add("suit-" + suit.toLowerCase()); }
    b.textContent = CP.label(card);
    b.setAttribute("data-act", act);
    Object.keys(data).forEach(function (k) { b.setAttribute("data-" + k, data[k]); });
    b.setAttribute("aria-label", f(texts.remove, { card: CP.spoken(card, texts.names) }));
    return b;
  }

  function tool(label, act, i, pressed, secondary) {
    var b = node("button", secondary ? "tool-secondary" : "", label);
    b.type = "button";
    b.setAttribute("data-act", act);
    b.setAttribute("data-p", i);
    b.setAttribute("aria-pressed", pressed ? "true" : "false");
    return b;
  }

  function status(meld) {
    var v = meld.verdict;
    if (!v) { return null; }
    var s = node("span", "slot-status");
    if (v.legal && !unresolved(meld)) {
      s.classList.add("ok");
      s.textContent = v.kind === "set" ? texts.okSet : texts.okRun;
    } else if (v.checking || v.pending) {
      s.textContent = v.message;
    } else if (unresolved(meld)) {
      s.classList.add("bad");
      s.textContent = question(meld);
    } else {
      s.classList.add("bad");
      s.textContent = "✗ " + v.message;
    }
    return s;
  }

  // What to ask about a meld read several ways: which card the joker is, or where the ace lies.
  function question(meld) {
    return meld.verdict.code === "meld.ace-either-end" ? texts.whichAceEnd : texts.whichJoker;
  }

  // " · high end" beside an ace laid off at a run's end.
  function endNote(l) {
    if (l.end === "low") { return " · " + texts.lowEnd; }
    if (l.end === "high") { return " · " + texts.highEnd; }
    return "";
  }

  function readingLabel(meld, r) {
    var cards = r.cards.map(CP.label).join(" ");
    if (meld.verdict.code !== "meld.ace-either-end") { return cards; }
    var low = CP.natural(r.cards[0]) === "JK" ? r.cards[0].slice(3).charAt(0) === "A"
      : r.cards[0].charAt(0) === "A";
    return f(low ? texts.aceLowReading : texts.aceHighReading, { cards: cards, value: r.value });
  }

  function renderPlayer(i) {
    var p = state[i];
    var box = document.querySelector('#player-' + i + ' [data-picked]');
    box.textContent = "";
    var isActive = active.player === i;
    document.getElementById("player-" + i).classList.toggle("is-active", isActive);
    var heldInput = heldField(i);
    if (heldInput && document.activeElement !== heldInput && heldInput.value !== p.held) {
      heldInput.value = p.held;  // a draft brought back
    }

    var head = node("button", "player-head");
    head.type = "button";
    head.setAttribute("data-act", "activate");
    head.setAttribute("data-p", i);
    head.setAttribute("aria-pressed", isActive ? "true" : "false");
    head.appendChild(node("span", "", p.name));
    head.appendChild(node("span", "player-score", p.score === null ? "" : signed(p.score)));
    box.appendChild(head);

    p.melds.forEach(function (m, k) {
      var slot = node("div", "slot");
      if (isActive && active.mode === "meld" && active.meld === m.id) { slot.classList.add("is-target"); }
      if (m.verdict && !m.verdict.legal && !m.verdict.pending && !m.verdict.checking) {
        slot.classList.add("is-invalid");
      }
      var title = node("div", "slot-title");
      title.appendChild(node("span", "", f(texts.meld, { n: k + 1 })));
      var st = status(m);
      if (st) { title.appendChild(st); }
      slot.appendChild(title);
      var cards = node("div", "slot-cards");
      m.cards.forEach(function (card, c) {
        cards.appendChild(chip(card, "remove-meld-card", { p: i, m: m.id, i: c }));
      });
      state.forEach(function (q) {
        q.layoffs.forEach(function (l) {
          if (l.onto === m.id) {
            var b = chip(l.card, "noop", {}, "layoff-chip");
            b.disabled = true;
            b.removeAttribute("aria-label");
            var by = node("small", "", q.name + endNote(l));
            b.appendChild(by);
            cards.appendChild(b);
          }
        });
      });
      slot.appendChild(cards);
      var offers = isActive && active.mode === "meld" && active.meld === m.id ? completions(m) : [];
      if (offers.length) {
        var sets = node("div", "choices completions");
        sets.appendChild(node("p", "", f(texts.completeSet, { card: CP.label(m.cards[0]) })));
        offers.forEach(function (more) {
          var b = node("button", "button-secondary");
          var words = node("span", "", "+");  // one line of text: a button lays out no spaces
          more.forEach(function (c) {  // each card in its suit's colour, as in the picker
            words.appendChild(document.createTextNode(" "));
            words.appendChild(node("span", "suit-" + CP.suitOf(c).toLowerCase(), CP.label(c)));
          });
          b.appendChild(words);
          b.type = "button";
          b.setAttribute("data-act", "complete");
          b.setAttribute("data-m", m.id);
          b.setAttribute("data-cards", more.slice().sort().join(" "));
          b.setAttribute("aria-label", f(texts.addCards,
            { cards: more.map(function (c) { return CP.spoken(c, texts.names); }).join(", ") }));
          sets.appendChild(b);
        });
        slot.appendChild(sets);
      }
      if (unresolved(m) && m.verdict.readings) {
        var choices = node("div", "choices");
        choices.setAttribute("data-question", m.verdict.code === "meld.ace-either-end" ? "ace-end" : "joker");
        choices.appendChild(node("p", "", question(m)));
        m.verdict.readings.forEach(function (r, ri) {
          var b = node("button", "button-secondary", readingLabel(m, r));
          b.type = "button";
          b.setAttribute("data-act", "reading");
          b.setAttribute("data-m", m.id);
          b.setAttribute("data-r", ri);
          choices.appendChild(b);
        });
        slot.appendChild(choices);
      }
      box.appendChild(slot);
    });

    if (p.layoffs.length || (isActive && active.mode === "layoff") || (pending && pending.player === i)) {
      var ls = node("div", "slot" + (isActive && active.mode === "layoff" ? " is-target" : ""));
      ls.appendChild(node("div", "slot-title", texts.layoffs));
      var lc = node("div", "slot-cards");
      p.layoffs.forEach(function (l, k) {
        var b = chip(l.card, "remove-layoff", { p: i, i: k });
        b.appendChild(node("small", "", meldName(l.onto, i) + endNote(l)));
        lc.appendChild(b);
      });
      ls.appendChild(lc);
      if (pending && pending.player === i) {
        var pc = node("div", "choices");
        var oneMeld = pending.placements.every(function (pl) {
          return pl.meld === pending.placements[0].meld && pl.card === pending.placements[0].card;
        });
        pc.setAttribute("data-question", oneMeld ? "end" : "meld");
        pc.appendChild(node("p", "", f(oneMeld ? texts.whichEnd : texts.whichMeld,
          { card: CP.label(pending.card), of_meld: ofMeld(pending.placements[0].meld, i) })));
        pending.placements.forEach(function (pl, k) {
          var label = pl.card === pending.card || pl.card.indexOf("JK") !== 0 ? meldName(pl.meld)
            : f(texts.onMeldAs, { name: names[findMeld(pl.meld).player], n: findMeld(pl.meld).index + 1, card: CP.label(pl.card.slice(3)) });
          if (!oneMeld) { label = meldWithCards(pl.meld, label); }
          if (bothEnds(pl, pending.placements)) {
            var end = pl.end === "low" ? texts.endLow : texts.endHigh;
            label = oneMeld ? end : f(texts.atEnd, { meld: label, end: end });
          }
          var b = node("button", "button-secondary", label);
          b.type = "button";
          b.setAttribute("data-act", "place");
          b.setAttribute("data-k", k);
          pc.appendChild(b);
        });
        ls.appendChild(pc);
      }
      box.appendChild(ls);
    }

    if (p.hand.length || (isActive && active.mode === "hand")) {
      var hs = node("div", "slot" + (isActive && active.mode === "hand" ? " is-target" : ""));
      hs.appendChild(node("div", "slot-title", texts.hand));
      var hc = node("div", "slot-cards");
      p.hand.forEach(function (card, k) { hc.appendChild(chip(card, "remove-hand", { p: i, i: k })); });
      hs.appendChild(hc);
      box.appendChild(hs);
    }

    if (notes[i]) {
      var note = node("p", "field-error", notes[i]);
      note.setAttribute("role", "status");
      box.appendChild(note);
    }

    var tools = node("div", "tools");
    tools.appendChild(tool(texts.newMeld, "new-meld", i, false));
    tools.appendChild(tool(texts.layOff, "layoff", i, isActive && active.mode === "layoff", true));
    tools.appendChild(tool(texts.inHand, "hand", i, isActive && active.mode === "hand", true));
    tools.appendChild(tool(texts.group, "group", i, false, true));
    box.appendChild(tools);
  }

  function renderHeads() {
    state.forEach(function (p, i) {
      var score = document.querySelector('#player-' + i + ' .player-score');
      if (score) { score.textContent = p.score === null ? "" : signed(p.score); }
    });
  }

  function targetText() {
    var p = state[active.player];
    var what;
    if (active.mode === "hand") { what = texts.hand; }
    else if (active.mode === "layoff") { what = texts.layOff; }
    else {
      var k = p.melds.findIndex(function (m) { return m.id === active.meld; });
      what = f(texts.meld, { n: (k < 0 ? p.melds.length : k) + 1 });
    }
    return f(texts.target, { name: p.name, what: what });
  }

  var picker = CP.create(dock, { decks: decks, jokers: jokers, texts: texts, onPick: onPick });

  var shownTarget = null;

  function render() {
    state.forEach(function (_p, i) { renderPlayer(i); });
    picker.setUsed(usedCounts());
    // a new target is scrolled into view above the picker
    var text = targetText();
    var moved = shownTarget !== null && text !== shownTarget;
    shownTarget = text;
    picker.setTarget(text, moved ? form.querySelector(".slot.is-target") : null,
                     state[active.player].name);
  }

  // --- taps on the players' panels ------------------------------------------------------

  form.addEventListener("click", function (event) {
    var b = event.target.closest("button[data-act]");
    if (!b || !form.contains(b)) { return; }
    var act = b.getAttribute("data-act");
    var i = parseInt(b.getAttribute("data-p"), 10);
    if (act === "noop") { return; }
    event.preventDefault();
    if (act !== "place") { pending = null; }
    if (act === "activate") {
      var keep = active.mode;
      active = { player: i, mode: keep, meld: null };
      if (keep === "meld") {
        var last = state[i].melds[state[i].melds.length - 1];
        var unfinished = last && (!last.verdict || !last.verdict.legal);
        active.meld = unfinished ? last.id : null;
      }
    } else if (act === "new-meld") {
      startMeld(i);
    } else if (act === "layoff") {
      active = { player: i, mode: "layoff", meld: null };
    } else if (act === "hand") {
      active = { player: i, mode: "hand", meld: null };
    } else if (act === "group") {
      group(i);
      return;
    } else if (act === "remove-meld-card") {
      var found = findMeld(b.getAttribute("data-m"));
      if (found) {
        found.meld.cards.splice(parseInt(b.getAttribute("data-i"), 10), 1);
        found.meld.laid = false;
        if (!found.meld.cards.length && active.meld !== found.meld.id) {
          state[found.player].melds.splice(found.index, 1);
          state.forEach(function (q) {
            q.layoffs = q.layoffs.filter(function (l) { return l.onto !== found.meld.id; });
          });
        } else {
          validate(found.meld);
        }
      }
    } else if (act === "remove-layoff") {
      state[i].layoffs.splice(parseInt(b.getAttribute("data-i"), 10), 1);
    } else if (act === "remove-hand") {
      state[i].hand.splice(parseInt(b.getAttribute("data-i"), 10), 1);
    } else if (act === "reading") {
      var m = findMeld(b.getAttribute("data-m"));
      var r = m && m.meld.verdict && m.meld.verdict.readings[parseInt(b.getAttribute("data-r"), 10)];
      if (r) {
        // the chosen reading lies in order, its jokers declared: nothing left to ask
        m.meld.cards = r.cards.slice();
        m.meld.laid = true;
        notes[m.player] = "";
        validate(m.meld);
      }
    } else if (act === "complete") {
      var into = findMeld(b.getAttribute("data-m"));
      if (into) {
        (b.getAttribute("data-cards") || "").split(" ").forEach(function (c) {
          if (c) { into.meld.cards.push(c); }
        });
        into.meld.laid = false;
        validate(into.meld);
      }
    } else if (act === "place" && pending) {
      var pl = pending.placements[parseInt(b.getAttribute("data-k"), 10)];
      state[pending.player].layoffs.push(placed(pl));
      var by = pending.player;
      pending = null;
      changed();
      laidOffNote(by, pl);
      return;
    }
    changed();
  });

  function group(i) {
    var p = state[i];
    var cards = [];
    p.melds.forEach(function (m) { m.cards.forEach(function (c) { cards.push(CP.natural(c)); }); });
    if (cards.length < 3) {
      notes[i] = texts.nothingToGroup;
      render();
      return;
    }
    post("/arrange", { rules: rules, players: names.length, cards: cards })
      .then(function (answer) {
        if (!answer.ok) { notes[i] = (answer.json.error || {}).message || ""; render(); return; }
        var old = p.melds.map(function (m) { return m.id; });
        p.melds = answer.json.melds.map(function (r) {
          return { id: newId(), cards: r.cards.slice(), verdict: { legal: true, kind: r.kind, code: "meld.ok-" + r.kind }, token: 0, laid: true };
        });
        if (answer.json.stranded.length) {
          var rest = { id: newId(), cards: answer.json.stranded.slice(), verdict: null, token: 0, laid: false };
          p.melds.push(rest);
          validate(rest);
          notes[i] = texts.ungrouped;
        } else {
          var count = answer.json.melds.length;
          notes[i] = count === 1 ? texts.groupedOne : f(texts.grouped, { count: count });
        }
        // the best split the referee found in time, not proven best: it says so, in the
        // page's language
        if (answer.json.exact === false && answer.json.message) {
          notes[i] = notes[i] + " " + answer.json.message;
        }
        // Lay-offs on the melds just regrouped come off, then go back on the new melds.
        var orphans = [];
        state.forEach(function (q, k) {
          q.layoffs = q.layoffs.filter(function (l) {
            if (old.indexOf(l.onto) < 0) { return true; }
            orphans.push({ player: k, card: l.card });
            return false;
          });
        });
        active = { player: i, mode: "meld", meld: null };
        changed();
        if (!orphans.length) { return; }
        var fresh = p.melds.map(function (m) { return m.id; });
        relay(orphans, fresh).then(function (lost) {
          if (lost.length) {
            notes[i] = (notes[i] ? notes[i] + " " : "") +
              f(texts.layoffsLost, { cards: lost.map(CP.label).join(", ") });
          }
          changed();
        });
      })
      .catch(function () { notes[i] = texts.offline; render(); });
  }

  // Put lay-offs back after "Group my cards", in the order they were made (9♥ may need
  // the 8♥ before it): each goes on the one new meld it fits; where it fits more than
  // one, its player is asked (one question at a time); the rest are returned as lost.
  function relay(orphans, fresh) {
    var lost = [];
    function next() {
      if (!orphans.length) { return Promise.resolve(lost); }
      var o = orphans.shift();
      return post("/referee/layoff",
                  { rules: rules, players: names.length, table: tableForApi(), card: o.card })
        .then(function (answer) {
          var found = distinct((answer.ok && answer.json.placements) || []);
          var places = found.filter(function (pl) { return fresh.indexOf(pl.meld) >= 0; });
          if (places.length === 1) {
            state[o.player].layoffs.push(placed(places[0]));
          } else if (places.length > 1 && !pending) {
            pending = { player: o.player, card: o.card, placements: places };
          } else {
            lost.push(o.card);
          }
        }, function () { lost.push(o.card); })
        .then(next);
    }
    return next();
  }

  Array.prototype.forEach.call(outcomeInputs, function (r) {
    r.addEventListener("change", function () {
      userChoseOutcome = true;
      autoChosen = null;
      showOutcomeNote(null);
      say(outcomeError, "");
      schedulePreview();
      keepDraft();
    });
  });
  if (goingRummyBox) {
    goingRummyBox.addEventListener("change", function () { schedulePreview(); keepDraft(); });
  }

  function say(box, message) {
    if (!box) { return; }
    box.textContent = message || "";
    box.hidden = !message;
  }

  function firstUnresolved() {
    for (var i = 0; i < state.length; i++) {
      for (var k = 0; k < state[i].melds.length; k++) {
        if (unresolved(state[i].melds[k])) { return { player: i, index: k }; }
      }
    }
    return null;
  }

  // RULES.md §10 "Fewer cards than dealt": every player ends a hand with at least the
  // cards dealt (melded, laid off and held). The players short of them, whose box "nobody
  // remembers the rest" (name missing_ok, as the server's page has it) is not ticked.
  function missingBox(name) {
    var boxes = form.querySelectorAll("input[name=missing_ok]");
    for (var k = 0; k < boxes.length; k++) {
      if (boxes[k].value === name) { return boxes[k]; }
    }
    return null;
  }

  function unconfirmedShort() {
    var out = [];
    state.forEach(function (p, i) {
      var count = p.layoffs.length + p.hand.length;
      p.melds.forEach(function (m) { count += m.cards.length; });
      var box = missingBox(p.name);
      // points typed for the hand say that nobody remembers its cards (issue 27)
      if (count < dealt && !(box && box.checked) && heldPoints(p) === null) {
        out.push({ i: i, name: p.name, count: count });
      }
    });
    return out;
  }

  // Ask, as the server would: in each such player's panel, under their cards, their
  // count and a box to tick; nothing is sent until each is ticked (or the cards entered).
  function askMissing(short) {
    short.forEach(function (s) {
      var said = f((texts.fewerThanDealt || {})[String(s.count)] || "",
        { name: s.name, dealt: dealt });
      var panel = document.getElementById("player-" + s.i);
      var ask = panel.querySelector("[data-missing-ask]");
      if (missingBox(s.name) && !ask) {  // the server's page asked already: its box is there
        notes[s.i] = said;
        return;
      }
      if (!ask) {
        ask = node("div", "missing-ask");
        ask.setAttribute("data-missing-ask", "");
        ask.appendChild(node("p", "field-error"));
        var label = node("label", "option-row missing-ok");
        var box = document.createElement("input");
        box.type = "checkbox";
        box.name = "missing_ok";
        box.value = s.name;
        label.appendChild(box);
        label.appendChild(document.createTextNode(" "));
        label.appendChild(node("span", "", f(texts.missingOk, { name: s.name })));
        ask.appendChild(label);
        panel.appendChild(ask);
      }
      ask.querySelector("p").textContent = said;
    });
    render();
    say(saveError, texts.missingAsk);
    var first = document.getElementById("player-" + short[0].i);
    if (first) { first.scrollIntoView({ block: "center" }); }
  }

  form.addEventListener("submit", function (event) {
    say(saveError, "");
    if (staleBlock) {
      event.preventDefault();
      var notice = document.querySelector("[data-stale-notice]");
      if (notice) { notice.scrollIntoView({ block: "center" }); notice.focus(); }
      return;
    }
    if (pending) {
      // A lay-off still waiting for its meld would not be saved: ask for the meld first.
      event.preventDefault();
      notes[pending.player] = f(texts.chooseMeldFirst, { card: CP.label(pending.card) });
      render();
      var panel = document.getElementById("player-" + pending.player);
      if (panel) { panel.scrollIntoView({ block: "center" }); }
      return;
    }
    // A meld read several ways is not saved until the player has said which reading
    // (meld.joker: which card each joker is; meld.ace: where the ace of 13 cards lies).
    var open = firstUnresolved();
    if (open) {
      event.preventDefault();
      notes[open.player] = f(texts.chooseReadingFirst, { n: open.index + 1 });
      render();
      var where = document.getElementById("player-" + open.player);
      if (where) { where.scrollIntoView({ block: "center" }); }
      return;
    }
    // The server makes the same checks; these only save a round trip.
    if (!Object.keys(usedCounts()).length) {
      event.preventDefault();
      say(saveError, texts.nothingEntered);
      return;
    }
    var out = outcome();
    if (!out.ending) {
      event.preventDefault();
      say(outcomeError, texts.chooseOutcome);
      var box = document.getElementById("outcome");
      if (box) { box.scrollIntoView({ block: "center" }); }
      return;
    }
    var short = dealt ? unconfirmedShort() : [];
    if (short.length) {
      event.preventDefault();
      askMissing(short);
      return;
    }
    hidden.value = JSON.stringify({ players: payloadPlayers(), went_out: out.went_out, ending: out.ending });
    if (!keyInput.value) { keyInput.value = keptKey() || (Outbox ? Outbox.newKey() : ""); }
    if (Outbox && !Outbox.online()) {
      // Offline: kept on this phone, sent by the offline queue when the connection is back.
      event.preventDefault();
      queueHand();
      return;
    }
    if (draft && draft.load()) { Drafts.update(draftKey, { state: "draft", meta: { refusal: null } }); }
    submitting = true;
    keepDraft(true);
    // Remember on this history entry that it sent hand N: Back to it then knows.
    try {
      var mark = { game: gameId, kind: kind, number: number };
      history.replaceState(Object.assign({}, history.state || {}, { scorebookSent: mark }), "");
    } catch (e) { /* an old browser: the server still refuses a second copy */ }
  });

  // --- the draft --------------------------------------------------------------------------

  function snapshot() {
    var chosen = Array.prototype.filter.call(outcomeInputs, function (r) { return r.checked; })[0];
    return {
      players: state.map(function (p) {
        return { name: p.name,
          melds: p.melds.map(function (m) {
            return { id: m.id, cards: m.cards.slice(), laid: !!m.laid };
          }),
          layoffs: p.layoffs.map(function (l) {
            var lay = { card: l.card, onto: l.onto };
            if (l.end) { lay.end = l.end; }
            return lay;
          }),
          hand: p.hand.slice(), held: p.held || "" };
      }),
      outcome: userChoseOutcome && chosen ? chosen.value : "",
      goingRummy: !!(goingRummyBox && goingRummyBox.checked)
    };
  }

  function cardsOf(snap) {
    return JSON.stringify(snap.players.map(function (p) {
      return [p.melds.map(function (m) { return m.cards; }).filter(function (c) { return c.length; }),
        p.layoffs, p.hand, p.held || ""];
    }));
  }

  var baseline = null; // what the page showed when it opened (cards and outcome)

  function dirty() {
    if (!baseline) { return false; }
    if (resent) { return true; } // sent back with problems: nothing of it is stored yet
    var now = snapshot();
    return cardsOf(now) !== cardsOf(baseline) || (now.outcome && now.outcome !== baseline.outcome) ||
      now.goingRummy !== baseline.goingRummy;
  }

  function keptKey() {
    var kept = draft && draft.load();
    return (kept && kept.meta && kept.meta.clientKey) || "";
  }

  function draftMeta(sending) {
    return {
      kind: kind, game: gameId, number: number,
      version: versionInput ? versionInput.value : "",
      hand_id: handIdInput ? handIdInput.value : "",
      sentAt: sending ? Date.now() : null,
      // the key of this hand's send: the same on every try, until the server stores it
      clientKey: keyInput.value || keptKey()
    };
  }

  function keepDraft(sending) {
    if (!draft || restoring || !baseline || queued) { return; }
    if (!dirty() && !sending) { draft.clear(); return; }
    draft.save(snapshot(), draftMeta(sending));
  }

  // --- kept on the phone while offline (static/js/outbox.js) ----------------------------

  var queueBox = document.createElement("div");
  queueBox.className = "banner queue-notice";
  queueBox.setAttribute("data-queue-notice", "");
  queueBox.setAttribute("role", "status");
  queueBox.setAttribute("tabindex", "-1");
  queueBox.hidden = true;
  form.parentNode.insertBefore(queueBox, form);
  if (Outbox) { Outbox.own(draftKey); }

  function qt(name, values) { return Outbox ? Outbox.text(name, values) : ""; }

  function lock(on) {
    form.inert = on;
    dock.inert = on;
    dock.hidden = on;  // nothing to tap in a hand kept as it will be sent
    form.classList.toggle("is-queued", on);
    if (saveButton) { saveButton.disabled = on || staleBlock; }
  }

  function queueNotice(what, detail) {
    queueBox.textContent = "";
    queueBox.className = "banner queue-notice queue-" + what;
    queueBox.hidden = !what;
    if (!what) { return; }
    var message;
    var links = [];
    if (what === "queued") {
      message = qt(kind === "edit" ? "queued-edit" : "queued", { number: number });
      links.push({ label: qt("change"), act: unqueue });
    } else if (what === "sending") {
      message = qt("queued-sending", { number: number });
    } else if (what === "sent") {
      var stored = (detail && detail.number) || number;
      message = qt(kind === "edit" ? "queued-sent-edit" : "queued-sent", { number: stored });
      if (detail && detail.url) { links.push({ label: f(texts.seeHand, { number: stored }), href: detail.url, primary: true }); }
      links.push({ label: texts.toScoreboard, href: (detail && detail.game_url) || form.getAttribute("data-game-url") });
    } else if (detail && detail.gone) {
      message = qt("queued-gone", { number: number });
    } else {
      message = qt("queued-refused", { number: number, reason: (detail && detail.message) || "" });
      if (detail && detail.url) { links.push({ label: qt("see-stored"), href: detail.url }); }
    }
    queueBox.appendChild(node("p", "banner-title", message));
    var row = node("p", "actions");
    links.forEach(function (l) {
      var a;
      if (l.act) {
        a = node("button", "button-secondary", l.label);
        a.type = "button";
        a.addEventListener("click", l.act);
      } else {
        a = node("a", "button" + (l.primary ? "" : " button-secondary"), l.label);
        a.href = l.href;
      }
      row.appendChild(a);
    });
    if (links.length) { queueBox.appendChild(row); }
  }

  function queueHand() {
    queued = false;
    if (!Outbox.queue(draftKey, snapshot(), draftMeta(true), form)) {
      say(saveError, qt("queue-full"));
      return;
    }
    queued = true;
    lock(true);
    queueNotice("queued");
    queueBox.focus();
  }

  // Take the kept hand back to change it (it is not sent until saved again).
  function unqueue() {
    var kept = draft.load();
    if (kept && kept.state === "sending") { return; }  // on its way: its answer decides
    Drafts.update(draftKey, { state: "draft" });
    queued = false;
    lock(false);
    queueNotice("");
  }

  function showSent(answer) {
    queued = false;
    submitting = true;  // stored: leaving must not ask
    lock(true);
    queueNotice("sent", answer);
    // the page's notice says what became of the hand, with the way on: no "reload"
    if (window.ScorebookConnection && window.ScorebookConnection.settled) {
      window.ScorebookConnection.settled();
    }
    queueBox.focus();
  }

  function showRefused(refusal) {
    queued = false;
    // its hand was stored, then deleted on another phone: saving it again is a new send
    if (refusal && refusal.gone) { keyInput.value = ""; }
    lock(false);
    notice("");
    queueNotice("refused", refusal);
    queueBox.focus();
  }

  // Back online: what the referee could not be asked offline is asked now, so a meld
  // checked while offline no longer says "could not be reached" beside a hand stored.
  document.addEventListener("scorebook:online", function () {
    var again = false;
    state.forEach(function (p, i) {
      if (notes[i] === texts.offline) { notes[i] = ""; again = true; }
      p.melds.forEach(function (m) {
        if (m.verdict && m.verdict.offline) { validate(m); again = true; }
      });
    });
    if (again) { render(); schedulePreview(); }
  });

  document.addEventListener("scorebook:sent", function (event) {
    if (event.detail && event.detail.key === draftKey) { showSent(event.detail.answer); }
  });
  document.addEventListener("scorebook:refused", function (event) {
    if (event.detail && event.detail.key === draftKey) { showRefused(event.detail.refusal); }
  });
  if (Drafts) {
    Drafts.onChange(function (key) {
      if (key !== draftKey || !queued) { return; }
      var kept = draft.load();
      if (!kept) {
        showSent(null);  // sent from another tab of this phone
      } else if (kept.state === "sending") {
        queueNotice("sending");
      } else if (kept.state === "refused") {
        showRefused(kept.meta.refusal);
      } else if (kept.state === "queued") {
        queueNotice("queued");
      }
    });
  }

  var restoring = false;

  function applySnapshot(snap) {
    restoring = true;
    loadPlayers(snap.players);
    userChoseOutcome = !!snap.outcome;
    Array.prototype.forEach.call(outcomeInputs, function (r) {
      r.checked = !!snap.outcome && r.value === snap.outcome;
    });
    if (goingRummyBox) { goingRummyBox.checked = !!snap.goingRummy; }
    active = { player: 0, mode: "meld", meld: null };
    pending = null;
    state.forEach(function (p) { p.melds.forEach(function (m) { if (m.cards.length) { validate(m); } }); });
    render();
    autoOutcome();
    schedulePreview();
    restoring = false;
  }

  var noticeBox = form.querySelector("[data-draft-notice]");

  function notice(message, buttons) {
    if (!noticeBox) { return; }
    noticeBox.textContent = "";
    noticeBox.hidden = !message;
    if (!message) { return; }
    noticeBox.appendChild(node("p", "", message));
    var row = node("p", "actions");
    (buttons || []).forEach(function (b) {
      var button = node("button", "button-secondary", b.label);
      button.type = "button";
      button.addEventListener("click", b.act);
      row.appendChild(button);
    });
    if (buttons && buttons.length) { noticeBox.appendChild(row); }
  }

  function discard() {
    if (draft) { draft.clear(); }
    applySnapshot(baseline);
    notice(texts.discarded, []);
    setTimeout(function () { if (noticeBox.textContent === texts.discarded) { notice(""); } }, 4000);
  }

  function restoreDraft() {
    if (!draft) { return; }
    var kept = draft.load();
    if (resent) {
      // the server sent the form back with its problems: it holds what was sent
      return;
    }
    if (kept && kept.data && kept.data.players && kept.meta && kept.meta.send &&
        (kept.state === "queued" || kept.state === "sending")) {
      // kept on this phone, waiting to be sent: shown as it will be sent
      applySnapshot(kept.data);
      keyInput.value = kept.meta.clientKey || "";
      queued = true;
      lock(true);
      queueNotice(kept.state === "sending" ? "sending" : "queued");
      return;
    }
    if (kept && kept.data && kept.data.players && kept.state === "refused") {
      // the server refused it when it was sent: the entries, and why, to fix
      if (kind === "edit" && kept.meta.version && versionInput) { versionInput.value = kept.meta.version; }
      applySnapshot(kept.data);
      keyInput.value = kept.meta.clientKey || "";
      queueNotice("refused", kept.meta.refusal);
      return;
    }
    if (kept && kept.data && kept.data.players && cardsOf(kept.data) !== cardsOf(baseline)) {
      var message = f(kind === "edit" ? texts.draftRestoredEdit : texts.draftRestored, { number: number });
      if (kind === "edit" && kept.meta && kept.meta.version && versionInput &&
          String(kept.meta.version) !== String(versionInput.value)) {
        // The changes were begun on an older version: saving them must not overwrite
        // what another phone stored since, so they are sent as changes to that version.
        versionInput.value = kept.meta.version;
        message += " " + f(texts.draftChanged, { number: number });
      }
      applySnapshot(kept.data);
      notice(message, [{ label: kind === "edit" ? texts.discardThem : texts.discard, act: discard }]);
      return;
    }
    if (kept) { draft.clear(); }
    if (kind !== "record") { return; }
    // A hand begun here that another phone recorded first: offer its cards for this one.
    var older = Drafts.list("record|" + gameId + "|").filter(function (d) {
      return d.meta && d.meta.number < number && d.data && d.data.players &&
        d.state !== "queued" && d.state !== "sending";
    })[0];
    if (older) {
      // the time in the page's language (a 24-hour clock in Spanish and Italian)
      var when;
      try {
        when = new Date(older.savedAt).toLocaleTimeString(document.documentElement.lang || undefined,
          { hour: "2-digit", minute: "2-digit" });
      } catch (e) { when = new Date(older.savedAt).toLocaleTimeString(); }
      notice(f(texts.draftOlder, { number: older.meta.number, when: when }), [
        { label: texts.draftUseAsThis, act: function () {
          Drafts.clear(older.key);
          applySnapshot(older.data);
          keepDraft();
          notice(f(texts.draftRestored, { number: number }), [{ label: texts.discard, act: discard }]);
        } },
        { label: texts.discard, act: function () { Drafts.clear(older.key); notice(""); } }
      ]);
    }
  }

  // Cancel on a form with entries asks on the page (not the browser's "Leave site?"),
  // and leaving discards them: the draft is not kept for next time.
  var cancelLink = form.querySelector("[data-cancel]");
  var cancelAsk = form.querySelector("[data-cancel-ask]");
  if (cancelLink && cancelAsk) {
    cancelLink.addEventListener("click", function (event) {
      if (queued || submitting || !dirty()) {
        if (draft && !queued) { draft.clear(); }
        submitting = true;
        return;
      }
      event.preventDefault();
      cancelAsk.hidden = false;
      cancelAsk.focus();
    });
    cancelAsk.querySelector("[data-cancel-discard]").addEventListener("click", function () {
      if (draft) { draft.clear(); }
      submitting = true;  // nothing left to keep: leaving must not ask again
      window.location.href = cancelLink.href;
    });
    cancelAsk.querySelector("[data-cancel-keep]").addEventListener("click", function () {
      cancelAsk.hidden = true;
      cancelLink.focus();
    });
  }

  window.addEventListener("beforeunload", function (event) {
    if (submitting || queued || !dirty()) { return; }
    keepDraft();
    event.preventDefault();
    event.returnValue = "";
  });
  window.addEventListener("pagehide", function () { if (!submitting) { keepDraft(); } });

  // --- a form that is out of date ---------------------------------------------------------

  var staleBox = document.querySelector("[data-stale-notice]");

  function staleNotice(message, links, block) {
    if (!staleBox) { return; }
    staleBlock = !!block;
    if (saveButton) { saveButton.disabled = staleBlock; }
    staleBox.textContent = "";
    staleBox.hidden = !message;
    if (!message) { return; }
    staleBox.appendChild(node("p", "banner-title", message));
    var row = node("p", "actions");
    links.forEach(function (l) {
      var a;
      if (l.act) {
        a = node("button", l.primary ? "" : "button-secondary", l.label);
        a.type = "button";
        a.addEventListener("click", l.act);
      } else {
        a = node("a", "button" + (l.primary ? "" : " button-secondary"), l.label);
        a.href = l.href;
      }
      row.appendChild(a);
    });
    staleBox.appendChild(row);
    staleBox.focus();
  }

  function getJson(url) {
    return fetch(url, { credentials: "same-origin", cache: "no-store",
      headers: { "Accept": "application/json" } }).then(function (r) {
      return r.ok ? r.json() : null;
    });
  }

  function checkStale() {
    var sent = history.state && history.state.scorebookSent;
    if (sent && (sent.game !== gameId || sent.kind !== kind)) { sent = null; }
    var gameUrl = form.getAttribute("data-game-url");
    var handBase = form.getAttribute("data-hand-url").replace(/\/\d+$/, "/");
    if (kind === "edit") {
      getJson(api + "/games/" + gameId + "/hands/" + number).then(function (hand) {
        if (!hand || (handIdInput && String(hand.id) !== handIdInput.value) ||
            (versionInput && String(hand.version) !== versionInput.value)) {
          staleNotice(f(texts.staleChanged, { number: number }),
            [{ label: f(texts.seeHand, { number: number }), href: handBase + number }], false);
        }
      }).catch(function () { /* offline: the server still checks the version */ });
      return;
    }
    getJson(api + "/games/" + gameId).then(function (game) {
      if (!game) { return; }
      var last = game.hands.reduce(function (m, h) { return Math.max(m, h.number); }, 0);
      if (number <= last) {
        var sentThis = sent && sent.number === number;
        staleNotice(f(sentThis ? texts.staleSent : texts.staleSaved, { number: number }), [
          { label: f(texts.seeHand, { number: number }), href: handBase + number, primary: true },
          { label: texts.toScoreboard, href: gameUrl }], true);
        if (sentThis) {
          submitting = true; // what this page sent is stored: leaving must not ask
          if (draft) { draft.clear(); }
        } // else another phone saved it: what was typed here stays a draft, offered on
          // the form for the next hand ("use its cards here")
      } else if (sent && sent.number === number - 1 && !dirty()) {
        staleNotice(f(texts.staleNext, { number: sent.number, next: number }), [
          { label: f(texts.recordNext, { number: number }), primary: true, act: function () {
            staleNotice("", [], false);
            try {
              var st = Object.assign({}, history.state || {});
              delete st.scorebookSent;
              history.replaceState(st, "");
            } catch (e) { /* nothing to forget */ }
          } },
          { label: f(texts.seeHand, { number: sent.number }), href: handBase + sent.number },
          { label: texts.toScoreboard, href: gameUrl }], true);
      }
    }).catch(function () { /* offline: the server still refuses a hand twice */ });
  }

  function arrivedByHistory() {
    var nav = window.performance && performance.getEntriesByType &&
      performance.getEntriesByType("navigation")[0];
    return !!(history.state && history.state.scorebookSent) || (nav && nav.type === "back_forward");
  }

  window.addEventListener("pageshow", function (event) {
    if (event.persisted) { submitting = false; checkStale(); }
  });

  // --- switch the page to the picker ------------------------------------------------------
  form.classList.add("js-picker");
  form.setAttribute("data-shortcuts", "");  // runs by their ends, sets completed (benchmarks/taps.py)
  Array.prototype.forEach.call(form.querySelectorAll("[data-typed]"), function (n) { n.hidden = true; });
  Array.prototype.forEach.call(form.querySelectorAll("[data-picked]"), function (n) { n.hidden = false; });
  var typedHelp = form.querySelector("[data-typed-help]");
  var jsHelp = form.querySelector("[data-js-help]");
  if (typedHelp) { typedHelp.hidden = true; }
  if (jsHelp) { jsHelp.hidden = false; }
  state.forEach(function (p) { p.melds.forEach(function (m) { if (m.cards.length) { validate(m); } }); });
  render();
  autoOutcome();
  schedulePreview();
  baseline = snapshot();
  restoreDraft();
  if (resent) { keepDraft(); }
  if (arrivedByHistory()) { checkStale(); }
})();
