"""One hand of No-Limit Hold'em, rule by rule (seed 000, seed 002, TDA sections 4, 5 and 9)."""

from __future__ import annotations

import pytest

from engine.cards import parse_cards
from engine.errors import IllegalAction, InvalidInput
from engine.hand import FOLD_WARNING, Hand, HandSetup
from engine.pots import Pot


def make(
    stacks: dict[int, int] | list[int],
    button: int,
    sb: int | None,
    bb: int,
    blinds: tuple[int, int] = (50, 100),
    **kwargs: object,
) -> Hand:
    if isinstance(stacks, list):
        stacks = {i + 1: s for i, s in enumerate(stacks)}
    return Hand(HandSetup(stacks, button, sb, bb, blinds[0], blinds[1], **kwargs))  # type: ignore[arg-type]


def six(stack: int = 10_000, **kwargs: object) -> Hand:
    """Seats 1-6, button 6, small blind 1, big blind 2, blinds 50/100."""
    return make([stack] * 6, button=6, sb=1, bb=2, **kwargs)


def play(hand: Hand, *entries: str) -> None:
    for entry in entries:
        hand.apply(entry)


def refused(call, *args) -> str:
    with pytest.raises(IllegalAction) as info:
        call(*args)
    return str(info.value)


# ---------------------------------------------------------------- blinds and turn order


def test_seed_blinds_are_posted_left_of_the_button():
    """Seed 000: "The player to its left posts the small blind and the next player the big
    blind: forced bets that start the pot." """
    hand = six()
    assert hand.bets() == {1: 50, 2: 100, 3: 0, 4: 0, 5: 0, 6: 0}
    assert hand.stacks()[1] == 9950 and hand.stacks()[2] == 9900
    assert hand.street == "preflop"


def test_seed_preflop_the_player_left_of_the_big_blind_acts_first():
    """Seed 000: "Preflop: after the deal, the player to the left of the big blind acts first." """
    assert six().turn == 3


def test_seed_from_the_flop_first_live_player_left_of_the_button_acts_first():
    """Seed 000: "from the flop on, starts with the first player still in the hand to the
    left of the button." The small blind folded, so the big blind starts."""
    hand = six()
    play(hand, "p3 cc", "p4 f", "p5 f", "p6 cc", "p1 f", "p2 cc")
    assert hand.street == "flop"
    assert hand.turn == 2


def test_seed_dead_small_blind_nobody_posts_it():
    """Seed 000: "a hand may be played without a small blind". TDA T2: the BB (3) busted,
    so seat 3 is empty, BTN=2, SB dead, BB=4."""
    hand = make({1: 1000, 2: 1000, 4: 1000, 5: 1000}, button=2, sb=None, bb=4)
    assert hand.bets() == {1: 0, 2: 0, 4: 100, 5: 0}
    assert hand.turn == 5
    play(hand, "p5 cc", "p1 cc", "p2 cc", "p4 cc")
    assert hand.street == "flop"
    assert hand.pots() == (Pot(400, (1, 2, 4, 5)),)
    assert hand.turn == 4  # the first live seat left of the button (seat 3 is empty)


def test_tda_t3_button_on_an_empty_seat_seat_left_of_it_acts_first_after_the_flop():
    """TDA T3: "SB (2) busts: BTN on empty seat 2, SB=3, BB=4. Seat 1 acts last again." """
    hand = make({1: 1000, 3: 1000, 4: 1000}, button=2, sb=3, bb=4)
    assert hand.turn == 1
    play(hand, "p1 cc", "p3 cc", "p4 cc")
    assert hand.turn == 3
    play(hand, "p3 cc", "p4 cc")
    assert hand.turn == 1


def test_tda_t10_heads_up_button_posts_small_blind_acts_first_preflop_last_after():
    """Seed 000: "With two players (heads-up) the button posts the small blind, acts first
    before the flop and last after it." (TDA T10)"""
    hand = make({3: 1000, 7: 1000}, button=7, sb=7, bb=3)
    assert hand.bets() == {3: 100, 7: 50}
    assert hand.turn == 7
    play(hand, "p7 cc")
    assert hand.turn == 3  # the big blind keeps the option
    play(hand, "p3 cc")
    assert hand.street == "flop"
    assert hand.turn == 3
    play(hand, "p3 cc")
    assert hand.turn == 7


def test_seed_big_blind_keeps_the_option_when_everyone_calls():
    """Seed 000: "A betting round ends when everybody has acted and all the players still
    in the hand have put in the same amount". Everyone called the big blind, but the big
    blind has not acted yet: it may check or raise."""
    hand = six()
    play(hand, "p3 cc", "p4 cc", "p5 cc", "p6 cc", "p1 cc")
    assert hand.turn == 2
    legal = hand.legal_actions()
    assert legal is not None
    assert legal.can_check and legal.call_amount == 0
    assert legal.min_bet_or_raise_to == 200
    play(hand, "p2 cc")
    assert hand.street == "flop"
    assert hand.pots() == (Pot(600, (1, 2, 3, 4, 5, 6)),)


def test_seed_round_goes_on_until_all_bets_are_matched():
    """Seed 000: the round ends when "all the players still in the hand have put in the same amount"."""
    hand = make([1000, 1000, 1000], button=3, sb=1, bb=2)
    play(hand, "p3 cc", "p1 cc", "p2 cbr 300")
    assert hand.turn == 3 and hand.street == "preflop"
    play(hand, "p3 cc")
    assert hand.turn == 1
    play(hand, "p1 cc")
    assert hand.street == "flop"


def test_seed_last_player_left_wins_without_showing():
    """Seed 000: "If only one player is left, they win the pot without showing their
    cards." TDA T45: "Everyone else mucks: the winner need not show." """
    hand = six()
    play(hand, "p3 cbr 300", "p4 f", "p5 f", "p6 f", "p1 f", "p2 f")
    assert hand.is_complete
    assert hand.turn is None
    assert hand.stacks() == {1: 9950, 2: 9900, 3: 10_150, 4: 10_000, 5: 10_000, 6: 10_000}
    assert hand.award is not None
    assert hand.award.describe() == "Seat 3 wins the main pot (250)."  # 200 went back
    assert refused(hand.fold, 2) == "Seat 2 cannot act: the hand is over."


# ---------------------------------------------------------------- fold, check, call


def test_seed_fold_when_checking_is_free_warns_by_default():
    """Seed 000: "you only fold when facing a bet, otherwise checking is free." Default
    setting "warn": the fold is allowed and the action carries a warning."""
    hand = six()
    play(hand, "p3 cc", "p4 cc", "p5 cc", "p6 cc", "p1 cc")
    action = hand.fold(2)
    assert action.warning == FOLD_WARNING
    assert hand.legal_actions() is not None


def test_seed_fold_when_checking_is_free_can_be_refused_or_allowed():
    """Seed 000: "you only fold when facing a bet"; the settings "refuse" and "allow"."""
    hand = six(free_fold="refuse")
    play(hand, "p3 cc", "p4 cc", "p5 cc", "p6 cc", "p1 cc")
    assert refused(hand.fold, 2) == "Seat 2 cannot fold: checking is free."
    legal = hand.legal_actions()
    assert legal is not None and not legal.can_fold
    hand = six(free_fold="allow")
    play(hand, "p3 cc", "p4 cc", "p5 cc", "p6 cc", "p1 cc")
    assert hand.fold(2).warning is None


def test_seed_check_only_when_there_is_no_bet_to_match():
    """Seed 000: "Check: pass without putting in chips, only when there is no bet to match." """
    hand = six()
    assert refused(hand.check, 3) == "Seat 3 cannot check: it is 100 to call."
    assert not hand.can_check(3)


def test_tda_t35_call_with_no_bet_is_a_check():
    """TDA T35: "Facing no bet: "call" is a check ... Facing a bet, "check" means call or fold only." """
    hand = six()
    play(hand, "p3 cc", "p4 f", "p5 f", "p6 f", "p1 cc", "p2 cc")
    assert refused(hand.call, 1) == "Seat 1 cannot call: there is no bet to call; check instead."
    assert hand.check_or_call(1).kind == "check"


def test_seed_call_matches_the_highest_bet():
    """Seed 000: "Call: match the highest bet." """
    hand = six()
    play(hand, "p3 cbr 350")
    action = hand.call(4)
    assert (action.kind, action.to, action.amount) == ("call", 350, 350)
    play(hand, "p5 f", "p6 f")
    action = hand.call(1)
    assert (action.to, action.amount) == (350, 300)


def test_tda_t37_a_call_is_always_the_full_call():
    """TDA T37: "Multi-way facing the opening 8000, a silent 2000 is forced to a full call."
    The engine takes no amount for a call: a call is the full amount (or all in)."""
    hand = make([50_000, 50_000, 50_000, 50_000], button=4, sb=1, bb=2, blinds=(1000, 2000))
    play(hand, "p3 cbr 8000")
    assert hand.call(4).amount == 8000


def test_seed_a_short_stack_may_call_all_in_for_less():
    """Seed 000: "A player without enough chips to call may go all-in for less." """
    hand = make([10_000, 10_000, 10_000, 250], button=4, sb=1, bb=2)
    play(hand, "p3 cbr 1000")
    legal = hand.legal_actions()
    assert legal is not None
    assert legal.call_amount == 250 and legal.max_bet_or_raise_to is None
    action = hand.call(4)
    assert action.all_in and action.amount == 250


# ---------------------------------------------------------------- bet and raise sizes


def test_seed_minimum_bet_is_the_big_blind():
    """Seed 000: "The minimum bet is the big blind"; TDA 4.1: "on every street"."""
    hand = make([1000, 1000, 1000], button=3, sb=1, bb=2)
    play(hand, "p3 cc", "p1 cc", "p2 cc")
    assert refused(hand.bet_to, 1, 50) == "Seat 1 cannot bet 50: the minimum bet is 100."
    assert hand.can_bet_to(1, 100)
    legal = hand.legal_actions()
    assert legal is not None
    assert (legal.min_bet_or_raise_to, legal.max_bet_or_raise_to, legal.raise_word) == (100, 900, "bet")


def test_seed_an_all_in_bet_below_the_big_blind_is_allowed():
    """TDA 4.1: the minimum bet is the big blind "except when all-in"."""
    hand = make([1000, 1000, 160], button=3, sb=1, bb=2)
    play(hand, "p3 cc", "p1 cc", "p2 cc", "p1 cc", "p2 cc")
    legal = hand.legal_actions()
    assert legal is not None
    assert (legal.min_bet_or_raise_to, legal.max_bet_or_raise_to) == (60, 60)
    assert refused(hand.bet_to, 3, 50) == "Seat 3 cannot bet 50: the minimum bet is 100."
    action = hand.bet_to(3, 60)
    assert action.all_in and action.kind == "bet"


def test_seed_each_street_has_its_own_betting_round():
    """Seed 000: "Each stage has its own betting round": a new street starts with no bet,
    and the minimum bet is the big blind again, whatever the raises before."""
    hand = make([10_000, 10_000, 10_000], button=3, sb=1, bb=2)
    play(hand, "p3 cbr 600", "p1 f", "p2 cbr 1500", "p3 cc")
    assert hand.street == "flop" and hand.current_bet == 0 and hand.min_raise_increment == 100
    assert hand.bets() == {1: 0, 2: 0, 3: 0}
    legal = hand.legal_actions()
    assert legal is not None and legal.can_check and legal.min_bet_or_raise_to == 100
    assert legal.raise_word == "bet"


def test_seed_no_bet_beyond_ones_stack():
    """Seed 000: "No-Limit means you may bet any amount up to all your chips." """
    hand = six(stack=3000)
    assert refused(hand.raise_to, 3, 5000) == (
        "Seat 3 cannot raise to 5,000: the most they can raise to is 3,000 (all in)."
    )
    assert hand.all_in(3).to == 3000


def test_seed_002_raise_must_be_at_least_the_previous_raise():
    """Seed 002: "A raise must be at least as big as the previous raise: from 200 to 600 is
    a raise of 400, so the next one must go to at least 1,000." """
    hand = make([10_000] * 4, button=4, sb=1, bb=2, blinds=(100, 200))
    play(hand, "p3 cbr 600")
    assert refused(hand.raise_to, 4, 999) == "Seat 4 cannot raise to 999: the minimum raise is to 1,000."
    assert hand.can_raise_to(4, 1000)


def test_tda_t26_minimum_raise_is_the_last_full_increment():
    """TDA T26: "100-200: open 600, raise to 1600, raise to 3600, so the next minimum raise
    is to 5600 (Addendum 43 Ex1)." """
    hand = make([100_000] * 5, button=5, sb=1, bb=2, blinds=(100, 200))
    play(hand, "p3 cbr 600", "p4 cbr 1600", "p5 cbr 3600")
    legal = hand.legal_actions()
    assert legal is not None and legal.min_bet_or_raise_to == 5600
    assert refused(hand.raise_to, 1, 5500) == "Seat 1 cannot raise to 5,500: the minimum raise is to 5,600."


def test_tda_t27_short_all_in_keeps_the_full_raise_increment():
    """TDA T27: "50-100: UTG all-in 150, so the next minimum raise is to 250 (43 Ex2)." """
    hand = make([10_000, 10_000, 150, 10_000], button=4, sb=1, bb=2)
    play(hand, "p3 cbr 150")
    legal = hand.legal_actions()
    assert legal is not None
    assert legal.call_amount == 150 and legal.min_bet_or_raise_to == 250
    assert refused(hand.raise_to, 4, 200) == "Seat 4 cannot raise to 200: the minimum raise is to 250."


def test_tda_t28_an_under_raise_is_refused_with_the_minimum():
    """TDA T28: "Facing an open of 1000 with chips behind: a silent 1400 is a call; 1500
    (exactly 50%) must become a raise to 2000." The engine takes the amount the dealer
    settles on: anything between the call and the minimum raise is refused, naming it."""
    hand = make([20_000] * 3, button=3, sb=1, bb=2, blinds=(250, 500))
    play(hand, "p3 cc", "p1 cc", "p2 cc", "p1 cbr 1000")
    assert refused(hand.raise_to, 2, 1400) == "Seat 2 cannot raise to 1,400: the minimum raise is to 2,000."
    assert refused(hand.raise_to, 2, 1500) == "Seat 2 cannot raise to 1,500: the minimum raise is to 2,000."
    assert hand.call(2).to == 1000
    assert hand.can_raise_to(3, 2000)


def test_raise_to_the_current_bet_is_refused():
    hand = six()
    play(hand, "p3 cbr 300")
    assert refused(hand.raise_to, 4, 300) == "Seat 4 cannot raise to 300: the bet is already 300."
    assert refused(hand.bet_to, 4, 600) == (
        "Seat 4 cannot bet 600: there is already a bet of 300; raise instead."
    )


def test_tda_t31_short_all_ins_that_add_up_to_a_full_raise_reopen_for_the_opener():
    """TDA T31: "50-100: A bets 100, B all-in 125, C calls, D all-in 200, E calls. A may raise
    (the two increments add to a full raise). If A just calls, C faces only 75 and may not
    raise. If A raises to 300, C may re-raise (Addendum 47 Ex1)." """
    stacks = {1: 5000, 2: 5000, 3: 225, 4: 5000, 5: 300, 6: 5000}
    # Seats 1 and 2 post the blinds and limp; seat 6 is the button. On the flop A=1, B=3, C=4, D=5, E=6.
    base = ["p3 cc", "p4 cc", "p5 cc", "p6 cc", "p1 cc", "p2 f"]
    flop = ["p1 cbr 100", "p3 cbr 125", "p4 cc", "p5 cbr 200", "p6 cc"]
    hand = make(stacks, button=6, sb=1, bb=2)
    play(hand, *base, *flop)
    assert hand.street == "flop" and hand.turn == 1
    legal = hand.legal_actions()
    assert legal is not None and legal.min_bet_or_raise_to == 300
    assert hand.can_raise_to(1, 300)

    play(hand, "p1 cc")  # A just calls: C faces 75 more, less than a full raise
    assert hand.turn == 4
    legal = hand.legal_actions()
    assert legal is not None
    assert legal.call_amount == 75 and legal.max_bet_or_raise_to is None and not legal.can_all_in
    assert refused(hand.raise_to, 4, 400) == (
        "Seat 4 cannot raise to 400: the short all-in did not reopen the betting; "
        "seat 4 may only call 75 or fold."
    )

    hand = make(stacks, button=6, sb=1, bb=2)
    play(hand, *base, *flop, "p1 cbr 300")  # A raises: C may re-raise
    assert hand.turn == 4
    assert hand.can_raise_to(4, 400)


def test_tda_t32_exact_amounts_of_the_addendum():
    """TDA T32 with the addendum's amounts: a bet of 300 on the flop, all-ins to 500, 650 and
    800 and a call: the next player's minimum raise is to 1100."""
    stacks = {1: 5000, 2: 5000, 3: 600, 4: 750, 5: 900, 6: 5000}
    hand = make(stacks, button=6, sb=1, bb=2)
    play(hand, "p3 cc", "p4 cc", "p5 cc", "p6 cc", "p1 cc", "p2 cc")
    play(hand, "p1 cc", "p2 cbr 300", "p3 cbr 500", "p4 cbr 650", "p5 cbr 800", "p6 cc")
    assert hand.turn == 1
    legal = hand.legal_actions()
    assert legal is not None and legal.min_bet_or_raise_to == 1100
    play(hand, "p1 cc")
    # A (seat 2) bet 300 and now faces 800: 500 more, at least a full raise of 300.
    assert hand.turn == 2 and hand.can_raise_to(2, 1100)


def test_tda_t33_big_blind_may_raise_over_a_short_all_in_the_limper_may_not():
    """TDA T33: "2000-4000: A limps, C all-in 7500. The BB (has not acted) may raise to at
    least 11,500. If the BB just calls, A may only call or fold. If the BB raises to
    11,500, A may re-raise (47 Ex3)." """
    stacks = {1: 100_000, 2: 100_000, 3: 100_000, 4: 7500}
    hand = make(stacks, button=4, sb=1, bb=2, blinds=(2000, 4000))
    # seat 3 = A (limps), seat 4 = C (all in 7500), seat 1 folds, seat 2 is the BB.
    play(hand, "p3 cc", "p4 cbr 7500", "p1 f")
    legal = hand.legal_actions()
    assert legal is not None and legal.seat == 2 and legal.min_bet_or_raise_to == 11_500
    play(hand, "p2 cc")
    legal = hand.legal_actions()
    assert legal is not None and legal.seat == 3
    assert legal.max_bet_or_raise_to is None and legal.call_amount == 3500

    hand = make(stacks, button=4, sb=1, bb=2, blinds=(2000, 4000))
    play(hand, "p3 cc", "p4 cbr 7500", "p1 f", "p2 cbr 11500")
    assert hand.can_raise_to(3, 15_500)


def test_seed_a_player_who_has_not_acted_may_always_raise():
    """TDA 4.4: "A player who has not yet acted may always raise (Addendum 47 Ex 3-A)." """
    hand = make([10_000, 10_000, 10_000, 150, 10_000], button=5, sb=1, bb=2)
    play(hand, "p3 cc", "p4 cbr 150")
    assert hand.can_raise_to(5, 250)


def test_seed_no_raise_when_all_other_players_are_all_in():
    """Seed 000: "You cannot raise when all the other players still in the hand are already all-in." """
    hand = make([10_000, 10_000, 3000], button=3, sb=1, bb=2)
    play(hand, "p3 cbr 3000", "p1 f")
    legal = hand.legal_actions()
    assert legal is not None
    assert legal.call_amount == 2900 and legal.max_bet_or_raise_to is None
    assert refused(hand.raise_to, 2, 6000) == (
        "Seat 2 cannot raise to 6,000: every other player is all-in; seat 2 may only call or fold."
    )


def test_seed_short_big_blind_still_means_the_full_big_blind_to_call():
    """Seed 000: "If the big blind is short of chips, anyone who wants to play must still
    call the full big blind." The minimum raise is to twice the big blind."""
    hand = make([1000, 60, 1000, 1000], button=4, sb=1, bb=2)
    assert hand.bets()[2] == 60 and hand.is_all_in(2)
    legal = hand.legal_actions()
    assert legal is not None
    assert legal.call_amount == 100 and legal.min_bet_or_raise_to == 200
    play(hand, "p3 cc", "p4 f", "p1 cc")
    # Two callers put in 100 each: 60 of each is in the main pot with the big blind.
    assert hand.street == "flop"
    assert hand.pots() == (Pot(180, (1, 2, 3)), Pot(80, (1, 3)))


def test_seed_short_small_blind_is_all_in():
    """A player short of a forced bet posts what they have and is all-in."""
    hand = make([30, 1000, 1000], button=3, sb=1, bb=2)
    assert hand.bets()[1] == 30 and hand.is_all_in(1)
    assert hand.turn == 3


def test_seed_all_in_blinds_leave_no_betting():
    """Heads-up, the small blind is all-in posting: the big blind has nobody to bet
    against, the uncalled part goes back and the board runs out."""
    hand = make({1: 1000, 2: 40}, button=2, sb=2, bb=1)
    assert hand.turn is None
    assert hand.street == "showdown"
    assert hand.stacks() == {1: 960, 2: 0}
    assert hand.pots() == (Pot(80, (1, 2)),)


def test_tda_t14_big_blind_ante_posted_after_the_blind():
    """TDA T14: "BBA 2000 at 1000/2000, BB has 3000: posts the 2000 BB (live) and a 1000
    ante (dead)." """
    stacks = {1: 50_000, 2: 3000, 3: 50_000}
    hand = Hand(HandSetup(stacks, 3, 1, 2, 1000, 2000, big_blind_ante=2000))
    assert hand.bets()[2] == 2000
    assert hand.stacks()[2] == 0
    play(hand, "p3 cc", "p1 cc")
    assert hand.street == "flop"  # seats 1 and 3 still have chips to bet
    assert hand.pots() == (Pot(7000, (1, 2, 3)),)


def test_dead_antes_go_to_the_main_pot():
    """TDA: antes are dead money in the main pot; a player short of the ante is all-in and
    can win the antes only."""
    hand = Hand(HandSetup({1: 1000, 2: 1000, 3: 5}, 3, 1, 2, 50, 100, antes={1: 10, 2: 10, 3: 10}))
    assert hand.stacks() == {1: 940, 2: 890, 3: 0}
    assert hand.is_all_in(3)
    assert hand.turn == 1
    play(hand, "p1 cc", "p2 cc")
    assert hand.pots() == (Pot(25, (1, 2, 3)), Pot(200, (1, 2)))


def test_acting_out_of_turn_is_refused():
    """TDA 4.8 (action out of turn): the action returns to the correct player."""
    hand = six()
    assert refused(hand.fold, 5) == "It is seat 3's turn, not seat 5's."
    assert refused(hand.fold, 9) == "Seat 9 is not in this hand."
    assert not hand.can_fold(5)


def test_invalid_amount_type_is_invalid_input():
    hand = six()
    with pytest.raises(InvalidInput):
        hand.raise_to(3, 300.5)  # type: ignore[arg-type]


def test_setup_is_checked():
    with pytest.raises(InvalidInput, match="2 to 10 players"):
        HandSetup({1: 100}, 1, None, 1, 5, 10)
    with pytest.raises(InvalidInput, match="Seat 2 has 0 chips"):
        HandSetup({1: 100, 2: 0}, 1, None, 1, 5, 10)
    with pytest.raises(InvalidInput, match="big blind seat 5 has no player"):
        HandSetup({1: 100, 2: 100}, 1, None, 5, 5, 10)
    with pytest.raises(InvalidInput, match="Heads-up the button posts the small blind"):
        HandSetup({1: 100, 2: 100}, 1, 2, 1, 5, 10)
    with pytest.raises(InvalidInput, match="there is no dead small blind"):
        HandSetup({1: 100, 2: 100}, 1, None, 2, 5, 10)
    with pytest.raises(InvalidInput, match="fold setting"):
        HandSetup({1: 100, 2: 100}, 1, 1, 2, 5, 10, free_fold="never")


# ---------------------------------------------------------------- all-in, uncalled, run-out


def test_tda_t42_uncalled_part_goes_back_before_the_pots_are_built():
    """TDA T42: "A (5000 all-in) vs B (3000 all-in): 2000 goes back to A before the pots are built." """
    hand = make({1: 5000, 2: 3000}, button=1, sb=1, bb=2)
    play(hand, "p1 cbr 5000", "p2 cc")
    assert hand.street == "showdown"
    assert hand.stacks() == {1: 2000, 2: 0}
    assert hand.pots() == (Pot(6000, (1, 2)),)


def test_uncalled_river_bet_goes_back():
    """Seed 000: "Any part of a bet that nobody calls goes back to the player who made it." """
    hand = make([1000, 1000], button=2, sb=2, bb=1)
    play(hand, "p2 cc", "p1 cc", "p1 cc", "p2 cc", "p1 cc", "p2 cc", "p1 cbr 300", "p2 f")
    assert hand.is_complete
    assert hand.stacks() == {1: 1100, 2: 900}


def test_tda_t46_heads_up_all_in_on_the_turn_runs_out_face_up():
    """TDA T46: "Heads-up all-in and call on the turn: table both hands, then deal the river." """
    hand = make([1000, 1000], button=2, sb=2, bb=1)
    play(hand, "p2 cc", "p1 cc", "d db 2c3c4c", "p1 cc", "p2 cc", "d db 5h", "p1 cbr 900", "p2 cc")
    assert hand.street == "showdown"
    assert hand.turn is None and hand.legal_actions() is None
    assert hand.all_hands_face_up
    hand.deal_board(parse_cards("Kd"))
    assert len(hand.board) == 5


def test_tda_t46_no_tabling_while_two_players_with_chips_are_still_betting():
    """TDA T46: "Three-way where the two players with chips are still betting: don't table
    until betting ends." """
    hand = make([300, 5000, 5000], button=3, sb=1, bb=2)
    play(hand, "p3 cc", "p1 cbr 300", "p2 cc", "p3 cc")
    assert hand.street == "flop" and hand.turn == 2
    assert not hand.all_hands_face_up
    assert refused(hand.show, 1, "AsAd") == "Seat 1 cannot show: the hand is not at the showdown."
    play(hand, "p2 cbr 500", "p3 cc", "p2 cc", "p3 cc", "p2 cc", "p3 cc")
    assert hand.street == "showdown" and hand.all_hands_face_up


def test_seed_betting_stops_when_at_most_one_player_has_chips():
    """Seed 000: "If a player is all-in and the betting is over, all hands are turned face
    up at once and the missing community cards are dealt one by one." """
    hand = make([10_000, 10_000, 400], button=3, sb=1, bb=2)
    play(hand, "p3 cbr 400", "p1 f", "p2 cc")
    assert hand.street == "showdown"
    assert hand.turn is None
    assert hand.pots() == (Pot(850, (2, 3)),)


# ---------------------------------------------------------------- cards


def test_board_cards_are_optional_and_checked():
    """Board cards may be entered or not; a duplicate or a fourth flop card is refused."""
    hand = make([1000, 1000, 1000], button=3, sb=1, bb=2)
    assert refused(hand.deal_board, "2c3c4c") == "The board cannot have 3 cards: at most 0 on the preflop."
    hand.deal_hole(1, "AsKd")
    assert refused(hand.deal_hole, 2, "AsQd") == "The Ace of spades (As) has already been dealt."
    assert refused(hand.deal_hole, 1, "QsQd") == "Seat 1 already has hole cards."
    assert refused(hand.deal_hole, 2, "Qs") == "Seat 2 must be dealt 2 hole cards, not 1."
    play(hand, "p3 cc", "p1 cc", "p2 cc")
    assert hand.street == "flop"
    assert refused(hand.deal_board, "2c3c4c5c") == "The board cannot have 4 cards: at most 3 on the flop."
    play(hand, "p1 cc", "p2 cc", "p3 cc")  # betting goes on without a flop entered
    assert hand.street == "turn"
    hand.deal_board("2c3c4c")
    assert refused(hand.deal_board, "4c") == "The Four of clubs (4c) has already been dealt."
    hand.deal_board("5d")
    assert [str(c) for c in hand.board] == ["2c", "3c", "4c", "5d"]


def test_cards_after_the_hand_ended_by_folds_are_refused():
    hand = make([1000, 1000, 1000], button=3, sb=1, bb=2)
    play(hand, "p3 f", "p1 f")
    assert refused(hand.deal_board, "2c3c4c") == "No more board cards: the hand is over."


# ---------------------------------------------------------------- showdown


def river(hand: Hand, *last: str) -> None:
    """Three players limp and check to the river, then the given river actions."""
    play(hand, "p3 cc", "p1 cc", "p2 cc", "d db 2c7d9h", "p1 cc", "p2 cc", "p3 cc", "d db Js")
    play(hand, "p1 cc", "p2 cc", "p3 cc", "d db 3d", *last)


def test_tda_t45_river_bettor_shows_first():
    """TDA T45: "River bet and call: the bettor shows first." Seed 000: "The last player to
    bet or raise on the river shows first"; then clockwise."""
    hand = make([1000, 1000, 1000], button=3, sb=1, bb=2)
    river(hand, "p1 cc", "p2 cbr 200", "p3 cc", "p1 cc")
    assert hand.street == "showdown"
    assert hand.showdown_order() == (2, 3, 1)
    assert hand.next_to_show() == 2
    assert not hand.all_hands_face_up


def test_tda_t45_river_checked_through_first_left_of_button_shows_first():
    """TDA T45: "River checked through: the first seat left of the button shows first." """
    hand = make([1000, 1000, 1000], button=3, sb=1, bb=2)
    river(hand, "p1 cc", "p2 cc", "p3 cc")
    assert hand.showdown_order() == (1, 2, 3)


def test_seed_a_player_who_cannot_beat_the_shown_hand_mucks():
    """Seed 000: "anyone who cannot beat or tie the best hand already shown mucks their
    cards without showing them." """
    hand = make([1000, 1000, 1000], button=3, sb=1, bb=2)
    river(hand, "p1 cc", "p2 cc", "p3 cc")
    hand.show(1, "JhJd")  # three jacks
    assert hand.best_shown() == (1,)
    assert hand.next_to_show() == 2
    assert not hand.can_win("AsKs")
    assert hand.can_win("JcTc") is False
    assert hand.can_win("9c9d") is False
    assert hand.can_win("8s8h") is False
    assert hand.can_win("Tc8c")  # a straight, seven to jack
    hand.muck(2)
    hand.show(3, "Ts8d")
    award = hand.award_from_cards()
    assert award.describe() == "Seat 3 wins the main pot (300) with a straight, jack high."
    assert hand.stacks() == {1: 900, 2: 900, 3: 1200}


def test_tda_16_all_in_hands_are_tabled_not_mucked():
    """TDA 5.1 (rule 16): "all hands are tabled as soon as a player is all-in and all
    betting is complete"; a player who is all-in or has called all action may not muck."""
    hand = make([500, 1000], button=2, sb=2, bb=1)
    play(hand, "p2 cbr 500", "p1 cc")
    assert hand.all_hands_face_up
    assert refused(hand.muck, 1) == (
        "Seat 1 cannot muck: a player is all-in, so every hand is turned face up."
    )


def test_last_hand_cannot_muck():
    hand = make([1000, 1000], button=2, sb=2, bb=1)
    play(hand, "p2 cc", "p1 cc", "p1 cc", "p2 cc", "p1 cc", "p2 cc", "p1 cc", "p2 cc")
    hand.muck(1)
    assert refused(hand.muck, 2) == "Seat 2 is the last hand left and cannot muck."
    award = hand.award_from_cards()
    assert award.pots[0].winners == (2,)


def test_seed_kicker_decides_and_board_playing_splits():
    """Seed 000: "a pair of kings with an ace beats a pair of kings with a queen" and "If
    the five best cards are equal, the pot is split." """
    hand = make([1000, 1000, 1000], button=3, sb=1, bb=2)
    play(hand, "d dh p1 KhAc", "d dh p2 KsQc", "d dh p3 4s5h")
    play(hand, "p3 cc", "p1 cc", "p2 cc")
    for cards in ("Kd7d9h", "2s", "3c"):
        play(hand, f"d db {cards}", "p1 cc", "p2 cc", "p3 cc")
    award = hand.award_from_cards()
    assert award.describe() == "Seat 1 wins the main pot (300) with a pair of kings."

    hand = make([1000, 1000, 1000], button=3, sb=1, bb=2)
    play(hand, "d dh p1 2h3h", "d dh p2 2s3s")
    play(hand, "p3 f", "p1 cc", "p2 cc", "d db AcKdQh", "p1 cc", "p2 cc", "d db Jc", "p1 cc", "p2 cc")
    play(hand, "d db Td", "p1 cc", "p2 cc")
    award = hand.award_from_cards()
    assert award.describe() == (
        "Main pot (200) split between seats 1 and 2 with a straight, ace high."
    )


def test_tda_t44_split_pot_odd_chip_to_first_winner_left_of_an_empty_button():
    """TDA T44: "A 1001 split between two winners (1-chip unit): the extra chip goes to the
    first winner clockwise from the button, even if the button is on an empty seat." """
    stacks = {1: 1000, 3: 1000, 5: 1000, 6: 1000}
    # Button on empty seat 4: seat 5 posts the small blind (1) and folds, seat 6 the big blind.
    hand = Hand(HandSetup(stacks, 4, 5, 6, 1, 2))
    play(hand, "d dh p3 AhKh", "d dh p6 AdKd", "p1 f", "p3 cbr 500", "p5 f", "p6 cc")
    assert hand.pots() == (Pot(1001, (3, 6)),)
    for cards in ("QsJsTd", "2h", "2d"):
        play(hand, f"d db {cards}", "p6 cc", "p3 cc")
    award = hand.award_from_cards()
    assert award.pots[0].shares == ((6, 501), (3, 500))
    assert award.pots[0].odd_chips_to == (6,)


def test_tda_t44_odd_chip_goes_clockwise_from_the_button():
    """TDA T44 / seed 000: "odd chips that cannot be divided go one each to the winners,
    starting with the first player to the left of the button." """
    hand = Hand(HandSetup({1: 1000, 2: 1000, 3: 1000}, 1, 2, 3, 5, 10))
    play(hand, "d dh p1 AhKh", "d dh p3 AdKd", "d dh p2 2c3d")
    play(hand, "p1 cbr 20", "p2 f", "p3 cc")  # pot 20 + 20 + 5 = 45
    for cards in ("QsJsTd", "2h", "7c"):
        play(hand, f"d db {cards}", "p3 cc", "p1 cc")
    award = hand.award_from_cards()
    assert award.pots[0].shares == ((3, 23), (1, 22))
    assert award.describe() == (
        "Main pot (45) split between seats 3 and 1 with a straight, ace high, odd chip to seat 3."
    )


def test_tda_t43_three_way_all_in_side_pots_awarded_separately():
    """TDA T43: "Three-way all-in with different stacks: main pot plus side pots, each split
    separately with its own odd chip." Seat 1 has the best hand and wins the main pot only."""
    hand = make({1: 300, 2: 700, 3: 1500}, button=3, sb=1, bb=2)
    play(hand, "d dh p1 AsAh", "d dh p2 KsKh", "d dh p3 QsQh")
    play(hand, "p3 cbr 1500", "p1 cc", "p2 cc")
    assert hand.stacks() == {1: 0, 2: 0, 3: 800}
    assert hand.pots() == (Pot(900, (1, 2, 3)), Pot(800, (2, 3)))
    hand.deal_board("2c7d9h4s3d")
    award = hand.award_from_cards()
    assert award.describe() == (
        "Seat 2 wins side pot 1 (800) with a pair of kings; "
        "Seat 1 wins the main pot (900) with a pair of aces."
    )
    assert hand.stacks() == {1: 900, 2: 800, 3: 800}
    assert hand.is_complete and hand.pots() == ()


def test_award_from_cards_needs_the_board_and_the_hands():
    hand = make({1: 300, 2: 700}, button=2, sb=2, bb=1)
    play(hand, "p2 cbr 700", "p1 cc")
    assert refused(hand.award_from_cards) == "The board has 0 cards: all five are needed to award from cards."
    hand.deal_board("2c7d9h4s3d")
    assert refused(hand.award_from_cards) == (
        "Seat 1's cards are unknown and were never shown: the pots cannot be awarded from the cards."
    )


def test_award_to_winners_named_by_the_dealer():
    """The dealer names the winner of each pot, side pots included; odd chips by the rule."""
    hand = make({1: 301, 2: 700, 3: 1500}, button=3, sb=1, bb=2)
    play(hand, "p3 cbr 1500", "p1 cc", "p2 cc")
    assert hand.pots() == (Pot(903, (1, 2, 3)), Pot(798, (2, 3)))
    assert refused(hand.award_to, [[1]]) == "There are 2 pots to award, not 1."
    assert refused(hand.award_to, [[1], [1]]) == "Seat 1 cannot win side pot 1: it was not in it."
    assert refused(hand.award_to, [[1], []]) == "Side pot 1 needs at least one winner."
    award = hand.award_to([[1, 2], [3]])
    assert award.describe() == (
        "Seat 3 wins side pot 1 (798); main pot (903) split between seats 1 and 2, odd chip to seat 1."
    )
    assert hand.stacks() == {1: 452, 2: 451, 3: 1598}
    assert refused(hand.award_to, [[1]]) == "The pots have already been awarded."


def test_award_before_the_betting_is_over_is_refused():
    hand = six()
    assert refused(hand.award_from_cards) == (
        "The pots cannot be awarded on the preflop: the betting is not over."
    )


# ---------------------------------------------------------------- log, replay, undo


def test_log_replay_and_undo():
    """The hand is rebuilt by replaying its setup and action list; undo replays all but the last."""
    hand = six()
    play(hand, "d dh p3 AsKd", "p3 cbr 300", "p4 f", "p5 cc")
    assert hand.log == ["d dh p3 AsKd", "p3 cbr 300", "p4 f", "p5 cc"]
    again = Hand.replay(hand.setup, hand.log)
    assert again.stacks() == hand.stacks() and again.turn == hand.turn == 6
    assert hand.undo() == "p5 cc"
    assert hand.turn == 5 and hand.bets()[5] == 0
    assert hand.log == ["d dh p3 AsKd", "p3 cbr 300", "p4 f"]
    assert [a.notation for a in hand.actions] == ["p3 cbr 300", "p4 f"]


def test_undo_an_award():
    hand = make({1: 300, 2: 700}, button=2, sb=2, bb=1)
    play(hand, "p2 cbr 700", "p1 cc", "d win 2")
    assert hand.is_complete and hand.stacks() == {1: 0, 2: 1000}
    assert hand.undo() == "d win 2"
    assert hand.street == "showdown" and hand.stacks() == {1: 0, 2: 400}


def test_undo_with_nothing_to_undo():
    assert refused(six().undo) == "There is nothing to undo."


def test_unknown_log_entries_are_invalid_input():
    hand = six()
    for entry in ("p3 xx", "hello", "p3 cbr lots", "q3 f", "d zz 1", "d win 1;x", "d dh 3 AsKd"):
        with pytest.raises(InvalidInput):
            hand.apply(entry)


def test_action_records_are_frozen_and_carry_notation():
    hand = six()
    action = hand.raise_to(3, 300)
    assert (action.seat, action.kind, action.to, action.amount, action.street) == (3, "raise", 300, 300, "preflop")
    with pytest.raises(AttributeError):
        action.to = 5  # type: ignore[misc]
    assert hand.all_in(4).notation == "p4 cbr 10000"


# ---------------------------------------------------------------- straddles


def test_straddle_acts_last_preflop_and_has_the_option():
    """A straddle is a live blind: action starts left of it, and when everyone calls the
    straddler may still raise (as pokerkit plays PHH straddles)."""
    hand = make([1000] * 5, button=5, sb=1, bb=2, straddles={3: 200})
    assert hand.turn == 4 and hand.current_bet == 200
    play(hand, "p4 cc", "p5 cc", "p1 cc", "p2 cc")
    assert hand.turn == 3 and hand.street == "preflop"
    legal = hand.legal_actions()
    assert legal is not None and legal.can_check and legal.min_bet_or_raise_to == 300
    play(hand, "p3 cc")
    assert hand.street == "flop"


def test_short_straddle_still_means_the_full_straddle_to_call():
    """Like a short big blind (seed 000: "anyone who wants to play must still call the
    full big blind"), a straddle short of chips is called in full."""
    hand = make({1: 1000, 2: 1000, 3: 150, 4: 1000}, button=4, sb=1, bb=2, straddles={3: 200})
    assert hand.is_all_in(3)
    assert hand.turn == 4 and hand.legal_actions().call_amount == 200


def test_a_straddle_must_come_from_a_player_other_than_the_blinds():
    with pytest.raises(InvalidInput):
        make([1000] * 4, button=4, sb=1, bb=2, straddles={2: 200})
    with pytest.raises(InvalidInput):
        make([1000] * 2, button=2, sb=2, bb=1, straddles={1: 200})
