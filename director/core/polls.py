"""The answers that every phone polls, served again without the app while nothing changed.

A view whose answer depends only on its URL and on one stream's events (a player's live
seat and standings) marks it with ``X-Poll-Cache: <stream id> <seq> <valid until>``. This
WSGI middleware keeps that answer by URL; the next GET of the URL is answered from it when
the stream's last seq is still ``seq`` (one indexed read on a connection the thread keeps)
and the time is before ``valid until`` (a notice that must go away, a minute at most), and
with ``304 Not Modified`` when the client already holds it (``If-None-Match``); the key holds
the browser's ``Accept-Language`` too, and the host's change of language clears it. Anything
else goes to the app. The header never leaves the server.

A club night's 300 phones polling every few seconds cost, each, the fold check, the
standings and a template; answered from here they cost a dictionary lookup and one read.
"""

from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import Callable, Iterable
from typing import Any

HEADER = "X-Poll-Cache"
MAX_AGE = 60.0
"""The longest an answer is reused without the app, whatever it says."""

StartResponse = Callable[..., Any]
WsgiApp = Callable[[dict[str, Any], StartResponse], Iterable[bytes]]


_local = threading.local()


def last_seq(database: str, stream: int) -> int | None:
    """A stream's last seq, read on a read-only connection this thread keeps (one per thread,
    closed when the thread turns to another database)."""
    held: tuple[str, sqlite3.Connection] | None = getattr(_local, "held", None)
    if held is None or held[0] != database:
        if held is not None:
            held[1].close()
        held = (database, sqlite3.connect(f"file:{database}?mode=ro", uri=True, timeout=15))
        _local.held = held
    rows = held[1].execute("SELECT last_seq FROM streams WHERE id = ?", (stream,)).fetchall()
    return int(rows[0][0]) if rows else None


class Stored:
    __slots__ = ("body", "etag", "headers", "seq", "status", "stream", "until")

    def __init__(self, status: str, headers: list[tuple[str, str]], body: bytes, stream: int, seq: int,
                 until: float) -> None:
        self.status = status
        self.headers = headers
        self.body = body
        self.stream = stream
        self.seq = seq
        self.until = until
        self.etag = f'"{stream}-{seq}-{hash(body) & 0xFFFFFFFF:x}"'


class PollCache:
    """See the module docstring. ``database`` is the path the app's events live in."""

    def __init__(self, app: WsgiApp, database: str, clock: Callable[[], float] = time.time) -> None:
        self.app = app
        self.database = database
        self.clock = clock
        self._stored: dict[str, Stored] = {}
        self.hits = 0

    def last_seq(self, stream: int) -> int | None:
        return last_seq(self.database, stream)

    def __call__(self, environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        if environ.get("REQUEST_METHOD") != "GET":
            return self.app(environ, start_response)
        # A phone's page is in its browser's language: the same URL in another language is
        # another answer (the header is cut short: it only chooses among a few languages).
        key = (environ.get("PATH_INFO", "") + "?" + environ.get("QUERY_STRING", "") + "#"
               + environ.get("HTTP_ACCEPT_LANGUAGE", "")[:64])
        stored = self._stored.get(key)
        if stored is not None:
            try:
                fresh = self.clock() < stored.until and self.last_seq(stored.stream) == stored.seq
            except sqlite3.Error:
                fresh = False
            if fresh:
                self.hits += 1
                if environ.get("HTTP_IF_NONE_MATCH") == stored.etag:
                    start_response("304 Not Modified", [("ETag", stored.etag), *self._cache_headers(stored)])
                    return [b""]
                start_response(stored.status, [*stored.headers, ("ETag", stored.etag)])
                return [stored.body]
            self._stored.pop(key, None)
        return self._through(key, environ, start_response)

    @staticmethod
    def _cache_headers(stored: Stored) -> list[tuple[str, str]]:
        return [(k, v) for k, v in stored.headers if k.lower() in ("cache-control", "vary")]

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
        stored = Stored(captured["status"], captured["headers"], body, int(stream), int(seq),
                        min(float(until), self.clock() + MAX_AGE))
        if captured["status"].startswith("200"):
            self._stored[key] = stored
        headers = [(k, v) for k, v in captured["headers"] if k.lower() != "content-length"]
        start_response(captured["status"], [*headers, ("Content-Length", str(len(body))), ("ETag", stored.etag)])
        return [body]

    def clear(self) -> None:
        self._stored.clear()
