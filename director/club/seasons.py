"""Seasons (issue "Seasons", part 2): tournaments grouped, with points by the season's rules
(``engine.season``) and the standings across the nights.

A season is a row of ``seasons`` (its name unique whatever the case, its rules as
``engine.season.rules_to_dict`` writes them); its nights are rows of ``season_nights`` (a
tournament is in one season at most; one night may be the final, its points multiplied).
The standings count the finished nights, each player being a person of the players'
database (``director.people``), so a night played under another spelling counts once merged.

Creating a season, changing it, counting a night in it and no longer counting one are
registered commands (``club.season.create``, ``club.season.edit``, ``club.season.night.add``,
``club.season.night.remove``: ``director.core.commands``), run by the pages and the JSON API
alike; :func:`night_added` counts a night inside another command's unit of work (a
tournament created in its season).

Pages: ``/seasons`` (the seasons, a new one), ``/seasons/<id>`` (standings, nights, rules),
``/seasons/<id>/tv`` (the standings on the TV, between tournaments), ``/seasons/<id>/print``
and ``/seasons/<id>.csv``. JSON twins under ``/api/seasons``.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from babel.numbers import get_decimal_symbol
from flask import Blueprint, current_app, jsonify, request, url_for
from flask.typing import ResponseReturnValue
from markupsafe import Markup
from sqlite_utils import Database
from werkzeug.exceptions import NotFound

from director.club import shapes as club_shapes
from director.club.people import entries_of, knockouts_by, people, sync
from director.core import inputs
from director.core.auth import login_required
from director.core.caches import register_cache
from director.core.commands import Call, api_route, command, page_route, perform, run
from director.core.contract import Api, read
from director.core.db import get_db
from director.core.freshness import poll_answer
from director.core.i18n import gettext, language, ngettext
from director.core.spreadsheets import csv_response
from director.core.store import load_state
from director.core.web import flash_and_go, now, refusal_status, render
from director.core.words import number, ordinal, say
from director.core.work import Work
from director.screens.charts import line_chart
from engine.bounties import bounties
from engine.errors import EngineError, IllegalAction, InvalidInput, Term
from engine.season import (
    FORMULAS,
    TIE_BREAK,
    Night,
    SeasonRules,
    Standing,
    custom_text,
    rules_from_dict,
    rules_to_dict,
    running_points,
)
from engine.season import standings as season_standings
from engine.tournament import Tournament, clean_name

bp = Blueprint("seasons", __name__)
api = Api(bp, "seasons")
MAX_SEASONS = 100


@dataclass(frozen=True)
class NightInfo:
    tournament_id: int
    """The tournament's id; negative for a night imported from CSV (it has no tournament)."""
    name: str
    at: float
    final: bool
    finished: bool
    entries: int


@dataclass(frozen=True)
class SeasonView:
    id: int
    name: str
    rules: SeasonRules
    nights: tuple[NightInfo, ...]
    rows: tuple[Standing, ...]
    names: dict[int, str]
    results: tuple[Night, ...] = ()
    """The finished nights' results, in date order (what the standings are made of)."""

    @property
    def counted_nights(self) -> tuple[NightInfo, ...]:
        return tuple(n for n in self.nights if n.finished)

    def as_json(self) -> dict[str, Any]:
        return {
            "id": self.id, "name": self.name, "rules": rules_to_dict(self.rules), "tie_break": TIE_BREAK,
            "nights": [{"tournament": n.tournament_id, "name": n.name, "at": n.at, "final": n.final,
                        "finished": n.finished, "entries": n.entries} for n in self.nights],
            "standings": [{"rank": r.rank, "person": r.person, "name": self.names.get(r.person, "?"),
                           "points": r.points, "nights": r.nights, "wins": r.wins, "best": r.best,
                           "movement": r.movement, "knockouts": r.knockouts, "prizes": r.prizes,
                           "by_night": {str(k): v for k, v in r.by_night.items()}, "counted": list(r.counted)}
                          for r in self.rows],
        }


@dataclass(frozen=True)
class RulesView:
    """A season's rules as its pages show them."""

    formula: str
    knockout_points: float
    bounty_points: float
    playing_bonus: float
    best_n: int
    final_multiplier: float


@dataclass(frozen=True)
class StandingRow:
    """A player's line of the standings."""

    rank: int
    person: int
    points: float
    nights: int
    wins: int
    best: float
    counted: tuple[int, ...]
    """The nights (keys) that count, of those played."""
    by_night: dict[int, float]
    movement: int | None
    knockouts: int


@dataclass(frozen=True)
class SeasonPage:
    """A season as its pages show it (``s`` in the templates): the rules, the nights, the standings."""

    id: int
    name: str
    rules: RulesView
    nights: tuple[NightInfo, ...]
    counted_nights: tuple[NightInfo, ...]
    rows: tuple[StandingRow, ...]
    names: dict[int, str]
    result_count: int
    """How many finished nights the standings are made of."""


def season_page(v: SeasonView) -> SeasonPage:
    r = v.rules
    return SeasonPage(
        id=v.id, name=v.name,
        rules=RulesView(str(r.formula), r.knockout_points, r.bounty_points, r.playing_bonus, r.best_n,
                        r.final_multiplier),
        nights=v.nights, counted_nights=v.counted_nights,
        rows=tuple(StandingRow(s.rank, s.person, s.points, s.nights, s.wins, s.best, tuple(s.counted),
                               dict(s.by_night), s.movement, s.knockouts) for s in v.rows),
        names=dict(v.names), result_count=len(v.results),
    )


#: The points formulas and the tie-break, by their English words (the message ids the pages say).
FORMULA_WORDS: dict[str, str] = {key: str(words) for key, words in FORMULAS.items()}
TIE_BREAK_WORDS = str(TIE_BREAK)


# --- storage ------------------------------------------------------------------------------


def seasons(db: Database) -> list[tuple[int, str, int]]:
    """``(id, name, nights)`` of every season, by name: its tournaments and its imported nights."""
    rows = db.execute(
        "SELECT s.id, s.name, (SELECT count(*) FROM season_nights n WHERE n.season_id = s.id) "
        "+ (SELECT count(*) FROM imported_nights i WHERE i.season_id = s.id) FROM seasons s "
        "ORDER BY lower(s.name), s.id"
    ).fetchall()
    return [(int(a), str(b), int(c)) for a, b, c in rows]


def _season_row(db: Database, season_id: int) -> tuple[str, SeasonRules]:
    row = db.execute("SELECT name, rules FROM seasons WHERE id = ?", (season_id,)).fetchone()
    if row is None:
        raise NotFound(gettext("There is no season %(number)s.", number=season_id))
    return str(row[0]), rules_from_dict(json.loads(row[1]))


def _rules(data: dict[str, Any]) -> SeasonRules:
    return rules_from_dict({k: data.get(k) for k in ("formula", "custom", "knockout_points", "bounty_points",
                                                      "playing_bonus", "best_n", "final_multiplier")})


def _save(work: Work, data: inputs.SeasonIn, at: float, season_id: int | None) -> tuple[int, str]:
    """Create a season (``season_id`` None) or change one's name and rules."""
    fields = data.model_dump()
    name = clean_name(fields.get("name"), Term("season's name"))
    rules = json.dumps(rules_to_dict(_rules(fields)))
    conn = work.conn
    taken = conn.execute("SELECT name FROM seasons WHERE lower(name) = lower(?) AND id IS NOT ?",
                         (name, season_id)).fetchone()
    if taken is not None:
        raise IllegalAction("A season named {name} already exists: choose another name.", name=repr(taken[0]))
    if season_id is None:
        if conn.execute("SELECT count(*) FROM seasons").fetchone()[0] >= MAX_SEASONS:
            raise IllegalAction("There are {count} seasons already.", count=MAX_SEASONS)
        cursor = conn.execute("INSERT INTO seasons (name, created_at, rules) VALUES (?, ?, ?)", (name, at, rules))
        return int(cursor.lastrowid or 0), gettext("Season %(name)s created: add its nights.", name=repr(name))
    if conn.execute("UPDATE seasons SET name = ?, rules = ? WHERE id = ?", (name, rules, season_id)).rowcount == 0:
        raise NotFound(gettext("There is no season %(number)s.", number=season_id))
    return season_id, gettext("Saved the season %(name)s: the standings follow the new rules.", name=repr(name))


@command("club.season.create", inputs.SeasonIn, "Create a season and its points rules")
def create_command(work: Work, call: Call, data: inputs.SeasonIn) -> tuple[int, str]:
    """A new season: its id, and what was done."""
    return _save(work, data, call.now, None)


@command("club.season.edit", inputs.SeasonIn, "Change a season's name and points rules")
def edit_command(work: Work, call: Call, data: inputs.SeasonIn) -> tuple[int, str]:
    """The path's season renamed, its rules changed: the standings follow."""
    return _save(work, data, call.now, int(call.ids["season_id"]))


@command("club.season.night.add", inputs.SeasonNightIn, "Count a tournament as a night of the season "
         "(optionally its final)")
def night_command(work: Work, call: Call, data: inputs.SeasonNightIn) -> str:
    return night_added(work.conn, int(call.ids["season_id"]), data.tournament, data.final)


@command("club.season.night.remove", inputs.Write, "Stop counting a tournament in the season")
def remove_command(work: Work, call: Call, data: inputs.Write) -> str:
    season_id, tournament_id = int(call.ids["season_id"]), int(call.ids["tournament_id"])
    if work.execute("DELETE FROM season_nights WHERE season_id = ? AND stream_id = ?",
                    (season_id, tournament_id)).rowcount == 0:
        raise NotFound(gettext("Tournament %(number)s is not a night of season %(season)s.", number=tournament_id,
                               season=season_id))
    return gettext("The night is no longer counted in the season.")


def save(db: Database, data: dict[str, Any], at: float, season_id: int | None = None) -> tuple[int, str]:
    """``club.season.create`` (``season_id`` None) or ``club.season.edit`` from code (the
    screenshots, the tests): the season's id and what was done."""
    given = read(inputs.SeasonIn, data)
    ids = {} if season_id is None else {"season_id": season_id}
    done: tuple[int, str] = run(create_command if season_id is None else edit_command, given, db=db, now=at, **ids)
    return done


def add_night(db: Database, season_id: int, tournament_id: int, final: bool) -> str:
    """``club.season.night.add`` from code: what it says."""
    given = read(inputs.SeasonNightIn, {"tournament": tournament_id, "final": final})
    said: str = run(night_command, given, db=db, now=now(), season_id=season_id)
    return said


def night_added(conn: Any, season_id: int, tournament_id: int, final: bool) -> str:
    """Count a tournament in a season (inside the caller's transaction); what it says."""
    season = conn.execute("SELECT name FROM seasons WHERE id = ?", (season_id,)).fetchone()
    if season is None:
        raise NotFound(gettext("There is no season %(number)s.", number=season_id))
    stream = conn.execute("SELECT name, kind FROM streams WHERE id = ?", (tournament_id,)).fetchone()
    if stream is None or stream[1] != "tournament":
        raise InvalidInput("There is no tournament {number}.", number=str(tournament_id))
    other = conn.execute("SELECT s.name, s.id FROM season_nights n JOIN seasons s ON s.id = n.season_id "
                         "WHERE n.stream_id = ?", (tournament_id,)).fetchone()
    if other is not None and other[1] != season_id:
        raise IllegalAction("{name} is a night of the season {season}: remove it there first.", name=stream[0],
                            season=repr(other[0]))
    if final:
        conn.execute("UPDATE season_nights SET final = 0 WHERE season_id = ?", (season_id,))
    conn.execute("INSERT OR REPLACE INTO season_nights (stream_id, season_id, final) VALUES (?, ?, ?)",
                 (tournament_id, season_id, 1 if final else 0))
    if final:
        return gettext("%(name)s is a night of %(season)s, its final.", name=stream[0], season=season[0])
    return gettext("%(name)s is a night of %(season)s.", name=stream[0], season=season[0])


def view(db: Database, season_id: int) -> SeasonView:
    """The season as its pages show it: its nights and the standings of those finished."""
    name, rules = _season_row(db, season_id)
    sync(db)
    rows = db.execute(
        "SELECT n.stream_id, n.final, s.created_at FROM season_nights n JOIN streams s ON s.id = n.stream_id "
        "WHERE n.season_id = ? ORDER BY s.created_at, s.id", (season_id,)
    ).fetchall()
    infos: list[NightInfo] = []
    nights: list[Night] = []
    for tid, final, created in rows:
        state = load_state(db, tid)
        infos.append(NightInfo(tid, state.name, float(created), bool(final), state.finished, state.entries))
        if not state.finished:
            continue
        person = entries_of(db, tid)
        places = {person[p]: place for p, place in state.places().items() if p in person}
        ko = knockouts_by(state)
        won = bounties(state).won
        awards = state.awards()
        nights.append(Night(tid, state.name, float(created), state.entries, places,
                            {person[p]: n for p, n in ko.items() if p in person},
                            {person[p]: n for p, n in awards.items() if p in person},
                            {person[p]: n for p, n in won.items() if p in person}, bool(final)))
    for night_id, night_name, at in db.execute(
        "SELECT id, name, at FROM imported_nights WHERE season_id = ? ORDER BY at, id", (season_id,)
    ).fetchall():
        results = db.execute("SELECT person_id, place, prize, knockouts FROM imported_results WHERE night_id = ?",
                             (night_id,)).fetchall()
        key = -int(night_id)  # an imported night has no tournament: its key is negative
        shown = imported_name(str(night_name or ""), float(at))
        infos.append(NightInfo(key, shown, float(at), False, True, len(results)))
        nights.append(Night(key, shown, float(at), len(results), {r[0]: r[1] for r in results},
                            {r[0]: r[3] for r in results if r[3]}, {r[0]: r[2] for r in results if r[2]}))
    infos.sort(key=lambda n: (n.at, n.tournament_id))
    names = {p.id: p.name for p in people(db)}
    nights.sort(key=lambda n: (n.at, n.key))
    return SeasonView(season_id, name, rules, tuple(infos), tuple(season_standings(rules, nights)), names, tuple(nights))


UNNAMED_IMPORT = re.compile(r"Imported night of (\d{4}-\d{2}-\d{2})")
"""How an imported night without a label was named (in English) before it was named on reading."""


def imported_name(stored: str, at: float) -> str:
    """An imported night's name: its label, else "Imported night of <date>" in the reader's
    language (the date is the evening's own, ``at``)."""
    if stored and not UNNAMED_IMPORT.fullmatch(stored):
        return stored
    day = datetime.fromtimestamp(at).date().isoformat()
    return gettext("Imported night of %(date)s", date=day)


def race(v: SeasonView, top: int = 8, width: int = 960, height: int = 420) -> Markup:
    """The standings' race: the leaders' points counted after each night."""
    if not v.results:
        return Markup("")
    leaders = [r.person for r in v.rows[:top]]
    after = running_points(v.rules, v.results)
    series = [(v.names.get(p, "?"), [a.get(p) for a in after]) for p in leaders]
    labels = [str(k + 1) for k in range(len(v.results))]
    return line_chart(series, labels, gettext("points counted, night by night"), title=gettext("%(name)s: the race", name=v.name),
                      width=width, height=height)


@dataclass(frozen=True)
class SeasonRecord:
    """One record of the season: what, the figure, who, where."""

    title: str
    figure: str
    who: str
    where: str


POTS_KEPT: dict[tuple[str, int, int, str], tuple[int, str, str] | None] = {}
register_cache("season pots", POTS_KEPT.clear)
"""The biggest pot of each night, by (database, tournament, seq): a finished night's hands are
replayed once, not at every look at its season."""


def biggest_pot(tournament_id: int, state: Tournament) -> tuple[int, str, str] | None:
    """``(chips, who won it, where)`` of the night's biggest pot, from its hand histories."""
    key = (current_app.config["DATABASE"], tournament_id, state.seq, language())
    if key in POTS_KEPT:
        return POTS_KEPT[key]
    best: tuple[int, str, str] | None = None
    for record in state.dealing.hands:
        if not record.finished:
            continue
        hand = record.replay()
        if hand.award is None:
            continue
        total = sum(p.amount for p in hand.award.pots)
        if best is None or total > best[0]:
            seats = dict(record.players)
            winners = gettext(" and ").join(dict.fromkeys(state.name_of(seats[s]) for p in hand.award.pots for s in p.winners))
            best = (total, winners, gettext("table %(table)s, hand %(hand)s", table=record.table, hand=record.number))
    if len(POTS_KEPT) > 4_096:
        POTS_KEPT.clear()
    POTS_KEPT[key] = best
    return best


def records(db: Database, v: SeasonView) -> list[SeasonRecord]:
    """The season's records, from its finished tournaments' events and hand histories: the
    biggest pot, the most knockouts, the deepest run, the best comeback."""
    out: list[SeasonRecord] = []
    pot: tuple[int, str, str] | None = None
    comeback: tuple[float, str, str, str] | None = None
    deepest: tuple[float, int, str, str, str] | None = None
    for info in v.counted_nights:
        if info.tournament_id < 0:
            continue
        state = load_state(db, info.tournament_id)
        person = entries_of(db, info.tournament_id)
        places = state.places()
        best = biggest_pot(info.tournament_id, state)
        if best is not None and (pot is None or best[0] > pot[0]):
            pot = (best[0], best[1], gettext("%(night)s, %(where)s", night=info.name, where=best[2]))
        winner = next((pid for pid, place in places.items() if place == 1), None)
        if winner is not None:
            lows = [(r.setup.stacks[r.seat_of(winner)] / r.setup.big_blind, r)
                    for r in state.dealing.hands if r.seat_of(winner) is not None]
            if lows:
                bb, low = min(lows, key=lambda t: t[0])
                if comeback is None or bb < comeback[0]:
                    chips = low.setup.stacks[low.seat_of(winner) or 0]
                    comeback = (bb, gettext("%(chips)s (%(blinds)s big blinds)", chips=number(chips),
                                            blinds=format(bb, ".1f").replace(".", get_decimal_symbol(language()))),
                                v.names.get(person.get(winner, -1), state.name_of(winner)),
                                gettext("%(night)s, hand %(hand)s at table %(table)s, then won", night=info.name,
                                        hand=low.number, table=low.table))
        for pid, place in places.items():  # the best place for the size of the field, the bigger field first
            depth = place / max(1, state.entries)
            if pid in person and (deepest is None or (depth, -state.entries) < (deepest[0], -deepest[1])):
                deepest = (depth, state.entries, v.names.get(person[pid], "?"), gettext("%(place)s of %(entries)s", place=ordinal(place), entries=state.entries),
                           info.name)
    if pot is not None:
        out.append(SeasonRecord(gettext("The biggest pot"), number(pot[0]), pot[1], pot[2]))
    top = max(v.rows, key=lambda r: (r.knockouts, -r.rank), default=None)
    if top is not None and top.knockouts:
        out.append(SeasonRecord(gettext("The most knockouts"), str(top.knockouts), v.names.get(top.person, "?"),
                                ngettext("in %(num)d night", "in %(num)d nights", top.nights)))
    if deepest is not None:
        out.append(SeasonRecord(gettext("The deepest run"), deepest[3], deepest[2], gettext("in %(night)s", night=deepest[4])))
    if comeback is not None:
        out.append(SeasonRecord(gettext("The best comeback"), comeback[1], comeback[2], comeback[3]))
    return out


# --- pages ----------------------------------------------------------------------------------


def _form_values(rules: SeasonRules | None = None, name: str = "") -> dict[str, Any]:
    r = rules or SeasonRules()
    return {"name": name, "formula": r.formula, "custom": custom_text(r), "knockout_points": f"{r.knockout_points:g}",
            "bounty_points": f"{r.bounty_points:g}",
            "playing_bonus": f"{r.playing_bonus:g}", "best_n": r.best_n, "final_multiplier": f"{r.final_multiplier:g}"}


def index_page(error: str | None = None, typed: dict[str, Any] | None = None, status: int = 200) -> ResponseReturnValue:
    return render("seasons/index.html", "seasons/_new.html", rows=seasons(get_db()), formulas=FORMULA_WORDS,
                  v=typed or _form_values(), error=error), status


@bp.get("/seasons")
def index() -> ResponseReturnValue:
    return index_page()


@bp.post("/seasons")
@login_required
def create() -> ResponseReturnValue:
    try:
        season_id, said = perform(create_command)
    except EngineError as error:
        return index_page(say(error), request.form.to_dict(), refusal_status(error))
    return flash_and_go(said, url_for("seasons.show", season_id=season_id))


def show_page(season_id: int, error: str | None = None, status: int = 200) -> ResponseReturnValue:
    db = get_db()
    v = view(db, season_id)
    taken = {r[0] for r in db.execute("SELECT stream_id FROM season_nights").fetchall()}
    free = db.execute("SELECT id, name FROM streams WHERE kind = 'tournament' ORDER BY created_at DESC, id DESC "
                      "LIMIT 200").fetchall()
    return render("seasons/show.html", "seasons/_standings.html", s=season_page(v), formulas=FORMULA_WORDS,
                  tie_break=TIE_BREAK_WORDS,
                  records=records(db, v), race=race(v),
                  free=[(i, n) for i, n in free if i not in taken], v=_form_values(v.rules, v.name),
                  error=error), status


@bp.get("/seasons/<int:season_id>")
def show(season_id: int) -> ResponseReturnValue:
    return show_page(season_id)


@bp.post("/seasons/<int:season_id>")
@login_required
def edit(season_id: int) -> ResponseReturnValue:
    try:
        _, said = perform(edit_command, season_id=season_id)
    except EngineError as error:
        return show_page(season_id, say(error), refusal_status(error))
    return flash_and_go(said, url_for("seasons.show", season_id=season_id))


@bp.post("/seasons/<int:season_id>/nights")
@login_required
def night(season_id: int) -> ResponseReturnValue:
    try:
        said = perform(night_command, season_id=season_id)
    except EngineError as error:
        return show_page(season_id, say(error), refusal_status(error))
    return flash_and_go(said, url_for("seasons.show", season_id=season_id))


page_route(bp, "/seasons/<int:season_id>/nights/<int:tournament_id>/remove", remove_command,
           lambda do, season_id, tournament_id: flash_and_go(do(), url_for("seasons.show", season_id=season_id)),
           endpoint="remove")


@bp.get("/seasons/<int:season_id>/tv")
def tv(season_id: int) -> ResponseReturnValue:
    v = view(get_db(), season_id)
    views = {"s": season_page(v), "tie_break": TIE_BREAK_WORDS, "records": records(get_db(), v),
             "race": race(v, width=620, height=440)}  # a smaller drawing, larger on the screen
    return poll_answer("season tv", None, views, lambda version: render(
        "seasons/tv.html", "seasons/_tv_body.html", season_id=season_id, version=version, **views))


@bp.get("/seasons/<int:season_id>/print")
def printed(season_id: int) -> ResponseReturnValue:
    v = view(get_db(), season_id)
    return render("seasons/print.html", "seasons/print.html", s=season_page(v), tie_break=TIE_BREAK_WORDS,
                  printed_at=now(), race=race(v))


def standings_rows(v: SeasonView) -> list[list[Any]]:
    """The season's standings as a spreadsheet's rows: a header, then a line a player."""
    nights = v.counted_nights
    rows: list[list[Any]] = [["rank", "name", "points", "nights", "wins", "best night", "knockouts", "prizes",
                              *[n.name for n in nights]]]
    for r in v.rows:
        rows.append([r.rank, v.names.get(r.person, "?"), whole(r.points), r.nights, r.wins, whole(r.best),
                     r.knockouts, r.prizes,
                     *[whole(r.by_night[n.tournament_id]) if n.tournament_id in r.by_night else "" for n in nights]])
    return rows


def whole(points: float) -> float | int:
    """Points as a number, whole when they are (10, not 10.0)."""
    return int(points) if points == int(points) else points


def results_rows(v: SeasonView) -> list[list[Any]]:
    """Every result of the season's finished nights, a line a player a night, in the columns
    the import reads (season, date, name, place, prize, knockouts, night)."""
    rows: list[list[Any]] = [["season", "date", "name", "place", "prize", "knockouts", "night"]]
    for night in v.results:
        day = datetime.fromtimestamp(night.at, UTC).strftime("%Y-%m-%d")
        for person, place in sorted(night.places.items(), key=lambda kv: (kv[1], v.names.get(kv[0], ""))):
            rows.append([v.name, day, v.names.get(person, "?"), place, night.prizes.get(person, 0),
                         night.knockouts.get(person, 0), night.name])
    return rows


@bp.get("/seasons/<int:season_id>/results.csv")
def export_results(season_id: int) -> ResponseReturnValue:
    return csv_response(results_rows(view(get_db(), season_id)), f"season-{season_id}-results.csv")


@bp.get("/seasons/<int:season_id>.csv")
def export_csv(season_id: int) -> ResponseReturnValue:
    return csv_response(standings_rows(view(get_db(), season_id)), f"season-{season_id}.csv")


# --- the JSON API ---------------------------------------------------------------------------


@api.get("/api/seasons", summary="The seasons", result=club_shapes.Seasons, errors=())
def api_list() -> ResponseReturnValue:
    return jsonify(seasons=[{"id": i, "name": n, "nights": c} for i, n, c in seasons(get_db())])


def _season(said: str, season_id: int, status: int = 200) -> ResponseReturnValue:
    """The season as it is now, and what was done."""
    return jsonify({**view(get_db(), season_id).as_json(), "notice": said}), status


api_route(api, "/api/seasons", create_command, lambda done: _season(done[1], done[0], 201), result=club_shapes.Season,
          endpoint="api_create")


@api.get("/api/seasons/<int:season_id>", summary="A season: its nights and standings", result=club_shapes.Season)
def api_show(season_id: int) -> ResponseReturnValue:
    v = view(get_db(), season_id)
    return jsonify({**v.as_json(), "records": [r.__dict__ for r in records(get_db(), v)]})


api_route(api, "/api/seasons/<int:season_id>", edit_command, lambda done, season_id: _season(done[1], season_id),
          result=club_shapes.Season, status=200, endpoint="api_edit")
api_route(api, "/api/seasons/<int:season_id>/nights", night_command, lambda said, season_id: _season(said, season_id),
          result=club_shapes.Season, status=200, endpoint="api_night")
api_route(api, "/api/seasons/<int:season_id>/nights/<int:tournament_id>/remove", remove_command,
          lambda said, season_id, tournament_id: _season(said, season_id), result=club_shapes.Season, status=200,
          endpoint="api_remove")
