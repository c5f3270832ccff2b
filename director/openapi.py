"""The OpenAPI 3.1 document of the JSON API, written as data.

Every route under ``/api/`` is described here; a test checks the document against the app's
URL map both ways. A blueprint added later may describe its own ``/api/`` routes by setting
``bp.openapi_paths = {"/api/...": {...}}``; they are merged in.
"""

from __future__ import annotations

import copy
from typing import Any

from flask import Flask

JSON = "application/json"


def ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


def body(schema: dict[str, Any], required: bool = True) -> dict[str, Any]:
    return {"required": required, "content": {JSON: {"schema": schema}}}


def ok(description: str, schema: dict[str, Any]) -> dict[str, Any]:
    return {"description": description, "content": {JSON: {"schema": schema}}}


ERROR = {"$ref": "#/components/responses/Error"}
TOURNAMENT_ID = {"name": "tournament_id", "in": "path", "required": True, "schema": {"type": "integer"}}
PLAYER_ID = {"name": "player_id", "in": "path", "required": True, "schema": {"type": "integer"}}
SEQ = {
    "expected_seq": {
        "type": "integer",
        "description": "The tournament's sequence number your view was based on; a stale one is "
        "refused with 409. Leave it out to act on the current state.",
    }
}


def write(summary: str, schema: dict[str, Any] | None = None, *, params: list[Any] | None = None,
          tag: str = "tournament", result: str = "Tournament") -> dict[str, Any]:
    """A POST that appends an event and answers the tournament's new state."""
    props = dict(SEQ)
    required: list[str] = []
    if schema:
        props.update(schema.get("properties", {}))
        required = schema.get("required", [])
    request_schema: dict[str, Any] = {"type": "object", "properties": props}
    if required:
        request_schema["required"] = required
    return {
        "post": {
            "summary": summary,
            "tags": [tag],
            "parameters": params if params is not None else [TOURNAMENT_ID],
            "requestBody": body(request_schema, required=bool(required)),
            "security": [{"session": [], "csrf": []}],
            "responses": {
                "201": ok("Recorded; the new state.", ref(result)),
                "400": ERROR, "401": ERROR, "404": ERROR, "409": ERROR, "422": ERROR,
            },
        }
    }


def read(summary: str, schema: dict[str, Any], *, params: list[Any] | None = None, tag: str = "tournament",
         director_only: bool = False) -> dict[str, Any]:
    operation: dict[str, Any] = {
        "summary": summary,
        "tags": [tag],
        "parameters": params if params is not None else [TOURNAMENT_ID],
        "responses": {"200": ok(summary, schema), "404": ERROR},
    }
    if director_only:
        operation["security"] = [{"session": []}]
        operation["responses"]["401"] = ERROR
    return {"get": operation}


SETTINGS_SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["name"],
    "properties": {
        "name": {"type": "string", "maxLength": 40},
        "preset": {"type": "string", "description": "A preset structure id (see the setup page); "
                   "used when no 'structure' is given."},
        "structure": {"type": "object", "description": "Levels and breaks as engine.structure writes them."},
        "starting_stack": {"type": "integer", "minimum": 1},
        "table_size": {"type": "integer", "enum": [6, 9, 10]},
        "chip_set": {"type": "string"},
        "buy_in": {"type": "integer", "minimum": 0},
        "rebuy_levels": {"type": "integer", "minimum": 0, "description": "Rebuys until the end of this level; 0: none."},
        "max_rebuys": {"type": ["integer", "null"], "minimum": 0},
        "rebuy_when": {"type": "string", "enum": ["busted", "at_or_below_start"]},
        "rebuy_cost": {"type": "integer", "minimum": 0},
        "rebuy_chips": {"type": "integer", "minimum": 1},
        "addon_level": {"type": "integer", "minimum": 0, "description": "The add-on level; 0: no add-on."},
        "addon_cost": {"type": "integer", "minimum": 0},
        "addon_chips": {"type": "integer", "minimum": 1},
        "late_registration_levels": {"type": "integer", "minimum": 0},
        "payout_kind": {"type": "string", "enum": ["table", "custom", "points"]},
        "percentages": {"type": "string", "description": "e.g. 50/30/20 (for payout_kind custom)"},
        "league_formula": {"type": "string", "enum": ["table", "field", "sqrt"]},
        "payout_unit": {"type": "integer", "minimum": 1},
    },
}

SCHEMAS: dict[str, Any] = {
    "Error": {"type": "object", "required": ["error"], "properties": {"error": {"type": "string"}}},
    "Clock": {
        "type": "object",
        "properties": {
            "status": {"type": "string", "enum": ["not_started", "running", "paused", "on_break", "finished"]},
            "title": {"type": "string"},
            "level": {"type": ["integer", "null"]},
            "on_break": {"type": "boolean"},
            "small_blind": {"type": ["integer", "null"]},
            "big_blind": {"type": ["integer", "null"]},
            "ante": {"type": ["integer", "null"]},
            "seconds_left": {"type": ["number", "null"]},
            "ends_at": {"type": ["number", "null"], "description": "Epoch seconds when the level or break ends."},
            "next_level": {"type": ["integer", "null"]},
            "break_next": {"type": "boolean"},
            "hands_played": {"type": "integer"},
            "hands_left_in_level": {"type": ["integer", "null"]},
            "hand_cap": {"type": ["integer", "null"]},
        },
    },
    "Player": {
        "type": "object",
        "properties": {
            "id": {"type": "integer"},
            "name": {"type": "string"},
            "status": {"type": "string", "enum": ["in", "waiting", "out"]},
            "table": {"type": ["integer", "null"]},
            "seat": {"type": ["integer", "null"]},
            "rebuys": {"type": "integer"},
            "addon": {"type": "boolean"},
            "place": {"type": ["integer", "null"]},
            "place_text": {"type": ["string", "null"]},
            "knocked_out_by": {"type": ["integer", "null"]},
            "prize": {"type": ["integer", "null"]},
        },
    },
    "Tournament": {
        "type": "object",
        "required": ["id", "name", "seq", "clock", "players"],
        "properties": {
            "id": {"type": "integer"},
            "name": {"type": "string"},
            "seq": {"type": "integer", "description": "The last event's sequence number."},
            "server_time": {"type": "number"},
            "started": {"type": "boolean"},
            "finished": {"type": "boolean"},
            "settings": {"type": "object"},
            "clock": ref("Clock"),
            "entries": {"type": "integer"},
            "players_left": {"type": "integer"},
            "rebuys": {"type": "integer"},
            "addons": {"type": "integer"},
            "chips_in_play": {"type": "integer"},
            "average_stack": {"type": ["integer", "null"]},
            "prize_pool": {"type": ["integer", "null"]},
            "payouts": {"type": "array", "items": {"type": "object"}},
            "players": {"type": "array", "items": ref("Player")},
            "tables": {"type": "object", "additionalProperties": {"type": "array", "items": {"type": "integer"}}},
        },
    },
    "Event": {
        "type": "object",
        "properties": {
            "seq": {"type": "integer"},
            "type": {"type": "string"},
            "payload": {"type": "object"},
            "at": {"type": "number"},
        },
    },
    "Session": {
        "type": "object",
        "properties": {
            "csrf_token": {"type": "string"},
            "logged_in": {"type": "boolean"},
            "password_set": {"type": "boolean"},
        },
    },
    "Settings": SETTINGS_SCHEMA,
    "Tables": {"type": "object", "description": "The seating blueprint's view of the tables."},
}

PASSWORD = {"type": "object", "required": ["password"], "properties": {"password": {"type": "string"}}}
STACK = {"properties": {"stack": {"type": "integer", "description": "The player's chips, when the rules need them."}}}

PATHS: dict[str, Any] = {
    "/api/session": read("The CSRF token of this session and whether the director is logged in",
                         ref("Session"), params=[], tag="session"),
    "/api/setup-password": {
        "post": {
            "summary": "First start: set the director's password (and log in)",
            "tags": ["session"],
            "requestBody": body(PASSWORD),
            "security": [{"csrf": []}],
            "responses": {"201": ok("Password set", ref("Session")), "400": ERROR, "409": ERROR, "422": ERROR},
        }
    },
    "/api/login": {
        "post": {
            "summary": "Log in as the director",
            "tags": ["session"],
            "requestBody": body(PASSWORD),
            "security": [{"csrf": []}],
            "responses": {"200": ok("Logged in", ref("Session")), "400": ERROR, "401": ERROR},
        }
    },
    "/api/logout": {
        "post": {
            "summary": "Log out",
            "tags": ["session"],
            "security": [{"csrf": []}],
            "responses": {"200": ok("Logged out", ref("Session")), "400": ERROR},
        }
    },
    "/api/tournaments": {
        **read("The tournaments, newest first", {"type": "object", "properties": {
            "tournaments": {"type": "array", "items": {"type": "object"}}}}, params=[]),
        "post": {
            "summary": "Create a tournament",
            "tags": ["tournament"],
            "requestBody": body(ref("Settings")),
            "security": [{"session": [], "csrf": []}],
            "responses": {"201": ok("Created", ref("Tournament")), "400": ERROR, "401": ERROR, "422": ERROR},
        },
    },
    "/api/demo": write("Fill a demo tournament in the middle of the game", params=[]),
    "/api/t/{tournament_id}": read("The tournament's state, the clock read now", ref("Tournament")),
    "/api/t/{tournament_id}/events": read("The event log (the director's: it holds every hand's cards)", {
        "type": "object", "properties": {"events": {"type": "array", "items": ref("Event")}}}, director_only=True),
    "/api/t/{tournament_id}/export": read("Everything: state, results and the event log", {"type": "object"},
                                          director_only=True),
    "/api/t/{tournament_id}/players": write("Register a player (late registration while it is open)", {
        "required": ["name"], "properties": {"name": {"type": "string", "maxLength": 40}}}),
    "/api/t/{tournament_id}/players/{player_id}/remove": write(
        "Remove a player registered by mistake (before the clock starts)", params=[TOURNAMENT_ID, PLAYER_ID]),
    "/api/t/{tournament_id}/players/{player_id}/rebuy": write("A rebuy", STACK, params=[TOURNAMENT_ID, PLAYER_ID]),
    "/api/t/{tournament_id}/players/{player_id}/addon": write("The add-on", STACK, params=[TOURNAMENT_ID, PLAYER_ID]),
    "/api/t/{tournament_id}/clock/{action}": write(
        "A clock action",
        {"properties": {"seconds": {"type": "integer", "description": "For add_time: seconds to add (negative to take)."}}},
        params=[TOURNAMENT_ID, {"name": "action", "in": "path", "required": True, "schema": {
            "type": "string", "enum": ["start", "pause", "resume", "next_level", "previous_level", "add_time", "hand_played"]}}],
    ),
    "/api/t/{tournament_id}/bust": write(
        "A player out, or several out in the same hand (ranked by their chips at the start of the hand)",
        {"properties": {
            "player": {"type": "integer"},
            "players": {"type": "array", "items": {"type": "integer"}},
            "stacks": {"type": "object", "additionalProperties": {"type": "integer"},
                       "description": "Player id -> chips at the start of the hand (needed for several)."},
            "by": {"type": ["integer", "null"], "description": "Who knocked them out."},
        }},
    ),
    "/api/t/{tournament_id}/undo": write("Undo the last entry"),
    "/api/t/{tournament_id}/seats/draw": write("Draw seats at random for everyone still in"),
    "/api/t/{tournament_id}/moves/apply": write("Record the balancing, table break or final-table moves shown"),
    "/api/t/{tournament_id}/rebuys/close": write("Close rebuys now"),
    "/api/t/{tournament_id}/hand-cap": write(
        "End at the hand cap (seed 000: 120 hands): the players still in are ranked by their chips",
        {"required": ["stacks"], "properties": {"stacks": {
            "type": "object", "additionalProperties": {"type": "integer"}, "description": "Player id -> chips."}}},
    ),
    "/api/openapi.json": read("This document", {"type": "object"}, params=[], tag="session"),
    # The seating blueprint's routes (described here unless it describes them itself):
    "/api/t/{tournament_id}/tables": read("Tables, seats and moves", ref("Tables"), tag="seating"),
    "/api/t/{tournament_id}/tables/{action}": write(
        "A seating action: draw, redraw, confirm, seat, swap, lock, unlock",
        {"properties": {
            "table_size": {"type": "integer"}, "action": {"type": "string"}, "player": {"type": "integer"},
            "player_a": {"type": "integer"}, "player_b": {"type": "integer"},
            "table": {"type": "integer"}, "seat": {"type": "integer"},
        }},
        params=[TOURNAMENT_ID, {"name": "action", "in": "path", "required": True, "schema": {"type": "string"}}],
        tag="seating", result="Tables",
    ),
}


def document(app: Flask | None = None) -> dict[str, Any]:
    """The OpenAPI document, with the paths other blueprints describe merged in."""
    paths = copy.deepcopy(PATHS)
    if app is not None:
        for blueprint in app.blueprints.values():
            paths.update(copy.deepcopy(getattr(blueprint, "openapi_paths", {})))
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "poker-director",
            "version": "1",
            "description": "Run a home poker tournament: every action of the director's pages. Log in with "
            "POST /api/login after GET /api/session, and send the session's CSRF token in the "
            "X-CSRFToken header with every POST. Errors are {\"error\": \"...\"} with a 4xx status.",
        },
        "paths": paths,
        "components": {
            "schemas": SCHEMAS,
            "responses": {"Error": ok("Refused, with a message a director can read", ref("Error"))},
            "securitySchemes": {
                "session": {"type": "apiKey", "in": "cookie", "name": "session"},
                "csrf": {"type": "apiKey", "in": "header", "name": "X-CSRFToken"},
            },
        },
    }
