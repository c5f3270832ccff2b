"""The table's accidents (engine.rulings): each TDA situation quoted from ``TDA.md``."""

from __future__ import annotations

import pytest

from engine.dealing import stack_of
from engine.errors import EngineError, IllegalAction, InvalidInput
from engine.events import Event
from engine.rulings import substantial_action
from engine.tournament import apply, describe
from tests.engine.test_dealing import Night


def four() -> Night:
    """Ann, Bob, Cy and Dee in seats 1 to 4; the button on seat 4: SB 1, BB 2, seat 3 first."""
    return Night(["Ann", "Bob", "Cy", "Dee"], {p: (1, p) for p in range(1, 5)}, {1: 4})


def five() -> Night:
    return Night(["Ann", "Bob", "Cy", "Dee", "Eve"], {p: (1, p) for p in range(1, 6)}, {1: 5})


def running(night: Night):
    return night.state.dealing.running(1)


# --- substantial action ---------------------------------------------------------------------------


def test_substantial_action_is_the_tdas_definition():
    """TDA 36 (TDA.md 4.14): "either (A) two actions in turn where at least one puts chips in,
    or (B) any three actions in turn. Posted blinds do not count." """
    night = five()  # button 5: SB 1, BB 2, seat 3 first
    night.deal()
    assert substantial_action(running(night).replay()) is None  # the posted blinds do not count
    night.act("p3 f")
    night.act("p4 f")
    assert substantial_action(running(night).replay()) is None  # two actions, no chips in
    night.act("p5 f")
    assert substantial_action(running(night).replay()) == "three players have acted"

    night = five()
    night.deal()
    night.act("p3 cc", "p4 cbr 60")  # T48: "UTG calls and the next player raises"
    assert substantial_action(running(night).replay()) == "seat 3 called and seat 4 raised"


# --- misdeals -------------------------------------------------------------------------------------


def test_t47_two_boxed_cards_before_substantial_action_is_an_exact_replay():
    """T47: "Two boxed cards on the initial deal, or one of the first two cards exposed:
    misdeal, exact replay." 35-C: "the button does not move, no new players are seated,
    limits stay the same"."""
    night = four()
    first = night.deal()
    night.act("p3 cc")
    state = night.add("hand_misdeal", {"table": 1, "cause": "boxed_cards"})
    again = state.dealing.running(1)
    assert again.log == () and again.setup == first.setup and again.positions == first.positions
    assert (again.number, again.tournament_hand, again.players) == (first.number, first.tournament_hand, first.players)
    ruling = again.rulings[-1]
    assert ruling.kind == "misdeal" and ruling.rule == "TDA 35-A-1, 35-C" and ruling.voided == ("p3 cc",)
    assert ruling.text.startswith("Misdeal, two or more boxed cards on the initial deal: the hand is dealt again")
    assert state.dealing.dealt == 1


def test_t41_a_misdeal_redeal_keeps_the_old_limits():
    """T41: "A level ends mid-hand: the new blinds start on the next hand. A misdeal re-deal
    keeps the old limits." """
    night = four()
    first = night.deal()
    night.add("clock", {"action": "next_level"})
    state = night.add("hand_misdeal", {"table": 1, "cause": "exposed_first_two"})
    assert state.dealing.running(1).setup.big_blind == first.setup.big_blind == 20


def test_a_misdeal_and_its_redeal_count_as_one_hand():
    """35-C (TDA.md §8): "A penalty hand plus its re-deal counts as 1 hand." """
    night = four()
    night.deal()
    night.add("hand_misdeal", {"table": 1, "cause": "wrong_count"})
    night.fold_round()
    assert night.state.clock_at(night.state.seq + 1.0).hands_played == 1
    assert len(night.state.dealing.at_table(1)) == 1


def test_t48_no_misdeal_after_substantial_action():
    """T48: "After SA (e.g. UTG calls and the next player raises; posted blinds don't count):
    no misdeal." """
    night = four()
    night.deal()
    night.act("p3 cc", "p4 cbr 60")
    with pytest.raises(IllegalAction, match=r"^No misdeal after substantial action \(TDA 35-D\): seat 3 called "
                       r"and seat 4 raised; the hand goes on and the exposed cards stay in play\.$"):
        night.add("hand_misdeal", {"table": 1, "cause": "exposed_two"})


def test_t49_a_fouled_deck_voids_the_hand_and_returns_every_bet_whatever_the_action():
    """T49: "Duplicate card found: void the hand and return all bets." 35-E: "whatever the SA"."""
    night = four()
    first = night.deal()
    night.act("p3 cbr 100", "p4 cc", "p1 cc", "p2 cc")
    state = night.add("hand_misdeal", {"table": 1, "cause": "fouled_deck"})
    again = state.dealing.running(1)
    assert again.log == () and again.replay().stacks() == {s: c - b for s, c, b in (
        (s, first.setup.stacks[s], first.replay().bets().get(s, 0)) for s in first.setup.stacks)}
    assert again.rulings[-1].rule == "TDA 35-E"
    assert all(stack_of(state, p) == 1000 for p in range(1, 5))  # no chip moved


def test_a_misdeal_needs_a_running_hand_and_a_known_cause():
    night = four()
    night.deal()
    night.fold_round()
    with pytest.raises(IllegalAction, match="Hand 1 at table 1 is over: a misdeal is ruled while the hand is played"):
        night.add("hand_misdeal", {"table": 1, "cause": "boxed_cards"})
    night = four()
    night.deal()
    with pytest.raises(InvalidInput, match="Name the misdeal's cause: one of boxed_cards"):
        night.add("hand_misdeal", {"table": 1, "cause": "bad luck"})


def test_the_tables_undo_takes_back_a_misdeal():
    night = four()
    night.deal()
    night.act("p3 cc")
    night.add("hand_misdeal", {"table": 1, "cause": "boxed_cards"})
    state = night.add("hand_undo", {"table": 1})
    assert state.dealing.running(1).log == ("p3 cc",) and state.dealing.running(1).rulings == ()


# --- exposed cards and dealing errors -------------------------------------------------------------


def test_t50_a_four_card_flop_draws_its_burn_from_the_stored_seed():
    """T50: "4-card flop: pick one card at random as the burn." """
    night = four()
    night.deal()
    night.act("p3 cc", "p4 cc", "p1 cc", "p2 cc")
    state = night.add("hand_ruling", {"table": 1, "kind": "four_card_flop", "seed": 11})
    text = state.dealing.running(1).rulings[-1].text
    assert text.startswith("Four cards on the flop: scramble them face down and lay them in a row; the ")
    assert state.dealing.running(1).rulings[-1].rule == "TDA 39-A, T50"
    burns = set()
    for seed in range(40):
        other = four()
        other.deal()
        other.act("p3 cc", "p4 cc", "p1 cc", "p2 cc")
        burns.add(other.add("hand_ruling", {"table": 1, "kind": "four_card_flop", "seed": seed})
                  .dealing.running(1).rulings[-1].text)
    assert len(burns) == 4  # each of the four cards can be the burn
    preflop = four()
    preflop.deal()
    with pytest.raises(IllegalAction, match="A four-card flop is ruled as the flop comes out"):
        preflop.add("hand_ruling", {"table": 1, "kind": "four_card_flop", "seed": 1})


def test_t51_a_premature_turn_keeps_the_burn_and_is_dealt_again():
    """T51: "Premature turn: the burn stays, reshuffle the stub with that card, redeal with no
    new burn." """
    night = four()
    night.deal()
    night.act("p3 cc", "p4 cc", "p1 cc", "p2 cc")  # the flop
    state = night.add("hand_ruling", {"table": 1, "kind": "premature_turn"})
    ruling = state.dealing.running(1).rulings[-1]
    assert ruling.rule == "TDA RP-5, T51"
    assert ruling.text == ("Premature turn: the burn card stays; the turn card goes back into the stub, which is "
                           "reshuffled; when the betting ends the turn is dealt again with no new burn")
    assert state.dealing.running(1).log == night.state.dealing.running(1).log  # nothing entered changes
    with pytest.raises(IllegalAction, match="The river is not premature: the hand is on the flop"):
        night.add("hand_ruling", {"table": 1, "kind": "premature_river"})


def test_one_boxed_card_or_one_exposed_card_is_not_a_misdeal():
    """TDA.md §8: "Single boxed card: house rule. It is usually replaced"; 35-A-7 needs "1 of
    the first 2 cards, or any other 2 down cards"."""
    night = four()
    night.deal()
    state = night.add("hand_ruling", {"table": 1, "kind": "boxed_card"})
    assert "One boxed card is not a misdeal (two are)" in state.dealing.running(1).rulings[-1].text
    state = night.add("hand_ruling", {"table": 1, "kind": "exposed_card"})
    assert state.dealing.running(1).rulings[-1].rule == "TDA 35-A-7"
    state = night.add("hand_ruling", {"table": 1, "kind": "player_exposed"})
    assert "the hand stays live" in state.dealing.running(1).rulings[-1].text


# --- the button -----------------------------------------------------------------------------------


def test_t12_a_button_found_wrong_before_substantial_action_is_corrected():
    """TDA 34-A (TDA.md 1.5): "a wrong button is corrected if found before substantial action"."""
    night = four()
    night.deal()  # button 4
    night.act("p3 f")
    state = night.add("button_corrected", {"table": 1, "seat": 2})
    hand = state.dealing.running(1)
    assert (hand.positions.button, hand.positions.small_blind, hand.positions.big_blind) == (2, 3, 4)
    assert hand.setup.button == 2 and hand.log == () and hand.replay().turn == 1
    assert hand.rulings[-1].text.startswith("The button was on seat 4 and belongs on seat 2: corrected")
    night.fold_round()
    assert night.deal().positions.button == 3  # the next hand moves on from the corrected button


def test_t12_after_substantial_action_play_stands_and_the_next_hand_moves_on():
    """T12: "Button moved twice and SA happened: play stands, and the next hand moves on from
    the wrong position (TDA 34-A)"; 1.5: "the button is not backed up next hand"."""
    night = four()
    night.deal()  # button 4
    night.act("p3 cc", "p4 cbr 60")
    state = night.add("button_corrected", {"table": 1, "seat": 2})
    hand = state.dealing.running(1)
    assert hand.setup.button == 4 and hand.log == ("p3 cc", "p4 cbr 60")
    assert hand.rulings[-1].rule == "TDA 34-A, T12" and "play stands" in hand.rulings[-1].text
    night.fold_round()
    assert night.deal().positions.button == 1


@pytest.mark.parametrize(("seat", "words"), [
    (9, "Table 1 has seats 1 to 6: there is no seat 9."),
    (5, "Seat 5 at table 1 has no player dealt in"),
    (4, "The button is already on seat 4"),
])
def test_a_button_correction_that_cannot_be_is_refused(seat, words):
    night = four()
    night.deal()
    with pytest.raises(EngineError, match=words):
        night.add("button_corrected", {"table": 1, "seat": seat})


# --- the clock that bites -------------------------------------------------------------------------


def _at(night: Night, kind: str, payload: dict, at: float):
    night.state = apply(night.state, Event(night.state.seq + 1, kind, payload, at))
    return night.state


def test_t39_time_up_facing_a_bet_the_hand_is_dead():
    """T39: "Clock: 25 s + 5 s runs out. Facing a bet, the hand is dead; otherwise, check." """
    night = four()
    night.deal()
    now = night.state.seq + 10.0
    _at(night, "action_clock", {"action": "start", "who": "Seat 3", "seconds": 25, "countdown": 5,
                                "table": 1, "seat": 3}, now)
    with pytest.raises(IllegalAction, match=r"Seat 3 still has 1 second: the time is not up\."):
        _at(night, "hand_time_up", {"table": 1}, now + 29.4)
    with pytest.raises(IllegalAction, match="still has"):  # "A tie goes to the player" (TDA 29)
        _at(night, "hand_time_up", {"table": 1}, now + 30.0)
    state = _at(night, "hand_time_up", {"table": 1}, now + 30.5)
    hand = state.dealing.running(1)
    assert hand.log == ("p3 f",) and state.action_clock is None
    assert hand.rulings[-1].text == "Time is up for seat 3, facing a bet: the hand is dead"
    assert hand.rulings[-1].rule == "TDA 29, T39"


def test_t39_time_up_with_no_bet_is_a_check():
    night = four()
    night.deal()
    night.act("p3 cc", "p4 cc", "p1 cc")  # the big blind has the option
    now = night.state.seq + 10.0
    _at(night, "action_clock", {"action": "start", "who": "Seat 2", "seconds": 25, "countdown": 5,
                                "table": 1, "seat": 2}, now)
    state = _at(night, "hand_time_up", {"table": 1}, now + 31)
    assert state.dealing.running(1).log[-1] == "p2 cc" and state.dealing.running(1).replay().street == "flop"
    assert state.dealing.running(1).rulings[-1].text.endswith("with no bet to face: a check")


def test_only_the_seat_to_act_goes_on_the_clock_and_time_up_needs_it():
    night = four()
    night.deal()
    with pytest.raises(IllegalAction, match="Seat 2 at table 1 is not to act"):
        night.add("action_clock", {"action": "start", "who": "Seat 2", "seconds": 25, "table": 1, "seat": 2})
    with pytest.raises(IllegalAction, match="Nobody to act at table 1 is on the clock"):
        night.add("hand_time_up", {"table": 1})


# --- every ruling is kept, and replays the same ---------------------------------------------------


def test_the_stored_events_fold_to_the_same_rulings():
    night = four()
    events: list[Event] = []
    original = night.add

    def add(kind, payload):
        state = original(kind, payload)
        events.append(Event(state.seq, kind, payload, float(state.seq - 1)))
        return state

    night.add = add  # type: ignore[method-assign]
    night.deal()
    night.act("p3 cc")
    night.add("hand_misdeal", {"table": 1, "cause": "boxed_cards"})
    night.add("button_corrected", {"table": 1, "seat": 1})
    night.fold_round()
    first = night.state
    assert [r.kind for r in first.dealing.current(1).rulings] == ["misdeal", "button"]
    start = Night(["Ann", "Bob", "Cy", "Dee"], {p: (1, p) for p in range(1, 5)}, {1: 4}).state
    again = start
    for event in events:
        again = apply(again, event)
    assert again.dealing.current(1).rulings == first.dealing.current(1).rulings
    assert again.dealing.current(1).finishing_stacks == first.dealing.current(1).finishing_stacks


# --- a seeded night with accidents ----------------------------------------------------------------


def _night_with(seed: int, accidents: bool) -> tuple[Night, list[tuple[int, int | None, int]], int]:
    """Hands at one table, actions drawn from ``seed``; with ``accidents``, misdeals before
    substantial action, fouled decks and the remedies of other accidents come in at random
    (from their own stream), each misdeal followed by the same entries again, as a re-deal
    played the same way would be."""
    import random

    from engine.rulings import MISDEALS, RULINGS
    from tests.engine.test_dealing import legal_entries

    play, chance = random.Random(seed), random.Random(seed * 7919 + 1)
    names = [f"P{p}" for p in range(1, 7)]
    night = Night(names, {p: (1, p) for p in range(1, 7)}, {1: 1})
    positions: list[tuple[int, int | None, int]] = []
    injected = 0
    for _ in range(60):
        if night.state.finished:
            break
        hand = night.deal()
        positions.append((hand.positions.button, hand.positions.small_blind, hand.positions.big_blind))
        entries: list[str] = []
        while (record := night.state.dealing.running(1)) is not None:
            if accidents and chance.random() < 0.12:
                current = record.replay()
                cause = chance.choice(list(MISDEALS))
                kind = chance.choice([k for k in RULINGS if not k.startswith("premature") and k != "four_card_flop"])
                if cause == "fouled_deck" or substantial_action(current) is None:
                    night.add("hand_misdeal", {"table": 1, "cause": cause})
                    for entry in entries:
                        night.act(entry)
                else:
                    night.add("hand_ruling", {"table": 1, "kind": kind})
                injected += 1
                continue
            current = record.replay()
            if current.turn is not None:
                options = legal_entries(current)  # check or call, fold, min, max, middle
                entry = play.choice(options if play.random() < 0.1 else options[:3])  # all-in now and then
            else:
                winners = [play.sample(p.eligible, 1) for p in current.pots()]
                entry = "d win " + ";".join(",".join(map(str, w)) for w in winners)
            entries.append(entry)
            night.act(entry)
            total = sum(stack_of(night.state, p) for p in night.state.standings.in_play)
            assert total == night.state.chips_in_play  # the one chip count, after every entry
    return night, positions, injected


@pytest.mark.parametrize("seed", [3, 17, 2024])
def test_a_seeded_night_with_accidents_keeps_the_chips_exact_and_the_blinds_fair(seed):
    """Misdeals are exact replays (35-C) and a fouled deck returns every bet (35-E): a night
    with them, the hands then played the same way, ends exactly as the night without them:
    the same stacks, the same places, the same button and blinds hand after hand, and the
    same number of hands counted (TDA.md §8: "A penalty hand plus its re-deal counts as 1 hand")."""
    clean, clean_positions, _ = _night_with(seed, accidents=False)
    rough, rough_positions, injected = _night_with(seed, accidents=True)
    assert injected >= 5, injected
    assert rough_positions == clean_positions
    final = {p: stack_of(rough.state, p) for p in range(1, 7)}
    assert final == {p: stack_of(clean.state, p) for p in range(1, 7)}
    assert rough.state.places() == clean.state.places()
    assert rough.state.clock_at(1e9).hands_played == clean.state.clock_at(1e9).hands_played == len(clean_positions)
    misdealt = [r for h in rough.state.dealing.at_table(1) for r in h.rulings if r.kind == "misdeal"]
    assert misdealt and all(r.rule.startswith("TDA 35") for r in misdealt)


@pytest.mark.parametrize(("kind", "rule", "words"), [
    ("button_two_in_a_row", "TDA 35-B", "Two cards in a row to the button are allowed"),  # "is allowed (35-B)"
    ("button_short", "TDA 35-A-5, 37", "not a misdeal"),  # 35-A-5: "except the button case in Rule 37"
    ("rabbit_hunt", "TDA 28", "No rabbit hunting"),  # TDA.md §8: "No rabbit hunting (28)."
])
def test_the_other_section_8_events_are_ruled_and_logged(kind, rule, words):
    """TDA.md §8: "Two consecutive cards to the button is allowed (35-B)"; "Wrong number of
    cards to a player (except the button case in Rule 37)"; "No rabbit hunting (28)"."""
    night = four()
    night.deal()
    state = night.add("hand_ruling", {"table": 1, "kind": kind})
    ruling = state.dealing.running(1).rulings[-1]
    assert ruling.rule == rule and words in ruling.text and state.dealing.running(1).log == ()


@pytest.mark.parametrize(("cause", "rule"), [
    ("boxed_cards", "TDA 35-A-1"),  # "2 or more boxed cards on the initial deal."
    ("wrong_first_seat", "TDA 35-A-2"),  # "First card dealt to the wrong seat."
    ("empty_seat", "TDA 35-A-3"),  # "Cards dealt to a seat not entitled to a hand."
    ("dealt_out", "TDA 35-A-4"),  # "A seat entitled to a hand is dealt out."
    ("wrong_count", "TDA 35-A-5"),  # "Wrong number of cards to a player"
    ("non_standard_card", "TDA 35-A-6"),  # "A non-standard card found before SA."
    ("exposed_first_two", "TDA 35-A-7"),  # "1 of the first 2 cards [...] exposed by dealer error."
    ("exposed_two", "TDA 35-A-7"),  # "or any other 2 down cards, exposed by dealer error."
])
def test_every_misdeal_of_tda_35_a_is_an_exact_replay_before_substantial_action(cause, rule):
    """TDA.md §8, the misdeals of TDA 35-A, each before SA a re-deal that "is an exact replay
    (35-C)", and none after it: "No misdeal after SA (35-D)"."""
    night = four()
    first = night.deal()
    night.act("p3 f")
    state = night.add("hand_misdeal", {"table": 1, "cause": cause})
    again = state.dealing.running(1)
    assert again.rulings[-1].rule == f"{rule}, 35-C" and again.setup == first.setup and again.log == ()
    night.act("p3 cc", "p4 cc")
    with pytest.raises(IllegalAction, match=r"No misdeal after substantial action \(TDA 35-D\)"):
        night.add("hand_misdeal", {"table": 1, "cause": cause})


def test_the_log_says_each_ruling_with_the_names():
    """The director's log reads each ruling as a sentence, the time-up as the check it ruled,
    and an entry a misdeal voided as it was played."""
    night = four()
    night.deal()
    night.act("p3 cc")
    voided = night.state.last_event
    night.add("hand_misdeal", {"table": 1, "cause": "boxed_cards"})
    night.add("button_corrected", {"table": 1, "seat": 3})  # button 3: SB 4, BB 1, seat 2 first
    night.add("hand_ruling", {"table": 1, "kind": "boxed_card"})
    night.act("p2 cc", "p3 cc", "p4 cc")
    now = night.state.seq + 10.0
    _at(night, "action_clock", {"action": "start", "who": "Seat 1", "seconds": 25, "table": 1, "seat": 1}, now)
    _at(night, "hand_time_up", {"table": 1}, now + 31)
    assert [describe(night.state, e) for e in reversed(night.state.recent_events(6))] == [
        "Table 1: misdeal (two or more boxed cards on the initial deal), the hand is dealt again",
        "Table 1: the button belongs on seat 3 (Cy)",
        "Table 1: a ruling is read out (one boxed card)",
        "Table 1: Bob calls 20; Cy calls 20; Dee calls 20",
        "Seat 1 is on the clock for 25 seconds",
        "Table 1: time is up, Ann checks",
    ]
    assert describe(night.state, voided) == "Table 1: Cy calls 20"  # as played, before the misdeal
