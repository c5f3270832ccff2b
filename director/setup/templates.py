"""The host's templates: a tournament's settings and structure saved under a name, to start
the next night from (the new-tournament page lists them beside the presets).

A template is a row of ``templates`` (its name unique, whatever its case), holding the
settings as ``engine.tournament.settings_as_dict`` writes them, without the night's name. It
is not an event of any tournament: the tournament it came from is unchanged. Saving one is a
registered command (``setup.template.save``: ``director.core.commands``), run by the settings
page and the JSON API alike.
"""

from __future__ import annotations

import json
from typing import Any

from flask import Blueprint, jsonify, url_for
from flask.typing import ResponseReturnValue
from sqlite_utils import Database

from director.core import inputs, shapes
from director.core.auth import login_required
from director.core.commands import Call, api_route, command, perform
from director.core.contract import Api
from director.core.db import get_db
from director.core.i18n import gettext
from director.core.store import load_state
from director.core.web import act_and_say
from director.core.work import Work
from director.setup.commands import percentages_text
from engine.errors import IllegalAction, Term
from engine.tournament import clean_name, settings_as_dict, settings_from_dict

bp = Blueprint("saved", __name__)
api = Api(bp, "tournament")
MAX_TEMPLATES = 200


def templates(db: Database) -> list[dict[str, Any]]:
    """Every template, newest first: ``{"id", "name", "created_at", "settings"}``."""
    rows = db.execute("SELECT id, name, created_at, payload FROM templates ORDER BY created_at DESC, id DESC")
    return [{"id": r[0], "name": r[1], "created_at": r[2], "settings": json.loads(r[3])} for r in rows.fetchall()]


def template(db: Database, template_id: int) -> dict[str, Any] | None:
    return next((t for t in templates(db) if t["id"] == template_id), None)


@command("setup.template.save", inputs.TemplateIn, "Save the tournament's settings and structure as a named "
         "template")
def save_command(work: Work, call: Call, data: inputs.TemplateIn) -> str:
    """The path's tournament's settings and structure as they are now, under ``name``."""
    name = clean_name(data.name, Term("template name"))
    state = load_state(call.db, int(call.ids["tournament_id"]))
    payload = settings_as_dict(state.settings)
    payload.pop("name", None)
    payload.pop("rules", None)
    if state.settings.payout_kind == "custom":
        payload["percentages"] = percentages_text(state)
    settings_from_dict({**payload, "name": name})  # it reads back
    taken = work.execute("SELECT name FROM templates WHERE lower(name) = lower(?)", (name,)).fetchone()
    if taken is not None:
        raise IllegalAction("A template named {name} already exists: choose another name.", name=repr(taken[0]))
    count = work.execute("SELECT count(*) FROM templates").fetchone()[0]
    if count >= MAX_TEMPLATES:
        raise IllegalAction("There are {count} templates already: delete one first.", count=count)
    work.execute("INSERT INTO templates (name, created_at, payload) VALUES (?, ?, ?)",
                 (name, call.now, json.dumps(payload)))
    return gettext("Saved as the template %(name)s: start a new tournament from it on the new-tournament page.",
                   name=repr(name))


@bp.post("/t/<int:tournament_id>/template")
@login_required
def save_page(tournament_id: int) -> ResponseReturnValue:
    from director.setup.settings import page

    return act_and_say(lambda: perform(save_command, tournament_id=tournament_id),
                       url_for("settings.show", tournament_id=tournament_id), lambda **kw: page(tournament_id, **kw))


@api.get("/api/templates", summary="The host's templates: settings and structures saved under a name",
         result=shapes.Templates, errors=())
def api_templates() -> ResponseReturnValue:
    return jsonify(templates=templates(get_db()))


api_route(api, "/api/t/<int:tournament_id>/template", save_command,
          lambda said, tournament_id: (jsonify(notice=said), 201), result=shapes.Done, endpoint="api_save")
