"""The TV's side panels from hands played through the dealer's phones: the chip leaders and
the true average, and the hand-for-hand board (which tables have finished the hand)."""

from __future__ import annotations

from bs4 import BeautifulSoup
from flask import Flask
from flask.testing import FlaskClient

from .test_dealer import Dealer, make_tournament, record


def rows(dealer: Dealer, panel: str) -> list[str]:
    body = dealer.client.get(f"/t/{dealer.tid}/tv/clock").get_data(as_text=True)
    found = BeautifulSoup(body, "html.parser").select(f".tv-panel--{panel} li, .tv-panel--{panel} .tv-panel-note")
    return [" ".join(li.get_text(" ").split()) for li in found]


def fold_around(dealer: Dealer, table: int = 1, folds: int = 3) -> None:
    dealer.ok("deal", table=table)
    for _ in range(folds):
        dealer.ok("act", {"kind": "fold"}, table=table)


def test_chip_leaders_and_the_true_average_come_from_the_dealers_phones(timed_app: Flask, client: FlaskClient) -> None:
    dealer = make_tournament(timed_app, client, ["Ann", "Bob", "Cy", "Dee"], {1: (1, 1), 2: (1, 2), 3: (1, 3), 4: (1, 5)},
                             {1: 5})
    assert rows(dealer, "leaders") == [], "nothing tracked before a hand is dealt"
    fold_around(dealer)  # everyone folds to the big blind, Bob: 1,010; Ann posted 10
    assert rows(dealer, "leaders") == [
        "1 Bob 1,010 50 BB", "2 Cy 1,000 50 BB", "3 Dee 1,000 50 BB", "4 Ann 990 50 BB",
        "True average 1,000, from the dealers' phones",
    ]


def test_leaders_say_when_only_some_tables_are_tracked(timed_app: Flask, client: FlaskClient) -> None:
    seats = {1: (1, 1), 2: (1, 2), 3: (1, 3), 4: (2, 1), 5: (2, 2), 6: (2, 3)}
    dealer = make_tournament(timed_app, client, ["A", "B", "C", "D", "E", "F"], seats, {1: 3, 2: 3})
    fold_around(dealer, table=1, folds=2)
    found = rows(dealer, "leaders")
    assert found[-1] == "At 1 of 2 tables (those with a dealer's phone)"
    assert [r.split()[1] for r in found[:-1]] == ["B", "C", "A"]  # B won the blinds; only table 1's players


def test_the_hand_for_hand_board_follows_each_table(timed_app: Flask, client: FlaskClient) -> None:
    """TDA RP-8: in hand for hand each table plays one hand and waits for the others."""
    seats = {1: (1, 1), 2: (1, 2), 3: (1, 3), 4: (2, 1), 5: (2, 2), 6: (2, 3)}
    dealer = make_tournament(timed_app, client, ["A", "B", "C", "D", "E", "F"], seats, {1: 3, 2: 3})
    fold_around(dealer, table=1, folds=2)
    dealer.ok("deal", table=2)
    record(timed_app, dealer.tid, "hand_for_hand", {"on": True})
    assert rows(dealer, "board") == ["Table 1 ready for hand 1", "Table 2 playing"]
    for _ in range(2):
        dealer.ok("act", {"kind": "fold"}, table=2)
    fold_around(dealer, table=1, folds=1)
    dealer.ok("act", {"kind": "fold"}, table=1)
    assert rows(dealer, "board")[0] == "Table 1 hand 1 done"
    assert rows(dealer, "board")[1] == "Table 2 ready for hand 1"
    record(timed_app, dealer.tid, "hand_for_hand", {"on": False})
    assert rows(dealer, "board") == []
