"""The shapes of the JSON API's answers, declared once for the OpenAPI document.

The functions that build the answers (``api.state_json``, ``dealer.table_json``, ...) write
plain dicts for speed; a test validates the answers of a whole night against these models
with extra fields forbidden, so a field added to an answer and not here fails the suite.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

Object = dict[str, Any]


class Shape(BaseModel):
    model_config = ConfigDict(extra="forbid")


# --- session ------------------------------------------------------------------------------


class Session(Shape):
    csrf_token: str | None = None
    logged_in: bool
    password_set: bool | None = None


# --- tournaments --------------------------------------------------------------------------


class Clock(Shape):
    status: str
    title: str
    level: int | None
    on_break: bool
    small_blind: int | None
    big_blind: int | None
    ante: int | None
    game: str | None = Field(None, description="The key of the level's game (engine.games.GAMES: nlhe, plo, lhe, "
                             "choice...); none on a break.")
    seconds_left: float | None
    ends_at: float | None
    next_level: int | None
    break_next: bool
    hands_played: int
    hands_left_in_level: int | None
    hand_cap: int | None
    item: int
    """Where the clock is in the structure's items (from 0; past the list when the blinds go on)."""


class Player(Shape):
    id: int
    name: str
    status: str
    table: int | None
    seat: int | None
    rebuys: int
    addon: bool
    reentries: int
    place: int | None
    place_text: str | None
    knocked_out_by: int | None
    prize: int | None
    knocked_out_by_all: list[int] = []
    """Everyone who split the pot that knocked the player out (one id when nobody split it)."""
    bounty_head: int = 0
    """The bounty on the player's head now (knockout and progressive nights)."""
    bounties_won: int = 0


class MysteryDraw(Shape):
    victim: int
    takers: list[int]
    amount: int
    """0 when the pool was empty."""
    level: int


class BountyState(Shape):
    kind: str
    """knockout, progressive or mystery."""
    per_entry: int
    paid_in: int
    unclaimed: int
    mystery_left: list[int]
    """Mystery: the bounties still to draw, largest first."""
    mystery_draws: list[MysteryDraw]


class Prize(Shape):
    place: int
    prize: int


class Tournament(Shape):
    id: int
    name: str
    seq: int
    server_time: float
    started: bool
    finished: bool
    settings: Object
    clock: Clock
    entries: int
    players_left: int
    rebuys: int
    addons: int
    chips_in_play: int
    average_stack: int | None
    prize_pool: int | None
    payouts: list[Prize]
    players: list[Player]
    tables: dict[str, list[int]]
    bounties: BountyState | None = None


class TournamentChange(Tournament):
    notice: str
    """What changed, in words (a structure's edit adds the structure check's warnings)."""


class Done(Shape):
    notice: str
    """What was done, in words."""


class CommandStatus(Shape):
    id: str
    recorded: bool
    """Whether a command with this id was recorded (its answer is given again to a retry)."""
    status: int | None
    """The status the command was answered with, once its answer was kept."""


class Template(Shape):
    id: int
    name: str
    created_at: float
    settings: Object


class Templates(Shape):
    templates: list[Template]


class Chip(Shape):
    value: int
    colour: str
    count: int


class ChipSet(Shape):
    id: int
    name: str
    created_at: float
    denominations: list[Chip]
    total_value: int
    """What all the chips are worth together."""
    suggested_stack: int | None
    """The largest round starting stack the set makes for 9 players (None: none)."""


class ChipSets(Shape):
    chip_sets: list[ChipSet]


class DealFigure(Shape):
    name: str
    amounts: dict[str, int] | None = None
    """Each player's share by player id (None: the method cannot be worked out here)."""
    exact: dict[str, float] | None = None
    warnings: list[str] = []
    error: str | None = None


class DealFigures(Shape):
    prizes_left: list[int]
    """The prizes still to be paid, first place first."""
    shared: int
    """What the deal shares: the prizes left less what is left to play for."""
    stacks: dict[str, int]
    methods: dict[str, DealFigure]


class SheetRow(Shape):
    player: int
    name: str
    place: int | None
    entries: int
    rebuys: int
    addon: bool
    paid_in: int
    fees: int
    took: int
    net: int
    points: float | None
    bounties: int
    """Of what was taken, the bounties."""


class SheetTotals(Shape):
    paid_in: int
    fees: int
    overlay: int
    prize_pool: int
    took: int
    unpaid: int
    """The prize money and bounties not yet taken (once the night is over: bounties of busts with
    nobody named, mystery bounties never drawn)."""
    balance: int
    """Paid in plus the overlay, less the prizes, the fees kept and the bounties (won, on heads,
    unclaimed, not drawn): always 0, each part worked out from its own records."""
    buy_ins: int
    """Paid in as buy-ins (each at the price it was paid at)."""
    reentries: int
    rebuys: int
    addons: int
    prizes: int
    """The prizes of the payout table (they add up to the prize pool)."""
    prizes_taken: int
    prizes_to_pay: int
    bounties_paid_in: int
    bounties_won: int
    bounties_on_heads: int
    """Still on the heads of players in: to be won."""
    bounties_unclaimed: int
    """Heads of busts with nobody named as the eliminator."""
    bounties_not_drawn: int
    """A mystery night: the bounty money paid in less the bounties drawn."""


class HostSheet(Shape):
    finished: bool
    points: bool
    players: list[SheetRow]
    totals: SheetTotals


class TournamentRow(Shape):
    id: int
    name: str
    created_at: float
    seq: int


class Tournaments(Shape):
    tournaments: list[TournamentRow]


class Event(Shape):
    seq: int
    type: str
    payload: Object
    at: float
    author: str | None = None
    """Who wrote it: ``director``, ``floor``, ``dealer 3``, ``cash dealer 2``, with ``/api``
    when it came through the JSON API (None before authors were recorded)."""


class Events(Shape):
    events: list[Event]


class Export(Shape):
    tournament: Tournament
    results: Object
    events: list[Event]
    app: str


# --- seating ------------------------------------------------------------------------------


class SeatedPlayer(Shape):
    id: int
    name: str


class SeatAt(Shape):
    seat: int
    player: SeatedPlayer | None


class TablePlan(Shape):
    number: int
    seats: list[SeatAt]
    button: int | None


class Lock(Shape):
    player: int
    table: int
    seat: int


class Step(Shape):
    action: str
    message: str
    moves: list[Object]


class Tables(Shape):
    seq: int
    table_size: int
    drawn: bool
    tables: list[TablePlan]
    unseated: list[SeatedPlayer]
    locks: list[Lock]
    step: Step | None
    moves: list[Object]
    event: Object | None = None


# --- a table's hand (the dealer's assistant, both games) ------------------------------------


class Choice(Shape):
    kind: str
    label: str
    amount: int | None


class Pot(Shape):
    name: str
    amount: int
    eligible: list[int]


class DealerSeat(Shape):
    seat: int
    player: int | None
    name: str
    stack: int
    bet: int
    badges: list[str]
    status: str


class HandAtTable(Shape):
    """What the dealer's phone shows of a table's hand, in both games."""

    seq: int
    table: int
    phase: str
    hand: int | None
    street: str | None
    turn: int | None
    positions: str
    actions: list[Choice]
    min_to: int | None
    max_to: int | None
    pots: list[Pot]
    showdown_order: list[int]
    last_result: str | None
    can_deal: bool
    deal_problem: str | None
    notice: str | None = None


class TableHand(HandAtTable):
    """A tournament table's hand: the level, the players' seats, the dealer's notes."""

    level: str
    seats: list[DealerSeat]
    notes: list[str]
    game_text: str | None = Field(None, description="The hand's game and what its betting allows, where it is not "
                                  "No-Limit Hold'em: 'Pot-Limit Omaha · the most is the pot, 1,550'; a stack "
                                  "short of the pot: 'Pot-Limit Omaha · pot 19,700 · the most seat 4 can bet: "
                                  "19,400 (all-in)'.")
    game_choices: list[str] = Field([], description="A dealer's choice level, before the deal: the games the deal "
                                    "may name (its 'game').")
    rulings: list[str] = []
    """The rulings made in the hand being played, each with its rule."""
    substantial_action: str | None = None
    """Why substantial action has taken place (TDA 36): then there is no misdeal."""
    on_the_clock: OnTheClock | None = None


class OnTheClock(Shape):
    seat: int
    seconds_left: int
    """0 once the time and its countdown are up: the time_up command rules."""


class Document(BaseModel):
    """This OpenAPI document."""

    model_config = ConfigDict(extra="allow")

    openapi: str


class TvLook(Shape):
    layout: str
    """``big``, ``standard`` or ``info``."""
    theme: str
    """``dark`` or ``light``."""
    title: str
    accent: str
    show: list[str]
    logo: str
    sounds: dict[str, str]
    version: int
    logo_url: str | None
    sound_urls: dict[str, str]
