"""Who may do what at the table: a dealer's link per table and a floor's link, each opened by
scanning its code, with no password; anything outside a role refused with 403 and a sentence
a dealer can read aloud, on the page and in the JSON API (a link's token is a bearer token);
the log says who entered what."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from director.core import shapes
from director.core.db import get_db
from tests.director.conftest import csrf_token, soup
from tests.director.test_dealer import Dealer, make_tournament


@pytest.fixture
def night(timed_app: Flask, client: FlaskClient) -> Dealer:
    """Eight players on two tables of four (seats 1, 2, 3, 5), the clock running; ``client`` is
    the director's laptop."""
    seats = {1: (1, 1), 2: (1, 2), 3: (1, 3), 4: (1, 5), 5: (2, 1), 6: (2, 2), 7: (2, 3), 8: (2, 5)}
    return make_tournament(timed_app, client, [f"P{n}" for n in range(1, 9)], seats, {1: 5, 2: 5})


def links(director: Dealer) -> dict[Any, str]:
    made = director.client.post(f"/api/t/{director.tid}/links/all", json={}, headers={"X-CSRFToken": director.token})
    assert made.status_code == 201 and made.get_json() == {"tables": [1, 2]}
    floor = director.client.post(f"/api/t/{director.tid}/links", json={"kind": "floor"},
                                 headers={"X-CSRFToken": director.token})
    assert floor.status_code == 201
    listed = director.client.get(f"/api/t/{director.tid}/links").get_json()["links"]
    out: dict[Any, str] = {v["table"]: v["url"].rsplit("/l#", 1)[1] for v in listed if v["kind"] == "dealer"}
    out["floor"] = floor.get_json()["token"]
    return out


def scan(browser: FlaskClient, token: str) -> Any:
    """What a phone's browser does with a scanned code: open ``/l`` (the token stays in the
    address's fragment) and post the token the page's script reads from it."""
    opened = browser.get("/l")
    assert opened.status_code == 200 and token not in opened.get_data(as_text=True)
    return browser.post("/l", data={"token": token, "csrf_token": csrf_token(browser, "/l")},
                        headers={"User-Agent": "Mozilla/5.0 (iPhone) Safari/604.1"})


def phone(app: Flask, token: str) -> Dealer:
    """A phone that scanned ``token``: no password, its own browser."""
    browser = app.test_client()
    assert scan(browser, token).status_code == 303
    return Dealer(browser, 0)


def test_a_tables_phone_deals_its_table_without_the_password(timed_app: Flask, night: Dealer) -> None:
    tokens = links(night)
    table_one = phone(timed_app, tokens[1])
    table_one.tid = night.tid
    table_one.token = csrf_token(table_one.client, f"/t/{night.tid}/table/1")
    page = table_one.post("deal")
    assert page.status_code == 200, page.get_data(as_text=True)
    assert table_one.api("act", {"kind": "call"}).status_code == 201
    # Another table's hands are that table's phone's.
    other = table_one.api("deal", table=2)
    assert other.status_code == 403
    assert other.get_json()["error"] == "This phone is table 1's dealer: table 2's hands are entered on table 2's phone."
    refused_page = table_one.post("deal", table=2)
    assert refused_page.status_code == 403 and "table 2's phone" in soup(refused_page).get_text()
    # A bust from the dashboard is the director's or the floor's, said so.
    bust = table_one.client.post(f"/api/t/{night.tid}/bust", json={"player": 3},
                                 headers={"X-CSRFToken": table_one.token})
    assert bust.status_code == 403
    said = bust.get_json()["error"]
    assert said.startswith("This phone is table 1's dealer: “a player out") and said.endswith(
        "is for the director or the floor.")
    # In the phone's language, what it may not do too (issue 30: the command was quoted in
    # English in every language).
    french = table_one.client.post(f"/api/t/{night.tid}/bust", json={"player": 3},
                                   headers={"X-CSRFToken": table_one.token, "Accept-Language": "fr"})
    assert french.status_code == 403
    assert french.get_json()["error"].startswith("Ce téléphone est ") and "« un joueur éliminé (" in \
        french.get_json()["error"].replace("“", "« ").replace("”", " »"), french.get_json()["error"]
    # The director's pages stay the director's.
    settings = table_one.client.get(f"/t/{night.tid}/phones")
    assert settings.status_code == 403 and "this page is the director's" in soup(settings).get_text()
    restore = table_one.client.post("/api/restore", data={"confirm": "true"}, headers={"X-CSRFToken": table_one.token})
    assert restore.status_code == 403


def test_a_links_token_is_a_bearer_token_for_just_that_table(timed_app: Flask, night: Dealer) -> None:
    tokens = links(night)
    script = timed_app.test_client()  # no cookie, no CSRF token: the token alone
    bearer = {"Authorization": f"Bearer {tokens[2]}"}
    dealt = script.post(f"/api/t/{night.tid}/table/2/deal", json={}, headers=bearer)
    assert dealt.status_code == 201, dealt.get_json()
    assert script.post(f"/api/t/{night.tid}/table/1/deal", json={}, headers=bearer).status_code == 403
    changed = script.post(f"/api/t/{night.tid}/settings", json={"name": "Mine"}, headers=bearer)
    assert changed.status_code in (401, 403)
    unknown = script.post(f"/api/t/{night.tid}/table/2/act", json={"kind": "fold"},
                          headers={"Authorization": "Bearer not-a-token"})
    assert unknown.status_code in (400, 401)  # no role: neither a link nor a login
    document = script.get("/api/openapi.json").get_json()
    act = document["paths"]["/api/t/{tournament_id}/table/{table}/act"]["post"]
    assert act["x-roles"] == ["director", "floor", "dealer"] and {"link": []} in act["security"]
    assert "403" in act["responses"]
    assert document["paths"]["/api/t/{tournament_id}/settings"]["post"]["x-roles"] == ["director"]


def test_a_renewed_link_stops_at_once_and_the_director_ends_them_all(timed_app: Flask, night: Dealer) -> None:
    tokens = links(night)
    bearer = {"Authorization": f"Bearer {tokens[1]}"}
    script = timed_app.test_client()
    assert script.post(f"/api/t/{night.tid}/table/1/deal", json={}, headers=bearer).status_code == 201
    renewed = night.client.post(f"/api/t/{night.tid}/links", json={"kind": "dealer", "table": 1},
                                headers={"X-CSRFToken": night.token})
    assert renewed.status_code == 201 and renewed.get_json()["token"] != tokens[1]
    assert script.post(f"/api/t/{night.tid}/table/1/undo", json={}, headers=bearer).status_code == 403
    gone = scan(timed_app.test_client(), tokens[1])
    assert gone.status_code == 410 and "ended this link" in soup(gone).get_text()
    ended = night.client.post(f"/api/t/{night.tid}/links/end", json={}, headers={"X-CSRFToken": night.token})
    assert ended.status_code == 200 and ended.get_json()["ended"] == 3  # tables 1 and 2 (renewed) and the floor
    assert night.client.get(f"/api/t/{night.tid}/links").get_json()["links"] == []


def test_a_broken_tables_link_stops_and_says_where_the_players_went(timed_app: Flask, night: Dealer) -> None:
    tokens = links(night)
    table_two = phone(timed_app, tokens[2])
    # Table 2 breaks: its four players go to table 1.
    drawn = night.client.post(f"/api/t/{night.tid}/tables/draw", json={"table_size": 9},
                              headers={"X-CSRFToken": night.token})
    assert drawn.status_code == 201, drawn.get_json()
    opened = scan(timed_app.test_client(), tokens[2])
    assert opened.status_code == 410
    said = soup(opened).get_text()
    assert "Table 2 has broken" in said and "final table is table 1" in said
    # The phone that was dealing there is told the same on its page, and its poll reloads it.
    page = table_two.client.get(f"/t/{night.tid}/table/2")
    assert page.status_code == 410 and "Table 2 has broken" in soup(page).get_text()
    poll = table_two.client.get(f"/t/{night.tid}/table/2/panel", headers={"HX-Request": "true"})
    assert poll.headers.get("HX-Refresh") == "true"


def test_the_floor_registers_and_busts_but_not_the_settings_nor_the_money(timed_app: Flask, night: Dealer) -> None:
    tokens = links(night)
    floor = phone(timed_app, tokens["floor"])
    floor.tid = night.tid
    token = csrf_token(floor.client, f"/t/{night.tid}")
    headers = {"X-CSRFToken": token}
    assert floor.client.post(f"/api/t/{night.tid}/clock/pause", json={}, headers=headers).status_code == 201
    bust = floor.client.post(f"/api/t/{night.tid}/bust", json={"player": 4}, headers=headers)
    assert bust.status_code == 201, bust.get_json()
    for path, body in ((f"/api/t/{night.tid}/settings", {"name": "Mine"}), (f"/api/t/{night.tid}/undo", {}),
                       (f"/api/t/{night.tid}/payouts/lock", {})):
        refused = floor.client.post(path, json=body, headers=headers)
        assert refused.status_code == 403, path
        assert refused.get_json()["error"].startswith("This phone is the floor:"), path
    assert floor.client.get(f"/t/{night.tid}/tables").status_code == 200
    # The phones' links are the director's to hand out: the floor reads the night's pages, not
    # the Phones page nor the links (each would give it every table's dealer's code).
    page = floor.client.get(f"/t/{night.tid}/phones")
    assert page.status_code == 403 and "this page is the director's" in soup(page).get_text()
    listed = floor.client.get(f"/api/t/{night.tid}/links")
    assert listed.status_code == 403 and listed.get_json()["error"] == "This phone is the floor: this page is the director's."
    assert tokens[1] not in page.get_data(as_text=True) + listed.get_data(as_text=True)


def test_the_log_says_who_entered_what(timed_app: Flask, night: Dealer) -> None:
    tokens = links(night)
    bearer = {"Authorization": f"Bearer {tokens[1]}"}
    timed_app.test_client().post(f"/api/t/{night.tid}/table/1/deal", json={}, headers=bearer)
    table_two = phone(timed_app, tokens[2])
    table_two.tid = night.tid
    table_two.token = csrf_token(table_two.client, f"/t/{night.tid}/table/2")
    assert table_two.post("deal", table=2).status_code == 200
    night.client.post(f"/api/t/{night.tid}/clock/pause", json={}, headers={"X-CSRFToken": night.token})
    with timed_app.test_request_context():
        authors = [row[0] for row in get_db().execute(
            "SELECT author FROM events WHERE stream_id = ? ORDER BY seq DESC LIMIT 3", [night.tid])]
    assert authors == ["director/api", "dealer 2", "dealer 1/api"]
    log = soup(night.client.get(f"/t/{night.tid}/log")).get_text()
    assert "table 2's phone" in log and "table 1's phone (JSON API)" in log and "the director (JSON API)" in log
    history = soup(night.client.get(f"/t/{night.tid}/table/2/history")).get_text()
    assert "Entered by table 2's phone" in history
    exported = night.client.get(f"/api/t/{night.tid}/export").get_json()["events"]
    assert [e["author"] for e in exported[-3:]] == ["dealer 1/api", "dealer 2", "director/api"]


def test_the_event_log_in_the_json_api_names_each_events_author(timed_app: Flask, night: Dealer) -> None:
    """The OpenAPI document declares each event of ``GET /api/t/<id>/events`` with its author
    (as the export gives it): who wrote it, or null for an event written before authors were
    recorded; the other fields as they were."""
    tokens = links(night)
    timed_app.test_client().post(f"/api/t/{night.tid}/table/1/deal", json={},
                                 headers={"Authorization": f"Bearer {tokens[1]}"})
    table_two = phone(timed_app, tokens[2])
    table_two.tid = night.tid
    table_two.token = csrf_token(table_two.client, f"/t/{night.tid}/table/2")
    assert table_two.post("deal", table=2).status_code == 200
    night.client.post(f"/api/t/{night.tid}/clock/pause", json={}, headers={"X-CSRFToken": night.token})
    answer = night.client.get(f"/api/t/{night.tid}/events").get_json()
    shapes.Events.model_validate(answer)
    declared = night.client.get("/api/openapi.json").get_json()["components"]["schemas"]["Event"]["properties"]
    events = answer["events"]
    for event in events:
        assert set(event) == set(declared) == {"seq", "type", "payload", "at", "author"}, event
    assert [e["author"] for e in events[-3:]] == ["dealer 1/api", "dealer 2", "director/api"]
    assert events[0]["author"] is None  # the registration, written outside a request
    exported = night.client.get(f"/api/t/{night.tid}/export").get_json()["events"]
    assert events == exported


def test_a_phone_whose_link_ended_is_told_why(timed_app: Flask, night: Dealer) -> None:
    tokens = links(night)
    table_one = phone(timed_app, tokens[1])
    token = csrf_token(table_one.client, f"/t/{night.tid}/table/1")
    night.client.post(f"/api/t/{night.tid}/links/end", json={}, headers={"X-CSRFToken": night.token})
    refused = table_one.client.post(f"/t/{night.tid}/table/1/deal", data={"csrf_token": token},
                                    headers={"HX-Request": "true"})
    assert refused.status_code == 403 and "The director ended this link" in soup(refused).get_text()
    bearer = timed_app.test_client().post(f"/api/t/{night.tid}/table/1/deal", json={},
                                          headers={"Authorization": f"Bearer {tokens[1]}"})
    assert bearer.status_code == 403 and bearer.get_json()["error"].startswith("The director ended this link")


def test_a_cash_tables_phone_deals_that_table_only(app: Flask, director: Any) -> None:
    from tests.director.test_cash import add_member, new_session, sit

    sid = new_session(director, {"seats": 9, "stake": "50/100"}, {"seats": 9, "stake": "50/100"})
    for seat, name in enumerate(("Ann", "Bob", "Cy"), start=1):
        assert sit(director, sid, add_member(director, name), seat, 5_000).status_code == 201
    made = director.post(f"/cash/{sid}/phones", data={})
    assert made.status_code in (200, 303)
    page = soup(director.get(f"/cash/{sid}/phones"))
    urls = [a["href"] for a in page.select(".phone-link a")]
    assert len(urls) == 2 and len(page.select(".phone-qr svg")) == 2
    token = urls[0].rsplit("/l#", 1)[1]
    bearer = {"Authorization": f"Bearer {token}"}
    script = app.test_client()
    assert script.post(f"/api/cash/{sid}/table/1/deal", json={}, headers=bearer).status_code == 201
    other = script.post(f"/api/cash/{sid}/table/2/deal", json={}, headers=bearer)
    assert other.status_code == 403 and "table 2's hands are entered on table 2's phone" in other.get_json()["error"]
    seat = script.post(f"/api/cash/{sid}/sit", json={"member": 1, "table": 2, "seat": 4, "amount": 5_000},
                       headers=bearer)
    assert seat.status_code == 403 and seat.get_json()["error"].startswith("This phone is cash table 1's dealer:")
    opened = scan(app.test_client(), token)
    assert opened.status_code == 303 and opened.headers["Location"].endswith(f"/cash/{sid}/table/1")
    # The director renews table 2's link through the API, then ends every link of the night.
    renewed = director.api("POST", f"/api/cash/{sid}/links", {"table": 2})
    assert renewed.status_code == 201 and renewed.get_json() == {"tables": [2]}
    listed = director.api("GET", f"/api/cash/{sid}/links").get_json()["links"]
    assert sorted(v["table"] for v in listed) == [1, 2] and all("/l#" in v["url"] for v in listed)
    assert script.post(f"/api/cash/{sid}/links/end", json={}, headers=bearer).status_code == 403  # not a dealer's
    ended = director.post(f"/cash/{sid}/phones/end", data={})
    assert ended.status_code in (302, 303)
    assert director.api("GET", f"/api/cash/{sid}/links").get_json()["links"] == []
    after = script.post(f"/api/cash/{sid}/table/1/undo", json={}, headers=bearer)
    assert after.status_code == 403 and after.get_json()["error"].startswith("The director ended this link")


def test_every_write_outside_a_dealers_role_is_refused_to_its_token(timed_app: Flask, night: Dealer) -> None:
    """Every POST of the JSON API, called with table 1's token: what a dealer may not do is
    refused (403 with a sentence, or 401 where no link is taken), and nothing is recorded."""
    import re

    tokens = links(night)
    script = timed_app.test_client()
    bearer = {"Authorization": f"Bearer {tokens[1]}"}
    document = script.get("/api/openapi.json").get_json()
    ids = {"tournament_id": night.tid, "table": 1, "session_id": 1, "player_id": 1, "person_id": 1,
           "season_id": 1, "table_no": 1, "number": 1, "action": "x", "set_id": 1}
    with timed_app.test_request_context():
        before = get_db().execute("SELECT count(*) FROM events").fetchone()[0]
    tried = 0
    for path, item in document["paths"].items():
        operation = item.get("post")
        if operation is None or path in ("/api/login", "/api/setup-password", "/api/logout"):
            continue
        if "dealer" in operation.get("x-roles", ()):
            continue
        url = re.sub(r"{(\w+)}", lambda m: str(ids.get(m.group(1), 1)), path)
        answer = script.post(url, json={}, headers=bearer)
        tried += 1
        assert answer.status_code in (401, 403, 404), (path, answer.status_code)
        if answer.status_code == 403:
            assert answer.get_json()["error"].startswith("This phone is table 1's dealer"), path
    assert tried >= 60
    with timed_app.test_request_context():
        assert get_db().execute("SELECT count(*) FROM events").fetchone()[0] == before


def test_each_reads_x_roles_are_who_may_read_it(timed_app: Flask, night: Dealer) -> None:
    """Each operation's ``x-roles`` names who may call it: every read of the JSON API asked by
    the director, the floor's and table 1's links (bearer tokens) and a stranger, each let in
    exactly when the document names its role (or ``anyone``)."""
    import re

    tokens = links(night)
    document = night.client.get("/api/openapi.json").get_json()
    ids = {"tournament_id": night.tid, "table": 1, "session_id": 1, "table_no": 1, "person_id": 1,
           "season_id": 1, "command_id": "x"}
    callers = {
        "director": (night.client, {}),
        "floor": (timed_app.test_client(), {"Authorization": f"Bearer {tokens['floor']}"}),
        "dealer": (timed_app.test_client(), {"Authorization": f"Bearer {tokens[1]}"}),
        "anyone": (timed_app.test_client(), {}),
    }
    wrong = []
    for path, item in document["paths"].items():
        operation = item.get("get")
        if operation is None:
            continue
        allowed = set(operation["x-roles"])
        url = re.sub(r"{(\w+)}", lambda m: str(ids[m.group(1)]), path)
        for who, (client, headers) in callers.items():
            status = client.get(url, headers=headers).status_code
            let_in = status not in (401, 403)
            if let_in != (who in allowed or "anyone" in allowed):
                wrong.append(f"{who} GET {path}: {status}, x-roles {sorted(allowed)}")
    assert not wrong, "\n".join(wrong)


def test_the_table_tents_print_with_their_dealers_codes(timed_app: Flask, night: Dealer) -> None:
    before = soup(night.client.get(f"/t/{night.tid}/print/cards"))
    assert not before.select(".sign-code")  # no link yet: the seat cards alone
    links(night)
    for path in (f"/t/{night.tid}/print/signs", f"/t/{night.tid}/print/cards"):
        page = soup(night.client.get(path))
        assert len(page.select(".sign .sign-code svg")) == 2, path  # tables 1 and 2


def test_a_links_secret_is_long_stored_hashed_and_never_in_a_logged_address(timed_app: Flask, night: Dealer) -> None:
    """The issue's security rules: at least 128 bits, stored hashed, never in a URL the server
    logs in full (the token rides in the fragment, which a browser never sends)."""
    import base64

    tokens = links(night)
    assert len(base64.urlsafe_b64decode(tokens[1])) * 8 >= 128
    with timed_app.test_request_context():
        stored = get_db().execute("SELECT * FROM links").fetchall()
        dumped = "\n".join(get_db().iterdump())
    assert len(stored) == 3
    for token in tokens.values():
        assert token not in dumped  # the database holds nonces and hashes, no working token
    listed = night.client.get(f"/api/t/{night.tid}/links").get_json()["links"]
    assert all("/l#" in v["url"] for v in listed)
    # The director's cookie lends nothing to a request that gives a bearer token (it skips the
    # CSRF check): a bogus token with the director's cookie is no one.
    forged = night.client.post(f"/api/t/{night.tid}/settings", json={"name": "Mine"},
                               headers={"Authorization": "Bearer forged"})
    assert forged.status_code == 401
    assert night.client.get(f"/api/t/{night.tid}").get_json()["name"] != "Mine"


def test_a_dealer_corrects_a_stack_only_where_the_director_allows_it(timed_app: Flask, night: Dealer) -> None:
    """The issue: "a stack correction only where the director allows it"."""
    tokens = links(night)
    table_one = phone(timed_app, tokens[1])
    table_one.tid = night.tid
    table_one.token = csrf_token(table_one.client, f"/t/{night.tid}/table/1")
    assert not soup(table_one.page()).select(".dl-correct")  # no form on the phone
    fix = {"player": 1, "stack": 990, "reason": "a chip under the rail"}
    refused = table_one.api("correct", fix)
    assert refused.status_code == 403
    assert refused.get_json()["error"] == ("This phone is table 1's dealer: a stack is corrected by the floor or the "
                                           "director tonight (the director may allow the dealers in the settings).")
    allowed = night.client.post(f"/api/t/{night.tid}/settings", json={"dealer_corrects": True},
                                headers={"X-CSRFToken": night.token})
    assert allowed.status_code in (200, 201), allowed.get_json()
    assert soup(table_one.page()).select(".dl-correct")
    assert table_one.api("correct", fix).status_code == 201
    with timed_app.test_request_context():
        row = get_db().execute("SELECT type, author FROM events WHERE stream_id = ? ORDER BY seq DESC LIMIT 1",
                               [night.tid]).fetchone()
    assert tuple(row) == ("stack_corrected", "dealer 1/api")
    assert table_one.api("correct", fix, table=2).status_code == 403  # still its own table only


def test_a_dealer_corrects_only_the_stacks_at_its_own_table(timed_app: Flask, night: Dealer) -> None:
    """The rule: a dealer's stack correction only for a player seated at (or dealt into the
    hand at) the path's table; refused otherwise with a sentence a dealer can read. The floor
    and the director correct anyone's, from any table's path."""
    tokens = links(night)
    allowed = night.client.post(f"/api/t/{night.tid}/settings", json={"dealer_corrects": True},
                                headers={"X-CSRFToken": night.token})
    assert allowed.status_code in (200, 201), allowed.get_json()
    table_one = phone(timed_app, tokens[1])
    table_one.tid = night.tid
    table_one.token = csrf_token(table_one.client, f"/t/{night.tid}/table/1")
    said = ("P5 is not at table 1: a table's dealer corrects the stacks at that table only (the floor or the "
            "director corrects the others).")

    def stack(player: int) -> int:
        seats = [s for t in (1, 2) for s in night.client.get(f"/api/t/{night.tid}/table/{t}").get_json()["seats"]]
        return int(next(s["stack"] for s in seats if s["player"] == player))

    before = stack(5)
    refused = table_one.api("correct", {"player": 5, "stack": before - 10, "reason": "a chip under the rail"})
    assert refused.status_code == 403 and refused.get_json()["error"] == said
    page = table_one.post("correct", {"player": 5, "stack": before - 10, "reason": "a chip under the rail"})
    assert page.status_code == 403 and said in soup(page).get_text()
    script = timed_app.test_client().post(f"/api/t/{night.tid}/table/1/correct",
                                          json={"player": 5, "stack": before - 10, "reason": "a chip"},
                                          headers={"Authorization": f"Bearer {tokens[1]}", "Accept-Language": "de"})
    assert script.status_code == 403 and script.get_json()["error"].startswith("P5 sitzt nicht an Tisch 1:")
    assert stack(5) == before  # nothing recorded
    assert table_one.api("correct", {"player": 5, "stack": before - 10, "reason": "x"}, table=2).status_code == 403
    # Its own table's players, as before.
    assert table_one.api("correct", {"player": 1, "stack": stack(1) - 10, "reason": "a chip"}).status_code == 201
    # The floor and the director correct anyone's, whatever table's path they post to.
    floor = timed_app.test_client().post(f"/api/t/{night.tid}/table/1/correct",
                                         json={"player": 5, "stack": before - 10, "reason": "a chip"},
                                         headers={"Authorization": f"Bearer {tokens['floor']}"})
    assert floor.status_code == 201, floor.get_json()
    director = night.client.post(f"/api/t/{night.tid}/table/1/correct",
                                 json={"player": 6, "stack": stack(6) - 10, "reason": "a chip"},
                                 headers={"X-CSRFToken": night.token})
    assert director.status_code == 201, director.get_json()
    assert stack(5) == before - 10


def test_a_links_code_is_not_kept_for_a_retry(timed_app: Flask, night: Dealer) -> None:
    """A command's answer is kept for a retry after a lost answer; an answer that holds a
    link's code is not (the database keeps no working code): the retry is told the link was
    made, and the director reads it on the Phones page."""
    headers = {"X-CSRFToken": night.token, "Idempotency-Key": "make-floor-link-1"}
    made = night.client.post(f"/api/t/{night.tid}/links", json={"kind": "floor"}, headers=headers)
    assert made.status_code == 201 and made.headers["Cache-Control"] == "no-store"
    token = made.get_json()["token"]
    again = night.client.post(f"/api/t/{night.tid}/links", json={"kind": "floor"}, headers=headers)
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.get_json() == {"notice": "That was recorded already: nothing more was recorded."}
    with timed_app.test_request_context():
        dumped = "\n".join(get_db().iterdump())
        made_links = get_db().execute("SELECT count(*) FROM links WHERE kind = 'floor'").fetchone()[0]
    assert token not in dumped and made_links == 1


def test_a_phone_told_the_night_is_over_comes_back_when_the_director_undoes_the_end(
        timed_app: Flask, night: Dealer) -> None:
    """A finished night is finished on every phone, and an unfinished one is not: the page
    that tells a dealer's phone its link ended asks again every few seconds, and reloads
    itself into the table once the director has undone the bust that ended the night."""
    from tests.director.test_seating_pages import start_and_bust

    tokens = links(night)
    table_one = phone(timed_app, tokens[1])
    assert table_one.client.get(f"/t/{night.tid}/table/1").status_code == 200
    start_and_bust(timed_app, night.tid, list(range(2, 9)), 100.0)
    told = table_one.client.get(f"/t/{night.tid}/table/1")
    assert told.status_code == 410 and "The tournament is over" in soup(told).get_text()
    check = soup(told).select_one("[hx-get*='/l/check']")
    assert check is not None and "every" in check["hx-trigger"]
    asked = table_one.client.get(check["hx-get"], headers={"HX-Request": "true"})
    assert asked.status_code == 204 and "HX-Refresh" not in asked.headers  # still over: nothing moves
    undone = night.client.post(f"/api/t/{night.tid}/undo", json={}, headers={"X-CSRFToken": night.token})
    assert undone.status_code == 201
    asked = table_one.client.get(check["hx-get"], headers={"HX-Request": "true"})
    assert asked.headers.get("HX-Refresh") == "true" and asked.headers.get("Cache-Control") == "no-store"
    back = table_one.client.get(f"/t/{night.tid}/table/1")
    assert back.status_code == 200 and soup(back).select_one("#dealer") is not None
    made_up = table_one.client.get("/l/check?v=nonsense", headers={"HX-Request": "true"})
    assert made_up.headers.get("HX-Refresh") == "true"  # a page it does not know: shown afresh
