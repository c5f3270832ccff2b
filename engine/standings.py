"""Eliminations and finishing places.

Seed 000: "A player who loses all their chips is eliminated and finishes behind
everyone still in the game. If several players are knocked out in the same hand,
the one who started that hand with more chips finishes higher; players who
started with the same number of chips share the place."

The busts of one hand and their places are :mod:`engine.busts`; here are the standings
of a whole tournament (:class:`Standings`) and its rebuy rules.

>>> places_for_busts(10, {"Ann": 5000, "Bob": 3000})
{'Ann': 9, 'Bob': 10}
>>> places_for_busts(5, {"Ann": 800, "Bob": 800})
{'Ann': 4, 'Bob': 4}
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import cached_property
from typing import Literal, TypeAlias

from engine.busts import Bust as Bust
from engine.busts import Chips as Chips
from engine.busts import Elimination as Elimination
from engine.busts import K as K
from engine.busts import PlayerId as PlayerId
from engine.busts import TieBreak as TieBreak
from engine.busts import by_and_split, shared_by_rank
from engine.busts import places_for_busts as places_for_busts
from engine.errors import EngineError, IllegalAction, InvalidInput, Message, Term

# --- the standings of a tournament ---------------------------------------------------------

Money: TypeAlias = int
CrossTable: TypeAlias = Literal["split", "starting_stack"]
"""Players knocked out on the same hand-for-hand hand at different tables (TDA 3.4):
``"split"`` (the default) shares the best of their places, ``"starting_stack"`` ranks
them by the chips they started the hand with, as if they had been at one table."""

SEED_HAND_CAP = 120
"""Seed 000: "As a safety net the game ends after 120 hands in any case: the players
still in are then ranked by their chips." """



@dataclass(frozen=True)
class RebuyRules:
    """Rebuys, re-entries and the add-on (TDA 6.5). The defaults allow none of them.

    Levels are the clock's level numbers; during a break, the level is the one
    just played, so "until level 4" includes the break after level 4, and the
    add-on at level 4 is offered during level 4 and the break after it.
    """

    rebuy_until_level: int = 0
    """Rebuys allowed up to and including this level; 0 means no rebuys."""
    max_rebuys: int | None = None
    """Rebuys allowed per player; ``None`` means unlimited."""
    rebuy_when: Literal["busted", "at_or_below_start"] = "busted"
    """Only a player who has busted may rebuy, or also one at or below the starting stack."""
    rebuy_chips: Chips | None = None
    """Chips a rebuy gives; ``None`` means the starting stack."""
    rebuy_cost: Money = 0
    addon_level: int | None = None
    """The level (and the break after it) when the add-on is offered; ``None``: no add-on."""
    addon_chips: Chips = 0
    addon_cost: Money = 0
    addon_max_stack: Chips | None = None
    """Only players with at most this many chips may take the add-on; ``None``: everyone still in."""
    reentry_until_level: int = 0
    """A player who is out may enter again (a new entry) up to this level; 0 means never."""
    max_reentries: int | None = None

    def __post_init__(self) -> None:
        for label, value in (
            (Term("the last rebuy level"), self.rebuy_until_level),
            (Term("the last re-entry level"), self.reentry_until_level),
            (Term("the rebuy cost"), self.rebuy_cost), (Term("the add-on chips"), self.addon_chips),
            (Term("the add-on cost"), self.addon_cost),
        ):
            if value < 0:
                raise InvalidInput("Rebuy rules cannot have {label} at {value}.", label=label, value=value)
        for label, maybe in (
            (Term("rebuys per player"), self.max_rebuys), (Term("re-entries per player"), self.max_reentries),
            (Term("the add-on stack limit"), self.addon_max_stack),
        ):
            if maybe is not None and maybe < 0:
                raise InvalidInput("Rebuy rules cannot have {label} at {value}.", label=label, value=maybe)
        if self.rebuy_chips is not None and self.rebuy_chips < 1:
            raise InvalidInput("A rebuy must give chips, not {chips}.", chips=self.rebuy_chips)
        if self.addon_level is not None and (self.addon_level < 1 or self.addon_chips < 1):
            raise InvalidInput("An add-on needs a level of 1 or more and at least 1 chip.")
        if self.rebuy_when not in ("busted", "at_or_below_start"):
            raise InvalidInput("Unknown rebuy condition {condition}: use 'busted' or 'at_or_below_start'.",
                               condition=repr(self.rebuy_when))


@dataclass(frozen=True)
class Entrant:
    """A player (a person: re-entries keep the same record) and what they bought."""

    id: PlayerId
    name: str
    in_play: bool = True
    rebuys: int = 0
    reentries: int = 0
    addon: bool = False


def _allowed(check: Callable[[], None]) -> bool:
    """Whether ``check`` passes (raises no ``EngineError``)."""
    try:
        check()
    except EngineError:
        return False
    return True


def _check_stack(name: str, stack: Chips | None, most: Chips, limit: Message) -> None:
    """Refuse a missing chip count, or more than ``most`` chips; ``limit`` says why."""
    if stack is None:
        raise InvalidInput("Give {name}'s chip count: {limit}.", name=name, limit=limit)
    if stack > most:
        raise IllegalAction("{name} has {stack} chips: {limit}.", name=name, stack=stack, limit=limit)


@dataclass(frozen=True)
class Standings:
    """Who is still in, who finished where, and the chips in play: a pure fold.

    Each change returns a new ``Standings``. The model for places:

    - A player knocked out is *out*. While they may still rebuy or re-enter
      (the period is open and they have rebuys left) they are *waiting* and
      have no place; a rebuy or re-entry cancels the bust and they are back in.
    - Places are counted from the bottom: each hand's busts take the places
      just below everyone still in and everyone knocked out later (same-hand
      busts by starting stack, seed 000). A place is *settled* once nobody who
      busted in the same hand or earlier is still waiting; until then it is
      only *provisional* (a waiting player who comes back moves it down one).
    - The period closes when the level passes the last rebuy/re-entry level
      (:meth:`at_level`) or when the director says so (:meth:`close_rebuys`).
    - The tournament is over when one player is left and nobody is waiting
      (the winner takes 1st), or at the hand cap (:meth:`end_at_hand_cap`),
      where the players still in are ranked by chips, equal chips sharing.

    Busts entered one at a time by the director take places in that order;
    busts entered together are one hand (:func:`places_for_busts`).
    """

    starting_stack: Chips
    rules: RebuyRules = RebuyRules()
    tie_break: TieBreak = "share"
    cross_table: CrossTable = "split"
    table_order: bool = False
    """Busts of one hand-for-hand hand at several tables: keep seed 000's order at each table
    (the one who started the hand with more chips finishes higher) and share across tables
    rank by rank. Off, the split gives every one of them the best place (the first version)."""
    entrants: tuple[Entrant, ...] = ()
    eliminations: tuple[Elimination, ...] = ()
    """The busts still standing, oldest first (rebought busts are removed)."""
    history: tuple[Bust, ...] = ()
    """Every bust ever entered, rebought or not (who knocked out whom, bounties)."""
    level: int = 1
    rebuys_closed: bool = False
    corrections: Chips = 0
    cap_stacks: tuple[tuple[PlayerId, Chips], ...] | None = None
    """The chips of the players still in when the hand cap ended the game."""

    @classmethod
    def start(
        cls,
        players: Mapping[PlayerId, str],
        starting_stack: Chips,
        rules: RebuyRules | None = None,
        *,
        tie_break: TieBreak = "share",
        cross_table: CrossTable = "split",
        table_order: bool = False,
    ) -> Standings:
        """A tournament about to start: every player in with the starting stack.

        >>> s = Standings.start({1: "Ann", 2: "Bob", 3: "Cy"}, 1000)
        >>> s = s.bust_one(3).bust_one(2)
        >>> s.is_over, s.places
        (True, {1: 1, 2: 2, 3: 3})
        """
        if starting_stack < 1:
            raise InvalidInput("The starting stack must be at least 1 chip, not {stack}.", stack=starting_stack)
        if tie_break not in ("share", "order"):
            raise InvalidInput("Unknown tie break {tie_break}: use 'share' or 'order'.", tie_break=repr(tie_break))
        if cross_table not in ("split", "starting_stack"):
            raise InvalidInput("Unknown hand-for-hand rule {rule}: use 'split' or 'starting_stack'.",
                               rule=repr(cross_table))
        standings = cls(starting_stack, rules or RebuyRules(), tie_break, cross_table, table_order)
        for pid, name in players.items():
            standings = standings.register(pid, name)
        return standings

    # --- reading ---------------------------------------------------------------------------

    @cached_property
    def _by_id(self) -> dict[PlayerId, Entrant]:
        return {e.id: e for e in self.entrants}

    def entrant(self, player: PlayerId) -> Entrant:
        entrant = self._by_id.get(player)
        if entrant is None:
            raise InvalidInput("There is no player number {player}.", player=player)
        return entrant

    def name(self, player: PlayerId) -> str:
        return self.entrant(player).name

    @cached_property
    def in_play(self) -> tuple[PlayerId, ...]:
        """The players still in, in registration order (worked out once: a state never changes)."""
        return tuple(e.id for e in self.entrants if e.in_play)

    @property
    def players_left(self) -> int:
        return len(self.in_play)

    @property
    def entries(self) -> int:
        """Unique players plus re-entries."""
        return len(self.entrants) + sum(e.reentries for e in self.entrants)

    @property
    def rebuys(self) -> int:
        return sum(e.rebuys for e in self.entrants)

    @property
    def addons(self) -> int:
        return sum(1 for e in self.entrants if e.addon)

    @property
    def rebuy_chips(self) -> Chips:
        return self.rules.rebuy_chips if self.rules.rebuy_chips is not None else self.starting_stack

    @property
    def chips_in_play(self) -> Chips:
        """Entries times the starting stack, plus rebuys and add-ons, plus corrections."""
        return (
            self.entries * self.starting_stack
            + self.rebuys * self.rebuy_chips
            + self.addons * self.rules.addon_chips
            + self.corrections
        )

    @property
    def average_stack(self) -> Chips | None:
        """Chips in play over players left, rounded; ``None`` when nobody is in."""
        left = self.players_left
        return round(self.chips_in_play / left) if left else None

    def prize_pool(self, buy_in: Money, fee_per_entry: Money = 0) -> Money:
        """The money in: buy-ins (one per entry), rebuys and add-ons at the rules' costs."""
        from engine.payouts import prize_pool

        return prize_pool(
            entries=self.entries, buy_in=buy_in, rebuys=self.rebuys, rebuy_cost=self.rules.rebuy_cost,
            addons=self.addons, addon_cost=self.rules.addon_cost, fee_per_entry=fee_per_entry,
        )

    def _rebuy_refusal(self, e: Entrant) -> Message | None:
        r = self.rules
        if self.cap_stacks is not None:
            return Message("The tournament is over: no more rebuys.")
        if r.rebuy_until_level == 0:
            return Message("This tournament has no rebuys.")
        if self.rebuys_closed or self.level > r.rebuy_until_level:
            return Message("Rebuys closed after level {level}.", level=r.rebuy_until_level)
        if r.max_rebuys is not None and e.rebuys >= r.max_rebuys:
            if e.rebuys == 1:
                return Message("{name} has used 1 rebuy, the most allowed per player.", name=e.name)
            return Message("{name} has used {count} rebuys, the most allowed per player.", name=e.name, count=e.rebuys)
        return None

    def _reentry_refusal(self, e: Entrant) -> Message | None:
        r = self.rules
        if self.cap_stacks is not None:
            return Message("The tournament is over: no more re-entries.")
        if r.reentry_until_level == 0:
            return Message("This tournament has no re-entries.")
        if e.in_play:
            return Message("{name} is still in: only a player who is out can re-enter.", name=e.name)
        if self.rebuys_closed or self.level > r.reentry_until_level:
            return Message("Re-entry closed after level {level}.", level=r.reentry_until_level)
        if r.max_reentries is not None and e.reentries >= r.max_reentries:
            if e.reentries == 1:
                return Message("{name} has re-entered 1 time, the most allowed per player.", name=e.name)
            return Message("{name} has re-entered {count} times, the most allowed per player.", name=e.name,
                           count=e.reentries)
        return None

    @cached_property
    def waiting(self) -> tuple[PlayerId, ...]:
        """Players out who may still rebuy or re-enter: they have no place yet (worked out
        once per standings: the states of a night's table play share them)."""
        return tuple(
            e.id for e in self.entrants
            if not e.in_play and (self._rebuy_refusal(e) is None or self._reentry_refusal(e) is None)
        )

    @property
    def is_over(self) -> bool:
        if self.cap_stacks is not None:
            return True
        return len(self.entrants) > 1 and self.players_left == 1 and not self.waiting

    @property
    def winner(self) -> PlayerId | None:
        """The one player left when the game is over (``None`` if it ended at the cap with a tie)."""
        if not self.is_over:
            return None
        firsts = [p for p, place in self.places.items() if place == 1]
        return firsts[0] if len(firsts) == 1 else None

    def _group_places(self, group: Elimination, players_before: int) -> dict[PlayerId, int]:
        stacks = {b.player: b.stack for b in group.busts}
        tables = {b.table for b in group.busts}
        if group.hand_for_hand and len(tables) > 1 and self.cross_table == "split":
            if self.table_order:
                return shared_by_rank(group.busts, players_before, self.tie_break)
            return dict.fromkeys(stacks, players_before - len(stacks) + 1)
        return places_for_busts(players_before, stacks, self.tie_break)

    @cached_property
    def _placement(self) -> tuple[dict[PlayerId, int], frozenset[PlayerId]]:
        """Places of everyone out as if nobody else came back, and the settled ones (worked
        out once per standings; never handed out to be changed)."""
        places: dict[PlayerId, int] = {}
        below = self.players_left
        for group in reversed(self.eliminations):
            places.update(self._group_places(group, below + len(group.busts)))
            below += len(group.busts)
        waiting = set(self.waiting)
        settled: set[PlayerId] = set()
        seen_waiting = False
        for group in self.eliminations:
            members = {b.player for b in group.busts}
            seen_waiting = seen_waiting or bool(members & waiting)
            if not seen_waiting:
                settled |= members
        return places, frozenset(settled)

    @property
    def provisional_places(self) -> dict[PlayerId, int]:
        """The place of everyone out, waiting players included, if nobody else came back."""
        return dict(self._placement[0])

    @property
    def places(self) -> dict[PlayerId, int]:
        """The places that are certain, best first; everyone's once the game is over."""
        out, settled = self._placement
        result: dict[PlayerId, int] = {}
        if self.cap_stacks is not None:
            chips = dict(self.cap_stacks)
            for pid, stack in chips.items():
                result[pid] = 1 + sum(1 for s in chips.values() if s > stack)
        elif self.is_over:
            result[self.in_play[0]] = 1
        result.update({p: place for p, place in out.items() if p in settled})
        return dict(sorted(result.items(), key=lambda item: item[1]))

    @property
    def unsettled(self) -> tuple[PlayerId, ...]:
        """Players out for good whose place waits on a waiting player who busted before them."""
        out, settled = self._placement
        waiting = set(self.waiting)
        return tuple(p for p in out if p not in settled and p not in waiting)

    @property
    def final_ranking(self) -> tuple[tuple[int, PlayerId], ...] | None:
        """``(place, player)`` for everyone once the game is over, best first."""
        if not self.is_over:
            return None
        order = {e.id: i for i, e in enumerate(self.entrants)}
        return tuple(sorted(((pl, p) for p, pl in self.places.items()), key=lambda t: (t[0], order[t[1]])))

    @cached_property
    def eliminated_by(self) -> dict[PlayerId, PlayerId]:
        """Who knocked out each player now out (when it was recorded); worked out once per
        standings (a page asks it for each of 300 players)."""
        return {b.player: b.by for g in self.eliminations for b in g.busts if b.by is not None}

    @cached_property
    def eliminators(self) -> dict[PlayerId, tuple[PlayerId, ...]]:
        """Who knocked out each player now out: one player, or those who split the pot."""
        return {b.player: b.takers for g in self.eliminations for b in g.busts if b.takers}

    def status(self, player: PlayerId) -> Literal["in", "waiting", "out"]:
        """``"in"``, ``"waiting"`` (out, may still rebuy or re-enter) or ``"out"``."""
        if self.entrant(player).in_play:
            return "in"
        return "waiting" if player in self.waiting else "out"

    # --- changing ----------------------------------------------------------------------------

    def _over_check(self, what: Message) -> None:
        if self.is_over:
            raise IllegalAction("The tournament is over: {what}.", what=what)

    def _replace_entrant(self, new: Entrant) -> tuple[Entrant, ...]:
        return tuple(new if e.id == new.id else e for e in self.entrants)

    def register(self, player: PlayerId, name: str) -> Standings:
        """A player joins (late registration too): in, with the starting stack.

        Places already given to players out move down one, as the field grew.
        """
        self._over_check(Message("{name} cannot join now", name=name))
        if any(e.id == player for e in self.entrants):
            raise IllegalAction("Player number {player} is already registered.", player=player)
        clean = " ".join(name.split())
        if not clean:
            raise InvalidInput("The name is empty: type a name.")
        return replace(self, entrants=(*self.entrants, Entrant(player, clean)))

    def at_level(self, level: int) -> Standings:
        """The clock has reached ``level`` (during a break, the level just played)."""
        if level < 1:
            raise InvalidInput("There is no level {level}: levels start at 1.", level=level)
        return replace(self, level=level)

    def close_rebuys(self) -> Standings:
        """The director closes rebuys and re-entries: players waiting are out for good."""
        return replace(self, rebuys_closed=True)

    def correct_chips(self, delta: Chips) -> Standings:
        """Chips added to or removed from play by the director (a forfeited stack, a count error)."""
        if self.chips_in_play + delta < 0:
            raise IllegalAction(
                "Removing {chips} chips would leave fewer than none in play ({in_play} now).",
                chips=-delta, in_play=self.chips_in_play,
            )
        return replace(self, corrections=self.corrections + delta)

    def bust(
        self,
        busts: Mapping[PlayerId, Chips],
        *,
        hand: int | None = None,
        table: int | None = None,
        hand_for_hand: bool = False,
        by: Mapping[PlayerId, PlayerId | Sequence[PlayerId]] | None = None,
        tables: Mapping[PlayerId, int | None] | None = None,
        at: float | None = None,
    ) -> Standings:
        """Players knocked out in one hand, with the chips each had when it began.

        A hand-for-hand hand is reported table by table: each call names its
        ``table`` and the same ``hand`` number, and joins the last elimination
        if that was the same hand-for-hand hand. Across tables the busts share
        the best of their places (TDA 3.4, or rank by stack if so configured).

        >>> s = Standings.start({1: "Ann", 2: "Bob", 3: "Cy", 4: "Dee"}, 1000)
        >>> s.bust({1: 600, 2: 900}).places
        {2: 3, 1: 4}
        """
        self._over_check(Message("nobody else can be knocked out"))
        if not busts:
            raise InvalidInput("Name at least one player who was knocked out.")
        for pid in busts:
            e = self.entrant(pid)
            if not e.in_play:
                raise IllegalAction("{name} is not in the game: they cannot be knocked out.", name=e.name)
        places_for_busts(self.players_left, busts, self.tie_break)  # validates the count and stacks
        takers: dict[PlayerId, tuple[PlayerId, ...]] = {}
        for victim, named in (by or {}).items():
            if victim not in busts:
                raise InvalidInput("{name} is not among the players knocked out in this hand.", name=self.name(victim))
            winners = (named,) if isinstance(named, int) else tuple(dict.fromkeys(named))
            for winner in winners:
                w = self.entrant(winner)
                if not w.in_play or winner in busts:
                    raise IllegalAction(
                        "{winner} cannot have knocked out {victim}: {winner} is not in the game.",
                        winner=w.name, victim=self.name(victim),
                    )
            if winners:
                takers[victim] = winners
        where = tables or {}
        new = tuple(
            Bust(pid, stack, where.get(pid, table), *by_and_split(takers.get(pid, ()))) for pid, stack in busts.items()
        )
        groups = self.eliminations
        last = groups[-1] if groups else None
        if (
            hand_for_hand and hand is not None and last is not None
            and last.hand_for_hand and last.hand == hand
        ):
            groups = (*groups[:-1], replace(last, busts=last.busts + new))
        else:
            groups = (*groups, Elimination(new, hand, hand_for_hand, self.level, at))
        entrants = tuple(replace(e, in_play=False) if e.id in busts else e for e in self.entrants)
        return replace(self, entrants=entrants, eliminations=groups, history=self.history + new)

    def bust_one(self, player: PlayerId, *, by: PlayerId | None = None) -> Standings:
        """The director's bust button: one player out, behind everyone before."""
        return self.bust({player: 0}, by={player: by} if by is not None else None)

    def _cancel_bust(self, player: PlayerId) -> tuple[Elimination, ...]:
        groups: list[Elimination] = []
        for g in self.eliminations:
            kept = tuple(b for b in g.busts if b.player != player)
            if kept:
                groups.append(replace(g, busts=kept))
        return tuple(groups)

    def verify_rebuy(self, player: PlayerId, stack: Chips | None = None) -> None:
        """Raise ``IllegalAction`` unless ``player`` (with ``stack`` chips if still in) may rebuy."""
        e = self.entrant(player)
        refusal = Message("The tournament is over: no more rebuys.") if self.is_over else self._rebuy_refusal(e)
        if refusal is not None:
            raise IllegalAction(refusal.message, **refusal.values)
        if not e.in_play:
            return
        if self.rules.rebuy_when == "busted":
            raise IllegalAction("{name} still has chips: rebuys are only for players who have busted.", name=e.name)
        limit = Message("rebuys are only for players at or below the starting stack of {stack}", stack=self.starting_stack)
        _check_stack(e.name, stack, self.starting_stack, limit)

    def can_rebuy(self, player: PlayerId, stack: Chips | None = None) -> bool:
        return _allowed(lambda: self.verify_rebuy(player, stack))

    def rebuy(self, player: PlayerId, stack: Chips | None = None) -> Standings:
        """A rebuy: a busted player is back in (their bust is cancelled), or chips on top."""
        self.verify_rebuy(player, stack)
        e = self.entrant(player)
        return self._back_in(replace(e, in_play=True, rebuys=e.rebuys + 1))

    def verify_reentry(self, player: PlayerId) -> None:
        """Raise ``IllegalAction`` unless ``player``, who is out, may enter again."""
        e = self.entrant(player)
        refusal = Message("The tournament is over: no more re-entries.") if self.is_over else self._reentry_refusal(e)
        if refusal is not None:
            raise IllegalAction(refusal.message, **refusal.values)

    def can_reenter(self, player: PlayerId) -> bool:
        return _allowed(lambda: self.verify_reentry(player))

    def reenter(self, player: PlayerId) -> Standings:
        """A re-entry: a new entry with the starting stack (a new seat is the seating's business)."""
        self.verify_reentry(player)
        e = self.entrant(player)
        return self._back_in(replace(e, in_play=True, reentries=e.reentries + 1))

    def _back_in(self, e: Entrant) -> Standings:
        """``e`` (in play again after a rebuy or a re-entry) replaces its old self; its bust is cancelled."""
        return replace(self, entrants=self._replace_entrant(e), eliminations=self._cancel_bust(e.id))

    def verify_addon(self, player: PlayerId, stack: Chips | None = None) -> None:
        """Raise ``IllegalAction`` unless ``player`` may take the add-on now."""
        e = self.entrant(player)
        r = self.rules
        self._over_check(Message("no more add-ons"))
        if r.addon_level is None:
            raise IllegalAction("This tournament has no add-on.")
        if self.level != r.addon_level:
            raise IllegalAction("The add-on is only during level {level} and the break after it.", level=r.addon_level)
        if not e.in_play:
            raise IllegalAction("{name} is out: the add-on is only for players still in.", name=e.name)
        if e.addon:
            raise IllegalAction("{name} has already taken the add-on.", name=e.name)
        if r.addon_max_stack is not None:
            limit = Message("the add-on is only for players with {most} chips or fewer", most=r.addon_max_stack)
            _check_stack(e.name, stack, r.addon_max_stack, limit)

    def can_addon(self, player: PlayerId, stack: Chips | None = None) -> bool:
        return _allowed(lambda: self.verify_addon(player, stack))

    def addon(self, player: PlayerId, stack: Chips | None = None) -> Standings:
        """The add-on: ``rules.addon_chips`` more chips for a player still in."""
        self.verify_addon(player, stack)
        return replace(self, entrants=self._replace_entrant(replace(self.entrant(player), addon=True)))

    def end_at_hand_cap(self, stacks: Mapping[PlayerId, Chips]) -> Standings:
        """Seed 000's safety net: the game ends and the players still in are ranked by chips
        (equal chips share the place). Players waiting to rebuy are out for good."""
        self._over_check(Message("the hand cap cannot end it again"))
        left = set(self.in_play)
        for pid in stacks:
            if pid not in left:
                raise IllegalAction("{name} is not in the game: only players still in are ranked at the hand cap.",
                                    name=self.name(pid))
        for pid in self.in_play:
            if pid not in stacks:
                raise InvalidInput("Give {name}'s chips: every player still in is ranked at the hand cap.",
                                   name=self.name(pid))
            if stacks[pid] < 1:
                raise InvalidInput("{name} is still in, so has chips, not {chips}.", name=self.name(pid), chips=stacks[pid])
        return replace(self, cap_stacks=tuple((pid, stacks[pid]) for pid in self.in_play))
