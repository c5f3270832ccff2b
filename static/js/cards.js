// poker-director: the showdown's card picker on the dealer's phone.
//
// A rank and a suit, tapped in either order, write the card ("Ah") at the end of the field the
// dealer last tapped (the board or a seat's cards; the first empty one before any tap). Every
// card already written in a field of the form is greyed. Only text is written here: the laptop
// reads the cards and names the winner. Typing in the fields stays possible.
(function () {
  "use strict";
  var CARD = /[2-9TJQKA][SHDC]/gi;
  var SUITS = ["s", "h", "d", "c"];
  var RANKS = "AKQJT98765432".split("");
  var rank = null, suit = null;
  var targetName = null;  // the field's name: the panel may be swapped meanwhile

  function fields(form) { return Array.prototype.slice.call(form.querySelectorAll("input[data-cards-field]")); }
  function target(form) {
    var list = fields(form);
    var named = list.filter(function (f) { return f.name === targetName; })[0];
    return named || list.filter(function (f) { return !f.value.trim(); })[0] || list[0];
  }
  function used(form) {
    var seen = {};
    fields(form).forEach(function (f) {
      (f.value.match(CARD) || []).forEach(function (c) { seen[c[0].toUpperCase() + c[1].toLowerCase()] = true; });
    });
    return seen;
  }
  function draw(form) {
    var picker = form.querySelector(".dl-picker");
    if (!picker) { return; }
    var seen = used(form), field = target(form);
    picker.querySelectorAll("[data-rank]").forEach(function (b) {
      var r = b.dataset.rank;
      b.disabled = suit ? !!seen[r + suit] : SUITS.every(function (s) { return seen[r + s]; });
      b.setAttribute("aria-pressed", String(r === rank));
    });
    picker.querySelectorAll("[data-suit]").forEach(function (b) {
      var s = b.dataset.suit;
      b.disabled = rank ? !!seen[rank + s] : RANKS.every(function (r) { return seen[r + s]; });
      b.setAttribute("aria-pressed", String(s === suit));
    });
    var back = picker.querySelector("[data-back]");
    if (back) { back.disabled = !field || !CARD.test(field.value); CARD.lastIndex = 0; }
    fields(form).forEach(function (f) { f.classList.toggle("is-target", f === field); });
  }
  function drawAll() { document.querySelectorAll("form[data-cards]").forEach(draw); }
  function write(field, text) {
    field.value = text;
    field.dispatchEvent(new Event("input", { bubbles: true }));  // keep-typing.js: a value not yet sent
  }

  document.addEventListener("focusin", function (event) {
    var field = event.target;
    if (!field.matches || !field.matches("input[data-cards-field]")) { return; }
    targetName = field.name;
    draw(field.form);
  });
  document.addEventListener("input", function (event) {
    var form = event.target.closest && event.target.closest("form[data-cards]");
    if (form) { draw(form); }
  });
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest(".dl-picker button");
    var form = button && button.closest("form[data-cards]");
    if (!form || button.disabled) { return; }
    var field = target(form);
    if (!field) { return; }
    if (button.hasAttribute("data-back")) {
      write(field, field.value.replace(/[2-9TJQKA][SHDC]\s*$/i, ""));
      rank = suit = null;
    } else if (button.dataset.rank) {
      rank = rank === button.dataset.rank ? null : button.dataset.rank;
    } else if (button.dataset.suit) {
      suit = suit === button.dataset.suit ? null : button.dataset.suit;
    }
    if (rank && suit) {
      var card = rank + suit;
      rank = suit = null;
      if (!used(form)[card]) { write(field, field.value.replace(/\s+$/, "") + card); }
    }
    targetName = field.name;
    draw(form);
  });
  document.addEventListener("DOMContentLoaded", drawAll);
  document.addEventListener("htmx:afterSettle", function () { rank = suit = null; drawAll(); });
})();
