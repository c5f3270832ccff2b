"""What the cash game's pages and JSON answers show: the night's tables and seats, the
club's members, the summary, and the dealer's table (``_dealer_table.html``, shared with
the tournament's dealer page).

The pages read views built here (``CashSessionView`` as ``t``, ``ClubView``, the stakes, the
tables, the ledger), never the cash engine's state.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from flask import (
    url_for,
)

from director.cash import FIRST_BUTTON
from director.cash.store import all_sessions, club_balances, load_club, load_session
from director.core import store
from director.core.db import get_db
from director.core.i18n import gettext, ngettext
from director.core.roles import author_words
from director.core.words import number, say
from director.setup.views import dealt_game_views
from engine import cash
from engine.cash import (
    NEWCOMER_RULES,
    STAKES,
    CashSession,
    CashTable,
    Club,
    Stake,
)
from engine.errors import N_, EngineError
from engine.games import DEFAULT_GAME, GAMES

#: A seat's state on the night's page: codes the page also tests (``SeatRow.status``).
SEAT_STATUS_WORDS = (N_("in the hand"), N_("busted"), N_("free"))


@dataclass(frozen=True)
class StakeView:
    """Fixed blinds and the buy-in range they give."""

    name: str
    small_blind: int
    big_blind: int
    min_buy_in: int
    max_buy_in: int
    access_balance: int


def stake_view(stake: Stake) -> StakeView:
    return StakeView(str(stake.name), stake.small_blind, stake.big_blind, stake.min_buy_in, stake.max_buy_in,
                     stake.access_balance)


STAKE_VIEWS: tuple[StakeView, ...] = tuple(stake_view(s) for s in STAKES)
"""Every stake a session may play, lowest first."""


@dataclass(frozen=True)
class MemberView:
    """A club member or a player waiting: who, by number and name."""

    id: int
    name: str


@dataclass(frozen=True)
class CashSessionView:
    """A cash session as its pages show it (``t`` in the templates)."""

    name: str
    seq: int
    newcomers: str
    can_undo: bool
    table_count: int
    hands_dealt: int
    stakes: tuple[StakeView, ...]
    """The stakes played at the session's tables, lowest first."""
    waiting: tuple[tuple[StakeView, tuple[MemberView, ...]], ...]
    """Each stake played with its waiting list."""


def cash_session_view(state: CashSession) -> CashSessionView:
    stakes = state.stakes
    return CashSessionView(
        name=state.name, seq=state.seq, newcomers=str(state.newcomers), can_undo=state.can_undo,
        table_count=len(state.tables), hands_dealt=state.hands_dealt, stakes=tuple(stake_view(s) for s in stakes),
        waiting=tuple((stake_view(s), tuple(MemberView(w.member, w.name) for w in state.waiting_list(s)))
                      for s in stakes),
    )


@dataclass(frozen=True)
class CashTableView:
    """A cash table: its number, seats and stake."""

    number: int
    seats: int
    stake: StakeView
    game: str = ""
    """The game in words where it is not No-Limit Hold'em."""


def cash_table_view(table: CashTable) -> CashTableView:
    game = "" if table.game == DEFAULT_GAME else say(GAMES[table.game].name)
    return CashTableView(table.number, table.seats, stake_view(table.stake), game)


@dataclass(frozen=True)
class LedgerLineView:
    name: str
    bought_in: int
    cashed_out: int
    on_table: int
    net: int


@dataclass(frozen=True)
class LedgerView:
    """The session's ledger: a line a player and the totals (play chips only)."""

    lines: tuple[LedgerLineView, ...]
    bought_in: int
    cashed_out: int
    on_tables: int
    balanced: bool


def ledger_view(state: CashSession) -> LedgerView:
    ledger = state.ledger()
    return LedgerView(
        tuple(LedgerLineView(line.name, line.bought_in, line.cashed_out, line.on_table, line.net)
              for line in ledger.lines),
        ledger.bought_in, ledger.cashed_out, ledger.on_tables, ledger.balanced,
    )


@dataclass(frozen=True)
class ClubView:
    """The club as its page shows it (``t`` and ``club`` in the template)."""

    seq: int
    can_undo: bool
    members: tuple[MemberView, ...]


@dataclass(frozen=True)
class GrantView:
    amount: int
    reason: str
    at: float


@dataclass(frozen=True)
class SeatRow:
    seat: int
    member: int | None
    name: str
    stack: int
    status: str  # "", busted, waiting, in hand
    offer: str = ""
    offer_member: int | None = None


@dataclass(frozen=True)
class TableCard:
    table: CashTableView
    rows: tuple[SeatRow, ...]
    status: str


@dataclass(frozen=True)
class MemberRow:
    member: MemberView
    balance: int
    where: str
    stakes: tuple[str, ...]


def _table_card(state: CashSession, table: CashTable) -> TableCard:
    offers = {(o.table, o.seat): o for o in state.offers()}
    waiting: set[int] = set()
    if table.hand is None:
        try:
            waiting = set(cash.next_hand(state, table.number).waiting)
        except EngineError:
            waiting = set()
    rows = []
    for seat in range(1, table.seats + 1):
        p = table.player_at(seat)
        if p is None:
            offer = offers.get((table.number, seat))
            rows.append(
                SeatRow(
                    seat,
                    None,
                    "",
                    0,
                    "free",
                    offer.name if offer else "",
                    offer.member if offer else None,
                )
            )
            continue
        if table.in_hand(p.member):
            status = "in the hand"
        elif p.busted:
            status = "busted"
        elif p.newcomer or seat in waiting:
            status = (
                gettext("waits for the big blind")
                if state.newcomers == "wait"
                else gettext("new: posts or waits for the button")
            )
        else:
            status = ""
        rows.append(SeatRow(seat, p.member, p.name, p.stack, status))
    if table.hand is not None:
        hand = table.live_hand()
        street = hand.street if hand else ""
        text = gettext("Hand %(number)s in play (%(street)s)", number=table.hand.number, street=say(street))
    else:
        text = ngettext("%(num)d hand dealt", "%(num)d hands dealt", table.hands_dealt)
    return TableCard(cash_table_view(table), tuple(rows), text)


def session_context(session_id: int, **extra: Any) -> dict[str, Any]:
    db = get_db()
    state = load_session(db, session_id)
    club = load_club(db)
    held = club_balances(db)
    seated = {p.member for t in state.tables for p in t.players}
    free_places = [
        (f"{t.number}:{s}", gettext("Table %(table)s · seat %(seat)s · %(stake)s", table=t.number, seat=s,
                                    stake=t.stake.name))
        for t in state.tables
        for s in t.free_seats
    ]
    names = {**club.names(), **dict(state.names)}  # the session's own names win (a member renamed later)
    authors = store.load_authors(db, session_id)
    history = [
        (say(cash.describe(e, names)), say(author_words(authors.get(e.seq))))
        for e in reversed(store.load_events(db, session_id, after=max(0, state.seq - 12)))
    ]
    return {
        "t": cash_session_view(state),
        "session_id": session_id,
        "cards": [_table_card(state, t) for t in state.tables],
        "ledger": ledger_view(state),
        "members": [MemberView(m.id, m.name) for m in club.members if m.id not in seated],
        "all_members": [MemberView(m.id, m.name) for m in club.members],
        "balances": held,
        "free_places": free_places,
        "history": history,
        "redo_text": say(cash.describe(state.redo_event, names)) if state.redo_event else None,
        "stakes": STAKE_VIEWS,
        "games": dealt_game_views(),  # the games a cash table may play
        "newcomer_rules": NEWCOMER_RULES,
        **extra,
    }


def club_context(**extra: Any) -> dict[str, Any]:
    db = get_db()
    club = load_club(db)
    sessions = all_sessions(db)
    held = cash.balances(club, (s for _, s in sessions))
    where: dict[int, str] = {}
    for _, s in sessions:
        for t in s.tables:
            for p in t.players:
                where[p.member] = gettext("%(session)s: table %(table)s, %(chips)s in front", session=s.name,
                                          table=t.number, chips=number(p.stack))
    rows = [
        MemberRow(
            MemberView(m.id, m.name),
            held.get(m.id, 0),
            where.get(m.id, ""),
            tuple(s.name for s in STAKES if held.get(m.id, 0) >= s.access_balance),
        )
        for m in club.members
    ]
    grants = [(GrantView(g.amount, g.reason, g.at), club.member(g.member).name) for g in reversed(club.grants)]
    members = {m.name.casefold() for m in club.members}
    everyone = [r[0] for r in db.execute("SELECT name FROM people ORDER BY lower(name) LIMIT 500").fetchall()]
    redo = say(cash.describe(club.redo_event, club.names())) if club.redo_event else None
    view = ClubView(club.seq, club.can_undo, tuple(MemberView(m.id, m.name) for m in club.members))
    return {"t": view, "club": view, "rows": rows, "grants": grants[:30], "stakes": STAKE_VIEWS, "redo_text": redo,
            "people_names": [n for n in everyone if n.casefold() not in members], **extra}


def summary_data(state: CashSession, at: float) -> dict[str, Any]:
    ledger = state.ledger()
    players = []
    for line in ledger.lines:
        seconds = state.seconds_played(line.member, at)
        hands = sum(1 for h in state.hands if any(name == line.name for _, name in h.names))
        players.append(
            {
                "member": line.member,
                "name": line.name,
                "hours": round(seconds / 3600, 2),
                "hands": hands,
                "bought_in": line.bought_in,
                "cashed_out": line.cashed_out,
                "on_table": line.on_table,
                "net": line.net,
            }
        )
    biggest = state.biggest_pot
    big: dict[str, Any] | None = None
    if biggest is not None:
        names = dict(biggest.names)
        big = {
            "hand": biggest.number,
            "table": biggest.table,
            "pot": biggest.pot,
            "winners": [names[seat] if seat in names else gettext("Seat %(seat)s", seat=seat) for seat, _ in biggest.won],
            "description": say(biggest.description),
        }
    return {
        "name": state.name,
        "hands_dealt": state.hands_dealt,
        "hands_by_table": {str(t.number): t.hands_dealt for t in state.tables},
        "biggest_pot": big,
        "players": players,
        "totals": {
            "bought_in": ledger.bought_in,
            "cashed_out": ledger.cashed_out,
            "on_tables": ledger.on_tables,
            "balanced": ledger.balanced,
        },
        "play_chips_only": True,
    }


def session_json(state: CashSession, session_id: int) -> dict[str, Any]:
    ledger = state.ledger()
    return {
        "id": session_id,
        "seq": state.seq,
        "name": state.name,
        "newcomers": state.newcomers,
        "tables": [
            {
                "table": t.number,
                "seats": t.seats,
                "stake": t.stake.name,
                "game": t.game,
                "small_blind": t.stake.small_blind,
                "big_blind": t.stake.big_blind,
                "min_buy_in": t.stake.min_buy_in,
                "max_buy_in": t.stake.max_buy_in,
                "hand": t.hand.number if t.hand else None,
                "hands_dealt": t.hands_dealt,
                "players": [
                    {
                        "seat": p.seat,
                        "member": p.member,
                        "name": p.name,
                        "stack": p.stack,
                        "newcomer": p.newcomer,
                    }
                    for p in t.players
                ],
            }
            for t in state.tables
        ],
        "waiting": {
            s.name: [{"member": w.member, "name": w.name} for w in q] for s, q in state.waiting
        },
        "offers": [
            {"table": o.table, "seat": o.seat, "member": o.member, "name": o.name}
            for o in state.offers()
        ],
        "ledger": {
            "players": [
                {
                    "member": line.member,
                    "name": line.name,
                    "bought_in": line.bought_in,
                    "cashed_out": line.cashed_out,
                    "on_table": line.on_table,
                    "net": line.net,
                }
                for line in ledger.lines
            ],
            "bought_in": ledger.bought_in,
            "cashed_out": ledger.cashed_out,
            "on_tables": ledger.on_tables,
            "balanced": ledger.balanced,
            "unit": "play chips",
        },
    }


def club_json(club: Club, held: Mapping[int, int]) -> dict[str, Any]:
    return {
        "seq": club.seq,
        "members": [
            {
                "id": m.id,
                "name": m.name,
                "balance": held.get(m.id, 0),
                "stakes": [s.name for s in STAKES if held.get(m.id, 0) >= s.access_balance],
            }
            for m in club.members
        ],
        "grants": [
            {"seq": g.seq, "member": g.member, "amount": g.amount, "reason": g.reason, "at": g.at}
            for g in club.grants
        ],
        "unit": "play chips",
    }


def table_view(state: CashSession, session_id: int, table_no: int) -> Any:
    """The dealer's ``TableView`` for a cash table: fixed blinds, the session's players."""
    from director.tables import hand_view as dealer

    table = state.table(table_no)
    stake = table.stake
    common: dict[str, Any] = {
        "tournament_id": session_id,
        "table": table.number,
        "name": state.name,
        "seq": state.seq,
        "level_text": gettext("Cash %(stake)s · buy-in %(least)s–%(most)s", stake=stake.name,
                              least=number(stake.min_buy_in), most=number(stake.max_buy_in)),
        "hands_text": ngettext("%(num)d hand dealt here", "%(num)d hands dealt here", table.hands_dealt),
        "players": (),  # no stack corrections at a cash table: top up or cash out instead
    }
    last = next((h for h in reversed(state.hands) if h.table == table.number), None)
    if last is not None:
        common["last_result"] = gettext("Hand %(number)s: %(result)s", number=last.number,
                                        result=say(last.description))
        busted = [p.name for p in table.players if p.busted and p.seat in last.setup.stacks]
        common["busted_text"] = tuple(
            gettext("%(name)s has no chips left: rebuy or cash out.", name=name) for name in busted
        )
    names = {p.seat: p.name for p in table.players}
    if table.hand is None:
        problem = ""
        upcoming = None
        try:
            upcoming = cash.next_hand(state, table.number)
        except EngineError as error:
            problem = say(error)
        waiting = set(upcoming.waiting) if upcoming else set()
        first = table.positions is None  # the deal draws the first button: name no seat before it
        seats = tuple(
            dealer.SeatView(
                p.seat,
                p.member,
                p.name,
                p.stack,
                0,
                dealer._badges(None, p.seat, upcoming.positions if upcoming and not first else None),
                "waiting" if p.seat in waiting else ("out" if p.busted else ""),
            )
            for p in table.players
        )
        return dealer.TableView(
            **common,
            phase="before",
            seats=seats,
            positions_text=(
                str(FIRST_BUTTON) if upcoming and first else dealer._positions_text(upcoming.positions) if upcoming else ""
            ),
            can_deal=upcoming is not None,
            deal_problem=problem,
            can_undo=table.finished is not None,
        )
    live = table.hand
    hand = live.replay()
    rows = [(p.seat, p.member, p.name, p.stack, dealer._badges(None, p.seat, live.positions), "")
            for p in table.players]
    panel = dealer.hand_panel(hand, rows, absent=lambda seat, stack: "waiting" if stack else "out")
    return dealer.TableView(
        **common,
        **panel,
        hand_number=live.number,
        turn_name=names.get(hand.turn, "") if hand.turn else "",
        notes=tuple(gettext("Seat %(seat)s posts a big blind to come in.", seat=s) for s in live.posts),
        can_undo=True,
        can_redo=bool(live.ahead),
        positions_text=dealer._positions_text(live.positions),
    )


def table_context(session_id: int, table_no: int) -> dict[str, Any]:
    state = load_session(get_db(), session_id)
    table = state.table(table_no)
    return {
        "v": table_view(state, session_id, table_no),
        "t": cash_session_view(state),
        "session_id": session_id,
        "cash_table": cash_table_view(table),
        "dealer_base": url_for("cash.table_page", session_id=session_id, table_no=table.number),
        "waiting_note": gettext("waits for the big blind")
        if state.newcomers == "wait"
        else gettext("sits out until the button passes"),
    }


@dataclass(frozen=True)
class HandLine:
    number: int
    blinds: str
    positions: str
    players: tuple[str, ...]
    actions: tuple[str, ...]
    result: str
    finished: bool


def hand_lines(state: CashSession, table: CashTable) -> list[HandLine]:
    from director.tables import hand_history as dealer

    out = []
    records: list[tuple[int, Any, tuple[str, ...], str, bool, Any]] = [
        (h.number, h.setup, h.log, h.description, True, dict(h.names))
        for h in state.hands
        if h.table == table.number
    ]
    if table.hand is not None:
        names = {p.seat: p.name for p in table.players}
        records.append((table.hand.number, table.hand.setup, table.hand.log, "", False, names))
    for hand_number, setup, log, result, finished, names in records:
        by_seat = {s: names.get(s, "?") for s in setup.stacks}
        out.append(
            HandLine(
                hand_number,
                f"{number(setup.small_blind)}/{number(setup.big_blind)}",
                gettext("Button seat %(button)s · small blind seat %(small)s · big blind seat %(big)s",
                        button=setup.button, small=setup.small_blind_seat, big=setup.big_blind_seat)
                if setup.small_blind_seat
                else gettext("Button seat %(button)s · dead small blind · big blind seat %(big)s",
                             button=setup.button, big=setup.big_blind_seat),
                tuple(gettext("Seat %(seat)s %(name)s (%(stack)s)", seat=s, name=by_seat[s],
                              stack=number(setup.stacks[s])) for s in sorted(setup.stacks)),
                tuple(dealer.hand_lines(setup, log, by_seat)),
                say(result),
                finished,
            )
        )
    return list(reversed(out))


def table_json(state: CashSession, session_id: int, table_no: int) -> dict[str, Any]:
    view = table_view(state, session_id, table_no)
    table = state.table(table_no)
    return {
        "seq": state.seq,
        "table": table.number,
        "stake": table.stake.name,
        "phase": view.phase,
        "hand": view.hand_number,
        "street": view.street or None,
        "turn": view.turn,
        "positions": view.positions_text,
        "seats": [
            {
                "seat": s.seat,
                "member": s.player,
                "name": s.name,
                "stack": s.stack,
                "bet": s.bet,
                "badges": list(s.badges),
                "status": s.status,
            }
            for s in view.seats
        ],
        "actions": [{"kind": c.kind, "label": c.label, "amount": c.amount} for c in view.choices],
        "min_to": view.min_to,
        "max_to": view.max_to,
        "pots": [
            {"name": p.name, "amount": p.amount, "eligible": list(p.eligible)} for p in view.pots
        ],
        "showdown_order": list(view.showdown_order),
        "last_result": view.last_result or None,
        "can_deal": view.can_deal,
        "deal_problem": view.deal_problem or None,
    }


def ledger_rows(state: CashSession, at: float) -> list[list[Any]]:
    """The session's ledger as a spreadsheet's rows: a line per player, the totals, and what
    the chips are."""
    data = summary_data(state, at)
    rows: list[list[Any]] = [["player", "hours_played", "hands_played", "bought_in", "cashed_out", "on_table", "net"]]
    for p in data["players"]:
        rows.append(
            [
                p["name"],
                f"{p['hours']:.2f}",
                p["hands"],
                p["bought_in"],
                p["cashed_out"],
                p["on_table"],
                p["net"],
            ]
        )
    totals = data["totals"]
    rows.append(
        [
            "TOTAL",
            "",
            data["hands_dealt"],
            totals["bought_in"],
            totals["cashed_out"],
            totals["on_tables"],
            0,
        ]
    )
    rows.append([])
    rows.append([gettext("Play chips only: these are counts of play chips, with no money value.")])
    return rows
