"""Every command's declared input: its fields, their types and their bounds.

One model per command, read through ``contract.read`` by the JSON API and the pages alike.
The bounds come from ``engine.limits``; the rules of poker and of the night stay in the
engine and the services, which refuse with their own reasons what is well formed but wrong.
"""

from __future__ import annotations

import re
from typing import Annotated, Any, Literal

from pydantic import (
    BeforeValidator,
    ConfigDict,
    Field,
    StrictBool,
    WithJsonSchema,
    field_validator,
    model_validator,
)

from director.core.contract import (
    PLAYER_KEYS,
    Chips,
    Flag,
    Id,
    Input,
    Level,
    Money,
    Name,
    Password,
    PositiveChips,
    Seat,
    SignedSeconds,
    Table,
    Text,
    Word,
    Write,
    _text,
    _whole_number,
    many,
    number,
    one_or_many,
)
from engine.chips import COLOURS, MAX_CHIP_COUNT, MAX_DENOMINATIONS
from engine.errors import N_, Message
from engine.games import DEFAULT_GAME, GAMES
from engine.limits import (
    MAX_CHIPS,
    MAX_MONEY,
    MAX_PLAYERS,
    MAX_REBUYS,
    MAX_SEAT,
    MAX_TABLE,
    MAX_TEXT,
)
from engine.rulings import MISDEALS, RULINGS
from engine.tournament import MAX_ELIMINATORS, MAX_MYSTERY_KINDS, MAX_NAME

# --- session --------------------------------------------------------------------------------


class PasswordIn(Input):
    password: Password = ""


# --- tournaments ------------------------------------------------------------------------------


Minutes = number(0, 24 * 60)
Game = Annotated[Literal[tuple(GAMES)], Word]  # type: ignore[valid-type]
"""A game's key, as ``engine.games.GAMES`` lists them."""
GAME_WORDS = "The game dealt at the level, one of " + ", ".join(f"{key} ({game.name})" for key, game in GAMES.items()) + "."
TableGame = Annotated[Literal[tuple(k for k, g in GAMES.items() if g.dealt)], Word]  # type: ignore[valid-type]
"""A game a cash table may deal: those the dealer's assistant follows."""
TABLE_GAME_WORDS = ("The game dealt at the table, one of " + ", ".join(
    f"{key} ({game.name})" for key, game in GAMES.items() if game.dealt) + "; No-Limit Hold'em if left out.")
MAX_BUSTS = 100
"""Players out in the same hand, in one entry (hand for hand: at every table at once)."""


class LevelIn(Input):
    type: Literal["level"]
    small_blind: Chips = Field(title=N_("small blind"))
    big_blind: Chips = Field(title=N_("big blind"))
    ante: Chips = 0
    minutes: Minutes | None = None  # type: ignore[valid-type]
    hands: number(1, 10_000) | None = None  # type: ignore[valid-type]
    game: Game = Field(DEFAULT_GAME, title=N_("game"), description=GAME_WORDS + " No-Limit Hold'em if left out.")  # type: ignore[valid-type]


class BreakIn(Input):
    type: Literal["break"]
    minutes: Minutes  # type: ignore[valid-type]
    colour_up: many(PositiveChips, 30) = Field(default_factory=list)  # type: ignore[valid-type]


class StructureIn(Input):
    """Levels and breaks as ``engine.structure`` writes them (the engine checks they make a night)."""

    name: str = Field("", max_length=80)
    items: many(Annotated[LevelIn | BreakIn, Field(discriminator="type")], 200)  # type: ignore[valid-type]
    starting_stack: PositiveChips = Field(title=N_("structure's starting stack"))
    hand_cap: number(1, 10_000) | None = None  # type: ignore[valid-type]
    repeat_doubling: StrictBool = False
    denominations: many(PositiveChips, 30) = Field(default_factory=list)  # type: ignore[valid-type]
    ante_kind: Literal["big_blind", "per_player"] = "big_blind"
    choices: many(TableGame, 20) = Field(  # type: ignore[valid-type]
        default_factory=list, title=N_("dealer's choice"), description="The host's list for dealer's choice levels "
        "(game choice): the games the dealer picks each hand's game from, each one of " + ", ".join(
            k for k, g in GAMES.items() if g.dealt) + "; left out or []: every game the dealer's assistant follows.")


class RulesIn(Input):
    """The rules a tournament is created with and may change later (``TournamentIn``,
    ``SettingsIn``); left out, each keeps the usual value or the one it has."""

    buy_in: Money | None = Field(None, title=N_("buy-in"))
    action_seconds: number(5, 600) | None = Field(None, title=N_("action clock's seconds"),  # type: ignore[valid-type]
                                                  description="A player put on the clock has this long (60 by default).")
    action_countdown: number(0, 60) | None = Field(None, title=N_("action clock's final countdown"),  # type: ignore[valid-type]
                                                   description="Seconds after them before the time is up (5 by default, TDA 29).")
    dealer_corrects: Flag | None = Field(None, title=N_("a table's dealer corrects stacks"),
                                         description="A table's dealer's phone may correct a stack to the chips "
                                         "on the felt (otherwise the floor or the director does).")
    limit_cap_heads_up: Flag | None = Field(None, title=N_("the limit's cap heads-up"),
                                            description="In a fixed-limit hand, the cap on raises stays when two "
                                            "players are left in the hand, until the tournament is down to two "
                                            "(TDA 48); otherwise it is lifted heads-up.")
    rebuy_levels: Level | None = Field(None, title=N_("last rebuy level"), description="0: no rebuys.")
    max_rebuys: number(0, MAX_REBUYS) | None = Field(None, title=N_("rebuy limit"))  # type: ignore[valid-type]
    rebuy_when: Literal["busted", "at_or_below_start"] | None = None
    rebuy_cost: Money | None = Field(None, title=N_("rebuy cost"))
    rebuy_chips: PositiveChips | None = Field(None, title=N_("rebuy chips"))
    addon_level: Level | None = Field(None, title=N_("add-on level"), description="0: no add-on.")
    addon_cost: Money | None = Field(None, title=N_("add-on cost"))
    addon_chips: PositiveChips | None = Field(None, title=N_("add-on chips"))
    late_registration_levels: Level | None = Field(None, title=N_("last late-registration level"))
    reentry_levels: Level | None = Field(None, title=N_("last re-entry level"), description="0: no re-entry.")
    max_reentries: number(0, MAX_REBUYS) | None = Field(None, title=N_("re-entry limit"),  # type: ignore[valid-type]
                                                        description="Re-entries per player; null: no limit.")
    payout_kind: Literal["table", "custom", "points"] | None = None
    percentages: Annotated[str, Field(max_length=200)] | many(float | str, 50) | None = Field(  # type: ignore[valid-type]
        None, description="e.g. '50/30/20' or [50, 30, 20] (payout_kind custom)")
    league_formula: Literal["table", "field", "sqrt"] | None = None
    payout_unit: number(1, MAX_MONEY) | None = Field(None, title=N_("payout rounding unit"))  # type: ignore[valid-type]
    fee_amount: Money | None = Field(None, title=N_("fee"), description="Kept by the house from each buy-in, "
                                     "rebuy, re-entry and add-on; 0: none.")
    fee_percent: Annotated[str, Field(max_length=12)] | Annotated[float, Field(ge=0, le=100)] | None = Field(
        None, title=N_("fee's share"), description="The share of each payment kept by the house, in percent "
        "(instead of fee_amount).")
    guarantee: Money | None = Field(None, title=N_("guaranteed prize pool"),
                                    description="The house adds the overlay up to it; 0: none.")
    fixed_prizes: Annotated[str, Field(max_length=500)] | Annotated[dict[str, Money], Field(max_length=50)] | None = Field(  # type: ignore[valid-type]
        None, title=N_("fixed prizes"), description="Places paid a fixed amount before the table shares the rest: "
        "'4=50, 5=50' or {\"4\": 50}.")
    bounty_kind: Literal["none", "knockout", "progressive", "mystery"] | None = Field(None, title=N_("bounties"))
    bounty: Money | None = Field(None, title=N_("bounty"), description="The part of each buy-in, re-entry and "
                                 "rebuy that is a bounty on the player's head.")
    pko_share: number(1, 100) | None = Field(None, title=N_("progressive bounty share"),  # type: ignore[valid-type]
                                             description="Percent of a head the eliminator takes (50 by default).")
    mystery_pool: Annotated[str, Field(max_length=500)] | Annotated[dict[str, Money], Field(max_length=MAX_MYSTERY_KINDS)] | None = Field(  # type: ignore[valid-type]
        None, title=N_("mystery bounties"), description="Mystery: the bounties drawn at the knockouts, amounts and how "
        "many of each: '500x2, 100x10' or {\"500\": 2, \"100\": 10}.")
    mystery_level: number(1, 200) | None = Field(None, title=N_("first mystery-bounty level"),  # type: ignore[valid-type]
                                                 description="Mystery: knockouts from this level on draw a bounty (1 by default).")
    min_prize_buy_in: Flag | None = Field(None, title=N_("smallest prize at least the buy-in"))
    lock_payouts: Flag | None = Field(None, title=N_("lock the payouts at the money"),
                                      description="The prizes freeze once the players left are no more than the places paid.")


class ChipIn(Input):
    """One chip value of the host's set."""

    value: PositiveChips = Field(title=N_("chip's value"))
    colour: Annotated[str, Word, Field(max_length=7)] = Field(  # type: ignore[valid-type]
        title=N_("chip's colour"), description="One of " + ", ".join(COLOURS) + ", or #rrggbb.")
    count: number(0, MAX_CHIP_COUNT) = Field(title=N_("number of chips"), description="How many the host owns.")  # type: ignore[valid-type]

    @field_validator("colour")
    @classmethod
    def known_colour(cls, value: str) -> str:
        if value in COLOURS or re.fullmatch(r"#[0-9a-f]{6}", value):
            return value
        raise ValueError(Message("The colour {colour} is not one of {colours} (or #rrggbb).", colour=repr(value),
                                 colours=", ".join(COLOURS)))


class ChipSetIn(Write):
    """The host's chip set: a name and each chip value's colour and count (any order)."""

    name: Annotated[str, BeforeValidator(_text), Field(min_length=1, max_length=80)] = Field(title=N_("chip set's name"))
    denominations: Annotated[list[ChipIn], Field(min_length=1, max_length=MAX_DENOMINATIONS)] = Field(
        title=N_("chips"))


class DealFiguresIn(Input):
    """The stacks the deal's figures are worked out from (where the app keeps a table's stacks
    they may be left out) and what is left to play for."""

    stacks: dict[Id, PositiveChips] | None = Field(None, title=N_("stack"), max_length=MAX_PLAYERS,  # type: ignore[valid-type]
                                                   description="Each player's chips, by player id.",
                                                   json_schema_extra=PLAYER_KEYS)
    play_for: Money = Field(0, title=N_("amount left to play for"),
                            description="Comes off the first prize; the winner of the play after the deal takes it.")


class AcceptDealIn(Write, DealFiguresIn):
    """The deal accepted at the final table."""

    method: Literal["icm", "chip_chop", "chop_lowest", "equal", "custom"] = Field(title=N_("deal method"))
    amounts: dict[Id, Money] | None = Field(None, title=N_("share"), max_length=MAX_PLAYERS,  # type: ignore[valid-type]
                                            description="Each player's share, by player id: for the custom method.",
                                            json_schema_extra=PLAYER_KEYS)
    play_on: Flag = Field(False, title=N_("play on"), description="Go on after the deal even with nothing left to "
                          "play for (for the trophy); with nothing left and no play on, the tournament ends, "
                          "ranked by chips.")


class TournamentIn(RulesIn):
    """A new tournament's settings; left out, each takes the preset's or the usual value."""

    name: Name = Field("", title=N_("tournament name"))
    preset: str | None = Field(None, max_length=40, description="A preset structure id (see the setup "
                               "page); used when no 'structure' is given.")
    structure: StructureIn | None = None
    based_on: str | None = Field(None, max_length=40, description="The preset an edited structure started from.")
    starting_stack: PositiveChips | None = Field(None, title=N_("starting stack"))
    table_size: number(2, MAX_SEAT) | None = Field(None, title=N_("table size"))  # type: ignore[valid-type]
    chip_set: str | None = Field(None, max_length=40, description="A ready-made set's id (home, club, small).")
    chips: ChipSetIn | None = Field(None, title=N_("the host's chips"), description="The host's own chips "
                                    "(GET /api/chip-sets): their values become the structure's chips in play.")
    pause_after_break: Flag = Field(False, title=N_("pause after a break"),
                                    description="The level after a break starts paused: the director resumes it.")
    season: Id | None = Field(None, title=N_("season"), description="A season the night counts in (GET /api/seasons).")


class SettingsIn(Write, RulesIn):
    """The settings changed after creation; a field left out keeps its value."""

    name: Name | None = Field(None, title=N_("tournament name"))
    starting_stack: PositiveChips | None = Field(None, title=N_("starting stack"))
    table_size: number(2, MAX_SEAT) | None = Field(None, title=N_("table size"))  # type: ignore[valid-type]
    pause_after_break: Flag | None = Field(None, title=N_("pause after a break"))
    correct_payments: Flag | None = Field(
        None, title=N_("correct the payments already made"),
        description="A price changed here counts for later payments only (money already collected is history); "
        "true prices every payment already recorded again at the new prices (a price typed wrong).")


class ColourUpIn(Write):
    table: Table = Field(title=N_("table"))
    stacks: dict[Id, PositiveChips] | None = Field(  # type: ignore[valid-type]
        None, title=N_("stack"), max_length=MAX_SEAT, json_schema_extra=PLAYER_KEYS,
        description="Each player's chips as counted, by player id: at a table without the dealer's assistant.")


class TemplateIn(Write):
    name: Name = Field("", title=N_("template name"))


class DeleteIn(Write):
    confirm: Name = Field("", title=N_("the tournament's name"),
                          description="The tournament's name, to confirm which one is deleted.")


class RegisterIn(Write):
    name: Name = Field("", title=N_("player's name"))


class StackIn(Write):
    stack: Chips | None = Field(None, title=N_("stack"), description="The player's chips, when the rules need them.")


class AddTimeIn(Write):
    seconds: SignedSeconds | None = Field(None, title=N_("number of seconds"),
                                          description="add_time: seconds to add (negative to take); 60 if left out.")


class BreakNowIn(Write):
    minutes: number(1, 120) | None = Field(  # type: ignore[valid-type]
        None, title=N_("break's length in minutes"),
        description="break_now: the length of the break put in when none follows the level (10 if left out).")


MAX_ITEMS = 400
"""Levels and breaks in one structure (a level a minute for a whole day, with room to spare)."""


class StructureEditIn(Write):
    """One change to the structure (``engine.structure.edit``)."""

    edit: Annotated[Literal["level", "break", "add_level", "add_break", "remove", "all_levels", "choices"], Word] = Field(
        title=N_("change"), description="level or break: change it; add_level or add_break: put one in at "
        "item; remove; all_levels: every level from item on gets this length; choices: the host's list of games "
        "for dealer's choice levels.")
    item: number(0, MAX_ITEMS) | None = Field(  # type: ignore[valid-type]
        None, title=N_("position in the structure"),
        description="Where in the structure's items (from 0): the item to change, or where the new one goes "
        "(needed by every change but choices).")
    small_blind: PositiveChips | None = Field(None, title=N_("small blind"))
    big_blind: PositiveChips | None = Field(None, title=N_("big blind"))
    ante: Chips | None = Field(None, title=N_("ante"))
    minutes: number(1, 240) | None = Field(None, title=N_("length in minutes"))  # type: ignore[valid-type]
    hands: number(1, 1000) | None = Field(None, title=N_("length in hands"))  # type: ignore[valid-type]
    colour_up: Annotated[str, Field(max_length=100)] | many(PositiveChips, 10) | None = Field(  # type: ignore[valid-type]
        None, title=N_("chips to colour up"), description="A break's chip values removed from play, e.g. \"25 100\".")
    game: Game | None = Field(None, title=N_("game"), description=GAME_WORDS + " Left out, a level changed keeps "  # type: ignore[valid-type]
                              "its game and a level added deals the game of the level before it.")
    restart: Flag = Field(False, title=N_("restart"),
                          description="The level or break in play starts again from its beginning.")
    choices: many(TableGame, 20) | None = Field(  # type: ignore[valid-type]
        None, title=N_("dealer's choice"), description="choices: the games a dealer's choice level picks from "
        "([]: every game the dealer's assistant follows).")


Eliminators = one_or_many(Id, MAX_ELIMINATORS)
"""One player id, or several (a list): who split the pot that knocked a player out."""


class BustIn(Write):
    player: Id | None = Field(None, title=N_("player"))
    players: many(Id, MAX_BUSTS) | None = Field(None, title=N_("players"),  # type: ignore[valid-type]
                                               description="Several out in the same hand.")
    stacks: dict[Id, Chips] | None = Field(None, title=N_("chips at the start of the hand"), max_length=MAX_BUSTS,  # type: ignore[valid-type]
                                           description="Player id -> chips at the start of the hand (needed for several).",
                                           json_schema_extra=PLAYER_KEYS)
    by: Eliminators | None = Field(  # type: ignore[valid-type]
        None, title=N_("eliminator"),
        description="Who knocked them out: a player id, or a list of those who split the pot (they split the bounty).",
    )

    def who(self) -> list[int]:
        return list(self.players) if self.players else ([self.player] if self.player is not None else [])


class HandCapIn(Write):
    stacks: dict[Id, Chips] = Field(title=N_("stack"), max_length=2_000,  # type: ignore[valid-type]
                                    description="Player id -> chips, for every player still in.",
                                    json_schema_extra=PLAYER_KEYS)


# --- seating ------------------------------------------------------------------------------------


class DrawIn(Write):
    table_size: number(2, MAX_SEAT) | None = Field(None, title=N_("table size"))  # type: ignore[valid-type]


class ConfirmIn(Write):
    action: str = Field("", max_length=40, description="The step shown: balance, break or final.")


class PlayerIn(Write):
    player: Id = Field(title=N_("player"))


class SwapIn(Write):
    player_a: Id = Field(title=N_("first player"))
    player_b: Id = Field(title=N_("second player"))


class LockIn(Write):
    player: Id = Field(title=N_("player"))
    table: Table = Field(title=N_("table"))
    seat: Seat = Field(title=N_("seat"))


# --- the TV -----------------------------------------------------------------------------------------


class ActionClockIn(Write):
    action: Literal["start", "stop"] = "start"
    who: Name | None = Field(None, title=N_("seat or player"), description="start: e.g. 'Seat 4 · Dana'")
    seconds: number(5, 600) | None = Field(None, title=N_("seconds"))  # type: ignore[valid-type]


class HandForHandIn(Write):
    on: StrictBool | None = Field(None, json_schema_extra={
        "x-refusal": N_("Say whether hand for hand is on: true or false.")})
    next: Flag = Field(False, description="Begin the next hand-for-hand hand.")


# --- a table's hand (both games) --------------------------------------------------------------------

Kind = Annotated[Literal["fold", "check", "call", "bet", "raise", "allin", "all-in", "all_in", "muck"], Word]


class TableWrite(Write):
    seat: Seat | None = Field(None, title=N_("seat"), description="The seat acting (default: whose turn it is).")


class DealIn(Write):
    button: Seat | None = Field(None, title=N_("button seat"),
                                description="Cash: the button for a table's first hand (drawn if left out).")
    game: TableGame | None = Field(None, title=N_("game"),  # type: ignore[valid-type]
                                   description="A dealer's choice level: the game of this hand, one of the host's list.")


BetAmount = Annotated[int, BeforeValidator(_whole_number), Field(ge=1),
                      WithJsonSchema({"ge": 1, "le": MAX_CHIPS, "type": "integer"})]
"""A bet or raise "to": a whole number from 1, at most ``MAX_CHIPS`` as declared, that bound checked
after the engine has checked the amount against the player's own limit (the all-in, the pot limit):
a number past both is refused with the player's (``director.tables.commands.action_notation``)."""


class ActIn(TableWrite):
    kind: Kind | None = None
    action: Kind | None = Field(None, description="The same as 'kind'.")
    amount: BetAmount | None = Field(None, title=N_("amount"), description="Bet or raise to (the total on this "
                                     "street). Above the player's all-in, or the pot limit, it is refused with "
                                     "that limit.")

    @model_validator(mode="before")
    @classmethod
    def _amount_named_by_kind(cls, data: Any) -> Any:
        """ "The raise amount must be a whole number", as the dealer said it."""
        if isinstance(data, dict) and data.get("amount") not in (None, ""):
            try:
                int(_whole_number(data["amount"]))
            except (TypeError, ValueError):
                kind = str(data.get("kind") or data.get("action") or "bet")
                raise ValueError(Message("The {kind} amount must be a whole number, not {amount}.", kind=kind,
                                         amount=repr(data["amount"]))) from None
        return data


class PushIn(TableWrite):
    chips: str | None = Field(None, max_length=200, title=N_("chips pushed"), description="e.g. '1000+500'")
    string_bet: Flag = Field(False, description="Pushed in more than one motion.")


class OutOfTurnIn(Write):
    seat: Seat = Field(title=N_("seat"))
    kind: Annotated[Literal["fold", "f", "check", "call", "cc", "bet", "raise", "cbr"], Word] = "fold"
    amount: PositiveChips | None = Field(None, title=N_("amount"))


class AwardIn(Write):
    winners: many(many(Seat, MAX_SEAT) | Seat, MAX_SEAT) = Field(  # type: ignore[valid-type]
        title=N_("winners"), description="The winning seats of each pot, main pot first.")
    lows: many(many(Seat, MAX_SEAT), MAX_SEAT) | None = Field(  # type: ignore[valid-type]
        None, title=N_("low winners"), description="Omaha hi-lo only, and needed there: the seats winning the low "
        "half of each pot, main pot first ([] for a pot nobody makes a low in: the high takes it whole). "
        "winners are then the high half's.")


class CardsIn(Write):
    board: str | None = Field(None, max_length=20, description="The board, e.g. 'AhKd7c2s9h'.")
    cards: dict[Seat, str] | None = Field(None, max_length=MAX_SEAT,  # type: ignore[valid-type]
                                          description="Each showing seat's hole cards, e.g. {\"3\": \"AsKd\"}.")


class TableClockIn(Write):
    seconds: number(5, 600) | None = Field(None, title=N_("seconds"), description="The house's action clock if left out.")  # type: ignore[valid-type]


class MisdealIn(Write):
    cause: Literal[tuple(MISDEALS)] = Field(  # type: ignore[valid-type]
        title=N_("misdeal's cause"), description="; ".join(f"{k}: {words} ({rule})" for k, (words, rule) in MISDEALS.items()))


class RulingIn(Write):
    kind: Literal[tuple(RULINGS)] = Field(  # type: ignore[valid-type]
        title=N_("what happened"), description="; ".join(f"{k}: {words}" for k, words in RULINGS.items()))


class ButtonIn(Write):
    seat: Seat = Field(title=N_("button seat"), description="The seat the button belongs on in this hand.")


class CorrectIn(Write):
    player: Id = Field(title=N_("player"))
    stack: number(0, MAX_CHIPS) = Field(title=N_("stack"), description="The chips on the felt.")  # type: ignore[valid-type]
    reason: str | None = Field(None, max_length=MAX_TEXT, title=N_("reason"))


# --- cash games ----------------------------------------------------------------------------------------


def _whole(value: Any) -> Any:
    """A form's ``"6"`` read as the number it says."""
    return int(value) if isinstance(value, str) and value.strip().isdigit() else value


TableSeats = Annotated[Literal[6, 9], BeforeValidator(_whole)]
"""A cash table's size: 6 or 9 seats."""


class CashTableIn(Input):
    seats: TableSeats | None = Field(None, description="6 or 9.")
    stake: str | None = Field(None, max_length=20, description="e.g. '50/100'")
    small_blind: PositiveChips | None = None
    big_blind: PositiveChips | None = None
    game: TableGame | None = Field(None, title=N_("game"), description=TABLE_GAME_WORDS)  # type: ignore[valid-type]


class CashSessionIn(Input):
    """``tables`` as a list; the fields of the page's form (``table1_seats``, ``table1_stake``,
    ...) are kept too, as they always were, and read with their bounds by the session."""

    model_config = ConfigDict(extra="allow", frozen=True)

    name: Name | None = Field(None, title=N_("session name"))
    newcomers: Literal["wait", "post"] | None = None
    tables: many(CashTableIn, MAX_TABLE) | None = None  # type: ignore[valid-type]


class CashSeatIn(Write):
    member: Id | None = Field(None, title=N_("member"))
    name: Name | None = Field(None, title=N_("member's name"), description="The member, by name, instead of 'member'.")
    table: Table | None = Field(None, title=N_("table"))
    seat: Seat | None = Field(None, title=N_("seat"))
    amount: PositiveChips | None = Field(None, title=N_("number of chips"), description="Buy-in, top-up or rebuy.")
    stake: str | None = Field(None, max_length=20, description="wait, unwait, add_table: e.g. '50/100'.")
    game: TableGame | None = Field(None, title=N_("game"), description="add_table: " + TABLE_GAME_WORDS)  # type: ignore[valid-type]
    seats: number(1, MAX_SEAT) | None = Field(  # type: ignore[valid-type]
        None, description="add_table: 6 or 9 (the refusal names the table: 'Table 3 must have 6 or 9 seats').")


class MemberIn(Write):
    name: Name = Field("", title=N_("member's name"))
    grant: Chips | None = Field(None, title=N_("starting balance"))


class GrantIn(Write):
    member: Id | None = Field(None, title=N_("member"))
    name: Name | None = Field(None, title=N_("member's name"))
    amount: PositiveChips = Field(title=N_("number of chips"))
    reason: Text | None = None


__all__ = [name for name in dir() if name.endswith("In")]


# --- the players' database and seasons -------------------------------------------------------


class PersonIn(Write):
    name: Name = Field(title=N_("name"))
    nickname: Annotated[str, BeforeValidator(_text), Field(max_length=MAX_NAME)] = Field("", title=N_("nickname"))
    note: Annotated[str, BeforeValidator(_text), Field(max_length=500)] = Field("", title=N_("note"))


class PersonEditIn(Write):
    name: Name | None = Field(None, title=N_("name"), description="A new name: the old one still finds the person.")
    nickname: Annotated[str, BeforeValidator(_text), Field(max_length=MAX_NAME)] | None = Field(None, title=N_("nickname"))
    note: Annotated[str, BeforeValidator(_text), Field(max_length=500)] | None = Field(None, title=N_("note"))


class MergeIn(Write):
    into: Id = Field(title=N_("the person to merge into"), description="The record that stays; the other is merged into it.")


class SeasonIn(Write):
    name: Name = Field(title=N_("season's name"))
    formula: Literal["table", "field", "sqrt", "custom"] = Field("table", title=N_("points formula"))
    custom: Annotated[str, Field(max_length=1_000)] | None = Field(
        None, title=N_("custom points"), description="Points by place for the custom formula: '1=25, 2=18, 3=15'.")
    knockout_points: Annotated[float, Field(ge=0, le=1_000)] = Field(0, title=N_("points a knockout"))
    bounty_points: Annotated[float, Field(ge=0, le=100)] = Field(
        0, title=N_("points for each unit of bounties"), description="0.1: a point for every 10 of bounties won.")
    playing_bonus: Annotated[float, Field(ge=0, le=1_000)] = Field(0, title=N_("bonus for playing"))
    best_n: number(0, 1_000) = Field(0, title=N_("best nights counted"), description="0: every night.")  # type: ignore[valid-type]
    final_multiplier: Annotated[float, Field(ge=1, le=10)] = Field(1, title=N_("final-night multiplier"))


class SeasonNightIn(Write):
    tournament: Id = Field(title=N_("tournament"))
    final: Flag = Field(False, title=N_("the final night"), description="Its points are multiplied by the season's multiplier.")


class CsvIn(Write):
    csv: Annotated[str, Field(min_length=1, max_length=5 * 1024 * 1024)] = Field(
        title=N_("CSV"), description="The file's text, its first line naming the columns.")


class RestoreIn(Input):
    """A restore: the file comes as the form's ``backup``; this is the host's confirmation."""

    confirm: Flag = Field(False, title=N_("confirm"),
                          description="true: everything now in the app is replaced by the backup.")


class VisibilityIn(Write):
    public: Flag = Field(False, title=N_("the players' pages are public"))


# --- the TV's look ------------------------------------------------------------------------------


class TvLookIn(Write):
    """The house's TV look (every field optional: those left out keep their value)."""

    layout: Literal["big", "standard", "info"] | None = Field(None, title=N_("layout"))
    theme: Literal["dark", "light"] | None = Field(None, title=N_("theme"))
    title: Annotated[str, BeforeValidator(_text), Field(max_length=60)] | None = Field(
        None, title=N_("title"), description="The host's title over the clock ('' for none).")
    accent: Annotated[str, Field(pattern=r"^#[0-9a-fA-F]{6}$")] | None = Field(
        None, title=N_("accent colour"), description="A colour as #rrggbb.")
    show: Annotated[list[Literal["next_levels", "payouts", "leaders", "board", "season", "chart"]],
                    Field(max_length=6)] | None = Field(None, title=N_("what the TV shows"))
