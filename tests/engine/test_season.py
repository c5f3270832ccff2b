"""A season's points and standings (engine.season), worked by hand."""

from __future__ import annotations

import pytest

from engine.errors import InvalidInput
from engine.season import Night, SeasonRules, night_points, rules_from_dict, standings

A, B, C, D, E = 1, 2, 3, 4, 5


def series() -> list[Night]:
    """Four nights; E misses the second. Places by the table formula: 10, 7, 5, 3, 2."""
    return [
        Night(11, "Week 1", 1.0, 5, {A: 1, B: 2, C: 3, D: 4, E: 5}),  # A10 B7 C5 D3 E2
        Night(12, "Week 2", 2.0, 4, {B: 1, C: 2, A: 3, D: 4}),  # B10 C7 A5 D3
        Night(13, "Week 3", 3.0, 5, {C: 1, A: 2, B: 3, E: 4, D: 5}),  # C10 A7 B5 E3 D2
        Night(14, "Week 4", 4.0, 5, {A: 1, C: 2, D: 3, B: 4, E: 5}),  # A10 C7 D5 B3 E2
    ]


def test_best_three_of_four_with_a_three_way_tie_before_the_last_night():
    """By hand: every night counted, A 32, C 29, B 25, D 13, E 7; the best three, A 10+10+7 =
    27, C 10+7+7 = 24, B 10+7+5 = 22, D 5+3+3 = 11, E 3+2+2 = 7. Before week 4 A, B and C all
    have 22, one win and a best night of 10 over three nights: they share first."""
    rules = SeasonRules(best_n=3)
    rows = standings(rules, series())
    assert [(r.rank, r.person, r.points) for r in rows] == [(1, A, 27), (2, C, 24), (3, B, 22), (4, D, 11), (5, E, 7)]
    assert [r.movement for r in rows] == [0, -1, -2, 0, 0]
    a = rows[0]
    assert a.counted == (11, 14, 13) and a.by_night == {11: 10, 12: 5, 13: 7, 14: 10} and a.wins == 2
    everything = standings(SeasonRules(), series())
    assert [(r.person, r.points) for r in everything] == [(A, 32), (C, 29), (B, 25), (D, 13), (E, 7)]
    before = standings(rules, series()[:3])
    assert [(r.rank, r.person) for r in before] == [(1, A), (1, B), (1, C), (4, D), (5, E)]


def test_the_tie_break_is_wins_then_the_best_night_then_the_most_nights():
    """Everyone on 10 points. P1 and P5 each won their one night (10): they share first; P2
    has no win and a best night of 10 (2nd, 6, and four knockouts); P4 a best night of 8 (4th,
    2, then 2nd with two knockouts, 8); P3 a best of 5 (3rd with a knockout, twice)."""
    rules = SeasonRules(formula="custom", custom=((1, 10), (2, 6), (3, 4), (4, 2)), knockout_points=1)
    p1, p2, p3, p4, p5 = 1, 2, 3, 4, 5
    nights = [
        Night(1, "One", 1.0, 6, {p1: 1, p2: 2, p3: 3, p4: 4}, knockouts={p2: 4, p3: 1}),
        Night(2, "Two", 2.0, 6, {p5: 1, p4: 2, p3: 3}, knockouts={p4: 2, p3: 1}),
    ]
    rows = standings(rules, nights)
    assert all(r.points == 10 for r in rows)
    assert [(r.rank, r.person) for r in rows] == [(1, p1), (1, p5), (3, p2), (4, p4), (5, p3)]
    # Before night two: P1 10 (a win), P2 10, P3 5, P4 2; P5 had not played.
    assert [r.movement for r in rows] == [0, None, -1, 0, -2]


def test_the_final_night_multiplier_knockouts_and_the_bonus_for_playing():
    rules = SeasonRules(formula="field", knockout_points=2, playing_bonus=1, final_multiplier=2)
    night = Night(1, "Final", 1.0, 3, {A: 1, B: 2, C: 3}, knockouts={A: 2}, final=True)
    # field: 3, 2, 1; A (3 + 2×2 + 1) × 2 = 16, B (2 + 1) × 2 = 6, C (1 + 1) × 2 = 4
    assert night_points(rules, night) == {A: 16, B: 6, C: 4}


def test_players_sharing_a_place_share_the_custom_points_of_the_places_they_cover():
    rules = SeasonRules(formula="custom", custom=((1, 25), (2, 18), (3, 15)))
    assert night_points(rules, Night(1, "x", 1.0, 4, {A: 1, B: 2, C: 2, D: 4})) == {A: 25, B: 16.5, C: 16.5, D: 0}


@pytest.mark.parametrize(("data", "words"), [
    ({"formula": "bogus"}, "Unknown points formula 'bogus'"),
    ({"formula": "custom"}, "A custom points table needs the points of at least one place"),
    ({"formula": "custom", "custom": "1=25, first=10"}, "Write each custom place as place=points"),
    ({"formula": "custom", "custom": "1=25, 1=10"}, "lists each place once"),
    ({"best_n": "2.5"}, "a whole number of best nights"),
    ({"final_multiplier": "0.5"}, "at least 1"),
    ({"knockout_points": "x"}, "must be a number"),
])
def test_rules_that_make_no_sense_are_refused(data, words):
    with pytest.raises(InvalidInput, match=words):
        rules_from_dict(data)


def test_the_rules_read_as_typed():
    rules = rules_from_dict({"formula": "custom", "custom": "1st=25; 2nd=18, 3=15", "best_n": "8",
                             "knockout_points": "0,5", "final_multiplier": "2"})
    assert rules.custom == ((1, 25), (2, 18), (3, 15)) and rules.best_n == 8 and rules.knockout_points == 0.5


def test_bounty_points_count_the_bounty_money_won():
    rules = SeasonRules(bounty_points=0.1)
    night = Night(1, "KO", 1.0, 2, {A: 1, B: 2}, bounties={A: 45})
    assert night_points(rules, night) == {A: 14.5, B: 7}  # 10 + 45 x 0.1; 7
