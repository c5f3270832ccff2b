"""Make a small data folder with whichever poker-director is first on the import path.

Run with the version under test first on ``PYTHONPATH`` (see each folder's ``NOTE.md``)::

    poker-director demo --data OUT
    python tests/upgrade/make_data_folder.py OUT

It drives that version's own JSON API (the director's password, a tournament with four
players and two busts, a season holding the night, two people), writes what the API answers
into ``OUT/expected.json``, and leaves the database as one file (no ``-wal`` or ``-shm``).
"""

from __future__ import annotations

import json
import sqlite3
import sys
from pathlib import Path
from typing import Any

PASSWORD = "league-of-the-old-days"


def main(out: Path) -> None:
    import director
    from director import create_app

    print(f"poker-director from {Path(director.__file__).parent}")
    app = create_app({"TESTING": True}, instance_path=out)
    client = app.test_client()
    token = ""

    def call(method: str, path: str, body: Any = None, status: int = 200) -> Any:
        response = client.open(path, method=method, json=body, headers={"X-CSRFToken": token})
        assert response.status_code == status, (path, response.status_code, response.get_data(as_text=True))
        return response.get_json()

    token = call("GET", "/api/session")["csrf_token"]
    token = call("POST", "/api/setup-password", {"password": PASSWORD}, 201)["csrf_token"]
    night = call("POST", "/api/tournaments", {"name": "League night 1", "preset": "home-short", "buy_in": 20}, 201)
    tid = night["id"]
    seq = night["seq"]
    for name in ("Ann Archer", "Bob Baker", "Cid Carter", "Dee Dalton"):
        seq = call("POST", f"/api/t/{tid}/players", {"name": name, "expected_seq": seq}, 201)["seq"]
    seq = call("POST", f"/api/t/{tid}/clock/start", {"expected_seq": seq}, 201)["seq"]
    players = {p["name"]: p["id"] for p in call("GET", f"/api/t/{tid}")["players"]}
    seq = call("POST", f"/api/t/{tid}/bust", {"player": players["Dee Dalton"], "by": players["Ann Archer"],
                                               "expected_seq": seq}, 201)["seq"]
    seq = call("POST", f"/api/t/{tid}/bust", {"player": players["Cid Carter"], "by": players["Bob Baker"],
                                               "expected_seq": seq}, 201)["seq"]
    seq = call("POST", f"/api/t/{tid}/bust", {"player": players["Bob Baker"], "by": players["Ann Archer"],
                                               "expected_seq": seq}, 201)["seq"]
    people = {p["name"]: p["id"] for p in call("GET", "/api/people")["people"]}
    call("POST", f"/api/people/{people['Ann Archer']}", {"nickname": "The Rock", "note": "brings the chips"})
    call("POST", "/api/people", {"name": "Eve Evans", "nickname": "", "note": "plays on Fridays"}, 201)
    season = call("POST", "/api/seasons", {"name": "Spring league", "formula": "table"}, 201)
    call("POST", f"/api/seasons/{season['id']}/nights", {"tournament": tid, "final": False})

    expected = {
        "password": PASSWORD,
        "tournaments": sorted((tournament(call("GET", f"/api/t/{t['id']}"))
                               for t in call("GET", "/api/tournaments")["tournaments"]), key=lambda t: t["id"]),
        "seasons": [season_summary(call("GET", f"/api/seasons/{s['id']}"))
                    for s in call("GET", "/api/seasons")["seasons"]],
        "people": sorted(person(p) for p in call("GET", "/api/people")["people"]),
    }
    (out / "expected.json").write_text(json.dumps(expected, indent=1, ensure_ascii=False) + "\n")
    one_file(out / Path(app.config["DATABASE"]).name)


def tournament(answer: dict[str, Any]) -> dict[str, Any]:
    """A tournament as the test reads it back: its id, name, and each player's name and place."""
    return {"id": answer["id"], "name": answer["name"],
            "players": sorted([p["name"], p["place"]] for p in answer["players"])}


def season_summary(answer: dict[str, Any]) -> dict[str, Any]:
    """A season: its name, its nights (tournament ids) and its standings (name, rank, points)."""
    return {"id": answer["id"], "name": answer["name"],
            "nights": sorted(n["tournament"] for n in answer["nights"]),
            "standings": [[s["name"], s["rank"], s["points"]] for s in answer["standings"]]}


def cash_night(answer: dict[str, Any]) -> dict[str, Any]:
    """A cash night: its id, name, and each table's stake and seated players (seat, name, stack)."""
    return {"id": answer["id"], "name": answer["name"],
            "tables": [{"table": t["table"], "stake": t["stake"],
                        "players": [[p["seat"], p["name"], p["stack"]] for p in t["players"]]}
                       for t in answer["tables"]]}


def person(answer: dict[str, Any]) -> list[Any]:
    """A person: name, nickname, note (an empty one as "")."""
    return [answer["name"], answer["nickname"] or "", answer["note"] or ""]


def one_file(database: Path) -> None:
    """Everything the write-ahead log holds written into the database file itself."""
    conn = sqlite3.connect(database)
    try:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        conn.close()


if __name__ == "__main__":
    main(Path(sys.argv[1]).resolve())
