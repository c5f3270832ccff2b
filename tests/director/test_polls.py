"""The polls answered without the app (director.core.polls): the same answer while nothing
changed, the new one on the very next poll after an event, and a notice that must go away
goes away on time."""

from __future__ import annotations

import pytest
from flask import Flask
from flask.testing import FlaskClient

from director.core.polls import HEADER, PollCache
from director.tables.views import player_tokens
from tests.director.conftest import Director, soup
from tests.director.test_player_page import clock as clock  # the fixture
from tests.director.test_player_page import dealt_night, drawn
from tests.director.test_seating_pages import post, start_and_bust, state_of, tournament


def cache_of(app: Flask) -> PollCache:
    middleware = app.wsgi_app
    assert isinstance(middleware, PollCache)
    return middleware


def test_a_second_poll_is_answered_from_the_cache_with_the_same_body(
    app: Flask, client: FlaskClient, director: Director
) -> None:
    _, tokens = drawn(app, director)
    path = f"/p/{next(iter(tokens.values()))}/live"
    first = client.get(path)
    hits = cache_of(app).hits
    second = client.get(path)
    assert second.status_code == 200 and second.get_data() == first.get_data()
    assert cache_of(app).hits == hits + 1
    assert HEADER not in first.headers and HEADER not in second.headers
    assert second.headers["ETag"] == first.headers["ETag"]
    assert second.headers["Cache-Control"] == "private, no-store"


def test_the_poll_after_an_event_shows_it(app: Flask, client: FlaskClient, director: Director, clock: list[float]) -> None:
    """A bust lands between two polls: the second is not the cached answer."""
    tid, tokens = drawn(app, director, players=12, size=6)
    watcher = next(pid for pid in tokens if pid != 1)
    path = f"/p/{tokens[watcher]}/live"
    before = soup(client.get(path))
    client.get(path)
    start_and_bust(app, tid, [1], clock[0])
    after = soup(client.get(path))
    assert "Still in (12)" in before.get_text() and "Still in (11)" in after.get_text()
    assert after.select_one("ol.standings li") is not None and after.select_one("ol.standings li.me") is None
    busted = soup(client.get(f"/p/{tokens[1]}/live"))  # the standings are shared; his own line is his
    assert busted.select_one("ol.standings li.me") is not None


def test_a_client_holding_the_answer_gets_304(app: Flask, client: FlaskClient, director: Director) -> None:
    _, tokens = drawn(app, director)
    path = f"/p/{next(iter(tokens.values()))}/live"
    etag = client.get(path).headers["ETag"]
    again = client.get(path, headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.get_data() == b""
    assert client.get(path, headers={"If-None-Match": '"something-else"'}).status_code == 200


def test_the_move_notice_goes_away_on_time_though_nothing_happened(
    app: Flask, client: FlaskClient, director: Director, clock: list[float]
) -> None:
    tid = tournament(app, 10)
    post(director, tid, "draw", table_size=9)
    state = state_of(app, tid)
    tokens = player_tokens(state)
    a, b = state.seating.at_table(1)[min(state.seating.at_table(1))], state.seating.at_table(2)[min(state.seating.at_table(2))]
    post(director, tid, "swap", player_a=a, player_b=b)
    path = f"/p/{tokens[a]}/live"
    assert soup(client.get(path)).select_one(".player-moved") is not None
    assert soup(client.get(path)).select_one(".player-moved") is not None  # from the cache
    clock[0] += 31 * 60
    assert soup(client.get(path)).select_one(".player-moved") is None


def test_only_marked_answers_are_kept(app: Flask, client: FlaskClient, director: Director) -> None:
    """The director's pages, the TV and the API go to the app every time."""
    tid, tokens = drawn(app, director)
    hits = cache_of(app).hits
    for path in (f"/api/t/{tid}", f"/t/{tid}", "/api/session", f"/p/{next(iter(tokens.values()))}"):
        client.get(path)
        client.get(path)
    assert cache_of(app).hits == hits


def test_play_at_another_table_leaves_a_phone_answered_from_the_cache(
    app: Flask, client: FlaskClient, clock: list[float]
) -> None:
    """Bets at table 2 change nothing on the phone of a player at table 1: it is answered from
    the cache, checked forward, instead of made again after each bet. A hand at its own table
    that moves its lines, and a bust anywhere, make it again."""
    names = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"]
    seats = {1: (1, 1), 2: (1, 2), 3: (1, 3), 4: (2, 1), 5: (2, 2), 6: (2, 3)}
    dealer, tokens = dealt_night(app, names, seats, {1: 3, 2: 3})
    cache = cache_of(app)
    path = f"/p/{tokens[1]}/live"
    dealer.ok("deal", table=1)
    first = client.get(path).get_data()
    rechecked = cache.rechecked
    dealer.ok("deal", table=2)
    dealer.ok("act", {"kind": "call"}, table=2)
    again = client.get(path)
    assert again.get_data() == first and cache.rechecked == rechecked + 1
    dealer.ok("act", {"kind": "call"}, table=1)  # Ann's table, but not her lines: still the same answer
    assert client.get(path).get_data() == first
    while dealer.state(1)["phase"] == "betting":  # her hand ends: her stack and position move on
        dealer.ok("act", {"kind": "fold"}, table=1)
    after_hand = client.get(path).get_data()
    assert after_hand != first and "before this hand" in first.decode() and "before this hand" not in after_hand.decode()
    # A bust at table 2: every phone's standings.
    assert "Still in (6)" in soup(client.get(path)).get_text()
    dealer.ok("act", {"kind": "allin"}, table=2)
    while dealer.state(2)["phase"] == "betting":
        kinds = {a["kind"] for a in dealer.state(2)["actions"]}
        dealer.ok("act", {"kind": "call" if "call" in kinds else "allin"}, table=2)
    view = dealer.state(2)
    if view["phase"] == "showdown":
        dealer.ok("award", {"winners": [[p["eligible"][0]] for p in view["pots"]]}, table=2)
    left = state_of(app, dealer.tid).players_left
    assert left < 6
    assert f"Still in ({left})" in soup(client.get(path)).get_text()


@pytest.mark.parametrize("preset", ["sng-1000", "home-short"], ids=["levels counted in hands", "timed levels"])
def test_an_answer_from_the_cache_is_the_answer_the_app_would_make(app: Flask, client: FlaskClient,
                                                                   clock: list[float], preset: str) -> None:
    """Hands played at three tables, an entry at a time, until players are knocked out, with
    entries taken back at the tables and by the director's undo: after every entry, each
    phone's poll answered from the cache (checked forward) is byte for byte
    what the app makes afresh for that phone. (Where the levels are counted in hands, a hand
    that ends at another table may move the big blinds a stack is counted in.)"""
    import random

    from werkzeug.test import Client

    names = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy"]
    seats = {p: ((p - 1) // 3 + 1, (p - 1) % 3 + 1) for p in range(1, 10)}
    dealer, tokens = dealt_night(app, names, seats, {1: 1, 2: 2, 3: 3}, preset)
    cache = cache_of(app)
    fresh = Client(cache.app)  # the app behind the cache
    rng = random.Random(33)
    paths = [f"/p/{token}/live" for token in tokens.values()]
    entries = tries = undone = 0
    while entries < 120 and tries < 1000 and state_of(app, dealer.tid).players_left > 1:
        tries += 1
        table = rng.choice([1, 2, 3])
        view = dealer.state(table)
        roll = rng.random()
        if roll < 0.1:  # an entry taken back at the table, or the night's last event by the director
            path = f"/api/t/{dealer.tid}/table/{table}/undo" if roll < 0.07 else f"/api/t/{dealer.tid}/undo"
            if dealer.client.post(path, json={}, headers={"X-CSRFToken": dealer.token}).status_code != 201:
                continue
            undone += 1
        elif view["phase"] == "before" and not view["can_deal"]:  # the director moves whoever the tables need
            moved = dealer.client.post(f"/api/t/{dealer.tid}/tables/confirm", json={},
                                       headers={"X-CSRFToken": dealer.token})
            if moved.status_code != 201:
                continue
        elif view["phase"] == "before":
            dealer.ok("deal", table=table)
        elif view["phase"] == "showdown" or not view["actions"]:
            dealer.ok("award", {"winners": [[p["eligible"][0]] for p in view["pots"]]}, table=table)
        else:
            kinds = [a["kind"] for a in view["actions"] if a["kind"] in ("fold", "check", "call", "allin")]
            kind = rng.choices(kinds, [{"fold": 3, "check": 5, "call": 5, "allin": 1}[k] for k in kinds])[0]
            dealer.ok("act", {"kind": kind}, table=table)
        entries += 1
        for path in paths:
            assert client.get(path).get_data() == fresh.get(path).get_data(), (entries, path)
    assert entries == 120 or (entries >= 40 and state_of(app, dealer.tid).players_left == 1)  # to the winner
    assert undone >= 3
    assert cache.rechecked > 5 * entries  # most polls were answered forward, not made again
    assert state_of(app, dealer.tid).players_left < len(names)  # knockouts, and their standings, were polled too


def test_the_walk_of_the_nights_events_that_every_phone_shares_answers_as_each_phones_own_would() -> None:
    """``quiet_since`` against the walk of each phone's own events (``only_other_tables_since``),
    for every seq asked about, as the night goes on: play at the tables, a pause of the clock
    (not play), and an entry taken back at a table."""
    from director.player.pages import _quiet, quiet_since
    from director.tables.commands import only_other_tables_since
    from tests.engine.test_dealing import Night

    night = Night(["Ann", "Bob", "Cy", "Dee"], {1: (1, 1), 2: (1, 2), 3: (2, 1), 4: (2, 2)}, {1: 1, 2: 1})
    _quiet.clear()
    first = night.state.seq

    def call(table: int) -> None:
        running = night.state.dealing.running(table)
        assert running is not None
        night.act(f"p{running.replay().turn} cc", table=table)

    steps = [
        lambda: night.deal(1), lambda: night.deal(2), lambda: call(1),
        lambda: night.add("clock", {"action": "pause"}), lambda: call(2),
        lambda: night.add("hand_undo", {"table": 2}), lambda: call(1), lambda: call(2),
    ]
    answers = []
    for step in steps:
        step()
        for since in range(first - 1, night.state.seq + 1):
            mine = only_other_tables_since(night.state, since, 0)
            assert quiet_since("night.db", 1, night.state, since) is mine, (night.state.seq, since)
            answers.append(mine)
    assert True in answers and False in answers
    _quiet.clear()
