"""Setting a night up and changing it: a new tournament (from the setup page, the API, a copy),
its settings and its structure in play, archiving, restoring and deleting it.

Each command is registered once (``director.core.commands``): the pages and the JSON API run
it by its name, with the same declared input.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from werkzeug.datastructures import MultiDict

from director.club import seasons
from director.core import store
from director.core.commands import Call, Events, Outcome, command, run, stream_command
from director.core.contract import Write, read
from director.core.i18n import gettext
from director.core.inputs import DeleteIn, SettingsIn, StructureEditIn, TournamentIn
from director.core.store import load_state
from director.core.words import say
from director.core.work import Work
from engine.errors import EngineError, IllegalAction, InvalidInput
from engine.structure import PRESETS, preset, structure_to_dict
from engine.structure import warnings as structure_warnings
from engine.tournament import (
    EDITABLE_SETTINGS,
    Tournament,
    clean_name,
    fixed_prizes_text,
    mystery_pool_from,
    mystery_pool_text,
    settings_as_dict,
    settings_from_dict,
)


def new_seed() -> int:
    """A seed for the night's draws (the mystery bounties), stored with what it draws."""
    return secrets.randbits(31) or 1


def tournament_payload(data: Mapping[str, Any]) -> dict[str, Any]:
    """The ``created`` payload from form or JSON fields: the preset becomes a full structure."""
    payload = {k: v for k, v in data.items() if k not in ("csrf_token", "expected_seq", "season")}
    structure = payload.get("structure")
    if isinstance(structure, str) and structure.strip():
        raise InvalidInput("The structure must be given as levels, not as text.")
    if not structure:
        preset_id = str(payload.pop("preset", "") or "home-short")
        if preset_id not in PRESETS:
            raise InvalidInput("There is no preset {preset}: choose one of {presets}.", preset=repr(preset_id),
                               presets=", ".join(PRESETS))
        built = preset(preset_id)
        payload["structure"] = structure_to_dict(built)
        payload.setdefault("starting_stack", built.starting_stack)
        payload["preset"] = preset_id
    if payload.get("bounty_kind") == "mystery" and not payload.get("mystery_seed"):
        payload["mystery_seed"] = new_seed()  # the draws' seed, kept in the created event
    settings_from_dict(payload)  # every field checked, with its message
    return payload


@dataclass(frozen=True)
class Created:
    tournament_id: int
    said: tuple[str, ...] = ()
    """What else was done with it (the night counted in its season)."""


@command("setup.create", TournamentIn, "Create a tournament (and count it in a season)")
def create_command(work: Work, call: Call, data: TournamentIn) -> Created:
    """A new tournament from the setup page's or the API's fields, read as ``TournamentIn``
    declares them (a blank form field is a field left out); the night and its season, together."""
    payload = tournament_payload(data.given())
    created = store.tournament_created(payload, call.now)
    tournament_id = store.new_stream(work, "tournament", clean_name(payload.get("name"), "tournament name"), created,
                                     call.now)
    said = (seasons.night_added(work.conn, data.season, tournament_id, False),) if data.season else ()
    return Created(tournament_id, said)


def percentages_text(state: Tournament) -> str:
    """The custom payout percentages as typed: ``50/30/20``."""
    return "/".join(f"{float(p):g}" for p in state.settings.percentages)


def copy_name(name: str) -> str:
    """``Friday (copy)``, within the 40 characters of a name."""
    suffix = " (copy)"
    return name[: 40 - len(suffix)].rstrip() + suffix


@command("setup.duplicate", Write, "A new tournament with this one's settings and structure, no players")
def duplicate_command(work: Work, call: Call, data: Write) -> Created:
    state = load_state(call.db, int(call.ids["tournament_id"]))
    payload = settings_as_dict(state.settings)
    payload.pop("rules", None)
    payload["name"] = copy_name(state.name)
    if state.settings.payout_kind == "custom":
        payload["percentages"] = percentages_text(state)
    created = store.tournament_created(payload, call.now)
    return Created(store.new_stream(work, "tournament", payload["name"], created, call.now))


def running(state: Tournament) -> bool:
    return state.started and not state.finished


@command("setup.archive", Write, "List the tournament apart on the home page")
def archive_command(work: Work, call: Call, data: Write) -> str:
    state = load_state(call.db, int(call.ids["tournament_id"]))
    store.set_archived(work, int(call.ids["tournament_id"]), call.now)
    return gettext("%(name)s is archived: it is listed apart on the home page.", name=state.name)


@command("setup.unarchive", Write, "Put an archived tournament back on the list")
def unarchive_command(work: Work, call: Call, data: Write) -> str:
    state = load_state(call.db, int(call.ids["tournament_id"]))
    store.set_archived(work, int(call.ids["tournament_id"]), None)
    return gettext("%(name)s is back on the list.", name=state.name)


@command("setup.delete", DeleteIn, "Delete the tournament (confirm: its name); a running one is archived instead")
def delete_command(work: Work, call: Call, data: DeleteIn) -> str:
    tournament_id = int(call.ids["tournament_id"])
    state = load_state(call.db, tournament_id)
    if data.confirm.strip() != state.name:
        raise IllegalAction("To delete it, confirm with its name: {name}.", name=repr(state.name))
    if running(state):
        store.set_archived(work, tournament_id, call.now)
        return gettext("%(name)s is being played: it is archived, not deleted (restore it from the home page).",
                       name=state.name)
    store.delete_stream(work, tournament_id)
    return gettext("%(name)s is deleted.", name=state.name)


# --- the settings and the structure in play -------------------------------------------------------

PRICES = ("buy_in", "rebuy_cost", "addon_cost", "fee_amount", "fee_percent", "bounty", "bounty_kind")
"""The settings that price a payment: a change counts for later payments only."""


def _normalised(key: str, value: Any) -> Any:
    """A fixed-prize list or a fee's share as the engine reads it (a value it refuses is kept
    as given, so that the change is recorded and refused with the engine's reason)."""
    try:
        if key == "fixed_prizes":
            return fixed_prizes_text(settings_from_dict({"name": "x", "fixed_prizes": value}).fixed_prizes)
        if key == "mystery_pool":
            return mystery_pool_text(mystery_pool_from(value))
        return settings_from_dict({"name": "x", "fee_percent": value}).fee_percent
    except EngineError:
        return ("refused", repr(value))


def settings_change(state: Tournament, given: Mapping[str, Any]) -> dict[str, Any]:
    """What differs from the settings as they are (a field sent as it was is no change; null
    is "no limit" for a limit, else a field left out), in the order the page shows them."""
    current = settings_as_dict(state.settings)
    current["percentages"] = percentages_text(state)
    change: dict[str, Any] = {}
    for key, value in given.items():
        if key in ("expected_seq", "correct_payments") or (value is None and key not in ("max_rebuys", "max_reentries")):
            continue
        if key == "percentages":
            text = value if isinstance(value, str) else "/".join(str(v) for v in value)
            if text.replace(" ", "") != current["percentages"]:
                change[key] = value
        elif key in ("fixed_prizes", "fee_percent", "mystery_pool"):
            if _normalised(key, value) != _normalised(key, current.get(key)):
                change[key] = value
        elif value != current.get(key):
            change[key] = value
    order = {key: n for n, key in enumerate(EDITABLE_SETTINGS)}  # the log reads as the page does
    return {k: change[k] for k in sorted(change, key=lambda k: order.get(k, len(order)))}


def settings_form(form: MultiDict[str, str]) -> dict[str, Any]:
    """The settings page's form as the declared input: a blank field is left out, but a blank
    rebuy limit is "no limit", a blank fee, guarantee or bounty none, an unticked box "no" (a
    form sends nothing for either), and percentages count only for custom payouts."""
    fields: dict[str, Any] = {k: v for k, v in form.items() if v.strip()}
    for key in ("max_rebuys", "max_reentries"):
        if key in form and not form[key].strip():
            fields[key] = None
    for box in ("pause_after_break", "min_prize_buy_in", "lock_payouts", "correct_payments", "dealer_corrects",
                "limit_cap_heads_up"):
        fields[box] = box in form
    for key in ("fee_amount", "guarantee", "bounty"):
        if key in form and not form[key].strip():
            fields[key] = 0
    for key in ("fee_percent", "fixed_prizes", "mystery_pool"):
        if key in form and not form[key].strip():
            fields[key] = ""
    if fields.get("payout_kind") != "custom":
        fields.pop("percentages", None)
    return fields


@stream_command("setup.settings", SettingsIn, "Change the settings after creation (only the fields given; refused "
                "when it contradicts what already happened)", stream=store.TOURNAMENT, id="tournament_id",
                form=settings_form)
def settings_command(state: Tournament, data: SettingsIn, call: Call) -> Events:
    """Only what differs is recorded (the log says what changed). A new price counts for later
    payments, unless the director corrects the payments already made."""
    given = data.given()
    change = settings_change(state, given)
    if not change:
        return gettext("Nothing changed.")
    priced = bool(set(change) & set(PRICES)) and bool(state.ledger.payments)
    corrected = priced and bool(given.get("correct_payments"))
    if change.get("bounty_kind") == "mystery" and not state.settings.mystery_seed:
        change["mystery_seed"] = new_seed()
    yield "settings_changed", {**change, **({"correct_payments": True} if corrected else {})}
    saved = ", ".join(k.replace("_", " ") for k in change)
    if corrected:
        return gettext("Saved: %(fields)s. The payments already made are priced again at the new prices.",
                       fields=saved)
    if priced:
        return gettext("Saved: %(fields)s. The new prices count for later payments; the payments already made "
                       "keep theirs.", fields=saved)
    return gettext("Saved: %(fields)s.", fields=saved)


def structure_change(data: StructureEditIn) -> dict[str, Any]:
    """The edit as the engine reads it: the fields given, without the page's seq."""
    return {k: v for k, v in data.given().items() if k != "expected_seq"}


def structure_form(form: MultiDict[str, str]) -> dict[str, Any]:
    """The structure page's forms as the declared input: a blank field is left out; the host's
    list for dealer's choice is every box ticked (none ticked: an empty list, every game the
    dealer's assistant follows)."""
    fields: dict[str, Any] = {k: v for k, v in form.items() if v.strip() and k != "choices"}
    if fields.get("edit", "").strip().lower() == "choices":
        fields["choices"] = [v for v in form.getlist("choices") if v.strip()]
    return fields


@stream_command("setup.structure", StructureEditIn, "Edit the structure in play: a level or a break, one added or "
                "removed, or every later level", stream=store.TOURNAMENT, id="tournament_id", form=structure_form)
def structure_command(state: Tournament, data: StructureEditIn, call: Call) -> Events:
    """One change to the structure in play (``engine.structure.edit``); says the change in
    words, and the structure check's warnings on the edited structure."""
    new = yield "structure_changed", structure_change(data)
    words = new.structure_edits[-1][1]
    return " ".join([say(words), *(say(w) for w in structure_warnings(new.settings.structure))])


def outcome_said(outcome: Outcome[Any]) -> str:
    return outcome.said or ""


def create_tournament(db: Any, data: Mapping[str, Any], now: float, season: int | None = None) -> int:
    """``setup.create`` from code (the demo, the tests): the new tournament's id."""
    fields = {**data, **({"season": season} if season is not None else {})}
    created: Created = run(create_command, read(TournamentIn, fields), db=db, now=now)
    return created.tournament_id
