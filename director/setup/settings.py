"""The settings after creation: the director corrects the name, the buy-in, the rebuy and
add-on rules, late registration, the payouts, the table size while the night runs.

Each save is one ``settings_changed`` event with only the fields that changed (so the log
says what changed and undo takes it back). The engine refuses, with the reason, a change that
contradicts what already happened ("2 players have already rebought twice: the limit cannot
go below 2"). The JSON twin is ``POST /api/t/<id>/settings``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import Blueprint, url_for
from flask.typing import ResponseReturnValue

from director.core import shapes
from director.core.commands import Outcome, api_route, page_route
from director.core.contract import Api
from director.core.db import get_db
from director.core.store import load_state
from director.core.web import act_and_say, render
from director.night.answers import answer
from director.night.views import night_view
from director.setup.commands import percentages_text, settings_command
from engine.tournament import Tournament, fixed_prizes_text, mystery_pool_text, settings_as_dict

bp = Blueprint("settings", __name__)
api = Api(bp, "tournament")


def context(tournament_id: int, **extra: Any) -> dict[str, Any]:
    state = load_state(get_db(), tournament_id)
    s = state.settings
    values = {
        "name": s.name, "buy_in": s.buy_in, "starting_stack": s.starting_stack, "table_size": s.table_size,
        "rebuy_levels": s.rebuy_levels, "max_rebuys": "" if s.max_rebuys is None else s.max_rebuys,
        "rebuy_when": s.rebuy_when, "rebuy_cost": s.rebuy_cost, "rebuy_chips": s.rebuy_chips,
        "addon_level": s.addon_level, "addon_cost": s.addon_cost, "addon_chips": s.addon_chips,
        "late_registration_levels": s.late_registration_levels, "payout_kind": s.payout_kind,
        "percentages": percentages_text(state) or "50/30/20", "league_formula": s.league_formula,
        "payout_unit": s.payout_unit, "pause_after_break": s.pause_after_break,
        "reentry_levels": s.reentry_levels, "max_reentries": "" if s.max_reentries is None else s.max_reentries,
        "fee_amount": s.fee_amount or "", "fee_percent": settings_as_dict(s)["fee_percent"],
        "guarantee": s.guarantee or "", "fixed_prizes": fixed_prizes_text(s.fixed_prizes),
        "min_prize_buy_in": s.min_prize_buy_in, "lock_payouts": s.lock_payouts,
        "bounty_kind": s.bounty_kind, "bounty": s.bounty or "", "pko_share": s.pko_share,
        "mystery_pool": mystery_pool_text(s.mystery_pool), "mystery_level": s.mystery_level,
        "action_seconds": s.action_seconds, "action_countdown": s.action_countdown,
        "dealer_corrects": s.dealer_corrects, "limit_cap_heads_up": s.limit_cap_heads_up,
    }
    return {"t": night_view(state, tournament_id), "tournament_id": tournament_id, "v": values, "editable": not state.finished,
            "payments": len(state.ledger.payments), **extra}


def page(tournament_id: int, **extra: Any) -> str:
    return render("settings/show.html", "settings/_form.html", **context(tournament_id, **extra))


@bp.get("/t/<int:tournament_id>/settings")
def show(tournament_id: int) -> ResponseReturnValue:
    return page(tournament_id)


def _respond(do: Callable[[], Outcome[Tournament]], tournament_id: int) -> ResponseReturnValue:
    return act_and_say(lambda: do().said or "", url_for("settings.show", tournament_id=tournament_id),
                       lambda **kw: page(tournament_id, **kw))


page_route(bp, "/t/<int:tournament_id>/settings", settings_command, _respond, endpoint="save")
api_route(api, "/api/t/<int:tournament_id>/settings", settings_command,
          lambda done, tournament_id: answer(tournament_id, notice=done.said), result=shapes.TournamentChange,
          endpoint="api_save")
