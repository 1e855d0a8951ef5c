// Copy buttons: a button with data-copy="<id>" copies that field's text (or element's) (a verdict's
// permalink, an invite link). It stays hidden where the browser cannot copy for us
// (no Clipboard API, e.g. a page served over plain http to another device): the
// field can still be selected and copied by hand.
(function () {
  "use strict";

  document.querySelectorAll("[data-copy]").forEach(function (button) {
    var target = document.getElementById(button.getAttribute("data-copy"));
    if (!target || !navigator.clipboard) { return; }
    button.hidden = false;
    var label = button.textContent;
    button.addEventListener("click", function () {
      var text = "value" in target ? target.value : target.textContent;
      navigator.clipboard.writeText(text).then(function () {
        button.textContent = "✔";
        setTimeout(function () { button.textContent = label; }, 1500);
      });
    });
  });
})();
