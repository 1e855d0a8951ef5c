// Referee pages: copy a verdict's permalink to the clipboard.
(function () {
  "use strict";
  document.querySelectorAll("[data-copy]").forEach(function (button) {
    var target = document.getElementById(button.getAttribute("data-copy"));
    if (!target || !navigator.clipboard) { return; }
    button.hidden = false;
    var label = button.textContent;
    button.addEventListener("click", function () {
      navigator.clipboard.writeText(target.value).then(function () {
        button.textContent = "✔";
        setTimeout(function () { button.textContent = label; }, 1500);
      });
    });
  });
})();
