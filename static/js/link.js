// A scanned link: its code is in the address's fragment (after "#"), which the browser never
// sends, so no server log holds it. Post it, and take it out of the address bar and history.
(function () {
  "use strict";
  const form = document.getElementById("link-open");
  if (!form) return;
  const code = decodeURIComponent(window.location.hash.slice(1));
  history.replaceState(null, "", window.location.pathname);
  if (!code) {
    form.querySelector('[data-when="waiting"]').hidden = true;
    form.querySelector('[data-when="no-code"]').hidden = false;
    return;
  }
  form.elements.token.value = code;
  form.submit();
})();
