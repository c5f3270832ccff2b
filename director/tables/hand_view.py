"""What a table's dealer page shows, worded and formatted: the seats with their stacks and
badges, whose turn, only the legal actions with their amounts, the pots, the showdown, the
table's accidents and what the director must know (a bust, a move, the balancing); and the
same as JSON (``table_json``). The dealer's commands are ``director.tables.commands``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from flask_babel import lazy_gettext

from director.core.i18n import gettext, ngettext
from director.core.words import chips as _amount
from director.core.words import number, ordinal, say
from director.night.views import colour_view
from director.screens.clock_words import shows_games
from director.tables.offline import hand_data
from director.tables.views import table_step
from engine import dealing
from engine.dealing import ChipCheck, TableHand, chip_check, plan_deal, stack_of
from engine.errors import N_, EngineError
from engine.games import DEFAULT_GAME, GAMES, dealer_choices, game_of
from engine.hand import Hand
from engine.hand_setup import (
    FIXED_LIMIT,
    OMAHA,
    OMAHA5,
    OMAHA_HILO,
    POT_LIMIT,
    SPLIT_GAMES,
    LegalActions,
)
from engine.rulings import substantial_action
from engine.seating import needs_break
from engine.tournament import Tournament, refuse_past_hand_cap

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
    status: str = ""  # turn, folded, all-in, waiting, arriving, out
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
    game_text: str = ""
    """The hand's game and what its betting allows (empty for No-Limit Hold'em)."""
    betting: str = "no-limit"
    split: bool = False
    """Omaha hi-lo: each pot is awarded high and low."""
    game_choices: tuple[tuple[str, str], ...] = ()
    """A dealer's choice level: the games (key, name) the dealer picks this hand's from."""
    hole_example: str = ""
    """An example of the game's hole cards for the card fields, where it deals more than two."""
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
    dealer_corrects: bool = False
    """The director allows a table's dealer to correct a stack (the settings)."""
    balancing: tuple[str, ...] = ()
    balancing_kind: str = ""
    """What the moves are: ``balance`` (a player moves to even the tables), ``break`` (a table
    breaks) or ``final_table`` (everyone left redraws for a seat at the final table)."""
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
    hand_data: dict[str, Any] | None = None
    """The running hand's setup and log, for the phone to go on while the laptop does not
    answer (``director.tables.offline``)."""


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
    structure = state.settings.structure
    if clock.level_number is not None and shows_games(structure):
        text = gettext("%(level)s · %(game)s", level=text, game=say(GAMES[structure.level(clock.level_number).game].name))
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


def _quick_amounts(legal: LegalActions, low: int, high: int) -> tuple[Choice, ...]:
    """Min raise, ½ pot, pot, as "to" amounts: the engine's (``LegalActions.half_pot_to`` and
    ``pot_to``), each worked out from the whole pot after the call, then brought within the
    legal range (the minimum raise … the all-in, or the pot limit's most). One that comes to
    the player's all-in says "All-in" with the amount; one that comes to the minimum is the
    minimum's button."""
    out: list[Choice] = [Choice("raise", gettext("Min %(amount)s", amount=_amount(low)), low)]
    for half, to in ((True, legal.half_pot_to), (False, legal.pot_to)):
        if to is None or not low < to <= high or any(c.amount == to for c in out):
            continue
        if to == legal.all_in_amount:
            label = gettext("All-in %(amount)s", amount=_amount(to))
        else:
            label = (gettext("½ pot %(amount)s", amount=_amount(to)) if half
                     else gettext("Pot %(amount)s", amount=_amount(to)))
        out.append(Choice("raise", label, to))
    if high != low and high == legal.all_in_amount:
        out.append(Choice("allin", gettext("All-in %(amount)s", amount=_amount(high)), high))
    return tuple(out)


def _game_text(hand: Hand, legal: LegalActions) -> str:
    """The hand's game where it is not No-Limit Hold'em, with what its betting allows:
    "Limit Hold'em · bets of 40 · 2 raises left", "Pot-Limit Omaha · the most is the pot, 105",
    and where the player's all-in is less than the pot, the pot (the bet or raise "to" its size,
    the *Pot* button's amount had the player the chips) and apart the most they can put in:
    "Pot-Limit Omaha · pot 19,700 · the most seat 4 can bet: 19,400 (all-in)"."""
    setup = hand.setup
    game = game_of(setup.betting, setup.game)
    if game is None or game.key == DEFAULT_GAME:
        return ""
    name = say(game.name)
    if setup.betting == FIXED_LIMIT:
        bet = hand.min_raise_increment
        if legal.raises_left is None:
            return gettext("%(game)s · bets of %(bet)s · no cap: two players left", game=name, bet=_amount(bet))
        return ngettext("%(game)s · bets of %(bet)s · %(num)d raise left",
                        "%(game)s · bets of %(bet)s · %(num)d raises left",
                        legal.raises_left, game=name, bet=_amount(bet))
    pot, most = legal.pot_raise_to, legal.max_bet_or_raise_to
    if setup.betting == POT_LIMIT and pot is not None and most is not None:
        if most == pot:
            return gettext("%(game)s · the most is the pot, %(amount)s", game=name, amount=_amount(pot))
        # The most is less than the pot (the player's all-in), or the minimum raise is more.
        words = {"game": name, "pot": _amount(pot), "seat": legal.seat, "most": _amount(most)}
        if most == legal.all_in_amount:
            return (gettext("%(game)s · pot %(pot)s · the most seat %(seat)s can bet: %(most)s (all-in)", **words)
                    if legal.raise_word == "bet" else
                    gettext("%(game)s · pot %(pot)s · the most seat %(seat)s can raise to: %(most)s (all-in)", **words))
        return (gettext("%(game)s · pot %(pot)s · the most seat %(seat)s can bet: %(most)s", **words)
                if legal.raise_word == "bet" else
                gettext("%(game)s · pot %(pot)s · the most seat %(seat)s can raise to: %(most)s", **words))
    return name


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
            quick = _quick_amounts(legal, low, high)
        elif high < legal.all_in_amount:  # a fixed limit's one bet or raise
            label = (gettext("Raise to %(amount)s", amount=_amount(high)) if legal.raise_word == "raise"
                     else gettext("Bet %(amount)s", amount=_amount(high)))
            choices.append(Choice(legal.raise_word, label, high, "primary"))
        if high == legal.all_in_amount:
            choices.append(Choice("allin", gettext("All-in %(amount)s", amount=_amount(high)), high, "allin"))
    return {
        "choices": tuple(choices),
        "raise_word": legal.raise_word,
        "min_to": low,
        "max_to": high,
        "quick": quick,
        "game_text": _game_text(hand, legal),
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
        "dealer_corrects": state.settings.dealer_corrects,
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
            common["colour_lines"] = here.lines
    seated = state.seating.at_table(table) if table in state.seating.tables else {}
    at_table = seated or dict(running.players) if running is not None else seated  # a breaking table: its hand's
    common["players"] = tuple((pid, names.get(pid, "?"), stack_of(state, pid)) for _, pid in sorted(at_table.items()))
    if record is not None and record.finished:
        common["last_result"] = gettext("Hand %(number)s: %(result)s", number=record.number,
                                        result=say(record.result))
        common["busted_text"] = bust_lines(state, record, at)
    if running is None:
        return _before_view(state, table, seated, names, common, record, at)
    hand = running.hand()
    rows = [(seat, pid, names.get(pid, "?"), stack_of(state, pid), _badges(running, seat, running.positions),
             _pending_text(running, seat)) for seat, pid in sorted((*running.players, *running.waiting))]
    panel = hand_panel(hand, rows, absent=lambda seat, stack: "waiting")
    turn = hand.turn
    live = set(hand.live_seats())
    betting = panel["phase"] == "betting"
    return TableView(
        **common,
        **panel,
        hand_number=running.number,
        turn_name=names.get(dict(running.players).get(turn or 0, 0), "") if turn else "",
        can_muck=tuple(s for s in hand.showdown_order() if _may_muck(hand, s)) if not betting else (),
        notes=_last_notes(running),
        can_undo=True,
        can_redo=bool(running.ahead),
        oot_seats=tuple(s for s in hand.seats if s in live and s != turn and not hand.is_all_in(s)) if betting else (),
        positions_text=_positions_text(running.positions),
        rulings=tuple(say(r.line) for r in running.rulings),
        substantial=say(substantial_action(hand) or ""),
        button_seats=tuple(s for s, _ in running.players if s != running.setup.button),
        hand_data=hand_data(running, names) if betting else None,
        **_clock_view(state, table, turn, at),
        **_balancing(state, table, running=True),
    )


def _pending_text(running: TableHand, seat: int) -> str:
    pending = running.pending_for(seat)
    return gettext("Out of turn: %(action)s", action=say(pending.describe())) if pending else ""


SeatRow = tuple[int, int | None, str, int, tuple[str, ...], str]
"""A seat at a hand's table: seat, player (or member), name, stack when not in the hand,
badges (button, blinds), a note (an action out of turn held)."""


def hand_panel(hand: Hand, rows: Iterable[SeatRow], absent: Callable[[int, int], str]) -> dict[str, Any]:
    """What both games' dealer panels show of a hand in play: each seat with its stack, bet
    and status (``absent`` says what a seat not dealt in is: waiting, out), the phase, the
    board, whose turn, the pots (each with the seats still in that may win it) and, while
    betting, the action pad."""
    bets, stacks, live = hand.bets(), hand.stacks(), set(hand.live_seats())
    showdown = hand.street == "showdown"
    order = hand.showdown_order()

    def status(seat: int, stack: int) -> str:
        if seat not in stacks:
            return absent(seat, stack)
        if seat == hand.turn:
            return "turn"
        if seat not in live:
            return "mucked" if showdown and seat in order else "folded"
        return "all-in" if hand.is_all_in(seat) else ""

    seats = tuple(SeatView(seat, who, name, stacks.get(seat, stack), bets.get(seat, 0), badges, status(seat, stack), note)
                  for seat, who, name, stack, badges, note in rows)
    pots = tuple(PotView(i, pot_name(i), p.amount, tuple(s for s in p.eligible if s in live) or p.eligible)
                 for i, p in enumerate(hand.pots()))
    return {
        "phase": "showdown" if showdown else "betting",
        "seats": seats,
        "street": hand.street,
        "board": " ".join(str(c) for c in hand.board),
        "turn": hand.turn,
        "pots": pots,
        "bets_total": sum(bets.values()),
        "showdown_order": order,
        "all_face_up": hand.all_hands_face_up,
        "live": tuple(s for s in hand.seats if s in live),
        "betting": hand.setup.betting,
        "split": hand.setup.game in SPLIT_GAMES,
        "hole_example": HOLE_EXAMPLES.get(hand.setup.game, ""),
        **({} if showdown else _betting_view(hand)),
    }


HOLE_EXAMPLES = {OMAHA: "AsKdQhJc", OMAHA5: "AsKdQhJc9s", OMAHA_HILO: "As2dQhJc"}
"""A hand of each game that deals more than two hole cards, as the card fields' example."""


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
    common: dict[str, Any], record: TableHand | None, at: float,
) -> TableView:
    problem = ""
    plan = None
    if state.finished:
        problem = gettext("The tournament is over.")
    elif not state.started:
        problem = gettext("The director starts the clock before the first hand.")
    else:
        try:
            refuse_past_hand_cap(state, at)
            dealing.refuse_play_at_broken(state, table)
            plan = plan_deal(state, table)
            dealing.refuse_undealt_game(state, at)
            dealing.refuse_deal_before_moves(state, table)
        except EngineError as error:
            problem = say(error)
        late = dealing.h4h_waiting_for(state, table)
        if late and not problem:
            problem = gettext("Hand for hand: waiting for table %(tables)s to finish.",
                              tables=", ".join(str(t) for t in late))
        clock = state.clock_at(at)
        if clock.on_break and not problem:
            problem = gettext("It is the break.")
    waiting = {s for s, _ in plan.waiting} if plan else set()
    # A player moved here who is still finishing a hand at the old table: not dealt in yet,
    # the stack not known until that hand is over (issue 31: listed as seated, with a stack).
    arriving = {p.id: old for p, old, _ in state.moves_waiting if p.table == table}
    seats = tuple(
        SeatView(
            seat, pid, names.get(pid, "?"), stack_of(state, pid), 0,
            _badges(None, seat, plan.positions if plan else None),
            "arriving" if pid in arriving else "waiting" if seat in waiting else "",
            gettext("finishing a hand at table %(table)s: dealt in once it is over", table=arriving[pid])
            if pid in arriving else "",
        )
        for seat, pid in sorted(seated.items())
    )
    game_choices: tuple[tuple[str, str], ...] = ()
    level = state.clock_at(at).level_number if state.started else None
    structure = state.settings.structure
    if level is not None and GAMES[structure.level(level).game].choice:
        game_choices = tuple((g.key, say(g.name)) for g in dealer_choices(structure.choices))
    return TableView(
        **common,
        phase="before",
        seats=seats,
        game_choices=game_choices,
        positions_text=_positions_text(plan.positions) if plan else "",
        can_deal=plan is not None and not problem,
        deal_problem=problem,
        **_balancing(state, table),
        can_undo=False,
    )


def _balancing(state: Tournament, table: int, running: bool = False) -> dict[str, Any]:
    """The moves due now that take a player to or from here, as the director has still to
    confirm them (``balancing``): which tables and how many players, never a seat, since a
    seat is told once it is recorded (the director may still swap or move by hand, and the
    table's phone then says "arriving" and "moves to"); ``balancing_kind`` says what they are
    (a table break, the final table's draw or balancing). Moves recorded while a hand here
    runs are told with their seats: its players move once it is over. While a hand runs, only
    a table break or the final table is said of the moves still to record."""
    after_hand = tuple(
        gettext("After this hand at table %(from_table)s: %(name)s moves to table %(table)s seat %(seat)s",
                from_table=table, name=p.name, table=p.table, seat=p.seat)
        for p, old, _ in sorted(state.moves_waiting, key=lambda m: (m[0].table or 0, m[0].seat or 0)) if old == table)
    if table in state.breaking_tables:
        return {"balancing": (gettext("Table %(table)s breaks after this hand", table=table), *after_hand),
                "balancing_kind": "break"}
    seating = state.seating
    announced = len(seating) <= seating.table_size or needs_break(seating) == table
    if len(seating.tables) < 2 or (running and not announced):
        return {"balancing": after_hand, "balancing_kind": "balance"} if after_hand else {}
    try:
        step = table_step(state)
    except EngineError:
        return {}
    leaving: dict[int, int] = {}
    coming: dict[int, int] = {}
    for m in step.moves:
        if m.from_table == table:
            leaving[m.to_table] = leaving.get(m.to_table, 0) + 1
        elif m.to_table == table:
            coming[m.from_table] = coming.get(m.from_table, 0) + 1
    lines: list[str] = []
    if step.action == "final_table" and (leaving or coming):
        lines.append(gettext("Final table: the director is about to draw its seats."))
    elif step.action == "break" and leaving:
        lines.append(ngettext(
            "Table break: this table breaks, and the director is about to give its player a new seat.",
            "Table break: this table breaks, and the director is about to give its %(count)s players new seats.",
            sum(leaving.values()), count=sum(leaving.values())))
    else:
        for to_table, count in sorted(leaving.items()):
            lines.append(ngettext("Balancing: the director is about to move a player from here to table %(table)s.",
                                  "Balancing: the director is about to move %(count)s players from here to table %(table)s.",
                                  count, count=count, table=to_table))
        for from_table, count in sorted(coming.items()):
            lines.append(
                ngettext("Table break: the director is about to seat a player here from table %(table)s.",
                         "Table break: the director is about to seat %(count)s players here from table %(table)s.",
                         count, count=count, table=from_table) if step.action == "break" else
                ngettext("Balancing: the director is about to move a player here from table %(table)s.",
                         "Balancing: the director is about to move %(count)s players here from table %(table)s.",
                         count, count=count, table=from_table))
    if after_hand:
        return {"balancing": (*lines, *after_hand), "balancing_kind": step.action if lines else "balance"}
    return {"balancing": tuple(lines), "balancing_kind": step.action} if lines else {}


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
        "game_text": view.game_text or None,
        "game_choices": [key for key, _ in view.game_choices],
        "rulings": list(view.rulings),
        "substantial_action": view.substantial or None,
        "on_the_clock": None if view.clock_seat is None else {"seat": view.clock_seat, "seconds_left": view.clock_left},
    }

