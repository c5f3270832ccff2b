"""The one write path (director.night.commands): one command is one transaction, a late entry is
registered, seated and remembered together, a stale page records nothing, the remembered
names, and the commands' own refusals."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from flask import Flask
from sqlite_utils import Database

from director.core import store
from director.core.db import get_db
from director.core.store import StaleWrite, load_events, load_state
from director.night import commands as night_commands
from director.setup.commands import create_tournament, tournament_payload
from director.tables.commands import apply_table_step, draw
from engine.errors import EngineError, IllegalAction, InvalidInput


@pytest.fixture
def db(app: Flask) -> Iterator[Database]:
    with app.app_context():
        yield get_db()


def night(db: Database, names: tuple[str, ...] = ("Ann", "Bob", "Cid"), drawn: bool = False) -> int:
    tid = create_tournament(db, {"name": "Friday", "table_size": 6}, 100.0)
    for i, name in enumerate(names):
        night_commands.register_player(db, tid, name, None, 101.0 + i)
    if drawn:
        draw(db, tid, None, 110.0, rng=random.Random(1))
    return tid


def remembered(db: Database) -> list[tuple[str, float, int]]:
    return [tuple(r) for r in db.execute("SELECT name, last_used, times FROM player_names ORDER BY name")]


def test_a_refused_second_event_leaves_nothing_of_the_first(db: Database) -> None:
    tid = night(db)
    before = load_state(db, tid)
    count = len(load_events(db, tid))
    with (
        pytest.raises(InvalidInput, match=r"^There is no player number 99 in this tournament\.$"),
        store.command(db, store.TOURNAMENT, tid, before.seq, 120.0) as writer,
    ):
        writer.add("player_registered", {"name": "Gus", "token": "t"})
        night_commands.remember_name(db, "Gus", 120.0)
        writer.add("player_seated", {"player": 99, "table": 1, "seat": 1})
    assert len(load_events(db, tid)) == count
    after = load_state(db, tid)
    assert after.seq == before.seq and after.player_named("Gus") is None
    assert "Gus" not in [r[0] for r in remembered(db)]


def test_a_late_entry_after_the_draw_is_registered_seated_and_remembered(db: Database) -> None:
    tid = night(db, drawn=True)
    before = load_state(db, tid).seq
    state = night_commands.register_player(db, tid, "  Gus   Grey ", None, 130.0, rng=random.Random(2))
    gus = state.player_named("Gus Grey")
    assert gus is not None and gus.table == 1 and gus.seat is not None
    assert state.seq == before + 2
    registered, seated = load_events(db, tid, after=before)
    assert registered.type == "player_registered" and registered.payload["name"] == "Gus Grey"
    assert len(registered.payload["token"]) >= 20  # the player's page token
    assert seated.type == "player_seated"
    assert seated.payload == {"player": gus.id, "table": gus.table, "seat": gus.seat}
    assert ("Gus Grey", 130.0, 1) in remembered(db)


def test_a_registration_before_the_draw_is_one_event_and_unseated(db: Database) -> None:
    tid = night(db)
    state = night_commands.register_player(db, tid, "Dee", None, 130.0)
    assert load_events(db, tid)[-1].type == "player_registered"
    dee = state.player_named("Dee")
    assert dee is not None and not dee.seated


def test_a_stale_expected_seq_raises_stale_write_and_records_nothing(db: Database) -> None:
    tid = night(db, drawn=True)
    state = load_state(db, tid)
    with pytest.raises(StaleWrite) as stale:
        night_commands.register_player(db, tid, "Gus", state.seq - 1, 130.0)
    assert (stale.value.expected_seq, stale.value.last_seq) == (state.seq - 1, state.seq)
    assert str(stale.value) == "Someone else changed this tournament a moment ago; the page has been refreshed."
    assert load_state(db, tid).seq == state.seq
    assert "Gus" not in [r[0] for r in remembered(db)]
    with pytest.raises(StaleWrite):
        night_commands.bust(db, tid, [1], state.seq + 1, 131.0)  # a page from the future is not current either
    assert load_state(db, tid).seq == state.seq


def test_known_names_most_recent_first_without_those_registered(db: Database) -> None:
    for name, at in (("Ann", 10.0), ("Bob", 30.0), ("Cid", 20.0), ("Dee", 30.0), ("Dee", 30.0)):
        night_commands.remember_name(db, name, at)
    db.conn.commit()
    assert night_commands.known_names(db) == ["Dee", "Bob", "Cid", "Ann"]  # Dee: same time, used twice
    assert night_commands.known_names(db, limit=2) == ["Dee", "Bob"]
    tid = create_tournament(db, {"name": "Friday"}, 100.0)
    state = night_commands.register_player(db, tid, "bob", None, 5.0)  # older than Bob's last night
    assert night_commands.known_names(db, state) == ["Dee", "Cid", "Ann"]  # "bob" is Bob: left out


def test_remember_name_counts_the_nights_and_keeps_the_latest_spelling(db: Database) -> None:
    night_commands.remember_name(db, "dana", 10.0)
    night_commands.remember_name(db, "Dana", 20.0)
    db.conn.commit()
    assert remembered(db) == [("Dana", 20.0, 2)]


def test_create_tournament_reads_a_form_with_blank_fields_left_out(db: Database) -> None:
    tid = create_tournament(db, {"name": " Friday  night ", "table_size": "6", "buy_in": ""}, 100.0)
    state = load_state(db, tid)
    assert state.name == "Friday night"
    assert (state.settings.table_size, state.settings.buy_in) == (6, 20)
    assert load_events(db, tid)[0].payload["preset"] == "home-short"


def test_tournament_payload_refuses_an_unknown_preset_and_a_structure_as_text() -> None:
    with pytest.raises(InvalidInput, match=r"^There is no preset 'nope': choose one of sng-1000, "):
        tournament_payload({"name": "x", "preset": "nope"})
    with pytest.raises(InvalidInput, match=r"^The structure must be given as levels, not as text\.$"):
        tournament_payload({"name": "x", "structure": "15 minute levels"})
    payload = tournament_payload({"name": "x", "csrf_token": "t", "expected_seq": 3})
    assert "csrf_token" not in payload and "expected_seq" not in payload
    assert payload["starting_stack"] == 10_000 and payload["structure"]["items"]


def test_the_draw_needs_two_players_and_the_moves_someone_to_move(db: Database) -> None:
    tid = night(db, names=("Ann",))
    with pytest.raises(InvalidInput, match=r"^Register at least 2 players before the seat draw; 1 registered\.$"):
        draw(db, tid, None, 110.0)
    tid = night(db, drawn=True)
    with pytest.raises(IllegalAction, match=r"^The tables are balanced: nobody needs to move\.$"):  # one command, one sentence
        apply_table_step(db, tid, None, 120.0)
    with pytest.raises(StaleWrite):
        apply_table_step(db, tid, 1, 120.0)


def test_add_time_is_a_minute_unless_told_and_a_bust_keeps_its_winner(db: Database) -> None:
    tid = night(db, drawn=True)
    night_commands.clock_action(db, tid, "start", None, 200.0)
    night_commands.clock_action(db, tid, "add_time", None, 210.0)
    night_commands.clock_action(db, tid, "add_time", None, 211.0, seconds=-30)
    night_commands.bust(db, tid, [3], None, 220.0, by=1, stacks={3: 500})
    *_, plus, minus, bust = load_events(db, tid)
    assert plus.payload == {"action": "add_time", "seconds": 60}
    assert minus.payload == {"action": "add_time", "seconds": -30}
    assert bust.payload == {"players": [3], "by": 1, "stacks": {"3": 500}}
    state = load_state(db, tid)
    assert state.eliminated_by() == {3: 1} and state.place_of(3) == 3
    with pytest.raises(EngineError):
        night_commands.rebuy(db, tid, 3, None, 230.0)  # no rebuys in this tournament
    assert load_state(db, tid).seq == state.seq
