"""A dealer's raise replays its hand once on its way: the command reads the hand the last
fold left (shared, read-only), the fold replays it to apply the raise, and the answer reads
the new record's hand the fold just made."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask

from engine.hand import Hand
from tests.director.test_dealer import Dealer, dealer  # noqa: F401 (the fixture)


def test_a_raise_replays_the_hand_once(dealer: Dealer, monkeypatch: pytest.MonkeyPatch) -> None:  # noqa: F811
    dealer.ok("deal")
    dealer.ok("act", {"kind": "call"})  # the record the raise starts from is the fold's own
    replays: list[int] = []
    original = Hand.replay.__func__  # type: ignore[attr-defined]

    def counted(cls: type[Hand], setup: Any, entries: Any) -> Hand:
        replays.append(1)
        return original(cls, setup, entries)  # type: ignore[no-any-return]

    monkeypatch.setattr(Hand, "replay", classmethod(counted))
    turn = dealer.state()["turn"]
    dealer.ok("act", {"kind": "raise", "amount": 200})
    assert len(replays) == 1
    assert {s["seat"]: s["bet"] for s in dealer.state()["seats"]}[turn] == 200


def test_the_shared_hand_is_not_pickled_with_a_snapshot(timed_app: Flask, dealer: Dealer) -> None:  # noqa: F811
    import pickle

    from director.core.db import get_db
    from director.core.store import load_state

    dealer.ok("deal")
    dealer.ok("act", {"kind": "call"})
    with timed_app.test_request_context():
        running = load_state(get_db(), dealer.tid).dealing.running(1)
    assert running is not None and running.hand() is running.hand()  # replayed once, shared
    again = pickle.loads(pickle.dumps(running))
    assert "_hand" not in again.__dict__ and again.hand().log == running.hand().log
