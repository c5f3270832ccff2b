"""Who is asking, and what they may do: the director (the password), the floor (a helper's
phone, by the floor's link), a table's dealer (the phone at table N, by that table's link) and
a cash table's dealer. Players only read, as before.

A link's token opens its role in the phone's browser (``/l#<token>``: the token rides in the
address's fragment, which a browser never sends, so no server log holds it; the page posts it
and the session keeps the link's id) or is given to the JSON API as a bearer token (``Authorization: Bearer <token>``), so that a
club's own display or a script can be given just one table. Every registered command
declares the roles that may call it (``director.core.commands``); :func:`refusal` says, in a
sentence a dealer can read aloud, why a role may not: 403 on the page and in the JSON API.

Every event records its author (:attr:`Role.author`): ``director``, ``floor``, ``dealer 3``,
``cash dealer 2``, each with ``/api`` when it came through the JSON API.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from flask import current_app, g, has_request_context, request, session

from director.core.db import get_db
from director.core.i18n import translated
from engine.errors import Message

DIRECTOR = "director"
FLOOR = "floor"
DEALER = "dealer"
CASH_DEALER = "cash dealer"
ROLES = (DIRECTOR, FLOOR, DEALER, CASH_DEALER)
"""Every role, the director's first."""
ANYONE = "anyone"
"""Not a role: who may read what needs none (the players' pages, the TV, a club's display),
as the OpenAPI document's ``x-roles`` says it."""


class NotYours(Exception):
    """A command outside the caller's role: 403 with :attr:`sentence`."""

    def __init__(self, sentence: str) -> None:
        super().__init__(sentence)
        self.sentence = sentence


@dataclass(frozen=True)
class Role:
    """Who a request comes from. ``stream`` is the tournament (or the cash session) a link
    is for and ``table`` its table; ``api`` says it came through the JSON API."""

    kind: str
    stream: int | None = None
    table: int | None = None
    link: int | None = None
    api: bool = False

    @property
    def author(self) -> str:
        """What the log records as the author of an event this role wrote."""
        who = self.kind if self.table is None or self.kind == FLOOR else f"{self.kind} {self.table}"
        return who + ("/api" if self.api else "")

    def words(self) -> str:
        """The role in a sentence: ``table 3's dealer``."""
        return role_words(self.kind, self.table)


def role_words(kind: str, table: int | None = None) -> str:
    if kind == DEALER:
        return Message("table {table}'s dealer", table=table)
    if kind == CASH_DEALER:
        return Message("cash table {table}'s dealer", table=table)
    if kind == FLOOR:
        return Message("the floor")
    return Message("the director")


def author_words(author: str | None) -> str:
    """An event's author as the log shows it: ``table 3's phone``, ``the director (JSON API)``.
    Events written before authors were recorded show nothing."""
    if not author:
        return ""
    who, _, via = author.partition("/")
    kind, _, table = who.rpartition(" ") if who[-1:].isdigit() else (who, "", "")
    if kind == DEALER:
        said = Message("table {table}'s phone", table=int(table))
    elif kind == CASH_DEALER:
        said = Message("cash table {table}'s phone", table=int(table))
    elif kind == FLOOR:
        said = Message("the floor")
    else:
        said = Message("the director")
    return Message("{who} (JSON API)", who=said) if via == "api" else said


# --- which role a request has -------------------------------------------------------------------


@dataclass(frozen=True)
class Link:
    """A link as stored: its ``nonce`` (random, 128 bits) and the hash of its token, never the
    token itself (:func:`link_token` derives it from the nonce with the app's secret key)."""

    id: int
    nonce: str
    token_hash: str
    kind: str
    stream: int
    table: int | None
    created_at: float
    ended_at: float | None
    ended_why: str | None

    def role(self, api: bool = False) -> Role:
        return Role(self.kind, self.stream, self.table, self.id, api)

    @property
    def token(self) -> str:
        """The link's token (what its QR code carries), or "" when the app's secret key is not
        the one it was made with (a backup restored on another laptop: renew the link)."""
        token = link_token(self.nonce)
        return token if hmac.compare_digest(hash_token(token), self.token_hash) else ""


LINK_COLUMNS = "id, nonce, token_hash, kind, stream_id, table_no, created_at, ended_at, ended_why"


def link_token(nonce: str) -> str:
    """The token of the link with ``nonce``: an HMAC of the nonce under the app's secret key
    (192 bits, URL-safe), so the database alone holds no working token."""
    key = current_app.secret_key
    key_bytes = key if isinstance(key, bytes) else str(key).encode()
    digest = hmac.new(key_bytes, b"link:" + nonce.encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest[:24]).decode()


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def new_link(execute: Callable[..., Any], kind: str, stream: int, table: int | None, at: float) -> str:
    """Store a new link (through the unit of work's ``execute``) and return its token."""
    nonce = secrets.token_urlsafe(16)
    token = link_token(nonce)
    execute("INSERT INTO links (nonce, token_hash, kind, stream_id, table_no, created_at) VALUES (?, ?, ?, ?, ?, ?)",
            (nonce, hash_token(token), kind, stream, table, at))
    return token


def find_link(token: str) -> Link | None:
    """The link whose token is ``token`` (ended or not), None when there is none; the token is
    looked up by its hash and compared in constant time."""
    if not token or len(token) > 100:
        return None
    wanted = hash_token(token)
    row = get_db().execute(f"SELECT {LINK_COLUMNS} FROM links WHERE token_hash = ?", [wanted]).fetchone()
    if row is None or not hmac.compare_digest(row[2], wanted):
        return None
    return Link(*row)


def link_by_id(link_id: int) -> Link | None:
    row = get_db().execute(f"SELECT {LINK_COLUMNS} FROM links WHERE id = ?", [link_id]).fetchone()
    return None if row is None else Link(*row)


def session_link() -> Link | None:
    """The link this browser opened (its id is kept in the signed session), ended or not."""
    link_id = session.get("link")
    return link_by_id(link_id) if isinstance(link_id, int) and not isinstance(link_id, bool) else None


def _is_api() -> bool:
    return request.path.startswith("/api/")


def bearer_token() -> str | None:
    """The token of ``Authorization: Bearer <token>``, if the request has one."""
    header = request.headers.get("Authorization", "")
    scheme, _, token = header.partition(" ")
    return token.strip() if scheme.lower() == "bearer" and token.strip() else None


def current_role() -> Role | None:
    """The request's role (found once a request): a bearer token's link, else the director's
    login, else the link this browser opened; None for a player or a stranger."""
    if not has_request_context():
        return None
    if "role" not in g:
        g.role = _find_role()
    role: Role | None = g.role
    return role


_judges: list[Callable[[Link], str | None]] = []


def judge_links_with(judge: Callable[[Link], str | None]) -> None:
    """Have ``judge`` say why a link no longer works (its table broke, its night ended), or
    None; the area that owns the tables registers it (core reads no tournament)."""
    _judges.append(judge)


def link_refusal(link: Link) -> str | None:
    """Why ``link`` no longer works (None: it works)."""
    if link.ended_at is not None:
        return Message("The director ended this link: ask for a new one.")
    for judge in _judges:
        said = judge(link)
        if said is not None:
            return said
    return None


def _find_role() -> Role | None:
    token = bearer_token()
    if token is not None:
        link = find_link(token)
        return link.role(api=True) if link is not None and link_refusal(link) is None else None
    if session.get("director"):
        return Role(DIRECTOR, api=_is_api())
    link = session_link()
    if link is not None and link_refusal(link) is None:
        return link.role(api=_is_api())
    return None


def author() -> str | None:
    """The author of the events this request writes (None outside a request: a test, the demo,
    the command line)."""
    role = current_role()
    return role.author if role is not None else None


# --- what a role may do ----------------------------------------------------------------------------


def _whom(roles: tuple[str, ...]) -> str:
    said = [role_words(kind) if kind in (DIRECTOR, FLOOR) else Message("a table's dealer") for kind in roles]
    unique = list(dict.fromkeys(said))
    if len(unique) == 1:
        return unique[0]
    return Message("{some} or {last}", some=", ".join(unique[:-1]), last=unique[-1])


def refusal(role: Role | None, name: str, summary: str, roles: tuple[str, ...], ids: Mapping[str, Any]) -> str | None:
    """Why ``role`` may not run the command ``name`` with ``ids`` (None: it may)."""
    if role is None or role.kind == DIRECTOR:
        return None  # a stranger is sent to log in before this; the director may do everything
    said = translated(summary)  # the command's summary in the phone's language
    what = said[:1].lower() + said[1:]
    if role.kind not in roles:
        return Message("This phone is {who}: “{what}” is for {whom}.", who=role.words(), what=what,
                       whom=_whom(roles))
    stream = ids.get("tournament_id", ids.get("session_id"))
    if stream is not None and int(stream) != role.stream:
        return Message("This phone is {who} in another night: it may not change this one.", who=role.words())
    table = ids.get("table", ids.get("table_no"))
    if role.kind in (DEALER, CASH_DEALER) and table is not None and int(table) != role.table:
        return Message("This phone is {who}: table {other}'s hands are entered on table {other}'s phone.",
                       who=role.words(), other=int(table))
    return None


def check(name: str, summary: str, roles: tuple[str, ...], ids: Mapping[str, Any]) -> None:
    """Refuse (:class:`NotYours`) a command outside the request's role."""
    said = refusal(current_role(), name, summary, roles, ids)
    if said is not None:
        raise NotYours(said)


def signed_in() -> bool:
    """Whether the request has a role that writes (the director, the floor, a dealer)."""
    return current_role() is not None


__all__ = [
    "ANYONE",
    "CASH_DEALER",
    "DEALER",
    "DIRECTOR",
    "FLOOR",

    "ROLES",
    "Link",
    "NotYours",
    "Role",
    "author",
    "author_words",
    "bearer_token",
    "check",
    "current_role",
    "find_link",
    "hash_token",
    "judge_links_with",
    "link_by_id",
    "link_refusal",
    "link_token",
    "new_link",
    "refusal",
    "role_words",
    "session_link",
    "signed_in",
]
