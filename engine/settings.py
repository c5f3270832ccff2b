"""A tournament's settings: what the host decides before the start (:class:`Settings`), read
from the ``created`` payload or a director's edit with every value checked
(:func:`settings_from_dict`) and written back as the forms show them (:func:`settings_as_dict`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any, Literal, TypeAlias, cast

from engine.chips import CHIP_SETS, ChipSet, chip_set_from_dict, chip_set_to_dict
from engine.errors import N_, InvalidInput, Message
from engine.limits import MAX_MONEY, MAX_PLAYERS
from engine.payload import _int, _ticked, clean_name
from engine.payouts import MAX_FIXED_PRIZES, validate_percentages
from engine.standings import RebuyRules
from engine.structure import Structure, preset, structure_from_dict, structure_to_dict

Chips: TypeAlias = int
Money: TypeAlias = int

TABLE_SIZES = (6, 9, 10)
RULES_VERSION = 2
"""See ``Settings.rules``."""
DEFAULT_PRESET = "home-short"
EDITABLE_SETTINGS = (
    "fee_amount", "fee_percent", "guarantee", "fixed_prizes", "min_prize_buy_in", "lock_payouts",
    "bounty_kind", "bounty", "pko_share", "mystery_level", "mystery_pool", "mystery_seed",
    "name", "buy_in", "starting_stack", "table_size", "rebuy_levels", "max_rebuys", "rebuy_when",
    "rebuy_cost", "rebuy_chips", "addon_level", "addon_cost", "addon_chips", "late_registration_levels",
    "payout_kind", "percentages", "league_formula", "payout_unit", "pause_after_break",
    "reentry_levels", "max_reentries", "action_seconds", "action_countdown", "dealer_corrects",
    "limit_cap_heads_up",
)
"""What ``settings_changed`` may change once the tournament exists."""
PayoutKind: TypeAlias = Literal["table", "custom", "points"]
LeagueFormula: TypeAlias = Literal["table", "field", "sqrt"]
BountyKind: TypeAlias = Literal["none", "knockout", "progressive", "mystery"]
BOUNTY_KINDS: dict[str, str] = {
    "none": "no bounties", "knockout": "knockout", "progressive": "progressive knockout",
    "mystery": "mystery bounty",
}
"""The bounties a night can have (``engine.bounties``), with their names."""


@dataclass(frozen=True)
class Settings:
    """What the host decides before the start. Amounts are chips or the host's play money."""

    name: str
    starting_stack: Chips = 10_000
    table_size: int = 9
    buy_in: Money = 20
    rebuy_levels: int = 0
    """Rebuys are open until the end of this level (0: no rebuys)."""
    rebuy_cost: Money = 20
    rebuy_chips: Chips = 10_000
    max_rebuys: int | None = None
    rebuy_when: Literal["busted", "at_or_below_start"] = "busted"
    addon_level: int = 0
    """The add-on is open until the end of this level (0: no add-on); once per player."""
    addon_cost: Money = 20
    addon_chips: Chips = 10_000
    late_registration_levels: int = 0
    """Registration stays open until the end of this level (0: until the clock starts)."""
    reentry_levels: int = 0
    """A player who is out may enter again until the end of this level (0: no re-entry)."""
    max_reentries: int | None = None
    """Re-entries per player (None: no limit)."""
    payout_kind: PayoutKind = "table"
    percentages: tuple[Fraction, ...] = ()
    league_formula: LeagueFormula = "table"
    payout_unit: int = 1
    fee_amount: Money = 0
    """What the house keeps of each buy-in, rebuy, re-entry and add-on (0: nothing), or:"""
    fee_percent: Fraction = Fraction(0)
    """the share of each the house keeps, in percent (rounded down to a whole unit)."""
    guarantee: Money = 0
    """The prize pool is at least this: the house adds the overlay."""
    fixed_prizes: tuple[tuple[int, Money], ...] = ()
    """``(place, amount)`` paid before the table shares the rest."""
    min_prize_buy_in: bool = False
    """No prize from the table below the buy-in: fewer places are paid if need be."""
    lock_payouts: bool = False
    """The prizes freeze when the money is reached (players left no more than places paid)."""
    bounty_kind: BountyKind = "none"
    """Bounties (``engine.bounties``): none, a fixed knockout bounty, progressive or mystery."""
    bounty: Money = 0
    """The part of each buy-in, re-entry and rebuy that is a bounty on the player's head."""
    pko_share: int = 50
    """Progressive: the percent of a head the eliminator takes (the rest goes on his own head)."""
    mystery_level: int = 1
    """Mystery: knockouts from this level on each draw a bounty from the pool."""
    mystery_pool: tuple[tuple[Money, int], ...] = ()
    """Mystery: the bounties to draw from, ``(amount, how many)``, largest first."""
    mystery_seed: int = 0
    """Mystery: the seed of the draws (chosen when the tournament is created, kept with it)."""
    structure: Structure = field(default_factory=lambda: preset(DEFAULT_PRESET))
    """The blind structure (stored as ``engine.structure.structure_to_dict`` writes it)."""
    chip_set: str = "home"
    chips: ChipSet | None = None
    """The host's own chips, as they were when the tournament was created (``chip_set`` names
    a ready-made set otherwise): what the starting stacks, rebuys and colour-ups are checked
    against."""
    pause_after_break: bool = False
    """The end of a break starts the next level paused (the director resumes it), not running."""
    action_seconds: int = 60
    """The action clock: the seconds a player put on the clock has (seed 002: "the table can put
    them on the clock – a minute, say")."""
    action_countdown: int = 5
    """The action clock's final countdown after them (TDA 29: "25 s plus a 5 s countdown")."""
    dealer_corrects: bool = False
    """A table's dealer's phone may correct a stack to the chips on the felt (otherwise the
    floor or the director does)."""
    limit_cap_heads_up: bool = False
    """In a fixed-limit hand the cap on raises stays when two players are left in the hand,
    until the whole tournament is down to two (TDA 48). Otherwise it is lifted heads-up, as
    in a cash game."""
    rules: int = 2
    """The version of the rules where the table and the director meet: 2 (this engine) refuses
    a director's bust during the player's hand and moves a bust's chips to the winner, holds a
    move until the player's hand is over, and counts the hand in play when hand for hand is
    announced. A tournament stored before (``rules`` 1) folds as it was played."""


def _fee_percent(value: Any) -> Fraction:
    """The fee as a share of each payment: 0 to 100 percent (``10``, ``"12.5"``, ``"10%"``)."""
    if value in (None, "", 0):
        return Fraction(0)
    text = str(value).strip().rstrip("%").strip()
    try:
        share = Fraction(text)
    except (ValueError, ZeroDivisionError):
        raise InvalidInput("The fee's share must be a percentage like 10 or 12.5, not {value}.", value=repr(value)) from None
    if isinstance(value, bool) or not 0 <= share <= 100:
        raise InvalidInput("A fee of {percent}% is not possible: the share kept is from 0% to 100% of each payment.",
                           percent=text)
    return share


def _typed_pairs(
    value: Any, split: Callable[[str], tuple[Any, Any]], lone: Any, shape: str, most: int, too_many: str
) -> list[Any]:
    """Pairs given as a mapping, a list (a lone item paired with ``lone``) or typed text, parts
    split by commas or semicolons and each by ``split``; ``shape`` refuses anything else and
    ``too_many`` (an ``N_()`` id with ``{most}`` and ``{count}``) more than ``most``."""
    if isinstance(value, str):
        pairs: list[Any] = [split(part) for part in value.replace(";", ",").split(",") if part.strip()]
    elif isinstance(value, Mapping):
        pairs = list(value.items())
    elif isinstance(value, list):
        pairs = [tuple(p) if isinstance(p, (list, tuple)) else (p, lone) for p in value]
    else:
        raise InvalidInput(shape)
    if len(pairs) > most:
        raise InvalidInput(too_many, most=most, count=len(pairs))
    return pairs


def _place_and_amount(part: str) -> tuple[str, str]:
    place, sep, amount = part.replace(":", "=").partition("=")
    if not sep:
        raise InvalidInput("Write each fixed prize as place=amount (4=50), not {part}.", part=repr(part.strip()))
    return place.strip().rstrip("stndrh").strip(), amount.strip().replace(",", "")


def _fixed_prizes(value: Any) -> tuple[tuple[int, Money], ...]:
    """Fixed prizes by place: ``{"4": 50}``, ``[[4, 50]]`` or as typed, ``4=50, 5=50``."""
    if value in (None, "", {}, []):
        return ()
    pairs = _typed_pairs(value, _place_and_amount, None, "The fixed prizes must be places with their amounts, like 4=50.",
                         MAX_FIXED_PRIZES, N_("At most {most} places can have a fixed prize, not {count}."))
    out: dict[int, Money] = {}
    for pair in pairs:
        if len(pair) != 2:
            raise InvalidInput("Each fixed prize is a place and an amount, like 4=50.")
        paid = _int({"v": pair[0]}, "v", N_("place of a fixed prize"), 1, minimum=1)
        money = _int({"v": pair[1]}, "v", Message("fixed prize for place {place}", place=paid), 0)
        if paid > MAX_PLAYERS or money > MAX_MONEY:
            raise InvalidInput("A fixed prize is for a place up to {places} and an amount up to {most}.",
                               places=MAX_PLAYERS, most=MAX_MONEY)
        if paid in out:
            raise InvalidInput("Place {place} has two fixed prizes: give one.", place=paid)
        out[paid] = money
    return tuple(sorted(out.items()))


MAX_MYSTERY_KINDS = 20
MAX_MYSTERY_BOUNTIES = 10_000


def _amount_and_count(part: str) -> tuple[str, Any]:
    typed, sep, many = part.lower().replace("×", "x").replace("*", "x").partition("x")
    return typed.strip(), many.strip() if sep else 1


def mystery_pool_from(value: Any) -> tuple[tuple[Money, int], ...]:
    """The mystery bounties: ``[[500, 2], [100, 10]]``, ``{"500": 2}`` or as typed,
    ``500x2, 100x10`` (an amount alone is one bounty); largest first.

    >>> mystery_pool_from("100 x 10, 500x2; 50")
    ((500, 2), (100, 10), (50, 1))
    """
    if value in (None, "", {}, []):
        return ()
    pairs = _typed_pairs(value, _amount_and_count, 1,
                         "The mystery bounties are amounts with how many of each, like 500x2, 100x10.",
                         MAX_MYSTERY_KINDS, N_("At most {most} different mystery bounties, not {count}."))
    out: dict[Money, int] = {}
    for pair in pairs:
        if len(pair) != 2:
            raise InvalidInput("Each mystery bounty is an amount and how many, like 500x2.")
        amount = _int({"v": pair[0]}, "v", N_("mystery bounty"), 1, minimum=1)
        count = _int({"v": pair[1]}, "v", Message("number of mystery bounties of {amount}", amount=amount), 1, minimum=1)
        if amount > MAX_MONEY:
            raise InvalidInput("A mystery bounty is at most {most}, not {amount}.", most=MAX_MONEY, amount=amount)
        out[amount] = out.get(amount, 0) + count
    if sum(out.values()) > MAX_MYSTERY_BOUNTIES:
        raise InvalidInput("At most {most} mystery bounties, not {count}.", most=MAX_MYSTERY_BOUNTIES,
                           count=sum(out.values()))
    return tuple(sorted(out.items(), reverse=True))


def mystery_pool_text(pool: tuple[tuple[Money, int], ...]) -> str:
    """``500x2, 100x10``: the mystery bounties as the host types them."""
    return ", ".join(f"{amount}x{count}" for amount, count in pool)


def settings_from_dict(data: Mapping[str, Any]) -> Settings:
    """Settings from the ``created`` payload, every value checked with a readable message.

    The starting stack defaults to the structure's; a different one given replaces it there.

    >>> settings_from_dict({"name": "SNG", "preset": "sng-2000"}).starting_stack
    2000
    >>> settings_from_dict({"name": "SNG", "preset": "sng-1000", "starting_stack": 1500}).structure.starting_stack
    1500
    """
    structure, chips, stack = _structure_of(data)
    table_size = _int(data, "table_size", N_("table size"), 9, minimum=2)
    if table_size not in TABLE_SIZES:
        raise InvalidInput("A table has 6, 9 or 10 seats, not {size}.", size=table_size)
    kind, percentages, formula = _payout_rules(data)
    max_reentries, max_rebuys, rebuy_when = _limits(data)
    fee_amount, fee_percent, guarantee, fixed_prizes = _house_money(data)
    bounty_kind, bounty, pko_share, mystery_level, mystery_pool, mystery_seed = _bounty_rules(
        data, structure, fee_amount, fee_percent
    )
    action_seconds = _int(data, "action_seconds", N_("action clock's seconds"), 60, minimum=5)
    action_countdown = _int(data, "action_countdown", N_("action clock's final countdown"), 5)
    if action_seconds > 600 or action_countdown > 60:
        raise InvalidInput("The action clock runs 5 seconds to 10 minutes, and its final countdown 0 to 60 seconds.")
    chip_set = data.get("chip_set") or "home"
    if not isinstance(chip_set, str):
        raise InvalidInput("The chip set must be named.")
    return Settings(
        name=clean_name(data.get("name"), N_("tournament name")),
        starting_stack=stack,
        table_size=table_size,
        buy_in=_int(data, "buy_in", N_("buy-in"), 20),
        rebuy_levels=_int(data, "rebuy_levels", N_("last rebuy level"), 0),
        rebuy_cost=_int(data, "rebuy_cost", N_("rebuy cost"), _int(data, "buy_in", N_("buy-in"), 20)),
        rebuy_chips=_int(data, "rebuy_chips", N_("rebuy chips"), stack, minimum=1),
        max_rebuys=max_rebuys,
        rebuy_when=cast(Literal["busted", "at_or_below_start"], rebuy_when),
        addon_level=_int(data, "addon_level", N_("add-on level"), 0),
        addon_cost=_int(data, "addon_cost", N_("add-on cost"), _int(data, "buy_in", N_("buy-in"), 20)),
        addon_chips=_int(data, "addon_chips", N_("add-on chips"), stack, minimum=1),
        late_registration_levels=_int(data, "late_registration_levels", N_("last late-registration level"), 0),
        reentry_levels=_int(data, "reentry_levels", N_("last re-entry level"), 0),
        max_reentries=max_reentries,
        payout_kind=cast(PayoutKind, kind),
        percentages=percentages,
        league_formula=cast(LeagueFormula, formula),
        payout_unit=_int(data, "payout_unit", N_("payout rounding unit"), 1, minimum=1),
        structure=structure,
        fee_amount=fee_amount,
        fee_percent=fee_percent,
        guarantee=guarantee,
        fixed_prizes=fixed_prizes,
        min_prize_buy_in=_ticked(data.get("min_prize_buy_in")),
        lock_payouts=_ticked(data.get("lock_payouts")),
        bounty_kind=cast(BountyKind, bounty_kind),
        bounty=bounty,
        pko_share=pko_share,
        mystery_level=mystery_level if bounty_kind == "mystery" else 1,
        mystery_pool=mystery_pool,
        mystery_seed=mystery_seed,
        chip_set=chip_set,
        chips=chips,
        pause_after_break=_ticked(data.get("pause_after_break")),
        action_seconds=action_seconds,
        action_countdown=action_countdown,
        dealer_corrects=_ticked(data.get("dealer_corrects")),
        limit_cap_heads_up=_ticked(data.get("limit_cap_heads_up")),
        rules=_int(data, "rules", N_("rules version"), RULES_VERSION, minimum=1),
    )


def _structure_of(data: Mapping[str, Any]) -> tuple[Structure, ChipSet | None, Chips]:
    """The blind structure (a preset's or the host's), the host's chips and the starting stack,
    the structure following the chips and the stack given."""
    raw_structure = data.get("structure")
    if raw_structure in (None, {}):
        structure = preset(str(data.get("preset") or DEFAULT_PRESET))
    elif isinstance(raw_structure, Mapping):
        structure = structure_from_dict(raw_structure)
    else:
        raise InvalidInput("The blind structure must be a table of levels.")
    raw_chips = data.get("chips")
    if raw_chips in (None, {}):
        chips = None
    elif isinstance(raw_chips, Mapping):
        chips = chip_set_from_dict(raw_chips)
        if structure.denominations != chips.values:  # the chips on the table are the host's
            structure = replace(structure, denominations=chips.values)
    else:
        raise InvalidInput("The chip set must be an object with a name and its chips.")
    stack = _int(data, "starting_stack", N_("starting stack"), structure.starting_stack, minimum=1)
    if stack != structure.starting_stack:
        structure = replace(structure, starting_stack=stack)
    return structure, chips, stack


def _payout_rules(data: Mapping[str, Any]) -> tuple[Any, tuple[Fraction, ...], Any]:
    """The payout kind, the host's percentages (a custom table) and the league formula."""
    kind = data.get("payout_kind") or "table"
    if kind not in ("table", "custom", "points"):
        raise InvalidInput("Unknown payout kind {kind}: use 'table', 'custom' or 'points'.", kind=repr(kind))
    percentages: tuple[Fraction, ...] = ()
    if kind == "custom":
        raw = data.get("percentages") or []
        if isinstance(raw, str):
            raw = [p for p in raw.replace(",", "/").replace(" ", "/").split("/") if p]
        percentages = validate_percentages(list(raw))
    formula = data.get("league_formula") or "table"
    if formula not in ("table", "field", "sqrt"):
        raise InvalidInput("Unknown league formula {formula}: use 'table', 'field' or 'sqrt'.", formula=repr(formula))
    return kind, percentages, formula


def _limits(data: Mapping[str, Any]) -> tuple[int | None, int | None, Any]:
    """The re-entry and rebuy limits (None: no limit), and when a player may rebuy."""
    max_reentries_raw = data.get("max_reentries")
    max_reentries = None if max_reentries_raw in (None, "") else _int(data, "max_reentries", N_("re-entry limit"), 0)
    max_rebuys_raw = data.get("max_rebuys")
    max_rebuys = None if max_rebuys_raw in (None, "") else _int(data, "max_rebuys", N_("rebuy limit"), 0)
    rebuy_when = data.get("rebuy_when") or "busted"
    if rebuy_when not in ("busted", "at_or_below_start"):
        raise InvalidInput("Unknown rebuy condition {condition}: use 'busted' or 'at_or_below_start'.",
                           condition=repr(rebuy_when))
    return max_reentries, max_rebuys, rebuy_when


def _house_money(data: Mapping[str, Any]) -> tuple[Money, Fraction, Money, tuple[tuple[int, Money], ...]]:
    """The house's fee (an amount or a share, never both, and no more than the buy-in), the
    guaranteed prize pool and the fixed prizes."""
    fee_amount = _int(data, "fee_amount", N_("fee"), 0)
    fee_percent = _fee_percent(data.get("fee_percent"))
    if fee_amount and fee_percent:
        raise InvalidInput("Give the fee as an amount or as a share of each payment, not both.")
    buy_in = _int(data, "buy_in", N_("buy-in"), 20)
    if fee_amount > buy_in:
        raise InvalidInput("The fee of {fee} is more than the buy-in of {buy_in}.", fee=fee_amount, buy_in=buy_in)
    guarantee = _int(data, "guarantee", N_("guaranteed prize pool"), 0)
    if guarantee > MAX_MONEY:
        raise InvalidInput("The guaranteed prize pool is at most {most}, not {guarantee}.", most=MAX_MONEY,
                           guarantee=guarantee)
    fixed_prizes = _fixed_prizes(data.get("fixed_prizes"))
    return fee_amount, fee_percent, guarantee, fixed_prizes


def _bounty_rules(
    data: Mapping[str, Any], structure: Structure, fee_amount: Money, fee_percent: Fraction
) -> tuple[Any, Money, int, int, tuple[tuple[Money, int], ...], int]:
    """The bounty kind, the bounty on each head (within the buy-in less its fee, and the rebuy
    cost), the progressive share and the mystery bounties: their first level, pool and seed."""
    buy_in = _int(data, "buy_in", N_("buy-in"), 20)
    bounty_kind = data.get("bounty_kind") or "none"
    if bounty_kind not in BOUNTY_KINDS:
        raise InvalidInput(
            "Unknown bounty {kind}: use 'none', 'knockout', 'progressive' or 'mystery'.", kind=repr(bounty_kind),
        )
    mystery_pool = mystery_pool_from(data.get("mystery_pool")) if bounty_kind == "mystery" else ()
    if bounty_kind == "mystery" and not mystery_pool:
        raise InvalidInput("A mystery bounty night needs its bounties: amounts and how many of each, like 500x2, 100x10.")
    mystery_level = _int(data, "mystery_level", N_("first mystery-bounty level"), 1, minimum=1)
    if bounty_kind == "mystery" and mystery_level > structure.level_count:
        raise InvalidInput(
            "The mystery bounties start at level {level}, but the structure has {count} levels.",
            level=mystery_level, count=structure.level_count,
        )
    mystery_seed = _int(data, "mystery_seed", N_("mystery-bounty seed"), 0)
    bounty = _int(data, "bounty", N_("bounty"), 0) if bounty_kind != "none" else 0
    if bounty_kind != "none" and bounty < 1:
        raise InvalidInput("A bounty tournament needs a bounty of at least 1 on each head.")
    kept = fee_amount or (buy_in * fee_percent // 100)
    if bounty > buy_in - kept:
        if kept:
            raise InvalidInput("The bounty of {bounty} is more than the buy-in of {buy_in} less its fee ({fee}).",
                               bounty=bounty, buy_in=buy_in, fee=kept)
        raise InvalidInput("The bounty of {bounty} is more than the buy-in of {buy_in}.", bounty=bounty, buy_in=buy_in)
    rebuy_cost = _int(data, "rebuy_cost", N_("rebuy cost"), buy_in)
    if bounty and _int(data, "rebuy_levels", N_("last rebuy level"), 0) and bounty > rebuy_cost:
        raise InvalidInput("The bounty of {bounty} is more than the rebuy cost of {cost}: each rebuy buys a new one.",
                           bounty=bounty, cost=rebuy_cost)
    pko_share = _int(data, "pko_share", N_("progressive bounty share"), 50, minimum=1)
    if pko_share > 100:
        raise InvalidInput("The eliminator takes from 1% to 100% of a progressive bounty, not {share}%.", share=pko_share)
    return bounty_kind, bounty, pko_share, mystery_level, mystery_pool, mystery_seed


def rules(settings: Settings) -> RebuyRules:
    """The rebuy and add-on rules of ``engine.standings`` for these settings."""
    return RebuyRules(
        rebuy_until_level=settings.rebuy_levels,
        max_rebuys=settings.max_rebuys,
        rebuy_when=settings.rebuy_when,
        rebuy_chips=settings.rebuy_chips,
        rebuy_cost=settings.rebuy_cost,
        addon_level=settings.addon_level or None,
        addon_chips=settings.addon_chips,
        addon_cost=settings.addon_cost,
        reentry_until_level=settings.reentry_levels,
        max_reentries=settings.max_reentries,
    )


def owned_chips(settings: Settings) -> ChipSet | None:
    """The chips the night is played with: the host's own set, else the ready-made set the
    structure's chips match (None: no physical chips to check)."""
    if settings.chips is not None:
        return settings.chips
    ready = CHIP_SETS.get(settings.chip_set)
    if ready is not None and ready.values == settings.structure.denominations:
        return ready
    return None


def settings_as_dict(settings: Settings) -> dict[str, Any]:
    """The settings as :func:`settings_from_dict` reads them (the payout percentages aside:
    kept as they are unless given)."""
    return {
        "name": settings.name, "starting_stack": settings.starting_stack, "table_size": settings.table_size,
        "buy_in": settings.buy_in, "rebuy_levels": settings.rebuy_levels, "rebuy_cost": settings.rebuy_cost,
        "rebuy_chips": settings.rebuy_chips, "max_rebuys": settings.max_rebuys, "rebuy_when": settings.rebuy_when,
        "addon_level": settings.addon_level, "addon_cost": settings.addon_cost, "addon_chips": settings.addon_chips,
        "late_registration_levels": settings.late_registration_levels, "payout_kind": settings.payout_kind,
        "league_formula": settings.league_formula, "payout_unit": settings.payout_unit,
        "structure": structure_to_dict(settings.structure), "chip_set": settings.chip_set,
        "chips": None if settings.chips is None else chip_set_to_dict(settings.chips),
        "pause_after_break": settings.pause_after_break, "rules": settings.rules,
        "action_seconds": settings.action_seconds, "action_countdown": settings.action_countdown,
        "dealer_corrects": settings.dealer_corrects, "limit_cap_heads_up": settings.limit_cap_heads_up,
        "reentry_levels": settings.reentry_levels, "max_reentries": settings.max_reentries,
        "fee_amount": settings.fee_amount, "fee_percent": _percent_text(settings.fee_percent),
        "guarantee": settings.guarantee, "fixed_prizes": fixed_prizes_text(settings.fixed_prizes),
        "min_prize_buy_in": settings.min_prize_buy_in, "lock_payouts": settings.lock_payouts,
        "bounty_kind": settings.bounty_kind, "bounty": settings.bounty, "pko_share": settings.pko_share,
        "mystery_level": settings.mystery_level, "mystery_pool": mystery_pool_text(settings.mystery_pool),
        "mystery_seed": settings.mystery_seed,
    }


def _percent_text(share: Fraction) -> str:
    return "" if not share else str(share.numerator) if share.denominator == 1 else f"{float(share):g}"


def fixed_prizes_text(fixed: tuple[tuple[int, Money], ...]) -> str:
    """``4=50, 5=50``: the fixed prizes as the host types them."""
    return ", ".join(f"{place}={amount}" for place, amount in fixed)


