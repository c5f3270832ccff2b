"""The dashboard of a running tournament: the clock and its controls, the figures, payouts,
tables, the players with their bust buttons, undo."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import Blueprint, current_app, render_template, request, url_for
from flask.typing import ResponseReturnValue
from werkzeug.datastructures import MultiDict

from director.core import roles
from director.core.auth import login_required, role_required
from director.core.commands import REGISTRY, Outcome, page_route, perform
from director.core.db import get_db
from director.core.i18n import gettext
from director.core.roles import author_words
from director.core.store import load_authors, load_events, load_state, played_as_stored
from director.core.web import act, act_and_say, is_partial_request, now, render
from director.core.words import say
from director.night.commands import (
    bust_command,
    close_rebuys_command,
    colour_up_command,
    hand_cap_command,
    lock_payouts_command,
    redo_command,
    undo_command,
)
from director.night.views import (
    LogLine,
    clock_view,
    dashboard_context,
    night_view,
    redo_text,
    undone_text,
)
from director.tables.commands import confirm_command
from director.tables.views import step_view, table_step
from engine.errors import InvalidInput
from engine.tournament import (
    CLOCK_ACTIONS,
    Tournament,
    apply,
    create,
    describe,
    hand_played_refusal,
)

bp = Blueprint("dashboard", __name__)


def context(tournament_id: int, **extra: Any) -> dict[str, Any]:
    state = load_state(get_db(), tournament_id)
    ctx = dashboard_context(state, tournament_id, now())
    step = step_view(state, table_step(state)) if state.seating.tables and not state.finished else None
    ctx["step"] = step
    ctx["step_moves"] = [text for _, text in step.moves] if step else []
    ctx["hand_button_note"] = hand_button_note(state, now())
    ctx["group_form"] = None  # the several-busts form: drawn when opened (group_bust)
    ctx["copy_failed"] = copy_failed()
    ctx.update(extra)
    return ctx


def hand_button_note(state: Tournament, at: float) -> str:
    """Why the "+1 hand played" button is off (the assistant counts, or the cap), or ""."""
    if not state.settings.structure.hand_counted or not state.started or state.finished:
        return ""
    return say(hand_played_refusal(state, at) or "")


def page(tournament_id: int, **extra: Any) -> str:
    return render("dashboard/show.html", "dashboard/_panel.html", **context(tournament_id, **extra))


def dashboard_act(tournament_id: int, do: Any, message: str | None = None) -> ResponseReturnValue:
    return act(
        do,
        url_for("dashboard.show", tournament_id=tournament_id),
        lambda **kw: page(tournament_id, **kw),
        message=message,
    )


@bp.get("/t/<int:tournament_id>")
def show(tournament_id: int) -> ResponseReturnValue:
    return page(tournament_id)


@bp.get("/t/<int:tournament_id>/group-bust")
@role_required
def group_bust(tournament_id: int) -> ResponseReturnValue:
    """The form for several players out in one hand, drawn when the director opens it: a row
    and two lists of every player still in, which on a 300-player night was a third of the
    dashboard's weight and time at every refresh. Without htmx, the dashboard with it open."""
    command = REGISTRY["night.bust"]
    roles.check(command.name, command.summary, command.roles, {"tournament_id": tournament_id})
    if is_partial_request():
        return render_template("dashboard/_group_bust.html", **context(tournament_id, group_form=MultiDict()))
    return page(tournament_id, group_form=MultiDict())


@bp.get("/t/<int:tournament_id>/dashboard/clock")
def clock(tournament_id: int) -> ResponseReturnValue:
    """The compact clock alone (polled by the dashboard): the clock's view and the seq, nothing more."""
    state = load_state(get_db(), tournament_id)
    at = now()
    return render("dashboard/_clock.html", "dashboard/_clock.html", t=night_view(state, tournament_id),
                  tournament_id=tournament_id, clock=clock_view(state.clock_at(at), at, state.settings.structure.hand_counted),
                  copy_failed=copy_failed())


def copy_failed() -> list[str]:
    """What the clock's card says when the last automatic copy of the database failed."""
    from director.club.autobackup import status_lines

    return [line for line, failed in status_lines(current_app.config["DATABASE"]) if failed]


@bp.post("/t/<int:tournament_id>/clock/<action>")
@role_required  # the command says which roles may
def clock_action(tournament_id: int, action: str) -> ResponseReturnValue:
    if action not in CLOCK_ACTIONS:
        raise InvalidInput("Unknown clock action {action}.", action=repr(action))
    return dashboard_act(tournament_id, lambda: perform(f"night.clock.{action}", tournament_id=tournament_id))


@bp.post("/t/<int:tournament_id>/bust")
@role_required  # the command says which roles may
def bust(tournament_id: int) -> ResponseReturnValue:
    def do() -> None:
        perform(bust_command, tournament_id=tournament_id)

    if request.form.get("group"):  # a refused same-hand bust comes back open, as typed
        return act(
            do,
            url_for("dashboard.show", tournament_id=tournament_id),
            lambda **kw: page(tournament_id, group_form=request.form if kw.get("error") else None, **kw),
        )
    return dashboard_act(tournament_id, do)


def _saying(do: Callable[[], Outcome[Tournament]], tournament_id: int) -> ResponseReturnValue:
    return act_and_say(lambda: do().said or "", url_for("dashboard.show", tournament_id=tournament_id),
                       lambda **kw: page(tournament_id, **kw))


def _telling(message: Callable[[Tournament], str | None]) -> Callable[..., ResponseReturnValue]:
    """The dashboard's answer, with ``message`` worked out from the state before the command
    (what an undo takes back)."""
    def respond(do: Callable[[], object], tournament_id: int) -> ResponseReturnValue:
        return dashboard_act(tournament_id, do, message(load_state(get_db(), tournament_id)))

    return respond


def _redone(state: Tournament) -> str | None:
    again = redo_text(state)
    return gettext("Redone: %(what)s.", what=again) if again is not None else None


page_route(bp, "/t/<int:tournament_id>/colour-up", colour_up_command, _saying, endpoint="colour_up")
page_route(bp, "/t/<int:tournament_id>/undo", undo_command, _telling(undone_text), endpoint="undo")
page_route(bp, "/t/<int:tournament_id>/redo", redo_command, _telling(_redone), endpoint="redo")
page_route(bp, "/t/<int:tournament_id>/moves/apply", confirm_command, _telling(lambda _s: gettext("Players moved.")),
           endpoint="apply_moves")
page_route(bp, "/t/<int:tournament_id>/rebuys/close", close_rebuys_command,
           _telling(lambda _s: gettext("Rebuys closed.")), endpoint="close_rebuys")
page_route(bp, "/t/<int:tournament_id>/payouts/lock", lock_payouts_command,
           _telling(lambda _s: gettext("The payouts are locked.")), endpoint="lock_payouts")
page_route(bp, "/t/<int:tournament_id>/hand-cap", hand_cap_command,
           _telling(lambda _s: gettext("The tournament ended at the hand cap.")), endpoint="hand_cap")


@bp.get("/t/<int:tournament_id>/log")
@login_required
def log(tournament_id: int) -> ResponseReturnValue:
    """Every event of the night, undone ones included (the director's: it holds the cards)."""
    db = get_db()
    state = load_state(db, tournament_id)
    entries = []
    replay = None
    authors = load_authors(db, tournament_id)
    for event in played_as_stored(load_events(db, tournament_id)):
        before = replay
        replay = create(event) if replay is None else apply(replay, event)
        undone = replay.history.undone  # an undo's entry taken back: the one it named, else the last
        taken = undone[-1] if event.type == "undo" and undone else None
        if taken is not None and before is not None:
            text = gettext("Undo: %(what)s", what=say(describe(before, taken)))
        elif event.type == "redo" and replay.last_event is not None:
            text = gettext("Redo: %(what)s", what=say(describe(replay, replay.last_event)))
        else:
            text = say(describe(replay, event))
        entries.append(LogLine(event.seq, event.at, event.type == "created", text,
                               say(author_words(authors.get(event.seq)))))
    return render("dashboard/log.html", None, t=night_view(state, tournament_id), tournament_id=tournament_id,
                  entries=entries)
