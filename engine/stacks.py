"""The players' chips between hands, as the dealer's assistant keeps them in a tournament: a
stack is the buy-ins plus what was won and lost in finished hands plus the corrections
(:func:`stack_of`); the director's bust of a player with chips moves them
(:func:`write_off`); :func:`chip_check` compares the stacks with the chips that should be
in them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TypeAlias

from engine.state import Tournament
from engine.tablehands import Dealing, WriteOff

PlayerId: TypeAlias = int
Chips: TypeAlias = int


def stack_of(state: Tournament, player: PlayerId) -> Chips:
    """A player's chips between hands: buy-ins plus winnings plus corrections (0 once out)."""
    standings = state.standings
    entrant = standings.entrant(player)
    if not entrant.in_play:
        return 0
    bought = (
        standings.starting_stack * (1 + entrant.reentries)
        + entrant.rebuys * standings.rebuy_chips
        + (standings.rules.addon_chips if entrant.addon else 0)
    )
    return bought + state.dealing.net_of(player)


def write_off(
    state: Tournament, players: Sequence[PlayerId], seq: int, by: Sequence[PlayerId] = ()
) -> Dealing:
    """The director's bust: each player's stack goes to ``by``, the player who won it (split
    evenly between several, the odd chips to the first ones, in the odd-chip order), or (no
    winner named) leaves the stacks kept here. The caller refuses the bust of a player dealt
    into a running hand: that hand settles their chips."""
    dealing = state.dealing
    followed = set(dealing.latest)
    changes: dict[PlayerId, Chips] = {}
    offs: list[WriteOff] = []
    for pid in players:
        table = state.seating.seat_of(pid)[0] if pid in state.seating else None
        chips = stack_of(state, pid)
        if chips:
            changes[pid] = changes.get(pid, 0) - chips
            share, odd = divmod(chips, len(by)) if by else (0, 0)
            for n, winner in enumerate(by):
                changes[winner] = changes.get(winner, 0) + share + (1 if n < odd else 0)
            offs.append(WriteOff(seq, pid, table, chips, table in followed, by[0] if by else None))
    return replace(dealing, net=with_net(dealing.net, changes), write_offs=(*dealing.write_offs, *offs))


def write_off_v1(state: Tournament, players: Sequence[PlayerId], seq: int) -> Dealing:
    """The director's bust in a tournament stored under rules 1: the chips leave the kept
    stacks, and a player dealt into a running hand is left to that hand."""
    dealing = state.dealing
    kept = [pid for pid in players if dealing.hand_of(pid) is None]
    return write_off(state, kept, seq)


@dataclass(frozen=True)
class ChipCheck:
    """The stacks kept here against the chips that should be in them (at one table, or all).

    ``write_offs`` are the director's busts that explain a shortfall (chips lost in a hand
    the assistant did not see at a table where it deals).
    """

    expected: Chips
    counted: Chips
    write_offs: tuple[WriteOff, ...] = ()

    @property
    def difference(self) -> Chips:
        return self.counted - self.expected


def chip_check(state: Tournament, table: int | None = None) -> ChipCheck:
    """The stacks of the players still in (at ``table``, or everywhere) against the chips
    that should be there.

    Everywhere, the chips bought into play are expected, less those lost in director's busts
    at tables without the assistant (they are in stacks it does not follow). At one table,
    the stacks there are expected to hold what they hold, less the corrections made there
    and plus the chips lost there in director's busts the assistant did not see.
    """
    dealing = state.dealing
    lost = tuple(w for w in dealing.write_offs if w.to is None)
    if table is None:
        counted = sum(stack_of(state, pid) for pid in state.standings.in_play)
        unseen = sum(w.chips for w in lost if not w.followed)
        return ChipCheck(state.chips_in_play - unseen, counted, tuple(w for w in lost if w.followed))
    seated = state.seating.at_table(table).values() if table in state.seating.tables else ()
    counted = sum(stack_of(state, pid) for pid in seated)
    here = tuple(w for w in lost if w.followed and w.table == table)
    corrected = sum(c.after - c.before for c in dealing.corrections if c.table == table)
    return ChipCheck(counted - corrected + sum(w.chips for w in here), counted, here)


def with_net(net: Mapping[PlayerId, Chips], changes: Mapping[PlayerId, Chips]) -> dict[PlayerId, Chips]:
    merged = dict(net)
    for pid, delta in changes.items():
        merged[pid] = merged.get(pid, 0) + delta
    return merged


__all__ = ["ChipCheck", "chip_check", "stack_of", "with_net", "write_off", "write_off_v1"]
