"""Hands at the tables in the tournament's fold (engine.dealing): the deal, the finish, and
what follows for the tournament."""

from __future__ import annotations

from itertools import pairwise
from typing import Any

import pytest
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from engine import notation
from engine.dealing import chip_check, h4h_round, last_positions, plan_deal, stack_of
from engine.errors import EngineError, IllegalAction
from engine.structure import Break, Level, Structure, sit_and_go, structure_to_dict
from engine.tournament import Event, Tournament, apply, describe, fold


class Night:
    """A tournament built event by event, one second apart."""

    def __init__(self, names: list[str], seats: dict[int, tuple[int, int]], buttons: dict[int, int],
                 structure: Structure | None = None, **settings: Any) -> None:
        created = {
            "name": "Test", "starting_stack": 1000, "table_size": 6,
            "structure": structure_to_dict(structure or sit_and_go(1000)), **settings,
        }
        self.state: Tournament = fold([Event(1, "created", created, 0.0)])
        for name in names:
            self.add("player_registered", {"name": name})
        self.add("seats_drawn", {
            "seats": {str(p): list(place) for p, place in seats.items()},
            "buttons": {str(t): b for t, b in buttons.items()},
        })
        self.add("clock", {"action": "start"})

    def add(self, type_: str, payload: dict[str, Any]) -> Tournament:
        self.state = apply(self.state, Event(self.state.seq + 1, type_, payload, float(self.state.seq)))
        return self.state

    def deal(self, table: int = 1) -> Any:
        self.add("hand_started", {"table": table})
        return self.state.dealing.running(table)

    def act(self, *actions: str, table: int = 1) -> Tournament:
        return self.add("hand_action", {"table": table, "actions": list(actions)})

    def fold_round(self, table: int = 1) -> None:
        """Everyone folds to the big blind."""
        while (running := self.state.dealing.running(table)) is not None:
            turn = running.replay().turn
            self.act(f"p{turn} f", table=table)

    def stacks(self, table: int = 1) -> dict[int, int]:
        return {s: stack_of(self.state, p) for s, p in self.state.seating.at_table(table).items()}


def three() -> Night:
    """Ann seat 1, Bob seat 2, Cy seat 4; the button drawn on seat 4."""
    return Night(["Ann", "Bob", "Cy"], {1: (1, 1), 2: (1, 2), 3: (1, 4)}, {1: 4})


def test_the_first_hand_takes_the_button_drawn_with_the_seats() -> None:
    night = three()
    hand = night.deal()
    assert (hand.positions.button, hand.positions.small_blind, hand.positions.big_blind) == (4, 1, 2)
    assert hand.setup.stacks == {1: 1000, 2: 1000, 4: 1000}
    assert (hand.setup.small_blind, hand.setup.big_blind, hand.level) == (10, 20, 1)
    assert hand.replay().turn == 4
    assert last_positions(night.state) == {1: hand.positions}


def test_seed_000_levels_go_up_every_6_hands() -> None:
    """Seed 000: "The blinds start at 10/20 and go up every 6 hands"."""
    night = three()
    for _ in range(6):
        assert night.deal().setup.big_blind == 20
        night.fold_round()
    hand = night.deal()
    assert (hand.level, hand.setup.small_blind, hand.setup.big_blind) == (2, 15, 30)


def test_tda_t2_the_big_blind_busts_and_the_small_blind_is_dead() -> None:
    """TDA T2: BB (3) busts: SB is dead (seat 3 is empty, so no SB is posted), BTN=2 (the former
    SB), BB=4."""
    night = Night(["A", "B", "C", "D", "E"], {p: (1, p) for p in range(1, 6)}, {1: 1})
    hand = night.deal()
    assert (hand.positions.button, hand.positions.small_blind, hand.positions.big_blind) == (1, 2, 3)
    night.act("p4 cbr 1000", "p5 f", "p1 f", "p2 f", "p3 cc", "d db 2c3d4h8s9s", "p3 sm 7c7d", "p4 sm AcAd", "d win cards")
    assert night.state.player(3).out
    nxt = night.deal()
    assert (nxt.positions.button, nxt.positions.small_blind, nxt.positions.big_blind) == (2, None, 4)
    assert nxt.setup.small_blind_seat is None and 2 in nxt.setup.stacks


def test_tda_t11_a_player_moved_in_between_the_button_and_the_small_blind_sits_out_one_hand() -> None:
    """TDA 1.4, T11: a newcomer seated strictly between the button and the small blind is not
    dealt in this hand, only the next."""
    night = Night(["A", "B", "C", "D"], {1: (1, 1), 2: (1, 3), 3: (1, 5), 4: (2, 1)}, {1: 1, 2: 1})
    night.deal()  # button 1, SB 3, BB 5
    night.fold_round()
    night.add("player_moved", {"player": 4, "table": 1, "seat": 4})  # between button 3 and SB 5
    hand = night.deal()
    assert (hand.positions.button, hand.positions.small_blind, hand.positions.big_blind) == (3, 5, 1)
    assert dict(hand.waiting) == {4: 4} and 4 not in hand.setup.stacks
    night.fold_round()
    assert 4 in night.deal().setup.stacks


def test_seed_000_same_hand_busts_are_ranked_by_starting_stack() -> None:
    """Seed 000: "If several players are knocked out in the same hand, the one who started that
    hand with more chips finishes higher"."""
    night = Night(["A", "B", "C", "D"], {p: (1, p) for p in range(1, 5)}, {1: 4})
    night.add("stack_corrected", {"player": 1, "stack": 300, "reason": "test"})
    night.add("stack_corrected", {"player": 2, "stack": 700, "reason": "test"})
    night.add("stack_corrected", {"player": 4, "stack": 2000, "reason": "test"})
    night.deal()  # button 4, SB 1, BB 2
    night.act("p3 cbr 1000", "p4 cc", "p1 cc", "p2 cc")
    night.act("d db 2c3d4h8s9s", "p1 sm 7c7d", "p2 sm 6c6d", "p3 sm 5c5d", "p4 sm AcAd", "d win cards")
    state = night.state
    assert [p.id for p in state.players if p.out] == [1, 2, 3]
    assert state.places() == {4: 1, 3: 2, 2: 3, 1: 4}
    assert state.finished and state.eliminated_by() == {1: 4, 2: 4, 3: 4}
    assert night.state.dealing.current(1).busted == ((1, 300), (2, 700), (3, 1000))


def test_the_hand_cap_ends_the_tournament_ranked_by_chips() -> None:
    """Seed 000: "the game ends after 120 hands in any case: the players still in are then
    ranked by their chips" (here a cap of 2 hands)."""
    short = Structure("capped", (Level(10, 20, hands=6),), 1000, hand_cap=2)
    night = Night(["Ann", "Bob", "Cy"], {1: (1, 1), 2: (1, 2), 3: (1, 4)}, {1: 4}, structure=short)
    night.deal()
    night.fold_round()  # Bob (BB) +10
    night.deal()
    night.fold_round()  # Cy (BB) +10, Bob (SB) -10
    assert night.state.finished
    assert night.state.places() == {3: 1, 2: 2, 1: 3}  # Cy 1,010, Bob 1,000, Ann 990
    with pytest.raises(IllegalAction, match="The 2-hand cap is reached: the game is over"):
        night.deal()


def test_a_rebuy_after_a_bust_in_a_hand_gives_the_rebuy_stack() -> None:
    night = Night(["Ann", "Bob", "Cy"], {1: (1, 1), 2: (1, 2), 3: (1, 4)}, {1: 4},
                  rebuy_levels=3, rebuy_chips=1500)
    night.deal()
    night.act("p4 cbr 1000", "p1 cc", "p2 f", "d db 2c3d4h8s9s", "p1 sm 7c7d", "p4 sm AcAd", "d win cards")
    assert night.state.player(1).out
    night.add("rebuy", {"player": 1})
    assert stack_of(night.state, 1) == 1500
    assert chip_check(night.state).difference == 0


def test_undo_of_the_finishing_action_brings_the_player_back() -> None:
    night = three()
    night.deal()
    night.act("p4 cbr 1000", "p1 cc", "p2 f", "d db 2c3d4h8s9s", "p1 sm 7c7d", "p4 sm AcAd", "d win cards")
    assert night.state.player(1).out
    night.add("undo", {})
    assert not night.state.player(1).out and night.stacks() == {1: 1000, 2: 1000, 4: 1000}
    assert night.state.dealing.running(1) is not None


def test_hand_undo_steps_back_through_the_actions_then_the_deal() -> None:
    night = three()
    night.deal()
    night.act("p4 cbr 60")
    night.act("p1 cc")
    night.add("hand_undo", {"table": 1})
    assert night.state.dealing.running(1).log == ("p4 cbr 60",)
    night.add("hand_undo", {"table": 1})
    night.add("hand_undo", {"table": 1})
    assert night.state.dealing.current(1) is None
    with pytest.raises(IllegalAction, match="there is nothing to undo"):
        night.add("hand_undo", {"table": 1})


def test_tda_t24_hand_for_hand_busts_at_two_tables_share_the_place() -> None:
    """TDA 3.4, T24: hand for hand, busts on different tables: the default splits (they share
    the best of their places)."""
    seats = {1: (1, 1), 2: (1, 2), 3: (1, 3), 4: (2, 1), 5: (2, 2), 6: (2, 3)}
    night = Night(list("ABCDEF"), seats, {1: 3, 2: 3})
    night.add("stack_corrected", {"player": 1, "stack": 500, "reason": "test"})
    night.add("stack_corrected", {"player": 3, "stack": 1500, "reason": "test"})
    night.add("hand_for_hand", {"on": True})
    for table in (1, 2):
        assert h4h_round(night.state, table) == 1
        night.deal(table)
    # Table 1: seat 3 (button) shoves, seat 1 calls and loses. Table 2: seat 3 shoves, seat 1 loses.
    night.act("p3 cbr 1500", "p1 cc", "p2 f", "d db 2c3d4h8s9s", "p1 sm 7c7d", "p3 sm AcAd", "d win cards", table=1)
    with pytest.raises(IllegalAction, match="table 2 must finish its hand before table 1 deals"):
        night.deal(1)
    night.act("p3 cbr 1000", "p1 cc", "p2 f", "d db 2c3d4h8s9s", "p1 sm 7c7d", "p3 sm AcAd", "d win cards", table=2)
    assert night.state.places() == {1: 5, 4: 5}


def test_a_deal_is_refused_with_a_reason() -> None:
    night = three()
    night.deal()
    with pytest.raises(IllegalAction, match=r"^Table 1 is still playing hand 1: finish it before dealing the next\.$"):
        night.deal()
    with pytest.raises(IllegalAction, match=r"There is no table 7 in play\."):
        night.deal(7)
    with pytest.raises(IllegalAction, match="has changed since this page was shown"):
        night.fold_round()
        stale = plan_deal(night.state, 1).as_dict()
        stale["stacks"]["1"] += 1
        night.add("hand_started", {"table": 1, "setup": stale})
    timed = Structure("timed", (Level(10, 20, minutes=1), Break(5), Level(20, 40, minutes=1)), 1000)
    night2 = Night(["A", "B"], {1: (1, 1), 2: (1, 2)}, {1: 1}, structure=timed)
    with pytest.raises(IllegalAction, match="It is the break"):
        night2.state = apply(night2.state, Event(night2.state.seq + 1, "hand_started", {"table": 1}, 100.0))
    with pytest.raises(IllegalAction, match="The level has changed"):
        night2.add("hand_started", {"table": 1, "big_blind": 40})


def test_a_correction_moves_the_stack_and_shows_in_the_chip_check() -> None:
    night = three()
    night.add("stack_corrected", {"player": 2, "stack": 900, "reason": "a chip fell"})
    check = chip_check(night.state)
    assert (check.expected, check.counted, check.difference) == (3000, 2900, -100)
    with pytest.raises(EngineError, match="Say why"):
        night.add("stack_corrected", {"player": 2, "stack": 950, "reason": " "})


# ------------------------------------------------------------------ invariants over many hands


def legal_entries(hand: Any) -> list[str]:
    """Entries the seat to act may make: check or call, fold, the smallest, the largest and a
    middle bet or raise."""
    legal = hand.legal_actions()
    seat = legal.seat
    options = [notation.check_or_call(seat)]
    if legal.can_fold:
        options.append(notation.fold(seat))
    if legal.min_bet_or_raise_to is not None and legal.max_bet_or_raise_to is not None:
        low, high = legal.min_bet_or_raise_to, legal.max_bet_or_raise_to
        options += [notation.bet_or_raise(seat, to) for to in (low, high, (low + high) // 2)]
    return options


class TableNight(RuleBasedStateMachine):
    """Random hands at one table through the fold: deal, legal actions, awards, undo."""

    night: Night

    @initialize(players=st.integers(min_value=2, max_value=6), button=st.integers(min_value=1, max_value=6))
    def start(self, players: int, button: int) -> None:
        seats = {p: (1, p) for p in range(1, players + 1)}
        self.night = Night([f"P{p}" for p in seats], seats, {1: min(button, players)})
        self.big_blinds: list[int] = []

    def running(self) -> Any:
        return self.night.state.dealing.running(1)

    @precondition(lambda self: self.running() is None and not self.night.state.finished)
    @rule()
    def deal(self) -> None:
        hand = self.night.deal()
        self.big_blinds.append(dict(hand.players)[hand.positions.big_blind])

    @precondition(lambda self: self.running() is not None and self.running().replay().turn is not None)
    @rule(data=st.data())
    def act(self, data: st.DataObject) -> None:
        self.night.act(data.draw(st.sampled_from(legal_entries(self.running().replay()))))

    @precondition(lambda self: self.running() is not None and self.running().replay().street == "showdown")
    @rule(data=st.data())
    def award(self, data: st.DataObject) -> None:
        hand = self.running().replay()
        winners = [
            data.draw(st.lists(st.sampled_from(p.eligible), min_size=1, max_size=len(p.eligible), unique=True))
            for p in hand.pots()
        ]
        self.night.act("d win " + ";".join(",".join(map(str, w)) for w in winners))

    @precondition(lambda self: self.running() is not None)
    @rule()
    def undo(self) -> None:
        had_deal = not self.running().log
        self.night.add("hand_undo", {"table": 1})
        if had_deal and self.running() is None:
            self.big_blinds.pop()

    @precondition(lambda self: self.night.state.finished)
    @rule()
    def over(self) -> None:
        """The tournament is over: nothing left to do."""

    @invariant()
    def chips_are_kept(self) -> None:
        state = self.night.state
        assert chip_check(state).difference == 0
        assert all(stack_of(state, p) > 0 for p in state.standings.in_play)

    @invariant()
    def nobody_posts_the_big_blind_twice_in_a_row(self) -> None:
        hands = self.night.state.dealing.at_table(1)
        blinds = [dict(h.players)[h.positions.big_blind] for h in hands]
        assert all(a != b for a, b in pairwise(blinds))

    @invariant()
    def the_end_has_every_place(self) -> None:
        state = self.night.state
        if state.finished:
            assert sorted(state.places().values())[0] == 1
            assert len(state.places()) == len(state.players)


TableNight.TestCase.settings = settings(max_examples=40, stateful_step_count=60, deadline=None)
test_table_night = TableNight.TestCase


def test_a_hand_dealt_by_the_assistant_is_never_counted_twice() -> None:
    """Seed 000's levels go up every 6 hands: a hand finished at a table with the dealer's
    assistant is counted there, so the dashboard's "hand played" is refused for it."""
    night = three()
    night.add("clock", {"action": "hand_played"})  # before any hand is dealt: the button counts
    assert night.state.clock_at(night.state.seq).hands_played == 1
    night.deal()
    with pytest.raises(IllegalAction) as refused:
        night.add("clock", {"action": "hand_played"})
    assert str(refused.value) == (
        "The dealer's assistant counts the hands at table 1; the hand-played button is for tables without it."
    )
    night.fold_round()
    assert night.state.clock_at(night.state.seq).hands_played == 2
    with pytest.raises(IllegalAction, match="counts the hands at table 1;"):
        night.add("clock", {"action": "hand_played"})


def test_the_hand_cap_refuses_the_next_deal_and_hand_played() -> None:
    """Seed 000: "the game ends after 120 hands in any case: the players still in are then
    ranked by their chips" (here a cap of 2): no deal and no "hand played" after it."""
    short = Structure("capped", (Level(10, 20, hands=6),), 1000, hand_cap=2)
    night = Night(["Ann", "Bob", "Cy"], {1: (1, 1), 2: (1, 2), 3: (1, 4)}, {1: 4}, structure=short)
    for _ in range(2):
        night.deal()
        night.fold_round()
    message = "The 2-hand cap is reached: the game is over, the players still in are ranked by chips."
    with pytest.raises(IllegalAction, match=message):
        night.deal()
    with pytest.raises(IllegalAction, match=message):
        night.add("clock", {"action": "hand_played"})


def test_hands_counted_on_the_dashboard_reach_the_cap_and_stop_the_deal() -> None:
    """At a table without the assistant the director counts hands; at the cap the
    assistant cannot deal one more."""
    short = Structure("capped", (Level(10, 20, hands=6),), 1000, hand_cap=2)
    night = Night(["Ann", "Bob", "Cy"], {1: (1, 1), 2: (1, 2), 3: (1, 4)}, {1: 4}, structure=short)
    night.add("clock", {"action": "hand_played"})
    night.add("clock", {"action": "hand_played"})
    with pytest.raises(IllegalAction, match="The 2-hand cap is reached"):
        night.deal()


def test_a_dashboard_bust_then_a_rebuy_brings_exactly_the_rebuy_chips() -> None:
    """One chip count: a player down to 1,000 at a table the assistant deals is put out from
    the dashboard (they lost a hand it did not see). The bust must say who won the chips, and
    moves them to that player; then the rebuy brings exactly the rebuy's 10,000, and the
    stacks still add up to the chips in play. A bust at a table without the assistant moves
    no kept stack."""
    seats = {1: (1, 1), 2: (1, 2), 3: (1, 4), 4: (2, 1), 5: (2, 2)}
    night = Night(["Ann", "Bob", "Cy", "Dee", "Eve"], seats, {1: 4, 2: 1},
                  starting_stack=10_000, rebuy_levels=3, rebuy_chips=10_000)
    night.deal()
    night.act("p4 f", "p1 cbr 9000", "p2 cc", "d db 2c3d4h", "p1 cc", "p2 cc", "d db 8s", "p1 cc", "p2 cc",
              "d db 9s", "p1 cc", "p2 cc", "p1 sm 7c7d", "p2 sm AcAd", "d win cards")
    assert night.stacks() == {1: 1000, 2: 19_000, 4: 10_000}
    with pytest.raises(IllegalAction, match=r"Say who knocked Ann out: .* Ann's 1,000 chips go to that player"):
        night.add("bust", {"players": [1]})
    night.add("bust", {"players": [1], "by": 2})
    assert stack_of(night.state, 2) == 20_000
    night.add("rebuy", {"player": 1})
    assert stack_of(night.state, 1) == 10_000
    check = chip_check(night.state, 1)
    assert (check.counted, check.expected, check.difference) == (40_000, 40_000, 0)
    night.add("bust", {"players": [4]})  # table 2 plays without the assistant
    assert chip_check(night.state, 2).difference == 0
    assert chip_check(night.state).difference == 0


# --------------------------------------------------------------------------- the joins by the rules


def two_tables(**settings: Any) -> Night:
    """Ann, Bob, Cy at table 1 (seats 1-3), Dee, Eve, Fay at table 2 (seats 1-3)."""
    seats = {1: (1, 1), 2: (1, 2), 3: (1, 3), 4: (2, 1), 5: (2, 2), 6: (2, 3)}
    return Night(["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"], seats, {1: 1, 2: 1}, **settings)


def test_a_move_during_the_players_hand_waits_until_the_hand_is_over() -> None:
    """TDA 20 / WSOP 67: a player moved while his hand is running finishes it at the old
    table; the new table deals without him until then, so no chip is in two hands."""
    night = two_tables()
    night.deal(1)
    night.add("player_moved", {"player": 3, "table": 2, "seat": 4})
    assert [(p.name, table, hand) for p, table, hand in night.state.moves_waiting] == [("Cy", 1, 1)]
    at_two = night.deal(2)
    assert 3 not in dict(at_two.players).values() and 3 not in dict(at_two.waiting).values()
    assert sum(at_two.setup.stacks.values()) == 3000  # Dee, Eve and Fay only
    night.fold_round(1)
    assert night.state.moves_waiting == ()
    night.fold_round(2)
    again = night.deal(2)
    assert 3 in {pid for _, pid in again.players + again.waiting}
    check = chip_check(night.state)
    assert check.difference == 0


def test_a_director_bust_of_a_player_in_a_running_hand_is_refused_with_the_reason() -> None:
    night = two_tables()
    night.deal(1)
    with pytest.raises(IllegalAction, match="Ann is playing hand 1 at table 1: finish the hand"):
        night.add("bust", {"players": [1], "by": 2})


def test_hand_for_hand_busts_at_two_tables_share_their_place() -> None:
    """TDA 3.4 / T24: busts at different tables on the same hand-for-hand hand split; the
    next hand-for-hand hand is a new one."""
    night = two_tables()
    night.add("hand_for_hand", {"on": True})
    night.add("bust", {"players": [1]})
    night.add("bust", {"players": [4]})
    assert night.state.places() == {1: 5, 4: 5}
    night.add("h4h_next_hand", {})
    night.add("bust", {"players": [2]})
    assert night.state.places() == {2: 4, 1: 5, 4: 5}


def test_hand_for_hand_keeps_seed_000_order_at_one_table() -> None:
    """Seed 000: "the one who started that hand with more chips finishes higher", at each
    table, while busts of the same hand-for-hand hand at another table share."""
    night = two_tables()
    night.add("hand_for_hand", {"on": True})
    night.add("bust", {"players": [1, 2], "stacks": {"1": 500, "2": 800}})
    night.add("bust", {"players": [4], "stacks": {"4": 600}})
    assert night.state.places() == {2: 4, 4: 4, 1: 6}


def test_the_hand_in_play_when_hand_for_hand_is_announced_counts() -> None:
    """TDA RP-8A: "Payout eligibility starts at the announcement 'finish the current hand …
    we are going hand for hand'": that hand is the first hand-for-hand hand, and the other
    tables wait for it before they deal."""
    night = two_tables()
    night.deal(1)
    night.add("hand_for_hand", {"on": True})
    assert night.state.dealing.running(1).h4h_round == 0
    with pytest.raises(IllegalAction, match="table 1 must finish its hand before table 2 deals"):
        night.deal(2)
    night.fold_round(1)
    assert night.deal(2).h4h_round == 1


def test_a_tournament_stored_under_rules_1_folds_as_it_was_played() -> None:
    """A tournament created before the rules had a version keeps its old meaning: a bust
    from the dashboard needed no winner and wrote the chips off."""
    night = two_tables(rules=1)
    night.deal(1)
    night.fold_round(1)
    night.add("bust", {"players": [1]})
    assert [(w.player, w.to) for w in night.state.dealing.write_offs] == [(1, None)]


def test_the_winner_of_a_dashboard_bust_sits_at_the_table_and_is_not_in_a_hand() -> None:
    """One chip count: the chips go to a stack that is not in play, at the same table."""
    night = two_tables()
    with pytest.raises(IllegalAction, match="Dee sits at table 2, Ann at table 1: a player is knocked out by someone"):
        night.add("bust", {"players": [1], "by": 4})
    night.deal(2)
    night.fold_round(2)
    night.deal(1)  # Ann, Bob and Cy are in hand 2 at table 1
    night.add("player_moved", {"player": 4, "table": 1, "seat": 4})  # Dee joins table 1 between hands there
    with pytest.raises(IllegalAction, match="Bob is playing hand 1 at table 1: record the bust when that hand is over"):
        night.add("bust", {"players": [4], "by": 2})


# --------------------------------------------------------------------------- the log's words


def said(night: Night, count: int) -> list[str]:
    """The last ``count`` lines of the director's log, oldest first."""
    return [describe(night.state, e) for e in reversed(night.state.recent_events(count))]


def test_the_log_says_each_betting_action_as_played_with_the_name() -> None:
    """A ``p3 cc`` entry is a check or a call, and a ``cbr`` a bet, a raise or an all-in: the
    log reads each against the hand as it stood, with the player's name."""
    night = three()  # button Cy (4), small blind Ann (1), big blind Bob (2)
    night.deal()
    for entry in ("p4 cbr 60", "p1 cc", "p2 cc", "d db AhKd7c", "p1 cc", "p2 cbr 100", "p4 cbr 300", "p1 f",
                  "p2 cbr 940", "p4 f"):
        night.act(entry)
    assert said(night, 11) == [
        "Table 1: hand 1 is dealt",
        "Table 1: Cy raises to 60",
        "Table 1: Ann calls 60",
        "Table 1: Bob calls 60",
        "Table 1: the flop is Ah Kd 7c",
        "Table 1: Ann checks",
        "Table 1: Bob bets 100",
        "Table 1: Cy raises to 300",
        "Table 1: Ann folds",
        "Table 1: Bob is all in for 940",
        "Table 1: Cy folds; Bob wins the pot of 780",
    ]


def test_the_log_names_who_won_each_pot_and_how_much() -> None:
    """``d win 2;1`` reads as the pots the players won, with their amounts, the main pot first,
    and still does once later hands are dealt."""
    night = three()
    for player, stack in ((1, 1200), (2, 800), (3, 1200)):
        night.add("stack_corrected", {"player": player, "stack": stack, "reason": "a count"})
    night.deal()
    for entry in ("p4 cbr 1200", "p1 cc", "p2 cc", "d db AhKd7c", "d db 2s", "d db 9h"):
        night.act(entry)
    night.act("d win 2;1")
    award = night.state.last_event
    assert said(night, 8) == [
        "Table 1: hand 1 is dealt",
        "Table 1: Cy is all in for 1,200",
        "Table 1: Ann calls all in for 1,200",
        "Table 1: Bob calls all in for 800",
        "Table 1: the flop is Ah Kd 7c",
        "Table 1: the turn is 2s",
        "Table 1: the river is 9h",
        "Table 1: Bob wins the main pot of 2,400; Ann wins side pot 1 of 800",
    ]
    night.deal()
    night.fold_round()
    assert describe(night.state, award) == "Table 1: Bob wins the main pot of 2,400; Ann wins side pot 1 of 800"


def test_an_entry_taken_back_or_put_back_is_said_as_it_was_played() -> None:
    """The dealer's undo and redo say which entry they took back or put back, and the entry
    taken back still reads as it was played."""
    night = three()
    night.deal()
    night.act("p4 cc")
    called = night.state.last_event
    night.add("hand_undo", {"table": 1})
    night.add("hand_redo", {"table": 1})
    night.add("hand_undo", {"table": 1})
    night.act("p4 f")
    assert describe(night.state, called) == "Table 1: Cy calls 20"
    assert said(night, 4) == [
        "Table 1: “Cy calls 20” is taken back",
        "Table 1: “Cy calls 20” is entered again",
        "Table 1: “Cy calls 20” is taken back",
        "Table 1: Cy folds",
    ]
