"""Seating: the random draw, late entries, balancing, breaking tables and the final table.

TDA section 2. Tables are numbered from 1, seats from 1 to the table size, clockwise.
Every function is pure: it takes a :class:`Seating` and returns new values (a new
``Seating``, or the :class:`Move` list that :func:`apply_moves` carries out).

>>> s = draw_seats(["Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus"], 6, random.Random(1))
>>> sorted(s.counts().values())
[3, 4]
>>> s2 = s.without("Ann").without("Bob").without("Cid")
>>> step = next_step(s2, random.Random(2))
>>> step.action, len(apply_moves(s2, step.moves).tables)
('final_table', 1)
"""

from __future__ import annotations

import random
from collections.abc import Collection, Hashable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Generic, Literal, TypeAlias, TypeVar

from engine.errors import IllegalAction, InvalidInput, Message
from engine.positions import Positions, Seat, next_seat_after, strictly_between

TableNumber: TypeAlias = int
Place: TypeAlias = tuple[TableNumber, Seat]
"""A seat in the room: ``(table, seat)``."""

P = TypeVar("P", bound=Hashable)

MIN_TABLE_SIZE = 2
MAX_TABLE_SIZE = 10


def _name(player: P, names: Mapping[P, str] | None) -> str:
    if names is not None and player in names:
        return names[player]
    return str(player)


@dataclass(frozen=True, slots=True)
class Seating(Generic[P]):
    """Who sits where. ``tables`` are the open tables (a table may be open and empty);
    ``placements`` lists ``(table, seat, player)`` sorted by table and seat.

    Build one with :func:`draw_seats` or :meth:`of`; it checks that every seat holds at
    most one player and every player sits once.
    """

    table_size: int
    tables: tuple[TableNumber, ...]
    placements: tuple[tuple[TableNumber, Seat, P], ...] = ()
    # Where each player sits, built with the seating (a seating never changes): asking where
    # 300 players sit is then 300 lookups, not 300 walks through the placements.
    _where: dict[P, Place] = field(default_factory=dict, init=False, repr=False, compare=False, hash=False)
    _at: dict[TableNumber, dict[Seat, P]] = field(default_factory=dict, init=False, repr=False, compare=False,
                                                  hash=False)

    def __post_init__(self) -> None:
        if not MIN_TABLE_SIZE <= self.table_size <= MAX_TABLE_SIZE:
            raise InvalidInput(
                "A table of {size} seats is not supported: tables have {least} to {most} seats.",
                size=self.table_size, least=MIN_TABLE_SIZE, most=MAX_TABLE_SIZE,
            )
        if len(set(self.tables)) != len(self.tables) or any(t < 1 for t in self.tables):
            raise InvalidInput("Tables {tables} must be distinct numbers from 1.", tables=str(list(self.tables)))
        seen_places: set[Place] = set()
        for table, seat, player in self.placements:
            if table not in self.tables:
                raise InvalidInput("{player} sits at table {table}, which is not open.", player=str(player), table=table)
            if not 1 <= seat <= self.table_size:
                raise InvalidInput("{player} cannot sit in seat {seat}: seats go from 1 to {size}.",
                                   player=str(player), seat=seat, size=self.table_size)
            if (table, seat) in seen_places:
                raise InvalidInput("Table {table} seat {seat} holds two players.", table=table, seat=seat)
            if player in self._where:
                raise InvalidInput("{player} is seated twice.", player=str(player))
            seen_places.add((table, seat))
            self._where[player] = (table, seat)
        if list(self.placements) != sorted(self.placements, key=lambda p: (p[0], p[1])):
            object.__setattr__(self, "placements", tuple(sorted(self.placements, key=lambda p: (p[0], p[1]))))
        object.__setattr__(self, "tables", tuple(sorted(self.tables)))
        for table, seat, player in self.placements:  # by seat, table after table
            self._at.setdefault(table, {})[seat] = player

    @classmethod
    def of(
        cls, table_size: int, seats: Mapping[Place, P], tables: Collection[TableNumber] | None = None
    ) -> Seating[P]:
        """A seating from ``{(table, seat): player}``; the open tables default to those used."""
        used = {t for t, _ in seats}
        return cls(table_size, tuple(sorted(used if tables is None else set(tables))),
                   tuple((t, s, p) for (t, s), p in seats.items()))

    # --- Reading ---------------------------------------------------------------------------

    @property
    def players(self) -> tuple[P, ...]:
        """Everyone seated, by table and seat."""
        return tuple(p for _, _, p in self.placements)

    def __len__(self) -> int:
        return len(self.placements)

    def __iter__(self) -> Iterator[tuple[TableNumber, Seat, P]]:
        return iter(self.placements)

    def __contains__(self, player: object) -> bool:
        try:
            return player in self._where
        except TypeError:  # not hashable: not a player
            return False

    def seat_of(self, player: P) -> Place:
        """``(table, seat)`` of ``player``."""
        place = self._where.get(player)
        if place is None:
            raise InvalidInput("{player} is not seated.", player=str(player))
        return place

    def place_of(self, player: P) -> Place | None:
        """``(table, seat)`` of ``player``, or None where he has no seat."""
        return self._where.get(player)

    def player_at(self, table: TableNumber, seat: Seat) -> P | None:
        for t, s, p in self.placements:
            if (t, s) == (table, seat):
                return p
        return None

    def at_table(self, table: TableNumber) -> dict[Seat, P]:
        """``{seat: player}`` at one table, by seat (a copy: the caller may change it)."""
        return dict(self._at.get(table, ()))

    def counts(self) -> dict[TableNumber, int]:
        """Players per open table (empty tables included)."""
        out = dict.fromkeys(self.tables, 0)
        for t, _, _ in self.placements:
            out[t] += 1
        return out

    def open_seats(self, table: TableNumber) -> list[Seat]:
        taken = self.at_table(table)
        return [s for s in range(1, self.table_size + 1) if s not in taken]

    def spread(self) -> int:
        """Players at the longest table minus players at the shortest."""
        c = self.counts().values()
        return max(c) - min(c) if c else 0

    # --- New values --------------------------------------------------------------------------

    def with_player(self, player: P, table: TableNumber, seat: Seat) -> Seating[P]:
        """A new seating with ``player`` added at ``(table, seat)`` (opening the table if needed)."""
        if player in self:
            raise IllegalAction("{player} is already seated at table {table}.", player=str(player),
                                table=self.seat_of(player)[0])
        taken = self.player_at(table, seat)
        if taken is not None:
            raise IllegalAction("{player} cannot sit at table {table} seat {seat}: {taken} sits there.",
                                player=str(player), table=table, seat=seat, taken=str(taken))
        tables = self.tables if table in self.tables else (*self.tables, table)
        return Seating(self.table_size, tables, (*self.placements, (table, seat, player)))

    def without(self, player: P) -> Seating[P]:
        """A new seating without ``player`` (knocked out); the table stays open."""
        if player not in self:
            raise IllegalAction("{player} is not seated, so cannot leave.", player=str(player))
        return Seating(self.table_size, self.tables, tuple(x for x in self.placements if x[2] != player))


@dataclass(frozen=True, slots=True)
class Move(Generic[P]):
    """One player to move. ``waits_for_big_blind``: the new seat lies between the button and
    the small blind of the next hand, so the player sits out until the button has passed
    (TDA 1.4). ``needs_director``: the rules give no seat (TDA 2.4: the only open seat is the
    next small blind position), the director must confirm or choose another."""

    player: P
    from_table: TableNumber
    from_seat: Seat
    to_table: TableNumber
    to_seat: Seat
    waits_for_big_blind: bool = False
    reason: str = ""
    needs_director: bool = False

    def describe(self, names: Mapping[P, str] | None = None) -> str:
        """``Move Dana from table 2 seat 7 to table 1 seat 3.``; ``names`` maps player ids to names.

        >>> Move(7, 2, 7, 1, 3).describe({7: "Dana"})
        'Move Dana from table 2 seat 7 to table 1 seat 3.'
        """
        values = {"player": _name(self.player, names), "from_table": self.from_table, "from_seat": self.from_seat,
                  "to_table": self.to_table, "to_seat": self.to_seat}
        if self.waits_for_big_blind and self.needs_director:
            return Message(
                "Move {player} from table {from_table} seat {from_seat} to table {to_table} seat {to_seat}. "
                "The seat is between the button and the small blind: wait until the button passes. "
                "The only open seat is the small blind position: the director decides.", **values,
            )
        if self.waits_for_big_blind:
            return Message(
                "Move {player} from table {from_table} seat {from_seat} to table {to_table} seat {to_seat}. "
                "The seat is between the button and the small blind: wait until the button passes.", **values,
            )
        if self.needs_director:
            return Message(
                "Move {player} from table {from_table} seat {from_seat} to table {to_table} seat {to_seat}. "
                "The only open seat is the small blind position: the director decides.", **values,
            )
        return Message("Move {player} from table {from_table} seat {from_seat} to table {to_table} seat {to_seat}.",
                       **values)


def apply_moves(seating: Seating[P], moves: Sequence[Move[P]]) -> Seating[P]:
    """Carry out ``moves`` all at once (so players may swap seats) and close every table the
    moves leave empty (a broken table)."""
    movers = {m.player for m in moves}
    if len(movers) != len(moves):
        raise IllegalAction("The same player is moved twice at once.")
    for m in moves:
        if seating.seat_of(m.player) != (m.from_table, m.from_seat):
            raise IllegalAction(
                "{player} does not sit at table {table} seat {seat}; "
                "the seating changed since the move was decided.",
                player=str(m.player), table=m.from_table, seat=m.from_seat,
            )
    kept = tuple(x for x in seating.placements if x[2] not in movers)
    vacated = {m.from_table for m in moves}
    arrived = {m.to_table for m in moves}
    placements = kept + tuple((m.to_table, m.to_seat, m.player) for m in moves)
    still = {t for t, _, _ in placements}
    tables = {t for t in seating.tables if t in still or t not in vacated} | arrived
    return Seating(seating.table_size, tuple(sorted(tables)), placements)


# --- The draw ----------------------------------------------------------------------------------


def tables_needed(players: int, table_size: int) -> int:
    """The fewest tables that seat ``players``.

    >>> tables_needed(19, 9), tables_needed(18, 9), tables_needed(0, 9)
    (3, 2, 0)
    """
    return -(-players // table_size)


def even_counts(players: int, tables: int) -> list[int]:
    """Players per table when ``players`` are spread over ``tables`` as evenly as possible.

    >>> even_counts(19, 3)
    [7, 6, 6]
    """
    base, extra = divmod(players, tables)
    return [base + 1 if i < extra else base for i in range(tables)]


def draw_seats(
    players: Sequence[P],
    table_size: int,
    rng: random.Random,
    locked: Mapping[P, Place] | None = None,
) -> Seating[P]:
    """The random draw (TDA 2.1): the fewest tables that fit, tables differing by at most one
    player, random seats; ``locked`` players (e.g. a player who needs an accessible seat)
    get the seat given.

    >>> s = draw_seats(list(range(20)), 9, random.Random(4), locked={7: (2, 1)})
    >>> sorted(s.counts().values()), s.seat_of(7)
    ([6, 7, 7], (2, 1))
    """
    locks = dict(locked or {})
    if len(set(players)) != len(players):
        dup = next(p for p in players if list(players).count(p) > 1)
        raise InvalidInput("{player} is listed twice in the draw.", player=str(dup))
    if not MIN_TABLE_SIZE <= table_size <= MAX_TABLE_SIZE:
        raise InvalidInput("A table of {size} seats is not supported: tables have 2 to 10 seats.", size=table_size)
    n_tables = tables_needed(len(players), table_size)
    by_place: dict[Place, P] = {}
    for player, (table, seat) in locks.items():
        if player not in players:
            raise InvalidInput("{player} has a locked seat but is not in the draw.", player=str(player))
        if not 1 <= table <= n_tables:
            if n_tables == 1:
                raise InvalidInput("{player} cannot be locked to table {table}: {count} players need 1 table of {size}.",
                                   player=str(player), table=table, count=len(players), size=table_size)
            raise InvalidInput(
                "{player} cannot be locked to table {table}: {count} players need {tables} tables of {size}.",
                player=str(player), table=table, count=len(players), tables=n_tables, size=table_size,
            )
        if not 1 <= seat <= table_size:
            raise InvalidInput("{player} cannot be locked to seat {seat}: seats go from 1 to {size}.",
                               player=str(player), seat=seat, size=table_size)
        if (table, seat) in by_place:
            raise InvalidInput("{player} and {other} are both locked to table {table} seat {seat}.",
                               player=str(player), other=str(by_place[(table, seat)]), table=table, seat=seat)
        by_place[(table, seat)] = player
    locked_at = {t: sum(1 for (lt, _) in by_place if lt == t) for t in range(1, n_tables + 1)}
    # The bigger tables go to those with the most locked seats, then to the lowest numbers.
    sizes = even_counts(len(players), n_tables) if n_tables else []
    order = sorted(range(1, n_tables + 1), key=lambda t: (-locked_at[t], t))
    target = {t: sizes[i] for i, t in enumerate(order)}
    for t in order:
        if locked_at[t] > target[t]:
            raise InvalidInput(
                "Table {table} has {locked} locked seats, but {count} players over "
                "{tables} tables give it only {room}.",
                table=t, locked=locked_at[t], count=len(players), tables=n_tables, room=target[t],
            )
    free_players = [p for p in players if p not in locks]
    rng.shuffle(free_players)
    places: list[Place] = []
    for t in range(1, n_tables + 1):
        open_seats = [s for s in range(1, table_size + 1) if (t, s) not in by_place]
        places += [(t, s) for s in sorted(rng.sample(open_seats, target[t] - locked_at[t]))]
    for player, place in zip(free_players, places, strict=True):
        by_place[place] = player
    return Seating.of(table_size, by_place, range(1, n_tables + 1))


def late_entry_seat(seating: Seating[P], player: P, rng: random.Random) -> tuple[Seating[P], Place]:
    """A late entry or re-entry (TDA 8): a random open seat at one of the shortest tables,
    or a new table when every table is full. Returns the new seating and the seat.

    >>> s = Seating.of(6, {(1, 1): "Ann", (1, 2): "Bob", (2, 4): "Cid"})
    >>> late_entry_seat(s, "Dee", random.Random(0))[1][0]
    2
    """
    if player in seating:
        raise IllegalAction("{player} is already seated at table {table}.", player=str(player),
                            table=seating.seat_of(player)[0])
    counts = seating.counts()
    with_room = {t: c for t, c in counts.items() if c < seating.table_size}
    if not with_room:
        table = next(t for t in range(1, len(counts) + 2) if t not in counts)
        place = (table, rng.randint(1, seating.table_size))
    else:
        fewest = min(with_room.values())
        options = [(t, s) for t in sorted(with_room) if with_room[t] == fewest for s in seating.open_seats(t)]
        place = rng.choice(options)
    return seating.with_player(player, *place), place


# --- Balancing ---------------------------------------------------------------------------------


def default_breaking_order(tables: Collection[TableNumber]) -> list[TableNumber]:
    """Tables in the order they break: the highest number first (TDA 2.5 default)."""
    return sorted(tables, reverse=True)


def _order_rank(breaking_order: Sequence[TableNumber] | None, tables: Collection[TableNumber]) -> dict[int, int]:
    order = list(breaking_order) if breaking_order is not None else default_breaking_order(tables)
    rest = [t for t in default_breaking_order(tables) if t not in order]
    return {t: i for i, t in enumerate(order + rest)}


def worst_seat(
    seating: Seating[P], table: TableNumber, positions: Positions | None
) -> tuple[Seat, bool, bool]:
    """The worst position at ``table`` for a player moved in (TDA 2.4): the first open seat
    clockwise after the current big blind, never the next small blind position (the current
    big blind's seat). Returns the seat, whether the player waits for the button to pass,
    and whether the director must decide (the small blind position is the only open seat).
    Without positions: the lowest open seat.

    >>> s = Seating.of(9, {(1, i): i for i in (1, 2, 3, 4, 5, 7, 8)})
    >>> worst_seat(s, 1, Positions(4, 5, 6, 5))  # seat 6, the big blind, has just busted
    (9, False, False)
    """
    open_seats = seating.open_seats(table)
    if not open_seats:
        raise IllegalAction("Table {table} is full: nobody can be moved there.", table=table)
    if positions is None:
        return open_seats[0], False, False
    sb_position = positions.big_blind
    candidates = [s for s in open_seats if s != sb_position]
    if not candidates:
        return sb_position, False, True
    seat = next_seat_after(positions.big_blind, candidates)
    # The next hand's button is the current small blind position, its small blind the current big blind.
    waits = strictly_between(seat, positions.small_blind_seat_number, positions.big_blind)
    return seat, waits, False


def _waits_at(seat: Seat, positions: Positions | None) -> bool:
    """Whether a player arriving at ``seat`` sits between the next hand's button and small blind."""
    if positions is None:
        return False
    return strictly_between(seat, positions.small_blind_seat_number, positions.big_blind)


def balance(
    seating: Seating[P],
    positions_by_table: Mapping[TableNumber, Positions] | None = None,
    max_diff: int = 1,
    breaking_order: Sequence[TableNumber] | None = None,
) -> list[Move[P]]:
    """The moves that bring the tables within ``max_diff`` players of each other (TDA 2.2-2.4).

    From the longest table (ties: the table that breaks first, by default the highest
    number) the player due to be big blind next moves (TDA 11-A), to the worst position
    at the shortest table (ties: the table that breaks last). ``positions_by_table``
    gives each table's positions in the hand just played; without a table's positions,
    the player in its highest-numbered seat moves, and a player moved there takes its
    lowest open seat.

    >>> s = Seating.of(9, {**{(1, i): f"a{i}" for i in range(1, 10)}, **{(2, i): f"b{i}" for i in (1, 2, 3, 4, 5, 6)}})
    >>> [m.describe() for m in balance(s, {1: Positions(1, 2, 3, 2), 2: Positions(4, 5, 6, 5)})]
    ['Move a4 from table 1 seat 4 to table 2 seat 7.']
    """
    if max_diff < 1:
        raise InvalidInput("Tables cannot be kept within {most} players of each other: use 1 or more.", most=max_diff)
    positions = dict(positions_by_table or {})
    rank = _order_rank(breaking_order, seating.tables)
    # Where the big blind would next come from at each table, as movers leave it.
    cursor: dict[TableNumber, Seat] = {t: p.big_blind for t, p in positions.items()}
    moves: list[Move[P]] = []
    current = seating
    while len(current.tables) > 1 and current.spread() > max_diff:
        counts = current.counts()
        longest = max(counts.values())
        shortest = min(counts.values())
        source = min((t for t, c in counts.items() if c == longest), key=lambda t: rank[t])
        dest = max((t for t, c in counts.items() if c == shortest), key=lambda t: rank[t])
        occupied = current.at_table(source)
        if source in cursor:
            from_seat = next_seat_after(cursor[source], occupied)
            cursor[source] = from_seat
            why = Message("the player due for the big blind moves")
        else:
            from_seat = max(occupied)
            why = Message("the player in the highest seat moves (no positions known)")
        to_seat, waits, director = worst_seat(current, dest, positions.get(dest))
        move = Move(
            occupied[from_seat], source, from_seat, dest, to_seat, waits,
            Message("Table {source} has {longest} players and table {dest} has {shortest}: {why}.",
                    source=source, longest=longest, dest=dest, shortest=shortest, why=why),
            director,
        )
        moves.append(move)
        current = apply_moves(current, [move])
    return moves


def tables_to_halt(seating: Seating[P], halt_threshold: int = 3) -> list[TableNumber]:
    """Tables that are ``halt_threshold`` or more players short of the fullest table: TDA 11-D
    halts play there (when its big blind reaches an open seat) until players are moved in.

    >>> tables_to_halt(Seating.of(9, {**{(1, i): i for i in range(1, 6)}, **{(2, i): 10 + i for i in range(1, 9)}}))
    [1]
    """
    counts = seating.counts()
    if not counts:
        return []
    fullest = max(counts.values())
    return [t for t, c in counts.items() if fullest - c >= halt_threshold]


# --- Breaking tables and the final table -------------------------------------------------------


def needs_break(seating: Seating[P], breaking_order: Sequence[TableNumber] | None = None) -> TableNumber | None:
    """The table to break now (the next in breaking order) when the players left fit at one
    table fewer (TDA 2.5), else ``None``.

    >>> s = draw_seats(list(range(19)), 9, random.Random(1))
    >>> needs_break(s), needs_break(s.without(0))
    (None, 3)
    """
    n_tables = len(seating.tables)
    if n_tables < 2 or len(seating) > (n_tables - 1) * seating.table_size:
        return None
    rank = _order_rank(breaking_order, seating.tables)
    return min(seating.tables, key=lambda t: rank[t])


def break_table(
    seating: Seating[P],
    rng: random.Random,
    table: TableNumber | None = None,
    positions_by_table: Mapping[TableNumber, Positions] | None = None,
    breaking_order: Sequence[TableNumber] | None = None,
) -> list[Move[P]]:
    """Break ``table`` (by default the next in breaking order): its players draw seats at
    random (TDA 10-B), each at one of the shortest remaining tables, so the tables stay
    balanced. They may land on the button or a blind; between the button and the small
    blind they wait (TDA 10-A), as the moves say when positions are given.
    """
    if table is None:
        table = needs_break(seating, breaking_order)
        if table is None:
            rank = _order_rank(breaking_order, seating.tables)
            table = min(seating.tables, key=lambda t: rank[t]) if len(seating.tables) > 1 else None
    if table is None or table not in seating.tables:
        raise IllegalAction("Table {table} is not open, so it cannot break.", table=table)
    others = [t for t in seating.tables if t != table]
    breaking = seating.at_table(table)
    room = sum(len(seating.open_seats(t)) for t in others)
    if not others or room < len(breaking):
        raise IllegalAction(
            "Table {table} cannot break: its {count} players do not fit in the "
            "{room} open seats at the other tables.", table=table, count=len(breaking), room=room,
        )
    positions = dict(positions_by_table or {})
    counts = {t: len(seating.at_table(t)) for t in others}
    free = {t: seating.open_seats(t) for t in others}
    movers = sorted(breaking.items())
    rng.shuffle(movers)
    moves: list[Move[P]] = []
    for from_seat, player in movers:
        fewest = min(counts[t] for t in others if free[t])
        options = [(t, s) for t in others if free[t] and counts[t] == fewest for s in free[t]]
        to_table, to_seat = rng.choice(options)
        free[to_table].remove(to_seat)
        counts[to_table] += 1
        moves.append(
            Move(player, table, from_seat, to_table, to_seat, _waits_at(to_seat, positions.get(to_table)),
                 Message("Table {table} breaks: seats are drawn at random.", table=table))
        )
    return moves


def final_table_redraw(seating: Seating[P], rng: random.Random, table_size: int | None = None) -> Seating[P]:
    """Everyone left redraws for a seat at the final table (TDA 2.6), table 1; draw a new
    button there with :func:`engine.positions.draw_button`."""
    size = seating.table_size if table_size is None else table_size
    if len(seating) > size:
        raise IllegalAction("{count} players do not fit at one final table of {size} seats.",
                            count=len(seating), size=size)
    return draw_seats(list(seating.players), size, rng)


def moves_between(before: Seating[P], after: Seating[P], reason: str = "") -> list[Move[P]]:
    """The moves that turn ``before`` into ``after`` for the players seated in both."""
    moves: list[Move[P]] = []
    for table, seat, player in before:
        if player in after:
            to = after.seat_of(player)
            if to != (table, seat):
                moves.append(Move(player, table, seat, to[0], to[1], reason=reason))
    return moves


Action: TypeAlias = Literal["none", "balance", "break", "final_table"]


@dataclass(frozen=True, slots=True)
class Step(Generic[P]):
    """What the director does after a bust: nothing, balancing moves, a table break, or the
    final-table redraw; ``seating`` is the seating once the moves are made."""

    action: Action
    moves: tuple[Move[P], ...]
    seating: Seating[P]
    message: str = field(default="")


def next_step(
    seating: Seating[P],
    rng: random.Random,
    positions_by_table: Mapping[TableNumber, Positions] | None = None,
    max_diff: int = 1,
    breaking_order: Sequence[TableNumber] | None = None,
    final_table_size: int | None = None,
) -> Step[P]:
    """After a bust: the final table when everyone fits at one table of ``final_table_size``
    (TDA RP-9; pass the table size plus one and a larger final table for WSOP 68), else a
    table break when the players fit at one table fewer, else balancing, else nothing."""
    final_size = seating.table_size if final_table_size is None else final_table_size
    if len(seating.tables) > 1 and len(seating) <= final_size:
        final = final_table_redraw(seating, rng, final_size)
        reason = Message("The final table: seats are redrawn.")
        return Step("final_table", tuple(moves_between(seating, final, reason)),
                    final, Message("{count} players left: redraw seats at the final table.", count=len(seating)))
    table = needs_break(seating, breaking_order)
    if table is not None:
        moves = tuple(break_table(seating, rng, table, positions_by_table, breaking_order))
        return Step("break", moves, apply_moves(seating, moves),
                    Message("{count} players fit at {tables} tables: table {table} breaks.",
                            count=len(seating), tables=len(seating.tables) - 1, table=table))
    bal = tuple(balance(seating, positions_by_table, max_diff, breaking_order))
    if bal:
        if len(bal) > 1:
            message = Message("The tables differ by more than {most}: {count} moves.", most=max_diff, count=len(bal))
        else:
            message = Message("The tables differ by more than {most}: 1 move.", most=max_diff)
        return Step("balance", bal, apply_moves(seating, bal), message)
    return Step("none", (), seating, "")
