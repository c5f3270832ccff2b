"""The host's TV: its layout, theme, title, logo, accent colour, sounds and what it shows.

One look for every TV of the house, kept in the ``tv_look`` row (JSON); the uploaded logo and
sounds are files in the data folder (``tv/``), each checked by its content: a logo must decode
as a PNG, JPEG, GIF or WebP image (an SVG is refused: a script in it could run on the TV),
a sound must read as WAV, MP3, Ogg or FLAC audio of at most ``MAX_SOUND_SECONDS``; neither
may be over its size limit. A layout or a theme that no longer exists reads as the standard
one. A TV may try another look without saving it (``?layout=info&theme=light``): that is how
the settings page shows its live preview.

Pages: ``GET /tv-settings`` (the form and the preview), ``POST /tv-settings`` (save, with the
uploads), ``GET /tv-files/<name>`` (the logo and sounds, as stored). JSON twins:
``GET /api/tv-settings`` and ``POST /api/tv-settings`` (everything but the files).
"""

from __future__ import annotations

import io
import json
import re
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

from flask import Blueprint, current_app, has_request_context, jsonify, request, send_file, url_for
from flask.typing import ResponseReturnValue
from flask_babel import lazy_gettext
from sqlite_utils import Database
from werkzeug.datastructures import FileStorage, MultiDict
from werkzeug.exceptions import NotFound

from director.core import inputs, shapes
from director.core.auth import login_required
from director.core.commands import Call, api_route, command, perform
from director.core.contract import Api
from director.core.db import get_db
from director.core.i18n import gettext
from director.core.web import flash_and_go, refusal_status, render
from director.core.words import say
from director.core.work import Work
from engine.errors import EngineError, InvalidInput, Term

bp = Blueprint("screens", __name__)
api = Api(bp, "tv")

LAYOUTS = {
    "big": lazy_gettext("A big clock: the time and the blinds, as large as the screen allows"),
    "standard": lazy_gettext("The standard clock: time, blinds, the next level, the figures and the payouts"),
    "info": lazy_gettext("Information: the standard clock with the next levels, chip leaders and the structure beside it"),
}
THEMES = {"dark": lazy_gettext("Dark (a dim room)"), "light": lazy_gettext("Light (a bright room, a projector)")}
PANELS = {
    "next_levels": lazy_gettext("The next three levels"),
    "payouts": lazy_gettext("The payouts"),
    "leaders": lazy_gettext("Chip leaders and the true average (tables with a dealer's phone)"),
    "board": lazy_gettext("The hand-for-hand board (which tables have finished the hand)"),
    "season": lazy_gettext("The season's standings (before and after the tournament)"),
    "chart": lazy_gettext("The structure as a picture (information layout)"),
}
SOUNDS = {"level-change": lazy_gettext("a new level"), "one-minute": lazy_gettext("one minute left"),
          "break": lazy_gettext("a break")}
SOUND_FILES = {"level-change": Term("sound for a new level"), "one-minute": Term("sound for one minute left"),
               "break": Term("sound for a break")}
"""What a refusal calls each sound's upload."""
DEFAULT_ACCENT = "#35d07f"
MAX_TITLE = 60
MAX_LOGO_BYTES = 2 * 1024 * 1024
MAX_SOUND_BYTES = 3 * 1024 * 1024
MAX_SOUND_SECONDS = 15.0
MAX_LOGO_PIXELS = 4096 * 4096
IMAGE_KINDS = {"PNG": "png", "JPEG": "jpg", "GIF": "gif", "WEBP": "webp"}
SOUND_KINDS = {"WAVE": "wav", "MP3": "mp3", "OggVorbis": "ogg", "OggOpus": "opus", "FLAC": "flac"}
MIME = {"png": "image/png", "jpg": "image/jpeg", "gif": "image/gif", "webp": "image/webp", "wav": "audio/wav",
        "mp3": "audio/mpeg", "ogg": "audio/ogg", "opus": "audio/ogg", "flac": "audio/flac"}
_COLOUR = re.compile(r"#[0-9a-fA-F]{6}")
_FILE = re.compile(r"(logo|sound-(?:level-change|one-minute|break))-[0-9]{1,9}\.([a-z]{3,4})")


@dataclass(frozen=True)
class Look:
    layout: str = "standard"
    theme: str = "dark"
    title: str = ""
    accent: str = DEFAULT_ACCENT
    show: tuple[str, ...] = tuple(PANELS)
    logo: str = ""
    """The logo's file name in the data folder's ``tv/`` ("" for none)."""
    sounds: dict[str, str] = field(default_factory=dict)
    """The host's own sounds by moment (``level-change``, ``one-minute``, ``break``): file names."""
    version: int = 0
    """Counts the saves: the files' addresses change with it, so no TV keeps an old one."""

    def shows(self, panel: str) -> bool:
        return panel in self.show

    def as_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["show"] = list(self.show)
        data["logo_url"] = self.file_url(self.logo) if self.logo else None
        data["sound_urls"] = {k: self.file_url(v) for k, v in self.sounds.items()}
        return data

    def file_url(self, name: str) -> str:
        return url_for("screens.tv_file", name=name, v=self.version)


def _clean(data: dict[str, Any]) -> Look:
    """A stored or previewed look, whatever it holds: unknown layouts and themes read as the
    standard ones, a bad colour as the default one, unknown panels are dropped."""
    layout = data.get("layout") if data.get("layout") in LAYOUTS else "standard"
    theme = data.get("theme") if data.get("theme") in THEMES else "dark"
    accent = str(data.get("accent") or "")
    show = data.get("show")
    given_sounds = data.get("sounds")
    sounds: dict[str, Any] = given_sounds if isinstance(given_sounds, dict) else {}
    logo = str(data.get("logo") or "")
    return Look(
        layout=str(layout),
        theme=str(theme),
        title=str(data.get("title") or "")[:MAX_TITLE],
        accent=accent if _COLOUR.fullmatch(accent) else DEFAULT_ACCENT,
        show=tuple(p for p in PANELS if p in show) if isinstance(show, list) else tuple(PANELS),
        logo=logo if _FILE.fullmatch(logo) else "",
        sounds={k: str(v) for k, v in sounds.items() if k in SOUNDS and _FILE.fullmatch(str(v))},
        version=int(data.get("version") or 0) if str(data.get("version") or "0").isdigit() else 0,
    )


def look(db: Database) -> Look:
    """The house's TV look (the defaults until the host saves one)."""
    row = db.execute("SELECT body FROM tv_look WHERE id = 1").fetchone() if db["tv_look"].exists() else None
    if row is None:
        return Look()
    try:
        data = json.loads(row[0])
    except ValueError:
        return Look()
    return _clean(data if isinstance(data, dict) else {})


def previewed(saved: Look, args: Any) -> Look:
    """``saved`` with the choices a preview tries (query arguments), each checked like a save."""
    data = asdict(saved)
    data["show"] = list(saved.show)
    for key in ("layout", "theme", "title", "accent"):
        if key in args:
            data[key] = args.get(key)
    if "show" in args:
        data["show"] = args.get("show", "").split(",")
    return _clean(data)


def folder() -> Path:
    path = Path(current_app.instance_path) / "tv"
    path.mkdir(parents=True, exist_ok=True)
    return path


# --- checking what is uploaded ------------------------------------------------------------


def _read(upload: FileStorage, limit: int, what: Term) -> bytes:
    data = upload.stream.read(limit + 1)
    if len(data) > limit:
        raise InvalidInput("The {what} is over {size} MB: save a smaller one.", what=what, size=limit // (1024 * 1024))
    if not data:
        raise InvalidInput("The {what} file is empty.", what=what)
    return data


def check_logo(data: bytes) -> str:
    """The extension of a logo image, or ``InvalidInput`` saying why it is refused."""
    head = data[:512].lstrip().lower()
    if head.startswith((b"<?xml", b"<svg", b"<!doctype svg")) or b"<svg" in head:
        raise InvalidInput("An SVG logo is not taken (a script in it could run on the TV): save it as PNG.")
    from PIL import Image, UnidentifiedImageError

    try:
        with Image.open(io.BytesIO(data)) as image:
            kind = image.format or ""
            width, height = image.size
            image.verify()
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError, Image.DecompressionBombError):
        raise InvalidInput("The logo is not an image: upload a PNG, JPEG, GIF or WebP file.") from None
    if kind not in IMAGE_KINDS:
        raise InvalidInput("A {kind} image is not taken: upload a PNG, JPEG, GIF or WebP file.", kind=kind)
    if width * height > MAX_LOGO_PIXELS:
        raise InvalidInput("The logo is {width}×{height} pixels: at most 4096×4096.", width=str(width),
                           height=str(height))
    return IMAGE_KINDS[kind]


def check_sound(data: bytes) -> str:
    """The extension of a sound, or ``InvalidInput`` saying why it is refused."""
    import mutagen

    try:
        audio = mutagen.File(io.BytesIO(data))
    except Exception:  # mutagen raises its own kinds for every broken file
        audio = None
    kind = type(audio).__name__ if audio is not None else ""
    if kind not in SOUND_KINDS:
        raise InvalidInput("The sound is not a sound: upload a WAV, MP3, Ogg or FLAC file.")
    length = float(getattr(audio.info, "length", 0) or 0)
    if length > MAX_SOUND_SECONDS:
        raise InvalidInput("The sound lasts {length} seconds: at most {most}.", length=format(length, ".0f"),
                           most=format(MAX_SOUND_SECONDS, ".0f"))
    return SOUND_KINDS[kind]


# --- saving ---------------------------------------------------------------------------------


def _store(conn: Any, new: Look) -> None:
    body = json.dumps({**asdict(new), "show": list(new.show)})
    conn.execute("INSERT INTO tv_look (id, body) VALUES (1, ?) ON CONFLICT(id) DO UPDATE SET body = excluded.body",
                 (body,))


def _checked(files: dict[str, FileStorage]) -> dict[str, tuple[bytes, str]]:
    """The uploads read and checked (a logo is an image, a sound a short sound), before
    anything is written."""
    checked: dict[str, tuple[bytes, str]] = {}
    try:
        for name, upload in files.items():
            if not upload or not upload.filename:
                continue
            if name == "logo":
                raw = _read(upload, MAX_LOGO_BYTES, Term("logo"))
                checked[name] = (raw, check_logo(raw))
            elif name in SOUNDS:
                raw = _read(upload, MAX_SOUND_BYTES, SOUND_FILES[name])
                checked[name] = (raw, check_sound(raw))
    finally:
        for upload in files.values():
            upload.close()
    return checked


def _uploads() -> tuple[dict[str, FileStorage], tuple[str, ...]]:
    """The files the TV settings page sent, and the ones it asked to remove (none from the API)."""
    if not has_request_context() or request.is_json:
        return {}, ()
    files = {name: request.files[name] for name in ("logo", *SOUNDS) if name in request.files}
    return files, tuple(k for k in ("logo", *SOUNDS) if request.form.get(f"remove_{k}"))


def look_form(form: MultiDict[str, str]) -> dict[str, Any]:
    """The TV settings page's fields (the panels ticked as ``show``)."""
    typed: dict[str, Any] = {k: form.get(k, "").strip() for k in ("layout", "theme", "accent") if form.get(k, "").strip()}
    typed["title"] = form.get("title", "")
    typed["show"] = form.getlist("show")
    return typed


@command("screens.look", inputs.TvLookIn, "Change the TV's look (the logo and the sounds are uploaded on the TV "
         "settings page)", form=look_form)
def look_command(work: Work, call: Call, data: inputs.TvLookIn) -> tuple[Look, str]:
    """Save the look; the uploads are checked before anything is written, and each save's files
    have names of their own, so a save that fails leaves the last one whole."""
    files, remove = _uploads()
    checked = _checked(files)
    given = data.given()
    place = folder()
    old = look(call.db)
    version = old.version + 1
    sounds = {k: v for k, v in old.sounds.items() if k not in remove}
    logo = "" if "logo" in remove else old.logo
    for name, (raw, ext) in checked.items():
        stored = f"logo-{version}.{ext}" if name == "logo" else f"sound-{name}-{version}.{ext}"
        (place / (stored + ".part")).write_bytes(raw)
        (place / (stored + ".part")).replace(place / stored)
        if name == "logo":
            logo = stored
        else:
            sounds[name] = stored

    def kept(key: str, value: Any) -> Any:  # a field left out or null keeps its value
        return value if given.get(key) is None else given[key]

    new = replace(
        old,
        layout=kept("layout", old.layout),
        theme=kept("theme", old.theme),
        title=kept("title", old.title),
        accent=kept("accent", old.accent),
        show=old.show if given.get("show") is None else tuple(p for p in PANELS if p in given["show"]),
        version=version, logo=logo, sounds=sounds,
    )
    _store(work.conn, new)
    work.after_commit(lambda: _tidy(place, new))
    return new, gettext("The TV's look is saved: every TV shows it at its next reload.")


def _tidy(place: Path, new: Look) -> None:
    """The files of earlier saves, removed once the new look is committed."""
    kept = {new.logo, *new.sounds.values()}
    for path in place.iterdir():
        if path.name not in kept and (_FILE.fullmatch(path.name) or path.name.endswith(".part")):
            path.unlink(missing_ok=True)


# --- pages ----------------------------------------------------------------------------------


def _preview_tournament(db: Database) -> int | None:
    row = db.execute("SELECT id FROM streams WHERE kind = 'tournament' AND archived_at IS NULL ORDER BY id DESC "
                     "LIMIT 1").fetchone()
    return int(row[0]) if row else None


def page(error: str | None = None, typed: dict[str, Any] | None = None, status: int = 200) -> ResponseReturnValue:
    db = get_db()
    current = look(db)
    values = {**asdict(current), "show": list(current.show), **(typed or {})}
    tid = _preview_tournament(db)
    return render("tv_settings.html", "tv_settings.html", look=current, values=values, layouts=LAYOUTS, themes=THEMES,
                  panels=PANELS, sounds=SOUNDS, error=error, preview_tournament=tid,
                  max_logo_mb=MAX_LOGO_BYTES // (1024 * 1024), max_sound_mb=MAX_SOUND_BYTES // (1024 * 1024),
                  max_sound_seconds=int(MAX_SOUND_SECONDS)), status


@bp.get("/tv-settings")
@login_required
def show() -> ResponseReturnValue:
    return page()


@bp.post("/tv-settings")
@login_required
def post() -> ResponseReturnValue:
    try:
        _, said = perform(look_command)
    except EngineError as error:
        return page(say(error), look_form(request.form), refusal_status(error))
    return flash_and_go(said, url_for("screens.show"))


@bp.get("/tv-files/<name>")
def tv_file(name: str) -> ResponseReturnValue:
    """The host's logo or a sound, as stored (names are only ever those the app wrote)."""
    match = _FILE.fullmatch(name)
    if match is None or match.group(2) not in MIME:
        raise NotFound(gettext("There is no such TV file."))
    path = folder() / name
    if not path.is_file():
        raise NotFound(gettext("There is no such TV file."))
    response = send_file(path, mimetype=MIME[match.group(2)], max_age=3600)
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers["Content-Security-Policy"] = "default-src 'none'; sandbox"
    return response


# --- the JSON API ---------------------------------------------------------------------------


@api.get("/api/tv-settings", summary="The TV's look: layout, theme, title, accent colour, what it shows, and "
         "the addresses of the host's logo and sounds", result=shapes.TvLook, errors=())
def api_show() -> ResponseReturnValue:
    return jsonify(look(get_db()).as_json())


def _saved(done: tuple[Look, str]) -> ResponseReturnValue:
    return jsonify(done[0].as_json()), 200


api_route(api, "/api/tv-settings", look_command, _saved, result=shapes.TvLook, status=200, endpoint="api_save")
