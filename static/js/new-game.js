// New game: four seats to begin with and "Add a seat" for more (here it shows the next
// seat at once; without this script it sends the form back with one more seat); tap a
// name from the league's roster to seat them in the next empty seat. Without this
// script the seats are typed (the roster is offered as suggestions).
// The house rules shown are those of the game chosen: Basic Rummy is offered no jokers,
// no "Rummy!" calls, no deep-draw or floating rules (data-families on each option).
(function () {
  "use strict";

  var families = document.querySelectorAll("input[name=family]");
  var options = document.querySelectorAll("[data-families]");

  function showOptions() {
    var chosen = Array.prototype.filter.call(families, function (r) { return r.checked; })[0];
    if (!chosen) { return; }
    Array.prototype.forEach.call(options, function (box) {
      var offered = box.getAttribute("data-families").split(" ").indexOf(chosen.value) >= 0;
      box.hidden = !offered;
      // a hidden option is not sent: the game plays the family's own rule
      Array.prototype.forEach.call(box.querySelectorAll("input, select"), function (control) {
        control.disabled = !offered;
      });
    });
  }

  Array.prototype.forEach.call(families, function (r) { r.addEventListener("change", showOptions); });
  showOptions();

  var seats = document.querySelectorAll("input[data-seat]");
  var add = document.querySelector("[data-add-seat]");

  function rows() { return document.querySelectorAll("[data-seats] > li"); }

  // Show the next hidden seat; false when every seat is shown already.
  function addSeat(focus) {
    var next = Array.prototype.filter.call(rows(), function (row) { return row.hidden; })[0];
    if (!next) { return false; }
    next.hidden = false;
    var count = document.querySelector("[data-seats-shown]");
    if (count) { count.value = String(parseInt(count.value, 10) + 1); }
    var input = next.querySelector("input[data-seat]");
    if (focus && input) { input.focus(); }
    if (add && !Array.prototype.some.call(rows(), function (row) { return row.hidden; })) {
      add.parentNode.hidden = true;
    }
    return true;
  }

  if (add) {
    add.addEventListener("click", function (event) {
      event.preventDefault();
      addSeat(true);
    });
  }

  var roster = document.querySelector("[data-roster]");
  if (!roster) { return; }

  function seated(name) {
    return Array.prototype.some.call(seats, function (s) {
      return s.value.trim().toLowerCase() === name.toLowerCase();
    });
  }

  function refresh() {
    Array.prototype.forEach.call(roster.querySelectorAll("button[data-name]"), function (b) {
      var taken = seated(b.getAttribute("data-name"));
      b.setAttribute("aria-pressed", taken ? "true" : "false");
    });
  }

  roster.hidden = false;
  roster.addEventListener("click", function (event) {
    var b = event.target.closest("button[data-name]");
    if (!b) { return; }
    var name = b.getAttribute("data-name");
    if (seated(name)) {
      Array.prototype.forEach.call(seats, function (s) {
        if (s.value.trim().toLowerCase() === name.toLowerCase()) { s.value = ""; }
      });
    } else {
      var visible = function (s) { return !s.closest("li").hidden && !s.value.trim(); };
      var empty = Array.prototype.filter.call(seats, visible)[0];
      if (!empty && addSeat(false)) {
        empty = Array.prototype.filter.call(seats, visible)[0];
      }
      if (empty) { empty.value = name; }
    }
    refresh();
  });
  Array.prototype.forEach.call(seats, function (s) { s.addEventListener("input", refresh); });
  refresh();
})();
