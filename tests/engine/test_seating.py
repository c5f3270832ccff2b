"""Seating: the draw, late entries, balancing, breaking and the final table (TDA 2, 9 T15-T21)."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.errors import EngineError, IllegalAction, InvalidInput
from engine.positions import Positions, dealt_in, next_positions
from engine.seating import (
    Move,
    Seating,
    apply_moves,
    balance,
    break_table,
    draw_seats,
    even_counts,
    final_table_redraw,
    late_entry_seat,
    moves_between,
    needs_break,
    next_step,
    tables_to_halt,
    worst_seat,
)


def table(number: int, seats, prefix: str | None = None) -> dict:
    """``{(table, seat): "t<table>s<seat>"}`` for the given seats."""
    p = prefix or f"t{number}s"
    return {(number, s): f"{p}{s}" for s in seats}


def assert_valid(seating: Seating) -> None:
    places = [(t, s) for t, s, _ in seating]
    assert len(places) == len(set(places)), "a seat holds two players"
    assert len(seating.players) == len(set(seating.players)), "a player sits twice"
    for t, s, _ in seating:
        assert t in seating.tables and 1 <= s <= seating.table_size


# --- The draw ------------------------------------------------------------------------------------


def test_draw_uses_the_fewest_tables_and_spreads_players_evenly():
    """TDA 2.1: seats are assigned at random."""
    s = draw_seats([f"p{i}" for i in range(23)], 9, random.Random(3))
    assert s.tables == (1, 2, 3)
    assert sorted(s.counts().values()) == [7, 8, 8]
    assert_valid(s)


def test_draw_is_reproducible_from_the_seed_and_random_otherwise():
    players = [f"p{i}" for i in range(14)]
    assert draw_seats(players, 6, random.Random(9)) == draw_seats(players, 6, random.Random(9))
    layouts = {draw_seats(players, 6, random.Random(seed)).placements for seed in range(10)}
    assert len(layouts) == 10


def test_draw_honours_locked_seats():
    players = [f"p{i}" for i in range(12)]
    s = draw_seats(players, 9, random.Random(1), locked={"p3": (2, 9), "p5": (1, 1)})
    assert s.seat_of("p3") == (2, 9) and s.seat_of("p5") == (1, 1)
    assert sorted(s.counts().values()) == [6, 6]


def test_draw_gives_the_bigger_table_to_the_one_with_locks():
    players = list(range(13))
    s = draw_seats(players, 9, random.Random(1), locked={0: (2, 1), 1: (2, 2)})
    assert s.counts() == {1: 6, 2: 7}


@pytest.mark.parametrize(
    ("locked", "words"),
    [
        ({"p1": (3, 1)}, "cannot be locked to table 3: 12 players need 2 tables of 9"),
        ({"p1": (1, 10)}, "seats go from 1 to 9"),
        ({"p1": (1, 4), "p2": (1, 4)}, "both locked to table 1 seat 4"),
        ({"nobody": (1, 1)}, "not in the draw"),
        ({f"p{i}": (1, i + 1) for i in range(7)}, "Table 1 has 7 locked seats"),
    ],
)
def test_draw_refuses_an_impossible_lock(locked, words):
    with pytest.raises(InvalidInput, match=words):
        draw_seats([f"p{i}" for i in range(12)], 9, random.Random(1), locked=locked)


def test_draw_refuses_a_player_twice_and_odd_table_sizes():
    with pytest.raises(InvalidInput, match="Ann is listed twice"):
        draw_seats(["Ann", "Bob", "Ann"], 6, random.Random(1))
    with pytest.raises(InvalidInput, match="11 seats"):
        draw_seats(["Ann", "Bob"], 11, random.Random(1))


@given(st.integers(0, 60), st.sampled_from([6, 9, 10]), st.integers(0, 2**32))
def test_draws_spread_evenly(n, size, seed):
    """Invariant: the fewest tables, differing by at most one player, one player per seat."""
    s = draw_seats(list(range(n)), size, random.Random(seed))
    assert_valid(s)
    assert len(s) == n
    assert len(s.tables) == -(-n // size)
    assert s.spread() <= 1


# --- Late entries --------------------------------------------------------------------------------


def test_late_entry_sits_at_a_shortest_table():
    """TDA 8: late registrations get a random seat; here at the table with the fewest players."""
    s = Seating.of(6, {**table(1, [1, 2, 3, 4]), **table(2, [2, 5])})
    for seed in range(20):
        after, (t, seat) = late_entry_seat(s, "late", random.Random(seed))
        assert t == 2 and seat in (1, 3, 4, 6)
        assert after.seat_of("late") == (t, seat)


def test_late_entry_opens_a_new_table_when_all_are_full():
    s = Seating.of(6, table(1, range(1, 7)))
    after, place = late_entry_seat(s, "late", random.Random(2))
    assert place[0] == 2 and after.tables == (1, 2)


def test_late_entry_refuses_a_player_already_seated():
    s = Seating.of(6, table(1, [1, 2]))
    with pytest.raises(IllegalAction, match="t1s1 is already seated at table 1"):
        late_entry_seat(s, "t1s1", random.Random(2))


# --- Balancing: TDA 9 T15-T18 ---------------------------------------------------------------------


def nine_and_six() -> tuple[Seating, dict[int, Positions]]:
    s = Seating.of(9, {**table(1, range(1, 10)), **table(2, range(1, 7))})
    return s, {1: Positions(1, 2, 3, 2), 2: Positions(4, 5, 6, 5)}


def test_tda_t15_the_player_due_for_the_big_blind_moves_from_the_long_table():
    """T15 9-max, tables 9/6 with max_diff=1: move the source table's next-BB player. At the
    source table, next hand has SB = the old BB (posts) and BB = the next live player, with no
    dead blind."""
    s, positions = nine_and_six()
    moves = balance(s, positions, max_diff=1)
    assert len(moves) == 1
    (m,) = moves
    assert (m.player, m.from_table, m.from_seat) == ("t1s4", 1, 4)
    after = apply_moves(s, moves)
    assert after.counts() == {1: 8, 2: 7}
    nxt = next_positions(positions[1], set(after.at_table(1)))
    assert nxt == Positions(2, 3, 5, 3)
    assert not nxt.small_blind_dead


def test_tda_t16_moved_player_takes_the_first_open_seat_after_the_big_blind_and_posts_it():
    """T16 Destination: the first open seat after the short table's current BB. If that is
    before the next live BB, the mover posts the BB next hand, even though he was "to be BB"
    at his old table."""
    s, positions = nine_and_six()
    (m,) = balance(s, positions)
    assert (m.to_table, m.to_seat) == (2, 7)
    assert not m.waits_for_big_blind and not m.needs_director
    after = apply_moves(s, [m])
    nxt = next_positions(positions[2], set(after.at_table(2)))
    assert nxt.big_blind == 7 and after.player_at(2, 7) == "t1s4"
    assert m.describe() == "Move t1s4 from table 1 seat 4 to table 2 seat 7."


def test_tda_t17_the_moved_player_never_takes_the_small_blind_position():
    """T17 The short table's BB just busted, leaving that seat (next SB position) open plus another
    open seat: the mover takes the other seat, never the SB position. If the SB position is the
    only open seat, prompt the TD."""
    s = Seating.of(9, {**table(1, range(1, 10)), **table(2, [1, 2, 3, 4, 5, 7, 8])})  # 2/6 busted
    moves = balance(s, {1: Positions(1, 2, 3, 2), 2: Positions(4, 5, 6, 5)})
    assert [(m.to_table, m.to_seat) for m in moves] == [(2, 9)]
    only_sb = Seating.of(9, table(2, [1, 2, 3, 4, 5, 7, 8, 9]))
    assert worst_seat(only_sb, 2, Positions(4, 5, 6, 5)) == (6, False, True)


def test_only_the_small_blind_position_open_is_flagged_for_the_director():
    m = Move("Dana", 2, 7, 1, 3, needs_director=True)
    assert m.describe({"Dana": "Dana"}).startswith("Move Dana from table 2 seat 7 to table 1 seat 3.")
    assert "director decides" in m.describe()


def test_tda_t18_a_table_three_short_of_the_fullest_halts():
    """T18 TDA 11-D: 9-handed, A=5, B=8, so A halts when its BB reaches an open seat."""
    s = Seating.of(9, {**table(1, range(1, 6)), **table(2, range(1, 9))})
    assert tables_to_halt(s) == [1]
    assert tables_to_halt(s.without("t2s8")) == []


def test_balancing_across_three_tables():
    """TDA 2.3: from the largest table, ties broken by breaking order (highest number first)."""
    s = Seating.of(9, {**table(1, range(1, 10)), **table(2, range(1, 10)), **table(3, [2, 4, 6, 8, 9])})
    positions = {1: Positions(1, 2, 3, 2), 2: Positions(7, 8, 9, 8), 3: Positions(2, 4, 6, 4)}
    moves = balance(s, positions)
    assert [(m.player, m.to_table, m.to_seat) for m in moves] == [
        ("t2s1", 3, 7),  # table 2 breaks before table 1; its next big blind is seat 1
        ("t1s4", 3, 1),  # then table 1; seat 7 is taken, seat 8 and 9 full: next open after 6 is 1
    ]
    after = apply_moves(s, moves)
    assert after.counts() == {1: 8, 2: 8, 3: 7}


def test_two_players_from_the_same_table_are_its_next_two_big_blinds():
    s = Seating.of(9, {**table(1, range(1, 10)), **table(2, [1, 2, 3, 4, 5])})
    moves = balance(s, {1: Positions(8, 9, 1, 9), 2: Positions(3, 4, 5, 4)})
    assert [(m.from_seat, m.to_seat) for m in moves] == [(2, 6), (3, 7)]


def test_balance_without_positions_uses_the_documented_fallback():
    s = Seating.of(9, {**table(1, range(1, 10)), **table(2, [2, 3, 4, 5, 6, 7])})
    (m,) = balance(s)
    assert (m.from_table, m.from_seat, m.to_table, m.to_seat) == (1, 9, 2, 1)
    assert "no positions known" in m.reason


def test_balanced_tables_need_no_moves():
    s = Seating.of(9, {**table(1, range(1, 9)), **table(2, range(1, 8))})
    assert balance(s) == []
    assert balance(Seating.of(9, {**table(1, range(1, 9)), **table(2, range(1, 7))}), max_diff=2) == []


@st.composite
def uneven_seatings(draw: st.DrawFn) -> tuple[Seating, dict[int, Positions]]:
    size = draw(st.sampled_from([6, 9, 10]))
    n_tables = draw(st.integers(2, 5))
    seats: dict = {}
    positions: dict[int, Positions] = {}
    for t in range(1, n_tables + 1):
        taken = sorted(draw(st.sets(st.integers(1, size), min_size=2, max_size=size)))
        seats.update({(t, s): f"t{t}s{s}" for s in taken})
        if draw(st.booleans()):
            bb = draw(st.sampled_from(taken))
            sb = draw(st.sampled_from([s for s in range(1, size + 1) if s != bb]))
            btn = draw(st.sampled_from([s for s in range(1, size + 1) if s not in (bb, sb)]))
            positions[t] = Positions(btn, None, bb, sb)
    return Seating.of(size, seats), positions


@given(uneven_seatings(), st.integers(1, 3))
def test_balancing_always_ends_within_max_diff(case, max_diff):
    """Invariant: after the moves, tables differ by at most max_diff; one player per seat."""
    s, positions = case
    moves = balance(s, positions, max_diff=max_diff)
    after = apply_moves(s, moves)
    assert_valid(after)
    assert after.spread() <= max_diff
    assert sorted(after.players) == sorted(s.players)
    for m in moves:
        assert not (m.to_table in positions and m.to_seat == positions[m.to_table].big_blind and not m.needs_director)


# --- Breaking and the final table: TDA 9 T19, T21 ---------------------------------------------------


def test_tda_t19_nineteen_players_keep_three_tables_eighteen_break_the_next_in_order():
    """T19 3 tables of 9, players 19 (no break), then 18: break the next table in order. Its
    players get random seats and may land on the SB, BB or button, and are dealt in except
    between SB and BTN."""
    s = Seating.of(9, {**table(1, range(1, 8)), **table(2, range(1, 7)), **table(3, range(1, 7))})
    assert len(s) == 19 and needs_break(s) is None
    assert next_step(s, random.Random(1)).action == "none"
    s18 = s.without("t1s7")
    assert needs_break(s18) == 3
    positions = {1: Positions(1, 2, 3, 2), 2: Positions(1, 2, 3, 2)}
    step = next_step(s18, random.Random(5), positions)
    assert step.action == "break"
    assert {m.player for m in step.moves} == {f"t3s{i}" for i in range(1, 7)}
    assert step.seating.tables == (1, 2) and step.seating.counts() == {1: 9, 2: 9}
    assert_valid(step.seating)
    # Arrivals are dealt in unless they sit between the next button and small blind.
    for t in (1, 2):
        arrivals = {m.to_seat for m in step.moves if m.to_table == t}
        nxt = next_positions(positions[t], set(step.seating.at_table(t)))
        dealt = dealt_in(nxt, set(step.seating.at_table(t)), newcomers=arrivals)
        for m in step.moves:
            if m.to_table == t:
                assert (m.to_seat in dealt) != m.waits_for_big_blind


def test_breaking_order_can_be_given():
    s = Seating.of(9, {**table(1, range(1, 7)), **table(2, range(1, 7)), **table(3, range(1, 7))})
    assert needs_break(s, breaking_order=[2, 3, 1]) == 2
    moves = break_table(s, random.Random(3), breaking_order=[2, 3, 1])
    assert {m.from_table for m in moves} == {2}
    assert apply_moves(s, moves).counts() == {1: 9, 3: 9}


def test_a_table_broken_while_its_button_is_on_an_empty_seat():
    """Seed 000: a hand may be played with the button in front of an empty seat; breaking that
    table still moves every one of its players, and none of them onto a taken seat."""
    s = Seating.of(9, {**table(1, [1, 2, 4, 5, 6, 7]), **table(2, [1, 3, 4, 5, 6]), **table(3, [3, 4, 5, 8])})
    positions = {3: Positions(2, 3, 4, 3), 1: Positions(2, 4, 5, 4), 2: Positions(1, 3, 4, 3)}  # 3's button on empty seat 2
    moves = break_table(s, random.Random(8), positions_by_table=positions)
    assert sorted(m.from_seat for m in moves) == [3, 4, 5, 8]
    after = apply_moves(s, moves)
    assert after.tables == (1, 2)
    assert sorted(after.counts().values()) == [7, 8]
    assert_valid(after)


def test_a_table_that_cannot_fit_elsewhere_does_not_break():
    s = Seating.of(6, {**table(1, range(1, 7)), **table(2, range(1, 4))})
    with pytest.raises(IllegalAction, match="Table 2 cannot break: its 3 players do not fit in the 0 open seats"):
        break_table(s, random.Random(1), table=2)


def test_tda_t21_final_table_combines_at_nine_not_at_ten():
    """T21 Final table (TDA RP-9): 10 left as 5+5, play on; at 9 left, combine, then re-draw
    seats and the button. With the WSOP 68 setting, combine at 10."""
    ten = Seating.of(9, {**table(1, range(1, 6)), **table(2, range(1, 6))})
    assert next_step(ten, random.Random(1)).action == "none"
    wsop = next_step(ten, random.Random(1), final_table_size=10)
    assert wsop.action == "final_table" and wsop.seating.table_size == 10
    nine = ten.without("t2s5")
    step = next_step(nine, random.Random(4))
    assert step.action == "final_table"
    assert step.seating.tables == (1,) and len(step.seating) == 9
    assert sorted(step.seating.players) == sorted(nine.players)
    assert apply_moves(nine, step.moves) == step.seating


def test_final_table_redraw_refuses_too_many_players():
    s = Seating.of(6, {**table(1, range(1, 7)), **table(2, [1])})
    with pytest.raises(IllegalAction, match="7 players do not fit at one final table of 6 seats"):
        final_table_redraw(s, random.Random(1))


# --- Values ----------------------------------------------------------------------------------------


def test_seating_refuses_two_players_in_one_seat_and_a_player_twice():
    with pytest.raises(InvalidInput, match="Table 1 seat 2 holds two players"):
        Seating(9, (1,), ((1, 2, "a"), (1, 2, "b")))
    with pytest.raises(InvalidInput, match="a is seated twice"):
        Seating(9, (1,), ((1, 2, "a"), (1, 3, "a")))
    with pytest.raises(InvalidInput, match="seats go from 1 to 9"):
        Seating(9, (1,), ((1, 10, "a"),))
    s = Seating.of(9, table(1, [1]))
    with pytest.raises(IllegalAction, match="t1s1 sits there"):
        s.with_player("x", 1, 1)
    with pytest.raises(IllegalAction, match="not seated"):
        s.without("x")


def test_apply_moves_swaps_and_refuses_stale_moves():
    s = Seating.of(9, {(1, 1): "a", (1, 2): "b"})
    swapped = apply_moves(s, [Move("a", 1, 1, 1, 2), Move("b", 1, 2, 1, 1)])
    assert swapped.seat_of("a") == (1, 2) and swapped.seat_of("b") == (1, 1)
    with pytest.raises(IllegalAction, match="the seating changed"):
        apply_moves(s, [Move("a", 1, 3, 1, 5)])
    with pytest.raises(EngineError):
        apply_moves(s, [Move("a", 1, 1, 1, 2)])  # b still sits there


def test_moves_between_lists_only_players_who_move():
    s = Seating.of(9, {(1, 1): "a", (2, 2): "b"})
    t = Seating.of(9, {(1, 1): "a", (1, 5): "b"})
    assert moves_between(s, t) == [Move("b", 2, 2, 1, 5)]


def test_even_counts():
    assert even_counts(17, 2) == [9, 8]


# --- The whole night ----------------------------------------------------------------------------


@given(st.integers(2, 45), st.sampled_from([6, 9, 10]), st.integers(0, 2**32))
def test_busting_players_one_by_one_keeps_tables_balanced_down_to_the_final_table(n, size, seed):
    """Invariant: after every bust and the step it calls for, the tables are the fewest that fit,
    within one player of each other, one player per seat; the final table is one table."""
    rng = random.Random(seed)
    s = draw_seats(list(range(n)), size, rng)
    while len(s) > 1:
        s = s.without(rng.choice(s.players))
        step = next_step(s, rng)
        s = step.seating
        assert_valid(s)
        assert s.spread() <= 1
        if len(s.tables) > 1:
            assert len(s) > (len(s.tables) - 1) * size, "a table should have broken"
        assert Counter(s.players).most_common(1)[0][1] == 1
    assert len(s.tables) == 1
