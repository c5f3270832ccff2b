"""Prize pools, payouts, league points, ICM and deals (TDA section 7).

Amounts are whole numbers of the host's play money. Every split is rounded
down to the host's ``unit`` and whatever is left over goes where a director
would put it (to first place, or to the biggest stack in a deal), so the
prizes always add up exactly to the pool. The payout tables and a host's own
percentages are read and checked in :mod:`engine.payout_tables`.

>>> payouts(1000, payout_percentages(10))
[500, 300, 200]
>>> payouts(1000, [50, 30, 20], unit=30)
[520, 300, 180]
>>> [round(x, 2) for x in icm([5000, 3000, 2000], [50, 30, 20])]
[38.39, 32.75, 28.86]
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Mapping, Sequence, Set
from dataclasses import dataclass
from fractions import Fraction
from typing import Generic, Literal, TypeAlias, TypeVar

from engine.errors import IllegalAction, InvalidInput, Message, Term
from engine.payout_tables import PAYOUT_TABLES as PAYOUT_TABLES
from engine.payout_tables import PayoutTable as PayoutTable
from engine.payout_tables import Percentage as Percentage
from engine.payout_tables import parse_percentages as parse_percentages
from engine.payout_tables import payout_percentages as payout_percentages
from engine.payout_tables import payout_table as payout_table
from engine.payout_tables import validate_percentages as validate_percentages

Chips: TypeAlias = int
Money: TypeAlias = int
K = TypeVar("K", bound=Hashable)

MAX_ICM_PLAYERS = 12
"""ICM looks at every subset of the players: beyond this many it gets slow."""


# --- prize pool and payouts --------------------------------------------------------------


def prize_pool(
    *,
    entries: int,
    buy_in: Money,
    rebuys: int = 0,
    rebuy_cost: Money = 0,
    addons: int = 0,
    addon_cost: Money = 0,
    fee_per_entry: Money = 0,
) -> Money:
    """What the buy-ins, rebuys and add-ons put in the pool, less any fee kept per entry.

    >>> prize_pool(entries=10, buy_in=20, rebuys=4, rebuy_cost=20, addons=8, addon_cost=10)
    360
    """
    for label, value in (
        (Term("entries"), entries), (Term("the buy-in"), buy_in), (Term("rebuys"), rebuys),
        (Term("the rebuy cost"), rebuy_cost), (Term("add-ons"), addons), (Term("the add-on cost"), addon_cost),
        (Term("the fee"), fee_per_entry),
    ):
        if value < 0:
            raise InvalidInput("The prize pool cannot be worked out with {label} at {value}.", label=label, value=value)
    if fee_per_entry > buy_in:
        raise InvalidInput("The fee of {fee} is more than the buy-in of {buy_in}.", fee=fee_per_entry, buy_in=buy_in)
    return entries * (buy_in - fee_per_entry) + rebuys * rebuy_cost + addons * addon_cost


def _check_unit(unit: int) -> None:
    if unit < 1:
        raise InvalidInput("Prizes cannot be rounded to a unit of {unit}: use 1 or more.", unit=unit)


def payouts(pool: Money, percentages: Sequence[Percentage], unit: int = 1) -> list[Money]:
    """Each place's prize: its share rounded down to ``unit``, the remainder to first place.

    The prizes add up exactly to ``pool`` (TDA T56) and a lower place is never
    paid more than a higher one.

    >>> payouts(175, [50, 30, 20], unit=5)
    [90, 50, 35]
    """
    shares = validate_percentages(percentages)
    _check_unit(unit)
    if pool < 0:
        raise InvalidInput("The prize pool cannot be {pool}.", pool=pool)
    prizes = [math.floor(pool * share / 100 / unit) * unit for share in shares]
    prizes[0] += pool - sum(prizes)
    return prizes


# --- the club's pool: fees, a guarantee, fixed prizes, a smallest prize ---------------------

MAX_FIXED_PRIZES = 50


def fee_of(amount: Money, fee_amount: Money = 0, fee_percent: Fraction = Fraction(0)) -> Money:
    """What the house keeps of one payment (a buy-in, a rebuy, an add-on): a fixed amount, or
    a share of it rounded down to a whole unit.

    >>> fee_of(50, fee_amount=5), fee_of(55, fee_percent=Fraction(10))
    (5, 5)
    """
    if fee_amount:
        return min(fee_amount, amount)
    return math.floor(amount * fee_percent / 100)


@dataclass(frozen=True)
class Pool:
    """Where the prize pool comes from: what was paid in, the house's fees, the guarantee's
    overlay (what the house adds to reach the guarantee)."""

    paid_in: Money
    fees: Money = 0
    overlay: Money = 0
    bounties: Money = 0
    """The part of the payments that is bounties on the players' heads, not prize money."""

    @property
    def pool(self) -> Money:
        return self.paid_in - self.fees - self.bounties + self.overlay


def pool_of(paid_in: Money, fees: Money = 0, guarantee: Money = 0, bounties: Money = 0) -> Pool:
    """The pool from what was ``paid_in``, less the ``fees`` and the ``bounties`` in it,
    topped up to ``guarantee`` (each payment's own fee is ``fee_of``, at its own price).

    >>> p = pool_of(550, fees=55, guarantee=600)
    >>> p.paid_in, p.fees, p.overlay, p.pool
    (550, 55, 105, 600)
    """
    overlay = max(0, guarantee - (paid_in - fees - bounties))
    return Pool(paid_in, fees, overlay, bounties)


def grow_locked(
    prizes: Sequence[Money], locked_pool: Money, pool: Money, unit: int = 1, fixed: Set[int] = frozenset(),
) -> list[Money]:
    """The prizes locked at the money when the pool has become ``pool``: the places paid stay,
    and the money paid in since the lock (or lost since: a guarantee lowered) is shared in
    proportion to the locked prizes, each share rounded down to ``unit`` and the odd units to
    first place; ``fixed`` places (a fixed prize) keep their amount. The prizes add up to the
    pool exactly (TDA 7.2).

    >>> grow_locked([280, 120], 400, 500)
    [350, 150]
    >>> grow_locked([475, 285, 190, 50], 1000, 1100, unit=5, fixed={4})
    [525, 315, 210, 50]
    """
    _check_unit(unit)
    out = list(prizes)
    extra = pool - locked_pool
    if not extra or not out:
        return out
    table = [i for i, prize in enumerate(out) if prize and i + 1 not in fixed] or [0]
    weights = [out[i] for i in table]
    total = sum(weights)
    shares = [math.floor(extra * w / total / unit) * unit for w in weights] if total else [0] * len(table)
    for i, share in zip(table, shares, strict=True):
        out[i] += share
    out[0] += extra - sum(shares)
    return out


def _split(pool: Money, shares: Sequence[Fraction], unit: int) -> list[Money]:
    total = sum(shares, Fraction(0))
    prizes = [math.floor(pool * share / total / unit) * unit for share in shares]
    prizes[0] += pool - sum(prizes)
    return prizes


def prize_table(
    pool: Money,
    percentages: Sequence[Percentage],
    *,
    unit: int = 1,
    entries: int | None = None,
    fixed: Mapping[int, Money] | None = None,
    smallest: Money = 0,
) -> tuple[list[Money], list[str]]:
    """Each place's prize and what the host should know, the prizes adding up to ``pool``
    exactly (TDA 7.2: "make sure the prizes add up exactly to the pool"; T56).

    - No more places are paid than there are ``entries``: the shares of places nobody can
      reach go to the places paid, in proportion (a 50/30/20 table with two entries pays
      62.5/37.5).
    - ``fixed`` amounts (place: amount) are paid first; the rest of the pool is shared by the
      table among its other places. Fixed prizes the pool cannot cover are left out, said.
    - ``smallest``: no table prize below it (for example the buy-in); the last paid places
      are dropped until the smallest is at least that, their shares going to the others.

    >>> prize_table(1000, [50, 30, 20], entries=2)
    ([625, 375], [])
    >>> prize_table(1000, [50, 30, 20], fixed={4: 50})
    ([475, 285, 190, 50], [])
    >>> prize_table(300, [50, 30, 20], smallest=70)
    ([188, 112], ['Two places are paid, not 3, so that every prize is at least 70.'])
    """
    shares = list(validate_percentages(percentages))
    _check_unit(unit)
    if pool < 0:
        raise InvalidInput("The prize pool cannot be {pool}.", pool=pool)
    notes: list[str] = []
    limit = entries if entries is not None else max(len(shares), max(fixed or {}, default=0))
    fixed_paid = {place: amount for place, amount in sorted((fixed or {}).items()) if place <= max(limit, 0)}
    if sum(fixed_paid.values()) > pool:
        notes.append(Message(
            "The fixed prizes ({fixed}) are more than the pool ({pool}): they are "
            "left out until the pool covers them.", fixed=sum(fixed_paid.values()), pool=pool,
        ))
        fixed_paid = {}
    table_places = [p for p in range(1, min(len(shares), max(limit, 1)) + 1) if p not in fixed_paid]
    rest = pool - sum(fixed_paid.values())
    planned = len(table_places)
    while True:
        table = _split(rest, [shares[p - 1] for p in table_places], unit) if table_places else []
        if not smallest or len(table_places) <= 1 or min(table) >= smallest:
            break
        table_places.pop()
    if smallest and len(table_places) < planned:
        paid = len(table_places)
        if paid == 1:
            note = Message("One place is paid, not {planned}, so that every prize is at least {smallest}.",
                           planned=planned, smallest=smallest)
        elif paid == 2:
            note = Message("Two places are paid, not {planned}, so that every prize is at least {smallest}.",
                           planned=planned, smallest=smallest)
        elif paid == 3:
            note = Message("Three places are paid, not {planned}, so that every prize is at least {smallest}.",
                           planned=planned, smallest=smallest)
        else:
            note = Message("{paid} places are paid, not {planned}, so that every prize is at least {smallest}.",
                           paid=paid, planned=planned, smallest=smallest)
        notes.append(note)
    if not table_places and rest:  # every table place fixed: the rest goes to first place
        fixed_paid[1] = fixed_paid.get(1, 0) + rest
    by_place = dict(zip(table_places, table, strict=True)) | fixed_paid
    last = max(by_place, default=0)
    return [by_place.get(p, 0) for p in range(1, last + 1)], notes


def prizes_for_places(places: Mapping[K, int], prizes: Sequence[Money], unit: int = 1) -> dict[K, Money]:
    """What each finisher wins when some share a place.

    Players tied for a place share the prizes of the places they cover equally
    (TDA T23: tied for 9th/10th, each gets (P9+P10)/2; T25: three tied for 50th
    with 50 paid share the 50th prize). A share is rounded down to ``unit``;
    the units left over go one each to the tied players in the mapping's order,
    and anything smaller than a unit to the first of them.

    >>> prizes_for_places({"Ann": 1, "Bob": 2, "Cy": 2}, [50, 30, 15])
    {'Ann': 50, 'Bob': 23, 'Cy': 22}
    """
    _check_unit(unit)
    groups: dict[int, list[K]] = {}
    for who, place in places.items():
        if place < 1:
            raise InvalidInput("{who} cannot finish in place {place}.", who=str(who), place=place)
        groups.setdefault(place, []).append(who)
    for place, members in groups.items():
        for covered in range(place + 1, place + len(members)):
            if covered in groups:
                raise InvalidInput(
                    "{count} players share place {place}, so nobody can finish in place {covered}.",
                    count=len(members), place=place, covered=covered,
                )
    result: dict[K, Money] = {}
    for place, members in groups.items():
        m = len(members)
        total = sum(prizes[place - 1 : place - 1 + m])
        base = total // (m * unit) * unit
        left = total - base * m
        for i, who in enumerate(members):
            extra = unit if left >= unit * (i + 1) else 0
            result[who] = base + extra
        result[members[0]] += total - sum(result[w] for w in members)
    return {who: result[who] for who in places}


# --- league points -----------------------------------------------------------------------

LEAGUE_TABLE: tuple[int, ...] = (10, 7, 5, 3, 2)
"""Points for 1st to 5th under the ``"table"`` formula; everyone else scores 1 for playing."""

LeagueFormula: TypeAlias = Literal["table", "field", "sqrt"]
LEAGUE_FORMULAS: dict[str, str] = {
    "table": Term("10, 7, 5, 3, 2 for the first five, 1 for playing"),
    "field": Term("a point for each player outlasted, and one for playing"),
    "sqrt": Term("10 × √(entries ÷ place)"),
}
"""Each one-night formula of :func:`league_points` in words, as every page describes it."""


def league_points(place: int, entries: int, formula: LeagueFormula = "table") -> float:
    """League points for a finishing place.

    - ``"table"``: 10, 7, 5, 3, 2 for 1st to 5th, 1 for everyone else who played.
    - ``"field"``: one point per player outlasted plus one for playing
      (``entries - place + 1``): bigger fields are worth more.
    - ``"sqrt"``: ``10 * sqrt(entries / place)``, rounded to 2 decimals: the
      winner of a field of 16 scores 40, last place scores 10, the curve is
      steep at the top like a payout.

    >>> league_points(1, 10), league_points(6, 10), league_points(3, 10, "field")
    (10, 1, 8)
    >>> league_points(4, 16, "sqrt")
    20.0
    """
    if entries < 1 or not 1 <= place <= entries:
        raise InvalidInput("Place {place} is not a finishing place among {entries} entries.", place=place, entries=entries)
    if formula == "table":
        return LEAGUE_TABLE[place - 1] if place <= len(LEAGUE_TABLE) else 1
    if formula == "field":
        return entries - place + 1
    if formula == "sqrt":
        return round(10 * math.sqrt(entries / place), 2)
    raise InvalidInput("Unknown league formula {formula}: use 'table', 'field' or 'sqrt'.", formula=repr(formula))


def points_for_places(
    places: Mapping[K, int], entries: int, formula: LeagueFormula = "table"
) -> dict[K, float]:
    """League points for every finisher; players sharing a place share the average of
    the points of the places they cover (as tied players share prizes, TDA T23).

    >>> points_for_places({"Ann": 1, "Bob": 2, "Cy": 2}, 10)
    {'Ann': 10, 'Bob': 6.0, 'Cy': 6.0}
    """
    counts: dict[int, int] = {}
    for place in places.values():
        counts[place] = counts.get(place, 0) + 1
    result: dict[K, float] = {}
    for who, place in places.items():
        m = counts[place]
        if place + m - 1 > entries:
            raise InvalidInput("{count} players sharing place {place} do not fit among {entries} entries.",
                               count=m, place=place, entries=entries)
        if m == 1:
            result[who] = league_points(place, entries, formula)
        else:
            covered = [league_points(p, entries, formula) for p in range(place, place + m)]
            result[who] = round(sum(covered) / m, 2)
    return result


# --- ICM and deals -----------------------------------------------------------------------


def _check_deal(stacks: Sequence[Chips], prizes: Sequence[float]) -> None:
    if len(stacks) < 1:
        raise InvalidInput("A deal needs at least one player.")
    for stack in stacks:
        if stack <= 0:
            raise InvalidInput("A player in a deal must have chips, not {stack}.", stack=stack)
    if len(prizes) > len(stacks):
        raise IllegalAction(
            "{players} players cannot share {prizes} prizes: a deal needs at least as many "
            "players as prizes still to be paid.", players=len(stacks), prizes=len(prizes),
        )
    for i, prize in enumerate(prizes):
        if prize < 0:
            raise InvalidInput("Prize {number} cannot be {prize}.", number=i + 1, prize=prize)
        if i and prize > prizes[i - 1]:
            raise InvalidInput("Prize {number} ({prize}) is more than prize {above} ({above_prize}).",
                               number=i + 1, prize=prize, above=i, above_prize=prizes[i - 1])


def icm(stacks: Sequence[Chips], prizes: Sequence[float]) -> list[float]:
    """Each player's prize equity under the Malmuth-Harville model (TDA 7.3).

    The chance to finish first is the share of the chips; given who finished
    above, the chance to take the next place is the share of the chips left.
    Worked out once per set of players already placed: O(2^n * n).

    >>> [round(x, 2) for x in icm([100_000, 70_000, 50_000, 20_000], [200, 120, 80, 50])]
    [140.84, 123.8, 108.96, 76.4]
    """
    _check_deal(stacks, prizes)
    n = len(stacks)
    if n > MAX_ICM_PLAYERS:
        raise IllegalAction(
            "ICM is limited to {most} players and {left} are left: use a chip chop instead.", most=MAX_ICM_PLAYERS, left=n,
        )
    total = sum(stacks)
    paid = len(prizes)
    equity = [0.0] * n
    # reach[mask]: the chance that exactly the players in mask fill the top places.
    reach: dict[int, float] = {0: 1.0}
    chips_of: dict[int, int] = {0: 0}
    for _ in range(paid):
        nxt: dict[int, float] = {}
        for mask, chance in reach.items():
            k = mask.bit_count()
            left = total - chips_of[mask]
            for i in range(n):
                if mask >> i & 1:
                    continue
                p = chance * stacks[i] / left
                equity[i] += p * prizes[k]
                m2 = mask | 1 << i
                nxt[m2] = nxt.get(m2, 0.0) + p
                chips_of[m2] = chips_of[mask] + stacks[i]
        reach = nxt
    return equity


@dataclass(frozen=True)
class Deal(Generic[K]):
    """A proposed deal: each player's exact equity, the rounded amounts, and any warnings."""

    method: str
    exact: dict[K, float]
    amounts: dict[K, Money]
    warnings: tuple[str, ...]


def _round_keeping_sum(exact: Sequence[float], total: Money, unit: int, leader: int) -> list[Money]:
    """Round down to ``unit``, hand out leftover units by largest remainder, the rest to the leader."""
    floors = [math.floor(x / unit + 1e-9) * unit for x in exact]
    left = total - sum(floors)
    order = sorted(range(len(exact)), key=lambda i: (-(exact[i] - floors[i]), i))
    for i in order:
        if left < unit:
            break
        floors[i] += unit
        left -= unit
    floors[leader] += left
    return floors


def _deal(method: str, stacks: Mapping[K, Chips], exact: list[float], total: Money, unit: int,
          prizes: Sequence[Money], warn: bool) -> Deal[K]:
    _check_unit(unit)
    keys = list(stacks)
    values = list(stacks.values())
    leader = values.index(max(values))
    amounts = _round_keeping_sum(exact, total, unit, leader)
    warnings: list[str] = []
    if warn:
        padded = list(prizes) + [0] * (len(keys) - len(prizes))
        top, lowest = padded[0], padded[-1]
        for who, x in zip(keys, exact, strict=True):
            if x > top + 1e-9:
                warnings.append(Message("{who} would get {amount}, more than the first prize of {top}.",
                                        who=str(who), amount=format(x, ",.2f"), top=top))
            if x < lowest - 1e-9:
                warnings.append(Message("{who} would get {amount}, less than the lowest prize still to be paid ({lowest}).",
                                        who=str(who), amount=format(x, ",.2f"), lowest=lowest))
    return Deal(method, dict(zip(keys, exact, strict=True)), dict(zip(keys, amounts, strict=True)), tuple(warnings))


def icm_deal(stacks: Mapping[K, Chips], prizes: Sequence[Money], unit: int = 1) -> Deal[K]:
    """An ICM deal: each player's equity, rounded to ``unit`` with the total kept.

    >>> icm_deal({"Ann": 5000, "Bob": 3000, "Cy": 2000}, [50, 30, 20]).amounts
    {'Ann': 38, 'Bob': 33, 'Cy': 29}
    """
    values = list(stacks.values())
    exact = icm(values, [float(p) for p in prizes])
    return _deal("icm", stacks, exact, sum(prizes), unit, prizes, warn=False)


ChopMethod: TypeAlias = Literal["proportional", "lowest_prize_first", "equal"]


def chip_chop(
    stacks: Mapping[K, Chips],
    prizes: Sequence[Money],
    unit: int = 1,
    method: ChopMethod = "proportional",
) -> Deal[K]:
    """A chop of the prizes left (TDA 7.3, T55).

    - ``"proportional"``: the money in proportion to the chips; warns when the
      chip leader would get more than 1st prize or someone less than the lowest
      prize still to be paid.
    - ``"lowest_prize_first"``: everyone gets the lowest prize still to be paid
      and the rest is shared in proportion to the chips.
    - ``"equal"``: the same for everyone.

    >>> chip_chop({"A": 100, "B": 70, "C": 50, "D": 20}, [200, 120, 80, 50]).amounts
    {'A': 188, 'B': 131, 'C': 94, 'D': 37}
    """
    values = list(stacks.values())
    _check_deal(values, [float(p) for p in prizes])
    pool = sum(prizes)
    total = sum(values)
    n = len(values)
    if method == "proportional":
        exact = [pool * s / total for s in values]
    elif method == "lowest_prize_first":
        lowest = prizes[-1] if len(prizes) == n else 0
        rest = pool - lowest * n
        exact = [lowest + rest * s / total for s in values]
    elif method == "equal":
        exact = [pool / n] * n
    else:
        raise InvalidInput("Unknown chop {method}: use 'proportional', 'lowest_prize_first' or 'equal'.",
                           method=repr(method))
    return _deal(method, stacks, exact, pool, unit, prizes, warn=method != "equal")
