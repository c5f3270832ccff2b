"""Payouts as clubs run them (issue "Money for the night", part 2): "a fee taken off each
buy-in, rebuy and add-on before the pool (a number or a share); a guaranteed pool (the overlay
shown); fixed amounts for chosen places; a custom table; the smallest prize at least the
buy-in when set; rounding to a unit; a lock that freezes the payouts once the money is
reached, and a notice when entries change after it. [...] Whatever the table, the prizes add
up to the pool exactly (TDA.md §7.2, T56)"."""

from __future__ import annotations

from fractions import Fraction

import pytest

from engine.errors import InvalidInput
from engine.events import Event
from engine.ledger import Ledger
from engine.payouts import fee_of, pool_of, prize_table
from engine.tournament import apply, create, settings_as_dict, settings_from_dict


def test_the_prizes_add_up_to_the_pool_when_fewer_enter_than_places_are_paid():
    """The issue: "today a custom 50/30/20 with only two entrants pays 500 and 300 of a 1,000
    pool and the last 200 goes nowhere". TDA 7.2: "make sure the prizes add up exactly to the
    pool"; the shares of the places nobody can reach go to the places paid, in proportion."""
    prizes, notes = prize_table(1000, [50, 30, 20], entries=2)
    assert prizes == [625, 375] and sum(prizes) == 1000 and notes == []


@pytest.mark.parametrize("pool", [0, 1, 99, 175, 1000, 12_345, 1_000_003])
@pytest.mark.parametrize("entries", [1, 2, 3, 7, 40])
def test_every_option_keeps_the_sum_exact(pool, entries):
    """T56: "the prizes always add up to the pool"."""
    for options in ({}, {"unit": 5}, {"fixed": {4: 20}}, {"smallest": 30}, {"fixed": {2: 10, 5: 5}, "unit": 10}):
        prizes, _ = prize_table(pool, [40, 25, 15, 12, 8], entries=entries, **options)
        assert sum(prizes) == pool, options
        assert len(prizes) <= entries


def test_a_fee_is_taken_off_each_payment_as_an_amount_or_a_share():
    assert fee_of(50, fee_amount=5) == 5
    assert fee_of(55, fee_percent=Fraction(10)) == 5  # 5.5 rounded down to a whole unit
    club = settings_from_dict({"name": "Club", "buy_in": 50, "rebuy_cost": 50, "addon_cost": 25, "fee_amount": 5})
    book = Ledger()
    for seq, kind in enumerate(["entry"] * 10 + ["rebuy"] * 4 + ["addon"] * 6, start=2):
        book = book.pay(club, seq, kind, seq)
    pool = pool_of(book.paid_in, book.fees)
    assert (pool.paid_in, pool.fees, pool.pool) == (850, 100, 750)
    share = settings_from_dict({"name": "Club", "buy_in": 50, "fee_percent": "12.5"})
    book = Ledger()
    for seq in range(2, 12):
        book = book.pay(share, seq, "entry", seq)
    pool = pool_of(book.paid_in, book.fees)
    assert (pool.fees, pool.pool) == (60, 440)  # 12.5% of 50 is 6.25: 6 each


def test_a_guarantee_adds_the_overlay():
    pool = pool_of(600, guarantee=1000)
    assert (pool.paid_in, pool.overlay, pool.pool) == (600, 400, 1000)
    assert pool_of(1200, guarantee=1000).overlay == 0


def test_fixed_prizes_are_paid_first_and_the_table_shares_the_rest():
    assert prize_table(1000, [50, 30, 20], fixed={4: 50}, entries=10) == ([475, 285, 190, 50], [])
    prizes, notes = prize_table(100, [50, 30, 20], fixed={4: 60, 5: 60}, entries=10)
    assert prizes == [50, 30, 20]
    assert notes == ["The fixed prizes (120) are more than the pool (100): they are left out until the pool covers them."]


def test_the_smallest_prize_is_at_least_the_buy_in_when_set():
    prizes, notes = prize_table(300, [50, 30, 20], smallest=70, entries=15)
    assert prizes == [188, 112] and notes == ["Two places are paid, not 3, so that every prize is at least 70."]
    assert prize_table(1000, [50, 30, 20], smallest=70, entries=15) == ([500, 300, 200], [])


def test_rounding_to_a_unit_gives_the_remainder_to_first_place():
    prizes, _ = prize_table(1003, [50, 30, 20], unit=5, entries=20)
    assert prizes == [503, 300, 200]


@pytest.mark.parametrize(
    ("settings", "refusal"),
    [
        ({"fee_percent": "120"}, "A fee of 120% is not possible"),
        ({"fee_percent": "ten"}, "must be a percentage like 10 or 12.5"),
        ({"fee_amount": 30, "buy_in": 20}, "The fee of 30 is more than the buy-in of 20."),
        ({"fee_amount": 2, "fee_percent": 10}, "as an amount or as a share"),
        ({"guarantee": -1}, r"The guaranteed prize pool cannot be negative \(-1\)\."),
        ({"fixed_prizes": "4-50"}, "Write each fixed prize as place=amount"),
        ({"fixed_prizes": "4=50, 4=60"}, "Place 4 has two fixed prizes"),
        ({"fixed_prizes": "0=50"}, "place of a fixed prize cannot be 0"),
    ],
)
def test_club_payouts_that_make_no_sense_are_refused(settings, refusal):
    with pytest.raises(InvalidInput, match=refusal):
        settings_from_dict({"name": "Club", **settings})


def test_the_club_settings_read_back_as_they_were_written():
    settings = settings_from_dict({"name": "Club", "fee_percent": "12.5", "guarantee": 500,
                                   "fixed_prizes": "5th=20, 4=30", "min_prize_buy_in": True, "lock_payouts": "on"})
    assert settings.fixed_prizes == ((4, 30), (5, 20))
    data = settings_as_dict(settings)
    assert data["fixed_prizes"] == "4=30, 5=20" and data["fee_percent"] == "12.5"
    assert settings_from_dict(data) == settings


def _night(**settings):
    state = create(Event(1, "created", {"name": "Club", "buy_in": 100, "payout_kind": "custom",
                                        "percentages": "70/30", **settings}, 0.0))
    seq = 1

    def do(kind, payload=None, at=1.0):
        nonlocal state, seq
        seq += 1
        state = apply(state, Event(seq, kind, payload or {}, at))
        return state

    return state, do


def test_the_payouts_lock_at_the_money_and_share_later_money_in_proportion():
    """Issue "Money and records that add up", 2: "The lock freezes who is paid and the shape of
    the prizes; money that arrives after it is shared by a stated rule (in proportion to the
    locked prizes, odd units by the rounding unit) and the notice says so. The prizes add up to
    the pool at every moment." (TDA 7.2: the prizes add up exactly to the pool.)"""
    state, do = _night(lock_payouts=True, rebuy_levels=5, rebuy_cost=100)
    for name in ("Ann", "Bob", "Cy", "Dee"):
        state = do("player_registered", {"name": name})
    state = do("clock", {"action": "start"})
    state = do("bust", {"players": [4]})
    assert state.payouts_locked is None
    state = do("bust", {"players": [3]})
    assert state.payouts_locked is not None and state.prizes == [280, 120]
    state = do("rebuy", {"player": 3})  # back in after the money was reached
    assert state.prize_pool == 500 and state.prizes == [350, 150] and sum(state.prizes) == state.prize_pool
    assert state.payout_notes == [
        "The payouts were locked at the money with a pool of 400: the places paid stay as locked, and the 100 "
        "paid in since is shared in proportion to the locked prizes (the odd units to first place). The pool "
        "is now 500."]
    state = do("undo", {})
    state = do("undo", {})
    assert state.payouts_locked is None and state.prizes == [280, 120]


def test_without_the_lock_the_prizes_follow_the_pool():
    state, do = _night(rebuy_levels=5, rebuy_cost=100)
    for name in ("Ann", "Bob", "Cy", "Dee"):
        state = do("player_registered", {"name": name})
    state = do("clock", {"action": "start"})
    state = do("bust", {"players": [4]})
    state = do("bust", {"players": [3]})
    state = do("rebuy", {"player": 3})
    assert state.payouts_locked is None and state.prizes == [350, 150]
