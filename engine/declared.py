"""A dealer's declared action as the hand's entry, and a running hand as JSON-ready data.

The dealer's page posts an action as form fields (``kind``: fold, check, call, bet, raise,
all-in or muck; ``amount`` for a bet or raise; ``seat`` only for a muck): :func:`action_notation`
checks it against the hand and writes it in the hand's notation (``p3 cbr 600``), with the
engine's sentence when it is refused. The laptop runs it for every tap; the dealer's phone
runs the same function while the laptop does not answer.

:func:`setup_data` and :func:`setup_from_data` carry a :class:`HandSetup` through JSON (seat
keys as text), and :func:`play` replays a hand from its setup and log, applies the dealer's
waiting entries in order and says what the panel shows then: the street, whose turn it is,
the legal actions and their amounts, the pots.

>>> from engine.hand import Hand
>>> setup = HandSetup(stacks={1: 1000, 2: 1000, 3: 1000}, button=3, small_blind_seat=1,
...                   big_blind_seat=2, small_blind=10, big_blind=20)
>>> action_notation(Hand(setup), {"kind": "raise", "amount": "60"})
'p3 cbr 60'
>>> data = {"setup": setup_data(setup), "log": ["p3 cbr 60"]}
>>> shown = play(data, [{"what": "act", "kind": "call"}, {"what": "act", "kind": "raise", "amount": "70"}])
>>> shown["turn"], shown["applied"], shown["refused"]["english"]
(2, 1, 'Seat 2 cannot raise to 70: the minimum raise is to 100.')
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import fields
from typing import Any

from engine import notation
from engine.errors import EngineError, IllegalAction, InvalidInput, Message, Term
from engine.hand import Hand
from engine.hand_setup import HandSetup
from engine.limits import MAX_CHIPS

#: The fields of a :class:`HandSetup` that map seats to chips (JSON keeps their keys as text).
SEAT_MAPS = ("stacks", "antes", "straddles")


def whole_number(value: Any, label: str, *, minimum: int | None = None, default: int | None = None,
                 maximum: int = MAX_CHIPS) -> int:
    """A form's whole number ("1,000" reads as 1000), within ``minimum`` and ``maximum``."""
    label = label if isinstance(label, Term) else Term(label)  # said in the reader's language
    if value is None or (isinstance(value, str) and not value.strip()):
        if default is not None:
            return default
        raise InvalidInput("The {label} is missing: type a whole number.", label=label)
    if isinstance(value, bool):
        raise InvalidInput("The {label} must be a whole number, not {value}.", label=label, value=repr(value))
    try:
        whole = int(str(value).strip().replace(",", "").replace("_", ""))
    except ValueError:
        raise InvalidInput("The {label} must be a whole number, not {value}.", label=label, value=repr(value)) from None
    if minimum is not None and whole < minimum:
        raise InvalidInput("The {label} must be at least {minimum}, not {value}.", label=label, minimum=minimum,
                           value=whole)
    if whole > maximum:
        raise InvalidInput("The {label} must be at most {maximum}, not {value}.", label=label, maximum=maximum,
                           value=whole)
    return whole


def seat_to_act(data: Mapping[str, Any], hand: Hand) -> int:
    """The seat a declared action is for: ``seat`` when given, else the seat whose turn it is."""
    if data.get("seat") in (None, ""):
        if hand.turn is None:
            raise IllegalAction("Nobody is to act: the betting is over.")
        return hand.turn
    return whole_number(data.get("seat"), Term("seat number"), minimum=1)


def action_notation(hand: Hand, data: Mapping[str, Any]) -> str:
    """The compact notation of a declared action (checked by the engine, with its message).
    A bet or raise is checked against the player's own limit (the all-in, the pot limit)
    before the input's bound (``MAX_CHIPS``), so that a number past both is refused with the
    player's limit; any other action's amount is held to the bound at once."""
    kind = str(data.get("kind") or data.get("action") or "").strip().lower().replace("_", "-")
    if kind not in ("bet", "raise") and data.get("amount") is not None:
        whole_number(data.get("amount"), Term("amount"), minimum=1)
    seat = seat_to_act(data, hand)
    if kind == "fold":
        hand.verify_fold(seat)
        return notation.fold(seat)
    if kind == "check":
        hand.verify_check(seat)
        return notation.check_or_call(seat)
    if kind == "call":
        hand.verify_call(seat)
        return notation.check_or_call(seat)
    if kind in ("bet", "raise"):
        label = Term("bet amount") if kind == "bet" else Term("raise amount")
        typed = data.get("amount")
        amount = typed if type(typed) is int and typed >= 1 else whole_number(typed, label, minimum=1)
        if kind == "bet":
            hand.verify_bet_to(seat, amount)
        else:
            hand.verify_raise_to(seat, amount)
        whole_number(amount, label, minimum=1)  # the input's bound, once the player's limit is met
        return notation.bet_or_raise(seat, amount)
    if kind == "muck":
        hand.verify_muck(seat)
        return notation.muck(seat)
    if kind in ("allin", "all-in"):
        hand.verify_all_in(seat)
        to = hand.bets()[seat] + hand.stacks()[seat]
        return notation.check_or_call(seat) if to <= hand.current_bet else notation.bet_or_raise(seat, to)
    raise InvalidInput("Unknown action {action}: use fold, check, call, bet, raise, all-in or muck.", action=repr(kind))


# --------------------------------------------------------------------------- a hand as data


def setup_data(setup: HandSetup) -> dict[str, Any]:
    """A hand's setup as JSON-ready data (the seat maps' keys as text)."""
    data: dict[str, Any] = {}
    for f in fields(setup):
        value = getattr(setup, f.name)
        data[f.name] = {str(seat): chips for seat, chips in value.items()} if f.name in SEAT_MAPS else value
    return data


def setup_from_data(data: Mapping[str, Any]) -> HandSetup:
    """The :class:`HandSetup` that :func:`setup_data` wrote (checked by the engine again)."""
    known = {f.name for f in fields(HandSetup)}
    given = {key: value for key, value in data.items() if key in known}
    for name in SEAT_MAPS:
        if name in given:
            given[name] = {int(seat): int(chips) for seat, chips in given[name].items()}
    return HandSetup(**given)


def sentence(error: EngineError | Message) -> dict[str, Any]:
    """An engine sentence as data, to be said in the reader's language elsewhere: its message
    id, its values (a ``Term``, itself a message id, as ``{"term": ...}``; a sentence inside
    it as ``{"sentence": ...}``) and its English."""

    def value(v: Any) -> Any:
        if isinstance(v, Term):
            return {"term": str(v)}
        if isinstance(v, EngineError | Message):
            return {"sentence": sentence(v)}
        if isinstance(v, bool | int | float | str):
            return v
        if isinstance(v, list | tuple):
            return [value(item) for item in v]
        return str(v)

    return {"message": error.message, "values": {k: value(v) for k, v in error.values.items()},
            "english": str(error)}


def _entry(hand: Hand, entry: Mapping[str, Any], start: int) -> bool:
    """Apply one of the dealer's entries (``what``: ``act`` or ``undo``, with its form fields);
    False for an entry this replay cannot follow (the laptop's answer will tell)."""
    what = entry.get("what")
    if what == "act":
        hand.apply(action_notation(hand, entry))
        return True
    if what == "undo" and len(hand.log) > start:  # an entry made here, taken back
        hand.undo()
        return True
    return False


def play(data: Mapping[str, Any], entries: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The hand of ``data`` (``setup`` as :func:`setup_data` wrote it, ``log``) with the
    dealer's ``entries`` applied in order, and what the dealer's panel shows then.

    ``applied`` counts the entries applied; ``refused`` is the sentence of the first entry
    the engine refused (None if none), and ``follows`` is False where an entry cannot be
    followed here (the entries after either are not applied)."""
    hand = Hand.replay(setup_from_data(data["setup"]), data.get("log") or ())
    start = len(hand.log)
    applied, refused, follows = 0, None, True
    for entry in entries:
        try:
            if not _entry(hand, entry, start):
                follows = False
                break
        except EngineError as error:
            refused = sentence(error)
            break
        applied += 1
    legal = hand.legal_actions()
    return {
        "applied": applied,
        "refused": refused,
        "follows": follows,
        "street": hand.street,
        "turn": hand.turn,
        "complete": hand.is_complete,
        "log": list(hand.log[start:]),
        "seats": [{"seat": s, "stack": hand.stacks()[s], "bet": hand.bets()[s],
                   "live": s in hand.live_seats(), "all_in": hand.is_all_in(s)} for s in hand.seats],
        "pots": [{"amount": p.amount, "eligible": list(p.eligible)} for p in hand.pots()],
        "bets_total": sum(hand.bets().values()),
        "legal": None if legal is None else {
            "seat": legal.seat,
            "can_fold": legal.can_fold,
            "fold_warns": legal.fold_warns,
            "can_check": legal.can_check,
            "call_amount": legal.call_amount,
            "call_all_in": bool(legal.call_amount) and legal.call_amount >= hand.stacks()[legal.seat],
            "min_to": legal.min_bet_or_raise_to,
            "max_to": legal.max_bet_or_raise_to,
            "can_all_in": legal.can_all_in,
            "all_in_to": legal.all_in_amount,
            "raise_word": legal.raise_word,
        },
    }
