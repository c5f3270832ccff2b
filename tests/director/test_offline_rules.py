"""The rules on the dealer's phone: the vendored runtime is the published one, the engine's
sources and sentences are served for it, and the dealer's panel carries the running hand."""

from __future__ import annotations

import hashlib
import io
import zipfile
from pathlib import Path

from director import create_app
from engine.declared import play, setup_data, setup_from_data
from engine.hand import HandSetup

ROOT = Path(__file__).resolve().parents[2]

#: Pyodide 314.0.8 as npm publishes it (``npm pack pyodide@314.0.8``); LICENSE is the MPL 2.0.
PYODIDE = {
    "pyodide.mjs": "1bb8cc14f9405aaa7cd4e00c12edd0a8539de9cc026618d6ee5a9663f367dc70",
    "pyodide.asm.mjs": "22514b8be6980e28a02c8b1d6387ce8dfe666fc4edf8d547cff5dce29ff4d972",
    "pyodide.asm.wasm": "e14d49ceca9b4a0e274ea918f3a898de2d3880b6e5573a6cfe1a2267ecc70329",
    "python_stdlib.zip": "2bd3394a145bfbbe5bbc9d9d6ab9136abbb986c6fef6c142b3a2962227aa5c28",
    "pyodide-lock.json": "5dc2fc119108bc148c7457dc86e7675b5c87e1cafd420b9c34c1eaef7b36c010",
    "LICENSE": "fab3dd6bdab226f1c08630b1dd917e11fcb4ec5e1e020e2c16f83a0a13863e85",
}


def test_vendored_pyodide_is_the_published_files_and_only_those():
    folder = ROOT / "static" / "pyodide-314.0.8"
    assert sorted(p.name for p in folder.iterdir()) == sorted(PYODIDE)
    for name, digest in PYODIDE.items():
        assert hashlib.sha256((folder / name).read_bytes()).hexdigest() == digest, name


def test_the_engine_is_served_as_a_zip_with_an_etag(tmp_path: Path):
    client = create_app({"TESTING": True}, instance_path=tmp_path).test_client()
    answer = client.get("/static-engine.zip")
    assert answer.status_code == 200 and answer.headers["ETag"]
    names = zipfile.ZipFile(io.BytesIO(answer.data)).namelist()
    assert "engine/hand.py" in names and "engine/declared.py" in names
    assert all(n.startswith("engine/") and n.endswith(".py") for n in names)
    again = client.get("/static-engine.zip", headers={"If-None-Match": answer.headers["ETag"]})
    assert again.status_code == 304
    words = client.get("/engine-words.json?lang=fr").get_json()
    assert words["Nobody is to act: the betting is over."] != "Nobody is to act: the betting is over."


def test_a_setup_goes_through_json_and_the_waiting_taps_are_played_in_order():
    setup = HandSetup(stacks={1: 1000, 2: 1000, 3: 1000}, button=3, small_blind_seat=1, big_blind_seat=2,
                      small_blind=10, big_blind=20, antes={1: 5, 2: 5, 3: 5})
    assert setup_from_data(setup_data(setup)) == setup
    data = {"setup": setup_data(setup), "log": []}
    shown = play(data, [{"what": "act", "kind": "call"}, {"what": "act", "kind": "call"},
                        {"what": "act", "kind": "check"}])
    assert shown["applied"] == 3 and shown["street"] == "flop" and shown["refused"] is None
    assert shown["log"] == ["p3 cc", "p1 cc", "p2 cc"]
    assert shown["turn"] == 1 and shown["legal"]["can_check"]
    assert [p["amount"] for p in shown["pots"]] == [75]
    undone = play(data, [{"what": "act", "kind": "call"}, {"what": "undo"}])
    assert undone["turn"] == 3 and undone["log"] == []
    stopped = play(data, [{"what": "push", "chips": "100"}, {"what": "act", "kind": "call"}])
    assert not stopped["follows"] and stopped["applied"] == 0
