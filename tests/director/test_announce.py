"""The TV's announcements: each moment of the night in large type, in its window, with what
the voice says. Read from the clock partial as a TV gets it (tv.js shows each one between its
``data-from`` and ``data-until``)."""

from __future__ import annotations

import pytest
from bs4 import Tag
from flask import Flask
from flask.testing import FlaskClient

from .test_tv import Night, ms, text


@pytest.fixture
def night(app: Flask, client: FlaskClient) -> Night:
    return Night(app, client)


def announced(section: Tag) -> dict[str, Tag]:
    return {str(a["data-announce-id"]): a for a in section.select("[data-announce-id]")}


def words(tag: Tag) -> str:
    return " ".join(tag.get_text(" ").split())


def test_the_start_of_a_level_is_announced_for_twenty_seconds(night: Night) -> None:
    night.clock("start")
    started = night.now
    found = announced(night.partial())
    assert words(found["level-1"].select_one(".tv-announce-text")) == "Shuffle up and deal: 25 / 50"
    assert found["level-1"]["data-from"] == str(ms(started))
    assert found["level-1"]["data-until"] == str(ms(started + 20))
    assert found["level-1"].has_attr("hidden"), "tv.js shows it in its window"
    night.wait(21)
    assert "level-1" not in announced(night.partial())


def test_one_minute_left_is_sent_ahead_and_shown_on_time(night: Night) -> None:
    """Sent while the minute is still to come, so a TV that loses the server still shows it."""
    night.clock("start")
    ends = night.now + 15 * 60
    night.wait(13 * 60)  # two minutes left: not yet open, but within the look-ahead
    minute = announced(night.partial())["minute-level-1"]
    assert minute["data-from"] == str(ms(ends - 60)) and minute["data-until"] == str(ms(ends))
    assert words(minute) == "One minute left in level 1 Then 50 / 100"
    assert minute["data-say"] == "One minute left in level 1."


def test_after_a_break_play_resumes_with_the_new_level(night: Night) -> None:
    night.clock("start")
    night.wait(30 * 60 + 1)  # levels 1 and 2 done: the break with its colour-up
    brk = announced(night.partial())["break-before-3"]
    assert words(brk) == "Break: 10 minutes Colour up: remove the 25 chips"
    night.wait(10 * 60)
    level = announced(night.partial())["level-3"]
    assert words(level.select_one(".tv-announce-text")) == "Play resumes: level 3, 100 / 200 · ante 200"


def test_rebuys_and_the_add_on_are_announced_and_shown_while_open(app: Flask, client: FlaskClient) -> None:
    tonight = Night(app, client, rebuy_levels=2, rebuy_cost=20, rebuy_chips=10_000, addon_level=2, addon_cost=20,
                  addon_chips=10_000)
    tonight.clock("start")
    section = tonight.partial()
    assert words(announced(section)["level-1"].select_one(".tv-announce-sub")) == \
        "Rebuys are open until the end of level 2"
    assert text(section, ".tv-flag--money") == "Rebuys open until the end of level 2"
    tonight.wait(15 * 60 + 1)
    section = tonight.partial()
    assert words(announced(section)["level-2"].select_one(".tv-announce-sub")) == \
        "Last level of rebuys · The add-on is open"
    assert [words(f) for f in section.select(".tv-flag--money")] == ["Last level of rebuys", "Add-on open"]
    assert section["data-announce"] == "Level 2. Blinds 50, 100. Last level of rebuys. The add-on is open."
    tonight.wait(15 * 60)  # the break after level 2: the add-on's break
    section = tonight.partial()
    assert "The add-on is open until play resumes" in words(announced(section)["break-before-3"])
    assert [words(f) for f in section.select(".tv-flag--money")] == [
        "Last chance to rebuy: until play resumes", "Add-on open until play resumes"]
    assert section["data-announce"].endswith("The add-on is open until play resumes.")
    tonight.wait(10 * 60)
    section = tonight.partial()
    assert words(announced(section)["level-3"].select_one(".tv-announce-sub")) == \
        "Rebuys are closed · The add-on is closed"
    assert section.select(".tv-flag--money") == []


def test_late_registration_closing_is_announced(app: Flask, client: FlaskClient) -> None:
    tonight = Night(app, client, late_registration_levels=2)
    tonight.clock("start")
    tonight.wait(15 * 60 + 1)
    section = tonight.partial()
    assert words(announced(section)["level-2"].select_one(".tv-announce-sub")) == \
        "Late registration closes at the end of this level"
    tonight.wait(13 * 60)
    assert announced(tonight.partial())["minute-level-2"]["data-say"] == \
        "One minute left in level 2. Last minute of late registration."


def test_the_field_bubble_money_heads_up_and_winner(night: Night) -> None:
    """TDA 2.7 (RP-8) names the bubble; the app announces it, the money, heads-up and the winner."""
    night.clock("start")
    night.wait(60)
    for name in ("Jo", "Ivy", "Hal", "Gus", "Fay"):
        night.bust(name)
    assert not any(k.startswith("bubble") for k in announced(night.partial()))
    night.wait(5)
    night.bust("Eve")
    bubble = announced(night.partial())["bubble-4"]
    assert words(bubble) == "The bubble One more out and everyone left is paid"
    assert bubble["data-from"] == str(ms(night.now)) and bubble["data-sound"] == "level-change"
    assert bubble["data-say"] == "We are on the bubble. One more out and everyone left is paid."
    night.wait(5)
    night.bust("Dee")
    found = announced(night.partial())
    assert "bubble-4" not in found
    assert words(found["itm"]) == "In the money Everyone left wins a prize: 3 players paid"
    night.wait(5)
    night.bust("Cid")
    heads_up = [a for k, a in announced(night.partial()).items() if k.startswith("heads-up")]
    assert len(heads_up) == 1 and words(heads_up[0]) == "Heads-up Ann against Bob"
    night.wait(5)
    night.bust("Bob")
    winner = announced(night.partial())["winner"]
    assert words(winner) == "Ann wins the tournament Congratulations!"
    assert winner["data-say"] == "Ann wins the tournament."
    night.wait(121)
    assert "winner" not in announced(night.partial())


def test_the_final_table_is_announced_when_the_field_fits_one_table(app: Flask, client: FlaskClient) -> None:
    tonight = Night(app, client, table_size=9)
    tonight.clock("start")
    tonight.wait(60)
    tonight.bust("Jo")
    final = announced(tonight.partial())["final-table"]
    assert words(final) == "The final table 9 players"
    assert final["data-say"] == "The final table. 9 players."


def test_nothing_is_announced_before_the_start_or_while_paused(night: Night) -> None:
    assert announced(night.partial()) == {}
    night.clock("start")
    night.wait(5)
    night.clock("pause")
    assert announced(night.partial()) == {}


def test_the_final_tables_redraw_is_announced_with_its_seats(app: Flask, client: FlaskClient) -> None:
    tonight = Night(app, client, table_size=9)
    ids = {p.name: p.id for p in tonight.state().players}
    tonight.record("seats_drawn", {"seats": {str(pid): [1 + i % 2, 1 + i // 2] for i, pid in enumerate(ids.values())},
                                   "buttons": {"1": 1, "2": 1}})
    tonight.clock("start")
    tonight.wait(60)
    tonight.bust("Jo")
    tonight.wait(5)
    left = [p for p in tonight.state().alive]
    tonight.record("seats_drawn", {"kind": "final", "seats": {str(p.id): [1, i + 1] for i, p in enumerate(left)},
                                   "buttons": {"1": 1}})
    section = tonight.partial()
    final = announced(section)["final-table"]
    assert words(final.select_one(".tv-announce-text")) == "The final table"
    assert words(final.select_one(".tv-announce-sub")) == " · ".join(f"{p.name} seat {i + 1}" for i, p in enumerate(left))
    assert final["data-say"] == "The final table. 9 players."
    assert section.select(".tv-move") == [], "the seats are in the announcement, not nine moves besides"


def test_the_first_level_is_announced_in_the_apps_language(night: Night) -> None:
    """Issue 31: "Shuffle up and deal: 25 / 50" stayed English on a French TV."""
    from director.core.commands import run
    from director.core.db import get_db
    from director.core.languages import LanguageIn, language_command

    with night.app.test_request_context():
        run(language_command, LanguageIn(language="fr"), db=get_db(), now=night.now)
    night.clock("start")
    found = announced(night.partial())
    assert words(found["level-1"].select_one(".tv-announce-text")) == "Mélangez, on distribue : 25 / 50"
