"""The player's page, opened from the QR code on a seat card: no login, read-only.

``GET /p/<token>`` shows the player's table and seat (with a big notice after a move), the
clock as on the TV, players left, the player's place and prize once out, the payouts or points
and the standings; ``GET /p/<token>/live`` is the part that refreshes itself. Where the
dealer's assistant deals at the player's table the page also says when the big blind comes
(by the dead-button rule: ``engine.positions``) and the player's stack in chips and big
blinds. The token is the player's, not the seat's, so the card keeps working after every
move. A wrong or expired token gets a friendly page. Nothing here shows another player's
token or any control.
"""

from __future__ import annotations

import dataclasses
import hmac
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from flask import Blueprint, current_app, render_template, request
from flask.typing import ResponseReturnValue
from markupsafe import Markup
from werkzeug.wrappers import Response

from director.core.caches import register_cache
from director.core.db import get_db
from director.core.freshness import version
from director.core.i18n import gettext, language, ngettext
from director.core.polls import HEADER, RECHECK
from director.core.store import UnknownTournament, cache, load_state
from director.core.web import now
from director.core.words import number as chips
from director.core.words import ordinal
from director.night.views import mystery_view, night_view, player_view, prize_lines
from director.tables import MOVED_NOTICE_SECONDS
from director.tables.commands import TABLE_EVENTS, only_other_tables_since
from director.tables.views import MoveRecord, move_history, player_tokens
from engine.bounties import bounties
from engine.dealing import TABLE_EVENT_TYPES, plan_deal, stack_of
from engine.errors import EngineError
from engine.positions import Positions, hands_until_big_blind
from engine.tournament import EVENT_TYPES, Player, Tournament

#: The events that may carry a player's token: every type but the hands (see ``Tournament.tokens``).
TOKEN_EVENT_TYPES = tuple(t for t in EVENT_TYPES if t not in TABLE_EVENT_TYPES)

bp = Blueprint("player", __name__)

TOKEN_SHAPE = re.compile(r"^[A-Za-z0-9_-]{16,64}$")


@dataclass(frozen=True)
class Found:
    tournament_id: int
    state: Tournament
    player: Player


_token_streams: dict[tuple[str, str], int] = {}
"""``(database, token) -> tournament id``: a token never moves, so it is looked up once."""
register_cache("player tokens", _token_streams.clear)


def find(token: str) -> Found | None:
    """The tournament and player a token belongs to, or ``None``."""
    if not TOKEN_SHAPE.match(token):
        return None
    db = get_db()
    key = (current_app.config["DATABASE"], token)
    known_stream = _token_streams.get(key)
    if known_stream is not None:
        candidates = [known_stream]
    else:
        marks = ", ".join("?" for _ in TOKEN_EVENT_TYPES)
        rows = db.execute(
            f"SELECT DISTINCT stream_id FROM events WHERE type IN ({marks}) AND instr(payload, ?) > 0 "
            "ORDER BY stream_id DESC",
            [*TOKEN_EVENT_TYPES, token],
        ).fetchall()
        candidates = [int(row[0]) for row in rows]
    for tournament_id in candidates:
        try:
            state = load_state(db, tournament_id)
        except UnknownTournament:
            continue
        for pid, known in player_tokens(state).items():
            if hmac.compare_digest(known, token):
                _token_streams[key] = tournament_id
                return Found(tournament_id, state, state.player(pid))
    _token_streams.pop(key, None)  # an undone registration
    return None


@dataclass(frozen=True)
class TableOutlook:
    """A table where the dealer's assistant deals, as the players' pages count from it: the
    positions of the hand in play (or of the next one), and the seats with chips."""

    positions: Positions
    running: bool
    """Whether ``positions`` are those of a hand being played (else of the next deal)."""
    live: frozenset[int]
    size: int


@dataclass(frozen=True)
class Field:
    """What every player's page shows alike at one seq: computed, and the standings
    rendered, once per seq for all the phones that poll (not once per phone)."""

    seq: int
    places: dict[int, int]
    provisional: dict[int, int]
    last_moves: dict[int, MoveRecord]
    context: dict[str, Any]
    standings: dict[tuple[bool, bool], str]
    """The standings rendered, by ``(has_clock, oob)``."""
    awards: dict[int, int] = dataclasses.field(default_factory=dict)
    bounty_heads: dict[int, int] = dataclasses.field(default_factory=dict)
    """The bounty on each player's head (a bounty night)."""
    bounties_won: dict[int, int] = dataclasses.field(default_factory=dict)
    waiting_moves: dict[int, int] = dataclasses.field(default_factory=dict)
    """Players moved while their hand runs, with the table of that hand."""
    tables: dict[int, TableOutlook | None] = dataclasses.field(default_factory=dict)
    """Each table's outlook, worked out when the first phone at that table asks."""
    version: str = ""
    """The version (``director.core.freshness``) of what ``context`` shows, worked out once
    per seq: each phone's version adds only its own lines to it."""


_fields: dict[tuple[str, int, str], Field] = {}
"""By database, tournament and language: each phone reads its own language."""
register_cache("players' fields", _fields.clear)


def field_of(found: Found) -> Field:
    key = (current_app.config["DATABASE"], found.tournament_id, language())
    known = _fields.get(key)
    state = found.state
    if known is not None and known.seq == state.seq:
        return known
    places = state.places()
    provisional = state.provisional_places()
    kind = state.settings.payout_kind
    finishers = sorted(
        ((p, places.get(p.id) or provisional.get(p.id)) for p in state.players if p.out or p.id in places),
        key=lambda pair: pair[1] or 10**6,
    )
    still_in = [] if state.finished else sorted(  # once it is over (the last one standing, a deal) nobody is
        (p for p in state.alive if p.id not in places or places.get(p.id) == 1),  # still in
        key=lambda p: p.name.casefold(),
    )
    last_moves: dict[int, MoveRecord] = {}
    for move in move_history(state):
        last_moves[move.player_id] = move
    points = state.points() if kind == "points" else {}
    context = {
        "token_tournament": found.tournament_id,
        "t": night_view(state, found.tournament_id),
        "average_stack": state.average_stack,
        "prizes": [line for line in prize_lines(state) if line.amount],
        "mystery": mystery_view(state),
        "points": points,
        "point_lines": [(p.name, points[p.id]) for p in state.players if p.id in points],
        "payout_kind": kind,
        "finishers": [(player_view(p), ordinal(pl) if pl else "") for p, pl in finishers],
        "still_in": [player_view(p) for p in still_in],
        "ordinal": ordinal,
    }
    awards = state.awards() if kind != "points" else {}
    waiting = {p.id: table for p, table, _ in state.moves_waiting}
    b = bounties(state)
    new = Field(state.seq, places, provisional, last_moves, context, {}, awards, dict(b.heads), dict(b.won), waiting,
                version=version("players' field", {k: v for k, v in context.items() if not callable(v)}))
    _fields[key] = new
    return new


def standings_html(field: Field, me: Player, has_clock: bool, oob: bool) -> Markup:
    """The standings, rendered once per seq; the player's own line marked for each phone."""
    key = (has_clock, oob)
    html = field.standings.get(key)
    if html is None:
        html = render_template("_player_standings.html", has_clock=has_clock, oob=oob, **field.context)
        field.standings[key] = html
    mark = f'<li data-player="{me.id}">'
    return Markup(html.replace(mark, f'<li data-player="{me.id}" class="me">', 1))


def table_outlook(state: Tournament, table: int) -> TableOutlook | None:
    """The outlook at ``table``; None where the assistant has not dealt, or no hand can be dealt."""
    if state.dealing.current(table) is None or table not in state.seating.tables:
        return None
    live = frozenset(s for s, pid in state.seating.at_table(table).items() if stack_of(state, pid) > 0)
    if len(live) < 2:
        return None
    size = int(state.settings.table_size)
    running = state.dealing.running(table)
    if running is not None:
        return TableOutlook(running.positions, True, live, size)
    try:
        return TableOutlook(plan_deal(state, table).positions, False, live, size)
    except EngineError:  # fewer than two players with chips: no next hand to count from
        return None


def position_line(outlook: TableOutlook, seat: int) -> str:
    """``You are big blind in 3 hands``, or the player's place in the hand in play or next."""
    p = outlook.positions
    running = outlook.running
    if p.big_blind == seat:
        return gettext("You are the big blind this hand") if running else gettext("You are the big blind next hand")
    if p.small_blind == seat:
        if p.heads_up:
            return (gettext("You have the button and the small blind this hand") if running
                    else gettext("You have the button and the small blind next hand"))
        return gettext("You are the small blind this hand") if running else gettext("You are the small blind next hand")
    if p.button == seat:
        return gettext("You have the button") if running else gettext("You have the button next hand")
    hands = hands_until_big_blind(p, outlook.live, seat, outlook.size) + (0 if outlook.running else 1)
    if hands == 1:
        return gettext("You are the big blind next hand")
    return ngettext("You are big blind in %(num)d hand", "You are big blind in %(num)d hands", hands)


def big_blinds(stack: int, big_blind: int) -> str:
    """A stack in whole big blinds, or tenths below ten (never rounded up: a player with
    19,900 chips at 400/800 has not 25 big blinds but 24).

    >>> big_blinds(12_400, 400), big_blinds(19_900, 800), big_blinds(3_600, 800), big_blinds(800, 800)
    ('31', '24', '4.5', '1')
    """
    if stack >= 10 * big_blind:
        return str(stack // big_blind)
    return f"{stack * 10 // big_blind / 10:g}"


def second_chance(state: Tournament, player: int) -> str:
    """``you may still rebuy until the end of level 4``, for a player out who may come back."""
    standings, structure = state.standings, state.settings.structure
    rebuy = standings.can_rebuy(player)
    last = standings.rules.rebuy_until_level if rebuy else standings.rules.reentry_until_level
    if structure.break_after(last) is not None:
        if rebuy:
            return gettext("you may still rebuy until the end of level %(level)s and the break after it", level=last)
        return gettext("you may still re-enter until the end of level %(level)s and the break after it", level=last)
    if rebuy:
        return gettext("you may still rebuy until the end of level %(level)s", level=last)
    return gettext("you may still re-enter until the end of level %(level)s", level=last)


def prize_text(state: Tournament, shared: Field, player: int) -> str:
    """What a finisher won: ``40``, ``12 points``, or nothing."""
    if state.settings.payout_kind == "points":
        points = shared.context["points"].get(player)
        if not points:
            return ""
        return (gettext("%(points)s point", points=format(points, "g")) if points == 1
                else gettext("%(points)s points", points=format(points, "g")))
    won = shared.awards.get(player)
    return chips(won) if won else ""


def your_position(field: Field, state: Tournament, me: Player) -> str:
    """The player's position line at his table (the table's outlook worked out once per seq),
    or "" where the assistant does not deal, or while a move waits for his hand elsewhere."""
    return _position(state, me, me.id in field.waiting_moves, field.tables)


def _position(state: Tournament, me: Player, waiting: bool, outlooks: dict[int, TableOutlook | None]) -> str:
    if me.out or state.finished or me.table is None or me.seat is None or waiting:
        return ""
    if me.table not in outlooks:
        outlooks[me.table] = table_outlook(state, me.table)
    outlook = outlooks[me.table]
    return position_line(outlook, me.seat) if outlook is not None and me.seat in outlook.live else ""


def your_stack(state: Tournament, me: Player, at: float) -> tuple[str, float | None]:
    """``Your stack: 12,400 (31 BB)`` where the assistant keeps the player's stack (else ""),
    and when it goes stale without an event: the end of the level whose big blind counts it
    (None: with the next event). In a hand, the stack it started with, at that hand's blinds."""
    table = state.dealing.in_hand.get(me.id) or me.table
    if me.out or table is None or table not in state.dealing.latest:
        return "", None
    stack = stack_of(state, me.id)
    hand = state.dealing.hand_of(me.id)
    if hand is not None:
        return gettext("Your stack: %(stack)s (%(count)s BB) before this hand", stack=chips(stack),
                       count=big_blinds(stack, hand.setup.big_blind)), None
    clock = state.clock_at(at)
    level = clock.level or clock.next_level or state.settings.structure.level(state.level_at(at))
    return gettext("Your stack: %(stack)s (%(count)s BB)", stack=chips(stack),
                   count=big_blinds(stack, level.big_blind)), clock.ends_at


def live_context(found: Found, has_clock: bool, oob: bool) -> dict[str, Any]:
    field = field_of(found)
    state, me = found.state, found.player
    at = now()
    place = field.places.get(me.id) or field.provisional.get(me.id)
    # Once the player's place is known (out, or the night over) no move or seat notice is his.
    placed = me.out or state.finished or place is not None
    move = None if placed else field.last_moves.get(me.id)
    moved_recently = move is not None and at - move.at < MOVED_NOTICE_SECONDS
    stack, stale_at = your_stack(state, me, at)
    until = min(
        move.at + MOVED_NOTICE_SECONDS if moved_recently and move is not None else at + 60,
        stale_at if stale_at is not None else at + 60,
    )
    return {
        **field.context,
        "me": player_view(me),
        "bounty_head": field.bounty_heads.get(me.id, 0),
        "bounties_won": field.bounties_won.get(me.id, 0),
        "move": move,
        "moved_recently": moved_recently,
        "move_waits_at": None if placed else field.waiting_moves.get(me.id),
        "place": place,
        "place_text": ordinal(place) if place else "",
        "prize_text": prize_text(state, field, me.id) if me.id in field.places else "",
        "second_chance": second_chance(state, me.id) if me.status == "waiting" else "",
        "position_line": your_position(field, state, me),
        "stack_line": stack,
        "until": until,
        "has_clock": has_clock,
        "oob": oob,
        "standings": standings_html(field, me, has_clock, oob),
    }


def _private(response: Response) -> Response:
    response.headers["Cache-Control"] = "private, no-store"
    response.headers["Referrer-Policy"] = "no-referrer"
    response.headers["X-Robots-Tag"] = "noindex"
    return response


def _invalid() -> ResponseReturnValue:
    return _private(Response(render_template("player_invalid.html"), status=404, mimetype="text/html"))


def _phone_clock(tournament_id: int) -> Any:
    if "tv.phone" not in current_app.view_functions:
        return None
    from director.screens.tv import phone_clock

    return phone_clock(tournament_id)


@bp.get("/p/<token>")
def page(token: str) -> ResponseReturnValue:
    found = find(token)
    if found is None:
        return _invalid()
    clock = _phone_clock(found.tournament_id)
    body = render_template("player.html", token=token, clock=clock, **live_context(found, clock is not None, False))
    return _private(Response(body, mimetype="text/html"))


@bp.get("/p/<token>/live")
def live(token: str) -> ResponseReturnValue:
    found = find(token)
    if found is None:
        return _invalid()
    has_clock = "tv.phone" in current_app.view_functions
    context = live_context(found, has_clock, True)
    body = render_template("_player_live.html", token=token, **context)
    response = _private(Response(body, mimetype="text/html"))
    # The same answer until the next event (or until the move notice is due to go, or the
    # level whose big blind counts the stack ends): the polls in between are answered by
    # ``director.polls`` without the app.
    response.headers[HEADER] = f"{found.tournament_id} {found.state.seq} {context['until']}"
    request.environ[RECHECK] = still_right(found, page_version(field_of(found), context))
    return response


def page_version(field: Field, context: dict[str, Any]) -> str:
    """The version of a player's live part (``director.core.freshness``): everything it is
    drawn from but the time its answer may be kept until; what every phone shows alike
    counted by the field's own version, worked out once."""
    return version("player live", {"field": field.version, **{
        k: v for k, v in context.items() if k != "until" and k not in field.context}})


def still_right(found: Found, shown: str) -> Callable[[int, int], int | None]:
    """How the polls' cache tells that this phone's answer, made at one seq, is still right at
    a later one: since then only play at the tables (no seat, clock or registration), the
    standings as they were (a bust anywhere moves every phone's standings), and the player's
    own lines (stack, position, a move waiting for his hand) as they were. A 30-table night's
    bets then leave the phones' answers as they are, instead of making each one again after
    every bet at every table.

    Most checks cost a few lookups and no request: the state this process keeps is at the
    stream's last seq, nothing but play at a table came since (:func:`quiet_since`, worked
    out once for every phone), the standings are the same object, and the hands the player's
    own lines are made from are the same (:func:`own_mark`). Where this process's state is
    behind the stream, it is brought up to it first, in a request like the phone's, and the
    same is asked of it. Where the player's own lines may have moved, the whole part is
    worked out again and its version compared with the version of the part the phone holds
    (``shown``): a move at the award of a broken table's last hand is seen there."""
    app = current_app._get_current_object()  # type: ignore[attr-defined]
    database = app.config["DATABASE"]
    tournament_id, state, player = found.tournament_id, found.state, found.player.id
    standings, mark = state.standings, own_mark(state, player)
    has_clock = "tv.phone" in app.view_functions
    # The lines are compared in the words they were made in: the check runs in a request like
    # the phone's (its path and headers: its language), without its body or Flask's own objects.
    asked = {k: v for k, v in request.environ.items() if not k.startswith(("werkzeug.", "wsgi.input", "poker_"))}

    def check(since: int, last: int) -> int | None:
        nonlocal standings, mark
        kept = cache.peek(database, tournament_id)
        if (kept is not None and kept.seq == last and kept.standings is standings
                and own_mark(kept, player) == mark and quiet_since(database, tournament_id, kept, since)):
            return last
        with app.request_context(asked):
            later = load_state(get_db(), tournament_id)
            if later.seq == since:
                return since
            if later.standings != standings or not quiet_since(database, tournament_id, later, since):
                return None
            later_mark = own_mark(later, player)
            if later_mark != mark:
                later_found = Found(tournament_id, later, later.player(player))
                if page_version(field_of(later_found), live_context(later_found, has_clock, True)) != shown:
                    return None
            standings, mark = later.standings, later_mark
            return int(later.seq)

    return check


def own_mark(state: Tournament, player: int) -> tuple[Any, ...]:
    """What a player's own lines are made from, between two events that are play at a table:
    the player's seat, the table of the hand he is dealt into, his chips won and lost, the
    latest hand at each of those tables (which hand, and whether it is over), and the clock's
    events (where the levels are counted in hands, every hand that ends anywhere moves the
    level, and the big blinds his stack is counted in). While it is the same, so are the
    stack and position lines: the stack changes when a hand of his ends, the
    position when a hand at his table starts or ends, or when the players seated there
    change (a broken table's players arrive once their last hand there is awarded: they
    move the next hand's button and blinds). The time's own part (a timed level that ends)
    is the answer's ``until``."""
    seating, dealing = state.seating, state.dealing
    place = seating.place_of(player)
    in_hand = dealing.in_hand.get(player)
    tables = sorted({t for t in (place[0] if place is not None else None, in_hand) if t is not None})
    hands = tuple((t, h.started_seq, h.finished) if (h := dealing.latest.get(t)) else (t, None) for t in tables)
    seated = tuple((t, tuple((s, p, dealing.in_hand.get(p)) for s, p in sorted(seating.at_table(t).items())))
                   for t in tables if t in seating.tables)
    return place, in_hand, dealing.net_of(player), hands, seated, state.clock_events


_quiet: dict[tuple[str, int], tuple[int, int, int]] = {}
"""By database and tournament: the seq the walk of the events started after, the seq it has
walked to, and the last event in between that was not play at a table (the start where none
was)."""
register_cache("quiet stretches", _quiet.clear)


def quiet_since(database: str, tournament_id: int, state: Tournament, since: int) -> bool:
    """Whether every event after ``since`` up to ``state`` is play at a table (see
    ``only_other_tables_since``), told from one walk of the night's new events that every
    phone shares (each phone walking the events since its own last poll cost a club night at
    ten times the pace 300,000 checks a second). A question from before the walk's start, or
    from a state behind it, walks its own events."""
    key = (database, tournament_id)
    start, walked, loud = _quiet.get(key, (since, since, since))
    if since < start or walked > state.seq:
        return only_other_tables_since(state, since, 0)
    if walked < state.seq:
        later = state.events_since(walked)
        if later is None or len(later) != state.seq - walked:  # events undone since: the walk starts again
            _quiet[key] = (state.seq, state.seq, state.seq)
            return only_other_tables_since(state, since, 0)
        loud = next((e.seq for e in reversed(later) if e.type not in TABLE_EVENTS), loud)
        _quiet[key] = (start, state.seq, loud)
    return loud <= since
