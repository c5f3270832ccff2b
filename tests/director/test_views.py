"""What the director's pages show (director.night.views): the countdown text, the clock's words, the
undo message, the player rows and the dashboard's context, computed from the state and ``now``."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from flask import Flask
from sqlite_utils import Database

from director.core.db import get_db
from director.core.store import load_state
from director.night import commands as night_commands
from director.night.views import (
    clock_text,
    clock_view,
    dashboard_context,
    player_rows,
    redo_text,
    undone_text,
)
from director.setup.commands import create_tournament
from director.tables.commands import draw
from engine.tournament import Tournament

NAMES = ("Ann", "Bob", "Cid", "Dee", "Eve")


@pytest.fixture
def db(app: Flask) -> Iterator[Database]:
    with app.app_context():
        yield get_db()


def started(db: Database, names: tuple[str, ...] = NAMES, **settings: object) -> tuple[int, Tournament]:
    """Players seated and the clock started at 200 (a 15-minute level 1)."""
    tid = create_tournament(db, {"name": "Friday", "buy_in": 10, **settings}, 100.0)
    for name in names:
        night_commands.register_player(db, tid, name, None, 101.0)
    draw(db, tid, None, 102.0, rng=random.Random(1))
    return tid, night_commands.clock_action(db, tid, "start", None, 200.0)


@pytest.mark.parametrize(
    ("seconds", "text"),
    [
        (None, "–"),
        (0, "0:00"),
        (0.2, "0:01"),
        (59.01, "1:00"),
        (60, "1:00"),
        (125, "2:05"),
        (3599.5, "1:00:00"),
        (3661, "1:01:01"),
        (-3, "0:00"),
    ],
)
def test_clock_text_rounds_up_like_a_countdown(seconds: float | None, text: str) -> None:
    assert clock_text(seconds) == text


def test_the_clock_view_says_status_time_left_and_what_comes_next(db: Database) -> None:
    tid, state = started(db)
    view = clock_view(state.clock_at(400.0), 400.0, hand_counted=False)
    assert (view.status_text, view.time_text, view.next_text) == ("Running", "11:40", "Next: Level 2 · 200/400")
    paused = night_commands.clock_action(db, tid, "pause", None, 500.0)
    assert clock_view(paused.clock_at(900.0), 900.0, False).status_text == "Paused"
    assert clock_view(paused.clock_at(900.0), 900.0, False).time_text == "10:00"  # stopped at the pause


def test_a_hand_counted_clock_counts_hands(db: Database) -> None:
    tid, state = started(db, preset="sng-1000")
    context = dashboard_context(state, tid, 300.0)
    assert context["clock"].time_text == "6 hands"
    for i in range(5):
        state = night_commands.clock_action(db, tid, "hand_played", None, 210.0 + i)
    assert dashboard_context(state, tid, 300.0)["clock"].time_text == "1 hand"


def test_undone_text_names_a_bust_with_its_place(db: Database) -> None:
    tid, state = started(db)
    assert undone_text(state) == "Undone: The clock started."
    state = night_commands.bust(db, tid, [5], None, 300.0, by=1)
    assert undone_text(state) == "Undone: Eve's bust (5th)."
    state = night_commands.bust(db, tid, [3, 4], None, 310.0, by=1, stacks={"3": 500, "4": 900})
    assert undone_text(state) == "Undone: Cid's bust (4th) and Dee's bust (3rd)."


def test_undone_text_before_anything_and_for_other_events(db: Database) -> None:
    tid = create_tournament(db, {"name": "Friday"}, 100.0)
    assert undone_text(load_state(db, tid)) == "Undone."
    assert undone_text(night_commands.register_player(db, tid, "Ann", None, 101.0)) == "Undone: Ann registered."
    night_commands.register_player(db, tid, "Bob", None, 102.0)
    night_commands.clock_action(db, tid, "start", None, 200.0)
    assert undone_text(night_commands.clock_action(db, tid, "add_time", None, 210.0, seconds=-90)) == "Undone: 90 seconds taken off the clock."


def test_redo_text_says_a_hand_entry_taken_back_as_it_was_played(db: Database) -> None:
    """The redo button names the entry it puts back, read in the hand it goes back into."""
    tid, state = started(db, preset="sng-1000")
    night_commands.record(db, tid, "hand_started", {"table": 1}, None, 300.0)
    running = load_state(db, tid).dealing.running(1)
    assert running is not None
    turn = running.replay().turn
    assert turn is not None
    night_commands.record(db, tid, "hand_action", {"table": 1, "action": f"p{turn} cc"}, None, 301.0)
    # The table's own undo of its last entry (the director's *Undo* leaves the tables' play alone).
    state = night_commands.record(db, tid, "undo", {}, None, 302.0)
    who = state.name_of(running.player_at(turn) or 0)
    assert redo_text(state) == f"Table 1: {who} calls 20"
    assert dashboard_context(state, tid, 303.0)["redo_text"] == f"Table 1: {who} calls 20"


def test_player_rows_put_players_in_by_seat_then_those_out_by_place(db: Database) -> None:
    tid, state = started(db)
    night_commands.bust(db, tid, [5], None, 300.0, by=1)
    state = night_commands.bust(db, tid, [3, 4], None, 310.0, by=2, stacks={"3": 500, "4": 900})
    rows = player_rows(state)
    ins = [r for r in rows if not r.player.out]
    assert [r.player.name for r in rows[len(ins):]] == ["Dee", "Cid", "Eve"]
    assert [(r.player.table, r.player.seat) for r in ins] == sorted((r.player.table, r.player.seat) for r in ins)
    dee = rows[len(ins)]
    assert (dee.place, dee.provisional, dee.eliminated_by) == (3, 3, "Bob")
    assert all(r.place is None and r.eliminated_by is None for r in ins)


def test_a_busted_player_may_rebuy_while_rebuys_are_open(db: Database) -> None:
    tid, _ = started(db, names=("Ann", "Bob", "Cid"), rebuy_levels=2)
    state = night_commands.bust(db, tid, [3], None, 300.0, by=1)
    rows = {r.player.name: r for r in dashboard_context(state, tid, 310.0)["rows"]}
    assert rows["Cid"].player.status == "waiting" and rows["Cid"].can_rebuy
    assert not rows["Ann"].can_rebuy  # still in with chips
    assert not any(r.can_addon for r in rows.values())  # no add-on in this tournament


def test_the_dashboard_context_of_a_finished_tournament(db: Database) -> None:
    tid, _ = started(db, names=("Ann", "Bob", "Cid"))
    night_commands.bust(db, tid, [3], None, 300.0, by=1)
    state = night_commands.bust(db, tid, [2], None, 310.0, by=1)
    context = dashboard_context(state, tid, 400.0)
    assert context["tournament_id"] == tid and (context["t"].id, context["t"].seq) == (tid, state.seq)
    assert context["clock"].status_text == "Finished"
    assert context["payouts"] == [("1st", 30, "Ann")]
    assert context["recent"][:2] == ["Bob is out, knocked out by Ann", "Cid is out, knocked out by Ann"]
    assert context["last_event"] == "Bob is out, knocked out by Ann"
    assert [(r.player.name, r.place, r.award) for r in context["rows"]] == [
        ("Ann", 1, 30), ("Bob", 2, None), ("Cid", 3, None)
    ]
    assert context["ordinal"](2) == "2nd"


def test_the_dashboard_context_before_the_start(db: Database) -> None:
    tid = create_tournament(db, {"name": "Friday"}, 100.0)
    context = dashboard_context(load_state(db, tid), tid, 150.0)
    assert context["clock"].status_text == "Not started"
    assert context["clock"].time_text == "15:00"
    assert context["rows"] == [] and context["recent"] == [] and context["last_event"] is None
