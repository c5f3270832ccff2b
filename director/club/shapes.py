"""The shapes of the players' database's and the seasons' JSON answers."""

from __future__ import annotations

from pydantic import Field

from director.core.shapes import Object, Shape


class PersonInList(Shape):
    id: int
    name: str
    nickname: str | None
    note: str | None
    nights: int


class People(Shape):
    people: list[PersonInList]
    doubtful: list[list[int]]
    """Pairs of people whose names are alike (for the host to merge, or not)."""


class PersonNight(Shape):
    tournament: int
    name: str
    at: float
    entries: int
    place: int | None
    prize: int
    knockouts: int
    bounties: int
    finished: bool
    points: float | None = None
    """The night's points in its season."""


class PersonTotals(Shape):
    nights: int
    wins: int
    prizes: int
    knockouts: int
    average_place: float | None


class PersonHands(Shape):
    """From the hands dealt with the dealer's assistant."""

    played: int
    won: int
    won_at_showdown: int
    all_ins: int
    all_ins_won: int
    biggest_pot: int
    biggest_with: str | None


class PersonRecord(Shape):
    id: int
    name: str
    nickname: str | None
    note: str | None
    nights: list[PersonNight]
    totals: PersonTotals
    hands: PersonHands
    member: int | None = None
    """The cash club's member number, when the person is a member."""
    balance: int | None = None
    """The member's Play Chips now."""
    notice: str | None = None


class SeasonRow(Shape):
    rank: int
    person: int
    name: str
    points: float
    nights: int
    wins: int
    best: float
    movement: int | None
    """Places gained (positive) or lost since before the last night; None: a first night."""
    knockouts: int
    prizes: int
    by_night: dict[str, float]
    counted: list[int]


class SeasonNightShape(Shape):
    tournament: int
    name: str
    at: float
    final: bool
    finished: bool
    entries: int


class SeasonRecordShape(Shape):
    title: str
    figure: str
    who: str
    where: str


class Season(Shape):
    id: int
    name: str
    rules: Object
    tie_break: str
    nights: list[SeasonNightShape]
    standings: list[SeasonRow]
    records: list[SeasonRecordShape] = Field(default_factory=list)
    """The biggest pot, the most knockouts, the deepest run, the best comeback."""
    notice: str | None = None


class SeasonInList(Shape):
    id: int
    name: str
    nights: int


class Seasons(Shape):
    seasons: list[SeasonInList]
