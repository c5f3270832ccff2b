"""Declared inputs (director.core.contract, director.core.inputs): every bad input measured from outside
is refused with a sentence naming the field and its limit, and records nothing."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from director.cash import shapes as cash_shapes
from director.core import shapes
from director.core.contract import OPERATIONS, UNDOCUMENTED, Input, Write, document, explain, read
from director.core.inputs import BustIn, TournamentIn
from director.core.roles import ANYONE, ROLES
from engine.errors import InvalidInput
from engine.limits import MAX_CHIPS, MAX_ID, MAX_NAME
from tests.director.conftest import Director, new_tournament, seq

BIG = 2**63  # one past SQLite's largest integer
HUGE = 10**30


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"players": True}, "The players must be a list, not True."),
        (5, "The request body must be a JSON object."),
        (1.5, "The request body must be a JSON object."),
        ({"stacks": [1]}, "The chips at the start of the hand must be an object (a JSON mapping), not [1]."),
        ({"player": 1, "stacks": "ab"}, "The chips at the start of the hand must be an object (a JSON mapping), not 'ab'."),
        ({"player": 1, "stacks": [[1]]}, "The chips at the start of the hand must be an object (a JSON mapping), not [[1]]."),
        ({"player": 1.5}, "The player must be a whole number, not 1.5."),
        ({"player": True}, "The player must be a whole number, not True."),
        ({"player": BIG}, f"The player must be at most {MAX_ID:,}, not {BIG:,}."),
        ({"players": list(range(1, 102))}, "The players has too many items: at most 100."),
        ({"player": 1, "stacks": {"1": HUGE}}, f"The chips at the start of the hand of Ann must be at most {MAX_CHIPS:,}"),
        ({"player": 1, "stacks": {"9": -1}}, "The chips at the start of the hand (9) must be at least 0, not -1."),
    ],
)
def test_a_bad_bust_is_refused_with_the_field_and_records_nothing(
    director: Director, body: Any, message: str
) -> None:
    tid = new_tournament(director, ["Ann", "Bob"], start=True)
    before = seq(director, tid)
    response = director.api("POST", f"/api/t/{tid}/bust", body)
    assert response.status_code == 422
    assert response.get_json()["error"].startswith(message)
    assert seq(director, tid) == before


@pytest.mark.parametrize(
    "path",
    [
        f"/api/t/{BIG}", f"/t/{BIG}", f"/api/cash/{BIG}", f"/api/t/{BIG}/table/1", f"/api/t/1/table/{BIG}",
        "/api/t/99999999999999999999", "/t/99999999999999999999", "/api/cash/99999999999999999999",
        f"/t/{BIG}/tv", f"/api/cash/{BIG}/summary", f"/api/t/{BIG}/tables",
    ],
)
def test_an_id_past_sqlites_range_is_not_found(client: FlaskClient, path: str) -> None:
    response = client.get(path)
    assert response.status_code == 404


def test_every_post_with_an_id_past_the_range_is_not_found(app: Flask, director: Director) -> None:
    tid = new_tournament(director, ["Ann", "Bob"], start=True)
    posts = [r for r in app.url_map.iter_rules() if "POST" in (r.methods or ()) and "<int:" in r.rule]
    assert len(posts) > 40
    for rule in posts:
        values = {arg: BIG for arg in rule.arguments}
        values.update({k: "start" for k in rule.arguments if k == "action"})
        path = rule.rule
        for arg, value in values.items():
            path = path.replace(f"<int:{arg}>", str(value)).replace(f"<{arg}>", str(value))
        response = director.api("POST", path, {})
        assert response.status_code == 404, (path, response.status_code)
    assert seq(director, tid) >= 3


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"starting_stack": HUGE}, f"The starting stack must be at most {MAX_CHIPS:,}, not {HUGE:,}."),
        ({"buy_in": -5}, "The buy-in must be at least 0, not -5."),
        ({"table_size": 11}, "The table size must be at most 10, not 11."),
        ({"name": "x" * 300}, f"The tournament name is too long: at most {MAX_NAME} characters, not 300."),
        ({"payout_kind": "gold"}, "The payout kind must be one of 'table', 'custom' or 'points', not 'gold'."),
    ],
)
def test_a_tournament_out_of_bounds_is_refused(director: Director, settings: dict[str, Any], message: str) -> None:
    response = director.api("POST", "/api/tournaments", {"name": "Friday", **settings})
    assert response.status_code == 422
    assert response.get_json()["error"] == message
    assert director.api("GET", "/api/tournaments").get_json()["tournaments"] == []


def test_a_stack_correction_of_ten_to_the_thirty_is_refused(director: Director) -> None:
    tid = new_tournament(director, ["Ann", "Bob"], start=True)
    director.api("POST", f"/api/t/{tid}/tables/draw", {})
    before = seq(director, tid)
    response = director.api("POST", f"/api/t/{tid}/table/1/correct", {"player": 1, "stack": HUGE, "reason": "x"})
    assert response.status_code == 422
    assert response.get_json()["error"] == f"The stack must be at most {MAX_CHIPS:,}, not {HUGE:,}."
    assert seq(director, tid) == before


def test_a_long_name_is_refused_with_its_limit_not_cut(director: Director) -> None:
    tid = new_tournament(director)
    response = director.api("POST", f"/api/t/{tid}/players", {"name": "A" * 300})
    assert response.status_code == 422
    assert response.get_json()["error"] == f"The player's name is too long: at most {MAX_NAME} characters, not 300."
    form = director.post(f"/t/{tid}/players", {"name": "B" * 41})
    assert form.status_code in (200, 303, 422)
    assert director.api("GET", f"/api/t/{tid}").get_json()["players"] == []


def test_a_form_reads_numbers_as_people_type_them() -> None:
    """ "1,000" and " 20 " are numbers; a blank form field is a field left out."""
    assert read(TournamentIn, {"name": "  Friday   night ", "starting_stack": "10,000"}).given() == {
        "name": "Friday night", "starting_stack": 10_000,
    }
    with pytest.raises(InvalidInput, match=r"^The expected sequence number must be a whole number, not 'x'\.$"):
        read(Write, {"expected_seq": "x"})


def test_explain_names_every_field_it_refuses() -> None:
    from pydantic import ValidationError

    with pytest.raises(ValidationError) as caught:
        BustIn.model_validate({"player": "one", "by": -1})
    assert explain(caught.value, BustIn) == (
        "The player must be a whole number, not 'one'. The eliminator must be at least 0, not -1."
    )


def test_every_api_route_has_a_declared_operation_and_every_body_is_an_input(app: Flask) -> None:
    for rule in app.url_map.iter_rules():
        if rule.rule.startswith("/api/") and rule.endpoint not in UNDOCUMENTED:
            operation = OPERATIONS[rule.endpoint]
            assert operation.result is not None or operation.produces is not None, rule.rule  # JSON, or a file
            if operation.method == "post" and operation.body is not None:
                assert issubclass(operation.body, Input)
    doc = document(app)
    login = doc["paths"]["/api/login"]["post"]
    assert {"401", "429"} <= set(login["responses"])
    for path, item in doc["paths"].items():
        for method, operation in item.items():
            assert operation["responses"], (method, path)
            if method == "post" and path not in ("/api/login", "/api/setup-password", "/api/logout"):
                # The director's session and its CSRF token; a command a link's role may call also
                # takes that link's token as a bearer token (no CSRF: no cookie is involved).
                shared = set(operation.get("x-roles", ())) - {"director"}
                assert operation["security"] == [{"session": [], "csrf": []}] + ([{"link": []}] if shared else []), path


def test_every_operation_says_who_may_call_it(app: Flask) -> None:
    """Each operation's ``x-roles`` in the document names who may call it: every operation,
    each a role of ``director.core.roles`` (or anyone, for what needs no login)."""
    doc = document(app)
    known = {*ROLES, ANYONE}
    walked = 0
    for path, item in doc["paths"].items():
        for method, operation in item.items():
            walked += 1
            assert "x-roles" in operation, (method, path)
            assert operation["x-roles"] and set(operation["x-roles"]) <= known, (method, path, operation["x-roles"])
            if operation.get("security"):  # a login: not for anyone
                assert ANYONE not in operation["x-roles"], (method, path)
    assert walked >= 100
    for path in ("/api/demo", "/api/restore", "/api/t/{tournament_id}/deal/figures"):
        assert doc["paths"][path]["post"]["x-roles"] == ["director"], path  # login_required: the director's


def test_calls_that_worked_before_the_declarations_still_work(director: Director) -> None:
    """The JSON API is a contract: what the hand-written parsing took, the models take."""
    custom = director.api("POST", "/api/tournaments", {"name": "Custom", "payout_kind": "custom",
                                                       "percentages": [60, 40]})
    assert custom.status_code == 201, custom.get_json()
    assert [p["prize"] for p in custom.get_json()["payouts"]] == [0, 0]  # no entries yet
    tid = new_tournament(director, ["Ann", "Bob", "Cid"], start=True)
    director.api("POST", f"/api/t/{tid}/tables/draw", {})
    assert director.api("POST", f"/api/t/{tid}/hand-for-hand", {"on": True}).status_code == 201
    assert director.api("POST", f"/api/t/{tid}/hand-for-hand", {"next": "true"}).status_code == 201
    assert director.api("POST", f"/api/t/{tid}/table/1/deal", {}).status_code == 201
    folded = director.api("POST", f"/api/t/{tid}/table/1/act", {"kind": "Fold"})
    assert folded.status_code == 201, folded.get_json()
    added = director.api("POST", f"/api/t/{tid}/clock/add_time", {"seconds": "", "expected_seq": ""})
    assert added.status_code == 201, added.get_json()  # blank: the default minute, on the current seq
    session = director.api("POST", "/api/cash", {"name": "Rows", "table1_seats": "9", "table1_stake": "50/100"})
    assert session.status_code == 201, session.get_json()
    assert session.get_json()["tables"][0]["stake"] == "50/100"


# --- the answers are what the document says, field for field ---------------------------------


def test_the_answers_of_a_night_match_their_declared_shapes(director: Director) -> None:
    """The shapes forbid extra fields: a field added to an answer and not declared fails here."""
    tournament = director.api("POST", "/api/demo", {}).get_json()
    tid = tournament["id"]
    shapes.Tournament.model_validate(tournament)
    shapes.Tables.model_validate(director.api("GET", f"/api/t/{tid}/tables").get_json())
    shapes.TableHand.model_validate(director.api("GET", f"/api/t/{tid}/table/1").get_json())
    dealt = director.api("POST", f"/api/t/{tid}/table/1/deal", {})
    assert dealt.status_code == 201
    shapes.TableHand.model_validate(dealt.get_json())
    shapes.Export.model_validate(director.api("GET", f"/api/t/{tid}/export").get_json())
    shapes.Events.model_validate(director.api("GET", f"/api/t/{tid}/events").get_json())
    shapes.Tournaments.model_validate(director.api("GET", "/api/tournaments").get_json())
    shapes.Session.model_validate(director.api("GET", "/api/session").get_json())
    session = director.api("POST", "/api/cash", {"name": "Fri", "tables": [{"seats": 9, "stake": "50/100"}]})
    assert session.status_code == 201, session.get_json()
    sid = session.get_json()["id"]
    cash_shapes.CashSession.model_validate(session.get_json())
    for name, seat in (("Ann", 1), ("Bob", 2)):
        club = director.api("POST", "/api/cash/club/member", {"name": name, "grant": 50_000})
        cash_shapes.Club.model_validate(club.get_json())
        sat = director.api("POST", f"/api/cash/{sid}/sit", {"name": name, "table": 1, "seat": seat, "amount": 5_000})
        assert sat.status_code == 201, sat.get_json()
        cash_shapes.CashSession.model_validate(sat.get_json())
    dealt = director.api("POST", f"/api/cash/{sid}/table/1/deal", {})
    assert dealt.status_code == 201, dealt.get_json()
    cash_shapes.CashTableHand.model_validate(dealt.get_json())
    cash_shapes.CashSessions.model_validate(director.api("GET", "/api/cash").get_json())
    cash_shapes.CashSummary.model_validate(director.api("GET", f"/api/cash/{sid}/summary").get_json())
    cash_shapes.Club.model_validate(director.api("GET", "/api/cash/club").get_json())


def test_a_several_busts_form_names_the_players_and_refuses_a_start_with_no_chips(director: Director) -> None:
    """Seed 000: "If several players are knocked out in the same hand, the one who started that
    hand with more chips finishes higher": each started it with chips. A refusal names the
    players by name, and says every problem at once."""
    tid = new_tournament(director, ["Ann", "Bob", "Cy"], start=True)
    before = seq(director, tid)
    form = {"group": "1", "players": ["1", "2"], "stack_1": "99999999999", "stack_2": "-4"}
    answer = director.post(f"/t/{tid}/bust", form, htmx=True)
    assert answer.status_code == 422
    said = answer.get_data(as_text=True)
    assert "The chips at the start of the hand of Ann must be at most 1,000,000,000, not 99,999,999,999." in said
    assert "The chips at the start of the hand of Bob must be at least 0, not -4." in said
    zero = director.api("POST", f"/api/t/{tid}/bust", {"players": [1, 2], "stacks": {"1": 0, "2": 500}})
    assert zero.status_code == 422
    assert zero.get_json()["error"] == "The chips at the start of the hand of Ann cannot be 0: it must be at least 1."
    assert seq(director, tid) == before
