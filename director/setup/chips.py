"""The host's own chips: each chip value's colour and how many of it the host owns.

A chip set is a row of ``chip_sets`` (its name unique, whatever its case), holding the set as
``engine.chips.chip_set_to_dict`` writes it. The new-tournament page offers the host's sets
beside the ready-made ones: the starting stack is suggested from the chosen set and checked
against it for the night's entries, rebuys, add-ons and colour-ups (``engine.chips.plan``).
A tournament keeps a copy of its set (``Settings.chips``): editing or deleting a set later
changes no night already created.

Saving a new set, replacing one and deleting one are registered commands
(``setup.chips.add``, ``setup.chips.replace``, ``setup.chips.delete``:
``director.core.commands``), run by the page and the JSON API alike.

Pages: ``/chips`` (the sets, and a new one), ``/chips/<id>`` (edit one). JSON twins:
``GET /api/chip-sets``, ``POST /api/chip-sets``, ``POST /api/chip-sets/<id>``,
``POST /api/chip-sets/<id>/delete``.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from flask import Blueprint, jsonify, request, url_for
from flask.typing import ResponseReturnValue
from sqlite_utils import Database
from werkzeug.datastructures import MultiDict
from werkzeug.exceptions import NotFound

from director.core import inputs, shapes
from director.core.auth import login_required
from director.core.commands import Call, api_route, command, page_route, perform, run
from director.core.contract import Api, read
from director.core.db import get_db
from director.core.i18n import gettext
from director.core.web import flash_and_go, refusal_status, render
from director.core.words import say
from director.core.work import Work
from engine.chips import (
    CHIP_SETS,
    COLOURS,
    MAX_DENOMINATIONS,
    ChipSet,
    chip_set_from_dict,
    chip_set_to_dict,
    suggest_starting_stack,
)
from engine.errors import EngineError, IllegalAction, InvalidInput, Message

bp = Blueprint("chipsets", __name__)
api = Api(bp, "chips")
MAX_CHIP_SETS = 50
PLAYERS = 9
"""The field a set's summary speaks of."""


# --- storage ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Saved:
    id: int
    created_at: float
    chip_set: ChipSet

    @property
    def name(self) -> str:
        return self.chip_set.name

    def as_json(self) -> dict[str, Any]:
        return {
            "id": self.id, "name": self.name, "created_at": self.created_at,
            "denominations": chip_set_to_dict(self.chip_set)["denominations"],
            "total_value": self.chip_set.total_value,
            "suggested_stack": suggest_starting_stack(self.chip_set, PLAYERS),
        }


@dataclass(frozen=True)
class ChipLine:
    """One chip value of a set as the pages show it: its value, colour (name and CSS), how many."""

    value: int
    colour: str
    hex: str
    count: int


@dataclass(frozen=True)
class ChipSetView:
    """A chip set as the pages show it: the host's (with its ``id``) or a ready-made one."""

    id: int | None
    name: str
    denominations: tuple[ChipLine, ...]
    total_value: int
    suggested: int | None = None
    """The biggest starting stack the set gives :data:`PLAYERS` players (when asked for)."""


def chip_set_view(cs: ChipSet, set_id: int | None = None, *, suggest: bool = True) -> ChipSetView:
    return ChipSetView(
        set_id, str(cs.name), tuple(ChipLine(d.value, str(d.colour), d.hex, d.count) for d in cs.denominations),
        cs.total_value, suggest_starting_stack(cs, PLAYERS) if suggest else None,
    )


def saved_view(saved: Saved, *, suggest: bool = False) -> ChipSetView:
    return chip_set_view(saved.chip_set, saved.id, suggest=suggest)


def chip_sets(db: Database) -> list[Saved]:
    """The host's sets, by name."""
    rows = db.execute("SELECT id, created_at, payload FROM chip_sets ORDER BY lower(name), id").fetchall()
    return [Saved(r[0], r[1], chip_set_from_dict(json.loads(r[2]))) for r in rows]


def chip_set(db: Database, set_id: int) -> Saved:
    row = db.execute("SELECT id, created_at, payload FROM chip_sets WHERE id = ?", (set_id,)).fetchone()
    if row is None:
        raise NotFound(gettext("There is no chip set %(number)s.", number=set_id))
    return Saved(row[0], row[1], chip_set_from_dict(json.loads(row[2])))


def chosen(db: Database, key: str) -> ChipSet | None:
    """The set a form's chip-set field names: a ready-made id, ``own:<id>``, or none."""
    if key in CHIP_SETS:
        return CHIP_SETS[key]
    match = re.fullmatch(r"own:(\d{1,18})", key)
    if match is None:
        return None
    try:
        return chip_set(db, int(match[1])).chip_set
    except NotFound:
        return None


def key_for(db: Database, chips: ChipSet | None) -> str:
    """The chip-set field's value for a set kept in a tournament or a template: the host's set
    of that name if it still has those chips, else no set."""
    if chips is None:
        return ""
    for saved in chip_sets(db):
        if saved.chip_set == chips:
            return f"own:{saved.id}"
    return ""


def _save(work: Work, data: inputs.ChipSetIn, at: float, set_id: int | None) -> tuple[int, str]:
    """Create the set (``set_id`` None) or replace set ``set_id``; its name must be free."""
    new = chip_set_from_dict(_body(data))
    conn = work.conn
    if set_id is not None and conn.execute("SELECT 1 FROM chip_sets WHERE id = ?", (set_id,)).fetchone() is None:
        raise NotFound(gettext("There is no chip set %(number)s.", number=set_id))
    taken = conn.execute(
        "SELECT name FROM chip_sets WHERE lower(name) = lower(?) AND id IS NOT ?", (new.name, set_id)
    ).fetchone()
    if taken is not None:
        raise IllegalAction("A chip set named {name} already exists: choose another name.", name=repr(taken[0]))
    payload = json.dumps(chip_set_to_dict(new))
    if set_id is None:
        count = conn.execute("SELECT count(*) FROM chip_sets").fetchone()[0]
        if count >= MAX_CHIP_SETS:
            raise IllegalAction("There are {count} chip sets already: delete one first.", count=count)
        cursor = conn.execute(
            "INSERT INTO chip_sets (name, created_at, payload) VALUES (?, ?, ?)", (new.name, at, payload)
        )
        return int(cursor.lastrowid or 0), gettext("Saved your chips %(name)s: choose them on the new-tournament page.",
                                                   name=repr(new.name))
    conn.execute("UPDATE chip_sets SET name = ?, payload = ? WHERE id = ?", (new.name, payload, set_id))
    return set_id, gettext("Saved the changes to %(name)s. Tournaments already created keep the chips they had.",
                           name=repr(new.name))


def _body(data: inputs.ChipSetIn) -> dict[str, Any]:
    return {"name": data.name, "denominations": [d.model_dump() for d in data.denominations]}


def chips_form(fields: MultiDict[str, str]) -> dict[str, Any]:
    """The page's form (a row a chip value: ``value``, ``colour``, ``count``) as the set's
    fields, the rows left blank skipped; refused in the words the page always used (a row's
    number, the engine's sentence) before the input's own bounds would word it otherwise."""
    data = data_of(form_from(fields))
    chip_set_from_dict(data)
    return data


@command("setup.chips.add", inputs.ChipSetIn, "Save a chip set of the host's (a name taken is refused)",
         form=chips_form)
def add_command(work: Work, call: Call, data: inputs.ChipSetIn) -> tuple[int, str]:
    """A new set of the host's: its id, and what was done."""
    return _save(work, data, call.now, None)


@command("setup.chips.replace", inputs.ChipSetIn, "Replace a chip set of the host's (tournaments already created "
         "keep their chips)", form=chips_form)
def replace_command(work: Work, call: Call, data: inputs.ChipSetIn) -> tuple[int, str]:
    """The path's set replaced (its name must still be free)."""
    return _save(work, data, call.now, int(call.ids["set_id"]))


@command("setup.chips.delete", inputs.Write, "Delete a chip set of the host's")
def delete_command(work: Work, call: Call, data: inputs.Write) -> str:
    set_id = int(call.ids["set_id"])
    row = work.execute("SELECT name FROM chip_sets WHERE id = ?", (set_id,)).fetchone()
    if row is None:
        raise NotFound(gettext("There is no chip set %(number)s.", number=set_id))
    work.execute("DELETE FROM chip_sets WHERE id = ?", (set_id,))
    return gettext("Deleted the chip set %(name)s. Tournaments already created keep the chips they had.", name=repr(row[0]))


def save(db: Database, data: dict[str, Any], at: float, set_id: int | None = None) -> tuple[int, str]:
    """``setup.chips.add`` (``set_id`` None) or ``setup.chips.replace`` from code (the
    screenshots): the set's id and what was done."""
    ids = {} if set_id is None else {"set_id": set_id}
    done: tuple[int, str] = run(add_command if set_id is None else replace_command, read(inputs.ChipSetIn, data),
                                db=db, now=at, **ids)
    return done


# --- the form -------------------------------------------------------------------------------


@dataclass
class ChipRow:
    value: str = ""
    colour: str = "white"
    count: str = ""


@dataclass
class ChipForm:
    name: str
    rows: list[ChipRow]
    set_id: int | None = None
    error: str | None = None


def form_of(chips: ChipSet, set_id: int | None = None, name: str | None = None) -> ChipForm:
    rows = [ChipRow(str(d.value), d.colour, str(d.count)) for d in chips.denominations]
    return ChipForm(chips.name if name is None else name, rows, set_id)


def blank_form() -> ChipForm:
    return ChipForm("", [ChipRow(colour=c) for c in ("white", "red", "green", "black")])


def form_from(fields: MultiDict[str, str]) -> ChipForm:
    values, colours, counts = (fields.getlist(k) for k in ("value", "colour", "count"))
    rows = [
        ChipRow(v.strip(), colours[i].strip() if i < len(colours) else "white", counts[i].strip() if i < len(counts) else "")
        for i, v in enumerate(values[:MAX_DENOMINATIONS + 1])
    ]
    set_text = fields.get("set_id", "")
    return ChipForm(fields.get("name", "").strip(), rows, int(set_text) if set_text.isdigit() and len(set_text) < 18 else None)


def form_from_request() -> ChipForm:
    return form_from(request.form)


def _whole(text: str, what: Message) -> int:
    cleaned = text.replace(",", "").replace("_", "").replace(" ", "")
    if not re.fullmatch(r"\d{1,12}", cleaned):
        if text:
            raise InvalidInput("{what} must be a whole number, not {text}.", what=what, text=repr(text))
        raise InvalidInput("{what} is empty.", what=what)
    return int(cleaned)


def data_of(form: ChipForm) -> dict[str, Any]:
    """The form as the chip set's dict; the rows left blank are skipped."""
    rows = []
    for i, row in enumerate(form.rows, start=1):
        if not row.value and not row.count:
            continue
        rows.append({
            "value": _whole(row.value, Message("Row {row}: the chip's value", row=i)),
            "colour": row.colour.lower(),
            "count": _whole(row.count, Message("Row {row}: the number of chips", row=i)),
        })
    return {"name": form.name, "denominations": rows}


def page(form: ChipForm | None = None, status: int = 200) -> ResponseReturnValue:
    db = get_db()
    form = form or blank_form()
    mine = [saved_view(saved, suggest=True) for saved in chip_sets(db)]
    return render(
        "chips/index.html", "chips/_form.html", form=form, mine=mine,
        ready={key: chip_set_view(cs) for key, cs in CHIP_SETS.items()}, colours=COLOURS,
        players=PLAYERS, max_rows=MAX_DENOMINATIONS,
    ), status


@bp.get("/chips")
def index() -> ResponseReturnValue:
    copy = request.args.get("copy", "")
    if copy in CHIP_SETS:
        return page(form_of(CHIP_SETS[copy], name=""))
    return page()


@bp.get("/chips/<int:set_id>")
def edit_page(set_id: int) -> ResponseReturnValue:
    saved = chip_set(get_db(), set_id)
    return page(form_of(saved.chip_set, saved.id))


@bp.post("/chips")
@login_required
def post() -> ResponseReturnValue:
    form = form_from_request()
    op = request.form.get("op", "save")
    if op == "add_row":
        if len(form.rows) < MAX_DENOMINATIONS:
            form.rows.append(ChipRow())
        else:
            form.error = gettext("A chip set has at most %(count)s chip values.", count=MAX_DENOMINATIONS)
        return page(form)
    if op.startswith("remove:") and op[7:].isdigit():
        index = int(op[7:])
        if 0 <= index < len(form.rows):
            form.rows.pop(index)
        return page(form)
    try:
        if form.set_id is None:
            _, said = perform(add_command)
        else:
            _, said = perform(replace_command, set_id=form.set_id)
    except (EngineError, NotFound) as error:
        form.error = str(error.description) if isinstance(error, NotFound) else say(error)
        return page(form, 404 if isinstance(error, NotFound) else refusal_status(error))
    return flash_and_go(said, url_for("chipsets.index"))


page_route(bp, "/chips/<int:set_id>/delete", delete_command,
           lambda do, set_id: flash_and_go(do(), url_for("chipsets.index")), endpoint="delete_page")


# --- the JSON API ---------------------------------------------------------------------------


@api.get("/api/chip-sets", summary="The host's own chip sets, with what each is worth and the starting "
         "stack it suggests", result=shapes.ChipSets, errors=())
def api_list() -> ResponseReturnValue:
    return jsonify(chip_sets=[s.as_json() for s in chip_sets(get_db())])


def _saved(done: tuple[int, str], status: int = 200) -> ResponseReturnValue:
    return jsonify(chip_set(get_db(), done[0]).as_json()), status


api_route(api, "/api/chip-sets", add_command, lambda done: _saved(done, 201), result=shapes.ChipSet,
          endpoint="api_create")
api_route(api, "/api/chip-sets/<int:set_id>", replace_command, lambda done, set_id: _saved(done), result=shapes.ChipSet,
          status=200, endpoint="api_replace")
api_route(api, "/api/chip-sets/<int:set_id>/delete", delete_command, lambda said, set_id: jsonify(notice=said),
          result=shapes.Done, status=200, endpoint="api_delete")
