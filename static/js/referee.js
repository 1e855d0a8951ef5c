// Referee pages: the card picker is the input of the card fields (a verdict's
// permalink is copied by copy.js). A card field opens no keyboard, which would cover
// the picker (inputmode="none"), unless the picker's "Type" is chosen; the picker
// writes each card with its suit symbol (7♠ 8♠ 9♠), which the server reads like 7s.
// Without JavaScript every field is typed.
//
// - The picker dims the cards used anywhere in the question (table, pile, hand), once
//   per deck in play. A field whose cards come out of others (data-picker-within: the
//   cards taken, or the discard, are among the player's cards) offers only those.
// - Its header names the focused field, and nothing on a field that takes no cards.
// - The table (data-picker="table") is built with taps, like the record-hand page:
//   "New meld", tap its cards, say whose it is if it matters, and tap a card to mark it
//   laid off by another player. The builder writes the text area it replaces
//   ("A (Ann): 5H 6H 7H 8H@Ben"), which stays for people who type: "Type the table".
(function () {
  "use strict";

  var dock = document.querySelector("[data-picker-dock]");
  var fields = Array.prototype.slice.call(document.querySelectorAll("[data-picker]"));
  var CP = window.CardPicker;
  if (!dock || !fields.length || !CP) { return; }
  var texts = JSON.parse(dock.getAttribute("data-texts") || "{}");
  var seatNames = JSON.parse(dock.getAttribute("data-players") || "[]");
  var form = dock.closest("form") || document.querySelector(".referee-form");
  var current = null;   // the field the picker fills (the table's text area: its builder)
  var picker = null;
  var limits = { decks: 1, jokers: 0 };

  function f(text, params) { return CP.format(text || "", params); }

  // Decks and jokers follow the rules chosen in the form (or the game's).
  function deal() {
    var players = parseInt((document.getElementById("players") || {}).value, 10) || 4;
    var family = (document.getElementById("family") || {}).value ||
      dock.getAttribute("data-family");
    var jokerChoice = (document.getElementById("jokers") || {}).value || "";
    var decks = players >= 5 ? 2 : 1;
    var jokers = (family === "pagat-500" ? jokerChoice !== "off" : jokerChoice === "on");
    return { decks: decks, jokers: jokers ? 2 * decks : 0 };
  }

  function labelOf(field) {
    var label = document.querySelector("label[for='" + field.id + "']");
    return label ? label.textContent.trim() : "";
  }

  function node(tag, className, text) {
    var n = document.createElement(tag);
    if (className) { n.className = className; }
    if (text !== undefined) { n.textContent = text; }
    return n;
  }

  function button(text, className) {
    var b = node("button", className, text);
    b.type = "button";
    return b;
  }

  // --- the table: its text, read and written -------------------------------------------

  var LINE = /^\s*([^:()]+?)\s*(?:\(([^)]*)\))?\s*:\s*(.*)$/;
  var TOKEN = /[^\s@]+@"[^"]*"|\S+/g;

  function nextId(melds) {
    var taken = {};
    melds.forEach(function (m) { taken[m.id] = true; });
    for (var k = 0; ; k++) {
      var id = k < 26 ? String.fromCharCode(65 + k) : "M" + (k + 1);
      if (!taken[id]) { return id; }
    }
  }

  // [{id, owner, cards: [{card, by}]}] from the text area (a line without "id:" is one
  // meld of cards, as the server reads it); null when a line is not understood.
  function readTable(text) {
    var melds = [];
    var ok = true;
    String(text || "").split("\n").forEach(function (line) {
      if (!line.trim() || !ok) { return; }
      var m = LINE.exec(line);
      var id = m ? m[1].trim() : null;
      var body = m ? m[3] : line;
      var cards = [];
      (body.match(TOKEN) || []).forEach(function (token) {
        var at = token.indexOf("@");
        var card = CP.parseCard(at >= 0 ? token.slice(0, at) : token);
        if (!card) { ok = false; return; }
        var by = at >= 0 ? token.slice(at + 1).replace(/^"|"$/g, "") : "";
        cards.push({ card: card, by: by });
      });
      melds.push({ id: id || nextId(melds), owner: m ? (m[2] || "").trim() : "", cards: cards });
    });
    return ok ? melds : null;
  }

  function cleanName(name) { return String(name || "").replace(/[():"\n]/g, "").trim(); }

  function writeTable(melds) {
    return melds.filter(function (m) { return m.cards.length; }).map(function (m) {
      var owner = cleanName(m.owner);
      var cards = m.cards.map(function (c) {
        var by = cleanName(c.by);
        if (!by || by === owner) { return CP.label(c.card); }
        return CP.label(c.card) + "@" + (/\s/.test(by) ? '"' + by + '"' : by);
      });
      return m.id + (owner ? " (" + owner + ")" : "") + ": " + cards.join(" ");
    }).join("\n");
  }

  // --- which cards are used ------------------------------------------------------------

  function cardsOf(field) {
    var out = [];
    if (field.getAttribute("data-picker") === "table") {
      (readTable(field.value) || []).forEach(function (m) {
        m.cards.forEach(function (c) { out.push(c.card); });
      });
      return out;
    }
    return CP.parseCards(field.value).cards;
  }

  function count(cards, into) {
    into = into || {};
    cards.forEach(function (card) {
      var c = CP.natural(card);
      into[c] = (into[c] || 0) + 1;
    });
    return into;
  }

  function withinOf(field) {
    var names = (field.getAttribute("data-picker-within") || "").split(/\s+/).filter(Boolean);
    return names.map(function (name) { return document.getElementById(name); })
      .filter(Boolean);
  }

  function limitOf(card) { return card === "JK" ? limits.jokers : limits.decks; }

  // The counts the picker compares with the decks' limit, for the field being filled.
  function usedFor(field) {
    var used = {};
    var within = field ? withinOf(field) : [];
    if (within.length) {
      // only what the named fields hold, less what this field (and its siblings
      // within the same cards) already took
      var pool = {};
      within.forEach(function (w) { count(cardsOf(w), pool); });
      var taken = {};
      fields.forEach(function (other) {
        if (other.getAttribute("data-picker-within") === field.getAttribute("data-picker-within") &&
            !(other === field && field.getAttribute("data-picker") === "one")) {
          count(cardsOf(other), taken);
        }
      });
      ["JK"].concat(Object.keys(namesOfAll())).forEach(function (card) {
        var left = (pool[card] || 0) - (taken[card] || 0);
        used[card] = limitOf(card) - Math.max(0, left);
      });
      return used;
    }
    fields.forEach(function (other) {
      if (other.hasAttribute("data-picker-within")) { return; }
      if (other === field && field.getAttribute("data-picker") === "one") { return; }
      count(cardsOf(other), used);
    });
    return used;
  }

  function namesOfAll() {
    var all = {};
    ["S", "H", "D", "C"].forEach(function (s) {
      ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"].forEach(function (r) {
        all[r + s] = true;
      });
    });
    return all;
  }

  function refresh() {
    if (!picker) { return; }
    var within = current && withinOf(current).length;
    var message = within ? String(texts.notAmong || "").replace("%(field)s",
      withinOf(current).map(labelOf).join(" / ")) : null;
    picker.setUsed(usedFor(current), message);
  }

  // --- the table builder ---------------------------------------------------------------

  var builders = [];

  function Builder(area) {
    var self = this;
    var fieldBox = area.closest(".field");
    var box = node("div", "table-builder");
    box.setAttribute("data-table-builder", "");
    var list = node("ol", "builder-melds");
    var actions = node("div", "builder-actions");
    var add = button(texts.newMeld || "New meld", "button-secondary");
    add.setAttribute("data-builder-new", "");
    var typeIt = button(texts.typeTable || "Type the table", "button-link");
    actions.appendChild(add);
    actions.appendChild(typeIt);
    var empty = node("p", "help builder-empty", texts.tableEmpty || "");
    box.appendChild(empty);
    box.appendChild(list);
    box.appendChild(actions);
    area.parentNode.insertBefore(box, area);
    var names = node("datalist");
    names.id = area.id + "-names";
    box.appendChild(names);

    this.area = area;
    this.box = box;
    var parsed = readTable(area.value);
    this.melds = parsed || [];
    this.active = null;      // the meld the picker fills
    this.chosen = null;      // {meld, index}: the card whose "laid off by" is shown
    this.typed = false;

    function save() {
      area.value = writeTable(self.melds);
      area.dispatchEvent(new Event("input", { bubbles: true }));
    }
    this.save = save;

    function allNames() {
      var seen = {};
      var out = [];
      function put(name) {
        name = cleanName(name);
        if (name && !seen[name]) { seen[name] = true; out.push(name); }
      }
      seatNames.forEach(put);
      self.melds.forEach(function (m) {
        put(m.owner);
        m.cards.forEach(function (c) { put(c.by); });
      });
      ["discarder", "caller"].forEach(function (id) {
        var input = document.getElementById(id);
        if (input) { put(input.value); }
      });
      return out;
    }

    function meldTitle(m) {
      var owner = cleanName(m.owner);
      return owner ? f(texts.ownedMeld, { name: owner, id: m.id }) : f(texts.meldId, { id: m.id });
    }
    this.meldTitle = meldTitle;

    function render() {
      list.textContent = "";
      names.textContent = "";
      var known = allNames();
      known.forEach(function (name) { names.appendChild(node("option")).value = name; });
      empty.hidden = self.melds.length > 0;
      self.melds.forEach(function (m, k) {
        var li = node("li", "builder-meld" + (m === self.active ? " is-active" : ""));
        li.setAttribute("data-meld", m.id);
        var head = node("div", "builder-meld-head");
        var pick = button(f(texts.meldId, { id: m.id }), "builder-meld-name");
        pick.setAttribute("aria-pressed", m === self.active ? "true" : "false");
        pick.setAttribute("data-act", "activate");
        pick.setAttribute("data-k", k);
        head.appendChild(pick);
        var ownerId = area.id + "-owner-" + k;
        var ownerLabel = node("label", "sr-only", f(texts.whoseMeld, { id: m.id }));
        ownerLabel.setAttribute("for", ownerId);
        var owner;
        if (seatNames.length) {
          // asked from a game: its players to choose from, not a name to type
          owner = node("select", "builder-owner");
          owner.appendChild(node("option", "", texts.whose || "whose? (optional)")).value = "";
          var offered = seatNames.slice();
          if (cleanName(m.owner) && offered.indexOf(cleanName(m.owner)) < 0) {
            offered.push(cleanName(m.owner));
          }
          offered.forEach(function (name) {
            var option = owner.appendChild(node("option", "", name));
            option.dir = "auto";
            option.value = name;
            option.selected = name === cleanName(m.owner);
          });
        } else {
          owner = node("input", "builder-owner");
          owner.type = "text";
          owner.value = m.owner || "";
          owner.placeholder = texts.whose || "whose? (optional)";
          owner.setAttribute("list", names.id);
          owner.setAttribute("autocomplete", "off");
        }
        owner.id = ownerId;
        owner.setAttribute("data-k", k);
        head.appendChild(ownerLabel);
        head.appendChild(owner);
        var drop = button("✕", "builder-drop button-secondary");
        drop.setAttribute("aria-label", f(texts.removeMeld, { id: m.id }));
        drop.setAttribute("data-act", "drop");
        drop.setAttribute("data-k", k);
        head.appendChild(drop);
        li.appendChild(head);

        var cards = node("div", "slot-cards");
        m.cards.forEach(function (c, i) {
          var chip = button("", "card-chip");
          var suit = CP.suitOf(c.card);
          if (suit) { chip.classList.add("suit-" + suit.toLowerCase()); }
          var by = cleanName(c.by);
          var laidOff = by && by !== cleanName(m.owner);
          if (laidOff) { chip.classList.add("layoff-chip"); }
          chip.appendChild(document.createTextNode(CP.label(c.card)));
          if (laidOff) { chip.appendChild(node("small", "", by)); }
          chip.setAttribute("data-act", "choose");
          chip.setAttribute("data-k", k);
          chip.setAttribute("data-i", i);
          var chosen = self.chosen && self.chosen.meld === m && self.chosen.index === i;
          chip.setAttribute("aria-pressed", chosen ? "true" : "false");
          chip.setAttribute("aria-label", laidOff ?
            f(texts.cardLaidOffBy, { card: CP.spoken(c.card, texts.names), name: by }) :
            CP.spoken(c.card, texts.names));
          cards.appendChild(chip);
        });
        if (!m.cards.length) {
          cards.appendChild(node("span", "help", texts.tapCards || ""));
        }
        li.appendChild(cards);
        if (self.chosen && self.chosen.meld === m && m.cards[self.chosen.index]) {
          li.appendChild(chooser(m, k, self.chosen.index, known));
        }
        list.appendChild(li);
      });
      if (current === area) { target(true); }
      refresh();
    }
    this.render = render;

    // Under a tapped card: who laid it off (a chip per name), or take it back.
    function chooser(m, k, i, known) {
      var c = m.cards[i];
      var box2 = node("div", "choices builder-chooser");
      box2.setAttribute("role", "group");
      box2.appendChild(node("p", "", f(texts.laidOffBy, { card: CP.label(c.card) })));
      var owner = cleanName(m.owner);
      var mine = button(owner ? f(texts.byOwner, { name: owner }) : (texts.byNobody || "—"),
        "button-secondary");
      mine.setAttribute("aria-pressed", cleanName(c.by) && cleanName(c.by) !== owner ? "false" : "true");
      mine.setAttribute("data-act", "by");
      mine.setAttribute("data-k", k);
      mine.setAttribute("data-name", "");
      box2.appendChild(mine);
      known.filter(function (name) { return name !== owner; }).forEach(function (name) {
        var b = button(name, "button-secondary");
        b.setAttribute("aria-pressed", cleanName(c.by) === name ? "true" : "false");
        b.setAttribute("data-act", "by");
        b.setAttribute("data-k", k);
        b.setAttribute("data-name", name);
        box2.appendChild(b);
      });
      var otherId = area.id + "-by-" + k;
      var otherLabel = node("label", "sr-only", texts.anotherName || "Another name");
      otherLabel.setAttribute("for", otherId);
      var other = node("input", "builder-by");
      other.id = otherId;
      other.type = "text";
      other.placeholder = texts.anotherName || "Another name";
      other.setAttribute("autocomplete", "off");
      other.setAttribute("data-k", k);
      box2.appendChild(otherLabel);
      box2.appendChild(other);
      var back = button(f(texts.remove, { card: CP.label(c.card) }), "button-secondary");
      back.setAttribute("data-act", "take-back");
      back.setAttribute("data-k", k);
      box2.appendChild(back);
      return box2;
    }

    this.newMeld = function () {
      var m = { id: nextId(self.melds), owner: "", cards: [] };
      self.melds.push(m);
      self.active = m;
      self.chosen = null;
      render();
    };

    this.put = function (card) {
      if (!self.active || self.melds.indexOf(self.active) < 0) { self.newMeld(); }
      self.active.cards.push({ card: card, by: "" });
      self.chosen = null;
      save();
      render();
    };

    box.addEventListener("click", function (event) {
      var b = event.target.closest("button");
      if (!b) {
        var li = event.target.closest(".builder-meld");
        if (li && !event.target.closest("input")) {
          self.active = self.melds[Array.prototype.indexOf.call(list.children, li)];
          show(area);
          render();
        }
        return;
      }
      var k = parseInt(b.getAttribute("data-k"), 10);
      var m = self.melds[k];
      var act = b.getAttribute("data-act");
      if (b === add) { self.newMeld(); show(area); return; }
      if (b === typeIt) { self.setTyped(true); area.focus(); return; }
      if (act === "activate") { self.active = m; self.chosen = null; show(area); }
      else if (act === "drop") {
        self.melds.splice(k, 1);
        if (self.active === m) { self.active = self.melds[self.melds.length - 1] || null; }
        self.chosen = null;
        save();
      } else if (act === "choose") {
        var i = parseInt(b.getAttribute("data-i"), 10);
        var same = self.chosen && self.chosen.meld === m && self.chosen.index === i;
        self.chosen = same ? null : { meld: m, index: i };
        self.active = m;
        show(area);
      } else if (act === "by" && self.chosen) {
        m.cards[self.chosen.index].by = b.getAttribute("data-name");
        self.chosen = null;
        save();
      } else if (act === "take-back" && self.chosen) {
        m.cards.splice(self.chosen.index, 1);
        self.chosen = null;
        save();
      }
      render();
    });

    box.addEventListener("change", function (event) {
      var input = event.target;
      var m = self.melds[parseInt(input.getAttribute("data-k"), 10)];
      if (!m) { return; }
      if (input.classList.contains("builder-owner")) {
        m.owner = cleanName(input.value);
      } else if (input.classList.contains("builder-by") && self.chosen) {
        m.cards[self.chosen.index].by = cleanName(input.value);
        self.chosen = null;
      }
      save();
      render();
    });
    box.addEventListener("keydown", function (event) {
      if (event.key === "Enter" && event.target.tagName === "INPUT") {
        event.preventDefault();
        event.target.blur();
      }
    });
    box.addEventListener("focusin", function (event) {
      if (event.target.tagName === "INPUT") { show(area); }
    });

    // Typed: the text area, read back into the builder when left.
    this.setTyped = function (typed) {
      self.typed = typed;
      area.hidden = !typed;
      box.hidden = typed;
      if (fieldBox) { fieldBox.classList.toggle("is-built", !typed); }
    };
    var back = button(texts.buildTable || "Tap the table in", "button-link builder-untype");
    back.hidden = true;
    area.parentNode.insertBefore(back, area.nextSibling);
    back.addEventListener("click", function () {
      var melds = readTable(area.value);
      if (melds === null) { picker && picker.say(texts.tableUnread || ""); return; }
      self.melds = melds;
      self.active = melds[melds.length - 1] || null;
      self.setTyped(false);
      back.hidden = true;
      render();
      show(area);
    });
    var originalSetTyped = this.setTyped;
    this.setTyped = function (typed) {
      originalSetTyped(typed);
      back.hidden = !typed;
    };

    if (parsed === null) {
      // what was typed is not understood by the builder: keep it as typed
      this.melds = [];
      this.setTyped(true);
    } else {
      this.active = this.melds[this.melds.length - 1] || null;
      this.setTyped(false);
    }
    render();
  }

  // --- the picker ----------------------------------------------------------------------

  var typing = false;

  function keyboard() {
    fields.forEach(function (field) {
      if (field.getAttribute("data-picker") !== "table") {
        field.setAttribute("inputmode", typing ? "text" : "none");
      }
    });
  }

  function builderOf(field) {
    for (var k = 0; k < builders.length; k++) {
      if (builders[k].area === field) { return builders[k]; }
    }
    return null;
  }

  function put(card) {
    if (!current) { picker.say(texts.chooseField || ""); return; }
    var kind = current.getAttribute("data-picker");
    var builder = builderOf(current);
    if (builder && !builder.typed) { builder.put(card); target(); return; }
    card = CP.label(card);
    if (kind === "one") {
      current.value = card;
    } else if (kind === "table") {
      var value = current.value;
      var lineStart = value.lastIndexOf("\n") + 1;
      var line = value.slice(lineStart);
      if (!line.trim()) {
        var taken = readTable(value.slice(0, lineStart)) || [];
        line = nextId(taken) + ":";
      }
      current.value = value.slice(0, lineStart) + line.replace(/\s*$/, "") + " " + card;
    } else {
      current.value = (current.value.replace(/\s*$/, "") + " " + card).trim();
    }
    current.dispatchEvent(new Event("input", { bubbles: true }));
  }

  // The header names the field (the table's meld being filled); the field is scrolled
  // into view above the picker, except on opening the page (a verdict is read first).
  function target(quiet) {
    if (!picker) { return; }
    if (!current) { picker.setTarget(""); return; }
    var builder = builderOf(current);
    if (builder && !builder.typed) {
      var m = builder.active;
      picker.setTarget(m ? builder.meldTitle(m) : labelOf(current),
        quiet ? null : (m && builder.box.querySelector(".builder-meld.is-active")) || builder.box,
        m ? cleanName(m.owner) : null);
      return;
    }
    picker.setTarget(labelOf(current), quiet ? null : current);
  }

  function show(field, quiet) {
    current = field;
    if (!picker) {
      limits = deal();
      picker = CP.create(dock, { decks: limits.decks, jokers: limits.jokers, texts: texts,
        onPick: put, onType: function (on) {
          typing = on;
          keyboard();
          if (current && !builderOf(current)) { current.focus(); }
        } });
    }
    dock.hidden = false;
    if (!quiet) { picker.collapse(false); }  // a field tapped: its cards at hand
    target(quiet);
    refresh();
  }

  // What was typed (or sent back by the server) reads with suit symbols: "jc jh js"
  // becomes "J♣ J♥ J♠"; anything that is not a card (a meld's "A:") stays as it is.
  function symbols(field) {
    field.value = field.value.split("\n").map(function (line) {
      return line.replace(/[^\s,;@]+/g, function (token) {
        var card = CP.parseCard(token);
        return card ? CP.label(card) : token;
      });
    }).join("\n");
  }

  // The cards of a field as typed tokens (a table's lines also hold ids and owners,
  // and a card laid off by someone else its "@name").
  function cardTokens(field, value) {
    if (field.getAttribute("data-picker") !== "table") {
      return String(value).split(/[\s,;]+/).filter(Boolean);
    }
    var out = [];
    String(value || "").split("\n").forEach(function (line) {
      if (!line.trim()) { return; }
      var m = LINE.exec(line);
      ((m ? m[3] : line).match(TOKEN) || []).forEach(function (token) {
        var at = token.indexOf("@");
        out.push(at >= 0 ? token.slice(0, at) : token);
      });
    });
    return out;
  }

  // Sent in the canonical letters (7♠ or, in Spanish, 7p → 7S), so a verdict's address
  // stays plain to share and reads the same in every language; null when a token is
  // no card (then every field is sent as typed, for the server to read in the page's
  // letters and say what is wrong).
  function canonical(field) {
    var ok = true;
    function one(token) {
      var card = CP.parseCard(token);
      if (!card) { ok = false; return token; }
      return card;
    }
    var value;
    if (field.getAttribute("data-picker") === "table") {
      value = field.value.split("\n").map(function (line) {
        var m = LINE.exec(line);
        var body = m ? m[3] : line;
        var head = m ? line.slice(0, line.length - body.length) : "";
        return head + body.replace(TOKEN, function (token) {
          var at = token.indexOf("@");
          return at >= 0 ? one(token.slice(0, at)) + token.slice(at) : one(token);
        });
      }).join("\n");
    } else {
      value = cardTokens(field, field.value).map(one).join(" ");
    }
    return ok ? value : null;
  }

  fields.forEach(function (field) {
    symbols(field);
    field.addEventListener("focus", function () { show(field); });
    field.addEventListener("input", refresh);
    // each card as it is read, beside the field, as it is typed
    function previewIt() {
      CP.preview(field, { tokens: function (value) { return cardTokens(field, value); } });
    }
    field.addEventListener("input", previewIt);
    if (field.value.trim()) { previewIt(); }
    if (field.getAttribute("data-picker") === "table") { builders.push(new Builder(field)); }
  });
  keyboard();

  // The focus on a field that takes no cards (a number, a name, a rule): the header
  // says nothing and a tap on a card asks for a card field first.
  if (form) {
    form.addEventListener("focusin", function (event) {
      var el = event.target;
      if (el.hasAttribute && el.hasAttribute("data-picker")) { return; }
      if (el.closest && el.closest("[data-table-builder]")) { return; }
      if (!picker || !el.matches || !el.matches("input, select, textarea")) { return; }
      current = null;
      target();
      refresh();
    });
  }
  document.addEventListener("submit", function (event) {
    if (!event.target.querySelectorAll) { return; }
    builders.forEach(function (b) { if (!b.typed) { b.save(); } });
    var all = Array.prototype.slice.call(event.target.querySelectorAll("[data-picker]"));
    var values = all.map(canonical);
    if (values.some(function (v) { return v === null; })) { return; }
    // every card in the canonical letters: the address needs no language to be read
    all.forEach(function (field, k) { field.value = values[k]; });
    var notation = event.target.querySelector("input[name=notation]");
    if (notation) { notation.disabled = true; }
  });
  ["family", "players", "jokers"].forEach(function (id) {
    var select = document.getElementById(id);
    if (select) {
      select.addEventListener("change", function () {
        picker = null;
        if (current) { show(current); }
      });
    }
  });
  if (form) {
    form.addEventListener("submit", function () { dock.hidden = true; });
  }
  // The first card field is the picker's from the start: the builder's "New meld" and
  // the picker are ready without a tap on a field first.
  // On a page with a verdict the picker starts folded to its header: the verdict, the
  // ways to meld and the rule are read first, not covered by 43% of cards.
  var first = fields[0];
  if (builderOf(first)) {
    show(first, true);
    if (document.querySelector(".verdict")) { picker.collapse(true); }
  }
})();
