// The live hand: the card picker types into the card field last used (the meld's
// cards, the card laid off, or a player's cards left in hand), so each card is one
// tap.  Without this script the fields are typed into directly.
//
// live.js may swap parts of the page when another phone records something, so the
// fields are found afresh each time (by id, and through events on the page), and
// the cards already on the table come from the table section's data-used.
(function () {
  "use strict";

  var root = document.querySelector("[data-live-hand]");
  var dock = document.querySelector("[data-picker-dock]");
  if (!root || !dock || !window.CardPicker) { return; }
  var CP = window.CardPicker;
  var texts = JSON.parse(root.getAttribute("data-texts") || "{}");
  var FIELDS = "[data-card-input]";
  var first = root.querySelector(FIELDS);
  if (!first) { return; }
  var currentId = first.id;

  function current() {
    return document.getElementById(currentId) || root.querySelector(FIELDS);
  }

  function labelOf(input) {
    var label = root.querySelector('label[for="' + input.id + '"]');
    return label ? label.textContent.trim() : "";
  }

  function onTable() {
    var table = document.getElementById("table");
    return JSON.parse((table && table.getAttribute("data-used")) || "[]");
  }

  function counts() {
    var used = {};
    function add(card) { var c = CP.natural(card); used[c] = (used[c] || 0) + 1; }
    onTable().forEach(add);
    Array.prototype.forEach.call(root.querySelectorAll(FIELDS), function (input) {
      CP.parseCards(input.value).cards.forEach(add);
    });
    return used;
  }

  var picker = CP.create(dock, {
    decks: parseInt(root.getAttribute("data-decks"), 10) || 1,
    jokers: parseInt(root.getAttribute("data-jokers"), 10) || 0,
    texts: texts,
    onPick: function (card) {
      var input = current();
      if (input.hasAttribute("data-single")) {
        input.value = card;
      } else {
        input.value = (input.value.trim() + " " + card).trim();
      }
      picker.setUsed(counts());
    }
  });

  function use(input) {
    currentId = input.id;
    picker.setTarget(labelOf(input));
  }

  root.addEventListener("focusin", function (event) {
    if (event.target.matches && event.target.matches(FIELDS)) { use(event.target); }
  });
  root.addEventListener("input", function (event) {
    if (event.target.matches && event.target.matches(FIELDS)) { picker.setUsed(counts()); }
  });
  // Another phone melded or laid off: those cards are now used up too.
  document.addEventListener("live:updated", function () { picker.setUsed(counts()); });
  use(first);
  picker.setUsed(counts());
})();
