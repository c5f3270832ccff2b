/* The TV clock: draws countdowns from deadlines the server sends, never counting on its own.
 *
 * The clock partial (#tv-clock) carries the truth as data:
 *   data-server-now   the server's clock when it rendered, epoch ms (measures our offset to it)
 *   data-status       not_started | running | paused | on_break | finished
 *   data-key          which level or break is on ("level-5", "break-2"); a change means a new item
 *   data-announce     what to say aloud when that item starts ("Level 5. Blinds 100, 200.")
 * and any element inside it with data-deadline="<epoch ms>" is a countdown this script draws
 * (data-format="clock" for 12:34 or "seconds" for 47). htmx re-fetches the partial every 1.5
 * seconds; each answer re-measures the offset, so the TV stays within a few milliseconds of the
 * server for as long as it runs, and keeps counting when the server or the Wi-Fi is away.
 */
(function () {
  "use strict";

  // The page's words in its language (the server writes them into <script id="words">).
  const WORDS = JSON.parse(document.getElementById("words")?.textContent || "{}"); const _ = (s) => WORDS[s] || s;

  var SAMPLES = 8;            // keep the offsets of the last few polls
  var OFFLINE_AFTER = 7000;   // ms without an answer before the TV says it is reconnecting
  var samples = [];           // {offset, rtt}
  var offset = 0;             // server clock minus our clock, ms
  var requestStartedAt = 0;
  var requestEndedAt = 0;
  var lastAnswerAt = Date.now();
  var timer = null;

  // What the previous partial showed, to notice changes between swaps.
  var seen = { key: null, status: null, seq: null, chimedEndOf: null, minuteFor: null, mainLeft: null };
  var actions = {};           // action-clock id -> {beeped10, expired}

  var prefs = {
    sound: localStorage.getItem("tv-sound") === "on",
    voice: localStorage.getItem("tv-voice") === "on",
  };

  function clockEl() { return document.getElementById("tv-clock"); }
  function page() { return document.getElementById("tv"); }

  /* ---------- server time ---------- */

  function serverNow() { return Date.now() + offset; }

  function addSample(serverAt, sentAt, receivedAt) {
    if (!isFinite(serverAt) || !(receivedAt >= sentAt)) return;
    var sample = { offset: serverAt - (sentAt + receivedAt) / 2, rtt: receivedAt - sentAt, server: serverAt, at: receivedAt };
    // The server read its clock between our send and our receipt, so each sample bounds the
    // offset within half its round trip. A sample outside the bounds of the current best means
    // our own clock jumped (sleep, a time sync): forget the older samples.
    var last = samples.length ? best() : null;
    if (last && Math.abs(sample.offset - last.offset) > (sample.rtt + last.rtt) / 2 + 50) samples = [];
    samples.push(sample);
    if (samples.length > SAMPLES) samples.shift();
    offset = best().offset;
  }

  // Like NTP: each answer bounds the offset within half its round trip, and the bound widens
  // as the answer ages by as much as our clock may drift (DRIFT, a generous 1 %): the
  // tightest bound now tells the offset best.
  var DRIFT = 0.01;
  function best() {
    var now = Date.now(), found = samples[0], width = Infinity;
    for (var i = 0; i < samples.length; i++) {
      var w = samples[i].rtt / 2 + DRIFT * Math.max(0, now - samples[i].at);
      if (w <= width) { found = samples[i]; width = w; }
    }
    return found;
  }

  function initialSample(el) {
    var serverAt = Number(el.dataset.serverNow);
    var nav = performance.getEntriesByType && performance.getEntriesByType("navigation")[0];
    if (nav && nav.responseStart > 0) {
      // The page's own request, placed on Date's clock (which is the one we count with).
      var nowDate = Date.now(), nowPerf = performance.now();
      addSample(serverAt, nowDate - (nowPerf - nav.requestStart), nowDate - (nowPerf - nav.responseStart));
    } else {
      addSample(serverAt, Date.now(), Date.now());
    }
    // A page that took long to come (a busy server) bounds the offset loosely: ask again at
    // once, the clock's answer is quick.
    if (samples.length && samples[samples.length - 1].rtt > 50) setTimeout(refresh, 0);
  }

  /* ---------- drawing ---------- */

  function pad(n) { return n < 10 ? "0" + n : String(n); }

  function formatClock(ms) {
    var s = Math.max(0, Math.ceil(ms / 1000));
    var h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), sec = s % 60;
    return h > 0 ? h + ":" + pad(m) + ":" + pad(sec) : m + ":" + pad(sec);
  }

  function formatSeconds(ms) { return String(Math.max(0, Math.ceil(ms / 1000))); }

  function draw() {
    timer = null;
    var el = clockEl();
    if (!el) return;
    var now = serverNow();
    var nextChange = 500;
    var nodes = el.querySelectorAll("[data-deadline]");
    for (var i = 0; i < nodes.length; i++) {
      var node = nodes[i];
      var left = Number(node.dataset.deadline) - now;
      var text = node.dataset.format === "seconds" ? formatSeconds(left) : formatClock(left);
      if (node.textContent !== text) {
        node.textContent = text;
        if (node.hasAttribute("data-main-time")) node.classList.toggle("is-hours", text.length > 5);
      }
      if (left > 0) nextChange = Math.min(nextChange, ((left % 1000) + 1000) % 1000);
    }
    var status = el.dataset.status;
    var counting = status === "running" || status === "on_break";
    var main = el.querySelector("[data-main-time][data-deadline]");
    if (main && counting) {
      var mainLeft = Number(main.dataset.deadline) - now;
      el.classList.toggle("is-last-minute", mainLeft <= 60000);
      if (seen.mainLeft !== null && seen.mainLeft > 60000 && mainLeft <= 60000 && mainLeft > 0
          && seen.minuteFor !== el.dataset.key) {
        seen.minuteFor = el.dataset.key;
        play("one-minute");
      }
      if (seen.mainLeft !== null && seen.mainLeft > 0 && mainLeft <= 0 && seen.chimedEndOf !== el.dataset.key) {
        // The level is over by our reckoning: chime now, and ask the server what comes next.
        seen.chimedEndOf = el.dataset.key;
        play(isBreak(el.dataset.afterKey) ? "break" : "level-change");
        refresh();
      }
      if (mainLeft <= -1500 && el.dataset.afterEndsAt && Date.now() - lastAnswerAt > 1500) {
        // No answer since the level ended (the Wi-Fi or the server is away): carry on with the
        // level the server said comes next, until it answers again.
        rollOver(el, main);
        seen.mainLeft = null;
        return draw();
      }
      seen.mainLeft = mainLeft;
    }
    drawActions(el, now);
    if (drawAnnouncements(el, now)) { fit(el); pageBand(el, now, true); } else pageBand(el, now, false);
    document.body.classList.toggle("is-offline", Date.now() - lastAnswerAt > OFFLINE_AFTER);
    timer = setTimeout(draw, nextChange + 15);
  }

  // What comes next is a break ("break-before-6"), not a level ("level-6"): read from its key,
  // not from its title (which is written in the page's language).
  function isBreak(key) { return String(key || "").indexOf("break") === 0; }

  function rollOver(el, main) {
    var d = el.dataset;
    main.dataset.deadline = d.afterEndsAt;
    var level = el.querySelector(".tv-level");
    if (level) level.textContent = d.afterTitle;
    var blinds = el.querySelector(".tv-blinds");
    if (blinds) {
      blinds.innerHTML = "";
      if (d.afterBlinds) {
        var label = document.createElement("span");
        label.className = "tv-label";
        label.textContent = _("Blinds");
        blinds.appendChild(label);
        blinds.appendChild(document.createTextNode(d.afterBlinds));
        if (d.afterAnte) {
          var ante = document.createElement("span");
          ante.className = "tv-ante";
          ante.textContent = _("ante %(ante)s").replace("%(ante)s", d.afterAnte);
          blinds.appendChild(ante);
        }
      }
    }
    ["tv-next", "tv-colour-up"].forEach(function (name) {
      var node = el.querySelector("." + name);
      if (node) node.textContent = "";
    });
    el.classList.remove("is-running", "is-on_break", "is-last-minute");
    el.classList.add(isBreak(d.afterKey) ? "is-on_break" : "is-running", "is-predicted");
    el.dataset.status = isBreak(d.afterKey) ? "on_break" : "running";
    el.dataset.key = d.afterKey;
    el.dataset.announce = d.afterAnnounce;
    seen.key = d.afterKey;
    speak(d.afterAnnounce);
    delete d.afterEndsAt;  // one step ahead only: the server knows the rest
  }

  function drawActions(el, now) {
    var nodes = el.querySelectorAll("[data-action-id]");
    for (var i = 0; i < nodes.length; i++) {
      var node = nodes[i];
      var id = node.dataset.actionId;
      var left = Number(node.dataset.actionDeadline) - now;
      var state = actions[id];
      if (!state) {
        state = actions[id] = { beeped10: left <= 10000, expired: left <= 0 };
        if (left > 0) play("action-clock");
      }
      node.classList.toggle("is-last-seconds", left <= 10000);
      node.classList.toggle("is-expired", left <= 0);
      if (!state.beeped10 && left <= 10000) { state.beeped10 = true; play("action-clock"); }
      if (!state.expired && left <= 0) { state.expired = true; play("time-up"); }
    }
  }

  /* ---------- announcements: each shown in its window, rung and said once ---------- */

  var announced = {};         // announcement id -> true, for those rung (pruned as they end)
  var steady = {};            // announcement id -> true, once it has made its entrance
  var opened = {};            // mystery envelope id -> true, once opened on this screen
  var loadedAt = Date.now();

  // Shows the latest announcement whose window is open; says whether anything changed.
  function drawAnnouncements(el, now) {
    var nodes = el.querySelectorAll("[data-announce-id]");
    var shown = null, changed = false, present = {};
    for (var i = 0; i < nodes.length; i++) {
      var node = nodes[i], id = node.dataset.announceId;
      present[id] = true;
      var open = Number(node.dataset.from) <= now && now < Number(node.dataset.until);
      var show = open && !shown;
      if (show) shown = node;
      if (node.hidden === show) {
        // Shown before (the poll brought it again): no second entrance.
        if (show && steady[id]) node.classList.add("is-steady");
        if (show) steady[id] = true;
        node.hidden = !show;
        changed = true;
      }
    }
    if (shown && !announced[shown.dataset.announceId]) {
      announced[shown.dataset.announceId] = true;
      // A TV opened in the middle of an announcement shows it without ringing.
      if (Date.now() - loadedAt > 2500) {
        if (shown.dataset.sound) play(shown.dataset.sound);
        if (shown.dataset.say) speak(shown.dataset.say);
      }
    }
    for (var key in announced) if (!present[key]) delete announced[key];
    for (var shownKey in steady) if (!present[shownKey]) delete steady[shownKey];
    return changed;
  }

  /* ---------- fitting: nothing is cut, whatever the screen ---------- */

  // Each [data-fit] line narrower than its text gets --fx (its type scaled down to fit);
  // each [data-fit-box] whose lines overflow its height gets --fit. Writes, then reads, then
  // writes, so the browser lays the page out a few times, not once per line.
  function fit(root) {
    if (!root || root.classList.contains("tv-clock--phone")) return;
    var lines = root.querySelectorAll("[data-fit]"), boxes = root.querySelectorAll("[data-fit-box]");
    var i, ratios = [];
    var crowded = root.querySelectorAll(".is-crowded-out");
    for (i = 0; i < crowded.length; i++) crowded[i].classList.remove("is-crowded-out");
    for (i = 0; i < boxes.length; i++) boxes[i].style.setProperty("--fit", "1");
    var main = root.querySelector(".tv-main");
    if (main) main.style.setProperty("--fit", "1");  // the clock's own size, measured again (fitMain)
    for (i = 0; i < lines.length; i++) { lines[i].style.setProperty("--fx", "1"); lines[i].classList.remove("is-wrapped"); }
    for (i = 0; i < lines.length; i++) {
      var line = lines[i];
      ratios.push(line.clientWidth > 0 && line.scrollWidth > line.clientWidth + 1 ? line.clientWidth / line.scrollWidth : 1);
    }
    // Lines of a group (data-fit="stat-label": the labels of the figures) share the smallest
    // ratio, so that a row of figures keeps one size.
    var groups = {};
    for (i = 0; i < lines.length; i++) {
      var group = lines[i].getAttribute("data-fit");
      if (group) groups[group] = Math.min(groups[group] || 1, ratios[i]);
    }
    for (i = 0; i < lines.length; i++) {
      var named = lines[i].getAttribute("data-fit");
      var ratio = named ? groups[named] : ratios[i];
      if (ratio < 1) lines[i].style.setProperty("--fx", (ratio * 0.97).toFixed(3));
    }
    // The type never goes below the floor (tv.css): a line still too wide there wraps.
    for (i = 0; i < lines.length; i++) {
      if (ratios[i] < 1 && lines[i].scrollWidth > lines[i].clientWidth + 1) lines[i].classList.add("is-wrapped");
    }
    for (var pass = 0; pass < 8; pass++) {
      var over = [];
      for (i = 0; i < boxes.length; i++) {
        var box = boxes[i];
        over.push(box.clientHeight > 0 && box.scrollHeight > box.clientHeight + 1 ? box.clientHeight / box.scrollHeight : 1);
      }
      var again = false;
      for (i = 0; i < boxes.length; i++) {
        if (over[i] >= 1) continue;
        // A side too full to read once shrunk leaves out its last panels (the least needed).
        var panels = boxes[i].querySelectorAll(".tv-panel:not(.is-crowded-out)");
        var visible = [];
        for (var k = 0; k < panels.length; k++) if (panels[k].offsetHeight > 0) visible.push(panels[k]);
        if (over[i] < 0.75 && visible.length > 1) {
          visible[visible.length - 1].classList.add("is-crowded-out");
          again = true;
          continue;
        }
        var now = Number(boxes[i].style.getPropertyValue("--fit")) || 1;
        boxes[i].style.setProperty("--fit", Math.max(0.3, now * over[i] * 0.97).toFixed(3));
        again = true;
      }
      if (!again) break;
    }
    if (!fitMainFrame) fitMainFrame = requestAnimationFrame(function () { fitMainFrame = 0; fitMain(clockEl()); });
  }

  // A screen too short for the clock and the figures together (an odd shape): the clock
  // gives way, by what the screen lacks, never by what the band holds (the band has 1fr).
  // Measured once the page has settled (a frame later), from the clock's own size.
  var fitMainFrame = 0;
  function fitMain(root) {
    var main = root && root.querySelector(".tv-main");
    if (!main || root.classList.contains("tv-clock--phone")) return;
    for (var round = 0; round < 6 && root.scrollHeight > root.clientHeight + 1; round++) {
      var was = Number(main.style.getPropertyValue("--fit")) || 1;
      main.style.setProperty("--fit", Math.max(0.5, was * root.clientHeight / root.scrollHeight * 0.98).toFixed(3));
    }
  }

  // Moves that the band cannot hold at once take turns, six seconds a page ("1 / 2"), in
  // smaller type first; where the band cannot hold even one move beside an announcement or an
  // envelope, that takes a turn of its own. A new answer (or screen size) measures again.
  var PAGE_MS = 6000;
  function pageBand(root, now, measure) {
    var band = root && root.querySelector(".tv-band");
    var moves = band ? band.querySelectorAll(".tv-move") : [];
    if (!moves.length) { if (measure) fitBand(root); return; }
    var note = band.querySelector(".tv-moves-page"), groups = band.querySelectorAll(".tv-moves-group");
    var over = function () { return band.scrollHeight > band.clientHeight + 1; };
    var i, per = Number(band.dataset.per || 0);
    if (measure || !per) {
      band.classList.remove("is-tight", "shows-moves", "shows-announce");
      for (i = 0; i < moves.length; i++) moves[i].hidden = false;
      for (i = 0; i < groups.length; i++) groups[i].hidden = false;
      if (note) note.hidden = true;
      per = moves.length;
      var turns = false;
      if (over()) band.classList.add("is-tight");
      if (over()) {
        if (note) { note.hidden = false; note.textContent = "9 / 9"; }
        for (i = 1; i < moves.length; i++) moves[i].hidden = true;
        if (over() && band.querySelector(".tv-announce:not([hidden]), .tv-envelope")) {
          turns = true;
          band.classList.add("shows-moves");
        }
        for (i = 1; i < moves.length; i++) moves[i].hidden = false;
        while (per > 1 && over()) moves[--per].hidden = true;
      }
      band.dataset.per = per;
      band.dataset.turns = turns ? "1" : "";
      band.dataset.page = "";
    }
    var withTurn = band.dataset.turns === "1";
    var movePages = Math.ceil(moves.length / per), pages = movePages + (withTurn ? 1 : 0);
    var page = pages > 1 ? Math.floor(now / PAGE_MS) % pages : 0;
    if (band.dataset.page === String(page)) return;
    band.dataset.page = String(page);
    var movePage = withTurn ? page - 1 : page;  // with a turn of its own, the announcement's is first
    band.classList.toggle("shows-announce", movePage < 0);
    band.classList.toggle("shows-moves", withTurn && movePage >= 0);
    for (i = 0; i < moves.length; i++) moves[i].hidden = movePage < 0 || i < movePage * per || i >= (movePage + 1) * per;
    for (i = 0; i < groups.length; i++) groups[i].hidden = !groups[i].querySelector(".tv-move:not([hidden])");
    if (note) { note.hidden = movePages < 2 || movePage < 0; note.textContent = (movePage + 1) + " / " + movePages; }
    fitBand(root);  // each page fitted as it is shown (the announcement's turn holds other lines than the moves')
  }

  // A band that holds too much even so (names as long as the app accepts on a short screen, the
  // final table's six of them): its type shrinks, never below the floor; then its lines keep
  // what fits, with an ellipsis and the whole text in their title; and where not even a line
  // fits, the clock gives way for that line.
  function fitBand(root) {
    var band = root && root.querySelector(".tv-band");
    if (!band || root.classList.contains("tv-clock--phone")) return;
    // Measured from the layout, not the screen: an announcement making its entrance (moved
    // down a little) is not too tall for the band.
    var need = function () {
      var top = Infinity, bottom = -Infinity;
      for (var k = 0; k < band.children.length; k++) {
        var kid = band.children[k];
        if (!kid.offsetHeight) continue;
        top = Math.min(top, kid.offsetTop);
        bottom = Math.max(bottom, kid.offsetTop + Math.max(kid.offsetHeight, kid.scrollHeight));  // (the moves shrink)
      }
      return bottom > top ? bottom - top : 0;
    };
    var over = function () { return need() > band.clientHeight + 1; };
    var i, round, lines = band.querySelectorAll(".tv-announce-sub, .tv-move");
    band.style.removeProperty("--fb");
    band.style.removeProperty("--lines");
    band.classList.remove("is-clipped");
    for (i = 0; i < lines.length; i++) lines[i].removeAttribute("title");
    if (!band.offsetHeight || !over()) return;
    // The smallest scale that keeps every line of it at the floor (1.6 % of the screen's height).
    var texts = band.querySelectorAll(".tv-announce-text, .tv-announce-sub, .tv-moves-title, .tv-move"), least = 0;
    for (i = 0; i < texts.length; i++) {
      if (texts[i].offsetHeight) least = Math.max(least, window.innerHeight * 0.016 / parseFloat(getComputedStyle(texts[i]).fontSize));
    }
    least = Math.min(1, least);
    var scale = 1;
    for (round = 0; round < 8 && over() && scale > least; round++) {
      scale = Math.max(least, scale * band.clientHeight / need() * 0.98);
      band.style.setProperty("--fb", scale.toFixed(3));
    }
    if (!over()) return;
    band.classList.add("is-clipped");
    for (i = 0; i < lines.length; i++) lines[i].title = lines[i].textContent.trim();
    for (var most = 6; most >= 1; most--) {
      band.style.setProperty("--lines", String(most));
      if (!over()) return;
    }
    var main = root.querySelector(".tv-main");
    for (round = 0; round < 4 && main && over(); round++) {
      var was = Number(main.style.getPropertyValue("--fit")) || 1, tall = main.offsetHeight;
      main.style.setProperty("--fit", Math.max(0.5, was * (tall - (need() - band.clientHeight)) / tall * 0.98).toFixed(3));
    }
  }

  var fitTimer = null;
  function refit() {
    clearTimeout(fitTimer);
    fitTimer = setTimeout(function () { var el = clockEl(); fit(el); pageBand(el, serverNow(), true); }, 100);
  }
  window.addEventListener("resize", refit);
  // The first fitting may have measured the text in a stand-in font: measure again once the
  // page's fonts are in.
  if (document.fonts && document.fonts.ready) document.fonts.ready.then(refit);
  if (document.fonts && document.fonts.addEventListener) document.fonts.addEventListener("loadingdone", refit);

  function schedule() {
    if (timer) clearTimeout(timer);
    draw();
  }

  /* ---------- after each answer from the server ---------- */

  // A mystery bounty's envelope opens once on this screen: the polls bring it again, still.
  function openEnvelope(el) {
    var envelope = el.querySelector("[data-envelope-id]");
    if (!envelope) return;
    if (opened[envelope.dataset.envelopeId]) envelope.classList.add("is-steady");
    opened[envelope.dataset.envelopeId] = true;
  }

  function takeNewPartial(el) {
    var key = el.dataset.key, status = el.dataset.status;
    var started = seen.status === "not_started" && (status === "running" || status === "on_break");
    if (seen.key !== null && (key !== seen.key || started)) {
      if (seen.chimedEndOf !== seen.key || started) play(status === "on_break" ? "break" : "level-change");
      speak(el.dataset.announce);
      seen.mainLeft = null;
    }
    if (key !== seen.key) seen.mainLeft = null;
    seen.key = key;
    seen.status = status;
    openEnvelope(el);
    drawAnnouncements(el, serverNow());
    fit(el);
    pageBand(el, serverNow(), true);
    schedule();
  }

  function refresh() {
    var el = clockEl();
    if (el && window.htmx) htmx.trigger(el, "tv-refresh");
  }

  document.addEventListener("htmx:configRequest", function (evt) {
    if (evt.detail.elt.id !== "tv-clock") return;
    // A refresh we asked for (after a key press or a level's end) must not come from the
    // browser's one-second cache: add a throwaway parameter.
    var trigger = evt.detail.triggeringEvent;
    if (trigger && trigger.type === "tv-refresh") evt.detail.parameters._ = String(Date.now());
    requestStartedAt = Date.now();
  });

  // htmx fires beforeSwap as soon as the answer is in (afterRequest comes after the swap).
  document.addEventListener("htmx:beforeSwap", function (evt) {
    if (!evt.detail.target || evt.detail.target.id !== "tv-clock") return;
    requestEndedAt = Date.now();
    if (evt.detail.xhr && evt.detail.xhr.status === 200) lastAnswerAt = requestEndedAt;
  });

  document.addEventListener("htmx:afterSwap", function (evt) {
    var el = clockEl();
    if (!el || evt.detail.target.id !== "tv-clock") return;
    // The answer's header has the server's time as it answered; the partial's own may be
    // older (the server keeps an answer until the next event, and so may the browser).
    var said = evt.detail.xhr && Number(evt.detail.xhr.getResponseHeader("X-Server-Now"));
    var serverAt = said > 0 ? said : Number(el.dataset.serverNow);
    var last = samples.length ? samples[samples.length - 1].server : -Infinity;
    // An answer older than one we already had came from a cache: it says nothing of the offset.
    if (serverAt > last) {
      var sent = requestStartedAt, received = requestEndedAt;
      var timed = networkTimes(evt.detail.xhr);
      if (timed) { sent = timed[0]; received = timed[1]; }
      addSample(serverAt, sent, received);
    }
    takeNewPartial(el);
  });

  // When the request went out and the answer's first byte came back, from the browser's own
  // record of the request (on Date's clock): unlike the page's events, these are not late
  // when the page is busy, so the offset's bounds stay tight on a slow machine.
  function networkTimes(xhr) {
    if (!xhr || !xhr.responseURL || !performance.getEntriesByName) return null;
    var entries = performance.getEntriesByName(xhr.responseURL, "resource");
    var entry = entries.length ? entries[entries.length - 1] : null;
    if (performance.getEntriesByType("resource").length > 100) performance.clearResourceTimings();
    if (!entry || !(entry.requestStart > 0) || !(entry.responseStart >= entry.requestStart)) return null;
    var nowDate = Date.now(), nowPerf = performance.now();
    var sent = nowDate - (nowPerf - entry.requestStart), received = nowDate - (nowPerf - entry.responseStart);
    // The record must be this request's (a poll's address is the same each time): inside the
    // times the page itself saw it go and come back.
    if (sent < requestStartedAt - 5 || received > requestEndedAt + 5) return null;
    return [sent, received];
  }

  /* ---------- sound, voice, wake lock, full screen ---------- */

  var audio = null;           // AudioContext, created on the first click
  var buffers = {};

  // The host's own sound for a moment (uploaded on the TV settings page), else ours; a break
  // rings the level chime unless the host gave it one of its own.
  function soundUrl(name) {
    var p = page();
    var own = p && p.getAttribute("data-sound-" + name);
    if (own) return own;
    if (name === "break") name = "level-change";
    var base = p ? p.dataset.soundsUrl : "/static/sounds/";
    return base + name + ".wav";
  }

  function loadSounds() {
    var Ctx = window.AudioContext || window.webkitAudioContext;
    if (!Ctx) return;
    if (!audio) audio = new Ctx();
    if (audio.state === "suspended") audio.resume().then(showPrefs, function () {});
    ["one-minute", "level-change", "break", "action-clock", "time-up"].forEach(function (name) {
      if (buffers[name]) return;
      fetch(soundUrl(name))
        .then(function (r) { return r.arrayBuffer(); })
        .then(function (data) { return audio.decodeAudioData(data); })
        .then(function (buffer) { buffers[name] = buffer; })
        .catch(function () {});
    });
  }

  function play(name) {
    document.body.dataset.lastSound = name;  // lets a test (or a curious director) see what rang
    if (!prefs.sound) return;
    if (audio && buffers[name] && audio.state === "running") {
      var source = audio.createBufferSource();
      source.buffer = buffers[name];
      source.connect(audio.destination);
      source.start();
    } else {
      var el = new Audio(soundUrl(name));
      el.play().catch(function () {});
    }
  }

  // The voice speaks the page's language: a voice of the browser's for that language (the
  // browser's default one if it is of that language), else the browser's default voice. Some
  // browsers list their voices only later ("voiceschanged").
  var spokenVoice = null;
  function pickVoice() {
    spokenVoice = null;
    if (!window.speechSynthesis || !speechSynthesis.getVoices) return;
    var lang = (document.documentElement.lang || "").toLowerCase();
    if (!lang) return;
    var voices = speechSynthesis.getVoices() || [];
    for (var i = 0; i < voices.length; i++) {
      var code = String(voices[i].lang || "").toLowerCase().replace("_", "-");
      if (code !== lang && code.indexOf(lang + "-") !== 0 && lang.indexOf(code + "-") !== 0) continue;
      if (!spokenVoice || (voices[i].default && !spokenVoice.default)) spokenVoice = voices[i];
    }
  }
  if (window.speechSynthesis) {
    pickVoice();
    if (speechSynthesis.addEventListener) speechSynthesis.addEventListener("voiceschanged", pickVoice);
    else speechSynthesis.onvoiceschanged = pickVoice;
  }

  function speak(text) {
    if (!text || !prefs.voice || !window.speechSynthesis) return;
    // After the chime has rung out.
    setTimeout(function () {
      var utterance = new SpeechSynthesisUtterance(text);
      utterance.rate = 0.95;
      if (document.documentElement.lang) utterance.lang = document.documentElement.lang;
      if (!spokenVoice) pickVoice();
      if (spokenVoice) utterance.voice = spokenVoice;
      speechSynthesis.cancel();
      speechSynthesis.speak(utterance);
    }, prefs.sound ? 1600 : 0);
  }

  var wakeLock = null;
  var videoAwake = false;
  function keepAwake() {
    if (document.visibilityState !== "visible") return;
    if ("wakeLock" in navigator && window.isSecureContext && !wakeLock) {
      navigator.wakeLock.request("screen").then(function (lock) {
        wakeLock = lock;
        showAwake();
        lock.addEventListener("release", function () { wakeLock = null; showAwake(); });
      }).catch(function () { playKeepAwake(); });
    } else if (!wakeLock) {
      playKeepAwake();
    }
  }

  // Over plain http the Screen Wake Lock is refused: a silent video playing as large as the
  // page holds the screen on instead (browsers keep the screen on during a video).
  function playKeepAwake() {
    var video = document.getElementById("tv-keep-awake");
    if (!video || !video.play) return showAwake();
    if (!video.paused) return showAwake();
    var started = video.play();
    if (started && started.then) started.then(showAwake, showAwake); else showAwake();
  }

  function showAwake() {
    var video = document.getElementById("tv-keep-awake");
    videoAwake = !!(video && !video.paused && !video.ended);
    var held = !!wakeLock || videoAwake;
    document.body.classList.toggle("is-awake", held);
    var line = document.getElementById("tv-awake");
    if (!line) return;
    line.dataset.state = held ? "yes" : "no";
    line.textContent = wakeLock ? _("Screen kept awake") : videoAwake ? _("Screen kept awake (silent video)")
      : _("Screen may sleep: click to keep it awake");
  }

  function toggleFullScreen() {
    if (document.fullscreenElement) document.exitFullscreen();
    else if (document.documentElement.requestFullscreen) document.documentElement.requestFullscreen().catch(function () {});
  }

  function showPrefs() {
    var sound = document.getElementById("tv-sound"), voice = document.getElementById("tv-voice");
    if (sound) {
      // Browsers keep a page silent until someone clicks it: say so until the sound can play.
      var waiting = prefs.sound && !(audio && audio.state === "running");
      sound.setAttribute("aria-pressed", String(prefs.sound && !waiting));
      sound.querySelector("span").textContent =
        !prefs.sound ? _("Enable sound") : waiting ? _("Click to turn sound on") : _("Sound on");
    }
    if (voice) {
      voice.setAttribute("aria-pressed", String(prefs.voice));
      voice.querySelector("span").textContent = prefs.voice ? _("Voice on") : _("Voice off");
    }
  }

  function setPref(name, on) {
    prefs[name] = on;
    localStorage.setItem("tv-" + name, on ? "on" : "off");
    showPrefs();
  }

  /* ---------- the director's keys ---------- */

  function post(action) {
    var p = page(), el = clockEl();
    if (!p || p.dataset.director !== "true" || !p.dataset.keyUrl) return;
    var body = new URLSearchParams({ action: action, expected_seq: el ? el.dataset.seq || "" : "" });
    fetch(p.dataset.keyUrl, {
      method: "POST",
      headers: { "X-CSRFToken": p.dataset.csrf || "", "Content-Type": "application/x-www-form-urlencoded" },
      body: body,
      credentials: "same-origin",
    }).then(function (r) {
      return r.ok ? null : r.json().then(function (j) { flash(j.error || _("That did not work.")); }, function () {
        flash(_("That did not work (%(status)s).").replace("%(status)s", r.status));
      });
    }).catch(function () { flash(_("The server cannot be reached.")); })
      .then(refresh);
  }

  function flash(message) {
    var box = document.getElementById("tv-flash");
    if (!box) return;
    box.textContent = message;
    box.hidden = false;
    clearTimeout(flash.timer);
    flash.timer = setTimeout(function () { box.hidden = true; }, 4000);
  }

  var KEYS = {
    "ArrowRight": "next", "ArrowUp": "next", "ArrowLeft": "previous", "ArrowDown": "previous",
    "+": "add_minute", "=": "add_minute", "-": "remove_minute", "_": "remove_minute",
  };

  document.addEventListener("keydown", function (evt) {
    if (evt.ctrlKey || evt.metaKey || evt.altKey) return;
    if (evt.target && /^(INPUT|TEXTAREA|SELECT)$/.test(evt.target.tagName)) return;
    if (evt.key === "f" || evt.key === "F") { toggleFullScreen(); evt.preventDefault(); return; }
    var p = page();
    if (!p || p.dataset.director !== "true") return;
    var action = KEYS[evt.key];
    if (evt.key === " " || evt.key === "Spacebar") {
      var status = clockEl() ? clockEl().dataset.status : "";
      action = status === "paused" ? "resume" : status === "not_started" ? "start" : "pause";
    }
    if (!action) return;
    evt.preventDefault();
    post(action);
  });

  /* ---------- start ---------- */

  function onGesture() {
    if (prefs.sound) loadSounds();
    keepAwake();
  }

  document.addEventListener("DOMContentLoaded", function () {
    var el = clockEl();
    if (el) {
      initialSample(el);
      seen.key = el.dataset.key;
      seen.status = el.dataset.status;
      // Action clocks already running when the page loads do not beep.
      var running = el.querySelectorAll("[data-action-id]");
      for (var i = 0; i < running.length; i++) actions[running[i].dataset.actionId] = { beeped10: true, expired: true };
    }
    showPrefs();
    showAwake();
    if (el) { openEnvelope(el); drawAnnouncements(el, serverNow()); fit(el); pageBand(el, serverNow(), true); }
    var sound = document.getElementById("tv-sound");
    if (sound) sound.addEventListener("click", function (evt) {
      evt.stopPropagation();  // not also the page's "any click unlocks the sound"
      var waiting = prefs.sound && !(audio && audio.state === "running");
      if (!waiting) setPref("sound", !prefs.sound);
      if (prefs.sound) { loadSounds(); play("one-minute"); }
      showPrefs();
    });
    var voice = document.getElementById("tv-voice");
    if (voice) voice.addEventListener("click", function () {
      setPref("voice", !prefs.voice);
      if (prefs.voice && clockEl()) speak(clockEl().dataset.announce);
    });
    var full = document.getElementById("tv-fullscreen");
    if (full) full.addEventListener("click", toggleFullScreen);
    document.addEventListener("click", onGesture);
    document.addEventListener("keydown", onGesture);
    document.addEventListener("visibilitychange", function () {
      if (document.visibilityState === "visible") { keepAwake(); refresh(); }
    });
    keepAwake();
    schedule();
  });

  // For tests and the curious: the measured offset and what the clock shows.
  window.tvClock = {
    offset: function () { return offset; },
    serverNow: serverNow,
    samples: function () { return samples.slice(); },
    refresh: refresh,
  };
})();
