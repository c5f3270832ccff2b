"""The answers that every phone polls, served again without the app while nothing changed.

A view whose answer depends only on its URL and on one stream's events (a player's live
seat and standings) marks it with ``X-Poll-Cache: <stream id> <seq> <valid until>``. This
WSGI middleware keeps that answer by URL; the next GET of the URL is answered from it when
the stream's last seq is still ``seq`` (one indexed read on a connection the thread keeps)
and the time is before ``valid until`` (a notice that must go away, a minute at most), and
with ``304 Not Modified`` when the client already holds it (``If-None-Match``); the key holds
the browser's ``Accept-Language`` too, and the host's change of language clears it. Anything
else goes to the app. The header never leaves the server.

A stream moves on with every bet at every table, yet most of those bets change nothing on a
given phone. A view may leave in the request's environ (:data:`RECHECK`) how to tell that its
answer is still right at a later seq: a player's page only needs its own tables and the
standings to be as they were. The answer is then kept, and checked forward, instead of being
made again after each of the night's bets.

Several server processes may share the database, each with its own answers: each answer
notes the database's generation (``app_settings``' ``generation``, which a restore, a
migration and the host's change of language bump), and is not served once it has moved.

A club night's 300 phones polling every few seconds cost, each, the fold check, the
standings and a template; answered from here they cost a dictionary lookup and one read.
"""

from __future__ import annotations

import sqlite3
import threading
import time
import zlib
from collections.abc import Callable, Iterable
from typing import Any

HEADER = "X-Poll-Cache"
SERVER_NOW_HEADER = "X-Server-Now"
"""An answer that carries the server's time (the clocks) gets it fresh each time it is
served, a 304 too: epoch milliseconds."""
RECHECK = "poker_director.poll_recheck"
"""Where a view leaves, in the environ, a function of the seq its answer was last checked at
and the stream's last seq, that answers the newer seq where the answer is still right then,
else None."""
MAX_AGE = 60.0
"""The longest an answer is reused without the app, whatever it says."""

StartResponse = Callable[..., Any]
WsgiApp = Callable[[dict[str, Any], StartResponse], Iterable[bytes]]


_local = threading.local()


Recheck = Callable[[int, int], "int | None"]


def _connection(database: str) -> sqlite3.Connection:
    """A read-only connection this thread keeps (one per thread, closed when the thread turns
    to another database)."""
    held: tuple[str, sqlite3.Connection] | None = getattr(_local, "held", None)
    if held is None or held[0] != database:
        if held is not None:
            held[1].close()
        held = (database, sqlite3.connect(f"file:{database}?mode=ro", uri=True, timeout=15))
        _local.held = held
    return held[1]


def last_seq(database: str, stream: int) -> int | None:
    """A stream's last seq (None: no such stream)."""
    rows = _connection(database).execute("SELECT last_seq FROM streams WHERE id = ?", (stream,)).fetchall()
    return int(rows[0][0]) if rows else None


def seq_and_generation(database: str, stream: int) -> tuple[int | None, str]:
    """A stream's last seq and the database's generation, in one read."""
    row = _connection(database).execute(
        "SELECT (SELECT last_seq FROM streams WHERE id = ?), "
        "(SELECT value FROM app_settings WHERE key = 'generation')", (stream,)).fetchone()
    return (None if row[0] is None else int(row[0])), str(row[1] or "")


class Stored:
    __slots__ = ("body", "etag", "generation", "headers", "recheck", "seq", "status", "stream", "until")

    def __init__(self, status: str, headers: list[tuple[str, str]], body: bytes, stream: int, seq: int,
                 until: float, generation: str = "", recheck: Recheck | None = None) -> None:
        self.status = status
        self.headers = headers
        self.body = body
        self.stream = stream
        self.seq = seq
        self.until = until
        self.generation = generation
        self.recheck = recheck
        # The same answer has the same tag in every server process (a screen's next poll may
        # reach another worker).
        self.etag = f'"{stream}-{seq}-{zlib.crc32(body):x}"'


class PollCache:
    """See the module docstring. ``database`` is the path the app's events live in."""

    def __init__(self, app: WsgiApp, database: str, clock: Callable[[], float] = time.time) -> None:
        self.app = app
        self.database = database
        self.clock = clock
        self._stored: dict[str, Stored] = {}
        self.hits = 0
        self.rechecked = 0

    def fresh(self, stored: Stored) -> bool:
        """Whether ``stored`` is still the answer: in time, in this generation of the
        database, at its stream's last seq or still right there (its recheck says so)."""
        if self.clock() >= stored.until:
            return False
        try:
            seq, generation = seq_and_generation(self.database, stored.stream)
        except sqlite3.Error:
            return False
        if seq is None or generation != stored.generation:
            return False
        if seq == stored.seq:
            return True
        if stored.recheck is None or seq < stored.seq:
            return False
        try:
            moved = stored.recheck(stored.seq, seq)
        except Exception:  # the app answers instead, and says what went wrong
            return False
        if moved is None:
            return False
        stored.seq = max(stored.seq, moved)
        self.rechecked += 1
        return True

    def __call__(self, environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        if environ.get("REQUEST_METHOD") != "GET":
            return self.app(environ, start_response)
        # A phone's page is in its browser's language: the same URL in another language is
        # another answer (the header is cut short: it only chooses among a few languages), and
        # so are the gzipped answer and htmx's partial where the page itself has the same URL.
        key = (environ.get("PATH_INFO", "") + "?" + environ.get("QUERY_STRING", "") + "#"
               + environ.get("HTTP_ACCEPT_LANGUAGE", "")[:64]
               + ("#gzip" if "gzip" in environ.get("HTTP_ACCEPT_ENCODING", "") else "")
               + ("#htmx" if environ.get("HTTP_HX_REQUEST") else ""))  # a partial, or its whole page
        stored = self._stored.get(key)
        if stored is not None:
            if self.fresh(stored):
                self.hits += 1
                if environ.get("HTTP_IF_NONE_MATCH") == stored.etag:
                    start_response("304 Not Modified", [("ETag", stored.etag), *self._cache_headers(stored)])
                    return [b""]
                start_response(stored.status, [*self._now(stored.headers), ("ETag", stored.etag)])
                return [stored.body]
            self._stored.pop(key, None)
        return self._through(key, environ, start_response)

    def _cache_headers(self, stored: Stored) -> list[tuple[str, str]]:
        return self._now([(k, v) for k, v in stored.headers if k.lower() in ("cache-control", "vary", "x-server-now")])

    def _now(self, headers: list[tuple[str, str]]) -> list[tuple[str, str]]:
        """The headers with the server's time as it is now, where they carry it."""
        return [(k, str(round(self.clock() * 1000)) if k == SERVER_NOW_HEADER else v) for k, v in headers]

    def _through(self, key: str, environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        captured: dict[str, Any] = {}

        def capture(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Any:
            mark = next((v for k, v in headers if k == HEADER), None)
            kept = [(k, v) for k, v in headers if k != HEADER]
            captured.update(status=status, headers=kept, mark=mark)
            if mark is None:
                return start_response(status, kept, exc_info) if exc_info else start_response(status, kept)
            return lambda _data: None  # the body is sent below, with its ETag

        result = self.app(environ, capture)
        if captured.get("mark") is None:
            return result
        try:
            body = b"".join(result)
        finally:
            close = getattr(result, "close", None)
            if close is not None:
                close()
        stream, seq, until = captured["mark"].split()
        try:
            generation = seq_and_generation(self.database, int(stream))[1]
        except sqlite3.Error:
            generation = None
        stored = Stored(captured["status"], captured["headers"], body, int(stream), int(seq),
                        min(float(until), self.clock() + MAX_AGE), generation or "", environ.get(RECHECK))
        if captured["status"].startswith("200") and generation is not None:
            self._stored[key] = stored
        headers = [(k, v) for k, v in captured["headers"] if k.lower() != "content-length"]
        start_response(captured["status"], [*headers, ("Content-Length", str(len(body))), ("ETag", stored.etag)])
        return [body]

    def clear(self) -> None:
        self._stored.clear()
