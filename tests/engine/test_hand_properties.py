"""Invariants of a hand over random legal play (Hypothesis).

Random tables (2 to 10 players, unequal stacks, sometimes a dead small blind, an empty
button seat, antes) play random actions chosen from ``legal_actions()``, with random
amounts between the minimum and the maximum. After every action: chips are conserved,
no stack is negative, every pot is contested only by live seats that put chips in, and
the legal-action answer and the validators agree both ways.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cards import new_deck
from engine.errors import IllegalAction
from engine.hand import Hand, HandSetup, LegalActions
from engine.pots import clockwise_from


@st.composite
def setups(draw: st.DrawFn) -> HandSetup:
    n = draw(st.integers(2, 10))
    seats = draw(st.lists(st.integers(1, 10), min_size=n, max_size=n, unique=True))
    stacks = {s: draw(st.integers(1, 4000)) for s in seats}
    big = draw(st.sampled_from([2, 10, 20, 100]))
    small = big // 2
    if n == 2:
        button = draw(st.sampled_from(seats))
        sb: int | None = button
        bb = next(s for s in seats if s != button)
    else:
        button = draw(st.integers(1, 10))  # may be an empty seat
        order = clockwise_from(button, seats)
        if draw(st.booleans()):  # a dead small blind
            sb, bb = None, order[0]
        else:
            sb, bb = order[0], order[1]
    antes: dict[int, int] = {}
    bb_ante = 0
    kind = draw(st.sampled_from(["none", "antes", "bb_ante"]))
    if kind == "antes":
        antes = {s: big // 5 or 1 for s in seats}
    elif kind == "bb_ante":
        bb_ante = big
    free_fold = draw(st.sampled_from(["allow", "warn", "refuse"]))
    return HandSetup(stacks, button, sb, bb, small, big, antes, bb_ante, free_fold)


def check_invariants(hand: Hand, total: int) -> None:
    stacks, bets, pots = hand.stacks(), hand.bets(), hand.pots()
    assert all(c >= 0 for c in stacks.values())
    assert all(c >= 0 for c in bets.values())
    assert sum(stacks.values()) + sum(bets.values()) + sum(p.amount for p in pots) == total
    live = set(hand.live_seats())
    contributed = hand.contributions()
    previous: set[int] | None = None
    for k, pot in enumerate(pots):
        assert pot.amount > 0
        assert set(pot.eligible) <= live
        if k:
            assert all(contributed[s] > 0 for s in pot.eligible)
        if previous is not None:
            assert set(pot.eligible) < previous
        previous = set(pot.eligible)


def check_agreement(hand: Hand, legal: LegalActions, rng: random.Random) -> None:
    """The legal-action answer and the validators never disagree."""
    seat = legal.seat
    assert hand.can_fold(seat) == legal.can_fold
    assert hand.can_check(seat) == legal.can_check
    assert hand.can_call(seat) == (legal.call_amount > 0)
    assert hand.can_all_in(seat) == legal.can_all_in
    low, high = legal.min_bet_or_raise_to, legal.max_bet_or_raise_to
    current = hand.current_bet
    if low is None or high is None:
        for amount in (current + 1, current + hand.min_raise_increment, legal.all_in_amount):
            assert not hand.can_bet_or_raise_to(seat, amount)
    else:
        assert low <= high == legal.all_in_amount
        for amount in {low, high, rng.randint(low, high)}:
            assert hand.can_bet_or_raise_to(seat, amount)
        assert not hand.can_bet_or_raise_to(seat, high + 1)
        if low > current + 1:
            assert not hand.can_bet_or_raise_to(seat, rng.randint(current + 1, low - 1))
        assert hand.can_bet_to(seat, low) == (current == 0)
        assert hand.can_raise_to(seat, low) == (current > 0)
    for other in hand.seats:
        if other != seat:
            assert not hand.can_fold(other) and not hand.can_check(other)
            assert not hand.can_call(other) and not hand.can_all_in(other)


def play_randomly(hand: Hand, rng: random.Random, total: int) -> None:
    while (legal := hand.legal_actions()) is not None:
        check_agreement(hand, legal, rng)
        seat = legal.seat
        choices = []
        if legal.can_fold:
            choices.append("fold")
        if legal.can_check:
            choices.append("check")
        if legal.call_amount:
            choices += ["call", "call"]
        if legal.min_bet_or_raise_to is not None:
            choices.append("raise")
        if legal.can_all_in:
            choices.append("all_in")
        choice = rng.choice(choices)
        if choice == "fold":
            action = hand.fold(seat)
        elif choice == "check":
            action = hand.check(seat)
        elif choice == "call":
            action = hand.call(seat)
        elif choice == "all_in":
            action = hand.all_in(seat)
            assert action.all_in
        else:
            low, high = legal.min_bet_or_raise_to, legal.max_bet_or_raise_to
            assert low is not None and high is not None
            amount = rng.choice([low, high, rng.randint(low, high)])
            action = hand.bet_or_raise_to(seat, amount)
            assert action.to == amount
        assert action.seat == seat
        check_invariants(hand, total)
        if rng.random() < 0.1:  # undo, then do it again: the same state
            before = (hand.stacks(), hand.bets(), hand.turn, hand.street)
            entry = hand.undo()
            assert hand.turn == seat
            hand.apply(entry)
            assert (hand.stacks(), hand.bets(), hand.turn, hand.street) == before


@settings(max_examples=300)
@given(setups(), st.randoms(use_true_random=False), st.booleans())
def test_random_legal_play_keeps_the_invariants(setup, rng, from_cards):
    total = sum(setup.stacks.values())
    hand = Hand(setup)
    check_invariants(hand, total)
    play_randomly(hand, rng, total)
    assert hand.street in ("showdown", "complete")
    if hand.street == "showdown":
        pots = hand.pots()
        assert len(hand.live_seats()) >= 2
        if from_cards:
            deck = new_deck(rng)
            for seat in hand.live_seats():
                hand.deal_hole(seat, [deck.pop(), deck.pop()])
            hand.deal_board([deck.pop() for _ in range(5)])
            award = hand.award_from_cards()
        else:
            award = hand.award_to([[rng.choice(p.eligible)] for p in pots])
        assert [p.amount for p in award.pots] == [p.amount for p in pots]
        for pot, result in zip(pots, award.pots, strict=True):
            assert set(result.winners) <= set(pot.eligible)
    assert hand.is_complete
    assert hand.pots() == ()
    assert sum(hand.bets().values()) == 0
    assert sum(hand.stacks().values()) == total
    assert all(c >= 0 for c in hand.stacks().values())
    # The log rebuilds the same hand.
    again = Hand.replay(setup, hand.log)
    assert again.stacks() == hand.stacks() and again.is_complete


@settings(max_examples=100)
@given(setups(), st.randoms(use_true_random=False))
def test_refused_actions_change_nothing(setup, rng):
    """A refused action leaves the hand exactly as it was."""
    hand = Hand(setup)
    while (legal := hand.legal_actions()) is not None:
        before = (hand.stacks(), hand.bets(), hand.turn, list(hand.log))
        seat = legal.seat
        bad = hand.current_bet + rng.randint(1, max(1, hand.min_raise_increment - 1))
        if not hand.can_bet_or_raise_to(seat, bad):
            with pytest.raises(IllegalAction):
                hand.bet_or_raise_to(seat, bad)
            assert (hand.stacks(), hand.bets(), hand.turn, list(hand.log)) == before
        if legal.call_amount:
            hand.call(seat)
        else:
            hand.check(seat)
