"""The dealer's tap and page in a real Chromium, alone and while the laptop serves a club night.

    python benchmarks/bench_browser.py [--events 5000] [--taps 60] [--loads 15] [--scale 1] [--workers 1] [--keep DIR]

It builds a 30-table night (``bench_night.Night``: 300 players, the dealer's JSON API) to
``--events`` events (``--keep``: once, as ``bench_club_load.py`` does), starts ``poker-director
serve`` on it (``--workers`` processes of serve's default threads, in a process of its own), and drives Debian's Chromium on a phone-sized page (390 x 844) at table 1:

* the page's load: from the navigation to the dealer's panel drawn (``--loads`` times);
* a tap: from the click on *Deal* or *Fold* to the panel swapped in and settled (htmx's
  ``afterSettle`` with the panel's new seq), ``--taps`` times.

* following: pages of every kind open at once (table 1's dealer's panel, the tables page, a
  player's phone, the TV and the dashboard), the director busts a player of table 1 through
  the JSON API, then takes his rebuy (rebuys are opened for the measure), ``--follows``
  times; for each page, the time from the
  command's answer to the change shown on it (its players-left figure, seats or standings),
  with no reload.

Then the same again while the other 29 tables' dealers, their panels, the 300 players' phones
and 3 TVs put ``bench_club_load.py``'s load on the server (``--scale``: ten times of it). It
prints the median and the 95th percentile of each. No figure is asserted: a benchmark, not a
test.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench_club_load import (
    Client,
    Stats,
    built_night,
    devices,
    serve,
)
from bench_night import percentile
from playwright.sync_api import sync_playwright

FLAGS = ["--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync"]
PHONE = {"width": 390, "height": 844}

# One tap measured inside the page: the click, then the panel swapped in with a new seq and settled.
TAP = """label => new Promise((done, fail) => {
  const panel = document.querySelector('#dealer');
  const seq = panel.dataset.seq;
  const button = [...panel.querySelectorAll('.dl-big, .dl-pad button')].find(b => b.textContent.trim().startsWith(label));
  if (!button) return fail(new Error('no button ' + label));
  const started = performance.now();
  document.addEventListener('htmx:afterSettle', function settled() {
    const now = document.querySelector('#dealer');
    if (now && now.dataset.seq !== seq) {
      document.removeEventListener('htmx:afterSettle', settled);
      done(performance.now() - started);
    }
  });
  button.click();
})"""


def taps(page: Any, count: int) -> list[float]:
    """``count`` taps at table 1: *Deal* when no hand is running, else *Fold* (a hand folded
    round to the big blind ends without a showdown)."""
    times = []
    while len(times) < count:
        phase = page.get_attribute("#dealer", "data-phase")
        label = "Deal" if phase == "before" else "Fold"
        times.append(float(page.evaluate(TAP, label)))
    return times


def loads(page: Any, url: str, count: int) -> list[float]:
    times = []
    for _ in range(count):
        started = time.perf_counter()
        page.goto(url)
        page.wait_for_selector("#dealer[data-seq]")
        times.append((time.perf_counter() - started) * 1000)
    return times


# What each kind of page shows of the players still in: the part whose change is timed.
ARM = """kind => {
  const labelled = label => {
    const found = [...document.querySelectorAll('dt, span, div, p, h2, h3')]
      .find(e => e.children.length === 0 && e.textContent.trim() === label);
    return found ? found.parentElement.textContent : null;
  };
  const marks = {
    dealer: () => document.querySelector('#dealer .dl-seats')?.textContent ?? null,
    tables: () => document.querySelector('#tables .tables-summary')?.textContent ?? null,
    player: () => document.querySelector('#player-standings')?.textContent ?? null,
    tv: () => labelled('Players left'),
    dashboard: () => labelled('Players left'),
  };
  const mark = marks[kind];
  window.__follow = {before: mark(), at: null};
  clearInterval(window.__followTimer);
  window.__followTimer = setInterval(() => {
    const f = window.__follow;
    if (f.at === null && mark() !== f.before) { f.at = Date.now(); }
  }, 10);
  return window.__follow.before;
}"""


def follows(pages: dict[str, Any], director: Client, tid: int, player: int, by: int,
            count: int) -> dict[str, list[float]]:
    """``count`` commands by the director (a bust of ``player`` by ``by``, then his rebuy, in
    turn: an undo would take back whatever came last, a dealer's entry under the load), and for
    each open page the milliseconds from the command's answer to the change."""
    times: dict[str, list[float]] = {kind: [] for kind in pages}
    rebuys = {"rebuy_levels": 200, "max_rebuys": 100}
    status, answer, _ = director.request("POST", f"/api/t/{tid}/settings", rebuys)
    if status != 201:
        raise SystemExit(f"rebuys for the measure: {status} {answer[:200]!r}")
    for i in range(count):
        for kind, page in pages.items():
            if page.evaluate(ARM, kind) is None:
                raise SystemExit(f"the {kind} page does not show what is timed")
        path, body = ((f"/api/t/{tid}/bust", {"player": player, "by": by}) if i % 2 == 0
                      else (f"/api/t/{tid}/players/{player}/rebuy", {}))
        status, answer, _ = director.request("POST", path, body)
        answered = time.time() * 1000
        if status != 201:
            raise SystemExit(f"{path} (command {i + 1} of {count}): {status} {answer[:200]!r}")
        waiting = dict(pages)
        deadline = time.perf_counter() + 15
        while waiting and time.perf_counter() < deadline:
            for kind, page in list(waiting.items()):
                at = page.evaluate("() => window.__follow.at")
                if at is not None:
                    times[kind].append(at - answered)
                    del waiting[kind]
            time.sleep(0.02)
        for kind in waiting:
            times[kind].append(15_000.0)  # not shown within 15 s
        time.sleep(0.5)
    return times


def in_play(director: Client, tid: int, table: int) -> list[int]:
    """The players with chips at ``table``, by seat."""
    _, body, _ = director.request("GET", f"/api/t/{tid}/table/{table}")
    return [s["player"] for s in json.loads(body)["seats"] if s["stack"] > 0 and not s["status"]]


def follow_pages(context: Any, base: str, tid: int, table: int, token: str) -> dict[str, Any]:
    paths = {"dealer": f"/t/{tid}/table/{table}", "tables": f"/t/{tid}/tables", "player": f"/p/{token}",
             "tv": f"/t/{tid}/tv", "dashboard": f"/t/{tid}"}
    pages = {}
    for kind, path in paths.items():
        page = context.new_page()
        page.goto(base + path)
        pages[kind] = page
    time.sleep(2)  # every page's first poll
    return pages


def line(name: str, values: list[float]) -> str:
    missed = sum(1 for v in values if v >= 15_000)
    return (f"{name:<34} n={len(values):>3}  median {percentile(values, 0.5):7.1f} ms   p95 {percentile(values, 0.95):7.1f} ms"
            + (f"   not shown within 15 s: {missed}" if missed else ""))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--events", type=int, default=5_000, help="the night's length before the measures")
    parser.add_argument("--taps", type=int, default=60)
    parser.add_argument("--loads", type=int, default=15)
    parser.add_argument("--follows", type=int, default=20, help="commands whose change each open page is timed on")
    parser.add_argument("--scale", type=int, default=1, help="the club night's load: 10 is ten times of it")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--workers", type=int, default=1, help="the server's processes (poker-director serve --workers)")
    parser.add_argument("--keep", type=Path, help="build the night once into this folder and reuse it")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-browser-") as folder:
        instance = Path(folder) / "instance"
        night = built_night(instance, args.events, args.seed, args.keep)
        mine = 1 if 1 in night.active else night.active[0]
        server, port = serve(instance, workers=args.workers)
        base = f"http://127.0.0.1:{port}"
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=FLAGS)
                context = browser.new_context(viewport=PHONE)
                context.add_cookies([{"name": "session", "value": night.cookie, "url": base}])
                page = context.new_page()
                url = f"{base}/t/{night.tid}/table/{mine}"
                loads(page, url, 2)  # the browser's caches warm
                taps(page, 4)
                alone = loads(page, url, args.loads), taps(page, args.taps)
                while page.get_attribute("#dealer", "data-phase") != "before":  # table 1 between hands
                    taps(page, 1)
                director = Client(port, "session=" + night.cookie, night.csrf)
                seated = in_play(director, night.tid, mine)
                watched = follow_pages(context, base, night.tid, mine, night.tokens[0])
                print("# following, alone…", file=sys.stderr, flush=True)
                followed_alone = follows(watched, director, night.tid, seated[-1], seated[0], args.follows)
                stats = Stats()
                until = time.perf_counter() + 3600  # the load stops with the server, after the measures
                threads, _ = devices(stats, night, port, args.scale, until, args.seed, apart=mine)
                for thread in threads:
                    thread.start()
                time.sleep(3)  # the load under way
                loaded = loads(page, url, args.loads), taps(page, args.taps)
                while page.get_attribute("#dealer", "data-phase") != "before":
                    taps(page, 1)
                seated = in_play(director, night.tid, mine)  # the taps may have busted one of them
                print("# following, under the load…", file=sys.stderr, flush=True)
                followed_loaded = follows(watched, director, night.tid, seated[-1], seated[0], args.follows)
                browser.close()
        finally:
            server.terminate()
            server.wait(timeout=30)
    answered = sum(len(v) for v in stats.times.values())
    print(f"# {args.events:,} events, table {mine}, a phone-sized Chromium page; load: {len(threads)} device "
          f"groups at scale {args.scale}, {args.workers} server worker(s), {answered} requests answered during the "
          "measures")
    print(line("dealer's page load, alone", alone[0]))
    print(line("dealer's tap, alone", alone[1]))
    print(line(f"dealer's page load, club load x{args.scale}", loaded[0]))
    print(line(f"dealer's tap, club load x{args.scale}", loaded[1]))
    for kind, values in followed_alone.items():
        print(line(f"follow: {kind}, alone", values))
    for kind, values in followed_loaded.items():
        print(line(f"follow: {kind}, club load x{args.scale}", values))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
