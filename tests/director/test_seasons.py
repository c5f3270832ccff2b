"""The players' database and seasons on the pages and the API (issue "Seasons", parts 1 to 3)."""

from __future__ import annotations

import csv
import io

from bs4 import BeautifulSoup

from tests.director.conftest import Director, new_tournament, soup


def night(director: Director, names, order, name="Night", by=None, **settings) -> int:
    """A tournament where ``names`` play and bust in ``order`` (last out first), each bust by
    the next name in ``by`` (or nobody)."""
    tid = new_tournament(director, names, start=True, name=name, **settings)
    ids = {n: i + 1 for i, n in enumerate(names)}
    for k, out in enumerate(order):
        body = {"player": ids[out]}
        if by and by[k]:
            body["by"] = ids[by[k]]
        assert director.api("POST", f"/api/t/{tid}/bust", body).status_code == 201
    return tid


def person_id(director: Director, name: str) -> int:
    people = director.api("GET", "/api/people").get_json()["people"]
    return next(p["id"] for p in people if p["name"] == name)


def test_people_are_made_from_the_nights_and_a_name_in_any_case_is_one_person(director: Director):
    night(director, ["Ann", "Bob", "Cy"], ["Cy", "Bob"], by=["Ann", "Ann"])
    night(director, ["ann", "BOB", "Dee"], ["ann", "Dee"])
    people = director.api("GET", "/api/people").get_json()["people"]
    assert sorted((p["name"], p["nights"]) for p in people) == [("Ann", 2), ("Bob", 2), ("Cy", 1), ("Dee", 1)]
    ann = director.api("GET", f"/api/people/{person_id(director, 'Ann')}").get_json()
    assert [(n["place"], n["knockouts"]) for n in ann["nights"]] == [(1, 2), (3, 0)]
    assert ann["totals"] == {"nights": 2, "wins": 1, "prizes": ann["totals"]["prizes"], "knockouts": 2, "average_place": 2.0}


def test_rename_and_merge_and_their_refusals(director: Director):
    night(director, ["Ann", "Bob"], ["Bob"])
    night(director, ["Anne", "Cy"], ["Cy"])
    listed = director.api("GET", "/api/people").get_json()
    ann, anne = person_id(director, "Ann"), person_id(director, "Anne")
    assert [ann, anne] in listed["doubtful"] or [anne, ann] in listed["doubtful"]
    page = soup(director.get("/people")).find(id="doubtful").get_text(" ", strip=True)
    assert "Ann and Anne" in page
    refused = director.api("POST", f"/api/people/{ann}/merge", {"into": ann})
    assert refused.status_code == 422 and refused.get_json()["error"] == (
        "A person cannot be merged into himself: choose the other record.")
    merged = director.api("POST", f"/api/people/{anne}/merge", {"into": ann})
    assert merged.status_code == 200 and len(merged.get_json()["nights"]) == 2
    assert merged.get_json()["notice"] == "Merged Anne into Ann: the nights of both are Ann's now."
    renamed = director.api("POST", f"/api/people/{ann}", {"name": "Ann Smith", "nickname": "The Rock"})
    assert renamed.get_json()["notice"] == "Renamed Ann to Ann Smith: every night played follows."
    # A later night registered as "Anne" still finds her
    night(director, ["Anne", "Bob"], ["Bob"])
    assert len(director.api("GET", f"/api/people/{ann}").get_json()["nights"]) == 3
    bob = person_id(director, "Bob")
    clash = director.api("POST", f"/api/people/{bob}", {"name": "ann smith"})
    assert clash.status_code == 422 and "somebody else" in clash.get_json()["error"]
    two = director.api("POST", f"/api/people/{bob}/merge", {"into": ann})
    assert two.status_code == 422 and "both played tournament" in two.get_json()["error"]


def test_a_season_counts_its_finished_nights_with_best_n_and_the_tie_break_on_the_page(director: Director):
    created = director.api("POST", "/api/seasons", {"name": "Friday league", "formula": "table", "best_n": 1})
    assert created.status_code == 201
    sid = created.get_json()["id"]
    one = night(director, ["Ann", "Bob", "Cy"], ["Cy", "Bob"], name="Week 1")  # Ann 10, Bob 7, Cy 5
    two = night(director, ["Ann", "Bob", "Cy"], ["Ann", "Cy"], name="Week 2")  # Bob 10, Cy 7, Ann 5
    running = new_tournament(director, ["Ann", "Bob"], start=True, name="Week 3")
    for tid in (one, two, running):
        assert director.api("POST", f"/api/seasons/{sid}/nights", {"tournament": tid}).status_code == 200
    season = director.api("GET", f"/api/seasons/{sid}").get_json()
    rows = [(r["rank"], r["name"], r["points"], r["movement"]) for r in season["standings"]]
    # best 1: Ann 10, Bob 10 (tied: one win each, a best night of 10, two nights: shared first), Cy 7
    assert rows == [(1, "Ann", 10, 0), (1, "Bob", 10, 1), (3, "Cy", 7, 0)]
    assert [n["finished"] for n in season["nights"]] == [True, True, False]
    page = soup(director.get(f"/seasons/{sid}"))
    assert "the most wins, then the best single night, then the most nights played" in page.find(id="tie-break").text
    assert "in play, counted once it is over" in page.find(id="season-nights").get_text(" ", strip=True)
    table = list(csv.reader(io.StringIO(director.get(f"/seasons/{sid}.csv").get_data(as_text=True))))
    assert table[0][:3] == ["rank", "name", "points"] and table[1][:3] == ["1", "Ann", "10"]
    tv = soup(director.get(f"/seasons/{sid}/tv"))
    assert [li.find(class_="season-tv-name").text for li in tv.select(".season-tv-row")] == ["Ann", "Bob", "Cy"]
    # The TV follows the season by its poll (no reload): unchanged, 204; a night counted, the
    # part drawn anew, equal to a fresh load of the page.
    assert tv.find("meta", attrs={"http-equiv": "refresh"}) is None
    poll = tv.find(id="season-tv")["hx-get"]
    assert director.get(poll, headers={"HX-Request": "true"}).status_code == 204
    three = night(director, ["Ann", "Bob", "Cy"], ["Ann", "Bob"], name="Week 4")  # Cy wins
    assert director.api("POST", f"/api/seasons/{sid}/nights", {"tournament": three}).status_code == 200
    polled = director.get(poll, headers={"HX-Request": "true"})
    assert polled.status_code == 200
    fresh = soup(director.get(f"/seasons/{sid}/tv")).find(id="season-tv")
    assert str(soup(polled).find(id="season-tv")) == str(fresh)
    assert director.get(fresh["hx-get"], headers={"HX-Request": "true"}).status_code == 204
    printed = soup(director.get(f"/seasons/{sid}/print"))
    assert printed.find(id="season-standings") is not None


def test_a_final_night_multiplier_and_knockout_points(director: Director):
    sid = director.api("POST", "/api/seasons", {"name": "S", "formula": "field", "knockout_points": 1,
                                                 "final_multiplier": 2}).get_json()["id"]
    tid = night(director, ["Ann", "Bob", "Cy"], ["Cy", "Bob"], by=["Ann", "Ann"])
    director.api("POST", f"/api/seasons/{sid}/nights", {"tournament": tid, "final": True})
    rows = {r["name"]: r["points"] for r in director.api("GET", f"/api/seasons/{sid}").get_json()["standings"]}
    assert rows == {"Ann": (3 + 2) * 2, "Bob": 2 * 2, "Cy": 1 * 2}


def test_season_input_that_makes_no_sense_is_refused(director: Director):
    bad = director.api("POST", "/api/seasons", {"name": "S", "formula": "custom"})
    assert bad.status_code == 422 and "custom points table needs" in bad.get_json()["error"]
    sid = director.api("POST", "/api/seasons", {"name": "S"}).get_json()["id"]
    same = director.api("POST", "/api/seasons", {"name": "s"})
    assert same.status_code == 422 and "already exists" in same.get_json()["error"]
    other = director.api("POST", "/api/seasons", {"name": "T"}).get_json()["id"]
    tid = night(director, ["Ann", "Bob"], ["Bob"])
    director.api("POST", f"/api/seasons/{sid}/nights", {"tournament": tid})
    twice = director.api("POST", f"/api/seasons/{other}/nights", {"tournament": tid})
    assert twice.status_code == 422 and "is a night of the season 'S'" in twice.get_json()["error"]
    nothing = director.api("POST", f"/api/seasons/{sid}/nights", {"tournament": 999})
    assert nothing.status_code == 422 and "There is no tournament 999" in nothing.get_json()["error"]


def test_the_pages_work_without_javascript(director: Director):
    response = director.post("/seasons", {"name": "Winter", "formula": "table", "knockout_points": "0",
                                          "playing_bonus": "1", "best_n": "0", "final_multiplier": "1"})
    assert response.status_code == 303
    listed = soup(director.get("/seasons")).find(id="season-list").get_text(" ", strip=True)
    assert "Winter" in listed
    added = director.post("/people", {"name": "Zoe", "nickname": "Z"})
    assert added.status_code == 303
    assert "Zoe" in soup(director.get("/people")).find(id="people-table").get_text(" ", strip=True)


def test_a_players_statistics_come_from_the_hands_dealt(timed_app, client):
    """Two hands built for the test. Hand 1: Cy (seat 3) goes all-in for 1,000, Dee and Ann
    fold, Bob (the big blind) calls all-in; Cy's aces beat Bob's seven high: Cy wins 2,010
    at the showdown, Bob is out. Hand 2: everyone folds to the big blind."""
    from tests.director.test_dealer import make_tournament

    dealer = make_tournament(timed_app, client, ["Ann", "Bob", "Cy", "Dee"], {1: (1, 1), 2: (1, 2), 3: (1, 3), 4: (1, 5)},
                             {1: 5})
    dealer.ok("deal")
    dealer.ok("act", {"kind": "allin"})
    dealer.ok("act", {"kind": "fold"})
    dealer.ok("act", {"kind": "fold"})
    dealer.ok("act", {"kind": "call"})
    done = dealer.ok("cards", {"board": "KdQs5c8h3d", "cards": {"3": "AsAh", "2": "7c2d"}})
    assert done["phase"] == "before"
    dealer.ok("deal")
    while dealer.state()["phase"] == "betting":
        dealer.ok("act", {"kind": "fold"})
    people = client.get("/api/people").get_json()["people"]
    ids = {p["name"]: p["id"] for p in people}
    cy = client.get(f"/api/people/{ids['Cy']}").get_json()["hands"]
    assert cy == {"played": 2, "won": 1, "won_at_showdown": 1, "all_ins": 1, "all_ins_won": 1,
                  "biggest_pot": 2_010, "biggest_with": cy["biggest_with"]}
    assert cy["biggest_with"] == "Pair of aces"
    bob = client.get(f"/api/people/{ids['Bob']}").get_json()["hands"]
    assert (bob["played"], bob["won"], bob["all_ins"], bob["all_ins_won"]) == (1, 0, 1, 0)
    page = BeautifulSoup(client.get(f"/people/{ids['Cy']}").get_data(as_text=True), "html.parser")
    assert "2,010" in page.find(id="person-hands").get_text(" ", strip=True)
    chart = BeautifulSoup(client.get(f"/t/{dealer.tid}/results").get_data(as_text=True), "html.parser")
    lines = chart.find(id="stacks-chart").find_all("polyline")
    assert len(lines) == 4  # each player's chips as each hand began (Bob's one hand too)
    # The night ends (Ann and Dee out to Cy from the dashboard); as a night of a season, its
    # records: Cy's 2,010 pot, his three knockouts, his win of four, from 1,000 (50 big blinds).
    for victim in (1, 4):  # Ann and Dee
        assert client.post(f"/api/t/{dealer.tid}/bust", json={"player": victim, "by": 3},
                           headers={"X-CSRFToken": dealer.token}).status_code == 201
    sid = client.post("/api/seasons", json={"name": "S"}, headers={"X-CSRFToken": dealer.token}).get_json()["id"]
    client.post(f"/api/seasons/{sid}/nights", json={"tournament": dealer.tid}, headers={"X-CSRFToken": dealer.token})
    records = {r["title"]: (r["figure"], r["who"]) for r in client.get(f"/api/seasons/{sid}").get_json()["records"]}
    assert records == {
        "The biggest pot": ("2,010", "Cy"),
        "The most knockouts": ("3", "Cy"),
        "The deepest run": ("1st of 4", "Cy"),
        "The best comeback": ("1,000 (50.0 big blinds)", "Cy"),
    }


# --- bringing data in -----------------------------------------------------------------------


def test_players_import_from_csv_and_a_bad_line_imports_nothing(director: Director):
    ok = director.api("POST", "/api/people/import", {"csv": "name,nickname\nAnn,The Rock\nBob,\n"})
    assert ok.status_code == 200 and ok.get_json()["notice"] == "Imported 2 players: 2 new, 0 already known."
    again = director.api("POST", "/api/people/import", {"csv": "name\nann\nCy\n"})
    assert again.get_json()["notice"] == "Imported 2 players: 1 new, 1 already known."
    for text, words in (("nickname\nZed\n", "Line 1: the column name is missing"),
                        ("name\nDee\ndee\n", "Line 3: dee is already on line 2."),
                        ("name\nEve\n\"\"\n", None)):
        response = director.api("POST", "/api/people/import", {"csv": text})
        if words is None:
            assert response.status_code == 200
            continue
        assert response.status_code == 422 and words in response.get_json()["error"]
    names = sorted(p["name"] for p in director.api("GET", "/api/people").get_json()["people"])
    assert names == ["Ann", "Bob", "Cy", "Eve"]  # Dee never came in: her file had a bad line
    nick = next(p for p in director.api("GET", "/api/people").get_json()["people"] if p["name"] == "Ann")
    assert nick["nickname"] == "The Rock"


def test_past_results_start_a_league_mid_season(director: Director):
    sid = director.api("POST", "/api/seasons", {"name": "League"}).get_json()["id"]
    text = ("season,date,name,place,prize,knockouts\n"
            "League,2026-10-02,Ann,1,60,2\nLeague,2026-10-02,Bob,2,0,0\nLeague,2026-10-02,Cy,3,0,0\n"
            "League,2026-10-09,Bob,1,60,1\nLeague,2026-10-09,Ann,2,0,0\n")
    ok = director.api("POST", "/api/seasons/import", {"csv": text})
    assert ok.get_json()["notice"] == "Imported 5 results of 2 nights."
    tid = night(director, ["Ann", "Bob", "Cy"], ["Ann", "Bob"], name="Week 3")  # Cy 10, Bob 7, Ann 5
    director.api("POST", f"/api/seasons/{sid}/nights", {"tournament": tid})
    season = director.api("GET", f"/api/seasons/{sid}").get_json()
    # Ann 10 + 7 + 5 = 22, Bob 7 + 10 + 7 = 24, Cy 5 + 10 = 15
    assert [(r["name"], r["points"]) for r in season["standings"]] == [("Bob", 24), ("Ann", 22), ("Cy", 15)]
    assert [n["name"] for n in season["nights"]] == ["Imported night of 2026-10-02", "Imported night of 2026-10-09",
                                                     "Week 3"]
    ann = director.api("GET", f"/api/people/{person_id(director, 'Ann')}").get_json()
    assert [n["place"] for n in ann["nights"]] == [1, 2, 3] and ann["totals"]["knockouts"] == 2
    assert [n["points"] for n in ann["nights"]] == [10, 7, 5]  # the season's points, night by night
    assert soup(director.get(f"/seasons/{sid}")).find(id="season-nights") is not None
    # A night imported without a label is named in the reader's language.
    assert director.api("POST", "/api/language", {"language": "fr"}).status_code == 200
    season = director.api("GET", f"/api/seasons/{sid}").get_json()
    assert [n["name"] for n in season["nights"]][:2] == ["Soirée importée du 2026-10-02", "Soirée importée du 2026-10-09"]
    assert "Soirée importée du 2026-10-02" in soup(director.get(f"/seasons/{sid}")).get_text()


def test_bad_result_lines_are_refused_with_the_line_and_nothing_is_imported(director: Director):
    director.api("POST", "/api/seasons", {"name": "League"})
    head = "season,date,name,place,prize,knockouts\n"
    for body, words in (
        ("League,2026-10-02,Ann,1,60,2\nNope,2026-10-02,Bob,2,0,0\n", "Line 3: there is no season 'Nope'"),
        ("League,2026-10-02,Ann,1,60,2\nLeague,2026-10-02,ann,2,0,0\n", "Line 3: ann is on line 2 for the same night"),
        ("League,2026-10-02,Ann,first,60,2\n", "Line 2: the place must be a whole number"),
        ("League,2026-10-02,Ann,3,60,2\n", "Line 2: place 3 on 2026-10-02, but nobody is 1st"),
        ("League,2099-01-01,Ann,1,60,2\n", "Line 2: 2099-01-01 is in the future"),
        ("League,02/10/2026,Ann,1,60,2\n", "Line 2: the date must be written 2026-11-27"),
    ):
        response = director.api("POST", "/api/seasons/import", {"csv": head + body})
        assert response.status_code == 422 and words in response.get_json()["error"], response.get_json()
    missing = director.api("POST", "/api/seasons/import", {"csv": "season,date,name,place\nLeague,2026-10-02,Ann,1\n"})
    assert "the columns prize, knockouts are missing" in missing.get_json()["error"]
    assert director.api("GET", "/api/people").get_json()["people"] == []


def test_the_import_forms_post_a_file(director: Director):
    import io as stdio

    response = director.client.post("/people/import", data={"csrf_token": director.token,
                                                             "file": (stdio.BytesIO(b"name\nZoe\n"), "p.csv")},
                                    content_type="multipart/form-data")
    assert response.status_code == 303
    assert "Imported 1 player: 1 new" in soup(director.get("/people")).get_text(" ", strip=True)


def test_a_night_joins_its_season_at_creation(director: Director):
    from tests.director.test_chipsets import setup_form

    sid = director.api("POST", "/api/seasons", {"name": "Winter"}).get_json()["id"]
    form = soup(director.get("/new")).find("select", attrs={"name": "season"})
    assert [o.get_text() for o in form.find_all("option")] == ["none", "Winter"]
    created = director.post("/new", setup_form(director, name="Week 1", season=str(sid)))
    assert created.status_code == 303
    nights = director.api("GET", f"/api/seasons/{sid}").get_json()["nights"]
    assert [n["name"] for n in nights] == ["Week 1"]
    gone = director.post("/new", setup_form(director, name="Week 2", season="999"))
    assert gone.status_code == 422 and "That season is gone" in soup(gone).get_text()


def test_the_cash_clubs_members_are_people_and_the_form_offers_their_names(director: Director):
    night(director, ["Ann", "Bob"], ["Bob"])
    assert director.api("POST", "/api/cash/club/member", {"name": "ann", "grant": 5000}).status_code == 201
    page = soup(director.get("/cash/club"))
    assert [o["value"] for o in page.find(id="people-names").find_all("option")] == ["Bob"]
    ann = director.api("GET", f"/api/people/{person_id(director, 'Ann')}").get_json()
    assert ann["member"] == 1 and ann["balance"] == 5000 and len(ann["nights"]) == 1


def test_a_seasons_results_export_imports_back_into_another_season_with_the_same_standings(director: Director):
    sid = director.api("POST", "/api/seasons", {"name": "Autumn", "knockout_points": 1}).get_json()["id"]
    for week, (order, by) in enumerate(((["Cy", "Bob"], ["Ann", "Ann"]), (["Ann", "Cy"], ["Bob", "Bob"])), start=1):
        tid = night(director, ["Ann", "Bob", "Cy"], order, by=by, name=f"Week {week}")
        director.api("POST", f"/api/seasons/{sid}/nights", {"tournament": tid})
    exported = director.get(f"/seasons/{sid}/results.csv").get_data(as_text=True)
    lines = exported.strip().splitlines()
    assert lines[0] == "season,date,name,place,prize,knockouts,night" and len(lines) == 7
    copy = director.api("POST", "/api/seasons", {"name": "Copy", "knockout_points": 1}).get_json()["id"]
    assert director.api("POST", "/api/seasons/import", {"csv": exported.replace("Autumn,", "Copy,")}).status_code == 200
    first = director.api("GET", f"/api/seasons/{sid}").get_json()["standings"]
    again = director.api("GET", f"/api/seasons/{copy}").get_json()["standings"]
    assert [(r["name"], r["points"], r["wins"]) for r in again] == [(r["name"], r["points"], r["wins"]) for r in first]


def test_a_players_page_is_the_directors_unless_the_host_makes_it_public(director: Director, app):
    night(director, ["Ann", "Bob"], ["Bob"])
    ann = person_id(director, "Ann")
    visitor = app.test_client()
    assert visitor.get(f"/people/{ann}").status_code == 302
    assert visitor.get(f"/api/people/{ann}").status_code == 401
    assert visitor.get("/api/people").status_code == 401
    director.post("/people/visibility", {"public": "on"})
    page = soup(visitor.get(f"/people/{ann}"))
    assert page.find(id="person-nights") is not None and page.find(id="person-edit") is None
    assert visitor.get(f"/api/people/{ann}").get_json()["name"] == "Ann"
    assert visitor.get("/people").status_code == 302  # the list and the edits stay the director's
    director.post("/people/visibility", {})
    assert visitor.get(f"/people/{ann}").status_code == 302
