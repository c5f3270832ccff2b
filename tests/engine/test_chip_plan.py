"""The host's chips (issue "The night changes as it runs", part 6): "define your own chip set
(denominations, colours, how many of each you own); the starting stack is suggested from it
and checked against what you own for the number of entries (rebuys and add-ons included); the
structure check warns when a level's blinds cannot be paid once small chips are coloured up"."""

from __future__ import annotations

import pytest

from engine.chips import (
    HOME_SET,
    SMALL_SET,
    ChipSet,
    Denomination,
    chip_set_from_dict,
    chip_set_to_dict,
    plan,
    round_stacks,
    suggest_starting_stack,
)
from engine.errors import InvalidInput
from engine.structure import Break, Level, Structure, colour_up_steps, warnings
from engine.tournament import owned_chips, settings_as_dict, settings_from_dict

MINE = {
    "name": "The blue case",
    "denominations": [
        {"value": 1000, "colour": "yellow", "count": 50},
        {"value": 25, "colour": "green", "count": 100},
        {"value": 100, "colour": "Black", "count": 100},
        {"value": 500, "colour": "#1565c0", "count": 50},
    ],
}


def test_a_chip_set_is_read_in_any_order_and_written_back_the_same():
    chips = chip_set_from_dict(MINE)
    assert chips.values == (25, 100, 500, 1000)
    assert chips.denomination(100).colour == "black"
    assert chips.denomination(500).hex == "#1565c0"
    assert chips.total_value == 100 * 25 + 100 * 100 + 50 * 500 + 50 * 1000
    assert chip_set_from_dict(chip_set_to_dict(chips)) == chips


@pytest.mark.parametrize(
    ("change", "refusal"),
    [
        ({"name": " "}, "A chip set needs a name."),
        ({"denominations": []}, "has no chips: list at least one value"),
        ({"denominations": [{"value": 25, "colour": "green", "count": 1}] * 2}, "lists the 25 chip twice"),
        ({"denominations": [{"value": 0, "colour": "green", "count": 1}]}, "A chip's value is a whole number from 1"),
        ({"denominations": [{"value": 25, "colour": "gold", "count": 1}]}, "colour 'gold' is not one of white"),
        ({"denominations": [{"value": 25, "colour": "green", "count": -1}]}, "The number of 25 chips is a whole number from 0"),
        ({"denominations": [{"value": 25, "colour": "green", "count": 10**6}]}, "from 0 to 100,000"),
        ({"denominations": [{"value": v, "colour": "red", "count": 1} for v in range(1, 12)]}, "at most 10 chip values"),
    ],
)
def test_a_chip_set_that_makes_no_sense_is_refused_with_the_reason(change, refusal):
    with pytest.raises(InvalidInput, match=refusal):
        chip_set_from_dict({**MINE, **change})


def test_the_tda_home_set_supports_starting_stacks_from_5k_to_25k_for_ten_players():
    """TDA guidance 6.3: "for 10 players on a T25 base: 120×T25, 120×T100, 50×T500, 75×T1000,
    35×T5000 (400 chips). This supports starting stacks from 5K to 25K"."""
    for stack in (5_000, 10_000, 25_000):
        assert plan(HOME_SET, stack, 10).ok, stack
    assert not plan(HOME_SET, 30_000, 10).ok
    assert suggest_starting_stack(HOME_SET, 10) == 25_000


def test_the_starting_stacks_and_rebuys_are_checked_against_the_chips_owned():
    fine = plan(HOME_SET, 10_000, 10, [("rebuy", 10, 10_000)])
    assert fine.ok and fine.needed == 200_000
    assert fine.lines[0] == "10 starting stacks of 10,000: 8 × 25, 8 × 100, 4 × 500, 7 × 1,000 each (27 chips)."
    assert fine.lines[-1] == "Chips in play at most 200,000 of the 290,000 you own."
    short = plan(HOME_SET, 10_000, 10, [("rebuy", 10, 10_000), ("add-on", 10, 10_000)])
    assert short.shortages == ("10 add-ons of 10,000 need 100,000 in chips, but the box holds only 90,000 by then.",)
    # What the starting stacks and the rebuys took is no longer in the box.
    left = dict(fine.left)
    assert all(0 <= left[d.value] <= d.count for d in HOME_SET.denominations)
    assert sum(v * n for v, n in fine.left) == HOME_SET.total_value - fine.needed


def test_too_few_small_chips_for_every_player_is_said():
    few_small = ChipSet("few", (Denomination(25, "green", 5), Denomination(100, "black", 200)))
    result = plan(few_small, 1_050, 10)  # each stack needs 25s; five of them for ten players
    assert not result.ok and result.starting is None
    assert "too few small chips for 10 players" in result.shortages[0]


def test_a_colour_up_changes_the_removed_chips_into_bigger_ones_from_the_box():
    """Seed 002: "The break is also when the smallest chips are exchanged for bigger ones
    (colour up)"; TDA 24-C: "removed-denomination chips left after the race are exchanged at
    equal value": the bigger chips come from the box, the race's chip first, then bigger ones."""
    result = plan(HOME_SET, 10_000, 9, colour_ups=[(8, 25, 100), (12, 100, 500)])
    assert result.ok
    assert "At the break after level 8 the 25 chips come back (72 chips) and 18 of 100 go out." in result.lines
    assert "At the break after level 12 the 100 chips come back (90 chips) and 14 of 500 and 2 of 1,000 go out." in result.lines
    short = plan(SMALL_SET, 1_500, 8, colour_ups=[(4, 1, 5), (8, 5, 25), (12, 25, 100)])
    assert short.shortages == (
        "At the break after level 12 the 25 chips handed out (96 chips, 2,400) are changed into bigger chips, "
        "but the box holds only 400 in chips of 100 and up by then.",
    )


def test_the_suggested_stack_leaves_room_for_the_rebuys_and_is_round():
    alone = suggest_starting_stack(HOME_SET, 10)
    with_rebuys = suggest_starting_stack(HOME_SET, 10, [("rebuy", 10, 1.0)])
    assert alone is not None and with_rebuys is not None and with_rebuys < alone
    assert plan(HOME_SET, with_rebuys, 10, [("rebuy", 10, with_rebuys)]).ok
    assert with_rebuys in round_stacks(25, 10**6)
    assert suggest_starting_stack(ChipSet("tiny", (Denomination(25, "green", 30),)), 10) is None


def test_round_stacks_are_made_of_the_smallest_chip():
    assert round_stacks(25, 2_000) == [500, 600, 750, 800, 1000, 1200, 1500, 2000]
    assert all(s % 5 == 0 for s in round_stacks(5, 100_000))


def test_the_structure_check_warns_when_blinds_cannot_be_paid_after_a_colour_up():
    """Part 6: "the structure check warns when a level's blinds cannot be paid once small chips
    are coloured up" with the host's own chips as the chips in play."""
    chips = chip_set_from_dict(MINE)
    structure = Structure(
        "x", (Level(25, 50, minutes=20), Break(10, (25,)), Level(50, 100, minutes=20), Level(100, 200, minutes=20)),
        5000, denominations=chips.values,
    )
    assert warnings(structure) == ["Level 2: 50/100 cannot be paid once the 25 chips are removed at the break after level 1."]
    assert colour_up_steps(structure) == ((1, 25, 100),)


def test_a_tournament_keeps_its_own_copy_of_the_hosts_chips():
    settings = settings_from_dict({"name": "Friday", "preset": "home-short", "chips": MINE})
    chips = chip_set_from_dict(MINE)
    assert settings.chips == chips and owned_chips(settings) == chips
    assert settings.structure.denominations == chips.values  # the chips on the table are the host's
    again = settings_from_dict(settings_as_dict(settings))
    assert again.chips == chips
    # Without the host's chips, a ready-made set counts only if the structure's chips are its chips.
    plain = settings_from_dict({"name": "Friday", "preset": "home-short"})
    assert owned_chips(plain) == HOME_SET
    with pytest.raises(InvalidInput, match="The chip set must be an object"):
        settings_from_dict({"name": "Friday", "chips": "blue"})


def test_the_starting_stacks_must_pay_the_first_blinds_exactly():
    few_small = ChipSet("few", (Denomination(25, "green", 100), Denomination(100, "black", 100),
                                Denomination(500, "blue", 60), Denomination(1000, "yellow", 60)))
    result = plan(few_small, 3_000, 30, blinds=(150, 300, 0))
    assert result.shortages == (
        "The starting stacks' smallest chip is 500: the level 1 blinds (150/300) cannot be paid exactly; "
        "the set has too few small chips for this many players.",
    )
    assert plan(few_small, 3_000, 10, blinds=(150, 300, 0)).ok
    assert suggest_starting_stack(few_small, 30, blinds=(150, 300, 0)) is None


def test_a_shallow_starting_stack_is_pointed_out():
    """TDA guidance 6.4: "Starting depth is typically 50–100 BB"; under 20 the check says so."""
    shallow = Structure("x", (Level(150, 300, minutes=15),), 3_000)
    assert warnings(shallow) == [
        "The starting stack of 3,000 is only 10 big blinds at level 1 (150/300): a tournament usually starts "
        "with 50 to 100 (TDA guidance)."
    ]
    assert warnings(Structure("x", (Level(150, 300, minutes=15),), 6_000)) == []
