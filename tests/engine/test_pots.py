"""Pots: uncalled bets, main and side pots, odd chips (seed 000, TDA 5 and T42-T44)."""

from __future__ import annotations

import itertools

from hypothesis import given
from hypothesis import strategies as st

from engine.pots import (
    Award,
    Pot,
    PotAward,
    award_pot,
    build_pots,
    clockwise_from,
    pot_name,
    split_pot,
    uncalled_bet,
)


def test_tda_t42_uncalled_part_of_a_bet_goes_back():
    """T42: "A (5000 all-in) vs B (3000 all-in): 2000 goes back to A before the pots are built." """
    assert uncalled_bet({1: 5000, 2: 3000}) == (1, 2000)


def test_uncalled_bet_none_when_matched_or_empty():
    assert uncalled_bet({1: 300, 2: 300, 3: 100}) is None
    assert uncalled_bet({}) is None


def test_uncalled_bet_counts_folded_players_chips_as_called():
    """A raise that a player called before folding later is not uncalled up to that amount."""
    assert uncalled_bet({1: 1000, 2: 400, 3: 100}) == (1, 600)


def test_seed_all_in_player_wins_at_most_what_they_put_in_from_each_opponent():
    """Seed 000: "A player who is all-in can win from each opponent at most what they put in
    themselves: any extra bets form one or more side pots, contested only by the players
    who contributed to them." """
    pots = build_pots({1: 200, 2: 500, 3: 1000}, live={1, 2, 3})
    assert pots == (
        Pot(600, (1, 2, 3)),
        Pot(600, (2, 3)),
        Pot(500, (3,)),
    )


def test_tda_t43_three_way_all_in_different_stacks():
    """T43: "Three-way all-in with different stacks: main pot plus side pots, each split
    separately." Contributions after the uncalled part went back."""
    pots = build_pots({3: 300, 5: 700, 7: 700}, live={3, 5, 7})
    assert pots == (Pot(900, (3, 5, 7)), Pot(800, (5, 7)))


def test_folded_chips_stay_in_the_pots():
    """Seed 000: folding gives up "the chips already bet"."""
    pots = build_pots({1: 50, 2: 400, 3: 400}, live={2, 3})
    assert pots == (Pot(850, (2, 3)),)


def test_folded_chips_above_an_all_in_level_go_to_the_side_pot():
    pots = build_pots({1: 100, 2: 300, 3: 300, 4: 250}, live={1, 2, 3})
    assert pots == (Pot(400, (1, 2, 3)), Pot(550, (2, 3)))


def test_dead_antes_are_in_the_main_pot():
    """TDA RP-11: the ante is dead money in the main pot, even for the short stack."""
    pots = build_pots({1: 2500, 2: 3000, 3: 3000}, live={1, 2, 3}, dead=1000)
    assert pots == (Pot(8500, (1, 2, 3)), Pot(1000, (2, 3)))


def test_pots_from_antes_alone():
    assert build_pots({1: 0, 2: 0}, live={1, 2}, dead=30) == (Pot(30, (1, 2)),)
    assert build_pots({1: 0, 2: 0}, live={1, 2}) == ()


def test_player_all_in_on_the_ante_can_win_the_antes_only():
    pots = build_pots({1: 0, 2: 500, 3: 500}, live={1, 2, 3}, dead=25)
    assert pots == (Pot(25, (1, 2, 3)), Pot(1000, (2, 3)))


def test_big_blind_ante_is_dead_money_not_a_side_pot():
    """TDA RP-11: the big blind ante is dead money; if the big blind is all-in and called,
    the ante does not make a side pot for the big blind."""
    pots = build_pots({1: 75, 2: 3350, 5: 3350}, live={2, 5}, dead=225)
    assert pots == (Pot(7000, (2, 5)),)


def test_two_all_ins_at_the_same_level_make_one_pot():
    pots = build_pots({1: 300, 2: 300, 3: 900, 4: 900}, live={1, 2, 3, 4})
    assert pots == (Pot(1200, (1, 2, 3, 4)), Pot(1200, (3, 4)))


def test_clockwise_from_an_empty_button_seat():
    assert clockwise_from(2, [1, 3, 9, 4]) == [3, 4, 9, 1]
    assert clockwise_from(9, [1, 3, 9]) == [1, 3, 9]


def test_tda_t44_odd_chip_to_first_winner_clockwise_from_empty_button():
    """T44: "A 1001 split between two winners (1-chip unit): the extra chip goes to the
    first winner clockwise from the button, even if the button is on an empty seat." """
    assert split_pot(1001, [1, 4], button=3) == ((4, 501), (1, 500))
    assert split_pot(1001, [1, 4], button=4) == ((1, 501), (4, 500))


def test_seed_several_odd_chips_go_one_each_from_the_left_of_the_button():
    """Seed 000: "odd chips that cannot be divided go one each to the winners, starting
    with the first player to the left of the button." """
    assert split_pot(1004, [2, 5, 8], button=6) == ((8, 335), (2, 335), (5, 334))


def test_award_text_names_winners_hand_and_odd_chip():
    award = Award(
        (
            award_pot(0, Pot(1200, (3, 5, 7)), [3], button=1, hand_name="Flush, ace high"),
            award_pot(1, Pot(401, (5, 7)), [7, 5], button=1),
        )
    )
    assert award.describe() == (
        "Side pot 1 (401) split between seats 5 and 7, odd chip to seat 5; "
        "Seat 3 wins the main pot (1,200) with a flush, ace high."
    )
    assert award.won() == {3: 1200, 5: 201, 7: 200}
    assert award.pots[1].winners == (5, 7)
    assert award.pots[1].odd_chips_to == (5,)


def test_award_text_for_hand_names_without_an_article():
    pot = PotAward("main pot", 100, ((2, 100),), (), "Two pair, kings and sevens")
    assert pot.describe() == "Seat 2 wins the main pot (100) with two pair, kings and sevens"


def test_pot_names():
    assert [pot_name(i) for i in range(3)] == ["main pot", "side pot 1", "side pot 2"]


contributions = st.dictionaries(st.integers(1, 10), st.integers(0, 5000), min_size=2, max_size=10)


@given(contributions, st.data(), st.integers(0, 500))
def test_pots_conserve_chips_and_eligible_seats_contributed(contrib, data, dead):
    seats = sorted(contrib)
    live = set(data.draw(st.lists(st.sampled_from(seats), min_size=1, unique=True)))
    back = uncalled_bet(contrib)
    called = dict(contrib)
    if back:
        called[back[0]] -= back[1]
    pots = build_pots(called, live, dead)
    assert sum(p.amount for p in pots) == sum(called.values()) + dead
    level = 0
    for pot in pots:
        assert pot.amount > 0
        assert set(pot.eligible) <= live
        assert pot.eligible
        top = min(called[s] for s in pot.eligible)
        assert top >= level
        level = top
    # Each pot is contested by fewer (or as many) seats than the one before.
    for a, b in itertools.pairwise(pots):
        assert set(b.eligible) < set(a.eligible)


@given(st.integers(0, 10_000), st.lists(st.integers(1, 10), min_size=1, max_size=9, unique=True),
       st.integers(1, 10))
def test_split_pot_conserves_and_differs_by_at_most_one(amount, winners, button):
    shares = split_pot(amount, winners, button)
    assert sum(c for _, c in shares) == amount
    assert {s for s, _ in shares} == set(winners)
    chips = [c for _, c in shares]
    assert max(chips) - min(chips) <= 1
    assert chips == sorted(chips, reverse=True)
    assert [s for s, _ in shares] == clockwise_from(button, winners)
