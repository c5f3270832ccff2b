"""The players' database (issue "Seasons", part 1): each person once, whatever the night.

A person is a row of ``people`` (a name unique whatever its case, a nickname, a note). The
names a person has been registered under are ``person_names`` (a rename or a merge keeps the
old names there, so a night registered under one still finds the person), and each night's
player is tied to a person in ``person_entries``. A tournament keeps the name it was played
under (its events are its history); the database is where a person is renamed or merged.

Nights join the database by name (:func:`sync`): every tournament's players are matched to
people by name, case and spacing aside, and a name nobody has creates a person. The
registration form offers the people's names, and registering links the player at once.
Doubtful matches (names alike but not the same: "Ann" and "Anne") are for the host to merge:
the people page lists them.

Pages: ``/people`` (everyone, a new person, the doubtful matches), ``/people/<id>`` (a
person's nights, totals and statistics from the hands dealt with the assistant; rename,
merge). JSON twins under ``/api/people``.
"""

from __future__ import annotations

import difflib
import functools
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, TypeVar, cast

from flask import Blueprint, current_app, jsonify, request, url_for
from flask.typing import ResponseReturnValue
from markupsafe import Markup
from sqlite_utils import Database
from werkzeug.exceptions import NotFound

from director.core import inputs, shapes
from director.core.auth import login_required
from director.core.contract import Api, read
from director.core.db import get_db
from director.core.i18n import gettext, language, say
from director.core.store import cache, load_state
from director.core.web import flash_and_go, now, refusal_status, render
from director.core.work import register_cache, unit_of_work
from director.screens.charts import line_chart
from engine.bounties import bounties
from engine.errors import EngineError, IllegalAction, InvalidInput, Term
from engine.tournament import MAX_NAME, Tournament, clean_name

bp = Blueprint("people", __name__)
api = Api(bp, "people")
MAX_NOTE = 500


def name_key(name: str) -> str:
    """A name as the database matches it: case and spacing aside.

    >>> name_key("  ann  Smith "), name_key("ANN SMITH")
    ('ann smith', 'ann smith')
    """
    return " ".join(name.split()).casefold()


@contextmanager
def transaction(db: Database) -> Iterator[Any]:
    """One write to the database, all of it or nothing, one writer at a time."""
    with unit_of_work(db) as work:
        conn = work.conn
        yield conn


# --- storage ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Person:
    id: int
    name: str
    nickname: str = ""
    note: str = ""
    created_at: float = 0.0

    def as_json(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "nickname": self.nickname or None, "note": self.note or None}


def people(db: Database) -> list[Person]:
    rows = db.execute("SELECT id, name, nickname, note, created_at FROM people ORDER BY lower(name), id").fetchall()
    return [Person(*r) for r in rows]


def person(db: Database, person_id: int) -> Person:
    row = db.execute("SELECT id, name, nickname, note, created_at FROM people WHERE id = ?", (person_id,)).fetchone()
    if row is None:
        raise NotFound(gettext("There is nobody number %(number)s in the players' database.", number=person_id))
    return Person(*row)


def person_for(conn: Any, name: str, at: float) -> int:
    """The person registered under ``name``, created if nobody was (inside a transaction)."""
    key = name_key(name)
    row = conn.execute("SELECT person_id FROM person_names WHERE name_key = ?", (key,)).fetchone()
    if row is not None:
        return int(row[0])
    row = conn.execute("SELECT id FROM people WHERE lower(name) = lower(?)", (" ".join(name.split()),)).fetchone()
    if row is None:
        cursor = conn.execute("INSERT INTO people (name, nickname, note, created_at) VALUES (?, '', '', ?)",
                              (" ".join(name.split()), at))
        pid = int(cursor.lastrowid or 0)
    else:
        pid = int(row[0])
    conn.execute("INSERT OR IGNORE INTO person_names (name_key, person_id) VALUES (?, ?)", (key, pid))
    return pid


def link(conn: Any, stream_id: int, player_id: int, name: str, at: float) -> int:
    """Tie a night's player to the person of that name (inside the caller's transaction)."""
    pid = person_for(conn, name, at)
    conn.execute("INSERT OR IGNORE INTO person_entries (stream_id, player_id, person_id) VALUES (?, ?, ?)",
                 (stream_id, player_id, pid))
    return pid


def sync(db: Database) -> None:
    """Every tournament's players tied to people: the nights played before the database, and
    those changed since the last look (one transaction)."""
    from director.cash.store import CLUB  # the club's members are people too

    stale = db.execute(
        "SELECT s.id, s.last_seq, s.kind FROM streams s LEFT JOIN people_synced p ON p.stream_id = s.id "
        "WHERE s.kind IN ('tournament', 'club') AND (p.seq IS NULL OR p.seq < s.last_seq)"
    ).fetchall()
    if not stale:
        return
    found: list[tuple[int, int, list[tuple[int, str]]]] = []
    for sid, seq, kind in stale:
        if kind == "club":
            club = cache.get(db, current_app.config["DATABASE"], sid, CLUB)
            found.append((sid, seq, [(m.id, m.name) for m in club.members]))
        else:
            found.append((sid, seq, [(p.id, p.name) for p in load_state(db, sid).players]))
    at = now()
    with transaction(db) as conn:
        for sid, seq, players in found:
            for pid, name in players:
                link(conn, sid, pid, name, at)
            conn.execute("INSERT OR REPLACE INTO people_synced (stream_id, seq) VALUES (?, ?)", (sid, seq))


def entries_of(db: Database, stream_id: int) -> dict[int, int]:
    """A night's players and their people: player id -> person id."""
    rows = db.execute("SELECT player_id, person_id FROM person_entries WHERE stream_id = ?", (stream_id,)).fetchall()
    return {int(p): int(q) for p, q in rows}


def nights_of(db: Database, person_id: int) -> list[tuple[int, int]]:
    """``(tournament id, player id)`` of every night the person played, oldest first."""
    rows = db.execute(
        "SELECT e.stream_id, e.player_id FROM person_entries e JOIN streams s ON s.id = e.stream_id "
        "WHERE e.person_id = ? AND s.kind = 'tournament' ORDER BY s.created_at, s.id", (person_id,)
    ).fetchall()
    return [(int(s), int(p)) for s, p in rows]


def _clean(text: Any, what: Term, most: int) -> str:
    value = " ".join(str(text or "").split())
    if len(value) > most:
        raise InvalidInput("The {what} is at most {most} characters, not {count}.", what=what, most=str(most),
                           count=str(len(value)))
    return value


def create(db: Database, data: dict[str, Any], at: float) -> int:
    name = clean_name(data.get("name"), Term("name"))
    with transaction(db) as conn:
        if conn.execute("SELECT 1 FROM person_names WHERE name_key = ?", (name_key(name),)).fetchone() or \
                conn.execute("SELECT 1 FROM people WHERE lower(name) = lower(?)", (name,)).fetchone():
            raise IllegalAction("{name} is already in the players' database.", name=name)
        pid = person_for(conn, name, at)
        conn.execute("UPDATE people SET nickname = ?, note = ? WHERE id = ?",
                     (_clean(data.get("nickname"), Term("nickname"), MAX_NAME), _clean(data.get("note"), Term("note"), MAX_NOTE), pid))
    return pid


def edit(db: Database, person_id: int, data: dict[str, Any]) -> str:
    """Rename a person, or change the nickname or the note; the old name still finds him."""
    with transaction(db) as conn:
        old = conn.execute("SELECT name, nickname, note FROM people WHERE id = ?", (person_id,)).fetchone()
        if old is None:
            raise NotFound(gettext("There is nobody number %(number)s in the players' database.", number=person_id))
        name = clean_name(data["name"], Term("name")) if data.get("name") not in (None, "") else old[0]
        nickname = _clean(data["nickname"], Term("nickname"), MAX_NAME) if data.get("nickname") is not None else old[1]
        note = _clean(data["note"], Term("note"), MAX_NOTE) if data.get("note") is not None else old[2]
        other = conn.execute("SELECT person_id FROM person_names WHERE name_key = ?", (name_key(name),)).fetchone()
        taken = conn.execute("SELECT id FROM people WHERE lower(name) = lower(?) AND id != ?", (name, person_id)).fetchone()
        if taken is not None or (other is not None and other[0] != person_id):
            raise IllegalAction("{name} is somebody else in the players' database: merge the two instead.", name=name)
        conn.execute("UPDATE people SET name = ?, nickname = ?, note = ? WHERE id = ?", (name, nickname, note, person_id))
        conn.execute("INSERT OR IGNORE INTO person_names (name_key, person_id) VALUES (?, ?)", (name_key(name), person_id))
    if name == old[0]:
        return gettext("Saved %(name)s.", name=name)
    return gettext("Renamed %(old)s to %(name)s: every night played follows.", old=old[0], name=name)


def merge(db: Database, person_id: int, into: int) -> str:
    """Two records of one person become one (``into``): every night and name follows."""
    if person_id == into:
        raise InvalidInput("A person cannot be merged into himself: choose the other record.")
    with transaction(db) as conn:
        rows = {r[0]: r[1] for r in conn.execute("SELECT id, name FROM people WHERE id IN (?, ?)", (person_id, into))}
        for pid in (person_id, into):
            if pid not in rows:
                raise NotFound(gettext("There is nobody number %(number)s in the players' database.", number=pid))
        both = conn.execute(
            "SELECT a.stream_id FROM person_entries a JOIN person_entries b ON a.stream_id = b.stream_id "
            "WHERE a.person_id = ? AND b.person_id = ? LIMIT 1", (person_id, into)).fetchone()
        if both is not None:
            raise IllegalAction("{name} and {other} both played tournament {tournament}: they are two people.",
                                name=rows[person_id], other=rows[into], tournament=str(both[0]))
        conn.execute("UPDATE person_entries SET person_id = ? WHERE person_id = ?", (into, person_id))
        conn.execute("UPDATE person_names SET person_id = ? WHERE person_id = ?", (into, person_id))
        conn.execute("DELETE FROM people WHERE id = ?", (person_id,))
    return gettext("Merged %(name)s into %(into)s: the nights of both are %(into)s's now.", name=rows[person_id],
                   into=rows[into])


def doubtful(everyone: list[Person], limit: int = 20) -> list[tuple[Person, Person]]:
    """Pairs whose names are alike but not the same (a typo, a short form): the host decides."""
    pairs = []
    keys = [(p, name_key(p.name)) for p in everyone]
    for i, (a, ka) in enumerate(keys):
        for b, kb in keys[i + 1:]:
            first_a, first_b = ka.split()[0], kb.split()[0]
            alike = difflib.SequenceMatcher(None, ka, kb).ratio() >= 0.8
            if alike or (first_a == first_b and (len(ka.split()) == 1 or len(kb.split()) == 1)):
                pairs.append((a, b))
                if len(pairs) >= limit:
                    return pairs
    return pairs


# --- a person's nights and statistics ---------------------------------------------------


@dataclass
class NightRow:
    tournament_id: int
    name: str
    at: float
    entries: int
    place: int | None
    prize: int
    knockouts: int
    bounties: int
    finished: bool
    points: float | None = None
    """The night's points in its season (or its league points), when it has any."""


@dataclass
class HandStats:
    """From the hands dealt with the assistant."""

    hands: int = 0
    won: int = 0
    won_at_showdown: int = 0
    all_ins: int = 0
    all_ins_won: int = 0
    biggest_pot: int = 0
    biggest_with: str = ""
    """The hand that won the biggest pot, when the cards decided it."""
    biggest_where: str = ""


@dataclass
class Record:
    person: Person
    nights: list[NightRow] = field(default_factory=list)
    hands: HandStats = field(default_factory=HandStats)
    member: int | None = None
    """The cash club's member number, when the person is one."""
    balance: int | None = None
    """The member's Play Chips now."""

    @property
    def played(self) -> int:
        return len(self.nights)

    @property
    def wins(self) -> int:
        return sum(1 for n in self.nights if n.place == 1)

    @property
    def prizes(self) -> int:
        return sum(n.prize for n in self.nights)

    @property
    def knockouts(self) -> int:
        return sum(n.knockouts for n in self.nights)

    @property
    def average_place(self) -> float | None:
        placed = [n.place for n in self.nights if n.place]
        return round(sum(placed) / len(placed), 1) if placed else None

    def as_json(self) -> dict[str, Any]:
        h = self.hands
        return {
            **self.person.as_json(),
            "nights": [{"tournament": n.tournament_id, "name": n.name, "at": n.at, "entries": n.entries,
                        "place": n.place, "prize": n.prize, "knockouts": n.knockouts, "bounties": n.bounties,
                        "finished": n.finished, "points": n.points} for n in self.nights],
            "totals": {"nights": self.played, "wins": self.wins, "prizes": self.prizes, "knockouts": self.knockouts,
                       "average_place": self.average_place},
            "member": self.member, "balance": self.balance,
            "hands": {"played": h.hands, "won": h.won, "won_at_showdown": h.won_at_showdown, "all_ins": h.all_ins,
                      "all_ins_won": h.all_ins_won, "biggest_pot": h.biggest_pot, "biggest_with": h.biggest_with or None},
        }


def knockouts_by(state: Tournament) -> dict[int, int]:
    """Knockouts each player made (a split pot's knockout counts for each who split it)."""
    out: dict[int, int] = {}
    for bust in state.standings.history:
        for pid in bust.takers:
            out[pid] = out.get(pid, 0) + 1
    return out


STATS_KEPT: dict[tuple[str, int, int, int, str], HandStats] = {}
register_cache("hand statistics", STATS_KEPT.clear)
"""One night's hand statistics of a player, by (database, tournament, seq, player): replayed
once, not at every look at the person's page."""


def night_stats(tournament_id: int, state: Tournament, player: int, night: str) -> HandStats:
    key = (current_app.config["DATABASE"], tournament_id, state.seq, player, language())
    if key not in STATS_KEPT:
        if len(STATS_KEPT) > 16_384:
            STATS_KEPT.clear()
        stats = HandStats()
        hand_stats(state, player, stats, night)
        STATS_KEPT[key] = stats
    return STATS_KEPT[key]


def add_stats(total: HandStats, night: HandStats) -> None:
    total.hands += night.hands
    total.won += night.won
    total.won_at_showdown += night.won_at_showdown
    total.all_ins += night.all_ins
    total.all_ins_won += night.all_ins_won
    if night.biggest_pot > total.biggest_pot:
        total.biggest_pot, total.biggest_with, total.biggest_where = night.biggest_pot, night.biggest_with, night.biggest_where


def hand_stats(state: Tournament, player: int, stats: HandStats, night: str) -> None:
    """Add one night's hands of ``player`` (those dealt with the assistant) to ``stats``."""
    for record in state.dealing.hands:
        seat = record.seat_of(player)
        if seat is None or not record.finished:
            continue
        hand = record.replay()
        stats.hands += 1
        if any(a.seat == seat and a.all_in for a in hand.actions) or hand.is_all_in(seat):
            stats.all_ins += 1
            all_in = True
        else:
            all_in = False
        award = hand.award
        if award is None:
            continue
        won = award.won().get(seat, 0)
        if not won:
            continue
        stats.won += 1
        stats.all_ins_won += 1 if all_in else 0
        shown = any(pot.hand_name for pot in award.pots if seat in pot.winners)
        if shown or len(hand.live_seats()) > 1:
            stats.won_at_showdown += 1
        if won > stats.biggest_pot:
            stats.biggest_pot = won
            stats.biggest_with = next((p.hand_name for p in award.pots if seat in p.winners and p.hand_name), "") or ""
            stats.biggest_where = gettext("%(night)s, table %(table)s, hand %(hand)s", night=night, table=record.table,
                                           hand=record.number)


def _season_points(db: Database, rec: Record) -> None:
    """Each night's points in its season (imported nights are keyed by their negative id)."""
    from director.club.seasons import view  # the season's rules make the points
    from engine.season import night_points

    played = [n.tournament_id for n in rec.nights if n.tournament_id > 0]
    imported = [-n.tournament_id for n in rec.nights if n.tournament_id < 0]
    seasons: set[int] = set()
    for table, column, ids in (("season_nights", "stream_id", played), ("imported_nights", "id", imported)):
        if ids:
            marks = ",".join("?" * len(ids))
            seasons |= {int(r[0]) for r in db.execute(f"SELECT season_id FROM {table} WHERE {column} IN ({marks})", ids)}
    points: dict[int, float] = {}
    for season_id in seasons:
        v = view(db, season_id)
        for night in v.results:
            mine = night_points(v.rules, night).get(rec.person.id)
            if mine is not None:
                points[night.key] = mine
    for n in rec.nights:
        n.points = points.get(n.tournament_id)


def record_of(db: Database, person_id: int) -> Record:
    sync(db)
    rec = Record(person(db, person_id))
    for stream_id, player in nights_of(db, person_id):
        try:
            state = load_state(db, stream_id)
        except EngineError:
            continue
        awards, won = state.awards(), bounties(state).won
        row = db.execute("SELECT created_at FROM streams WHERE id = ?", (stream_id,)).fetchone()
        rec.nights.append(NightRow(stream_id, state.name, float(row[0]) if row else 0.0, state.entries,
                                   state.places().get(player), awards.get(player, 0), knockouts_by(state).get(player, 0),
                                   won.get(player, 0), state.finished))
        add_stats(rec.hands, night_stats(stream_id, state, player, state.name))
    for night_id, name, at, place, prize, knockouts in db.execute(
        "SELECT n.id, n.name, n.at, r.place, r.prize, r.knockouts FROM imported_results r "
        "JOIN imported_nights n ON n.id = r.night_id WHERE r.person_id = ?", (person_id,)
    ).fetchall():
        entries = db.execute("SELECT count(*) FROM imported_results WHERE night_id = ?", (night_id,)).fetchone()[0]
        rec.nights.append(NightRow(-int(night_id), str(name), float(at), int(entries), int(place), int(prize),
                                   int(knockouts), 0, True))
    rec.nights.sort(key=lambda n: (n.at, n.tournament_id))
    _season_points(db, rec)
    member = db.execute("SELECT e.player_id FROM person_entries e JOIN streams s ON s.id = e.stream_id "
                        "WHERE e.person_id = ? AND s.kind = 'club'", (person_id,)).fetchone()
    if member is not None:
        from director.cash.store import club_balances

        rec.member = int(member[0])
        rec.balance = club_balances(db).get(rec.member, 0)
    return rec


# --- who sees a person's page ---------------------------------------------------------------

PUBLIC_KEY = "people_public"


def pages_public(db: Database) -> bool:
    """Whether the players' pages are for everyone (the host's choice), not the director only."""
    row = db.execute("SELECT value FROM settings WHERE key = ?", (PUBLIC_KEY,)).fetchone()
    return row is not None and row[0] == "1"


def set_public(db: Database, public: bool) -> str:
    with transaction(db) as conn:
        conn.execute("INSERT OR REPLACE INTO settings (key, value) VALUES (?, ?)", (PUBLIC_KEY, "1" if public else "0"))
    return (gettext("The players' pages are public: anyone on the network can open them.") if public
            else gettext("The players' pages are for the director only."))


F = TypeVar("F", bound=Callable[..., Any])


def director_unless_public(view: F) -> F:
    """A person's page: anyone when the host made the pages public, else the director only."""
    guarded = login_required(view)

    @functools.wraps(view)
    def wrapped(*args: Any, **kwargs: Any) -> Any:
        if pages_public(get_db()):
            return view(*args, **kwargs)
        return guarded(*args, **kwargs)

    return cast(F, wrapped)


# --- pages ----------------------------------------------------------------------------------


def summary(db: Database) -> list[tuple[Person, int]]:
    """Everyone with the number of nights played."""
    counts: dict[int, int] = {}
    queries = ("SELECT e.person_id, count(*) FROM person_entries e JOIN streams s ON s.id = e.stream_id "
               "WHERE s.kind = 'tournament' GROUP BY e.person_id",
               "SELECT person_id, count(*) FROM imported_results GROUP BY person_id")
    for query in queries:
        for pid, n in db.execute(query).fetchall():
            counts[pid] = counts.get(pid, 0) + n
    return [(p, counts.get(p.id, 0)) for p in people(db)]


def index_page(error: str | None = None, status: int = 200, typed: dict[str, str] | None = None) -> ResponseReturnValue:
    db = get_db()
    sync(db)
    everyone = people(db)
    return render("people/index.html", "people/_list.html", rows=summary(db), doubtful=doubtful(everyone),
                  error=error, typed=typed or {}, public=pages_public(db)), status


@bp.get("/people")
@login_required
def index() -> ResponseReturnValue:
    return index_page()



@bp.post("/people/visibility")
@login_required
def visibility() -> ResponseReturnValue:
    data = read(inputs.VisibilityIn)
    return flash_and_go(set_public(get_db(), data.public), url_for("people.index"))


@bp.post("/people")
@login_required
def add() -> ResponseReturnValue:
    try:
        data = read(inputs.PersonIn)
        pid = create(get_db(), data.model_dump(), now())
    except EngineError as error:
        return index_page(say(error), refusal_status(error), request.form.to_dict())
    return flash_and_go(gettext("Added %(name)s to the players' database.", name=person(get_db(), pid).name),
                       url_for("people.index"))


def places_chart(rec: Record) -> Markup:
    """The person's place night by night (the best on top), for the nights finished."""
    placed = [n for n in rec.nights if n.place]
    if len(placed) < 2:
        return Markup("")
    return line_chart([(rec.person.name, [float(n.place or 0) for n in placed])], [str(k + 1) for k in range(len(placed))],
                      gettext("place, night by night"), invert=True,
                      title=gettext("%(name)s's places", name=rec.person.name))


def show_page(person_id: int, error: str | None = None, status: int = 200) -> ResponseReturnValue:
    db = get_db()
    rec = record_of(db, person_id)
    others = [p for p in people(db) if p.id != person_id]
    return render("people/show.html", "people/_person.html", rec=rec, others=others, error=error,
                  chart=places_chart(rec)), status


@bp.get("/people/<int:person_id>")
@director_unless_public
def show(person_id: int) -> ResponseReturnValue:
    return show_page(person_id)


@bp.post("/people/<int:person_id>")
@login_required
def save(person_id: int) -> ResponseReturnValue:
    try:
        message = edit(get_db(), person_id, read(inputs.PersonEditIn).model_dump(exclude_unset=True))
    except EngineError as error:
        return show_page(person_id, say(error), refusal_status(error))
    return flash_and_go(message, url_for("people.show", person_id=person_id))


@bp.post("/people/<int:person_id>/merge")
@login_required
def merge_page(person_id: int) -> ResponseReturnValue:
    try:
        into = read(inputs.MergeIn).into
        message = merge(get_db(), person_id, into)
    except EngineError as error:
        return show_page(person_id, say(error), refusal_status(error))
    return flash_and_go(message, url_for("people.show", person_id=into))


# --- the JSON API ---------------------------------------------------------------------------


@api.get("/api/people", summary="The players' database: everyone, with the nights each played (the director)",
         result=shapes.People, errors=())
@login_required
def api_list() -> ResponseReturnValue:
    db = get_db()
    sync(db)
    return jsonify(people=[{**p.as_json(), "nights": n} for p, n in summary(db)],
                   doubtful=[[a.id, b.id] for a, b in doubtful(people(db))])


@api.post("/api/people", summary="Add a person to the players' database", body=inputs.PersonIn,
          result=shapes.PersonRecord)
def api_create(data: inputs.PersonIn) -> ResponseReturnValue:
    pid = create(get_db(), data.model_dump(), now())
    return jsonify(record_of(get_db(), pid).as_json()), 201


@api.get("/api/people/<int:person_id>", summary="A person's nights, totals and statistics from the hands "
         "dealt with the assistant (the director, or anyone when the host made the pages public)",
         result=shapes.PersonRecord)
@director_unless_public
def api_show(person_id: int) -> ResponseReturnValue:
    return jsonify(record_of(get_db(), person_id).as_json())


@api.post("/api/people/<int:person_id>", summary="Rename a person, or change the nickname or note",
          body=inputs.PersonEditIn, result=shapes.PersonRecord, status=200)
def api_edit(person_id: int, data: inputs.PersonEditIn) -> ResponseReturnValue:
    message = edit(get_db(), person_id, data.model_dump(exclude_unset=True))
    return jsonify({**record_of(get_db(), person_id).as_json(), "notice": message})


@api.post("/api/people/<int:person_id>/merge", summary="Merge two records of one person: every night "
          "follows into the other", body=inputs.MergeIn, result=shapes.PersonRecord, status=200)
def api_merge(person_id: int, data: inputs.MergeIn) -> ResponseReturnValue:
    message = merge(get_db(), person_id, data.into)
    return jsonify({**record_of(get_db(), data.into).as_json(), "notice": message})
