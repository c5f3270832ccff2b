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


def at_the_flop(betting: str, small: int, big: int, behind: int) -> Hand:
    """Seats 1-4, button 1, blinds on seats 2 and 3: seats 4 and 1 call the big blind, the small
    blind folds, the big blind checks. On the flop the pot is 3 x ``big`` + ``small``, and the
    big blind (seat 3), first to act, has ``behind`` chips left; the others cover it."""
    h = hand(betting, [100_000, 100_000, big + behind, 100_000], blinds=(small, big))
    h.call(4)
    h.call(1)
    h.fold(2)
    h.check(3)
    assert h.street == "flop" and h.turn == 3 and h.stacks()[3] == behind
    return h


# The figures of a night where half pot was taken of the pot capped at the stack: the pot, the
# player's stack, half pot as it must be, and what was shown (half of the capped pot).
NIGHT = [
    pytest.param(200, 6_500, 19_400, 19_700, 9_850, 9_700, id="9,850 not 9,700"),
    pytest.param(400, 13_100, 28_950, 39_700, 19_850, 14_475, id="19,850 not 14,475"),
    pytest.param(200, 4_300, 12_500, 13_100, 6_550, 6_250, id="6,550 not 6,250"),
]


@pytest.mark.parametrize("betting", ["no-limit", "pot-limit"])
@pytest.mark.parametrize(("small", "big", "behind", "pot", "half", "wrong"), NIGHT)
def test_half_pot_and_pot_come_from_the_whole_pot_then_the_stack_caps_them(
    betting: str, small: int, big: int, behind: int, pot: int, half: int, wrong: int
) -> None:
    """The pot-sized bet or raise is a raise "to" the amount to call plus the pot after calling;
    half pot the same with half the pot after calling. Both are worked out from the whole pot,
    then brought within the legal range (the minimum ... the player's all-in; in pot limit also
    the pot's most). A bet into 19,700 with 19,400 left: half pot 9,850, not half of 19,400."""
    h = at_the_flop(betting, small, big, behind)
    assert h.pots()[0].amount == pot
    legal = h.legal_actions()
    assert legal is not None and legal.raise_word == "bet" and legal.all_in_amount == behind
    assert legal.pot_raise_to == pot  # no bet to match: pot is the pot itself, however short the stack
    assert legal.half_pot_to == half == pot // 2 and half != wrong == behind // 2
    assert legal.pot_to == legal.max_bet_or_raise_to == behind  # the pot capped at the all-in
    h.bet_to(3, half)  # half pot is a legal bet


@pytest.mark.parametrize("betting", ["no-limit", "pot-limit"])
def test_facing_a_bet_pot_is_the_call_plus_the_pot_after_calling(betting: str) -> None:
    """A bet of 500 into a pot of 1,000: the call is 500 and the pot after it 2,000, so pot is a
    raise to 500 + 2,000 = 2,500 and half pot a raise to 500 + 1,000 = 1,500. A player with
    1,200 left has both capped at the all-in, and pot limit says the pot apart (2,500)."""
    h = at_the_flop(betting, 100, 300, 10_000)
    h.bet_to(3, 500)
    legal = h.legal_actions()
    assert legal is not None and legal.seat == 4
    assert (legal.min_bet_or_raise_to, legal.half_pot_to, legal.pot_to, legal.pot_raise_to) == (1000, 1500, 2500, 2500)
    short = Hand(HandSetup({1: 100_000, 2: 100_000, 3: 10_300, 4: 1_500}, 1, 2, 3, 100, 300, betting=betting))
    for act in (lambda: short.call(4), lambda: short.call(1), lambda: short.fold(2), lambda: short.check(3)):
        act()
    short.bet_to(3, 500)
    legal = short.legal_actions()
    assert legal is not None and legal.seat == 4 and legal.all_in_amount == 1200
    assert (legal.min_bet_or_raise_to, legal.half_pot_to, legal.pot_to, legal.pot_raise_to) == (1000, 1200, 1200, 2500)


def test_half_of_an_odd_pot_drops_the_odd_chip_and_never_falls_below_the_minimum() -> None:
    """25/50, seat 4 first: 75 in + the call 50 makes a pot of 125 after calling, a raise to
    50 + 125 = 175 for pot and to 50 + 62 = 112 for half. Facing a raise to 2,000 at 100/200:
    2,300 in + the call 2,000 = 4,300, half pot a raise to 4,150, above the minimum (3,800).
    A minimum bet above half the pot (here 1,000 into 600) is the least half pot offers."""
    h = hand("no-limit", blinds=(25, 50))
    legal = h.legal_actions()
    assert legal is not None and (legal.pot_raise_to, legal.pot_to, legal.half_pot_to) == (175, 175, 112)
    h = hand("no-limit", blinds=(100, 200), stacks=[10_000, 10_000, 10_000, 10_000, 10_000])
    h.raise_to(4, 2_000)
    legal = h.legal_actions()  # seat 5 faces 2,000: pot 2,300 + the call 2,000 = 4,300; half 2,000 + 2,150
    assert legal is not None and legal.min_bet_or_raise_to == 3_800
    assert (legal.half_pot_to, legal.pot_to) == (4_150, 6_300)
    h = Hand(HandSetup({1: 10_000, 2: 10_000, 3: 10_000}, 1, None, 3, 0, 200, min_bet=1_000))
    h.call(1)
    h.call(2)
    h.check(3)
    legal = h.legal_actions()  # 600 in the pot: half 300, pot 600, the minimum bet 1,000
    assert legal is not None and legal.min_bet_or_raise_to == 1_000
    assert (legal.half_pot_to, legal.pot_to, legal.pot_raise_to) == (1_000, 1_000, 600)


def test_pot_limit_refuses_more_than_the_pot_with_the_pot_limit_even_past_the_all_in() -> None:
    """TDA 54: the most is the pot after the call (here 700), less than the player's 10,000: a
    raise past the all-in is refused with the pot limit, the limit of this player; with 600,
    less than the pot, the all-in is the limit."""
    h = hand("pot-limit")
    assert refused(h.raise_to, 4, 20_000) == "Pot limit: the most seat 4 can raise to is 700."
    assert refused(h.raise_to, 4, 99_999_999_999) == "Pot limit: the most seat 4 can raise to is 700."
    h = hand("pot-limit", stacks=[10_000, 10_000, 10_000, 600, 10_000])  # the all-in, below the pot, is the limit
    assert refused(h.raise_to, 4, 99_999_999_999) == (
        "Seat 4 cannot raise to 99,999,999,999: the most they can raise to is 600 (all in)."
    )
    h = hand("no-limit")
    assert refused(h.raise_to, 4, 99_999_999_999) == (
        "Seat 4 cannot raise to 99,999,999,999: the most they can raise to is 10,000 (all in)."
    )


def test_a_setup_with_an_unknown_betting_or_cap_is_refused():
    with pytest.raises(InvalidInput, match="The betting must be one of no-limit, pot-limit, fixed-limit, not spread"):
        hand("spread")
    with pytest.raises(InvalidInput, match="The cap must be from 2 to 10"):
        hand("fixed-limit", raise_cap=1)
