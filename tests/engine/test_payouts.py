from fractions import Fraction
from itertools import pairwise

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from engine.errors import IllegalAction, InvalidInput
from engine.payouts import (
    LEAGUE_TABLE,
    MAX_ICM_PLAYERS,
    PAYOUT_TABLES,
    chip_chop,
    icm,
    icm_deal,
    league_points,
    parse_percentages,
    payout_percentages,
    payout_table,
    payouts,
    points_for_places,
    prize_pool,
    prizes_for_places,
    validate_percentages,
)

# --- tables ------------------------------------------------------------------------------


def test_tda_7_2_default_tables_cover_1_to_100_entries_without_gaps():
    """TDA 7.2: default tables by entrants, editable."""
    covered = [n for t in PAYOUT_TABLES for n in range(t.min_entries, t.max_entries + 1)]
    assert covered == list(range(1, 101))
    for table in PAYOUT_TABLES:
        assert sum(table.percentages) == 100
        assert list(table.percentages) == sorted(table.percentages, reverse=True)
        assert len(table.percentages) <= table.min_entries


@pytest.mark.parametrize(
    ("entries", "expected"),
    [
        (2, "100"), (5, "100"), (6, "65/35"), (8, "65/35"), (9, "50/30/20"), (10, "50/30/20"),
        (20, "45/25/15/10/5"), (28, "40/24/16/12/8"), (45, "40/24/16/12/8"),
        (46, "30/20/12/10/8/6.5/5.5/4.5/3.5"), (100, "30/20/12/10/8/6.5/5.5/4.5/3.5"),
    ],
)
def test_tda_7_2_sourced_tables(entries, expected):
    """TDA 7.2: ≤5 winner takes all; 6–8 65/35; 9–10 50/30/20; ~20 45/25/15/10/5;
    28–45 40/24/16/12/8; 46–100 30/20/12/10/8/6.5/5.5/4.5/3.5."""
    assert str(payout_table(entries)) == expected


def test_no_default_table_beyond_100_entries_or_below_1():
    with pytest.raises(InvalidInput, match="no default payout table for 101 entries"):
        payout_percentages(101)
    with pytest.raises(InvalidInput, match="0 entries"):
        payout_percentages(0)


def test_custom_percentages_must_add_up_to_100():
    assert parse_percentages("60 / 40") == (60, 40)
    assert parse_percentages("50%, 30%, 20%") == (50, 30, 20)
    assert validate_percentages([Fraction(100, 3)] * 3) == (Fraction(100, 3),) * 3
    assert validate_percentages(["62.5", 37.5]) == (Fraction(125, 2), Fraction(75, 2))
    with pytest.raises(InvalidInput, match="add up to 90%: they must add up to 100%"):
        validate_percentages([50, 40])
    with pytest.raises(InvalidInput, match="Place 2 is paid 60%, more than place 1 \\(40%\\)"):
        validate_percentages([40, 60])
    with pytest.raises(InvalidInput, match="Place 3 is paid 0%"):
        validate_percentages([60, 40, 0])
    with pytest.raises(InvalidInput, match="'abc' is not a percentage"):
        parse_percentages("50/abc")
    with pytest.raises(InvalidInput, match="like 50/30/20"):
        parse_percentages("  ")


# --- pool and payouts ----------------------------------------------------------------------


def test_prize_pool_from_buy_ins_rebuys_and_addons():
    """TDA 6.5: the prize pool is final only after the rebuy and add-on period closes."""
    assert prize_pool(entries=12, buy_in=20) == 240
    assert prize_pool(entries=12, buy_in=20, rebuys=5, rebuy_cost=20, addons=9, addon_cost=10) == 430
    assert prize_pool(entries=10, buy_in=25, fee_per_entry=5) == 200
    with pytest.raises(InvalidInput, match="rebuys at -1"):
        prize_pool(entries=10, buy_in=20, rebuys=-1)
    with pytest.raises(InvalidInput, match="fee of 30 is more than the buy-in of 20"):
        prize_pool(entries=10, buy_in=20, fee_per_entry=30)


def test_tda_t56_payout_rounding_keeps_the_pool():
    """TDA T56: the prizes always add up to the pool; a 10-player 50/30/20 split works.
    TDA 7.2: round each prize to the cash unit, give the remainder to 1st."""
    assert payouts(200, payout_percentages(10)) == [100, 60, 40]
    assert payouts(210, [50, 30, 20], unit=20) == [110, 60, 40]
    assert payouts(1003, [50, 30, 20]) == [503, 300, 200]
    assert payouts(333, [Fraction(100, 3)] * 3) == [111, 111, 111]
    assert payouts(100, [Fraction(100, 3)] * 3) == [34, 33, 33]
    assert payouts(0, [65, 35]) == [0, 0]


def test_payouts_refuse_bad_pool_or_unit():
    with pytest.raises(InvalidInput, match="unit of 0"):
        payouts(100, [100], unit=0)
    with pytest.raises(InvalidInput, match="prize pool cannot be -5"):
        payouts(-5, [100])


@st.composite
def percentage_lists(draw):
    n = draw(st.integers(1, 12))
    raw = draw(st.lists(st.integers(1, 1000), min_size=n, max_size=n))
    raw.sort(reverse=True)
    total = sum(raw)
    shares = [Fraction(100 * r, total) for r in raw]
    return shares


@given(pool=st.integers(0, 10**7), shares=percentage_lists(), unit=st.sampled_from([1, 5, 10, 25, 100]))
def test_payouts_always_sum_to_the_pool_and_never_increase(pool, shares, unit):
    """TDA T56 and 7.2: prizes add up to the pool, and never a lower place paid more."""
    prizes = payouts(pool, shares, unit)
    assert sum(prizes) == pool
    assert all(a >= b for a, b in pairwise(prizes))
    assert all(p % unit == 0 for p in prizes[1:])
    assert all(p >= 0 for p in prizes)


@given(entries=st.integers(1, 100), pool=st.integers(0, 10**6))
def test_default_tables_pay_the_whole_pool(entries, pool):
    prizes = payouts(pool, payout_percentages(entries), unit=5)
    assert sum(prizes) == pool and prizes == sorted(prizes, reverse=True)


# --- ties ----------------------------------------------------------------------------------


def test_tda_t23_tied_players_split_the_combined_prizes():
    """TDA T23: same starting stacks: tie for 9th/10th, each gets (P9+P10)/2."""
    prizes = [500, 300, 200, 150, 100, 80, 60, 40, 30, 20]
    places = {"A": 9, "B": 9}
    assert prizes_for_places(places, prizes) == {"A": 25, "B": 25}
    assert prizes_for_places({"A": 9, "B": 9}, [*prizes[:9], 21]) == {"A": 26, "B": 25}
    assert prizes_for_places({"A": 9, "B": 9}, [*prizes[:9], 25], unit=5) == {"A": 30, "B": 25}
    assert prizes_for_places({"A": 9, "B": 9}, [*prizes[:9], 21], unit=5) == {"A": 26, "B": 25}


def test_tda_t25_hand_for_hand_three_busts_share_the_last_paid_prize():
    """TDA T25 (RP-8A): 52 left, 50 paid, hand-for-hand announced mid-hand, 3 bust on that
    hand: each gets ⅓ of the 50th prize."""
    prizes = [1000] * 49 + [90]
    assert prizes_for_places({"x": 50, "y": 50, "z": 50}, prizes) == {"x": 30, "y": 30, "z": 30}


def test_unpaid_places_win_nothing_and_impossible_ties_are_refused():
    assert prizes_for_places({"A": 1, "B": 2, "C": 3, "D": 4}, [60, 40]) == {"A": 60, "B": 40, "C": 0, "D": 0}
    with pytest.raises(InvalidInput, match="2 players share place 2, so nobody can finish in place 3"):
        prizes_for_places({"A": 2, "B": 2, "C": 3}, [60, 30, 10])
    with pytest.raises(InvalidInput, match="place 0"):
        prizes_for_places({"A": 0}, [100])


@given(
    stacks=st.lists(st.integers(1, 5), min_size=2, max_size=12),
    pool=st.integers(0, 10_000),
    unit=st.sampled_from([1, 5, 10]),
)
def test_shared_places_still_pay_exactly_the_prizes(stacks, pool, unit):
    from engine.standings import places_for_busts

    n = len(stacks) + 1
    places = places_for_busts(n, {f"p{i}": s for i, s in enumerate(stacks)})
    places["winner"] = 1
    prizes = payouts(pool, payout_percentages(n), unit)
    won = prizes_for_places(places, prizes, unit)
    assert sum(won.values()) == pool
    assert won["winner"] == prizes[0]
    for a in places:
        for b in places:
            if places[a] < places[b]:
                assert won[a] >= won[b] - unit


# --- league points -------------------------------------------------------------------------


def test_league_points_table_and_formulas():
    assert [league_points(p, 8) for p in range(1, 9)] == [*LEAGUE_TABLE, 1, 1, 1]
    assert [league_points(p, 4, "field") for p in range(1, 5)] == [4, 3, 2, 1]
    assert league_points(1, 16, "sqrt") == 40.0 and league_points(16, 16, "sqrt") == 10.0
    with pytest.raises(InvalidInput, match="Place 9 is not a finishing place among 8 entries"):
        league_points(9, 8)
    with pytest.raises(InvalidInput, match="Unknown league formula"):
        league_points(1, 8, "golf")  # type: ignore[arg-type]


def test_tda_t23_tied_players_share_the_average_league_points():
    """TDA T23 applied to league points: a tie shares the average of the places covered."""
    points = points_for_places({"A": 1, "B": 2, "C": 2, "D": 4}, 6)
    assert points == {"A": 10, "B": 6.0, "C": 6.0, "D": 3}
    assert points_for_places({"A": 4, "B": 4, "C": 4}, 6) == {"A": 2.0, "B": 2.0, "C": 2.0}
    with pytest.raises(InvalidInput, match="do not fit among 4 entries"):
        points_for_places({"A": 4, "B": 4}, 4)


# --- ICM -----------------------------------------------------------------------------------


def test_tda_t54_icm_four_players():
    """TDA T54: ICM: stacks 100k/70k/50k/20k, prizes 200/120/80/50 give
    140.84 / 123.80 / 108.96 / 76.40."""
    equity = icm([100_000, 70_000, 50_000, 20_000], [200, 120, 80, 50])
    assert [round(x, 2) for x in equity] == [140.84, 123.80, 108.96, 76.40]
    assert sum(equity) == pytest.approx(450)


def test_tda_t54_icm_three_players():
    """TDA T54: 5000/3000/2000 with prizes 50/30/20 gives 38.39 / 32.75 / 28.86."""
    assert [round(x, 2) for x in icm([5000, 3000, 2000], [50, 30, 20])] == [38.39, 32.75, 28.86]


def test_icm_basics():
    assert icm([10, 10], [60, 40]) == [50, 50]
    assert icm([3, 1], [100]) == [75, 25]
    assert [round(x, 6) for x in icm([1, 1, 1], [90])] == [30, 30, 30]


def test_icm_refuses_too_many_players_and_too_many_prizes():
    """TDA 7.3: the number of players left must be at least the number of prizes still to be paid."""
    with pytest.raises(IllegalAction, match=f"ICM is limited to {MAX_ICM_PLAYERS} players and 13 are left"):
        icm([100] * 13, [50, 30, 20])
    with pytest.raises(IllegalAction, match="3 players cannot share 4 prizes"):
        icm([100, 200, 300], [40, 30, 20, 10])
    with pytest.raises(InvalidInput, match="must have chips"):
        icm([100, 0], [60, 40])
    with pytest.raises(InvalidInput, match="Prize 2 \\(50\\) is more than prize 1"):
        icm([100, 100], [40, 50])


def test_icm_twelve_players_is_quick_enough():
    equity = icm(list(range(1000, 13_000, 1000)), payouts(1000, payout_percentages(28)))
    assert sum(equity) == pytest.approx(1000)
    assert equity == sorted(equity)


@given(
    stacks=st.lists(st.integers(1, 10_000), min_size=1, max_size=7),
    raw=st.lists(st.integers(0, 500), min_size=1, max_size=7),
)
def test_icm_invariants(stacks, raw):
    """Equities add up to the prizes; more chips never means less equity; every equity lies
    between the lowest and the highest prize."""
    prizes = sorted(raw, reverse=True)[: len(stacks)]
    equity = icm(stacks, prizes)
    assert sum(equity) == pytest.approx(sum(prizes))
    padded = prizes + [0] * (len(stacks) - len(prizes))
    for i, e in enumerate(equity):
        assert padded[-1] - 1e-9 <= e <= padded[0] + 1e-9
        for j, f in enumerate(equity):
            if stacks[i] > stacks[j]:
                assert e >= f - 1e-9


# --- deals ---------------------------------------------------------------------------------

T55_STACKS = {"A": 100_000, "B": 70_000, "C": 50_000, "D": 20_000}
T55_PRIZES = [200, 120, 80, 50]


def test_tda_t55_pure_proportional_chop_warns_below_the_lowest_prize():
    """TDA T55: Pure proportional: 187.5 / 131.25 / 93.75 / 37.5, which is below the 50
    minimum, so the app must warn."""
    deal = chip_chop(T55_STACKS, T55_PRIZES)
    assert deal.exact == {"A": 187.5, "B": 131.25, "C": 93.75, "D": 37.5}
    assert sum(deal.amounts.values()) == 450
    assert deal.amounts == {"A": 188, "B": 131, "C": 94, "D": 37}
    assert deal.warnings == ("D would get 37.50, less than the lowest prize still to be paid (50).",)


def test_tda_t55_chip_chop_with_the_lowest_prize_guaranteed():
    """TDA T55: Chip chop with the 50 minimum guaranteed: 154.17 / 122.92 / 102.08 / 70.83."""
    deal = chip_chop(T55_STACKS, T55_PRIZES, method="lowest_prize_first")
    assert {k: round(v, 2) for k, v in deal.exact.items()} == {
        "A": 154.17, "B": 122.92, "C": 102.08, "D": 70.83,
    }
    assert deal.amounts == {"A": 154, "B": 123, "C": 102, "D": 71}
    assert deal.warnings == ()
    assert chip_chop(T55_STACKS, T55_PRIZES, unit=5, method="lowest_prize_first").amounts == {
        "A": 155, "B": 125, "C": 100, "D": 70,
    }


def test_tda_7_3_warn_when_the_chip_leader_would_get_more_than_first_prize():
    """TDA 7.3: warn when a proportional chop gives the chip leader more than 1st prize."""
    deal = chip_chop({"Ann": 900, "Bob": 100}, [60, 40])
    assert deal.amounts == {"Ann": 90, "Bob": 10}
    assert deal.warnings == (
        "Ann would get 90.00, more than the first prize of 60.",
        "Bob would get 10.00, less than the lowest prize still to be paid (40).",
    )


def test_tda_7_3_deal_refused_when_fewer_players_than_prizes():
    """TDA 7.3: the number of players left must be at least the number of prizes still to be paid."""
    with pytest.raises(IllegalAction, match="2 players cannot share 3 prizes"):
        chip_chop({"A": 1, "B": 2}, [50, 30, 20])
    with pytest.raises(InvalidInput, match="Unknown chop"):
        chip_chop({"A": 1, "B": 2}, [50, 30], method="coin")  # type: ignore[arg-type]


def test_equal_chop_and_icm_deal_keep_the_total():
    assert chip_chop({"A": 5, "B": 1, "C": 1}, [50, 30, 20], method="equal").amounts == {"A": 34, "B": 33, "C": 33}
    deal = icm_deal(T55_STACKS, T55_PRIZES, unit=5)
    assert deal.amounts == {"A": 140, "B": 125, "C": 110, "D": 75}
    assert deal.warnings == ()
    bubble = icm_deal({"A": 500, "B": 300, "C": 200, "D": 100}, [60, 40])
    assert sum(bubble.amounts.values()) == 100


@given(
    stacks=st.lists(st.integers(1, 10**6), min_size=1, max_size=8),
    raw=st.lists(st.integers(0, 5000), min_size=1, max_size=8),
    unit=st.sampled_from([1, 5, 10, 25]),
    method=st.sampled_from(["proportional", "lowest_prize_first", "equal", "icm"]),
)
def test_deals_always_pay_out_exactly_the_prizes_left(stacks, raw, unit, method):
    prizes = sorted(raw, reverse=True)[: len(stacks)]
    assume(sum(prizes) > 0)
    named = {f"p{i}": s for i, s in enumerate(stacks)}
    deal = icm_deal(named, prizes, unit) if method == "icm" else chip_chop(named, prizes, unit, method)
    assert sum(deal.amounts.values()) == sum(prizes)
    for who, amount in deal.amounts.items():
        assert abs(amount - deal.exact[who]) < unit + sum(prizes) % unit + 1e-6
