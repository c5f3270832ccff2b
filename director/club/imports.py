"""Bringing data in (issue "Seasons", part 6): the players from a CSV (name, nickname), and the
past results of a season (season, date, name, place, prize, knockouts, and optionally the
night's name, which keeps two nights of one day apart) so that a league can start mid-season.
Each import is a registered command (``club.import.players``, ``club.import.results``) done in
one unit of work: a file with one bad line imports nothing, and the refusal names the line and
the reason.

Pages: the forms on ``/people`` and ``/seasons`` post to ``/people/import`` and
``/seasons/import`` (a file, or the text as ``csv``); JSON twins ``POST /api/people/import``
and ``POST /api/seasons/import`` take the file's text as ``csv``.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from typing import Any

from flask import Blueprint, flash, jsonify, redirect, request, url_for
from flask.typing import ResponseReturnValue
from sqlite_utils import Database
from werkzeug.datastructures import MultiDict

from director.club.people import name_key, person_for
from director.core import inputs, shapes
from director.core.auth import login_required
from director.core.commands import Call, Command, api_route, command, perform, run
from director.core.contract import Api, read
from director.core.i18n import gettext, ngettext
from director.core.words import say
from director.core.work import Work
from engine.errors import N_, EngineError, InvalidInput, Term
from engine.limits import MAX_MONEY, MAX_PLAYERS
from engine.tournament import MAX_NAME, clean_name

bp = Blueprint("imports", __name__)
api = Api(bp, "imports")
MAX_ROWS = 20_000
MAX_CSV = 5 * 1024 * 1024
PLAYER_COLUMNS = ("name",)
RESULT_COLUMNS = ("season", "date", "name", "place", "prize", "knockouts")


def _lines(text: str) -> str:
    """The file's text with its line ends as the CSV reader reads them. A file whose lines all
    end with a carriage return alone (an old Mac's CSV) is read line by line; a carriage return
    alone among ordinary line ends is refused with its line."""
    if "\r" not in text:
        return text
    if "\n" not in text:
        return text.replace("\r", "\n")
    for number, line in enumerate(text.replace("\r\n", "\n").split("\n"), start=1):
        if "\r" in line:
            raise InvalidInput("Line {line}: a carriage return alone in the middle of the line. Save the file as "
                               "CSV (UTF-8) and try again.", line=str(number))
    return text


def _rows(text: str, needed: Sequence[str]) -> list[tuple[int, dict[str, str]]]:
    """The CSV's rows with their line numbers; refused when the file cannot be read as CSV or a
    needed column is missing, with the line and what is wrong."""
    if len(text) > MAX_CSV:
        raise InvalidInput("The file is larger than {size} MB.", size=MAX_CSV // 1024 // 1024)
    if "\x00" in text:
        raise InvalidInput("Line {line}: the file holds a NUL character: it is not a CSV text file.",
                           line=str(text.count("\n", 0, text.index("\x00")) + 1))
    reader = csv.DictReader(io.StringIO(_lines(text.lstrip("\ufeff")), newline=""), strict=True)
    try:
        return _read(reader, needed)
    except csv.Error as error:
        raise InvalidInput("Line {line}: the file cannot be read as CSV ({reason}).", line=str(reader.line_num or 1),
                           reason=_csv_reason(error)) from None


def _csv_reason(error: csv.Error) -> str:
    """The CSV reader's complaint in words a host can act on."""
    text = str(error)
    if "unexpected end of data" in text or "EOF" in text:
        return Term("a quote opened here is never closed")
    if "expected" in text and "delimiter" in text:
        return Term("a quote closes in the middle of a field")
    return text


def _read(reader: csv.DictReader[str], needed: Sequence[str]) -> list[tuple[int, dict[str, str]]]:
    header = [h.strip().lower() for h in (reader.fieldnames or [])]
    missing = [c for c in needed if c not in header]
    if missing:
        if len(missing) > 1:
            raise InvalidInput("Line 1: the columns {missing} are missing (the first line names the columns: "
                               "{needed}).", missing=", ".join(missing), needed=", ".join(needed))
        raise InvalidInput("Line 1: the column {missing} is missing (the first line names the columns: {needed}).",
                           missing=", ".join(missing), needed=", ".join(needed))
    out = []
    for raw in reader:
        n = reader.line_num
        row = {str(k).strip().lower(): (v or "").strip() for k, v in raw.items() if k is not None}
        if not any(row.values()):
            continue
        out.append((n, row))
        if len(out) > MAX_ROWS:
            raise InvalidInput("At most {count} lines in one import.", count=MAX_ROWS)
    if not out:
        raise InvalidInput("The file has no line after its header: nothing to import.")
    return out


def _whole(value: str, what: str, line: int, low: int, high: int) -> int:
    cleaned = value.replace(",", "").replace(" ", "")
    if not cleaned.isdigit() or not low <= int(cleaned) <= high:
        raise InvalidInput("Line {line}: the {what} must be a whole number from {low} to {high}, not {value}.",
                           line=str(line), what=Term(what), low=low, high=high, value=repr(value))
    return int(cleaned)


def _upload_form(needed: Sequence[str]) -> Callable[[MultiDict[str, str]], dict[str, Any]]:
    """A page's import form: the file sent (or the text typed as ``csv``) as the input's
    ``csv``. A file empty or too large is refused as the import refuses it (its first line, its
    size), before the input's own bounds would word it otherwise."""

    def form(fields: MultiDict[str, str]) -> dict[str, Any]:
        text = _uploaded(fields)
        if not 1 <= len(text) <= MAX_CSV:
            _rows(text, needed)
        return {"csv": text}

    return form


@command("club.import.players", inputs.CsvIn, "Import players from CSV (columns name, nickname): all of it or nothing",
         form=_upload_form(PLAYER_COLUMNS))
def players_command(work: Work, call: Call, data: inputs.CsvIn) -> str:
    """Everyone on the file: a new person each, or the nickname of one already known."""
    rows = _rows(data.csv, PLAYER_COLUMNS)
    seen: dict[str, int] = {}
    clean: list[tuple[str, str]] = []
    for line, row in rows:
        try:
            name = clean_name(row.get("name"), Term("name"))
        except EngineError as error:
            raise InvalidInput("Line {line}: {error}", line=str(line), error=error) from None
        nickname = row.get("nickname", "")
        if len(nickname) > MAX_NAME:
            raise InvalidInput("Line {line}: the nickname is at most {most} characters.", line=str(line),
                               most=str(MAX_NAME))
        key = name_key(name)
        if key in seen:
            raise InvalidInput("Line {line}: {name} is already on line {other}.", line=str(line), name=name,
                               other=str(seen[key]))
        seen[key] = line
        clean.append((name, nickname))
    added = 0
    conn = work.conn
    for name, nickname in clean:
        known = conn.execute("SELECT person_id FROM person_names WHERE name_key = ?", (name_key(name),)).fetchone()
        pid = person_for(conn, name, call.now)
        if known is None:
            added += 1
        if nickname:
            conn.execute("UPDATE people SET nickname = ? WHERE id = ?", (nickname, pid))
    return ngettext("Imported %(num)d player: %(added)s new, %(known)s already known.",
                    "Imported %(num)d players: %(added)s new, %(known)s already known.", len(clean), added=added,
                    known=len(clean) - added)


def _date(value: str, line: int, today: float) -> float:
    try:
        day = datetime.strptime(value, "%Y-%m-%d").replace(tzinfo=UTC)
    except ValueError:
        raise InvalidInput("Line {line}: the date must be written 2026-11-27, not {value}.", line=str(line),
                           value=repr(value)) from None
    at = day.timestamp() + 20 * 3600  # an evening
    if day.timestamp() > today:
        raise InvalidInput("Line {line}: {value} is in the future.", line=str(line), value=value)
    return at


def _check_places(date: str, places: Sequence[tuple[int, int]]) -> None:
    """A night's places are 1 to n, players who tie sharing a place and the next place skipping
    the places they fill (1, 2, 2, 4): otherwise refused with the first line that breaks it."""
    by_place: dict[int, list[int]] = {}
    for line, place in places:
        by_place.setdefault(place, []).append(line)
    expected, last = 1, 0
    for place in sorted(by_place):
        line = min(by_place[place])
        if place > expected:
            if expected == 1:
                raise InvalidInput("Line {line}: place {place} on {date}, but nobody is 1st: the places of a night "
                                   "start at 1.", line=str(line), place=str(place), date=date)
            raise InvalidInput("Line {line}: place {place} on {date}, but nobody is placed {expected}: the places "
                               "follow each other, and players who tie share one (1, 2, 2, 4).", line=str(line),
                               place=str(place), date=date, expected=str(expected))
        if place < expected:
            raise InvalidInput("Line {line}: place {place} on {date} is already filled: after a tie for place "
                               "{tied}, the next place is {expected} (1, 2, 2, 4).", line=str(line), place=str(place),
                               date=date, tied=str(last), expected=str(expected))
        expected, last = place + len(by_place[place]), place


@command("club.import.results", inputs.CsvIn, "Import past results from CSV (season, date, name, place, prize, "
         "knockouts): all of it or nothing", form=_upload_form(RESULT_COLUMNS))
def results_command(work: Work, call: Call, data: inputs.CsvIn) -> str:
    """Each night on the file as an imported night of its season, its players people."""
    at = call.now
    rows = _rows(data.csv, RESULT_COLUMNS)
    seasons = {name.casefold(): sid for sid, name in work.execute("SELECT id, name FROM seasons").fetchall()}
    nights: dict[tuple[int, float, str], dict[str, Any]] = {}
    for line, row in rows:
        season = seasons.get(row["season"].casefold())
        if season is None:
            raise InvalidInput("Line {line}: there is no season {season} (create it first).", line=str(line),
                               season=repr(row["season"]))
        when = _date(row["date"], line, at)
        try:
            name = clean_name(row["name"], Term("name"))
        except EngineError as error:
            raise InvalidInput("Line {line}: {error}", line=str(line), error=error) from None
        place = _whole(row["place"], N_("place"), line, 1, MAX_PLAYERS)
        prize = _whole(row["prize"] or "0", N_("prize"), line, 0, MAX_MONEY)
        knockouts = _whole(row["knockouts"] or "0", N_("number of knockouts"), line, 0, MAX_PLAYERS)
        label = row.get("night", "")  # optional: two nights of one day stay two
        night = nights.setdefault((season, when, label), {"rows": {}, "line": line, "date": row["date"], "label": label})
        if name_key(name) in night["rows"]:
            raise InvalidInput("Line {line}: {name} is on line {other} for the same night.", line=str(line), name=name,
                               other=str(night["rows"][name_key(name)][0]))
        night["rows"][name_key(name)] = (line, name, place, prize, knockouts)
    for night in nights.values():
        _check_places(night["date"], [(line, place) for line, _, place, _, _ in night["rows"].values()])
    conn = work.conn
    for (season, when, _), night in nights.items():
        name = night["label"] or ""  # no label: named in the reader's language (club.seasons.imported_name)
        cursor = conn.execute("INSERT INTO imported_nights (season_id, name, at) VALUES (?, ?, ?)", (season, name, when))
        night_id = int(cursor.lastrowid or 0)
        for _, person_name, place, prize, knockouts in night["rows"].values():
            pid = person_for(conn, person_name, at)
            conn.execute("INSERT INTO imported_results (night_id, person_id, place, prize, knockouts) "
                         "VALUES (?, ?, ?, ?, ?)", (night_id, pid, place, prize, knockouts))
    count = len(nights)
    return ngettext("Imported %(num)d result of %(nights)s.", "Imported %(num)d results of %(nights)s.", len(rows),
                    nights=ngettext("%(num)d night", "%(num)d nights", count))


def import_players(db: Database, text: str, at: float) -> str:
    """``club.import.players`` from code: what it says."""
    said: str = run(players_command, read(inputs.CsvIn, {"csv": text}), db=db, now=at)
    return said


def import_results(db: Database, text: str, at: float) -> str:
    """``club.import.results`` from code: what it says."""
    said: str = run(results_command, read(inputs.CsvIn, {"csv": text}), db=db, now=at)
    return said


def _uploaded(fields: MultiDict[str, str]) -> str:
    """The file the form sent, as text, or else the text typed as ``csv``."""
    upload = request.files.get("file")
    if upload is not None and upload.filename:
        data = upload.read(MAX_CSV + 1)
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError:
            raise InvalidInput("The file is not text in UTF-8: save it as CSV (UTF-8) and try again.") from None
    return str(fields.get("csv", ""))


def _page_import(cmd: Command, back: str) -> ResponseReturnValue:
    try:
        message = perform(cmd)
    except EngineError as error:
        flash(gettext("Nothing was imported. %(reason)s", reason=say(error)), "error")
        return redirect(back, code=303)
    flash(message, "ok")
    return redirect(back, code=303)


@bp.post("/people/import")
@login_required
def people_page() -> ResponseReturnValue:
    return _page_import(players_command, url_for("people.index"))


@bp.post("/seasons/import")
@login_required
def seasons_page() -> ResponseReturnValue:
    return _page_import(results_command, url_for("seasons.index"))


def _notice(said: str) -> ResponseReturnValue:
    return jsonify(notice=said)


api_route(api, "/api/people/import", players_command, _notice, result=shapes.Done, status=200, endpoint="api_people")
api_route(api, "/api/seasons/import", results_command, _notice, result=shapes.Done, status=200, endpoint="api_results")


__all__ = ["bp", "import_players", "import_results", "players_command", "results_command"]
