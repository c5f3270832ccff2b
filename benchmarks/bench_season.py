"""How a season's pages cost as the season grows (issue "Seasons").

    python benchmarks/bench_season.py [--sizes 10,30,100] [--players 10] [--hands 10]

Builds nights through the app's own write path (``director.create_app`` on a temporary data
folder, Flask's test client logged in as the director): each night registers the players,
seats them at one table, plays ``--hands`` hands on the dealer's JSON twin (the deal, then
everyone folds to the big blind), then knocks the players out from the dashboard one by one,
each by a player still at the table; the night is added to one season. At each size it
prints, without asserting anything, the median of 5 renders (state cache warm) of the
season page (standings, the race chart, the records from the hand histories), its TV
screen, a person's page (every night, the hand statistics) and ``GET /api/seasons/<id>``,
and the season page once the state cache is emptied (every night folded again).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from typing import Any

sys.path.insert(0, os.environ.get("PYTHONPATH") or os.getcwd())

from director import create_app
from director.core.store import cache

PASSWORD = "bench-password-1"


def timed(client: Any, path: str, repeat: int = 5) -> float:
    """The median milliseconds of ``repeat`` GETs of ``path``."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        response = client.get(path)
        times.append((time.perf_counter() - start) * 1000)
        assert response.status_code == 200, (path, response.status_code)
    return statistics.median(times)


def night(client: Any, token: str, season: int, week: int, players: int, hands: int) -> None:
    headers = {"X-CSRFToken": token}
    tid = client.post("/api/tournaments", json={"name": f"Week {week}", "table_size": 10}, headers=headers).get_json()["id"]
    for p in range(players):
        client.post(f"/api/t/{tid}/players", json={"name": f"Player {p + 1}"}, headers=headers)
    client.post(f"/api/t/{tid}/tables/draw", json={"table_size": 10}, headers=headers)
    client.post(f"/api/t/{tid}/clock/start", json={}, headers=headers)
    for _ in range(hands):
        state = client.post(f"/api/t/{tid}/table/1/deal", json={}, headers=headers).get_json()
        if "error" in state:
            raise SystemExit(f"Could not deal: {state['error']}")
        while state.get("phase") == "betting":
            state = client.post(f"/api/t/{tid}/table/1/act", json={"kind": "fold"}, headers=headers).get_json()
    alive = list(range(1, players + 1))
    while len(alive) > 1:
        victim = alive.pop()
        answer = client.post(f"/api/t/{tid}/bust", json={"player": victim, "by": alive[0]}, headers=headers)
        if answer.status_code != 201:
            raise SystemExit(f"Could not bust player {victim}: {answer.get_json()}")
    client.post(f"/api/seasons/{season}/nights", json={"tournament": tid}, headers=headers)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", default="10,30,100")
    parser.add_argument("--players", type=int, default=10)
    parser.add_argument("--hands", type=int, default=10)
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    app = create_app({}, instance_path=tempfile.mkdtemp())
    client = app.test_client()
    session = client.get("/api/session").get_json()
    answer = client.post("/api/setup-password", json={"password": PASSWORD}, headers={"X-CSRFToken": session["csrf_token"]})
    if answer.status_code != 201:
        raise SystemExit(f"Could not set the director's password: {answer.get_json()}")
    token = answer.get_json()["csrf_token"]
    season = client.post("/api/seasons", json={"name": "Bench league", "knockout_points": 1, "best_n": 8},
                         headers={"X-CSRFToken": token}).get_json()["id"]
    print(f"# {args.players} players a night, {args.hands} hands dealt with the assistant, then busts")
    print(f"{'nights':>7} {'build s':>8} {'season ms':>10} {'tv ms':>8} {'api ms':>8} {'person ms':>10} {'cold ms':>9}")
    built, start = 0, time.perf_counter()
    for size in sizes:
        while built < size:
            built += 1
            night(client, token, season, built, args.players, args.hands)
        build = time.perf_counter() - start
        person = client.get("/api/people").get_json()["people"][0]["id"]
        played = client.get(f"/api/people/{person}").get_json()["hands"]["played"]
        row = [timed(client, f"/seasons/{season}"), timed(client, f"/seasons/{season}/tv"),
               timed(client, f"/api/seasons/{season}"), timed(client, f"/people/{person}")]
        cache.clear()
        cold = timed(client, f"/seasons/{season}", repeat=1)
        print(f"{size:>7,} {build:>8.1f} {row[0]:>10.1f} {row[1]:>8.1f} {row[2]:>8.1f} {row[3]:>10.1f} {cold:>9.1f}"
              f"   ({played} hands of the person's)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
