"""House rules: silent chip pushes (TDA 4.3–4.6, seed 002) and action out of turn (TDA 53)."""

from __future__ import annotations

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from engine.errors import IllegalAction, InvalidInput
from engine.hand import Hand, HandSetup
from engine.houserules import record_out_of_turn, resolve_out_of_turn, silent_push


def four_handed(stacks: int = 10_000, small: int = 250, big: int = 500) -> Hand:
    """Seats 1-4, button 4: seat 1 small blind, seat 2 big blind, seat 3 first to act."""
    return Hand(HandSetup({s: stacks for s in (1, 2, 3, 4)}, 4, 1, 2, small, big))


def flop_with_open(open_to: int) -> Hand:
    """Blinds 250/500, everyone calls; on the flop seat 1 opens to ``open_to``: seat 2 to act."""
    hand = four_handed()
    for seat in (3, 4, 1):
        hand.call(seat)
    hand.check(2)
    assert hand.street == "flop" and hand.turn == 1
    hand.bet_to(1, open_to)
    return hand


def test_tda_43a_t28_a_silent_1400_facing_an_open_of_1000_is_a_call() -> None:
    """TDA 4.3, T28: facing an open of 1000 with chips behind, a silent 1400 is a call."""
    hand = flop_with_open(1000)
    ruling = silent_push(hand, 2, [1000, 100, 100, 100, 100])
    assert (ruling.kind, ruling.to, ruling.notation, ruling.returned) == ("call", 1000, "p2 cc", 400)
    assert ruling.rule == (
        "Seat 2 pushed 1,400 facing 1,000: the raise of 400 is less than half the minimum raise of "
        "1,000, so it is a call (TDA 43-A); 400 goes back."
    )


def test_tda_43a_t28_exactly_half_the_raise_must_be_completed() -> None:
    """TDA 4.3, T28: 1500 (exactly 50%) must become a raise to 2000."""
    hand = flop_with_open(1000)
    ruling = silent_push(hand, 2, [1000, 500])
    assert (ruling.kind, ruling.to, ruling.notation, ruling.added) == ("raise", 2000, "p2 cbr 2000", 500)
    assert "at least half the minimum raise of 1,000, so it must be completed to 2,000 (TDA 43-A)" in ruling.rule
    hand.apply(ruling.notation)  # the engine takes it
    assert hand.bets()[2] == 2000


def t29() -> Hand:
    """T29: 250-500, UTG (seat 3) raises to 1100; seat 4 (nothing in) to act."""
    hand = four_handed()
    hand.raise_to(3, 1100)
    return hand


def test_tda_45_t29_every_chip_needed_to_call_is_a_call() -> None:
    """TDA 4.5, T29: 250-500, UTG raises to 1100: 1000+500 silently is a call (every chip is
    needed to make the call), 400 goes back."""
    ruling = silent_push(t29(), 4, [1000, 500])
    assert (ruling.kind, ruling.to, ruling.returned) == ("call", 1100, 400)
    assert "every chip was needed to call, so it is a call (TDA 45)" in ruling.rule


def test_tda_45_t29_five_extra_hundreds_must_raise_to_1700() -> None:
    """TDA 4.5, T29: 1000 + five 100s must raise to 1700 (the 50% standard applies)."""
    ruling = silent_push(t29(), 4, [1000, 100, 100, 100, 100, 100])
    assert (ruling.kind, ruling.to, ruling.notation) == ("raise", 1700, "p4 cbr 1700")


def test_tda_45_t29_three_extra_hundreds_is_a_call_and_200_returned() -> None:
    """TDA 4.5, T29 (Addendum 45): 1000 + three 100s is a call, 200 returned."""
    ruling = silent_push(t29(), 4, [1000, 100, 100, 100])
    assert (ruling.kind, ruling.to, ruling.returned) == ("call", 1100, 200)


def test_tda_44_t30_one_oversized_chip_facing_400_is_a_call() -> None:
    """TDA 4.5, T30: facing 400, a silent 1000 chip is a call."""
    hand = Hand(HandSetup({1: 5000, 2: 5000, 3: 5000}, 3, 1, 2, 100, 200))
    hand.raise_to(3, 400)
    ruling = silent_push(hand, 1, [1000])
    assert (ruling.kind, ruling.to, ruling.returned) == ("call", 400, 700)  # 100 was in as the small blind
    assert ruling.rule == (
        "Seat 1 pushed 1,000 (1,100 in all) facing 400: one oversized chip without a word is a call "
        "(TDA 44); 700 goes back."
    )


def test_tda_44_t30_raise_declared_before_the_chip_lands_is_a_raise_to_its_value() -> None:
    """TDA 4.5, T30: "Raise" said before the chip lands: raise to 1000 total. A declared
    raise is entered as the action, not as a silent push."""
    hand = Hand(HandSetup({1: 5000, 2: 5000, 3: 5000}, 3, 1, 2, 100, 200))
    hand.raise_to(3, 400)
    assert hand.raise_to(1, 1000).to == 1000


def test_tda_44_t30_one_chip_with_no_bet_pending_is_a_bet_of_its_value() -> None:
    """TDA 4.5, T30: no bet pending, a silent 1000 chip is a bet of 1000."""
    hand = flop_with_open(1000)
    hand.undo()  # back to seat 1 to act on the flop, nothing bet
    ruling = silent_push(hand, 1, [1000])
    assert (ruling.kind, ruling.to, ruling.notation) == ("bet", 1000, "p1 cbr 1000")
    assert ruling.rule == "Seat 1 pushed 1,000 with no bet to face: one chip is a bet of its full value (TDA 44)."


def test_a_bet_below_the_minimum_is_made_up_to_it() -> None:
    """TDA 4.10 (52-A): a bet below the legal minimum is corrected to it."""
    hand = flop_with_open(1000)
    hand.undo()
    ruling = silent_push(hand, 1, [100, 100])
    assert (ruling.to, ruling.added) == (500, 300)
    assert "made up to 500 (TDA 52-A)" in ruling.rule


def test_seed_002_string_bet_counts_only_as_a_call() -> None:
    """Seed 002: "Chips pushed out in several moves (a string bet) count only as a call."
    TDA 4.6 (42, 56): a raise must be made in one motion."""
    hand = flop_with_open(1000)
    ruling = silent_push(hand, 2, [1000, 1000, 1000], string_bet=True)
    assert (ruling.kind, ruling.to, ruling.returned) == ("call", 1000, 2000)
    assert "string bet: it counts only as a call (TDA 42, 56); 2,000 goes back" in ruling.rule


def test_a_string_bet_with_nothing_to_call_is_a_check() -> None:
    """TDA 55: "call" with no bet is a check."""
    hand = flop_with_open(1000)
    hand.undo()
    ruling = silent_push(hand, 1, [500, 500], string_bet=True)
    assert (ruling.kind, ruling.notation, ruling.returned) == ("check", "p1 cc", 1000)


def test_tda_45_the_last_chips_are_all_in() -> None:
    """TDA 4.5 (45): if the player bets their last chips, it is all-in."""
    hand = Hand(HandSetup({1: 5000, 2: 5000, 3: 800}, 3, 1, 2, 100, 200))
    ruling = silent_push(hand, 3, [500, 100, 100, 100])
    assert (ruling.kind, ruling.to, ruling.notation) == ("all-in", 800, "p3 cbr 800")


def test_tda_51b_less_than_the_call_must_be_a_full_call() -> None:
    """TDA 4.9 (51-B, T37): facing the opening bet, an undercall is made a full call."""
    ruling = silent_push(t29(), 4, [500, 100])
    assert (ruling.kind, ruling.to, ruling.added) == ("call", 1100, 500)


def test_a_push_when_the_betting_was_not_reopened_is_a_call() -> None:
    """TDA 4.4 (47-A): a short all-in does not reopen the betting; extra chips are a call."""
    hand = Hand(HandSetup({1: 5000, 2: 5000, 3: 5000, 4: 700}, 4, 1, 2, 100, 200))
    hand.raise_to(3, 500)
    hand.all_in(4)  # 700: not a full raise over 500
    hand.fold(1)
    hand.call(2)
    assert hand.turn == 3
    ruling = silent_push(hand, 3, [100, 100, 100, 100, 100])
    assert (ruling.kind, ruling.to) == ("call", 700)
    assert "may not raise" in ruling.rule


def test_pushes_are_checked() -> None:
    hand = t29()
    with pytest.raises(IllegalAction, match=r"^It is seat 4's turn, not seat 1's\.$"):
        silent_push(hand, 1, [1000])
    with pytest.raises(InvalidInput, match=r"^Seat 4 cannot push 20,000: they have only 10,000 chips behind\.$"):
        silent_push(hand, 4, [10_000, 10_000])
    with pytest.raises(InvalidInput):
        silent_push(hand, 4, [])


@given(
    stacks=st.lists(st.integers(min_value=1, max_value=3000), min_size=2, max_size=6),
    script=st.lists(st.integers(min_value=0, max_value=10_000), max_size=12),
    pushes=st.lists(st.sampled_from([5, 25, 100, 500, 1000]), min_size=1, max_size=6),
    string_bet=st.booleans(),
)
# Found by this test: an all-in push by a seat the short all-in did not reopen the betting
# for is a call, and chips pushed when everyone else is all-in are a check (TDA 45).
@example(stacks=[41, 45], script=[0, 0], pushes=[5], string_bet=False)
@example(stacks=[1, 41, 46], script=[0, 32, 1], pushes=[5], string_bet=False)
def test_every_ruling_is_an_action_the_engine_accepts(
    stacks: list[int], script: list[int], pushes: list[int], string_bet: bool
) -> None:
    """Whatever chips are pushed, the ruling is legal and moves the chips it says."""
    seats = {k + 1: s for k, s in enumerate(stacks)}
    hand = Hand(HandSetup(seats, len(seats), 1 if len(seats) > 2 else 2, 2 if len(seats) > 2 else 1, 10, 20))
    for step in script:  # play a little first, with legal actions only
        legal = hand.legal_actions()
        if legal is None:
            break
        if legal.min_bet_or_raise_to is not None and step % 3 == 0:
            hand.bet_or_raise_to(legal.seat, min(legal.max_bet_or_raise_to or 0, legal.min_bet_or_raise_to + step % 97))
        elif step % 5 == 1 and legal.can_fold:
            hand.fold(legal.seat)
        else:
            hand.check_or_call(legal.seat)
    seat = hand.turn
    if seat is None:
        return
    behind = hand.stacks()[seat]
    chips = []
    for chip in pushes:
        if sum(chips) + chip <= behind:
            chips.append(chip)
    if not chips:
        return
    ruling = silent_push(hand, seat, chips, string_bet=string_bet)
    before = hand.bets()[seat] + hand.stacks()[seat]
    hand.apply(ruling.notation)
    action = hand.actions[-1]
    assert hand.stacks()[seat] + (hand.bets()[seat] if hand.street == action.street else 0) <= before
    assert ruling.to == action.to or ruling.kind == "all-in" or action.all_in
    assert ruling.returned == 0 or ruling.added == 0


# ------------------------------------------------------------------ out of turn


def t36() -> Hand:
    """Addendum 53 Ex1: seat 5 faces a 300 bet; seat 6 says "raise to 800" out of turn."""
    hand = Hand(HandSetup({4: 5000, 5: 5000, 6: 5000, 1: 5000}, 1, 4, 5, 50, 100))
    hand.call(6)
    hand.call(1)
    hand.call(4)
    hand.check(5)
    assert hand.street == "flop" and hand.turn == 4
    hand.bet_to(4, 300)
    assert hand.turn == 5
    return hand


def test_tda_53_t36_oot_raise_binds_when_seat_5_calls() -> None:
    """TDA 4.8, T36: seat 6 says "raise to 800" while seat 5 faces a 300 bet. Seat 5 calls or
    folds: seat 6 is bound to 800."""
    for action in ("call", "fold"):
        hand = t36()
        pending = record_out_of_turn(hand, "p6 cbr 800")
        getattr(hand, action)(5)
        resolution = resolve_out_of_turn(hand, pending)
        assert resolution.binds and resolution.notation == "p6 cbr 800"
        assert resolution.message == (
            "Seat 6's bet or raise to 800 out of turn is binding: the action to them did not change (TDA 53)."
        )


def test_tda_53_t36_oot_raise_is_withdrawn_when_seat_5_raises() -> None:
    """TDA 4.8, T36: seat 5 raises to 600: seat 6 takes the chips back and may call 600,
    raise to at least 900, or fold."""
    hand = t36()
    pending = record_out_of_turn(hand, "p6 cbr 800")
    hand.raise_to(5, 600)
    resolution = resolve_out_of_turn(hand, pending)
    assert not resolution.binds and resolution.notation is None
    assert "withdrawn: the action to them changed (the bet is now 600)" in resolution.message
    legal = hand.legal_actions()
    assert legal is not None and legal.seat == 6
    assert (legal.call_amount, legal.min_bet_or_raise_to, legal.can_fold) == (600, 900, True)


def test_tda_53_58_an_oot_fold_is_always_binding() -> None:
    """TDA 4.8, T36: an out-of-turn fold is always binding, even when the action changed."""
    hand = t36()
    pending = record_out_of_turn(hand, "p6 f")
    hand.raise_to(5, 600)
    resolution = resolve_out_of_turn(hand, pending)
    assert resolution.binds and resolution.notation == "p6 f"


def test_an_oot_action_waits_for_its_turn_and_is_checked() -> None:
    hand = t36()
    pending = record_out_of_turn(hand, "p6 cc")
    with pytest.raises(IllegalAction, match="It is not seat 6's turn yet"):
        resolve_out_of_turn(hand, pending)
    with pytest.raises(InvalidInput, match="is not an action"):
        record_out_of_turn(hand, "p6 raise")
    with pytest.raises(IllegalAction, match=r"^Seat 9 is not in this hand\.$"):
        record_out_of_turn(hand, "p9 f")
    with pytest.raises(IllegalAction, match="the most they have is 4,900"):
        record_out_of_turn(hand, "p6 cbr 6000")
