// poker-director: the few lines of JS the director's pages need (htmx does the rest).
(function () {
  "use strict";
  // The page's words in its language (the server writes them into <script id="words">).
  const WORDS = JSON.parse(document.getElementById("words")?.textContent || "{}"); const _ = (s) => WORDS[s] || s;
  // htmx requests carry the CSRF token (also set with hx-headers on <body>, this covers swapped-in forms).
  document.addEventListener("htmx:configRequest", function (event) {
    var meta = document.querySelector('meta[name="csrf-token"]');
    if (meta && !event.detail.headers["X-CSRFToken"]) {
      event.detail.headers["X-CSRFToken"] = meta.content;
    }
  });

  // Each tap is a command with an id of its own, kept until the server has answered: a tap
  // sent again after a lost answer carries the same id, and the server records it once.
  // (crypto.getRandomValues works over the home network's plain http; randomUUID does not.)
  function newCommandId() {
    var bytes = new Uint8Array(16);
    window.crypto.getRandomValues(bytes);
    return Array.prototype.map.call(bytes, function (b) { return b.toString(16).padStart(2, "0"); }).join("");
  }
  document.addEventListener("htmx:configRequest", function (event) {
    if (String(event.detail.verb).toLowerCase() === "get") { return; }
    var elt = event.detail.elt;
    if (!elt.dataset.commandId) { elt.dataset.commandId = newCommandId(); }
    event.detail.headers["Idempotency-Key"] = elt.dataset.commandId;
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    var xhr = event.detail.xhr, elt = event.detail.elt;
    if (xhr && xhr.status >= 200 && xhr.status < 500 && elt && elt.dataset) { delete elt.dataset.commandId; }
  });

  // The compact clock: count down from the level's end sent by the server, against the
  // measured offset to server time. htmx re-fetches the partial every few seconds.
  var offsetMs = 0;
  function measureOffset(clock) {
    var serverNow = parseFloat(clock.dataset.serverNow || "");
    if (!isNaN(serverNow)) { offsetMs = serverNow * 1000 - Date.now(); }
  }
  function format(seconds) {
    seconds = Math.max(0, Math.ceil(seconds));
    var h = Math.floor(seconds / 3600), m = Math.floor((seconds % 3600) / 60), s = seconds % 60;
    var mm = (h ? String(m).padStart(2, "0") : String(m)), ss = String(s).padStart(2, "0");
    return (h ? h + ":" : "") + mm + ":" + ss;
  }
  function tick() {
    document.querySelectorAll("[data-ends-at]").forEach(function (clock) {
      if (clock.dataset.paused === "true") { return; }
      var endsAt = parseFloat(clock.dataset.endsAt);
      if (isNaN(endsAt)) { return; }
      var left = endsAt - (Date.now() + offsetMs) / 1000;
      var target = clock.querySelector(".clock-time");
      if (target) { target.textContent = format(left); }
    });
  }
  function sync(root, xhr) {
    // A kept answer's own time is old: the header has the server's time as it answered.
    var said = xhr ? Number(xhr.getResponseHeader("X-Server-Now")) : 0;
    if (said > 0) { offsetMs = said - Date.now(); tick(); return; }
    var clock = (root && root.querySelector) ? root.querySelector("[data-server-now]") : null;
    if (!clock && root && root.dataset && root.dataset.serverNow) { clock = root; }
    if (clock) { measureOffset(clock); }
    tick();
  }
  // When the polled clock shows that another device changed the tournament, refresh the
  // dashboard, unless the director is in the middle of something (an open dialog, a field).
  function refreshIfChanged(clock) {
    var panel = document.getElementById("dashboard");
    if (!panel || !clock || !clock.dataset.seq || clock.dataset.seq === panel.dataset.seq) { return; }
    if (panel.querySelector("details[open]") || panel.contains(document.activeElement) && document.activeElement.matches("input, select, textarea")) { return; }
    if (window.htmx && panel.dataset.refresh) {
      window.htmx.ajax("GET", panel.dataset.refresh, { target: "#dashboard", swap: "outerHTML" });
    }
  }
  document.addEventListener("htmx:afterSwap", function (event) {
    if (event.detail.target && event.detail.target.id === "clock") { refreshIfChanged(document.getElementById("clock")); }
  });
  // A write is sent once: while a form or button posts, its buttons are disabled (a second
  // tap does nothing; the server's expected-seq check refuses a repeat anyway). Polls and
  // other reads disable nothing, so a field changed meanwhile is never held up.
  document.addEventListener("htmx:beforeRequest", function (event) {
    var config = event.detail.requestConfig;
    if (!config || config.verb === "get") { return; }
    var elt = event.detail.elt;
    var form = elt.tagName === "FORM" ? elt : elt.form || null;
    var buttons = form ? Array.prototype.slice.call(form.querySelectorAll("button")) : [];
    if (elt.tagName === "BUTTON" && buttons.indexOf(elt) < 0) { buttons.push(elt); }
    buttons = buttons.filter(function (b) { return !b.disabled; });
    buttons.forEach(function (b) { b.disabled = true; });
    elt._sendingButtons = buttons;
    if (event.detail.xhr) { writing.push({ xhr: event.detail.xhr, at: Date.now() }); }
  });
  // A poll answered "not changed" (204) names the stream's seq in X-Seq: the part on the page
  // is the part as it is at that seq (director.core.freshness), so its forms name that seq and
  // a tap on it is not refused as made on an older page. (The part's data-seq stays the seq it
  // was drawn at.)
  document.addEventListener("htmx:afterRequest", function (event) {
    var xhr = event.detail.xhr, target = event.detail.target;
    var seq = xhr && xhr.status === 204 ? xhr.getResponseHeader("X-Seq") : null;
    if (!seq || !target || !target.querySelectorAll) { return; }
    target.querySelectorAll('input[name="expected_seq"]').forEach(function (field) {
      field.value = seq; field.defaultValue = seq;
    });
  });
  // A poll never covers a write: while a write is on its way, a read's answer (made before the
  // write was recorded) is not shown over the panel the write will replace, or the write's
  // answer would land on a panel no longer on the page and the tap would seem lost. The next
  // poll brings whatever else changed. A write unanswered after 20 s holds nothing back.
  var writing = [];
  function writeOnItsWay() {
    var now = Date.now();
    writing = writing.filter(function (w) { return w.xhr.readyState !== 4 && now - w.at < 20000; });
    return writing.length > 0;
  }
  document.addEventListener("htmx:beforeSwap", function (event) {
    var config = event.detail.requestConfig, target = event.detail.target;
    if (!config || String(config.verb).toLowerCase() !== "get" || !event.detail.shouldSwap) { return; }
    if (target && target.dataset && target.dataset.seq !== undefined && writeOnItsWay()) {
      event.detail.shouldSwap = false;
    }
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    var buttons = event.detail.elt._sendingButtons || [];
    buttons.forEach(function (b) { b.disabled = false; });
    event.detail.elt._sendingButtons = null;
  });

  // A request that failed without an answer we can show: say so, in words.
  function toast(text) {
    var box = document.getElementById("toast");
    if (!box) {
      box = document.createElement("div");
      box.id = "toast";
      box.className = "toast";
      box.setAttribute("role", "alert");
      document.body.appendChild(box);
    }
    box.textContent = text;
    box.hidden = false;
    clearTimeout(box._timer);
    box._timer = setTimeout(function () { box.hidden = true; }, 6000);
  }
  // A tap whose answer was lost: ask the server whether it was recorded, then say so. What was
  // typed stays until we know; once recorded, the panel shows the state as it now is.
  function showRecorded() {
    var poll = document.querySelector(".dl-poll[hx-get]"), dashboard = document.getElementById("dashboard");
    var headers = { "X-Show-Recorded": "1" };
    if (poll && window.htmx) {
      window.htmx.ajax("GET", poll.getAttribute("hx-get"), { target: "#dealer", swap: "outerHTML", headers: headers });
    } else if (dashboard && dashboard.dataset.refresh && window.htmx) {
      window.htmx.ajax("GET", dashboard.dataset.refresh, { target: "#dashboard", swap: "outerHTML", headers: headers });
    } else {
      window.location.reload();
    }
  }
  function answerLost(event) {
    var config = event.detail.requestConfig;
    if (!config || String(config.verb).toLowerCase() === "get") { return; }  // polls retry by themselves
    if (window.outboxTakes && window.outboxTakes(event)) { return; }  // the dealer's panel: kept, sent in order
    var id = config.headers && config.headers["Idempotency-Key"];
    if (!id) { toast(_("The server did not answer. Check the laptop and try again.")); return; }
    toast(_("The server's answer was lost: checking whether that was recorded…"));
    fetch("/api/commands/" + encodeURIComponent(id), { credentials: "same-origin", cache: "no-store" })
      .then(function (response) { if (!response.ok) { throw new Error(String(response.status)); } return response.json(); })
      .then(function (found) {
        if (found.recorded) {
          toast(_("That was recorded (once): the page shows it now."));
          showRecorded();
        } else {
          toast(_("That was not recorded: nothing was entered. What you typed is still here: tap again."));
        }
      })
      .catch(function () {
        toast(_("The laptop does not answer, so we cannot tell yet whether that was recorded. What you typed is kept: tap again once it answers (it is never recorded twice)."));
      });
  }
  document.addEventListener("htmx:sendError", answerLost);
  document.addEventListener("htmx:timeout", answerLost);
  document.addEventListener("htmx:responseError", function (event) {
    var status = event.detail.xhr ? event.detail.xhr.status : 0;
    if (status === 401 || (event.detail.xhr && event.detail.xhr.getResponseHeader("HX-Refresh"))) { return; }
    toast(_("That did not work (error %(status)s). Reload the page and try again.").replace("%(status)s", status));
  });

  // An entry refused with a message (a 4xx answer swapped in): bring the message into view,
  // so a dealer who typed at the bottom of a phone's page sees why nothing happened.
  document.addEventListener("htmx:afterSettle", function (event) {
    var xhr = event.detail.xhr;
    if (!xhr || xhr.status < 400 || xhr.status >= 500) { return; }
    var root = event.detail.target && event.detail.target.isConnected ? event.detail.target : document;
    var message = root.querySelector('.flash-error, [role="alert"]:not(#toast)');
    if (!message || message.hidden) { return; }
    var box = message.getBoundingClientRect();
    // Below the top bar where it stays on top (a wide screen); on a phone it scrolls away.
    var header = document.querySelector(".topbar");
    var top = header && getComputedStyle(header).position !== "static"
      ? Math.max(0, header.getBoundingClientRect().bottom) : 0;
    if (box.top < top || box.bottom > window.innerHeight) {
      window.scrollBy({ top: box.top - top - 12, behavior: "auto" });
    }
  });

  document.addEventListener("DOMContentLoaded", function () { sync(document); setInterval(tick, 250); });
  document.addEventListener("htmx:afterSwap", function (event) { sync(event.detail.elt, event.detail.xhr); });
  document.addEventListener("htmx:afterSettle", function (event) { sync(event.detail.elt, event.detail.xhr); });
})();
