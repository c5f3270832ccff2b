"""One rule of freshness for every page that stays open.

A page that stays open (a dealer's panel, the tables page, a cash table) polls for its part.
The part is a template of *views*: plain frozen records built from the state, which is all
the template reads besides the reader's language and role. So the question every poll asks,
"has anything this page shows changed since I was drawn?", has one answer, made here and
nowhere else: the page's *version*, a digest of its views (their ``seq`` left out: the seq
moves with every bet at every table and is not something a page shows), of the reader's
language and role, and of the database's generation (a restore or a change of language).

The part carries its version in its poll (``?v=<version>``). The poll builds the views again
(a fraction of a millisecond: the state is the store's folded one), and answers ``204`` with
the stream's seq in ``X-Seq`` when the version is the one the page holds (the page's forms
then name that seq, so a tap on an unchanged page is never refused as stale), else the part
rendered anew. No page decides by hand which events "do not concern it": a bet at another
table, a bust, hand for hand, a move, the clock and the language reach every page that shows
them, and only those.

A version that is not today's (a page from before a restore, a made-up one, none at all) is
simply another version: the whole part is the answer, never a stale ``204``.
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Callable, Mapping
from typing import Any

from flask import Response, request
from flask.typing import ResponseReturnValue

from director.core import roles
from director.core.caches import GENERATION
from director.core.i18n import language, settings

VERSION_ARG = "v"
"""The poll's query argument that carries the version of the page it holds."""
SEQ_HEADER = "X-Seq"
"""A ``204``'s header: the stream's seq, which the unchanged page's forms take as theirs."""


_PLAIN = (str, int, float, bool, type(None), bytes)
_has_seq: dict[type, bool] = {}
"""Each view class, whether it has a ``seq`` field (asked once per class, not per view)."""


def _without_seq(value: Any) -> Any:
    """``value`` with the ``seq`` of a view set to 0: the view itself, or each view in a
    mapping, a list or a tuple of them (a mapping's own ``seq`` key is left out)."""
    kind = type(value)
    if kind in _PLAIN:
        return value
    if isinstance(value, Mapping):
        return {k: _without_seq(v) for k, v in value.items() if k != "seq"}
    if isinstance(value, list | tuple):
        return type(value)(_without_seq(v) for v in value)
    has_seq = _has_seq.get(kind)
    if has_seq is None:
        has_seq = _has_seq[kind] = (dataclasses.is_dataclass(kind)
                                    and any(f.name == "seq" for f in dataclasses.fields(kind)))
    return dataclasses.replace(value, seq=0) if has_seq else value


def version(page: str, views: Mapping[str, Any]) -> str:
    """The version of ``page`` drawn from ``views`` for this request's reader: equal versions,
    equal pages (but for the seq and the forms' CSRF tokens)."""
    role = roles.current_role()
    digest = hashlib.blake2b(digest_size=10)
    for part in (page, language(), "" if role is None else f"{role.kind} {role.table}",
                 str(settings().get(GENERATION, "")), repr(_without_seq(dict(views)))):
        digest.update(part.encode("utf-8", "surrogatepass"))
        digest.update(b"\x00")
    return digest.hexdigest()


def held_version() -> str | None:
    """The version the polling page holds (None: not a poll)."""
    return request.args.get(VERSION_ARG)


def not_changed(seq: int | None) -> Response:
    """The answer to a page that holds the part as it is now (with the seq its forms take,
    where it has forms)."""
    response = Response(status=204)
    if seq is not None:
        response.headers[SEQ_HEADER] = str(seq)
    response.headers["Cache-Control"] = "no-store"
    return response


def poll_answer(page: str, seq: int | None, views: Mapping[str, Any], draw: Callable[[str], ResponseReturnValue]
                ) -> ResponseReturnValue:
    """A polled part's answer: :func:`not_changed` where the page holds this version, else
    ``draw(version)``, the part drawn with its version (which its poll sends back). A page
    that asks to be shown what was recorded (``X-Show-Recorded``, after a tap whose answer
    was lost) is drawn whatever it holds."""
    now_version = version(page, views)
    if held_version() == now_version and not request.headers.get("X-Show-Recorded"):
        return not_changed(seq)
    return draw(now_version)
