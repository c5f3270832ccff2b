"""Omaha hi-lo eight or better (the issue on games): "the low: five different ranks of eight or
lower, aces low; each pot halved between the best high and the best low, the whole pot to the
high when there is no low; the odd chip of a split pot to the high, odd chips of a split half by
the usual seat order". TDA 20: "In high-low games the odd chip in the total pot goes to the high
side"."""

from __future__ import annotations

import pytest

from engine import omaha
from engine.cards import parse_cards
from engine.errors import IllegalAction
from engine.hand import Hand, HandSetup
from engine.notation import describe, parse, write
from engine.phh import read_phh, replay_file, replay_phh
from engine.pots import Pot, award_words, split_high_low


def low(hole: str, board: str) -> str:
    return omaha.low_name(omaha.low_ranks(parse_cards(hole), parse_cards(board)))


def test_the_low_is_five_different_ranks_of_eight_or_lower_aces_low():
    assert low("Ah 2c Kd Kc", "4s 7d 5h Qc Qs") == "Low: 7-5-4-2-A"
    assert low("Ah 2c 3d 4c", "5s 6d 7h 8c 8s") == "Low: 7-6-5-2-A"  # two of the hand, three of the board
    assert low("Ah 2c Kd Kc", "4s 9d 5h Qc Qs") == "No low"  # two low cards on the board
    assert low("Ah Ac Kd Kc", "4s 7d 5h 2c 3s") == "No low"  # one low rank in the hand
    assert low("2h 3h Kd Kc", "4h 5h 6h Qc Qs") == "Low: 6-5-4-3-2"  # a straight flush high, and a low


def test_the_lower_highest_card_wins_then_the_next():
    a = omaha.low_ranks(parse_cards("Ah 2c Kd Kc"), parse_cards("4s 7d 5h Qc Qs"))
    b = omaha.low_ranks(parse_cards("Ad 3c Kh Ks"), parse_cards("4s 7d 5h Qc Qs"))
    assert a is not None and b is not None and a < b  # 7-5-4-2-A beats 7-5-4-3-A


def test_a_pot_is_halved_the_odd_chip_to_the_high_and_a_half_split_from_the_left_of_the_button():
    award = split_high_low(0, Pot(101, (1, 2, 3)), [1], [2, 3], button=3)
    assert award.high is not None and award.low is not None
    assert (award.high.amount, award.low.amount) == (51, 50)
    assert award.low.shares == ((1, 0), (2, 25), (3, 25))[1:] and award.shares == ((1, 51), (2, 25), (3, 25))
    quartered = split_high_low(0, Pot(101, (1, 2)), [1], [1, 2], button=2)
    assert dict(quartered.shares) == {1: 51 + 25, 2: 25}
    assert quartered.low is not None and quartered.low.odd_chips_to == ()


def hilo(stacks: dict[int, int]) -> Hand:
    return Hand(HandSetup(stacks, 3, 1, 2, 10, 20, betting="fixed-limit", game="omaha8"))


def test_award_from_the_cards_halves_the_pot_and_a_side_pot_without_a_low_goes_to_the_high():
    """Seat 1 all in for 60 has the low; seats 2 and 3 play a side pot, neither with a low: the
    main pot is halved, the side pot goes whole to the best high (not halved because somebody
    has a low in another pot)."""
    h = hilo({1: 60, 2: 1000, 3: 1000})
    h.deal_hole(1, "Ah2c9d9c")
    h.deal_hole(2, "KsKdQhQc")
    h.deal_hole(3, "JsJdTcTh")
    h.raise_to(3, 40)
    h.all_in(1)  # to 60: one more bet
    h.call(2)
    h.call(3)
    h.deal_board("4s7d5h")
    h.bet_to(2, 20)
    h.call(3)
    h.deal_board("Kh")
    h.check(2)
    h.check(3)
    h.deal_board("Qs")
    h.check(2)
    h.check(3)
    award = h.award_from_cards()
    main, side = award.pots
    assert main.low is not None and main.high is not None
    assert main.amount == 180 and main.high.shares == ((2, 90),) and main.low.shares == ((1, 90),)
    assert main.low.hand_name == "Low: 7-5-4-2-A" and main.high.hand_name == "Three of a kind, kings"
    assert side.low is None and side.shares == ((2, 40),)
    assert award.won() == {1: 90, 2: 130}
    assert "the low half (90) to seat 1 with Low: 7-5-4-2-A" in award.describe()
    assert award_words(award, {1: "Ann", 2: "Bob"}) == (
        "the main pot of 180 split high and low: the high half to Bob with three of a kind, kings, "
        "the low half to Ann with Low: 7-5-4-2-A; Bob wins side pot 1 of 40 with three of a kind, kings"
    )


def test_the_dealer_names_the_high_and_the_low_and_cannot_skip_the_low():
    h = hilo({1: 1000, 2: 1000, 3: 1000})
    h.call(3)
    h.call(1)
    h.check(2)
    for board in ("2c3d8h", "Kc", "Qd"):
        h.deal_board(board)
        for seat in (1, 2, 3):
            h.check(seat)
    with pytest.raises(IllegalAction, match="say who wins the low half of each pot, or that there is no low"):
        h.award_to([[3]])
    with pytest.raises(IllegalAction, match="Say the low of each of the 1 pots, not of 2"):
        h.award_to([[3]], [[1], [2]])
    h.apply("d win 3/1,2")
    assert h.award is not None and h.award.won() == {3: 30, 1: 15, 2: 15}
    assert h.log[-1] == "d win 3/1,2"


def test_a_hold_em_award_has_no_low_half():
    h = Hand(HandSetup({1: 1000, 2: 1000}, 1, 1, 2, 10, 20))
    h.call(1)
    h.check(2)
    for board in ("2c3d8h", "Kc", "Qd"):
        h.deal_board(board)
        h.check(2)
        h.check(1)
    with pytest.raises(IllegalAction, match="There is no low half to award"):
        h.award_to([[1]], [[2]])


def test_the_notation_of_a_hi_lo_award():
    entry = parse("d win 3/5;7/-")
    assert entry.winners == ((3,), (7,)) and entry.lows == ((5,), ())
    assert write(entry) == "d win 3/5;7/-"
    assert describe("d win 3/5;7/-", {3: "Ann"}) == (
        "the high half of the main pot to Ann, the low half to seat 5; all of side pot 1 to seat 7: no low"
    )


FO8 = '''variant = "FO/8"
antes = [0, 0, 0]
blinds_or_straddles = [10, 20, 0]
small_bet = 20
big_bet = 40
starting_stacks = [1000, 1000, 1000]
actions = ["d dh p1 Ah2c9d9c", "d dh p2 KsKdQhQc", "d dh p3 JsJdTcTh", "p3 cc", "p1 cc", "p2 cc",
  "d db 4s7d5h", "p1 cc", "p2 cbr 20", "p3 f", "p1 cc", "d db Kh", "p1 cc", "p2 cc", "d db Qs", "p1 cc", "p2 cc"]
'''


def test_a_fixed_limit_omaha_hi_lo_history_replays_with_its_pot_halved():
    [hand] = read_phh(FO8)
    assert replay_phh(hand).stacks() == {1: 1000 - 40 + 50, 2: 1000 - 40 + 50, 3: 980}
    [result] = replay_file("limit.phh", FO8.replace("p2 cbr 20", "p2 cbr 30"))
    assert result["error"]["message"] == "Limit: seat 2 cannot bet 30; the bet is 20."
