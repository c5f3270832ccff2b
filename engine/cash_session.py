"""A cash session's state, as the fold of its events leaves it (``engine.cash``): the tables
with their stakes, players and the hand in play, the hands played, the buy-ins and
cash-outs (the session's ledger), the waiting lists and the time each member played.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Literal, TypeAlias

from engine.cash_stakes import Stake
from engine.errors import InvalidInput
from engine.events import Event, History
from engine.hand import Hand, HandSetup
from engine.positions import Positions
from engine.table import Dealt

Seat: TypeAlias = int
Chips: TypeAlias = int
MemberId: TypeAlias = int
Newcomers: TypeAlias = Literal["wait", "post"]

TABLE_SIZES = (6, 9)
NEWCOMER_RULES: tuple[Newcomers, ...] = ("wait", "post")


@dataclass(frozen=True)
class SeatedPlayer:
    """A member at a table. ``newcomer``: joined since the table's last deal (waits for the
    big blind or posts one, as the house chooses)."""

    member: MemberId
    name: str
    seat: Seat
    stack: Chips
    newcomer: bool = False

    @property
    def busted(self) -> bool:
        return self.stack == 0


@dataclass(frozen=True)
class NextHand:
    """Who is dealt into the next hand at a table, and where the button and blinds go."""

    positions: Positions
    dealt: tuple[Seat, ...]
    waiting: tuple[Seat, ...]
    """Newcomers not dealt in yet (they wait for the big blind, or for the button to pass)."""
    posts: tuple[Seat, ...]
    """Newcomers posting a big blind to play at once (``newcomers == "post"``)."""
    setup: HandSetup


@dataclass(frozen=True, kw_only=True)
class LiveHand(Dealt):
    """A hand being played (``engine.table.Dealt``: setup, positions, log, and the record one
    entry earlier for undo): its number in the session, and what taking the deal back needs."""

    number: int
    posts: tuple[Seat, ...] = ()
    previous_positions: Positions | None = None
    """The table's positions before this deal (to take the deal back)."""
    joined: tuple[Seat, ...] = ()
    """Newcomers dealt in by this deal (to take the deal back)."""


@dataclass(frozen=True)
class HandRecord:
    """A finished hand: what the history and the summary need."""

    number: int
    table: int
    setup: HandSetup
    log: tuple[str, ...]
    started_at: float
    finished_at: float
    pot: Chips
    won: tuple[tuple[Seat, Chips], ...]
    description: str
    names: tuple[tuple[Seat, str], ...]

    def replay(self) -> Hand:
        return Hand.replay(self.setup, self.log)


@dataclass(frozen=True)
class CashTable:
    """One table of the session: its seats, stake, players and the hand in play."""

    number: int
    seats: int
    stake: Stake
    players: tuple[SeatedPlayer, ...] = ()
    positions: Positions | None = None
    """The positions of the last hand dealt here (the dead-button rule follows from them)."""
    hand: LiveHand | None = None
    hands_dealt: int = 0
    finished: LiveHand | None = None
    """The hand last finished here, while its award can still be taken back (until the next
    change at this table): its own undo chain reopens it."""
    game: str = "nlhe"
    """The key of the game dealt here (:data:`engine.games.GAMES`)."""

    @property
    def name(self) -> str:
        return f"Table {self.number}"

    def player_at(self, seat: Seat) -> SeatedPlayer | None:
        for p in self.players:
            if p.seat == seat:
                return p
        return None

    @property
    def free_seats(self) -> tuple[Seat, ...]:
        taken = {p.seat for p in self.players}
        return tuple(s for s in range(1, self.seats + 1) if s not in taken)

    def in_hand(self, member: MemberId) -> bool:
        """Whether the member was dealt into the hand being played here."""
        if self.hand is None:
            return False
        return any(p.member == member and p.seat in self.hand.setup.stacks for p in self.players)

    def live_hand(self) -> Hand | None:
        return self.hand.replay() if self.hand else None


@dataclass(frozen=True)
class Movement:
    """One line of the ledger: chips bought in (``sat_down``, ``top_up``, ``rebuy``) or
    cashed out (``left``)."""

    seq: int
    at: float
    member: MemberId
    name: str
    kind: str
    amount: Chips
    table: int

    @property
    def bought_in(self) -> Chips:
        return 0 if self.kind == "left" else self.amount

    @property
    def cashed_out(self) -> Chips:
        return self.amount if self.kind == "left" else 0


@dataclass(frozen=True)
class LedgerLine:
    """A player's night: bought in, cashed out, still on the table, and the net result."""

    member: MemberId
    name: str
    bought_in: Chips
    cashed_out: Chips
    on_table: Chips

    @property
    def net(self) -> Chips:
        """Chips won (positive) or lost (negative), counting what is still on the table."""
        return self.cashed_out + self.on_table - self.bought_in


@dataclass(frozen=True)
class Ledger:
    """Every player's line and the session's totals. Play chips only."""

    lines: tuple[LedgerLine, ...]

    @property
    def bought_in(self) -> Chips:
        return sum(line.bought_in for line in self.lines)

    @property
    def cashed_out(self) -> Chips:
        return sum(line.cashed_out for line in self.lines)

    @property
    def on_tables(self) -> Chips:
        return sum(line.on_table for line in self.lines)

    @property
    def balanced(self) -> bool:
        """Bought in = cashed out + on the tables."""
        return self.bought_in == self.cashed_out + self.on_tables


@dataclass(frozen=True)
class Waiting:
    member: MemberId
    name: str
    since: float


@dataclass(frozen=True)
class Offer:
    """A free seat offered to the first in line for its stake."""

    table: int
    seat: Seat
    member: MemberId
    name: str


@dataclass(frozen=True)
class PlayerTime:
    """When a member sat down and got up (``None`` while still seated)."""

    member: MemberId
    sat_at: float
    left_at: float | None


@dataclass(frozen=True)
class CashSession:
    """A cash session after the events up to ``seq``."""

    seq: int
    name: str
    created_at: float
    newcomers: Newcomers
    tables: tuple[CashTable, ...]
    movements: tuple[Movement, ...] = ()
    waiting: tuple[tuple[Stake, tuple[Waiting, ...]], ...] = ()
    hands: tuple[HandRecord, ...] = ()
    times: tuple[PlayerTime, ...] = ()
    names: tuple[tuple[MemberId, str], ...] = ()
    """Every member who played, in order of first arrival."""
    history: History = field(default_factory=History, repr=False, compare=False)

    # ---- reading

    def table(self, number: object) -> CashTable:
        for t in self.tables:
            if str(t.number) == str(number):
                return t
        raise InvalidInput(
            "There is no table {number} in this session: tables are 1 to {count}.",
            number=str(number), count=len(self.tables),
        )

    def seat_of(self, member: MemberId) -> tuple[CashTable, SeatedPlayer] | None:
        for t in self.tables:
            for p in t.players:
                if p.member == member:
                    return t, p
        return None

    def name_of(self, member: MemberId) -> str:
        return dict(self.names).get(member, f"Member {member}")

    @property
    def stakes(self) -> tuple[Stake, ...]:
        """The stakes played at this session's tables, lowest first."""
        return tuple(sorted({t.stake for t in self.tables}))

    def waiting_list(self, stake: Stake) -> tuple[Waiting, ...]:
        return dict(self.waiting).get(stake, ())

    def offers(self) -> tuple[Offer, ...]:
        """Each free seat offered to the next in line for its stake (seats in table order)."""
        out: list[Offer] = []
        for stake in self.stakes:
            queue = [w for w in self.waiting_list(stake) if self.seat_of(w.member) is None]
            seats = [(t.number, s) for t in self.tables if t.stake == stake for s in t.free_seats]
            for (table, seat), w in zip(seats, queue, strict=False):
                out.append(Offer(table, seat, w.member, w.name))
        return tuple(out)

    def ledger(self) -> Ledger:
        """Every player's buy-ins against cash-outs, with the chips still in front of them
        (for a hand in play: their stack when it was dealt, the pot still being on the table)."""
        on: dict[MemberId, Chips] = {}
        for t in self.tables:
            start = t.hand.setup.stacks if t.hand else {}
            for p in t.players:
                on[p.member] = start.get(p.seat, p.stack)
        lines = []
        for member, name in self.names:
            moved = [m for m in self.movements if m.member == member]
            lines.append(
                LedgerLine(
                    member,
                    name,
                    sum(m.bought_in for m in moved),
                    sum(m.cashed_out for m in moved),
                    on.get(member, 0),
                )
            )
        return Ledger(tuple(lines))

    def balance_changes(self) -> dict[MemberId, Chips]:
        """What this session did to each member's club balance: cashed out less bought in."""
        out: dict[MemberId, Chips] = {}
        for m in self.movements:
            out[m.member] = out.get(m.member, 0) + m.cashed_out - m.bought_in
        return out

    def seconds_played(self, member: MemberId, now: float) -> float:
        """Time seated, over all the member's visits to the tables."""
        return sum(
            (t.left_at if t.left_at is not None else now) - t.sat_at
            for t in self.times
            if t.member == member
        )

    @property
    def hands_dealt(self) -> int:
        return sum(t.hands_dealt for t in self.tables)

    @property
    def biggest_pot(self) -> HandRecord | None:
        return max(self.hands, key=lambda h: (h.pot, -h.number), default=None)

    @property
    def can_undo(self) -> bool:
        return self.history.depth > 0

    @property
    def redo_event(self) -> Event | None:
        """The entry a ``redo`` would put back (the last one undone), if any."""
        return self.history.undone[-1] if self.history.undone else None


def _with_table(state: CashSession, table: CashTable) -> CashSession:
    return replace(
        state, tables=tuple(table if t.number == table.number else t for t in state.tables)
    )


def _set_players(table: CashTable, players: Iterable[SeatedPlayer]) -> CashTable:
    return replace(table, players=tuple(sorted(players, key=lambda p: p.seat)), finished=None)


__all__ = [
    "NEWCOMER_RULES",
    "TABLE_SIZES",
    "CashSession",
    "CashTable",
    "HandRecord",
    "Ledger",
    "LedgerLine",
    "LiveHand",
    "Movement",
    "NextHand",
    "Offer",
    "PlayerTime",
    "SeatedPlayer",
    "Waiting",
]
