"""Bounties (issue "Money for the night", part 1): "knockout: a fixed bounty per entry (part of
the buy-in, shown apart from the prize pool); whoever eliminates a player takes it;
progressive knockout: the eliminator takes a share (50 % by default, settable) and the rest
goes onto his own head; the winner also collects his own head's bounty [...] re-entries and
rebuys follow the same setting."

The rule followed for who takes it: the player the bust names as the eliminator (``by``) takes
the whole bounty (knockout) or the share (progressive), as the house rules of bounty
tournaments have it (the WSOP's and PokerStars' "the player who eliminates another collects
the bounty"); the seeds and the TDA are silent on bounties."""

from __future__ import annotations

import pytest

from engine.bounties import bounties
from engine.errors import EngineError, InvalidInput
from engine.events import Event
from engine.sheet import sheet
from engine.tournament import apply, create, settings_from_dict


def night(players=("Ann", "Bob", "Cy", "Dee"), **settings):
    state = create(Event(1, "created", {"name": "KO", "buy_in": 50, **settings}, 0.0))
    box = {"state": state, "seq": 1}

    def do(kind, payload=None):
        box["seq"] += 1
        box["state"] = apply(box["state"], Event(box["seq"], kind, payload or {}, float(box["seq"])))
        return box["state"]

    for name in players:
        do("player_registered", {"name": name})
    do("clock", {"action": "start"})
    return do


def test_a_knockout_bounty_goes_whole_to_the_eliminator_and_the_winner_keeps_his_own():
    do = night(bounty_kind="knockout", bounty=20)
    state = do("bust", {"players": [2], "by": 1})
    assert bounties(state).won == {1: 20}
    assert state.prize_pool == 4 * 30  # the bounties are apart from the prize pool
    state = do("bust", {"players": [3], "by": 1})
    state = do("bust", {"players": [4], "by": 1})
    assert state.finished
    b = bounties(state)
    assert b.won == {1: 80} and b.paid_in == 80 and b.unclaimed == 0


def test_a_progressive_chain_of_three_knockouts():
    do = night(bounty_kind="progressive", bounty=20)
    state = do("bust", {"players": [2], "by": 1})  # Ann takes 10 of Bob's 20, her head 20 + 10
    assert (bounties(state).won, bounties(state).head(1)) == ({1: 10}, 30)
    state = do("bust", {"players": [1], "by": 3})  # Cy takes 15 of Ann's 30, his head 20 + 15
    assert (bounties(state).won, bounties(state).head(3)) == ({1: 10, 3: 15}, 35)
    state = do("bust", {"players": [4], "by": 3})  # Cy takes 10 of Dee's 20 and, the winner, his own 45
    b = bounties(state)
    assert state.finished and b.won == {1: 10, 3: 15 + 10 + 45}
    assert sum(b.won.values()) == b.paid_in == 80


def test_the_progressive_share_is_settable():
    do = night(bounty_kind="progressive", bounty=20, pko_share=25)
    state = do("bust", {"players": [2], "by": 1})
    assert bounties(state).won == {1: 5} and bounties(state).head(1) == 35


def test_a_rebuy_buys_a_new_bounty_and_a_bust_with_nobody_named_leaves_it_unclaimed():
    do = night(bounty_kind="knockout", bounty=10, rebuy_levels=3, rebuy_cost=50)
    state = do("bust", {"players": [2]})
    assert bounties(state).unclaimed == 10
    state = do("rebuy", {"player": 2})
    assert bounties(state).head(2) == 10 and bounties(state).paid_in == 50
    state = do("bust", {"players": [2], "by": 3})
    assert bounties(state).won == {3: 10}


def test_the_sheet_balances_with_the_bounties_apart():
    do = night(bounty_kind="progressive", bounty=20, fee_amount=5)
    do("bust", {"players": [2], "by": 1})
    do("bust", {"players": [1], "by": 3})
    state = do("bust", {"players": [4], "by": 3})
    s = sheet(state)
    assert (s.paid_in, s.fees, s.bounties, s.pool) == (200, 20, 80, 100)
    assert s.balance == 0 and s.unpaid == 0
    took = {r.name: (r.took, r.bounties) for r in s.rows}
    assert took["Cy"] == (100 + 70, 70) and took["Ann"] == (10, 10)


@pytest.mark.parametrize(
    ("settings", "words"),
    [
        ({"bounty_kind": "knockout", "bounty": 60}, "The bounty of 60 is more than the buy-in of 50."),
        ({"bounty_kind": "knockout", "bounty": 48, "fee_amount": 5}, "more than the buy-in of 50 less its fee (5)"),
        ({"bounty_kind": "knockout", "bounty": 0}, "needs a bounty of at least 1"),
        ({"bounty_kind": "mystery", "bounty": 10}, "Unknown bounty 'mystery'"),
        ({"bounty_kind": "progressive", "bounty": 10, "pko_share": 101}, "from 1% to 100%"),
    ],
)
def test_bounties_that_make_no_sense_are_refused(settings, words):
    with pytest.raises(InvalidInput, match=words.replace("(", r"\(").replace(")", r"\)")):
        settings_from_dict({"name": "KO", "buy_in": 50, **settings})


def test_the_bounties_are_editable_until_the_first_knockout():
    do = night(bounty_kind="knockout", bounty=10)
    state = do("settings_changed", {"bounty": 15})
    assert state.settings.bounty == 15
    do("bust", {"players": [4], "by": 1})
    with pytest.raises(EngineError, match="the bounties cannot change now"):
        do("settings_changed", {"bounty": 20})
