"""The new tournament's form: its fields and rows, read from the request, loaded from a
preset or a template, edited row by row, checked by the engine (the structure, the chips,
the mystery bounties), and put in words; the pages post the whole form and get it back.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from babel.dates import format_date
from flask import g
from werkzeug.datastructures import MultiDict

from director.core.db import get_db
from director.core.i18n import gettext, language, ngettext
from director.core.words import number, say
from director.setup import chips as chipsets
from engine.bounties import mystery_total, mystery_warning
from engine.chips import (
    CHIP_SETS,
    ChipSet,
    chip_set_from_dict,
    chip_set_to_dict,
    suggest_starting_stack,
)
from engine.chips import plan as chip_plan
from engine.errors import EngineError, Message
from engine.games import DEALERS_CHOICE, DEFAULT_GAME, GAMES
from engine.limits import MAX_CHIPS, MAX_PLAYERS
from engine.structure import (
    PRESETS,
    Break,
    Level,
    Structure,
    colour_up_steps,
    estimate_end,
    preset,
    problems,
    structure_from_dict,
    structure_to_dict,
    total_minutes,
    warnings,
)
from engine.tournament import mystery_pool_from

DEFAULT_PRESET = "home-short"
TEXT_FIELDS = (
    "name", "preset", "starting_stack", "table_size", "chip_set", "counted_by", "hand_cap",
    "buy_in", "rebuy_levels", "max_rebuys", "rebuy_cost", "rebuy_chips", "addon_level",
    "addon_cost", "addon_chips", "late_registration_levels", "payout_kind", "percentages",
    "league_formula", "payout_unit", "rebuy_when", "based_on", "pause_after_break", "reentry_levels", "max_reentries",
    "players_expected", "fee_amount", "fee_percent", "guarantee", "fixed_prizes", "min_prize_buy_in", "lock_payouts",
    "bounty_kind", "bounty", "pko_share", "mystery_pool", "mystery_level", "action_seconds", "action_countdown",
    "season", "dealer_corrects", "limit_cap_heads_up",
)
PLAYERS_EXPECTED = 9
"""The field the structure's end and the chips are checked for, unless the host says."""


@dataclass
class Row:
    """One line of the structure editor, as typed (strings)."""

    kind: str = "level"
    small_blind: str = ""
    big_blind: str = ""
    ante: str = "0"
    length: str = ""
    colour_up: str = ""
    game: str = DEFAULT_GAME
    """The key of the game dealt at a level (:data:`engine.games.GAMES`)."""
    problem: bool = False


@dataclass
class SetupForm:
    values: dict[str, str]
    rows: list[Row]
    repeat_doubling: bool = False
    show_games: bool = False
    """The host ticked "several games": the editor shows each level's game."""
    choices: list[str] = field(default_factory=list)
    """The host's list for dealer's choice levels, as ticked (none: every game the dealer's
    assistant follows)."""
    problems: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    summary: str = ""
    stack_lines: tuple[str, ...] = ()
    chip_lines: tuple[str, ...] = ()
    """What the night takes from the host's chips (``engine.chips.plan``)."""
    chip_shortages: tuple[str, ...] = ()
    planned: str = ""
    """The entries the chips are checked for, in words."""
    suggested_stack: int | None = None
    error: str | None = None

    @property
    def mixed_games(self) -> bool:
        """Some level deals another game than No-Limit Hold'em."""
        return any(row.kind == "level" and row.game != DEFAULT_GAME for row in self.rows)

    @property
    def games_shown(self) -> bool:
        """Whether the editor shows a Game column: asked for, or some level deals another game
        (a night of one game looks as it always did)."""
        return self.show_games or self.mixed_games

    @property
    def dealers_choice(self) -> bool:
        """Some level is dealer's choice: the editor shows the host's list of games."""
        return any(row.kind == "level" and row.game == DEALERS_CHOICE for row in self.rows)


def chosen_set(form: SetupForm) -> ChipSet | None:
    """The set the form's chip-set field names (one database read per request: the sets read
    are kept in the request's ``g``, by the field's value)."""
    key = form.values.get("chip_set", "")
    read: dict[str, ChipSet | None] = g.setdefault("chosen_chip_sets", {})
    if key not in read:
        read[key] = chipsets.chosen(get_db(), key)
    return read[key]


def chip_set_for(values: tuple[int, ...]) -> str:
    return next((key for key, cs in CHIP_SETS.items() if cs.values == values), "")


def chip_set_key(settings: dict[str, Any], structure: Structure) -> str:
    """The chip-set field for a saved tournament's settings: the host's set it was made with
    (if it still has those chips), else the ready-made set, else none."""
    if settings.get("chips"):
        try:
            return chipsets.key_for(get_db(), chip_set_from_dict(settings["chips"]))
        except EngineError:
            return ""
    key = settings.get("chip_set") or ""
    return key if key in CHIP_SETS and CHIP_SETS[key].values == structure.denominations else chip_set_for(structure.denominations)


def form_from_template(saved: dict[str, Any], values: dict[str, str]) -> SetupForm:
    """The setup form filled from one of the host's templates (``director.saved``); the
    night's name is kept as typed."""
    settings = saved["settings"]
    structure = structure_from_dict(settings["structure"])
    data = dict(values)
    for key in TEXT_FIELDS:
        if key in settings and key != "name":
            value = settings[key]
            data[key] = "" if value is None else ("on" if value is True else "" if value is False else str(value))
    data.update(
        preset="",
        based_on="",
        chip_set=chip_set_key(settings, structure),
        counted_by="hands" if structure.hand_counted else "minutes",
        hand_cap="" if structure.hand_cap is None else str(structure.hand_cap),
    )
    return SetupForm(data, rows_of(structure), structure.repeat_doubling, choices=list(structure.choices))


def form_from_preset(preset_id: str, values: dict[str, str] | None = None) -> SetupForm:
    structure = preset(preset_id)
    data = dict(values or {})
    old_stack = data.get("starting_stack")
    data.update(
        preset=preset_id,
        based_on=preset_id,  # kept when the structure is edited: its name says "(edited)"
        starting_stack=str(structure.starting_stack),
        chip_set=chip_set_for(structure.denominations),
        counted_by="hands" if structure.hand_counted else "minutes",
        hand_cap="" if structure.hand_cap is None else str(structure.hand_cap),
    )
    for key in ("rebuy_chips", "addon_chips"):  # they follow the stack unless the director chose otherwise
        if values is None or not data.get(key) or data[key] == old_stack:
            data[key] = str(structure.starting_stack)
    return SetupForm(data, rows_of(structure), structure.repeat_doubling, choices=list(structure.choices))


def rows_of(structure: Structure) -> list[Row]:
    """The structure editor's lines for ``structure``."""
    rows = []
    for item in structure_to_dict(structure)["items"]:
        if item["type"] == "level":
            length = item["hands"] if structure.hand_counted else item["minutes"]
            rows.append(Row("level", str(item["small_blind"]), str(item["big_blind"]), str(item["ante"]), str(length),
                            game=item.get("game", DEFAULT_GAME)))
        else:
            rows.append(Row("break", length=str(item["minutes"]), colour_up=", ".join(map(str, item["colour_up"]))))
    return rows


def today() -> str:
    """Today as the new night's name says it: "Sat 14 Mar" (in the reader's language)."""
    if language() == "en":
        return datetime.now().strftime("%a %d %b")
    return format_date(datetime.now(), "EEE dd MMM", locale=language())


def default_form() -> SetupForm:
    values = {
        "name": gettext("Poker night, %(date)s", date=today()),
        "table_size": "9",
        "buy_in": "20",
        "rebuy_levels": "0",
        "max_rebuys": "",
        "rebuy_cost": "20",
        "addon_level": "0",
        "addon_cost": "20",
        "late_registration_levels": "0",
        "reentry_levels": "0",
        "max_reentries": "",
        "payout_kind": "table",
        "percentages": "50/30/20",
        "league_formula": "table",
        "payout_unit": "1",
        "rebuy_when": "busted",
        "players_expected": str(PLAYERS_EXPECTED),
        "action_seconds": "60",
        "action_countdown": "5",
    }
    return form_from_preset(DEFAULT_PRESET, values)


def form_from_request(form: MultiDict[str, str]) -> SetupForm:
    values = {k: form.get(k, "").strip() for k in TEXT_FIELDS}
    kinds = form.getlist("kind")
    columns = {
        name: form.getlist(name) for name in ("small_blind", "big_blind", "ante", "length", "colour_up", "game")
    }

    def cell(name: str, i: int) -> str:
        col = columns[name]
        return col[i].strip() if i < len(col) else ""

    rows = [
        Row(kind, cell("small_blind", i), cell("big_blind", i), cell("ante", i) or "0", cell("length", i), cell("colour_up", i),
            cell("game", i) or DEFAULT_GAME)
        for i, kind in enumerate(kinds)
    ]
    choices = list(dict.fromkeys(key.strip() for key in form.getlist("choices") if key.strip()))
    return SetupForm(values, rows, form.get("repeat_doubling") == "on", form.get("show_games") == "on", choices)


def _number(text: str, what: Message, found: list[str]) -> int:
    cleaned = text.replace(",", "").replace("_", "").replace(" ", "")
    if not re.fullmatch(r"-?\d+", cleaned):
        found.append(Message("{what} must be a whole number, not {text}.", what=what, text=repr(text)) if text
                     else Message("{what} is empty.", what=what))
        return 0
    return int(cleaned)


def structure_dict(form: SetupForm) -> dict[str, Any]:
    """The structure the editor describes, as ``structure_to_dict`` writes it.

    Cells that are not numbers are listed in ``form.problems`` with the row they are in.
    """
    found: list[str] = []
    hands = form.values.get("counted_by") == "hands"
    items: list[dict[str, Any]] = []
    level = 0
    for row in form.rows:
        if row.kind == "break":
            colour_up = [
                _number(v, Message("The break after level {level}: a colour-up chip", level=level), found)
                for v in re.split(r"[,\s/]+", row.colour_up) if v
            ]
            minutes = _number(row.length, Message("The break after level {level}: the minutes", level=level), found)
            items.append({"type": "break", "minutes": minutes, "colour_up": colour_up})
            continue
        level += 1
        length = _number(row.length, Message("Level {level}: the hands", level=level) if hands
                         else Message("Level {level}: the minutes", level=level), found)
        items.append(
            {
                "type": "level",
                "small_blind": _number(row.small_blind, Message("Level {level}: the small blind", level=level), found),
                "big_blind": _number(row.big_blind, Message("Level {level}: the big blind", level=level), found),
                "ante": _number(row.ante or "0", Message("Level {level}: the ante", level=level), found),
                "minutes": None if hands else length,
                "hands": length if hands else None,
            }
        )
        if row.game not in GAMES:
            found.append(Message("Level {level}: the game must be one of {choices}, not {game}.", level=level,
                                 choices=", ".join(GAMES), game=repr(row.game)))
        elif row.game != DEFAULT_GAME:  # as structure_to_dict writes it: a night of one game reads as it did
            items[-1]["game"] = row.game
    chip_set = chosen_set(form)
    stack_text = form.values.get("starting_stack", "")
    stack = _number(stack_text, Message("The starting stack"), found) if stack_text else 0
    if stack < 0:
        found.append(gettext("The starting stack cannot be negative (%(stack)s).", stack=number(stack)))
    cap_text = form.values.get("hand_cap", "")
    form.problems.extend(found)
    data = {
        "name": "Custom",
        "starting_stack": stack,
        "hand_cap": _number(cap_text, Message("The hand cap"), form.problems) if cap_text and hands else None,
        "repeat_doubling": form.repeat_doubling,
        "denominations": list(chip_set.values) if chip_set else [],
        "ante_kind": "big_blind",
        "items": items,
    }
    if form.dealers_choice and form.choices:  # as structure_to_dict writes it: only a list the host made
        dealt = [key for key, game in GAMES.items() if game.dealt]
        if any(key not in dealt for key in form.choices):
            form.problems.append(Message("The dealer's choice is a list of different games, each one of {choices}, "
                                         "not {given}.", choices=", ".join(dealt), given=repr(form.choices)))
        else:
            data["choices"] = list(form.choices)
    data["name"] = structure_name(form.values.get("preset") or form.values.get("based_on", ""), data)
    return data


def structure_name(preset_id: str, data: dict[str, Any]) -> str:
    """The preset's name, with "(edited)" when its levels, stack or cap were changed; "Custom"
    for a structure not loaded from a preset."""
    if preset_id not in PRESETS:
        return "Custom"
    name = PRESETS[preset_id][0]
    loaded = structure_to_dict(preset(preset_id))
    same = all(loaded[key] == data[key] for key in ("starting_stack", "hand_cap", "repeat_doubling", "items"))
    same = same and loaded.get("choices") == data.get("choices")
    return name if same else f"{name} (edited)"


def check(form: SetupForm) -> dict[str, Any] | None:
    """Fill the form's problems, warnings and summary; the structure dict if it is playable."""
    data = structure_dict(form)
    if form.problems:
        mark_rows(form)
        return None
    structure = unchecked_structure(data)
    form.problems.extend(problems(structure))
    if form.problems:
        mark_rows(form)
        return None
    form.warnings.extend(warnings(structure))
    form.warnings.extend(chip_warnings(form.values, structure.starting_stack))
    players = players_expected(form)
    estimate = estimate_end(structure, players)
    total = total_minutes(structure)
    parts = [ngettext("%(num)d level", "%(num)d levels", structure.level_count)]
    if total:
        parts.append(gettext("%(hours)s h %(minutes)s min as listed", hours=total // 60, minutes=str(total % 60).zfill(2)))
    if estimate is not None:
        when = (
            gettext("%(hours)s h %(minutes)s min", hours=estimate.minutes // 60, minutes=str(estimate.minutes % 60).zfill(2))
            if estimate.minutes is not None
            else ngettext("%(num)d hand", "%(num)d hands", estimate.hands)
        )
        parts.append(gettext("with %(players)s players it should end around level %(level)s (about %(when)s)",
                             players=players, level=estimate.level, when=when))
    form.summary = gettext("%(summary)s.", summary="; ".join(parts))
    form.warnings.extend(mystery_warnings(form.values, players))
    chip_set = chosen_set(form)
    if chip_set is not None:
        check_chips(form, chip_set, structure, players)
    return data


def mystery_warnings(values: dict[str, str], players: int) -> list[str]:
    """A mystery night's pool checked against the knockouts the players expected can make."""
    if values.get("bounty_kind") != "mystery":
        return []
    try:
        pool = mystery_pool_from(values.get("mystery_pool", ""))
    except EngineError as error:
        return [say(error)]
    if not pool:
        return [gettext("A mystery bounty night needs its bounties: amounts and how many of each, like 500x2, 100x10.")]
    level = values.get("mystery_level", "").strip()
    said = [mystery_warning(pool, int(level) if level.isdigit() else 1, players - 1)]
    bounty = values.get("bounty", "").replace(",", "").strip()
    if bounty.isdigit() and int(bounty):
        total, bought = mystery_total(pool), int(bounty) * players
        if total != bought:
            if total > bought:
                said.append(gettext("The mystery bounties add up to %(total)s; %(players)s players' bounties bring "
                                    "%(bought)s: the house adds %(more)s.", total=number(total), players=players,
                                    bought=number(bought), more=number(total - bought)))
            else:
                said.append(gettext("The mystery bounties add up to %(total)s; %(players)s players' bounties bring "
                                    "%(bought)s: %(more)s is never drawn (add it to the pool, or lower the bounty).",
                                    total=number(total), players=players, bought=number(bought),
                                    more=number(bought - total)))
    return [say(text) for text in said if text]


def players_expected(form: SetupForm) -> int:
    """The field the host expects (2 to ``MAX_PLAYERS``; otherwise the usual 9, said as a problem)."""
    text = form.values.get("players_expected", "").replace(",", "").strip()
    if not text:
        return PLAYERS_EXPECTED
    if not text.isdigit() or not 2 <= int(text) <= MAX_PLAYERS:
        form.warnings.append(gettext("The players expected must be a whole number from 2 to %(most)s, not %(text)s: "
                                     "checked for %(players)s.", most=number(MAX_PLAYERS), text=repr(text),
                                     players=PLAYERS_EXPECTED))
        return PLAYERS_EXPECTED
    return int(text)


def planned_entries(values: dict[str, str], players: int, stack: int) -> tuple[list[tuple[str, int, int]], str]:
    """The rebuys, add-ons and re-entries the chips must cover for ``players``, and that in
    words: every rebuy and re-entry the rules allow, one each where they have no limit."""

    def whole(key: str) -> int | None:
        text = values.get(key, "").replace(",", "").strip()
        return int(text) if text.isdigit() and len(text) < 12 else None

    extras: list[tuple[str, int, int]] = []
    words = [gettext("%(players)s players", players=players)]
    for what, level_key, limit_key, chips_key in (
        ("rebuy", "rebuy_levels", "max_rebuys", "rebuy_chips"),
        ("re-entry", "reentry_levels", "max_reentries", None),
    ):
        if not whole(level_key):
            continue
        limit = whole(limit_key)
        each = (whole(chips_key) if chips_key else None) or stack
        n = players * (1 if limit is None else limit)
        if n:
            extras.append((what, n, each))
            if what == "re-entry":
                words.append(gettext("%(count)s re-entries (one each: there is no limit)", count=n) if limit is None
                             else gettext("%(count)s re-entries (%(limit)s each)", count=n, limit=limit))
            else:
                words.append(gettext("%(count)s rebuys (one each: there is no limit)", count=n) if limit is None
                             else gettext("%(count)s rebuys (%(limit)s each)", count=n, limit=limit))
    if whole("addon_level"):
        extras.append(("add-on", players, whole("addon_chips") or stack))
        words.append(gettext("%(players)s add-ons", players=players))
    return extras, ", ".join(words)


def check_chips(form: SetupForm, chip_set: ChipSet, structure: Structure, players: int) -> None:
    """The night's chips taken from the chosen set: the starting stacks' mix, what the rebuys,
    add-ons and colour-ups take, what the set cannot do, and the stack it suggests."""
    stack = structure.starting_stack
    extras, form.planned = planned_entries(form.values, players, stack)
    steps = colour_up_steps(structure)
    first = structure.levels[0]
    blinds = (first.small_blind, first.big_blind, first.ante)
    result = chip_plan(chip_set, stack, players, extras, steps, blinds)
    if result.starting is not None:
        form.stack_lines = result.starting.lines
    form.chip_lines = result.lines
    form.chip_shortages = result.shortages
    shares = [(what, n, each / stack) for what, n, each in extras] if stack else []
    form.suggested_stack = suggest_starting_stack(chip_set, players, shares, steps, blinds)


def chip_warnings(values: dict[str, str], stack: int) -> list[str]:
    """A rebuy or add-on in use that gives other chips than the starting stack is pointed out."""
    found = []
    for what, level_key, chips_key in (("rebuy", "rebuy_levels", "rebuy_chips"), ("add-on", "addon_level", "addon_chips")):
        level, chips = values.get(level_key, "").strip(), values.get(chips_key, "").replace(",", "").strip()
        if level.isdigit() and int(level) > 0 and chips.isdigit() and int(chips) != stack:
            if what == "rebuy":
                found.append(gettext("A rebuy gives %(chips)s chips; the starting stack is %(stack)s.",
                                     chips=number(int(chips)), stack=number(stack)))
            else:
                found.append(gettext("The add-on gives %(chips)s chips; the starting stack is %(stack)s.",
                                     chips=number(int(chips)), stack=number(stack)))
    return found


def unchecked_structure(data: dict[str, Any]) -> Structure:
    """The structure as typed, not yet validated, so that every problem can be listed at once."""
    items: list[Level | Break] = []
    for item in data["items"]:
        if item["type"] == "level":
            items.append(Level(item["small_blind"], item["big_blind"], item["ante"], item["minutes"], item["hands"],
                               item.get("game", DEFAULT_GAME)))
        else:
            items.append(Break(item["minutes"], tuple(item["colour_up"])))
    return Structure(
        data["name"], tuple(items), data["starting_stack"], data["hand_cap"], data["repeat_doubling"],
        tuple(data["denominations"]), data["ante_kind"], tuple(data.get("choices", ())),
    )


def mark_rows(form: SetupForm) -> None:
    """Flag the rows that the messages name ("Level 3: ...", "The break after level 2 ...")."""
    text = " ".join(form.problems)
    levels = {int(n) for n in re.findall(r"\bLevel (\d+)", text)}
    breaks = {int(n) for n in re.findall(r"break after level (\d+)", text)}
    level = 0
    for row in form.rows:
        if row.kind == "break":
            row.problem = level in breaks
        else:
            level += 1
            row.problem = level in levels


def edit(form: SetupForm, op: str) -> None:
    """Apply an editor button: ``add_level:i``, ``add_break:i``, ``remove:i``, ``up:i``, ``down:i``."""
    name, _, index_text = op.partition(":")
    index = int(index_text) if index_text.isdigit() else len(form.rows) - 1
    rows = form.rows
    if name == "add_level":
        before = next((r for r in reversed(rows[: index + 1]) if r.kind == "level"), None)
        later = any(r.kind == "level" for r in rows[index + 1 :])
        if before is None:
            new = Row("level", length="")
        elif later or not before.big_blind.isdigit():  # between two levels: start from a copy
            new = Row("level", before.small_blind, before.big_blind, before.ante, before.length, game=before.game)
        else:  # after the last level: about 50% more, at the same game
            bb = int(before.big_blind) * 3 // 2
            new = Row("level", str(bb // 2), str(bb), before.ante, before.length, game=before.game)
        rows.insert(index + 1, new)
    elif name == "add_break":
        rows.insert(index + 1, Row("break", length="10"))
    elif name == "remove" and 0 <= index < len(rows):
        rows.pop(index)
    elif name == "up" and 0 < index < len(rows):
        rows[index - 1], rows[index] = rows[index], rows[index - 1]
    elif name == "down" and 0 <= index < len(rows) - 1:
        rows[index + 1], rows[index] = rows[index], rows[index + 1]


def payload(form: SetupForm, structure: dict[str, Any]) -> dict[str, Any]:
    v = form.values
    skipped = ("counted_by", "hand_cap", "players_expected", "season")  # the form's own, not the tournament's
    data: dict[str, Any] = {k: v.get(k, "") for k in TEXT_FIELDS if k not in skipped}
    data["structure"] = structure
    own = chosen_set(form) if v.get("chip_set", "").startswith("own:") else None
    if own is not None:
        data["chips"] = chip_set_to_dict(own)
    return data


def use_stack(form: SetupForm, text: str) -> None:
    """The suggested starting stack taken: the rebuy and add-on chips follow it where they
    were the old stack."""
    if not text.isdigit() or not 1 <= int(text) <= MAX_CHIPS:
        return
    old = form.values.get("starting_stack", "").replace(",", "").strip()
    form.values["starting_stack"] = text
    for key in ("rebuy_chips", "addon_chips"):
        if not form.values.get(key) or form.values[key].replace(",", "").strip() == old:
            form.values[key] = text


def in_words(form: SetupForm) -> None:
    """The engine's sentences of the form in the reader's language (read in English until now:
    ``mark_rows`` finds the rows they name)."""
    form.problems = [say(text) if isinstance(text, Message) else text for text in form.problems]
    form.warnings = [say(text) if isinstance(text, Message) else text for text in form.warnings]
    form.stack_lines = tuple(say(text) if isinstance(text, Message) else text for text in form.stack_lines)
    form.chip_lines = tuple(say(text) if isinstance(text, Message) else text for text in form.chip_lines)
    form.chip_shortages = tuple(say(text) if isinstance(text, Message) else text for text in form.chip_shortages)
