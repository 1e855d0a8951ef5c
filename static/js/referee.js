// Referee pages: the card picker is the input of the card fields (a verdict's
// permalink is copied by copy.js). A card field opens no keyboard, which would cover
// the picker (inputmode="none"), unless the picker's "Type" is chosen; the picker
// writes each card with its suit symbol (7♠ 8♠ 9♠), which the server reads like 7s.
// Without JavaScript every field is typed.
(function () {
  "use strict";

  var dock = document.querySelector("[data-picker-dock]");
  var fields = document.querySelectorAll("[data-picker]");
  if (!dock || !fields.length || !window.CardPicker) { return; }
  var texts = JSON.parse(dock.getAttribute("data-texts") || "{}");
  var form = dock.closest("form") || document.querySelector(".referee-form");
  var current = null;
  var picker = null;

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
    return label ? label.textContent : "";
  }

  var typing = false;

  function keyboard() {
    fields.forEach(function (field) {
      field.setAttribute("inputmode", typing ? "text" : "none");
    });
  }

  function put(card) {
    if (!current) { return; }
    card = window.CardPicker.label(card);
    var kind = current.getAttribute("data-picker");
    if (kind === "one") {
      current.value = card;
    } else if (kind === "table") {
      var value = current.value;
      var lineStart = value.lastIndexOf("\n") + 1;
      var line = value.slice(lineStart);
      if (!line.trim()) {
        var count = value.split("\n").filter(function (l) { return l.trim(); }).length;
        line = String.fromCharCode(65 + count) + ":";
      }
      current.value = value.slice(0, lineStart) + line.replace(/\s*$/, "") + " " + card;
    } else {
      current.value = (current.value.replace(/\s*$/, "") + " " + card).trim();
    }
    current.dispatchEvent(new Event("input", { bubbles: true }));
  }

  function show(field) {
    current = field;
    if (!picker) {
      var d = deal();
      picker = window.CardPicker.create(dock, { decks: d.decks, jokers: d.jokers, texts: texts,
        onPick: put, onType: function (on) {
          typing = on;
          keyboard();
          if (current) { current.focus(); }
        } });
    }
    dock.hidden = false;
    picker.setTarget(labelOf(field));
  }

  // What was typed (or sent back by the server) reads with suit symbols: "jc jh js"
  // becomes "J♣ J♥ J♠"; anything that is not a card (a meld's "A:") stays as it is.
  function symbols(field) {
    var CP = window.CardPicker;
    field.value = field.value.split("\n").map(function (line) {
      return line.replace(/[^\s,;]+/g, function (token) {
        var card = CP.parseCard(token);
        return card ? CP.label(card) : token;
      });
    }).join("\n");
  }

  // Sent as letters (7♠ → 7S), so a verdict's address stays plain to share.
  var LETTERS = { "♠": "S", "♥": "H", "♦": "D", "♣": "C" };
  function letters(field) {
    field.value = field.value.replace(/[♠♥♦♣]/g, function (s) { return LETTERS[s]; });
  }

  fields.forEach(function (field) {
    field.addEventListener("focus", function () { show(field); });
    symbols(field);
  });
  keyboard();
  document.addEventListener("submit", function (event) {
    if (!event.target.querySelectorAll) { return; }
    Array.prototype.forEach.call(event.target.querySelectorAll("[data-picker]"), letters);
  });
  ["family", "players", "jokers"].forEach(function (id) {
    var select = document.getElementById(id);
    if (select) {
      select.addEventListener("change", function () { picker = null; if (current) { show(current); } });
    }
  });
  if (form) {
    form.addEventListener("submit", function () { dock.hidden = true; });
  }
})();
