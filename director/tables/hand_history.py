"""A table's hands as they were played: each hand's summary in words for the history page,
and its hand history in the PHH standard (``python -m engine replay`` reads it back)."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from director.core.i18n import gettext
from director.core.roles import author_words
from director.core.words import chips as _amount
from director.core.words import say
from director.tables.hand_view import STREET_TITLES, _names, _positions_text
from engine import notation
from engine.dealing import TableHand
from engine.errors import InvalidInput
from engine.games import DEFAULT_GAME, game_of
from engine.hand import Hand, HandSetup
from engine.phh import write_phh
from engine.tournament import Tournament


@dataclass(frozen=True)
class HandSummary:
    number: int
    level: int
    blinds: str
    positions: str
    players: tuple[str, ...]
    actions: tuple[str, ...]
    result: str
    busted: tuple[str, ...]
    finished: bool
    notes: tuple[str, ...]
    rulings: tuple[str, ...] = ()
    """Each ruling with its rule (a misdeal says what it took back)."""
    entered_by: str = ""
    """Who entered the hand: ``table 3's phone``, ``the floor`` (each once, in order)."""
    game: str = ""
    """The hand's game in words, where it is not No-Limit Hold'em."""


def _hand_summary(state: Tournament, record: TableHand, authors: Mapping[int, str] | None = None) -> HandSummary:
    """The hand's summary; ``authors`` (``director.core.store.load_authors``) says who wrote
    each event, so the summary says who entered the hand."""
    names = _names(state)
    setup = record.setup
    blinds = f"{_amount(setup.small_blind)}/{_amount(setup.big_blind)}"
    if setup.big_blind_ante:
        blinds = gettext("%(blinds)s, ante %(ante)s", blinds=blinds, ante=_amount(setup.big_blind_ante))
    game = game_of(setup.betting, setup.game)
    players = tuple(
        gettext("Seat %(seat)s %(name)s (%(stack)s)", seat=s, name=names.get(p, "?"), stack=_amount(setup.stacks[s]))
        for s, p in record.players
    )
    actions = tuple(hand_lines(setup, record.log, {s: names.get(p, "?") for s, p in record.players}))
    return HandSummary(
        record.number, record.level, blinds, _positions_text(record.positions), players, actions,
        say(record.result), tuple(gettext("%(name)s out", name=names.get(p, "?")) for p, _ in record.busted),
        record.finished, tuple(say(note) for note in record.notes), tuple(ruling_lines(record)),
        entered_by(record, authors or {}),
        say(game.name) if game is not None and game.key != DEFAULT_GAME else "",
    )


def entered_by(record: TableHand, authors: Mapping[int, str]) -> str:
    """Who entered the hand's deal and entries, each once in order: ``table 3's phone, the floor``."""
    seqs = (record.started_seq, *record.entry_seqs)
    who = list(dict.fromkeys(say(author_words(authors[seq])) for seq in seqs if seq in authors))
    return ", ".join(who)


def ruling_lines(record: TableHand) -> list[str]:
    """The hand's rulings for its history: each with its rule, and what a re-deal took back."""
    lines = []
    for r in record.rulings:
        voided = ", ".join(say(notation.describe(e)) for e in r.voided)
        line = say(r.line)
        lines.append(gettext("%(ruling)s; taken back: %(voided)s", ruling=line, voided=voided) if voided else line)
    return lines


def hand_lines(setup: HandSetup, log: Sequence[str], names: Mapping[int, str]) -> list[str]:
    """The hand's log in words (``engine.notation.describe``, the one place an entry is said),
    each entry read in the hand as it stood: ``Seat 3 (Ann) calls 200``; the first action of a
    street the board's cards did not announce starts with the street (``Flop: …``).
    ``names`` names the player in each seat."""
    hand = Hand(setup)
    who = {seat: gettext("Seat %(seat)s (%(name)s)", seat=seat, name=names.get(seat, "?")) for seat in setup.stacks}
    lines: list[str] = []
    street = hand.street
    for entry in log:
        verb = _verb(entry)
        text = say(notation.describe(entry, who, hand))
        if verb in ("f", "cc", "cbr") and hand.actions and hand.actions[-1].street != street:
            street = hand.actions[-1].street
            text = gettext("%(street)s: %(action)s", street=STREET_TITLES.get(street) or street.capitalize(),
                           action=text)
        elif verb == "db":
            street = hand.street
        lines.append(text[:1].upper() + text[1:])
    return lines


def _verb(entry: str) -> str | None:
    try:
        return notation.parse(entry).verb
    except InvalidInput:
        return None


def named_winners(record: TableHand) -> list[list[int]] | None:
    """The winning seats of each pot when the dealer tapped them (``d win 3;5,7``), else None."""
    for entry in reversed(record.log):
        parsed = notation.parse(entry)
        if parsed.verb == "win" and parsed.winners is not None:
            return [list(pot) for pot in parsed.winners]
    return None


def _phh(record: TableHand) -> str:
    """The hand in PHH; a hand awarded to named winners without their cards says who won.

    ``write_phh`` leaves out the dealer's award, so such a hand's pots cannot be worked out
    from the file alone: the user-defined field ``_winners`` (PHH allows fields starting
    with ``_``) lists the winning seats of each pot, main pot first, with a comment line.
    """
    try:
        text = write_phh(record.replay())
    except InvalidInput as error:  # a game the standard has no variant for
        return f"# {say(error)}\n"
    if record.rulings:  # the user-defined field PHH allows: the rulings, in order
        text += ("# The table's rulings in this hand, each with its rule (a misdeal's re-deal starts the actions).\n"
                 f"_rulings = {json.dumps([r.line for r in record.rulings])}\n")
    winners = named_winners(record)
    if winners is None:
        return text
    shown = {e.seat for e in map(notation.parse, record.log) if e.verb == "sm" and not e.mucked}
    if all(seat in shown for pot in winners for seat in pot):
        return text  # every winner's cards are in the actions: the hand speaks for itself
    return text + (
        "# The dealer named the winners without their cards: the winning seats of each pot\n"
        "# (numbers from 'seats'), the main pot first.\n"
        f"_winners = {json.dumps(winners)}\n"
    )
