"""Every command's declared input (director.core.inputs), read as the pages and the API read it
(``contract.read``): each model's bounds and the sentence of its refusal, numbers read as
typed, ``BustIn.who()``, ActIn's amount named by its kind, and the structure's items."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import BaseModel

from director.core.contract import read
from director.core.inputs import (
    ActIn,
    ActionClockIn,
    AddTimeIn,
    BustIn,
    CashTableIn,
    CorrectIn,
    HandCapIn,
    HandForHandIn,
    LockIn,
    PasswordIn,
    RegisterIn,
    StructureIn,
    TournamentIn,
)
from engine.errors import InvalidInput

LEVEL = {"type": "level", "small_blind": 100, "big_blind": 200}


def refusal(model: type[BaseModel], data: dict[str, Any]) -> str:
    with pytest.raises(InvalidInput) as refused:
        read(model, data)
    return str(refused.value)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"table_size": 11}, "The table size must be at most 10, not 11."),
        ({"table_size": 1}, "The table size must be at least 2, not 1."),
        ({"table_size": True}, "The table size must be a whole number, not True."),
        ({"name": "x" * 41}, "The tournament name is too long: at most 40 characters, not 41."),
        ({"buy_in": 10_000_001}, "The buy-in must be at most 10,000,000, not 10,000,001."),
        ({"max_rebuys": 101}, "The rebuy limit must be at most 100, not 101."),
        ({"starting_stack": 0}, "The starting stack must be at least 1, not 0."),
        ({"payout_kind": "winner"}, "The payout kind must be one of 'table', 'custom' or 'points', not 'winner'."),
    ],
)
def test_tournament_in_refuses_a_setting_out_of_bounds(data: dict[str, Any], message: str) -> None:
    assert refusal(TournamentIn, data) == message


def test_tournament_in_reads_numbers_and_names_as_typed_and_gives_only_what_was_given() -> None:
    settings = read(TournamentIn, {"name": "  Friday   night ", "table_size": " 6 ", "starting_stack": "1,500",
                                   "csrf_token": "ignored"})
    assert (settings.name, settings.table_size, settings.starting_stack) == ("Friday night", 6, 1500)
    assert settings.given() == {"name": "Friday night", "table_size": 6, "starting_stack": 1500}


def test_bust_in_who_is_the_players_else_the_player_else_nobody() -> None:
    assert read(BustIn, {"players": ["3", 4], "player": 9}).who() == [3, 4]
    assert read(BustIn, {"player": "3"}).who() == [3]
    assert read(BustIn, {}).who() == []
    assert refusal(BustIn, {"players": list(range(101))}) == "The players has too many items: at most 100."
    assert refusal(BustIn, {"player": 1, "by": -1}) == "The eliminator must be at least 0, not -1."


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"kind": "raise", "amount": "lots"}, "The raise amount must be a whole number, not 'lots'."),
        ({"action": "call", "amount": "lots"}, "The call amount must be a whole number, not 'lots'."),
        ({"amount": "lots"}, "The bet amount must be a whole number, not 'lots'."),
        ({"kind": "raise", "amount": True}, "The raise amount must be a whole number, not True."),
        ({"kind": "raise", "amount": 0}, "The amount must be at least 1, not 0."),
        ({"kind": "shove"}, "The kind must be one of 'fold', 'check', 'call', 'bet', 'raise', 'allin', "
                            "'all-in', 'all_in' or 'muck', not 'shove'."),
        ({"kind": "call", "seat": 11}, "The seat must be at most 10, not 11."),
    ],
)
def test_act_in_refuses_with_the_dealers_sentence(data: dict[str, Any], message: str) -> None:
    assert refusal(ActIn, data) == message


def test_act_in_reads_an_amount_as_typed() -> None:
    act = read(ActIn, {"kind": "raise", "amount": "1,000", "seat": "3"})
    assert (act.kind, act.amount, act.seat) == ("raise", 1000, 3)
    assert read(ActIn, {"action": "fold"}).action == "fold"


def test_structure_in_refuses_an_item_that_is_neither_level_nor_break() -> None:
    message = refusal(StructureIn, {"items": [LEVEL, {"type": "ante", "minutes": 5}], "starting_stack": 1000})
    assert message == "The items (1) must have a type of 'level', 'break', not 'ante'."
    nested = refusal(TournamentIn, {"structure": {"items": [{"type": "ante"}], "starting_stack": 1000}})
    assert nested == "The structure (items, 0) must have a type of 'level', 'break', not 'ante'."
    untyped = refusal(StructureIn, {"items": [{"minutes": 5}], "starting_stack": 1000})
    assert untyped == "The items (0) has no type: say what it is."


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"items": [{"type": "break", "minutes": 1441}]}, "The items (0, break, minutes) must be at most 1,440, not 1,441."),
        ({"items": [{**LEVEL, "hands": 0}]}, "The items (0, level, hands) must be at least 1, not 0."),
        ({"items": [{"type": "level", "small_blind": 1}]}, "The items (0, level, big_blind) is missing."),
        ({"items": [{"type": "break", "minutes": 5, "colour_up": [0]}]},
         "The items (0, break, colour_up, 0) must be at least 1, not 0."),
        ({"items": [LEVEL], "repeat_doubling": "yes"}, "The repeat doubling must be true or false, not 'yes'."),
        ({"items": [LEVEL] * 201}, "The items has too many items: at most 200."),
    ],
)
def test_structure_in_bounds_each_item(data: dict[str, Any], message: str) -> None:
    assert refusal(StructureIn, {"starting_stack": 1000, **data}) == message


def test_structure_in_reads_levels_and_breaks() -> None:
    structure = read(StructureIn, {"items": [LEVEL, {"type": "break", "minutes": "10"}], "starting_stack": "5,000"})
    level, pause = structure.items
    assert (level.type, level.small_blind, level.big_blind, level.ante, level.minutes) == ("level", 100, 200, 0, None)
    assert (pause.type, pause.minutes, pause.colour_up) == ("break", 10, [])
    assert structure.starting_stack == 5000 and structure.ante_kind == "big_blind"


@pytest.mark.parametrize(
    ("model", "data", "message"),
    [
        (HandForHandIn, {"on": "yes"}, "Say whether hand for hand is on: true or false."),
        (ActionClockIn, {"seconds": 4}, "The seconds must be at least 5, not 4."),
        (ActionClockIn, {"action": "go"}, "The action must be one of 'start' or 'stop', not 'go'."),
        (CashTableIn, {"seats": 7}, "The seats must be one of 6 or 9, not 7."),
        (LockIn, {"player": 1, "table": 1000, "seat": 1}, "The table must be at most 999, not 1,000."),
        (LockIn, {"player": 1, "table": 1}, "The seat is missing."),
        (AddTimeIn, {"seconds": -86_401}, "The number of seconds must be at least -86,400, not -86,401."),
        (AddTimeIn, {"expected_seq": -1}, "The expected sequence number must be at least 0, not -1."),
        (PasswordIn, {"password": "x" * 201}, "The password is too long: at most 200 characters, not 201."),
        (CorrectIn, {"player": 1, "stack": -1}, "The stack must be at least 0, not -1."),
        (HandCapIn, {}, "The stack is missing."),
        (RegisterIn, {"name": "y" * 41}, "The player's name is too long: at most 40 characters, not 41."),
    ],
)
def test_the_other_commands_refuse_out_of_bounds(model: type[BaseModel], data: dict[str, Any], message: str) -> None:
    assert refusal(model, data) == message
