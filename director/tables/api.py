"""The tables' JSON routes: the seating commands under ``/api/t/<id>/tables`` and a table's
hand under ``/api/t/<id>/table/<n>``, each running its registered command
(``director.tables.commands``) with its declared input and answer.
"""

from __future__ import annotations

from flask import jsonify
from flask.typing import ResponseReturnValue

from director.core import shapes
from director.core.address import candidate_addresses
from director.core.auth import director_required
from director.core.commands import REGISTRY, Outcome, api_route
from director.core.contract import Api
from director.core.db import get_db
from director.core.roles import DIRECTOR
from director.core.store import load_state
from director.core.web import now
from director.tables.commands import HAND_COMMANDS
from director.tables.hand_view import table_json
from director.tables.links import address_command, current_address, public_base_url, stored_address
from director.tables.pages import bp, dealer
from director.tables.phones import (
    cash_link_command,
    cash_links_end_command,
    link_command,
    link_url,
    links_all_command,
    links_end_command,
    links_view,
    no_store,
)
from director.tables.views import tables_json
from engine.tournament import Tournament

api = Api(bp, "seating")
hand_api = Api(dealer, "dealer")


@api.get("/api/t/<int:tournament_id>/tables", summary="Tables, seats, locks and the moves to make",
         result=shapes.Tables)
def api_tables(tournament_id: int) -> ResponseReturnValue:
    return jsonify(tables_json(tournament_id, load_state(get_db(), tournament_id)))


SEATING = ("draw", "redraw", "confirm", "seat", "swap", "lock", "unlock", "undo")
"""The seating commands (``tables.<word>``), each at ``/api/t/<id>/tables/<word>``."""


def _tables(done: Outcome[Tournament], tournament_id: int) -> ResponseReturnValue:
    body = tables_json(tournament_id, load_state(get_db(), tournament_id))
    event = done.state.last_event
    assert event is not None
    body["event"] = {"seq": event.seq, "type": event.type}
    return jsonify(body), 201


for _word in SEATING:
    api_route(api, f"/api/t/<int:tournament_id>/tables/{_word}", REGISTRY[f"tables.{_word}"], _tables,
              result=shapes.Tables, endpoint=f"api_tables_{_word}")


api.unknown("/api/t/<int:tournament_id>/tables/<action>", SEATING, "action")


class AddressSetting(shapes.Shape):
    address: str
    """The address in the QR codes: the director's choice, else the best guess."""
    chosen: bool
    """Whether the director chose it."""
    base_url: str
    """The start of every address a phone is given."""
    candidates: list[str]
    """This machine's addresses a phone might reach, best first."""


def _address_json() -> dict[str, object]:
    return {"address": current_address(), "chosen": stored_address() is not None, "base_url": public_base_url(),
            "candidates": candidate_addresses()}


@api.get("/api/address", summary="The address the QR codes lead to, and the laptop's addresses to choose from",
         result=AddressSetting, login=True)
def api_address() -> ResponseReturnValue:
    return jsonify(_address_json())


api_route(api, "/api/address", address_command, lambda _done: (jsonify(_address_json()), 200),
          result=AddressSetting, status=200, endpoint="api_address_choose")


@hand_api.get("/api/t/<int:tournament_id>/table/<int:table>", result=shapes.TableHand,
              summary="A table's hand: seats, stacks, whose turn, the legal actions, pots")
def api_table(tournament_id: int, table: int) -> ResponseReturnValue:
    state = load_state(get_db(), tournament_id)
    return jsonify(table_json(state, tournament_id, table, now()))


def _hand(done: Outcome[Tournament], tournament_id: int, table: int) -> ResponseReturnValue:
    result = table_json(done.state, tournament_id, table, now())
    result["notice"] = done.said or None
    return jsonify(result), 201


for _word in HAND_COMMANDS:
    api_route(hand_api, f"/api/t/<int:tournament_id>/table/<int:table>/{_word}", REGISTRY[f"hand.{_word}"], _hand,
              result=shapes.TableHand, endpoint=f"api_table_{_word}")
hand_api.unknown("/api/t/<int:tournament_id>/table/<int:table>/<action>", HAND_COMMANDS, "table action")


# --- the phones' links --------------------------------------------------------------------------


class PhoneLink(shapes.Shape):
    kind: str
    """dealer (a table's phone) or floor."""
    table: int | None
    url: str
    """The address its QR code gives; the token at its end is also a bearer token for the JSON API."""
    phones: int
    """How many phones opened it."""


class PhoneLinks(shapes.Shape):
    links: list[PhoneLink]


class NewLink(shapes.Shape):
    token: str
    """The link's token: ``Authorization: Bearer <token>`` gives this role in the JSON API."""
    url: str


class LinksMade(shapes.Shape):
    tables: list[int]


class LinksEnded(shapes.Shape):
    ended: int


@api.get("/api/t/<int:tournament_id>/links", summary="The working links: each table's dealer's and the floor's "
         "(the director's only)", result=PhoneLinks, login=True, errors=(403, 404),
         roles=(DIRECTOR,))
@director_required
def api_links(tournament_id: int) -> ResponseReturnValue:
    load_state(get_db(), tournament_id)  # 404 for a tournament that does not exist
    return no_store(jsonify(links=[{"kind": v.kind, "table": v.table, "url": v.url, "phones": len(v.phones)}
                                   for v in links_view(tournament_id)]))


api_route(api, "/api/t/<int:tournament_id>/links", link_command,
          lambda token, tournament_id: (no_store(jsonify(token=token, url=link_url(token))), 201),
          result=NewLink, endpoint="api_link_new")
api_route(api, "/api/t/<int:tournament_id>/links/all", links_all_command,
          lambda made, tournament_id: (jsonify(tables=made), 201), result=LinksMade, endpoint="api_links_all")
api_route(api, "/api/t/<int:tournament_id>/links/end", links_end_command,
          lambda ended, tournament_id: (jsonify(ended=ended), 200), result=LinksEnded, status=200,
          endpoint="api_links_end")


@api.get("/api/cash/<int:session_id>/links", summary="A cash session's working links: each table's dealer's "
         "(the director's only)", result=PhoneLinks, login=True, errors=(403, 404),
         roles=(DIRECTOR,))
@director_required
def api_cash_links(session_id: int) -> ResponseReturnValue:
    from director.cash.store import load_session

    load_session(get_db(), session_id)  # 404 for a session that does not exist
    return no_store(jsonify(links=[{"kind": v.kind, "table": v.table, "url": v.url, "phones": len(v.phones)}
                                   for v in links_view(session_id, cash=True)]))


api_route(api, "/api/cash/<int:session_id>/links", cash_link_command,
          lambda made, session_id: (jsonify(tables=made), 201), result=LinksMade, endpoint="api_cash_links_new")
api_route(api, "/api/cash/<int:session_id>/links/end", cash_links_end_command,
          lambda ended, session_id: (jsonify(ended=ended), 200), result=LinksEnded, status=200,
          endpoint="api_cash_links_end")
