"""The rules on the dealer's phone: while the laptop does not answer, the table's panel goes on
from the engine's own rules, run in the phone's browser (``static/js/offline.js``, on the
vendored Pyodide). The laptop gives the phone what that takes:

* ``GET /static-engine.zip``: the engine package's ``.py`` files (the rules, once: never
  written again in JavaScript), cacheable with an ETag;
* ``GET /engine-words.json``: the engine's sentences in the reader's language (message id to
  translation), so a refusal on the phone reads as the laptop's would;
* the running hand's setup and log in the dealer's panel (:func:`hand_data`), what
  ``engine.declared.play`` replays before it applies the taps waiting in the outbox.
"""

from __future__ import annotations

import hashlib
import io
import json
import zipfile
from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path
from typing import Any

from flask import Blueprint, Response, request
from flask.typing import ResponseReturnValue
from flask_babel import force_locale, get_translations

import engine
from director.core.i18n import language, languages
from engine.declared import setup_data
from engine.tablehands import TableHand

bp = Blueprint("offline", __name__)

ENGINE_DIR = Path(engine.__file__).resolve().parent
CACHE = "no-cache"  # kept by the phone, asked again with its ETag (a new version is seen at once)


@lru_cache(maxsize=1)
def engine_zip() -> tuple[bytes, str]:
    """The engine package's sources as a zip (the same bytes for the same sources) and its ETag."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        for path in sorted(ENGINE_DIR.glob("*.py")):
            info = zipfile.ZipInfo(f"engine/{path.name}", date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, path.read_bytes())
    data = out.getvalue()
    return data, hashlib.sha256(data).hexdigest()[:20]


@lru_cache(maxsize=1)
def engine_messages() -> tuple[str, ...]:
    """The engine's message ids (its errors' sentences, ``Message``, ``Term``, ``N_``), read once."""
    from babel.messages.extract import extract_from_file

    from director.core.catalogues import KEYWORDS

    found: dict[str, None] = {}
    for path in sorted(ENGINE_DIR.glob("*.py")):
        for _line, message, _comments, _context in extract_from_file("python", str(path), keywords=KEYWORDS):
            if isinstance(message, str) and message:
                found[message] = None
    return tuple(found)


def _answer(data: bytes, etag: str, mimetype: str) -> Response:
    response = Response(data, mimetype=mimetype)
    response.set_etag(etag)
    response.headers["Cache-Control"] = CACHE
    return response.make_conditional(request)


@bp.get("/static-engine.zip")
def static_engine() -> ResponseReturnValue:
    data, etag = engine_zip()
    return _answer(data, etag, "application/zip")


@bp.get("/engine-words.json")
def engine_words() -> ResponseReturnValue:
    """``?lang=``: the page's language (the phone's page may follow its browser's)."""
    asked = request.args.get("lang", "")
    lang = asked if asked in languages() else language()
    with force_locale(lang):
        catalogue = get_translations()
        words = {m: t for m in engine_messages() if (t := str(catalogue.gettext(m))) != m}
    data = json.dumps(words, ensure_ascii=False, sort_keys=True).encode()
    return _answer(data, f"{lang}-{hashlib.sha256(data).hexdigest()[:16]}", "application/json")


def hand_data(running: TableHand, names: Mapping[int, str]) -> dict[str, Any] | None:
    """What the dealer's phone replays the running hand from (``engine.declared.play``): its
    setup and log, and the players' names by seat. None where the phone could not follow the
    hand alone (an action out of turn is held: the laptop applies it when the turn comes)."""
    if running.pending:
        return None
    return {
        "setup": setup_data(running.setup),
        "log": list(running.log),
        "names": {str(seat): names.get(pid, "?") for seat, pid in running.players},
    }
