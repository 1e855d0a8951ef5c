// The league import form (templates/league/export.html): send the file with
// XMLHttpRequest, so the page can say how much of it is sent, until the server's answer
// (the import's job page, which then shows how far the import has got, or the form with
// what is wrong) replaces the page. Without JavaScript the form posts as usual, to the
// same answer.
//
// Markup: form[data-import] holding [data-import-status] (the message, aria-live) and
// [data-import-progress] (a <progress>); the texts come from the form's
// data-text-sending ("{percent}" is replaced), data-text-checking and data-text-lost.
(function () {
  "use strict";

  var form = document.querySelector("form[data-import]");
  if (!form || !window.XMLHttpRequest || !window.FormData) return;
  var status = form.querySelector("[data-import-status]");
  var bar = form.querySelector("[data-import-progress]");
  var button = form.querySelector("button[type=submit]");
  var file = form.querySelector("input[type=file]");

  function say(text, done, total) {
    status.textContent = text;
    status.hidden = false;
    bar.hidden = false;
    if (total) {
      bar.max = total;
      bar.value = done;
    } else {
      bar.removeAttribute("value"); // indeterminate: the server is working
    }
  }

  function show(html, url) {
    // the server's answer becomes the page, as if the form had been posted
    document.open();
    document.write(html);
    document.close();
    if (url && window.history && window.history.replaceState) {
      window.history.replaceState(null, "", url);
    }
  }

  // A share as the page's language writes it: 50 % in Spanish, 50% in Italian and English.
  function percentOf(part, whole) {
    var share = whole ? part / whole : 0;
    try {
      return new Intl.NumberFormat(document.documentElement.lang || undefined,
        { style: "percent", maximumFractionDigits: 0 }).format(Math.floor(100 * share) / 100);
    } catch (e) { return Math.floor(100 * share) + "%"; }
  }

  form.addEventListener("submit", function (event) {
    if (!file || !file.files || !file.files.length) return; // the server says what is missing
    event.preventDefault();
    var request = new XMLHttpRequest();
    request.open("POST", form.action);
    request.upload.addEventListener("progress", function (e) {
      if (!e.lengthComputable) return;
      say(form.getAttribute("data-text-sending").replace("{percent}", percentOf(e.loaded, e.total)),
          e.loaded, e.total);
    });
    request.upload.addEventListener("load", function () {
      say(form.getAttribute("data-text-checking"));
    });
    request.addEventListener("load", function () {
      show(request.responseText, request.responseURL);
    });
    request.addEventListener("error", function () {
      say(form.getAttribute("data-text-lost"));
      bar.hidden = true;
      button.disabled = false;
    });
    button.disabled = true;
    say(form.getAttribute("data-text-sending").replace("{percent}", percentOf(0, 1)), 0, 1);
    request.send(new FormData(form));
  });
})();
