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

Where the parts live: the records of the hands in ``engine.tablehands``, the stacks in
``engine.stacks``, the hands in words in ``engine.dealing_words``; this module deals and
plays the hands, and their names are still read from here.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, TypeAlias

from engine.clock import ClockEntry, HandPlayed
from engine.dealing_words import _entries
from engine.dealing_words import describe as describe
from engine.dealing_words import event_entries as event_entries
from engine.dealing_words import hand_at as hand_at
from engine.dealing_words import seat_names as seat_names
from engine.errors import N_, IllegalAction, InvalidInput, Message, Term
from engine.events import Event
from engine.games import Game, dealer_choices, game_named
from engine.hand import Hand, HandSetup
from engine.hand_setup import HOLDEM
from engine.houserules import PendingAction, record_out_of_turn, resolve_out_of_turn
from engine.positions import Positions
from engine.seat_events import refuse_play_at_broken
from engine.seating import Seating, needs_break
from engine.stacks import ChipCheck as ChipCheck
from engine.stacks import chip_check as chip_check
from engine.stacks import stack_of, with_net
from engine.stacks import write_off as write_off
from engine.stacks import write_off_v1 as write_off_v1
from engine.state import Tournament
from engine.table import plan_next
from engine.tablehands import Correction, TableHand
from engine.tablehands import Dealing as Dealing
from engine.tablehands import Ruling as Ruling
from engine.tablehands import WriteOff as WriteOff

PlayerId: TypeAlias = int
Seat: TypeAlias = int
Chips: TypeAlias = int

EVENT_TYPES = ("hand_started", "hand_action", "hand_pending", "hand_undo", "hand_redo", "stack_corrected")
RULING_EVENT_TYPES = ("hand_misdeal", "hand_ruling", "button_corrected", "hand_time_up")
"""The rulings at a table (handled in ``engine.rulings``)."""
TABLE_EVENT_TYPES = frozenset(EVENT_TYPES) - {"stack_corrected"} | frozenset(RULING_EVENT_TYPES)
"""The events of play at one table (a night has many of them: no index lists them)."""


def last_positions(state: Tournament) -> dict[int, Positions]:
    """The positions of the latest hand dealt at each open table (for balancing: TDA 11-A
    moves the player who will be big blind next)."""
    result: dict[int, Positions] = {}
    for table in state.seating.tables:
        hand = state.dealing.current(table)
        if hand is not None:
            result[table] = hand.positions
    return result


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
    """Hand for hand: the other tables that must finish before ``table`` deals again (a
    breaking table's last hand too)."""
    since = _h4h_since(state)
    if since is None:
        return []
    want = h4h_round(state, table) or 1
    late: list[int] = []
    breaking = state.breaking_tables  # their last hand is one of the hand-for-hand hands
    for other in state.tables_in_play:
        if other == table or (len(state.seating.at_table(other)) < 2 and other not in breaking):
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
        refuse_play_at_broken(state, table)
        raise IllegalAction("No hand is being played at table {table}: deal one first.", table=table)
    return hand


def _hand_started(state: Tournament, event: Event) -> Tournament:
    p = event.payload
    table = _table(state, p)
    _refuse_deal_now(state, table, event.at)
    level, small, big, ante = _blinds_in_force(state, p, event.at)
    game = _dealt_game(state, level, p.get("game"))
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
        betting=game.betting,
        game=game.cards or HOLDEM,
        cap_heads_up=state.settings.limit_cap_heads_up and state.players_left > 2,  # TDA 48
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


def _dealt_game(state: Tournament, level: int, chosen: object = None) -> Game:
    """The game of ``level``, refused when the dealer's assistant does not follow it; at a
    dealer's choice level, the game the dealer ``chosen`` from the host's list."""
    structure = state.settings.structure
    game = game_named(structure.level(level).game)
    if game.choice:
        games = dealer_choices(structure.choices)
        picked = next((g for g in games if g.key == chosen), None)
        if picked is None:
            raise IllegalAction(
                "Level {level} is dealer's choice: say which game this hand is, one of {choices}.",
                level=level, choices=", ".join(g.key for g in games),
            )
        return picked
    if not game.dealt:
        raise IllegalAction(
            "Level {level} is {game}: the dealer's assistant does not follow that game. Deal it at the table "
            "and enter the bust-outs on the dashboard.",
            level=level, game=game.name,
        )
    return game


def refuse_undealt_game(state: Tournament, at: float) -> None:
    """Refuse, as a deal would, when the level in play is a game the assistant does not deal."""
    clock = state.clock_at(at)
    if not clock.on_break and clock.level_number is not None:
        level = clock.level_number
        if not game_named(state.settings.structure.level(level).game).choice:
            _dealt_game(state, level)


def _refuse_deal_now(state: Tournament, table: int, at: float) -> None:
    """No hand is dealt before the start, past the hand cap, after the end, while the table
    plays one, or (hand for hand) before the other tables finish theirs."""
    if not state.started:
        raise IllegalAction("Start the clock first: no hand can be dealt before the tournament starts.")
    refuse_past_hand_cap(state, at)
    if state.finished:
        raise IllegalAction("The tournament is over: no more hands.")
    running = state.dealing.running(table)
    if running is not None:
        raise IllegalAction(
            "Table {table} is still playing hand {hand}: finish it before dealing the next.",
            table=table, hand=str(running.number),
        )
    refuse_play_at_broken(state, table)
    refuse_deal_before_moves(state, table)
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


def _final_due(seating: Seating[PlayerId]) -> bool:
    """Whether everyone left fits at one table while several are open (TDA 2.6)."""
    return len(seating.tables) > 1 and 2 <= len(seating) <= seating.table_size


def _drawn_as_due(state: Tournament) -> bool:
    """Whether the last seat draw itself laid the tables out so (more tables than the players
    need: the director's own layout, not moves announced after a bust)."""
    payload = state.last_draw[1]
    seats = payload.get("seats")
    if not isinstance(seats, Mapping) or not seats:
        return False
    size = payload.get("table_size")
    drawn = Seating.of(size if isinstance(size, int) else state.seating.table_size,
                       {(int(v[0]), int(v[1])): int(k) for k, v in seats.items()})
    return _final_due(drawn) or needs_break(drawn) is not None


def refuse_deal_before_moves(state: Tournament, table: int) -> None:
    """No new hand is dealt at a table whose players are about to get new seats: every table
    once everyone left fits at the final table (TDA 2.6), the table next in breaking order once
    the players fit at one table fewer (TDA 2.5), from the bust that makes it until the director
    has recorded the moves (a layout the seat draw made itself is the director's, and stands)."""
    seating = state.seating
    if table not in seating.tables:
        return
    if _final_due(seating):
        if not _drawn_as_due(state):
            raise IllegalAction(
                "{count} players fit at the final table: its seats are about to be drawn, so no new hand is dealt "
                "here.", count=len(seating),
            )
    elif needs_break(seating) == table and not _drawn_as_due(state):
        raise IllegalAction(
            "Table {table} breaks: its players are about to get new seats, so no new hand is dealt here.", table=table
        )


def _blinds_in_force(state: Tournament, p: Mapping[str, Any], at: float) -> tuple[int, int, int, int]:
    """The level in play and its small blind, big blind and ante; those the payload gives must
    be them (a page shown before the level changed deals again)."""
    clock = state.clock_at(at)
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
    return level, small, big, ante


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
    return replace(state, dealing=state.dealing.with_running(new.knowing(hand)))


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
