"""The games a level or a cash table is dealt at: each with its betting and its cards, its
name, and its short name for the clock (``PLO 100 / 200``, ``LHE 200 / 400``).

The dealer's assistant follows the games with community cards it knows (Hold'em, Omaha and
five-card Omaha, at no-limit, pot-limit or fixed-limit betting). The others (stud, razz,
draw) may still be named on a level for the clock; the assistant says it does not follow
them.

>>> game_named("plo").label(100, 200)
'PLO 100 / 200'
>>> game_named("lhe").label(100, 200)  # a fixed limit shows its bets: the big blind and twice it
'LHE 200 / 400'
>>> game_named("omaha")
Traceback (most recent call last):
...
engine.errors.InvalidInput: The game must be one of nlhe, plhe, lhe, plo, plo5, lo, plo8, lo8, choice, stud, razz, 2-7td, not 'omaha'.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.errors import InvalidInput, Term
from engine.hand_setup import FIXED_LIMIT, HOLDEM, NO_LIMIT, OMAHA, OMAHA5, OMAHA_HILO, POT_LIMIT
from engine.text import chips

DEFAULT_GAME = "nlhe"
DEALERS_CHOICE = "choice"
"""A level where the dealer picks each hand's game from the host's list
(:attr:`engine.levels.Structure.choices`)."""


@dataclass(frozen=True, slots=True)
class Game:
    """A game: ``key`` as structures and tables store it, ``name`` in words (a catalogue
    term), ``short`` as the clock writes it, the hand engine's ``betting`` and ``cards``
    (None: a game the assistant does not deal)."""

    key: str
    name: Term
    short: str
    betting: str
    cards: str | None

    @property
    def dealt(self) -> bool:
        """Whether the dealer's assistant follows this game's hands."""
        return self.cards is not None

    @property
    def choice(self) -> bool:
        """Dealer's choice: each hand's game is picked at the deal."""
        return self.key == DEALERS_CHOICE

    def limits(self, small_blind: int, big_blind: int) -> tuple[int, int]:
        """What the clock shows: the blinds, or a fixed limit's small and big bets (the big
        blind and twice it)."""
        if self.betting == FIXED_LIMIT:
            return big_blind, 2 * big_blind
        return small_blind, big_blind

    def label(self, small_blind: int, big_blind: int) -> str:
        """``PLO 100 / 200``: the short name and the limits."""
        low, high = self.limits(small_blind, big_blind)
        return f"{self.short} {chips(low)} / {chips(high)}"


GAMES: dict[str, Game] = {
    game.key: game
    for game in (
        Game("nlhe", Term("No-Limit Hold'em"), "NLHE", NO_LIMIT, HOLDEM),
        Game("plhe", Term("Pot-Limit Hold'em"), "PLHE", POT_LIMIT, HOLDEM),
        Game("lhe", Term("Limit Hold'em"), "LHE", FIXED_LIMIT, HOLDEM),
        Game("plo", Term("Pot-Limit Omaha"), "PLO", POT_LIMIT, OMAHA),
        Game("plo5", Term("Five-Card Pot-Limit Omaha"), "PLO5", POT_LIMIT, OMAHA5),
        Game("lo", Term("Limit Omaha"), "LO", FIXED_LIMIT, OMAHA),
        Game("plo8", Term("Pot-Limit Omaha Hi-Lo"), "PLO8", POT_LIMIT, OMAHA_HILO),
        Game("lo8", Term("Limit Omaha Hi-Lo"), "O8", FIXED_LIMIT, OMAHA_HILO),
        Game(DEALERS_CHOICE, Term("Dealer's choice"), "DC", NO_LIMIT, None),
        Game("stud", Term("Seven-Card Stud"), "Stud", FIXED_LIMIT, None),
        Game("razz", Term("Razz"), "Razz", FIXED_LIMIT, None),
        Game("2-7td", Term("2-7 Triple Draw"), "2-7 TD", FIXED_LIMIT, None),
    )
}
"""Every game a level or a table may name, in the order the forms list them."""


def dealer_choices(choices: tuple[str, ...]) -> tuple[Game, ...]:
    """The games a dealer's choice picks from: the host's list, or every game the assistant
    follows when the list is empty."""
    return tuple(GAMES[key] for key in choices) or tuple(g for g in GAMES.values() if g.dealt)


def game_of(betting: str, cards: str) -> Game | None:
    """The game a hand is played at, from its setup's ``betting`` and ``game``."""
    return next((g for g in GAMES.values() if g.betting == betting and g.cards == cards), None)


def game_named(key: object) -> Game:
    """The game stored as ``key``; anything else is refused with the list of games."""
    if isinstance(key, str) and key in GAMES:
        return GAMES[key]
    raise InvalidInput("The game must be one of {choices}, not {game}.", choices=", ".join(GAMES), game=repr(key))
