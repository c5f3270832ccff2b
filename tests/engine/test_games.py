"""A game for each level (the issue on games): the structure names each level's game, a hand
dealt at a level is played at its game, a game the assistant does not deal is said so, and an
unknown game is refused with the list of games."""

from __future__ import annotations

import pytest

from engine.errors import IllegalAction, InvalidInput
from engine.games import GAMES, game_named
from engine.structure import Level, Structure, edit, structure_from_dict, structure_to_dict
from tests.engine.test_dealing import Night


def mixed() -> Structure:
    return Structure("Mixed", (
        Level(10, 20, hands=2, game="plo"), Level(20, 40, hands=2, game="lhe"), Level(30, 60, hands=2, game="stud"),
        Level(40, 80, hands=2),
    ), 1000)


def test_a_structure_keeps_each_levels_game_and_one_of_a_single_game_reads_as_before():
    s = mixed()
    assert structure_from_dict(structure_to_dict(s)) == s
    assert "game" not in structure_to_dict(s)["items"][3]


def test_an_unknown_game_is_refused_with_the_list_of_games():
    """The issue on games: "A structure with an unknown game: refused with the list of games"."""
    data = structure_to_dict(mixed())
    data["items"][0]["game"] = "omaha"
    with pytest.raises(InvalidInput) as info:
        structure_from_dict(data)
    assert str(info.value) == (
        "Item 1: the game must be one of nlhe, plhe, lhe, plo, plo5, lo, plo8, lo8, choice, stud, razz, 2-7td, not 'omaha'."
    )
    with pytest.raises(InvalidInput, match="game must be one of nlhe"):
        edit(mixed(), {"edit": "level", "item": 3, "game": "holdem"})


def test_a_level_changes_game_in_play():
    new, words = edit(mixed(), {"edit": "level", "item": 3, "game": "plo5"})
    assert new.level(4).game == "plo5" and words == "Level 4: PLO5 40/80, 2 hands (was 40/80, 2 hands)."


def test_the_clock_shows_the_game_with_its_limits():
    """The issue on games: the TV shows "PLO 100 / 200", "Limit Hold'em 200 / 400"."""
    assert game_named("plo").label(100, 200) == "PLO 100 / 200"
    assert game_named("lhe").label(100, 200) == "LHE 200 / 400"
    assert str(GAMES["lhe"].name) == "Limit Hold'em"


def test_hands_are_dealt_at_the_levels_game_and_a_level_change_waits_for_the_next_hand():
    """T41: "A level ends mid-hand: the new blinds start on the next hand"; so does the game."""
    night = Night(["Ann", "Bob", "Cy"], {1: (1, 1), 2: (1, 2), 3: (1, 3)}, {1: 3}, structure=mixed())
    hand = night.deal()
    assert (hand.setup.betting, hand.setup.game) == ("pot-limit", "omaha")
    legal = hand.replay().legal_actions()
    assert legal.max_bet_or_raise_to == 70  # the pot: 30 + the call 20 = 50 over the 20
    night.fold_round()
    night.deal()
    night.fold_round()
    hand = night.deal()  # level 2: limit Hold'em at 20/40, bets of 40 and 80: a raise to 80
    assert (hand.setup.betting, hand.setup.game) == ("fixed-limit", "holdem")
    legal = hand.replay().legal_actions()
    assert legal.min_bet_or_raise_to == 80 == legal.max_bet_or_raise_to and legal.raises_left == 3
    night.fold_round()
    night.deal()
    night.fold_round()
    with pytest.raises(IllegalAction) as info:  # level 3: stud, dealt without the assistant
        night.deal()
    assert str(info.value) == (
        "Level 3 is Seven-Card Stud: the dealer's assistant does not follow that game. "
        "Deal it at the table and enter the bust-outs on the dashboard."
    )


def test_a_dealers_choice_level_deals_the_game_the_dealer_picks_from_the_hosts_list():
    """The issue on games: "dealer's choice" where the dealer picks the game at each hand from
    the host's list."""
    structure = Structure("Choice", (Level(10, 20, hands=4, game="choice"),), 1000, choices=("plo", "lhe"))
    assert structure_from_dict(structure_to_dict(structure)) == structure
    night = Night(["Ann", "Bob", "Cy"], {1: (1, 1), 2: (1, 2), 3: (1, 3)}, {1: 3}, structure=structure)
    with pytest.raises(IllegalAction) as info:
        night.deal()
    assert str(info.value) == "Level 1 is dealer's choice: say which game this hand is, one of plo, lhe."
    with pytest.raises(IllegalAction, match="one of plo, lhe"):
        night.add("hand_started", {"table": 1, "game": "nlhe"})
    night.add("hand_started", {"table": 1, "game": "lhe"})
    hand = night.state.dealing.running(1)
    assert (hand.setup.betting, hand.setup.game) == ("fixed-limit", "holdem")
    night.fold_round()
    night.add("hand_started", {"table": 1, "game": "plo"})
    assert night.state.dealing.running(1).setup.game == "omaha"


def test_the_hosts_list_changes_in_play_and_holds_only_games_the_assistant_deals():
    structure = Structure("Choice", (Level(10, 20, hands=4, game="choice"),), 1000)
    new, words = edit(structure, {"edit": "choices", "choices": ["plo8", "plo"]})
    assert new.choices == ("plo8", "plo") and words == "Dealer's choice: PLO8, PLO."
    assert edit(new, {"edit": "choices", "choices": []})[0].choices == ()
    with pytest.raises(InvalidInput) as info:
        edit(structure, {"edit": "choices", "choices": ["stud"]})
    assert str(info.value) == "The dealer's choice can only list games the dealer's assistant follows, not Seven-Card Stud."
    data = structure_to_dict(structure)
    data["choices"] = ["razz"]
    with pytest.raises(InvalidInput, match="The dealer's choice is a list of different games"):
        structure_from_dict(data)


@pytest.mark.parametrize(("names", "kept"), [(["Ann", "Bob", "Cy"], True), (["Ann", "Bob"], False)])
def test_the_house_keeps_the_limits_cap_heads_up_until_the_last_two(names: list[str], kept: bool) -> None:
    """TDA 48: "In limit the house cap applies even heads-up, until the whole event is down to 2
    players." With the house's setting, a limit hand keeps its cap heads-up while more than two
    are left in the tournament; without it (the default), it never does."""
    structure = Structure("Limit", (Level(10, 20, hands=4, game="lhe"),), 1000)
    seats = {p: (1, p) for p in range(1, len(names) + 1)}
    house = Night(names, seats, {1: 1}, structure=structure, limit_cap_heads_up=True)
    assert house.deal().setup.cap_heads_up is kept
    assert Night(names, seats, {1: 1}, structure=structure).deal().setup.cap_heads_up is False
