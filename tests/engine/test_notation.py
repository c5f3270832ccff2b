"""engine.notation: every entry of a hand's log is parsed, written and described in one place."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine import notation
from engine.errors import InvalidInput

seats = st.integers(min_value=1, max_value=10)
cards = st.sampled_from(["AsKd", "7c7d", "2c3d4h", "9s", "Th"])


@st.composite
def entries(draw: st.DrawFn) -> str:
    kind = draw(st.sampled_from(["f", "cc", "cbr", "show", "muck", "unknown", "db", "dh", "win", "cards"]))
    seat = draw(seats)
    return {
        "f": lambda: notation.fold(seat),
        "cc": lambda: notation.check_or_call(seat),
        "cbr": lambda: notation.bet_or_raise(seat, draw(st.integers(1, 10**9))),
        "show": lambda: notation.show(seat, draw(cards)),
        "muck": lambda: notation.muck(seat),
        "unknown": lambda: notation.show(seat, None),
        "db": lambda: notation.board(draw(cards)),
        "dh": lambda: notation.hole(seat, draw(cards)),
        "win": lambda: notation.award(draw(st.lists(st.lists(seats, min_size=1, max_size=3), min_size=1, max_size=3))),
        "cards": lambda: notation.award(None),
    }[kind]()


@given(entries())
def test_what_is_written_parses_back_to_the_same_text(text: str) -> None:
    assert notation.write(notation.parse(text)) == text
    assert notation.describe(text) != text  # every entry has words


def test_the_entries_of_a_hand() -> None:
    assert notation.parse("p3 cbr 600") == notation.Entry("cbr", 3, amount=600)
    assert notation.parse("p3 sm") == notation.Entry("sm", 3, mucked=True)
    assert notation.parse("p3 sm ????") == notation.Entry("sm", 3)  # shown, not known
    assert notation.parse("d win 3;5,7").winners == ((3,), (5, 7))
    assert notation.parse("d win cards").winners is None
    assert notation.parse("p2 cc # a comment").verb == "cc"


@pytest.mark.parametrize("text", ["", "p3", "p0 f", "px f", "p3 cbr", "p3 cbr -5", "p3 raise 600", "d win 3;x", "d db"])
def test_anything_else_is_refused_with_the_entry(text: str) -> None:
    with pytest.raises(InvalidInput, match="is not an action this hand understands"):
        notation.parse(text)


def test_described_for_the_history() -> None:
    assert [notation.describe(e) for e in ("p3 cbr 1200", "d win 3;5,7", "p4 sm AsKd", "p4 sm")] == [
        "seat 3 bets or raises to 1,200",
        "pots awarded: seat 3; seats 5 and 7",
        "seat 4 shows AsKd",
        "seat 4 mucks",
    ]
