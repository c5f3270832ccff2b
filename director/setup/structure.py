"""The structure in play: the director edits levels and breaks while the night runs.

Each change is one ``structure_changed`` event (``engine.structure.edit``, checked by the
tournament's fold against the clock: what was played stays as it was, the level in play
keeps its elapsed time unless restarted), so undo takes it back and the log says what
changed; the TV and the phones follow at their next poll. The page lists every level and
break with what can still change, and draws the structure over the night
(``director.screens.charts.structure_chart``), redrawn with the panel after each edit; the JSON twin
is ``POST /api/t/<id>/structure``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

from flask import Blueprint, url_for
from flask.typing import ResponseReturnValue

from director.core import shapes
from director.core.commands import Outcome, api_route, page_route
from director.core.contract import Api
from director.core.db import get_db
from director.core.i18n import gettext
from director.core.store import load_state
from director.core.web import act_and_say, now, render
from director.core.words import say
from director.night.answers import answer
from director.night.views import night_view
from director.screens.charts import elapsed_minutes, structure_chart
from director.setup.commands import structure_command
from director.setup.views import dealt_game_views, game_views
from engine.games import DEALERS_CHOICE, DEFAULT_GAME, dealer_choices
from engine.structure import Break, Level, warnings
from engine.tournament import Tournament

bp = Blueprint("structure", __name__)
api = Api(bp, "tournament")


@dataclass(frozen=True)
class ItemRow:
    """One level or break of the structure as the page lists it."""

    index: int
    kind: Literal["level", "break"]
    number: int | None
    """The level's number (None for a break)."""
    small_blind: int | None
    big_blind: int | None
    ante: int | None
    minutes: int | None
    hands: int | None
    colour_up: str
    status: Literal["played", "playing", "to_come"]
    game: str | None = None
    """The key of the game dealt at the level (:data:`engine.games.GAMES`; None for a break)."""

    @property
    def label(self) -> str:
        return gettext("Level %(level)s", level=self.number) if self.kind == "level" else gettext("Break")


def item_rows(state: Tournament, at: float) -> list[ItemRow]:
    """Every item of the structure, with whether it is over, in play or to come."""
    structure = state.settings.structure
    current = state.clock_at(at).item_index if state.started else -1
    rows: list[ItemRow] = []
    number = 0
    for index, item in enumerate(structure.items):
        status: Literal["played", "playing", "to_come"] = (
            "played" if index < current else "playing" if index == current else "to_come"
        )
        if state.finished:
            status = "played"
        if isinstance(item, Level):
            number += 1
            rows.append(ItemRow(index, "level", number, item.small_blind, item.big_blind, item.ante,
                                item.minutes, item.hands, "", status, item.game))
        else:
            assert isinstance(item, Break)
            rows.append(ItemRow(index, "break", None, None, None, None, item.minutes, None,
                                " ".join(str(v) for v in item.colour_up), status))
    return rows


def context(tournament_id: int, **extra: Any) -> dict[str, Any]:
    state = load_state(get_db(), tournament_id)
    at = now()
    rows = item_rows(state, at)
    upcoming = [r for r in rows if r.status != "played"]
    structure, clock = state.settings.structure, state.clock_at(at)
    playing = state.started and not state.finished
    at_minutes = elapsed_minutes(structure, clock) if playing else None
    players = state.entries if state.entries > 1 else None
    return {
        "chart": structure_chart(structure, now_minutes=at_minutes, players=players),
        "chart_narrow": structure_chart(structure, now_minutes=at_minutes, players=players, compact=True),
        "t": night_view(state, tournament_id),
        "tournament_id": tournament_id,
        "rows": rows,
        "first_open": upcoming[0].index if upcoming else len(rows),
        "hand_counted": state.settings.structure.hand_counted,
        "games": game_views(),
        "mixed_games": any(level.game != DEFAULT_GAME for level in structure.levels),
        "dealers_choice": any(level.game == DEALERS_CHOICE for level in structure.levels),
        "choices": structure.choices,
        "dealt_games": dealt_game_views(),
        "choice_names": ", ".join(say(game.name) for game in dealer_choices(structure.choices)),
        "warnings": [say(w) for w in warnings(state.settings.structure)],
        "level_now": str(clock.title),
        "editable": not state.finished,
        **extra,
    }


def page(tournament_id: int, **extra: Any) -> str:
    return render("structure/show.html", "structure/_panel.html", **context(tournament_id, **extra))


@bp.get("/t/<int:tournament_id>/structure")
def show(tournament_id: int) -> ResponseReturnValue:
    return page(tournament_id)


def _respond(do: Callable[[], Outcome[Tournament]], tournament_id: int) -> ResponseReturnValue:
    return act_and_say(lambda: do().said or "", url_for("structure.show", tournament_id=tournament_id),
                       lambda **kw: page(tournament_id, **kw))


page_route(bp, "/t/<int:tournament_id>/structure", structure_command, _respond, endpoint="change")
api_route(api, "/api/t/<int:tournament_id>/structure", structure_command,
          lambda done, tournament_id: answer(tournament_id, notice=done.said), result=shapes.TournamentChange,
          endpoint="api_change")
