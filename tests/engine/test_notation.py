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
        "seat 3 wins the main pot; seat 5 and seat 7 split side pot 1",
        "seat 4 shows AsKd",
        "seat 4 mucks",
    ]


def test_read_in_the_hand_the_words_tell_a_check_from_a_call_with_the_amounts() -> None:
    """One describer for every history: with the hand as it stood before the entry, the
    words say what the entry did there (``calls 200``, not ``checks or calls``), the street the
    board cards began, and who won how much."""
    from engine.hand import Hand, HandSetup

    hand = Hand(HandSetup({1: 1000, 2: 1000, 3: 300}, button=1, small_blind_seat=2, big_blind_seat=3,
                          small_blind=50, big_blind=100))
    names = {1: "Ann", 2: "Bob", 3: "Cy"}
    said = [notation.describe(e, names, hand) for e in
            ("p1 cbr 300", "p2 cc", "p3 cc", "d db AsKd2c", "p2 cbr 500", "p1 f")]
    assert said == ["Ann raises to 300", "Bob calls 300", "Cy calls all in for 300",
                    "the flop is As Kd 2c", "Bob bets 500", "Ann folds"]
    assert notation.describe("p2 cc", names) == "Bob checks or calls"  # the entry alone
    assert notation.describe("p9 f", names) == "seat 9 folds"  # a seat nobody named
