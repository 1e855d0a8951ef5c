// The sign of a player's points on the record page's points-only form.  A phone's
// numeric keypad may have no minus key (iOS's has none), so the page carries a sign
// select beside each points field, which works without this script; with it, the select
// becomes one button, "+" or "−", that a tap turns over.  A minus typed in the field (a
// keyboard that has one) turns the sign to minus and leaves the digits.
(function () {
  "use strict";

  var MINUS = "\u2212";

  Array.prototype.forEach.call(document.querySelectorAll("select.points-sign"), function (select) {
    var row = select.parentNode;
    var input = row.querySelector(".points-input");
    var button = document.createElement("button");
    button.type = "button";
    button.className = "points-sign-toggle button-secondary";
    button.setAttribute("data-points-sign", "");
    button.setAttribute("aria-label", select.getAttribute("data-minus-label") || "");

    function show() {
      var minus = select.value === "-";
      button.textContent = minus ? MINUS : "+";
      button.setAttribute("aria-pressed", minus ? "true" : "false");
      button.classList.toggle("is-minus", minus);
    }

    button.addEventListener("click", function () {
      select.value = select.value === "-" ? "+" : "-";
      select.dispatchEvent(new Event("change", { bubbles: true }));
      show();
    });

    if (input) {
      input.addEventListener("input", function () {
        var value = input.value;
        var sign = /^\s*[-\u2212]/.exec(value);
        if (sign) {
          input.value = value.replace(/^\s*[-\u2212]\s*/, "");
          select.value = "-";
          show();
        } else if (/^\s*\+/.test(value)) {
          input.value = value.replace(/^\s*\+\s*/, "");
          select.value = "+";
          show();
        }
      });
    }

    select.hidden = true;
    row.insertBefore(button, select);
    show();
  });
})();
