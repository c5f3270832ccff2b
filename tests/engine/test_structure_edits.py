"""The structure edited in play (issue: "The night changes as it runs"): the clock stays
exact, what was played is kept, an edit is an event that undo takes back; breaks as a
director runs them."""

from __future__ import annotations

import pytest

from engine.clock import Restructure, Start, clock_state
from engine.errors import IllegalAction, InvalidInput
from engine.structure import Break, Level, Structure, edit
from engine.tournament import Event, Tournament, apply, describe, fold

T0 = 1_000.0
MIN = 60.0


def timed() -> Structure:
    return Structure(
        "test",
        (
            Level(25, 50, minutes=15),
            Level(50, 100, minutes=15),
            Break(10, (25,)),
            Level(100, 200, minutes=15),
            Level(200, 400, minutes=15),
        ),
        10_000,
    )


class Night:
    def __init__(self, *, pause_after_break: bool = False, structure: Structure | None = None) -> None:
        from engine.structure import structure_to_dict

        settings = {"name": "Friday", "structure": structure_to_dict(structure or timed())}
        if pause_after_break:
            settings["pause_after_break"] = True
        self.seq = 1
        self.state: Tournament = fold([Event(1, "created", settings, 0.0)])
        for name in ("Ann", "Bob", "Cy"):
            self.add("player_registered", T0 - 10, name=name)

    def add(self, type_: str, at: float, **payload: object) -> Tournament:
        self.state = apply(self.state, Event(self.seq + 1, type_, payload, at))
        self.seq += 1
        return self.state

    def clock(self, at: float):  # type: ignore[no-untyped-def]
        return self.state.clock_at(at)


def started() -> Night:
    night = Night()
    night.add("clock", T0, action="start")
    return night


def test_a_level_edited_in_play_keeps_its_elapsed_time():
    """"The clock stays exact: the running level keeps its elapsed time (or restarts, as the
    director chooses)"."""
    night = started()
    night.add("structure_changed", T0 + 5 * MIN, edit="level", item=0, minutes=20, big_blind=60)
    clock = night.clock(T0 + 5 * MIN)
    assert clock.big_blind == 60 and clock.seconds_left == 15 * MIN
    assert night.clock(T0 + 20 * MIN).level_number == 2


def test_a_level_edited_in_play_can_start_again():
    night = started()
    night.add("structure_changed", T0 + 5 * MIN, edit="level", item=0, minutes=20, restart=True)
    assert night.clock(T0 + 5 * MIN).seconds_left == 20 * MIN
    assert night.clock(T0 + 24 * MIN).level_number == 1


def test_a_level_shortened_below_what_has_run_ends_at_the_edit():
    night = started()
    night.add("structure_changed", T0 + 10 * MIN, edit="level", item=0, minutes=5)
    clock = night.clock(T0 + 10 * MIN)
    assert clock.level_number == 2 and clock.seconds_left == 15 * MIN


def test_the_edit_holds_while_paused():
    night = started()
    night.add("clock", T0 + 5 * MIN, action="pause")
    night.add("structure_changed", T0 + 30 * MIN, edit="level", item=0, minutes=10)
    assert night.clock(T0 + 40 * MIN).seconds_left == 5 * MIN
    night.add("clock", T0 + 41 * MIN, action="resume")
    assert night.clock(T0 + 46 * MIN).level_number == 2


def test_later_levels_change_and_every_later_level_at_once():
    """"change every later level at once (for example 'all levels 15 minutes')"."""
    night = started()
    night.add("structure_changed", T0 + MIN, edit="all_levels", item=1, minutes=20)
    minutes = [i.minutes for i in night.state.settings.structure.items]
    assert minutes == [15, 20, 10, 20, 20]  # the break keeps its length
    assert night.clock(T0 + 15 * MIN).seconds_left == 20 * MIN


def test_insert_and_remove_a_level_or_a_break_to_come():
    night = started()
    night.add("structure_changed", T0 + MIN, edit="add_break", item=1, minutes=5)
    assert isinstance(night.state.settings.structure.items[1], Break)
    assert night.clock(T0 + 15 * MIN).on_break
    night.add("structure_changed", T0 + 2 * MIN, edit="remove", item=3)  # the old break
    night.add("structure_changed", T0 + 3 * MIN, edit="add_level", item=5, small_blind=300, big_blind=600)
    kinds = [type(i).__name__ for i in night.state.settings.structure.items]
    assert kinds == ["Level", "Break", "Level", "Level", "Level", "Level"]
    assert night.state.settings.structure.levels[-1] == Level(300, 600, minutes=15)


def test_what_was_played_cannot_change_and_the_level_in_play_cannot_be_removed():
    """"a level removed while it is being played" is refused with a clear sentence."""
    night = started()
    at = T0 + 16 * MIN  # level 2
    with pytest.raises(IllegalAction, match="Level 1 is over: only what is still to come can change"):
        night.add("structure_changed", at, edit="level", item=0, minutes=30)
    with pytest.raises(IllegalAction, match="Level 2 is being played: it cannot be removed"):
        night.add("structure_changed", at, edit="remove", item=1)
    with pytest.raises(IllegalAction, match="before level 2, which is being played"):
        night.add("structure_changed", at, edit="add_break", item=1, minutes=5)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"edit": "level", "item": 1, "small_blind": 300}, r"The big blind \(100\) cannot be below the small blind \(300\)"),
        ({"edit": "break", "item": 2, "minutes": 0}, "between 1 and 240, not 0"),
        ({"edit": "level", "item": 2, "minutes": 5}, "Item 2 is the break after level 2, not a level"),
        ({"edit": "add_level", "item": 3}, "A new level needs its blinds"),
        ({"edit": "level", "item": 9}, "between 0 and 4, not 9"),
        ({"edit": "shuffle", "item": 1}, "not 'shuffle'"),
        ({"edit": "level", "item": 1, "hands": 10}, "last minutes, not hands"),
    ],
)
def test_bad_edits_are_refused_with_a_sentence_and_nothing_changes(change, message):
    night = started()
    before = night.state
    with pytest.raises((InvalidInput, IllegalAction), match=message):
        night.add("structure_changed", T0 + MIN, **change)
    assert night.state is before


def test_an_edit_is_an_event_undo_takes_back_and_the_log_says_what_changed():
    """"An edit is an event: undo takes it back, the log says what changed"."""
    night = started()
    night.add("structure_changed", T0 + MIN, edit="level", item=1, big_blind=120, minutes=20)
    event = Event(night.seq, "structure_changed", {}, T0 + MIN)
    assert describe(night.state, event) == "Structure changed: Level 2: 50/120, 20 min (was 50/100, 15 min)."
    night.add("undo", T0 + 2 * MIN)
    assert night.state.settings.structure == timed()
    assert night.clock(T0 + 20 * MIN).seconds_left == 10 * MIN


def test_the_tournament_clock_is_the_clock_of_its_edits():
    """The tournament's clock is ``engine.clock`` over the opening structure and the edits."""
    from engine.clock import Adjust

    night = started()
    night.add("structure_changed", T0 + 5 * MIN, edit="level", item=0, minutes=10)
    night.add("clock", T0 + 11 * MIN, action="add_time", seconds=120)
    night.add("structure_changed", T0 + 12 * MIN, edit="all_levels", item=1, minutes=12)
    first = timed()
    second, _ = edit(first, {"edit": "level", "item": 0, "minutes": 10})
    third, _ = edit(second, {"edit": "all_levels", "item": 1, "minutes": 12})
    events = [Start(T0), Restructure(T0 + 5 * MIN, second), Adjust(T0 + 11 * MIN, 120),
              Restructure(T0 + 12 * MIN, third)]
    alone = clock_state(first, events, T0 + 13 * MIN)
    # Level 2 began at +10; the 2 minutes added at +11 go with its old length: now it lasts 12.
    assert alone.seconds_left == night.clock(T0 + 13 * MIN).seconds_left == 9 * MIN
    assert night.state.settings.structure == third and night.state.opening_structure == first


def test_next_level_goes_into_the_break_when_a_break_is_next():
    """"'Next level' goes into the break when a break is next (today it jumps over it)"."""
    night = started()
    night.add("clock", T0 + MIN, action="next_level")  # level 2
    night.add("clock", T0 + 2 * MIN, action="next_level")
    clock = night.clock(T0 + 2 * MIN)
    assert clock.on_break and clock.seconds_left == 10 * MIN and clock.colour_up_now == (25,)
    night.add("clock", T0 + 3 * MIN, action="next_level")
    assert night.clock(T0 + 3 * MIN).level_number == 3


def test_break_now_starts_the_break_that_follows_or_puts_one_in():
    """"'Break now' and 'Extend the break by N minutes'"."""
    night = started()
    night.add("clock", T0 + 5 * MIN, action="break_now", minutes=7)  # no break after level 1
    clock = night.clock(T0 + 5 * MIN)
    assert clock.on_break and clock.seconds_left == 7 * MIN
    assert isinstance(night.state.settings.structure.items[1], Break)
    with pytest.raises(IllegalAction, match="It is the break already"):
        night.add("clock", T0 + 6 * MIN, action="break_now")
    night.add("clock", T0 + 6 * MIN, action="add_time", seconds=300)  # extend the break
    assert night.clock(T0 + 6 * MIN).seconds_left == 11 * MIN
    assert night.clock(T0 + 17 * MIN).level_number == 2
    night.add("clock", T0 + 20 * MIN, action="break_now")  # the scheduled break follows level 2
    assert night.clock(T0 + 20 * MIN).current_break == Break(10, (25,))


def test_the_end_of_the_break_starts_the_next_level_paused_when_set():
    """"the end of the break starts the next level, paused or running as set"."""
    night = Night(pause_after_break=True)
    night.add("clock", T0, action="start")
    after_break = T0 + 40 * MIN  # two levels and the break
    clock = night.clock(after_break + 5 * MIN)
    assert clock.status == "paused" and clock.level_number == 3 and clock.seconds_left == 15 * MIN
    night.add("clock", after_break + 6 * MIN, action="resume")
    assert night.clock(after_break + 7 * MIN).seconds_left == 14 * MIN
    running = started()
    assert running.clock(after_break + 5 * MIN).status == "running"


def test_a_hand_counted_structure_is_edited_by_hands():
    """"Hand-counted structures (seed 000's sit-and-go) too: levels by hands"."""
    counted = Structure("sng", (Level(10, 20, hands=10), Level(15, 30, hands=10), Level(25, 50, hands=10)), 1500)
    night = Night(structure=counted)
    night.add("clock", T0, action="start")
    for k in range(4):
        night.add("clock", T0 + k + 1, action="hand_played")
    night.add("structure_changed", T0 + 10, edit="level", item=0, hands=6)
    assert night.clock(T0 + 10).hands_left_in_level == 2
    night.add("structure_changed", T0 + 11, edit="level", item=0, hands=4)  # already reached: level 2
    assert night.clock(T0 + 11).level_number == 2
    with pytest.raises(InvalidInput, match="counted in hands, not minutes"):
        night.add("structure_changed", T0 + 12, edit="level", item=1, minutes=10)


def test_settings_change_after_creation_and_what_happened_stays_true():
    """"A change that contradicts what already happened is refused with the reason"."""
    night = Night()
    night.add("settings_changed", T0 - 5, starting_stack=12_000, buy_in=30)
    assert night.state.settings.structure.starting_stack == 12_000 and night.state.chips_in_play == 36_000
    night.add("clock", T0, action="start")
    with pytest.raises(IllegalAction, match="The clock has started with 12,000 chips a player"):
        night.add("settings_changed", T0 + 1, starting_stack=10_000)
    with pytest.raises(InvalidInput, match="created_at cannot be changed here"):
        night.add("settings_changed", T0 + 1, created_at=5)
    night.add("settings_changed", T0 + 2, late_registration_levels=6, pause_after_break=True)
    assert night.state.settings.late_registration_levels == 6 and night.state.settings.pause_after_break
    assert describe(night.state, Event(night.seq, "settings_changed", {"late_registration_levels": 6}, 0.0)) == (
        "Settings changed: late registration levels set to 6"
    )
