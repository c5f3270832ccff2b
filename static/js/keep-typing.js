// poker-director: what someone is typing is never swept away by a refresh.
// The dealer's table panel, the tables page and the director's dashboard refresh themselves when another
// device changes the tournament. Such a refresh (a GET swapping #dealer or #dashboard)
// waits while a field of the panel has focus or holds a value not yet sent, and comes as
// soon as the field is sent, emptied or left as it was.
(function () {
  "use strict";
  var PANELS = "#dealer, #dashboard, #tables";
  var FIELDS = "input:not([type=hidden]):not([type=submit]):not([type=button]), select, textarea";

  function unsent(field) {
    if (field.disabled || field.type === "hidden" || field.type === "submit" || field.type === "button") { return false; }
    if (field.type === "checkbox" || field.type === "radio") { return field.checked !== field.defaultChecked; }
    if (field.tagName === "SELECT") {
      var options = Array.prototype.slice.call(field.options);
      if (field.multiple) { return options.some(function (o) { return o.selected !== o.defaultSelected; }); }
      var chosen = options.findIndex(function (o) { return o.defaultSelected; });
      return options.length > 0 && field.selectedIndex !== Math.max(0, chosen);
    }
    return field.value !== field.defaultValue;
  }
  function busy(panel) {
    var active = document.activeElement;
    if (active && panel.contains(active) && active.matches(FIELDS)) { return true; }
    return Array.prototype.some.call(panel.querySelectorAll("input, select, textarea"), unsent);
  }
  window.panelBusy = busy;

  var waiting = {};  // panel id -> the refresh to fetch again once the panel is free
  document.addEventListener("htmx:beforeSwap", function (event) {
    var target = event.detail.target, config = event.detail.requestConfig;
    if (!event.detail.shouldSwap || !target || !target.matches || !target.matches(PANELS)) { return; }
    if (!config || String(config.verb).toLowerCase() !== "get" || !busy(target)) { return; }
    if (config.headers && config.headers["X-Show-Recorded"]) { return; }  // a tap recorded: show it now
    event.detail.shouldSwap = false;
    waiting[target.id] = config.path;
    target.setAttribute("data-stale", "");
  });
  function resume() {
    Object.keys(waiting).forEach(function (id) {
      var panel = document.getElementById(id);
      if (!panel || !panel.hasAttribute("data-stale")) { delete waiting[id]; return; }
      if (busy(panel) || !window.htmx) { return; }
      var path = waiting[id];
      delete waiting[id];
      window.htmx.ajax("GET", path, { target: "#" + id, swap: "outerHTML" });
    });
  }
  document.addEventListener("focusout", function () { setTimeout(resume, 50); });
  document.addEventListener("change", function () { setTimeout(resume, 50); });
  document.addEventListener("input", function () { setTimeout(resume, 50); });
})();
