"""Cash-game nights: stakes, buy-ins, the club's play-chip balances, the ledger, waiting
lists, and a cash session as the fold of its events.

Seed 004: "Tables have 6 or 9 seats. The blind levels are 10/20, 50/100, 250/500,
1,000/2,000, 10,000/20,000. The first 3 are open to everyone; each higher level opens once
your Play Chips reach its smallest buy-in. You buy in for 40 to 100 big blinds."

>>> STAKES[1].name, STAKES[1].min_buy_in, STAKES[1].max_buy_in
('50/100', 4000, 10000)
>>> STAKES[1].verify_buy_in(3000, "Ann")
Traceback (most recent call last):
...
engine.errors.IllegalAction: Ann cannot buy in for 3,000 at 50/100: the buy-in is 4,000 to 10,000 (40 to 100 big blinds).

Play money only: every amount here is a count of play chips, never money.

A session is a list of events folded into a :class:`CashSession` (the same ``Event`` as a
tournament's), each refused with a readable sentence when it cannot happen:

- ``created``: ``{"name", "tables": [{"seats", "small_blind", "big_blind"}], "newcomers"}``
  where ``newcomers`` is the house rule for a player who joins a table that is already
  playing: ``"wait"`` for the big blind, or ``"post"`` a big blind and play at once;
- ``table_added``: ``{"seats", "small_blind", "big_blind"}``;
- ``sat_down``: ``{"member", "name", "table", "seat", "amount"}`` (the buy-in);
- ``top_up`` / ``rebuy``: ``{"member", "amount"}`` (a rebuy is a new buy-in after busting);
- ``left``: ``{"member"}``: the player is cashed out at their stack;
- ``seat_changed``: ``{"member", "table", "seat"}`` (same stake, stack carried);
- ``waiting_added`` / ``waiting_removed``: ``{"member", "name"?, "stake"}``;
- ``hand_started``: ``{"table", "button"?}`` (the button only for a table's first hand,
  drawn by the caller); positions follow the dead-button rule from then on;
- ``hand_action``: ``{"table", "entry"}`` in the hand's notation (``p3 cbr 600``,
  ``d win 3``, ...), or ``{"table", "entries": [...]}`` for several at once (the cards
  shown and the award); the hand's award updates the stacks;
- ``hand_undo``: ``{"table"}`` takes back the last entry of the table's hand, the deal
  itself, or the award of the hand just finished (while nobody at the table moved since);
- ``hand_redo``: ``{"table"}`` puts back the entry the last ``hand_undo`` took back from
  the hand in play (until the next entry);
- ``undo``: cancels the session's last live event; ``redo`` puts it back.

The club (members and the director's grants) is a second, longer-lived fold:
:func:`club_fold`; a member's balance is the club's grants plus, for every session, what
they cashed out less what they bought in (:func:`balances`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Literal, TypeAlias

from engine import notation
from engine.errors import N_, EngineError, IllegalAction, InvalidInput, Message, Term
from engine.events import Event, History, apply_event, fold_events
from engine.hand import Hand, HandSetup
from engine.positions import Positions
from engine.table import Dealt, plan_next
from engine.text import chips

Seat: TypeAlias = int
Chips: TypeAlias = int
MemberId: TypeAlias = int
Newcomers: TypeAlias = Literal["wait", "post"]

MIN_BUY_IN_BB = 40
MAX_BUY_IN_BB = 100
TABLE_SIZES = (6, 9)
NEWCOMER_RULES: tuple[Newcomers, ...] = ("wait", "post")
MAX_NAME = 40



# --- stakes --------------------------------------------------------------------------------


@dataclass(frozen=True, order=True)
class Stake:
    """Fixed blinds for a session, and the buy-in range they give (40 to 100 big blinds)."""

    small_blind: Chips
    big_blind: Chips

    def __post_init__(self) -> None:
        for value in (self.small_blind, self.big_blind):
            if isinstance(value, bool) or not isinstance(value, int):
                raise InvalidInput("Blinds must be whole numbers of chips, not {value}.", value=repr(value))
        if self.big_blind < 2 or not 1 <= self.small_blind <= self.big_blind:
            raise InvalidInput(
                "The blinds {small_blind}/{big_blind} cannot be played: the small blind must be at least 1 and at most the big blind.",
                small_blind=str(self.small_blind), big_blind=str(self.big_blind),
            )

    @property
    def name(self) -> str:
        """``1,000/2,000``."""
        return f"{chips(self.small_blind)}/{chips(self.big_blind)}"

    @property
    def min_buy_in(self) -> Chips:
        return MIN_BUY_IN_BB * self.big_blind

    @property
    def max_buy_in(self) -> Chips:
        return MAX_BUY_IN_BB * self.big_blind

    @property
    def range_text(self) -> str:
        """``4,000 to 10,000 (40 to 100 big blinds)``."""
        return Message(
            "{low} to {high} ({low_bb} to {high_bb} big blinds)",
            low=self.min_buy_in, high=self.max_buy_in, low_bb=MIN_BUY_IN_BB, high_bb=MAX_BUY_IN_BB,
        )

    @property
    def open_to_all(self) -> bool:
        """The seed's three lowest stakes (and custom blinds no bigger) are open to everyone."""
        return self.big_blind <= STAKES[OPEN_STAKES - 1].big_blind

    @property
    def access_balance(self) -> Chips:
        """The balance a member needs to be allowed at this stake (0 when open to all)."""
        return 0 if self.open_to_all else self.min_buy_in

    def verify_buy_in(self, amount: Chips, who: str) -> None:
        """A buy-in (or a rebuy) must be within the range."""
        _verify_chips(amount, "buy-in", who)
        if not self.min_buy_in <= amount <= self.max_buy_in:
            raise IllegalAction(
                "{who} cannot buy in for {amount} at {stake}: the buy-in is {range}.",
                who=who, amount=amount, stake=self.name, range=self.range_text,
            )

    def verify_top_up(self, stack: Chips, amount: Chips, who: str) -> None:
        """A top-up may bring the stack up to the maximum buy-in, not beyond.

        >>> STAKES[0].verify_top_up(1500, 600, "Bob")
        Traceback (most recent call last):
        ...
        engine.errors.IllegalAction: Bob cannot top up 600 at 10/20: 1,500 in front plus 600 is 2,100, more than the maximum of 2,000; Bob can add at most 500.
        """
        _verify_chips(amount, "top-up", who)
        if stack + amount > self.max_buy_in:
            room = max(0, self.max_buy_in - stack)
            values = dict(
                who=who, amount=amount, stake=self.name, stack=stack, total=stack + amount,
                maximum=self.max_buy_in,
            )
            if room:
                raise IllegalAction(
                    "{who} cannot top up {amount} at {stake}: {stack} in front plus {amount} is "
                    "{total}, more than the maximum of {maximum}; {who} can add at most {room}.",
                    room=room, **values,
                )
            raise IllegalAction(
                "{who} cannot top up {amount} at {stake}: {stack} in front plus {amount} is "
                "{total}, more than the maximum of {maximum}; {who} is already at the maximum.",
                **values,
            )

    def as_dict(self) -> dict[str, int]:
        return {"small_blind": self.small_blind, "big_blind": self.big_blind}

    @classmethod
    def parse(cls, text: str) -> Stake:
        """``"50/100"`` or ``"1,000/2,000"``.

        >>> Stake.parse("1,000/2,000")
        Stake(small_blind=1000, big_blind=2000)
        """
        parts = str(text).replace(",", "").replace(" ", "").split("/")
        if len(parts) != 2 or not all(p.isdigit() for p in parts):
            raise InvalidInput("{text} is not a stake: write the blinds like 50/100.", text=repr(text))
        return cls(int(parts[0]), int(parts[1]))


STAKES: tuple[Stake, ...] = (
    Stake(10, 20),
    Stake(50, 100),
    Stake(250, 500),
    Stake(1_000, 2_000),
    Stake(10_000, 20_000),
)
"""Seed 004's stakes, lowest first."""
OPEN_STAKES = 3
"""How many of the lowest stakes are open to everyone."""


def verify_stake_access(stake: Stake, balance: Chips, who: str) -> None:
    """Seed 004: each stake above the first three opens once a member's Play Chips reach
    its smallest buy-in.

    >>> verify_stake_access(STAKES[3], 52_000, "Ann")
    Traceback (most recent call last):
    ...
    engine.errors.IllegalAction: Ann may not sit at 1,000/2,000 yet: that stake opens once a member's Play Chips reach 80,000, its smallest buy-in, and Ann has 52,000.
    """
    if balance < stake.access_balance:
        raise IllegalAction(
            "{who} may not sit at {stake} yet: that stake opens once a member's Play Chips "
            "reach {access}, its smallest buy-in, and {who} has {balance}.",
            who=who, stake=stake.name, access=stake.access_balance, balance=balance,
        )


def verify_member_buy_in(
    stake: Stake, balance: Chips, amount: Chips, who: str, *, sitting: bool
) -> None:
    """Everything the club checks before chips leave a member's balance: access to the stake
    (for a new seat), and enough play chips for ``amount``."""
    if sitting:
        verify_stake_access(stake, balance, who)
    if amount > balance:
        raise IllegalAction(
            "{who} cannot take {amount} to the table: {who}'s balance is {balance} play chips.",
            who=who, amount=amount, balance=balance
        )


_CHIP_AMOUNTS = {
    "buy-in": (
        N_("{who}'s buy-in must be a whole number of chips, not {amount}."),
        N_("{who}'s buy-in must be more than 0, not {amount}."),
    ),
    "top-up": (
        N_("{who}'s top-up must be a whole number of chips, not {amount}."),
        N_("{who}'s top-up must be more than 0, not {amount}."),
    ),
    "grant": (
        N_("A grant to {who} must be a whole number of chips, not {amount}."),
        N_("A grant to {who} must be more than 0, not {amount}."),
    ),
}


def _verify_chips(amount: object, what: Literal["buy-in", "top-up", "grant"], who: str) -> None:
    not_whole, not_positive = _CHIP_AMOUNTS[what]
    who = who[:1].upper() + who[1:]
    if isinstance(amount, bool) or not isinstance(amount, int):
        raise InvalidInput(not_whole, who=who, amount=repr(amount))
    if amount <= 0:
        raise IllegalAction(not_positive, who=who, amount=amount)


def clean_name(value: object, what: str = N_("name")) -> str:
    """A trimmed name of 1 to 40 characters; ``what`` (the name of what) is a message id."""
    if not isinstance(value, str) or not value.strip():
        raise InvalidInput("The {what} is missing: type a name.", what=Term(what))
    text = " ".join(value.split())
    if len(text) > MAX_NAME:
        raise InvalidInput(
            "The {what} {name}... is too long: at most {most} characters.",
            what=Term(what), name=repr(text[:20]), most=MAX_NAME,
        )
    return text


# --- the club ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Member:
    """A member of the club."""

    id: MemberId
    name: str
    joined_at: float


@dataclass(frozen=True)
class Grant:
    """Play chips the director gave a member (a starting balance, a weekly top-up)."""

    seq: int
    member: MemberId
    amount: Chips
    reason: str
    at: float


@dataclass(frozen=True)
class Club:
    """The club's members and grants: the fold of the club's events.

    Events: ``created`` (``{}``), ``member_added`` (``{"name", "grant"?, "reason"?}``),
    ``chips_granted`` (``{"member", "amount", "reason"?}``) and ``undo``.

    >>> club = club_fold([Event(1, "created", {}, 0.0),
    ...                   Event(2, "member_added", {"name": "Ann", "grant": 10000}, 1.0)])
    >>> club.member_named("ann"), club.granted(1)
    (Member(id=1, name='Ann', joined_at=1.0), 10000)
    """

    seq: int = 0
    members: tuple[Member, ...] = ()
    grants: tuple[Grant, ...] = ()
    history: History = field(default_factory=History, repr=False, compare=False)

    def member(self, member_id: MemberId) -> Member:
        for m in self.members:
            if m.id == member_id:
                return m
        raise InvalidInput("There is no club member number {member}.", member=str(member_id))

    def member_named(self, name: str) -> Member | None:
        key = " ".join(name.split()).casefold()
        for m in self.members:
            if m.name.casefold() == key:
                return m
        return None

    def granted(self, member_id: MemberId) -> Chips:
        return sum(g.amount for g in self.grants if g.member == member_id)

    @property
    def can_undo(self) -> bool:
        return self.history.depth > 0

    @property
    def redo_event(self) -> Event | None:
        """The entry a ``redo`` would put back (the last one undone), if any."""
        return self.history.undone[-1] if self.history.undone else None

    def names(self) -> dict[MemberId, str]:
        return {m.id: m.name for m in self.members}


def _member_id(payload: Mapping[str, Any], key: str = "member") -> MemberId:
    value = payload.get(key)
    if isinstance(value, bool):
        raise InvalidInput("{value} is not a member number.", value=repr(value))
    try:
        return int(str(value))
    except ValueError:
        raise InvalidInput("{value} is not a member number.", value=repr(value)) from None


def _amount(payload: Mapping[str, Any], key: str = "amount") -> Chips:
    value = payload.get(key)
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidInput("The amount must be a whole number of chips, not {value}.", value=repr(value))
    return value


def _grant(club: Club, member: Member, amount: Chips, reason: object, event: Event) -> Club:
    _verify_chips(amount, "grant", member.name)
    text = " ".join(str(reason or "Grant").split())[:80] or "Grant"
    return replace(club, grants=(*club.grants, Grant(event.seq, member.id, amount, text, event.at)))


def club_apply(club: Club, event: Event) -> Club:
    """The club after one more event; ``EngineError`` if it cannot happen."""
    if event.type == "created":
        if club.seq:
            raise IllegalAction("The club already exists.")
        if event.seq != club.seq + 1:
            raise InvalidInput(
                "Event {event} cannot follow event {previous}.", event=str(event.seq), previous=str(club.seq)
            )
        return Club(seq=event.seq)
    if event.type == "undo" and club.history.depth == 0 and event.seq == club.seq + 1:
        raise IllegalAction("There is nothing to undo in the club.")
    return apply_event(club, event, _CLUB_HANDLERS, N_("club event"))


def _member_added(club: Club, event: Event) -> Club:
    p = event.payload
    name = clean_name(p.get("name"), N_("member's name"))
    existing = club.member_named(name)
    if existing is not None:
        raise IllegalAction("{name} is already a member of the club.", name=existing.name)
    member = Member(max((m.id for m in club.members), default=0) + 1, name, event.at)
    new = replace(club, members=(*club.members, member))
    grant = p.get("grant")
    if grant not in (None, 0):
        new = _grant(new, member, _amount(p, "grant"), p.get("reason") or N_("Starting balance"), event)
    return new


def _chips_granted(club: Club, event: Event) -> Club:
    member = club.member(_member_id(event.payload))
    return _grant(club, member, _amount(event.payload), event.payload.get("reason"), event)


_CLUB_HANDLERS: dict[str, Callable[[Club, Event], Club]] = {
    "member_added": _member_added,
    "chips_granted": _chips_granted,
}


def club_fold(events: Iterable[Event]) -> Club:
    """The club after all ``events`` (the first is ``created``)."""
    club = Club()
    for event in events:
        club = club_apply(club, event)
    return club


# --- a cash session -------------------------------------------------------------------------


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


def _table_from(data: object, number: int) -> CashTable:
    if not isinstance(data, Mapping):
        raise InvalidInput("Table {number} must be given with its seats and blinds.", number=number)
    seats = data.get("seats", 9)
    if isinstance(seats, bool) or seats not in TABLE_SIZES:
        raise InvalidInput(
            "Table {number} must have 6 or 9 seats, not {seats}.",
            number=number, seats=repr(seats)
        )
    if "stake" in data and "big_blind" not in data:
        stake = Stake.parse(str(data["stake"]))
    else:
        stake = Stake(data.get("small_blind"), data.get("big_blind"))  # type: ignore[arg-type]
    return CashTable(number, int(seats), stake)


def create(event: Event) -> CashSession:
    """The session after its ``created`` event."""
    if event.type != "created":
        raise InvalidInput("A cash session starts with its 'created' event.")
    p = event.payload
    name = clean_name(p.get("name"), N_("session name"))
    rule = p.get("newcomers", "wait")
    if rule not in NEWCOMER_RULES:
        raise InvalidInput(
            "A new player must 'wait' for the big blind or 'post' one, not {rule}.",
            rule=repr(rule)
        )
    raw = p.get("tables")
    if not isinstance(raw, list) or not raw:
        raise InvalidInput("A cash session needs at least one table.")
    if len(raw) > 20:
        raise InvalidInput("A cash session can have at most 20 tables, not {count}.", count=len(raw))
    tables = tuple(_table_from(t, n) for n, t in enumerate(raw, start=1))
    return CashSession(event.seq, name, event.at, rule, tables)


def _with_table(state: CashSession, table: CashTable) -> CashSession:
    return replace(
        state, tables=tuple(table if t.number == table.number else t for t in state.tables)
    )


def _seat_number(value: object, table: CashTable) -> Seat:
    if isinstance(value, bool):
        raise InvalidInput("{value} is not a seat number.", value=repr(value))
    try:
        seat = int(str(value))
    except ValueError:
        raise InvalidInput("{value} is not a seat number.", value=repr(value)) from None
    if not 1 <= seat <= table.seats:
        raise IllegalAction(
            "Table {table} has seats 1 to {seats}; there is no seat {seat}.",
            table=table.number, seats=table.seats, seat=seat,
        )
    return seat


def _set_players(table: CashTable, players: Iterable[SeatedPlayer]) -> CashTable:
    return replace(table, players=tuple(sorted(players, key=lambda p: p.seat)), finished=None)


def _seated(state: CashSession, member: MemberId) -> tuple[CashTable, SeatedPlayer]:
    found = state.seat_of(member)
    if found is None:
        raise IllegalAction("{player} is not sitting at any table.", player=state.name_of(member))
    return found


_BETWEEN_HANDS = {
    "top up": N_("{player} is in the hand being played at table {table}: top up when it is over."),
    "rebuy": N_("{player} is in the hand being played at table {table}: rebuy when it is over."),
    "leave": N_("{player} is in the hand being played at table {table}: leave when it is over."),
    "change seats": N_(
        "{player} is in the hand being played at table {table}: change seats when it is over."
    ),
}


def _between_hands(
    table: CashTable, player: SeatedPlayer, doing: Literal["top up", "rebuy", "leave", "change seats"]
) -> None:
    if table.in_hand(player.member):
        raise IllegalAction(_BETWEEN_HANDS[doing], player=player.name, table=table.number)


def _move(
    state: CashSession,
    event: Event,
    member: MemberId,
    name: str,
    kind: str,
    amount: Chips,
    table: int,
) -> CashSession:
    return replace(
        state,
        movements=(
            *state.movements,
            Movement(event.seq, event.at, member, name, kind, amount, table),
        ),
    )


def _verify_queue(state: CashSession, stake: Stake, member: MemberId, name: str) -> None:
    """A free seat goes to the first in line: someone further back (or not on the list)
    sits only when there are free seats enough for everyone ahead of them."""
    queue = [w for w in state.waiting_list(stake) if state.seat_of(w.member) is None]
    ahead = next((k for k, w in enumerate(queue) if w.member == member), len(queue))
    free = sum(len(t.free_seats) for t in state.tables if t.stake == stake)
    if ahead >= free and ahead:
        first = queue[0]
        raise IllegalAction(
            "{name} cannot take the free seat at {stake}: it is offered first to {first}, first on the waiting list; take {first} off the list to seat someone else.",
            name=name, stake=stake.name, first=first.name
        )


def _sat_down(state: CashSession, event: Event) -> CashSession:
    p = event.payload
    member = _member_id(p)
    name = clean_name(p.get("name"), N_("player's name"))
    table = state.table(p.get("table"))
    seat = _seat_number(p.get("seat"), table)
    found = state.seat_of(member)
    if found is not None:
        raise IllegalAction(
            "{name} is already sitting at table {table}, seat {seat}.",
            name=name, table=found[0].number, seat=found[1].seat,
        )
    occupant = table.player_at(seat)
    if occupant is not None:
        raise IllegalAction(
            "Seat {seat} at table {table} is taken by {occupant}.",
            seat=seat, table=table.number, occupant=occupant.name,
        )
    amount = p.get("amount")
    table.stake.verify_buy_in(amount, name)  # type: ignore[arg-type]
    assert isinstance(amount, int)
    _verify_queue(state, table.stake, member, name)
    newcomer = table.positions is not None
    table = _set_players(
        table, (*table.players, SeatedPlayer(member, name, seat, amount, newcomer))
    )
    state = _with_table(state, table)
    state = _move(state, event, member, name, "sat_down", amount, table.number)
    waiting = tuple(
        (stake, tuple(w for w in queue if w.member != member))
        if stake == table.stake
        else (stake, queue)
        for stake, queue in state.waiting
    )
    names = (
        state.names if any(m == member for m, _ in state.names) else (*state.names, (member, name))
    )
    return replace(
        state,
        waiting=tuple((s, q) for s, q in waiting if q),
        names=names,
        times=(*state.times, PlayerTime(member, event.at, None)),
    )


def _add_chips(state: CashSession, event: Event) -> CashSession:
    table, player = _seated(state, _member_id(event.payload))
    amount = event.payload.get("amount")
    if event.type == "top_up":
        _between_hands(table, player, "top up")
        if player.busted:
            raise IllegalAction(
                "{player} has no chips left: that is a rebuy of {range}.",
                player=player.name, range=table.stake.range_text,
            )
        table.stake.verify_top_up(player.stack, amount, player.name)  # type: ignore[arg-type]
    else:
        if not player.busted:
            raise IllegalAction(
                "{player} still has {stack} chips: a rebuy is for a player who has busted; top up instead.",
                player=player.name, stack=player.stack
            )
        _between_hands(table, player, "rebuy")
        table.stake.verify_buy_in(amount, player.name)  # type: ignore[arg-type]
    assert isinstance(amount, int)
    stacked = replace(player, stack=player.stack + amount)
    table = _set_players(table, (stacked if q is player else q for q in table.players))
    return _move(
        _with_table(state, table),
        event,
        player.member,
        player.name,
        event.type,
        amount,
        table.number,
    )


def _left(state: CashSession, event: Event) -> CashSession:
    table, player = _seated(state, _member_id(event.payload))
    _between_hands(table, player, "leave")
    table = _set_players(table, (q for q in table.players if q is not player))
    state = _move(
        _with_table(state, table),
        event,
        player.member,
        player.name,
        "left",
        player.stack,
        table.number,
    )
    times = list(state.times)
    for k in range(len(times) - 1, -1, -1):
        if times[k].member == player.member and times[k].left_at is None:
            times[k] = replace(times[k], left_at=event.at)
            break
    return replace(state, times=tuple(times))


def _seat_changed(state: CashSession, event: Event) -> CashSession:
    p = event.payload
    old, player = _seated(state, _member_id(p))
    new = state.table(p.get("table"))
    seat = _seat_number(p.get("seat"), new)
    if new.stake != old.stake:
        raise IllegalAction(
            "{player} cannot move to table {table}: it plays {stake}, not {old}; "
            "cash out and sit down there instead.",
            player=player.name, table=new.number, stake=new.stake.name, old=old.stake.name,
        )
    if new.number == old.number and seat == player.seat:
        raise IllegalAction(
            "{player} is already in seat {seat} at table {table}.",
            player=player.name, seat=seat, table=new.number,
        )
    occupant = new.player_at(seat)
    if occupant is not None:
        raise IllegalAction(
            "Seat {seat} at table {table} is taken by {occupant}.",
            seat=seat, table=new.number, occupant=occupant.name,
        )
    _between_hands(old, player, "change seats")
    moved = replace(player, seat=seat, newcomer=new.positions is not None)
    old = _set_players(old, (q for q in old.players if q is not player))
    state = _with_table(state, old)
    new = state.table(new.number)
    return _with_table(state, _set_players(new, (*new.players, moved)))


def _stake_of(state: CashSession, value: object) -> Stake:
    stake = Stake.parse(str(value))
    if stake not in state.stakes:
        played = ", ".join(s.name for s in state.stakes)
        raise IllegalAction(
            "No table plays {stake} tonight; the stakes are {played}.",
            stake=stake.name, played=played
        )
    return stake


def _waiting(state: CashSession, event: Event) -> CashSession:
    p = event.payload
    member = _member_id(p)
    stake = _stake_of(state, p.get("stake"))
    queue = state.waiting_list(stake)
    listed = any(w.member == member for w in queue)
    if event.type == "waiting_added":
        name = clean_name(p.get("name"), N_("player's name"))
        if listed:
            raise IllegalAction("{name} is already on the {stake} waiting list.", name=name, stake=stake.name)
        found = state.seat_of(member)
        if found is not None and found[0].stake == stake:
            raise IllegalAction(
                "{name} is already playing {stake} at table {table}.",
                name=name, stake=stake.name, table=found[0].number,
            )
        queue = (*queue, Waiting(member, name, event.at))
    else:
        if not listed:
            raise IllegalAction(
                "{player} is not on the {stake} waiting list.", player=state.name_of(member), stake=stake.name
            )
        queue = tuple(w for w in queue if w.member != member)
    others = tuple((s, q) for s, q in state.waiting if s != stake)
    lists = (*others, (stake, queue)) if queue else others
    return replace(state, waiting=tuple(sorted(lists, key=lambda sq: sq[0])))


def next_hand(state: CashSession, table_number: object, button: Seat | None = None) -> NextHand:
    """Who is dealt in next at a table, and the positions, by the dead-button rule.

    A newcomer joins when the big blind reaches their seat (``newcomers == "wait"``), or at
    once with a big blind posted, except between the button and the small blind where
    they wait for the button to pass (``"post"``, TDA 1.4). The post is a dead post of one
    big blind. A table restarting with fewer than two players left from before deals
    everyone in, the button moving on from the last one (or ``button``).
    """
    table = state.table(table_number)
    if table.hand is not None:
        raise IllegalAction(
            "Table {table} is already playing hand {hand}.",
            table=table.number, hand=str(table.hand.number),
        )
    with_chips = {p.seat: p for p in table.players if p.stack > 0}
    if len(with_chips) < 2:
        if with_chips:
            raise IllegalAction(
                "Table {table} needs two players with chips to deal; only one has chips.",
                table=table.number,
            )
        raise IllegalAction(
            "Table {table} needs two players with chips to deal; nobody has chips.", table=table.number
        )
    stake = table.stake
    newcomers = {s for s, p in with_chips.items() if p.newcomer}
    plan = plan_next(
        table.positions, set(with_chips), newcomers, table.seats, button=button, newcomers_join=state.newcomers
    )
    positions, dealt, posts = plan.positions, plan.dealt, plan.posts
    setup = HandSetup(
        stacks={s: with_chips[s].stack for s in sorted(dealt)},
        button=positions.button,
        small_blind_seat=positions.small_blind,
        big_blind_seat=positions.big_blind,
        small_blind=stake.small_blind,
        big_blind=stake.big_blind,
        antes={s: stake.big_blind for s in sorted(posts)},
    )
    return NextHand(positions, dealt, plan.waiting, posts, setup)


def _hand_started(state: CashSession, event: Event) -> CashSession:
    p = event.payload
    table = state.table(p.get("table"))
    button = p.get("button")
    if button is not None and (isinstance(button, bool) or not isinstance(button, int)):
        raise InvalidInput("The button must be a seat number, not {button}.", button=repr(button))
    upcoming = next_hand(state, table.number, button)
    numbers = [h.number for h in state.hands] + [t.hand.number for t in state.tables if t.hand]
    joined = tuple(q.seat for q in table.players if q.newcomer and q.seat in upcoming.dealt)
    live = LiveHand(
        number=max(numbers, default=0) + 1,
        table=table.number,
        setup=upcoming.setup,
        positions=upcoming.positions,
        started_at=event.at,
        posts=upcoming.posts,
        previous_positions=table.positions,
        joined=joined,
    )
    players = tuple(
        replace(q, newcomer=False) if q.seat in upcoming.dealt else q for q in table.players
    )
    table = replace(
        _set_players(table, players),
        positions=upcoming.positions,
        hand=live,
        hands_dealt=table.hands_dealt + 1,
    )
    return _with_table(state, replace(table, finished=None))


def _finish_hand(
    state: CashSession, table: CashTable, live: LiveHand, hand: Hand, at: float
) -> CashSession:
    after = hand.stacks()
    assert hand.award is not None
    players = tuple(
        replace(q, stack=after[q.seat]) if q.seat in after else q for q in table.players
    )
    record = HandRecord(
        live.number,
        table.number,
        live.setup,
        tuple(hand.log),
        live.started_at,
        at,
        sum(pot.amount for pot in hand.award.pots),
        tuple(sorted(hand.award.won().items())),
        hand.award.describe(),
        tuple((q.seat, q.name) for q in table.players if q.seat in after),
    )
    table = replace(_set_players(table, players), hand=None, finished=live)
    return replace(_with_table(state, table), hands=(*state.hands, record))


def _hand_action(state: CashSession, event: Event) -> CashSession:
    p = event.payload
    table = state.table(p.get("table"))
    if table.hand is None:
        raise IllegalAction("No hand is being played at table {table}: deal one first.", table=table.number)
    entries = p.get("entries", [p.get("entry")])
    if not isinstance(entries, list) or not entries:
        raise InvalidInput("The actions must be a list like ['p3 sm AsKd', 'd win cards'].")
    hand = table.hand.after(entries)
    live = table.hand.step(log=tuple(hand.log))
    if hand.is_complete:
        return _finish_hand(state, table, live, hand, event.at)
    return _with_table(state, replace(table, hand=live))


def _hand_undo(state: CashSession, event: Event) -> CashSession:
    table = state.table(event.payload.get("table"))
    if table.hand is not None:
        earlier = table.hand.undone()
        if earlier is not None:
            return _with_table(state, replace(table, hand=earlier))
        # Take back the deal itself: positions and newcomers as before it.
        dealt = table.hand
        players = tuple(
            replace(q, newcomer=True) if q.seat in dealt.joined else q for q in table.players
        )
        return _with_table(
            state,
            replace(
                table,
                players=players,
                hand=None,
                positions=dealt.previous_positions,
                hands_dealt=table.hands_dealt - 1,
            ),
        )
    finished = table.finished
    reopened = finished.undone() if finished is not None else None
    if finished is None or reopened is None:
        raise IllegalAction("There is no hand to undo at table {table}.", table=table.number)
    # Nothing changed at the table since the award: its players had their starting stacks.
    start = finished.setup.stacks
    players = tuple(replace(q, stack=start[q.seat]) if q.seat in start else q for q in table.players)
    table = replace(table, players=players, hand=reopened, finished=None)
    return replace(
        _with_table(state, table), hands=tuple(h for h in state.hands if h.number != finished.number)
    )


def _table_added(state: CashSession, event: Event) -> CashSession:
    if len(state.tables) >= 20:
        raise IllegalAction("A cash session can have at most 20 tables.")
    table = _table_from(event.payload, len(state.tables) + 1)
    return replace(state, tables=(*state.tables, table))


def _hand_redo(state: CashSession, event: Event) -> CashSession:
    """The entry the last ``hand_undo`` took back from the hand in play, put back."""
    table = state.table(event.payload.get("table"))
    again = table.hand.redone() if table.hand is not None else None
    if again is None:
        raise IllegalAction(
            "There is nothing to redo at table {table}: redo follows an undo, before the next entry.",
            table=table.number,
        )
    return _with_table(state, replace(table, hand=again))


_HANDLERS = {
    "table_added": _table_added,
    "sat_down": _sat_down,
    "top_up": _add_chips,
    "rebuy": _add_chips,
    "left": _left,
    "seat_changed": _seat_changed,
    "waiting_added": _waiting,
    "waiting_removed": _waiting,
    "hand_started": _hand_started,
    "hand_action": _hand_action,
    "hand_undo": _hand_undo,
    "hand_redo": _hand_redo,
}
EVENT_TYPES = ("created", "undo", "redo", *_HANDLERS)


def apply(state: CashSession, event: Event) -> CashSession:
    """The session after ``event``; ``EngineError`` if it cannot happen."""
    return apply_event(state, event, _HANDLERS, N_("cash session event"))


def fold(events: Iterable[Event]) -> CashSession:
    """The session after all ``events``; the first must be ``created``."""
    return fold_events(events, create, apply, N_("A cash session starts with its 'created' event."))


def balances(club: Club, sessions: Iterable[CashSession]) -> dict[MemberId, Chips]:
    """Each member's Play Chips: grants, plus what every session cashed out less what it
    bought in (chips on a table are not in the balance until cashed out)."""
    out = {m.id: club.granted(m.id) for m in club.members}
    for session in sessions:
        for member, change in session.balance_changes().items():
            out[member] = out.get(member, 0) + change
    return out


def describe(event: Event, names: Mapping[MemberId, str] | None = None) -> str:
    """One line for the session's history."""
    p = event.payload

    def who() -> str:
        if p.get("name"):
            return str(p["name"])
        try:
            return (names or {}).get(_member_id(p), "?")
        except EngineError:
            return "?"

    amount = p.get("amount")
    text: Chips | str = amount if isinstance(amount, int) and not isinstance(amount, bool) else "?"
    table, seat = str(p.get("table")), str(p.get("seat"))
    match event.type:
        case "created":
            return Message("Session opened")
        case "table_added":
            return Message("Table added")
        case "member_added":
            return Message("{player} joined the club", player=who())
        case "chips_granted":
            return Message("{amount} play chips granted to {player}", amount=text, player=who())
        case "sat_down":
            return Message(
                "{player} sat down at table {table} seat {seat} for {amount}",
                player=who(), table=table, seat=seat, amount=text,
            )
        case "top_up":
            return Message("{player} topped up {amount}", player=who(), amount=text)
        case "rebuy":
            return Message("{player} rebought for {amount}", player=who(), amount=text)
        case "left":
            return Message("{player} cashed out", player=who())
        case "seat_changed":
            return Message("{player} moved to table {table} seat {seat}", player=who(), table=table, seat=seat)
        case "waiting_added":
            return Message("{player} joined the {stake} waiting list", player=who(), stake=str(p.get("stake")))
        case "waiting_removed":
            return Message("{player} left the {stake} waiting list", player=who(), stake=str(p.get("stake")))
        case "hand_started":
            return Message("Hand dealt at table {table}", table=table)
        case "hand_action":
            entries = p.get("entries") or [p.get("entry")]
            said = "; ".join(describe_entry(str(e)) for e in entries)
            return Message("Table {table}: {entries}", table=table, entries=said)
        case "hand_undo":
            return Message("Table {table}: undo", table=table)
        case "hand_redo":
            return Message("Table {table}: redo", table=table)
        case "undo":
            return Message("Undo")
    return event.type


describe_entry = notation.describe
"""A hand's notation in words, for the history (``engine.notation.describe``)."""



__all__ = [
    "EVENT_TYPES",
    "MAX_BUY_IN_BB",
    "MIN_BUY_IN_BB",
    "NEWCOMER_RULES",
    "OPEN_STAKES",
    "STAKES",
    "TABLE_SIZES",
    "CashSession",
    "CashTable",
    "Club",
    "Grant",
    "HandRecord",
    "Ledger",
    "LedgerLine",
    "LiveHand",
    "Member",
    "Movement",
    "NextHand",
    "Offer",
    "SeatedPlayer",
    "Stake",
    "Waiting",
    "apply",
    "balances",
    "chips",
    "clean_name",
    "club_apply",
    "club_fold",
    "create",
    "describe",
    "describe_entry",
    "fold",
    "next_hand",
    "verify_member_buy_in",
    "verify_stake_access",
]
