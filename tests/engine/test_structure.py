import json
from itertools import pairwise

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.chips import CLUB_SET, HOME_SET, payable
from engine.errors import InvalidInput
from engine.structure import (
    MAX_DOUBLINGS,
    PRESETS,
    Break,
    Level,
    Structure,
    colour_up_steps,
    denominations_at,
    describe_break,
    describe_level,
    estimate_end,
    home_structure,
    preset,
    problems,
    sit_and_go,
    structure_from_dict,
    structure_to_dict,
    total_minutes,
    validate,
    warnings,
)

SEED_000_LEVELS = [
    (10, 20), (15, 30), (25, 50), (50, 100), (75, 150),
    (100, 200), (150, 300), (200, 400), (300, 600), (500, 1000),
]


def timed(*blinds, minutes=20):
    return tuple(Level(sb, bb, minutes=minutes) for sb, bb in blinds)


# --- Seed 000: the sit-and-go -------------------------------------------------


@pytest.mark.parametrize("stack", [1000, 2000])
@pytest.mark.parametrize("turbo", [False, True])
def test_seed_000_blinds_start_at_10_20_and_follow_the_listed_levels(stack, turbo):
    """Seed 000: "The blinds start at 10/20 and go up ...: 10/20, 15/30, 25/50, 50/100,
    75/150, 100/200, 150/300, 200/400, 300/600, 500/1000"."""
    s = sit_and_go(stack, turbo=turbo)
    assert [(s.level(n).small_blind, s.level(n).big_blind) for n in range(1, 11)] == SEED_000_LEVELS
    assert s.starting_stack == stack
    assert validate(s) is s


def test_seed_000_blinds_double_at_every_level_after_500_1000():
    """Seed 000: "... 500/1000, then they double at every level" (for as long as the game lasts)."""
    s = sit_and_go(1000)
    assert [(s.level(n).small_blind, s.level(n).big_blind) for n in range(10, 15)] == [
        (500, 1000), (1000, 2000), (2000, 4000), (4000, 8000), (8000, 16000),
    ]
    assert s.level(40).big_blind == 1000 * 2**30
    assert not s.continues_last_level(40)


def test_seed_000_normal_mode_a_new_level_every_6_hands():
    """Seed 000: "go up every 6 hands (every 4 in turbo mode)"."""
    assert {lv.hands for lv in sit_and_go(1000).levels} == {6}
    assert sit_and_go(1000).level(25).hands == 6
    assert sit_and_go(1000).hand_counted


def test_seed_000_turbo_mode_a_new_level_every_4_hands():
    """Seed 000: "Blind increase: normal, every 6 hands, or turbo, every 4 hands"."""
    assert {lv.hands for lv in sit_and_go(2000, turbo=True).levels} == {4}
    assert sit_and_go(2000, turbo=True).level(12).hands == 4


def test_seed_000_there_are_no_antes():
    """Seed 000: "forced bets that start the pot. There are no antes.\""""
    s = sit_and_go(1000)
    assert all(s.level(n).ante == 0 for n in range(1, 30))


def test_seed_000_the_game_ends_after_120_hands():
    """Seed 000: "As a safety net the game ends after 120 hands in any case"."""
    assert sit_and_go(1000).hand_cap == 120
    assert sit_and_go(2000, turbo=True).hand_cap == 120


def test_level_numbers_start_at_one():
    with pytest.raises(InvalidInput, match="There is no level 0"):
        sit_and_go().level(0)


def test_doubling_stops_somewhere_reasonable():
    s = sit_and_go()
    assert s.level(10 + MAX_DOUBLINGS).big_blind == 1000 * 2**MAX_DOUBLINGS
    with pytest.raises(InvalidInput, match="out of reach"):
        s.level(11 + MAX_DOUBLINGS)


# --- Text -----------------------------------------------------------------------


def test_describe_level_and_break():
    assert describe_level(Level(100, 200, 200, minutes=20), 5) == "Level 5 · 100/200 · ante 200"
    assert describe_level(Level(500, 1000, hands=6), 10) == "Level 10 · 500/1,000"
    assert describe_break(Break(10)) == "Break · 10 min"
    assert describe_break(Break(10, (25,))) == "Break · 10 min · colour up the 25 chips"


# --- Validation -------------------------------------------------------------------


def msgs(*items, **kw):
    return problems(Structure("test", tuple(items), kw.pop("stack", 10_000), **kw))


def test_validation_big_blind_must_be_above_small_blind():
    """Each message names the level: "Level 4: the big blind (100) must be above the small blind (100).\""""
    found = msgs(*timed((10, 20), (25, 50), (50, 100), (100, 100)))
    assert found == ["Level 4: the big blind (100) must be above the small blind (100)."]


def test_validation_falling_blinds():
    found = msgs(*timed((50, 100), (75, 150), (50, 100)))
    assert found == ["Level 3: the blinds (50/100) fall below level 2's (75/150)."]


@pytest.mark.parametrize(
    ("level", "message"),
    [
        (Level(0, 20, minutes=20), "Level 2: the small blind must be at least 1, not 0."),
        (Level(100, 200, minutes=0), "Level 2: a level must last at least 1 minute, not 0."),
        (Level(100, 200, -5, minutes=20), "Level 2: the ante (-5) cannot be negative."),
        (Level(100, 200), "Level 2: give its length either in minutes or in hands."),
        (Level(100, 200, minutes=20, hands=6), "Level 2: give its length either in minutes or in hands, not both."),
    ],
)
def test_validation_a_zero_or_broken_level_is_named(level, message):
    found = msgs(Level(10, 20, minutes=20), level, Level(500, 1000, minutes=20))
    assert message in found


def test_validation_a_break_cannot_come_first():
    found = msgs(Break(10), *timed((10, 20)))
    assert found == ["The structure cannot start with a break: put a level before it."]


def test_validation_two_breaks_in_a_row_are_refused():
    found = msgs(*timed((10, 20)), Break(10), Break(5), *timed((20, 40)))
    assert found == ["The break after level 1 follows another break: make them one break."]


def test_validation_hand_counted_and_timed_levels_do_not_mix():
    found = msgs(Level(10, 20, hands=6), Level(20, 40, minutes=20))
    assert found == [
        "Level 2 is counted in minutes but level 1 in hands: a structure is either timed or counted in hands."
    ]


def test_validation_odd_structures():
    assert msgs() == ["The structure has no levels."]
    assert "The starting stack must be at least 1, not 0." in msgs(*timed((10, 20)), stack=0)
    assert "The hand cap must be at least 1 hand, not 0." in msgs(*timed((10, 20)), hand_cap=0)
    assert "The break after level 1 must last at least 1 minute, not 0." in msgs(*timed((10, 20)), Break(0))
    assert "The break after level 1 cannot be in a hand-counted structure: breaks are timed." in msgs(
        Level(10, 20, hands=6), Break(10), Level(20, 40, hands=6)
    )
    assert "The break after level 1 removes the 5 chips, which are not in play." in msgs(
        *timed((25, 50)), Break(10, (5,)), *timed((50, 100)), denominations=(25, 100)
    )


def test_validate_raises_every_problem_in_one_sentence_list():
    bad = Structure("bad", timed((100, 100), (50, 60)), 1000)
    with pytest.raises(InvalidInput) as err:
        validate(bad)
    assert "Level 1: the big blind (100)" in str(err.value)
    assert "Level 2: the blinds (50/60) fall below" in str(err.value)


def test_warning_blinds_not_payable_after_a_colour_up():
    """A warning, not an error: "Level 9: 150/300 cannot be paid once the 25 chips are removed
    at the break after level 6.\""""
    items = (
        *timed((25, 50), (50, 100), (75, 150), (100, 200), (150, 300), (200, 400)),
        Break(10, (25,)),
        *timed((300, 600), (400, 800), (150, 300)),
    )
    # (falling blinds are an error too; this structure is about the warning)
    s = Structure("w", items, 10_000, denominations=(25, 100, 500, 1000))
    assert "Level 9: 150/300 cannot be paid once the 25 chips are removed at the break after level 6." in warnings(s)


def test_warning_blinds_not_payable_from_the_start_and_ante():
    s = Structure("w", (Level(15, 30, minutes=20), Level(50, 100, 30, minutes=20)), 1500, denominations=(25, 100))
    assert warnings(s) == [
        "Level 1: 15/30 cannot be paid with chips of 25 and up.",
        "Level 2: the ante of 30 cannot be paid with chips of 25 and up.",
    ]
    assert problems(s) == []


def test_no_payability_warnings_without_physical_chips():
    assert warnings(sit_and_go(1000)) == []


# --- Presets ----------------------------------------------------------------------


@pytest.mark.parametrize("preset_id", list(PRESETS))
def test_every_preset_is_valid_and_payable(preset_id):
    label, factory = PRESETS[preset_id]
    s = factory()
    assert label and s.name
    assert problems(s) == []
    assert warnings(s) == []
    assert preset(preset_id) == s


def test_unknown_preset_is_refused():
    with pytest.raises(InvalidInput, match="There is no preset 'nope'"):
        preset("nope")


@pytest.mark.parametrize("hours", [2.5, 4.5])
@pytest.mark.parametrize(("stack", "chip_set"), [(10_000, HOME_SET), (20_000, HOME_SET), (1500, CLUB_SET)])
@pytest.mark.parametrize("players", [6, 10, 20])
def test_tda_6_4_home_structures_rise_about_50_percent_a_level(hours, stack, chip_set, players):
    """TDA 6.4: "Increases: about +50% per level, so the BB doubles every two levels."
    and "the event ends around the level where BB ≈ 5% of all chips in play"."""
    s = home_structure(stack, hours=hours, chip_set=chip_set, players=players)
    bbs = [lv.big_blind for lv in s.levels]
    ratios = [b / a for a, b in pairwise(bbs)]
    assert all(1.2 <= r <= 1.6 for r in ratios), ratios
    assert 1.3 <= (bbs[-1] / bbs[0]) ** (1 / len(ratios)) <= 1.55
    assert all(lv.small_blind * 2 == lv.big_blind for lv in s.levels)
    end = estimate_end(s, players)
    assert end is not None and end.minutes is not None
    assert abs(end.minutes - hours * 60) <= 0.3 * hours * 60
    assert problems(s) == [] and warnings(s) == []


def test_home_structures_break_about_every_hour_and_colour_up_when_chips_are_not_needed():
    """TDA 6.1 (RRoP 15): "remove a denomination once it is no longer needed for blinds or antes"."""
    s = home_structure(10_000, hours=4.5)
    minutes = 0
    for item in s.items:
        if isinstance(item, Break):
            assert 45 <= minutes <= 90
            minutes = 0
        else:
            minutes += item.minutes
    removed = [v for _, b in s.breaks() for v in b.colour_up]
    assert removed == [25, 100]
    for n in range(1, s.level_count + 1):
        in_play = denominations_at(s, n)
        lv = s.level(n)
        assert payable(lv.small_blind, in_play) and payable(lv.big_blind, in_play)
    after, _ = next((a, b) for a, b in s.breaks() if b.colour_up == (25,))
    assert s.level(after).small_blind % 100 != 0  # the 25s were needed until then


def test_colour_up_steps_name_the_chip_each_removed_chip_becomes():
    s = home_structure(10_000, hours=4.5)
    steps = colour_up_steps(s)
    assert [(v, into) for _, v, into in steps] == [(25, 100), (100, 500)]
    for after, v, _ in steps:
        assert v in s.break_after(after).colour_up


def test_home_structure_big_blind_ante_after_the_first_break():
    """TDA 1.8 / RP-11: "if a single player pays the ante, use a big-blind ante"."""
    s = home_structure(10_000, hours=4.5, ante=True)
    first_break, _ = next(iter(s.breaks()))
    assert all(s.level(n).ante == 0 for n in range(1, first_break + 1))
    assert all(s.level(n).ante == s.level(n).big_blind for n in range(first_break + 1, s.level_count + 1))
    assert s.ante_kind == "big_blind"


def test_home_structure_level_length_can_be_chosen():
    s = home_structure(5000, hours=3, level_minutes=12)
    assert {lv.minutes for lv in s.levels} == {12}


def test_home_structure_refuses_a_stack_the_chips_cannot_make():
    with pytest.raises(InvalidInput, match="1,010 cannot be made with chips of 25"):
        home_structure(1010)


def test_a_timed_structure_without_doubling_continues_its_last_level():
    s = home_structure(10_000, hours=2.5)
    last = s.levels[-1]
    assert s.level(s.level_count + 3) == last
    assert s.continues_last_level(s.level_count + 1)
    assert not s.continues_last_level(s.level_count)


# --- Time to the end ---------------------------------------------------------------


def test_tda_6_4_estimated_end_first_level_with_big_blind_at_least_a_twentieth_of_the_chips():
    """TDA 6.4: "est_end_level = first level with BB >= total_chips/20, then add up the level
    and break durations"."""
    s = Structure("t", (*timed((50, 100), (100, 200)), Break(10), *timed((200, 400), (300, 600))), 2000)
    e = estimate_end(s, 4)  # 8,000 chips: BB >= 400
    assert (e.level, e.big_blind, e.minutes, e.hands) == (3, 400, 70, None)
    assert total_minutes(s) == 90
    assert estimate_end(s, 100) is None  # never gets there without doubling
    sng = estimate_end(sit_and_go(1000), 6)  # 6,000 chips: BB >= 300
    assert (sng.level, sng.hands, sng.minutes) == (7, 42, None)
    far = estimate_end(sit_and_go(2000, turbo=True), 100)  # 200,000 chips: BB >= 10,000
    assert (far.level, far.big_blind, far.hands) == (14, 16000, 56)


# --- Plain dicts ---------------------------------------------------------------------


@pytest.mark.parametrize("preset_id", list(PRESETS))
def test_presets_round_trip_through_json(preset_id):
    s = preset(preset_id)
    assert structure_from_dict(json.loads(json.dumps(structure_to_dict(s)))) == s


@st.composite
def structures(draw):
    hand_counted = draw(st.booleans())
    n = draw(st.integers(1, 12))
    items = []
    bb = draw(st.integers(2, 100))
    for i in range(n):
        bb += draw(st.integers(0, 500))
        sb = draw(st.integers(1, bb - 1))
        ante = draw(st.integers(0, bb))
        if hand_counted:
            items.append(Level(sb, bb, ante, hands=draw(st.integers(1, 10))))
        else:
            items.append(Level(sb, bb, ante, minutes=draw(st.integers(1, 60))))
            if i < n - 1 and draw(st.booleans()):
                items.append(Break(draw(st.integers(1, 30)), tuple(draw(st.lists(st.integers(1, 1000), max_size=2)))))
    return Structure(
        draw(st.text(max_size=20)),
        tuple(items),
        draw(st.integers(1, 10**6)),
        draw(st.none() | st.integers(1, 500)),
        draw(st.booleans()),
        tuple(sorted(set(draw(st.lists(st.integers(1, 1000), max_size=4))))),
        draw(st.sampled_from(["big_blind", "per_player"])),
    )


@given(structures())
def test_any_structure_round_trips_through_json(s):
    data = json.loads(json.dumps(structure_to_dict(s)))
    if problems(s):
        with pytest.raises(InvalidInput):
            structure_from_dict(data)
    else:
        assert structure_from_dict(data) == s


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({}, "no list of levels"),
        ({"items": [{"type": "round"}], "starting_stack": 10}, "Item 1 must be of type 'level' or 'break'"),
        ({"items": [{"type": "level", "small_blind": 10}], "starting_stack": 10}, "Item 1 has no big blind"),
        (
            {"items": [{"type": "level", "small_blind": "ten", "big_blind": 20, "minutes": 5}], "starting_stack": 10},
            "Item 1: the small blind must be a whole number, not 'ten'",
        ),
        ({"items": [{"type": "level", "small_blind": 10, "big_blind": 20, "minutes": 5}]}, "The structure has no starting stack"),
        ({"items": [{"type": "level", "small_blind": 20, "big_blind": 20, "minutes": 5}], "starting_stack": 10}, "Level 1: the big blind (20)"),
    ],
)
def test_structure_from_dict_refuses_bad_data_with_a_reason(data, message):
    with pytest.raises(InvalidInput) as err:
        structure_from_dict(data)
    assert message in str(err.value)
