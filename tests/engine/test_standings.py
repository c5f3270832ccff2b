import re

import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from engine.errors import EngineError, IllegalAction, InvalidInput
from engine.payouts import prizes_for_places
from engine.standings import SEED_HAND_CAP, RebuyRules, Standings, places_for_busts

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
    with pytest.raises(IllegalAction, match="Nobody can be knocked out with 1 player left"):
        places_for_busts(1, {7: 100})
    assert places_for_busts(1, {}) == {}


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


# --- the Standings fold --------------------------------------------------------------------

NAMES = {1: "Ann", 2: "Bob", 3: "Cy", 4: "Dana", 5: "Eve", 6: "Fay"}


def six(rules=None, **kw):
    return Standings.start(NAMES, 2000, rules, **kw)


def test_seed_000_last_player_left_wins_and_everyone_is_ranked():
    """Seed 000: "the tournament goes on hand after hand until only one player has chips
    left." "A player who loses all their chips is eliminated and finishes behind everyone
    still in the game." """
    s = Standings.start({1: "Ann", 2: "Bob", 3: "Cy"}, 1000)
    assert not s.is_over and s.places == {} and s.final_ranking is None and s.winner is None
    s = s.bust({3: 400})
    assert s.places == {3: 3} and s.players_left == 2 and not s.is_over
    s = s.bust({2: 900}, by={2: 1})
    assert s.is_over and s.winner == 1
    assert s.final_ranking == ((1, 1), (2, 2), (3, 3))
    assert s.eliminated_by == {2: 1}
    with pytest.raises(IllegalAction, match=re.escape("The tournament is over: nobody else can be knocked out.")):
        s.bust({1: 2000})


def test_seed_000_same_hand_busts_in_the_fold():
    """Seed 000: "If several players are knocked out in the same hand, the one who started
    that hand with more chips finishes higher; players who started with the same number of
    chips share the place." TDA T22/T23."""
    s = six().bust({4: 5000, 5: 3000})
    assert s.places == {4: 5, 5: 6}
    s = six().bust({4: 3000, 5: 3000})
    assert s.places == {4: 5, 5: 5}
    s = s.bust({6: 100})
    assert s.places == {6: 4, 4: 5, 5: 5}
    s = six(tie_break="order").bust({5: 3000, 4: 3000})
    assert s.places == {5: 5, 4: 6}


def test_director_bust_button_one_at_a_time_takes_places_in_order():
    """TDA 3.1: a bust-out's place = the number of players left before that elimination."""
    s = six().bust_one(3).bust_one(1, by=2).bust_one(6)
    assert s.places == {6: 4, 1: 5, 3: 6}
    assert s.eliminated_by == {1: 2}
    assert [b.player for b in s.history] == [3, 1, 6]


def test_tda_t24_hand_for_hand_busts_on_different_tables_split_by_default():
    """TDA T24 / 3.4: H4H, busts on different tables: default split (configurable to
    starting-stack order). Tables report the same hand-for-hand hand one after the other."""
    s = six().bust({2: 5000}, hand=40, table=1, hand_for_hand=True)
    s = s.bust({5: 3000}, hand=40, table=2, hand_for_hand=True)
    assert s.places == {2: 5, 5: 5}
    assert len(s.eliminations) == 1
    s = six(cross_table="starting_stack").bust({2: 5000}, hand=40, table=1, hand_for_hand=True)
    s = s.bust({5: 3000}, hand=40, table=2, hand_for_hand=True)
    assert s.places == {2: 5, 5: 6}
    # the same table on a hand-for-hand hand still ranks by starting stack (seed 000)
    s = six().bust({2: 5000, 5: 3000}, hand=40, table=1, hand_for_hand=True)
    assert s.places == {2: 5, 5: 6}
    # a different hand number is a different hand
    s = six().bust({2: 5000}, hand=40, table=1, hand_for_hand=True).bust({5: 3000}, hand=41, table=2, hand_for_hand=True)
    assert s.places == {5: 5, 2: 6}


def test_tda_t25_rp_8a_three_busts_on_the_hand_for_hand_hand_share_the_50th_prize():
    """TDA T25 (RP-8A): 52 left, 50 paid, H4H announced mid-hand, 3 bust on that hand: each
    gets ⅓ of the 50th prize."""
    s = Standings.start({i: f"P{i}" for i in range(1, 53)}, 10_000)
    for table, pid in ((1, 7), (3, 19), (5, 44)):
        s = s.bust({pid: 4000 + pid}, hand=200, table=table, hand_for_hand=True)
    assert s.places == {7: 50, 19: 50, 44: 50}
    prizes = [500] * 49 + [60]
    assert prizes_for_places(s.places, prizes) == {7: 20, 19: 20, 44: 20}


def test_seed_000_hand_cap_ranks_players_still_in_by_chips():
    """Seed 000: "As a safety net the game ends after 120 hands in any case: the players
    still in are then ranked by their chips." Equal chips share the place."""
    assert SEED_HAND_CAP == 120
    s = six().bust({6: 300}).bust({5: 800})
    s = s.end_at_hand_cap({1: 4000, 2: 2500, 3: 2500, 4: 2200})
    assert s.is_over
    assert s.places == {1: 1, 2: 2, 3: 2, 4: 4, 5: 5, 6: 6}
    assert s.winner == 1
    tie = six().end_at_hand_cap(dict.fromkeys(NAMES, 2000))
    assert set(tie.places.values()) == {1} and tie.winner is None
    with pytest.raises(InvalidInput, match="Give Dana's chips: every player still in is ranked"):
        six().end_at_hand_cap({1: 1, 2: 2, 3: 3, 5: 4, 6: 5})
    with pytest.raises(IllegalAction, match="Fay is not in the game"):
        six().bust({6: 10}).end_at_hand_cap(dict.fromkeys(NAMES, 2000))
    with pytest.raises(IllegalAction, match="over"):
        s.end_at_hand_cap({1: 4000})


def test_bust_refusals_name_the_player():
    s = six().bust({3: 100})
    with pytest.raises(IllegalAction, match=re.escape("Cy is not in the game: they cannot be knocked out.")):
        s.bust({3: 100})
    with pytest.raises(InvalidInput, match=re.escape("There is no player number 9.")):
        s.bust({9: 100})
    with pytest.raises(IllegalAction, match="5 players cannot all be knocked out of one hand with 5 left"):
        s.bust({1: 1, 2: 1, 4: 1, 5: 1, 6: 1})
    with pytest.raises(IllegalAction, match=re.escape("Cy cannot have knocked out Ann: Cy is not in the game.")):
        s.bust({1: 10}, by={1: 3})
    with pytest.raises(InvalidInput, match="Bob is not among the players knocked out"):
        s.bust({1: 10}, by={2: 4})
    with pytest.raises(InvalidInput, match="Name at least one player"):
        s.bust({})


def test_registration():
    s = Standings.start({}, 1000).register(1, "  Ann   Lee ").register(2, "Bob")
    assert s.name(1) == "Ann Lee" and s.players_left == 2 and s.entries == 2
    with pytest.raises(IllegalAction, match=re.escape("Player number 2 is already registered.")):
        s.register(2, "Bo")
    with pytest.raises(InvalidInput, match="name is empty"):
        s.register(3, "  ")
    with pytest.raises(IllegalAction, match=re.escape("The tournament is over: Cy cannot join now.")):
        s.bust_one(2).register(3, "Cy")
    with pytest.raises(InvalidInput, match="starting stack must be at least 1 chip"):
        Standings.start({}, 0)


def test_late_registration_moves_earlier_places_down():
    s = six().bust_one(6)
    assert s.places == {6: 6}
    assert s.register(7, "Gil").places == {6: 7}


def test_standings_are_values():
    s = six()
    t = s.bust({1: 10})
    assert s.players_left == 6 and t.players_left == 5
    assert six() == s


# --- rebuys, re-entries, add-ons -----------------------------------------------------------

REBUYS = RebuyRules(rebuy_until_level=4, max_rebuys=2, rebuy_cost=20, addon_level=4, addon_chips=3000, addon_cost=10)


def test_tda_6_5_rebuys_close_after_the_last_rebuy_level():
    """TDA 6.5: the rebuy period is the first N levels."""
    s = six(REBUYS).bust_one(4)
    assert s.can_rebuy(4)
    s5 = s.at_level(5)
    assert not s5.can_rebuy(4)
    with pytest.raises(IllegalAction, match=r"^Rebuys closed after level 4\.$"):
        s5.verify_rebuy(4)
    with pytest.raises(IllegalAction, match=r"^Rebuys closed after level 4\.$"):
        s.close_rebuys().rebuy(4)
    with pytest.raises(IllegalAction, match=re.escape("This tournament has no rebuys.")):
        six().bust_one(4).rebuy(4)


def test_tda_6_5_rebuy_limit_per_player():
    """TDA 6.5: there may be a cap per player."""
    s = six(REBUYS)
    for _ in range(2):
        s = s.bust_one(4).rebuy(4)
    assert s.rebuys == 2 and s.status(4) == "in"
    s = s.bust_one(4)
    assert s.status(4) == "out" and s.waiting == ()
    with pytest.raises(IllegalAction, match=r"^Dana has used 2 rebuys, the most allowed per player\.$"):
        s.rebuy(4)
    unlimited = six(RebuyRules(rebuy_until_level=1))
    for _ in range(10):
        unlimited = unlimited.bust_one(4).rebuy(4)
    assert unlimited.rebuys == 10


def test_tda_6_5_rebuy_at_or_below_the_starting_stack():
    """TDA 6.5: A player may rebuy when busted, or when their stack is at or below the
    starting stack."""
    rules = RebuyRules(rebuy_until_level=4, rebuy_when="at_or_below_start")
    s = six(rules)
    with pytest.raises(
        IllegalAction,
        match=r"^Dana has 3,500 chips: rebuys are only for players at or below the starting stack of 2,000\.$",
    ):
        s.verify_rebuy(4, 3500)
    with pytest.raises(InvalidInput, match="Give Dana's chip count"):
        s.verify_rebuy(4)
    t = s.rebuy(4, 2000)
    assert t.rebuys == 1 and t.players_left == 6
    assert t.chips_in_play == 6 * 2000 + 2000
    with pytest.raises(IllegalAction, match=re.escape("Dana still has chips: rebuys are only for players who have busted.")):
        six(REBUYS).rebuy(4, 100)


def test_tda_t57_a_bust_in_the_rebuy_period_waits_and_a_rebuy_cancels_it():
    """TDA T57: A player busts during the rebuy period: the rebuy comes in before the next
    hand, so no hand is missed. A busted player who rebuys is back in: the place is freed
    and recomputed for the others."""
    s = six(REBUYS).bust_one(4)
    assert s.status(4) == "waiting" and s.waiting == (4,)
    assert s.places == {} and s.provisional_places == {4: 6}
    s = s.bust({2: 500}, by={2: 1})
    # Bob has rebuys left too, so both wait; nobody has a certain place
    assert s.waiting == (2, 4) and s.places == {}
    assert s.provisional_places == {2: 5, 4: 6}
    back = s.rebuy(4)
    assert back.status(4) == "in" and back.players_left == 5
    assert back.provisional_places == {2: 6}
    assert back.history == s.history  # who knocked out whom is kept
    # at level 5 the period is over: the two still out are placed in order
    closed = s.at_level(5)
    assert closed.waiting == () and closed.places == {2: 5, 4: 6}


def test_a_place_waits_while_someone_who_busted_earlier_may_still_rebuy():
    """The model: a place is settled once nobody knocked out earlier may still come back."""
    rules = RebuyRules(rebuy_until_level=4, max_rebuys=1)
    s = six(rules).bust_one(5).rebuy(5).bust_one(5)  # Eve has used her rebuy: out for good
    assert s.status(5) == "out"
    s = Standings.start(NAMES, 2000, rules).bust_one(4).bust_one(5).rebuy(5).bust_one(5)
    assert s.waiting == (4,) and s.unsettled == (5,)
    assert s.places == {}
    assert s.provisional_places == {5: 5, 4: 6}
    assert s.rebuy(4).places == {5: 6}
    assert s.close_rebuys().places == {5: 5, 4: 6}


def test_last_player_left_while_others_may_rebuy_is_not_over_yet():
    s = Standings.start({1: "Ann", 2: "Bob"}, 1000, RebuyRules(rebuy_until_level=2)).bust_one(2)
    assert not s.is_over and s.waiting == (2,)
    assert s.rebuy(2).players_left == 2
    done = s.close_rebuys()
    assert done.is_over and done.final_ranking == ((1, 1), (2, 2))
    with pytest.raises(IllegalAction, match="over"):
        done.rebuy(2)


def test_tda_6_5_one_add_on_at_the_end_of_the_rebuy_period():
    """TDA 6.5: One add-on at the end of the rebuy period, open to everyone whatever their stack."""
    s = six(REBUYS)
    with pytest.raises(IllegalAction, match=re.escape("The add-on is only during level 4 and the break after it.")):
        s.addon(1)
    s = s.at_level(4).addon(1).addon(2)
    assert s.addons == 2
    with pytest.raises(IllegalAction, match=re.escape("Ann has already taken the add-on.")):
        s.addon(1)
    with pytest.raises(IllegalAction, match=re.escape("Cy is out: the add-on is only for players still in.")):
        s.bust_one(3).addon(3)
    assert not s.at_level(5).can_addon(4)
    with pytest.raises(IllegalAction, match=re.escape("This tournament has no add-on.")):
        six().addon(1)
    limited = six(RebuyRules(addon_level=4, addon_chips=1000, addon_max_stack=2000)).at_level(4)
    with pytest.raises(IllegalAction, match=re.escape("Ann has 2,500 chips: the add-on is only for players with 2,000 chips or fewer.")):
        limited.addon(1, 2500)
    with pytest.raises(InvalidInput, match="Give Ann's chip count"):
        limited.addon(1)
    assert limited.addon(1, 1500).addons == 1


def test_re_entry_is_a_new_entry():
    """TDA 6.5 / TDA 8: re-entries get full stacks; they count as entries."""
    rules = RebuyRules(reentry_until_level=3, max_reentries=1)
    s = six(rules).bust_one(2)
    assert s.waiting == (2,) and s.can_reenter(2)
    s = s.reenter(2)
    assert s.entries == 7 and s.players_left == 6 and s.rebuys == 0
    assert s.chips_in_play == 7 * 2000
    with pytest.raises(IllegalAction, match=re.escape("Bob is still in: only a player who is out can re-enter.")):
        s.reenter(2)
    with pytest.raises(IllegalAction, match=re.escape("Bob has re-entered 1 time, the most allowed per player.")):
        s.bust_one(2).reenter(2)
    with pytest.raises(IllegalAction, match=re.escape("Re-entry closed after level 3.")):
        six(rules).bust_one(2).at_level(4).reenter(2)
    with pytest.raises(IllegalAction, match=re.escape("This tournament has no re-entries.")):
        six().bust_one(2).reenter(2)


def test_chips_in_play_average_and_prize_pool():
    rules = RebuyRules(rebuy_until_level=4, rebuy_chips=1500, rebuy_cost=10, addon_level=4, addon_chips=3000, addon_cost=5)
    s = six(rules).bust_one(1).rebuy(1).at_level(4).addon(2).addon(3).correct_chips(-25)
    assert s.chips_in_play == 6 * 2000 + 1500 + 2 * 3000 - 25
    assert s.average_stack == round(s.chips_in_play / 6)
    assert s.prize_pool(buy_in=20) == 6 * 20 + 10 + 2 * 5
    with pytest.raises(IllegalAction, match="fewer than none"):
        s.correct_chips(-10**9)
    assert Standings.start({}, 1000).average_stack is None


def test_rebuy_rules_are_checked():
    with pytest.raises(InvalidInput, match="rebuy cost at -1"):
        RebuyRules(rebuy_cost=-1)
    with pytest.raises(InvalidInput, match="rebuys per player at -1"):
        RebuyRules(max_rebuys=-1)
    with pytest.raises(InvalidInput, match="A rebuy must give chips"):
        RebuyRules(rebuy_chips=0)
    with pytest.raises(InvalidInput, match="add-on needs a level"):
        RebuyRules(addon_level=2)
    with pytest.raises(InvalidInput, match="levels start at 1"):
        six().at_level(0)


# --- invariants ----------------------------------------------------------------------------


def assert_ranking(values, lo, hi):
    """Shared places make a consistent ranking of positions lo..hi: p, p (shared), p+2, ..."""
    values = sorted(values)
    assert len(values) == hi - lo + 1
    expected = lo
    i = 0
    while i < len(values):
        assert values[i] == expected
        m = values.count(values[i])
        i += m
        expected += m


class StandingsMachine(RuleBasedStateMachine):
    """Random busts, rebuys, re-entries, add-ons and levels: chips in play always equal the
    starting stacks plus rebuys and add-ons, and places always form a consistent ranking."""

    def __init__(self):
        super().__init__()
        rules = RebuyRules(
            rebuy_until_level=3, max_rebuys=2, rebuy_chips=1500, addon_level=3, addon_chips=2500,
            reentry_until_level=2, max_reentries=1,
        )
        self.s = Standings.start({i: f"P{i}" for i in range(1, 9)}, 1000, rules)

    @precondition(lambda self: not self.s.is_over and self.s.players_left >= 2)
    @rule(data=st.data(), h4h=st.booleans())
    def bust(self, data, h4h):
        left = list(self.s.in_play)
        k = data.draw(st.integers(1, len(left) - 1))
        victims = data.draw(st.permutations(left))[:k]
        stacks = {v: data.draw(st.integers(0, 5)) for v in victims}
        if h4h:
            for i, (v, stack) in enumerate(stacks.items()):
                self.s = self.s.bust({v: stack}, hand=99, table=i % 2, hand_for_hand=True)
        else:
            self.s = self.s.bust(stacks)

    @rule(data=st.data())
    def rebuy(self, data):
        pid = data.draw(st.integers(1, 8))
        if self.s.can_rebuy(pid):
            before = self.s.rebuys
            self.s = self.s.rebuy(pid)
            assert self.s.rebuys == before + 1 and self.s.status(pid) == "in"

    @rule(data=st.data())
    def reenter(self, data):
        pid = data.draw(st.integers(1, 8))
        if self.s.can_reenter(pid):
            self.s = self.s.reenter(pid)

    @rule(data=st.data())
    def addon(self, data):
        pid = data.draw(st.integers(1, 8))
        if self.s.can_addon(pid):
            self.s = self.s.addon(pid)

    @rule()
    def next_level(self):
        self.s = self.s.at_level(self.s.level + 1)

    @precondition(lambda self: not self.s.is_over)
    @rule(data=st.data())
    def hand_cap(self, data):
        if data.draw(st.integers(0, 9)) == 0:
            self.s = self.s.end_at_hand_cap({p: data.draw(st.integers(1, 3)) for p in self.s.in_play})

    @invariant()
    def chips_in_play_add_up(self):
        s = self.s
        assert s.chips_in_play == s.entries * 1000 + s.rebuys * 1500 + s.addons * 2500

    @invariant()
    def places_are_a_ranking(self):
        s = self.s
        n = len(s.entrants)
        out = s.provisional_places
        assert set(out) | set(s.in_play) == {e.id for e in s.entrants}
        assert not set(out) & set(s.in_play)
        assert_ranking(out.values(), s.players_left + 1, n)
        for pid, place in s.places.items():
            assert pid in s.in_play or out[pid] == place
        assert not set(s.places) & set(s.waiting)
        if s.is_over:
            assert s.waiting == () and s.unsettled == ()
            assert_ranking(s.places.values(), 1, n)
            assert [p for p, _ in s.final_ranking] == sorted(s.places.values())


TestStandingsMachine = StandingsMachine.TestCase
