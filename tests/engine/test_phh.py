"""PHH hand histories: reading, replaying to the recorded finishing stacks, writing, and
``python -m engine replay`` end to end."""

from __future__ import annotations

import io
import json
import random
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from engine.cards import new_deck
from engine.errors import InvalidInput
from engine.hand import Hand, HandSetup
from engine.phh import (
    PhhReplayError,
    _simple_toml,
    finishing_stacks,
    read_phh,
    replay_file,
    replay_main,
    replay_phh,
    setup_of,
    write_phh,
)
from tests.engine.test_hand_properties import play_randomly, setups

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = Path(__file__).parent / "phh"
SHARED = ROOT.parent / "shared" / "phh"

SIMPLE = """variant = "NT"
antes = [0, 0, 0]
blinds_or_straddles = [10, 20, 0]
min_bet = 20
starting_stacks = [1000, 1000, 1000]
actions = [{actions}]
"""


def simple(*actions: str) -> str:
    return SIMPLE.format(actions=", ".join(json.dumps(a) for a in actions))


# ---------------------------------------------------------------- the real hands


def test_every_shared_hand_replays_to_its_recorded_finishing_stacks():
    """The 2,957 real hands (Pluribus and WSOP): replaying the actions through the engine's
    validation must give exactly the recorded finishing stacks."""
    if not SHARED.is_dir():
        pytest.skip(f"the shared PHH hands are not here ({SHARED})")
    files = sorted(SHARED.rglob("*.phh"))
    assert len(files) == 2957
    wrong = []
    for path in files:
        [result] = replay_file(str(path))
        text = path.read_text()
        assert _simple_toml(text) == tomllib.loads(text), path.name
        [hand] = read_phh(text)
        if result["error"] is not None or result["finishing_stacks"] != list(hand.finishing_stacks or []):
            wrong.append((path.name, result))
    assert wrong == []


@pytest.mark.parametrize(
    "path", sorted(p for p in SAMPLES.iterdir() if p.suffix in (".phh", ".phhs") and "illegal" not in p.stem),
    ids=lambda p: p.stem,
)
def test_sample_replays_to_its_finishing_stacks(path: Path):
    """Samples copied from the real hands and hand-written ones (side pots, split pots with
    an odd chip, heads-up with a short big blind); their finishing stacks were also
    checked against pokerkit."""
    hands = read_phh(path.read_text())
    for phh in hands:
        hand = replay_phh(phh)
        assert hand.is_complete
        assert finishing_stacks(phh, hand) == list(phh.finishing_stacks or [])


def test_hand_written_side_pots_are_awarded_separately():
    [phh] = read_phh((SAMPLES / "side_pots_four_way.phh").read_text())
    hand = replay_phh(phh)
    assert hand.award is not None
    assert hand.award.describe() == (
        "Seat 4 wins side pot 2 (1,000) with two pair, sevens and twos; "
        "Seat 4 wins side pot 1 (1,800) with two pair, sevens and twos; "
        "Seat 1 wins the main pot (1,600) with three of a kind, nines."
    )


def test_hand_written_split_pot_gives_the_odd_chip_left_of_the_button():
    [phh] = read_phh((SAMPLES / "split_pot_odd_chip.phh").read_text())
    hand = replay_phh(phh)
    assert hand.award is not None
    assert hand.award.pots[0].shares == ((2, 23), (3, 22))


def test_illegal_action_names_its_index_and_the_rule():
    [phh] = read_phh((SAMPLES / "illegal_raise.phh").read_text())
    with pytest.raises(PhhReplayError) as info:
        replay_phh(phh)
    assert info.value.action_index == 3
    assert str(info.value) == "Seat 3 cannot raise to 150: the minimum raise is to 200."


# ---------------------------------------------------------------- reading


def test_read_maps_players_to_seats_and_the_button_to_the_last_player():
    [phh] = read_phh(simple("p3 cbr 60", "p1 f", "p2 f"))
    setup = setup_of(phh)
    assert setup.button == 3 and setup.small_blind_seat == 1 and setup.big_blind_seat == 2
    assert (setup.small_blind, setup.big_blind) == (10, 20)


def test_read_heads_up_p1_is_the_big_blind_and_p2_the_button():
    """PHH: heads-up, p1 is the big blind and p2 the button, who posts the small blind."""
    text = simple().replace("[0, 0, 0]", "[0, 0]").replace("[10, 20, 0]", "[10, 20]")
    text = text.replace("[1000, 1000, 1000]", "[1000, 1000]")
    setup = setup_of(read_phh(text)[0])
    assert (setup.button, setup.small_blind_seat, setup.big_blind_seat) == (2, 2, 1)


def test_read_dead_small_blind():
    text = simple("p2 f", "p3 f").replace("[10, 20, 0]", "[20, 0, 0]")
    setup = setup_of(read_phh(text)[0])
    assert setup.small_blind_seat is None and setup.big_blind_seat == 1
    assert replay_phh(read_phh(text)[0]).stacks() == {1: 1000, 2: 1000, 3: 1000}


def test_read_ignores_comments_and_hidden_cards():
    [phh] = read_phh(simple("d dh p1 ????", "d dh p2 AsKd", "p3 cbr 60 # a raise", "p1 f", "p2 f"))
    hand = replay_phh(phh)
    assert hand.stacks() == {1: 990, 2: 980, 3: 1030}
    assert hand.hole_cards(1) is None


@pytest.mark.parametrize(
    "text",
    [
        'a = 1\nb = [1, 2,\n  3,\n]\nc = "x y"\nd = true\ne = -4\n# note\nf = []',
        'actions = [\n  "p1 f",\n  # a comment line\n  "p2 cc",\n]',
    ],
)
def test_quick_toml_reader_agrees_with_tomllib(text: str):
    assert _simple_toml(text) == tomllib.loads(text)


@pytest.mark.parametrize(
    "text",
    [
        "[1]\na = 1",
        "a = 1 # note",
        'a = "x\\"y"',
        "a = 1.5",
        "a = 1_000",
        "a = 01",
        "a.b = 1",
        "a = 1\na = 2",
        "a = 'literal'",
        "a = [[1], [2]]",
        "a = 1979-05-27",
        "a = [1,",
        "a = nan",
        "a = {b = 1}",
    ],
)
def test_quick_toml_reader_leaves_anything_unusual_to_tomllib(text: str):
    assert _simple_toml(text) is None


def test_read_a_phhs_file_with_several_hands():
    hands = read_phh((SAMPLES / "two_hands.phhs").read_text())
    assert [h.starting_stacks for h in hands] == [(1000, 1000, 1000), (990, 980, 1030)]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("variant = ", "This is not a PHH file"),
        ('variant = "F7S"\nstarting_stacks = [1, 2]', "the variant must be one of NT, FT, PO, FO/8, not 'F7S'"),
        ('variant = "FT"\nstarting_stacks = [1, 2]', "a fixed-limit hand needs small_bet and big_bet"),
        (simple().replace("[10, 20, 0]", "[10, 20]"), "blinds_or_straddles has 2 entries for 3 players"),
        ("title = 1", "holds no hand"),
        (simple() + "seats = [4, 4, 5]\n", "seats names a seat twice"),
    ],
)
def test_read_refuses_what_it_cannot_understand(text: str, message: str):
    with pytest.raises(InvalidInput, match=message):
        read_phh(text)


STRADDLE = """variant = "NT"
antes = [0, 0, 0, 0, 0]
blinds_or_straddles = [10, 20, 40, 0, 0]
min_bet = 20
starting_stacks = [1000, 1000, 1000, 1000, 1000]
actions = [{actions}]
"""


def straddled(*actions: str) -> list[dict[str, object]]:
    text = STRADDLE.format(actions=", ".join(json.dumps(a) for a in actions))
    return replay_file("straddle.phh", text)


def test_straddle_is_a_live_blind_and_action_starts_left_of_it():
    """A straddle (a third forced bet, as pokerkit plays it): p4 acts first, the bet to
    call is 40, and the straddler p3 has the option when everyone calls."""
    [result] = straddled("p4 cc", "p5 cc", "p1 cc", "p2 cc", "p3 cbr 100", "p4 f", "p5 f",
                         "p1 f", "p2 f")
    assert result["error"] is None
    assert result["finishing_stacks"] == [960, 960, 1160, 960, 960]


def test_straddle_minimum_raise_is_by_the_big_blind_as_pokerkit():
    """pokerkit's minimum raise over a straddle of 40 with a big blind of 20 is to 60."""
    [result] = straddled("p4 cbr 59")
    assert result["error"] == {
        "action_index": 0,
        "message": "Seat 4 cannot raise to 59: the minimum raise is to 60.",
    }
    [result] = straddled("p4 cbr 60", "p5 f", "p1 f", "p2 f", "p3 f")
    assert result["finishing_stacks"] == [990, 980, 960, 1070, 1000]


def test_straddle_out_of_turn_is_refused_at_its_index():
    [result] = straddled("p3 cc")
    assert result["error"]["action_index"] == 0
    assert "seat 4's turn" in result["error"]["message"]


def test_unfinished_hand_is_an_error():
    [phh] = read_phh(simple("p3 cc"))
    with pytest.raises(PhhReplayError, match="it is seat 1's turn"):
        replay_phh(phh)


@pytest.mark.parametrize("bad", ["p1 sd", "", "d", "d pb p1", "# only a comment"])
def test_unknown_action_is_an_error_at_its_index(bad: str):
    [phh] = read_phh(simple("p3 cc", bad))
    with pytest.raises(PhhReplayError) as info:
        replay_phh(phh)
    assert info.value.action_index == 1


def test_extra_spaces_in_actions_are_fine():
    [phh] = read_phh(simple("d  dh p1 AsKd", "p3  cbr  60", "p1 f", "p2 f"))
    assert replay_phh(phh).stacks() == {1: 990, 2: 980, 3: 1030}


# ---------------------------------------------------------------- writing


def test_write_then_read_then_replay_gives_the_same_stacks():
    for path in sorted(SAMPLES.glob("*.phh")):
        if "illegal" in path.stem:
            continue
        [phh] = read_phh(path.read_text())
        hand = replay_phh(phh)
        [again] = read_phh(write_phh(hand))
        assert finishing_stacks(again, replay_phh(again)) == list(phh.finishing_stacks or [])


def test_write_keeps_table_seats_an_empty_button_and_a_dead_small_blind():
    setup = HandSetup({1: 1000, 3: 1000, 4: 1000, 8: 500}, 2, None, 3, 50, 100, antes={8: 10})
    hand = Hand(setup)
    for entry in ("p4 cbr 300", "p8 cc", "p1 f", "p3 cc", "d db 2c7d9h", "p3 cc", "p4 cbr 190", "p8 cc"):
        hand.apply(entry)
    hand.apply("p3 f")
    hand.deal_board("Kd")
    hand.deal_board("3s")
    hand.deal_hole(4, "AsAd")
    hand.deal_hole(8, "KsKh")
    hand.award_from_cards()
    text = write_phh(hand)
    assert "seats = [3, 4, 8, 1]" in text
    assert "blinds_or_straddles = [100, 0, 0, 0]" in text
    [phh] = read_phh(text)
    again = replay_phh(phh)
    assert again.stacks() == hand.stacks()
    assert phh.finishing_stacks == tuple(hand.stacks()[s] for s in (3, 4, 8, 1))


def test_write_heads_up_names_the_button_first_in_the_lists():
    hand = Hand(HandSetup({2: 1000, 5: 1000}, 5, 5, 2, 50, 100))
    hand.apply("p5 cbr 300")
    hand.apply("p2 f")
    text = write_phh(hand)
    assert "blinds_or_straddles = [50, 100]" in text and "seats = [2, 5]" in text
    [phh] = read_phh(text)
    assert replay_phh(phh).stacks() == {2: 900, 5: 1100}


@settings(max_examples=60)
@given(setups(), st.randoms(use_true_random=False))
def test_write_round_trip_of_random_hands(setup: HandSetup, rng: random.Random):
    """Any hand played to the end and awarded from the cards writes to PHH that replays to
    the same stacks (a big-blind ante is left out: PHH posts antes before blinds)."""
    assume(not setup.big_blind_ante)
    hand = Hand(setup)
    total = sum(setup.stacks.values())
    play_randomly(hand, rng, total)
    if not hand.is_complete:
        deck = new_deck(rng)
        for seat in hand.live_seats():
            hand.deal_hole(seat, [deck.pop(), deck.pop()])
        hand.deal_board([deck.pop() for _ in range(5)])
        hand.award_from_cards()
    [phh] = read_phh(write_phh(hand))
    assert replay_phh(phh).stacks() == hand.stacks()


# ---------------------------------------------------------------- the command


def run_replay(*files: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "engine", "replay", *files],
        cwd=ROOT, capture_output=True, text=True, check=False,
    )


def test_command_prints_one_json_line_per_hand_and_exits_0():
    files = ["tests/engine/phh/side_pots_three_way.phh", "tests/engine/phh/two_hands.phhs"]
    result = run_replay(*files)
    assert result.returncode == 0, result.stderr
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert lines == [
        {"file": files[0], "index": 0, "finishing_stacks": [900, 0, 1600], "error": None},
        {"file": files[1], "index": 0, "finishing_stacks": [990, 980, 1030], "error": None},
        {"file": files[1], "index": 1, "finishing_stacks": [1010, 960, 1030], "error": None},
    ]


def test_command_reports_an_illegal_action_and_exits_1():
    result = run_replay("tests/engine/phh/illegal_raise.phh", "tests/engine/phh/split_pot_odd_chip.phh")
    assert result.returncode == 1
    first, second = (json.loads(line) for line in result.stdout.splitlines())
    assert first == {
        "file": "tests/engine/phh/illegal_raise.phh",
        "index": 0,
        "finishing_stacks": None,
        "error": {"action_index": 3, "message": "Seat 3 cannot raise to 150: the minimum raise is to 200."},
    }
    assert second["error"] is None


def test_command_reports_a_file_it_cannot_read(tmp_path: Path):
    bad = tmp_path / "bad.phh"
    bad.write_text("this is = not toml [")
    result = run_replay(str(tmp_path / "missing.phh"), str(bad))
    assert result.returncode == 1
    missing, broken = (json.loads(line) for line in result.stdout.splitlines())
    assert missing["error"]["action_index"] is None and "cannot be read" in missing["error"]["message"]
    assert broken["error"]["action_index"] is None and "not a PHH file" in broken["error"]["message"]
    assert broken["finishing_stacks"] is None


def test_replay_main_prints_the_engines_stacks_not_the_recorded_ones(tmp_path: Path):
    """The contract: a hand that replays without an illegal action has "error": null and the
    engine's own finishing stacks; comparing them with the record is the reader's job."""
    text = simple("p3 cbr 60", "p1 f", "p2 f") + "finishing_stacks = [1000, 1000, 1000]\n"
    path = tmp_path / "wrong.phh"
    path.write_text(text)
    out = io.StringIO()
    assert replay_main([str(path)], out) == 0
    result = json.loads(out.getvalue())
    assert result == {"file": str(path), "index": 0, "finishing_stacks": [990, 980, 1030], "error": None}


def test_a_showdown_among_unknown_hole_cards_is_refused_at_the_last_action():
    """Hole cards ``????`` never shown: the best hand cannot be found, so the hand is
    refused at its last action, with the seat named."""
    [result] = replay_file(str(SAMPLES / "illegal_unknown_hole_cards.phh"))
    assert result["finishing_stacks"] is None
    assert result["error"] == {
        "action_index": 8,
        "message": "Seat 1's cards are unknown and were never shown: "
        "the pots cannot be awarded from the cards.",
    }


def test_the_winner_of_a_fold_out_may_show_but_a_folded_player_may_not():
    """As pokerkit reads PHH: ``p3 sm QhQd`` after everyone folded to p3 is accepted (and
    changes nothing); a player who folded cannot show, and the winner cannot muck."""
    [result] = replay_file("s.phh", simple("p3 cbr 60", "p1 f", "p2 f", "p3 sm QhQd"))
    assert result["error"] is None and result["finishing_stacks"] == [990, 980, 1030]
    [result] = replay_file("s.phh", simple("p3 cbr 60", "p1 f", "p2 f", "p1 sm AsKd"))
    assert result["error"] == {"action_index": 3, "message": "Seat 1 cannot show: they folded."}
    [result] = replay_file("s.phh", simple("p3 cbr 60", "p1 f", "p2 f", "p3 sm"))
    assert result["error"]["action_index"] == 3


def test_the_whole_run_out_at_once_only_when_the_betting_is_over():
    [result] = replay_file("s.phh", simple("p3 cc", "p1 cc", "p2 cc", "d db 2c7hKs9h4d"))
    assert result["error"] == {
        "action_index": 3,
        "message": "The board cannot have 5 cards: at most 3 on the flop.",
    }


def test_several_hands_in_one_phhs_file():
    results = replay_file(str(SAMPLES / "three_hands.phhs"))
    assert [r["index"] for r in results] == [0, 1, 2]
    assert [r["finishing_stacks"] for r in results] == [
        [4950, 4900, 4800, 5350, 5000], [0, 10000], [4950, 4900, 5150]
    ]


def test_min_bet_sets_the_smallest_bet_and_raise():
    """PHH's min_bet is the minimum bet and raise increment, as pokerkit reads it."""
    text = simple("p3 cbr 40", "p1 f", "p2 f").replace("min_bet = 20", "min_bet = 40")
    [result] = replay_file("m.phh", text)
    assert result["error"] == {
        "action_index": 0,
        "message": "Seat 3 cannot raise to 40: the minimum raise is to 60.",
    }


def test_a_show_written_with_a_dash_is_a_show_of_unknown_cards():
    """pokerkit reads ``p1 sm -`` as showing the hole cards."""
    [result] = replay_file("d.phh", simple(
        "d dh p1 AsAd", "d dh p2 KsKd", "d dh p3 2c7d", "p3 f", "p1 cbr 1000", "p2 cc",
        "p1 sm -", "p2 sm -", "d db 2d3h4c", "d db 9s", "d db Jh"))
    assert result["error"] is None
    assert result["finishing_stacks"] == [2000, 0, 1000]


def test_betting_on_a_street_before_its_cards_are_dealt_is_refused():
    """pokerkit reads a PHH board as dealt in order: the flop comes before the flop
    betting. A history that never gives the flop (entered lazily) is let be."""
    [result] = replay_file("b.phh", simple("p3 cc", "p1 cc", "p2 cc", "p1 cc", "d db 2c3c4h"))
    assert result["error"] == {
        "action_index": 3,
        "message": "The flop has not been dealt: p1 cannot act before it.",
    }
    [result] = replay_file("b.phh", simple("p3 cc", "p1 cc", "p2 cc", "p1 cbr 20", "p2 f", "p3 f"))
    assert result["error"] is None and result["finishing_stacks"] == [1040, 980, 980]


def test_betting_before_every_hole_card_is_dealt_is_refused():
    """pokerkit deals every player's hole cards before the betting starts."""
    [result] = replay_file("h.phh", simple("d dh p1 AsKd", "p3 f", "d dh p2 7c2d", "p1 f"))
    assert result["error"] == {
        "action_index": 1,
        "message": "The hole cards are not all dealt: p3 cannot act before them.",
    }


def test_winners_named_in_the_export_award_the_pots():
    """Our export of a hand the dealer awarded by naming the winners (without their
    cards) keeps them in the user-defined field ``_winners``, main pot first."""
    text = simple("p3 cc", "p1 cc", "p2 cc", "d db 2c3c4h", "p1 cc", "p2 cc", "p3 cc",
                  "d db 9s", "p1 cc", "p2 cc", "p3 cc", "d db Jh", "p1 cc", "p2 cc", "p3 cc")
    [result] = replay_file("w.phh", text + "_winners = [[1, 3]]\n")
    assert result["error"] is None and result["finishing_stacks"] == [1010, 980, 1010]
    [result] = replay_file("w.phh", text + "_winners = [[2], [3]]\n")
    assert result["error"]["message"] == "There is 1 pot to award, not 2."
