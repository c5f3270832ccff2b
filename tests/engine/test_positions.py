"""The dead-button rule (seed 000, TDA 1.2-1.4) and the corner cases of TDA section 9.

Unless a test says otherwise: seats 1-9 all taken, and the previous hand had
button 1, small blind 2, big blind 3.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.errors import EngineError, IllegalAction, InvalidInput
from engine.positions import (
    Bust,
    Positions,
    dealt_in,
    draw_button,
    first_positions,
    hands_until_big_blind,
    next_positions,
    next_seat_after,
    play_scenario,
    postflop_order,
    preflop_order,
    strictly_between,
    waits_for_button,
)

NINE = frozenset(range(1, 10))
PREV = Positions(button=1, small_blind=2, big_blind=3, small_blind_seat_number=2)


def P(button: int, sb: int | None, bb: int, sb_seat: int | None = None) -> Positions:
    """Shorthand: ``P(2, None, 4, 3)`` is button 2, dead small blind on seat 3, big blind 4."""
    return Positions(button, sb, bb, sb if sb_seat is None else sb_seat)


# --- TDA 9, button and blinds ---------------------------------------------------------------


def test_tda_t1_no_bust_everything_moves_one_seat():
    """T1 No bust: next hand BTN=2, SB=3, BB=4."""
    assert next_positions(PREV, NINE) == P(2, 3, 4)


def test_tda_t2_big_blind_busts_small_blind_is_dead():
    """T2 BB (3) busts: SB is dead (seat 3 is empty, so no SB is posted), BTN=2 (the former
    SB), BB=4. Next hand: BTN on empty seat 3, SB=4, BB=5."""
    live = NINE - {3}
    h1 = next_positions(PREV, live)
    assert h1 == P(2, None, 4, 3)
    assert h1.small_blind_dead and h1.small_blind_seat_number == 3
    h2 = next_positions(h1, live)
    assert h2 == P(3, 4, 5)
    assert h2.button not in live


def test_tda_t3_small_blind_busts_button_on_empty_seat():
    """T3 SB (2) busts: BTN on empty seat 2, SB=3, BB=4. Seat 1 acts last again."""
    live = NINE - {2}
    h1 = next_positions(PREV, live)
    assert h1 == P(2, 3, 4)
    assert h1.button not in live
    assert postflop_order(h1, live)[-1] == 1
    assert postflop_order(PREV, NINE)[-1] == 1


def test_tda_t4_button_busts_positions_move_normally():
    """T4 BTN (1) busts: BTN=2, SB=3, BB=4 (normal)."""
    assert next_positions(PREV, NINE - {1}) == P(2, 3, 4)


def test_tda_t5_small_and_big_blind_both_bust():
    """T5 SB and BB both bust: BTN on empty seat 2, SB dead, BB=4. Next hand: BTN on empty
    seat 3, SB=4, BB=5. Then BTN=4. Seat 1 acts last three hands running."""
    live = NINE - {2, 3}
    h1 = next_positions(PREV, live)
    h2 = next_positions(h1, live)
    h3 = next_positions(h2, live)
    assert (h1, h2, h3) == (P(2, None, 4, 3), P(3, 4, 5), P(4, 5, 6))
    assert postflop_order(h1, live)[-1] == 1
    assert postflop_order(h2, live)[-1] == 1
    assert postflop_order(PREV, NINE)[-1] == 1


def test_tda_t6_big_blind_and_next_seat_bust():
    """T6 BB and seat 4 bust: BB=5, SB dead (seat 3), BTN=2."""
    assert next_positions(PREV, NINE - {3, 4}) == P(2, None, 5, 3)


def test_tda_t7_player_due_for_big_blind_busts():
    """T7 Only seat 4 (due to be BB) busts: BB=5, SB=3 posts, BTN=2."""
    assert next_positions(PREV, NINE - {4}) == P(2, 3, 5)


@pytest.mark.parametrize(
    ("busts", "expected"),
    [
        ({1}, P(3, 3, 2)),  # seat 1 busts: BB=2, BTN/SB=3
        ({2}, P(3, 3, 1)),  # seat 2 busts: BB=1, BTN/SB=3
        ({3}, P(2, 2, 1)),  # seat 3 busts: BB=1, BTN/SB=2 (seat 2 posts the SB twice)
    ],
)
def test_tda_t9_three_to_two_players(busts, expected):
    """T9 3->2 players (BTN=1, SB=2, BB=3): seat 1 busts: BB=2, BTN/SB=3; seat 2 busts: BB=1,
    BTN/SB=3; seat 3 busts: BB=1, BTN/SB=2. In every case nobody posts the BB twice."""
    live = {1, 2, 3} - busts
    hu = next_positions(PREV, live)
    assert hu == expected
    assert hu.heads_up and not hu.small_blind_dead
    assert hu.big_blind != PREV.big_blind


def test_going_heads_up_from_three_through_a_scenario_each_player_busting():
    """Going heads-up from three, each of the three busting in turn, as the contract reports it."""
    for out, (btn, bb) in {1: (3, 2), 2: (3, 1), 3: (2, 1)}.items():
        r = play_scenario([1, 2, 3], 1, [[Bust(out, 700)], [], []])
        assert r.hands[1] == P(btn, btn, bb)
        assert r.hands[2] == P(bb, bb, btn)  # heads-up the blinds alternate
        assert r.places == {out: 3}


def test_tda_t10_heads_up_button_posts_small_blind_acts_first_preflop_last_after():
    """T10 Heads-up: the BTN/SB acts first pre-flop and last on the flop, turn and river.
    There is never a dead SB or dead button."""
    hu = first_positions([4, 8], button=8)
    assert hu == P(8, 8, 4)
    assert preflop_order(hu, {4, 8}) == (8, 4)
    assert postflop_order(hu, {4, 8}) == (4, 8)
    p = hu
    for _ in range(5):
        p = next_positions(p, {4, 8})
        assert p.heads_up and not p.small_blind_dead and p.button in {4, 8}
        assert preflop_order(p, {4, 8})[0] == p.button
        assert postflop_order(p, {4, 8})[-1] == p.button


def test_tda_t10_heads_up_after_a_dead_small_blind_hand_has_no_dead_blind():
    """T10 There is never a dead SB heads-up, even right after a hand played with a dead SB."""
    prev = P(2, None, 4, 3)  # seat 3 busted the hand before
    hu = next_positions(prev, {1, 4})  # 2 and everyone else gone
    assert hu == P(4, 4, 1)


def test_tda_t11_late_entrant_between_button_and_small_blind_waits_one_hand():
    """T11 A late entrant seated between BTN and SB is not dealt in this hand, only the next.
    A late entrant seated in the next-BB seat posts the BB at once."""
    prev = P(1, 4, 7)
    # seat 5 arrives: the next hand is BTN 4, SB 7, BB 1, and 5 sits between button and SB
    live = {1, 4, 5, 7}
    nxt = next_positions(prev, live)
    assert nxt == P(4, 7, 1)
    assert waits_for_button(5, nxt)
    assert dealt_in(nxt, live, newcomers={5}) == {1, 4, 7}
    after = next_positions(nxt, live)
    assert after == P(7, 1, 4)
    assert dealt_in(after, live) == {1, 4, 5, 7}
    # seat 9 arrives instead: it is the first seat after the big blind, so it posts it now
    live9 = {1, 4, 7, 9}
    nxt9 = next_positions(prev, live9)
    assert nxt9 == P(4, 7, 9)
    assert dealt_in(nxt9, live9, newcomers={9}) == live9


def test_new_player_on_the_button_or_a_blind_is_dealt_in():
    """TDA 1.4: new players may get the SB, BB or button and are dealt in, except between SB and button."""
    p = P(4, 7, 9)
    assert dealt_in(p, {4, 7, 9, 2}, newcomers={4, 7, 9, 2}) == {2, 4, 7, 9}


def test_table_grows_back_from_heads_up_without_anyone_posting_the_big_blind_twice():
    """A player moved in at a heads-up table: the big blind still moves on one player and the
    button is never on the big blind."""
    hu = P(1, 1, 5)
    three = next_positions(hu, {1, 3, 5}, seats_on_table=9)  # newcomer between button and BB
    assert three.big_blind == 1 and three.small_blind == 5
    assert three.button not in (1, 5)
    seven = next_positions(hu, {1, 5, 7}, seats_on_table=9)  # newcomer after the big blind
    assert seven == P(1, 5, 7)


def test_big_blind_going_on_to_a_new_player_past_the_empty_small_blind_seat():
    """TDA 1.2 with arrivals: button 2, small blind 3, big blind 1; seats 2 and 3 bust while
    players arrive in seats 4 and 5. The big blind goes to seat 4 (the first live seat after
    seat 1), seat 1 posts the small blind, and the button goes just before it (seat 9), never
    between the blinds; both arrivals are dealt in."""
    nxt = next_positions(P(2, 3, 1), {1, 4, 5}, seats_on_table=9)
    assert nxt == P(9, 1, 4)
    assert dealt_in(nxt, {1, 4, 5}, newcomers={4, 5}) == {1, 4, 5}
    assert postflop_order(nxt, {1, 4, 5}) == (1, 4, 5)


# --- The ordinary busts, hand after hand -----------------------------------------------------


def test_the_big_blind_busts_five_handed():
    """Seed 000: the big blind always moves on by one player; a hand may be played without a small blind."""
    r = play_scenario([1, 2, 3, 5, 6], 1, [[Bust(3, 400)], [], []])
    assert r.hands == (P(1, 2, 3), P(2, None, 5, 3), P(3, 5, 6))
    assert r.places == {3: 5}


def test_the_small_blind_busts_five_handed():
    """Seed 000: ... or with the button in front of an empty seat."""
    r = play_scenario([1, 2, 3, 5, 6], 1, [[Bust(2, 400)], [], []])
    assert r.hands[1] == P(2, 3, 5)
    assert r.hands[2] == P(3, 5, 6)


def test_the_button_busts_five_handed():
    """The button busting changes nothing for the blinds."""
    r = play_scenario([1, 2, 3, 5, 6], 1, [[Bust(1, 400)], []])
    assert r.hands[1] == P(2, 3, 5)


def test_first_positions_use_the_next_occupied_seats():
    assert first_positions([1, 2, 3, 5, 6], 6) == P(6, 1, 2)
    assert first_positions([2, 5, 9], 5) == P(5, 9, 2)
    assert first_positions([2, 5, 9], 6) == P(6, 9, 2)  # a button given on an empty seat


def test_first_positions_need_two_players():
    with pytest.raises(IllegalAction, match="at least two players"):
        first_positions([4], 4)


def test_a_hand_cannot_be_dealt_to_one_player():
    with pytest.raises(IllegalAction, match="only seat 2 is left"):
        next_positions(PREV, {2})


def test_seat_helpers():
    assert next_seat_after(9, NINE) == 1
    assert next_seat_after(3, {3}) == 3
    assert strictly_between(1, 8, 2) and not strictly_between(8, 8, 2)
    with pytest.raises(IllegalAction):
        next_seat_after(3, set())


def test_positions_refuse_a_big_blind_on_the_button():
    with pytest.raises(InvalidInput):
        Positions(3, 4, 3, 4)
    with pytest.raises(InvalidInput):
        Positions(3, 5, 6, 4)
    with pytest.raises(InvalidInput):
        Positions(3, None, 6, 3)  # heads-up, the button must post


def test_positions_contract_form():
    assert P(2, None, 4, 3).as_dict() == {"button": 2, "small_blind": 3, "small_blind_dead": True, "big_blind": 4}


# --- Places ------------------------------------------------------------------------------------


def test_two_bust_in_one_hand_larger_starting_stack_finishes_higher():
    """Seed 000: if several players are knocked out in the same hand, the one who started that
    hand with more chips finishes higher. 5 players, seats 3 (500) and 5 (800) bust: 5 is 4th, 3 is 5th."""
    r = play_scenario([1, 2, 3, 5, 6], 1, [[], [Bust(3, 500), Bust(5, 800)]])
    assert r.places == {5: 4, 3: 5}


def test_two_bust_in_one_hand_with_equal_stacks_share_the_place():
    """Seed 000: players who started with the same number of chips share the place (at 5 left, both 4th)."""
    r = play_scenario([1, 2, 3, 5, 6], 1, [[Bust(2, 500), Bust(6, 500)]])
    assert r.places == {2: 4, 6: 4}


def test_last_player_left_gets_first_place():
    r = play_scenario([1, 2, 3], 2, [[Bust(1, 300)], [Bust(3, 900)]])
    assert r.places == {1: 3, 3: 2, 2: 1}
    assert len(r.hands) == 2


def test_a_hand_after_the_winner_is_known_is_refused():
    with pytest.raises(IllegalAction, match="fewer than two players"):
        play_scenario([1, 2], 1, [[Bust(2, 2000)], []])


def test_a_bust_of_an_empty_seat_is_refused():
    with pytest.raises(IllegalAction, match="Seat 4 cannot be knocked out in hand 1"):
        play_scenario([1, 2, 3], 1, [[Bust(4, 100)]])
    with pytest.raises(IllegalAction, match="Seat 3"):
        play_scenario([1, 2, 3], 1, [[Bust(3, 100)], [Bust(3, 100)]])


def test_everyone_knocked_out_in_one_hand_is_refused():
    with pytest.raises(IllegalAction, match="someone wins the pot"):
        play_scenario([1, 2], 1, [[Bust(1, 100), Bust(2, 100)]])


# --- The first button ------------------------------------------------------------------------


def test_draw_button_gives_the_button_to_the_highest_card():
    """TDA 1.6: the initial button by high-card draw (rank, then suit spades > hearts > diamonds > clubs)."""
    for seed in range(30):
        d = draw_button([1, 3, 4, 8], random.Random(seed))
        cards = dict(d.cards)
        assert set(cards) == {1, 3, 4, 8}
        assert len(set(cards.values())) == 4
        best = max(cards.values(), key=lambda c: (c.rank, "cdhs".index(c.suit)))
        assert cards[d.button] == best
        assert d.describe().startswith(f"Seat {d.button} wins the button with the ")
    assert draw_button([1, 2, 3], random.Random(5)) == draw_button([1, 2, 3], random.Random(5))


def test_draw_button_needs_someone():
    with pytest.raises(EngineError):
        draw_button([], random.Random(1))


# --- Invariants --------------------------------------------------------------------------------


@st.composite
def bust_sequences(draw: st.DrawFn) -> tuple[list[int], int, list[set[int]]]:
    seats = sorted(draw(st.sets(st.integers(1, 10), min_size=2, max_size=10)))
    button = draw(st.sampled_from(seats))
    live = set(seats)
    hands: list[set[int]] = []
    while len(live) >= 2 and draw(st.integers(0, 4)) > 0:
        out = draw(st.sets(st.sampled_from(sorted(live)), max_size=len(live) - 1))
        hands.append(out)
        live -= out
        if len(hands) > 30:
            break
    return seats, button, hands


@given(bust_sequences())
def test_tda_t8_big_blind_never_skips_a_live_player_nor_falls_twice_on_one(case):
    """T8 Property test: over random bust sequences, nobody ever skips the BB and nobody posts the
    BB twice in a row (going heads-up included)."""
    seats, button, hands = case
    result = play_scenario(seats, button, [[Bust(s, 100) for s in sorted(out)] for out in hands])
    live = set(seats)
    previous: Positions | None = None
    for hand, out in zip(result.hands, hands, strict=True):
        assert hand.big_blind in live
        assert hand.button != hand.big_blind
        if hand.small_blind is not None:
            assert hand.small_blind in live
        else:
            assert hand.small_blind_seat_number not in live
        if len(live) == 2:
            assert hand.heads_up and hand.button in live and not hand.small_blind_dead
        if previous is not None:
            assert hand.big_blind != previous.big_blind
            skipped = [s for s in live if strictly_between(s, previous.big_blind, hand.big_blind)]
            assert skipped == [], f"{skipped} skipped the big blind"
        previous = hand
        live -= out
    assert len(result.places) == len(seats) - len(live) + (1 if len(live) == 1 else 0)
    if len(live) == 1:
        assert result.places[next(iter(live))] == 1


@st.composite
def tables_with_arrivals(draw: st.DrawFn) -> tuple[Positions, list[tuple[set[int], set[int]]]]:
    """A 9-seat table and, hand after hand, who leaves and who arrives (balancing, late entries)."""
    seats = set(draw(st.sets(st.integers(1, 9), min_size=2, max_size=9)))
    first = first_positions(seats, draw(st.sampled_from(sorted(seats))))
    steps: list[tuple[set[int], set[int]]] = []
    live = set(seats)
    for _ in range(draw(st.integers(1, 20))):
        leave = draw(st.sets(st.sampled_from(sorted(live)), max_size=len(live) - 1))
        empty = sorted(set(range(1, 10)) - live)
        arrive = draw(st.sets(st.sampled_from(empty), max_size=3)) if empty else set()
        if len(live - leave | arrive) < 2:
            break
        steps.append((leave, arrive))
        live = live - leave | arrive
    return first, [(set(seats), set()), *steps]


@given(tables_with_arrivals())
def test_with_players_arriving_the_big_blind_still_moves_on_one_player(case):
    """TDA 1.2 and 1.4: with players leaving and arriving, the big blind goes to the first live
    seat after the previous one, is never posted twice in a row, the button is never on it,
    and every arrival is dealt in except between the button and the small blind."""
    previous, steps = case
    live = set(steps[0][0])
    for leave, arrive in steps[1:]:
        live = live - leave | arrive
        nxt = next_positions(previous, live, seats_on_table=9)
        dealt = dealt_in(nxt, live, newcomers=arrive)
        assert nxt.big_blind in dealt and nxt.big_blind != previous.big_blind
        assert nxt.button != nxt.big_blind
        if nxt.small_blind is not None:
            assert nxt.small_blind in dealt
        assert not [s for s in live if strictly_between(s, previous.big_blind, nxt.big_blind)]
        assert live - dealt == {s for s in arrive if waits_for_button(s, nxt)}
        previous = nxt


@given(
    st.integers(3, 9),
    st.lists(st.integers(1, 5000), min_size=1, max_size=8),
)
def test_same_hand_places_follow_starting_stacks(players, stacks):
    """Seed 000: knocked out in the same hand, more chips at the start finishes higher; equal
    stacks share the place; everyone out finishes behind everyone still in."""
    stacks = stacks[: players - 1]
    seats = list(range(1, players + 1))
    busts = [Bust(seat, stack) for seat, stack in zip(seats, stacks, strict=False)]
    places = play_scenario(seats, 1, [busts]).places
    left = players - len(busts)
    for a in busts:
        assert left < places[a.seat] <= players
        for b in busts:
            if a.stack_at_start > b.stack_at_start:
                assert places[a.seat] < places[b.seat]
            if a.stack_at_start == b.stack_at_start:
                assert places[a.seat] == places[b.seat]
    assert (1 in places.values()) == (left == 1)


# --- How long until a player's big blind -------------------------------------------------------


def test_tda_1_2_the_big_blind_reaches_each_live_player_in_turn():
    """TDA 1.2: "the big blind is the first live seat after the previous big blind". From
    big blind 3 with seat 4 empty, seat 5 posts it next hand, seat 2 last; a knocked-out big
    blind's seat is not counted."""
    live = NINE - {4}
    assert [hands_until_big_blind(PREV, live, s) for s in (3, 5, 6, 9, 1, 2)] == [0, 1, 2, 5, 6, 7]
    gone = NINE - {3}  # the big blind busts in this hand: seat 5 is next, then on round
    assert hands_until_big_blind(PREV, gone, 4) == 1 and hands_until_big_blind(PREV, gone, 2) == 8


def test_a_newcomer_waiting_for_the_button_still_gets_the_big_blind_in_turn():
    """TDA 1.4: a newcomer between the button and the small blind sits the hand out, but the
    big blind still comes round to him in his turn (it moves one live seat a hand)."""
    positions = P(4, 7, 9)
    assert 5 not in dealt_in(positions, {1, 4, 5, 7, 9}, newcomers={5})
    assert hands_until_big_blind(positions, {1, 4, 5, 7, 9}, 5, seats_on_table=9) == 3  # after 1 and 4


def test_heads_up_the_big_blind_comes_every_other_hand():
    """TDA 1.2, heads-up: the other player is both button and small blind."""
    hu = P(2, 2, 1)
    assert hands_until_big_blind(hu, {1, 2}, 1) == 0 and hands_until_big_blind(hu, {1, 2}, 2) == 1


def test_an_empty_seat_never_posts_the_big_blind():
    with pytest.raises(IllegalAction, match="Seat 4 has no player with chips"):
        hands_until_big_blind(PREV, NINE - {4}, 4)


@given(st.sets(st.integers(1, 10), min_size=2, max_size=10), st.data())
def test_hands_until_big_blind_agrees_with_the_hands_dealt(seats, data):
    """Dealing on with nobody knocked out, each seat's first big blind comes after as many
    hands as :func:`hands_until_big_blind` says."""
    button = data.draw(st.sampled_from(sorted(seats)))
    hands = play_scenario(seats, button, [[] for _ in range(len(seats) + 1)]).hands
    for seat in seats:
        first = next(i for i, h in enumerate(hands) if h.big_blind == seat)
        assert hands_until_big_blind(hands[0], seats, seat) == first
