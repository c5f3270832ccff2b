"""A tournament's life: duplicate it (its settings and structure, no players), archive it
when it is over, delete it (a confirmation that names it; a running tournament is archived,
never silently deleted), and restore an archived one. Archiving is about the lists, not the
night: it is kept on the stream's row, not as an event.
"""

from __future__ import annotations

from flask import Blueprint, flash, jsonify, redirect, url_for
from flask.typing import ResponseReturnValue

from director.core import inputs, shapes, store
from director.core.auth import login_required
from director.core.contract import Api, read
from director.core.db import get_db
from director.core.i18n import gettext
from director.core.store import load_state
from director.core.web import is_partial_request, now
from director.night import commands as services
from director.night.answers import answer
from engine.errors import IllegalAction
from engine.tournament import Tournament, settings_as_dict

bp = Blueprint("lifecycle", __name__)
api = Api(bp, "tournament")


def copy_name(name: str) -> str:
    """``Friday (copy)``, within the 40 characters of a name."""
    suffix = " (copy)"
    return name[: 40 - len(suffix)].rstrip() + suffix


def duplicate(tournament_id: int) -> int:
    """A new tournament with this one's settings and structure as they are now, no players."""
    state = load_state(get_db(), tournament_id)
    payload = settings_as_dict(state.settings)
    payload.pop("rules", None)
    payload["name"] = copy_name(state.name)
    if state.settings.payout_kind == "custom":
        payload["percentages"] = services.percentages_text(state)
    return store.create_tournament(get_db(), payload["name"], payload, now())


def running(state: Tournament) -> bool:
    return state.started and not state.finished


def delete(tournament_id: int, confirm: str) -> str:
    """Delete the tournament named ``confirm`` (a running one is archived instead); what happened."""
    state = load_state(get_db(), tournament_id)
    if confirm.strip() != state.name:
        raise IllegalAction("To delete it, confirm with its name: {name}.", name=repr(state.name))
    if running(state):
        store.set_archived(get_db(), tournament_id, now())
        return gettext("%(name)s is being played: it is archived, not deleted (restore it from the home page).",
                       name=state.name)
    store.delete_stream(get_db(), tournament_id)
    return gettext("%(name)s is deleted.", name=state.name)


def _back(message: str, to: str) -> ResponseReturnValue:
    flash(message, "ok")
    response = redirect(to, code=303)
    if is_partial_request():
        response.headers["HX-Redirect"] = to
    return response


@bp.post("/t/<int:tournament_id>/duplicate")
@login_required
def duplicate_page(tournament_id: int) -> ResponseReturnValue:
    read(inputs.Write)
    new = duplicate(tournament_id)
    return _back(gettext("A copy with the same settings and structure, without players: rename it in its settings."),
                 url_for("settings.show", tournament_id=new))


@bp.post("/t/<int:tournament_id>/archive")
@login_required
def archive_page(tournament_id: int) -> ResponseReturnValue:
    state = load_state(get_db(), tournament_id)
    store.set_archived(get_db(), tournament_id, now())
    return _back(gettext("%(name)s is archived: it is listed apart on the home page.", name=state.name),
                 url_for("home.index"))


@bp.post("/t/<int:tournament_id>/restore")
@login_required
def restore_page(tournament_id: int) -> ResponseReturnValue:
    state = load_state(get_db(), tournament_id)
    store.set_archived(get_db(), tournament_id, None)
    return _back(gettext("%(name)s is back on the list.", name=state.name), url_for("home.index"))


@bp.post("/t/<int:tournament_id>/delete")
@login_required
def delete_page(tournament_id: int) -> ResponseReturnValue:
    data = read(inputs.DeleteIn)
    return _back(delete(tournament_id, data.confirm), url_for("home.index"))


@api.post("/api/t/<int:tournament_id>/duplicate", summary="A new tournament with this one's settings and "
          "structure, no players", body=inputs.Write, result=shapes.Tournament)
def api_duplicate(tournament_id: int, data: inputs.Write) -> ResponseReturnValue:
    return answer(duplicate(tournament_id))


@api.post("/api/t/<int:tournament_id>/archive", summary="List the tournament apart on the home page",
          body=inputs.Write, result=shapes.Done)
def api_archive(tournament_id: int, data: inputs.Write) -> ResponseReturnValue:
    load_state(get_db(), tournament_id)
    store.set_archived(get_db(), tournament_id, now())
    return jsonify(notice=gettext("Archived.")), 201


@api.post("/api/t/<int:tournament_id>/restore", summary="Put an archived tournament back on the list",
          body=inputs.Write, result=shapes.Done)
def api_restore(tournament_id: int, data: inputs.Write) -> ResponseReturnValue:
    load_state(get_db(), tournament_id)
    store.set_archived(get_db(), tournament_id, None)
    return jsonify(notice=gettext("Restored.")), 201


@api.post("/api/t/<int:tournament_id>/delete", summary="Delete the tournament (confirm: its name); a running "
          "one is archived instead", body=inputs.DeleteIn, result=shapes.Done)
def api_delete(tournament_id: int, data: inputs.DeleteIn) -> ResponseReturnValue:
    return jsonify(notice=delete(tournament_id, data.confirm)), 201
