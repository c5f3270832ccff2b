"""Commands carry an id, so that a retry after a lost answer is answered with what was recorded.

On home Wi-Fi an answer gets lost: the phone, the dealer or a script sends the command again.
Each write carries an id of its own: the JSON API's ``Idempotency-Key`` header, the pages'
``command_id`` field (every form has one, new each time the form is drawn), the header the
pages' script sets on each tap. The unit of work claims the id inside the command's own
transaction (:func:`claim`), so the id is recorded with the command's events or not at all.
Once the command has answered, its answer (status, headers, body) is kept with the id.

A command that arrives again with an id already recorded is not run: it is answered with
what was recorded, the same status and body, whatever its ``expected_seq`` has become
(:class:`Repeated`). The same id sent with another command (another path or other fields) is
refused with 422 in the JSON API: nothing more is recorded; from a page (a form sent again
after the back button, changed) it is a new command, checked like any other (a page drawn
before the first was recorded is stale: 409). A page that lost its answer asks
``GET /api/commands/<id>`` whether it was recorded.

Ids are kept two days. This module reads and claims the ids (the unit of work calls
:func:`claim`); ``director.core.retries`` answers a retry at the app's edge.
"""

from __future__ import annotations

import hashlib
import json
import re
import time
from typing import Any

from flask import g, request
from werkzeug.exceptions import BadRequest

from director.core.i18n import gettext

HEADER = "Idempotency-Key"
FIELD = "command_id"
KEPT_SECONDS = 2 * 24 * 3600
"""How long a command id and its answer are kept."""
MAX_BODY = 2 * 1024 * 1024
"""The largest answer kept for a retry (a bigger one is answered as "recorded" only)."""
VALID = re.compile(r"[A-Za-z0-9_.:-]{1,100}")
SKIPPED_HEADERS = {"set-cookie", "content-length", "date", "server", "connection", "transfer-encoding"}
UNFINGERPRINTED = {"csrf_token", "expected_seq", FIELD}
"""Fields a retry may send differently: the CSRF token, the seq the page was drawn at, the id."""

class Repeated(Exception):
    """A command whose id was recorded already: answered with what was recorded."""

    def __init__(self, command_id: str, same: bool, status: int | None, headers: str | None,
                 body: bytes | None) -> None:
        super().__init__(command_id)
        self.command_id = command_id
        self.same = same
        self.status = status
        self.headers = headers
        self.body = body


def requested_id() -> str | None:
    """The id the request carries, or None; a malformed one is refused (400)."""
    raw = request.headers.get(HEADER)
    if raw is None and request.mimetype in ("application/x-www-form-urlencoded", "multipart/form-data"):
        raw = request.form.get(FIELD)
    if raw is None or raw == "":
        return None
    if not VALID.fullmatch(raw):
        raise BadRequest(gettext("The command id (Idempotency-Key) is 1 to 100 letters, digits or - _ . : signs."))
    return raw


def fingerprint() -> str:
    """What the command is: its method, its path and its fields (but for those a retry may
    send differently)."""
    if request.is_json:
        body = request.get_json(silent=True)
        fields: Any = {k: v for k, v in body.items() if k not in UNFINGERPRINTED} if isinstance(body, dict) else body
    else:
        fields = sorted((k, v) for k, v in request.form.items(multi=True) if k not in UNFINGERPRINTED)
        fields += sorted((k, f.filename or "") for k, f in request.files.items(multi=True))
    text = json.dumps([request.method, request.path, fields], sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()


_claims = {"count": 0}


def claim(conn: Any) -> bool:
    """Inside a command's transaction: record the request's id, or raise :class:`Repeated`
    when it was recorded already. Only the first unit of work of a request claims; returns
    whether this one did (its rollback gives the id back: :func:`unclaim`)."""
    if not _in_request() or g.get("command_claimed") or request.method != "POST":
        return False
    command_id = g.get("command_id")
    if command_id is None:
        return False
    row = conn.execute("SELECT fingerprint, status, headers, body FROM commands WHERE id = ?", (command_id,)).fetchone()
    if row is not None:
        raise Repeated(command_id, row[0] == fingerprint(), row[1], row[2], row[3])
    now = time.time()
    conn.execute("INSERT INTO commands (id, fingerprint, at) VALUES (?, ?, ?)", (command_id, fingerprint(), now))
    _claims["count"] += 1
    if _claims["count"] % 500 == 1:
        conn.execute("DELETE FROM commands WHERE at < ?", (now - KEPT_SECONDS,))
    g.command_claimed = command_id
    return True


def unclaim() -> None:
    """The command's transaction rolled back: its id was not recorded after all."""
    g.pop("command_claimed", None)


def _in_request() -> bool:
    from flask import has_request_context

    return has_request_context()


__all__ = ["FIELD", "HEADER", "KEPT_SECONDS", "Repeated", "claim", "fingerprint", "requested_id", "unclaim"]
