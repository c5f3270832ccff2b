"""The final table's deal (TDA 7.3): each player's figure under ICM, the chip chops and the
equal split side by side, or the players' own; optionally an amount left to play for; the
accepted deal is one ``deal`` event (``engine.deals``), undone like any other.

The stacks come from the one chip count where the dealer's assistant keeps a table; at
another table the director types them. Pages: ``/t/<id>/deal``. JSON twins:
``POST /api/t/<id>/deal/figures`` (the figures, nothing recorded) and ``POST /api/t/<id>/deal``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import Blueprint, jsonify, request, url_for
from flask.typing import ResponseReturnValue

from director.core import inputs, shapes, store
from director.core.auth import login_required
from director.core.commands import Call, Events, api_route, perform, stream_command
from director.core.contract import Api
from director.core.db import get_db
from director.core.i18n import gettext
from director.core.inputs import AcceptDealIn
from director.core.store import load_state
from director.core.web import act_and_say, render
from director.core.words import number as chips
from director.core.words import say
from director.night.answers import answer
from director.night.views import deal_made, night_view, player_view
from engine.dealing import stack_of
from engine.deals import METHODS, deal_refusal, prizes_left, proposals, shared_prizes
from engine.errors import EngineError, IllegalAction, InvalidInput, Message
from engine.payouts import Deal
from engine.tournament import Tournament

bp = Blueprint("deal", __name__)
api = Api(bp, "tournament")


def known_stacks(state: Tournament) -> dict[int, int | None]:
    """Each player still in with his chips where the app keeps his table's stacks (else None)."""
    tracked = set(state.dealing.latest)
    return {p.id: stack_of(state, p.id) if p.table in tracked else None for p in state.alive}


def stacks_for(state: Tournament, given: Mapping[int, int] | None) -> dict[int, int]:
    """The stacks the deal is worked out from: those typed, else the app's; every one needed."""
    stacks = {pid: (given or {}).get(pid, known) for pid, known in known_stacks(state).items()}
    missing = [state.name_of(pid) for pid, chips_ in stacks.items() if not chips_]
    if missing:
        raise InvalidInput("Type the chips of {names}: the app does not keep the stacks at their table.",
                           names=", ".join(missing))
    strangers = [str(pid) for pid in (given or {}) if pid not in stacks]
    if strangers:
        raise IllegalAction("Player {ids} is not in the game: only the players still in are in a deal.",
                            ids=", ".join(strangers))
    return {pid: int(c) for pid, c in stacks.items() if c}


def figures(state: Tournament, stacks: Mapping[int, int], play_for: int) -> dict[str, Any]:
    """Each method's figures as the API and the page show them."""
    methods: dict[str, Any] = {}
    for method, result in proposals(state, stacks, play_for).items():
        if isinstance(result, Deal):
            methods[method] = {
                "name": say(METHODS[method]),
                "amounts": {str(k): v for k, v in result.amounts.items()},
                "exact": {str(k): round(v, 2) for k, v in result.exact.items()},
                "warnings": [_named(state, w) for w in result.warnings],
            }
        else:
            methods[method] = {"name": say(METHODS[method]), "error": say(result)}
    prizes = prizes_left(state)
    return {"prizes_left": prizes, "shared": sum(shared_prizes(prizes, play_for)),
            "stacks": {str(k): v for k, v in stacks.items()}, "methods": methods}


def _named(state: Tournament, warning: str) -> str:
    """The engine's warnings name players by id: by name here."""
    warning = say(warning)
    head, _, rest = warning.partition(" ")
    return f"{state.name_of(int(head))} {rest}" if head.isdigit() else warning


def refused(refusal: str) -> IllegalAction:
    """The engine's refusal raised as an error (its message id and values kept)."""
    if isinstance(refusal, Message):
        return IllegalAction(refusal.message, **refusal.values)
    return IllegalAction(refusal)


@stream_command("money.deal", AcceptDealIn, "Accept a deal at the final table (ICM, a chip chop, an equal split "
                "or the players' own figures)", stream=store.TOURNAMENT, id="tournament_id")
def deal_command(state: Tournament, data: AcceptDealIn, call: Call) -> Events:
    """Record the deal: the method's figures worked out here from the stacks (the players' own
    for ``custom``)."""
    refusal = deal_refusal(state)
    if refusal:
        raise refused(refusal)
    stacks = stacks_for(state, data.stacks)
    if data.method == "custom":
        if not data.amounts:
            raise InvalidInput("Type each player's share for a deal of your own figures.")
        amounts = dict(data.amounts)
    else:
        result = proposals(state, stacks, data.play_for)[data.method]
        if isinstance(result, str):
            raise refused(result)
        amounts = dict(result.amounts)
    new: Tournament = yield "deal", {
        "method": data.method, "amounts": {str(k): v for k, v in amounts.items()},
        "stacks": {str(k): v for k, v in stacks.items()}, "play_for": data.play_for, "play_on": data.play_on,
    }
    shares = ", ".join(f"{new.name_of(pid)} {chips(m)}" for pid, m in amounts.items())
    if new.finished:
        tail = gettext("The tournament is over: the players are ranked by their chips.")
    elif data.play_for:
        tail = gettext("Play goes on for the %(amount)s left and the trophy.", amount=chips(data.play_for))
    else:
        tail = gettext("Play goes on for the trophy.")
    return gettext("Deal made (%(method)s): %(shares)s. %(then)s", method=say(METHODS[data.method]),
                   shares=shares, then=tail)


# --- the page -------------------------------------------------------------------------------


def _form_numbers(prefix: str) -> dict[int, int]:
    out: dict[int, int] = {}
    for key, value in request.form.items():
        if key.startswith(prefix) and key[len(prefix):].isdigit() and value.strip():
            text = value.replace(",", "").strip()
            if not text.isdigit() or len(text) > 12:
                raise InvalidInput("{value} is not a whole number.", value=repr(value))
            out[int(key[len(prefix):])] = int(text)
    return out


def context(tournament_id: int, **extra: Any) -> dict[str, Any]:
    state = load_state(get_db(), tournament_id)
    known = known_stacks(state)
    typed = extra.pop("typed", None) or {}
    play_for = extra.pop("play_for", 0)
    stacks = {pid: typed.get(pid, c) for pid, c in known.items()}
    shown = None
    refusal = deal_refusal(state)
    problem = extra.pop("problem", None)
    if refusal is None and all(stacks.values()) and problem is None:
        try:
            shown = figures(state, {pid: int(c) for pid, c in stacks.items() if c}, play_for)
        except EngineError as error:
            problem = say(error)
    return {
        "t": night_view(state, tournament_id), "deal": deal_made(state),
        "alive": [player_view(p) for p in state.alive],
        "tournament_id": tournament_id, "refusal": say(refusal) if refusal else refusal, "stacks": stacks, "known": known,
        "play_for": play_for, "figures": shown, "problem": problem,
        "methods": {key: say(name) for key, name in METHODS.items()},
        "prizes_left": prizes_left(state) if refusal is None else [], **extra,
    }


def page(tournament_id: int, **extra: Any) -> str:
    return render("deal/show.html", "deal/_panel.html", **context(tournament_id, **extra))


@bp.get("/t/<int:tournament_id>/deal")
def show(tournament_id: int) -> ResponseReturnValue:
    return page(tournament_id)


@bp.post("/t/<int:tournament_id>/deal")
@login_required
def post(tournament_id: int) -> ResponseReturnValue:
    op = request.form.get("op", "figures")
    try:
        typed = _form_numbers("stack_")
        play_text = request.form.get("play_for", "").replace(",", "").strip() or "0"
        if not play_text.isdigit() or len(play_text) > 12:
            raise InvalidInput("The amount left to play for must be a whole number, not {value}.", value=repr(play_text))
        play_for = int(play_text)
    except InvalidInput as error:
        return page(tournament_id, problem=say(error)), 422
    if not op.startswith("accept:"):
        return page(tournament_id, typed=typed, play_for=play_for)
    method = op.removeprefix("accept:")

    def do() -> str:
        body: dict[str, Any] = {
            "method": method, "stacks": {str(k): v for k, v in typed.items()} or None, "play_for": play_for,
            "play_on": "play_on" in request.form, "expected_seq": request.form.get("expected_seq") or None,
        }
        if method == "custom":
            body["amounts"] = {str(k): v for k, v in _form_numbers("amount_").items()}
        done = perform(deal_command, {k: v for k, v in body.items() if v is not None}, tournament_id=tournament_id)
        return str(done.said)

    return act_and_say(do, url_for("deal.show", tournament_id=tournament_id),
                       lambda **kw: page(tournament_id, typed=typed, play_for=play_for, **kw))


# --- the JSON API ---------------------------------------------------------------------------


@api.post("/api/t/<int:tournament_id>/deal/figures", summary="Each deal method's figures for the players "
          "left (nothing recorded)", body=inputs.DealFiguresIn, result=shapes.DealFigures, status=200)
def api_figures(tournament_id: int, data: inputs.DealFiguresIn) -> ResponseReturnValue:
    state = load_state(get_db(), tournament_id)
    refusal = deal_refusal(state)
    if refusal:
        raise refused(refusal)
    return jsonify(figures(state, stacks_for(state, data.stacks), data.play_for))


api_route(api, "/api/t/<int:tournament_id>/deal", deal_command,
          lambda done, tournament_id: answer(tournament_id, notice=done.said), result=shapes.TournamentChange,
          endpoint="api_deal")
