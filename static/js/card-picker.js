// The card picker: every card (ranks × suits, plus the joker) as a button, one tap
// per card; or type cards ("7s 8s 9s"; in Spanish "7p 8p 9p") and press Add.  Cards
// already used up in the hand (once per deck) are dimmed and disabled.  No build step,
// no libraries.
//
// Typed cards are read with the letters of the page's language (data-card-notation on
// the page: the table the server reads them with), and shown as they are read beside
// the field before anything is sent: CardPicker.preview(input).
//
//   var picker = CardPicker.create(dockElement, {decks, jokers, texts, onPick, onType});
//   picker.setUsed({"7S": 1, "JK": 2});   picker.setTarget("Ann — meld 2", fieldElement, "Ann");
//   picker.note("10♥ → Ben's meld 1");   (a status line: what the last tap did)
//
// setTarget("") says nothing (the focus is on a field that takes no cards); given the
// element being filled, it is scrolled into view above the docked picker; given the name
// in the text (which may be cut short on a narrow phone), only the words up to it are
// cut, never what follows it.
// collapse(true) folds the picker to its header ("Show cards" opens it), collapse(false)
// opens it again.
// setUsed(counts, message): a card whose count reaches the decks' limit is dimmed;
// message (with %(card)s) replaces "used up" when the page counts another way.
//
// With onType(typing), "Type" does not open the picker's own typing row: it tells the
// page, which lets its own card field take the keyboard (a page whose fields are the
// picker's input keeps them from opening the keyboard otherwise: inputmode="none").
//
// texts (translated by the page): names {code: spoken name}, addingTo, hide, show,
// typeLabel, typePlaceholder, add, notACard, usedUp.
(function () {
  "use strict";

  var SUITS = ["S", "H", "D", "C"];
  var SYMBOLS = { S: "♠", H: "♥", D: "♦", C: "♣" };
  var RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
  var SYMBOL_SUITS = { "♠": "S", "♥": "H", "♦": "D", "♣": "C",
    "♤": "S", "♡": "H", "♢": "D", "♧": "C" };
  // Ranks every language reads, as French-suited cards print them (and 1 for the ace).
  var COMMON_RANKS = { A: "A", J: "J", Q: "Q", K: "K", "1": "A" };
  var RANK_TEXT = { 1: "A", 11: "J", 12: "Q", 13: "K" };
  var JOKER_WORDS = { JK: 1, JOKER: 1, "*": 1, "🃏": 1, JKR: 1 };

  // The letters of the page's language (data-card-notation, written by the server from
  // referee/cards.py NOTATIONS, the table it reads typed cards with): Spanish C D T P,
  // Italian C Q F P, English S H D C; the symbols in every language.
  var NOTATION = (function () {
    var el = document.querySelector("[data-card-notation]");
    var read = null;
    try { read = el ? JSON.parse(el.getAttribute("data-card-notation")) : null; } catch (e) { read = null; }
    return read || { language: "en", suits: { S: "S", H: "H", D: "D", C: "C" }, ranks: { T: 10 },
      jokers: [], notes: {} };
  })();

  function format(text, params) {
    return String(text).replace(/%\((\w+)\)s/g, function (_m, key) {
      return params && params[key] !== undefined ? params[key] : "";
    });
  }

  // The rank text writes (Q, 10, A), or null; after the suit up to 13 (H13: the king).
  function rankOf(text, afterSuit) {
    var ranks = NOTATION.ranks || {};
    if (Object.prototype.hasOwnProperty.call(ranks, text)) { return RANK_TEXT[ranks[text]] || String(ranks[text]); }
    if (COMMON_RANKS[text]) { return COMMON_RANKS[text]; }
    if (/^[0-9]+$/.test(text) && String(parseInt(text, 10)) === text) {
      var n = parseInt(text, 10);
      if (n >= 2 && n <= (afterSuit ? 13 : 10)) { return RANK_TEXT[n] || String(n); }
    }
    return null;
  }

  function suitOfChar(ch) {
    var suits = NOTATION.suits || {};
    return (Object.prototype.hasOwnProperty.call(suits, ch) && suits[ch]) || SYMBOL_SUITS[ch] || null;
  }

  // Every card text can be read as: rank then suit, or suit then rank (as the server
  // reads it: a letter that is both a rank and a suit, Italian Q, never reads two ways).
  function readings(text) {
    var found = {};
    if (text.length >= 2) {
      var suit = suitOfChar(text.slice(-1));
      var rank = rankOf(text.slice(0, -1), false);
      if (suit && rank) { found[rank + suit] = true; }
      suit = suitOfChar(text.charAt(0));
      rank = rankOf(text.slice(1), true);
      if (suit && rank) { found[rank + suit] = true; }
    }
    return Object.keys(found);
  }

  function isJoker(text) {
    return !!JOKER_WORDS[text] || (NOTATION.jokers || []).indexOf(text) >= 0;
  }

  // One card in its canonical text (7S, 10H, JK, JK=8H), or null: read with the letters
  // of the page's language (7C is the seven of hearts in Spanish, of clubs in English).
  function parseCard(token) {
    var text = String(token).trim().toUpperCase().replace(/\uFE0F/g, "");
    if (!text) { return null; }
    var cards;
    var at = text.indexOf("=");
    if (at >= 0) {
      if (!isJoker(text.slice(0, at).trim())) { return null; }
      var tail = text.slice(at + 1).trim();
      cards = readings(tail);
      if (cards.length === 1) { return "JK=" + cards[0]; }
      var rank = rankOf(tail, true);
      return !cards.length && rank ? "JK=" + rank : null;
    }
    if (isJoker(text)) { return "JK"; }
    cards = readings(text);
    return cards.length === 1 ? cards[0] : null;
  }

  // {cards: [...], bad: [tokens]} from typed text.
  function parseCards(text) {
    var out = { cards: [], bad: [] };
    String(text).split(/[\s,;]+/).forEach(function (token) {
      if (!token) { return; }
      var card = parseCard(token);
      if (card) { out.cards.push(card); } else { out.bad.push(token); }
    });
    return out;
  }

  // What a letter means here that another language reads otherwise ("Here C is
  // corazones ♥, not tréboles ♣"), for the letters the tokens use.
  function notesFor(tokens) {
    var notes = NOTATION.notes || {};
    var said = {};
    var out = [];
    tokens.forEach(function (token) {
      var text = String(token).trim().toUpperCase();
      var tail = text.indexOf("=") >= 0 ? text.slice(text.indexOf("=") + 1) : text;
      [tail.charAt(0), tail.slice(-1)].forEach(function (ch) {
        if (notes[ch] && !said[ch]) { said[ch] = true; out.push(notes[ch]); }
      });
    });
    return out;
  }

  function natural(card) {
    return card.indexOf("JK") === 0 ? "JK" : card;
  }

  function suitOf(card) {
    var c = card.indexOf("=") >= 0 ? card.split("=")[1] : card;
    var s = c.charAt(c.length - 1);
    return SYMBOLS[s] ? s : "";
  }

  // What is printed for a card: 7♠, JK, JK=8♥.
  function label(card) {
    if (card === "JK") { return "JK"; }
    if (card.indexOf("JK=") === 0) { return "JK=" + label(card.slice(3)); }
    var s = card.charAt(card.length - 1);
    return SYMBOLS[s] ? card.slice(0, -1) + SYMBOLS[s] : card;
  }

  function spoken(card, names) {
    if (names && names[card]) { return names[card]; }
    if (card.indexOf("JK=") === 0 && names) {
      return (names.JK || "joker") + " = " + spoken(card.slice(3), names);
    }
    return label(card);
  }

  function el(tag, attrs, text) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (key) { node.setAttribute(key, attrs[key]); });
    if (text !== undefined) { node.textContent = text; }
    return node;
  }

  function create(dock, options) {
    var texts = options.texts || {};
    var names = texts.names || {};
    var decks = options.decks || 1;
    var jokers = options.jokers || 0;
    var used = {};
    var buttons = {};

    dock.textContent = "";
    dock.hidden = false;
    dock.setAttribute("role", "region");
    dock.setAttribute("aria-label", texts.pickerLabel || "Cards");

    var head = el("div", { "class": "picker-target" });
    var target = el("span", { "aria-live": "polite", "data-picker-target": "" });
    var toggle = el("button", { type: "button", "class": "picker-toggle button-secondary",
      "aria-expanded": "true" }, texts.hide || "Hide");
    var typeToggle = el("button", { type: "button", "class": "picker-toggle button-secondary",
      "aria-expanded": "false", "aria-label": texts.typeLabel || "Type cards" },
      texts.typeToggle || "Type");
    var buttonsBox = el("span", { "class": "picker-buttons" });
    buttonsBox.appendChild(typeToggle);
    buttonsBox.appendChild(toggle);
    head.appendChild(target);
    head.appendChild(buttonsBox);
    dock.appendChild(head);

    var grid = el("div", { "class": "picker-grid", role: "group",
      "aria-label": texts.pickerLabel || "Cards" });
    SUITS.forEach(function (suit) {
      RANKS.forEach(function (rank, i) {
        var card = rank + suit;
        var button = el("button", { type: "button", "data-card": card,
          "class": "suit-" + suit.toLowerCase(), "aria-label": spoken(card, names) },
          rank + SYMBOLS[suit]);
        grid.appendChild(button);
        buttons[card] = button;
        // seven to a row: each suit's 14th place is empty, but the clubs' holds the joker
        if (i === 12 && (suit !== "C" || jokers === 0)) {
          grid.appendChild(el("span", { "aria-hidden": "true" }));
        }
      });
    });
    if (jokers > 0) {
      var joker = el("button", { type: "button", "data-card": "JK", "class": "pick-joker",
        "aria-label": spoken("JK", names) }, "JK");
      grid.appendChild(joker);
      buttons.JK = joker;
    }
    dock.appendChild(grid);

    var typeRow = el("div", { "class": "picker-type", hidden: "" });
    var inputId = "picker-typed-" + Math.random().toString(36).slice(2, 8);
    var typeLabel = el("label", { "for": inputId, "class": "sr-only" }, texts.typeLabel || "Type cards");
    var input = el("input", { id: inputId, type: "text", autocomplete: "off", autocapitalize: "off",
      spellcheck: "false", placeholder: texts.typePlaceholder || "7s 8s 9s" });
    var add = el("button", { type: "button" }, texts.add || "Add");
    typeRow.appendChild(typeLabel);
    typeRow.appendChild(input);
    typeRow.appendChild(add);
    dock.appendChild(typeRow);
    var status = el("p", { "class": "field-error", role: "status", hidden: "" });
    dock.appendChild(status);
    // what the last tap did, where the person is looking ("10♥ → Ben's meld 1")
    var noteLine = el("p", { "class": "picker-note", role: "status", "aria-live": "polite",
      "data-picker-note": "", hidden: "" });
    dock.appendChild(noteLine);
    var usedMessage = null;

    function limit(card) {
      return natural(card) === "JK" ? jokers : decks;
    }

    function say(message) {
      status.textContent = message || "";
      status.hidden = !message;
    }

    function note(message) {
      noteLine.textContent = message || "";
      noteLine.hidden = !message;
      pad();
    }

    function pick(card) {
      say("");
      note("");
      if ((used[natural(card)] || 0) >= limit(card)) {
        say(format(usedMessage || texts.usedUp || "%(card)s is used up", { card: label(card) }));
        return;
      }
      options.onPick(card);
    }

    grid.addEventListener("click", function (event) {
      var button = event.target.closest("button[data-card]");
      if (button && !button.disabled) { pick(button.getAttribute("data-card")); }
    });

    function addTyped() {
      var parsed = parseCards(input.value);
      if (parsed.bad.length) {
        say(format(texts.notACard || "Not a card: %(token)s", { token: parsed.bad.join(" ") }));
        return;
      }
      input.value = "";
      preview(input, { after: typeRow });
      parsed.cards.forEach(pick);
    }
    add.addEventListener("click", addTyped);
    input.addEventListener("input", function () { preview(input, { after: typeRow }); });
    input.addEventListener("keydown", function (event) {
      if (event.key === "Enter") { event.preventDefault(); addTyped(); }
    });

    var typing = false;
    typeToggle.addEventListener("click", function () {
      if (options.onType) {
        typing = !typing;
        typeToggle.setAttribute("aria-pressed", typing ? "true" : "false");
        typeToggle.removeAttribute("aria-expanded");
        options.onType(typing);
        return;
      }
      typeRow.hidden = !typeRow.hidden;
      typeToggle.setAttribute("aria-expanded", typeRow.hidden ? "false" : "true");
      if (!typeRow.hidden) { input.focus(); }
    });
    if (options.onType) {
      typeToggle.removeAttribute("aria-expanded");
      typeToggle.setAttribute("aria-pressed", "false");
    }

    function collapse(collapsed) {
      dock.classList.toggle("is-collapsed", collapsed);
      toggle.setAttribute("aria-expanded", collapsed ? "false" : "true");
      toggle.textContent = collapsed ? (texts.show || "Show") : (texts.hide || "Hide");
      pad();
    }
    toggle.addEventListener("click", function () {
      collapse(!dock.classList.contains("is-collapsed"));
    });

    // The title on one line, its name cut short; where even a little of the name does
    // not leave room for the rest (large text: "Añadir a: M… — Combinación 2"), it wraps
    // onto more lines instead, whole.
    function fitTarget() {
      var lead = target.querySelector(".picker-target-lead");
      target.classList.remove("is-long");
      if (lead) { lead.hidden = false; }
      var long = target.offsetWidth > head.clientWidth + 1 ||
        target.scrollWidth > target.clientWidth + 1;
      target.classList.toggle("is-long", long);
      // "Adding to:" only whole: a scrap of it ("A…") says nothing and takes the
      // name's room
      if (lead && !long && lead.scrollWidth > lead.clientWidth + 1) { lead.hidden = true; }
    }
    if (window.ResizeObserver) {
      new ResizeObserver(function () { fitTarget(); }).observe(dock);
    }

    // Keep whatever is scrolled to or focused clear of the docked picker.
    function pad() {
      if (dock.hidden) { return; }
      document.documentElement.style.scrollPaddingBottom = (dock.offsetHeight + 8) + "px";
    }
    toggle.addEventListener("click", pad);
    typeToggle.addEventListener("click", pad);
    window.addEventListener("resize", pad);
    pad();

    return {
      setUsed: function (counts, message) {
        used = counts || {};
        usedMessage = message || null;
        Object.keys(buttons).forEach(function (card) {
          var full = (used[card] || 0) >= limit(card);
          buttons[card].disabled = full;
          buttons[card].classList.toggle("is-used", full);
        });
      },
      setTarget: function (text, field, cut) {
        var words = text ? format(texts.addingTo || "Adding to: %(target)s",
          { target: text }) : "";
        target.textContent = "";
        target.title = words;  // the whole of it, where a long name is cut short
        // Where room is short the words before the name give way first ("Adding
        // to:"), then the name ("Maria Anto…"); what is being filled, after the name
        // ("— meld 2", "— in hand"), stays whole.
        var at = cut ? words.indexOf(cut) : -1;
        if (at >= 0 && !words.slice(at + cut.length).trim()) { at = -1; }  // nothing after
        if (at < 0) {
          target.appendChild(el("span", { "class": "picker-target-cut" }, words));
        } else {
          if (at > 0) {
            target.appendChild(el("span", { "class": "picker-target-lead" },
                                  words.slice(0, at)));
          }
          target.appendChild(el("span", { "class": "picker-target-cut" }, cut));
          var rest = words.slice(at + cut.length);
          if (rest) { target.appendChild(el("span", { "data-picker-what": "" }, rest)); }
        }
        fitTarget();
        pad();
        if (field && field.scrollIntoView) { field.scrollIntoView({ block: "nearest" }); }
      },
      say: say,
      note: note,
      // folded to its one-line header (a page with an answer to read first), or open
      collapse: collapse,
      element: dock
    };
  }

  // Beside a field that takes typed cards, each card as it is read, before anything is
  // sent: its rank and suit symbol in the suit's colour; a token that is no card
  // crossed, with the letters this page reads; and what a letter means here when
  // another language reads it otherwise ("Here C is corazones ♥, not tréboles ♣").
  // options.cards false: the field shows its cards already (the live hand's chips),
  // so only what is wrong and the letters' notes; options.tokens(value): the tokens
  // that are cards (the referee's table, whose lines also hold ids and names).
  function preview(input, options) {
    options = options || {};
    var box = document.querySelector("[data-card-preview='" + input.id + "']");
    if (!box) {
      box = el("div", { "class": "card-preview", "data-card-preview": input.id,
        "aria-live": "polite" });
      // after the field (and its chips), or after options.after (the picker's typing row)
      var anchor = options.after || input;
      var next = anchor.nextSibling;
      while (next && next.nodeType === 1 && next.hasAttribute("data-card-chips")) {
        next = next.nextSibling;
      }
      anchor.parentNode.insertBefore(box, next);
    }
    var tokens = options.tokens ? options.tokens(input.value) :
      String(input.value).split(/[\s,;]+/).filter(Boolean);
    box.textContent = "";
    if (!tokens.length) { box.hidden = true; return box; }
    var line = el("p", { "class": "card-preview-cards" });
    var bad = [];
    if (options.cards !== false) {
      line.appendChild(el("span", { "class": "card-preview-label" }, (NOTATION.readAs || "Read as:") + " "));
    }
    tokens.forEach(function (token) {
      var card = parseCard(token);
      if (!card) {
        bad.push(token);
        line.appendChild(el("del", { "class": "card-preview-bad" }, token));
        line.appendChild(document.createTextNode(" "));
        return;
      }
      if (options.cards === false) { return; }
      var suit = suitOf(card);
      line.appendChild(el("span", { "class": "pc" + (suit ? " suit-" + suit.toLowerCase() : " pc-joker") },
        label(card)));
      line.appendChild(document.createTextNode(" "));
    });
    if (options.cards !== false || bad.length) { box.appendChild(line); }
    if (bad.length) {
      box.appendChild(el("p", { "class": "field-error" },
        format(NOTATION.badCard || "Not a card: %(token)s", { token: bad.join(" ") }) +
        (NOTATION.legend ? " " + NOTATION.legend : "")));
    }
    notesFor(tokens).forEach(function (note) {
      box.appendChild(el("p", { "class": "letter-note" }, note));
    });
    box.hidden = !box.firstChild;
    return box;
  }

  // --- fewer taps: what the cards alone say (no joker; the referee still checks) --------
  // Cards here are canonical ("7S", "10H", "JK"); ``freeOf(card)`` is how many copies of a
  // card are still free on the page that asks.

  function plainCard(card) { return card.indexOf("JK") !== 0; }
  function rankPart(card) { return card.slice(0, -1); }
  function suitPart(card) { return card.slice(-1); }
  // A card's place in a run, 0 (ace low) to 12 (king); aceHigh puts the ace at 13.
  function rankAt(card, aceHigh) {
    var r = RANKS.indexOf(rankPart(card));
    return r === 0 && aceHigh ? 13 : r;
  }

  // The meld the cards make as they stand: a set of one rank, or a run of one suit (ace
  // low or high), of three cards or more; else null.
  function plainMeld(cards) {
    if (cards.length < 3 || !cards.every(plainCard)) { return null; }
    if (cards.every(function (c) { return rankPart(c) === rankPart(cards[0]); })) {
      return { kind: "set", rank: rankPart(cards[0]) };
    }
    if (!cards.every(function (c) { return suitPart(c) === suitPart(cards[0]); })) { return null; }
    for (var high = 0; high < 2; high++) {
      var at = cards.map(function (c) { return rankAt(c, high); }).sort(function (a, b) { return a - b; });
      var ok = at.every(function (r, k) { return k === 0 || r === at[k - 1] + 1; });
      if (ok) { return { kind: "run", suit: suitPart(cards[0]), low: at[0], high: at[at.length - 1] }; }
    }
    return null;
  }

  // Can the card go on the meld?  Only a whole meld read plainly says no: anything else
  // (a joker, a loose bunch so far) may take it.
  function mayFit(cards, card) {
    var m = plainMeld(cards);
    if (!m || !plainCard(card)) { return true; }
    if (m.kind === "set") { return rankPart(card) === m.rank; }
    if (suitPart(card) !== m.suit) { return false; }
    var r = rankAt(card, 0);
    return r === m.low - 1 || r === m.high + 1 || (r === 0 && m.high === 12);
  }

  // The cards between two ends of one suit (7♠ … 10♠: 8♠ 9♠, up), each free; null when
  // they lie side by side, when a card between is used up, or when not of one suit.
  function runBetween(first, last, freeOf) {
    if (!plainCard(first) || !plainCard(last) || suitPart(first) !== suitPart(last) ||
        rankPart(first) === rankPart(last)) { return null; }
    var best = null;
    [0, 1].forEach(function (high) {
      var a = rankAt(first, high);
      var b = rankAt(last, high);
      var gap = Math.abs(a - b);
      if (best === null || gap < best.gap) { best = { gap: gap, a: a, b: b }; }
    });
    if (best.gap < 2) { return null; }
    var out = [];
    var step = best.a < best.b ? 1 : -1;
    for (var r = best.a + step; r !== best.b; r += step) {
      var card = RANKS[r % 13] + suitPart(first);
      if (freeOf(card) < 1) { return null; }
      out.push(card);
    }
    return { cards: out, up: step > 0 };
  }

  // The ways to finish a set begun with ``first``: two or three of the other suits' free
  // cards of its rank ("+ K♦ K♥"), one tap each.
  function setCompletions(first, freeOf) {
    if (!plainCard(first)) { return []; }
    var others = SUITS.filter(function (s) { return s !== suitPart(first); })
      .map(function (s) { return rankPart(first) + s; })
      .filter(function (c) { return freeOf(c) >= 1; });
    var out = [];
    for (var a = 0; a < others.length; a++) {
      for (var b = a + 1; b < others.length; b++) { out.push([others[a], others[b]]); }
    }
    if (others.length === 3) { out.push(others.slice()); }
    return out;
  }

  window.CardPicker = {
    create: create,
    parseCard: parseCard,
    parseCards: parseCards,
    preview: preview,
    notation: NOTATION,
    label: label,
    spoken: spoken,
    suitOf: suitOf,
    natural: natural,
    format: format,
    melds: { plain: plainCard, rankOf: rankPart, suitOf: suitPart, rankAt: rankAt,
             plainMeld: plainMeld, mayFit: mayFit, runBetween: runBetween,
             setCompletions: setCompletions }
  };
})();
