"""The shapes of the cash game's JSON answers (the OpenAPI document's, checked by the tests)."""

from __future__ import annotations

from pydantic import Field

from director.core.shapes import HandAtTable, Object, Shape


class CashSeat(Shape):
    seat: int
    member: int | None
    name: str
    stack: int
    bet: int
    badges: list[str]
    status: str


class CashTableHand(HandAtTable):
    """A cash table's hand: its stake and the members' seats."""

    stake: str
    seats: list[CashSeat]


class CashPlayer(Shape):
    seat: int
    member: int
    name: str
    stack: int
    newcomer: bool


class CashTable(Shape):
    table: int
    seats: int
    stake: str
    game: str = Field(description="The game dealt at the table: nlhe, plhe, lhe, plo, plo5, lo, plo8 or lo8.")
    small_blind: int
    big_blind: int
    min_buy_in: int
    max_buy_in: int
    hand: int | None
    hands_dealt: int
    players: list[CashPlayer]


class Waiting(Shape):
    member: int
    name: str


class Offer(Shape):
    table: int
    seat: int
    member: int
    name: str


class LedgerLine(Shape):
    member: int
    name: str
    bought_in: int
    cashed_out: int
    on_table: int
    net: int


class Ledger(Shape):
    players: list[LedgerLine]
    bought_in: int
    cashed_out: int
    on_tables: int
    balanced: bool
    unit: str


class CashSession(Shape):
    id: int
    seq: int
    name: str
    newcomers: str
    tables: list[CashTable]
    waiting: dict[str, list[Waiting]]
    offers: list[Offer]
    ledger: Ledger
    notice: str | None = None


class SessionRow(Shape):
    id: int
    name: str
    created_at: float
    seq: int


class StakeRow(Shape):
    name: str
    small_blind: int
    big_blind: int
    min_buy_in: int
    max_buy_in: int
    access_balance: int


class CashSessions(Shape):
    sessions: list[SessionRow]
    stakes: list[StakeRow]


class Member(Shape):
    id: int
    name: str
    balance: int
    stakes: list[str]


class Club(Shape):
    seq: int
    unit: str
    members: list[Member]
    grants: list[Object]
    notice: str | None = None


class CashSummary(Shape):
    name: str
    play_chips_only: bool
    players: list[Object]
    hands_dealt: int
    hands_by_table: dict[str, int]
    biggest_pot: Object | None
    totals: Object
