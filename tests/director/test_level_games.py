"""Each level names the game dealt at it: the new-tournament form, the structure in play and
the JSON API let the director choose it; an unknown game is refused with the list of games;
a hand dealt at a Pot-Limit Omaha level is Pot-Limit Omaha."""

from __future__ import annotations

from typing import Any

from flask import Flask
from werkzeug.datastructures import MultiDict

from director.core.db import get_db
from director.core.store import load_state
from engine.games import GAMES
from engine.hand_setup import OMAHA, POT_LIMIT
from engine.structure import Level, Structure, structure_to_dict
from tests.director.conftest import Director, new_tournament, seq, soup
from tests.director.test_setup import form_fields, the_form

T0 = 1_000_000.0
GAME_LIST = "nlhe, plhe, lhe, plo, plo5, lo, plo8, lo8, choice, stud, razz, 2-7td"
PYDANTIC_GAME_LIST = "'nlhe', 'plhe', 'lhe', 'plo', 'plo5', 'lo', 'plo8', 'lo8', 'choice', 'stud', 'razz' or '2-7td'"
MIXED = Structure(
    "mixed", (Level(25, 50, minutes=15), Level(50, 100, minutes=15, game="plo"), Level(100, 200, minutes=15)), 10_000,
)


def fixed_clock(app: Flask) -> dict[str, float]:
    clock = {"t": T0}
    app.config["NOW"] = lambda: clock["t"]
    return clock


def posted(director: Director, data: MultiDict[str, str], op: str) -> Any:
    data["op"] = op
    return director.client.post("/new", data=data)


def setup_form(response: Any) -> Any:
    return soup(response).find("form", id="setup-form")


def level_games(form: MultiDict[str, str]) -> list[str]:
    """The game posted for each level row (a break posts a blank)."""
    return [game for kind, game in zip(form.getlist("kind"), form.getlist("game"), strict=True) if kind == "level"]


def levels(director: Director, tid: int) -> list[dict[str, Any]]:
    items = director.api("GET", f"/api/t/{tid}").get_json()["settings"]["structure"]["items"]
    return [item for item in items if item["type"] == "level"]


# --- the new-tournament form ------------------------------------------------------------------


def test_a_night_of_one_game_has_no_game_column_until_asked(director: Director) -> None:
    page = soup(director.get("/new"))
    table = page.select_one("#structure-editor table.structure")
    assert "Game" not in [th.get_text() for th in table.find_all("th")]
    assert table.find("select", attrs={"name": "game"}) is None
    data = the_form(director)
    assert set(level_games(data)) == {"nlhe"} and len(data.getlist("game")) == len(data.getlist("kind"))
    toggle = page.find("input", attrs={"name": "show_games"})
    assert toggle is not None and not toggle.has_attr("checked") and toggle["hx-vals"] == '{"op": "check"}'

    data["show_games"] = "on"
    form = setup_form(posted(director, data, "check"))
    assert "Game" in [th.get_text() for th in form.select("table.structure th")]
    select = form.find("select", attrs={"name": "game"})
    assert select["aria-label"] == "Level 1 game"
    options = {o["value"]: o.get_text() for o in select.find_all("option")}
    assert options["plo"] == "Pot-Limit Omaha" and options["nlhe"] == "No-Limit Hold'em" and len(options) == len(GAMES)
    assert select.find("option", selected=True)["value"] == "nlhe"


def test_a_plo_level_made_through_the_form_keeps_its_game_through_the_editor(director: Director) -> None:
    data = the_form(director)
    data["show_games"] = "on"
    games = data.getlist("game")
    first_level = data.getlist("kind").index("level")
    second_level = data.getlist("kind").index("level", first_level + 1)
    games[second_level] = "plo"
    data.setlist("game", games)

    after_add = form_fields(setup_form(posted(director, data, f"add_level:{second_level}")))
    assert level_games(after_add)[:4] == ["nlhe", "plo", "plo", "nlhe"]  # a level added after PLO deals PLO
    after_add.pop("show_games")  # unticked: the column stays while a level deals another game
    form = setup_form(posted(director, after_add, "remove:0"))
    assert form.find("input", attrs={"name": "show_games", "type": "checkbox"}).has_attr("disabled")
    after_remove = form_fields(form)
    assert level_games(after_remove)[:3] == ["plo", "plo", "nlhe"]
    assert after_remove.getlist("kind")[:3] == ["level"] * 3
    moved = form_fields(setup_form(posted(director, after_remove, "down:1")))  # a row moves with its game
    assert level_games(moved)[:3] == ["plo", "nlhe", "plo"]
    assert moved.getlist("big_blind")[:3] == [after_remove.getlist("big_blind")[i] for i in (0, 2, 1)]
    moved = form_fields(setup_form(posted(director, moved, "up:2")))
    assert level_games(moved)[:3] == ["plo", "plo", "nlhe"]

    moved["name"] = "Mixed Friday"
    response = posted(director, moved, "create")
    assert response.status_code == 303, setup_form(response).get_text(" ", strip=True)[:500]
    tid = int(response.headers["Location"].split("/")[2])
    made = levels(director, tid)
    assert [level.get("game", "nlhe") for level in made[:3]] == ["plo", "plo", "nlhe"]
    assert "game" not in made[2]  # a No-Limit Hold'em level is written as it always was
    assert "(edited)" in director.api("GET", f"/api/t/{tid}").get_json()["settings"]["structure"]["name"]


def test_an_unknown_game_in_the_form_is_refused_on_its_row(director: Director) -> None:
    data = the_form(director)
    games = data.getlist("game")
    games[data.getlist("kind").index("level")] = "omaha"
    data.setlist("game", games)
    response = posted(director, data, "create")
    assert response.status_code == 422
    page = soup(response)
    problems = page.find(id="structure-problems").get_text()
    assert f"Level 1: the game must be one of {GAME_LIST}, not 'omaha'." in problems
    first = page.select("#structure-editor tbody tr")[0]
    assert "has-problem" in first["class"]
    assert director.api("GET", "/api/tournaments").get_json()["tournaments"] == []


def test_a_template_of_several_games_fills_the_form_with_them(director: Director) -> None:
    tid = new_tournament(director, structure=structure_to_dict(MIXED))
    assert director.api("POST", f"/api/t/{tid}/template", {"name": "Mixed"}).status_code == 201
    option = soup(director.get("/new")).find("option", string="Mixed")
    form = setup_form(director.post("/new", {"op": "load_preset", "preset": option["value"]}, htmx=True))
    assert level_games(form_fields(form)) == ["nlhe", "plo", "nlhe"]
    assert form.find("input", attrs={"name": "show_games", "type": "checkbox"}).has_attr("checked")
    chosen = [s.find("option", selected=True)["value"] for s in form.find_all("select", attrs={"name": "game"})]
    assert chosen == ["nlhe", "plo", "nlhe"]

    data = form_fields(form)  # a preset of one game loaded over it: the column goes with the games
    data["preset"] = "home-short"
    data.pop("show_games")
    form = setup_form(posted(director, data, "load_preset"))
    assert form.find("select", attrs={"name": "game"}) is None
    assert set(level_games(form_fields(form))) == {"nlhe"}


# --- the JSON API -------------------------------------------------------------------------------


def test_the_api_creates_a_night_of_several_games(director: Director) -> None:
    structure = structure_to_dict(MIXED)
    structure["items"][2]["game"] = "LHE"  # a game's key, in any case
    response = director.api("POST", "/api/tournaments", {"name": "Mixed", "structure": structure})
    assert response.status_code == 201, response.get_json()
    made = [i for i in response.get_json()["settings"]["structure"]["items"] if i["type"] == "level"]
    assert [level.get("game") for level in made] == [None, "plo", "lhe"]

    plain = director.api("POST", "/api/tournaments", {"name": "Plain", "preset": "home-short"}).get_json()
    assert all("game" not in item for item in plain["settings"]["structure"]["items"])  # as before

    structure["items"][1]["game"] = "omaha"
    response = director.api("POST", "/api/tournaments", {"name": "Wrong", "structure": structure})
    assert response.status_code == 422
    assert f"must be one of {PYDANTIC_GAME_LIST}, not 'omaha'." in response.get_json()["error"]
    assert len(director.api("GET", "/api/tournaments").get_json()["tournaments"]) == 2


def test_the_openapi_document_describes_the_game(director: Director) -> None:
    schemas = director.get("/api/openapi.json").get_json()["components"]["schemas"]
    level = schemas["LevelIn"]["properties"]["game"]
    assert level["enum"] == GAME_LIST.split(", ") and level["default"] == "nlhe"
    assert "plo (Pot-Limit Omaha)" in level["description"]
    assert "game" not in schemas["LevelIn"].get("required", [])
    edit = schemas["StructureEditIn"]["properties"]["game"]
    assert {"enum": GAME_LIST.split(", "), "type": "string"} in edit["anyOf"]


# --- the structure in play ----------------------------------------------------------------------


def test_the_director_changes_a_levels_game_in_play_and_the_hand_dealt_is_plo(director: Director, app: Flask) -> None:
    fixed_clock(app)
    tid = new_tournament(director, ["Ann", "Bob", "Cy"], preset="home-short")
    assert director.api("POST", f"/api/t/{tid}/tables/draw", {"table_size": 6}).status_code == 201
    assert director.api("POST", f"/api/t/{tid}/clock/start", {}).status_code == 201
    page = soup(director.get(f"/t/{tid}/structure"))
    select = page.find(id="item-0").find("select", attrs={"name": "game"})
    assert select["form"] == "edit-0" and select.find("option", selected=True)["value"] == "nlhe"
    assert page.select_one("#add-level select[name=game] option[selected]") is None  # the level before's

    fields = {i["name"]: i.get("value", "") for i in page.select("input[form=edit-0], #edit-0 input")}
    response = director.post(f"/t/{tid}/structure", {**fields, "game": "plo"}, htmx=True)  # as the page posts it
    assert response.status_code == 200, response.get_data(as_text=True)
    notice = soup(response).find(class_="flash-ok").get_text()
    assert notice.startswith("Level 1: PLO 150/300, 15 min (was 150/300, 15 min).")
    assert "Structure changed: Level 1: PLO 150/300, 15 min" in director.get(f"/t/{tid}/log").get_data(as_text=True)
    assert levels(director, tid)[0]["game"] == "plo"
    shown = soup(response).find(id="item-0").find("select", attrs={"name": "game"})
    assert shown.find("option", selected=True)["value"] == "plo"

    assert director.api("POST", f"/api/t/{tid}/table/1/deal", {}).status_code == 201
    with app.test_request_context():
        hand = load_state(get_db(), tid).dealing.running(1)
    assert hand is not None
    assert hand.setup.game == OMAHA == "omaha" and hand.setup.betting == POT_LIMIT


def test_the_api_edits_and_adds_levels_with_their_games(director: Director, app: Flask) -> None:
    fixed_clock(app)
    tid = new_tournament(director, ["Ann", "Bob"], start=True, preset="home-short")
    response = director.api("POST", f"/api/t/{tid}/structure", {"edit": "level", "item": 2, "game": "plo5"})
    assert response.status_code == 201, response.get_json()
    assert response.get_json()["notice"].startswith("Level 3: PLO5 ")
    count = len(levels(director, tid))
    end = len(director.api("GET", f"/api/t/{tid}").get_json()["settings"]["structure"]["items"])
    response = director.post(f"/t/{tid}/structure", {"expected_seq": seq(director, tid), "edit": "add_level",
                                                     "item": str(end), "small_blind": "20000", "big_blind": "40000",
                                                     "ante": "0", "minutes": "15", "game": "lo"}, htmx=True)
    assert response.status_code == 200, response.get_data(as_text=True)
    assert f"Level {count + 1} added: LO 20,000/40,000" in soup(response).find(class_="flash-ok").get_text()
    made = levels(director, tid)
    assert made[2]["game"] == "plo5" and made[-1]["game"] == "lo" and "game" not in made[0]

    page = soup(director.get(f"/t/{tid}/structure"))  # a structure of several games names them
    director.post("/auth/logout")
    public = soup(director.get(f"/t/{tid}/structure"))
    assert public.find("select", attrs={"name": "game"}) is None
    assert [cell.get_text() for cell in public.select("#structure-table td.game abbr")][:3] == ["NLHE", "NLHE", "PLO5"]
    assert public.select("#structure-table td.game abbr")[2]["title"] == "Five-Card Pot-Limit Omaha"
    assert page.find(id="item-0").find("select", attrs={"name": "game"}) is not None


def test_an_unknown_game_in_play_is_refused_with_the_games_and_records_nothing(director: Director, app: Flask) -> None:
    fixed_clock(app)
    tid = new_tournament(director, ["Ann", "Bob"], start=True, preset="home-short")
    before = seq(director, tid)
    response = director.api("POST", f"/api/t/{tid}/structure", {"edit": "level", "item": 1, "game": "omaha"})
    assert response.status_code == 422
    assert response.get_json()["error"] == f"The game must be one of {PYDANTIC_GAME_LIST}, not 'omaha'."
    response = director.post(f"/t/{tid}/structure", {"expected_seq": before, "edit": "level", "item": "1",
                                                     "game": "holdem"}, htmx=True)
    assert response.status_code == 422
    assert f"The game must be one of {PYDANTIC_GAME_LIST}, not 'holdem'." in \
        soup(response).find(class_="flash-error").get_text()
    assert seq(director, tid) == before


def test_a_structure_of_one_game_shows_no_game_to_the_players(director: Director, app: Flask) -> None:
    tid = new_tournament(director, ["Ann", "Bob"], preset="home-short")
    director.post("/auth/logout")
    page = soup(director.get(f"/t/{tid}/structure"))
    assert "Game" not in [th.get_text() for th in page.select("#structure-table th")]
    assert page.select("#structure-table td.game") == []
