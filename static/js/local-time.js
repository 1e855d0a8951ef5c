// Times in the phone's own time zone. The server words every moment in UTC and says so
// (a page may be kept and sent to several phones, so it cannot know the reader's zone):
// <time datetime="2026-12-02T19:05:00Z" data-local="moment" data-format="medium">…
// <span class="utc-note"> UTC</span></time> (scorebook/presenters/i18n.py). This words
// it again in the phone's time zone, in the page's language (<html lang>), with the
// format of the same name (short, medium, long, full); data-local="day" is the day of a
// moment, a date alone. Parts of a page that live.js brings in are worded as they come.
// Without JavaScript, or a browser without Intl, the page keeps its UTC.
(function () {
  "use strict";

  if (!window.Intl || !Intl.DateTimeFormat) { return; }
  var lang = document.documentElement.lang || undefined;
  var STYLES = { short: 1, medium: 1, long: 1, full: 1 };
  var formats = {};

  function formatter(kind, style) {
    var key = kind + " " + style;
    if (!formats[key]) {
      var options = { dateStyle: style };
      if (kind === "moment") { options.timeStyle = style === "full" ? "long" : style; }
      try {
        formats[key] = new Intl.DateTimeFormat(lang, options);
      } catch (e) {
        formats[key] = new Intl.DateTimeFormat(undefined, options);
      }
    }
    return formats[key];
  }

  function localise(root) {
    var times = (root || document).querySelectorAll("time[data-local]:not([data-local-shown])");
    Array.prototype.forEach.call(times, function (el) {
      var at = new Date(el.getAttribute("datetime"));
      if (isNaN(at.getTime())) { return; }
      var style = el.getAttribute("data-format");
      if (!STYLES[style]) { style = "medium"; }
      var kind = el.getAttribute("data-local") === "day" ? "day" : "moment";
      try {
        el.textContent = formatter(kind, style).format(at);
      } catch (e) {
        return; // (an old browser without dateStyle: the UTC stays, and says so)
      }
      el.setAttribute("data-local-shown", "");
    });
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", function () { localise(); });
  } else {
    localise();
  }
  document.addEventListener("live:updated", function () { localise(); });
  window.ScorebookLocalTime = { localise: localise };
})();
