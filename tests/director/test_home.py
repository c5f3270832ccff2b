"""Home: tournaments in play come first, then those to come, then finished ones."""

from __future__ import annotations

from tests.director.conftest import Director, new_tournament, soup


def test_home_lists_the_tournaments_in_play_first(director: Director) -> None:
    new_tournament(director, ["Ann", "Bob", "Cy"], start=True, name="Playing")
    finished = new_tournament(director, ["Dee", "Eve"], start=True, name="Finished")
    director.api("POST", f"/api/t/{finished}/bust", {"player": 2})
    new_tournament(director, ["Fay"], name="Coming")
    items = soup(director.get("/")).find(id="tournaments").find_all("li")
    assert [i.find("strong").text for i in items] == ["Playing", "Coming", "Finished"]
    assert items[0].find(class_="status")["class"] == ["status", "status-playing"]
    assert items[2].find(class_="status").text == "Finished · won by Dee"
