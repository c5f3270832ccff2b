"""Make a small data folder with one of the earliest poker-director versions (those of the first
days: no command ids, and for the very first no players' database, seasons or backup yet).

Run with the version under test first on ``PYTHONPATH`` (see each folder's ``NOTE.md``)::

    poker-director demo --data OUT
    python tests/upgrade/make_early_data_folder.py OUT

It drives that version's own JSON API with what the version offers, found from its routes:
the director's password; a tournament with four players, a rebuy, busts with who knocked
whom out, and a deal between the last two where the version has deals (else a last bust); a
cash night with a club member seated; where the version has them, two people and a season
holding the night. It writes what the API answered into ``OUT/expected.json`` (the shapes
``make_data_folder.py`` keeps, with each cash night and each player's phone link too) and
leaves the database as one file (no ``-wal`` or ``-shm``). A version without the players'
database answered no people: ``expected.json`` holds the names it remembered from its nights
(every player's, no nickname, no note), which is what a later version finds as its people.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from make_data_folder import PASSWORD, cash_night, one_file, person, season_summary, tournament


def main(out: Path) -> None:
    import director
    from director import create_app

    print(f"poker-director from {Path(director.__file__).parent}")
    app = create_app({"TESTING": True}, instance_path=out)
    routes = {rule.rule for rule in app.url_map.iter_rules()}
    client = app.test_client()
    token = ""

    def call(method: str, path: str, body: Any = None, status: int = 200) -> Any:
        response = client.open(path, method=method, json=body, headers={"X-CSRFToken": token})
        assert response.status_code == status, (path, response.status_code, response.get_data(as_text=True))
        return response.get_json()

    token = call("GET", "/api/session")["csrf_token"]
    token = call("POST", "/api/setup-password", {"password": PASSWORD}, 201)["csrf_token"]
    night = call("POST", "/api/tournaments", {"name": "League night 1", "preset": "home-short", "buy_in": 20,
                                              "rebuy_levels": 2, "max_rebuys": 1}, 201)
    tid = night["id"]
    seq = night["seq"]
    for name in ("Ann Archer", "Bob Baker", "Cid Carter", "Dee Dalton"):
        seq = call("POST", f"/api/t/{tid}/players", {"name": name, "expected_seq": seq}, 201)["seq"]
    seq = call("POST", f"/api/t/{tid}/clock/start", {"expected_seq": seq}, 201)["seq"]
    players = {p["name"]: p["id"] for p in call("GET", f"/api/t/{tid}")["players"]}

    def bust(out: str, by: str) -> int:
        return int(call("POST", f"/api/t/{tid}/bust", {"player": players[out], "by": players[by],
                                                       "expected_seq": seq}, 201)["seq"])

    seq = bust("Dee Dalton", "Ann Archer")
    seq = call("POST", f"/api/t/{tid}/players/{players['Dee Dalton']}/rebuy", {"expected_seq": seq}, 201)["seq"]
    seq = call("POST", f"/api/t/{tid}/rebuys/close", {"expected_seq": seq}, 201)["seq"]
    seq = bust("Dee Dalton", "Ann Archer")
    seq = bust("Cid Carter", "Bob Baker")
    if "/api/t/<int:tournament_id>/deal" in routes:  # the last two agree a deal: ranked by chips, the night ends
        stacks = {str(players["Ann Archer"]): 30000, str(players["Bob Baker"]): 20000}
        seq = call("POST", f"/api/t/{tid}/deal", {"method": "chip_chop", "stacks": stacks,
                                                  "expected_seq": seq}, 201)["seq"]
    else:
        seq = bust("Bob Baker", "Ann Archer")

    call("POST", "/api/cash/club/member", {"name": "Ann Archer", "grant": 20000}, 201)
    member = call("GET", "/api/cash/club")["members"][0]["id"]
    cash = call("POST", "/api/cash", {"name": "Friday cash", "tables": [{"seats": 6, "stake": "50/100"}]}, 201)
    call("POST", f"/api/cash/{cash['id']}/sit", {"member": member, "table": 1, "seat": 3, "amount": 5000,
                                                  "expected_seq": cash["seq"]}, 201)

    if "/api/people" in routes:
        people = {p["name"]: p["id"] for p in call("GET", "/api/people")["people"]}
        call("POST", f"/api/people/{people['Ann Archer']}", {"nickname": "The Rock", "note": "brings the chips"})
        call("POST", "/api/people", {"name": "Eve Evans", "nickname": "", "note": "plays on Fridays"}, 201)
    if "/api/seasons" in routes:
        season = call("POST", "/api/seasons", {"name": "Spring league", "formula": "table"}, 201)
        call("POST", f"/api/seasons/{season['id']}/nights", {"tournament": tid, "final": False})

    tournaments = sorted((call("GET", f"/api/t/{t['id']}") for t in call("GET", "/api/tournaments")["tournaments"]),
                         key=lambda t: t["id"])
    expected = {
        "password": PASSWORD,
        "tournaments": [tournament(t) for t in tournaments],
        "seasons": [season_summary(call("GET", f"/api/seasons/{s['id']}"))
                    for s in call("GET", "/api/seasons")["seasons"]] if "/api/seasons" in routes else [],
        "people": sorted(person(p) for p in call("GET", "/api/people")["people"]) if "/api/people" in routes
        else sorted([name, "", ""] for name in {p["name"] for t in tournaments for p in t["players"]}),
        "cash_nights": [cash_night(call("GET", f"/api/cash/{s['id']}"))
                        for s in sorted(call("GET", "/api/cash")["sessions"], key=lambda s: s["id"])],
        "phones": phones(call, [t["id"] for t in tournaments]),
    }
    if "/api/seasons" not in routes:
        expected["not_yet"] = ["seasons"]  # this version had no seasons: none to read back
    (out / "expected.json").write_text(json.dumps(expected, indent=1, ensure_ascii=False) + "\n")
    one_file(out / Path(app.config["DATABASE"]).name)


def phones(call: Any, tournament_ids: list[int]) -> list[list[Any]]:
    """Each registered player's phone link (the token of the seat card's QR code), from the
    night's events as the director's API shows them: tournament, name, token."""
    links = []
    for tid in tournament_ids:
        for event in call("GET", f"/api/t/{tid}/events")["events"]:
            if event["type"] == "player_registered" and event["payload"].get("token"):
                links.append([tid, event["payload"]["name"], event["payload"]["token"]])
    return sorted(links)


if __name__ == "__main__":
    main(Path(sys.argv[1]).resolve())
