"""Money and records that add up, through the JSON API and the pages (issue "Money and records
that add up, whatever the night does")."""

from __future__ import annotations

import csv
import io
import sqlite3
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from director.tables.views import player_tokens
from engine.payouts import LEAGUE_FORMULAS, league_points
from tests.director.conftest import Director, new_tournament, soup
from tests.director.test_seating_pages import state_of

GINA, SAM = 1, 2


def gina_knocks_sam_out(director: Director, kind: str) -> int:
    tid = new_tournament(director, ["Gina", "Sam", "Cy", "Dee"], start=True, buy_in=50, bounty_kind=kind, bounty=10,
                         rebuy_levels=5, rebuy_cost=50, reentry_levels=5)
    assert director.api("POST", f"/api/t/{tid}/bust", {"player": SAM, "by": GINA}).status_code == 201
    return tid


def players(director: Director, tid: int) -> dict[str, dict]:
    return {p["name"]: p for p in director.api("GET", f"/api/t/{tid}").get_json()["players"]}


@pytest.mark.parametrize(("kind", "won", "head"), [("progressive", 5, 15), ("knockout", 10, 10)])
@pytest.mark.parametrize("back_in", ["rebuy", "reentry"])
def test_a_rebuy_or_reentry_never_takes_back_the_bounty_on_any_screen(director: Director, kind, won, head, back_in):
    """Issue 28, 1: "a rebuy, a re-entry ... never takes back a bounty that was won; only
    undoing that bust does. The dashboard, results, sheet and TV read the same record.\""""
    tid = gina_knocks_sam_out(director, kind)
    assert director.api("POST", f"/api/t/{tid}/players/{SAM}/{back_in}", {}).status_code == 201
    gina = players(director, tid)["Gina"]
    assert (gina["bounties_won"], gina["bounty_head"]) == (won, head)
    dashboard = soup(director.get(f"/t/{tid}")).find(id="player-1").get_text(" ", strip=True)
    assert f"bounty {head}" in dashboard and f"won {won}" in dashboard
    results = director.api("GET", f"/api/t/{tid}/export").get_json()["results"]
    assert results["eliminations"][0] == {"player": "Sam", "by": "Gina", "chips_at_start_of_hand": None,
                                          "bounty": won}
    assert f"Sam knocked out by Gina · bounty {won}" in soup(director.get(f"/t/{tid}/results")).get_text(" ", strip=True)
    totals = director.api("GET", f"/api/t/{tid}/sheet").get_json()["totals"]
    assert totals["bounties_paid_in"] == 50 and totals["bounties_won"] == won
    assert totals["bounties_on_heads"] == 50 - won and totals["bounties_unclaimed"] == 0 and totals["balance"] == 0


def test_the_pko_night_of_twenty_with_a_rebuy_and_a_reentry_balances_on_the_sheet(director: Director):
    """Issue 28, 1: "The sheet balances to the unit: paid in (buy-ins, re-entries, rebuys,
    add-ons) + overlay = prizes + bounties paid + fees kept + bounty money still on heads.\""""
    names = [f"P{i:02}" for i in range(1, 21)]
    tid = new_tournament(director, names, start=True, buy_in=55, fee_amount=5, bounty_kind="progressive", bounty=10,
                         rebuy_levels=5, rebuy_cost=55, reentry_levels=5)
    bust = lambda victim, by: director.api("POST", f"/api/t/{tid}/bust", {"player": victim, "by": by})  # noqa: E731
    assert bust(20, 1).status_code == 201
    assert director.api("POST", f"/api/t/{tid}/players/20/rebuy", {}).status_code == 201
    assert bust(19, 2).status_code == 201
    assert director.api("POST", f"/api/t/{tid}/players/19/reentry", {}).status_code == 201
    director.api("POST", f"/api/t/{tid}/rebuys/close", {})
    for victim in range(20, 1, -1):
        assert bust(victim, 1).status_code == 201
    totals = director.api("GET", f"/api/t/{tid}/sheet").get_json()["totals"]
    assert (totals["buy_ins"], totals["reentries"], totals["rebuys"]) == (1100, 55, 55)
    assert totals["bounties_paid_in"] == totals["bounties_won"] == 220
    assert totals["unpaid"] == 0 and totals["balance"] == 0
    assert totals["paid_in"] + totals["overlay"] == totals["prizes"] + totals["bounties_won"] + totals["fees"]
    page = soup(director.get(f"/t/{tid}/sheet"))
    assert "unclaimed" not in page.find(id="sheet-balance").get_text()
    assert "balances to the unit" in page.find(id="sheet-check").get_text()


def test_the_lock_shares_later_money_through_the_api_and_refuses_before_the_money(director: Director):
    """Issue 28, 2: "money that arrives after it is shared by a stated rule (in proportion to
    the locked prizes ...) and the notice says so. The prizes add up to the pool at every
    moment"; bad input: "a lock asked before the money is reached: a clear refusal, nothing
    changed"."""
    tid = new_tournament(director, ["Ann", "Bob", "Cy", "Dee"], start=True, buy_in=100, payout_kind="custom",
                         percentages="70/30", rebuy_levels=5, rebuy_cost=100)
    before = director.api("GET", f"/api/t/{tid}").get_json()["seq"]
    refused = director.api("POST", f"/api/t/{tid}/payouts/lock", {})
    assert refused.status_code == 422
    assert refused.get_json()["error"] == ("The money is not reached: 4 players are left and 2 are paid. The payouts "
                                           "can be locked when 2 are left.")
    assert director.api("GET", f"/api/t/{tid}").get_json()["seq"] == before
    director.api("POST", f"/api/t/{tid}/bust", {"player": 4})
    director.api("POST", f"/api/t/{tid}/bust", {"player": 3})
    assert soup(director.get(f"/t/{tid}")).find(id="lock-payouts") is not None
    assert director.api("POST", f"/api/t/{tid}/payouts/lock", {}).status_code == 201
    assert director.api("POST", f"/api/t/{tid}/players/3/rebuy", {}).status_code == 201
    state = director.api("GET", f"/api/t/{tid}").get_json()
    assert state["prize_pool"] == 500 and [p["prize"] for p in state["payouts"]] == [350, 150]
    notes = soup(director.get(f"/t/{tid}")).find(id="payouts-card").get_text(" ", strip=True)
    assert "the 100 paid in since is shared in proportion to the locked prizes" in notes


def test_a_change_of_buy_in_counts_for_later_payments_and_the_page_says_so_before_saving(director: Director):
    """Issue 28, 3: "a later change of buy-in ... applies to later payments only, and the
    settings page says so before the change is saved.\""""
    tid = new_tournament(director, ["Ann", "Bob"], buy_in=110, fee_amount=10)
    note = soup(director.get(f"/t/{tid}/settings")).find(id="prices-note").get_text(" ", strip=True)
    assert "2 payments are recorded, each at the price it was paid at" in note
    saved = director.api("POST", f"/api/t/{tid}/settings", {"buy_in": 55})
    assert "the payments already made keep theirs" in saved.get_json()["notice"]
    director.api("POST", f"/api/t/{tid}/players", {"name": "Cy"})
    assert director.api("GET", f"/api/t/{tid}").get_json()["prize_pool"] == 245
    refused = director.api("POST", f"/api/t/{tid}/settings", {"buy_in": -5})
    assert refused.status_code == 422 and "at least 0" in refused.get_json()["error"]
    corrected = director.api("POST", f"/api/t/{tid}/settings", {"buy_in": 60, "correct_payments": True})
    assert "priced again" in corrected.get_json()["notice"]
    assert director.api("GET", f"/api/t/{tid}").get_json()["prize_pool"] == 3 * 50


def a_dealt_final_three(director: Director) -> int:
    tid = new_tournament(director, ["Ann", "Bob", "Cy", "Dee", "Eve"], start=True, buy_in=71,
                         payout_kind="custom", percentages="50/31/19")
    for player in (5, 4):
        director.api("POST", f"/api/t/{tid}/bust", {"player": player})
    response = director.api("POST", f"/api/t/{tid}/deal", {"method": "custom", "stacks": {"1": 9, "2": 5, "3": 4},
                                                           "amounts": {"1": 150, "2": 109, "3": 96}, "play_on": True})
    assert response.status_code == 201, response.get_json()
    return tid


@pytest.mark.parametrize("lang", ["en", "fr", "de", "es"])
def test_after_a_deal_every_screen_shows_the_dealt_amounts(app: Flask, director: Director, lang: str):
    """Issue 28, 4: "After a deal, every screen (TV, dashboard, player pages, results,
    exports) shows the dealt amounts." Seen: "After a deal the TV still shows the prizes
    before the deal (177 / 110 / 66 instead of 150 / 109 / 94), in every language.\""""
    tid = a_dealt_final_three(director)
    director.api("POST", "/api/language", {"language": lang})
    tv = [li.find("b").get_text() for li in soup(director.get(f"/t/{tid}/tv")).select(".tv-payouts li")]
    assert tv[:3] == ["150", "109", "96"]
    dashboard = soup(director.get(f"/t/{tid}")).find(id="payouts-card").get_text(" ", strip=True)
    assert "Ann 150" in dashboard.replace("\xa0", " ") and "177" not in dashboard
    token = player_tokens(state_of(app, tid))[1]
    for phone_page in (f"/p/{token}", f"/t/{tid}/tv/phone"):  # a player's page and the phone's clock
        phone = soup(director.get(phone_page, headers={"Accept-Language": lang}))
        shown = [li.get_text(" ", strip=True) for li in phone.select(".tv-payouts li, .payouts li")]
        assert shown == ["Ann 150", "Bob 109", "Cy 96"], phone_page
    for victim in (3, 2):
        director.api("POST", f"/api/t/{tid}/bust", {"player": victim, "by": 1})
    results = director.api("GET", f"/api/t/{tid}/export").get_json()["results"]
    assert {r["name"]: r["prize"] for r in results["standings"] if r["prize"]} == {"Ann": 150, "Bob": 109, "Cy": 96}
    finished_tv = [li.find("b").get_text() for li in soup(director.get(f"/t/{tid}/tv")).select(".tv-payouts li")]
    assert finished_tv == ["150", "109", "96"]


def test_the_tv_says_the_biggest_bounty_only_when_it_is_bigger_than_every_other(director: Director):
    """Issue 28, 5: "A bounty is 'the biggest' only when it is bigger than every other." Seen:
    "'Bounty on Ann 10 — the biggest' when all twenty bounties are equal.\""""
    tid = new_tournament(director, ["Ann", "Bob", "Cy", "Dee", "Eve"], start=True, buy_in=50,
                         bounty_kind="progressive", bounty=10)
    tv = soup(director.get(f"/t/{tid}/tv")).get_text(" ", strip=True)
    assert "the biggest" not in tv and "Bounty on each head 10" in tv
    director.api("POST", f"/api/t/{tid}/bust", {"player": 5, "by": 1})
    director.api("POST", f"/api/t/{tid}/bust", {"player": 4, "by": 2})
    tv = soup(director.get(f"/t/{tid}/tv")).get_text(" ", strip=True)
    assert "the biggest" not in tv and "Biggest bounty 15" in tv and "Ann & Bob" in tv
    director.api("POST", f"/api/t/{tid}/undo", {})
    tv = soup(director.get(f"/t/{tid}/tv")).get_text(" ", strip=True)
    assert "Bounty on Ann 15 the biggest" in tv


# --- imports -----------------------------------------------------------------------------------

HEAD = "season,date,name,place,prize,knockouts\n"


@pytest.mark.parametrize(("places", "words"), [
    ((1, 1, 2), "Line 5: place 2 on 2026-10-02 is already filled: after a tie for place 1, the next place is 3"),
    ((1, 2, 2, 3), "Line 6: place 3 on 2026-10-02 is already filled: after a tie for place 2, the next place is 4"),
    ((1, 3), "Line 4: place 3 on 2026-10-02, but nobody is placed 2"),
    ((2, 3), "Line 3: place 2 on 2026-10-02, but nobody is 1st"),
])
def test_imported_places_are_checked_as_a_night_and_nothing_is_imported(director: Director, places, words):
    """Issue 28, 6: "Imports are checked as a night: places 1..n with ties sharing a place and
    skipping the places they fill; a file that breaks that is refused with the line and the
    reason, and nothing of it is imported.\""""
    director.api("POST", "/api/seasons", {"name": "League"})
    body = "".join(f"League,2026-10-02,P{n},{place},0,0\n" for n, place in enumerate(places))
    response = director.api("POST", "/api/seasons/import", {"csv": HEAD + "League,2026-10-09,Zed,1,0,0\n" + body})
    assert response.status_code == 422 and words in response.get_json()["error"], response.get_json()
    assert director.api("GET", "/api/people").get_json()["people"] == []


def test_a_tie_shares_a_place_and_skips_the_places_it_fills(director: Director):
    sid = director.api("POST", "/api/seasons", {"name": "League"}).get_json()["id"]
    body = "".join(f"League,2026-10-02,P{n},{place},0,0\n" for n, place in enumerate((1, 2, 2, 4)))
    assert director.api("POST", "/api/seasons/import", {"csv": HEAD + body}).status_code == 200
    listed = director.api("GET", "/api/seasons").get_json()["seasons"]
    assert listed == [{"id": sid, "name": "League", "nights": 1}]  # issue 28, 8: imported nights count
    assert "1 night" in soup(director.get("/seasons")).find(id="season-list").get_text()


@pytest.mark.parametrize(("text", "words"), [
    ("name,nickname\nAnn,x\nBob\rCy,y\n", "Line 3: a carriage return alone"),
    ('name,nickname\nAnn,x\n"Bob,y\n', "a quote opened here is never closed"),
    ("nickname\nAnn\n", "Line 1: the column name is missing"),
    ("name\nAnn\x00\n", "Line 2: the file holds a NUL character"),
])
def test_a_malformed_csv_is_refused_with_the_line_never_a_server_error(director: Director, text, words):
    """Issue 28, 9: "Malformed CSV (lone carriage returns, unclosed quotes, wrong encoding, a
    header missing) answers 422 with the line and what is wrong; never a 500.\""""
    response = director.api("POST", "/api/people/import", {"csv": text})
    assert response.status_code == 422 and words in response.get_json()["error"], response.get_json()
    assert director.api("GET", "/api/people").get_json()["people"] == []


def test_an_old_mac_csv_with_carriage_returns_alone_reads_line_by_line(director: Director):
    response = director.api("POST", "/api/people/import", {"csv": "name,nickname\rAnn,x\rBob,y\r"})
    assert response.status_code == 200, response.get_json()
    assert sorted(p["name"] for p in director.api("GET", "/api/people").get_json()["people"]) == ["Ann", "Bob"]


def test_a_file_not_in_utf8_or_too_big_is_refused_and_nothing_is_imported(director: Director):
    upload = director.client.post("/people/import", data={"csrf_token": director.token,
                                                          "file": (io.BytesIO("name\nRené\n".encode("latin-1")), "p.csv")},
                                  content_type="multipart/form-data", follow_redirects=True)
    assert "The file is not text in UTF-8" in soup(upload).get_text()
    big = director.api("POST", "/api/people/import", {"csv": "name\n" + "x" * (6 * 1024 * 1024)})
    assert big.status_code == 422
    many = "name\n" + "".join(f"Player {n}\n" for n in range(10_000))
    assert director.api("POST", "/api/people/import", {"csv": many}).status_code == 200
    assert len(director.api("GET", "/api/people").get_json()["people"]) == 10_000


# --- exports are safe in a spreadsheet ------------------------------------------------------------

FORMULAS = ["=HYPERLINK(\"http://x\")", "+1", "-2", "@SUM(A1)"]


def exports(director: Director) -> dict[str, str]:
    """Every CSV the app writes, on a night whose players are named like formulas."""
    tid = new_tournament(director, FORMULAS, start=True, buy_in=20, fee_amount=2)
    for victim in (4, 3, 2):
        director.api("POST", f"/api/t/{tid}/bust", {"player": victim, "by": 1})
    sid = director.api("POST", "/api/seasons", {"name": "=Season"}).get_json()["id"]
    assert director.api("POST", f"/api/seasons/{sid}/nights", {"tournament": tid}).status_code in (200, 201)
    session = director.api("POST", "/api/cash", {"name": "Cash", "tables": [{"seats": 9, "stake": "50/100"}]}).get_json()
    director.api("POST", "/api/cash/club/member", {"name": "=cmd|' /C calc'!A0", "grant": 5_000})
    director.api("POST", f"/api/cash/{session['id']}/sit", {"name": "=cmd|' /C calc'!A0", "table": 1, "seat": 1,
                                                            "amount": 5_000})
    paths = [f"/t/{tid}/results.csv", f"/t/{tid}/sheet.csv", f"/seasons/{sid}.csv", f"/seasons/{sid}/results.csv",
             f"/cash/{session['id']}/ledger.csv"]
    return {path: director.get(path).get_data(as_text=True) for path in paths}


def test_every_csv_export_keeps_a_formula_as_text(app: Flask, director: Director):
    """Issue 28, 7: "Every CSV the app writes is safe to open in a spreadsheet: a text cell
    that begins with =, +, -, @, a tab or a carriage return is written so that it stays text
    (numbers stay numbers); a test goes through every export." (OWASP: CSV injection.)"""
    written = exports(director)
    csv_routes = {r.rule for r in app.url_map.iter_rules() if r.rule.endswith(".csv")}
    assert len(csv_routes) == len(written)  # every export of the app is here
    for path, text in written.items():
        for row in csv.reader(io.StringIO(text)):
            for value in row:
                if value[:1] in ("=", "+", "-", "@", "\t", "\r"):
                    assert value.lstrip("-").replace(".", "").isdigit(), (path, value)  # only numbers start so
        assert "'=" in text, path
    sheet = list(csv.reader(io.StringIO(written[next(p for p in written if p.endswith("sheet.csv"))])))
    nets = {row[1]: row[-1] for row in sheet[1:5]}
    assert nets["'-2"] == "-20"  # the number stays a number


# --- the points formulas ------------------------------------------------------------------------------


def test_the_form_describes_each_points_formula_as_the_code_computes_it(director: Director):
    """Issue 28, 8: "the form's description of each points formula is the formula the code
    computes (a test renders the description next to a computed example)"."""
    options = soup(director.get("/new")).select("select[name=league_formula] option")
    assert [o["value"] for o in options] == ["table", "field", "sqrt"]
    for option in options:
        words, example = option.get_text().rsplit("(10 players: ", 1)
        assert words.strip() == LEAGUE_FORMULAS[option["value"]]  # the words every page uses
        for part in example.rstrip(")").split(", "):
            place, points = part.split(" ")
            assert float(points) == league_points(int(place[:-2]), 10, option["value"]), option.get_text()
    field = options[1].get_text()
    assert field.startswith("a point for each player outlasted, and one for playing")


# --- backup and restore through the API ---------------------------------------------------------------


def test_a_nightly_backup_and_a_restore_through_the_json_api(app: Flask, director: Director, tmp_path: Path):
    """Issue 28, 10: "GET /api/backup (the database file, director only) and POST /api/restore
    (the file and an explicit confirmation), in the OpenAPI document, with the same checks as
    the pages.\""""
    new_tournament(director, ["Ann"], name="Kept")
    backup = director.client.get("/api/backup")
    assert backup.status_code == 200 and backup.mimetype == "application/vnd.sqlite3"
    saved = bytes(backup.get_data())
    backup.close()
    assert saved[:16] == b"SQLite format 3\x00"
    new_tournament(director, ["Bob"], name="Lost")

    def restore(content: bytes, **form: str):
        data = {"backup": (io.BytesIO(content), "night.db"), **form}
        return director.client.post("/api/restore", data=data, content_type="multipart/form-data",
                                    headers={"X-CSRFToken": director.token})

    unconfirmed = restore(saved)
    assert unconfirmed.status_code == 422 and "confirm=true" in unconfirmed.get_json()["error"]
    junk = restore(b"not a database", confirm="true")
    assert junk.status_code == 422 and "not an SQLite database" in junk.get_json()["error"]
    newer = tmp_path / "newer.db"
    newer.write_bytes(saved)
    conn = sqlite3.connect(newer)
    conn.execute("INSERT INTO _sqlite_migrations (migration_set, name, applied_at) VALUES ('director', 'm999', '')")
    conn.commit()
    conn.close()
    assert "newer poker-director" in restore(newer.read_bytes(), confirm="true").get_json()["error"]
    titles = lambda: sorted(t["name"] for t in director.api("GET", "/api/tournaments").get_json()["tournaments"])  # noqa: E731
    assert titles() == ["Kept", "Lost"]  # nothing changed by the refusals
    done = restore(saved, confirm="true")
    assert done.status_code == 200 and "Restored the backup" in done.get_json()["notice"]
    assert titles() == ["Kept"]
    doc = director.api("GET", "/api/openapi.json").get_json()["paths"]
    assert "application/vnd.sqlite3" in doc["/api/backup"]["get"]["responses"]["200"]["content"]
    assert "multipart/form-data" in doc["/api/restore"]["post"]["requestBody"]["content"]


def test_backup_and_restore_are_the_directors(client: FlaskClient):
    assert client.get("/api/backup").status_code == 401
    assert client.post("/api/restore", data={"confirm": "true"}).status_code in (400, 401)
