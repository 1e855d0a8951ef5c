// New game: tap a name from the league's roster to seat them in the next empty seat.
// Without this script the seats are typed (the roster is offered as suggestions).
(function () {
  "use strict";

  var roster = document.querySelector("[data-roster]");
  if (!roster) { return; }
  var seats = document.querySelectorAll("input[data-seat]");

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
      var empty = Array.prototype.filter.call(seats, function (s) { return !s.value.trim(); })[0];
      if (empty) { empty.value = name; }
    }
    refresh();
  });
  Array.prototype.forEach.call(seats, function (s) { s.addEventListener("input", refresh); });
  refresh();
})();
