"""A tournament's life: duplicate it (its settings and structure, no players), archive it
when it is over, delete it (a confirmation that names it; a running tournament is archived,
never silently deleted), and restore an archived one. Archiving is about the lists, not the
night: it is kept on the stream's row, not as an event.
"""

from __future__ import annotations

from collections.abc import Callable

from flask import Blueprint, flash, jsonify, redirect, url_for
from flask.typing import ResponseReturnValue

from director.core import shapes
from director.core.commands import api_route, page_route
from director.core.contract import Api
from director.core.i18n import gettext
from director.core.web import is_partial_request
from director.night.answers import answer
from director.setup.commands import (
    Created,
    archive_command,
    delete_command,
    duplicate_command,
    unarchive_command,
)

bp = Blueprint("lifecycle", __name__)
api = Api(bp, "tournament")


def _back(message: str, to: str) -> ResponseReturnValue:
    flash(message, "ok")
    response = redirect(to, code=303)
    if is_partial_request():
        response.headers["HX-Redirect"] = to
    return response


def _to_copy(do: Callable[[], Created], tournament_id: int) -> ResponseReturnValue:
    new = do().tournament_id
    return _back(gettext("A copy with the same settings and structure, without players: rename it in its settings."),
                 url_for("settings.show", tournament_id=new))


def _home(do: Callable[[], str], tournament_id: int) -> ResponseReturnValue:
    return _back(do(), url_for("home.index"))


page_route(bp, "/t/<int:tournament_id>/duplicate", duplicate_command, _to_copy, endpoint="duplicate_page")
page_route(bp, "/t/<int:tournament_id>/archive", archive_command, _home, endpoint="archive_page")
page_route(bp, "/t/<int:tournament_id>/restore", unarchive_command, _home, endpoint="restore_page")
page_route(bp, "/t/<int:tournament_id>/delete", delete_command, _home, endpoint="delete_page")
api_route(api, "/api/t/<int:tournament_id>/duplicate", duplicate_command, lambda done, tournament_id: answer(done.tournament_id),
          result=shapes.Tournament, endpoint="api_duplicate")
api_route(api, "/api/t/<int:tournament_id>/archive", archive_command,
          lambda said, tournament_id: (jsonify(notice=gettext("Archived.")), 201), result=shapes.Done,
          endpoint="api_archive")
api_route(api, "/api/t/<int:tournament_id>/restore", unarchive_command,
          lambda said, tournament_id: (jsonify(notice=gettext("Restored.")), 201), result=shapes.Done,
          endpoint="api_restore")
api_route(api, "/api/t/<int:tournament_id>/delete", delete_command, lambda said, tournament_id: (jsonify(notice=said), 201),
          result=shapes.Done, endpoint="api_delete")
