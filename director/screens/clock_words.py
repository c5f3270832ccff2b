"""The TV clock's words and figures: the time left as it is shown, the blinds, the colour-up,
and what the voice says as a level starts. Nothing here reads the tournament."""

from __future__ import annotations

import math

from director.core.i18n import gettext
from director.core.words import listed, say, spoken
from director.core.words import number as chips
from engine.games import DEFAULT_GAME, GAMES
from engine.levels import Level, Structure


def format_clock(seconds: float) -> str:
    """Time left as the TV shows it, rounded up to the second (0:00 only when time is up).

    >>> format_clock(1200), format_clock(1199.2), format_clock(59.001), format_clock(0.0)
    ('20:00', '20:00', '1:00', '0:00')
    >>> format_clock(3725)
    '1:02:05'
    """
    whole = max(0, math.ceil(seconds - 1e-9))
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


def ms(epoch_seconds: float) -> int:
    """A time as the page's JavaScript takes it: epoch milliseconds."""
    return round(epoch_seconds * 1000)


def blinds_text(small: int, big: int) -> str:
    return f"{chips(small)} / {chips(big)}"


def shows_games(structure: Structure) -> bool:
    """Whether the clock names each level's game: unless every level is No-Limit Hold'em."""
    return any(level.game != DEFAULT_GAME for level in structure.levels)


def level_blinds(structure: Structure, level: Level) -> str:
    """``100 / 200``; where the structure deals other games, with the level's: ``PLO 100 / 200``,
    or a fixed limit's bets ``LHE 200 / 400``."""
    if not shows_games(structure):
        return blinds_text(level.small_blind, level.big_blind)
    game = GAMES[level.game]
    return f"{game.short} {blinds_text(*game.limits(level.small_blind, level.big_blind))}"


def with_ante(blinds: str, ante: int | None) -> str:
    """``150 / 300 · ante 300`` (the blinds alone without an ante)."""
    return gettext("%(blinds)s · ante %(ante)s", blinds=blinds, ante=chips(ante)) if ante else blinds


def colour_up_text(denominations: tuple[int, ...] | list[int]) -> str:
    """The colour-up as the director says it: 'Remove the 5 and 25 chips'."""
    values = sorted(denominations)
    if not values:
        return ""
    return gettext("Remove the %(chips)s chips", chips=listed(chips(v) for v in values))


def level_words(level: int | None, small: int, big: int, ante: int | None, game: str = "") -> str:
    """What the voice says as a level starts: 'Level 5. Blinds 150, 300, ante 300.'; with
    ``game`` (where the structure deals several): 'Level 5, Pot-Limit Omaha. Blinds 150, 300.'"""
    if game:
        if ante:
            return gettext("Level %(level)s, %(game)s. Blinds %(small)s, %(big)s, ante %(ante)s.", level=level,
                           game=game, small=spoken(small), big=spoken(big), ante=spoken(ante))
        return gettext("Level %(level)s, %(game)s. Blinds %(small)s, %(big)s.", level=level, game=game,
                       small=spoken(small), big=spoken(big))
    if ante:
        return gettext("Level %(level)s. Blinds %(small)s, %(big)s, ante %(ante)s.", level=level,
                       small=spoken(small), big=spoken(big), ante=spoken(ante))
    return gettext("Level %(level)s. Blinds %(small)s, %(big)s.", level=level, small=spoken(small),
                   big=spoken(big))


def game_words(structure: Structure, number: int | None) -> str:
    """The level's game as the voice names it, where the structure deals several ('' otherwise)."""
    if number is None or not shows_games(structure):
        return ""
    return say(GAMES[structure.level(number).game].name)


def break_words(colour_up: str) -> str:
    """What the voice says as a break starts: 'Break. Remove the 25 chips.'"""
    return gettext("Break.") + (f" {colour_up}." if colour_up else "")
