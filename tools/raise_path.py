"""The path of a dealer's raise, measured: the app's own modules whose code runs while
``POST /api/t/<id>/table/1/act`` (a raise) is answered, and how many times the hand is
replayed on the way.

    python tools/raise_path.py

A night of six on one table is set up through the JSON API (a new app on a temporary
folder), a hand dealt, then one raise is traced with ``sys.setprofile``: every function
entered is counted by its module. Only the JSON API's contract is used, so the script runs
on any version of the app.
"""

from __future__ import annotations

import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bs4 import BeautifulSoup

from director import create_app


def main() -> None:
    folder = Path(tempfile.mkdtemp())
    app = create_app({"TESTING": True}, instance_path=folder / "instance")
    client = app.test_client()
    def token_of(path: str) -> str:
        page = client.get(path).get_data(as_text=True)
        return str(BeautifulSoup(page, "html.parser").find("meta", attrs={"name": "csrf-token"})["content"])

    client.post("/auth/first-run", data={"password": "river-card", "confirm": "river-card",
                                         "csrf_token": token_of("/auth/first-run")})
    token = token_of("/")
    headers = {"X-CSRFToken": token}

    def post(path: str, body: dict[str, Any]) -> Any:
        response = client.post(path, json=body, headers=headers)
        assert response.status_code in (200, 201), (path, response.get_json())
        return response.get_json()

    tid = post("/api/tournaments", {"name": "Raise", "table_size": 6})["id"]
    for name in ("Ann", "Bob", "Cid", "Dee", "Eve", "Fay"):
        post(f"/api/t/{tid}/players", {"name": name})
    post(f"/api/t/{tid}/tables/draw", {"table_size": 6})
    post(f"/api/t/{tid}/clock/start", {})
    table = post(f"/api/t/{tid}/table/1/deal", {})
    post(f"/api/t/{tid}/table/1/act", {"kind": "call"})  # warm: every module loaded, the caches filled
    table = client.get(f"/api/t/{tid}/table/1").get_json()
    amount = table["min_to"]

    root = str(Path(__file__).resolve().parents[1])
    modules: Counter[str] = Counter()
    replays = Counter[str]()

    def profile(frame: Any, event: str, _arg: Any) -> None:
        if event != "call":
            return
        filename = frame.f_code.co_filename
        if filename.startswith(root) and "/.venv/" not in filename:
            name = frame.f_globals.get("__name__", "?")
            if name.startswith(("director", "engine")):
                modules[name] += 1
                if frame.f_code.co_name == "replay" and name in ("engine.dealing", "engine.table", "engine.hand"):
                    replays[f"{name}.replay"] += 1

    sys.setprofile(profile)
    try:
        response = client.post(f"/api/t/{tid}/table/1/act", json={"kind": "raise", "amount": amount},
                               headers=headers)
    finally:
        sys.setprofile(None)
    assert response.status_code == 201, response.get_json()
    own = sorted(modules)
    print(f"a raise (POST /api/t/<id>/table/1/act) runs code in {len(own)} modules: "
          f"{sum(1 for m in own if m.startswith('director'))} of director, {sum(1 for m in own if m.startswith('engine'))} of engine")
    for name in own:
        print(f"  {name:40} {modules[name]:6} calls")
    print("hand replays:", dict(replays) or "none")


if __name__ == "__main__":
    main()
