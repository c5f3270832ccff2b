"""A retry after a lost answer, answered at the app's edge: each write's id read before
anything else, each command's answer kept with its id, a retry answered with what was
recorded, and ``GET /api/commands/<id>`` (whether a command was recorded). The ids
themselves are read and claimed in ``director.core.command_ids``.
"""

from __future__ import annotations

import json
from typing import Any

from flask import Blueprint, Flask, Response, g, jsonify, request
from flask.typing import ResponseReturnValue

from director.core import shapes
from director.core.command_ids import (
    MAX_BODY,
    SKIPPED_HEADERS,
    VALID,
    Repeated,
    fingerprint,
    requested_id,
)
from director.core.contract import Api
from director.core.db import get_db
from director.core.i18n import gettext
from director.core.web import error_page
from director.core.work import unit_of_work

bp = Blueprint("commands", __name__)


def _recorded_row(command_id: str) -> Any:
    return get_db().execute("SELECT fingerprint, status, headers, body FROM commands WHERE id = ?",
                            (command_id,)).fetchone()


def _keep_answer(response: Response) -> Response:
    """After a request that claimed an id: keep its answer for a retry."""
    command_id = g.get("command_claimed")
    if command_id is None or response.status_code >= 500:
        return response
    if response.is_streamed or response.direct_passthrough:
        return response
    body = response.get_data()
    if len(body) > MAX_BODY:
        return response
    headers = [(k, v) for k, v in response.headers.items() if k.lower() not in SKIPPED_HEADERS]
    # An answer no browser may keep holds a secret (a link's code), unless it is an error (no
    # error is kept by a browser: director.core.web), whose sentence is kept as it was.
    if response.status_code < 400 and "no-store" in response.headers.get("Cache-Control", ""):
        body = None  # a retry is told it was recorded, and where to look
    with unit_of_work(claim=False) as work:
        work.execute("UPDATE commands SET status = ?, headers = ?, body = ? WHERE id = ?",
                      (response.status_code, json.dumps(headers), body, command_id))
    return response


def answer_again(repeat: Repeated) -> ResponseReturnValue:
    """What a retry is told: the answer recorded, or why the id cannot be used again."""
    if not repeat.same:
        message = gettext("This command id (Idempotency-Key) was already used for another command: nothing "
                          "more was recorded.")
        if request.path.startswith("/api/"):
            return jsonify(error=message), 422
        return error_page(422, gettext("That cannot be done"), message)
    if repeat.status is not None and repeat.body is not None:
        kept = [(key, value) for key, value in json.loads(repeat.headers or "[]")]
        response = Response(repeat.body, status=repeat.status, headers=kept)
        response.headers["Idempotent-Replayed"] = "true"
        return response
    return _recorded_without_answer()


def _recorded_without_answer() -> ResponseReturnValue:
    """The command was recorded but its answer was not kept (the server stopped between the
    two): say so, and let the page show the state as it is now."""
    notice = gettext("That was recorded already: nothing more was recorded.")
    if request.path.startswith("/api/"):
        response = jsonify(notice=notice)
    elif request.headers.get("HX-Request"):
        response = Response("", status=200)
        response.headers["HX-Refresh"] = "true"
    else:
        response = Response("", status=303)
        response.headers["Location"] = request.referrer or "/"
    response.headers["Idempotent-Replayed"] = "true"
    return response


def recorded(command_id: str) -> dict[str, Any]:
    if not VALID.fullmatch(command_id):
        return {"id": command_id, "recorded": False, "status": None}
    row = get_db().execute("SELECT status FROM commands WHERE id = ?", (command_id,)).fetchone()
    return {"id": command_id, "recorded": row is not None, "status": None if row is None else row[0]}


api = Api(bp, "session")


@api.get("/api/commands/<command_id>", summary="Whether a command with this id was recorded (a page whose "
         "answer was lost asks before it says anything)", result=shapes.CommandStatus, errors=())
def command_status(command_id: str) -> ResponseReturnValue:
    return jsonify(recorded(command_id))


def init_app(app: Flask) -> None:
    """Read each write's id, keep each command's answer, answer a retry: registered before
    the other hooks, so that the answer kept is the one sent (after every other hook)."""
    app.register_blueprint(bp)

    @app.before_request
    def read_command_id() -> None:
        """A command whose id was recorded is answered before anything else reads the state
        (its own change would make a check before the command refuse it); two copies sent at
        once are told apart by the claim inside the transaction."""
        if request.method != "POST":
            return
        g.command_id = requested_id()
        if g.command_id is not None:
            found = _recorded_row(g.command_id)
            if found is None:
                return
            same = found[0] == fingerprint()
            if not same and not request.path.startswith("/api/"):
                g.command_id = None  # a page sent again with other fields (back, changed): a new command
                return
            raise Repeated(g.command_id, same, found[1], found[2], found[3])

    app.after_request(_keep_answer)
    app.register_error_handler(Repeated, answer_again)


__all__ = ["answer_again", "init_app", "recorded"]
