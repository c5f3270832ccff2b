"""A season (issue "Seasons"): tournaments grouped, each night's points by the season's rules,
the standings across the nights, and each player's statistics from the hands dealt with the
assistant. Pure functions of the nights' results: the app reads those from the tournaments
(``director.seasons``).

Points for a night (:func:`night_points`): the place's points by the season's formula (the
one-night formulas ``table``, ``field`` and ``sqrt`` of ``engine.payouts.league_points``, or a
``custom`` table by place; players sharing a place share the average of the places they
cover), plus ``knockout_points`` a knockout, ``bounty_points`` for each unit of bounty money
won, and ``playing_bonus`` for playing; the final
night's total is multiplied by ``final_multiplier``.

The standings (:func:`standings`) count each player's best ``best_n`` nights (all when 0).
Ties are broken as the page says (:data:`TIE_BREAK`): the most wins, then the best single
night, then the most nights played; players equal on all of them share the rank.

>>> rules = SeasonRules(formula="table")
>>> ann, bob, cy = 1, 2, 3
>>> nights = [Night(1, "Week 1", 1.0, 3, {ann: 1, bob: 2, cy: 3}),
...           Night(2, "Week 2", 2.0, 3, {bob: 1, ann: 2, cy: 3})]
>>> [(s.rank, s.person, s.points) for s in standings(rules, nights)]
[(1, 1, 17.0), (1, 2, 17.0), (3, 3, 10.0)]
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Literal, TypeAlias

from engine.errors import InvalidInput, Term
from engine.payouts import LEAGUE_FORMULAS, points_for_places

PersonId: TypeAlias = int
Formula: TypeAlias = Literal["table", "field", "sqrt", "custom"]
FORMULAS: dict[str, str] = {**LEAGUE_FORMULAS, "custom": Term("your own points by place")}
TIE_BREAK = Term("the most wins, then the best single night, then the most nights played")
SETTING_NAMES: dict[str, Term] = {
    "knockout_points": Term("knockout points"), "bounty_points": Term("bounty points"),
    "playing_bonus": Term("playing bonus"), "best_n": Term("best n"), "final_multiplier": Term("final multiplier"),
}
"""A season setting's name inside a sentence."""
MAX_CUSTOM_PLACES = 100
MAX_POINTS = 100_000


@dataclass(frozen=True)
class SeasonRules:
    formula: Formula = "table"
    custom: tuple[tuple[int, float], ...] = ()
    """``(place, points)`` for the custom formula; a place not listed scores 0."""
    knockout_points: float = 0
    bounty_points: float = 0
    """Points for each unit of bounty money won (0.1: a point for every 10)."""
    playing_bonus: float = 0
    best_n: int = 0
    """Count each player's best N nights; 0: every night."""
    final_multiplier: float = 1
    """The points of the night marked final are multiplied by this."""

    def __post_init__(self) -> None:
        if self.formula not in FORMULAS:
            raise InvalidInput("Unknown points formula {formula}: use {formulas}.", formula=repr(self.formula),
                               formulas=", ".join(FORMULAS))
        if self.formula == "custom" and not self.custom:
            raise InvalidInput("A custom points table needs the points of at least one place, like 1=25, 2=18.")
        for place, points in self.custom:
            if not 1 <= place <= MAX_CUSTOM_PLACES or not 0 <= points <= MAX_POINTS:
                raise InvalidInput("A custom place is 1 to {places} with 0 to {most} points, not {given}.",
                                   places=MAX_CUSTOM_PLACES, most=MAX_POINTS, given=str(place) + "=" + format(points, "g"))
        for label, value, top in ((Term("points a knockout"), self.knockout_points, 1_000),
                                  (Term("points for each unit of bounties"), self.bounty_points, 100),
                                  (Term("bonus for playing"), self.playing_bonus, 1_000),
                                  (Term("final-night multiplier"), self.final_multiplier, 10)):
            if not 0 <= value <= top:
                raise InvalidInput("The {label} is 0 to {top}, not {value}.", label=label, top=top, value=format(value, "g"))
        if self.final_multiplier < 1:
            raise InvalidInput("The final-night multiplier is at least 1, not {value}.",
                               value=format(self.final_multiplier, "g"))
        if not 0 <= self.best_n <= 1_000:
            raise InvalidInput("Count the best 0 to 1,000 nights, not {best}.", best=str(self.best_n))


@dataclass(frozen=True)
class Night:
    """One tournament of the season, as its results say (people, not the night's players)."""

    key: int
    """The tournament's id."""
    name: str
    at: float
    """When it was played (epoch seconds): the nights are taken in this order."""
    entries: int
    places: Mapping[PersonId, int]
    knockouts: Mapping[PersonId, int] = field(default_factory=dict)
    prizes: Mapping[PersonId, int] = field(default_factory=dict)
    bounties: Mapping[PersonId, int] = field(default_factory=dict)
    final: bool = False


def _custom_points(rules: SeasonRules, places: Mapping[PersonId, int]) -> dict[PersonId, float]:
    table = dict(rules.custom)
    by_place: dict[int, list[PersonId]] = {}
    for person, place in places.items():
        by_place.setdefault(place, []).append(person)
    out: dict[PersonId, float] = {}
    for place, people in by_place.items():  # a tie covers the places from ``place`` on
        covered = [table.get(p, 0.0) for p in range(place, place + len(people))]
        for person in people:
            out[person] = sum(covered) / len(covered)
    return out


def night_points(rules: SeasonRules, night: Night) -> dict[PersonId, float]:
    """Each player's points for ``night``, rounded to 2 decimals.

    >>> night = Night(1, "Week 1", 1.0, 4, {1: 1, 2: 2, 3: 3, 4: 4}, knockouts={1: 2}, final=True)
    >>> night_points(SeasonRules(knockout_points=1, playing_bonus=1, final_multiplier=2), night)
    {1: 26.0, 2: 16.0, 3: 12.0, 4: 8.0}
    """
    if not night.places:
        return {}
    if rules.formula == "custom":
        base = _custom_points(rules, night.places)
    else:
        base = points_for_places(dict(night.places), max(night.entries, max(night.places.values())), rules.formula)
    factor = rules.final_multiplier if night.final else 1
    return {
        person: round(float((points + rules.knockout_points * night.knockouts.get(person, 0)
                             + rules.bounty_points * night.bounties.get(person, 0) + rules.playing_bonus) * factor), 2)
        for person, points in base.items()
    }


@dataclass(frozen=True)
class Standing:
    rank: int
    person: PersonId
    points: float
    """The nights counted (the best N)."""
    nights: int
    wins: int
    best: float
    """The best single night's points."""
    counted: tuple[int, ...]
    """The nights counted (their keys), best first."""
    by_night: dict[int, float]
    """Points each night played (a night's key -> points)."""
    movement: int | None = None
    """Places gained (positive) or lost since the standings before the last night; None for
    a player whose first night it was."""
    knockouts: int = 0
    prizes: int = 0
    bounties: int = 0


def _table(rules: SeasonRules, nights: Sequence[Night]) -> list[Standing]:
    played: dict[PersonId, dict[int, float]] = {}
    wins: dict[PersonId, int] = {}
    totals: dict[PersonId, list[int]] = {}
    for night in nights:
        for person, points in night_points(rules, night).items():
            played.setdefault(person, {})[night.key] = points
            if night.places.get(person) == 1:
                wins[person] = wins.get(person, 0) + 1
            kept = totals.setdefault(person, [0, 0, 0])
            kept[0] += night.knockouts.get(person, 0)
            kept[1] += night.prizes.get(person, 0)
            kept[2] += night.bounties.get(person, 0)
    rows = []
    for person, by_night in played.items():
        order = sorted(by_night, key=lambda k: -by_night[k])
        counted = tuple(order[: rules.best_n] if rules.best_n else order)
        points = round(sum(by_night[k] for k in counted), 2)
        rows.append(Standing(0, person, points, len(by_night), wins.get(person, 0), max(by_night.values()),
                             counted, by_night, None, *totals[person]))
    rows.sort(key=_order)
    ranked: list[Standing] = []
    for i, row in enumerate(rows):
        tied = ranked and _order(ranked[-1])[:4] == _order(row)[:4]
        ranked.append(_with(row, rank=ranked[-1].rank if tied else i + 1))
    return ranked


def _order(row: Standing) -> tuple[float, int, float, int, PersonId]:
    return (-row.points, -row.wins, -row.best, -row.nights, row.person)


def _with(row: Standing, **changes: object) -> Standing:
    return replace(row, **changes)  # type: ignore[arg-type]


def standings(rules: SeasonRules, nights: Iterable[Night]) -> list[Standing]:
    """The season's standings after ``nights`` (taken in date order), with each player's
    movement since the standings before the last night."""
    ordered = sorted(nights, key=lambda n: (n.at, n.key))
    now = _table(rules, ordered)
    if len(ordered) < 2:
        return now
    before = {row.person: row.rank for row in _table(rules, ordered[:-1])}
    return [_with(row, movement=before[row.person] - row.rank if row.person in before else None) for row in now]


def running_points(rules: SeasonRules, nights: Iterable[Night]) -> list[dict[PersonId, float]]:
    """Each player's counted points after each night (date order): the standings' race, one
    night at a time (a player's best N kept as the nights come).

    >>> rules = SeasonRules(best_n=1)
    >>> running_points(rules, [Night(1, "a", 1.0, 2, {1: 1, 2: 2}), Night(2, "b", 2.0, 2, {2: 1, 1: 2})])
    [{1: 10.0, 2: 7.0}, {1: 10.0, 2: 10.0}]
    """
    played: dict[PersonId, list[float]] = {}
    totals: dict[PersonId, float] = {}
    out = []
    for night in sorted(nights, key=lambda n: (n.at, n.key)):
        for person, points in night_points(rules, night).items():
            kept = played.setdefault(person, [])
            kept.append(points)
            kept.sort(reverse=True)
            totals[person] = round(sum(kept[: rules.best_n] if rules.best_n else kept), 2)
        out.append(dict(totals))
    return out


def rules_from_dict(data: Mapping[str, object]) -> SeasonRules:
    """The season's rules as stored and as the forms give them, each value checked."""

    def number(key: str, default: float) -> float:
        value = data.get(key)
        if value in (None, ""):
            return default
        try:
            return float(str(value).replace(",", "."))
        except ValueError:
            raise InvalidInput("The {setting} must be a number, not {value}.",
                               setting=SETTING_NAMES.get(key, Term(key.replace("_", " "))), value=repr(value)) from None

    formula = str(data.get("formula") or "table")
    custom_raw = data.get("custom") or ()
    custom: list[tuple[int, float]] = []
    if isinstance(custom_raw, str):
        for part in custom_raw.replace(";", ",").split(","):
            if not part.strip():
                continue
            place, sep, points = part.replace(":", "=").partition("=")
            if not sep or not place.strip().rstrip("stndrh").strip().isdigit():
                raise InvalidInput("Write each custom place as place=points (1=25), not {part}.", part=repr(part.strip()))
            try:
                custom.append((int(place.strip().rstrip("stndrh").strip()), float(points.strip())))
            except ValueError:
                raise InvalidInput("The points of place {place} must be a number, not {points}.",
                                   place=place.strip(), points=repr(points.strip())) from None
    elif isinstance(custom_raw, (list, tuple)):
        for pair in custom_raw:
            if not isinstance(pair, (list, tuple)) or len(pair) != 2:
                raise InvalidInput("Each custom place is a place and its points, like [1, 25].")
            try:
                custom.append((int(pair[0]), float(pair[1])))
            except (TypeError, ValueError):
                raise InvalidInput("A custom place and its points must be numbers, not {pair}.", pair=repr(pair)) from None
    else:
        raise InvalidInput("The custom points are places with their points, like 1=25, 2=18.")
    if len(custom) > MAX_CUSTOM_PLACES or len({p for p, _ in custom}) != len(custom):
        raise InvalidInput("A custom table lists each place once, at most {places} places.", places=MAX_CUSTOM_PLACES)
    best = number("best_n", 0)
    if best != int(best):
        raise InvalidInput("Count a whole number of best nights, not {best}.", best=format(best, "g"))
    return SeasonRules(
        formula=formula,  # type: ignore[arg-type]
        custom=tuple(sorted(custom)),
        knockout_points=number("knockout_points", 0),
        bounty_points=number("bounty_points", 0),
        playing_bonus=number("playing_bonus", 0),
        best_n=int(best),
        final_multiplier=number("final_multiplier", 1),
    )


def rules_to_dict(rules: SeasonRules) -> dict[str, object]:
    return {
        "formula": rules.formula, "custom": [list(p) for p in rules.custom], "knockout_points": rules.knockout_points,
        "bounty_points": rules.bounty_points,
        "playing_bonus": rules.playing_bonus, "best_n": rules.best_n, "final_multiplier": rules.final_multiplier,
    }


def custom_text(rules: SeasonRules) -> str:
    """``1=25, 2=18``: the custom table as the host types it."""
    return ", ".join(f"{place}={points:g}" for place, points in rules.custom)


__all__ = [
    "FORMULAS", "TIE_BREAK", "Night", "SeasonRules", "Standing", "custom_text", "night_points", "rules_from_dict",
    "rules_to_dict", "running_points", "standings",
]
