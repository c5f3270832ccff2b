"""The dealer's assistant: one page per table, for a phone held in one hand.

The dealer enters the hand as it happens; every entry is an event of the tournament
(``engine.dealing`` folds them: ``hand_started``, ``hand_action``, ``hand_pending``,
``hand_undo``, ``stack_corrected``), so the table's state is the engine's replay of them
and the dashboard, the TV and balancing follow at once. Every write names the sequence
number its page showed (a stale one is refused with 409 and the page refreshes); an
illegal action is refused with the engine's sentence (422) and the panel re-rendered
with it.

Routes (blueprint ``dealer``):

* ``GET /t/<id>/table/<n>``: the table page (the panel alone for htmx);
  ``GET .../panel?since=<seq>``: the panel, or 204 when nothing changed (polled);
* ``POST /t/<id>/table/<n>/<action>`` with ``action`` one of :data:`ACTIONS`: deal,
  act (fold, check, call, bet, raise, all-in), push (silent chips), oot (out of turn),
  undo, award (winners per pot), cards (board and hole cards: the engine names the
  winner), clock (put the player to act on the clock), correct (a stack, director);
* ``GET /t/<id>/table/<n>/history``: the table's hands; ``.../hands.phhs`` and
  ``.../hand/<k>.phh``: PHH exports that ``python -m engine replay`` reads back;
* the JSON twins: ``GET /api/t/<id>/table/<n>`` and ``POST /api/t/<id>/table/<n>/<action>``.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from flask import Blueprint, Response, abort, flash, jsonify, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import lazy_gettext

from director.core import inputs, shapes
from director.core.auth import login_required
from director.core.contract import Api, Write, flag
from director.core.db import get_db
from director.core.i18n import gettext, ngettext, number, ordinal, say
from director.core.store import load_state
from director.core.web import act, expected_seq, is_partial_request, now, parse_int, render, values
from director.core.web import format_chips as _amount
from director.night import commands as services
from director.night.views import colour_view
from director.tables.views import move_text, names_of
from engine import dealing, notation
from engine.dealing import ChipCheck, TableHand, chip_check, plan_deal, stack_of
from engine.errors import N_, EngineError, IllegalAction, InvalidInput, Term
from engine.hand import Hand
from engine.houserules import silent_push
from engine.phh import write_phh
from engine.rulings import MISDEALS, RULINGS, substantial_action
from engine.tournament import Event, Tournament, refuse_past_hand_cap

bp = Blueprint("dealer", __name__)

#: A seat's state as the panel shows it (``SeatView.status`` is the code; these are its words).
STATUS_WORDS = (N_("folded"), N_("all-in"), N_("mucked"), N_("waiting"), N_("out"))

#: A street's name at the head of the history's line where it begins.
STREET_TITLES = {"preflop": lazy_gettext("Preflop"), "flop": lazy_gettext("Flop"), "turn": lazy_gettext("Turn"),
                 "river": lazy_gettext("River")}

#: The streets by the engine's names, as a sentence names them.
STREETS = {"preflop": N_("preflop"), "flop": N_("flop"), "turn": N_("turn"), "river": N_("river"),
           "showdown": N_("showdown")}


def pot_name(index: int) -> str:
    """``main pot``, ``side pot 1``, ... in the reader's language."""
    return gettext("main pot") if index == 0 else gettext("side pot %(number)s", number=index)



# --------------------------------------------------------------------------- the view


@dataclass(frozen=True)
class SeatView:
    seat: int
    player: int | None
    name: str
    stack: int
    bet: int = 0
    badges: tuple[str, ...] = ()
    status: str = ""  # turn, folded, all-in, waiting, out
    pending: str = ""


@dataclass(frozen=True)
class Choice:
    """A button of the action pad: ``kind`` posted with ``amount``."""

    kind: str
    label: str
    amount: int | None = None
    style: str = ""


@dataclass(frozen=True)
class PotView:
    index: int
    name: str
    amount: int
    eligible: tuple[int, ...]

    @property
    def who(self) -> str:
        seats = [str(s) for s in self.eligible]
        if len(seats) == 1:
            return gettext("seat %(seat)s", seat=seats[0])
        return gettext("seats %(seats)s and %(last)s", seats=", ".join(seats[:-1]), last=seats[-1])


@dataclass(frozen=True)
class TableView:
    """Everything the table panel shows, worded and formatted."""

    tournament_id: int
    table: int
    name: str
    seq: int
    phase: str  # before, betting, showdown
    level_text: str
    hands_text: str
    seats: tuple[SeatView, ...]
    hand_number: int | None = None
    street: str = ""
    board: str = ""
    turn: int | None = None
    turn_name: str = ""
    choices: tuple[Choice, ...] = ()
    raise_word: str = ""
    min_to: int | None = None
    max_to: int | None = None
    quick: tuple[Choice, ...] = ()
    pots: tuple[PotView, ...] = ()
    bets_total: int = 0
    showdown_order: tuple[int, ...] = ()
    can_muck: tuple[int, ...] = ()
    all_face_up: bool = False
    live: tuple[int, ...] = ()
    notes: tuple[str, ...] = ()
    """What the last entry made the house rules say (the older notes are in the history)."""
    last_result: str = ""
    busted_text: tuple[str, ...] = ()
    positions_text: str = ""
    can_deal: bool = False
    deal_problem: str = ""
    h4h: bool = False
    balancing: tuple[str, ...] = ()
    chip_text: str = ""
    colour_text: str = ""
    """At a colour-up break: the chips this table colours up, and who runs the race."""
    colour_lines: tuple[str, ...] = ()
    """The race at this table once it is run: the cards, who won the chips, the count."""
    chip_difference: int = 0
    finished: bool = False
    can_undo: bool = False
    can_redo: bool = False
    """An undo at this table took back an entry that a redo can put back."""
    oot_seats: tuple[int, ...] = ()
    players: tuple[tuple[int, str, int], ...] = ()
    """(player id, name, stack) of the table's players, for the director's correction."""
    rulings: tuple[str, ...] = ()
    """The rulings made in this hand, with their rules."""
    substantial: str = ""
    """Why substantial action has taken place (TDA 36), or "": no misdeal after it."""
    button_seats: tuple[int, ...] = ()
    """The seats the button can be corrected to (the players dealt in but the button)."""
    clock_seat: int | None = None
    """The seat on the action clock at this table."""
    clock_ends_at: float | None = None
    """When its time and countdown are up (epoch seconds), and the server's time now."""
    clock_now: float = 0.0
    clock_left: int = 0
    """Seconds left on the clock (its countdown included); 0 once the time is up."""


def _names(state: Tournament) -> dict[int, str]:
    return {pid: name for pid, name, _ in state.names}


def _level_text(state: Tournament, at: float) -> tuple[str, str]:
    try:
        clock = state.clock_at(at)
    except EngineError:
        return "", ""
    if state.finished:
        return gettext("Tournament over"), ""
    if not state.started:
        return gettext("The clock has not started"), ""
    if clock.on_break:
        return gettext("Break"), ""
    blinds = {"level": clock.level_number, "small": _amount(clock.small_blind), "big": _amount(clock.big_blind)}
    if clock.ante:
        text = gettext("Level %(level)s · %(small)s/%(big)s · ante %(ante)s", ante=_amount(clock.ante), **blinds)
    else:
        text = gettext("Level %(level)s · %(small)s/%(big)s", **blinds)
    hands = ""
    if clock.hands_left_in_level is not None:
        left = number(clock.hands_left_in_level)
        played = clock.hands_played
        if clock.hand_cap:
            hands = ngettext("%(num)d hand played · %(left)s to the next level · cap %(cap)s",
                             "%(num)d hands played · %(left)s to the next level · cap %(cap)s",
                             played, left=left, cap=number(clock.hand_cap))
        else:
            hands = ngettext("%(num)d hand played · %(left)s to the next level",
                             "%(num)d hands played · %(left)s to the next level", played, left=left)
    return text, hands


def _badges(record: TableHand | None, seat: int, positions: Any) -> tuple[str, ...]:
    if positions is None:
        return ()
    out = []
    if positions.button == seat:
        out.append("BTN")
    if positions.small_blind == seat:
        out.append("SB")
    if positions.big_blind == seat:
        out.append("BB")
    return tuple(out)


def _quick_amounts(hand: Hand, low: int, high: int) -> tuple[Choice, ...]:
    """Min raise, half pot, pot, all-in, as "to" amounts within the legal range."""
    legal = hand.legal_actions()
    assert legal is not None
    pot = sum(p.amount for p in hand.pots()) + sum(hand.bets().values())
    call = legal.call_amount
    current = hand.current_bet
    out: list[Choice] = [Choice("raise", gettext("Min %(amount)s", amount=_amount(low)), low)]
    for half, share in ((True, 0.5), (False, 1.0)):
        to = current + round((pot + call) * share)
        if low < to < high and all(c.amount != to for c in out):
            label = (gettext("½ pot %(amount)s", amount=_amount(to)) if half
                     else gettext("Pot %(amount)s", amount=_amount(to)))
            out.append(Choice("raise", label, to))
    if high != low:
        out.append(Choice("allin", gettext("All-in %(amount)s", amount=_amount(high)), high))
    return tuple(out)


def _betting_view(hand: Hand) -> dict[str, Any]:
    legal = hand.legal_actions()
    if legal is None:
        return {}
    choices: list[Choice] = []
    if legal.can_fold:
        choices.append(Choice("fold", gettext("Fold"), style="danger" if not legal.fold_warns else "quiet"))
    if legal.can_check:
        choices.append(Choice("check", gettext("Check")))
    elif legal.call_amount:
        stack = hand.stacks()[legal.seat]
        amount = _amount(legal.call_amount)
        if legal.call_amount >= stack:
            choices.append(Choice("call", gettext("Call all-in %(amount)s", amount=amount), style="primary"))
        else:
            choices.append(Choice("call", gettext("Call %(amount)s", amount=amount), style="primary"))
    low, high = legal.min_bet_or_raise_to, legal.max_bet_or_raise_to
    quick: tuple[Choice, ...] = ()
    if low is not None and high is not None:
        if low < high:
            label = (gettext("Raise to %(amount)s+", amount=_amount(low)) if legal.raise_word == "raise"
                     else gettext("Bet %(amount)s+", amount=_amount(low)))
            choices.append(Choice(legal.raise_word, label, low, "primary"))
        quick = _quick_amounts(hand, low, high)
        choices.append(Choice("allin", gettext("All-in %(amount)s", amount=_amount(high)), high, "allin"))
    return {
        "choices": tuple(choices),
        "raise_word": legal.raise_word,
        "min_to": low,
        "max_to": high,
        "quick": quick,
    }


def table_view(state: Tournament, tournament_id: int, table: int, at: float) -> TableView:
    """The table panel's content from the tournament's state at ``at``."""
    names = _names(state)
    level_text, hands_text = _level_text(state, at)
    record = state.dealing.current(table)
    running = record if record is not None and not record.finished else None
    common: dict[str, Any] = {
        "tournament_id": tournament_id,
        "table": table,
        "name": state.name,
        "seq": state.seq,
        "level_text": level_text,
        "hands_text": hands_text,
        "h4h": state.hand_for_hand,
        "finished": state.finished,
    }
    check = chip_check(state, table)
    if check.difference:
        common["chip_text"] = _chip_text(check, names)
        common["chip_difference"] = check.difference
    colour = colour_view(state, at, only=table)
    here = next((c for c in colour.tables if c.number == table), None) if colour else None
    if colour is not None and here is not None:
        common["colour_text"] = (
            gettext("Colour-up at this break: %(colour)s.", colour=say(colour.text)) if here.done
            else gettext("Colour-up at this break: %(colour)s; the director runs the race from the dashboard.",
                         colour=say(colour.text))
        )
        if here.done:
            common["colour_lines"] = tuple(say(line) for race in here.done.races for line in race.lines[1:])
    seated = state.seating.at_table(table) if table in state.seating.tables else {}
    common["players"] = tuple((pid, names.get(pid, "?"), stack_of(state, pid)) for _, pid in sorted(seated.items()))
    if record is not None and record.finished:
        common["last_result"] = gettext("Hand %(number)s: %(result)s", number=record.number,
                                        result=say(record.result))
        common["busted_text"] = bust_lines(state, record, at)
    if running is None:
        return _before_view(state, table, seated, names, common, record)
    hand = running.replay()
    phase_is_showdown = hand.street == "showdown"
    bets = hand.bets()
    stacks = hand.stacks()
    live = set(hand.live_seats())
    seats = []
    for seat, pid in sorted((*running.players, *running.waiting)):
        status = ""
        if seat not in stacks:
            status = "waiting"
        elif seat == hand.turn:
            status = "turn"
        elif seat not in live:
            status = "mucked" if phase_is_showdown and seat in hand.showdown_order() else "folded"
        elif hand.is_all_in(seat):
            status = "all-in"
        pending = running.pending_for(seat)
        seats.append(
            SeatView(
                seat, pid, names.get(pid, "?"), stacks.get(seat, stack_of(state, pid)), bets.get(seat, 0),
                _badges(running, seat, running.positions), status,
                gettext("Out of turn: %(action)s", action=say(pending.describe())) if pending else "",
            )
        )
    pots = tuple(
        PotView(i, pot_name(i), p.amount, tuple(s for s in p.eligible if s in live) or p.eligible)
        for i, p in enumerate(hand.pots())
    )
    phase = "showdown" if hand.street == "showdown" else "betting"
    turn = hand.turn
    extra = _betting_view(hand) if phase == "betting" else {}
    oot = tuple(
        s for s in hand.seats if s in live and s != turn and not hand.is_all_in(s)
    ) if phase == "betting" else ()
    return TableView(
        **common,
        phase=phase,
        seats=tuple(seats),
        hand_number=running.number,
        street=hand.street,
        board=" ".join(str(c) for c in hand.board),
        turn=turn,
        turn_name=names.get(dict(running.players).get(turn or 0, 0), "") if turn else "",
        pots=pots,
        bets_total=sum(bets.values()),
        showdown_order=hand.showdown_order(),
        can_muck=tuple(s for s in hand.showdown_order() if _may_muck(hand, s)) if phase == "showdown" else (),
        all_face_up=hand.all_hands_face_up,
        live=tuple(s for s in hand.seats if s in live),
        notes=_last_notes(running),
        can_undo=True,
        can_redo=bool(running.ahead),
        oot_seats=oot,
        positions_text=_positions_text(running.positions),
        rulings=tuple(say(r.line) for r in running.rulings),
        substantial=say(substantial_action(hand) or ""),
        button_seats=tuple(s for s, _ in running.players if s != running.setup.button),
        **_clock_view(state, table, turn, at),
        **extra,
    )


def _last_notes(record: TableHand) -> tuple[str, ...]:
    """The notes the hand's last entry made (an out-of-turn action settled, a push ruled):
    older ones are about actions the table has moved past."""
    notes = record.notes[len(record.before.notes):] if record.before is not None else record.notes
    return tuple(say(note) for note in notes)


def _clock_view(state: Tournament, table: int, turn: int | None, at: float) -> dict[str, Any]:
    """The action clock when it runs for the seat to act at this table."""
    clock = state.action_clock
    if clock is None or clock.table != table or clock.seat is None or clock.seat != turn:
        return {}
    return {"clock_seat": clock.seat, "clock_ends_at": clock.ends_at, "clock_now": at,
            "clock_left": max(0, math.ceil(clock.ends_at - at))}


def _chip_text(check: ChipCheck, names: Mapping[int, str]) -> str:
    """The chip check at a table in one line: the difference, why, and how to mend it."""
    why = "; ".join(
        gettext("%(name)s's %(chips)s left with a bust naming no winner", name=names.get(off.player, "?"),
                chips=_amount(off.chips))
        for off in check.write_offs
    )
    values = {"counted": _amount(check.counted), "difference": _amount(abs(check.difference)),
              "expected": _amount(check.expected), "why": why}
    if check.difference > 0:
        if why:
            return gettext("Stacks here %(counted)s: %(difference)s more than the %(expected)s in play (%(why)s); "
                           "count and correct the stack that differs.", **values)
        return gettext("Stacks here %(counted)s: %(difference)s more than the %(expected)s in play; "
                       "count and correct the stack that differs.", **values)
    if why:
        return gettext("Stacks here %(counted)s: %(difference)s fewer than the %(expected)s in play (%(why)s); "
                       "count and correct the stack that differs.", **values)
    return gettext("Stacks here %(counted)s: %(difference)s fewer than the %(expected)s in play; "
                   "count and correct the stack that differs.", **values)


def _may_muck(hand: Hand, seat: int) -> bool:
    try:
        hand.verify_muck(seat)
    except EngineError:
        return False
    return True


def bust_lines(state: Tournament, record: TableHand, at: float) -> tuple[str, ...]:
    """A line for each player knocked out in ``record`` who is still out, as it stands now:
    the place once it is settled, else what may still happen. A player back in since (a
    rebuy, a re-entry) has no line: that bust is over."""
    standings = state.standings.at_level(state.level_at(at)) if state.started else state.standings
    places = state.places()
    lines = []
    for pid, _ in record.busted:
        player = state.player(pid)
        if not player.out:
            continue
        if pid in places:
            lines.append(gettext("%(name)s is out in %(place)s place.", name=player.name, place=ordinal(places[pid])))
        elif standings.can_rebuy(pid):
            lines.append(gettext("%(name)s is out (may still rebuy).", name=player.name))
        elif standings.can_reenter(pid):
            lines.append(gettext("%(name)s is out (may still re-enter).", name=player.name))
        else:
            lines.append(gettext("%(name)s is out (the place is not settled yet).", name=player.name))
    return tuple(lines)


def _positions_text(positions: Any) -> str:
    if positions.small_blind is not None:
        return gettext("Button seat %(button)s · small blind seat %(small)s · big blind seat %(big)s",
                       button=positions.button, small=positions.small_blind, big=positions.big_blind)
    return gettext("Button seat %(button)s · dead small blind (seat %(small)s is empty) · big blind seat %(big)s",
                   button=positions.button, small=positions.small_blind_seat_number, big=positions.big_blind)


def _before_view(
    state: Tournament, table: int, seated: Mapping[int, int], names: Mapping[int, str],
    common: dict[str, Any], record: TableHand | None,
) -> TableView:
    problem = ""
    plan = None
    if state.finished:
        problem = gettext("The tournament is over.")
    elif not state.started:
        problem = gettext("The director starts the clock before the first hand.")
    else:
        try:
            refuse_past_hand_cap(state, now())
            plan = plan_deal(state, table)
        except EngineError as error:
            problem = say(error)
        late = dealing.h4h_waiting_for(state, table)
        if late and not problem:
            problem = gettext("Hand for hand: waiting for table %(tables)s to finish.",
                              tables=", ".join(str(t) for t in late))
        clock = state.clock_at(now())
        if clock.on_break and not problem:
            problem = gettext("It is the break.")
    waiting = {s for s, _ in plan.waiting} if plan else set()
    seats = tuple(
        SeatView(
            seat, pid, names.get(pid, "?"), stack_of(state, pid), 0,
            _badges(None, seat, plan.positions if plan else None),
            "waiting" if seat in waiting else "",
        )
        for seat, pid in sorted(seated.items())
    )
    return TableView(
        **common,
        phase="before",
        seats=seats,
        positions_text=_positions_text(plan.positions) if plan else "",
        can_deal=plan is not None and not problem,
        deal_problem=problem,
        balancing=_balancing(state, table),
        can_undo=False,
    )


def _balancing(state: Tournament, table: int) -> tuple[str, ...]:
    """The balancing step due now, when it moves a player to or from here, in the tables
    page's words (a move from a table with a hand running happens after the hand)."""
    if len(state.seating.tables) < 2:
        return ()
    try:
        step = services.table_step(state)
    except EngineError:
        return ()
    names = names_of(state)
    return tuple(
        move_text(state, m, names) for m in step.moves if table in (m.from_table, m.to_table)
    )


# --------------------------------------------------------------------------- writes


def _hand(state: Tournament, table: int) -> tuple[TableHand, Hand]:
    record = state.dealing.running(table)
    if record is None:
        raise IllegalAction("No hand is being played at table {table}: deal one first.", table=table)
    return record, record.replay()


def _seat(data: Mapping[str, Any], hand: Hand) -> int:
    if data.get("seat") in (None, ""):
        if hand.turn is None:
            raise IllegalAction("Nobody is to act: the betting is over.")
        return hand.turn
    return parse_int(data.get("seat"), Term("seat number"), minimum=1)


def action_notation(hand: Hand, data: Mapping[str, Any]) -> str:
    """The compact notation of a declared action (checked by the engine, with its message)."""
    kind = str(data.get("kind") or data.get("action") or "").strip().lower().replace("_", "-")
    seat = _seat(data, hand)
    if kind == "fold":
        hand.verify_fold(seat)
        return notation.fold(seat)
    if kind == "check":
        hand.verify_check(seat)
        return notation.check_or_call(seat)
    if kind == "call":
        hand.verify_call(seat)
        return notation.check_or_call(seat)
    if kind in ("bet", "raise"):
        amount = parse_int(data.get("amount"), Term("bet amount") if kind == "bet" else Term("raise amount"), minimum=1)
        if kind == "bet":
            hand.verify_bet_to(seat, amount)
        else:
            hand.verify_raise_to(seat, amount)
        return notation.bet_or_raise(seat, amount)
    if kind == "muck":
        hand.verify_muck(seat)
        return notation.muck(seat)
    if kind in ("allin", "all-in"):
        hand.verify_all_in(seat)
        to = hand.bets()[seat] + hand.stacks()[seat]
        return notation.check_or_call(seat) if to <= hand.current_bet else notation.bet_or_raise(seat, to)
    raise InvalidInput("Unknown action {action}: use fold, check, call, bet, raise, all-in or muck.", action=repr(kind))


def _chips_list(text: Any) -> list[int]:
    if isinstance(text, list):
        return [parse_int(c, Term("chip value"), minimum=1) for c in text]
    raw = str(text or "").replace("+", " ").replace(",", " ").split()
    if not raw:
        raise InvalidInput("Enter the chips pushed, e.g. 1000 or 1000+500.")
    return [parse_int(c, Term("chip value"), minimum=1) for c in raw]


#: Events at one table that leave every other table's page as it was.
TABLE_EVENTS = dealing.TABLE_EVENT_TYPES | {"action_clock"}


def independent_of(table: int) -> Callable[[Event], bool]:
    """Whether an event leaves ``table``'s page as it was: play at another table (or the
    action clock). Several tables play at once: without this, each dealer's entry would make
    every other table's page stale."""

    def check(event: Event) -> bool:
        return event.type in TABLE_EVENTS and (event.type == "action_clock" or event.payload.get("table") != table)

    return check


def only_other_tables_since(state: Tournament, seq: int, table: int) -> bool:
    """Whether every event after ``seq`` is play at another table (so a page of ``table``
    based on ``seq`` is still right)."""
    later = state.events_since(seq)
    if later is None or len(later) != state.seq - seq:  # undone events: be safe
        return False
    return all(map(independent_of(table), later))


def deal_payload(state: Tournament, table: int, at: float) -> dict[str, Any]:
    plan = plan_deal(state, table)
    clock = state.clock_at(at)
    payload: dict[str, Any] = {"table": table, "setup": plan.as_dict()}
    if clock.level_number is not None:
        payload.update(
            level=clock.level_number, small_blind=clock.small_blind, big_blind=clock.big_blind,
            ante=clock.ante or 0,
        )
    return payload


@dataclass(frozen=True)
class At:
    """Where a table command runs: the table, the state it was read from, the page's seq."""

    db: Any
    tournament_id: int
    table: int
    state: Tournament
    seq: int
    at: float

    def record(self, type_: str, payload: Mapping[str, Any]) -> Tournament:
        # The check is made inside the write's transaction: the other tables' hands do not
        # make this page stale, whatever lands while this entry is worked out.
        return services.record(self.db, self.tournament_id, type_, payload, self.seq, self.at,
                               independent_of(self.table))

    def hand(self) -> Hand:
        return _hand(self.state, self.table)[1]


Answer = tuple[Tournament, str]


def _deal(at: At, data: Mapping[str, Any]) -> Answer:
    if at.table not in at.state.seating.tables:
        raise IllegalAction("There is no table {table} in play.", table=at.table)
    new = at.record("hand_started", deal_payload(at.state, at.table, at.at))
    running = new.dealing.running(at.table)
    return new, gettext("Hand %(number)s dealt.", number=running.number if running else "")


def _act(at: At, data: Mapping[str, Any]) -> Answer:
    return at.record("hand_action", {"table": at.table, "action": action_notation(at.hand(), data)}), ""


def _push(at: At, data: Mapping[str, Any]) -> Answer:
    hand = at.hand()
    ruling = silent_push(hand, _seat(data, hand), _chips_list(data.get("chips")),
                         string_bet=flag(data.get("string_bet")))
    return (at.record("hand_action", {"table": at.table, "action": ruling.notation, "note": ruling.rule}),
            say(ruling.rule))


OUT_OF_TURN = {"fold": "fold", "f": "fold", "check": "call", "call": "call", "cc": "call",
               "bet": "raise", "raise": "raise", "cbr": "raise"}


def _out_of_turn(at: At, data: Mapping[str, Any]) -> Answer:
    at.hand()  # a hand must be running
    seat = parse_int(data.get("seat"), Term("seat number"), minimum=1)
    kind = OUT_OF_TURN.get(str(data.get("kind") or "").strip().lower())
    if kind == "fold":
        held = notation.fold(seat)
    elif kind == "call":
        held = notation.check_or_call(seat)
    elif kind == "raise":
        held = notation.bet_or_raise(seat, parse_int(data.get("amount"), Term("amount"), minimum=1))
    else:
        raise InvalidInput("Unknown action {action}: use fold, call, bet or raise.", action=repr(data.get("kind")))
    new = at.record("hand_pending", {"table": at.table, "action": held})
    return new, gettext("Seat %(seat)s's action out of turn is held until their turn (TDA 53).", seat=seat)


def _undo(at: At, data: Mapping[str, Any]) -> Answer:
    current = at.state.dealing.current(at.table)
    last = at.state.last_event
    if (
        current is not None and current.finished and last is not None
        and last.type == "hand_action" and last.payload.get("table") == at.table
    ):
        # The tournament's undo takes back its last event: only if that is still this
        # table's award (a page that is behind is refused, not lifted).
        new = services.record(at.db, at.tournament_id, "undo", {}, at.seq, at.at)
        return new, gettext("The end of hand %(number)s was taken back.", number=current.number)
    return at.record("hand_undo", {"table": at.table}), gettext("Taken back.")


def _redo(at: At, data: Mapping[str, Any]) -> Answer:
    return at.record("hand_redo", {"table": at.table}), gettext("Put back.")


def _award(at: At, data: Mapping[str, Any]) -> Answer:
    hand = at.hand()
    winners = _winners(data, len(hand.pots()))
    live = set(hand.live_seats())
    for k, seats in enumerate(winners):
        for seat in seats:
            if seat in hand.seats and seat not in live:
                if k == 0:
                    raise IllegalAction("Seat {seat} has given up the hand and cannot win the main pot.", seat=seat)
                raise IllegalAction("Seat {seat} has given up the hand and cannot win the side pot {number}.",
                                    seat=seat, number=k)
    new = at.record("hand_action", {"table": at.table, "action": notation.award(winners)})
    done = new.dealing.current(at.table)
    return new, say(done.result) if done is not None else ""


def _cards(at: At, data: Mapping[str, Any]) -> Answer:
    new = at.record("hand_action", {"table": at.table, "actions": _card_entries(at.hand(), data)})
    done = new.dealing.current(at.table)
    return new, say(done.result) if done is not None else ""


def _clock(at: At, data: Mapping[str, Any]) -> Answer:
    hand = at.hand()
    if hand.turn is None:
        raise IllegalAction("Nobody is to act: there is no one to put on the clock.")
    running = at.state.dealing.running(at.table)
    pid = dict(running.players).get(hand.turn) if running else None
    who = f"Table {at.table} seat {hand.turn}" + (f" – {at.state.name_of(pid)}" if pid else "")  # stored
    house = at.state.settings
    seconds = parse_int(data.get("seconds"), Term("seconds"), minimum=5, default=house.action_seconds)
    countdown = house.action_countdown
    new = at.record("action_clock", {"action": "start", "who": who, "seconds": seconds, "countdown": countdown,
                                     "table": at.table, "seat": hand.turn})
    shown = (gettext("Table %(table)s seat %(seat)s – %(name)s", table=at.table, seat=hand.turn, name=at.state.name_of(pid))
             if pid else gettext("Table %(table)s seat %(seat)s", table=at.table, seat=hand.turn))
    if countdown:
        return new, gettext("%(who)s is on the clock: %(seconds)s seconds and a %(countdown)s-second countdown.",
                            who=shown, seconds=number(seconds), countdown=number(countdown))
    return new, gettext("%(who)s is on the clock: %(seconds)s seconds.", who=shown, seconds=number(seconds))


def _ruled(new: Tournament, table: int) -> str:
    """The ruling just made at ``table``, as the dealer reads it aloud."""
    record = new.dealing.current(table)
    return say(record.rulings[-1].line) + "." if record is not None and record.rulings else ""


def _misdeal(at: At, data: Mapping[str, Any]) -> Answer:
    new = at.record("hand_misdeal", {"table": at.table, "cause": data.get("cause")})
    return new, _ruled(new, at.table)


def _ruling(at: At, data: Mapping[str, Any]) -> Answer:
    kind = data.get("kind")
    payload: dict[str, Any] = {"table": at.table, "kind": kind}
    if kind == "four_card_flop":
        payload["seed"] = services.new_seed()  # the burn's draw, stored with the ruling
    new = at.record("hand_ruling", payload)
    return new, _ruled(new, at.table)


def _button(at: At, data: Mapping[str, Any]) -> Answer:
    seat = parse_int(data.get("seat"), Term("button seat"), minimum=1)
    new = at.record("button_corrected", {"table": at.table, "seat": seat})
    return new, _ruled(new, at.table)


def _time_up(at: At, data: Mapping[str, Any]) -> Answer:
    new = at.record("hand_time_up", {"table": at.table})
    return new, _ruled(new, at.table)


def _correct(at: At, data: Mapping[str, Any]) -> Answer:
    stack = data.get("stack")
    if stack not in (None, ""):  # the engine says what a missing one needs
        stack = parse_int(stack, Term("stack"), minimum=0)
    new = at.record("stack_corrected", {"player": data.get("player"), "stack": stack, "reason": data.get("reason")})
    return new, gettext("Stack corrected.")


COMMANDS: dict[str, Callable[[At, Mapping[str, Any]], Answer]] = {
    "deal": _deal, "act": _act, "push": _push, "oot": _out_of_turn, "undo": _undo, "redo": _redo,
    "award": _award, "cards": _cards, "clock": _clock, "correct": _correct,
    "misdeal": _misdeal, "ruling": _ruling, "button": _button, "time_up": _time_up,
}
"""Each table command: what it checks, what it records and the notice it answers."""
ACTIONS = tuple(COMMANDS)


def perform(tournament_id: int, table: int, action: str, data: Mapping[str, Any]) -> Answer:
    """Do one table command; returns the new state and a notice for the page."""
    command = COMMANDS.get(action)
    if command is None:
        abort(404)
    db = get_db()
    state = load_state(db, tournament_id)
    return command(At(db, tournament_id, table, state, expected_seq(dict(data), state.seq), now()), data)


def _winners(data: Mapping[str, Any], pots: int) -> list[list[int]]:
    raw = data.get("winners")
    if isinstance(raw, list):
        result = [[parse_int(s, Term("seat number"), minimum=1) for s in (pot if isinstance(pot, list) else [pot])]
                  for pot in raw]
    else:
        result = []
        for k in range(pots):
            if hasattr(data, "getlist"):
                seats = data.getlist(f"pot{k}")
            else:
                value = data.get(f"pot{k}")
                seats = value if isinstance(value, list) else [] if value in (None, "") else [value]
            result.append([parse_int(s, Term("seat number"), minimum=1) for s in seats])
    if not result:
        raise InvalidInput("Tap the winner of the main pot.")
    for k, seats in enumerate(result):
        if not seats:
            if k == 0:
                raise InvalidInput("Tap the winner of the main pot.")
            raise InvalidInput("Tap the winner of the side pot {number}.", number=k)
    return result


def _card_entries(hand: Hand, data: Mapping[str, Any]) -> list[str]:
    if hand.street != "showdown":
        raise IllegalAction("The cards are entered at the showdown; the hand is on the {street}.",
                            street=Term(STREETS.get(hand.street, hand.street)))
    entries: list[str] = []
    board = "".join(str(data.get("board") or "").split())
    have = "".join(str(c) for c in hand.board)
    if board and have:
        if not board.lower().startswith(have.lower()):
            raise InvalidInput("The board already shows {cards}: enter the cards after it.", cards=have)
        board = board[len(have):]
    if board:
        entries.append(notation.board(board))
    cards = data.get("cards") if isinstance(data.get("cards"), Mapping) else {}
    for seat in hand.showdown_order():
        text = cards.get(str(seat)) if cards else None
        if text in (None, ""):
            text = data.get(f"cards_{seat}")
        text = "".join(str(text or "").split())
        if not text:
            raise InvalidInput("Enter seat {seat}'s two cards, e.g. AsKd.", seat=seat)
        entries.append(notation.show(seat, text))
    entries.append(notation.award(None))
    return entries


# --------------------------------------------------------------------------- pages


ACCIDENTS: dict[str, Any] = {
    "misdeal_causes": {k: words for k, (words, _) in MISDEALS.items() if k != "fouled_deck"},
    "ruling_kinds": RULINGS,
}
"""What the dealer's "Something went wrong" menu offers."""


def render_panel(tournament_id: int, table: int, **extra: Any) -> str:
    state = load_state(get_db(), tournament_id)
    view = table_view(state, tournament_id, table, now())
    return render("dealer.html", "_dealer_table.html", v=view, t=state, tournament_id=tournament_id,
                  **ACCIDENTS, **extra)


@bp.get("/t/<int:tournament_id>/table/<int:table>")
def page(tournament_id: int, table: int) -> ResponseReturnValue:
    return render_panel(tournament_id, table)


@bp.get("/t/<int:tournament_id>/table/<int:table>/panel")
def panel(tournament_id: int, table: int) -> ResponseReturnValue:
    state = load_state(get_db(), tournament_id)
    since = request.args.get("since")
    if (
        since is not None and since.isdigit()
        and (int(since) == state.seq or only_other_tables_since(state, int(since), table))
    ):
        return Response(status=204)
    view = table_view(state, tournament_id, table, now())
    return render_template("_dealer_table.html", v=view, t=state, tournament_id=tournament_id, **ACCIDENTS)


@bp.post("/t/<int:tournament_id>/table/<int:table>/<action>")
@login_required
def table_action(tournament_id: int, table: int, action: str) -> ResponseReturnValue:
    if action not in ACTIONS:
        abort(404)
    data: Any = request.form if not request.is_json else values()
    notices: list[str] = []

    def do() -> None:
        _, message = perform(tournament_id, table, action, data)
        if message:
            notices.append(message)
            if not is_partial_request():
                flash(message, "ok")

    def rerender(error: str | None = None, notice: str | None = None) -> str:
        # A refused entry comes back as typed, so the dealer only fixes what was wrong.
        typed = {**request.form.to_dict(), "action": action} if error and not request.is_json else {}
        return render_panel(
            tournament_id, table, error=error, notice=notice or (notices[0] if notices else None), typed=typed
        )

    return act(do, url_for("dealer.page", tournament_id=tournament_id, table=table), rerender)


@dataclass(frozen=True)
class HandSummary:
    number: int
    level: int
    blinds: str
    positions: str
    players: tuple[str, ...]
    actions: tuple[str, ...]
    result: str
    busted: tuple[str, ...]
    finished: bool
    notes: tuple[str, ...]
    rulings: tuple[str, ...] = ()
    """Each ruling with its rule (a misdeal says what it took back)."""


def _hand_summary(state: Tournament, record: TableHand) -> HandSummary:
    names = _names(state)
    hand = record.replay()
    setup = record.setup
    blinds = f"{_amount(setup.small_blind)}/{_amount(setup.big_blind)}"
    if setup.big_blind_ante:
        blinds = gettext("%(blinds)s, ante %(ante)s", blinds=blinds, ante=_amount(setup.big_blind_ante))
    players = tuple(
        gettext("Seat %(seat)s %(name)s (%(stack)s)", seat=s, name=names.get(p, "?"), stack=_amount(setup.stacks[s]))
        for s, p in record.players
    )
    actions = tuple(_history_lines(hand, names, dict(record.players)))
    return HandSummary(
        record.number, record.level, blinds, _positions_text(record.positions), players, actions,
        say(record.result), tuple(gettext("%(name)s out", name=names.get(p, "?")) for p, _ in record.busted),
        record.finished, tuple(say(note) for note in record.notes), tuple(ruling_lines(record)),
    )


def ruling_lines(record: TableHand) -> list[str]:
    """The hand's rulings for its history: each with its rule, and what a re-deal took back."""
    lines = []
    for r in record.rulings:
        voided = ", ".join(say(notation.describe(e)) for e in r.voided)
        line = say(r.line)
        lines.append(gettext("%(ruling)s; taken back: %(voided)s", ruling=line, voided=voided) if voided else line)
    return lines


def _history_lines(hand: Hand, names: Mapping[int, str], players: Mapping[int, int]) -> list[str]:
    """The hand's log in words, betting actions with their amounts and the street they began."""
    lines: list[str] = []
    records = iter(hand.actions)
    street = "preflop"
    for entry in hand.log:
        if notation.parse(entry).verb in ("f", "cc", "cbr"):
            action = next(records)
            who = {"seat": action.seat, "name": names.get(players.get(action.seat, 0), "?"), "amount": number(action.to)}
            if action.kind == "fold":
                text = gettext("Seat %(seat)s (%(name)s) folds", **who)
            elif action.kind == "check":
                text = gettext("Seat %(seat)s (%(name)s) checks", **who)
            elif action.kind == "call":
                text = gettext("Seat %(seat)s (%(name)s) calls %(amount)s", **who)
            elif action.kind == "bet":
                text = gettext("Seat %(seat)s (%(name)s) bets %(amount)s", **who)
            elif action.kind == "raise":
                text = gettext("Seat %(seat)s (%(name)s) raises to %(amount)s", **who)
            else:
                text = f"Seat {action.seat} ({who['name']}) {action.kind}"
            if action.all_in:
                text = gettext("%(action)s (all-in)", action=text)
            if action.street != street:
                street = action.street
                text = gettext("%(street)s: %(action)s", street=STREET_TITLES.get(street) or street.capitalize(),
                               action=text)
            lines.append(text)
        else:
            lines.append(describe_entry(entry, names, players))
    return lines


def describe_entry(entry: str, names: Mapping[int, str], players: Mapping[int, int]) -> str:
    """``p3 cbr 600`` → ``Seat 3 (Ann) bets or raises to 600``."""
    try:
        parsed = notation.parse(entry)
    except InvalidInput:
        return entry
    if parsed.verb == "win":
        return gettext("Pots awarded from the cards") if parsed.winners is None else gettext("Pots awarded by the dealer")
    if parsed.verb == "db":
        return gettext("Board %(cards)s", cards=parsed.cards)
    if parsed.verb == "dh":
        return gettext("p%(seat)s dealt %(cards)s", seat=parsed.seat, cards=parsed.cards)
    who = {"seat": parsed.seat, "name": names.get(players.get(parsed.seat or 0, 0), "?")}
    if parsed.verb == "f":
        return gettext("Seat %(seat)s (%(name)s) folds", **who)
    if parsed.verb == "cc":
        return gettext("Seat %(seat)s (%(name)s) checks or calls", **who)
    if parsed.verb == "cbr":
        return gettext("Seat %(seat)s (%(name)s) bets or raises to %(amount)s", amount=number(parsed.amount or 0), **who)
    if parsed.verb == "sm" and parsed.mucked:
        return gettext("Seat %(seat)s (%(name)s) mucks", **who)
    if parsed.verb == "sm" and parsed.cards:
        return gettext("Seat %(seat)s (%(name)s) shows %(cards)s", cards=parsed.cards, **who)
    if parsed.verb == "sm":
        return gettext("Seat %(seat)s (%(name)s) shows cards", **who)
    said = notation.describe(entry)
    return f"Seat {parsed.seat} ({who['name']})" + said[len(f"seat {parsed.seat}"):]


@bp.get("/t/<int:tournament_id>/table/<int:table>/history")
def history(tournament_id: int, table: int) -> ResponseReturnValue:
    state = load_state(get_db(), tournament_id)
    hands = [_hand_summary(state, h) for h in reversed(state.dealing.at_table(table))]
    names = _names(state)
    corrections = [
        f"{names.get(c.player, '?')}: {_amount(c.before)} → {_amount(c.after)} ({c.reason})"
        for c in state.dealing.corrections
    ]
    return render(
        "dealer_history.html", None, t=state, tournament_id=tournament_id, table=table, hands=hands,
        corrections=corrections,
    )


def named_winners(record: TableHand) -> list[list[int]] | None:
    """The winning seats of each pot when the dealer tapped them (``d win 3;5,7``), else None."""
    for entry in reversed(record.log):
        parsed = notation.parse(entry)
        if parsed.verb == "win" and parsed.winners is not None:
            return [list(pot) for pot in parsed.winners]
    return None


def _phh(record: TableHand) -> str:
    """The hand in PHH; a hand awarded to named winners without their cards says who won.

    ``write_phh`` leaves out the dealer's award, so such a hand's pots cannot be worked out
    from the file alone: the user-defined field ``_winners`` (PHH allows fields starting
    with ``_``) lists the winning seats of each pot, main pot first, with a comment line.
    """
    text = write_phh(record.replay())
    if record.rulings:  # the user-defined field PHH allows: the rulings, in order
        text += ("# The table's rulings in this hand, each with its rule (a misdeal's re-deal starts the actions).\n"
                 f"_rulings = {json.dumps([r.line for r in record.rulings])}\n")
    winners = named_winners(record)
    if winners is None:
        return text
    shown = {e.seat for e in map(notation.parse, record.log) if e.verb == "sm" and not e.mucked}
    if all(seat in shown for pot in winners for seat in pot):
        return text  # every winner's cards are in the actions: the hand speaks for itself
    return text + (
        "# The dealer named the winners without their cards: the winning seats of each pot\n"
        "# (numbers from 'seats'), the main pot first.\n"
        f"_winners = {json.dumps(winners)}\n"
    )


@bp.get("/t/<int:tournament_id>/table/<int:table>/hands.phhs")
def export_all(tournament_id: int, table: int) -> ResponseReturnValue:
    state = load_state(get_db(), tournament_id)
    parts = [f"[{h.number}]\n{_phh(h)}" for h in state.dealing.at_table(table) if h.finished]
    response = Response("\n".join(parts), mimetype="text/plain")
    response.headers["Content-Disposition"] = f'attachment; filename="table-{table}.phhs"'
    return response


@bp.get("/t/<int:tournament_id>/table/<int:table>/hand/<int:number>.phh")
def export_one(tournament_id: int, table: int, number: int) -> ResponseReturnValue:
    state = load_state(get_db(), tournament_id)
    record = next((h for h in state.dealing.at_table(table) if h.number == number), None)
    if record is None:
        abort(404)
    response = Response(_phh(record), mimetype="text/plain")
    response.headers["Content-Disposition"] = f'attachment; filename="table-{table}-hand-{number}.phh"'
    return response


# --------------------------------------------------------------------------- JSON API


def table_json(state: Tournament, tournament_id: int, table: int, at: float) -> dict[str, Any]:
    view = table_view(state, tournament_id, table, at)
    return {
        "seq": state.seq,
        "table": table,
        "phase": view.phase,
        "hand": view.hand_number,
        "street": view.street or None,
        "turn": view.turn,
        "level": view.level_text,
        "positions": view.positions_text,
        "seats": [
            {"seat": s.seat, "player": s.player, "name": s.name, "stack": s.stack, "bet": s.bet,
             "badges": list(s.badges), "status": s.status}
            for s in view.seats
        ],
        "actions": [{"kind": c.kind, "label": c.label, "amount": c.amount} for c in view.choices],
        "min_to": view.min_to,
        "max_to": view.max_to,
        "pots": [{"name": p.name, "amount": p.amount, "eligible": list(p.eligible)} for p in view.pots],
        "showdown_order": list(view.showdown_order),
        "last_result": view.last_result or None,
        "notes": list(view.notes),
        "can_deal": view.can_deal,
        "deal_problem": view.deal_problem or None,
        "rulings": list(view.rulings),
        "substantial_action": view.substantial or None,
        "on_the_clock": None if view.clock_seat is None else {"seat": view.clock_seat, "seconds_left": view.clock_left},
    }


api = Api(bp, "dealer")

INPUTS: dict[str, type[Write]] = {
    "deal": inputs.DealIn, "act": inputs.ActIn, "push": inputs.PushIn, "oot": inputs.OutOfTurnIn,
    "undo": Write, "redo": Write, "award": inputs.AwardIn, "cards": inputs.CardsIn, "clock": inputs.TableClockIn,
    "correct": inputs.CorrectIn, "misdeal": inputs.MisdealIn, "ruling": inputs.RulingIn,
    "button": inputs.ButtonIn, "time_up": Write,
}
"""Each table command's declared input, as the JSON API takes it (the page's form spells
some of them by field: ``pot0``, ``cards_3``)."""

SUMMARIES = {
    "deal": "Deal the next hand at the table (the blinds and antes are posted)",
    "act": "The seat to act folds, checks, calls, bets, raises or goes all-in",
    "push": "Chips pushed without a word: the house rules say what it is",
    "oot": "An action out of turn, held until the seat's turn (TDA 53)",
    "undo": "Take back the table's last entry",
    "redo": "Put back the entry the last undo took back (until the next entry)",
    "award": "Award the pots (main pot first) when the hand ends without a showdown of cards",
    "cards": "The showdown: the board and each showing seat's cards; the pots go to the best hands",
    "clock": "Put the seat to act on the clock",
    "correct": "Correct a player's stack to the chips on the felt, with a reason",
    "misdeal": "Declare a misdeal and its cause (TDA 35): before substantial action the hand is dealt again "
               "as an exact replay; a fouled deck voids it whatever the action",
    "ruling": "An exposed or boxed card, a premature card or a four-card flop: the TDA's remedy, read aloud",
    "button": "The button belongs on another seat (TDA 34-A): corrected before substantial action, else play stands",
    "time_up": "The seat on the clock ran out of time (TDA 29): facing a bet the hand is dead, otherwise a check",
}


@api.get("/api/t/<int:tournament_id>/table/<int:table>", result=shapes.TableHand,
         summary="A table's hand: seats, stacks, whose turn, the legal actions, pots")
def api_table(tournament_id: int, table: int) -> ResponseReturnValue:
    state = load_state(get_db(), tournament_id)
    return jsonify(table_json(state, tournament_id, table, now()))


def _api_action(action: str) -> None:
    def view(tournament_id: int, table: int, data: Write) -> ResponseReturnValue:
        state, message = perform(tournament_id, table, action, data.given())
        result = table_json(state, tournament_id, table, now())
        result["notice"] = message or None
        return jsonify(result), 201

    api.post(f"/api/t/<int:tournament_id>/table/<int:table>/{action}", summary=SUMMARIES[action],
             body=INPUTS[action], result=shapes.TableHand, endpoint=f"api_table_{action}")(view)


for _action in ACTIONS:
    _api_action(_action)
api.unknown("/api/t/<int:tournament_id>/table/<int:table>/<action>", ACTIONS, "table action")


__all__ = ["ACTIONS", "bp", "perform", "table_json", "table_view"]
