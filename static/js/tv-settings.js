/* The TV settings page: the preview follows the form before it is saved. */
(function () {
  "use strict";
  function update() {
    var form = document.getElementById("tv-look-form"), frame = document.getElementById("tv-preview");
    if (!form || !frame) return;
    var data = new FormData(form), params = new URLSearchParams({ preview: "1" });
    ["layout", "theme", "title", "accent"].forEach(function (key) { params.set(key, data.get(key) || ""); });
    params.set("show", data.getAll("show").join(","));
    var url = frame.dataset.base + "?" + params.toString();
    if (frame.getAttribute("src") !== url) frame.setAttribute("src", url);
  }
  var timer = null;
  function soon() { clearTimeout(timer); timer = setTimeout(update, 250); }
  document.addEventListener("DOMContentLoaded", function () {
    var form = document.getElementById("tv-look-form");
    if (!form) return;
    form.addEventListener("input", soon);
    form.addEventListener("change", soon);
    update();
  });
})();

/* The preview is a 1280 × 720 TV scaled down to the width it has. */
(function () {
  "use strict";
  function scale() {
    var box = document.querySelector(".tv-preview-frame");
    if (box) box.style.setProperty("--preview-scale", String(box.clientWidth / 1280));
  }
  window.addEventListener("resize", scale);
  document.addEventListener("DOMContentLoaded", scale);
})();
