"""The table model both games share (``engine.table``): a hand dealt at a table, its entries
and one undo mechanism."""

from __future__ import annotations

import pytest

from engine.cash import LiveHand
from engine.dealing import TableHand
from engine.errors import IllegalAction
from engine.hand import HandSetup
from engine.positions import first_positions
from engine.table import Dealt


def dealt() -> Dealt:
    positions = first_positions({1, 2, 3}, 1)
    setup = HandSetup(
        stacks={1: 1_000, 2: 1_000, 3: 1_000},
        button=positions.button,
        small_blind_seat=positions.small_blind,
        big_blind_seat=positions.big_blind,
        small_blind=10,
        big_blind=20,
    )
    return Dealt(table=4, setup=setup, positions=positions, started_at=0.0)


def test_both_games_keep_their_hands_as_the_shared_record():
    assert issubclass(TableHand, Dealt) and issubclass(LiveHand, Dealt)


def test_each_entry_keeps_the_record_before_it_and_undo_walks_back_to_the_deal():
    first = dealt()
    hand = first.after(["p1 cbr 60"])
    second = first.step(log=tuple(hand.log))
    third = second.step(log=tuple(second.after(["p2 f"]).log))
    assert third.log == ("p1 cbr 60", "p2 f")
    back = third.undone()
    assert back == second and back.log == second.log and back.undone() == first
    assert first.undone() is None  # the deal itself is taken back
    assert second.replay().turn == 2


def test_redo_walks_forward_again_until_the_next_entry():
    """Issue "The table's accidents", part 5: undo several steps, then redo them, until a new
    entry makes the redo stack empty."""
    first = dealt()
    second = first.step(log=tuple(first.after(["p1 cbr 60"]).log))
    third = second.step(log=tuple(second.after(["p2 f"]).log))
    back = third.undone().undone()
    assert back.log == () and back.redone().log == ("p1 cbr 60",)
    assert back.redone().redone().log == ("p1 cbr 60", "p2 f")
    assert back.redone().redone().redone() is None
    fresh = back.redone().step(log=tuple(second.after(["p2 cc"]).log))
    assert fresh.redone() is None and fresh.undone().redone() is not None


def test_a_showdown_entered_together_is_taken_back_whole():
    start = dealt()
    called = start.step(log=tuple(start.after(["p1 cbr 1000", "p2 cc", "p3 f"]).log))
    showdown = ["d db AhKd7c2s9h", "p1 sm AsAd", "p2 sm KcKs", "d win cards"]
    over = called.step(log=tuple(called.after(showdown).log))
    assert over.replay().is_complete
    assert over.undone() == called and not called.replay().is_complete


def test_an_entry_after_the_hand_is_over_is_refused_naming_the_table():
    start = dealt()
    over = start.step(log=tuple(start.after(["p1 f", "p2 f"]).log))
    with pytest.raises(IllegalAction, match=r"The hand at table 4 is over: 'p3 f' comes too late"):
        over.after(["p3 f"])
