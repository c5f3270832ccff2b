"""A table's hands as they were played: each hand's summary in words for the history page,
and its hand history in the PHH standard (``python -m engine replay`` reads it back)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass

from director.core.i18n import gettext, number, say
from director.core.web import format_chips as _amount
from director.tables.hand_view import STREET_TITLES, _names, _positions_text
from engine import notation
from engine.dealing import TableHand
from engine.errors import InvalidInput
from engine.hand import Hand
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


def _hand_summary(state: Tournament, record: TableHand) -> HandSummary:
    names = _names(state)
    hand = record.replay()
    setup = record.setup
    blinds = f"{_amount(setup.small_blind)}/{_amount(setup.big_blind)}"
    if setup.big_blind_ante:
        blinds = gettext("%(blinds)s, ante %(ante)s", blinds=blinds, ante=_amount(setup.big_blind_ante))
    players = tuple(
        gettext("Seat %(seat)s %(name)s (%(stack)s)", seat=s, name=names.get(p, "?"), stack=_amount(setup.stacks[s]))
        for s, p in record.players
    )
    actions = tuple(_history_lines(hand, names, dict(record.players)))
    return HandSummary(
        record.number, record.level, blinds, _positions_text(record.positions), players, actions,
        say(record.result), tuple(gettext("%(name)s out", name=names.get(p, "?")) for p, _ in record.busted),
        record.finished, tuple(say(note) for note in record.notes), tuple(ruling_lines(record)),
    )


def ruling_lines(record: TableHand) -> list[str]:
    """The hand's rulings for its history: each with its rule, and what a re-deal took back."""
    lines = []
    for r in record.rulings:
        voided = ", ".join(say(notation.describe(e)) for e in r.voided)
        line = say(r.line)
        lines.append(gettext("%(ruling)s; taken back: %(voided)s", ruling=line, voided=voided) if voided else line)
    return lines


def _history_lines(hand: Hand, names: Mapping[int, str], players: Mapping[int, int]) -> list[str]:
    """The hand's log in words, betting actions with their amounts and the street they began."""
    lines: list[str] = []
    records = iter(hand.actions)
    street = "preflop"
    for entry in hand.log:
        if notation.parse(entry).verb in ("f", "cc", "cbr"):
            action = next(records)
            who = {"seat": action.seat, "name": names.get(players.get(action.seat, 0), "?"), "amount": number(action.to)}
            if action.kind == "fold":
                text = gettext("Seat %(seat)s (%(name)s) folds", **who)
            elif action.kind == "check":
                text = gettext("Seat %(seat)s (%(name)s) checks", **who)
            elif action.kind == "call":
                text = gettext("Seat %(seat)s (%(name)s) calls %(amount)s", **who)
            elif action.kind == "bet":
                text = gettext("Seat %(seat)s (%(name)s) bets %(amount)s", **who)
            elif action.kind == "raise":
                text = gettext("Seat %(seat)s (%(name)s) raises to %(amount)s", **who)
            else:
                text = f"Seat {action.seat} ({who['name']}) {action.kind}"
            if action.all_in:
                text = gettext("%(action)s (all-in)", action=text)
            if action.street != street:
                street = action.street
                text = gettext("%(street)s: %(action)s", street=STREET_TITLES.get(street) or street.capitalize(),
                               action=text)
            lines.append(text)
        else:
            lines.append(describe_entry(entry, names, players))
    return lines


def describe_entry(entry: str, names: Mapping[int, str], players: Mapping[int, int]) -> str:
    """``p3 cbr 600`` → ``Seat 3 (Ann) bets or raises to 600``."""
    try:
        parsed = notation.parse(entry)
    except InvalidInput:
        return entry
    if parsed.verb == "win":
        return gettext("Pots awarded from the cards") if parsed.winners is None else gettext("Pots awarded by the dealer")
    if parsed.verb == "db":
        return gettext("Board %(cards)s", cards=parsed.cards)
    if parsed.verb == "dh":
        return gettext("p%(seat)s dealt %(cards)s", seat=parsed.seat, cards=parsed.cards)
    who = {"seat": parsed.seat, "name": names.get(players.get(parsed.seat or 0, 0), "?")}
    if parsed.verb == "f":
        return gettext("Seat %(seat)s (%(name)s) folds", **who)
    if parsed.verb == "cc":
        return gettext("Seat %(seat)s (%(name)s) checks or calls", **who)
    if parsed.verb == "cbr":
        return gettext("Seat %(seat)s (%(name)s) bets or raises to %(amount)s", amount=number(parsed.amount or 0), **who)
    if parsed.verb == "sm" and parsed.mucked:
        return gettext("Seat %(seat)s (%(name)s) mucks", **who)
    if parsed.verb == "sm" and parsed.cards:
        return gettext("Seat %(seat)s (%(name)s) shows %(cards)s", cards=parsed.cards, **who)
    if parsed.verb == "sm":
        return gettext("Seat %(seat)s (%(name)s) shows cards", **who)
    said = notation.describe(entry)
    return f"Seat {parsed.seat} ({who['name']})" + said[len(f"seat {parsed.seat}"):]


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
    text = write_phh(record.replay())
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
