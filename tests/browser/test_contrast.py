"""For every eye: the text of each screen has at least WCAG AA contrast against what is behind
it (WCAG 2.1, 1.4.3: "a contrast ratio of at least 4.5:1", "Large-scale text ... at least
3:1"), worked out from the computed colours in Chromium; the
animations stop under ``prefers-reduced-motion``; no button is read as a bare number."""

from __future__ import annotations

import time
from typing import Any

import pytest

from director.core.db import get_db
from director.home.demo import fill_demo
from director.night import commands as night_commands

from .conftest import LiveServer

pytestmark = pytest.mark.browser

# Each element with text of its own: its colour against the first opaque background behind
# it (opacities multiplied in), as WCAG 2.1 defines contrast. Text over an image or a
# gradient is left out (its background is not one colour).
CONTRAST = """() => {
  const parse = c => { const m = c.match(/rgba?\\(([^)]+)\\)/); if (!m) return null;
    const p = m[1].split(/[ ,/]+/).filter(Boolean).map(Number); return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1]; };
  const lum = ([r, g, b]) => { const f = v => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); };
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b); };
  const mix = (top, under) => { const a = top[3]; return [0, 1, 2].map(i => top[i] * a + under[i] * (1 - a)).concat(1); };
  const failures = [];
  for (const el of document.querySelectorAll("body *")) {
    const own = [...el.childNodes].some(n => n.nodeType === 3 && n.textContent.trim());
    if (!own) continue;
    const box = el.getBoundingClientRect();
    const style = getComputedStyle(el);
    if (box.width === 0 || box.height === 0 || style.visibility === "hidden") continue;
    // WCAG 1.4.3: "Text or images of text that are part of an inactive user interface
    // component ... have no contrast requirement" (a disabled button).
    if (el.closest("[hidden], svg, .tv-envelope, option, [aria-hidden=true], [disabled], [aria-disabled=true]")) continue;
    let opacity = 1, node = el, bg = null, layers = [];
    while (node && node.nodeType === 1) {
      const s = getComputedStyle(node);
      opacity *= Number(s.opacity);
      if (s.backgroundImage !== "none") { bg = "image"; break; }
      const c = parse(s.backgroundColor);
      if (c && c[3] > 0) { layers.push(c); if (c[3] >= 1) break; }
      node = node.parentElement;
    }
    if (bg === "image") continue;
    let under = [255, 255, 255, 1];
    for (let i = layers.length - 1; i >= 0; i--) under = mix(layers[i], under);
    let fg = parse(style.color); if (!fg) continue;
    fg = mix([fg[0], fg[1], fg[2], fg[3] * opacity], under);
    const [a, b] = [lum(fg), lum(under)].sort((x, y) => y - x);
    const ratio = (a + 0.05) / (b + 0.05);
    const size = parseFloat(style.fontSize), bold = Number(style.fontWeight) >= 700;
    const need = size >= 24 || (bold && size >= 18.66) ? 3 : 4.5;
    if (ratio < need) failures.push(`${el.tagName.toLowerCase()}.${el.className}: "${el.textContent.trim().slice(0, 30)}" ${ratio.toFixed(2)} < ${need}`);
  }
  return failures;
}"""

UNLABELLED = """() => [...document.querySelectorAll("button, a[href], [role=button]")].filter(el => {
  const label = (el.getAttribute("aria-label") || el.textContent || el.getAttribute("title") || "").trim();
  return el.getBoundingClientRect().width > 0 && (label === "" || /^[\\d\\s+−-]+$/.test(label) && !el.getAttribute("aria-label"));
}).map(el => el.outerHTML.slice(0, 80))"""


def night(app: Any) -> int:
    with app.app_context():
        tid = fill_demo(get_db(), time.time())
        night_commands.record(get_db(), tid, "hand_for_hand", {"on": True}, None, time.time())
    return tid


def screens(tid: int) -> list[tuple[str, tuple[int, int]]]:
    tv = [(f"/t/{tid}/tv?layout={layout}&theme={theme}", (1280, 720))
          for layout in ("big", "standard", "info") for theme in ("dark", "light")]
    return [*tv, (f"/t/{tid}", (1280, 800)), (f"/t/{tid}", (390, 844)), (f"/t/{tid}/players", (1280, 800)),
            (f"/t/{tid}/tables", (1280, 800)), (f"/t/{tid}/table/1", (390, 844)), (f"/t/{tid}/tv/phone", (390, 844)),
            (f"/t/{tid}/structure", (1280, 800)), (f"/t/{tid}/results", (1280, 800)), ("/", (1280, 800)),
            ("/tv-settings", (1280, 800))]


def test_every_screen_has_aa_contrast_and_labelled_buttons(live_server: LiveServer, browser: Any) -> None:
    tid = night(live_server.app)
    problems = []
    for path, (width, height) in screens(tid):
        context = browser.new_context(viewport={"width": width, "height": height}, color_scheme="dark")
        try:
            page = context.new_page()
            live_server.login(page)
            page.goto(live_server.url + path)
            page.wait_for_load_state("networkidle")
            page.wait_for_timeout(300)
            # Every menu opened: what a tap shows is read too.
            page.evaluate("document.querySelectorAll('details').forEach(d => { d.open = true; })")
            problems += [f"{path} at {width}x{height}: {f}" for f in page.evaluate(CONTRAST)]
            problems += [f"{path}: a button without words: {f}" for f in page.evaluate(UNLABELLED)]
        finally:
            context.close()
    assert problems == []


def test_animations_stop_under_reduced_motion(live_server: LiveServer, browser: Any) -> None:
    tid = night(live_server.app)
    with live_server.app.app_context():
        night_commands.clock_action(get_db(), tid, "pause", None, time.time())
    context = browser.new_context(viewport={"width": 1280, "height": 720}, reduced_motion="reduce")
    try:
        page = context.new_page()
        page.goto(f"{live_server.url}/t/{tid}/tv")
        page.wait_for_selector("#tv-clock.is-paused")
        running = page.evaluate("""() => [...document.querySelectorAll("#tv-clock, #tv-clock *")]
          .filter(el => getComputedStyle(el).animationName !== "none").map(el => el.className)""")
        assert running == []
    finally:
        context.close()
