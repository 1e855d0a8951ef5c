// The live hand. Without this script each form is typed into and posted, and the
// page comes back; with it:
//
// - The card picker is the input. The card fields (the meld's cards, the card laid
//   off, each player's cards left in hand) open no keyboard (inputmode="none": the
//   keyboard would cover the picker); the card picker fills the field last used, one
//   tap per card, and its "Type" button is there for typing. A field shows its cards
//   with their suit symbols (7♠ 8♠ 9♠), and under it as chips: tap one to take it back.
// - Each form is sent on its own, in the background (the same POST, asking for JSON),
//   so moves from two phones at once both land and nothing on the page is lost: a move
//   refused keeps its form as it was, with the reason right above its button; a move
//   stored clears its form and the table follows at once (live.js).
// - What is typed is kept as a draft in the browser (drafts.js) until the server has
//   stored it: a reload or a lost tab brings it back, and leaving asks first.
//
// live.js may swap parts of the page when another phone records something, so the
// fields are found afresh each time (by id, and through events on the page), and the
// cards already on the table come from the table section's data-used.
(function () {
  "use strict";

  // What this phone typed for a live hand that has since ended (finished or cancelled
  // on another phone) was never recorded: say so, and offer to discard it.
  (function orphans() {
    var box = document.querySelector("[data-draft-notice][data-game]");
    var Drafts = window.ScorebookDrafts;
    if (!box || !Drafts || !Drafts.available) { return; }
    var game = box.getAttribute("data-game");
    var live = box.getAttribute("data-hand") || "";
    var left = Drafts.list("live|" + game + "|").filter(function (d) {
      return d.key.split("|")[2] !== live && d.meta && d.meta.label;
    });
    if (!left.length) { return; }
    box.textContent = "";
    var p = document.createElement("p");
    p.textContent = box.getAttribute("data-text-lost")
      .replace("%(number)s", left[0].meta.number || "")
      .replace("%(what)s", left.map(function (d) { return d.meta.label; }).join("; "));
    box.appendChild(p);
    var button = document.createElement("button");
    button.type = "button";
    button.className = "button-secondary";
    button.textContent = box.getAttribute("data-text-discard");
    button.addEventListener("click", function () {
      left.forEach(function (d) { Drafts.clear(d.key); });
      box.hidden = true;
    });
    box.appendChild(button);
    box.hidden = false;
  })();

  var root = document.querySelector("[data-live-hand]");
  var dock = document.querySelector("[data-picker-dock]");
  if (!root || !dock || !window.CardPicker) { return; }
  var CP = window.CardPicker;
  var f = CP.format;
  var texts = JSON.parse(root.getAttribute("data-texts") || "{}");
  var FIELDS = "[data-card-input]";
  var first = root.querySelector(FIELDS);
  if (!first) { return; }
  var currentId = first.id;
  var number = root.getAttribute("data-number");
  var Drafts = window.ScorebookDrafts;
  var draftBase = root.getAttribute("data-draft");
  var useDrafts = !!(Drafts && Drafts.available && draftBase);
  var sending = {};   // form name -> true while its answer is awaited
  var leaving = false;

  function current() {
    return document.getElementById(currentId) || root.querySelector(FIELDS);
  }

  function labelOf(input) {
    var label = root.querySelector('label[for="' + input.id + '"]');
    return label ? label.textContent.trim() : "";
  }

  function onTable() {
    var table = document.getElementById("table");
    return JSON.parse((table && table.getAttribute("data-used")) || "[]");
  }

  function counts() {
    var used = {};
    function add(card) { var c = CP.natural(card); used[c] = (used[c] || 0) + 1; }
    onTable().forEach(add);
    Array.prototype.forEach.call(root.querySelectorAll(FIELDS), function (input) {
      CP.parseCards(input.value).cards.forEach(add);
    });
    return used;
  }

  // --- the card fields: the picker as the input --------------------------------------

  function cardsIn(input) { return CP.parseCards(input.value).cards; }

  function setCards(input, cards) {
    input.value = cards.map(CP.label).join(" ");
    input.dispatchEvent(new Event("input", { bubbles: true }));
  }

  function chipsFor(input) {
    var box = input.nextElementSibling;
    if (!box || !box.hasAttribute("data-card-chips")) {
      box = document.createElement("div");
      box.className = "field-chips";
      box.setAttribute("data-card-chips", "");
      input.parentNode.insertBefore(box, input.nextSibling);
    }
    return box;
  }

  function drawChips(input) {
    var box = chipsFor(input);
    box.textContent = "";
    cardsIn(input).forEach(function (card, k) {
      var b = document.createElement("button");
      b.type = "button";
      b.className = "card-chip";
      var suit = CP.suitOf(card);
      if (suit) { b.classList.add("suit-" + suit.toLowerCase()); }
      b.textContent = CP.label(card);
      b.setAttribute("aria-label", f(texts.remove, { card: CP.spoken(card, texts.names) }));
      b.setAttribute("data-field", input.id);
      b.setAttribute("data-k", k);
      box.appendChild(b);
    });
  }

  var typing = false; // "Type" chosen in the picker: the fields take the keyboard

  // Every card field: no keyboard (unless typing), symbols, chips. Run again after
  // live.js swaps a part of the page.
  function decorate() {
    Array.prototype.forEach.call(root.querySelectorAll(FIELDS), function (input) {
      input.setAttribute("inputmode", typing ? "text" : "none");
      var hint = CP.parseCards(input.getAttribute("placeholder") || "");
      if (hint.cards.length && !hint.bad.length) {
        input.setAttribute("placeholder", hint.cards.map(CP.label).join(" "));
      }
      if (typing && document.activeElement === input) { return; } // being typed into
      var parsed = CP.parseCards(input.value);
      if (!parsed.bad.length && parsed.cards.length &&
          input.value !== parsed.cards.map(CP.label).join(" ")) {
        input.value = parsed.cards.map(CP.label).join(" ");
      }
      drawChips(input);
      CP.preview(input, { cards: false });
    });
  }

  // --- fewer taps (issue 27), as the record page offers them: a meld's run by its two
  // ends, a set by one card and the rest of it offered under the field, and the meld a
  // card is laid off on chosen when it fits only one. All of it read from the cards
  // alone (a joker, or a meld not read plainly, offers nothing); the server checks.

  var decks = parseInt(root.getAttribute("data-decks"), 10) || 1;
  var M = CP.melds;
  var mayFit = M.mayFit;

  function freeOf(used) {
    return function (card) { return decks - (used[card] || 0); };
  }

  function isMeldField(input) {
    return !!(input && input.form && input.form.getAttribute("data-live-form") === "meld");
  }

  function runBetween(first, last) { return M.runBetween(first, last, freeOf(counts())); }

  function completions(cards) {
    if (cards.length !== 1) { return []; }
    return M.setCompletions(cards[0], freeOf(counts()));
  }

  // Under the meld's field: "A set with K♣? Add: + K♦ K♥ …", one tap each.
  function drawCompletions(input) {
    if (!isMeldField(input)) { return; }
    var box = input.parentNode.querySelector("[data-completions]");
    if (box) { box.remove(); }
    var cards = cardsIn(input);
    var offers = completions(cards);
    if (!offers.length) { return; }
    box = document.createElement("div");
    box.className = "choices completions";
    box.setAttribute("data-completions", "");
    var p = document.createElement("p");
    p.textContent = f(texts.completeSet, { card: CP.label(cards[0]) });
    box.appendChild(p);
    offers.forEach(function (more) {
      var b = document.createElement("button");
      b.type = "button";
      b.className = "button-secondary";
      b.setAttribute("data-act", "complete");
      b.setAttribute("data-into", input.id);
      b.setAttribute("data-cards", more.slice().sort().join(" "));
      b.setAttribute("aria-label", f(texts.addCards,
        { cards: more.map(function (c) { return CP.spoken(c, texts.names); }).join(", ") }));
      var words = document.createElement("span");
      words.textContent = "+";
      more.forEach(function (c) {
        words.appendChild(document.createTextNode(" "));
        var s = document.createElement("span");
        s.className = "suit-" + CP.suitOf(c).toLowerCase();
        s.textContent = CP.label(c);
        words.appendChild(s);
      });
      b.appendChild(words);
      box.appendChild(b);
    });
    var chips = chipsFor(input);
    chips.parentNode.insertBefore(box, chips.nextSibling);
  }

  // The card laid off fits one meld on the table only: that meld is chosen (unless the
  // person chose one). Fits several, or none: nothing chosen by the page.
  function chooseMeld(input) {
    var form = input.form;
    if (!form || form.getAttribute("data-live-form") !== "layoff") { return; }
    var card = cardsIn(input)[0];
    var radios = Array.prototype.slice.call(form.querySelectorAll('input[type=radio][name$="-onto"]'));
    var chosen = radios.filter(function (r) { return r.checked; })[0];
    if (chosen && !chosen.hasAttribute("data-chosen-by-page")) { return; }
    radios.forEach(function (r) { r.removeAttribute("data-chosen-by-page"); });
    if (chosen) { chosen.checked = false; }
    if (!card) { return; }
    var melds = Array.prototype.slice.call(document.querySelectorAll("#table [data-onto]"));
    var fitting = melds.filter(function (li) {
      var cards = (li.getAttribute("data-cards") || "").split(" ").filter(Boolean).map(CP.natural);
      return mayFit(cards, CP.natural(card));
    });
    if (fitting.length !== 1) { return; }
    var value = fitting[0].getAttribute("data-onto");
    var radio = radios.filter(function (r) { return r.value === value; })[0];
    if (!radio) { return; }
    radio.checked = true;
    radio.setAttribute("data-chosen-by-page", "");
    radio.dispatchEvent(new Event("change", { bubbles: true }));
  }

  // Who went out, when the cards leave one possibility only (as the record page does):
  // every other player's cards left in hand are entered, and this one has a meld on the
  // table and no card left. Unless the person chose; the page says it chose.
  var names = JSON.parse(root.getAttribute("data-names") || "[]");
  function chooseWentOut() {
    var form = document.getElementById("finish-form");
    if (!form) { return; }
    var fields = Array.prototype.slice.call(form.querySelectorAll("[data-card-input]"));
    var empty = [];
    fields.forEach(function (input, k) {
      // points typed for a hand nobody remembers are cards held too (issue 27)
      var held = document.getElementById(input.id.replace(/-hand$/, "-held"));
      if (!cardsIn(input).length && !(held && held.value.trim())) { empty.push(k); }
    });
    var radios = Array.prototype.slice.call(form.querySelectorAll('input[type=radio][name$="-outcome"]'));
    var chosen = radios.filter(function (r) { return r.checked; })[0];
    var note = form.querySelector("[data-outcome-note]");
    if (chosen && !chosen.hasAttribute("data-chosen-by-page")) {
      if (note) { note.hidden = true; }
      return;
    }
    var only = empty.length === 1 && fields.length > 1 &&
      document.querySelector('#table [data-owner="p' + empty[0] + '"]') ? empty[0] : null;
    var want = only === null ? null :
      radios.filter(function (r) { return r.value === "p" + only; })[0] || null;
    if (note) {
      note.hidden = !want;
      note.textContent = want ? f(texts.outcomeAuto, { name: names[only] || "" }) : "";
    }
    if (want === (chosen || null)) { return; }
    if (chosen) { chosen.checked = false; chosen.removeAttribute("data-chosen-by-page"); }
    if (want) {
      want.checked = true;
      want.setAttribute("data-chosen-by-page", "");
      want.dispatchEvent(new Event("change", { bubbles: true }));
    }
  }

  var picker = CP.create(dock, {
    decks: parseInt(root.getAttribute("data-decks"), 10) || 1,
    jokers: parseInt(root.getAttribute("data-jokers"), 10) || 0,
    texts: texts,
    onType: function (on) {
      typing = on;
      decorate();
      var input = current();
      if (input) { input.focus(); }
    },
    onPick: function (card) {
      var input = current();
      if (input.hasAttribute("data-single")) {
        setCards(input, [card]);  // the meld it fits is chosen as it is read (input)
      } else {
        var had = cardsIn(input);
        var run = isMeldField(input) && had.length === 1 ? runBetween(had[0], card) : null;
        if (run) {
          // a run by its two ends: the cards between are filled in, lowest first
          var cards = [had[0]].concat(run.cards, [card]);
          if (!run.up) { cards.reverse(); }
          setCards(input, cards);
          picker.note(f(texts.runFilled, { first: CP.label(cards[0]),
            last: CP.label(cards[cards.length - 1]), cards: run.cards.map(CP.label).join(" ") }));
        } else {
          setCards(input, had.concat([card]));
        }
      }
      picker.setUsed(counts());
    }
  });

  function use(input) {
    currentId = input.id;
    dock.setAttribute("data-target", input.id);  // the field being filled (benchmarks/taps.py)
    picker.setTarget(labelOf(input));
  }

  root.addEventListener("focusin", function (event) {
    if (event.target.matches && event.target.matches(FIELDS)) { use(event.target); }
  });
  // A tap that brings the focus to a text field puts the caret in it, even as the second
  // tap of a "double tap". Two quick taps at the same spot count as one double tap even
  // when they land on two fields (the page scrolled the second where the first was: the
  // points of two hands typed one after the other): the browser then moves the focus to
  // the second field but leaves the caret out of it, and every key typed is dropped
  // (keydown, no input: benchmarks/README.md). The caret goes after what the field holds.
  var focusBeforeTap = null;
  root.addEventListener("mousedown", function () { focusBeforeTap = document.activeElement; }, true);
  root.addEventListener("click", function (event) {
    var el = event.target;
    if (event.detail < 2 || el === focusBeforeTap || el !== document.activeElement) { return; }
    if (el.tagName !== "TEXTAREA" && !(el.tagName === "INPUT" &&
        /^(text|search|number|tel|)$/.test(el.getAttribute("type") || ""))) { return; }
    try { el.setSelectionRange(el.value.length, el.value.length); } catch (e) { /* no caret */ }
  }, true);

  root.addEventListener("input", function (event) {
    if (event.target.matches && event.target.matches(FIELDS)) {
      drawChips(event.target);
      // the chips are the cards as read; beside them what is no card, and what a
      // letter means here ("C is corazones ♥ here")
      CP.preview(event.target, { cards: false });
      drawCompletions(event.target);
      chooseMeld(event.target);
      chooseWentOut();
      picker.setUsed(counts());
    } else if (event.target.matches && event.target.matches("[data-held-input]")) {
      chooseWentOut();
    }
  });
  // A radio the person taps is theirs: the page no longer changes it. Who melds or lays
  // off, tapped: the picker fills that form's card field next (no tap on the field).
  root.addEventListener("change", function (event) {
    var el = event.target;
    if (el.type === "radio" && event.isTrusted && el.form) {
      Array.prototype.forEach.call(el.form.querySelectorAll('input[name="' + el.name + '"]'),
        function (r) { r.removeAttribute("data-chosen-by-page"); });
      var field = /-player$/.test(el.name) ? el.form.querySelector(FIELDS) : null;
      if (field && !typing) { use(field); }
    }
  });
  root.addEventListener("click", function (event) {
    var offer = event.target.closest("button[data-act=complete][data-into]");
    if (offer) {
      var into = document.getElementById(offer.getAttribute("data-into"));
      if (into) {
        setCards(into, cardsIn(into).concat(offer.getAttribute("data-cards").split(" ")));
        use(into);
        picker.setUsed(counts());
      }
      return;
    }
    var chip = event.target.closest("button[data-field]");
    if (!chip) { return; }
    var input = document.getElementById(chip.getAttribute("data-field"));
    if (!input) { return; }
    var cards = cardsIn(input);
    cards.splice(parseInt(chip.getAttribute("data-k"), 10), 1);
    setCards(input, cards);
    use(input);
    picker.setUsed(counts());
  });

  // --- drafts: what is typed is kept until it is stored ------------------------------

  function formName(form) { return form.getAttribute("data-live-form"); }

  function fieldsOf(form) {
    return Array.prototype.filter.call(form.querySelectorAll("input, select, textarea"),
      function (el) { return el.name && el.type !== "hidden" && el.name !== "csrf_token"; });
  }

  function valuesOf(form) {
    var values = {};
    fieldsOf(form).forEach(function (el) {
      if (el.type === "radio") { if (el.checked) { values[el.name] = el.value; } }
      else if (el.type === "checkbox") { if (el.checked) { values[el.name] = "y"; } }
      else if (el.value.trim()) { values[el.name] = el.value; }
    });
    return values;
  }

  // Whether a form holds something that would be lost (a player chosen alone is not).
  function holdsWork(form, values) {
    var name = formName(form);
    if (name === "undo" || name === "cancel") { return false; }
    return Object.keys(values).some(function (k) { return !/-player$/.test(k); });
  }

  function keep(form) {
    if (!useDrafts) { return; }
    var name = formName(form);
    if (name === "undo" || name === "cancel") { return; }
    var values = valuesOf(form);
    var draft = Drafts.open(draftBase + "|" + name);
    if (holdsWork(form, values)) {
      draft.save(values, { form: name, number: number, label: summary(form, values) });
    } else {
      draft.clear();
    }
  }

  // In words, what a form's draft holds: "Ann: 7♠ 8♠ 9♠".
  function summary(form, values) {
    var parts = [];
    Object.keys(values).forEach(function (k) {
      var el = form.querySelector('[name="' + k + '"]');
      if (!el) { return; }
      if (el.type === "radio") {
        var chosen = form.querySelector('[name="' + k + '"][value="' + CSS.escape(values[k]) + '"]');
        var label = chosen && chosen.closest("label");
        if (label && !/-outcome$|-onto$/.test(k)) { parts.unshift(label.textContent.trim() + ":"); }
      } else if (el.hasAttribute("data-card-input")) {
        parts.push(CP.parseCards(values[k]).cards.map(CP.label).join(" "));
      }
    });
    return parts.join(" ");
  }

  function fill(form, values) {
    fieldsOf(form).forEach(function (el) {
      var v = values[el.name];
      if (el.type === "radio") { el.checked = v !== undefined && el.value === v; }
      else if (el.type === "checkbox") { el.checked = !!v; }
      else { el.value = v || ""; }
    });
  }

  function forms() {
    return Array.prototype.slice.call(root.querySelectorAll("form[data-live-form]"));
  }

  var noticeBox = document.querySelector("[data-draft-notice]");

  function notice(message, buttons) {
    if (!noticeBox) { return; }
    noticeBox.textContent = "";
    noticeBox.hidden = !message;
    if (!message) { return; }
    var p = document.createElement("p");
    p.textContent = message;
    noticeBox.appendChild(p);
    var row = document.createElement("p");
    row.className = "actions";
    (buttons || []).forEach(function (b) {
      var button = document.createElement("button");
      button.type = "button";
      button.className = "button-secondary";
      button.textContent = b.label;
      button.addEventListener("click", b.act);
      row.appendChild(button);
    });
    if (buttons && buttons.length) { noticeBox.appendChild(row); }
  }

  function restore() {
    if (!useDrafts) { return; }
    var resent = root.getAttribute("data-resent"); // the form the server sent back, if any
    var restored = [];
    forms().forEach(function (form) {
      var name = formName(form);
      if (name === resent) { keep(form); return; }
      var d = Drafts.open(draftBase + "|" + name).load();
      if (!d || !d.data) { return; }
      if (holdsWork(form, valuesOf(form))) { return; } // the server's own values win
      fill(form, d.data);
      restored.push(name);
    });
    if (restored.length) {
      decorate();
      picker.setUsed(counts());
      notice(f(texts.draftLiveRestored, { number: number }), [{ label: texts.discardThem, act: function () {
        restored.forEach(function (name) {
          var form = root.querySelector('form[data-live-form="' + name + '"]');
          if (form) { fill(form, {}); }
          Drafts.clear(draftBase + "|" + name);
        });
        decorate();
        picker.setUsed(counts());
        notice(texts.discarded, []);
      } }]);
    }
  }

  root.addEventListener("input", function (event) {
    var form = event.target.form;
    if (form && form.hasAttribute("data-live-form")) { keep(form); }
  });
  root.addEventListener("change", function (event) {
    var form = event.target.form;
    if (form && form.hasAttribute("data-live-form")) { keep(form); }
  });

  // live.js loads the page again when the hand ended on another phone: no question then
  // (the drafts stay, and the fresh page says what was not sent). When this phone ended
  // it (its finish stored, the page on its way to the game), the page is not loaded
  // again and no draft is kept: what they held is stored.
  document.addEventListener("live:reloading", function (event) {
    if (leaving) { event.preventDefault(); return; }
    leaving = true;
    forms().forEach(keep);
  });

  window.addEventListener("beforeunload", function (event) {
    if (leaving) { return; }
    var busy = forms().some(function (form) { return holdsWork(form, valuesOf(form)); }) ||
      Object.keys(sending).some(function (k) { return sending[k]; });
    if (!busy) { return; }
    event.preventDefault();
    event.returnValue = "";
  });

  // --- sending a move in the background ------------------------------------------------

  function errorBox(form) { return form.querySelector("[data-move-error]"); }

  // The form as the page shows it now: live.js may have swapped its part of the page
  // while the move was on its way, and a reason put in the old copy would never be seen.
  function shown(form) { return document.getElementById(form.id) || form; }

  function showError(form, message, link) {
    form = shown(form);
    var box = errorBox(form);
    if (!box) { return; }
    box.textContent = message || "";
    if (link) {
      box.appendChild(document.createTextNode(" "));
      var a = document.createElement("a");
      a.href = link.href;
      a.textContent = link.label;
      box.appendChild(a);
    }
    box.hidden = !message;
    // kept through live.js refreshes of this part of the page
    if (message) { box.setAttribute("data-live-keep", ""); } else { box.removeAttribute("data-live-keep"); }
    var old = form.querySelector(".problems[data-live-keep]");
    if (old) { old.remove(); }
    if (message) { box.scrollIntoView({ block: "nearest" }); }
  }

  function problemText(answer) {
    var problems = answer.problems || [];
    if (!problems.length) { return answer.message || ""; }
    return problems.map(function (p) {
      return (p.player ? p.player + " — " : "") + p.message;
    }).join(" ");
  }

  // The server asks a question the form does not hold (an ace that fits both ends of a
  // run: which end? a player with fewer cards than dealt: does nobody remember the
  // rest?): put the choices in the form, above its button, and send again.  A question
  // of boxes to tick (type "checkbox") is asked afresh each time, keeping what is ticked.
  function ask(form, question) {
    form = shown(form);
    var checkbox = question.type === "checkbox";
    var old = form.querySelector("[data-asked]");
    var ticked = {};
    if (old && !checkbox) { return; }
    if (old) {
      Array.prototype.forEach.call(old.querySelectorAll("input:checked"), function (el) {
        ticked[el.value] = true;
      });
      old.remove();
    }
    var box = document.createElement("fieldset");
    box.className = checkbox ? "missing-ok" : "ace-end";
    box.setAttribute("data-asked", "");
    box.id = "asked-" + form.id;
    box.setAttribute("data-live-keep", ""); // kept when live.js refreshes this part
    var legend = document.createElement("legend");
    legend.textContent = question.legend;
    box.appendChild(legend);
    var chips = document.createElement("div");
    chips.className = checkbox ? "" : "chips";
    if (!checkbox) { chips.setAttribute("role", "radiogroup"); }
    chips.setAttribute("aria-label", question.legend);
    question.choices.forEach(function (choice, k) {
      var label = document.createElement("label");
      label.className = checkbox ? "option-row" : "chip-radio";
      var input = document.createElement("input");
      input.type = checkbox ? "checkbox" : "radio";
      input.name = question.name;
      input.value = choice[0];
      input.checked = !!ticked[choice[0]];
      input.id = question.name + "-" + k;
      var span = document.createElement("span");
      span.textContent = choice[1];
      label.appendChild(input);
      label.appendChild(span);
      chips.appendChild(label);
    });
    box.appendChild(chips);
    form.insertBefore(box, errorBox(form));
  }

  // After a move is stored: clear what it sent (the player chosen stays, the next move
  // is often theirs; and cards tapped while it was on its way stay for the next one),
  // forget its draft, and have the table follow at once.
  function cleared(form, sent) {
    var live = shown(form);
    fieldsOf(live).forEach(function (el) {
      if (el.type === "radio" && /-player$/.test(el.name)) { return; }
      var was = sent[el.name];
      if (el.type === "radio" || el.type === "checkbox") {
        if (was !== undefined) { el.checked = false; }
      } else if (was !== undefined && el.value.indexOf(was) === 0) {
        el.value = el.value.slice(was.length).trim();
      } else if (was !== undefined && el.value === was) {
        el.value = "";
      }
    });
    var asked = live.querySelector("[data-asked]");
    if (asked) { asked.remove(); } // answered: the next lay-off is asked afresh
    if (useDrafts) { keep(live); }
    decorate();
    picker.setUsed(counts());
    document.dispatchEvent(new CustomEvent("live:check"));
  }

  // What a lay-off did, said in the picker where the person is looking ("10♥ → Ben's
  // meld 1"), as the record page does: the table above, which shows it too, is often
  // behind the picker. Read from the form as it is sent (it is cleared once stored).
  function layoffNote(form) {
    var field = form.querySelector("[data-card-input]");
    var card = field ? CP.parseCards(field.value).cards[0] : null;
    var onto = form.querySelector('input[type=radio][name$="-onto"]:checked');
    var label = onto && onto.closest("label");
    if (!card || !label) { return ""; }
    return f(texts.laidOffNote, { card: CP.label(card), meld: label.textContent.trim() });
  }

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.hasAttribute || !form.hasAttribute("data-live-form") || !root.contains(form)) { return; }
    if (!window.fetch || !window.FormData) { return; } // the page's own post does it
    event.preventDefault();
    var name = formName(form);
    if (sending[name]) { return; }
    var button = form.querySelector("button[type=submit]");
    sending[name] = true;
    if (button) { button.disabled = true; }
    showError(form, "");
    var sent = valuesOf(form);
    var laid = name === "layoff" ? layoffNote(form) : "";
    var body = new FormData(form);
    var action = form.getAttribute("action").split("#")[0];
    fetch(action, {
      method: "POST",
      body: body,
      credentials: "same-origin",
      headers: { "Accept": "application/json" }
    }).then(function (response) {
      return response.json().then(function (json) { return { ok: response.ok, json: json }; },
        function () { return { ok: false, json: { message: texts.sendFailed } }; });
    }).then(function (answer) {
      var json = answer.json || {};
      if (answer.ok && json.ok) {
        if (json.redirect) {
          leaving = true;
          if (useDrafts) { Drafts.clear(draftBase); }
          window.location.assign(json.redirect);
          return;
        }
        cleared(form, sent);
        if (laid) { picker.note(laid); }
        return;
      }
      if (json.ask) { ask(form, json.ask); }
      showError(form, problemText(json), json.link ? {
        href: json.link, label: f(texts.seeHand, { number: number }) } : null);
    }, function () {
      showError(form, texts.sendFailed); // offline: the form and its draft stay as they are
    }).then(function () {
      sending[name] = false;
      var again = document.getElementById(form.id);
      var b = again && again.querySelector("button[type=submit]");
      if (b) { b.disabled = false; }
      if (button) { button.disabled = false; }
    });
  });

  // Another phone melded or laid off: those cards are now used up too.
  document.addEventListener("live:updated", function () {
    decorate();
    chooseWentOut();
    picker.setUsed(counts());
  });

  var meldForm = document.getElementById("meld-form");
  if (meldForm) { meldForm.setAttribute("data-shortcuts", ""); } // benchmarks/taps.py
  decorate();
  use(first);
  picker.setUsed(counts());
  restore();
})();
