"""Cash-game nights (seed 004): stakes and buy-ins, top-ups, the club's balances and stake
access, the ledger, waiting lists, and hands at fixed blinds under the dead-button rule."""

from __future__ import annotations

import contextlib
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from engine.cash import (
    STAKES,
    CashSession,
    Club,
    Stake,
    apply,
    balances,
    club_apply,
    club_fold,
    describe,
    fold,
    next_hand,
    verify_member_buy_in,
    verify_stake_access,
)
from engine.errors import EngineError, IllegalAction, InvalidInput
from engine.hand import Hand
from engine.positions import Positions
from engine.tournament import Event


class Night:
    """Builds a cash session event by event, like the event store does."""

    def __init__(self, *tables: dict[str, Any], newcomers: str = "wait") -> None:
        tables = tables or ({"seats": 9, "small_blind": 50, "big_blind": 100},)
        created = {"name": "Friday cash", "tables": list(tables), "newcomers": newcomers}
        self.events: list[Event] = [Event(1, "created", created, 0.0)]
        self.state = fold(self.events)
        self.at = 0.0

    def add(self, type: str, **payload: Any) -> CashSession:
        self.at += 60.0
        event = Event(self.state.seq + 1, type, payload, self.at)
        self.state = apply(self.state, event)
        self.events.append(event)
        return self.state

    def sit(
        self, member: int, seat: int, amount: int = 10_000, table: int = 1, name: str | None = None
    ) -> CashSession:
        return self.add(
            "sat_down",
            member=member,
            name=name or f"P{member}",
            table=table,
            seat=seat,
            amount=amount,
        )

    def deal(self, table: int = 1, **extra: Any) -> Hand:
        self.add("hand_started", table=table, **extra)
        hand = self.state.table(table).live_hand()
        assert hand is not None
        return hand

    def act(self, entry: str, table: int = 1) -> CashSession:
        return self.add("hand_action", table=table, entry=entry)

    def stacks(self, table: int = 1) -> dict[int, int]:
        return {p.seat: p.stack for p in self.state.table(table).players}


# --- stakes and buy-ins ---------------------------------------------------------------------


def test_seed_004_stakes_are_the_five_blind_levels():
    """Seed 004: "The blind levels are 10/20, 50/100, 250/500, 1,000/2,000, 10,000/20,000." """
    assert [s.name for s in STAKES] == [
        "10/20",
        "50/100",
        "250/500",
        "1,000/2,000",
        "10,000/20,000",
    ]


@pytest.mark.parametrize("stake", STAKES, ids=lambda s: s.name)
def test_seed_004_buy_in_is_40_to_100_big_blinds_at_every_stake(stake: Stake):
    """Seed 004: "You buy in for 40 to 100 big blinds." Both ends are allowed; one chip
    outside either end is refused with the range in the message."""
    low, high = 40 * stake.big_blind, 100 * stake.big_blind
    stake.verify_buy_in(low, "Ann")
    stake.verify_buy_in(high, "Ann")
    for amount in (low - 1, high + 1):
        with pytest.raises(IllegalAction) as refused:
            stake.verify_buy_in(amount, "Ann")
        text = str(refused.value)
        assert f"{low:,} to {high:,} (40 to 100 big blinds)" in text
        assert f"{amount:,}" in text and stake.name in text


@pytest.mark.parametrize("stake", STAKES, ids=lambda s: s.name)
def test_buy_in_bounds_through_the_session_at_every_stake(stake: Stake):
    """A sit-down outside the table's range writes nothing; inside it, the stack is the buy-in."""
    night = Night({"seats": 6, **stake.as_dict()})
    with pytest.raises(
        IllegalAction, match=f"the buy-in is {stake.min_buy_in:,} to {stake.max_buy_in:,}"
    ):
        night.sit(1, 1, amount=stake.min_buy_in - 1)
    with pytest.raises(IllegalAction, match="the buy-in is"):
        night.sit(1, 1, amount=stake.max_buy_in + 1)
    assert night.state.table(1).players == ()
    night.sit(1, 1, amount=stake.min_buy_in)
    night.sit(2, 2, amount=stake.max_buy_in)
    assert night.stacks() == {1: stake.min_buy_in, 2: stake.max_buy_in}


def test_issue_example_50_100_buys_in_for_4000_to_10000():
    """Issue 8: "at 50/100 that is 4,000 to 10,000"."""
    assert (Stake(50, 100).min_buy_in, Stake(50, 100).max_buy_in) == (4_000, 10_000)


def test_custom_blinds_and_their_checks():
    assert Stake.parse("25/50").range_text == "2,000 to 5,000 (40 to 100 big blinds)"
    with pytest.raises(InvalidInput, match="not a stake"):
        Stake.parse("fifty")
    with pytest.raises(
        InvalidInput, match="small blind must be at least 1 and at most the big blind"
    ):
        Stake(200, 100)
    with pytest.raises(InvalidInput, match="whole number"):
        Stake(0.5, 1)  # type: ignore[arg-type]


@pytest.mark.parametrize("stake", STAKES, ids=lambda s: s.name)
def test_top_up_to_the_maximum_and_not_one_chip_more(stake: Stake):
    """Issue 8: "Top-ups between hands up to the maximum": reaching it exactly is fine,
    one chip over is refused, saying how much may be added."""
    night = Night({"seats": 9, **stake.as_dict()})
    night.sit(1, 1, amount=stake.min_buy_in)
    room = stake.max_buy_in - stake.min_buy_in
    with pytest.raises(IllegalAction, match=f"can add at most {room:,}"):
        night.add("top_up", member=1, amount=room + 1)
    night.add("top_up", member=1, amount=room)
    assert night.stacks() == {1: stake.max_buy_in}
    with pytest.raises(IllegalAction, match="already at the maximum"):
        night.add("top_up", member=1, amount=1)


def test_top_up_refused_during_a_hand_and_for_nothing():
    night = Night()
    night.sit(1, 1, amount=5_000)
    night.sit(2, 2, amount=5_000)
    night.deal()
    with pytest.raises(
        IllegalAction, match="P1 is in the hand being played at table 1: top up when it is over"
    ):
        night.add("top_up", member=1, amount=1_000)
    night.sit(3, 3, amount=5_000)  # not dealt in: may top up during the hand
    with pytest.raises(IllegalAction, match="P3's top-up must be more than 0, not 0"):
        night.add("top_up", member=3, amount=0)
    night.add("top_up", member=3, amount=5_000)


# --- the club ---------------------------------------------------------------------------------


def club_with(*grants: tuple[str, int]) -> Club:
    events = [Event(1, "created", {}, 0.0)]
    for name, grant in grants:
        events.append(
            Event(
                len(events) + 1, "member_added", {"name": name, "grant": grant}, float(len(events))
            )
        )
    return club_fold(events)


@pytest.mark.parametrize("stake", STAKES[:3], ids=lambda s: s.name)
def test_seed_004_first_three_stakes_open_to_everyone(stake: Stake):
    """Seed 004: "The first 3 are open to everyone"."""
    verify_stake_access(stake, 0, "Ann")


@pytest.mark.parametrize(
    ("stake", "needed"), [(STAKES[3], 80_000), (STAKES[4], 800_000)], ids=["1k/2k", "10k/20k"]
)
def test_seed_004_higher_stakes_open_at_their_smallest_buy_in(stake: Stake, needed: int):
    """Seed 004: "each higher level opens once your Play Chips reach its smallest buy-in"."""
    verify_stake_access(stake, needed, "Ann")
    with pytest.raises(IllegalAction) as refused:
        verify_stake_access(stake, needed - 1, "Ann")
    assert str(refused.value) == (
        f"Ann may not sit at {stake.name} yet: that stake opens once a member's Play Chips reach "
        f"{needed:,}, its smallest buy-in, and Ann has {needed - 1:,}."
    )


def test_buying_in_needs_the_chips_in_the_balance():
    """Buying in takes chips from the balance: a member cannot take more than they have."""
    with pytest.raises(IllegalAction, match="Bob's balance is 3,000 play chips"):
        verify_member_buy_in(STAKES[1], 3_000, 4_000, "Bob", sitting=True)
    verify_member_buy_in(STAKES[1], 4_000, 4_000, "Bob", sitting=True)


def test_club_members_grants_and_undo():
    club = club_with(("Ann", 10_000), ("Bob", 0))
    assert [m.name for m in club.members] == ["Ann", "Bob"]
    assert club.granted(1) == 10_000 and club.granted(2) == 0
    club = club_apply(
        club,
        Event(4, "chips_granted", {"member": 2, "amount": 5_000, "reason": "Weekly top-up"}, 9.0),
    )
    assert club.granted(2) == 5_000 and club.grants[-1].reason == "Weekly top-up"
    with pytest.raises(IllegalAction, match="Ann is already a member"):
        club_apply(club, Event(5, "member_added", {"name": " ann "}, 10.0))
    with pytest.raises(IllegalAction, match="more than 0"):
        club_apply(club, Event(5, "chips_granted", {"member": 1, "amount": -5}, 10.0))
    with pytest.raises(InvalidInput, match="no club member number 9"):
        club_apply(club, Event(5, "chips_granted", {"member": 9, "amount": 5}, 10.0))
    undone = club_apply(club, Event(5, "undo", {}, 10.0))
    assert undone.granted(2) == 0 and undone.seq == 5


def test_balances_carry_from_night_to_night():
    """Seed 004's Play Chips: buying in takes chips from the balance, cashing out puts them
    back, and the balance carries over to the next session."""
    club = club_with(("Ann", 20_000), ("Bob", 20_000))
    first = Night()
    first.sit(1, 1, amount=10_000, name="Ann")
    first.sit(2, 2, amount=10_000, name="Bob")
    assert balances(club, [first.state]) == {1: 10_000, 2: 10_000}
    first.deal()
    first.act("p1 cbr 10000")  # heads-up: seat 1 is the button and small blind
    first.act("p2 cc")
    first.act("d win 1")
    first.add("left", member=1)
    first.add("left", member=2)
    assert balances(club, [first.state]) == {1: 30_000, 2: 10_000}
    second = Night()
    second.sit(2, 5, amount=10_000, name="Bob")
    assert balances(club, [first.state, second.state]) == {1: 30_000, 2: 0}


# --- seats, leaving, rebuys -----------------------------------------------------------------


def test_sit_down_checks_seat_and_player():
    night = Night({"seats": 6, "small_blind": 10, "big_blind": 20})
    night.sit(1, 3, amount=2_000, name="Ann")
    with pytest.raises(IllegalAction, match="Seat 3 at table 1 is taken by Ann"):
        night.sit(2, 3, amount=2_000)
    with pytest.raises(IllegalAction, match="Ann is already sitting at table 1, seat 3"):
        night.sit(1, 4, amount=2_000, name="Ann")
    with pytest.raises(IllegalAction, match="Table 1 has seats 1 to 6; there is no seat 7"):
        night.sit(2, 7, amount=2_000)
    with pytest.raises(InvalidInput, match="no table 2"):
        night.sit(2, 1, amount=2_000, table=2)


def test_session_needs_tables_of_6_or_9_seats():
    with pytest.raises(InvalidInput, match="6 or 9 seats, not 10"):
        Night({"seats": 10, "small_blind": 10, "big_blind": 20})
    with pytest.raises(InvalidInput, match="at least one table"):
        fold([Event(1, "created", {"name": "x", "tables": []}, 0.0)])
    with pytest.raises(InvalidInput, match="'wait' for the big blind or 'post'"):
        Night(newcomers="sometimes")


def test_leaving_cashes_out_the_current_stack():
    """Issue 8: "a player may leave, and their chips are cashed out at their current stack"."""
    night = Night()
    night.sit(1, 1, amount=10_000)
    night.sit(2, 2, amount=4_000)
    night.deal()
    with pytest.raises(IllegalAction, match="leave when it is over"):
        night.add("left", member=2)
    night.act("p1 cbr 400")
    night.act("p2 f")
    night.add("left", member=2)
    line = {line.member: line for line in night.state.ledger().lines}[2]
    assert (line.bought_in, line.cashed_out, line.on_table, line.net) == (4_000, 3_900, 0, -100)
    assert night.state.seat_of(2) is None


def test_rebuy_after_busting_and_only_then():
    """Issue 8: "rebuys after busting": a busted player stays in the seat with nothing and
    is not dealt in until they buy in again (within the range), or leave."""
    night = Night()
    night.sit(1, 1, amount=10_000)
    night.sit(2, 2, amount=4_000)
    night.sit(3, 3, amount=4_000)
    with pytest.raises(
        IllegalAction, match="still has 4,000 chips: a rebuy is for a player who has busted"
    ):
        night.add("rebuy", member=2, amount=4_000)
    night.deal()  # button 1, small blind 2, big blind 3
    night.act("p1 cbr 10000")
    night.act("p2 cc")
    night.act("p3 f")
    night.act("d win 1")
    assert night.stacks() == {1: 14_100, 2: 0, 3: 3_900}
    assert night.state.table(1).player_at(2).busted
    hand = night.deal()
    assert 2 not in hand.setup.stacks
    night.act("p3 f")  # heads-up now: seat 1 is on the big blind, seat 3 the button acts first
    with pytest.raises(
        IllegalAction, match="P2 has no chips left: that is a rebuy of 4,000 to 10,000"
    ):
        night.add("top_up", member=2, amount=4_000)
    with pytest.raises(IllegalAction, match="the buy-in is 4,000 to 10,000"):
        night.add("rebuy", member=2, amount=3_000)
    night.add("rebuy", member=2, amount=5_000)
    assert night.stacks()[2] == 5_000
    ledger = night.state.ledger()
    assert ledger.bought_in == 23_000 and ledger.balanced


def test_seat_change_stays_at_the_stake_and_carries_the_stack():
    night = Night(
        {"seats": 6, "small_blind": 50, "big_blind": 100},
        {"seats": 9, "small_blind": 50, "big_blind": 100},
        {"seats": 9, "small_blind": 10, "big_blind": 20},
    )
    night.sit(1, 1, amount=6_000)
    night.add("seat_changed", member=1, table=2, seat=4)
    assert night.state.table(1).players == () and night.stacks(2) == {4: 6_000}
    with pytest.raises(IllegalAction, match="it plays 10/20, not 50/100"):
        night.add("seat_changed", member=1, table=3, seat=1)
    with pytest.raises(IllegalAction, match="already in seat 4"):
        night.add("seat_changed", member=1, table=2, seat=4)


# --- waiting lists --------------------------------------------------------------------------


def test_freed_seat_is_offered_to_the_first_in_line():
    """Issue 8: "a waiting list per stake; a freed seat is offered to the first in line"."""
    night = Night({"seats": 6, "small_blind": 10, "big_blind": 20})
    for member in range(1, 7):
        night.sit(member, member, amount=2_000)
    night.add("waiting_added", member=7, name="Gus", stake="10/20")
    night.add("waiting_added", member=8, name="Hal", stake="10/20")
    assert night.state.offers() == ()
    with pytest.raises(IllegalAction, match="Gus is already on the 10/20 waiting list"):
        night.add("waiting_added", member=7, name="Gus", stake="10/20")
    with pytest.raises(IllegalAction, match="No table plays 50/100 tonight; the stakes are 10/20"):
        night.add("waiting_added", member=9, name="Ida", stake="50/100")
    night.add("left", member=4)
    (offer,) = night.state.offers()
    assert (offer.table, offer.seat, offer.name) == (1, 4, "Gus")
    with pytest.raises(IllegalAction, match="offered first to Gus, first on the waiting list"):
        night.sit(8, 4, amount=2_000, name="Hal")
    night.sit(7, 4, amount=2_000, name="Gus")
    assert [w.name for w in night.state.waiting_list(Stake(10, 20))] == ["Hal"]
    night.add("waiting_removed", member=8, stake="10/20")
    assert night.state.waiting == ()


# --- hands at fixed blinds --------------------------------------------------------------------


def test_hand_uses_the_fixed_blinds_and_updates_stacks():
    night = Night({"seats": 6, "small_blind": 250, "big_blind": 500})
    for member, seat in ((1, 1), (2, 3), (3, 5)):
        night.sit(member, seat, amount=30_000)
    hand = night.deal()
    assert (hand.setup.small_blind, hand.setup.big_blind) == (250, 500)
    assert (hand.setup.button, hand.setup.small_blind_seat, hand.setup.big_blind_seat) == (1, 3, 5)
    with pytest.raises(
        IllegalAction, match="Seat 1 cannot raise to 700: the minimum raise is to 1,000"
    ):
        night.act("p1 cbr 700")
    night.act("p1 cbr 1500")
    night.act("p3 f")
    night.act("p5 cc")
    assert night.state.table(1).live_hand().street == "flop"
    night.act("p5 cc")
    night.act("p1 cbr 2000")
    night.act("p5 f")
    assert night.stacks() == {1: 31_750, 3: 29_750, 5: 28_500}
    (record,) = night.state.hands
    assert (record.pot, record.number, record.won) == (3_250, 1, ((1, 3_250),))
    assert night.state.biggest_pot is record


def test_tda_dead_button_when_the_big_blind_leaves():
    """Issue 8: "the dead-button rule for a player leaving or joining". TDA 1.2: the big
    blind moves on by one player; when the previous big blind's seat is empty the small
    blind is dead and the button moves to the former small blind."""
    night = Night()
    for member in range(1, 6):
        night.sit(member, member, amount=5_000)
    night.deal()  # button 1, small blind 2, big blind 3
    night.act("p4 f"), night.act("p5 f"), night.act("p1 f"), night.act("p2 f")
    night.add("left", member=3)
    upcoming = next_hand(night.state, 1)
    assert upcoming.positions == Positions(
        button=2, small_blind=None, big_blind=4, small_blind_seat_number=3
    )
    hand = night.deal()
    assert hand.setup.small_blind_seat is None and hand.setup.big_blind_seat == 4


def fold_round(night: Night, table: int = 1) -> None:
    """Everyone folds to the big blind."""
    hand = night.state.table(table).live_hand()
    while hand is not None and hand.turn is not None:
        night.act(f"p{hand.turn} f", table=table)
        hand = night.state.table(table).live_hand()


def test_new_player_waits_for_the_big_blind():
    """Issue 8: "a new player posts or waits for the big blind, as the house chooses":
    with 'wait', a player joining a table in play is dealt in when the big blind reaches
    their seat, and not before."""
    night = Night(newcomers="wait")
    for member, seat in ((1, 1), (2, 2), (3, 3), (4, 6), (5, 7)):
        night.sit(member, seat, amount=5_000)
    night.deal()  # button 1, small blind 2, big blind 3
    fold_round(night)
    night.sit(9, 9, amount=5_000)
    upcoming = next_hand(night.state, 1)
    assert upcoming.waiting == (9,) and upcoming.positions == Positions(2, 3, 6, 3)
    night.deal()
    fold_round(night)
    assert night.state.table(1).player_at(9).newcomer
    hand = night.deal()
    assert hand.setup.big_blind_seat == 7 and 9 not in hand.setup.stacks
    fold_round(night)
    hand = night.deal()  # the big blind reaches seat 9: in, on the big blind
    assert hand.setup.big_blind_seat == 9 and 9 in hand.setup.stacks
    assert (hand.setup.button, hand.setup.small_blind_seat) == (6, 7)
    assert not night.state.table(1).player_at(9).newcomer


def test_new_player_right_after_the_big_blind_plays_at_once():
    """A newcomer whose seat the big blind reaches next is dealt in on the big blind at once."""
    night = Night(newcomers="wait")
    for member, seat in ((1, 1), (2, 2), (3, 3), (4, 6)):
        night.sit(member, seat, amount=5_000)
    night.deal()  # button 1, small blind 2, big blind 3
    fold_round(night)
    night.sit(5, 5, amount=5_000)
    upcoming = next_hand(night.state, 1)
    assert upcoming.waiting == () and upcoming.positions == Positions(2, 3, 5, 3)


def test_new_player_posts_a_big_blind_to_play_at_once():
    """With 'post', a new player is dealt in at once with a big blind posted (dead), except
    between the button and the small blind, where they wait for the button to pass (TDA 1.4)."""
    night = Night(newcomers="post")
    for member, seat in ((1, 1), (2, 3), (3, 5), (4, 7)):
        night.sit(member, seat, amount=5_000)
    night.deal()  # button 1, small blind 3, big blind 5
    for entry in ("p7 f", "p1 f", "p3 f"):
        night.act(entry)
    night.sit(5, 9, amount=5_000)  # after the next big blind (7): posts and plays
    night.sit(6, 4, amount=5_000)  # between the next button (3) and small blind (5): waits
    upcoming = next_hand(night.state, 1)
    assert upcoming.positions == Positions(3, 5, 7, 5)
    assert upcoming.posts == (9,) and upcoming.waiting == (4,)
    hand = night.deal()
    assert hand.setup.antes == {9: 100}
    assert hand.stacks()[9] == 4_900 and hand.pots()[0].amount == 100


def test_hand_undo_takes_back_actions_the_deal_and_the_award():
    night = Night()
    for member in range(1, 4):
        night.sit(member, member, amount=5_000)
    night.deal()
    night.act("p1 cbr 300")
    night.add("hand_undo", table=1)
    assert night.state.table(1).hand.log == ()
    night.add("hand_undo", table=1)
    assert night.state.table(1).hand is None and night.state.table(1).positions is None
    assert night.state.table(1).hands_dealt == 0
    night.deal()
    night.act("p1 f"), night.act("p2 f")
    assert night.stacks() == {1: 5_000, 2: 4_950, 3: 5_050}
    night.add("hand_undo", table=1)  # the award (the last fold) is taken back
    assert night.stacks() == {1: 5_000, 2: 5_000, 3: 5_000}
    assert night.state.hands == () and night.state.table(1).live_hand().turn == 2
    night.act("p2 f")
    assert night.stacks() == {1: 5_000, 2: 4_950, 3: 5_050}
    night.add("top_up", member=3, amount=100)  # somebody at the table moved: the award stays
    with pytest.raises(IllegalAction, match="There is no hand to undo at table 1"):
        night.add("hand_undo", table=1)


def test_an_undo_takes_back_the_last_entry_whole_like_at_a_tournament_table():
    """A showdown entered in one go (the board, both hands, the award) is one entry: the
    undo takes all of it back, to the hand as it was before it, as the tournament's table
    does (``TableHand.before``); nothing of it is left half entered."""
    night = Night()
    night.sit(1, 1, amount=5_000)
    night.sit(2, 2, amount=5_000)
    night.deal()
    night.act("p1 cbr 5000"), night.act("p2 cc")
    before = night.state.table(1).hand
    night.add("hand_action", table=1, entries=["d db AhKd7c2s9h", "p1 sm AsAd", "p2 sm KcKs", "d win cards"])
    assert night.state.table(1).hand is None  # awarded
    night.add("hand_undo", table=1)
    reopened = night.state.table(1).hand
    assert reopened is not None and reopened.log == before.log
    assert night.stacks() == {1: 5_000, 2: 5_000} and night.state.hands == ()


def test_dealing_needs_two_players_with_chips():
    night = Night()
    night.sit(1, 1, amount=5_000)
    with pytest.raises(
        IllegalAction, match="needs two players with chips to deal; only one has chips"
    ):
        night.deal()
    night.sit(2, 2, amount=5_000)
    night.deal()
    with pytest.raises(IllegalAction, match="already playing hand 1"):
        night.deal()


def test_undo_cancels_the_last_event():
    night = Night()
    night.sit(1, 1, amount=5_000)
    night.add("undo")
    assert night.state.table(1).players == () and night.state.ledger().lines == ()
    with pytest.raises(IllegalAction, match="nothing to undo"):
        night.add("undo")


def test_describe_events_for_the_history():
    night = Night()
    night.sit(1, 1, amount=5_000, name="Ann")
    assert describe(night.events[-1]) == "Ann sat down at table 1 seat 1 for 5,000"
    assert describe(Event(3, "left", {"member": 1}, 0.0), {1: "Ann"}) == "Ann cashed out"


# --- a seeded night -----------------------------------------------------------------------------


def random_action(hand: Hand, rng: random.Random) -> str:
    """A random legal entry for the hand: a betting action, or the award at the showdown."""
    legal = hand.legal_actions()
    if legal is None:
        winners = []
        for pot in hand.pots():
            k = 1 if rng.random() < 0.85 else min(2, len(pot.eligible))
            winners.append(",".join(str(s) for s in sorted(rng.sample(pot.eligible, k))))
        return "d win " + ";".join(winners)
    seat, roll = legal.seat, rng.random()
    if legal.call_amount and roll < 0.3:
        return f"p{seat} f"
    if legal.min_bet_or_raise_to is not None and roll > 0.75:
        high = legal.max_bet_or_raise_to or legal.min_bet_or_raise_to
        if roll > 0.95:
            return f"p{seat} cbr {high}"
        return f"p{seat} cbr {rng.randint(legal.min_bet_or_raise_to, min(high, 4 * legal.min_bet_or_raise_to))}"
    return f"p{seat} cc"


def play_night(seed: int, hands: int, check: bool = True) -> tuple[Night, Club]:
    """Two 50/100 tables; members join, bust, rebuy, top up, change seats, wait and leave
    between hands, with their club balances checked like the app does."""
    rng = random.Random(seed)
    pool = 14
    club = club_with(*((f"M{k}", 200_000) for k in range(1, pool + 1)))
    night = Night(
        {"seats": 9, "small_blind": 50, "big_blind": 100},
        {"seats": 6, "small_blind": 50, "big_blind": 100},
    )
    stake = Stake(50, 100)
    grants = sum(g.amount for g in club.grants)

    def balance(member: int) -> int:
        return balances(club, [night.state])[member]

    def between_hands(table: int) -> None:
        state = night.state
        t = state.table(table)
        for p in t.players:
            if p.busted:
                if rng.random() < 0.6 and balance(p.member) >= stake.min_buy_in:
                    night.add(
                        "rebuy",
                        member=p.member,
                        amount=rng.randint(stake.min_buy_in, stake.max_buy_in),
                    )
                else:
                    night.add("left", member=p.member)
            elif rng.random() < 0.03:
                night.add("left", member=p.member)
            elif rng.random() < 0.05 and p.stack < stake.max_buy_in:
                amount = rng.randint(1, stake.max_buy_in - p.stack)
                verify_member_buy_in(stake, balance(p.member), amount, p.name, sitting=False)
                night.add("top_up", member=p.member, amount=amount)
        t = night.state.table(table)
        other = night.state.table(3 - table)
        if t.players and other.free_seats and rng.random() < 0.1:
            p = rng.choice(t.players)
            night.add(
                "seat_changed",
                member=p.member,
                table=other.number,
                seat=rng.choice(other.free_seats),
            )
        outside = [m for m in range(1, pool + 1) if night.state.seat_of(m) is None]
        listed = {w.member for w in night.state.waiting_list(stake)}
        for m in outside:
            if m not in listed and rng.random() < 0.05:
                night.add("waiting_added", member=m, name=f"M{m}", stake="50/100")
        for offer in night.state.offers():
            if offer.table == table:
                night.sit(
                    offer.member, offer.seat, amount=stake.max_buy_in, table=table, name=offer.name
                )
        t = night.state.table(table)
        while len(t.players) < 3 and t.free_seats and not night.state.waiting_list(stake):
            m = next((m for m in range(1, pool + 1) if night.state.seat_of(m) is None), None)
            if m is None:
                break
            amount = rng.choice(
                [
                    stake.min_buy_in,
                    stake.max_buy_in,
                    rng.randint(stake.min_buy_in, stake.max_buy_in),
                ]
            )
            verify_member_buy_in(stake, balance(m), amount, f"M{m}", sitting=True)
            night.sit(m, rng.choice(t.free_seats), amount=amount, table=table, name=f"M{m}")
            t = night.state.table(table)

    started = 0
    while started < hands or any(t.hand for t in night.state.tables):
        table = rng.choice([1, 2])
        t = night.state.table(table)
        if t.hand is not None:
            before = sum(t.hand.setup.stacks.values())
            night.act(random_action(t.live_hand(), rng), table=table)
            t = night.state.table(table)
            if t.hand is None:  # finished: no chip made or lost
                record = night.state.hands[-1]
                assert sum(p.stack for p in t.players if p.seat in record.setup.stacks) == before
        elif started < hands:
            between_hands(table)
            if sum(1 for p in night.state.table(table).players if p.stack) >= 2:
                night.deal(table, button=min(p.seat for p in night.state.table(table).players))
                started += 1
        if check:
            assert_books_balance(night, club, grants)
    return night, club


def assert_books_balance(night: Night, club: Club, grants: int) -> None:
    ledger = night.state.ledger()
    assert ledger.balanced
    held = balances(club, [night.state])
    assert all(chips >= 0 for chips in held.values())
    assert sum(held.values()) + ledger.on_tables == grants


def test_ledger_balances_over_a_seeded_night_of_200_hands():
    """Issue 8: "the ledger balancing over a seeded night of 200 random hands across two
    tables with players joining, busting, rebuying and leaving": after every event,
    bought in = cashed out + on the tables, no hand makes or loses a chip, and the club's
    balances plus the chips on the tables are exactly the chips granted."""
    night, club = play_night(2026, 200)
    state = night.state
    assert len(state.hands) == 200 == state.hands_dealt
    kinds = {m.kind for m in state.movements}
    assert kinds == {"sat_down", "top_up", "rebuy", "left"}
    assert {"seat_changed", "waiting_added"} <= {e.type for e in night.events}
    assert len({m.member for m in state.movements}) >= 10
    assert {h.table for h in state.hands} == {1, 2}
    for p in [p for t in state.tables for p in t.players]:
        night.add("left", member=p.member)
    ledger = night.state.ledger()
    assert ledger.on_tables == 0 and ledger.bought_in == ledger.cashed_out
    assert sum(line.net for line in ledger.lines) == 0
    assert sum(balances(club, [night.state]).values()) == sum(g.amount for g in club.grants)
    # The stored events replay to the same night.
    assert fold(night.events).ledger() == ledger


@settings(max_examples=15, deadline=None)
@given(st.integers(min_value=0, max_value=10**6))
def test_books_balance_on_any_seeded_night(seed: int):
    """The ledger balances after every event of any short night, and each finished hand
    keeps its chips."""
    night, _ = play_night(seed, 12)
    assert night.state.ledger().balanced


def test_summary_figures():
    night = Night()
    night.sit(1, 1, amount=5_000)
    night.sit(2, 2, amount=5_000)
    night.deal()
    night.act("p1 cbr 5000"), night.act("p2 cc"), night.act("d win 1")
    night.add("left", member=2)
    state = night.state
    assert state.hands_dealt == 1 and state.biggest_pot.pot == 10_000
    assert state.seconds_played(2, 10_000.0) == 300.0  # sat at 120, left at 420
    assert state.seconds_played(1, 1_000.0) == 1_000.0 - 60.0


def test_engine_errors_are_value_errors():
    assert issubclass(IllegalAction, EngineError) and issubclass(EngineError, ValueError)


# --- a stateful check of every session event --------------------------------------------------


class SessionMachine(RuleBasedStateMachine):
    """Any order of sit-downs, top-ups, rebuys, cash-outs, seat changes, deals, actions and
    undos keeps the books: bought in = cashed out + on the tables, no stack below zero, and
    every stored event list replays to the same state."""

    def __init__(self) -> None:
        super().__init__()
        self.night = Night(
            {"seats": 6, "small_blind": 50, "big_blind": 100},
            {"seats": 6, "small_blind": 50, "big_blind": 100},
            newcomers="post",
        )
        self.rng = random.Random(0)

    @initialize()
    def seat_five(self) -> None:
        for member, (table, seat) in enumerate(((1, 1), (1, 3), (1, 5), (2, 2), (2, 4)), start=1):
            self.night.sit(member, seat, amount=4_000 + 1_000 * member, table=table)

    def try_add(self, type: str, **payload: Any) -> None:
        with contextlib.suppress(EngineError):
            self.night.add(type, **payload)

    @rule(
        member=st.integers(1, 8),
        table=st.integers(1, 2),
        seat=st.integers(1, 6),
        bb=st.integers(38, 102),
    )
    def sit(self, member: int, table: int, seat: int, bb: int) -> None:
        self.try_add(
            "sat_down", member=member, name=f"M{member}", table=table, seat=seat, amount=bb * 100
        )

    @rule(member=st.integers(1, 9), amount=st.integers(1, 11_000))
    def top_up(self, member: int, amount: int) -> None:
        self.try_add("top_up", member=member, amount=amount)

    @rule(member=st.integers(1, 9), amount=st.integers(3_000, 11_000))
    def rebuy(self, member: int, amount: int) -> None:
        self.try_add("rebuy", member=member, amount=amount)

    @rule(member=st.integers(1, 9))
    def leave(self, member: int) -> None:
        self.try_add("left", member=member)

    @rule(member=st.integers(1, 9), table=st.integers(1, 2), seat=st.integers(1, 6))
    def move(self, member: int, table: int, seat: int) -> None:
        self.try_add("seat_changed", member=member, table=table, seat=seat)

    @rule(table=st.integers(1, 2))
    def deal(self, table: int) -> None:
        self.try_add("hand_started", table=table)

    @rule(table=st.integers(1, 2), steps=st.integers(1, 20), seed=st.integers(0, 1000))
    def play(self, table: int, steps: int, seed: int) -> None:
        rng = random.Random(seed)
        for _ in range(steps):
            hand = self.night.state.table(table).live_hand()
            if hand is None:
                return
            self.night.act(random_action(hand, rng), table=table)

    @rule(table=st.integers(1, 2))
    def hand_undo(self, table: int) -> None:
        self.try_add("hand_undo", table=table)

    @rule()
    def undo(self) -> None:
        self.try_add("undo")

    @invariant()
    def books_balance(self) -> None:
        state = self.night.state
        ledger = state.ledger()
        assert ledger.balanced
        assert all(p.stack >= 0 for t in state.tables for p in t.players)
        for t in state.tables:
            hand = t.live_hand()
            if hand is not None:
                in_pots = sum(p.amount for p in hand.pots()) + sum(hand.bets().values())
                assert sum(hand.stacks().values()) + in_pots == sum(t.hand.setup.stacks.values())
        assert sum(line.bought_in for line in ledger.lines) == sum(
            m.bought_in for m in state.movements
        )

    def teardown(self) -> None:
        replayed = fold(self.night.events)
        assert replayed.ledger() == self.night.state.ledger()
        assert [t.players for t in replayed.tables] == [t.players for t in self.night.state.tables]


SessionMachine.TestCase.settings = settings(max_examples=40, stateful_step_count=40, deadline=None)
test_session_machine = SessionMachine.TestCase


def test_cards_and_award_in_one_event():
    """The showdown's cards and the award from them arrive as one event."""
    night = Night()
    night.sit(1, 1, amount=5_000)
    night.sit(2, 2, amount=5_000)
    night.deal()  # heads-up: seat 1 is the button and small blind
    night.act("p1 cbr 5000")
    night.act("p2 cc")
    night.add(
        "hand_action",
        table=1,
        entries=["d db AhKd7c2s9h", "p1 sm AsAd", "p2 sm KcKs", "d win cards"],
    )
    assert night.stacks() == {1: 10_000, 2: 0}
    assert night.state.hands[-1].description.startswith(
        "Seat 1 wins the main pot (10,000) with three of a kind"
    )
    with pytest.raises(IllegalAction, match="No hand is being played at table 1"):
        night.add("hand_action", table=1, entries=["d win 1"])
    night.add("rebuy", member=2, amount=5_000)
    night.deal()
    with pytest.raises(InvalidInput, match="must be a list"):
        night.add("hand_action", table=1, entries="p1 f")
    with pytest.raises(IllegalAction, match="The hand at table 1 is over: 'p1 f' comes too late"):
        night.add("hand_action", table=1, entries=["p2 f", "p1 f"])


def test_history_lines_in_words():
    night = Night()
    night.sit(1, 1, amount=5_000, name="Ann")
    assert describe(
        Event(9, "hand_action", {"table": 1, "entries": ["p3 sm AsKd", "d win 3"]}, 0.0)
    ) == ("Table 1: seat 3 shows AsKd; seat 3 wins the pot")
    assert (
        describe(Event(9, "hand_action", {"table": 2, "entry": "p4 f"}, 0.0))
        == "Table 2: seat 4 folds"
    )
    assert describe(
        Event(9, "waiting_added", {"member": 3, "name": "Gus", "stake": "10/20"}, 0.0)
    ) == ("Gus joined the 10/20 waiting list")
