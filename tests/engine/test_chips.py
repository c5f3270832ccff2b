import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.cards import parse_cards
from engine.chips import (
    CHIP_SETS,
    CLUB_SET,
    HOME_SET,
    SMALL_SET,
    ChipSet,
    Denomination,
    colour_up,
    payable,
    suggest_stack,
)
from engine.errors import InvalidInput


class StackedDeck(random.Random):
    """An rng whose shuffle puts the given cards on top, in the order they will be dealt."""

    def __init__(self, cards: str) -> None:
        super().__init__(0)
        self.top = list(parse_cards(cards))

    def shuffle(self, x):  # type: ignore[override]
        rest = [c for c in x if c not in self.top]
        x[:] = self.top + rest


# --- Chip sets -----------------------------------------------------------------------


def test_chip_sets_have_colours_by_name_and_css_hex():
    for chip_set in CHIP_SETS.values():
        for d in chip_set.denominations:
            assert d.hex.startswith("#") and len(d.hex) == 7
    assert HOME_SET.values == (25, 100, 500, 1000, 5000)
    assert CLUB_SET.values == (5, 25, 100, 500)
    assert SMALL_SET.values == (1, 5, 25, 100)
    assert Denomination(25, "#123456", 10).hex == "#123456"
    assert HOME_SET.total_value == 120 * 25 + 120 * 100 + 50 * 500 + 75 * 1000 + 35 * 5000


def test_chip_set_lists_each_chip_once_smallest_first():
    with pytest.raises(InvalidInput, match="smallest first"):
        ChipSet("bad", (Denomination(100, "black", 10), Denomination(25, "green", 10)))
    with pytest.raises(InvalidInput, match="no chip of 50"):
        HOME_SET.denomination(50)


def test_payable_with_the_smallest_chip_in_play():
    assert payable(150, (25, 100, 500))
    assert not payable(150, (100, 500))
    assert not payable(10, ())


# --- Starting stacks ---------------------------------------------------------------------


@pytest.mark.parametrize("set_id", list(CHIP_SETS))
@pytest.mark.parametrize("stack", [1000, 1500, 2000, 5000, 10_000, 20_000])
@pytest.mark.parametrize("players", [2, 6, 10])
def test_starting_stack_breakdown_fits_the_set_or_says_why_not(set_id, stack, players):
    chip_set = CHIP_SETS[set_id]
    try:
        b = suggest_stack(chip_set, stack, players)
    except InvalidInput as err:
        assert str(err).endswith(".")
        assert f"{stack:,}" in str(err) or "chips" in str(err)
        return
    assert sum(v * n for v, n in b.chips) == stack
    for v, n in b.chips:
        assert n * players <= chip_set.denomination(v).count
    assert b.chips[0][0] == chip_set.values[0]  # everyone gets some of the smallest chip
    assert b.lines[-1] == f"{b.chip_count} chips = {stack:,} per player"


def test_tda_6_3_home_set_gives_ten_players_ten_thousand_with_every_working_chip():
    """TDA 6.3: "for 10 players on a T25 base: 120×T25, 120×T100, 50×T500, 75×T1000, 35×T5000
    ... supports starting stacks from 5K to 25K"."""
    b = suggest_stack(HOME_SET, 10_000, 10)
    assert b.chips == ((25, 8), (100, 8), (500, 4), (1000, 7))
    assert b.lines[0] == "8 × 25 = 200"
    suggest_stack(HOME_SET, 5000, 10)
    suggest_stack(HOME_SET, 25_000, 10)


def test_starting_stack_refusals_explain_themselves():
    with pytest.raises(InvalidInput, match="not a multiple of 25"):
        suggest_stack(HOME_SET, 1010, 4)
    with pytest.raises(InvalidInput, match=r"10 stacks of 10,000 need 100,000 in chips, but the .* holds only 13,400"):
        suggest_stack(SMALL_SET, 10_000, 10)
    with pytest.raises(InvalidInput, match="too few chips of the small values"):
        suggest_stack(SMALL_SET, 5000, 2)
    with pytest.raises(InvalidInput, match="at least one player"):
        suggest_stack(HOME_SET, 1000, 0)


# --- Colour-up: the chip race (TDA 24, RRoP 15, TDA 9 T52/T53) --------------------------


def test_tda_t52_leftover_225_gives_2_chips():
    """T52: "Removing T25 (next chip T100): total leftover 225 gives 2 chips"."""
    r = colour_up({1: 1075, 2: 1050, 3: 1050, 4: 2025, 5: 3025, 6: 1000}, 25, 100, random.Random(5))
    assert dict(r.odd_chips) == {1: 3, 2: 2, 3: 2, 4: 1, 5: 1}
    assert r.chips_raced == 2 and len(r.winners) == 2
    assert r.change == 200 - 225 == -25
    assert "The odd chips total 225: 2 chips of 100 are raced for." in r.lines
    assert r.lines[-1] == "Chips in play fall by 25: 9,225 before, 9,200 after."


def test_tda_t52_leftover_250_gives_3_chips_rounded_half_up():
    """T52: "250 gives 3" — a final partial set earns a chip if it is half or more of a new chip."""
    r = colour_up({1: 1075, 2: 1075, 3: 1050, 4: 1050}, 25, 100, random.Random(5))
    assert sum(n for _, n in r.odd_chips) * 25 == 250
    assert r.chips_raced == 3
    assert r.change == 300 - 250
    r = colour_up({1: 1075, 2: 1075, 3: 1075}, 25, 100, random.Random(5))  # 225
    assert r.chips_raced == 2 and r.change == -25


def test_tda_t52_one_card_per_odd_chip_from_seat_1_and_highest_card_wins():
    """T52: "One card per odd chip from seat 1; highest by rank then suit (♠>♥>♦>♣)"."""
    # Seat 1 has 3 odd chips (gets the first 3 cards), seat 2 one, seat 4 two; 150 leftover = 2 chips.
    rng = StackedDeck("2c 3c Kh  Ks  Kd 9s")
    r = colour_up({4: 550, 1: 1075, 2: 925, 3: 1000}, 25, 100, rng)
    assert r.cards == ((1, parse_cards("2c3cKh")), (2, parse_cards("Ks")), (4, parse_cards("Kd9s")))
    assert r.chips_raced == 2  # 150 -> 1.5 -> 2
    assert r.winners == (2, 1)  # king of spades, then king of hearts; king of diamonds loses
    assert dict(r.stacks) == {1: 1100, 2: 1000, 3: 1000, 4: 500}
    assert "Seat 2 wins a 100 chip with the King of spades." in r.lines


def test_tda_t52_at_most_one_chip_per_player():
    """T52: "at most one chip per player" — even holding the best cards."""
    rng = StackedDeck("As Ah Ad  2c 2d 2h")  # seat 1 holds the three best cards
    r = colour_up({1: 1075, 2: 1075}, 25, 100, rng)  # 150 leftover: 2 chips
    assert r.winners == (1, 2)
    assert dict(r.stacks) == {1: 1100, 2: 1100}


def test_tda_t53_player_with_only_odd_chips_is_never_raced_out():
    """T53: "A player whose only chips are odd T25s loses the race: gets 1 lowest-remaining chip
    (TDA) ... Never eliminated.\""""
    rng = StackedDeck("Ac  2c")
    r = colour_up({1: 1025, 2: 25}, 25, 100, rng)  # 50 leftover: 1 chip, seat 1 wins it
    assert r.winners == (1,)
    assert r.raced_out == (2,)
    assert dict(r.stacks) == {1: 1100, 2: 100}
    assert r.change == 150
    assert any("Seat 2 lost the race with no other chips" in line for line in r.lines)


def test_tda_t53_rrop_option_gives_the_broke_player_a_new_chip_first():
    """T53: "... or a new chip first (RRoP), per CONFIG" — RRoP 15: "A player left with no chips
    is given a new-denomination chip before anyone else"."""
    rng = StackedDeck("Ac  2c")
    r = colour_up({1: 1025, 2: 25}, 25, 100, rng, raced_out_award="first_chip")
    assert r.raced_out == (2,) and r.winners == ()
    assert dict(r.stacks) == {1: 1000, 2: 100}
    assert r.change == 50


def test_colour_up_changes_whole_units_directly():
    r = colour_up({1: 1400, 2: 900}, 25, 100, random.Random(1))
    assert r.odd_chips == () and r.winners == () and r.change == 0
    assert "Nobody has odd chips left over: there is no race." in r.lines


def test_colour_up_is_reproducible_with_the_same_seed():
    stacks = {s: 1000 + 25 * s for s in range(1, 10)}
    a = colour_up(stacks, 25, 100, random.Random(42))
    b = colour_up(stacks, 25, 100, random.Random(42))
    assert a == b


def test_colour_up_refuses_impossible_changes():
    with pytest.raises(InvalidInput, match="larger multiple"):
        colour_up({1: 100}, 25, 60, random.Random(1))
    with pytest.raises(InvalidInput, match="Seat 3's stack of 1,010 cannot be made with chips of 25"):
        colour_up({3: 1010}, 25, 100, random.Random(1))


def test_colour_up_with_more_odd_chips_than_one_deck_deals_fresh_decks():
    stacks = {s: 475 for s in range(1, 15)}  # 14 players × 19 odd 25s = 266 cards
    r = colour_up(stacks, 25, 500, random.Random(3))
    assert sum(len(c) for _, c in r.cards) == 266
    assert len(r.winners) == r.chips_raced <= 14


@given(
    st.dictionaries(st.integers(1, 10), st.integers(1, 400).map(lambda n: n * 25), min_size=1),
    st.integers(0, 2**32),
    st.sampled_from(["extra_chip", "first_chip"]),
)
def test_colour_up_invariants(stacks, seed, award):
    """Chips change only by the rounding (and any chips given to broke players); nobody is
    raced out; nobody wins more than one chip; every stack is made of the new chips."""
    r = colour_up(stacks, 25, 100, random.Random(seed), raced_out_award=award)
    new = dict(r.stacks)
    assert set(new) == set(stacks)
    assert all(v > 0 and v % 100 == 0 for v in new.values())
    assert len(set(r.winners)) == len(r.winners)
    odd_value = sum(n for _, n in r.odd_chips) * 25
    assert r.chips_raced == int(odd_value / 100 + 0.5)
    racers = {s for s, _ in r.odd_chips}
    assert len(r.winners) <= min(r.chips_raced, len(racers))
    assert r.change == 100 * (len(r.winners) + len(r.raced_out)) - odd_value
    for s, v in stacks.items():
        assert new[s] - (v - v % 100) in (0, 100)
    # Each winner's best card beats the best card of every racer who won nothing.
    best = {s: max(c) for s, c in r.cards}
    losers = racers - set(r.winners) - set(r.raced_out)
    for w in r.winners:
        assert all(best[w] > best[x] for x in losers)
