// poker-director: the rules on the dealer's phone while the laptop does not answer.
//
// Once the page is usable, the engine's own Python (served by the laptop as /static-engine.zip)
// is loaded into a Python runtime for the browser (the vendored Pyodide), in the background.
// While the laptop does not answer (outbox.js), the panel goes on from the running hand's setup
// and log (<script id="hand-data">) and the taps waiting in the outbox, applied in order by
// engine.declared.play, the same function the laptop runs for every tap: the street, who is
// to act, that player's legal actions with their amounts, the pots. Its buttons queue into the
// outbox like the laptop's own (the same form fields); a tap the engine refuses is refused at
// once with the engine's sentence, and not queued. When the laptop answers, the outbox sends
// the taps (the laptop's verdict stands) and its panel comes back. No rule is written here.
// A phone that cannot load the runtime (no WebAssembly, an old browser) keeps the outbox alone.
(function () {
  "use strict";
  var WORDS = JSON.parse(document.getElementById("words")?.textContent || "{}");
  function _(s) { return WORDS[s] || s; }
  function fill(text, values) {
    return text.replace(/%\((\w+)\)s/g, function (_m, name) { return values[name] === undefined ? "" : String(values[name]); });
  }
  var play = null, engineWords = {}, loading = false;

  function panel() { return document.getElementById("dealer"); }
  function handData() {
    var el = document.getElementById("hand-data");
    if (!el) { return null; }
    try { return JSON.parse(el.textContent); } catch (e) { return null; }
  }
  function number(n) {
    try { return new Intl.NumberFormat(document.documentElement.lang || undefined).format(n); } catch (e) { return String(n); }
  }
  // An engine sentence (engine.declared.sentence) in the page's language, as the laptop says it.
  function say(s) {
    var text = engineWords[s.message];
    if (!text) { return s.english; }
    function shown(v) {
      if (Array.isArray(v)) { return v.map(shown).join(", "); }
      if (v && typeof v === "object") { return v.term !== undefined ? (engineWords[v.term] || v.term) : say(v.sentence); }
      return typeof v === "number" ? number(v) : String(v);
    }
    return text.replace(/\{(\w+)\}/g, function (m, name) { return name in s.values ? shown(s.values[name]) : m; });
  }

  // --- the runtime, in the background ------------------------------------------------------
  function start() {
    var marker = document.getElementById("dl-offline-runtime");
    if (loading || !marker || typeof WebAssembly !== "object" || !window.fetch || !window.Promise) { return; }
    var load;
    try { load = new Function("url", "return import(url)"); } catch (e) { return; }  // no module import: the outbox alone
    loading = true;
    var words = marker.dataset.words + "?lang=" + encodeURIComponent(document.documentElement.lang || "");
    load(marker.dataset.runtime).then(function (runtime) {
      return Promise.all([
        runtime.loadPyodide({ indexURL: marker.dataset.index }),
        fetch(marker.dataset.engine, { credentials: "same-origin" }).then(function (r) {
          if (!r.ok) { throw new Error(String(r.status)); }
          return r.arrayBuffer();
        }),
        fetch(words, { credentials: "same-origin" }).then(function (r) { return r.ok ? r.json() : {}; }).catch(function () { return {}; })
      ]);
    }).then(function (got) {
      var py = got[0];
      engineWords = got[2] || {};
      py.unpackArchive(got[1], "zip");
      py.runPython([
        "import json",
        "from engine.declared import play as _play",
        "def offline_play(data, entries):",
        "    return json.dumps(_play(json.loads(data), json.loads(entries)))"
      ].join("\n"));
      play = py.globals.get("offline_play");
      var data = handData();
      if (data) { play(JSON.stringify(data), "[]"); }  // the replay's modules imported now, not at the first tap
      document.body.dataset.offlineReady = "yes";
      draw();
    }).catch(function () {
      document.body.dataset.offlineReady = "no";  // the outbox still keeps the taps
    });
  }

  // --- the hand on the phone -----------------------------------------------------------------
  function asEntry(path, fields) {
    var entry = {}, what = String(path || "").split("/").pop();
    (fields || []).forEach(function (pair) { entry[pair[0]] = pair[1]; });
    entry.what = what;
    return entry;
  }
  // The taps made on this panel, in order, that the laptop has recorded or will be sent.
  function tapsHere(here) {
    var entries = window.outboxEntries ? window.outboxEntries() : [];
    return entries.filter(function (e) {
      return e.seq === here.dataset.seq && (e.hand || "") === (here.dataset.hand || "")
        && (e.state === "waiting" || e.state === "sending" || e.state === "recorded");
    }).map(function (e) { return asEntry(e.path, e.fields); });
  }
  function run(data, entries) { return JSON.parse(play(JSON.stringify(data), JSON.stringify(entries))); }

  function element(tag, className, text) {
    var el = document.createElement(tag);
    if (className) { el.className = className; }
    if (text !== undefined) { el.textContent = text; }
    return el;
  }
  function randomId() {
    var bytes = new Uint8Array(16);
    window.crypto.getRandomValues(bytes);
    return Array.prototype.map.call(bytes, function (b) { return b.toString(16).padStart(2, "0"); }).join("");
  }
  // A form as the laptop's panel draws it: its hidden fields, then kind and amount.
  function actForm(box, kind, amount) {
    var form = box.querySelector("template.dl-offline-form").content.firstElementChild.cloneNode(true);
    var id = form.querySelector("input[name=command_id]");
    if (id) { id.value = randomId(); }
    var hidden = element("input");
    hidden.type = "hidden"; hidden.name = "kind"; hidden.value = kind;
    form.appendChild(hidden);
    if (amount !== null && amount !== undefined) {
      var sum = element("input");
      sum.type = "hidden"; sum.name = "amount"; sum.value = String(amount);
      form.appendChild(sum);
    }
    return form;
  }
  function button(box, kind, label, amount, style) {
    var form = actForm(box, kind, amount);
    var b = element("button", "btn dl-act dl-act--" + kind + (style ? " dl-act--" + style : ""), label);
    b.type = "submit";
    form.appendChild(b);
    return form;
  }
  function amountForm(box, legal) {
    var form = actForm(box, legal.raise_word, null);
    form.classList.add("dl-amount");
    var label = element("label", "dl-amount-label", legal.raise_word === "raise" ? _("Raise to") : _("Bet"));
    var input = element("input");
    input.name = "amount"; input.type = "number"; input.inputMode = "numeric"; input.min = "1"; input.step = "1"; input.required = true;
    input.placeholder = legal.min_to + "–" + legal.max_to;
    label.appendChild(document.createTextNode(" "));
    label.appendChild(input);
    form.appendChild(label);
    var ok = element("button", "btn btn-primary", _("OK"));
    ok.type = "submit";
    form.appendChild(ok);
    return form;
  }

  function render(box, data, shown) {
    var names = data.names || {};
    var turn = box.querySelector(".dl-offline-turn");
    var street = shown.street === "preflop" || shown.street === "flop" || shown.street === "turn" || shown.street === "river"
      ? _(shown.street) : "";
    if (!shown.follows) {
      turn.textContent = _("The laptop's answer will show this tap: the panel goes on once it answers.");
    } else if (shown.complete) {
      turn.textContent = _("The hand is over: the laptop records it once it answers.");
    } else if (shown.turn) {
      turn.textContent = fill(_("Seat %(seat)s: %(name)s to act"), { seat: shown.turn, name: names[String(shown.turn)] || "" });
    } else {
      turn.textContent = _("The betting is over: the laptop takes the hand on once it answers.");
    }
    turn.dataset.turn = shown.follows && shown.turn ? String(shown.turn) : "";
    var streetBox = box.querySelector(".dl-offline-street");
    streetBox.textContent = street;
    streetBox.hidden = !street;

    var seats = box.querySelector(".dl-offline-seats");
    seats.textContent = "";
    shown.seats.slice().sort(function (a, b) { return a.seat - b.seat; }).forEach(function (s) {
      var row = element("li", "dl-seat" + (s.seat === shown.turn ? " dl-seat--turn" : !s.live ? " dl-seat--folded" : s.all_in ? " dl-seat--all-in" : ""));
      row.dataset.seat = String(s.seat);
      row.appendChild(element("span", "dl-seat-no", String(s.seat)));
      var name = element("span", "dl-seat-name", names[String(s.seat)] || "");
      if (!s.live || s.all_in) { name.appendChild(element("span", "dl-seat-note", " " + (!s.live ? _("folded") : _("all-in")))); }
      row.appendChild(name);
      row.appendChild(element("span", "dl-seat-stack num", number(s.stack)));
      row.appendChild(element("span", "dl-seat-bet num", s.bet ? number(s.bet) : ""));
      seats.appendChild(row);
    });

    var pots = box.querySelector(".dl-offline-pots");
    pots.textContent = "";
    shown.pots.forEach(function (p, i) {
      var line = element("p", "dl-pot");
      line.dataset.amount = String(p.amount);
      var word = i === 0 ? _("main pot") : fill(_("side pot %(number)s"), { number: i });
      line.appendChild(element("span", "dl-pot-name", word.charAt(0).toUpperCase() + word.slice(1)));
      line.appendChild(document.createTextNode(" "));
      line.appendChild(element("strong", "num", number(p.amount)));
      pots.appendChild(line);
    });
    if (!shown.pots.length) { pots.appendChild(element("p", "dl-pot dl-pot--empty muted", _("No chips in the pot yet"))); }
    if (shown.bets_total) { pots.appendChild(element("p", "dl-pot dl-pot--bets muted", fill(_("Bets this round %(amount)s"), { amount: number(shown.bets_total) }))); }

    var pad = box.querySelector(".dl-offline-pad");
    pad.textContent = "";
    var legal = shown.follows ? shown.legal : null;
    if (legal) {
      if (legal.can_fold) { pad.appendChild(button(box, "fold", _("Fold"), null, legal.fold_warns ? "quiet" : "danger")); }
      if (legal.can_check) {
        pad.appendChild(button(box, "check", _("Check")));
      } else if (legal.call_amount) {
        pad.appendChild(button(box, "call", fill(legal.call_all_in ? _("Call all-in %(amount)s") : _("Call %(amount)s"), { amount: number(legal.call_amount) }), null, "primary"));
      }
      var low = legal.min_to, high = legal.max_to;
      if (low !== null && high !== null) {
        if (low < high || high < legal.all_in_to) {
          var label = legal.raise_word === "raise" ? (low < high ? _("Raise to %(amount)s+") : _("Raise to %(amount)s"))
            : (low < high ? _("Bet %(amount)s+") : _("Bet %(amount)s"));
          pad.appendChild(button(box, legal.raise_word, fill(label, { amount: number(low) }), low, "primary"));
        }
        if (high === legal.all_in_to) { pad.appendChild(button(box, "allin", fill(_("All-in %(amount)s"), { amount: number(high) }), high, "allin")); }
      }
    }
    if (shown.follows && shown.log.length) {  // a tap entered here, taken back here
      var undo = actForm(box, "", null);
      undo.removeChild(undo.querySelector("input[name=kind]"));
      undo.setAttribute("action", undo.getAttribute("action").replace(/\/act$/, "/undo"));
      undo.setAttribute("hx-post", undo.getAttribute("hx-post").replace(/\/act$/, "/undo"));
      var back = element("button", "btn dl-tool", "↶ " + _("Undo"));
      back.type = "submit";
      undo.appendChild(back);
      pad.appendChild(undo);
    }
    var more = box.querySelector(".dl-offline-amount");
    more.textContent = "";
    if (legal && legal.min_to !== null && legal.max_to !== null && legal.min_to < legal.max_to) { more.appendChild(amountForm(box, legal)); }
    if (window.htmx) { window.htmx.process(box); }
  }

  function refusal(text) {
    var box = document.getElementById("dl-offline");
    var said = box ? box.querySelector(".dl-offline-refused") : null;
    if (!said) { return; }
    said.textContent = text;
    said.hidden = !text;
  }

  function draw() {
    var box = document.getElementById("dl-offline"), here = panel();
    if (!box || !here) { return; }
    var data = handData();
    // The phone takes the hand on once the laptop has been away a while, or a tap waits for it:
    // one slow answer does not swap the panel under the dealer's finger.
    var state = window.outboxState ? window.outboxState() : "online";
    var away = state === "offline" || (state !== "online" && tapsHere(here).length > 0);
    var on = Boolean(play && data && away);
    box.hidden = !on;
    here.classList.toggle("dealer--offline", on);
    if (!on) { refusal(""); return; }
    try {
      render(box, data, run(data, tapsHere(here)));
    } catch (e) {
      box.hidden = true;
      here.classList.remove("dealer--offline");
    }
  }

  // A tap the engine refuses on the phone: said at once, not queued (outbox.js asks first).
  document.addEventListener("outbox:check", function (event) {
    var here = panel(), data = handData();
    if (!play || !here || !data) { return; }
    var entry = asEntry(event.detail.path, event.detail.fields);
    if (entry.what !== "act") { return; }
    var before = tapsHere(here), shown;
    try { shown = run(data, before.concat([entry])); } catch (e) { return; }
    if (shown.refused && shown.follows && shown.applied === before.length) {
      event.preventDefault();
      draw();
      refusal(say(shown.refused));
      return;
    }
    refusal("");
  });
  document.addEventListener("outbox:changed", draw);
  document.addEventListener("htmx:afterSettle", draw);  // a new panel: its own hand
  // Loaded once the page has been open a few seconds, when the phone has a moment: never before
  // the panel, and never in the way of the first taps of a page opened for a moment (a dealer's
  // page stays open for the night; its runtime is 14 MB to fetch and compile).
  var PRELOAD_AFTER = 8000;
  function later() {
    var idle = window.requestIdleCallback || function (f) { return setTimeout(f, 200); };
    setTimeout(function () { idle(start, { timeout: 2000 }); }, PRELOAD_AFTER);
  }
  if (document.readyState === "complete") { later(); } else { window.addEventListener("load", later); }
})();
