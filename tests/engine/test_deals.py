"""Final-table deals (issue "Money for the night", part 3; TDA 7.3: "ICM (Malmuth-Harville)
[...] Chip chop [...] Equal chop. Partial deal: play on for a set-aside amount"): the
accepted deal is an event, undo takes it back, the figures must add up to the prizes left."""

from __future__ import annotations

import itertools

import pytest

from engine.deals import prizes_left, proposals, shared_prizes
from engine.errors import EngineError, IllegalAction, InvalidInput
from engine.events import Event
from engine.payouts import icm
from engine.tournament import apply, create


def night(players=("Ann", "Bob", "Cy", "Dee", "Eve"), **settings):
    state = create(Event(1, "created", {"name": "Final", "buy_in": 100, "payout_kind": "custom",
                                        "percentages": "50/30/20", **settings}, 0.0))
    seq = 1

    def do(kind, payload=None):
        nonlocal state, seq
        seq += 1
        state = apply(state, Event(seq, kind, payload or {}, float(seq)))
        return state

    for name in players:
        do("player_registered", {"name": name})
    do("clock", {"action": "start"})
    return do


def independent_icm(stacks, prizes):
    """Malmuth-Harville by brute force over every finishing order: the chance of an order is
    the product, place by place, of the stack's share of the chips still unplaced."""
    n = len(stacks)
    equity = [0.0] * n
    for order in itertools.permutations(range(n)):
        chance, left = 1.0, float(sum(stacks))
        for who in order:
            chance *= stacks[who] / left
            left -= stacks[who]
        for place, who in enumerate(order[: len(prizes)]):
            equity[who] += chance * prizes[place]
    return equity


def test_icm_agrees_with_an_independent_computation_to_the_cent():
    stacks, prizes = [48_000, 31_500, 20_500, 12_000], [250, 150, 100]
    ours, theirs = icm(stacks, prizes), independent_icm(stacks, prizes)
    assert [round(x, 2) for x in ours] == [round(x, 2) for x in theirs]
    assert round(sum(ours), 2) == sum(prizes)


def test_an_icm_deal_is_recorded_and_the_prizes_go_to_the_players_in_it():
    do = night()
    do("bust", {"players": [5]})
    state = do("bust", {"players": [4]})
    assert prizes_left(state) == [250, 150, 100]
    stacks = {1: 30_000, 2: 15_000, 3: 5_000}
    icm_figures = proposals(state, stacks)["icm"]
    assert sum(icm_figures.amounts.values()) == 500
    state = do("deal", {"method": "icm", "amounts": icm_figures.amounts, "stacks": stacks})
    assert state.finished  # nothing left to play for: it ends, ranked by chips
    assert state.places() == {1: 1, 2: 2, 3: 3, 4: 4, 5: 5}
    assert state.awards() == icm_figures.amounts
    state = do("undo")
    assert state.deal is None and not state.finished


def test_a_deal_leaving_an_amount_to_play_for_goes_on_and_the_winner_takes_it():
    do = night(players=("Ann", "Bob", "Cy"))
    state = do("bust", {"players": [3]})  # 3rd: 20% of 300
    stacks = {1: 20_000, 2: 10_000}
    figures = proposals(state, stacks, play_for=50)["chip_chop"]
    assert figures.amounts == {1: 127, 2: 63}  # 190 of 240 shared by the chips: 126.67 / 63.33
    state = do("deal", {"method": "chip_chop", "amounts": figures.amounts, "stacks": stacks, "play_for": 50})
    assert not state.finished
    state = do("bust", {"players": [1], "by": 2})
    assert state.finished
    assert state.awards() == {1: 127, 2: 63 + 50, 3: 60}
    assert sum(state.awards().values()) == state.prize_pool


@pytest.mark.parametrize(
    ("payload", "error", "words"),
    [
        ({"method": "custom", "amounts": {"1": 300, "2": 100, "3": 50}, "stacks": {"1": 5, "2": 5, "3": 5}},
         IllegalAction, "The deal pays 450: the prizes still to be paid are 500. The figures must add up to it."),
        ({"method": "custom", "amounts": {"1": 300, "2": 200}, "stacks": {"1": 5, "2": 5}},
         InvalidInput, "Every player still in is in the deal: give the chips of Cy."),
        ({"method": "custom", "amounts": {"1": 250, "2": 150, "3": 100}, "stacks": {"1": 5, "2": 5, "3": 0}},
         InvalidInput, "Cy is still in, so has chips, not 0."),
        ({"method": "coin", "amounts": {}, "stacks": {}}, InvalidInput, "Choose how the deal is worked out"),
        ({"method": "custom", "amounts": {"1": 150, "2": 100, "3": 100}, "stacks": {"1": 5, "2": 5, "3": 5},
          "play_for": 150}, IllegalAction, "Leave at most 100 to play for: the first prize less the second."),
    ],
)
def test_a_deal_that_does_not_add_up_is_refused_with_the_reason(payload, error, words):
    do = night()
    do("bust", {"players": [5]})
    do("bust", {"players": [4]})
    with pytest.raises(error, match=words.replace("(", r"\(").replace(")", r"\)").replace(".", r"\.")):
        do("deal", payload)


def test_no_deal_before_the_start_nor_twice():
    state = create(Event(1, "created", {"name": "x"}, 0.0))
    state = apply(state, Event(2, "player_registered", {"name": "Ann"}, 1.0))
    with pytest.raises(IllegalAction, match="has not started"):
        apply(state, Event(3, "deal", {"method": "equal", "amounts": {}, "stacks": {}}, 2.0))
    do = night(players=("Ann", "Bob", "Cy"))
    do("deal", {"method": "equal", "amounts": {"1": 100, "2": 100, "3": 100}, "stacks": {"1": 1, "2": 1, "3": 1},
                "play_on": True})
    with pytest.raises(EngineError, match="A deal was already made"):
        do("deal", {"method": "equal", "amounts": {"1": 100, "2": 100, "3": 100}, "stacks": {"1": 1, "2": 1, "3": 1}})


def test_the_amount_to_play_for_comes_off_the_first_prize():
    assert shared_prizes([500, 300, 200], 200) == [300, 300, 200]
