"""The demo tournament (director.home.demo.fill_demo): ten players seated six-handed, the clock in
level 4, three knocked out with one back on a rebuy, Alice's add-on, and chips that add up."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

import pytest
from flask import Flask
from sqlite_utils import Database

from director.core.db import get_db
from director.core.store import load_events, load_state
from director.home.demo import DEMO_NAMES, fill_demo
from engine.dealing import stack_of
from engine.tournament import Tournament

NOW = 1_700_000_000.0


@pytest.fixture
def db(app: Flask) -> Iterator[Database]:
    with app.app_context():
        yield get_db()


@pytest.fixture
def demo(db: Database) -> Tournament:
    return load_state(db, fill_demo(db, NOW))


def test_the_demo_is_a_started_tournament_of_the_ten_demo_players(demo: Tournament, db: Database) -> None:
    assert demo.name == "Demo: Saturday night"
    assert demo.started and not demo.finished
    assert tuple(p.name for p in demo.players) == DEMO_NAMES
    assert demo.entries == 10
    names = {r[0] for r in db.execute("SELECT name FROM player_names").fetchall()}
    assert names == set(DEMO_NAMES)  # registered the ordinary way, so remembered


def test_the_clock_runs_in_level_4_six_minutes_in(demo: Tournament) -> None:
    clock = demo.clock_at(NOW)
    assert clock.status == "running"
    assert clock.level_number == 4
    assert clock.seconds_left == 9 * 60  # a 15-minute level


def test_three_out_one_back_on_a_rebuy_and_alices_addon(demo: Tournament) -> None:
    assert demo.players_left == 7
    assert demo.rebuys == 1 and demo.addons == 1
    ines, dev, gina = demo.player(9), demo.player(4), demo.player(7)
    assert (ines.status, ines.rebuys) == ("in", 1)
    assert demo.player(1).addon and demo.player(1).name == "Alice"
    out = [p for p in demo.players if p.out]
    assert len(out) == 3 and dev in out and gina in out
    (partner,) = (p for p in out if p not in (dev, gina))
    # Dev out first (10th); Gina (2,500 at the start of the hand) below her partner (4,100).
    assert demo.places() == {dev.id: 10, gina.id: 9, partner.id: 8}
    busted = {dev.id, gina.id, partner.id, ines.id}
    assert set(demo.eliminated_by()) == {dev.id, gina.id, partner.id}
    assert not busted & set(demo.eliminated_by().values())


def test_everyone_still_in_is_seated_six_handed(demo: Tournament) -> None:
    assert demo.settings.table_size == 6
    assert all(p.seated for p in demo.alive)
    assert not any(p.seated for p in demo.players if p.out)
    per_table = Counter(p.table for p in demo.alive)
    assert sorted(per_table.values()) == [3, 4] and max(per_table.values()) <= 6


def test_the_chips_add_up(demo: Tournament) -> None:
    """Ten buy-ins, one rebuy and one add-on are in play, and the stacks hold exactly that."""
    assert demo.chips_in_play == 10 * 10_000 + 10_000 + 5_000
    assert sum(stack_of(demo, p.id) for p in demo.players) == demo.chips_in_play
    assert all(stack_of(demo, p.id) == 0 for p in demo.players if p.out)
    assert demo.average_stack == round(demo.chips_in_play / 7)


def test_the_events_are_in_the_past_ending_with_the_addon(db: Database) -> None:
    tid = fill_demo(db, NOW)
    events = load_events(db, tid)
    assert all(e.at <= NOW for e in events)
    assert [e.at for e in events] == sorted(e.at for e in events)
    assert events[-1].type == "addon" and events[-1].at == NOW - 3 * 60
    assert [e.type for e in events].count("bust") == 3


def test_the_same_seed_gives_the_same_night(db: Database) -> None:
    first = load_state(db, fill_demo(db, NOW, seed=3))
    second = load_state(db, fill_demo(db, NOW, seed=3, name="Demo again"))
    assert second.name == "Demo again"
    assert second.seating.placements == first.seating.placements
    assert second.places() == first.places()
