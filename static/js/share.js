// Share buttons (templates/partials/share.html): the phone's share sheet (Web Share API)
// where it has one, else the text and link copied to the clipboard, else the text shown
// selected to copy by hand. Without JavaScript the <details> beside the button offers
// the text and links that open a text message or an e-mail.
//
// Works for a block that arrives later too: live.js swaps the scoreboard when the game
// ends on another phone ("live:updated"), so clicks are handled on the document.
(function () {
  "use strict";

  function prepare() {
    document.querySelectorAll("[data-share]").forEach(function (box) {
      var button = box.querySelector("[data-share-button]");
      var fallback = box.querySelector("[data-share-fallback]");
      if (button) button.hidden = false;
      if (fallback && !fallback.open) fallback.hidden = true;
    });
  }

  function say(box, name) {
    var status = box.querySelector("[data-share-status]");
    if (status) status.textContent = box.getAttribute("data-text-" + name) || "";
  }

  function showText(box) {
    var fallback = box.querySelector("[data-share-fallback]");
    var field = box.querySelector("textarea");
    if (fallback) { fallback.hidden = false; fallback.open = true; }
    if (field) { field.focus(); field.select(); }
    say(box, "select");
  }

  // Over plain http (a laptop on the Wi-Fi) there is no Clipboard API: the old way.
  function copyByHand(box) {
    var field = box.querySelector("textarea");
    if (!field || !document.execCommand) return false;
    var fallback = box.querySelector("[data-share-fallback]");
    var wasHidden = fallback && fallback.hidden;
    if (fallback) { fallback.hidden = false; fallback.open = true; }
    field.focus();
    field.select();
    var done = false;
    try { done = document.execCommand("copy"); } catch (e) { done = false; }
    if (done && fallback && wasHidden) { fallback.open = false; fallback.hidden = true; }
    return done;
  }

  function copy(box, message) {
    if (navigator.clipboard && window.isSecureContext) {
      return navigator.clipboard.writeText(message).then(function () { say(box, "copied"); },
        function () { if (copyByHand(box)) say(box, "copied"); else showText(box); });
    }
    if (copyByHand(box)) say(box, "copied"); else showText(box);
    return Promise.resolve();
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("[data-share-button]");
    if (!button) return;
    var box = button.closest("[data-share]");
    if (!box) return;
    var title = box.getAttribute("data-share-title") || document.title;
    var text = box.getAttribute("data-share-text") || "";
    var url = box.getAttribute("data-share-url") || window.location.href;
    var data = { title: title, text: text, url: url };
    if (navigator.share && (!navigator.canShare || navigator.canShare(data))) {
      navigator.share(data).catch(function (error) {
        if (error && error.name === "AbortError") return;  // the person closed the sheet
        copy(box, text + "\n" + url);
      });
    } else {
      copy(box, text + "\n" + url);
    }
  });

  document.addEventListener("live:updated", prepare);
  prepare();
})();
