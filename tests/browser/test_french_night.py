"""A whole night in French, in a real Chromium: the host chooses the language, creates the
tournament, registers and seats the players, starts the clock; the TV shows and says it in
French (with a French voice); the dealer's phone refuses a short raise in French; the busts
and the results read in French; a player's phone in Spanish follows its own browser."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from director.core.db import get_db
from director.core.store import load_state
from director.tables.views import player_tokens
from tests.browser.conftest import PHONE, LiveServer

pytestmark = pytest.mark.browser

NAMES = ["Anne", "Bruno", "Céline", "Denis", "Élodie", "Fabien"]
VOICES = """
  window.spoken = [];
  const voices = [{name: "English", lang: "en-US", default: true}, {name: "Amélie", lang: "fr-FR", default: false}];
  speechSynthesis.getVoices = () => voices;
  window.SpeechSynthesisUtterance = function (text) { this.text = text; };  // its voice takes only a real one
  speechSynthesis.speak = u => window.spoken.push({text: u.text, lang: u.lang, voice: u.voice && u.voice.name});
  localStorage.setItem("tv-sound", "on"); localStorage.setItem("tv-voice", "on");
"""


def test_a_whole_night_in_french(page: Any, live_server: LiveServer, browser: Any, artifacts_dir: Path) -> None:
    url = live_server.url
    page.set_viewport_size({"width": 1280, "height": 800})
    live_server.login(page)

    # The host chooses French: every page speaks it from now on.
    page.click("a:has-text('Language')")
    page.check("input[name=language][value=fr]")
    page.click("#language-form button[type=submit]")
    expect(page.locator(".flash-ok").first).to_have_text("L'application parle désormais français.")
    assert page.evaluate("document.documentElement.lang") == "fr"

    # Setup: a tournament, six players, the seats drawn, the clock started.
    page.click(".brand")
    page.click("text=Nouveau tournoi")
    page.fill("input[name=name]", "Soirée du jeudi")
    page.click("button[value=create]")
    page.wait_for_url(f"{url}/t/1/players")
    expect(page.locator(".topnav a[aria-current=page]")).to_have_text("Joueurs")
    for i, name in enumerate(NAMES, start=1):
        page.fill("#register-form input[name=name]", name)
        page.press("#register-form input[name=name]", "Enter")
        expect(page.locator("#players-table tbody tr")).to_have_count(i)
    expect(page.locator("#players-panel > .flash-ok")).to_have_text("Fabien inscrit.")
    page.goto(f"{url}/t/1/tables")
    page.click("button:has-text('Tirer les places')")
    expect(page.locator("body")).to_contain_text("1 table de 9")
    page.goto(f"{url}/t/1")
    page.click("button:has-text(\"Lancer l'horloge\")")
    expect(page.locator("#clock .badge")).to_have_text("En cours")
    page.screenshot(path=str(artifacts_dir / "french-dashboard.png"))

    # The TV: French words, French numbers, and a French voice.
    tv_context = browser.new_context(viewport={"width": 1920, "height": 1080})
    tv_context.add_init_script(VOICES)
    tv = tv_context.new_page()
    tv.goto(f"{url}/t/1/tv")
    expect(tv.locator("#tv-clock")).to_contain_text("Blindes")
    expect(tv.locator("#tv-clock")).to_contain_text("10 000")  # the starting stack in the average, the French way
    assert tv.evaluate("document.documentElement.lang") == "fr"
    tv.wait_for_timeout(3000)  # past the page's first moments, when nothing is said

    # The dealer's phone: a short raise is refused in French, with the amounts.
    phone_context = browser.new_context(viewport=PHONE)
    phone = phone_context.new_page()
    live_server.login(phone)
    phone.goto(f"{url}/t/1/table/1")
    phone.locator("#dealer button", has_text="Distribuer").first.click()
    amount = phone.locator("#dealer input[name=amount][type=number]").first
    amount.scroll_into_view_if_needed()
    big_blind = int(live_server.app.test_client().get("/api/t/1").get_json()["clock"]["big_blind"])
    amount.fill(str(big_blind + 1))  # less than a full raise: the minimum raise is to twice the big blind
    phone.locator("#dealer button", has_text="OK").first.click()
    expect(phone.locator("#dealer [role=alert]").first).to_contain_text(
        f"ne peut pas relancer à {big_blind + 1} : la relance minimum est à {2 * big_blind}.")
    phone.screenshot(path=str(artifacts_dir / "french-dealer.png"))
    for _ in range(len(NAMES) - 1):  # everyone folds to the big blind: the hand ends, and busts may be recorded
        fold = phone.locator("#dealer button", has_text="Se coucher").first
        fold.click()
        phone.wait_for_timeout(300)
    expect(phone.locator("#dealer button", has_text="Distribuer").first).to_be_visible()

    # The busts, from the dashboard, until the winner: the TV says the bubble in French.
    page.reload()
    paid = len(live_server.app.test_client().get("/api/t/1").get_json()["payouts"])
    for number, name in reversed(list(enumerate(NAMES, start=1))[1:]):
        row = page.locator(f"#player-{number}")
        row.locator("summary:has-text('Éliminer')").click()
        row.locator("select[name=by]").first.select_option(label="Anne")
        row.locator(f"button:has-text('Confirmer\u00a0: {name} est éliminé')").click()
        expect(page.locator(f"#player-{number}")).to_contain_text(f"{number}e")
        if number - 1 == paid + 1:  # one more out and everyone left is paid: the bubble
            tv.wait_for_function("window.spoken.length > 0", timeout=6000)
            tv.screenshot(path=str(artifacts_dir / "french-tv-bubble.png"))
    spoken = tv.evaluate("window.spoken")
    assert {"text": "Nous sommes à la bulle. Encore une élimination et tous les joueurs restants sont payés.",
            "lang": "fr", "voice": "Amélie"} in spoken, spoken
    expect(page.locator("#clock .badge")).to_have_text("Terminé")

    # The results, in French.
    page.click("text=Voir les résultats")
    page.wait_for_url(f"{url}/t/1/results")
    rows = page.locator("#standings tbody tr")
    expect(rows).to_have_count(6)
    places = [rows.nth(i).locator("td").first.inner_text().strip() for i in range(6)]
    assert places == ["1er", "2e", "3e", "4e", "5e", "6e"]
    page.screenshot(path=str(artifacts_dir / "french-results.png"), full_page=True)

    # A player's phone in Spanish: the host allows phones their own language.
    with live_server.app.app_context():
        token = next(iter(player_tokens(load_state(get_db(), 1)).values()))
    spanish = browser.new_context(viewport=PHONE, locale="es-ES")
    player = spanish.new_page()
    player.goto(f"{url}/p/{token}")
    assert player.evaluate("document.documentElement.lang") == "es"
    for context in (tv_context, phone_context, spanish):
        context.close()
