"""The players' database (issue "Seasons", part 1): each person once, whatever the night.

A person is a row of ``people`` (a name unique whatever its case, a nickname, a note). The
names a person has been registered under are ``person_names`` (a rename or a merge keeps the
old names there, so a night registered under one still finds the person), and each night's
player is tied to a person in ``person_entries``. A tournament keeps the name it was played
under (its events are its history); the database is where a person is renamed or merged.

Nights join the database by name (:func:`sync`): every tournament's players are matched to
people by name, case and spacing aside, and a name nobody has creates a person. The
registration form offers the people's names, and registering links the player at once.
Doubtful matches (names alike but not the same: "Ann" and "Anne") are for the host to merge:
the people page lists them.

This module holds the people and their writes: adding, editing and merging people and the
pages' visibility are registered commands (``club.person.add``, ``club.person.edit``,
``club.person.merge``, ``club.people.visibility``: ``director.core.commands``), each done in
one unit of work. :func:`link` and :func:`person_for` write inside the caller's unit of work
(a night's registration, an import); :func:`sync` is bookkeeping done on a read. A person's
record (nights, totals, hand statistics) is ``director.club.records``; the pages and their
JSON twins are ``director.club.people_pages``.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from typing import Any

from flask import current_app
from sqlite_utils import Database
from werkzeug.exceptions import NotFound

from director.core.commands import Call, command
from director.core.i18n import gettext
from director.core.inputs import MergeIn, PersonEditIn, PersonIn, VisibilityIn
from director.core.store import cache, load_state
from director.core.web import now
from director.core.work import Work, unit_of_work
from engine.errors import IllegalAction, InvalidInput, Term
from engine.tournament import MAX_NAME, Tournament, clean_name

MAX_NOTE = 500


def name_key(name: str) -> str:
    """A name as the database matches it: case and spacing aside.

    >>> name_key("  ann  Smith "), name_key("ANN SMITH")
    ('ann smith', 'ann smith')
    """
    return " ".join(name.split()).casefold()


# --- storage ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Person:
    id: int
    name: str
    nickname: str = ""
    note: str = ""
    created_at: float = 0.0

    def as_json(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "nickname": self.nickname or None, "note": self.note or None}


def people(db: Database) -> list[Person]:
    rows = db.execute("SELECT id, name, nickname, note, created_at FROM people ORDER BY lower(name), id").fetchall()
    return [Person(*r) for r in rows]


def person(db: Database, person_id: int) -> Person:
    row = db.execute("SELECT id, name, nickname, note, created_at FROM people WHERE id = ?", (person_id,)).fetchone()
    if row is None:
        raise NotFound(gettext("There is nobody number %(number)s in the players' database.", number=person_id))
    return Person(*row)


def person_for(conn: Any, name: str, at: float) -> int:
    """The person registered under ``name``, created if nobody was (inside a transaction)."""
    key = name_key(name)
    row = conn.execute("SELECT person_id FROM person_names WHERE name_key = ?", (key,)).fetchone()
    if row is not None:
        return int(row[0])
    row = conn.execute("SELECT id FROM people WHERE lower(name) = lower(?)", (" ".join(name.split()),)).fetchone()
    if row is None:
        cursor = conn.execute("INSERT INTO people (name, nickname, note, created_at) VALUES (?, '', '', ?)",
                              (" ".join(name.split()), at))
        pid = int(cursor.lastrowid or 0)
    else:
        pid = int(row[0])
    conn.execute("INSERT OR IGNORE INTO person_names (name_key, person_id) VALUES (?, ?)", (key, pid))
    return pid


def link(conn: Any, stream_id: int, player_id: int, name: str, at: float) -> int:
    """Tie a night's player to the person of that name (inside the caller's transaction)."""
    pid = person_for(conn, name, at)
    conn.execute("INSERT OR IGNORE INTO person_entries (stream_id, player_id, person_id) VALUES (?, ?, ?)",
                 (stream_id, player_id, pid))
    return pid


def sync(db: Database) -> None:
    """Every tournament's players tied to people: the nights played before the database, and
    those changed since the last look (one transaction)."""
    from director.cash.store import CLUB  # the club's members are people too

    stale = db.execute(
        "SELECT s.id, s.last_seq, s.kind FROM streams s LEFT JOIN people_synced p ON p.stream_id = s.id "
        "WHERE s.kind IN ('tournament', 'club') AND (p.seq IS NULL OR p.seq < s.last_seq)"
    ).fetchall()
    if not stale:
        return
    found: list[tuple[int, int, list[tuple[int, str]]]] = []
    for sid, seq, kind in stale:
        if kind == "club":
            club = cache.get(db, current_app.config["DATABASE"], sid, CLUB)
            found.append((sid, seq, [(m.id, m.name) for m in club.members]))
        else:
            found.append((sid, seq, [(p.id, p.name) for p in load_state(db, sid).players]))
    at = now()
    with unit_of_work(db, claim=False) as work:  # bookkeeping on a read, not the request's command
        for sid, seq, players in found:
            for pid, name in players:
                link(work.conn, sid, pid, name, at)
            work.execute("INSERT OR REPLACE INTO people_synced (stream_id, seq) VALUES (?, ?)", (sid, seq))


def entries_of(db: Database, stream_id: int) -> dict[int, int]:
    """A night's players and their people: player id -> person id."""
    rows = db.execute("SELECT player_id, person_id FROM person_entries WHERE stream_id = ?", (stream_id,)).fetchall()
    return {int(p): int(q) for p, q in rows}


def nights_of(db: Database, person_id: int) -> list[tuple[int, int]]:
    """``(tournament id, player id)`` of every night the person played, oldest first."""
    rows = db.execute(
        "SELECT e.stream_id, e.player_id FROM person_entries e JOIN streams s ON s.id = e.stream_id "
        "WHERE e.person_id = ? AND s.kind = 'tournament' ORDER BY s.created_at, s.id", (person_id,)
    ).fetchall()
    return [(int(s), int(p)) for s, p in rows]


def _clean(text: Any, what: Term, most: int) -> str:
    value = " ".join(str(text or "").split())
    if len(value) > most:
        raise InvalidInput("The {what} is at most {most} characters, not {count}.", what=what, most=str(most),
                           count=str(len(value)))
    return value


def _nobody(person_id: int) -> NotFound:
    return NotFound(gettext("There is nobody number %(number)s in the players' database.", number=person_id))


@dataclass(frozen=True)
class Changed:
    """A person changed: the one to show now, and what was done."""

    person_id: int
    said: str


@command("club.person.add", PersonIn, "Add a person to the players' database")
def add_command(work: Work, call: Call, data: PersonIn) -> int:
    """A new person (a name nobody has, whatever its case); returns the person's id."""
    name = clean_name(data.name, Term("name"))
    conn = work.conn
    if conn.execute("SELECT 1 FROM person_names WHERE name_key = ?", (name_key(name),)).fetchone() or \
            conn.execute("SELECT 1 FROM people WHERE lower(name) = lower(?)", (name,)).fetchone():
        raise IllegalAction("{name} is already in the players' database.", name=name)
    pid = person_for(conn, name, call.now)
    conn.execute("UPDATE people SET nickname = ?, note = ? WHERE id = ?",
                 (_clean(data.nickname, Term("nickname"), MAX_NAME), _clean(data.note, Term("note"), MAX_NOTE), pid))
    return pid


@command("club.person.edit", PersonEditIn, "Rename a person, or change the nickname or note")
def edit_command(work: Work, call: Call, data: PersonEditIn) -> Changed:
    """Rename the path's person, or change the nickname or the note (only the fields given);
    the old name still finds him."""
    person_id = int(call.ids["person_id"])
    given = data.model_dump(exclude_unset=True)
    conn = work.conn
    old = conn.execute("SELECT name, nickname, note FROM people WHERE id = ?", (person_id,)).fetchone()
    if old is None:
        raise _nobody(person_id)
    name = clean_name(given["name"], Term("name")) if given.get("name") not in (None, "") else old[0]
    nickname = _clean(given["nickname"], Term("nickname"), MAX_NAME) if given.get("nickname") is not None else old[1]
    note = _clean(given["note"], Term("note"), MAX_NOTE) if given.get("note") is not None else old[2]
    other = conn.execute("SELECT person_id FROM person_names WHERE name_key = ?", (name_key(name),)).fetchone()
    taken = conn.execute("SELECT id FROM people WHERE lower(name) = lower(?) AND id != ?", (name, person_id)).fetchone()
    if taken is not None or (other is not None and other[0] != person_id):
        raise IllegalAction("{name} is somebody else in the players' database: merge the two instead.", name=name)
    conn.execute("UPDATE people SET name = ?, nickname = ?, note = ? WHERE id = ?", (name, nickname, note, person_id))
    conn.execute("INSERT OR IGNORE INTO person_names (name_key, person_id) VALUES (?, ?)", (name_key(name), person_id))
    if name == old[0]:
        return Changed(person_id, gettext("Saved %(name)s.", name=name))
    return Changed(person_id, gettext("Renamed %(old)s to %(name)s: every night played follows.", old=old[0],
                                      name=name))


@command("club.person.merge", MergeIn, "Merge two records of one person: every night follows into the other")
def merge_command(work: Work, call: Call, data: MergeIn) -> Changed:
    """The path's person and ``into`` are one person: every night and name follows into ``into``."""
    person_id, into = int(call.ids["person_id"]), data.into
    if person_id == into:
        raise InvalidInput("A person cannot be merged into himself: choose the other record.")
    conn = work.conn
    rows = {r[0]: r[1] for r in conn.execute("SELECT id, name FROM people WHERE id IN (?, ?)", (person_id, into))}
    for pid in (person_id, into):
        if pid not in rows:
            raise _nobody(pid)
    both = conn.execute(
        "SELECT a.stream_id FROM person_entries a JOIN person_entries b ON a.stream_id = b.stream_id "
        "WHERE a.person_id = ? AND b.person_id = ? LIMIT 1", (person_id, into)).fetchone()
    if both is not None:
        raise IllegalAction("{name} and {other} both played tournament {tournament}: they are two people.",
                            name=rows[person_id], other=rows[into], tournament=str(both[0]))
    conn.execute("UPDATE person_entries SET person_id = ? WHERE person_id = ?", (into, person_id))
    conn.execute("UPDATE person_names SET person_id = ? WHERE person_id = ?", (into, person_id))
    conn.execute("DELETE FROM people WHERE id = ?", (person_id,))
    return Changed(into, gettext("Merged %(name)s into %(into)s: the nights of both are %(into)s's now.",
                                 name=rows[person_id], into=rows[into]))


def doubtful(everyone: list[Person], limit: int = 20) -> list[tuple[Person, Person]]:
    """Pairs whose names are alike but not the same (a typo, a short form): the host decides."""
    pairs = []
    keys = [(p, name_key(p.name)) for p in everyone]
    for i, (a, ka) in enumerate(keys):
        for b, kb in keys[i + 1:]:
            first_a, first_b = ka.split()[0], kb.split()[0]
            alike = difflib.SequenceMatcher(None, ka, kb).ratio() >= 0.8
            if alike or (first_a == first_b and (len(ka.split()) == 1 or len(kb.split()) == 1)):
                pairs.append((a, b))
                if len(pairs) >= limit:
                    return pairs
    return pairs


def knockouts_by(state: Tournament) -> dict[int, int]:
    """Knockouts each player made (a split pot's knockout counts for each who split it)."""
    out: dict[int, int] = {}
    for bust in state.standings.history:
        for pid in bust.takers:
            out[pid] = out.get(pid, 0) + 1
    return out


# --- who sees a person's page ---------------------------------------------------------------

PUBLIC_KEY = "people_public"


def pages_public(db: Database) -> bool:
    """Whether the players' pages are for everyone (the host's choice), not the director only."""
    row = db.execute("SELECT value FROM settings WHERE key = ?", (PUBLIC_KEY,)).fetchone()
    return row is not None and row[0] == "1"


@command("club.people.visibility", VisibilityIn, "Make the players' pages public (anyone on the network) or "
         "the director's only")
def visibility_command(work: Work, call: Call, data: VisibilityIn) -> str:
    work.execute("INSERT OR REPLACE INTO settings (key, value) VALUES (?, ?)", (PUBLIC_KEY, "1" if data.public else "0"))
    return (gettext("The players' pages are public: anyone on the network can open them.") if data.public
            else gettext("The players' pages are for the director only."))
