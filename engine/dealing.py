"""Hands played at the tables: the dealer's assistant's part of a tournament's fold.

Each hand is a few events in the tournament's log, folded here into :class:`Dealing`
(``Tournament.dealing``); the table's state is the engine's replay of them
(:meth:`engine.table.Dealt.replay` rebuilds the :class:`engine.hand.Hand` from its setup and
actions). Events (``type``: payload):

- ``hand_started``: ``{"table", "level"?, "small_blind"?, "big_blind"?, "ante"?, "button"?,
  "setup"?}``: a new hand at ``table`` with the blinds and ante of the level in force when
  it is dealt (from the clock: by time, or by hands for a hand-counted structure; the
  values in the payload, when given, must be those). The fold places the button and blinds by the dead-button rule, deals in the
  seated players with their stacks (a newcomer between the button and the small blind
  sits out, TDA 1.4) and records it; ``setup`` (as :func:`plan_deal` gives it), when
  present, must match, so a page that is out of date cannot deal the wrong hand;
- ``hand_action``: ``{"table", "action" | "actions", "note"?}``: one entry of the hand's
  log in compact notation (``p3 cbr 600``, ``d db AhKd7c``, ``d win 3;5,7``, ``d win
  cards``), or several entered together. When the hand ends (an award, or everyone
  else folded) it is finished in the same event: stacks change, players left with no
  chip are knocked out and placed by ``engine.standings`` (same-hand busts ranked by
  starting stack), a hand-counted structure counts the hand, and the hand cap ends the
  tournament with the players ranked by chips;
- ``hand_pending``: ``{"table", "action": "p6 cbr 800"}``: an action out of turn, held
  until the turn reaches that player (``engine.houserules``, TDA 53);
- ``hand_redo``: ``{"table"}``: puts back the entry the last ``hand_undo`` took back (until
  the next entry at the table).
- ``hand_undo``: ``{"table"}``: takes back the last ``hand_action`` or ``hand_pending``
  of the running hand, or the deal itself when nothing was entered yet;
- ``stack_corrected``: ``{"player", "stack", "reason"}``: the director sets a stack to
  what is on the felt.

Chips: a player's stack is their buy-ins (entries, rebuys, the add-on) plus what they
won or lost in finished hands plus corrections (:func:`stack_of`). A player the director
puts out from the dashboard (not in a hand entered here) lost their chips at their table
(:func:`write_off`), so a rebuy brings exactly the rebuy chips. :func:`chip_check` compares
the stacks kept here with the chips that should be there: a difference means some stack
differs from the felt (a correction without its counterpart, or chips lost in a hand the
assistant did not see at a table where it deals).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, TypeAlias

from engine import notation
from engine.cards import parse_cards
from engine.clock import ClockEntry, HandPlayed
from engine.errors import N_, EngineError, IllegalAction, InvalidInput, Message, Term
from engine.events import Event, Vec
from engine.hand import Hand, HandSetup
from engine.houserules import PendingAction, record_out_of_turn, resolve_out_of_turn
from engine.positions import Positions
from engine.pots import award_words
from engine.table import Dealt, plan_next

if TYPE_CHECKING:  # the tournament hosts these handlers: its type only, never imported at run time
    from engine.tournament import Tournament

PlayerId: TypeAlias = int
Seat: TypeAlias = int
Chips: TypeAlias = int

EVENT_TYPES = ("hand_started", "hand_action", "hand_pending", "hand_undo", "hand_redo", "stack_corrected")
RULING_EVENT_TYPES = ("hand_misdeal", "hand_ruling", "button_corrected", "hand_time_up")
"""The rulings at a table (handled in ``engine.rulings``)."""
TABLE_EVENT_TYPES = frozenset(EVENT_TYPES) - {"stack_corrected"} | frozenset(RULING_EVENT_TYPES)
"""The events of play at one table (a night has many of them: no index lists them)."""


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


def last_positions(state: Tournament) -> dict[int, Positions]:
    """The positions of the latest hand dealt at each open table (for balancing: TDA 11-A
    moves the player who will be big blind next)."""
    result: dict[int, Positions] = {}
    for table in state.seating.tables:
        hand = state.dealing.current(table)
        if hand is not None:
            result[table] = hand.positions
    return result


# --------------------------------------------------------------------------- chips


def stack_of(state: Tournament, player: PlayerId) -> Chips:
    """A player's chips between hands: buy-ins plus winnings plus corrections (0 once out)."""
    standings = state.standings
    entrant = standings.entrant(player)
    if not entrant.in_play:
        return 0
    bought = (
        standings.starting_stack * (1 + entrant.reentries)
        + entrant.rebuys * standings.rebuy_chips
        + (standings.rules.addon_chips if entrant.addon else 0)
    )
    return bought + state.dealing.net_of(player)


def write_off(
    state: Tournament, players: Sequence[PlayerId], seq: int, by: Sequence[PlayerId] = ()
) -> Dealing:
    """The director's bust: each player's stack goes to ``by``, the player who won it (split
    evenly between several, the odd chips to the first ones, in the odd-chip order), or (no
    winner named) leaves the stacks kept here. The caller refuses the bust of a player dealt
    into a running hand: that hand settles their chips."""
    dealing = state.dealing
    followed = set(dealing.latest)
    changes: dict[PlayerId, Chips] = {}
    offs: list[WriteOff] = []
    for pid in players:
        table = state.seating.seat_of(pid)[0] if pid in state.seating else None
        chips = stack_of(state, pid)
        if chips:
            changes[pid] = changes.get(pid, 0) - chips
            share, odd = divmod(chips, len(by)) if by else (0, 0)
            for n, winner in enumerate(by):
                changes[winner] = changes.get(winner, 0) + share + (1 if n < odd else 0)
            offs.append(WriteOff(seq, pid, table, chips, table in followed, by[0] if by else None))
    return replace(dealing, net=with_net(dealing.net, changes), write_offs=(*dealing.write_offs, *offs))


def write_off_v1(state: Tournament, players: Sequence[PlayerId], seq: int) -> Dealing:
    """The director's bust in a tournament stored under rules 1: the chips leave the kept
    stacks, and a player dealt into a running hand is left to that hand."""
    dealing = state.dealing
    kept = [pid for pid in players if dealing.hand_of(pid) is None]
    return write_off(state, kept, seq)


@dataclass(frozen=True)
class ChipCheck:
    """The stacks kept here against the chips that should be in them (at one table, or all).

    ``write_offs`` are the director's busts that explain a shortfall (chips lost in a hand
    the assistant did not see at a table where it deals).
    """

    expected: Chips
    counted: Chips
    write_offs: tuple[WriteOff, ...] = ()

    @property
    def difference(self) -> Chips:
        return self.counted - self.expected


def chip_check(state: Tournament, table: int | None = None) -> ChipCheck:
    """The stacks of the players still in (at ``table``, or everywhere) against the chips
    that should be there.

    Everywhere, the chips bought into play are expected, less those lost in director's busts
    at tables without the assistant (they are in stacks it does not follow). At one table,
    the stacks there are expected to hold what they hold, less the corrections made there
    and plus the chips lost there in director's busts the assistant did not see.
    """
    dealing = state.dealing
    lost = tuple(w for w in dealing.write_offs if w.to is None)
    if table is None:
        counted = sum(stack_of(state, pid) for pid in state.standings.in_play)
        unseen = sum(w.chips for w in lost if not w.followed)
        return ChipCheck(state.chips_in_play - unseen, counted, tuple(w for w in lost if w.followed))
    seated = state.seating.at_table(table).values() if table in state.seating.tables else ()
    counted = sum(stack_of(state, pid) for pid in seated)
    here = tuple(w for w in lost if w.followed and w.table == table)
    corrected = sum(c.after - c.before for c in dealing.corrections if c.table == table)
    return ChipCheck(counted - corrected + sum(w.chips for w in here), counted, here)


def with_net(net: Mapping[PlayerId, Chips], changes: Mapping[PlayerId, Chips]) -> dict[PlayerId, Chips]:
    merged = dict(net)
    for pid, delta in changes.items():
        merged[pid] = merged.get(pid, 0) + delta
    return merged


# --------------------------------------------------------------------------- the deal


@dataclass(frozen=True)
class DealPlan:
    """Who is dealt in at a table for the next hand, where the button and blinds go."""

    table: int
    positions: Positions
    players: tuple[tuple[Seat, PlayerId], ...]
    stacks: tuple[tuple[Seat, Chips], ...]
    waiting: tuple[tuple[Seat, PlayerId], ...]

    def as_dict(self) -> dict[str, Any]:
        """The ``setup`` of a ``hand_started`` payload (JSON-ready: seat keys are text)."""
        return {
            "button": self.positions.button,
            "small_blind_seat": self.positions.small_blind,
            "big_blind_seat": self.positions.big_blind,
            "players": {str(s): p for s, p in self.players},
            "stacks": {str(s): c for s, c in self.stacks},
            "waiting": [s for s, _ in self.waiting],
        }


def plan_deal(state: Tournament, table: int, button: Seat | None = None) -> DealPlan:
    """The next hand at ``table``: positions by the dead-button rule, players and stacks.

    The first hand after a seat draw takes the button drawn with the seats (or
    ``button``, or the lowest seat); later hands follow from the previous one.
    """
    if table not in state.seating.tables:
        raise IllegalAction("There is no table {table} in play.", table=table)
    in_hand = state.dealing.in_hand if state.settings.rules >= 2 else {}
    # A player moved here while his hand at another table runs joins once it is over (TDA 20).
    seated = {
        s: p for s, p in state.seating.at_table(table).items()
        if stack_of(state, p) > 0 and in_hand.get(p, table) == table
    }
    if len(seated) < 2:
        if len(seated) == 1:
            raise IllegalAction("Table {table} has 1 player with chips: a hand needs two.", table=table)
        raise IllegalAction(
            "Table {table} has {count} players with chips: a hand needs two.", table=table, count=len(seated)
        )
    previous = state.dealing.current(table)
    draw_seq, draw = state.last_draw
    if previous is None or previous.started_seq < draw_seq:  # the first hand since a draw
        buttons = draw.get("buttons") if isinstance(draw.get("buttons"), Mapping) else {}
        drawn = buttons.get(str(table)) if buttons else None
        start = button if button is not None else drawn if isinstance(drawn, int) else min(seated)
        plan = plan_next(None, seated, (), state.settings.table_size, button=start)
    else:
        before = set(previous.players) | set(previous.waiting)
        newcomers = {s for s, p in seated.items() if (s, p) not in before}
        plan = plan_next(previous.positions, seated, newcomers, state.settings.table_size)
    players = tuple((s, seated[s]) for s in plan.dealt)
    waiting = tuple((s, seated[s]) for s in plan.waiting)
    stacks = tuple((s, stack_of(state, p)) for s, p in players)
    return DealPlan(table, plan.positions, players, stacks, waiting)


def refuse_past_hand_cap(state: Tournament, at: float) -> None:
    """Raise ``IllegalAction`` once a hand-counted structure's hand cap is reached."""
    cap = state.settings.structure.hand_cap
    if cap is None or not state.settings.structure.hand_counted:
        return
    if state.clock_at(at).hands_played >= cap:
        raise IllegalAction(
            "The {cap}-hand cap is reached: the game is over, the players still in are ranked by chips.",
            cap=str(cap),
        )


def remember_seats(state: Tournament, ids: Sequence[PlayerId]) -> tuple[tuple[PlayerId, int, int], ...]:
    """Where the players ``ids`` sat, kept so that a rebuy gets the seat back."""
    kept = tuple(x for x in state.previous_seats if x[0] not in ids)
    return kept + tuple((pid, *state.seating.seat_of(pid)) for pid in ids if pid in state.seating)


def _h4h_since(state: Tournament) -> int | None:
    """The seq of the event that switched hand for hand on, if it is on."""
    return state.h4h_since


def h4h_round(state: Tournament, table: int) -> int | None:
    """The hand-for-hand hand number the next deal at ``table`` would be, or None."""
    since = _h4h_since(state)
    if since is None:
        return None
    return 1 + _h4h_hands(state.dealing.current(table), since)


def _h4h_hands(latest: TableHand | None, since: int) -> int:
    """How many hands a table dealt since hand for hand began (its hands are numbered)."""
    if latest is None or latest.started_seq <= since or latest.h4h_round is None:
        return 0
    return latest.h4h_round


def h4h_hand(state: Tournament, table: int | None) -> int:
    """The hand-for-hand hand a director's bust at ``table`` belongs to: the hand just
    played there when the dealer's assistant deals it, else the director's count of
    hand-for-hand hands (0: the hand in play when it was announced, TDA RP-8A)."""
    since = _h4h_since(state) or 0
    latest = state.dealing.current(table) if table is not None else None
    if latest is not None and latest.h4h_round is not None and (
        latest.started_seq > since or latest.h4h_round == 0
    ):
        return latest.h4h_round
    return state.h4h_hand


def h4h_waiting_for(state: Tournament, table: int) -> list[int]:
    """Hand for hand: the other tables that must finish before ``table`` deals again."""
    since = _h4h_since(state)
    if since is None:
        return []
    want = h4h_round(state, table) or 1
    late: list[int] = []
    for other in state.seating.tables:
        if other == table or len(state.seating.at_table(other)) < 2:
            continue
        latest = state.dealing.current(other)
        done = _h4h_hands(latest, since)
        if done < want - 1 or (done == want - 1 and latest is not None and not latest.finished):
            late.append(other)
    return late


def _int(payload: Mapping[str, Any], key: str, label: str, minimum: int) -> int:
    """``label`` (what the number is) is a message id, or a :class:`Message`."""
    named = label if isinstance(label, Message) else Term(label)
    value = payload.get(key)
    if isinstance(value, bool) or not isinstance(value, int):
        try:
            value = int(str(value))
        except ValueError:
            raise InvalidInput(
                "The {label} must be a whole number, not {value}.",
                label=named, value=repr(value),
            ) from None
    if value < minimum:
        raise InvalidInput(
            "The {label} cannot be {value}: it must be at least {minimum}.",
            label=named, value=value, minimum=minimum,
        )
    return value


def _table(state: Tournament, payload: Mapping[str, Any]) -> int:
    return _int(payload, "table", N_("table number"), 1)


def _running(state: Tournament, table: int) -> TableHand:
    hand = state.dealing.running(table)
    if hand is None:
        raise IllegalAction("No hand is being played at table {table}: deal one first.", table=table)
    return hand


def _hand_started(state: Tournament, event: Event) -> Tournament:
    p = event.payload
    table = _table(state, p)
    if not state.started:
        raise IllegalAction("Start the clock first: no hand can be dealt before the tournament starts.")
    refuse_past_hand_cap(state, event.at)
    if state.finished:
        raise IllegalAction("The tournament is over: no more hands.")
    running = state.dealing.running(table)
    if running is not None:
        raise IllegalAction(
            "Table {table} is still playing hand {hand}: finish it before dealing the next.",
            table=table, hand=str(running.number),
        )
    late = h4h_waiting_for(state, table)
    if late:
        tables = ", ".join(str(t) for t in late)
        if len(late) > 1:
            raise IllegalAction(
                "Hand for hand: tables {tables} must finish their hand before table {table} deals the next.",
                tables=tables, table=table,
            )
        raise IllegalAction(
            "Hand for hand: table {tables} must finish its hand before table {table} deals the next.",
            tables=tables, table=table,
        )
    clock = state.clock_at(event.at)
    if clock.on_break or clock.level_number is None:
        raise IllegalAction("It is the break: the next hand is dealt when the clock runs again.")
    level = clock.level_number
    blinds = state.settings.structure.level(level)
    small, big, ante = blinds.small_blind, blinds.big_blind, blinds.ante
    checked = (
        ("small_blind", N_("small blind"), small), ("big_blind", N_("big blind"), big),
        ("ante", N_("ante"), ante), ("level", N_("level"), level),
    )
    for key, label, value in checked:
        if p.get(key) not in (None, "") and _int(p, key, label, 0) != value:
            if ante:
                raise IllegalAction(
                    "The level has changed since this page was shown: level {level} is "
                    "{small}/{big} with an ante of {ante}; deal again.",
                    level=level, small=small, big=big, ante=ante,
                )
            raise IllegalAction(
                "The level has changed since this page was shown: level {level} is {small}/{big}; deal again.",
                level=level, small=small, big=big,
            )
    button = p.get("button")
    plan = plan_deal(state, table, _int(p, "button", N_("button seat"), 1) if button not in (None, "") else None)
    given = p.get("setup")
    if given is not None and given != plan.as_dict():
        raise IllegalAction(
            "Table {table} has changed since this page was shown (seats, stacks or positions): look again and deal.",
            table=table
        )
    stacks = dict(plan.stacks)
    per_player = state.settings.structure.ante_kind == "per_player"
    setup = HandSetup(
        stacks=stacks,
        button=plan.positions.button,
        small_blind_seat=plan.positions.small_blind,
        big_blind_seat=plan.positions.big_blind,
        small_blind=small,
        big_blind=big,
        antes=dict.fromkeys(stacks, ante) if per_player and ante else {},
        big_blind_ante=0 if per_player else ante,
    )
    previous = state.dealing.current(table)
    hand = TableHand(
        table=table,
        number=previous.number + 1 if previous is not None else 1,
        tournament_hand=state.dealing.dealt + 1,
        started_seq=event.seq,
        started_at=event.at,
        level=level,
        setup=setup,
        positions=plan.positions,
        players=plan.players,
        waiting=plan.waiting,
        h4h_round=h4h_round(state, table),
    )
    Hand(setup)  # the engine accepts it
    return replace(state, dealing=state.dealing.with_dealt(hand))


def _entries(payload: Mapping[str, Any]) -> list[str]:
    raw = payload.get("actions")
    if raw is None:
        raw = [payload.get("action")]
    if isinstance(raw, str):
        raw = [raw]
    if not isinstance(raw, Sequence) or not raw or not all(isinstance(a, str) and a.strip() for a in raw):
        raise InvalidInput("Enter an action, e.g. 'p3 cc' or 'p3 cbr 600'.")
    return [" ".join(a.split()) for a in raw]


def _settle_pending(hand: Hand, record: TableHand) -> tuple[tuple[PendingAction, ...], list[str]]:
    """Resolve the out-of-turn actions whose turn has come; apply those that bind."""
    pending = list(record.pending)
    notes: list[str] = []
    while hand.turn is not None:
        waiting = next((p for p in pending if p.seat == hand.turn), None)
        if waiting is None:
            break
        pending.remove(waiting)
        resolution = resolve_out_of_turn(hand, waiting)
        notes.append(resolution.message)
        if resolution.binds and resolution.notation:
            hand.apply(resolution.notation)
    live = set(hand.live_seats())
    return tuple(p for p in pending if p.seat in live and hand.turn is not None), notes


def _hand_action(state: Tournament, event: Event) -> Tournament:
    p = event.payload
    table = _table(state, p)
    record = _running(state, table)
    hand = record.after(_entries(p))
    pending, notes = _settle_pending(hand, record)
    note = p.get("note")
    if isinstance(note, str) and note.strip():
        notes.insert(0, note.strip())
    added = (event.seq,) * (len(hand.log) - len(record.log))
    new = record.step(log=tuple(hand.log), entry_seqs=record.entry_seqs + added,
                      notes=record.notes + tuple(notes), pending=pending)
    if hand.is_complete:
        return _finish(state, new, hand, event)
    return replace(state, dealing=state.dealing.with_running(new))


def _hand_pending(state: Tournament, event: Event) -> Tournament:
    p = event.payload
    table = _table(state, p)
    record = _running(state, table)
    action = p.get("action")
    if not isinstance(action, str):
        raise InvalidInput("Enter the out-of-turn action, e.g. 'p6 cbr 800'.")
    pending = record_out_of_turn(record.replay(), " ".join(action.split()))
    kept = tuple(x for x in record.pending if x.seat != pending.seat)
    new = record.step(pending=(*kept, pending))
    return replace(state, dealing=state.dealing.with_running(new))


def _hand_undo(state: Tournament, event: Event) -> Tournament:
    table = _table(state, event.payload)
    record = state.dealing.current(table)
    if record is None:
        raise IllegalAction("Nothing has been dealt at table {table}: there is nothing to undo.", table=table)
    if record.finished:
        raise IllegalAction(
            "Hand {hand} at table {table} is over and its chips have moved: "
            "undo it from the director's event log, or correct the stacks.",
            hand=str(record.number), table=table,
        )
    earlier = record.undone()
    if earlier is None:
        return replace(state, dealing=state.dealing.without_running(table))
    if len(earlier.log) < len(record.log):
        earlier = earlier.remember(event.seq, record)
    return replace(state, dealing=state.dealing.with_running(earlier))


def _hand_redo(state: Tournament, event: Event) -> Tournament:
    table = _table(state, event.payload)
    record = state.dealing.current(table)
    again = record.redone() if record is not None and not record.finished else None
    if again is None:
        raise IllegalAction(
            "There is nothing to redo at table {table}: redo follows an undo, before the next entry.",
            table=table
        )
    assert record is not None
    again = replace(again, kept=record.kept)  # what the undos since took back stays said
    if len(again.log) > len(record.log):
        again = again.remember(event.seq, again)
    return replace(state, dealing=state.dealing.with_running(again))


def eliminators(
    hand: Hand, seat_player: Mapping[int, PlayerId], busted: Mapping[PlayerId, Chips]
) -> dict[PlayerId, tuple[PlayerId, ...]]:
    """Who knocked out each busted player: the winners of the pot that held his last chips
    (the last pot he could win), in the odd-chip order (first left of the button, TDA 20) when
    they split it. A main-pot winner who did not cover him did not knock him out: the side
    pot's winner against him did."""
    if hand.award is None:
        return {}
    seat_of = {pid: seat for seat, pid in seat_player.items()}
    by: dict[PlayerId, tuple[PlayerId, ...]] = {}
    for pid in busted:
        pot = hand.award.last_chips_of(seat_of[pid])
        if pot is None:  # no pot he could win: whoever took the most chips
            won = hand.award.won()
            winners: tuple[int, ...] = (max(won, key=lambda s: won[s]),) if won else ()
        else:
            winners = pot.winners
        if winners:
            by[pid] = tuple(seat_player[s] for s in winners)
    return by


def _finish(state: Tournament, record: TableHand, hand: Hand, event: Event) -> Tournament:
    """The hand is over: move the chips, knock out who has none, count the hand."""

    start = record.setup.stacks
    final = hand.stacks()
    seat_player = dict(record.players)
    changes = {seat_player[s]: final[s] - start[s] for s in start}
    # A player the director already took out (the bust button) is not knocked out twice.
    busted = {
        seat_player[s]: start[s]
        for s in start
        if final[s] == 0 and state.standings.entrant(seat_player[s]).in_play
    }
    result = hand.award.describe() if hand.award is not None else ""
    done = replace(
        record,
        finished=True,
        result=result,
        busted=tuple(busted.items()),
        finishing_stacks=tuple(sorted(final.items())),
        before=None,  # a finished hand is taken back by the tournament's undo, not entry by entry
    )
    dealing = state.dealing.with_finished(done, with_net(state.dealing.net, changes))
    new = replace(state, dealing=dealing)
    standings, seating = new.standings, new.seating
    if busted:
        by = eliminators(hand, seat_player, busted)
        number = record.h4h_round if record.h4h_round is not None else record.tournament_hand
        standings = standings.at_level(state.level_at(event.at)).bust(
            busted, hand=number, table=record.table, hand_for_hand=record.h4h_round is not None, by=by,
            at=event.at,
        )
        for pid in busted:
            if pid in seating:
                seating = seating.without(pid)
        new = replace(new, previous_seats=remember_seats(state, list(busted)))
    clock, clock_events = new.clock, new.clock_events
    structure = state.settings.structure
    if structure.hand_counted:
        clock = (*clock, ClockEntry(action="hand_played", at=event.at))
        clock_events = (*clock_events, HandPlayed(event.at))
        played = sum(1 for c in clock if c.action == "hand_played")
        if structure.hand_cap and played >= structure.hand_cap and not standings.is_over:
            new_state = replace(new, standings=standings)
            standings = standings.end_at_hand_cap(
                {pid: stack_of(new_state, pid) for pid in standings.in_play}
            )
    return replace(new, standings=standings, seating=seating, clock=clock, clock_events=clock_events)


def _stack_corrected(state: Tournament, event: Event) -> Tournament:
    p = event.payload
    raw = p.get("player")
    try:
        pid = int(str(raw))
    except ValueError:
        raise InvalidInput("Choose a player: {raw} is not a player number.", raw=repr(raw)) from None
    player = state.player(pid)
    if player.out:
        raise IllegalAction(
            "{player} is out of the tournament: there is no stack to correct.",
            player=player.name
        )
    stack = _int(p, "stack", Message("chip count of {player}", player=player.name), 1)
    reason = p.get("reason")
    if not isinstance(reason, str) or not reason.strip():
        raise InvalidInput(
            "Say why {player}'s stack is corrected (e.g. 'a mis-entered call').",
            player=player.name
        )
    if player.table is not None:
        running = state.dealing.running(player.table)
        if running is not None and running.seat_of(pid) is not None:
            raise IllegalAction(
                "{player} is playing hand {hand} at table {table}: correct the stack once the hand is over.",
                player=player.name, hand=str(running.number), table=player.table,
            )
    before = stack_of(state, pid)
    if stack == before:
        raise IllegalAction("{player} already has {stack} chips.", player=player.name, stack=stack)
    correction = Correction(event.seq, event.at, pid, before, stack, " ".join(reason.split()), player.table)
    dealing = replace(
        state.dealing,
        net=with_net(state.dealing.net, {pid: stack - before}),
        corrections=(*state.dealing.corrections, correction),
    )
    return replace(state, dealing=dealing)


HANDLERS: dict[str, Callable[[Tournament, Event], Tournament]] = {
    "hand_started": _hand_started,
    "hand_action": _hand_action,
    "hand_pending": _hand_pending,
    "hand_undo": _hand_undo,
    "hand_redo": _hand_redo,
    "stack_corrected": _stack_corrected,
}


describe_entry = notation.describe
"""An entry of a hand's log in words, without names (``engine.notation.describe``)."""


def hand_at(state: Tournament, table: int, seq: int) -> TableHand | None:
    """The hand event ``seq`` at ``table`` belongs to: the last one dealt there by then."""
    latest = state.dealing.current(table)
    if latest is not None and latest.started_seq <= seq:
        return latest
    for hand in state.dealing.finished.get(table, Vec[TableHand]()).reversed():
        if hand.started_seq <= seq:
            return hand
    return None


def _table_of(payload: Mapping[str, Any]) -> int:
    """The table an event names (0 when it names none a log can read)."""
    try:
        return int(str(payload.get("table")))
    except ValueError:
        return 0


def seat_names(state: Tournament, record: TableHand | None) -> dict[Seat, str]:
    """The name of the player in each seat of a hand (those sitting it out too)."""
    if record is None:
        return {}
    return {seat: state.name_of(pid) for seat, pid in (*record.players, *record.waiting)}


_STREETS = {(0, 3): N_("the flop is {cards}"), (3, 4): N_("the turn is {cards}"),
            (4, 5): N_("the river is {cards}"), (3, 5): N_("the turn and the river are {cards}"),
            (0, 5): N_("the board is {cards}")}


def _seat_word(names: Mapping[Seat, str], seat: Seat | None) -> str:
    return names.get(seat or 0) or Message("seat {seat}", seat=seat)


def _joined(said: list[str]) -> str:
    """Several sentences of a hand's log as one (``; ``), each still said in its language."""
    if not said:
        return ""
    out = said[0]
    for more in said[1:]:
        out = Message("{earlier}; {later}", earlier=out, later=more)
    return out


def entry_words(entry: str, names: Mapping[Seat, str], hand: Hand | None = None) -> str:
    """One entry of a hand's log as a sentence with the player's name: ``Ann raises to 600``.

    ``hand`` is the hand just before the entry; the entry is applied to it, and the words
    then tell a check from a call, say the amounts, the street and who won how much.
    Without it they say what the entry alone says (``Ann checks or calls``).

    >>> entry_words("p3 cbr 600", {3: "Ann"}), entry_words("d win 3;5,7", {3: "Ann", 5: "Bob"})
    ('Ann bets or raises to 600', 'Ann wins the main pot; Bob and seat 7 split side pot 1')
    """
    try:
        parsed = notation.parse(entry)
    except InvalidInput:
        return entry
    who = _seat_word(names, parsed.seat)
    board = len(hand.board) if hand is not None else 0
    actions = len(hand.actions) if hand is not None else 0
    if hand is not None:
        try:
            hand.apply(entry)
        except EngineError:
            hand = None
    if parsed.verb in ("f", "cc", "cbr") and hand is not None and len(hand.actions) > actions:
        action = hand.actions[-1]
        to = action.to
        if action.all_in and action.kind in ("bet", "raise"):
            return Message("{player} is all in for {amount}", player=who, amount=to)
        if action.kind == "fold":
            return Message("{player} folds", player=who)
        if action.kind == "check":
            return Message("{player} checks", player=who)
        if action.kind == "call":
            if action.all_in:
                return Message("{player} calls all in for {amount}", player=who, amount=to)
            return Message("{player} calls {amount}", player=who, amount=to)
        if action.kind == "bet":
            return Message("{player} bets {amount}", player=who, amount=to)
        if action.kind == "raise":
            return Message("{player} raises to {amount}", player=who, amount=to)
        # Every kind of action is said above; another one is said as the entry alone says it.
    match parsed.verb:
        case "f":
            return Message("{player} folds", player=who)
        case "cc":
            return Message("{player} checks or calls", player=who)
        case "cbr":
            return Message("{player} bets or raises to {amount}", player=who, amount=parsed.amount or 0)
        case "sm" if parsed.mucked:
            return Message("{player} mucks", player=who)
        case "sm":
            if parsed.cards:
                return Message("{player} shows {cards}", player=who, cards=parsed.cards)
            return Message("{player} shows cards nobody entered", player=who)
        case "dh":
            return Message("{player} is dealt {cards}", player=who, cards=parsed.cards)
        case "db":
            if hand is None:
                dealt = parse_cards(parsed.cards or "")
                if len(dealt) == 1:
                    return Message("{cards} is dealt to the board", cards=str(dealt[0]))
                return Message("{cards} are dealt to the board", cards=" ".join(map(str, dealt)))
            street = _STREETS.get((board, len(hand.board)), N_("the board is {cards}"))
            return Message(street, cards=" ".join(map(str, hand.board[board:])))
    if hand is not None and hand.award is not None:
        return award_words(hand.award, names)
    if parsed.winners is None:
        return Message("the pots are awarded from the cards")
    pots = len(parsed.winners)
    said: list[str] = []
    for k, seats in enumerate(parsed.winners):
        winners = [_seat_word(names, s) for s in seats]
        if len(winners) == 1:
            if pots == 1:
                said.append(Message("{player} wins the pot", player=winners[0]))
            elif k == 0:
                said.append(Message("{player} wins the main pot", player=winners[0]))
            else:
                said.append(Message("{player} wins side pot {number}", player=winners[0], number=k))
            continue
        listed = Message("{players} and {last}", players=", ".join(winners[:-1]), last=winners[-1])
        if pots == 1:
            said.append(Message("{players} split the pot", players=listed))
        elif k == 0:
            said.append(Message("{players} split the main pot", players=listed))
        else:
            said.append(Message("{players} split side pot {number}", players=listed, number=k))
    return _joined(said)


def event_entries(state: Tournament, event: Event) -> str:
    """The entries an event made in its hand, in words with the names: each read against the
    hand as it stood (``Ann calls 200``) while it stands in the hand's log, else from its
    text alone (an entry taken back since, or voided by a misdeal)."""
    p = event.payload
    record = hand_at(state, _table_of(p), event.seq)
    names = seat_names(state, record)
    found = record.played(event.seq) if record is not None else None
    if found is not None:
        return _played_words(*found, names)
    try:
        entries = _entries(p)
    except InvalidInput:
        return Message("an entry nobody can read")
    return _joined([entry_words(e, names) for e in entries])


def _played_words(record: TableHand, first: int, count: int, names: Mapping[Seat, str]) -> str:
    """``count`` entries of ``record`` from ``first``, each read in the hand as it stood."""
    hand = Hand.replay(record.setup, record.log[:first])
    over = hand.award is not None
    entries = record.log[first:first + count]
    said = [entry_words(e, names, hand) for e in entries]
    if not over and hand.award is not None and notation.parse(entries[-1]).verb != "win":
        said.append(award_words(hand.award, names))  # everyone else folded: the pot is won
    return _joined(said)


def _turned_words(state: Tournament, event: Event) -> str | None:
    """The entries an undo took back or a redo put back at its table, in words (None when
    they are not known)."""
    record = hand_at(state, _table_of(event.payload), event.seq)
    if record is None:
        return None
    later = next((r for seq, r in record.kept if seq == event.seq), None)
    if later is None or not later.entry_seqs:
        return None
    last = later.entry_seqs[-1]
    first = later.entry_seqs.index(last)
    return _played_words(later, first, len(later.entry_seqs) - first, seat_names(state, record))


def _pending_words(state: Tournament, event: Event) -> str:
    """An action out of turn, held for its turn: ``Ann raises to 600 out of turn``."""
    p = event.payload
    record = hand_at(state, _table_of(p), event.seq)
    names = seat_names(state, record)
    try:
        entry = notation.parse(str(p.get("action")))
    except InvalidInput:
        return Message("an action out of turn ({action})", action=str(p.get("action")))
    who = _seat_word(names, entry.seat)
    words = entry_words(str(p.get("action")), names)
    if record is not None and entry.seat is not None:
        hand = Hand.replay(record.setup, [e for e, s in zip(record.log, record.entry_seqs, strict=True) if s < event.seq])
        facing = hand.current_bet > hand.bets().get(entry.seat, 0)
        if entry.verb == "cc":
            if facing:
                words = Message("{player} calls", player=who)
            else:
                words = Message("{player} checks", player=who)
        elif entry.verb == "cbr":
            amount = entry.amount or 0
            if hand.current_bet:
                words = Message("{player} raises to {amount}", player=who, amount=amount)
            else:
                words = Message("{player} bets {amount}", player=who, amount=amount)
    return Message("{action} out of turn, held until {player}'s turn", action=words, player=who)


def describe(state: Tournament, event: Event) -> str:
    """A sentence for the event log, e.g. 'Table 1: Ann raises to 600'. ``state`` is the
    tournament after the event (or later): the entries are read in their hand."""
    p = event.payload
    table = p.get("table")
    if event.type == "hand_started":
        record = hand_at(state, _table_of(p), event.seq)
        if record is None or record.started_seq != event.seq:
            return Message("Table {table}: a new hand is dealt", table=str(table))
        return Message("Table {table}: hand {hand} is dealt", table=str(table), hand=str(record.number))
    if event.type == "hand_action":
        return Message("Table {table}: {entries}", table=str(table), entries=event_entries(state, event))
    if event.type == "hand_pending":
        return Message("Table {table}: {entries}", table=str(table), entries=_pending_words(state, event))
    if event.type == "hand_undo":
        undone = _turned_words(state, event)
        if undone:
            return Message("Table {table}: “{entries}” is taken back", table=str(table), entries=undone)
        return Message("Table {table}: the last entry is taken back", table=str(table))
    if event.type == "hand_redo":
        again = _turned_words(state, event)
        if again:
            return Message("Table {table}: “{entries}” is entered again", table=str(table), entries=again)
        return Message("Table {table}: the entry taken back is entered again", table=str(table))
    if event.type == "stack_corrected":
        try:
            pid = int(str(p.get("player")))
            stack = int(str(p.get("stack")))
        except ValueError:
            return Message("A stack is corrected")
        return Message(
            "{player}'s stack is corrected to {stack} ({reason})",
            player=state.name_of(pid), stack=stack, reason=str(p.get("reason")),
        )
    return event.type
