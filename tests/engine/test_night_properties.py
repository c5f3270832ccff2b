"""A stateful property test of a multi-table night (engine.tournament with engine.dealing):
random commands at random moments keep one chip count and nobody in two hands.

Commands: deal, legal actions, awards (to random eligible winners), a table's undo, the
tournament's undo, moves to a free seat at another table (also during the player's hand),
dashboard busts (of a player who is not in a hand, naming a winner at his table), rebuys
and add-ons. After every step: the stacks add up to the chips in play (the chip check at
every table and overall), every player dealt into a running hand is in exactly one, and a
running hand's stacks are the players' stacks when it was dealt.
"""

from __future__ import annotations

from typing import Any

from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from engine.dealing import chip_check, stack_of
from engine.errors import EngineError
from engine.tournament import Event, Tournament, apply, fold
from tests.engine.test_dealing import legal_entries

TABLES = 3
SEATS = 4


class ClubNight(RuleBasedStateMachine):
    state: Tournament

    @initialize(players=st.integers(min_value=6, max_value=TABLES * SEATS))
    def start(self, players: int) -> None:
        created = {"name": "Night", "starting_stack": 1000, "table_size": 6, "rebuy_levels": 99,
                   "rebuy_chips": 1000, "addon_level": 99, "addon_chips": 500}
        self.state = fold([Event(1, "created", created, 0.0)])
        for p in range(players):
            self.add("player_registered", {"name": f"P{p + 1}"})
        seats = {str(p): [1 + (p - 1) % TABLES, 1 + (p - 1) // TABLES] for p in range(1, players + 1)}
        self.add("seats_drawn", {"seats": seats, "buttons": {str(t): 1 for t in range(1, TABLES + 1)}})
        self.add("clock", {"action": "start"})
        self.dealt_stacks: dict[tuple[int, int], dict[int, int]] = {}

    def add(self, type_: str, payload: dict[str, Any]) -> None:
        self.state = apply(self.state, Event(self.state.seq + 1, type_, payload, 10.0 + self.state.seq))

    def running(self, table: int) -> Any:
        return self.state.dealing.running(table)

    def tables(self) -> list[int]:
        return list(self.state.seating.tables)

    # ------------------------------------------------------------------ the tables

    @precondition(lambda self: not self.state.finished)
    @rule(data=st.data())
    def deal(self, data: st.DataObject) -> None:
        idle = [t for t in self.tables() if self.running(t) is None]
        if not idle:
            return
        table = data.draw(st.sampled_from(idle))
        try:
            self.add("hand_started", {"table": table})
        except EngineError:
            return  # fewer than two players with chips there
        hand = self.running(table)
        self.dealt_stacks[(table, hand.started_seq)] = {pid: stack_of(self.state, pid) for _, pid in hand.players}

    @rule(data=st.data())
    def act(self, data: st.DataObject) -> None:
        playing = [t for t in self.state.dealing.tables if self.running(t) is not None]
        if not playing:
            return
        table = data.draw(st.sampled_from(playing))
        hand = self.running(table).replay()
        if hand.turn is not None:
            self.add("hand_action", {"table": table, "action": data.draw(st.sampled_from(legal_entries(hand)))})
        elif hand.street == "showdown":
            winners = [
                data.draw(st.lists(st.sampled_from(p.eligible), min_size=1, max_size=len(p.eligible), unique=True))
                for p in hand.pots()
            ]
            self.add("hand_action", {"table": table, "action": "d win " + ";".join(",".join(map(str, w)) for w in winners)})
        else:  # the next card(s): named winners award the pots at the showdown
            needed = {0: 3, 3: 1, 4: 1}[len(hand.board)]
            used = {str(c) for c in hand.board}
            deck = [r + s for r in "23456789TJQKA" for s in "cdhs" if r + s not in used]
            self.add("hand_action", {"table": table, "action": "d db " + "".join(deck[:needed])})

    @rule(data=st.data())
    def table_undo(self, data: st.DataObject) -> None:
        playing = [t for t in self.state.dealing.tables if self.running(t) is not None]
        if playing:
            self.add("hand_undo", {"table": data.draw(st.sampled_from(playing))})

    @precondition(lambda self: self.state.can_undo)
    @rule()
    def undo(self) -> None:
        self.add("undo", {})

    # ------------------------------------------------------------------ the director

    @rule(data=st.data())
    def move(self, data: st.DataObject) -> None:
        seated = [p for p in self.state.alive if p.seated]
        if not seated:
            return
        player = data.draw(st.sampled_from(seated))
        free = [
            (t, s) for t in self.tables() for s in range(1, SEATS + 1)
            if t != player.table and self.state.seating.player_at(t, s) is None
        ]
        if free:
            table, seat = data.draw(st.sampled_from(free))
            self.add("player_moved", {"player": player.id, "table": table, "seat": seat})

    @precondition(lambda self: self.state.started and not self.state.finished)
    @rule(data=st.data())
    def bust(self, data: st.DataObject) -> None:
        free = [p for p in self.state.alive if p.seated and self.state.dealing.hand_of(p.id) is None]
        if not free:
            return
        player = data.draw(st.sampled_from(free))
        others = [
            p for p in self.state.alive
            if p.id != player.id and p.table == player.table and self.state.dealing.hand_of(p.id) is None
        ]
        if not others:
            return
        by = data.draw(st.sampled_from(others))
        self.add("bust", {"players": [player.id], "by": by.id})

    @rule(data=st.data())
    def rebuy_or_addon(self, data: st.DataObject) -> None:
        waiting = [p for p in self.state.players if p.status == "waiting"]
        if waiting and data.draw(st.booleans()):
            player = data.draw(st.sampled_from(waiting))
            try:
                self.add("rebuy", {"player": player.id})
            except EngineError:
                return
            free = [(t, s) for t in self.tables() for s in range(1, SEATS + 1) if self.state.seating.player_at(t, s) is None]
            if free and not self.state.player(player.id).seated:
                table, seat = data.draw(st.sampled_from(free))
                self.add("player_seated", {"player": player.id, "table": table, "seat": seat})
            return
        able = [p for p in self.state.alive if not p.addon and self.state.dealing.hand_of(p.id) is None]
        if able:
            try:
                self.add("addon", {"player": data.draw(st.sampled_from(able)).id})
            except EngineError:
                return

    # ------------------------------------------------------------------ what always holds

    @invariant()
    def one_chip_count(self) -> None:
        state = self.state
        assert chip_check(state).difference == 0
        for table in state.seating.tables:
            if self.running(table) is None:
                assert chip_check(state, table).difference == 0 or any(
                    pid in state.dealing.in_hand for pid in state.seating.at_table(table).values()
                )
        assert all(stack_of(state, p) >= 0 for p in state.standings.in_play)

    @invariant()
    def nobody_in_two_hands(self) -> None:
        state = self.state
        seen: dict[int, int] = {}
        for table in state.dealing.tables:
            hand = state.dealing.running(table)
            if hand is None:
                continue
            for _, pid in hand.players:
                assert pid not in seen, f"player {pid} is dealt in at tables {seen[pid]} and {table}"
                seen[pid] = table
        assert seen == dict(state.dealing.in_hand)

    @invariant()
    def a_hand_deals_the_stacks_the_players_have(self) -> None:
        for table in self.state.dealing.tables:
            hand = self.state.dealing.running(table)
            if hand is not None and (table, hand.started_seq) in self.dealt_stacks:
                stacks = {pid: hand.setup.stacks[seat] for seat, pid in hand.players}
                assert stacks == self.dealt_stacks[(table, hand.started_seq)]


ClubNight.TestCase.settings = settings(max_examples=60, stateful_step_count=50, deadline=None)
test_club_night = ClubNight.TestCase
