// The season recap: a Print button, and a Share button where the browser can share
// (the Web Share API, on phones). Both stay hidden without JavaScript or without the
// API: the page still prints from the browser's menu, and the text can be copied.
(function () {
  "use strict";

  document.querySelectorAll("[data-print]").forEach(function (button) {
    if (typeof window.print !== "function") { return; }
    button.hidden = false;
    button.addEventListener("click", function () { window.print(); });
  });

  document.querySelectorAll("[data-share]").forEach(function (button) {
    if (!navigator.share) { return; }
    button.hidden = false;
    button.addEventListener("click", function () {
      var source = document.getElementById(button.getAttribute("data-share-text-from"));
      navigator.share({
        title: button.getAttribute("data-share-title") || document.title,
        text: source ? source.value : "",
        url: button.getAttribute("data-share-url") || window.location.href
      }).catch(function () { /* the person closed the share sheet */ });
    });
  });
})();
