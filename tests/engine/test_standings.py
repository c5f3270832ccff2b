import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.errors import EngineError, IllegalAction, InvalidInput
from engine.standings import places_for_busts

# --- places_for_busts ---------------------------------------------------------------------


def test_seed_000_same_hand_busts_bigger_starting_stack_finishes_higher():
    """Seed 000: "If several players are knocked out in the same hand, the one who started
    that hand with more chips finishes higher." TDA T22: A started with 5000, B with 3000,
    10 left: B finishes 10th, A 9th."""
    assert places_for_busts(10, {"A": 5000, "B": 3000}) == {"A": 9, "B": 10}
    assert places_for_busts(10, {"B": 3000, "A": 5000}) == {"A": 9, "B": 10}


def test_seed_000_equal_starting_stacks_share_the_place():
    """Seed 000: "players who started with the same number of chips share the place."
    TDA T23: same starting stacks tie for 9th/10th."""
    assert places_for_busts(10, {"A": 3000, "B": 3000}) == {"A": 9, "B": 9}
    assert places_for_busts(5, {1: 800, 2: 800}) == {1: 4, 2: 4}
    assert places_for_busts(6, {1: 500, 2: 900, 3: 500}) == {1: 5, 2: 4, 3: 5}


def test_seed_000_one_bust_finishes_behind_everyone_still_in():
    """Seed 000: "A player who loses all their chips is eliminated and finishes behind
    everyone still in the game." TDA 3.1: the place is the number of players left before."""
    assert places_for_busts(6, {"Dana": 1200}) == {"Dana": 6}
    assert places_for_busts(2, {"Dana": 1200}) == {"Dana": 2}


def test_no_busts_no_places():
    assert places_for_busts(4, {}) == {}


def test_tda_3_3_tie_break_by_order_when_configured():
    """TDA 3.3: CONFIG tie_break = split (default) | seat_order_left_of_button."""
    assert places_for_busts(10, {"A": 3000, "B": 3000}, tie_break="order") == {"A": 9, "B": 10}
    assert places_for_busts(10, {"B": 3000, "A": 3000}, tie_break="order") == {"A": 10, "B": 9}


def test_a_hand_must_leave_somebody_in():
    with pytest.raises(IllegalAction, match="3 players cannot all be knocked out of one hand with 3 left"):
        places_for_busts(3, {1: 10, 2: 20, 3: 30})
    with pytest.raises(IllegalAction, match="1 player"):
        places_for_busts(1, {})


def test_bad_inputs_are_refused_with_a_reason():
    with pytest.raises(InvalidInput, match="Dana cannot have started the hand with -5 chips"):
        places_for_busts(4, {"Dana": -5})
    with pytest.raises(EngineError, match="tie break"):
        places_for_busts(4, {"Dana": 5}, tie_break="coin")  # type: ignore[arg-type]


@given(
    n=st.integers(2, 40),
    stacks=st.lists(st.integers(0, 10_000), min_size=0, max_size=39),
    order=st.booleans(),
)
def test_places_for_busts_invariants(n, stacks, order):
    """Places lie in N-k+1..N, a larger starting stack is never placed worse, equal stacks
    share a place (or get distinct ones under "order"), and relabelling changes nothing."""
    stacks = stacks[: n - 1]
    k = len(stacks)
    busts = {f"p{i}": s for i, s in enumerate(stacks)}
    places = places_for_busts(n, busts, tie_break="order" if order else "share")
    assert set(places) == set(busts)
    for who, place in places.items():
        assert n - k + 1 <= place <= n
        for other, other_place in places.items():
            if busts[who] > busts[other]:
                assert place < other_place
            if busts[who] == busts[other] and not order:
                assert place == other_place
    if order:
        assert sorted(places.values()) == list(range(n - k + 1, n + 1))
    else:
        reversed_busts = dict(reversed(list(busts.items())))
        assert places_for_busts(n, reversed_busts) == places
        if k:
            assert max(places.values()) == n - stacks.count(min(stacks)) + 1
