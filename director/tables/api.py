"""The seating JSON routes under ``/api/t/<id>/tables``, each declared once with its input
and answer (``director.core.contract.Api``).
"""

from __future__ import annotations

from flask import jsonify
from flask.typing import ResponseReturnValue

from director.core import shapes
from director.core.contract import Api, Write
from director.core.db import get_db
from director.core.store import load_state
from director.tables import bp
from director.tables.commands import ACTIONS, run_action
from director.tables.views import tables_json

api = Api(bp, "seating")


@api.get("/api/t/<int:tournament_id>/tables", summary="Tables, seats, locks and the moves to make",
         result=shapes.Tables)
def api_tables(tournament_id: int) -> ResponseReturnValue:
    return jsonify(tables_json(tournament_id, load_state(get_db(), tournament_id)))


SUMMARIES = {
    "draw": "Draw seats at random (table_size: seats per table)",
    "redraw": "Redraw the final table's seats",
    "confirm": "Record the balancing, table break or final-table moves shown (action: the step)",
    "seat": "Seat a late entry at the table that is short",
    "swap": "Swap two players' seats",
    "lock": "Keep a seat for a player at the draw (a player who needs it)",
    "unlock": "Remove a player's seat lock",
    "undo": "Take back the last seating entry",
}


def _api_action(action: str) -> None:
    def view(tournament_id: int, data: Write) -> ResponseReturnValue:
        event = run_action(tournament_id, action, data)
        body = tables_json(tournament_id, load_state(get_db(), tournament_id))
        body["event"] = {"seq": event.seq, "type": event.type}
        return jsonify(body), 201

    api.post(f"/api/t/<int:tournament_id>/tables/{action}", summary=SUMMARIES[action], body=ACTIONS[action][0],
             result=shapes.Tables, endpoint=f"api_tables_{action}")(view)


for _action in ACTIONS:
    _api_action(_action)


api.unknown("/api/t/<int:tournament_id>/tables/<action>", tuple(ACTIONS), "action")
