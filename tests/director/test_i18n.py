"""The app in the host's language: every message translated in every language, no page showing
a word outside the catalogues, the engine's refusals in each language, numbers and places
written the reader's way, the host's choice and the players' phones."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from bs4 import BeautifulSoup
from flask import Flask
from flask.testing import FlaskClient

from director import create_app
from director.core import catalogues, i18n, words
from director.core.db import get_db
from director.core.store import cache, load_state
from director.home.demo import DEMO_NAMES, fill_demo
from director.tables.views import player_tokens
from tests.director.conftest import Director, csrf_token, set_password

LANGUAGES = ("fr", "de", "es")
PSEUDO = "eo"  # a language of its own for the tests: each message shown as ⟦its English⟧
SHOWN_ATTRIBUTES = ("title", "aria-label", "placeholder", "alt", "hx-confirm", "data-confirm", "data-say")
DEMO_TITLE = "Zqx"


@pytest.fixture(scope="module")
def extraction() -> tuple[Catalog, list[str]]:
    return catalogues.extract_all()


@pytest.fixture(scope="module")
def source_catalogue(extraction: tuple[Catalog, list[str]]) -> Catalog:
    return extraction[0]


# --- the catalogues -------------------------------------------------------------------------


def test_no_message_is_written_so_that_it_cannot_be_translated(extraction: tuple[Catalog, list[str]]) -> None:
    """A translated message must be a literal: an f-string given to gettext or to an engine
    error reaches the catalogue as nothing (Babel says where)."""
    catalogue, unreadable = extraction
    assert not unreadable, "\n".join(unreadable[:20])
    assert len(catalogue) > 500


def test_the_template_holds_every_message_of_the_sources(source_catalogue: Catalog) -> None:
    """``python -m director.core.catalogues extract`` was run after the last change of wording."""
    kept = {m.id for m in catalogues.read_catalogue(catalogues.TEMPLATE) if m.id}
    now = {m.id for m in source_catalogue if m.id}
    assert not now - kept, f"run python -m director.core.catalogues extract && update: new {sorted(now - kept, key=str)[:10]}"
    assert not kept - now, f"run python -m director.core.catalogues extract && update: gone {sorted(kept - now, key=str)[:10]}"


@pytest.mark.parametrize("path", catalogues.language_files(), ids=lambda p: p.parent.parent.name)
def test_every_message_is_translated_and_none_is_fuzzy(path: Path, source_catalogue: Catalog) -> None:
    code = path.parent.parent.name
    catalogue = catalogues.read_catalogue(path, code)
    have = {m.id for m in catalogue if m.id}
    missing = [m.id for m in source_catalogue if m.id and m.id not in have]
    assert not missing, missing[:10]
    assert not list(catalogues.problems(catalogue)), list(catalogues.problems(catalogue))[:10]


def test_the_four_languages_are_there() -> None:
    assert {p.parent.parent.name for p in catalogues.language_files()} >= set(LANGUAGES)


@pytest.mark.parametrize(("code", "words"), [
    ("fr", ("relance", "tapis", "blinde")),
    ("de", ("Erhöhung", "All-in", "Blind")),
    ("es", ("subida", "all-in", "ciega")),
])
def test_the_translations_speak_the_poker_players_words(code: str, words: tuple[str, ...]) -> None:
    text = (i18n.TRANSLATIONS / code / "LC_MESSAGES" / "messages.po").read_text(encoding="utf-8")
    for word in words:
        assert word in text, word


# --- no word outside the catalogues ---------------------------------------------------------


def marked(message: Any) -> Any:
    return tuple(f"⟦{m}⟧" for m in message) if isinstance(message, tuple) else f"⟦{message}⟧"


@pytest.fixture(scope="module")
def pseudo_folder(tmp_path_factory: pytest.TempPathFactory, source_catalogue: Catalog) -> Path:
    folder = tmp_path_factory.mktemp("pseudo")
    catalogue = Catalog(locale=PSEUDO)
    for message in source_catalogue:
        if message.id:
            catalogue.add(message.id, marked(message.id), context=message.context)
    target = folder / PSEUDO / "LC_MESSAGES"
    target.mkdir(parents=True)
    with (target / "messages.mo").open("wb") as out:
        write_mo(out, catalogue)
    return folder


def unmarked(text: str) -> str:
    """What is left of a text once every translated part (⟦...⟧, nested too) is taken out."""
    while True:
        shorter = re.sub(r"⟦[^⟦⟧]*⟧", " ", text)
        if shorter == text:
            return text
        text = shorter


BRAND = "Poker director"  # the app's name, the same in every language


def leftovers(html: str, allowed: set[str]) -> list[str]:
    """The words of a page (its text, and the attributes a person reads) outside ⟦...⟧."""
    page = BeautifulSoup(html, "html.parser")
    for tag in page(["script", "style", "code", "kbd"]):  # code: a file's or a command's literal name
        tag.decompose()
    texts = [page.get_text(" ")]  # one text: a message with markup in it spans several nodes
    for tag in page.find_all(True):
        texts += [str(tag[name]) for name in SHOWN_ATTRIBUTES if tag.get(name)]
        if tag.name == "input" and tag.get("type") in ("submit", "button") and tag.get("value"):
            texts.append(str(tag["value"]))
    found = []
    for text in texts:
        rest = re.sub(r"https?://\S+", " ", unmarked(text.replace(BRAND, " ")))
        for match in re.finditer(r"[^\W\d_]{2,}", rest):
            if match.group() not in allowed:
                found.append(f"{match.group()!r} in {' '.join(rest[max(0, match.start() - 40):match.end() + 40].split())!r}")
    return found


@pytest.fixture
def pseudo_app(tmp_path: Path, pseudo_folder: Path) -> Iterator[Flask]:
    cache.clear()
    app = create_app({"TESTING": True, "BABEL_TRANSLATION_DIRECTORIES": f"{i18n.TRANSLATIONS};{pseudo_folder}"},
                     instance_path=tmp_path / "instance")
    yield app
    cache.clear()


# the names the test gives (a tournament, a season, a cash session, a chip set, a stack's correction)
FINISHED_TITLE, FINAL_TITLE, WAITING_TITLE, SEASON_TITLE, CASH_TITLE, CHIPS_TITLE, REASON = (
    "Qvb", "Qvc", "Qvd", "Vxz", "Zqc", "Zqk", "Zqr")
TITLES = (DEMO_TITLE, FINISHED_TITLE, FINAL_TITLE, WAITING_TITLE, SEASON_TITLE, CASH_TITLE, CHIPS_TITLE, REASON)


@dataclass
class Night:
    """A night as a real one goes: the demo tournament with a hand being played at table 1 and
    one played to the showdown at table 2, a finished tournament played by hands (its results,
    sheet and season), one at its final three (the deal page), a saved chip set, a person with
    statistics, and a cash session with a hand shown down and the next one dealt."""

    ids: dict[str, list[int]]  # the values of each page's fields: ``tournament_id``, ``table``, ...
    tokens: list[str]  # a player's phone in the demo, and the finished night's winner's
    tournament: int  # the demo's id
    members: dict[str, int]  # the cash club's


def record_event(app: Flask, tid: int, type_: str, payload: dict[str, Any]) -> None:
    from director.night import commands as night_commands

    with app.test_request_context():
        night_commands.record(get_db(), tid, type_, payload, None, time.time())


def build_night(app: Flask, director: Director) -> Night:
    def ok(method: str, path: str, body: Any = None) -> Any:
        response = director.api(method, path, body if body is not None else {})
        assert response.status_code in (200, 201), (path, body, response.get_json())
        return response.get_json()

    with app.app_context():
        tid = fill_demo(get_db(), time.time(), name=DEMO_TITLE)
    base = f"/api/t/{tid}/table"
    ok("POST", f"{base}/1/deal")  # table 1 deals first: the bust at table 2 then leaves a final table to draw
    # table 2 (Alice on the button, Jack, Farid): Alice all in, Jack folds, Farid calls and is out
    ok("POST", f"{base}/2/correct", {"player": 10, "stack": 9_500, "reason": REASON})
    ok("POST", f"{base}/2/deal")
    ok("POST", f"{base}/2/misdeal", {"cause": "boxed_cards"})  # dealt again
    ok("POST", f"{base}/2/ruling", {"kind": "boxed_card"})
    ok("POST", f"{base}/2/act", {"kind": "allin"})
    ok("POST", f"{base}/2/act", {"kind": "fold"})
    ok("POST", f"{base}/2/act", {"kind": "call"})
    ok("POST", f"{base}/2/cards", {"board": "KdQs5c8h3d", "cards": {"1": "AsAh", "6": "7c2d"}})
    # table 1: a hand in play, a raise and a call
    ok("POST", f"{base}/1/act", {"kind": "raise", "amount": 1600})
    ok("POST", f"{base}/1/act", {"kind": "call"})
    ok("POST", f"{base}/1/clock")  # the seat to act is put on the clock

    # a night played to its end by hands, at one table
    finished = ok("POST", "/api/tournaments", {"name": FINISHED_TITLE, "preset": "sng-1000", "table_size": 6,
                                              "buy_in": 20})["id"]
    for name in DEMO_NAMES[:4]:  # Alice, Ben, Chloé, Dev
        ok("POST", f"/api/t/{finished}/players", {"name": name})
    record_event(app, finished, "seats_drawn", {"seats": {"1": [1, 1], "2": [1, 2], "3": [1, 3], "4": [1, 5]},
                                                "buttons": {"1": 5}})
    ok("POST", f"/api/t/{finished}/clock/start")
    table = f"/api/t/{finished}/table/1"
    ok("POST", f"{table}/deal")
    ok("POST", f"{table}/act", {"kind": "allin"})
    ok("POST", f"{table}/act", {"kind": "fold"})
    ok("POST", f"{table}/act", {"kind": "fold"})
    ok("POST", f"{table}/act", {"kind": "call"})
    ok("POST", f"{table}/cards", {"board": "KdQs5c8h3d", "cards": {"3": "AsAh", "2": "7c2d"}})
    ok("POST", f"{table}/deal")
    while ok("GET", table)["phase"] == "betting":
        ok("POST", f"{table}/act", {"kind": "fold"})
    for victim in (1, 4):
        ok("POST", f"/api/t/{finished}/bust", {"player": victim, "by": 3})

    # the final three of five, paid 50/30/20: the deal page
    final = ok("POST", "/api/tournaments", {"name": FINAL_TITLE, "buy_in": 100, "payout_kind": "custom",
                                           "percentages": "50/30/20"})["id"]
    for name in DEMO_NAMES[4:9]:
        ok("POST", f"/api/t/{final}/players", {"name": name})
    ok("POST", f"/api/t/{final}/clock/start")
    for player in (5, 4):
        ok("POST", f"/api/t/{final}/bust", {"player": player})
    ok("POST", f"/api/t/{final}/clock/pause")

    waiting = ok("POST", "/api/tournaments", {"name": WAITING_TITLE, "preset": "home-long-ante"})["id"]
    for name in DEMO_NAMES[:3]:  # registered, the clock not started
        ok("POST", f"/api/t/{waiting}/players", {"name": name})

    season = ok("POST", "/api/seasons", {"name": SEASON_TITLE, "formula": "table", "best_n": 2,
                                         "knockout_points": 1})["id"]
    for night in (finished, tid):
        ok("POST", f"/api/seasons/{season}/nights", {"tournament": night})

    chips = ok("POST", "/api/chip-sets", {"name": CHIPS_TITLE, "denominations": [
        {"value": 25, "colour": "green", "count": 100}, {"value": 100, "colour": "black", "count": 100},
        {"value": 500, "colour": "blue", "count": 50}, {"value": 1000, "colour": "yellow", "count": 50}]})["id"]

    members = {}
    for name in ("Alice", "Ben", "Chloé", "Dev", "Erin"):
        members[name] = ok("POST", "/api/cash/club/member", {"name": name, "grant": 20_000})["members"][-1]["id"]
    cash = ok("POST", "/api/cash", {"name": CASH_TITLE, "tables": [{"seats": 6, "stake": "50/100"}]})["id"]
    for seat, name in enumerate(("Alice", "Ben", "Chloé", "Dev"), start=1):
        ok("POST", f"/api/cash/{cash}/sit", {"member": members[name], "table": 1, "seat": seat, "amount": 5_000})
    ok("POST", f"/api/cash/{cash}/leave", {"member": members["Dev"]})  # cashed out
    ok("POST", f"/api/cash/{cash}/wait", {"member": members["Erin"], "stake": "50/100"})
    at = f"/api/cash/{cash}/table/1"
    ok("POST", f"{at}/deal", {"button": 1})
    ok("POST", f"{at}/act", {"kind": "raise", "amount": 300})
    while ok("GET", at)["phase"] == "betting":
        kinds = {a["kind"] for a in ok("GET", at)["actions"]}
        ok("POST", f"{at}/act", {"kind": "check" if "check" in kinds else "call"})
    ok("POST", f"{at}/cards", {"board": "AhKd7c2s9h", "cards": {"1": "AsAd", "2": "KcKs", "3": "7d7s"}})
    ok("POST", f"{at}/deal")
    ok("POST", f"{at}/act", {"kind": "raise", "amount": 300})

    people = {p["name"]: p["id"] for p in ok("GET", "/api/people")["people"]}
    with app.app_context():
        tokens = [*player_tokens(load_state(get_db(), tid)).values(), *player_tokens(load_state(get_db(), finished)).values()]
    return Night(
        ids={"tournament_id": [tid, finished, final, waiting], "table": [1, 2], "session_id": [cash], "table_no": [1],
             "set_id": [chips], "person_id": [people["Chloé"], people["Jack"]], "season_id": [season]},
        tokens=[tokens[0], tokens[-1]],
        tournament=tid,
        members=members,
    )


def answers(director: Director, night: Night) -> dict[str, str]:
    """What the pages answer a form with: a refused action at the table, the deal's figures
    worked out, the cash club's and session's notices (a new member, chips granted, a seat taken)."""
    final, tid, cash = night.ids["tournament_id"][2], night.tournament, night.ids["session_id"][0]
    refused = director.post(f"/t/{tid}/table/1/act", {"kind": "raise", "amount": "1700"}, htmx=True)
    assert refused.status_code == 422
    state = director.api("GET", f"/api/t/{final}").get_json()
    figures = director.post(f"/t/{final}/deal", {"stack_1": "20000", "stack_2": "20000", "stack_3": "10000",
                                                "play_for": "50", "op": "figures", "expected_seq": str(state["seq"])})
    assert figures.status_code == 200
    found = {f"POST /t/{tid}/table/1/act": refused, f"POST /t/{final}/deal": figures}
    for path, form in (
        ("/cash/club/member", {"name": "Gina", "grant": "20000"}),
        ("/cash/club/grant", {"member": str(night.members["Alice"]), "amount": "500", "reason": ""}),
        (f"/cash/{cash}/sit", {"member": str(night.members["Erin"]), "place": "1:5", "amount": "5000"}),
    ):
        found[f"POST {path}"] = response = director.post(path, form, htmx=True)
        assert response.status_code == 200, response.get_data(as_text=True)
    return {path: response.get_data(as_text=True) for path, response in found.items()}


def pages(app: Flask, night: Night) -> list[str]:
    """Every page a person reads, of each part of the night."""
    found = []
    for rule in app.url_map.iter_rules():
        if "GET" not in (rule.methods or ()) or rule.rule.startswith(("/api", "/static", "/tv-files", "/auth/first")):
            continue
        if rule.rule.endswith((".csv", ".json", ".phh", ".phhs", "/download", ".ico")) or rule.rule == "/health":
            continue
        paths = [rule.rule]
        for name, values in (*night.ids.items(), ("token", night.tokens)):
            field = f"<int:{name}>" if name != "token" else "<token>"
            paths = [p.replace(field, str(v)) for p in paths for v in (values if field in p else [None])]
        found += [p for p in paths if "<" not in p]
    return sorted(set(found))


def test_no_page_shows_a_word_outside_the_catalogues(pseudo_app: Flask) -> None:
    client = pseudo_app.test_client()
    set_password(client)
    director = Director(client)
    night = build_night(pseudo_app, director)
    with pseudo_app.app_context():
        get_db()["app_settings"].upsert({"key": "language", "value": PSEUDO}, pk="key")
        allowed = {*TITLES, *DEMO_NAMES, *(w for name in i18n.languages().values() for w in name.split()),
                   "CSV", "JSON"}  # the files' formats, the same in every language
    from babel import Locale

    locale = Locale.parse(PSEUDO)
    for names in (locale.days["format"], locale.months["format"]):
        for width in names.values():
            allowed |= {w for name in width.values() for w in re.findall(r"[^\W\d_]+", name)}
    checked, found = [], []
    for path, html in answers(director, night).items():
        found += [f"{path}: {problem}" for problem in leftovers(html, allowed)]
    for path in pages(pseudo_app, night):
        for headers in ({}, {"HX-Request": "true"}):
            response = director.get(path, headers=headers)
            if response.status_code == 200 and response.mimetype in ("text/html", "image/svg+xml"):
                checked.append(path)
                found += [f"{path}: {problem}" for problem in leftovers(response.get_data(as_text=True), allowed)]
            response.close()
    assert len(set(checked)) >= 30, checked
    assert not found, "\n".join(found[:40])


# --- the host's choice, the phones, the numbers -----------------------------------------------


def choose(director: Director, **given: Any) -> Any:
    return director.api("POST", "/api/language", given)


def test_the_host_chooses_the_apps_language(director: Director) -> None:
    answer = director.api("GET", "/api/language").get_json()
    assert answer["language"] == "en" and set(answer["languages"]) == {"en", *LANGUAGES}
    assert answer["languages"]["fr"] == "Français"
    assert choose(director, language="fr").get_json()["language"] == "fr"
    page = director.get("/")
    assert '<html lang="fr">' in page.get_data(as_text=True)
    assert page.headers["Content-Language"] == "fr"


def test_the_demo_is_named_in_the_hosts_language(director: Director) -> None:
    """Issue 31: the demo tournament kept its English name on French pages."""
    choose(director, language="fr")
    response = director.post("/demo")
    assert response.status_code == 303
    page = director.get(response.headers["Location"]).get_data(as_text=True)
    assert "Démo : samedi soir" in page and "Saturday" not in page


def test_a_language_the_app_does_not_speak_is_refused_with_the_choices(director: Director) -> None:
    response = choose(director, language="it")
    assert response.status_code == 422
    assert response.get_json()["error"] == "The app does not speak it: choose one of en, de, es, fr."
    assert choose(director, language="fr; DROP").status_code == 422
    assert director.api("GET", "/api/language").get_json()["language"] == "en"


def test_choosing_a_language_needs_the_director(client: FlaskClient, director: Director) -> None:
    director.post("/auth/logout")
    response = client.post("/api/language", json={"language": "fr"}, headers={"X-CSRFToken": csrf_token(client)})
    assert response.status_code == 401


def test_the_language_page_saves_and_says_so_in_the_new_language(director: Director) -> None:
    response = director.post("/language", {"language": "de"}, follow_redirects=True)
    text = response.get_data(as_text=True)
    assert response.status_code == 200 and '<html lang="de">' in text
    assert "Deutsch" in text


def test_a_players_phone_follows_its_browser_when_the_host_allows(app: Flask, director: Director) -> None:
    with app.app_context():
        tid = fill_demo(get_db(), time.time())
        token = next(iter(player_tokens(load_state(get_db(), tid)).values()))
    choose(director, language="de")
    spanish = {"Accept-Language": "es-ES,es;q=0.9,en;q=0.5"}
    page = director.get(f"/p/{token}", headers=spanish)
    assert '<html lang="es">' in page.get_data(as_text=True)
    assert "Accept-Language" in page.headers["Vary"]
    assert '<html lang="de">' in director.get(f"/t/{tid}/tv").get_data(as_text=True)  # the TV: the host's
    live = director.get(f"/p/{token}/live", headers=spanish).get_data(as_text=True)
    again = director.get(f"/p/{token}/live", headers={"Accept-Language": "fr"}).get_data(as_text=True)
    assert live != again  # one answer per language, though the poll cache keeps them
    choose(director, phones_follow_browser=False)
    assert '<html lang="de">' in director.get(f"/p/{token}", headers=spanish).get_data(as_text=True)


@pytest.mark.parametrize(("code", "chips", "place"), [
    ("en", "1,234,567", "2nd"), ("fr", "1\u202f234\u202f567", "2e"), ("de", "1.234.567", "2."), ("es", "1.234.567", "2.º"),
])
def test_numbers_and_places_are_written_the_readers_way(app: Flask, code: str, chips: str, place: str) -> None:
    from flask_babel import force_locale

    from director.core.words import chips as format_chips

    with app.test_request_context("/"), force_locale(code):
        assert format_chips(1234567) == chips
        assert words.ordinal(2) == place
        assert format_chips(1234567.4) == chips  # every digit kept, the fraction rounded


@pytest.mark.parametrize(("code", "first"), [("en", r"1st \d"), ("de", r"1\.: \d"), ("fr", r"1er \d"), ("es", r"1\.º \d")])
def test_a_prize_after_its_place_is_never_read_as_one_number(app: Flask, director: Director, code: str, first: str) -> None:
    """The TV's prizes: a German "1. 181" reads as 1181 (or a date), so a place that ends in a
    full stop is parted from its amount by a colon ("1.: 181"); the other languages' places
    end otherwise and stay as they are ("1st 181", "1er 181", "1.º 181")."""
    with app.app_context():
        tid = fill_demo(get_db(), time.time())
    choose(director, language=code)
    soup = BeautifulSoup(director.get(f"/t/{tid}/tv/clock", headers={"HX-Request": "true"}).get_data(as_text=True),
                         "html.parser")
    lines = [li.get_text(" ", strip=True) for li in soup.select(".tv-payouts li")]
    assert lines and re.match(first, lines[0]), lines
    if code == "de":
        assert all(re.match(r"\d+\.: \d", line) for line in lines), lines
        assert words.before_amount("Anna") == "Anna" and words.before_amount("3.") == "3.:"


@pytest.mark.parametrize(("code", "said"), [
    ("en", "Remove the 5, 25 and 100 chips"), ("fr", "Retirez les jetons de 5, 25 et 100"),
    ("de", "5, 25 und 100"), ("es", "5, 25 y 100"),
])
def test_a_list_is_said_the_readers_way(app: Flask, code: str, said: str) -> None:
    """One module of words writes lists: the colour-up's chips are listed with the
    language's own 'and'."""
    from flask_babel import force_locale

    from director.screens.clock_words import colour_up_text

    with app.test_request_context("/"), force_locale(code):
        assert said in colour_up_text((100, 5, 25))
        assert words.listed(["Ann"]) == "Ann" and words.listed([]) == ""


def test_the_api_answers_in_the_language_its_caller_asks_for(director: Director) -> None:
    choose(director, language="de")
    asked = director.client.post("/api/language", json={"language": "it"},
                                 headers={"X-CSRFToken": director.token, "Accept-Language": "fr"})
    plain = director.client.post("/api/language", json={"language": "it"}, headers={"X-CSRFToken": director.token})
    assert asked.status_code == plain.status_code == 422
    assert asked.headers["Content-Language"] == "fr" and plain.headers["Content-Language"] == "de"
    assert asked.get_json()["error"] != plain.get_json()["error"]


def english_texts(html: str) -> list[str]:
    page = BeautifulSoup(html, "html.parser")
    for tag in page(["script", "style", "code", "kbd"]):
        tag.decompose()
    texts = [" ".join(t.split()) for t in page.stripped_strings]
    for tag in page.find_all(True):
        texts += [" ".join(str(tag[name]).split()) for name in SHOWN_ATTRIBUTES if tag.get(name)]
    return texts


@pytest.mark.parametrize("code", LANGUAGES)
def test_every_page_is_shown_in_the_language_chosen(app: Flask, director: Director, code: str) -> None:
    """No text on a page is the English of a message that has a translation of its own (a
    message rendered before the language was known, or cached across languages)."""
    catalogue = catalogues.read_catalogue(i18n.TRANSLATIONS / code / "LC_MESSAGES" / "messages.po", code)
    translations = {m.string for m in catalogue if isinstance(m.string, str)}
    english = {m.id for m in catalogue if isinstance(m.id, str) and m.string and m.id not in translations
               and not catalogues.FIELDS.search(m.id) and len(m.id) > 3 and m.id not in DEMO_NAMES}
    night = build_night(app, director)
    director.get(f"/t/{night.tournament}/tv")  # rendered and cached in English first
    choose(director, language=code)
    found, checked = [], 0
    for path, html in answers(director, night).items():
        found += [f"{path}: {text!r}" for text in english_texts(html) if text in english]
    for path in pages(app, night):
        response = director.get(path)
        if response.status_code == 200 and response.mimetype == "text/html":
            checked += 1
            found += [f"{path}: {text!r}" for text in english_texts(response.get_data(as_text=True)) if text in english]
        response.close()
    assert checked >= 30
    assert not found, "\n".join(found[:30])


def test_a_null_or_a_wrong_type_changes_nothing(director: Director) -> None:
    assert choose(director, language=None, phones_follow_browser=None).status_code == 200
    assert choose(director, phones_follow_browser="maybe").status_code == 422
    assert choose(director, language=7).status_code == 422
    assert director.api("GET", "/api/language").get_json() == {
        "language": "en", "phones_follow_browser": True, "languages": i18n_names()}


def i18n_names() -> dict[str, str]:
    return {"en": "English", "de": "Deutsch", "es": "Español", "fr": "Français"}


@pytest.mark.parametrize(("code", "short_raise", "check"), [
    ("en", "Seat 3 cannot raise to 30: the minimum raise is to 40.", "Seat 3 cannot check: it is 20 to call."),
    ("fr", "La place 3 ne peut pas relancer à 30 : la relance minimum est à 40.",
     "La place 3 ne peut pas checker : il y a 20 à suivre."),
    ("de", "Platz 3 kann nicht auf 30 erhöhen: Es muss mindestens auf 40 erhöht werden.",
     "Platz 3 kann nicht checken: Es sind 20 zum Mitgehen."),
    ("es", "El asiento 3 no puede subir a 30: la subida mínima es a 40.",
     "El asiento 3 no puede pasar: hay 20 para igualar."),
])
def test_the_engines_refusals_are_said_in_the_apps_language(
        timed_app: Flask, client: FlaskClient, code: str, short_raise: str, check: str) -> None:
    """The engine raises its English message id and values; the dealer reads it in French,
    German or Spanish, on the page and in the JSON API alike, and nothing is recorded."""
    from tests.director.test_dealer import make_tournament

    dealer = make_tournament(timed_app, client, ["Ann", "Bob", "Cy", "Dee"],
                             {1: (1, 1), 2: (1, 2), 3: (1, 3), 4: (1, 5)}, {1: 5})
    with timed_app.app_context():
        get_db()["app_settings"].upsert({"key": "language", "value": code}, pk="key")
    dealer.ok("deal")
    before = dealer.state()["seq"]
    for data, message in (({"kind": "raise", "amount": "30"}, short_raise), ({"kind": "check"}, check)):
        page = dealer.post("act", data)
        assert page.status_code == 422
        assert BeautifulSoup(page.get_data(as_text=True), "html.parser").select_one(".dl-msg--error").text == message
        api = dealer.api("act", data)
        assert api.status_code == 422 and api.get_json() == {"error": message}
    assert dealer.state()["seq"] == before


@pytest.mark.parametrize(("code", "text"), [
    ("en", "The starting stack must be at most 1,000,000,000, not 2,000,000,000."),
    ("fr", "1\u202f000\u202f000\u202f000"), ("de", "1.000.000.000"), ("es", "1.000.000.000"),
])
def test_a_refused_number_is_written_the_readers_way(director: Director, code: str, text: str) -> None:
    """A bound in a refusal keeps every digit, grouped as the reader groups them."""
    choose(director, language=code)
    response = director.api("POST", "/api/tournaments", {"name": "Big", "starting_stack": 2_000_000_000})
    assert response.status_code == 422
    assert text in response.get_json()["error"]


def test_a_new_language_starts_from_every_message_and_is_not_whole_until_translated(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``python -m director.core.catalogues init it``: the README's way to add a language."""
    monkeypatch.setattr(catalogues, "TRANSLATIONS", tmp_path)
    assert catalogues.main(["init", "it"]) == 0
    made = catalogues.read_catalogue(tmp_path / "it" / "LC_MESSAGES" / "messages.po", "it")
    template = catalogues.read_catalogue(catalogues.TEMPLATE)
    assert {m.id for m in made if m.id} == {m.id for m in template if m.id}
    assert any(problem.startswith("untranslated") for problem in catalogues.problems(made))
    with pytest.raises(SystemExit):  # never over a language's work
        catalogues.init("it")


def test_french_elides_de_and_que_before_a_vowel(app: Flask, director: Director) -> None:
    """Issue 31: "de Olga" on a French page; French writes "d'Olga" (a mute h and a y are left
    alone: "de Hélène", "de Yves"), in the templates, in Python's sentences and the engine's."""
    from flask import render_template_string

    from director.core.i18n import gettext
    from director.core.words import say
    from engine.errors import Message

    assert director.api("POST", "/api/language", {"language": "fr"}).status_code == 200
    with app.test_request_context("/"):
        assert gettext("%(name)s's chips", name="Olga") == "Jetons d'Olga"
        assert gettext("%(name)s's chips", name="Yves") == "Jetons de Yves"
        assert gettext("%(name)s's chips", name="Hélène") == "Jetons de Hélène"
        template = "{{ _(\"%(name)s's chips\", name=who) }}"
        assert render_template_string(template, who="Ève") == "Jetons d'Ève"
        assert render_template_string(template, who="<i>Ann</i>") == "Jetons de &lt;i&gt;Ann&lt;/i&gt;"  # escaped
        given = say(Message("Give {name}'s chips: every player still in is ranked at the hand cap.", name="Ann"))
        assert given == "Donnez les jetons d'Ann : chaque joueur encore en jeu est classé à la limite de mains."
    assert director.api("POST", "/api/language", {"language": "en"}).status_code == 200
    with app.test_request_context("/"):
        assert gettext("%(name)s's chips", name="Olga") == "Olga's chips"
