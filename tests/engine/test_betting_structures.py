"""Pot-limit and fixed-limit betting, rule by rule (TDA 47-B, 48, 54; the corner cases T34 and
T40 of the rules' section 9; the issue on games for the cap). No-limit is tests/engine/test_hand.py."""

from __future__ import annotations

import pytest

from engine.errors import IllegalAction, InvalidInput
from engine.hand import Hand, HandSetup


def hand(
    betting: str,
    stacks: list[int] | None = None,
    sb: int | None = 2,
    blinds: tuple[int, int] = (100, 200),
    **kwargs: object,
) -> Hand:
    """Seats 1-5 (or as many as ``stacks``), button 1, small blind 2, big blind 3: seat 4 acts
    first before the flop."""
    stacks = stacks or [10_000] * 5
    return Hand(
        HandSetup(
            {i + 1: s for i, s in enumerate(stacks)}, 1, sb, 3, blinds[0], blinds[1],
            betting=betting, **kwargs,  # type: ignore[arg-type]
        )
    )


def refused(call, *args) -> str:
    with pytest.raises(IllegalAction) as info:
        call(*args)
    return str(info.value)


# ---------------------------------------------------------------------------- pot limit


def test_t40_pot_limit_with_a_dead_small_blind_the_first_players_most_is_700():
    """T40: "PLO 100-200 with a dead SB, or with the BB short at 100: the first player's
    maximum is 700." TDA 54: "Pre-flop, calculate as if full blinds were posted even if a
    blind is dead or short"."""
    h = hand("pot-limit", sb=None)
    legal = h.legal_actions()
    assert legal is not None and legal.seat == 4
    assert (legal.min_bet_or_raise_to, legal.max_bet_or_raise_to, legal.pot_to) == (400, 700, 700)
    assert refused(h.raise_to, 4, 701) == "Pot limit: the most seat 4 can raise to is 700."
    assert h.raise_to(4, 700).to == 700


def test_t40_pot_limit_with_the_big_blind_short_at_100_the_first_players_most_is_700():
    """T40, the short big blind: the big blind is all in for 100 of its 200."""
    h = hand("pot-limit", stacks=[10_000, 10_000, 100, 10_000, 10_000])
    legal = h.legal_actions()
    assert legal is not None and legal.call_amount == 200  # the full big blind to call (TDA 4.16)
    assert legal.max_bet_or_raise_to == 700
    assert h.can_raise_to(4, 700) and not h.can_raise_to(4, 701)


def test_pot_limit_with_full_blinds_is_the_pot_after_the_call():
    """TDA 54: pot limit counts the pot; with both blinds posted, 300 + the call of 200 makes
    500, a raise to 700; the next player faces 700: 1,000 in the pot + the call 700 = 1,700
    over the 700, a raise to 2,400."""
    h = hand("pot-limit")
    assert h.legal_actions().max_bet_or_raise_to == 700  # type: ignore[union-attr]
    h.raise_to(4, 700)
    assert h.legal_actions().max_bet_or_raise_to == 2400  # type: ignore[union-attr]
    assert refused(h.raise_to, 5, 2500) == "Pot limit: the most seat 5 can raise to is 2,400."
    h.raise_to(5, 2400)


def test_pot_limit_after_the_flop_uses_the_actual_pot():
    """TDA 54: "Post-flop, use the actual pot." A dead small blind no longer counts."""
    h = hand("pot-limit", sb=None)
    for seat in (4, 5, 1, 2):
        h.call(seat)
    h.check(3)
    assert h.street == "flop" and h.pots()[0].amount == 1000
    legal = h.legal_actions()
    assert legal is not None and legal.seat == 2
    assert (legal.min_bet_or_raise_to, legal.max_bet_or_raise_to, legal.raise_word) == (200, 1000, "bet")
    assert refused(h.bet_to, 2, 1100) == "Pot limit: the most seat 2 can bet is 1,000."
    h.bet_to(2, 1000)
    assert h.legal_actions().max_bet_or_raise_to == 1000 + 2000 + 1000  # type: ignore[union-attr]


def test_pot_limit_all_in_only_when_the_stack_is_within_the_pot():
    h = hand("pot-limit", stacks=[10_000, 10_000, 10_000, 600, 10_000])
    legal = h.legal_actions()
    assert legal is not None and legal.can_all_in and legal.max_bet_or_raise_to == 600
    h.all_in(4)
    legal = h.legal_actions()
    assert legal is not None and legal.seat == 5 and not legal.can_all_in
    assert refused(h.all_in, 5) == "Pot limit: the most seat 5 can raise to is 2,100."


# ---------------------------------------------------------------------------- fixed limit


def test_fixed_limit_every_bet_and_raise_is_one_bet_of_the_street():
    """Fixed limit 100/200: the small bet (200) before the flop and on the flop, the big bet
    (400) on the turn and river."""
    h = hand("fixed-limit")
    legal = h.legal_actions()
    assert legal is not None and (legal.min_bet_or_raise_to, legal.max_bet_or_raise_to) == (400, 400)
    assert refused(h.raise_to, 4, 500) == "Limit: seat 4 cannot raise to 500; the raise is to 400."
    assert refused(h.all_in, 4) == "Limit: seat 4 cannot raise to 10,000; the raise is to 400."
    h.raise_to(4, 400)
    for seat in (5, 1, 2, 3):
        h.call(seat)
    assert h.street == "flop" and h.legal_actions().min_bet_or_raise_to == 200  # type: ignore[union-attr]
    h.bet_to(2, 200)
    for seat in (3, 4, 5, 1):
        h.call(seat)
    assert h.street == "turn"
    assert refused(h.bet_to, 2, 200) == "Limit: seat 2 cannot bet 200; the bet is 400."
    h.bet_to(2, 400)


def test_fixed_limit_cap_a_bet_and_three_raises_the_big_blind_the_bet_before_the_flop():
    """The issue on games: "a cap of a bet and three raises per street by default (the house
    may set four)". Before the flop the big blind is the bet: three raises, to 800."""
    h = hand("fixed-limit")
    assert h.legal_actions().raises_left == 3  # type: ignore[union-attr]
    h.raise_to(4, 400)
    h.raise_to(5, 600)
    h.raise_to(1, 800)
    legal = h.legal_actions()
    assert legal is not None and legal.raises_left == 0 and legal.min_bet_or_raise_to is None
    assert not legal.can_all_in and legal.call_amount == 700
    assert refused(h.raise_to, 2, 1000) == (
        "Seat 2 cannot raise: the betting is capped at a bet and 3 raises; seat 2 may only call or fold."
    )
    # The flop: a bet and three raises again.
    for seat in (2, 3, 4, 5):
        h.call(seat)
    h.bet_to(2, 200)
    h.raise_to(3, 400)
    h.raise_to(4, 600)
    h.raise_to(5, 800)
    assert not h.can_raise_to(1, 1000)


def test_fixed_limit_the_house_may_allow_a_bet_and_four_raises():
    h = hand("fixed-limit", raise_cap=5)
    for seat, to in ((4, 400), (5, 600), (1, 800), (2, 1000)):
        h.raise_to(seat, to)
    assert not h.can_raise_to(3, 1200)
    assert "a bet and 4 raises" in refused(h.raise_to, 3, 1200)


def test_fixed_limit_cap_lifted_when_two_players_are_left_in_the_hand():
    """The issue on games: the cap is "lifted when only two players are left in the hand"."""
    h = hand("fixed-limit", stacks=[10_000] * 3)  # seat 1 the button acts first
    h.raise_to(1, 400)
    h.fold(2)
    assert h.legal_actions().raises_left is None  # type: ignore[union-attr]
    for seat, to in ((3, 600), (1, 800), (3, 1000), (1, 1200)):
        h.raise_to(seat, to)
    assert h.can_raise_to(3, 1400)


def test_fixed_limit_cap_kept_heads_up_when_the_house_says_so():
    """TDA 48: "In limit the house cap applies even heads-up, until the whole event is down to
    2 players"."""
    h = hand("fixed-limit", stacks=[10_000] * 3, cap_heads_up=True)
    h.raise_to(1, 400)
    h.fold(2)
    h.raise_to(3, 600)
    h.raise_to(1, 800)
    assert not h.can_raise_to(3, 1000)


def test_t34_limit_an_all_in_of_half_a_bet_reopens_the_betting():
    """T34: "Limit: an all-in of at least 50% of a bet reopens betting; below 50% it does not
    (TDA 47-B)." On the flop (a bet of 200), seat 2 bets 200, seat 3 is all in for 300 (half a
    bet more), seat 4 calls: seat 2 may raise, to 500."""
    h = hand("fixed-limit", stacks=[10_000, 10_000, 500, 10_000, 10_000])
    for seat in (4, 5, 1, 2):
        h.call(seat)
    h.check(3)
    h.bet_to(2, 200)
    h.all_in(3)
    h.call(4)
    h.fold(5)
    h.fold(1)
    legal = h.legal_actions()
    assert legal is not None and legal.seat == 2 and legal.min_bet_or_raise_to == 500
    h.raise_to(2, 500)


def test_t34_limit_an_all_in_of_less_than_half_a_bet_does_not_reopen():
    """T34, below 50 %: seat 3 is all in for 290 over a bet of 200 (90 more: under half a bet).
    Seat 4, who has not acted, may raise; seat 2, who bet, may then only call or fold."""
    h = hand("fixed-limit", stacks=[10_000, 10_000, 490, 10_000, 10_000])
    for seat in (4, 5, 1, 2):
        h.call(seat)
    h.check(3)
    h.bet_to(2, 200)
    h.all_in(3)
    assert h.legal_actions().min_bet_or_raise_to == 490  # type: ignore[union-attr]
    h.call(4)
    h.fold(5)
    h.fold(1)
    legal = h.legal_actions()
    assert legal is not None and legal.seat == 2 and legal.min_bet_or_raise_to is None and legal.call_amount == 90
    assert refused(h.raise_to, 2, 490) == (
        "Seat 2 cannot raise to 490: the short all-in did not reopen the betting; seat 2 may only call 90 or fold."
    )


# ---------------------------------------------------------------------------- the pot button and the setup


def test_the_pot_button_in_no_limit_is_the_pot_after_the_call():
    h = hand("no-limit")
    legal = h.legal_actions()
    assert legal is not None and legal.pot_to == 700 and legal.max_bet_or_raise_to == 10_000
    assert legal.raises_left is None


def test_a_setup_with_an_unknown_betting_or_cap_is_refused():
    with pytest.raises(InvalidInput, match="The betting must be one of no-limit, pot-limit, fixed-limit, not spread"):
        hand("spread")
    with pytest.raises(InvalidInput, match="The cap must be from 2 to 10"):
        hand("fixed-limit", raise_cap=1)
