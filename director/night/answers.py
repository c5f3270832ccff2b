"""The JSON answers about a tournament, shared by the API's blueprints (no routes here)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import jsonify
from flask.typing import ResponseReturnValue

from director.core.db import get_db
from director.core.store import load_state
from director.core.web import now
from director.night.views import ordinal
from engine.bounties import Bounties, bounties
from engine.chips import chip_set_to_dict
from engine.clock import ClockState
from engine.structure import structure_to_dict
from engine.tournament import Settings, Tournament, owned_chips

# --- the tournament --------------------------------------------------------------------------


def clock_json(clock: ClockState) -> dict[str, Any]:
    return {
        "status": clock.status,
        "title": clock.title,
        "level": clock.level_number,
        "on_break": clock.on_break,
        "small_blind": clock.small_blind,
        "big_blind": clock.big_blind,
        "ante": clock.ante,
        "game": clock.level.game if clock.level is not None and not clock.on_break else None,
        "seconds_left": clock.seconds_left,
        "ends_at": clock.ends_at,
        "next_level": clock.next_level_number,
        "break_next": clock.break_next,
        "hands_played": clock.hands_played,
        "hands_left_in_level": clock.hands_left_in_level,
        "hand_cap": clock.hand_cap,
        "item": clock.item_index,
    }


def state_json(state: Tournament, tournament_id: int, at: float) -> dict[str, Any]:
    """The tournament as the API shows it, with the clock read at ``at``."""
    s = state.settings
    b = bounties(state)
    return {
        "id": tournament_id,
        "name": state.name,
        "seq": state.seq,
        "server_time": at,
        "started": state.started,
        "finished": state.finished,
        "settings": settings_json(s),
        "clock": clock_json(state.clock_at(at)),
        "entries": state.entries,
        "players_left": state.players_left,
        "rebuys": state.rebuys,
        "addons": state.addons,
        "chips_in_play": state.chips_in_play,
        "average_stack": state.average_stack,
        "prize_pool": None if s.payout_kind == "points" else state.prize_pool,
        "payouts": [{"place": i, "prize": p} for i, p in enumerate(state.prizes, start=1)],
        "players": players_json(state, b),
        "tables": {str(t): [p.id for p in ps] for t, ps in state.tables().items()},
        "bounties": bounties_json(state, b),
    }


def settings_json(s: Settings) -> dict[str, Any]:
    """The settings the API shows."""
    owned = owned_chips(s)
    return {
        "starting_stack": s.starting_stack,
        "table_size": s.table_size,
        "buy_in": s.buy_in,
        "rebuy_levels": s.rebuy_levels,
        "max_rebuys": s.max_rebuys,
        "rebuy_cost": s.rebuy_cost,
        "rebuy_chips": s.rebuy_chips,
        "addon_level": s.addon_level,
        "addon_cost": s.addon_cost,
        "addon_chips": s.addon_chips,
        "late_registration_levels": s.late_registration_levels,
        "reentry_levels": s.reentry_levels,
        "max_reentries": s.max_reentries,
        "payout_kind": s.payout_kind,
        "pause_after_break": s.pause_after_break,
        "structure": structure_to_dict(s.structure),
        "chips": None if owned is None else chip_set_to_dict(owned),
        "bounty_kind": s.bounty_kind,
        "bounty": s.bounty,
        "pko_share": s.pko_share,
        "mystery_level": s.mystery_level,
        "mystery_pool": [[amount, count] for amount, count in s.mystery_pool],
    }


def players_json(state: Tournament, b: Bounties) -> list[dict[str, Any]]:
    """Every entry: status, seat, rebuys, place, prize, who knocked them out, bounties."""
    places = state.places()
    by = state.eliminated_by()
    awards = state.awards()
    eliminators = state.standings.eliminators
    return [
        {
            "id": p.id,
            "name": p.name,
            "status": p.status,
            "table": p.table,
            "seat": p.seat,
            "rebuys": p.rebuys,
            "reentries": p.reentries,
            "addon": p.addon,
            "place": places.get(p.id),
            "place_text": ordinal(places[p.id]) if p.id in places else None,
            "knocked_out_by": by.get(p.id),
            "prize": awards.get(p.id),
            "knocked_out_by_all": list(eliminators.get(p.id, ())),
            "bounty_head": b.head(p.id),
            "bounties_won": b.won.get(p.id, 0),
        }
        for p in state.players
    ]


def bounties_json(state: Tournament, b: Bounties) -> dict[str, Any] | None:
    """The bounties paid in, unclaimed, and the mystery envelopes drawn (None without bounties)."""
    s = state.settings
    if s.bounty_kind == "none":
        return None
    return {
        "kind": s.bounty_kind,
        "per_entry": s.bounty,
        "paid_in": b.paid_in,
        "unclaimed": b.unclaimed,
        "mystery_left": list(b.left),
        "mystery_draws": [
            {"victim": d.victim, "takers": list(d.takers), "amount": d.amount, "level": d.level} for d in b.draws
        ],
    }


def answer(tournament_id: int, status: int = 201, notice: str | None = None) -> ResponseReturnValue:
    state = load_state(get_db(), tournament_id)
    body = state_json(state, tournament_id, now())
    if notice is not None:
        body["notice"] = notice
    return jsonify(body), status


def without_tokens(payload: Mapping[str, Any]) -> dict[str, Any]:
    """An event's payload with the players' page tokens left out, for anyone but the director.

    >>> without_tokens({"name": "Ann", "token": "abc"}), without_tokens({"seats": {}, "tokens": {"1": "x"}})
    ({'name': 'Ann'}, {'seats': {}})
    """
    return {k: v for k, v in payload.items() if k not in ("token", "tokens")}
