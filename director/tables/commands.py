"""The seating commands: the draw, the final table's redraw, the moves shown (balancing, a
table break), a late seat, a swap, locks and undo. Each is registered once with its declared
input (``director.core.commands``) and reads the tournament inside its own transaction; the
tables page, the players' page, the dashboard and the JSON API run it by its name.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

from werkzeug.datastructures import MultiDict

from director.core import store
from director.core.commands import Call, Events, run, stream_command
from director.core.contract import Write
from director.core.i18n import gettext
from director.core.inputs import (
    ActIn,
    AwardIn,
    ButtonIn,
    CardsIn,
    ConfirmIn,
    CorrectIn,
    DealIn,
    DrawIn,
    LockIn,
    MisdealIn,
    OutOfTurnIn,
    PlayerIn,
    PushIn,
    RulingIn,
    SwapIn,
    TableClockIn,
)
from director.core.roles import DEALER, DIRECTOR, FLOOR, NotYours, current_role
from director.core.store import StaleWrite
from director.core.web import parse_int
from director.core.words import listed, number, say
from director.setup.commands import new_seed
from director.tables import SEATING_EVENTS, TABLE_SIZES
from director.tables.hand_view import STREETS
from director.tables.views import (
    current_step,
    has_draw,
    locks_of,
    missing_tokens,
    names_of,
    new_token,
    player_tokens,
    seated,
    seating_of,
    table_size,
)
from engine import notation
from engine.dealing import TableHand, plan_deal
from engine.declared import action_notation, seat_to_act  # the phone runs them too, offline
from engine.errors import IllegalAction, InvalidInput, Message, Term
from engine.hand import Hand
from engine.houserules import silent_push
from engine.positions import draw_button
from engine.seat_events import refuse_play_at_broken
from engine.seating import Move, draw_seats, late_entry_seat
from engine.tournament import PLAY_EVENT_TYPES, Event, Tournament


def tables_command(name: str, input: type[Write], summary: str) -> Any:
    """A seating command on the tournament of the path's ``tournament_id``."""
    return stream_command(name, input, summary, stream=store.TOURNAMENT, id="tournament_id", roles=(DIRECTOR, FLOOR))


def _buttons(seating: Any, rng: random.Random) -> dict[str, int]:
    """Each table's first button, drawn (a new draw, a final table)."""
    return {str(t): draw_button(list(seating.at_table(t)), rng).button for t in seating.tables}


@tables_command("tables.draw", DrawIn, "Draw seats at random for everyone still in (table_size: seats per "
                "table; seats locked by the director are kept)")
def draw_command(state: Tournament, data: DrawIn, call: Call) -> Events:
    size = data.table_size or table_size(state)
    if size not in TABLE_SIZES:
        raise InvalidInput("A table has 6, 9 or 10 seats, not {size}.", size=size)
    # The engine draws names, so that its messages name the players.
    ids = {p.name: p.id for p in state.alive}
    if len(ids) < 2:
        raise InvalidInput("Register at least 2 players before the seat draw; {count} registered.", count=len(ids))
    refuse_redraw_mid_hand(state)
    rng = call.random()
    locks = {state.name_of(pid): place for pid, place in locks_of(state).items() if pid in ids.values()}
    seating = draw_seats(list(ids), size, rng, locked=locks)
    yield "seats_drawn", {
        "seats": {str(ids[name]): [t, s] for t, s, name in seating}, "buttons": _buttons(seating, rng),
        "table_size": size, "tokens": missing_tokens(state), "kind": "draw",
    }


def hands_running(state: Tournament) -> list[int]:
    """The tables where the dealer's assistant has a hand running."""
    return sorted(t for t in state.dealing.latest if state.dealing.running(t) is not None)


def refuse_redraw_mid_hand(state: Tournament) -> None:
    """A new draw of every seat takes each player away from the hand he is playing: refused
    while any runs (the first draw has no hands to break)."""
    running = hands_running(state) if has_draw(state) else []
    if len(running) == 1:
        raise IllegalAction("A hand is running at table {table}: a new draw would take every seat away "
                            "mid-hand. Finish it first.", table=running[0])
    if running:
        raise IllegalAction("Hands are running at tables {tables}: a new draw would take every seat away "
                            "mid-hand. Finish them first.", tables=listed(str(t) for t in running))


@tables_command("tables.redraw", Write, "Redraw the final table's seats")
def redraw_command(state: Tournament, data: Write, call: Call) -> Events:
    players = [p.id for p in seated(state)]
    size = table_size(state)
    if len(players) > size:
        raise IllegalAction("{count} players do not fit at one final table of {size} seats.", count=len(players),
                            size=size)
    if len(players) < 2:
        raise IllegalAction("A final table needs at least 2 players.")
    rng = call.random()
    seating = draw_seats(players, size, rng)
    yield "seats_drawn", {
        "seats": {str(p): [t, s] for t, s, p in seating}, "buttons": _buttons(seating, rng), "table_size": size,
        "tokens": missing_tokens(state), "kind": "final",
    }


@tables_command("tables.confirm", ConfirmIn, "Record the balancing, table break or final-table moves shown "
                "(action: the step shown; left out, whatever is shown)")
def confirm_command(state: Tournament, data: ConfirmIn, call: Call) -> Events:
    step = current_step(state)
    if step is None or step.action == "none":
        raise IllegalAction("The tables are balanced: nobody needs to move.")
    if data.action and step.action != data.action:
        raise IllegalAction("The tables changed since this page was shown: look at the new instruction.")
    if step.action == "final_table":
        # The seats the director was shown, as a new draw: the final table draws its button too.
        yield "seats_drawn", {
            "seats": {str(p): [t, s] for t, s, p in step.seating}, "buttons": _buttons(step.seating, call.random()),
            "table_size": step.seating.table_size, "tokens": missing_tokens(state), "kind": "final",
        }
        return
    names = names_of(state)
    yield "players_moved", {"moves": [_move_payload(m) for m in step.moves], "kind": step.action,
                            "text": [m.describe(names) for m in step.moves]}


def _move_payload(move: Move[int]) -> dict[str, Any]:
    return {"player": move.player, "from": [move.from_table, move.from_seat], "to": [move.to_table, move.to_seat]}


@tables_command("tables.seat", PlayerIn, "Seat a late entry (or a player back after a rebuy) at the table that is "
                "short")
def seat_command(state: Tournament, data: PlayerIn, call: Call) -> Events:
    player = state.player(data.player)
    if player.out:
        raise IllegalAction("{name} is out: a re-entry must be registered first.", name=player.name)
    if player.table is not None:
        raise IllegalAction("{name} already sits at table {table} seat {seat}.", name=player.name,
                            table=player.table, seat=player.seat)
    if not has_draw(state):
        raise IllegalAction("Draw the seats first: {name} gets a seat in the draw.", name=player.name)
    _, (table, seat) = late_entry_seat(seating_of(state), player.id, call.random())
    payload: dict[str, Any] = {"player": player.id, "table": table, "seat": seat}
    if player_tokens(state).get(player.id) is None:
        payload["token"] = new_token()
    yield "player_seated", payload


@tables_command("tables.swap", SwapIn, "Swap two players' seats")
def swap_command(state: Tournament, data: SwapIn, call: Call) -> Events:
    a, b = data.player_a, data.player_b
    if a == b:
        raise InvalidInput("Choose two different players to swap.")
    pa, pb = state.player(a), state.player(b)
    for p in (pa, pb):
        if p.out or p.table is None or p.seat is None:
            raise IllegalAction("{name} has no seat to swap.", name=p.name)
    assert pa.table and pa.seat and pb.table and pb.seat
    moves = [Move(a, pa.table, pa.seat, pb.table, pb.seat), Move(b, pb.table, pb.seat, pa.table, pa.seat)]
    text = f"Swap {pa.name} (table {pa.table} seat {pa.seat}) and {pb.name} (table {pb.table} seat {pb.seat})."  # stored
    yield "players_moved", {"moves": [_move_payload(m) for m in moves], "kind": "swap", "text": [text]}


@tables_command("tables.lock", LockIn, "Keep a seat for a player at the draw (a player who needs it)")
def lock_command(state: Tournament, data: LockIn, call: Call) -> Events:
    yield "seat_locked", {"player": data.player, "table": data.table, "seat": data.seat}


@tables_command("tables.unlock", PlayerIn, "Remove a player's seat lock")
def unlock_command(state: Tournament, data: PlayerIn, call: Call) -> Events:
    yield "seat_unlocked", {"player": data.player}


@tables_command("tables.undo", Write, "Take back the last seating entry")
def undo_command(state: Tournament, data: Write, call: Call) -> Events:
    last = state.last_event
    if last is None or last.type not in SEATING_EVENTS:
        raise IllegalAction("The last change was not a seating change: undo it where it was made.")
    yield "undo", {}


# --- the dealer's assistant: a table's hand, entry by entry ------------------------------------------------

def running_hand(state: Tournament, table: int) -> tuple[TableHand, Hand]:
    record = state.dealing.running(table)
    if record is None:
        refuse_play_at_broken(state, table)  # a broken table: where its players went
        raise IllegalAction("No hand is being played at table {table}: deal one first.", table=table)
    return record, record.hand()  # shared: read, never changed


def chips_list(text: Any) -> list[int]:
    if isinstance(text, list):
        return [parse_int(c, Term("chip value"), minimum=1) for c in text]
    raw = str(text or "").replace("+", " ").replace(",", " ").split()
    if not raw:
        raise InvalidInput("Enter the chips pushed, e.g. 1000 or 1000+500.")
    return [parse_int(c, Term("chip value"), minimum=1) for c in raw]


#: Events at one table that leave every other table's page as it was.
TABLE_EVENTS = PLAY_EVENT_TYPES


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


def deal_payload(state: Tournament, table: int, at: float, game: str | None = None) -> dict[str, Any]:
    plan = plan_deal(state, table)
    clock = state.clock_at(at)
    payload: dict[str, Any] = {"table": table, "setup": plan.as_dict()}
    if game:  # dealer's choice: the game the dealer picked for this hand
        payload["game"] = game
    if clock.level_number is not None:
        payload.update(
            level=clock.level_number, small_blind=clock.small_blind, big_blind=clock.big_blind,
            ante=clock.ante or 0,
        )
    return payload


def hand_command(name: str, input: type[Write], summary: str, **extra: Any) -> Any:
    """A command on the hand at the path's ``table``: a page drawn at an older seq is still
    right when only the other tables played since. The director, the floor and that table's
    dealer may call it, unless it says otherwise."""
    extra.setdefault("roles", (DIRECTOR, FLOOR, DEALER))
    return stream_command(name, input, summary, stream=store.TOURNAMENT, id="tournament_id",
                          independent=lambda call, data: independent_of(int(call.ids["table"])), **extra)


def _table(call: Call) -> int:
    return int(call.ids["table"])


@hand_command("hand.deal", DealIn, "Deal the next hand at the table (the blinds and antes are posted)")
def deal_command(state: Tournament, data: DealIn, call: Call) -> Events:
    table = _table(call)
    if table not in state.tables_in_play:
        refuse_play_at_broken(state, table)  # a broken table: where its players went
        raise IllegalAction("There is no table {table} in play.", table=table)
    new = yield "hand_started", deal_payload(state, table, call.now, data.given().get("game"))
    running = new.dealing.running(table)
    return gettext("Hand %(number)s dealt.", number=running.number if running else "")


@hand_command("hand.act", ActIn, "The seat to act folds, checks, calls, bets, raises or goes all-in")
def act_command(state: Tournament, data: ActIn, call: Call) -> Events:
    table = _table(call)
    yield "hand_action", {"table": table, "action": action_notation(running_hand(state, table)[1], data.given())}


@hand_command("hand.push", PushIn, "Chips pushed without a word: the house rules say what it is")
def push_command(state: Tournament, data: PushIn, call: Call) -> Events:
    table = _table(call)
    hand = running_hand(state, table)[1]
    fields = data.given()
    ruling = silent_push(hand, seat_to_act(fields, hand), chips_list(fields.get("chips")), string_bet=data.string_bet)
    yield "hand_action", {"table": table, "action": ruling.notation, "note": ruling.rule}
    return say(ruling.rule)


OUT_OF_TURN = {"fold": "fold", "f": "fold", "check": "call", "call": "call", "cc": "call",
               "bet": "raise", "raise": "raise", "cbr": "raise"}


@hand_command("hand.oot", OutOfTurnIn, "An action out of turn, held until the seat's turn (TDA 53)")
def out_of_turn_command(state: Tournament, data: OutOfTurnIn, call: Call) -> Events:
    table = _table(call)
    running_hand(state, table)  # a hand must be running
    kind = OUT_OF_TURN[data.kind]
    if kind == "fold":
        held = notation.fold(data.seat)
    elif kind == "call":
        held = notation.check_or_call(data.seat)
    else:
        held = notation.bet_or_raise(data.seat, parse_int(data.amount, Term("amount"), minimum=1))
    yield "hand_pending", {"table": table, "action": held}
    return gettext("Seat %(seat)s's action out of turn is held until their turn (TDA 53).", seat=data.seat)


@hand_command("hand.undo", Write, "Take back the table's last entry")
def hand_undo_command(state: Tournament, data: Write, call: Call) -> Events:
    table = _table(call)
    current = state.dealing.current(table)
    last = state.last_event
    if (current is not None and current.finished and last is not None
            and last.type == "hand_action" and last.payload.get("table") == table):
        # The tournament's undo takes back its last event: only if that is still this
        # table's award (a page that is behind is refused, not lifted).
        if data.expected_seq is not None and data.expected_seq != state.seq:
            raise StaleWrite(data.expected_seq, state.seq)
        yield "undo", {}
        return gettext("The end of hand %(number)s was taken back.", number=current.number)
    yield "hand_undo", {"table": table}
    return gettext("Taken back.")


@hand_command("hand.redo", Write, "Put back the entry the last undo took back (until the next entry)")
def hand_redo_command(state: Tournament, data: Write, call: Call) -> Events:
    yield "hand_redo", {"table": _table(call)}
    return gettext("Put back.")


def award_form(form: MultiDict[str, str]) -> dict[str, Any]:
    """The award's form: the winners tapped for each pot, as ``pot0``, ``pot1``..."""
    pots = sorted(int(k[3:]) for k in form if k.startswith("pot") and k[3:].isdigit())
    winners = [form.getlist(f"pot{k}") for k in range(pots[-1] + 1)] if pots else []
    answer: dict[str, Any] = {"winners": winners, "expected_seq": form.get("expected_seq") or None}
    if form.get("hilo"):  # Omaha hi-lo: each pot's low half too (none ticked: no low)
        answer["lows"] = [form.getlist(f"low{k}") for k in range(len(winners))]
    return answer


@hand_command("hand.award", AwardIn, "Award the pots (main pot first) when the hand ends without a showdown of cards",
              form=award_form)
def award_command(state: Tournament, data: AwardIn, call: Call) -> Events:
    table = _table(call)
    hand = running_hand(state, table)[1]
    winners = winners_of({"winners": data.given()["winners"]}, len(hand.pots()))
    live = set(hand.live_seats())
    for k, seats in enumerate(winners):
        for seat in seats:
            if seat in hand.seats and seat not in live:
                if k == 0:
                    raise IllegalAction("Seat {seat} has given up the hand and cannot win the main pot.", seat=seat)
                raise IllegalAction("Seat {seat} has given up the hand and cannot win side pot {number}.",
                                    seat=seat, number=k)
    new = yield "hand_action", {"table": table, "action": notation.award(winners, lows_of(data.given()))}
    done = new.dealing.current(table)
    return say(done.result) if done is not None else ""


def cards_form(form: MultiDict[str, str]) -> dict[str, Any]:
    """The showdown's form: the board, and each seat's cards as ``cards_<seat>``."""
    cards = {k[6:]: v for k, v in form.items() if k.startswith("cards_") and k[6:].isdigit() and v.strip()}
    return {"board": form.get("board") or None, "cards": cards or None,
            "expected_seq": form.get("expected_seq") or None}


@hand_command("hand.cards", CardsIn, "The showdown: the board and each showing seat's cards; the pots go to the "
              "best hands", form=cards_form)
def cards_command(state: Tournament, data: CardsIn, call: Call) -> Events:
    table = _table(call)
    fields = data.given()
    if fields.get("cards"):
        fields["cards"] = {str(k): v for k, v in fields["cards"].items()}
    new = yield "hand_action", {"table": table, "actions": card_entries(running_hand(state, table)[1], fields)}
    done = new.dealing.current(table)
    return say(done.result) if done is not None else ""


@hand_command("hand.clock", TableClockIn, "Put the seat to act on the clock")
def clock_command(state: Tournament, data: TableClockIn, call: Call) -> Events:
    table = _table(call)
    hand = running_hand(state, table)[1]
    if hand.turn is None:
        raise IllegalAction("Nobody is to act: there is no one to put on the clock.")
    running = state.dealing.running(table)
    pid = dict(running.players).get(hand.turn) if running else None
    who = f"Table {table} seat {hand.turn}" + (f" – {state.name_of(pid)}" if pid else "")  # stored
    seconds = data.seconds or state.settings.action_seconds
    countdown = state.settings.action_countdown
    yield "action_clock", {"action": "start", "who": who, "seconds": seconds, "countdown": countdown,
                           "table": table, "seat": hand.turn}
    shown = (gettext("Table %(table)s seat %(seat)s – %(name)s", table=table, seat=hand.turn, name=state.name_of(pid))
             if pid else gettext("Table %(table)s seat %(seat)s", table=table, seat=hand.turn))
    if countdown:
        return gettext("%(who)s is on the clock: %(seconds)s seconds and a %(countdown)s-second countdown.",
                       who=shown, seconds=number(seconds), countdown=number(countdown))
    return gettext("%(who)s is on the clock: %(seconds)s seconds.", who=shown, seconds=number(seconds))


def _ruled(new: Tournament, table: int) -> str:
    """The ruling just made at ``table``, as the dealer reads it aloud."""
    record = new.dealing.current(table)
    return say(record.rulings[-1].line) + "." if record is not None and record.rulings else ""


@hand_command("hand.misdeal", MisdealIn, "Declare a misdeal and its cause (TDA 35): before substantial action the "
              "hand is dealt again as an exact replay; a fouled deck voids it whatever the action")
def misdeal_command(state: Tournament, data: MisdealIn, call: Call) -> Events:
    new = yield "hand_misdeal", {"table": _table(call), "cause": data.cause}
    return _ruled(new, _table(call))


@hand_command("hand.ruling", RulingIn, "An exposed or boxed card, a premature card or a four-card flop: the TDA's "
              "remedy, read aloud")
def ruling_command(state: Tournament, data: RulingIn, call: Call) -> Events:
    payload: dict[str, Any] = {"table": _table(call), "kind": data.kind}
    if data.kind == "four_card_flop":
        payload["seed"] = new_seed()  # the burn's draw, stored with the ruling
    new = yield "hand_ruling", payload
    return _ruled(new, _table(call))


@hand_command("hand.button", ButtonIn, "The button belongs on another seat (TDA 34-A): corrected before substantial "
              "action, else play stands")
def button_command(state: Tournament, data: ButtonIn, call: Call) -> Events:
    new = yield "button_corrected", {"table": _table(call), "seat": data.seat}
    return _ruled(new, _table(call))


@hand_command("hand.time_up", Write, "The seat on the clock ran out of time (TDA 29): facing a bet the hand is dead, "
              "otherwise a check")
def time_up_command(state: Tournament, data: Write, call: Call) -> Events:
    new = yield "hand_time_up", {"table": _table(call)}
    return _ruled(new, _table(call))


@hand_command("hand.correct", CorrectIn, "Correct a player's stack to the chips on the felt, with a reason",
              roles=(DIRECTOR, FLOOR, DEALER))
def correct_command(state: Tournament, data: CorrectIn, call: Call) -> Events:
    """A table's dealer corrects a stack only where the director allows it in the settings
    (``dealer_corrects``), and only a player at that table (seated there, or dealt into its
    hand); the floor and the director always may, anyone's."""
    role = current_role()
    if role is not None and role.kind == DEALER:
        if not state.settings.dealer_corrects:
            raise NotYours(Message("This phone is {who}: a stack is corrected by the floor or the director tonight "
                                   "(the director may allow the dealers in the settings).", who=role.words()))
        table, player = _table(call), state.player(data.player)
        running = state.dealing.running(table)
        if player.table != table and (running is None or running.seat_of(player.id) is None):
            raise NotYours(Message("{player} is not at table {table}: a table's dealer corrects the stacks at that "
                                   "table only (the floor or the director corrects the others).",
                                   player=player.name, table=table))
    yield "stack_corrected", {"player": data.player, "stack": data.stack, "reason": data.reason}
    return gettext("Stack corrected.")


HAND_COMMANDS = ("deal", "act", "push", "oot", "undo", "redo", "award", "cards", "clock", "correct", "misdeal",
                 "ruling", "button", "time_up")
"""The words of a table's hand commands (``hand.<word>``), as the routes name them."""


def lows_of(data: Mapping[str, Any]) -> list[list[int]] | None:
    """The low half's seats of each pot (Omaha hi-lo), or None when none are given."""
    given = data.get("lows")
    if given is None:
        return None
    return [[parse_int(seat, Term("seat number"), minimum=1) for seat in pot] for pot in given]


def winners_of(data: Mapping[str, Any], pots: int) -> list[list[int]]:
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
            raise InvalidInput("Tap the winner of side pot {number}.", number=k)
    return result


def card_entries(hand: Hand, data: Mapping[str, Any]) -> list[str]:
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


# --- the same commands from code ---------------------------------------------------------------------


def draw(db: Any, tournament_id: int, expected_seq: int | None, now: float, rng: random.Random | None = None,
         size: int | None = None) -> Tournament:
    """``tables.draw`` from code (the demo, the tests)."""
    done = run(draw_command, DrawIn(table_size=size, expected_seq=expected_seq), db=db, now=now, rng=rng,
               tournament_id=tournament_id)
    state: Tournament = done.state
    return state


def apply_table_step(db: Any, tournament_id: int, expected_seq: int | None, now: float) -> Tournament:
    """``tables.confirm`` from code: record the moves shown, whatever they are."""
    state: Tournament = run(confirm_command, ConfirmIn(expected_seq=expected_seq), db=db, now=now,
                            tournament_id=tournament_id).state
    return state
