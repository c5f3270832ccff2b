"""A table break and the final table while hands are running, in the engine's fold (TDA 2.5,
2.6, 20; WSOP 67)."""

from __future__ import annotations

import random

import pytest

from engine.errors import IllegalAction
from engine.seating import next_step
from engine.tournament import Tournament
from tests.engine.test_dealing import Night

NAMES = [f"P{n}" for n in range(1, 14)]
#: Thirteen players over three tables of six, as the draw spreads them: 5, 4 and 4.
SEATS = {**{p: (1, p) for p in range(1, 6)}, **{p: (2, p - 5) for p in range(6, 10)},
         **{p: (3, p - 9) for p in range(10, 14)}}


def confirm(night: Night) -> Tournament:
    """The director records the moves shown (``tables.confirm``)."""
    step = next_step(night.state.seating, random.Random(1))
    moves = [{"player": m.player, "from": [m.from_table, m.from_seat], "to": [m.to_table, m.to_seat]}
             for m in step.moves]
    return night.add("players_moved", {"moves": moves, "kind": step.action})


def test_a_table_whose_break_is_announced_deals_no_new_hand() -> None:
    """TDA 2.5: once a bust leaves players who fit at one table fewer, the table next in
    breaking order deals no new hand until the director records its moves; the others deal."""
    night = Night(NAMES, SEATS, {1: 1, 2: 1, 3: 1})
    night.add("bust", {"players": [1], "by": 2})
    with pytest.raises(IllegalAction, match=r"^Table 3 breaks: its players are about to get new seats, so no new "
                                            r"hand is dealt here\.$"):
        night.deal(3)
    night.deal(2)


def test_a_break_recorded_during_the_tables_hand_happens_when_it_is_awarded() -> None:
    """TDA 20: the players of a table broken while its hand runs finish the hand there; the
    table stays in play until it is awarded, then they sit at their new seats with the stacks
    that hand left them, and a deal there says where they went."""
    night = Night(NAMES, SEATS, {1: 1, 2: 1, 3: 1})
    night.deal(3)
    night.add("bust", {"players": [1], "by": 2})
    state = confirm(night)
    assert state.breaking_tables == (3,) and state.tables_in_play == (1, 2, 3)
    night.fold_round(3)
    state = night.state
    assert state.breaking_tables == () and state.tables_in_play == (1, 2) and state.moves_waiting == ()
    hand = state.dealing.current(3)
    assert hand is not None and hand.finished
    finishing = {pid: dict(hand.finishing_stacks)[seat] for seat, pid in hand.players}
    for table in (1, 2):  # each table deals its new players in, with their stacks from that hand
        dealt = night.deal(table)
        stacks = {pid: dealt.setup.stacks[seat] for seat, pid in dealt.players}
        assert all(stacks[pid] == finishing[pid] for pid in finishing if state.seating.seat_of(pid)[0] == table)
    assert all(pid in {p for _, p in night.state.dealing.running(t).players}  # type: ignore[union-attr]
               for pid in finishing for t in (state.seating.seat_of(pid)[0],) if finishing[pid])
    with pytest.raises(IllegalAction, match=r"^Table 3 has broken, so no hand is played here: P\d+ is at table"):
        night.deal(3)
    with pytest.raises(IllegalAction, match=r"^Table 3 has broken"):
        night.act("p1 f", table=3)


def test_the_final_table_drawn_during_a_hand_takes_its_players_after_it() -> None:
    """TDA 2.6: no table deals once everyone fits at the final table until its seats are drawn;
    drawn while a hand runs at table 2, that table stays in play to finish it, and its players
    are dealt in at the final table once it is over (TDA 20)."""
    seats = {1: (1, 1), 2: (1, 2), 3: (1, 3), 4: (1, 4), 5: (2, 1), 6: (2, 2), 7: (2, 3)}
    night = Night(NAMES[:7], seats, {1: 1, 2: 1})
    night.deal(2)
    night.add("bust", {"players": [1], "by": 2})
    with pytest.raises(IllegalAction, match=r"^6 players fit at the final table"):
        night.deal(1)
    step = next_step(night.state.seating, random.Random(1))
    night.add("seats_drawn", {"seats": {str(p): [t, s] for t, s, p in step.seating}, "buttons": {"1": 1},
                              "kind": "final"})
    assert night.state.breaking_tables == (2,) and night.state.tables_in_play == (1, 2)
    night.fold_round(2)
    assert night.state.tables_in_play == (1,)
    assert len(night.deal(1).players) == 6
