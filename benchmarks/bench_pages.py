"""What a page costs to render in each language the app speaks.

    python benchmarks/bench_pages.py [--rounds 5] [--requests 10]

Builds the demo night (``director.home.demo.fill_demo``: ten players, level 4) on a temporary data
folder, logs in as the director with Flask's test client, and for each language (the host's
choice, as ``/language`` stores it) renders each page ``--requests`` times per round; prints
the best round's mean in milliseconds. The pages: the new-tournament form (the longest page
of words), the dashboard, a dealer's table, the structure (a chart and a row per level), the
TV (the whole page) and a player's phone page. Nothing is asserted.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from director import create_app
from director.core.db import get_db
from director.core.first_start import set_password
from director.core.i18n import languages
from director.core.store import load_state
from director.home.demo import fill_demo
from director.tables.views import player_tokens


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--requests", type=int, default=10)
    args = parser.parse_args()
    app = create_app({"TESTING": True}, instance_path=tempfile.mkdtemp())
    with app.app_context():
        set_password("bench-password")
        tid = fill_demo(get_db(), time.time())
        token = next(iter(player_tokens(load_state(get_db(), tid)).values()))
        codes = list(languages())
    client = app.test_client()
    app.config["WTF_CSRF_ENABLED"] = False  # the login form's token: not what is measured
    client.post("/auth/login", data={"password": "bench-password"})
    pages = ["/new", f"/t/{tid}", f"/t/{tid}/table/1", f"/t/{tid}/structure", f"/t/{tid}/tv", f"/p/{token}"]
    print(f"{'page':24}" + "".join(f"{code:>9}" for code in codes) + "   (ms per render, best round)")
    figures: dict[str, dict[str, float]] = {page: {} for page in pages}
    for code in codes:
        with app.app_context():
            get_db()["app_settings"].upsert({"key": "language", "value": code}, pk="key")
        for page in pages:
            client.get(page).close()
            best = float("inf")
            for _ in range(args.rounds):
                start = time.perf_counter()
                for _ in range(args.requests):
                    client.get(page).close()
                best = min(best, (time.perf_counter() - start) / args.requests * 1000)
            figures[page][code] = best
    for page in pages:
        shown = page.replace(token, "<token>")
        print(f"{shown:24}" + "".join(f"{figures[page][code]:9.1f}" for code in codes))


if __name__ == "__main__":
    main()
