"""Cash entries name their author, as tournament events do: in the JSON API's log of a cash
night and in the night's log on its page."""

from __future__ import annotations

from flask import Flask

from director.core.db import get_db
from director.core.roles import LINK_COLUMNS, Link
from tests.director.conftest import Director, soup
from tests.director.test_cash import add_member, new_session, sit


def test_each_cash_entry_names_who_entered_it(app: Flask, director: Director) -> None:
    ann, bob = add_member(director, "Ann"), add_member(director, "Bob")
    sid = new_session(director)
    assert sit(director, sid, ann, 1, 10_000).status_code == 201  # the director, through the JSON API
    seq = director.api("GET", f"/api/cash/{sid}").get_json()["seq"]
    page = director.post(f"/cash/{sid}/sit", {"member": str(bob), "table": "1", "seat": "4", "amount": "6000",
                                               "expected_seq": str(seq)})
    assert page.status_code in (200, 303), page.get_data(as_text=True)[:300]
    assert director.api("POST", f"/api/cash/{sid}/links", {}).status_code == 201
    with app.app_context():
        row = get_db().execute(f"SELECT {LINK_COLUMNS} FROM links WHERE stream_id = ?", [sid]).fetchone()
        token = Link(*row).token
    phone = app.test_client()
    dealt = phone.post(f"/api/cash/{sid}/table/1/deal", json={}, headers={"Authorization": f"Bearer {token}"})
    assert dealt.status_code == 201, dealt.get_json()

    log = director.api("GET", f"/api/cash/{sid}/events")
    assert log.status_code == 200
    authors = [(e["type"], e["author"]) for e in log.get_json()["events"]]
    assert authors[0] == ("created", "director/api")
    assert ("sat_down", "director/api") in authors and ("sat_down", "director") in authors
    assert authors[-1] == ("hand_started", "cash dealer 1/api")

    history = soup(director.get(f"/cash/{sid}")).select_one("#history").get_text(" ", strip=True)
    assert "cash table 1's phone (JSON API)" in history and "the director (JSON API)" in history

    assert app.test_client().get(f"/api/cash/{sid}/events").status_code == 401  # the director's: it holds the cards
    assert director.api("GET", "/api/cash/999/events").status_code == 404


def test_the_cash_log_is_declared_in_the_openapi_document(director: Director) -> None:
    operation = director.get("/api/openapi.json").get_json()["paths"]["/api/cash/{session_id}/events"]["get"]
    assert operation["x-roles"] == ["director"]
    assert operation["responses"]["200"]["content"]["application/json"]["schema"]["$ref"].endswith("/Events")
