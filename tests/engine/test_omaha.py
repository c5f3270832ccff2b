"""Omaha's showdown (the issue on games): "Omaha (four cards: exactly two from the hand and three
from the board)", five-card Omaha; and the PHH variants FT and PO replayed."""

from __future__ import annotations

import random
from itertools import combinations

import pytest

from engine import omaha
from engine.cards import FULL_DECK, parse_cards
from engine.errors import IllegalAction, InvalidInput
from engine.evaluate import rank_value
from engine.hand import Hand, HandSetup
from engine.phh import read_phh, replay_file, replay_phh, write_phh


def test_exactly_two_from_the_hand_one_suited_card_makes_no_flush():
    board = parse_cards("2h 7h 9h Jh 3c")
    assert omaha.best_hand(parse_cards("Ah Kd Qc 4s"), board).name == "High card, ace"
    assert omaha.best_hand(parse_cards("Ah Kh Qc 4s"), board).name == "Flush, ace high"


def test_exactly_three_from_the_board_the_boards_straight_flush_is_not_played():
    assert omaha.best_hand(parse_cards("As Ad 3c 4d"), parse_cards("Ah Kh Qh Jh Th")).name == "Three of a kind, aces"


def test_four_of_a_kind_in_the_hand_is_only_a_pair():
    assert omaha.best_hand(parse_cards("9s 9d 9h 9c"), parse_cards("2h 5d Kc Jc 7s")).name == "Pair of nines"


def test_five_card_omaha_chooses_two_of_five():
    assert omaha.best_hand(parse_cards("2c 3d 8h 8s Qd"), parse_cards("8d Qs Qc 4h 6s")).name == (
        "Full house, queens full of eights"
    )


def test_the_fast_value_agrees_with_every_choice_of_two_and_three():
    rng = random.Random(5)
    for _ in range(300):
        cards = rng.sample(FULL_DECK, 9 + rng.randint(0, 1))
        hole, board = cards[: len(cards) - 5], cards[-5:]
        every = max(rank_value((*two, *three)) for two in combinations(hole, 2) for three in combinations(board, 3))
        assert omaha.rank_value(hole, board) == every == omaha.best_hand(hole, board).value


def test_an_omaha_hand_of_the_wrong_size_is_refused():
    with pytest.raises(InvalidInput, match="4 or 5 hole cards, not 3"):
        omaha.rank_value(parse_cards("As Ks Qs"), parse_cards("2c 3c 4c 5d 6d"))


def test_an_omaha_hand_deals_four_cards_and_awards_from_the_omaha_reading():
    """The Hold'em reading would give seat 1 the flush (one heart in the hand, four on the board);
    in Omaha seat 1 has no flush, and seat 2's straight (the 8-7 of the hand, the J-T-9 of the
    board) wins."""
    h = Hand(HandSetup({1: 1000, 2: 1000}, 1, 1, 2, 10, 20, betting="pot-limit", game="omaha"))
    with pytest.raises(IllegalAction, match="Seat 1 must be dealt 4 hole cards, not 2"):
        h.deal_hole(1, "AhKd")
    h.deal_hole(1, "Ah2c3d4s")
    h.deal_hole(2, "KsKc7d8d")
    h.call(1)
    h.check(2)
    h.deal_board("Th9h5h")
    for _ in range(3):
        h.check(2)
        h.check(1)
        if len(h.board) < 5:
            h.deal_board("Jh" if len(h.board) == 3 else "Qc")
    award = h.award_from_cards()
    assert award.won() == {2: 40}
    assert award.pots[0].hand_name == "Straight, jack high"


PO = '''variant = "PO"
antes = [0, 0, 0]
blinds_or_straddles = [50, 100, 0]
min_bet = 100
starting_stacks = [5000, 5000, 5000]
actions = ["d dh p1 AhAd2c3c", "d dh p2 KsKd7h8h", "d dh p3 QcJcTs9s", "p3 cbr 350", "p1 cc", "p2 cc",
  "d db 2h7c9d", "p1 cc", "p2 cbr 1050", "p3 f", "p1 cc", "d db Kh", "p1 cc", "p2 cc", "d db 4s", "p1 cc", "p2 cc"]
'''


def test_a_pot_limit_omaha_history_replays_and_refuses_a_raise_over_the_pot():
    """On the flop the pot is 1,050: seat 2 may bet it all. Seat 2's three kings win."""
    [hand] = read_phh(PO)
    played = replay_phh(hand)
    assert played.stacks() == {1: 3600, 2: 6750, 3: 4650}
    over = PO.replace("p2 cbr 1050", "p2 cbr 1100")
    [result] = replay_file("over.phh", over)
    assert result["error"] == {"action_index": 8, "message": "Pot limit: the most seat 2 can bet is 1,050."}


FT = '''variant = "FT"
antes = [0, 0, 0]
blinds_or_straddles = [50, 100, 0]
small_bet = 100
big_bet = 200
starting_stacks = [5000, 5000, 5000]
actions = ["p3 cbr 200", "p1 cbr 300", "p2 cbr 400", "p3 cc", "p1 cc", "d db 2h7c9d", "p1 cbr 100", "p2 f",
  "p3 cc", "d db Kh", "p1 cbr 200", "p3 f"]
'''


def test_a_fixed_limit_history_replays_and_refuses_a_fourth_raise_before_the_flop():
    """Before the flop the big blind is the bet, then three raises (to 400): capped."""
    [hand] = read_phh(FT)
    assert replay_phh(hand).stacks() == {1: 5900, 2: 4600, 3: 4500}
    [result] = replay_file("capped.phh", FT.replace('"p3 cc", "p1 cc", "d db', '"p3 cbr 500", "p1 cc", "d db'))
    assert result["error"]["action_index"] == 3
    assert result["error"]["message"] == (
        "Seat 3 cannot raise: the betting is capped at a bet and 3 raises; seat 3 may only call or fold."
    )


@pytest.mark.parametrize("betting, game, variant", [
    ("pot-limit", "omaha", "PO"), ("fixed-limit", "holdem", "FT"), ("fixed-limit", "omaha8", "FO/8"),
])
def test_a_hand_written_as_phh_reads_back_with_its_variant(betting: str, game: str, variant: str):
    hole = {"omaha": ("AhAd2c3c", "KsKd7h8h"), "omaha8": ("Ah2c9d9c", "KsKdQhQc"), "holdem": ("AhAd", "KsKd")}[game]
    h = Hand(HandSetup({1: 1000, 2: 1000}, 1, 1, 2, 10, 20, betting=betting, game=game))
    h.deal_hole(1, hole[0])
    h.deal_hole(2, hole[1])
    h.call(1)
    h.check(2)
    for board in ("4s7d5h", "Kh", "Qs"):
        h.deal_board(board)
        h.check(2)
        h.check(1)
    h.award_from_cards()
    text = write_phh(h)
    assert f'variant = "{variant}"' in text
    [again] = replay_file("hand.phh", text)
    assert again["error"] is None and again["finishing_stacks"] == [h.stacks()[2], h.stacks()[1]]


def test_a_game_without_a_phh_variant_is_not_written_as_one():
    h = Hand(HandSetup({1: 1000, 2: 1000}, 1, 1, 2, 10, 20, betting="pot-limit", game="holdem"))
    with pytest.raises(InvalidInput, match="The PHH standard has no variant for pot-limit holdem"):
        write_phh(h)
