"""The dealer's tap and page in a real Chromium, alone and while the laptop serves a club night.

    python benchmarks/bench_browser.py [--events 5000] [--taps 60] [--loads 15] [--scale 1] [--workers 1] [--keep DIR]

It builds a 30-table night (``bench_night.Night``: 300 players, the dealer's JSON API) to
``--events`` events (``--keep``: once, as ``bench_club_load.py`` does), starts ``poker-director
serve`` on it (``--workers`` processes of serve's default threads, in a process of its own), and drives Debian's Chromium on a phone-sized page (390 x 844) at table 1:

* the page's load: from the navigation to the dealer's panel drawn (``--loads`` times);
* a tap: from the click on *Deal* or *Fold* to the panel swapped in and settled (htmx's
  ``afterSettle`` with the panel's new seq), ``--taps`` times.

Then the same again while the other 29 tables' dealers, the 300 players' phones and 3 TVs
put ``bench_club_load.py``'s load on the server (``--scale``: ten times of it). It prints the
median and the 95th percentile of each. No figure is asserted: a benchmark, not a test.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench_club_load import Stats, built_night, dealer, pollers, serve
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


def line(name: str, values: list[float]) -> str:
    return f"{name:<34} n={len(values):>3}  median {percentile(values, 0.5):7.1f} ms   p95 {percentile(values, 0.95):7.1f} ms"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--events", type=int, default=5_000, help="the night's length before the measures")
    parser.add_argument("--taps", type=int, default=60)
    parser.add_argument("--loads", type=int, default=15)
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
                stats = Stats()
                until = time.perf_counter() + 3600  # the load stops with the server, after the measures
                scale = args.scale
                threads = [threading.Thread(target=dealer, args=(stats, night, port, t, 3.0 / scale, until,
                                                                 args.seed + t), daemon=True)
                           for t in night.active if t != mine]
                players = [f"/p/{t}/live" for t in night.tokens] * scale
                groups = max(1, 10 * scale)
                threads += [threading.Thread(target=pollers, args=(stats, port, "player", players[g::groups], 3.0,
                                                                   until), daemon=True) for g in range(groups)]
                threads.append(threading.Thread(target=pollers, args=(
                    stats, port, "tv", [f"/t/{night.tid}/tv/clock"] * (3 * scale), 1.5, until), daemon=True))
                for thread in threads:
                    thread.start()
                time.sleep(3)  # the load under way
                loaded = loads(page, url, args.loads), taps(page, args.taps)
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
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
