"""The states a night shows on the TV, each built through the JSON API as a host would make it:
a level, a break, a table breaking, the bubble, in the money, the final table, heads-up, a
mystery bounty's envelope, hand for hand, the winner and a season's standings between nights.
``build(app, name)`` returns the TV page's address (a path) for that state."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from bs4 import BeautifulSoup
from flask import Flask
from flask.testing import FlaskClient

from director.core.db import get_db
from director.core.store import load_state

from .conftest import PASSWORD

MEASURE = (Path(__file__).parent / "tv_measure.js").read_text()
"""What the TV page says of itself: overlaps, text off the screen, cut or below the floor."""

LONG = "Maximiliano Fernández de la Cruz-Oberman"  # 40 characters, the most a name may have
NAMES = [LONG, "Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kim", "Lou", "Mo", "Ned", "Olga"]
CLOSED = {"rebuy_levels": 0, "late_registration_levels": 0}  # nobody may come back: the night can end
LOOK = ('{"title": "The Thursday Poker Club of Upper Norwood", '
        '"show": ["next_levels", "payouts", "leaders", "board", "season", "chart"]}')


class Api:
    """The director's JSON API on the live server's app (a logged-in test client)."""

    def __init__(self, app: Flask) -> None:
        self.app = app
        self.client: FlaskClient = app.test_client()
        html = self.client.get("/auth/login").get_data(as_text=True)
        token = BeautifulSoup(html, "html.parser").find("meta", attrs={"name": "csrf-token"})["content"]  # type: ignore[index]
        self.client.post("/auth/login", data={"password": PASSWORD, "csrf_token": token})
        page = self.client.get("/").get_data(as_text=True)
        self.token = str(BeautifulSoup(page, "html.parser").find("meta", attrs={"name": "csrf-token"})["content"])  # type: ignore[index]

    def __call__(self, method: str, path: str, body: Any = None) -> Any:
        response = self.client.open(path, method=method, json=body if body is not None else {},
                                    headers={"X-CSRFToken": self.token})
        assert response.status_code in (200, 201), (path, body, response.get_json())
        return response.get_json()

    @contextmanager
    def at(self, when: float) -> Iterator[None]:
        """Commands made ``when`` (seconds since the epoch), as if entered then."""
        self.app.config["NOW"] = lambda: when
        try:
            yield
        finally:
            self.app.config.pop("NOW", None)

    def state(self, tid: int) -> Any:
        with self.app.app_context():
            return load_state(get_db(), tid)


def look(app: Flask) -> None:
    with app.app_context():
        db = get_db()
        db.execute("DELETE FROM tv_look WHERE id = 1")
        db.execute("INSERT INTO tv_look (id, body) VALUES (1, ?)", (LOOK,))
        db.conn.commit()


def _night(api: Api, players: int, *, started_ago: float = 300, table_size: int = 9, **settings: Any) -> int:
    """A night of ``players`` (the long name first) drawn at tables of ``table_size``, its clock
    started ``started_ago`` seconds ago (the level's own announcement over by then)."""
    start = time.time() - started_ago
    with api.at(start - 60):
        tid = int(api("POST", "/api/tournaments", {
            "name": "Saturday Night Hold'em Championship", "preset": "home-short", "buy_in": 25,
            "rebuy_levels": 4, "rebuy_cost": 25, "rebuy_chips": 10_000, "late_registration_levels": 4,
            **settings})["id"])
        for name in NAMES[:players]:
            api("POST", f"/api/t/{tid}/players", {"name": name})
        api("POST", f"/api/t/{tid}/tables/draw", {"table_size": table_size})
    with api.at(start):
        api("POST", f"/api/t/{tid}/clock/start")
    return tid


def _out(api: Api, tid: int, count: int, when: float | None = None) -> None:
    """The last ``count`` players still in knocked out, one by one, each by the first player
    still in at the same table."""
    with api.at(when or time.time() - 120):
        for _ in range(count):
            alive = api.state(tid).alive
            victim = alive[-1]
            by = next((p.id for p in alive if p.table == victim.table and p.id != victim.id), None)
            api("POST", f"/api/t/{tid}/bust", {"player": victim.id, **({"by": by} if by else {})})


def _paid(api: Api, tid: int) -> int:
    return sum(1 for prize in api.state(tid).prizes if prize)


def level(api: Api) -> str:
    return f"/t/{_night(api, 12, bounty_kind='knockout', bounty=5)}/tv"


def on_break(api: Api) -> str:
    return f"/t/{_night(api, 12, started_ago=62 * 60)}/tv"  # four 15-minute levels, then a break


def moves(api: Api) -> str:
    """Sixteen drawn at three tables of six, four out: the twelve left fit at two tables, one
    table breaks and the director records its moves."""
    tid = _night(api, 16, table_size=6)  # tables of 6, 5 and 5
    _out(api, tid, 4)  # twelve left: one table breaks
    api("POST", f"/api/t/{tid}/tables/confirm")
    return f"/t/{tid}/tv"


def bubble(api: Api) -> str:
    tid = _night(api, 16)
    _out(api, tid, 16 - _paid(api, tid) - 2)  # paid + 2 left: the next out is the bubble...
    _out(api, tid, 1, time.time() - 2)  # ...just now
    return f"/t/{tid}/tv"


def in_the_money(api: Api) -> str:
    tid = _night(api, 16)
    _out(api, tid, 16 - _paid(api, tid) - 1)
    _out(api, tid, 1, time.time() - 2)  # the bubble bursts just now
    return f"/t/{tid}/tv"


def final_table(api: Api) -> str:
    tid = _night(api, 12, table_size=6, **CLOSED)
    _out(api, tid, 6)
    api("POST", f"/api/t/{tid}/tables/confirm")  # the final table's seats
    return f"/t/{tid}/tv"


def heads_up(api: Api) -> str:
    tid = _night(api, 6, table_size=6, **CLOSED)
    _out(api, tid, 3)
    _out(api, tid, 1, time.time() - 2)
    return f"/t/{tid}/tv"


def mystery(api: Api) -> str:
    tid = _night(api, 8, bounty_kind="mystery", bounty=20, mystery_pool="500x1, 100x2, 50x5")
    _out(api, tid, 1, time.time() - 1)  # the envelope opens for a minute
    return f"/t/{tid}/tv"


def hand_for_hand(api: Api) -> str:
    tid = _night(api, 16)
    _out(api, tid, 16 - _paid(api, tid) - 1)  # on the bubble
    api("POST", f"/api/t/{tid}/hand-for-hand", {"on": True})
    return f"/t/{tid}/tv"


def winner(api: Api) -> str:
    tid = _night(api, 6, table_size=6, **CLOSED)
    _out(api, tid, 4)
    _out(api, tid, 1, time.time() - 2)  # the winner crowned just now
    return f"/t/{tid}/tv"


def season(api: Api) -> str:
    """A season of two nights, the third registered and waiting: the TV shows the standings."""
    return f"/t/{season_night(api)[1]}/tv"


def season_night(api: Api) -> tuple[int, int]:
    """A season of two nights and the third waiting: (the season, the night waiting)."""
    season_id = int(api("POST", "/api/seasons", {"name": "Winter League of the Thursday Club"})["id"])
    for _ in range(2):
        tid = _night(api, 6, table_size=6, **CLOSED)
        _out(api, tid, 5)
        api("POST", f"/api/seasons/{season_id}/nights", {"tournament": tid})
    with api.at(time.time() - 60):
        waiting = int(api("POST", "/api/tournaments", {"name": "Winter League, night 3", "preset": "home-short"})["id"])
        for name in NAMES[:4]:
            api("POST", f"/api/t/{waiting}/players", {"name": name})
    api("POST", f"/api/seasons/{season_id}/nights", {"tournament": waiting})
    return season_id, waiting


STATES: dict[str, Callable[[Api], str]] = {
    "level": level, "break": on_break, "moves": moves, "bubble": bubble, "itm": in_the_money,
    "final": final_table, "heads-up": heads_up, "mystery": mystery, "h4h": hand_for_hand, "winner": winner,
    "season": season,
}


def build_all(app: Flask) -> dict[str, str]:
    """Every state's TV address, built on ``app`` (the live server's)."""
    look(app)
    api = Api(app)
    return {name: make(api) for name, make in STATES.items()}
