// poker-director: the dealer's phone through a Wi-Fi drop. Never lost, never silent.
//
// The connection is shown at all times (online; reconnecting; offline for 0:12). A tap on the
// table's panel while the laptop does not answer goes into an outbox kept in the browser
// (localStorage: it survives a reload), listed in the order entered as "waiting to send".
// Once the laptop answers, the outbox is sent in order, each entry with its own command id
// (a retry of an entry the laptop had recorded is answered with what was recorded, never
// recorded twice) and the seq its page was at, which each recorded entry moves on: an entry
// made on a page the laptop's hand has moved on from (another phone, the director's undo) is
// refused with the laptop's sentence, and every later entry is shown "not sent: enter it
// again". Nothing is applied out of order, nothing twice.
(function () {
  "use strict";
  var WORDS = JSON.parse(document.getElementById("words")?.textContent || "{}");
  function _(s) { return WORDS[s] || s; }
  function fill(text, values) {
    return text.replace(/%\((\w+)\)s/g, function (_m, name) { return values[name] === undefined ? "" : String(values[name]); });
  }
  var KEY = "poker-director outbox " + location.pathname;
  var RECONNECTING = 5000;  // ms of failed answers before the phone is said to be offline
  var lastOk = Date.now(), failingSince = null, sending = false;

  function load() {
    try { return JSON.parse(localStorage.getItem(KEY) || "[]"); } catch (e) { return []; }
  }
  function save(entries) {
    try { localStorage.setItem(KEY, JSON.stringify(entries)); } catch (e) { /* private mode: kept on the page only */ }
    shown = entries;
    draw();
    changed();
  }
  var shown = load();
  // What waits and the connection's state, for the page's other scripts (offline.js: the
  // hand goes on on the phone while the laptop does not answer).
  function changed() { document.dispatchEvent(new CustomEvent("outbox:changed", { detail: { state: state() } })); }
  window.outboxEntries = function () { return shown.slice(); };
  window.outboxState = function () { return state(); };

  function panel() { return document.getElementById("dealer"); }

  // --- the connection ------------------------------------------------------------------------
  function minutes(ms) {
    var s = Math.max(0, Math.floor(ms / 1000));
    return Math.floor(s / 60) + ":" + String(s % 60).padStart(2, "0");
  }
  function state() {
    if (failingSince === null) { return "online"; }
    return Date.now() - failingSince < RECONNECTING ? "reconnecting" : "offline";
  }
  function drawBadge() {
    var badge = document.getElementById("connection");
    if (!badge) { return; }
    var now = state();
    badge.dataset.state = now;
    badge.textContent = now === "online" ? _("Online")
      : now === "reconnecting" ? _("Reconnecting…")
      : fill(_("Offline for %(time)s"), { time: minutes(Date.now() - failingSince) });
  }
  function answered() {
    lastOk = Date.now();
    var was = failingSince;
    failingSince = null;
    drawBadge();
    if (was !== null) { changed(); }
    if (was !== null || waiting().length) { send(); }
  }
  function failed() {
    var was = failingSince;
    if (failingSince === null) { failingSince = Date.now(); }
    drawBadge();
    if (was === null) { changed(); }
  }

  // --- the outbox ----------------------------------------------------------------------------
  function waiting() { return shown.filter(function (e) { return e.state === "waiting"; }); }
  function words(entry) {
    if (entry.state === "waiting") { return _("waiting to send"); }
    if (entry.state === "sending") { return _("sending…"); }
    if (entry.state === "recorded") { return _("recorded"); }
    if (entry.state === "refused") { return fill(_("refused: %(reason)s"), { reason: entry.reason || "" }); }
    return _("not sent: enter it again");
  }
  function draw() {
    var box = document.getElementById("outbox");
    if (!box) { return; }
    var list = box.querySelector("ol");
    list.textContent = "";
    shown.forEach(function (entry) {
      var item = document.createElement("li");
      item.className = "outbox-entry outbox-entry--" + entry.state;
      item.dataset.state = entry.state;
      var what = document.createElement("span");
      what.className = "outbox-what";
      what.textContent = entry.label;
      var how = document.createElement("span");
      how.className = "outbox-state";
      how.textContent = words(entry);
      item.appendChild(what);
      item.appendChild(how);
      list.appendChild(item);
    });
    box.hidden = shown.length === 0;
    var clear = box.querySelector("button");
    if (clear) { clear.hidden = waiting().length > 0 || sending; }
  }

  function fieldsOf(form) {
    var fields = [];
    new FormData(form).forEach(function (value, name) { if (name !== "csrf_token") { fields.push([name, String(value)]); } });
    return fields;
  }
  function labelOf(elt, form) {
    var button = elt.tagName === "BUTTON" ? elt : form.querySelector("button[type=submit], button:not([type])");
    var text = (button ? button.textContent : form.getAttribute("hx-post") || "").replace(/\s+/g, " ").trim();
    var amount = form.querySelector("input[name=amount]:not([type=hidden])");
    if (amount && amount.value) { text += " " + amount.value; }
    return text;
  }
  // Take a tap into the outbox: ``event`` is htmx's, for a write from the table's panel.
  function take(event, id) {
    var elt = event.detail.elt, form = elt.tagName === "FORM" ? elt : elt.closest("form");
    var here = panel();
    if (!form || !here || !here.contains(form)) { return false; }
    if (shown.some(function (e) { return e.id === id; })) { return true; }  // the same tap, once
    // A tap the rules on the phone refuse (offline.js) is said there at once, and not kept.
    var check = new CustomEvent("outbox:check", { cancelable: true, detail: { path: form.getAttribute("hx-post") || form.getAttribute("action"), fields: fieldsOf(form) } });
    if (!document.dispatchEvent(check)) {
      delete elt.dataset.commandId;
      delete form.dataset.commandId;
      return true;
    }
    var entries = shown.filter(function (e) { return e.state === "waiting" || e.state === "sending"; });
    entries.push({
      id: id, path: form.getAttribute("hx-post") || form.getAttribute("action"), fields: fieldsOf(form),
      label: labelOf(elt, form), at: Date.now(), seq: here.dataset.seq, hand: here.dataset.hand || "", state: "waiting"
    });
    delete elt.dataset.commandId;  // the next tap is another entry, with its own id
    delete form.dataset.commandId;
    save(entries);
    return true;
  }
  window.outboxTakes = function (event) {
    var config = event.detail.requestConfig || {};
    var id = config.headers && config.headers["Idempotency-Key"];
    if (!id || String(config.verb).toLowerCase() === "get") { return false; }
    failed();
    return take(event, id);
  };

  function csrf() {
    var meta = document.querySelector('meta[name="csrf-token"]');
    return meta ? meta.content : "";
  }
  function seqOf(html) {
    var found = /id="dealer"[^>]*data-seq="(\d+)"/.exec(html);
    return found ? found[1] : null;
  }
  function reasonOf(html) {
    var doc = new DOMParser().parseFromString(html, "text/html");
    var said = doc.querySelector(".dl-msg--error, [role=alert], .flash-error, p");
    return said ? said.textContent.replace(/\s+/g, " ").trim() : "";
  }
  function showPanel(html) {
    var here = panel();
    if (!here || !html || !window.htmx) { return; }
    var poll = here.querySelector(".dl-poll[hx-get]");
    if (poll) {
      window.htmx.ajax("GET", poll.getAttribute("hx-get"), { target: "#dealer", swap: "outerHTML", headers: { "X-Show-Recorded": "1" } });
    }
  }
  // A list whose every entry was recorded goes away by itself after a while (a refusal stays
  // until the dealer has read it and cleared it).
  function forgetRecorded() {
    setTimeout(function () {
      if (!sending && shown.length && shown.every(function (e) { return e.state === "recorded"; })) { save([]); }
    }, 20000);
  }
  // Send what waits, in order; stop at the first refusal (and say so of every later entry).
  function send() {
    if (sending || !waiting().length) { return; }
    var entries = shown.slice();
    var first = entries.find(function (e) { return e.state === "waiting"; });
    var here = panel();
    if (first && here && first.hand && here.dataset.hand && first.hand !== here.dataset.hand && !first.asked) {
      // Entered for a hand the laptop is past: ask before anything is sent.
      var ok = window.confirm(fill(_("%(count)s taps were entered during hand %(then)s; the laptop is at hand %(now)s. Send them anyway? (Cancel: they are not sent.)"),
        { count: waiting().length, then: first.hand, now: here.dataset.hand }));
      entries.forEach(function (e) { if (e.state === "waiting") { e.asked = true; if (!ok) { e.state = "not sent"; } } });
      save(entries);
      if (!ok) { return; }
    }
    sending = true;
    var seq = null, lastHtml = null;
    function next(i) {
      if (i >= entries.length) { sending = false; save(entries); showPanel(lastHtml); forgetRecorded(); return; }
      var entry = entries[i];
      if (entry.state !== "waiting") { next(i + 1); return; }
      entry.state = "sending";
      save(entries);
      var body = new URLSearchParams();
      entry.fields.forEach(function (pair) {
        body.append(pair[0], pair[0] === "expected_seq" && seq !== null ? seq : pair[1]);
      });
      body.append("csrf_token", csrf());
      fetch(entry.path, {
        method: "POST", credentials: "same-origin", cache: "no-store", body: body,
        headers: { "Idempotency-Key": entry.id, "HX-Request": "true", "X-CSRFToken": csrf() }
      }).then(function (response) {
        return response.text().then(function (html) { return { status: response.status, html: html }; });
      }).then(function (answer) {
        lastOk = Date.now(); failingSince = null; drawBadge();
        lastHtml = answer.html;
        if (answer.status >= 200 && answer.status < 300) {
          entry.state = "recorded";
          seq = seqOf(answer.html) || seq;
          next(i + 1);
          return;
        }
        entry.state = "refused";
        entry.reason = reasonOf(answer.html) || String(answer.status);
        entries.forEach(function (later, k) { if (k > i && later.state === "waiting") { later.state = "not sent"; } });
        sending = false;
        save(entries);
        showPanel(lastHtml);
      }).catch(function () {
        entry.state = "waiting";  // still away: tried again at the next answer
        sending = false;
        failed();
        save(entries);
      });
    }
    next(0);
  }

  // --- htmx's requests tell the connection -------------------------------------------------
  document.addEventListener("htmx:configRequest", function (event) {
    // A tap while the laptop is known to be away goes straight into the outbox.
    if (String(event.detail.verb).toLowerCase() === "get" || failingSince === null) { return; }
    var id = event.detail.headers && event.detail.headers["Idempotency-Key"];
    if (id && take(event, id)) { event.preventDefault(); }
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    var xhr = event.detail.xhr;
    if (xhr && xhr.status > 0) { answered(); }
  });
  document.addEventListener("htmx:sendError", failed);
  document.addEventListener("htmx:timeout", failed);
  window.addEventListener("offline", failed);
  window.addEventListener("online", function () { send(); });

  document.addEventListener("DOMContentLoaded", function () {
    if (window.htmx) { window.htmx.config.timeout = 10000; }  // a laptop that does not answer: said within 10 s
    var box = document.getElementById("outbox");
    var clear = box ? box.querySelector("button") : null;
    if (clear) {
      clear.addEventListener("click", function () {
        save(shown.filter(function (e) { return e.state === "waiting" || e.state === "sending"; }));
      });
    }
    shown.forEach(function (e) { if (e.state === "sending") { e.state = "waiting"; } });  // a reload mid-send
    save(shown);
    drawBadge();
    setInterval(drawBadge, 1000);
    if (waiting().length && navigator.onLine !== false) { setTimeout(send, 300); }
  });
})();
