"""The hands dealt at a tournament's tables as the fold keeps them (``Tournament.dealing``):
each hand as far as it has been entered (:class:`TableHand`), with the rulings made in it,
and every hand of the night with the chips won and lost in them (:class:`Dealing`); the
director's corrections of a stack and his busts of players with chips. The events that
make them are handled in ``engine.dealing`` and ``engine.rulings``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import TypeAlias

from engine.errors import Message
from engine.events import Vec
from engine.houserules import PendingAction
from engine.table import Dealt

PlayerId: TypeAlias = int
Seat: TypeAlias = int
Chips: TypeAlias = int


@dataclass(frozen=True)
class Ruling:
    """A ruling at the table (``engine.rulings``): what happened, the rule applied and what
    the dealer reads aloud; ``entry`` is the number of log entries when it was made."""

    kind: str
    rule: str
    text: str
    entry: int
    voided: tuple[str, ...] = ()
    """The entries a misdeal took back (the hand was dealt again)."""
    at: float = 0.0
    """When it was ruled (epoch seconds)."""

    @property
    def line(self) -> str:
        """``Misdeal: ... (TDA 35-A)``: the ruling with its rule, for a history or a file."""
        return Message("{ruling} ({rule})", ruling=self.text, rule=self.rule)


@dataclass(frozen=True, kw_only=True)
class TableHand(Dealt):
    """One hand dealt at a table, as far as it has been entered (``engine.table.Dealt``: its
    setup, positions and log, and the record one entry earlier for undo).

    ``players`` are the seats dealt in with their players, ``waiting`` the seated players
    sitting this hand out.
    """

    number: int
    """The hand's number at its table (1, 2, ...)."""
    tournament_hand: int
    """The hand's number in the whole tournament."""
    started_seq: int
    level: int
    players: tuple[tuple[Seat, PlayerId], ...]
    waiting: tuple[tuple[Seat, PlayerId], ...] = ()
    h4h_round: int | None = None
    """The hand-for-hand hand number (the same at every table), or None."""
    notes: tuple[str, ...] = ()
    pending: tuple[PendingAction, ...] = ()
    finished: bool = False
    result: str = ""
    busted: tuple[tuple[PlayerId, Chips], ...] = ()
    """Players knocked out in this hand, with the chips they started it with."""
    finishing_stacks: tuple[tuple[Seat, Chips], ...] = ()
    rulings: tuple[Ruling, ...] = ()
    """The rulings made in this hand (misdeals, exposed cards, the button, the clock)."""
    entry_seqs: tuple[int, ...] = ()
    """The seq of the event that entered each entry of ``log`` (an out-of-turn action that
    binds when its turn comes has the seq of the entry that brought the turn): the event log
    says each entry in the hand as it stood then."""
    kept: tuple[tuple[int, TableHand], ...] = ()
    """The hand as it stood around each event that took entries back (before it: an undo, a
    misdeal, a corrected button) or put one back (after it: a redo), with the event's seq:
    the log says those entries as they were played."""

    def player_at(self, seat: Seat) -> PlayerId | None:
        return dict(self.players).get(seat) or dict(self.waiting).get(seat)

    def seat_of(self, player: PlayerId) -> Seat | None:
        return next((s for s, p in self.players if p == player), None)

    def pending_for(self, seat: Seat) -> PendingAction | None:
        return next((p for p in self.pending if p.seat == seat), None)

    def remember(self, seq: int, other: TableHand) -> TableHand:
        """This hand, keeping ``other`` (the hand before event ``seq`` took entries back, or
        after it put one back) for the log, without what ``other`` keeps for undo."""
        kept = replace(other, before=None, ahead=(), kept=())
        return replace(self, kept=(*other.kept, (seq, kept)))

    def played(self, seq: int) -> tuple[TableHand, int, int] | None:
        """Where event ``seq``'s entries stand: this hand or the hand as it stood before they
        were taken back, with the index of the first of them and their number (None when
        they are not known)."""
        for record in (self, *(r for _, r in reversed(self.kept))):
            if seq in record.entry_seqs:
                return record, record.entry_seqs.index(seq), record.entry_seqs.count(seq)
        return None


@dataclass(frozen=True)
class Correction:
    """A stack set by the director to what is on the felt."""

    seq: int
    at: float
    player: PlayerId
    before: Chips
    after: Chips
    reason: str
    table: int | None = None
    """The player's table when the stack was corrected."""


@dataclass(frozen=True)
class WriteOff:
    """A player put out by the director with chips in the stack kept here: they lost them at
    their table, to players whose stacks here do not show them."""

    seq: int
    player: PlayerId
    table: int | None
    chips: Chips
    followed: bool
    """Whether the dealer's assistant deals at that table."""
    to: PlayerId | None = None
    """The player who won the chips (they moved to that stack), or None: they left the stacks
    kept here (a table without the dealer's assistant keeps no stacks)."""


@dataclass(frozen=True)
class Dealing:
    """Every hand dealt in the tournament, and the chips won and lost in them.

    Kept so that one more entry costs the same late in the night as early: the finished
    hands of each table in a ``Vec``, the latest hand of each table apart.
    """

    finished: Mapping[int, Vec[TableHand]] = field(default_factory=dict)
    """The finished hands of each table, in order."""
    latest: Mapping[int, TableHand] = field(default_factory=dict)
    """The latest hand dealt at each table (running or finished)."""
    dealt: int = 0
    """Hands dealt in the whole tournament."""
    net: Mapping[PlayerId, Chips] = field(default_factory=dict)
    """Chips each player won (or lost, negative) in finished hands, plus corrections."""
    corrections: tuple[Correction, ...] = ()
    write_offs: tuple[WriteOff, ...] = ()
    in_hand: Mapping[PlayerId, int] = field(default_factory=dict)
    """The players dealt into a running hand, with its table."""

    def hand_of(self, player: PlayerId) -> TableHand | None:
        """The running hand ``player`` is dealt into, or None."""
        table = self.in_hand.get(player)
        return self.running(table) if table is not None else None

    def current(self, table: int) -> TableHand | None:
        """The latest hand dealt at ``table`` (running or finished), or None."""
        return self.latest.get(table)

    def running(self, table: int) -> TableHand | None:
        hand = self.latest.get(table)
        return hand if hand is not None and not hand.finished else None

    def at_table(self, table: int) -> tuple[TableHand, ...]:
        """Every hand dealt at ``table``, in order (the running one last)."""
        done = tuple(self.finished.get(table, ()))
        running = self.running(table)
        return (*done, running) if running is not None else done

    @property
    def hands(self) -> tuple[TableHand, ...]:
        """Every hand dealt, in the order they were dealt (walks the night: for exports)."""
        every = [h for t in self.latest for h in self.at_table(t)]
        return tuple(sorted(every, key=lambda h: h.started_seq))

    @property
    def tables(self) -> tuple[int, ...]:
        """The tables where a hand was dealt."""
        return tuple(sorted(self.latest))

    def net_of(self, player: PlayerId) -> Chips:
        return self.net.get(player, 0)

    def with_running(self, hand: TableHand) -> Dealing:
        """``hand`` (running) is now the latest at its table."""
        return replace(self, latest={**self.latest, hand.table: hand})

    def with_dealt(self, hand: TableHand) -> Dealing:
        in_hand = {**self.in_hand, **{pid: hand.table for _, pid in hand.players}}
        return replace(self.with_running(hand), dealt=self.dealt + 1, in_hand=in_hand)

    def _out_of_hand(self, hand: TableHand) -> dict[PlayerId, int]:
        players = {pid for _, pid in hand.players}
        return {pid: t for pid, t in self.in_hand.items() if pid not in players}

    def with_finished(self, hand: TableHand, net: Mapping[PlayerId, Chips]) -> Dealing:
        done = self.finished.get(hand.table, Vec[TableHand]()).append(hand)
        return replace(
            self,
            finished={**self.finished, hand.table: done},
            latest={**self.latest, hand.table: hand},
            net=net,
            in_hand=self._out_of_hand(hand),
        )

    def without_running(self, table: int) -> Dealing:
        """The deal at ``table`` taken back: its latest hand is the last finished one again."""
        latest = dict(self.latest)
        running = self.running(table)
        in_hand = self._out_of_hand(running) if running is not None else dict(self.in_hand)
        before = self.finished.get(table, Vec[TableHand]()).final
        if before is None:
            latest.pop(table, None)
        else:
            latest[table] = before
        return replace(self, latest=latest, dealt=self.dealt - 1, in_hand=in_hand)


__all__ = ["Correction", "Dealing", "Ruling", "TableHand", "WriteOff"]
