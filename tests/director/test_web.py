"""The helpers shared by every blueprint (director.core.web): reading a whole number and the expected
seq, chips as text, the error pages (JSON under /api, HTML elsewhere, a fragment for htmx),
flashed messages taken once, ``act`` and the test clock."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask, flash, session
from flask.testing import FlaskClient

from director.core.store import StaleWrite
from director.core.web import (
    act,
    error_page,
    expected_seq,
    now,
    parse_int,
    take_flashes,
)
from engine.errors import InvalidInput
from engine.limits import MAX_CHIPS, MAX_ID
from tests.director.conftest import Director, csrf_token, soup


@pytest.mark.parametrize(
    ("value", "options", "number"),
    [
        ("1,000", {}, 1000), (" 20 ", {}, 20), ("1_500", {}, 1500), (7, {}, 7), ("-3", {}, -3),
        (str(MAX_CHIPS), {}, MAX_CHIPS),
        ("  ", {"default": 0}, 0), (None, {"default": 60}, 60), ("5", {"default": 60}, 5),  # blank: the default
    ],
)
def test_parse_int_reads_a_number_as_typed(value: Any, options: dict[str, int], number: int) -> None:
    assert parse_int(value, "amount", **options) == number


@pytest.mark.parametrize(
    ("value", "options", "message"),
    [
        (True, {}, "The amount must be a whole number, not True."),
        (False, {"minimum": 0}, "The amount must be a whole number, not False."),
        ("lots", {}, "The amount must be a whole number, not 'lots'."),
        (1.5, {}, "The amount must be a whole number, not 1.5."),
        ("", {}, "The amount is missing: type a whole number."),
        (None, {}, "The amount is missing: type a whole number."),
        ("-1", {"minimum": 0}, "The amount must be at least 0, not -1."),
        ("999", {"minimum": 1_000}, "The amount must be at least 1,000, not 999."),
        (MAX_CHIPS + 1, {}, "The amount must be at most 1,000,000,000, not 1,000,000,001."),
        ("61", {"maximum": 60}, "The amount must be at most 60, not 61."),
    ],
)
def test_parse_int_refuses_with_the_exact_sentence(value: Any, options: dict[str, int], message: str) -> None:
    with pytest.raises(InvalidInput) as refused:
        parse_int(value, "amount", **options)
    assert str(refused.value) == message


def test_expected_seq_is_the_current_one_unless_given() -> None:
    assert expected_seq({}, 7) == 7
    assert expected_seq({"expected_seq": ""}, 7) == 7
    assert expected_seq({"expected_seq": "5"}, 7) == 5
    assert expected_seq({"expected_seq": 0}, 7) == 0
    with pytest.raises(InvalidInput, match=r"^The expected sequence number must be at least 0, not -1\.$"):
        expected_seq({"expected_seq": "-1"}, 7)
    with pytest.raises(InvalidInput, match=f"^The expected sequence number must be at most {MAX_ID:,}"):
        expected_seq({"expected_seq": MAX_ID + 1}, 7)


def test_format_chips() -> None:
    from director.core.words import chips as format_chips

    assert format_chips(None) == "–"
    assert format_chips(0) == "0"
    assert format_chips(12345) == "12,345"
    assert format_chips(1499.6) == "1,500"


def test_error_pages_are_json_under_api_and_html_elsewhere(client: FlaskClient) -> None:
    api = client.get("/api/no-such-thing")
    assert (api.status_code, api.get_json()) == (404, {"error": "There is no page at this address."})
    unknown = client.get("/api/t/5")
    assert (unknown.status_code, unknown.get_json()) == (404, {"error": "There is no tournament number 5."})
    method = client.delete("/api/tournaments")
    assert (method.status_code, method.get_json()) == (405, {"error": "The method is not allowed for the requested URL."})
    page = client.get("/no-such-thing")
    assert page.status_code == 404 and page.mimetype == "text/html"
    card = soup(page).find(id="error")
    assert card is not None and card.h1.text == "Page not found"
    assert "There is no page at this address." in card.text
    assert soup(page).find("title").text.startswith("Page not found")  # the whole page
    fragment = client.get("/no-such-thing", headers={"HX-Request": "true"})
    assert fragment.status_code == 404
    assert fragment.get_data(as_text=True).lstrip().startswith('<section class="card error-card" id="error"')


def test_a_refusal_and_a_stale_write_are_422_and_409_json_under_api(director: Director) -> None:
    created = director.api("POST", "/api/tournaments", {"name": "Friday"}).get_json()
    tid, seq = created["id"], created["seq"]
    refused = director.api("POST", f"/api/t/{tid}/clock/start", {})
    assert refused.status_code == 422 and refused.get_json() == {
        "error": "A tournament needs at least 2 players to start; 0 registered."}
    director.api("POST", f"/api/t/{tid}/players", {"name": "Ann"})
    stale = director.api("POST", f"/api/t/{tid}/players", {"name": "Bob", "expected_seq": seq})
    assert stale.status_code == 409
    assert stale.get_json() == {"error": "Someone else changed this tournament a moment ago; the page has been refreshed."}


def test_no_error_answer_is_kept_by_a_browser(timed_app: Flask, client: FlaskClient) -> None:
    """An error page must never be cached by the browser: every error answer (4xx and 5xx,
    pages and JSON) carries ``Cache-Control: no-store``: a dealer's phone told its link ended
    with the night (410) asks again when it reloads, and sees its table once the director has
    undone what ended it."""
    from tests.director.test_dealer import make_tournament
    from tests.director.test_roles import links, phone, scan

    seats = {1: (1, 1), 2: (1, 2), 3: (1, 3), 4: (1, 5), 5: (2, 1), 6: (2, 2), 7: (2, 3), 8: (2, 5)}
    night = make_tournament(timed_app, client, [f"P{n}" for n in range(1, 9)], seats, {1: 5, 2: 5})
    tid, director = night.tid, {"X-CSRFToken": night.token}
    tokens = links(night)
    table_one = phone(timed_app, tokens[1])
    phone_token = csrf_token(table_one.client, f"/t/{tid}/table/1")
    answers = {
        "404 page": timed_app.test_client().get("/no-such-thing"),
        "404 JSON": client.get("/api/t/999"),
        "401 JSON": timed_app.test_client().get(f"/api/t/{tid}/events"),
        "403 JSON": table_one.client.post(f"/api/t/{tid}/bust", json={"player": 3},
                                          headers={"X-CSRFToken": phone_token}),
        "403 page": table_one.client.get(f"/t/{tid}/phones"),
        "409 JSON": client.post(f"/api/t/{tid}/bust", json={"player": 3, "expected_seq": 1}, headers=director),
        "409 page": client.post(f"/t/{tid}/bust", data={"players": "3", "expected_seq": "1",
                                                        "csrf_token": night.token}, headers={"HX-Request": "true"}),
        "422 JSON": client.post(f"/api/t/{tid}/bust", json={"player": "three"}, headers=director),
        "422 page": client.post(f"/t/{tid}/bust", data={"players": "99", "csrf_token": night.token},
                                headers={"HX-Request": "true"}),
    }
    assert client.post(f"/api/t/{tid}/links/end", json={}, headers=director).status_code == 200
    answers["410 page"] = table_one.client.get(f"/t/{tid}/table/1")
    answers["410 scanned"] = scan(timed_app.test_client(), tokens[1])
    for kind, answer in answers.items():
        assert answer.status_code == int(kind[:3]), (kind, answer.status_code)
        assert answer.headers.get("Cache-Control") == "no-store", kind
    assert "no-store" not in client.get(f"/api/t/{tid}").headers.get("Cache-Control", "")  # an answer that worked


def test_error_page_answers_by_the_request(app: Flask) -> None:
    with app.test_request_context("/api/x"):
        body, status = error_page(418, "Tea", "I am a teapot.")
        assert (status, body.get_json()) == (418, {"error": "I am a teapot."})
    with app.test_request_context("/x"):
        html, status = error_page(418, "Tea", "I am a teapot.")
        assert status == 418 and "<title>Tea" in html and "<p>I am a teapot.</p>" in html
    with app.test_request_context("/x", headers={"HX-Request": "true"}):
        html, _ = error_page(418, "Tea", "I am a teapot.")
        assert "<html" not in html and "<h1>Tea</h1>" in html


def test_take_flashes_gives_the_messages_once(app: Flask, director: Director) -> None:
    with app.test_request_context("/"):
        flash("One", "ok")
        flash("Two", "error")
        assert take_flashes() == [("ok", "One"), ("error", "Two")]
        assert take_flashes() == []
    director.post("/auth/logout")
    page = director.get("/").get_data(as_text=True)
    assert page.count("Logged out.") == 1
    assert "Logged out." not in director.get("/").get_data(as_text=True)


def test_act_answers_htmx_with_the_partial_and_a_browser_with_a_redirect(app: Flask) -> None:
    def rerender(**context: Any) -> str:
        return f"page {sorted(context.items())}"

    def refused() -> None:
        raise InvalidInput("No.")

    def stale() -> None:
        raise StaleWrite(1, 2)

    with app.test_request_context("/t/1", headers={"HX-Request": "true"}):
        assert act(refused, "/t/1", rerender) == ("page [('error', 'No.')]", 422)
        body, status = act(stale, "/t/1", rerender)
        assert status == 409 and "Someone else changed this tournament" in body
        done = act(lambda: None, "/t/1", rerender, message="Done.")
        assert done.get_data(as_text=True) == "page [('notice', 'Done.')]"
        assert done.headers["HX-Trigger"] == "tournament-changed"
    with app.test_request_context("/t/1"):
        moved = act(stale, "/t/1", rerender)
        assert (moved.status_code, moved.location) == (303, "/t/1")
        done = act(lambda: None, "/t/1", rerender, message="Done.")
        assert (done.status_code, done.location) == (303, "/t/1")
        assert session["_flashes"] == [("error", StaleWrite(1, 2).args[0]), ("ok", "Done.")]


def test_now_reads_the_test_clock(app: Flask) -> None:
    app.config["NOW"] = lambda: 1234.5
    with app.app_context():
        assert now() == 1234.5
    del app.config["NOW"]
    with app.app_context():
        assert now() > 1_600_000_000
