from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.clock import (
    Adjust,
    ClockState,
    Finish,
    HandPlayed,
    Pause,
    Resume,
    SetLevel,
    Start,
    clock_state,
    event_from_dict,
    event_to_dict,
    events_from_dicts,
    seconds_to_end_of_level,
    seconds_to_estimated_end,
)
from engine.errors import IllegalAction, InvalidInput
from engine.structure import Break, Level, Structure, sit_and_go

T0 = 1_700_000_000.5

# Levels of 20 minutes, a 10-minute break (colouring up the 25s) after level 2, four levels.
S = Structure(
    "test",
    (
        Level(25, 50, minutes=20),
        Level(50, 100, minutes=20),
        Break(10, (25,)),
        Level(100, 200, minutes=20),
        Level(200, 400, 400, minutes=20),
    ),
    10_000,
    denominations=(25, 100, 500),
)


def at(events, seconds, structure=S, **kw) -> ClockState:
    return clock_state(structure, events, T0 + seconds, **kw)


# --- Running through levels and breaks ------------------------------------------------


def test_a_clock_not_started_shows_the_first_level_in_full():
    st_ = at([], 0)
    assert (st_.status, st_.level_number, st_.seconds_left, st_.ends_at) == ("not_started", 1, 1200, None)
    assert st_.title == "Level 1 · 25/50"


def test_levels_and_breaks_chain_through_time():
    ev = [Start(T0)]
    a = at(ev, 0)
    assert (a.status, a.level_number, a.small_blind, a.big_blind, a.seconds_left) == ("running", 1, 25, 50, 1200)
    assert a.ends_at == T0 + 1200
    assert at(ev, 1199.5).seconds_left == 0.5
    b = at(ev, 1200)
    assert (b.level_number, b.seconds_left, b.break_next, b.next_level_number) == (2, 1200, True, 3)
    c = at(ev, 2400 + 30)
    assert (c.status, c.on_break, c.level_number, c.seconds_left) == ("on_break", True, None, 570)
    assert c.colour_up_now == (25,)
    assert c.title == "Break · 10 min · colour up the 25 chips"
    assert (c.next_level_number, c.next_level) == (3, S.level(3))
    d = at(ev, 3000 + 1200 + 5)
    assert (d.level_number, d.ante, d.title) == (4, 400, "Level 4 · 200/400 · ante 400")
    assert d.next_level is None and d.next_level_number is None


def test_after_the_last_level_of_a_structure_without_doubling_the_last_level_goes_on():
    e = at([Start(T0)], 5400 + 3600)
    assert (e.status, e.level_number, e.continuing) == ("running", 4, True)
    assert e.seconds_left is None and e.ends_at is None
    assert e.seconds_to_end == 0
    assert e.title == "Level 4 · 200/400 · ante 400 · the last level goes on"


def test_the_next_break_its_start_and_its_colour_up():
    a = at([Start(T0)], 100)
    assert a.seconds_to_break == 2300
    assert a.break_starts_at == T0 + 2400
    assert a.next_break_colour_up == (25,)
    assert a.seconds_to_end == 5300
    assert at([Start(T0)], 3100).seconds_to_break is None


def test_a_timed_structure_with_doubling_goes_on_doubling():
    s = Structure("d", (Level(100, 200, minutes=10), Level(200, 400, minutes=10)), 5000, repeat_doubling=True)
    st_ = at([Start(T0)], 3 * 600 + 1, structure=s)  # level 4
    assert (st_.level_number, st_.big_blind, st_.seconds_left, st_.seconds_to_end) == (4, 1600, 599, None)
    assert st_.next_level == Level(1600, 3200, minutes=10)


def test_far_past_the_list_a_doubling_clock_is_still_exact():
    s = Structure("d", (Level(100, 200, minutes=10), Level(200, 400, minutes=10)), 5000, repeat_doubling=True)
    for n in (3, 7, 50, 120):
        start = (n - 1) * 600
        assert at([Start(T0)], start, structure=s).level_number == n
        before = at([Start(T0)], start - 0.001, structure=s)
        assert before.level_number == n - 1
        assert abs(before.seconds_left - 0.001) < 1e-5
    assert at([Start(T0)], 119 * 600 + 5, structure=s).big_blind == 400 * 2**118


def test_time_to_the_end_of_a_level_and_to_the_estimated_end():
    """TDA 6.4: the game ends around the first level with BB >= total chips / 20."""
    st_ = at([Start(T0)], 300)
    assert seconds_to_end_of_level(S, st_, 1) == 900
    assert seconds_to_end_of_level(S, st_, 3) == 900 + 1200 + 600 + 1200
    assert seconds_to_end_of_level(S, at([Start(T0)], 1300), 1) == 0
    # 10 players × 10,000 = 100,000 chips: a BB of 5,000 is never reached.
    assert seconds_to_estimated_end(S, st_, 10) is None
    small = replace(S, starting_stack=1000)  # 4 players: 4,000 chips, BB >= 200 at level 3
    assert seconds_to_estimated_end(small, clock_state(small, [Start(T0)], T0 + 300), 4) == 3900
    assert seconds_to_end_of_level(sit_and_go(), at([Start(T0)], 5, structure=sit_and_go()), 3) is None


def test_five_hour_clock_is_exact_to_the_millisecond():
    """A 5-hour clock read at any instant gives the exact answer from its events."""
    levels = []
    for n in range(1, 16):
        levels.append(Level(25 * n, 50 * n, minutes=20))
        if n in (3, 6, 9):
            levels.append(Break(10))
    s = Structure("long", tuple(levels), 10_000)
    # Timeline: levels of 1200 s, breaks of 600 s after levels 3, 6 and 9: level 14 runs
    # from 17,400 s to 18,600 s of clock time.
    ev = [
        Start(T0),
        Pause(T0 + 1000.125),
        Resume(T0 + 1300.375),  # paused 300.25 s
        Adjust(T0 + 5000, -120),  # level 4, 499.75 s in: two minutes off
    ]
    now = 5 * 3600
    clock_time = now - 300.25 + 120  # 17,819.75
    st_ = at(ev, now, structure=s)
    assert st_.level_number == 14
    assert abs(st_.seconds_left - (18600 - clock_time)) < 1e-3
    assert abs(st_.ends_at - (T0 + now + 780.25)) < 1e-3
    assert abs(st_.elapsed - 419.75) < 1e-3
    # Read every 7 s for five hours: the countdown moves at exactly one second a second.
    prev = at(ev, 5001, structure=s)
    for t in range(5008, now, 7):
        cur = at(ev, t, structure=s)
        if cur.title == prev.title:
            assert abs((prev.seconds_left - cur.seconds_left) - 7) < 1e-6
        assert abs(cur.seconds_to_end - (prev.seconds_to_end - 7)) < 1e-6
        prev = cur


# --- Pause, resume, adjust, jump, finish -------------------------------------------------


def test_a_paused_clock_does_not_move():
    ev = [Start(T0), Pause(T0 + 100)]
    a, b = at(ev, 101), at(ev, 10_000)
    assert a == b
    assert (a.status, a.seconds_left, a.ends_at, a.break_starts_at) == ("paused", 1100, None, None)


def test_resume_carries_on_where_the_clock_was_paused():
    ev = [Start(T0), Pause(T0 + 100), Resume(T0 + 400)]
    st_ = at(ev, 400)
    assert (st_.status, st_.seconds_left, st_.ends_at) == ("running", 1100, T0 + 1500)
    assert at(ev, 1500).level_number == 2


def test_a_break_can_be_paused():
    ev = [Start(T0), Pause(T0 + 2500)]
    st_ = at(ev, 9999)
    assert (st_.status, st_.on_break, st_.seconds_left) == ("paused", True, 500)


def test_add_and_remove_a_minute():
    ev = [Start(T0), Adjust(T0 + 100, 60)]
    st_ = at(ev, 100)
    assert (st_.seconds_left, st_.item_seconds, st_.ends_at) == (1160, 1260, T0 + 1260)
    assert at(ev, 1259).level_number == 1
    assert at(ev, 1260).level_number == 2
    assert at(ev, 1260).seconds_left == 1200  # the minute belonged to level 1 only
    ev2 = [Start(T0), Adjust(T0 + 100, -60)]
    assert at(ev2, 100).seconds_left == 1040
    assert at(ev2, 1140).level_number == 2


def test_removing_more_time_than_is_left_ends_the_level_at_once():
    """The choice for "adjust below zero": clamp — the item ends now, nothing carries over."""
    ev = [Start(T0), Adjust(T0 + 1000, -600)]
    st_ = at(ev, 1000)
    assert (st_.level_number, st_.seconds_left) == (2, 1200)
    assert at(ev, 2200).on_break


def test_adjust_while_paused_and_before_the_start():
    ev = [Start(T0), Pause(T0 + 100), Adjust(T0 + 200, 120)]
    assert at(ev, 300).seconds_left == 1220
    assert at([Adjust(T0, 300)], 10).seconds_left == 1500


def test_jump_to_the_next_and_the_previous_level():
    ev = [Start(T0), Adjust(T0 + 10, 60), SetLevel(T0 + 100, 2)]
    st_ = at(ev, 100)
    assert (st_.level_number, st_.seconds_left, st_.ends_at) == (2, 1200, T0 + 1300)
    ev.append(SetLevel(T0 + 200, 1))
    st_ = at(ev, 250)
    assert (st_.level_number, st_.seconds_left) == (1, 1150)
    # Jumping past a break skips it.
    ev.append(SetLevel(T0 + 300, 3))
    assert at(ev, 300).level_number == 3


def test_jump_while_paused_stays_paused_and_before_start_sets_the_first_level():
    ev = [Start(T0), Pause(T0 + 50), SetLevel(T0 + 60, 4)]
    st_ = at(ev, 1000)
    assert (st_.status, st_.level_number, st_.seconds_left) == ("paused", 4, 1200)
    st_ = at([SetLevel(T0, 3), Start(T0 + 10)], 20)
    assert (st_.level_number, st_.seconds_left) == (3, 1190)


def test_finish_freezes_the_clock():
    ev = [Start(T0), Finish(T0 + 1300)]
    a, b = at(ev, 1300), at(ev, 99_999)
    assert a == b
    assert (a.status, a.level_number, a.seconds_left, a.ends_at) == ("finished", 2, 1100, None)


# --- Refusals ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("events", "message"),
    [
        ([Start(T0), Pause(T0 + 1), Pause(T0 + 2)], "The clock is already paused."),
        ([Start(T0), Resume(T0 + 1)], "The clock is already running."),
        ([Pause(T0)], "The clock has not started."),
        ([Resume(T0)], "The clock has not started."),
        ([Start(T0), Start(T0 + 1)], "The clock has already started."),
        ([Start(T0), Finish(T0 + 5), Resume(T0 + 6)], "The clock is finished: it cannot resume."),
        ([Finish(T0)], "The clock has not started: there is nothing to finish."),
        ([Start(T0), SetLevel(T0 + 1, 5)], "There is no level 5: the structure has levels 1 to 4."),
        ([Start(T0), SetLevel(T0 + 1, 0)], "There is no level 0: the structure has levels 1 to 4."),
        (
            [Start(T0 + 10), Pause(T0 + 5)],
            "The clock's pause is dated 5 seconds before the event before it: clock events must be in time order.",
        ),
        ([HandPlayed(T0)], "The clock has not started: no hand can have been played."),
        (
            [Start(T0), Adjust(T0 + 9000, 60)],
            "The last level goes on without end: there is no time to add or remove.",
        ),
    ],
)
def test_impossible_clock_events_are_refused_with_a_reason(events, message):
    with pytest.raises(IllegalAction) as err:
        at(events, 10_000)
    assert str(err.value) == message


def test_an_unplayable_structure_is_refused():
    bad = Structure("bad", (Level(20, 20, minutes=10),), 1000)
    with pytest.raises(InvalidInput, match="big blind"):
        at([Start(T0)], 5, structure=bad)


def test_now_before_the_last_event_reads_the_clock_at_that_event():
    ev = [Start(T0), Pause(T0 + 100)]
    assert at(ev, 50) == at(ev, 100)


# --- Hand-counted levels (seed 000) --------------------------------------------------------


def hands(n, start=T0):
    return [Start(start)] + [HandPlayed(start + 60 * (i + 1)) for i in range(n)]


def test_seed_000_normal_blinds_go_up_every_6_hands():
    """Seed 000: "The blinds start at 10/20 and go up every 6 hands"."""
    s = sit_and_go(1000)
    st5 = at(hands(5), 400, structure=s)
    assert (st5.level_number, st5.big_blind, st5.hands_in_level, st5.hands_left_in_level) == (1, 20, 5, 1)
    st6 = at(hands(6), 400, structure=s)
    assert (st6.level_number, st6.small_blind, st6.big_blind, st6.hands_left_in_level) == (2, 15, 30, 6)
    assert st6.seconds_left is None and st6.ends_at is None


def test_seed_000_turbo_blinds_go_up_every_4_hands():
    """Seed 000: "or turbo, every 4 hands: the blinds rise faster"."""
    s = sit_and_go(1000, turbo=True)
    assert at(hands(3), 999, structure=s).level_number == 1
    assert at(hands(4), 999, structure=s).level_number == 2
    assert at(hands(40), 9999, structure=s).level_number == 11


def test_seed_000_blinds_keep_doubling_after_500_1000_hand_by_hand():
    """Seed 000: "... 300/600, 500/1000, then they double at every level"."""
    s = sit_and_go(2000)
    st_ = at(hands(60), 99_999, structure=s)  # 10 levels of 6 hands played
    assert (st_.level_number, st_.small_blind, st_.big_blind) == (11, 1000, 2000)
    assert at(hands(66), 99_999, structure=s).big_blind == 4000


def test_seed_000_the_hand_cap_is_120_hands():
    """Seed 000: "As a safety net the game ends after 120 hands in any case"."""
    s = sit_and_go(1000)
    assert not at(hands(119), 99_999, structure=s).hand_cap_reached
    st_ = at(hands(120), 99_999, structure=s)
    assert (st_.hands_played, st_.hand_cap, st_.hand_cap_reached) == (120, 120, True)


def test_the_hand_count_can_be_passed_in():
    s = sit_and_go(1000)
    st_ = at([Start(T0)], 50, structure=s, hands_played=13)
    assert (st_.level_number, st_.hands_in_level, st_.hands_played) == (3, 1, 13)
    # A jump made when 13 hands had been played: level 5 counts from there.
    ev = [Start(T0), SetLevel(T0 + 5, 5, hands_played=13)]
    st_ = at(ev, 50, structure=s, hands_played=20)
    assert (st_.level_number, st_.hands_in_level) == (6, 1)


def test_a_level_jump_in_a_hand_counted_structure_counts_hands_from_the_jump():
    s = sit_and_go(1000)
    ev = [*hands(8), SetLevel(T0 + 1000, 4), HandPlayed(T0 + 1100)]
    st_ = at(ev, 1200, structure=s)
    assert (st_.level_number, st_.hands_in_level, st_.hands_left_in_level, st_.hands_played) == (4, 1, 5, 9)


@given(st.integers(0, 400), st.booleans())
def test_seed_000_level_for_any_hand_count(played, turbo):
    """Seed 000: a new level every 6 hands (4 in turbo), doubling after 500/1000."""
    s = sit_and_go(1000, turbo=turbo)
    per = 4 if turbo else 6
    st_ = at([Start(T0)], 5, structure=s, hands_played=played)
    assert st_.level_number == played // per + 1
    assert st_.hands_in_level == played % per
    assert st_.hands_left_in_level == per - played % per
    assert st_.big_blind == s.level(played // per + 1).big_blind
    assert st_.hand_cap_reached == (played >= 120)


def test_tda_t41_a_level_that_ends_mid_hand_applies_from_the_next_hand():
    """T41: "A level ends mid-hand: the new blinds start on the next hand" (TDA 23): a hand
    takes its blinds from the clock read when the hand starts."""
    ev = [Start(T0)]
    hand_started = at(ev, 1190)  # level 1 has 10 s left when the hand is dealt
    assert at(ev, 1250).level_number == 2  # the level changes while the hand is played
    assert (hand_started.small_blind, hand_started.big_blind) == (25, 50)
    assert (at(ev, 1260).small_blind, at(ev, 1260).big_blind) == (50, 100)  # the next hand
    s = sit_and_go(1000)
    sixth = at(hands(5), 400, structure=s)  # dealing hand 6: still level 1
    seventh = at(hands(6), 460, structure=s)  # dealing hand 7: level 2
    assert (sixth.big_blind, seventh.big_blind) == (20, 30)


def test_hand_counted_levels_have_no_time_to_adjust():
    with pytest.raises(IllegalAction, match="changes level by hands"):
        at([Start(T0), Adjust(T0 + 1, 60)], 5, structure=sit_and_go(1000))


# --- Stored events -------------------------------------------------------------------------


def test_events_round_trip_through_plain_dicts():
    evs = [Start(T0), Pause(T0 + 1), Resume(T0 + 2), Adjust(T0 + 3, -60), SetLevel(T0 + 4, 2),
           SetLevel(T0 + 4, 3, hands_played=7), HandPlayed(T0 + 5), Finish(T0 + 6)]
    assert events_from_dicts([event_to_dict(e) for e in evs]) == evs


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"type": "stop", "at": 1}, "'stop' is not a clock event"),
        ({"type": "start"}, "needs a time 'at'"),
        ({"type": "adjust", "at": 1}, "needs a number of seconds"),
        ({"type": "set_level", "at": 1, "level": "two"}, "needs a level number"),
    ],
)
def test_bad_stored_events_are_refused(data, message):
    with pytest.raises(InvalidInput, match=message):
        event_from_dict(data)


# --- Invariants ---------------------------------------------------------------------------

ACTIONS = st.lists(
    st.tuples(
        st.floats(0, 2000, allow_nan=False),
        st.sampled_from(["start", "start", *["pause", "resume", "adjust", "set_level"] * 3, "finish"]),
        st.integers(-900, 900),
    ),
    max_size=12,
)


def build(actions):
    """A legal event list from random wishes: each wish is kept only when the clock accepts it."""
    events = []
    t = T0
    for dt, kind, n in actions:
        t += dt
        ev = {
            "start": Start(t),
            "pause": Pause(t),
            "resume": Resume(t),
            "adjust": Adjust(t, n),
            "set_level": SetLevel(t, 1 + abs(n) % 4),
            "finish": Finish(t),
        }[kind]
        try:
            clock_state(S, [*events, ev], t)
        except IllegalAction:
            continue
        events.append(ev)
    return events, t


@settings(max_examples=150)
@given(ACTIONS, st.floats(0, 4000, allow_nan=False), st.floats(0, 4000, allow_nan=False))
def test_clock_state_invariants(actions, d1, d2):
    """For random event sequences, the state at any instant is consistent: seconds left stay
    within the item's length, total time left never rises while running and falls at one second
    a second, a paused clock does not move."""
    events, last = build(actions)
    t1, t2 = last + min(d1, d2), last + max(d1, d2)
    a, b = clock_state(S, events, t1), clock_state(S, events, t2)
    for s_ in (a, b):
        if s_.seconds_left is not None:
            assert 0 <= s_.seconds_left <= s_.item_seconds
            assert s_.elapsed >= -1e-6
        if s_.status in ("running", "on_break") and s_.seconds_left is not None:
            now = t1 if s_ is a else t2
            assert abs(s_.ends_at - (now + s_.seconds_left)) < 1e-6
        else:
            assert s_.ends_at is None
    if a.status in ("paused", "finished", "not_started"):
        assert a == b
    else:
        assert b.seconds_to_end <= a.seconds_to_end
        assert abs(b.seconds_to_end - max(0.0, a.seconds_to_end - (t2 - t1))) < 1e-6
    # Pausing and resuming at the same instant changes nothing.
    if a.status in ("running", "on_break"):
        c = clock_state(S, [*events, Pause(t1), Resume(t1)], t2)
        assert c.title == b.title
        assert (c.seconds_left is None) == (b.seconds_left is None)
        if c.seconds_left is not None:
            assert abs(c.seconds_left - b.seconds_left) < 1e-6
