"""The tournament fold: settings, players, seats, clock actions, busts, rebuys, add-ons, undo."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule

from engine.errors import EngineError, IllegalAction, InvalidInput
from engine.structure import sit_and_go, structure_to_dict
from engine.tournament import Event, Tournament, apply, describe, fold, settings_from_dict


class Log:
    """Builds a tournament event by event, like the event store does."""

    def __init__(self, **settings: Any) -> None:
        self.state = fold([Event(1, "created", {"name": "Friday", **settings}, 0.0)])
        self.at = 0.0

    def add(self, type: str, **payload: Any) -> Tournament:
        self.at += 10.0
        self.state = apply(self.state, Event(self.state.seq + 1, type, payload, self.at))
        return self.state

    def register(self, *names: str) -> Tournament:
        for name in names:
            self.add("player_registered", name=name)
        return self.state

    def start(self) -> Tournament:
        return self.add("clock", action="start")


def started(*names: str, **settings: Any) -> Log:
    log = Log(**settings)
    log.register(*names)
    log.start()
    return log


def test_created_needs_a_name():
    with pytest.raises(InvalidInput, match="The tournament name is empty"):
        fold([Event(1, "created", {"name": "  "}, 0.0)])


def test_settings_refuse_a_negative_stack_and_an_odd_table_size():
    with pytest.raises(InvalidInput, match="starting stack cannot be negative"):
        settings_from_dict({"name": "x", "starting_stack": -5})
    with pytest.raises(InvalidInput, match="6, 9 or 10 seats, not 7"):
        settings_from_dict({"name": "x", "table_size": 7})


def test_settings_read_a_structure_dict_and_check_it():
    s = settings_from_dict({"name": "x", "structure": structure_to_dict(sit_and_go(1000))})
    assert s.structure.hand_counted
    bad = structure_to_dict(sit_and_go(1000))
    bad["items"][1]["big_blind"] = 10
    bad["items"][1]["small_blind"] = 5
    with pytest.raises(InvalidInput):
        settings_from_dict({"name": "x", "structure": bad})


def test_custom_percentages_must_add_up_to_100():
    with pytest.raises(InvalidInput, match="100%"):
        settings_from_dict({"name": "x", "payout_kind": "custom", "percentages": "50/30"})
    s = settings_from_dict({"name": "x", "payout_kind": "custom", "percentages": "60/40"})
    assert [int(p) for p in s.percentages] == [60, 40]


def test_registration_refuses_empty_and_duplicate_names():
    log = Log()
    log.register("Ann")
    with pytest.raises(InvalidInput, match="name is empty"):
        log.add("player_registered", name=" ")
    with pytest.raises(IllegalAction, match="Ann is already registered"):
        log.add("player_registered", name="  ann ")


def test_registration_closes_when_the_clock_starts_without_late_registration():
    log = started("Ann", "Bob")
    with pytest.raises(IllegalAction, match="Registration closed when the clock started"):
        log.add("player_registered", name="Cy")


def test_late_registration_while_open():
    log = started("Ann", "Bob", late_registration_levels=2)
    log.register("Cy")
    log.add("clock", action="next_level")
    log.register("Dee")
    log.add("clock", action="next_level")
    with pytest.raises(IllegalAction, match="closed at the end of level 2"):
        log.add("player_registered", name="Eve")
    assert log.state.entries == 4


def test_clock_needs_two_players_and_a_start():
    log = Log()
    log.register("Ann")
    with pytest.raises(IllegalAction, match="Start the clock first"):
        log.add("clock", action="pause")
    with pytest.raises(IllegalAction, match="at least 2 players"):
        log.start()
    log.register("Bob")
    log.start()
    with pytest.raises(IllegalAction, match="already started"):
        log.start()
    log.add("clock", action="pause")
    with pytest.raises(IllegalAction, match="already paused"):
        log.add("clock", action="pause")
    log.add("clock", action="resume")
    with pytest.raises(IllegalAction, match="nothing to resume"):
        log.add("clock", action="resume")


def test_seed_000_elimination_places_same_hand_ranked_by_starting_stack():
    """Seed 000: "If several players are knocked out in the same hand, the one who started
    that hand with more chips finishes higher; players who started with the same number of
    chips share the place." """
    log = started("Ann", "Bob", "Cy", "Dee", "Eve")
    log.add("bust", players=[2, 3], stacks={"2": 300, "3": 800}, by=1)
    places = log.state.places()
    assert places == {3: 4, 2: 5}
    log.add("bust", players=[4, 5], stacks={"4": 500, "5": 500}, by=1)
    assert log.state.finished
    assert log.state.places() == {1: 1, 4: 2, 5: 2, 3: 4, 2: 5}


def test_seed_000_eliminated_player_finishes_behind_everyone_still_in():
    """Seed 000: "A player who loses all their chips is eliminated and finishes behind
    everyone still in the game." """
    log = started("Ann", "Bob", "Cy")
    log.add("bust", players=[3])
    assert log.state.place_of(3) == 3
    assert log.state.place_of(1) is None
    log.add("bust", players=[1], by=2)
    assert log.state.places() == {2: 1, 1: 2, 3: 3}
    assert log.state.eliminated_by() == {1: 2}


def test_a_same_hand_bust_needs_the_starting_stacks():
    log = started("Ann", "Bob", "Cy")
    with pytest.raises(InvalidInput, match="give Ann's chips at the start of the hand"):
        log.add("bust", players=[1, 2])


def test_nobody_busts_twice_and_the_last_player_cannot_bust():
    log = started("Ann", "Bob", "Cy")
    log.add("bust", players=[3])
    with pytest.raises(IllegalAction, match="Cy is already out"):
        log.add("bust", players=[3])
    with pytest.raises(InvalidInput, match="no player number 9"):
        log.add("bust", players=[9])
    with pytest.raises(IllegalAction, match="cannot all be knocked out"):
        log.add("bust", players=[1, 2], stacks={"1": 10, "2": 20})
    with pytest.raises(IllegalAction, match="cannot knock themselves out"):
        log.add("bust", players=[1], by=1)
    with pytest.raises(IllegalAction, match="already out and cannot knock anyone out"):
        log.add("bust", players=[1], by=3)


def test_tda_rebuy_brings_a_busted_player_back_within_the_rebuy_period():
    """TDA 6.5: "A player may rebuy when busted ... The rebuy period is the first N levels." """
    log = started("Ann", "Bob", "Cy", rebuy_levels=1, max_rebuys=1, starting_stack=1000, rebuy_chips=1000)
    log.add("bust", players=[3], by=1)
    log.add("rebuy", player=3)
    state = log.state
    assert state.players_left == 3 and state.rebuys == 1
    assert state.places() == {}
    assert state.chips_in_play == 4000
    with pytest.raises(IllegalAction, match="Bob still has chips"):
        log.add("rebuy", player=2)
    log.add("bust", players=[3], by=2)
    with pytest.raises(IllegalAction, match="Cy has used 1 rebuy, the most allowed"):
        log.add("rebuy", player=3)
    log.add("clock", action="next_level")
    with pytest.raises(IllegalAction, match="Rebuys closed after level 1"):
        log.add("rebuy", player=1)
    log.add("bust", players=[2], by=1)
    assert log.state.finished
    assert log.state.places() == {1: 1, 2: 2, 3: 3}


def test_rebuy_gets_the_old_seat_back():
    log = Log(rebuy_levels=2)
    log.register("Ann", "Bob", "Cy")
    log.add("seats_drawn", seats={"1": [1, 1], "2": [1, 2], "3": [1, 3]})
    log.start()
    log.add("bust", players=[2])
    assert log.state.player(2).status == "waiting" and not log.state.player(2).seated
    log.add("rebuy", player=2)
    assert (log.state.player(2).table, log.state.player(2).seat) == (1, 2)


def test_no_rebuys_unless_the_host_allows_them():
    log = started("Ann", "Bob")
    with pytest.raises(IllegalAction, match="no rebuys"):
        log.add("rebuy", player=1)


def test_tda_addon_once_per_player_still_in():
    """TDA 6.5: "One add-on at the end of the rebuy period, open to everyone whatever their stack." """
    log = started("Ann", "Bob", "Cy", addon_level=1, addon_chips=5000, starting_stack=10000)
    log.add("addon", player=1)
    with pytest.raises(IllegalAction, match="already taken the add-on"):
        log.add("addon", player=1)
    log.add("bust", players=[3])
    with pytest.raises(IllegalAction, match="Cy is out"):
        log.add("addon", player=3)
    assert log.state.chips_in_play == 35000
    log.add("clock", action="next_level")
    with pytest.raises(IllegalAction, match="only during level 1"):
        log.add("addon", player=2)


def test_prize_pool_and_default_payouts():
    log = Log(buy_in=20, rebuy_levels=2, rebuy_cost=20)
    log.register(*[f"P{i}" for i in range(10)])
    log.start()
    log.add("bust", players=[1])
    log.add("rebuy", player=1)
    state = log.state
    assert state.prize_pool == 220
    assert state.prizes == [110, 66, 44]
    assert sum(state.prizes) == state.prize_pool


def test_awards_follow_places_and_shared_places_share_prizes():
    log = started("Ann", "Bob", "Cy", "Dee", buy_in=10, payout_kind="custom", percentages="50/30/20")
    log.add("bust", players=[4])
    log.add("bust", players=[2, 3], stacks={"2": 100, "3": 100}, by=1)
    assert log.state.places() == {1: 1, 2: 2, 3: 2, 4: 4}
    assert log.state.awards() == {1: 20, 2: 10, 3: 10}


def test_league_points():
    log = started("Ann", "Bob", "Cy", payout_kind="points", league_formula="field")
    log.add("bust", players=[3])
    log.add("bust", players=[2])
    assert log.state.prizes == []
    assert log.state.points() == {1: 3, 2: 2, 3: 1}


def test_undo_cancels_the_last_live_event_and_keeps_the_sequence():
    log = started("Ann", "Bob", "Cy")
    log.add("bust", players=[3])
    assert log.add("undo").players_left == 3
    assert log.state.seq == 7
    log.add("undo")  # cancels the clock start
    assert not log.state.started
    log.add("undo")
    log.add("undo")
    log.add("undo")
    assert log.state.entries == 0
    with pytest.raises(IllegalAction, match="nothing to undo"):
        log.add("undo")


def test_seats_drawn_and_moves_are_checked():
    log = Log(table_size=6)
    log.register("Ann", "Bob", "Cy")
    log.add("seats_drawn", seats={"1": [1, 1], "2": [1, 4], "3": [2, 2]})
    assert {t: [p.name for p in ps] for t, ps in log.state.tables().items()} == {1: ["Ann", "Bob"], 2: ["Cy"]}
    with pytest.raises(IllegalAction, match="Seat 4 at table 1 is taken by Bob"):
        log.add("player_moved", player=3, table=1, seat=4)
    with pytest.raises(InvalidInput, match="seats 1 to 6"):
        log.add("player_moved", player=3, table=1, seat=7)
    log.add("player_moved", player=3, table=1, seat=5)
    with pytest.raises(IllegalAction, match="cannot both sit"):
        log.add("seats_drawn", seats={"1": [1, 1], "2": [1, 1]})


def test_an_event_must_follow_the_last_one():
    log = Log()
    with pytest.raises(InvalidInput, match="cannot follow"):
        apply(log.state, Event(5, "player_registered", {"name": "Ann"}, 1.0))


@given(st.lists(st.integers(min_value=1, max_value=3000), min_size=2, max_size=9), st.data())
def test_places_are_a_permutation_of_finishing_positions(stacks: list[int], data: st.DataObject):
    """Whatever the busts, when one player is left the places cover 1..N (ties share the better)."""
    n = len(stacks)
    log = started(*[f"P{i}" for i in range(n)])
    alive = list(range(1, n + 1))
    while len(alive) > 1:
        k = data.draw(st.integers(min_value=1, max_value=len(alive) - 1))
        out = data.draw(st.permutations(alive))[:k]
        log.add("bust", players=out, stacks={str(p): stacks[p - 1] for p in out})
        alive = [p for p in alive if p not in out]
    places = log.state.places()
    assert sorted(places) == list(range(1, n + 1))
    assert places[alive[0]] == 1
    # a place p shared by m players leaves places p+1..p+m-1 empty
    counts: dict[int, int] = {}
    for place in places.values():
        counts[place] = counts.get(place, 0) + 1
    assert sum(counts.values()) == n
    for place, m in counts.items():
        assert all(q not in counts for q in range(place + 1, place + m))


def test_engine_errors_are_value_errors():
    assert issubclass(EngineError, ValueError)


def timed(**settings: Any) -> dict[str, Any]:
    """A timed structure: 20-minute levels 100/200, 200/400, a 10-minute break, 300/600."""
    structure = {
        "name": "test",
        "starting_stack": 10000,
        "items": [
            {"type": "level", "small_blind": 100, "big_blind": 200, "minutes": 20},
            {"type": "level", "small_blind": 200, "big_blind": 400, "minutes": 20},
            {"type": "break", "minutes": 10},
            {"type": "level", "small_blind": 300, "big_blind": 600, "minutes": 20},
        ],
    }
    return {"structure": structure, **settings}


def test_clock_state_follows_time_pauses_and_level_jumps():
    log = Log(**timed())
    log.register("Ann", "Bob")
    log.at = 1000.0
    log.start()  # at 1010
    clock = log.state.clock_at(1010.0 + 25 * 60)
    assert (clock.level_number, clock.big_blind) == (2, 400)
    assert clock.seconds_left == 15 * 60
    log.at = 1010.0 + 25 * 60 - 10
    log.add("clock", action="pause")
    paused = log.state.clock_at(1010.0 + 3 * 3600)
    assert paused.status == "paused" and paused.seconds_left == 15 * 60
    log.add("clock", action="resume")
    log.add("clock", action="add_time", seconds=60)
    assert log.state.clock_at(log.at).seconds_left == 15 * 60 - 10 + 60  # ran 10 s after the resume
    log.at += 16 * 60  # into the break after level 2
    assert log.state.clock_at(log.at).on_break
    log.add("clock", action="next_level")  # ends the break early
    assert log.state.clock_at(log.at).level_number == 3
    with pytest.raises(IllegalAction, match="last level"):
        log.add("clock", action="next_level")
    log.add("clock", action="previous_level")
    log.add("clock", action="previous_level")
    assert log.state.clock_at(log.at).level_number == 1
    with pytest.raises(IllegalAction, match="no level before it"):
        log.add("clock", action="previous_level")


def test_rebuys_close_when_the_timed_level_runs_out():
    """TDA 6.5: "The rebuy period is the first N levels" - counted by the clock, not by clicks."""
    log = Log(**timed(rebuy_levels=1))
    log.register("Ann", "Bob", "Cy")
    log.start()
    log.add("bust", players=[3])
    log.at += 21 * 60  # level 2 by the clock
    with pytest.raises(IllegalAction, match="Rebuys closed after level 1"):
        log.add("rebuy", player=3)


def test_hand_counted_levels_change_on_hands_played():
    """Seed 000: "The blinds start at 10/20 and go up every 6 hands (every 4 in turbo mode)." """
    log = Log(preset="sng-1000-turbo", starting_stack=1000)
    log.register("Ann", "Bob")
    log.start()
    for _ in range(4):
        log.add("clock", action="hand_played")
    clock = log.state.clock_at(log.at + 3600)
    assert (clock.level_number, clock.small_blind, clock.big_blind) == (2, 15, 30)
    with pytest.raises(EngineError):
        log.add("clock", action="add_time", seconds=60)


def test_timed_structure_has_no_hand_button():
    log = Log(**timed())
    log.register("Ann", "Bob")
    log.start()
    with pytest.raises(IllegalAction, match="timed, not counted in hands"):
        log.add("clock", action="hand_played")


def test_the_last_bust_stops_the_clock_and_undo_restarts_it():
    log = Log(**timed())
    log.register("Ann", "Bob")
    log.start()
    log.add("bust", players=[2], by=1)
    assert log.state.clock_at(log.at + 60).status == "finished"
    with pytest.raises(IllegalAction, match="over"):
        log.add("clock", action="pause")
    log.add("undo")
    assert log.state.clock_at(log.at).status == "running"


def test_a_long_night_of_events_costs_each_state_only_what_it_changed():
    """The dealer's assistant logs every action: 10,000 events must fold in little memory
    (the log is chained through the states, not copied into each one)."""
    import tracemalloc

    events = [
        Event(1, "created", {"name": "Long night"}, 0.0),
        Event(2, "player_registered", {"name": "Ann"}, 1.0),
        Event(3, "player_registered", {"name": "Bob"}, 2.0),
        Event(4, "clock", {"action": "start"}, 3.0),
    ]
    for i in range(10_000):
        payload = {"action": "start", "who": "Seat 1", "seconds": 60} if i % 2 == 0 else {"action": "stop"}
        events.append(Event(5 + i, "action_clock", payload, 4.0 + i))
    tracemalloc.start()
    try:
        state = fold(events)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 50_000_000
    assert len(state.log) == 10_003 and state.log[-1] is state.last_event
    assert [e.seq for e in state.recent_events(3)] == [10_004, 10_003, 10_002]


def test_tda_t23_equal_starting_stacks_tie_for_9th_and_share_the_prizes():
    """TDA T23: "Same starting stacks: tie for 9th/10th, each gets (P9+P10)/2." """
    names = [f"P{i}" for i in range(1, 11)]
    log = started(*names, buy_in=100, payout_kind="custom", percentages="30/20/12/10/8/6/5/4/3/2")
    log.add("bust", players=[9, 10], stacks={"9": 700, "10": 700})
    state = log.state
    assert state.places() == {9: 9, 10: 9}
    for pid in range(8, 1, -1):
        log.add("bust", players=[pid])
    awards = log.state.awards()
    assert awards[9] == awards[10] == (30 + 20) // 2  # (3% + 2%) of 1,000, shared
    assert sum(awards.values()) == log.state.prize_pool


def test_tda_t58_rebuy_at_or_below_the_starting_stack():
    """TDA T58: "Stack ≤ starting stack: rebuy allowed if rebuy_threshold=starting_stack." """
    log = started("Ann", "Bob", rebuy_levels=2, rebuy_when="at_or_below_start", starting_stack=1000)
    with pytest.raises(InvalidInput, match="Give Ann's chip count"):
        log.add("rebuy", player=1)
    with pytest.raises(IllegalAction, match="Ann has 1,500 chips"):
        log.add("rebuy", player=1, stack=1500)
    log.add("rebuy", player=1, stack=800)
    assert log.state.rebuys == 1 and log.state.chips_in_play == 3000


def test_tda_t59_addon_at_the_break_that_ends_the_rebuy_period():
    """TDA T59: "Add-on offered to everyone at the break that ends the rebuy period." """
    log = Log(**timed(rebuy_levels=2, addon_level=2, addon_chips=5000))
    log.register("Ann", "Bob", "Cy")
    log.start()
    log.at += 41 * 60  # the break after level 2
    assert log.state.clock_at(log.at).on_break
    log.add("addon", player=1)
    log.add("bust", players=[3])
    log.add("rebuy", player=3)  # still the rebuy period: the break belongs to level 2
    log.at += 10 * 60  # level 3
    with pytest.raises(IllegalAction, match="only during level 2"):
        log.add("addon", player=2)
    with pytest.raises(IllegalAction, match="Rebuys closed after level 2"):
        log.add("rebuy", player=2)


class TournamentMachine(RuleBasedStateMachine):
    """Random nights of registrations, busts, rebuys, clock actions and undos."""

    def __init__(self) -> None:
        super().__init__()
        self.events = [Event(1, "created", {"name": "Machine", "starting_stack": 1000, "rebuy_levels": 2,
                                            "max_rebuys": 2, "late_registration_levels": 1}, 0.0)]
        self.state = fold(self.events)
        self.names = 0

    def add(self, type: str, payload: dict[str, Any]) -> bool:
        event = Event(self.state.seq + 1, type, payload, float(len(self.events)))
        try:
            new = apply(self.state, event)
        except EngineError:
            return False
        self.events.append(event)
        self.state = new
        return True

    @rule()
    def register(self) -> None:
        self.names += 1
        self.add("player_registered", {"name": f"P{self.names}"})

    @rule()
    def start(self) -> None:
        self.add("clock", {"action": "start"})

    @rule(data=st.data())
    def bust(self, data: st.DataObject) -> None:
        alive = [p.id for p in self.state.alive]
        if len(alive) < 2:
            return
        k = data.draw(st.integers(min_value=1, max_value=min(3, len(alive) - 1)))
        out = data.draw(st.permutations(alive))[:k]
        stacks = {str(p): data.draw(st.integers(min_value=0, max_value=3000)) for p in out}
        self.add("bust", {"players": out, "stacks": stacks})

    @rule(data=st.data())
    def rebuy(self, data: st.DataObject) -> None:
        waiting = [p.id for p in self.state.players if p.status == "waiting"]
        if waiting:
            self.add("rebuy", {"player": data.draw(st.sampled_from(waiting))})

    @rule(action=st.sampled_from(["next_level", "previous_level", "pause", "resume"]))
    def clock(self, action: str) -> None:
        self.add("clock", {"action": action})

    @rule()
    def undo(self) -> None:
        self.add("undo", {})

    @invariant()
    def a_cold_replay_gives_the_same_state(self) -> None:
        assert fold(self.events) == self.state

    @invariant()
    def chips_and_players_add_up(self) -> None:
        s = self.state
        assert s.chips_in_play == 1000 * (s.entries + s.rebuys)
        assert s.players_left == sum(1 for p in s.players if p.status == "in")
        assert all(p.rebuys <= 2 for p in s.players)

    @invariant()
    def places_are_below_everyone_still_in(self) -> None:
        places = self.state.provisional_places()
        assert all(place > self.state.players_left for place in places.values()) or self.state.finished
        if self.state.finished:
            assert sorted(self.state.places().values())[0] == 1


TestTournamentMachine = TournamentMachine.TestCase
TestTournamentMachine.settings = settings(max_examples=60, stateful_step_count=30, deadline=None)


def test_a_player_registered_by_mistake_is_removed_before_the_start():
    log = Log()
    log.register("Ann", "Bob", "Cy")
    log.add("player_unregistered", player=2)
    assert [p.name for p in log.state.players] == ["Ann", "Cy"]
    log.register("Dee")
    assert log.state.player_named("Dee").id == 4  # ids are never reused
    log.start()
    with pytest.raises(IllegalAction, match="Cy cannot be removed any more, only knocked out"):
        log.add("player_unregistered", player=3)


def test_the_log_names_a_player_removed_with_the_name_the_event_kept():
    """Once removed, the player is no longer in the state: the log reads the name the
    ``player_unregistered`` event kept (an event stored without it still reads as a sentence)."""
    log = Log()
    log.register("Ann", "Bob", "Cy", "Dee")
    log.add("player_unregistered", player=2, name="Bob")
    removed = log.state.last_event
    log.add("player_unregistered", player=3)
    log.start()
    assert describe(log.state, removed) == "Bob was removed from the tournament"
    assert describe(log.state, log.state.recent_events(2)[1]) == "A player was removed from the tournament"


def test_the_log_says_who_moved_where():
    log = Log(table_size=6)
    log.register("Ann", "Bob", "Cy", "Dee")
    log.add("seats_drawn", seats={"1": [1, 1], "2": [1, 4], "3": [2, 2], "4": [2, 3]})
    log.add("players_moved", moves=[{"player": 1, "from": [1, 1], "to": [2, 4]}])
    assert describe(log.state, log.state.last_event) == "Ann moved to table 2 seat 4"
    log.add("players_moved", moves=[{"player": 2, "from": [1, 4], "to": [2, 5]},
                                    {"player": 3, "from": [2, 2], "to": [1, 2]},
                                    {"player": 4, "from": [2, 3], "to": [1, 3]}])
    assert describe(log.state, log.state.last_event) == (
        "3 players moved: Bob to table 2 seat 5, Cy to table 1 seat 2, Dee to table 1 seat 3"
    )
    log.add("player_moved", player=1, table=1, seat=6)
    assert describe(log.state, log.state.last_event) == "Ann moved to table 1 seat 6"


def test_the_log_says_the_clock_and_the_busts_in_sentences():
    log = started("Ann", "Bob", "Cy", "Dee")
    log.add("clock", action="add_time", seconds=60)
    log.add("clock", action="add_time", seconds=-90)
    log.add("clock", action="pause")
    log.add("bust", players=[2], by=1)
    log.add("bust", players=[3, 4], stacks={"3": 100, "4": 200}, by=[1])
    assert [describe(log.state, e) for e in reversed(log.state.recent_events(6))] == [
        "The clock started",
        "1 minute added to the clock",
        "90 seconds taken off the clock",
        "The clock was paused",
        "Bob is out, knocked out by Ann",
        "Cy and Dee are out, knocked out by Ann",
    ]


def test_more_entries_than_the_default_payout_tables_is_said_not_raised():
    log = Log()
    log.register(*[f"P{i}" for i in range(101)])
    assert log.state.prizes == [] and log.state.awards() == {}
    assert "no default payout table for 101 entries" in (log.state.payout_problem or "")


def test_seed_000_hand_cap_refuses_another_hand_played():
    """Seed 000: "the game ends after 120 hands in any case: the players still in are then
    ranked by their chips." Once the cap is counted, a further "hand played" is refused."""
    log = Log(preset="sng-1000-turbo", starting_stack=1000)
    log.register("Ann", "Bob")
    log.start()
    for _ in range(120):
        log.add("clock", action="hand_played")
    assert log.state.clock_at(log.at).hand_cap_reached
    with pytest.raises(IllegalAction) as refused:
        log.add("clock", action="hand_played")
    assert str(refused.value) == (
        "The 120-hand cap is reached: the game is over, the players still in are ranked by chips."
    )
    assert log.state.clock_at(log.at).hands_played == 120
