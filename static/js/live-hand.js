// The live hand: the card picker types into the card field last used (the meld's
// cards, the card laid off, or a player's cards left in hand), so each card is one
// tap.  Without this script the fields are typed into directly.
(function () {
  "use strict";

  var root = document.querySelector("[data-live-hand]");
  var dock = document.querySelector("[data-picker-dock]");
  if (!root || !dock || !window.CardPicker) { return; }
  var CP = window.CardPicker;
  var texts = JSON.parse(root.getAttribute("data-texts") || "{}");
  var stored = JSON.parse(root.getAttribute("data-used") || "[]");
  var inputs = root.querySelectorAll("[data-card-input]");
  if (!inputs.length) { return; }
  var current = inputs[0];

  function labelOf(input) {
    var label = root.querySelector('label[for="' + input.id + '"]');
    return label ? label.textContent.trim() : "";
  }

  function counts() {
    var used = {};
    function add(card) { var c = CP.natural(card); used[c] = (used[c] || 0) + 1; }
    stored.forEach(add);
    Array.prototype.forEach.call(inputs, function (input) {
      CP.parseCards(input.value).cards.forEach(add);
    });
    return used;
  }

  var picker = CP.create(dock, {
    decks: parseInt(root.getAttribute("data-decks"), 10) || 1,
    jokers: parseInt(root.getAttribute("data-jokers"), 10) || 0,
    texts: texts,
    onPick: function (card) {
      if (current.hasAttribute("data-single")) {
        current.value = card;
      } else {
        current.value = (current.value.trim() + " " + card).trim();
      }
      picker.setUsed(counts());
    }
  });

  function use(input) {
    current = input;
    picker.setTarget(labelOf(input));
  }

  Array.prototype.forEach.call(inputs, function (input) {
    input.addEventListener("focus", function () { use(input); });
    input.addEventListener("input", function () { picker.setUsed(counts()); });
  });
  use(current);
  picker.setUsed(counts());
})();
