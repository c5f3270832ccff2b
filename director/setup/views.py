"""What the setup's forms show beside their fields: the one-night points formulas with what
each computes, and the games a level or a table may deal."""

from __future__ import annotations

from dataclasses import dataclass

from babel.numbers import format_decimal

from director.core.i18n import gettext, language
from director.core.words import before_amount, ordinal, say
from engine.games import GAMES
from engine.payouts import LEAGUE_FORMULAS, league_points


@dataclass(frozen=True)
class GameView:
    """A game as the forms and pages name it: its key, its name in the reader's language and
    its short name ("PLO")."""

    key: str
    name: str
    short: str
    dealt: bool
    """Whether the dealer's assistant follows it."""


def game_views() -> dict[str, GameView]:
    """Every game, by key, in the order the forms list them."""
    return {key: GameView(key, say(game.name), game.short, game.dealt) for key, game in GAMES.items()}


def dealt_game_views() -> list[GameView]:
    """The games the dealer's assistant follows (a dealer's choice, a cash table)."""
    return [game for game in game_views().values() if game.dealt]


@dataclass(frozen=True)
class LeagueChoice:
    """A one-night points formula as the forms offer it: its words and what it gives."""

    key: str
    words: str
    example: tuple[tuple[int, float], ...]
    """``(place, points)`` for a few places of a night of :data:`EXAMPLE_ENTRIES`, computed."""

    @property
    def text(self) -> str:
        shown = ", ".join(f"{before_amount(ordinal(place))} {format_decimal(points, locale=language())}" for place, points in self.example)
        return gettext("%(words)s (%(entries)s players: %(example)s)", words=say(self.words), entries=EXAMPLE_ENTRIES,
                       example=shown)


EXAMPLE_ENTRIES = 10


def league_choices() -> list[LeagueChoice]:
    """Each one-night points formula, described in the words every page uses and shown with
    what the code computes for a night of ten (1st, 2nd, 3rd and last)."""
    places = (1, 2, 3, EXAMPLE_ENTRIES)
    return [LeagueChoice(key, words, tuple((p, league_points(p, EXAMPLE_ENTRIES, key)) for p in places))  # type: ignore[arg-type]
            for key, words in LEAGUE_FORMULAS.items()]
