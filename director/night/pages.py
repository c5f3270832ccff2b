"""The dashboard of a running tournament: the clock and its controls, the figures, payouts,
tables, the players with their bust buttons, undo."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, request, url_for
from flask.typing import ResponseReturnValue

from director.core import inputs
from director.core.auth import login_required
from director.core.contract import Write, read
from director.core.db import get_db
from director.core.i18n import gettext, say
from director.core.store import load_events, load_state, played_as_stored
from director.core.web import act, act_and_say, now, render
from director.night import commands as services
from director.night.views import dashboard_context, redo_text, undone_text
from director.tables.views import move_text, names_of
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
    step = services.table_step(state) if state.seating.tables and not state.finished else None
    ctx["step"] = step
    names = names_of(state)
    ctx["step_moves"] = [move_text(state, m, names) for m in step.moves] if step else []
    ctx["hand_button_note"] = hand_button_note(state, now())
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


@bp.get("/t/<int:tournament_id>/dashboard/clock")
def clock(tournament_id: int) -> ResponseReturnValue:
    """The compact clock alone (polled by the dashboard)."""
    return render("dashboard/_clock.html", "dashboard/_clock.html", **context(tournament_id))


@bp.post("/t/<int:tournament_id>/clock/<action>")
@login_required
def clock_action(tournament_id: int, action: str) -> ResponseReturnValue:
    if action not in CLOCK_ACTIONS:
        raise InvalidInput("Unknown clock action {action}.", action=repr(action))

    def do() -> None:
        if action == "break_now":
            pause = read(inputs.BreakNowIn)
            services.clock_action(get_db(), tournament_id, action, pause.expected_seq, now(), minutes=pause.minutes)
            return
        data = read(inputs.AddTimeIn)
        seconds = None
        if action == "add_time":
            seconds = 60 if data.seconds is None else data.seconds
        services.clock_action(get_db(), tournament_id, action, data.expected_seq, now(), seconds)

    return dashboard_act(tournament_id, do)


def bust_form() -> inputs.BustIn:
    """The bust form's fields (``players`` ticked, ``stack_<id>`` for each) as the declared input."""
    players = request.form.getlist("players")
    stacks = {p: request.form.get(f"stack_{p}", "") for p in players}
    fields = {
        "players": players,
        "stacks": {p: s for p, s in stacks.items() if str(s).strip()},
        "by": [b for b in request.form.getlist("by") if b.strip()] or None,
        "expected_seq": request.form.get("expected_seq") or None,
    }
    return read(inputs.BustIn, {k: v for k, v in fields.items() if v is not None})


@bp.post("/t/<int:tournament_id>/bust")
@login_required
def bust(tournament_id: int) -> ResponseReturnValue:
    def do() -> None:
        data = bust_form()
        if not data.who():
            raise InvalidInput("Tick the players who are out.")
        stacks = {str(k): v for k, v in (data.stacks or {}).items()}
        services.bust(get_db(), tournament_id, data.who(), data.expected_seq, now(), by=data.by, stacks=stacks)

    if request.form.get("group"):  # a refused same-hand bust comes back open, as typed
        return act(
            do,
            url_for("dashboard.show", tournament_id=tournament_id),
            lambda **kw: page(tournament_id, group_form=request.form if kw.get("error") else None, **kw),
        )
    return dashboard_act(tournament_id, do)


@bp.post("/t/<int:tournament_id>/colour-up")
@login_required
def colour_up(tournament_id: int) -> ResponseReturnValue:
    """A table's colour-up at the break: the counted stacks come as ``stack_<player>``."""

    def do() -> str:
        stacks = {k[6:]: v for k, v in request.form.items() if k.startswith("stack_") and v.strip()}
        fields = {"table": request.form.get("table"), "expected_seq": request.form.get("expected_seq") or None}
        data = read(inputs.ColourUpIn, {**{k: v for k, v in fields.items() if v}, **({"stacks": stacks} if stacks else {})})
        return services.colour_up(get_db(), tournament_id, data.table, data.stacks, data.expected_seq, now())[1]

    return act_and_say(do, url_for("dashboard.show", tournament_id=tournament_id), lambda **kw: page(tournament_id, **kw))


@bp.post("/t/<int:tournament_id>/undo")
@login_required
def undo(tournament_id: int) -> ResponseReturnValue:
    state = load_state(get_db(), tournament_id)

    def do() -> None:
        services.undo(get_db(), tournament_id, read(Write).expected_seq, now())

    return dashboard_act(tournament_id, do, undone_text(state))


@bp.post("/t/<int:tournament_id>/redo")
@login_required
def redo(tournament_id: int) -> ResponseReturnValue:
    state = load_state(get_db(), tournament_id)
    again = redo_text(state)
    said = gettext("Redone: %(what)s.", what=again) if again is not None else None

    def do() -> None:
        services.redo(get_db(), tournament_id, read(Write).expected_seq, now())

    return dashboard_act(tournament_id, do, said)


@bp.post("/t/<int:tournament_id>/moves/apply")
@login_required
def apply_moves(tournament_id: int) -> ResponseReturnValue:
    def do() -> None:
        services.apply_table_step(get_db(), tournament_id, read(Write).expected_seq, now())

    return dashboard_act(tournament_id, do, gettext("Players moved."))


@bp.post("/t/<int:tournament_id>/rebuys/close")
@login_required
def close_rebuys(tournament_id: int) -> ResponseReturnValue:
    def do() -> None:
        services.close_rebuys(get_db(), tournament_id, read(Write).expected_seq, now())

    return dashboard_act(tournament_id, do, gettext("Rebuys closed."))


@bp.post("/t/<int:tournament_id>/payouts/lock")
@login_required
def lock_payouts(tournament_id: int) -> ResponseReturnValue:
    def do() -> None:
        services.lock_payouts(get_db(), tournament_id, read(Write).expected_seq, now())

    return dashboard_act(tournament_id, do, gettext("The payouts are locked."))


@bp.post("/t/<int:tournament_id>/hand-cap")
@login_required
def hand_cap(tournament_id: int) -> ResponseReturnValue:
    """Seed 000's 120-hand cap: the players still in are ranked by their chips."""
    def do() -> None:
        state = load_state(get_db(), tournament_id)
        stacks = {str(p.id): request.form.get(f"chips_{p.id}", "") for p in state.alive}
        data = read(inputs.HandCapIn, {"stacks": {k: v for k, v in stacks.items() if v.strip()},
                                       "expected_seq": request.form.get("expected_seq") or None})
        services.end_at_hand_cap(get_db(), tournament_id, {str(k): v for k, v in data.stacks.items()},
                                 data.expected_seq, now())

    return dashboard_act(tournament_id, do, gettext("The tournament ended at the hand cap."))


@bp.get("/t/<int:tournament_id>/log")
@login_required
def log(tournament_id: int) -> ResponseReturnValue:
    """Every event of the night, undone ones included (the director's: it holds the cards)."""
    db = get_db()
    state = load_state(db, tournament_id)
    entries = []
    replay = None
    for event in played_as_stored(load_events(db, tournament_id)):
        before = replay
        replay = create(event) if replay is None else apply(replay, event)
        if event.type == "undo" and before is not None and before.last_event is not None:
            text = gettext("Undo: %(what)s", what=say(describe(before, before.last_event)))
        elif event.type == "redo" and replay.last_event is not None:
            text = gettext("Redo: %(what)s", what=say(describe(replay, replay.last_event)))
        else:
            text = say(describe(replay, event))
        entries.append((event, text))
    return render("dashboard/log.html", None, t=state, tournament_id=tournament_id, entries=entries)
