"""The players' database's pages: ``/people`` (everyone, a new person, the doubtful
matches), ``/people/<id>`` (a person's nights, totals and statistics from the hands dealt with
the assistant; rename, merge). JSON twins under ``/api/people``. Each change is a registered
command of ``director.club.people``, run by the page and its JSON twin alike.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar, cast

from flask import Blueprint, jsonify, request, url_for
from flask.typing import ResponseReturnValue
from markupsafe import Markup
from sqlite_utils import Database

from director.club import shapes as club_shapes
from director.club.people import (
    Changed,
    Person,
    add_command,
    doubtful,
    edit_command,
    merge_command,
    pages_public,
    people,
    person,
    sync,
    visibility_command,
)
from director.club.records import Record, record_of
from director.core.auth import login_required
from director.core.commands import api_route, page_route, perform
from director.core.contract import Api
from director.core.db import get_db
from director.core.i18n import gettext
from director.core.roles import DIRECTOR
from director.core.web import flash_and_go, refusal_status, render
from director.core.words import say
from director.screens.charts import line_chart
from engine.errors import EngineError

bp = Blueprint("people", __name__)
api = Api(bp, "people")


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


page_route(bp, "/people/visibility", visibility_command, lambda do: flash_and_go(do(), url_for("people.index")),
           endpoint="visibility")


@bp.post("/people")
@login_required
def add() -> ResponseReturnValue:
    try:
        pid = perform(add_command)
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
        done: Changed = perform(edit_command, person_id=person_id)
    except EngineError as error:
        return show_page(person_id, say(error), refusal_status(error))
    return flash_and_go(done.said, url_for("people.show", person_id=person_id))


@bp.post("/people/<int:person_id>/merge")
@login_required
def merge_page(person_id: int) -> ResponseReturnValue:
    try:
        done: Changed = perform(merge_command, person_id=person_id)
    except EngineError as error:
        return show_page(person_id, say(error), refusal_status(error))
    return flash_and_go(done.said, url_for("people.show", person_id=done.person_id))


# --- the JSON API ---------------------------------------------------------------------------


@api.get("/api/people", summary="The players' database: everyone, with the nights each played (the director)",
         result=club_shapes.People, login=True, errors=())
def api_list() -> ResponseReturnValue:
    db = get_db()
    sync(db)
    return jsonify(people=[{**p.as_json(), "nights": n} for p, n in summary(db)],
                   doubtful=[[a.id, b.id] for a, b in doubtful(people(db))])


api_route(api, "/api/people", add_command, lambda pid: (jsonify(record_of(get_db(), pid).as_json()), 201),
          result=club_shapes.PersonRecord, endpoint="api_create")


@api.get("/api/people/<int:person_id>", summary="A person's nights, totals and statistics from the hands "
         "dealt with the assistant (the director, or anyone when the host made the pages public)",
         result=club_shapes.PersonRecord, roles=(DIRECTOR,))
@director_unless_public
def api_show(person_id: int) -> ResponseReturnValue:
    return jsonify(record_of(get_db(), person_id).as_json())


def _changed(done: Changed, person_id: int) -> ResponseReturnValue:
    """The person shown now (the one merged into, after a merge), and what was done."""
    return jsonify({**record_of(get_db(), done.person_id).as_json(), "notice": done.said})


api_route(api, "/api/people/<int:person_id>", edit_command, _changed, result=club_shapes.PersonRecord, status=200,
          endpoint="api_edit")
api_route(api, "/api/people/<int:person_id>/merge", merge_command, _changed, result=club_shapes.PersonRecord,
          status=200, endpoint="api_merge")
