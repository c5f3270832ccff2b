"""The TV clock's routes: the page, the polled partial in every state, the phone clock, the
director's keys, "put on the clock", the render cache, and the sounds we ship."""

from __future__ import annotations

import doctest
import importlib.util
import io
import wave
from pathlib import Path
from typing import Any

import pytest
from bs4 import BeautifulSoup, Tag
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import given
from hypothesis import strategies as st

import director.screens.clock_panels
import director.screens.clock_view
import director.screens.clock_words
import director.screens.tv
from director.core.db import get_db
from director.core.store import load_state
from director.night import commands as services
from director.screens.clock_view import tournament_clock
from director.screens.clock_words import format_clock
from director.setup.commands import create_tournament
from director.tables.commands import draw
from engine.structure import Break, Level, Structure, structure_to_dict

from .conftest import Director, rendered

ROOT = Path(__file__).resolve().parents[2]
START = 1_800_000_000.0
NAMES = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo"]
HTMX = {"HX-Request": "true"}

# 15-minute levels, a break with a colour-up after level 2, antes from level 3.
STRUCTURE = Structure(
    "Test night",
    (
        Level(25, 50, minutes=15),
        Level(50, 100, minutes=15),
        Break(10, (25,)),
        Level(100, 200, 200, minutes=15),
        Level(150, 300, 300, minutes=15),
    ),
    10_000,
)


class Night:
    """A tournament in the app, with the server's clock in the test's hands."""

    def __init__(self, app: Flask, client: FlaskClient, **settings: Any) -> None:
        self.app = app
        self.client = client
        self.now = START
        app.config["NOW"] = lambda: self.now
        director.screens.tv.rendered.clear()
        players = settings.pop("players", 10)
        with app.app_context():
            db = get_db()
            payload = {"name": "Friday Night", "buy_in": 20, **settings}
            if "preset" not in payload:
                payload.setdefault("structure", structure_to_dict(STRUCTURE))
            self.id = create_tournament(db, payload, self.now)
            for name in NAMES[:players]:
                services.register_player(db, self.id, name, None, self.now)

    def clock(self, action: str, seconds: int | None = None) -> None:
        with self.app.app_context():
            services.clock_action(get_db(), self.id, action, None, self.now, seconds=seconds)

    def record(self, type: str, payload: dict[str, Any]) -> None:
        with self.app.app_context():
            services.record(get_db(), self.id, type, payload, None, self.now)

    def bust(self, *names: str) -> None:
        with self.app.app_context():
            state = load_state(get_db(), self.id)
            ids = [p.id for p in state.players if p.name in names]
            services.bust(get_db(), self.id, ids, None, self.now)

    def state(self) -> Any:
        with self.app.app_context():
            return load_state(get_db(), self.id)

    def wait(self, seconds: float) -> None:
        self.now += seconds

    def partial(self, path: str = "clock") -> Tag:
        response = self.client.get(f"/t/{self.id}/tv/{path}", headers=HTMX)
        assert response.status_code == 200, response.get_data(as_text=True)
        section = BeautifulSoup(response.get_data(as_text=True), "html.parser").find(id="tv-clock")
        assert isinstance(section, Tag)
        return section


def text(section: Tag, selector: str) -> str:
    found = section.select_one(selector)
    return "" if found is None else " ".join(found.get_text(" ").split())


def stat(section: Tag, kind: str) -> str:
    return text(section, f".tv-stat--{kind} dd")


def ms(epoch: float) -> int:
    return round(epoch * 1000)


@pytest.fixture
def night(app: Flask, client: FlaskClient) -> Night:
    return Night(app, client)


# ---------------------------------------------------------------- the page


def test_tv_page_is_a_full_page_that_embeds_the_polled_partial(night: Night) -> None:
    with rendered(night.app) as names:
        response = night.client.get(f"/t/{night.id}/tv")
    assert response.status_code == 200
    assert names == ["tv.html"]  # which includes _tv_clock.html
    soup = BeautifulSoup(response.get_data(as_text=True), "html.parser")
    section = soup.find(id="tv-clock")
    assert isinstance(section, Tag)
    assert section["hx-get"] == f"/t/{night.id}/tv/clock"
    assert "every 1.5s" in str(section["hx-trigger"])  # a pause shows within two seconds
    scripts = [s["src"] for s in soup.find_all("script", src=True)]
    assert "/static/js/htmx-2.0.11.min.js" in scripts and "/static/js/tv.js" in scripts
    assert soup.find("script", id="words", type="application/json") is not None  # what tv.js says, translated
    assert soup.find(id="tv-sound") is not None, "a visible way to enable sound"
    main = soup.find(id="tv")
    assert isinstance(main, Tag)
    assert main["data-director"] == "false" and not main.has_attr("data-key-url")
    # The moves of the last minute and the announcements come with the clock (one poll), in
    # the band between the clock and the figures.
    assert isinstance(section.find(class_="tv-band"), Tag)
    assert soup.find(attrs={"hx-get": f"/t/{night.id}/tables/tv-moves"}) is None


def test_tv_page_gives_the_director_the_keys(app: Flask, director: Director) -> None:
    night = Night(app, director.client)
    soup = BeautifulSoup(director.get(f"/t/{night.id}/tv").get_data(as_text=True), "html.parser")
    main = soup.find(id="tv")
    assert isinstance(main, Tag)
    assert main["data-director"] == "true"
    assert main["data-key-url"] == f"/t/{night.id}/tv/key"
    assert main["data-csrf"]
    assert soup.select_one(".tv-keys") is not None


def test_the_partial_is_the_htmx_answer_and_cacheable_for_a_second(night: Night) -> None:
    with rendered(night.app) as names:
        response = night.client.get(f"/t/{night.id}/tv/clock", headers=HTMX)
    assert names == ["_tv_clock.html"]
    assert response.headers["Cache-Control"] == "public, max-age=1"
    assert response.get_data(as_text=True).lstrip().startswith("<section id=\"tv-clock\"")


@pytest.mark.parametrize("path", ["tv", "tv/clock", "tv/phone"])
def test_an_unknown_tournament_is_a_404_page(client: FlaskClient, path: str) -> None:
    response = client.get(f"/t/999/{path}")
    assert response.status_code == 404
    assert "no tournament number 999" in response.get_data(as_text=True)


# ---------------------------------------------------------------- the partial in every state


def test_not_started_shows_the_first_level_and_its_full_time(night: Night) -> None:
    section = night.partial()
    assert section["data-status"] == "not_started"
    assert text(section, ".tv-level") == "Level 1"
    assert text(section, "[data-main-time]") == "15:00"
    assert not section.select_one("[data-main-time]").has_attr("data-deadline")  # type: ignore[union-attr]
    assert text(section, ".tv-blinds") == "Blinds 25 / 50"
    assert text(section, ".tv-next") == "Next: 50 / 100"
    assert text(section, ".tv-waiting") == "Starting soon"


def test_running_sends_the_deadline_and_the_servers_time(night: Night) -> None:
    night.clock("start")
    night.wait(125.5)
    section = night.partial()
    assert section["data-status"] == "running"
    assert section["data-key"] == "level-1"
    assert int(section["data-server-now"]) == ms(START + 125.5)  # type: ignore[arg-type]
    assert int(section["data-ends-at"]) == ms(START + 900)  # type: ignore[arg-type]
    main = section.select_one("[data-main-time]")
    assert main is not None and int(main["data-deadline"]) == ms(START + 900)  # type: ignore[arg-type]
    assert main.get_text() == "12:55", "rounded up: 774.5 s left shows 12:55"
    assert section["data-announce"] == "Level 1. Blinds 25, 50."
    assert stat(section, "players") == "10 of 10 entries"
    assert stat(section, "average") == "10,000 200 BB"
    assert stat(section, "chips") == "100,000"
    assert stat(section, "pool") == "200"
    assert stat(section, "break") == "27:55"
    brk = section.select_one(".tv-stat--break dd")
    assert brk is not None and int(brk["data-deadline"]) == ms(START + 1800)  # type: ignore[arg-type]
    assert text(section, ".tv-next") == "Next: 50 / 100"
    assert [li.get_text(" ", strip=True) for li in section.select(".tv-payouts li")] == [
        "1st 100",
        "2nd 60",
        "3rd 40",
    ]


def test_levels_chain_through_time_without_anyone_touching_the_clock(night: Night) -> None:
    night.clock("start")
    night.wait(15 * 60 + 10)
    section = night.partial()
    assert section["data-key"] == "level-2"
    assert text(section, ".tv-blinds") == "Blinds 50 / 100"
    assert int(section["data-ends-at"]) == ms(START + 1800)  # type: ignore[arg-type]
    assert text(section, ".tv-next") == "Next: Break · 10 min"
    assert section.select_one(".tv-next .is-break") is not None


def test_the_last_minute_is_marked(night: Night) -> None:
    night.clock("start")
    night.wait(15 * 60 - 42)
    section = night.partial()
    assert "is-last-minute" in section["class"]
    assert text(section, "[data-main-time]") == "0:42"


def test_paused_says_so_and_stops_the_countdown(night: Night) -> None:
    night.clock("start")
    night.wait(100)
    night.clock("pause")
    night.wait(60)
    section = night.partial()
    assert section["data-status"] == "paused"
    assert section["data-paused"] == "true"
    assert "is-paused" in section["class"]
    assert text(section, ".tv-paused") == "Paused"
    assert not section.has_attr("data-ends-at")
    assert float(section["data-seconds-left"]) == 800.0  # type: ignore[arg-type]
    main = section.select_one("[data-main-time]")
    assert main is not None and not main.has_attr("data-deadline")
    assert main.get_text() == "13:20"
    night.wait(300)
    assert text(night.partial(), "[data-main-time]") == "13:20"


def test_resume_carries_on_from_where_it_paused(night: Night) -> None:
    night.clock("start")
    night.wait(100)
    night.clock("pause")
    night.wait(60)
    night.clock("resume")
    section = night.partial()
    assert section["data-status"] == "running"
    assert int(section["data-ends-at"]) == ms(START + 960)  # type: ignore[arg-type]


def test_break_shows_its_countdown_and_the_colour_up(night: Night) -> None:
    """Seed 002: "The break is also when the smallest chips are exchanged for bigger ones (colour up)."""
    night.clock("start")
    night.wait(30 * 60 + 90)
    section = night.partial()
    assert section["data-status"] == "on_break"
    assert "is-on_break" in section["class"]
    assert text(section, ".tv-level") == "Break"
    assert text(section, "[data-main-time]") == "8:30"
    assert int(section["data-ends-at"]) == ms(START + 40 * 60)  # type: ignore[arg-type]
    assert text(section, ".tv-colour-up") == "Remove the 25 chips"
    assert section["data-announce"] == "Break. Remove the 25 chips."
    assert section.select_one(".tv-blinds") is None
    assert text(section, ".tv-next") == "Next: 100 / 200 · ante 200"


def test_the_level_after_a_break_announces_its_ante(night: Night) -> None:
    night.clock("start")
    night.wait(40 * 60 + 1)
    section = night.partial()
    assert section["data-key"] == "level-3"
    assert text(section, ".tv-blinds") == "Blinds 100 / 200 ante 200"
    assert section["data-announce"] == "Level 3. Blinds 100, 200, ante 200."


def test_add_and_remove_a_minute(night: Night) -> None:
    night.clock("start")
    night.clock("add_time", 60)
    assert int(night.partial()["data-ends-at"]) == ms(START + 960)  # type: ignore[arg-type]
    night.clock("add_time", -120)
    assert int(night.partial()["data-ends-at"]) == ms(START + 840)  # type: ignore[arg-type]


def test_next_and_previous_level_jump_to_a_fresh_level(night: Night) -> None:
    night.clock("start")
    night.wait(200)
    night.clock("next_level")
    section = night.partial()
    assert section["data-key"] == "level-2"
    assert int(section["data-ends-at"]) == ms(night.now + 900)  # type: ignore[arg-type]
    night.wait(50)
    night.clock("previous_level")
    section = night.partial()
    assert section["data-key"] == "level-1"
    assert text(section, "[data-main-time]") == "15:00"


def test_next_level_from_a_break_starts_the_level_after_it(night: Night) -> None:
    night.clock("start")
    night.wait(31 * 60)
    night.clock("next_level")
    assert night.partial()["data-key"] == "level-3"


def test_finished_names_the_winner(night: Night) -> None:
    night = Night(night.app, night.client, players=3)
    night.clock("start")
    night.wait(60)
    night.bust("Cid")
    night.bust("Bob")
    section = night.partial()
    assert section["data-status"] == "finished"
    assert section["data-key"] == "finished"
    assert text(section, ".tv-level") == "Finished"
    assert section["data-announce"] == "The tournament is over. Ann wins."
    assert text(section, ".tv-headline") == "Ann wins"
    assert section.select_one("[data-main-time]") is None
    assert not section.has_attr("data-ends-at")


def test_hand_counted_structures_show_hands_left_instead_of_minutes(app: Flask, client: FlaskClient) -> None:
    """Seed 000: "The blinds start at 10/20 and go up every 6 hands"."""
    night = Night(app, client, preset="sng-1000", players=6)
    night.clock("start")
    for _ in range(4):
        night.wait(90)
        night.clock("hand_played")
    section = night.partial()
    assert section["data-key"] == "level-1"
    assert text(section, ".tv-time--hands") == "2 hands left"
    assert section.select_one("[data-deadline][data-main-time]") is None
    assert text(section, ".tv-blinds") == "Blinds 10 / 20"
    assert stat(section, "hands") == "4 cap 120"
    for _ in range(2):
        night.clock("hand_played")
    section = night.partial()
    assert section["data-key"] == "level-2"
    assert text(section, ".tv-time--hands") == "6 hands left"
    assert text(section, ".tv-blinds") == "Blinds 15 / 30"


def test_seed_000_at_the_hand_cap_the_game_is_over_then_ranked_by_chips(app: Flask, client: FlaskClient) -> None:
    """Seed 000: "If after 120 hands ... nobody has won, the game ends and the players still in
    are ranked by chips". At the cap the TV says so, with no countdown and no next level; once
    the chips are entered, the winner and the places as for any end."""
    night = Night(app, client, preset="sng-1000", players=3)
    night.clock("start")
    for _ in range(120):
        night.clock("hand_played")
    section = night.partial()
    assert section["data-status"] == "finished" and section["data-key"] == "hand-cap"
    assert text(section, ".tv-level") == "Game over"
    assert text(section, ".tv-headline") == "Hand cap reached"
    assert text(section, ".tv-flags") == "Hand cap reached: the players still in are ranked by chips"
    for gone in ("[data-main-time]", ".tv-next", ".tv-blinds"):
        assert section.select_one(gone) is None, gone
    assert not section.has_attr("data-ends-at") and not section.has_attr("data-after-key")
    assert stat(section, "hands") == "120 cap 120"
    ids = {p.name: p.id for p in night.state().players}
    night.record("hand_cap", {"stacks": {str(ids["Ann"]): 500, str(ids["Bob"]): 1500, str(ids["Cid"]): 1000}})
    section = night.partial()
    assert section["data-key"] == "finished" and text(section, ".tv-headline") == "Bob wins"
    assert stat(section, "players") == "3 of 3 entries" and text(section, ".tv-stat--players dt") == "Ranked by chips"
    assert [text(li, ".tv-payout-who") for li in section.select(".tv-payouts li")] == ["Bob", "Cid", "Ann"][
        : len(section.select(".tv-payouts li"))
    ]
    assert text(section, ".tv-flags") == "Ended at the 120-hand cap: places by chips"


# ---------------------------------------------------------------- the money and the flags


def test_the_bubble_and_then_in_the_money(night: Night) -> None:
    """TDA 2.7 (RP-8): the bubble is one player before the paid places; then everyone left is paid."""
    night.clock("start")
    night.wait(60)
    assert len(night.state().prizes) == 3
    night.bust("Jo")
    night.bust("Ivy")
    night.bust("Hal")
    night.bust("Gus")
    night.bust("Fay")
    section = night.partial()
    assert text(section, ".tv-flags") == ""  # 5 left, 3 paid
    night.bust("Eve")
    assert text(night.partial(), ".tv-flag--bubble") == "One more out and everyone is paid"
    night.bust("Dee")
    section = night.partial()
    assert text(section, ".tv-flag--itm") == "In the money"
    assert section.select_one(".tv-flag--bubble") is None


def test_winner_takes_all_has_no_bubble(app: Flask, client: FlaskClient) -> None:
    night = Night(app, client, players=4)
    night.clock("start")
    assert len(night.state().prizes) == 1
    night.bust("Dee")
    night.bust("Cid")
    assert night.partial().select_one(".tv-flags") is None


def test_hand_for_hand_is_shown(night: Night) -> None:
    """TDA 2.7 (RP-8): on the bubble, the tables play hand for hand."""
    night.clock("start")
    night.record("hand_for_hand", {"on": True})
    assert text(night.partial(), ".tv-flag--h4h") == "Hand for hand"
    night.record("hand_for_hand", {"on": False})
    assert night.partial().select_one(".tv-flag--h4h") is None


def test_the_director_turns_hand_for_hand_on_and_off(app: Flask, director: Director) -> None:
    night = Night(app, director.client)
    night.clock("start")
    response = director.post(f"/t/{night.id}/tv/hand-for-hand", {"on": "true"}, htmx=True)
    assert response.status_code == 200
    assert night.state().hand_for_hand is True
    button = BeautifulSoup(response.get_data(as_text=True), "html.parser").find("button", attrs={"aria-pressed": "true"})
    assert button is not None
    assert director.post(f"/t/{night.id}/tv/hand-for-hand", {"on": "false"}, htmx=True).status_code == 200
    assert night.state().hand_for_hand is False
    response = director.post(f"/t/{night.id}/tv/hand-for-hand", {"on": "false"}, htmx=True)
    assert response.status_code == 422
    assert "already off" in response.get_data(as_text=True)


def test_the_director_counts_the_hand_for_hand_hands(app: Flask, director: Director) -> None:
    """TDA 3.4: busts at different tables on the same hand-for-hand hand share; at tables
    without the dealer's assistant the director says when the next hand begins."""
    night = Night(app, director.client)
    night.clock("start")
    response = director.post(f"/t/{night.id}/tv/hand-for-hand", {"next": "true"}, htmx=True)
    assert response.status_code == 422 and "Hand for hand is off" in response.get_data(as_text=True)
    director.post(f"/t/{night.id}/tv/hand-for-hand", {"on": "true"}, htmx=True)
    response = director.post(f"/t/{night.id}/tv/hand-for-hand", {"next": "true"}, htmx=True)
    assert response.status_code == 200 and night.state().h4h_hand == 1
    assert "Next hand-for-hand hand (2)" in response.get_data(as_text=True)
    response = director.api("POST", f"/api/t/{night.id}/hand-for-hand", json={"next": True})
    assert response.status_code == 201 and night.state().h4h_hand == 2


def test_a_points_league_shows_points_not_a_prize_pool(app: Flask, client: FlaskClient) -> None:
    night = Night(app, client, payout_kind="points")
    section = night.partial()
    assert section.select_one(".tv-stat--pool") is None
    assert section.select_one(".tv-payouts")["aria-label"] == "League points"  # type: ignore[index]
    assert text(section, ".tv-payouts li") == "1st 10 pts"


# ---------------------------------------------------------------- put on the clock


def test_put_on_the_clock_shows_a_one_minute_overlay(app: Flask, director: Director) -> None:
    """Seed 002: "If someone takes too long, the table can put them on the clock – a minute, say"."""
    night = Night(app, director.client)
    night.clock("start")
    response = director.post(f"/t/{night.id}/tv/action-clock", {"who": "Seat 4 · Dana"}, htmx=True)
    assert response.status_code == 200
    assert response.headers["HX-Trigger"] == "tournament-changed"
    controls = BeautifulSoup(response.get_data(as_text=True), "html.parser")
    assert "Seat 4 · Dana is on the clock" in controls.get_text(" ")
    assert controls.find("button", string="They acted: stop the clock") is not None
    section = night.partial()
    overlay = section.select_one(".tv-action")
    assert overlay is not None
    assert text(overlay, ".tv-action-who") == "Seat 4 · Dana"
    assert int(overlay["data-action-deadline"]) == ms(night.now + 60)  # type: ignore[arg-type]
    assert text(overlay, ".tv-action-time") == "60"
    night.wait(45.5)
    assert text(night.partial(), ".tv-action-time") == "15"
    night.wait(30)  # past the end and the few seconds of "time!"
    assert night.partial().select_one(".tv-action") is None


def test_the_action_clock_can_be_stopped_and_timed(app: Flask, director: Director) -> None:
    night = Night(app, director.client)
    night.clock("start")
    director.post(f"/t/{night.id}/tv/action-clock", {"who": "Seat 2", "seconds": "30"}, htmx=True)
    overlay = night.partial().select_one(".tv-action")
    assert overlay is not None and int(overlay["data-action-deadline"]) == ms(night.now + 30)  # type: ignore[arg-type]
    assert director.post(f"/t/{night.id}/tv/action-clock/stop", htmx=True).status_code == 200
    assert night.partial().select_one(".tv-action") is None
    response = director.post(f"/t/{night.id}/tv/action-clock/stop", htmx=True)
    assert response.status_code == 422
    assert "Nobody is on the clock." in response.get_data(as_text=True)


def test_the_action_clock_needs_a_name(app: Flask, director: Director) -> None:
    night = Night(app, director.client)
    response = director.post(f"/t/{night.id}/tv/action-clock", {"who": " "}, htmx=True)
    assert response.status_code == 422
    assert "seat or player" in response.get_data(as_text=True)
    assert night.partial().select_one(".tv-action") is None


def test_the_action_clock_from_a_plain_form_and_from_json(app: Flask, director: Director) -> None:
    night = Night(app, director.client)
    response = director.post(f"/t/{night.id}/tv/action-clock", {"who": "Seat 7"})
    assert response.status_code == 303
    assert response.headers["Location"].endswith(f"/t/{night.id}")
    assert night.state().action_clock.who == "Seat 7"
    response = director.api("POST", f"/t/{night.id}/tv/action-clock/stop", json={})
    assert response.status_code == 200 and response.get_json() == {"ok": True}
    response = director.api("POST", f"/t/{night.id}/tv/action-clock/stop", json={})
    assert response.status_code == 422 and response.get_json() == {"error": "Nobody is on the clock."}


def test_the_dashboard_offers_the_tv_controls_to_the_director(app: Flask, director: Director) -> None:
    night = Night(app, director.client)
    night.clock("start")
    soup = BeautifulSoup(director.get(f"/t/{night.id}").get_data(as_text=True), "html.parser")
    controls = soup.find(id="tv-controls")
    assert isinstance(controls, Tag)
    assert controls.find("input", attrs={"name": "who"}) is not None
    assert controls.find("a", href=f"/t/{night.id}/tv") is not None


def test_a_stale_action_clock_write_is_refused(app: Flask, director: Director) -> None:
    night = Night(app, director.client)
    seq = night.state().seq
    night.clock("start")
    response = director.post(f"/t/{night.id}/tv/action-clock", {"who": "Seat 1", "expected_seq": seq}, htmx=True)
    assert response.status_code == 409
    assert night.state().action_clock is None


def test_only_the_director_puts_a_player_on_the_clock(night: Night) -> None:
    response = night.client.post(f"/t/{night.id}/tv/action-clock", data={"who": "Seat 4"})
    assert response.status_code in (302, 400, 401, 403)
    assert night.state().action_clock is None


# ---------------------------------------------------------------- the director's keys


@pytest.mark.parametrize(
    ("keys", "status", "ends_at"),
    [
        (["pause"], "paused", None),
        (["pause", "resume"], "running", START + 900),
        (["next"], "running", START + 900),
        (["add_minute", "add_minute", "add_minute"], "running", START + 900 + 180),
        (["remove_minute"], "running", START + 840),
    ],
)
def test_the_tv_keys_drive_the_clock(
    app: Flask, director: Director, keys: list[str], status: str, ends_at: float | None
) -> None:
    night = Night(app, director.client)
    night.clock("start")
    for key in keys:
        response = director.post(f"/t/{night.id}/tv/key", {"action": key})
        assert response.status_code == 200, response.get_data(as_text=True)
        assert response.get_json() == {"ok": True, "action": key}
    section = night.partial()
    assert section["data-status"] == status
    assert (int(section["data-ends-at"]) if section.has_attr("data-ends-at") else None) == (  # type: ignore[arg-type]
        None if ends_at is None else ms(ends_at)
    )
    if keys == ["next"]:
        assert section["data-key"] == "level-2"


def test_a_key_that_cannot_act_answers_the_reason(app: Flask, director: Director) -> None:
    night = Night(app, director.client)
    night.clock("start")
    response = director.post(f"/t/{night.id}/tv/key", {"action": "resume"})
    assert response.status_code == 422
    assert response.get_json() == {"error": "The clock is running: there is nothing to resume."}
    response = director.post(f"/t/{night.id}/tv/key", {"action": "explode"})
    assert response.status_code == 422
    assert "Unknown key action 'explode'" in response.get_data(as_text=True)


def test_space_starts_the_clock_before_the_first_level(app: Flask, director: Director) -> None:
    night = Night(app, director.client)
    assert director.post(f"/t/{night.id}/tv/key", {"action": "start"}).status_code == 200
    assert night.partial()["data-status"] == "running"


def test_keys_need_the_director(night: Night) -> None:
    night.clock("start")
    response = night.client.post(f"/t/{night.id}/tv/key", data={"action": "pause"})
    assert response.status_code in (302, 400, 401, 403)
    assert night.partial()["data-status"] == "running"


# ---------------------------------------------------------------- the render cache


def test_a_new_event_shows_on_the_next_poll_even_within_the_cached_second(night: Night) -> None:
    night.clock("start")
    assert night.partial()["data-status"] == "running"
    night.clock("pause")  # same instant: only the event changed
    assert night.partial()["data-status"] == "paused"


def test_a_cached_answer_carries_a_fresh_server_time_in_its_header(night: Night) -> None:
    """The polls' cache keeps the clock for a second at most; the server's time that every
    screen counts from is fresh in each answer's header, a 304 too."""
    night.clock("start")
    night.wait(10)
    path = f"/t/{night.id}/tv/clock"
    first = night.client.get(path, headers=HTMX)
    assert int(first.headers["X-Server-Now"]) == ms(START + 10)
    night.wait(0.4)
    second = night.client.get(path, headers=HTMX)
    assert second.get_data() == first.get_data() and second.headers["ETag"] == first.headers["ETag"]
    assert int(second.headers["X-Server-Now"]) == ms(START + 10.4)
    night.wait(0.4)
    third = night.client.get(path, headers={**HTMX, "If-None-Match": first.headers["ETag"]})
    assert third.status_code == 304 and third.get_data() == b""
    assert int(third.headers["X-Server-Now"]) == ms(START + 10.8)
    night.clock("pause")  # an event: the next poll is the new clock, whatever the screen holds
    fourth = night.client.get(path, headers={**HTMX, "If-None-Match": first.headers["ETag"]})
    assert fourth.status_code == 200 and 'data-status="paused"' in fourth.get_data(as_text=True)


def test_a_cached_answer_never_outlives_its_level(night: Night) -> None:
    night.clock("start")
    night.wait(15 * 60 - 0.3)
    assert night.partial()["data-key"] == "level-1"
    night.wait(0.5)
    assert night.partial()["data-key"] == "level-2"


def test_the_cache_expires_after_a_second(night: Night) -> None:
    night.clock("start")
    night.wait(10)
    assert text(night.partial(), "[data-main-time]") == "14:50"
    night.wait(1.5)
    assert text(night.partial(), "[data-main-time]") == "14:49"


# ---------------------------------------------------------------- the phone clock


def test_the_phone_clock_partial_and_its_page(night: Night) -> None:
    night.clock("start")
    with rendered(night.app) as names:
        section = night.partial("phone")
    assert names == ["_tv_clock_phone.html"]
    assert "tv-clock--phone" in section["class"]
    assert section["hx-get"] == f"/t/{night.id}/tv/phone"
    assert section.select_one(".tv-stat--chips") is None  # fewer figures on a phone
    assert stat(section, "players") == "10 of 10 entries"
    response = night.client.get(f"/t/{night.id}/tv/phone")
    assert response.status_code == 200
    soup = BeautifulSoup(response.get_data(as_text=True), "html.parser")
    assert soup.select_one("#tv-clock.tv-clock--phone") is not None
    assert soup.find("a", href=f"/t/{night.id}/tv") is not None


def test_phone_clock_helper_for_other_pages(night: Night) -> None:
    with night.app.test_request_context():
        view = director.screens.tv.phone_clock(night.id)
    assert view.poll_url == f"/t/{night.id}/tv/phone"
    assert view.name == "Friday Night"


# ---------------------------------------------------------------- the clock behind it


def test_the_tv_reads_the_same_clock_as_the_dashboard(night: Night) -> None:
    night.clock("start")
    night.wait(100)
    night.clock("next_level")
    state = night.state()
    assert tournament_clock(state, night.now) == state.clock_at(night.now)
    assert tournament_clock(state, night.now).level_number == 2


def test_a_five_hour_night_is_exact_to_the_millisecond(night: Night) -> None:
    """The issue: "correct to the second for five hours" — the deadline is a sum, never a drift."""
    structure = Structure("Long", (Level(100, 200, minutes=20),), 10_000, repeat_doubling=True)
    night = Night(night.app, night.client, structure=structure_to_dict(structure))
    night.clock("start")
    night.wait(5 * 3600 + 0.25)
    section = night.partial()
    assert section["data-key"] == "level-16"
    assert int(section["data-ends-at"]) == ms(START + 16 * 20 * 60)  # type: ignore[arg-type]
    assert text(section, "[data-main-time]") == format_clock(20 * 60 - 0.25) == "20:00"


@given(st.floats(min_value=0, max_value=48 * 3600, allow_nan=False))
def test_the_time_shown_is_the_time_left_rounded_up(seconds: float) -> None:
    """0:00 appears only when the time is up; until then the display never runs ahead."""
    parts = [int(p) for p in format_clock(seconds).split(":")]
    shown = 0
    for part in parts:
        shown = shown * 60 + part
    assert seconds - 1e-9 <= shown < seconds + 1
    assert (shown == 0) == (seconds <= 1e-9)
    assert all(0 <= p < 60 for p in parts[1:])


def test_tv_doctests() -> None:
    modules = (director.screens.tv, director.screens.clock_view, director.screens.clock_panels,
               director.screens.clock_words)
    results = [doctest.testmod(module) for module in modules]
    assert all(r.failed == 0 for r in results)
    assert results[-1].attempted > 0  # clock_words: the time shown, rounded up


# ---------------------------------------------------------------- sounds


def load_sound_maker() -> Any:
    spec = importlib.util.spec_from_file_location("make_sounds", ROOT / "tools" / "make_sounds.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_chimes_are_ours_and_up_to_date() -> None:
    """The shipped WAV files are exactly what tools/make_sounds.py synthesises."""
    made = load_sound_maker().build()
    assert set(made) == {"one-minute.wav", "level-change.wav", "action-clock.wav", "time-up.wav"}
    for name, data in made.items():
        assert (ROOT / "static" / "sounds" / name).read_bytes() == data, f"run tools/make_sounds.py ({name})"


@pytest.mark.parametrize("name", ["one-minute.wav", "level-change.wav", "action-clock.wav", "time-up.wav"])
def test_each_chime_is_short_small_and_loud_enough(name: str) -> None:
    data = (ROOT / "static" / "sounds" / name).read_bytes()
    assert len(data) < 64 * 1024
    with wave.open(io.BytesIO(data)) as sound:
        assert (sound.getnchannels(), sound.getsampwidth(), sound.getframerate()) == (1, 2, 16_000)
        frames = sound.readframes(sound.getnframes())
        assert 0.2 < sound.getnframes() / 16_000 < 2.0
    samples = memoryview(frames).cast("h")
    peak = max(abs(s) for s in samples)
    assert 0.5 * 32767 < peak < 32767  # loud, never clipped
    assert abs(samples[-1]) < 200, "fades out: no click at the end"


def test_the_two_chimes_differ() -> None:
    one = (ROOT / "static" / "sounds" / "one-minute.wav").read_bytes()
    level = (ROOT / "static" / "sounds" / "level-change.wav").read_bytes()
    assert one != level


# ---------------------------------------------------------------- the JSON API


def test_the_api_puts_a_player_on_the_clock_and_goes_hand_for_hand(app: Flask, director: Director) -> None:
    night = Night(app, director.client)
    night.clock("start")
    response = director.api("POST", f"/api/t/{night.id}/action-clock", json={"action": "start", "who": "Seat 3", "seconds": 30})
    assert response.status_code == 201, response.get_json()
    assert night.state().action_clock.seconds == 30
    response = director.api("POST", f"/api/t/{night.id}/action-clock", json={"action": "stop"})
    assert response.status_code == 201
    assert night.state().action_clock is None
    response = director.api("POST", f"/api/t/{night.id}/action-clock", json={"action": "stop"})
    assert response.status_code == 422 and response.get_json() == {"error": "Nobody is on the clock."}
    response = director.api("POST", f"/api/t/{night.id}/hand-for-hand", json={"on": True})
    assert response.status_code == 201
    assert night.state().hand_for_hand is True
    response = director.api("POST", f"/api/t/{night.id}/hand-for-hand", json={"on": "yes"})
    assert response.status_code == 422
    assert response.get_json() == {"error": "Say whether hand for hand is on: true or false."}


def test_the_api_needs_the_director(night: Night) -> None:
    response = night.client.post(f"/api/t/{night.id}/hand-for-hand", json={"on": True})
    assert response.status_code in (400, 401)
    assert night.state().hand_for_hand is False


def test_the_tv_api_routes_are_in_the_openapi_document(client: FlaskClient) -> None:
    paths = client.get("/api/openapi.json").get_json()["paths"]
    assert "post" in paths["/api/t/{tournament_id}/action-clock"]
    assert "post" in paths["/api/t/{tournament_id}/hand-for-hand"]


def test_a_finished_tournament_names_who_won_each_prize(night: Night) -> None:
    """Once it is over the TV names the prize winners instead of striking the places out."""
    night = Night(night.app, night.client, players=8)
    night.clock("start")
    for name in ("Hal", "Gus", "Fay", "Eve", "Dee", "Cid", "Bob"):
        night.bust(name)
    places = night.partial().select(".tv-payouts li")
    assert places and not any("is-paid" in (li.get("class") or []) for li in places)
    assert places[0].select_one(".tv-payout-who").get_text() == "Ann"
    assert places[1].select_one(".tv-payout-who").get_text() == "Bob"


def test_the_side_shows_the_next_three_levels_and_the_structure(night: Night) -> None:
    night.clock("start")
    section = night.partial()
    rows = [" ".join(li.get_text(" ").split()) for li in section.select(".tv-panel--next_levels li")]
    assert rows == ["Level 2 50 / 100 15 min", "Break Remove the 25 chips 10 min", "Level 3 100 / 200 · ante 200 15 min"]
    picture = section.select_one(".tv-panel--chart img")
    assert picture is not None and picture["src"].startswith(f"/t/{night.id}/tv/structure.svg?v=")
    svg = night.client.get(picture["src"])
    assert svg.mimetype == "image/svg+xml" and b"<svg" in svg.data and "max-age=86400" in svg.headers["Cache-Control"]


def test_the_hand_for_hand_board_lists_the_tables(night: Night) -> None:
    """TDA RP-8: hand for hand, each table waits for the others; the board shows which."""
    import random

    with night.app.app_context():
        draw(get_db(), night.id, None, night.now, rng=random.Random(1))
    night.clock("start")
    assert night.partial().select(".tv-panel--board li") == []
    night.record("hand_for_hand", {"on": True})
    rows = [" ".join(li.get_text(" ").split()) for li in night.partial().select(".tv-panel--board li")]
    assert rows == ["Table 1 no dealer's phone", "Table 2 no dealer's phone"]


def test_the_season_is_shown_before_the_tournament_starts(app: Flask, client: FlaskClient) -> None:
    from director.club import seasons

    night = Night(app, client, players=4)
    earlier = Night(app, client, players=4)
    with app.test_request_context():
        db = get_db()
        season_id, _ = seasons.save(db, {"name": "Winter league", "formula": "table"}, START)
        earlier.clock("start")
        for name in ("Dee", "Cid", "Bob"):
            earlier.bust(name)
        seasons.add_night(db, season_id, earlier.id, False)
        seasons.add_night(db, season_id, night.id, False)
    section = night.partial()
    panel = section.select_one(".tv-panel--season")
    assert panel is not None and text(panel, "h2") == "Winter league"
    first = panel.select("li")[0]
    assert " ".join(first.get_text(" ").split()).startswith("1 Ann")
    night.clock("start")
    assert night.partial().select_one(".tv-panel--season") is None, "not while it is played"


def test_the_poll_is_gzipped_for_a_browser_that_takes_it(night: Night) -> None:
    plain = night.client.get(f"/t/{night.id}/tv/clock")
    packed = night.client.get(f"/t/{night.id}/tv/clock", headers={"Accept-Encoding": "gzip, deflate"})
    assert "Content-Encoding" not in plain.headers
    assert packed.headers["Content-Encoding"] == "gzip" and "Accept-Encoding" in packed.headers["Vary"]
    assert len(packed.data) < len(plain.data) / 2
    import gzip

    body = gzip.decompress(packed.data).decode()
    assert body.split("data-server-now=")[0] == plain.get_data(as_text=True).split("data-server-now=")[0]
