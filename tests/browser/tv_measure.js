// What the TV page says of itself (tests/browser/test_tv_states.py): boxes that overlap (the
// screen's areas, the boxes inside each, the envelope against the clock's lines), boxes off
// the screen, text cut (wider or taller than its box), text below the floor (1.6 % of the
// screen's height; the host's buttons apart), notices that repeat the banner, and sizes.
() => {
  const H = innerHeight, W = innerWidth, floor = 0.016 * H;
  const clock = document.getElementById("tv-clock");
  const shown = el => el && getComputedStyle(el).display !== "none" && getComputedStyle(el).visibility !== "hidden" && el.getBoundingClientRect().height > 0;
  const name = el => (el.className && el.className.baseVal === undefined ? el.className.split(" ")[0] : "") || el.tagName;
  const boxes = [...clock.children].filter(el => shown(el) && !el.matches(".tv-action"));
  const overlaps = [];
  const hit = (a, b) => a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1;
  const apart = list => {
    for (let i = 0; i < list.length; i++) for (let j = i + 1; j < list.length; j++)
      if (hit(list[i].getBoundingClientRect(), list[j].getBoundingClientRect())) overlaps.push(name(list[i]) + " / " + name(list[j]));
  };
  apart(boxes);
  for (const box of boxes) apart([...box.children].filter(shown));
  const env = clock.querySelector(".tv-envelope");
  if (env && shown(env)) for (const el of clock.querySelectorAll(".tv-main > *"))
    if (shown(el) && hit(env.getBoundingClientRect(), el.getBoundingClientRect())) overlaps.push("tv-envelope / " + name(el));
  const off = [...boxes, ...clock.querySelectorAll(".tv-main > *, .tv-band > *, .tv-move, .tv-stat, .tv-flag")].filter(shown).filter(el => {
    const r = el.getBoundingClientRect();
    return r.left < -1 || r.top < -1 || r.right > W + 1 || r.bottom > H + 1; }).map(name);
  const cut = [], small = [];
  for (const el of clock.querySelectorAll("*")) {
    if (!shown(el) || el.closest(".tv-action, .tv-controls, svg")) continue;
    const style = getComputedStyle(el);
    if (style.overflowX !== "visible" && el.scrollWidth > el.clientWidth + 1)
      cut.push(name(el) + ": " + el.textContent.trim().slice(0, 40) + " (" + el.scrollWidth + " > " + el.clientWidth + ")");
    if (style.overflowY !== "visible" && el.scrollHeight > el.clientHeight + 1)
      cut.push(name(el) + " is taller than its box (" + el.scrollHeight + " > " + el.clientHeight + ")");
    const own = [...el.childNodes].some(n => n.nodeType === 3 && n.textContent.trim());
    if (own && parseFloat(style.fontSize) < floor - 0.5)
      small.push(name(el) + ": " + el.textContent.trim().slice(0, 30) + " " + parseFloat(style.fontSize).toFixed(1) + "px");
  }
  const size = sel => { const el = [...clock.querySelectorAll(sel)].find(shown); return el ? parseFloat(getComputedStyle(el).fontSize) : null; };
  const texts = sel => [...clock.querySelectorAll(sel)].filter(shown).map(el => el.textContent.trim().toLowerCase());
  const said = new Set([...texts(".tv-announce-text"), ...texts(".tv-announce-sub")]);
  const twice = texts(".tv-flag").filter(t => said.has(t));
  const any = sel => [...clock.querySelectorAll(sel)].some(shown);
  return {overlaps, off, cut, small, twice, floor,
          shown: {moves: any(".tv-move"), announce: any(".tv-announce"), envelope: any(".tv-envelope"),
                  board: any(".tv-panel--board"), season: any(".tv-panel--season")},
          time: size("[data-main-time]"), sub: size(".tv-announce-sub"), flag: size(".tv-flag"),
          announce: texts(".tv-announce").length, moves: texts(".tv-move").length, stats: texts(".tv-stat").length,
          page: [document.documentElement.scrollWidth, document.documentElement.scrollHeight]};
}
