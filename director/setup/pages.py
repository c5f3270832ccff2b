"""New tournament: name, structure editor, chips, tables, rebuys and add-ons, buy-in and payouts.

The form works without JavaScript: its buttons (load a preset, add, remove or move a row,
create) all post the whole form, which comes back re-rendered with the change and the
engine's messages; htmx swaps just the form.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, flash, redirect, request, url_for
from flask.typing import ResponseReturnValue
from werkzeug.exceptions import NotFound
from werkzeug.wrappers import Response

from director.club import seasons
from director.core.auth import login_required
from director.core.commands import perform
from director.core.db import get_db
from director.core.i18n import gettext
from director.core.web import is_partial_request, render
from director.core.words import say
from director.setup import chips as chipsets
from director.setup import templates as saved
from director.setup.commands import create_command
from director.setup.form import (
    DEFAULT_PRESET,
    SetupForm,
    check,
    default_form,
    edit,
    form_from_preset,
    form_from_request,
    form_from_template,
    in_words,
    payload,
    use_stack,
)
from director.setup.views import dealt_game_views, game_views, league_choices
from engine.chips import (
    CHIP_SETS,
)
from engine.errors import EngineError
from engine.structure import (
    PRESETS,
)

bp = Blueprint("setup", __name__)


@bp.app_context_processor
def rules_fields() -> dict[str, Any]:
    """The rules' fields (the new tournament's form, the settings) describe each points formula."""
    return {"league_choices": league_choices}


def show(form: SetupForm, status: int = 200) -> ResponseReturnValue:
    in_words(form)
    return (
        render(
            "setup/new.html",
            "setup/_form.html",
            form=form,
            presets={key: str(label) for key, (label, _) in PRESETS.items()},
            templates=saved.templates(get_db()),
            chip_sets={key: str(cs.name) for key, cs in CHIP_SETS.items()},
            games=game_views(),
            dealt_games=dealt_game_views(),
            own_chip_sets=[chipsets.saved_view(s) for s in chipsets.chip_sets(get_db())],
            seasons=seasons.seasons(get_db()),
        ),
        status,
    )


@bp.get("/new")
@login_required
def new() -> ResponseReturnValue:
    form = default_form()
    check(form)
    return show(form)


@bp.post("/new")
@login_required
def create() -> ResponseReturnValue:
    form = form_from_request(request.form)
    op = request.form.get("op", "create")
    if op == "load_preset":
        preset_id = form.values.get("preset") or DEFAULT_PRESET
        show_games = form.show_games  # the Game column stays as the host left it
        if preset_id in PRESETS:
            form = form_from_preset(preset_id, form.values)
        elif preset_id.startswith("template:") and preset_id[9:].isdigit():
            chosen = saved.template(get_db(), int(preset_id[9:]))
            if chosen is not None:
                form = form_from_template(chosen, form.values)
        form.show_games = show_games
        check(form)
        return show(form)
    if op.startswith("use_stack:"):
        use_stack(form, op[10:])
        check(form)
        return show(form)
    if op != "create":
        edit(form, op)
        if op != "check":  # a change of the rows: the structure is no longer the preset as loaded
            form.values["preset"] = ""
        check(form)
        return show(form)
    structure = check(form)
    if structure is None:
        form.error = gettext("The structure needs fixing before the tournament can start: see the messages above the "
                             "levels.")
        return show(form, 422)
    season = form.values.get("season", "")
    if season and not (season.isdigit() and int(season) in {i for i, _, _ in seasons.seasons(get_db())}):
        form.error = gettext("That season is gone: choose another, or none.")
        return show(form, 422)
    try:
        created = perform(create_command, {**payload(form, structure), **({"season": int(season)} if season else {})})
    except (EngineError, NotFound) as error:
        form.error = gettext("That season is gone: choose another, or none.") if isinstance(error, NotFound) else say(error)
        return show(form, 422)
    tournament_id = created.tournament_id
    for message in created.said:
        flash(message, "ok")
    target = url_for("players.show", tournament_id=tournament_id)
    if is_partial_request():
        response = Response(status=204)
        response.headers["HX-Redirect"] = target  # a full page load: the new page has its own layout
        return response
    return redirect(target, code=303)
