"""Dealer's choice: the host's list of games (``engine.levels.Structure.choices``) on the
new-tournament form, on the structure page and through the JSON API; a game the dealer's
assistant does not follow is refused with a sentence, and nothing is recorded."""

from __future__ import annotations

from typing import Any

from werkzeug.datastructures import MultiDict

from engine.games import GAMES
from engine.structure import Level, Structure, structure_to_dict
from tests.director.conftest import Director, new_tournament, seq, soup

DEALT = [key for key, game in GAMES.items() if game.dealt]
DEALT_LIST = ", ".join(DEALT)
PYDANTIC_DEALT_LIST = ", ".join(f"'{key}'" for key in DEALT[:-1]) + f" or '{DEALT[-1]}'"
CHOICE = Structure(
    "choice", (Level(25, 50, minutes=15), Level(50, 100, minutes=15, game="choice"), Level(100, 200, minutes=15)),
    10_000,
)


def browser_fields(html_form: Any) -> MultiDict[str, str]:
    """What a browser submits for a form: a ticked box sends its value, a disabled field nothing."""
    data: MultiDict[str, str] = MultiDict()
    for field in html_form.find_all(["input", "select"]):
        name = field.get("name")
        if not name or field.has_attr("disabled"):
            continue
        if field.name == "select":
            option = field.find("option", selected=True) or field.find("option")
            data.add(name, option.get("value", ""))
        elif field.get("type") == "checkbox":
            if field.has_attr("checked"):
                data.add(name, field.get("value", "on"))
        else:
            data.add(name, field.get("value", ""))
    return data


def setup_form(response: Any) -> Any:
    return soup(response).find("form", id="setup-form")


def posted(director: Director, data: MultiDict[str, str], op: str) -> Any:
    data = MultiDict(data)
    data["op"] = op
    return director.client.post("/new", data=data)


def with_choice_level(director: Director) -> MultiDict[str, str]:
    """The default form with its second level made dealer's choice, as the re-rendered form posts it."""
    data = browser_fields(setup_form(director.get("/new")))
    data["show_games"] = "on"
    kinds, games = data.getlist("kind"), data.getlist("game")
    second = [i for i, kind in enumerate(kinds) if kind == "level"][1]
    games[second] = "choice"
    data.setlist("game", games)
    return data


def ticks(form: Any) -> dict[str, bool]:
    """The host's list on the form: each game's box and whether it is ticked."""
    box = form.find(id="dealers-choice")
    return {i["value"]: i.has_attr("checked") for i in box.find_all("input", attrs={"name": "choices"})}


def structure_of(director: Director, tid: int) -> dict[str, Any]:
    return director.api("GET", f"/api/t/{tid}").get_json()["settings"]["structure"]


def created_id(response: Any) -> int:
    assert response.status_code == 303, setup_form(response).get_text(" ", strip=True)[:500]
    return int(response.headers["Location"].split("/")[2])


# --- the new-tournament form ------------------------------------------------------------------


def test_the_form_shows_the_hosts_list_only_for_a_dealers_choice_level(director: Director) -> None:
    page = soup(director.get("/new"))
    assert page.find(id="dealers-choice") is None and page.find("input", attrs={"name": "choices"}) is None
    data = browser_fields(setup_form(director.get("/new")))
    data["show_games"] = "on"  # several games, none of them dealer's choice: nothing new
    assert setup_form(posted(director, data, "check")).find(id="dealers-choice") is None

    form = setup_form(posted(director, with_choice_level(director), "check"))
    box = form.find(id="dealers-choice")
    assert box.find("legend").get_text() == "Dealer's choice: the games"
    assert ticks(form) == {key: False for key in DEALT}  # none ticked: every game
    labels = [label.get_text(strip=True) for label in box.find_all("label")]
    assert labels[:2] == ["No-Limit Hold'em", "Pot-Limit Hold'em"] and "Seven-Card Stud" not in labels
    select = form.find("select", attrs={"name": "game"})
    assert select["hx-vals"] == '{"op": "check"}'  # a level made dealer's choice brings the list in at once


def test_the_form_keeps_the_ticks_and_creates_the_night_with_them(director: Director) -> None:
    data = with_choice_level(director)
    data.setlist("choices", ["plo", "lhe"])
    form = setup_form(posted(director, data, "add_level:0"))  # a row added: the ticks stay
    assert [key for key, ticked in ticks(form).items() if ticked] == ["lhe", "plo"]  # in the form's order

    data = browser_fields(form)
    data["starting_stack"] = "lots"  # refused: the form comes back with its ticks
    response = posted(director, data, "create")
    assert response.status_code == 422
    assert [key for key, ticked in ticks(setup_form(response)).items() if ticked] == ["lhe", "plo"]
    assert director.api("GET", "/api/tournaments").get_json()["tournaments"] == []

    data = browser_fields(setup_form(response))
    data["starting_stack"] = "10000"
    tid = created_id(posted(director, data, "create"))
    structure = structure_of(director, tid)
    assert structure["choices"] == ["lhe", "plo"]
    assert [item.get("game") for item in structure["items"] if item["type"] == "level"][:3] == [None, None, "choice"]


def test_no_game_ticked_is_every_game_and_writes_no_list(director: Director) -> None:
    tid = created_id(posted(director, with_choice_level(director), "create"))
    structure = structure_of(director, tid)
    assert "choices" not in structure and any(item.get("game") == "choice" for item in structure["items"])


def test_the_ticks_of_a_night_without_dealers_choice_are_not_written(director: Director) -> None:
    data = browser_fields(setup_form(director.get("/new")))
    data.setlist("choices", ["plo"])  # kept unseen for a level made dealer's choice again, never written
    form = setup_form(posted(director, data, "check"))
    assert form.find(id="dealers-choice") is None
    assert [i["value"] for i in form.find_all("input", attrs={"name": "choices", "type": "hidden"})] == ["plo"]
    tid = created_id(posted(director, browser_fields(form), "create"))
    assert "choices" not in structure_of(director, tid)


def test_an_undealt_game_ticked_on_the_form_is_refused(director: Director) -> None:
    data = with_choice_level(director)
    data.setlist("choices", ["plo", "stud"])  # not a box the form offers
    response = posted(director, data, "create")
    assert response.status_code == 422
    problems = soup(response).find(id="structure-problems").get_text()
    assert (f"The dealer's choice is a list of different games, each one of {DEALT_LIST}, not ['plo', 'stud']."
            in problems)
    assert director.api("GET", "/api/tournaments").get_json()["tournaments"] == []


def test_a_template_with_the_hosts_list_fills_the_form_with_it(director: Director) -> None:
    tid = new_tournament(director, structure={**structure_to_dict(CHOICE), "choices": ["plo8", "plo"]})
    assert director.api("POST", f"/api/t/{tid}/template", {"name": "Choice"}).status_code == 201
    option = soup(director.get("/new")).find("option", string="Choice")
    form = setup_form(director.post("/new", {"op": "load_preset", "preset": option["value"]}, htmx=True))
    assert [key for key, ticked in ticks(form).items() if ticked] == ["plo", "plo8"]  # in the form's order


# --- the structure page -----------------------------------------------------------------------


def test_the_director_changes_the_hosts_list_on_the_structure_page(director: Director) -> None:
    tid = new_tournament(director, ["Ann", "Bob"], structure=structure_to_dict(CHOICE))
    page = soup(director.get(f"/t/{tid}/structure"))
    section = page.find(id="dealers-choice")
    assert section.find("h2").get_text() == "Dealer's choice: the games"
    form = section.find("form")
    assert ticks(page) == {key: False for key in DEALT}

    fields = browser_fields(form)
    assert fields["edit"] == "choices" and "item" not in fields
    response = director.post(f"/t/{tid}/structure", {**fields.to_dict(), "choices": ["plo", "lhe"]}, htmx=True)
    assert response.status_code == 200, response.get_data(as_text=True)
    assert soup(response).find(class_="flash-ok").get_text().startswith("Dealer's choice: PLO, LHE.")
    assert structure_of(director, tid)["choices"] == ["plo", "lhe"]
    assert [key for key, ticked in ticks(soup(response)).items() if ticked] == ["lhe", "plo"]  # in the form's order
    assert "Structure changed: Dealer's choice: PLO, LHE." in soup(director.get(f"/t/{tid}/log")).get_text()

    director.post("/auth/logout")  # a visitor reads the list
    public = soup(director.get(f"/t/{tid}/structure")).find(id="dealers-choice")
    assert public.find("form") is None and public.find("input") is None
    assert public.find(id="dealers-choice-games").get_text() == "Pot-Limit Omaha, Limit Hold'em"  # the host's order


def test_none_ticked_on_the_structure_page_is_every_game(director: Director) -> None:
    tid = new_tournament(director, structure={**structure_to_dict(CHOICE), "choices": ["plo"]})
    form = soup(director.get(f"/t/{tid}/structure")).find(id="dealers-choice").find("form")
    fields = browser_fields(form)
    assert fields.getlist("choices") == ["plo"]
    fields.poplist("choices")  # the host unticks it: the form sends no choices at all
    response = director.post(f"/t/{tid}/structure", fields.to_dict(), htmx=True)
    assert response.status_code == 200, response.get_data(as_text=True)
    notice = soup(response).find(class_="flash-ok").get_text()
    assert notice.startswith("Dealer's choice: every game the dealer's assistant follows.")
    assert "choices" not in structure_of(director, tid)
    director.post("/auth/logout")
    text = soup(director.get(f"/t/{tid}/structure")).find(id="dealers-choice-games").get_text()
    assert text.startswith("Every game the dealer's assistant follows: No-Limit Hold'em, ")


def test_a_structure_without_dealers_choice_has_no_list(director: Director) -> None:
    tid = new_tournament(director, preset="home-mixed")
    assert soup(director.get(f"/t/{tid}/structure")).find(id="dealers-choice") is None


def test_an_undealt_game_on_the_structure_page_is_refused_and_records_nothing(director: Director) -> None:
    tid = new_tournament(director, structure=structure_to_dict(CHOICE))
    before = seq(director, tid)
    response = director.post(f"/t/{tid}/structure", {"expected_seq": before, "edit": "choices",
                                                     "choices": ["plo", "stud"]}, htmx=True)
    assert response.status_code == 422
    refusal = soup(response).find(class_="flash-error").get_text()
    assert f"must be one of {PYDANTIC_DEALT_LIST}, not 'stud'." in refusal
    assert seq(director, tid) == before and "choices" not in structure_of(director, tid)


def test_the_hosts_list_changes_while_the_clock_runs(director: Director) -> None:
    tid = new_tournament(director, ["Ann", "Bob"], start=True, structure=structure_to_dict(CHOICE))
    response = director.api("POST", f"/api/t/{tid}/structure", {"edit": "choices", "choices": ["plo"]})
    assert response.status_code == 201 and structure_of(director, tid)["choices"] == ["plo"]


# --- the JSON API -------------------------------------------------------------------------------


def test_the_api_creates_a_night_with_the_hosts_list_and_changes_it(director: Director) -> None:
    structure = {**structure_to_dict(CHOICE), "choices": ["PLO", "lhe"]}  # a game's key, in any case
    response = director.api("POST", "/api/tournaments", {"name": "Choice", "structure": structure})
    assert response.status_code == 201, response.get_json()
    assert response.get_json()["settings"]["structure"]["choices"] == ["plo", "lhe"]
    tid = int(response.get_json()["id"])

    response = director.api("POST", f"/api/t/{tid}/structure", {"edit": "choices", "choices": ["plo5", "plo8"]})
    assert response.status_code == 201, response.get_json()
    assert response.get_json()["notice"].startswith("Dealer's choice: PLO5, PLO8.")
    assert response.get_json()["settings"]["structure"]["choices"] == ["plo5", "plo8"]
    response = director.api("POST", f"/api/t/{tid}/structure", {"edit": "choices", "choices": []})
    assert response.status_code == 201 and "choices" not in structure_of(director, tid)


def test_the_api_refuses_an_undealt_game_in_the_list_and_records_nothing(director: Director) -> None:
    structure = {**structure_to_dict(CHOICE), "choices": ["plo", "stud"]}
    response = director.api("POST", "/api/tournaments", {"name": "Choice", "structure": structure})
    assert response.status_code == 422
    assert f"must be one of {PYDANTIC_DEALT_LIST}, not 'stud'." in response.get_json()["error"]
    structure["choices"] = ["plo", "plo"]
    response = director.api("POST", "/api/tournaments", {"name": "Choice", "structure": structure})
    assert response.status_code == 422
    assert response.get_json()["error"].startswith("The dealer's choice is a list of different games")
    assert director.api("GET", "/api/tournaments").get_json()["tournaments"] == []

    tid = new_tournament(director, structure={**structure_to_dict(CHOICE), "choices": ["plo"]})
    before = seq(director, tid)
    response = director.api("POST", f"/api/t/{tid}/structure", {"edit": "choices", "choices": ["razz"]})
    assert response.status_code == 422
    assert f"must be one of {PYDANTIC_DEALT_LIST}, not 'razz'." in response.get_json()["error"]
    assert seq(director, tid) == before and structure_of(director, tid)["choices"] == ["plo"]


def test_the_openapi_document_describes_the_hosts_list(director: Director) -> None:
    schemas = director.get("/api/openapi.json").get_json()["components"]["schemas"]
    choices = schemas["StructureIn"]["properties"]["choices"]
    assert choices["items"]["enum"] == DEALT and choices["maxItems"] == 20
    assert "every game the dealer's assistant follows" in choices["description"]
    assert "choices" not in schemas["StructureIn"].get("required", [])
