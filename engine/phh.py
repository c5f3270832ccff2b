"""Hand histories in the PHH standard: read, replay, write. The variants are No-Limit Hold'em
(``NT``), Fixed-Limit Hold'em (``FT``, with its ``small_bet`` and ``big_bet``), Pot-Limit
Omaha (``PO``) and Fixed-Limit Omaha hi-lo eight or better (``FO/8``), as :data:`VARIANTS`
lists them.

Players ``p1``..``pN`` are listed from the first seat left of the button round to the
button; heads-up, ``p1`` is the big blind and ``p2`` the button, who posts the small
blind (the ``blinds_or_straddles`` and ``antes`` lists then name the button first, as
pokerkit reads them). Here player ``pN`` sits in table seat ``N`` (or in ``seats[N-1]``
when the file lists ``seats``), so the engine's own action notation reads the same.

>>> text = '''variant = "NT"
... antes = [0, 0, 0]
... blinds_or_straddles = [10, 20, 0]
... min_bet = 20
... starting_stacks = [1000, 1000, 1000]
... actions = ["p3 cbr 60", "p1 f", "p2 f"]
... '''
>>> [hand] = read_phh(text)
>>> replay_phh(hand).stacks()
{1: 990, 2: 980, 3: 1030}
"""

from __future__ import annotations

import json
import re
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any, TextIO

from engine.errors import N_, EngineError, IllegalAction, InvalidInput, Message, Term
from engine.hand import Hand, HandSetup, Seat
from engine.hand_setup import FIXED_LIMIT, HOLDEM, NO_LIMIT, OMAHA, OMAHA_HILO, POT_LIMIT

VARIANTS = {
    "NT": (NO_LIMIT, HOLDEM), "FT": (FIXED_LIMIT, HOLDEM), "PO": (POT_LIMIT, OMAHA), "FO/8": (FIXED_LIMIT, OMAHA_HILO),
}
"""The PHH variants replayed, with the betting and the game each names."""


@dataclass(frozen=True, slots=True)
class PhhHand:
    """One hand as the file states it (PHH player order throughout)."""

    starting_stacks: tuple[int, ...]
    blinds_or_straddles: tuple[int, ...]
    antes: tuple[int, ...]
    min_bet: int
    actions: tuple[str, ...]
    finishing_stacks: tuple[int, ...] | None = None
    seats: tuple[Seat, ...] | None = None
    ante_trimming_status: bool = False
    variant: str = "NT"
    small_bet: int = 0
    big_bet: int = 0
    extra: dict[str, Any] = field(default_factory=dict, compare=False)

    @property
    def players(self) -> int:
        return len(self.starting_stacks)

    def seat_of(self, player: int) -> Seat:
        """The table seat of player ``p<player>`` (1-based)."""
        return self.seats[player - 1] if self.seats else player


class PhhReplayError(EngineError):
    """An action of a hand history that the engine refuses, with its 0-based index."""

    def __init__(self, action_index: int | None, message: str, /, **values: Any) -> None:
        super().__init__(message, **values)
        self.action_index = action_index


_KNOWN = {
    "variant", "antes", "blinds_or_straddles", "min_bet", "starting_stacks", "actions",
    "finishing_stacks", "seats", "ante_trimming_status", "small_bet", "big_bet",
}


def read_phh(text: str) -> list[PhhHand]:
    """Parse a ``.phh`` file (one hand) or a ``.phhs`` file (tables ``[1]``, ``[2]``...)."""
    doc = _simple_toml(text)
    if doc is None:
        try:
            doc = tomllib.loads(text)
        except tomllib.TOMLDecodeError as e:
            raise InvalidInput("This is not a PHH file: {error}.", error=str(e)) from None
    if "actions" in doc or "variant" in doc:
        return [_hand_from(doc, "")]
    tables = [(k, v) for k, v in doc.items() if isinstance(v, dict)]
    if not tables:
        raise InvalidInput("This PHH file holds no hand.")
    tables.sort(key=lambda kv: (0, int(kv[0])) if kv[0].isdigit() else (1, kv[0]))
    return [_hand_from(v, Message("hand [{key}]: ", key=str(k))) for k, v in tables]


_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+\Z")
_TRAILING_COMMA = re.compile(r",\s*\]\Z")


def _simple_toml(text: str) -> dict[str, Any] | None:
    """Read the plain TOML that PHH files are written in, quickly, or give up (None).

    Handles ``key = value`` lines whose values are integers, booleans, strings without
    escapes and arrays of those (over several lines, with a trailing comma), and whole-line
    comments. Anything else (tables, inline comments, dates, escapes) returns None so
    that :mod:`tomllib` reads the file; both give the same result on what this accepts.
    """
    doc: dict[str, Any] = {}
    lines = iter(text.splitlines())
    for raw in lines:
        line = raw.strip()
        if not line or line[0] == "#":
            continue
        key, eq, value = line.partition("=")
        key, value = key.strip(), value.strip()
        if not eq or not _BARE_KEY.match(key) or key in doc or "#" in value or "\\" in value:
            return None
        if value[:1] == "[":
            while value.count("[") != value.count("]"):
                more = next(lines, None)
                if more is None:
                    return None
                more = more.strip()
                if more[:1] == "#":
                    continue
                if "#" in more or "\\" in more:
                    return None
                value += more
            value = _TRAILING_COMMA.sub("]", value)
        elif value[:1] not in ('"', "t", "f", "-") and not value[:1].isdigit():
            return None
        try:
            doc[key] = json.loads(value)
        except ValueError:
            return None
        if isinstance(doc[key], float) or (isinstance(doc[key], list) and any(
            isinstance(x, float | list | dict) for x in doc[key]
        )):
            return None
    return doc


def _ints(doc: dict[str, Any], key: str, where: str, n: int | None = None) -> tuple[int, ...]:
    value = doc.get(key)
    if not isinstance(value, list) or not all(type(x) is int for x in value):
        raise InvalidInput("{where}{key} must be a list of whole numbers.", where=where, key=key)
    if n is not None and len(value) != n:
        raise InvalidInput(
            "{where}{key} has {count} entries for {players} players.", where=where, key=key, count=len(value), players=n
        )
    return tuple(value)


def _hand_from(doc: dict[str, Any], where: str) -> PhhHand:
    variant = doc.get("variant", "NT")
    if variant not in VARIANTS:
        raise InvalidInput(
            "{where}the variant must be one of {variants}, not {variant}.",
            where=where, variants=", ".join(VARIANTS), variant=repr(variant)
        )
    fixed = VARIANTS[variant][0] == FIXED_LIMIT
    bets = {key: doc.get(key, 0) if fixed else 0 for key in ("small_bet", "big_bet")}
    if fixed and not all(type(v) is int and v > 0 for v in bets.values()):
        raise InvalidInput("{where}a fixed-limit hand needs small_bet and big_bet, in chips.", where=where)
    stacks = _ints(doc, "starting_stacks", where)
    n = len(stacks)
    blinds = _ints(doc, "blinds_or_straddles", where, n)
    antes = _ints(doc, "antes", where, n) if "antes" in doc else (0,) * n
    if isinstance(doc.get("antes"), int):
        antes = (doc["antes"],) * n
    actions = doc.get("actions", [])
    if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
        raise InvalidInput("{where}actions must be a list of strings.", where=where)
    finishing = _ints(doc, "finishing_stacks", where, n) if "finishing_stacks" in doc else None
    seats = _ints(doc, "seats", where, n) if "seats" in doc else None
    if seats is not None and len(set(seats)) != n:
        raise InvalidInput("{where}seats names a seat twice: {seats}.", where=where, seats=str(list(seats)))
    min_bet = doc.get("min_bet", max(blinds[:2]) if blinds else 0)
    if type(min_bet) is not int:
        raise InvalidInput("{where}min_bet must be a whole number.", where=where)
    extra = {k: v for k, v in doc.items() if k not in _KNOWN}
    return PhhHand(
        starting_stacks=stacks,
        blinds_or_straddles=blinds,
        antes=antes,
        min_bet=min_bet,
        actions=tuple(actions),
        finishing_stacks=finishing,
        seats=seats,
        ante_trimming_status=bool(doc.get("ante_trimming_status", False)),
        variant=variant,
        small_bet=bets["small_bet"],
        big_bet=bets["big_bet"],
        extra=extra,
    )


def setup_of(phh: PhhHand) -> HandSetup:
    """The engine's set-up for a PHH hand: the button is the last player (heads-up, p2); the
    betting and the game are the variant's."""
    betting, game = VARIANTS[phh.variant]
    return replace(_seats_and_blinds(phh), betting=betting, game=game, small_bet=phh.small_bet, big_bet=phh.big_bet)


def _seats_and_blinds(phh: PhhHand) -> HandSetup:
    n, blinds = phh.players, phh.blinds_or_straddles
    if n < 2:
        raise InvalidInput("A hand needs at least two players.")
    seats = phh.seats or range(1, n + 1)
    trim = phh.ante_trimming_status
    stacks = dict(zip(seats, phh.starting_stacks, strict=True))
    if n == 2:
        # As pokerkit reads heads-up: the lists name the button (p2) first, then p1. A lone
        # ante is the big blind's ante whichever way it is listed (the PHH README lists p1,
        # the big blind, first), so both readings give the same hand.
        if sum(1 for a in phh.antes if a) == 1:
            antes = {seats[0]: max(phh.antes)}
        else:
            antes = {seats[1]: phh.antes[0], seats[0]: phh.antes[1]}
        big, small = max(blinds), min(blinds)
        return HandSetup(
            stacks, seats[1], seats[1] if small else None, seats[0], small, big, antes,
            ante_trimming=trim, min_bet=phh.min_bet,
        )
    antes = {s: a for s, a in zip(seats, phh.antes, strict=True) if a}
    straddles = {seats[k]: b for k, b in enumerate(blinds) if k >= 2 and b}
    if straddles and (not blinds[1] or any(not b for b in blinds[2 : max(straddles_at(blinds)) + 1])):
        raise InvalidInput(
            "Straddles must be posted by the players after the big blind, one after another."
        )
    if blinds[1]:
        small_seat = seats[0] if blinds[0] else None
        return HandSetup(
            stacks, seats[-1], small_seat, seats[1], blinds[0], blinds[1], antes,
            straddles=straddles, ante_trimming=trim, min_bet=phh.min_bet,
        )
    if blinds[0]:  # a dead small blind: the first player left of the button is the big blind
        return HandSetup(
            stacks, seats[-1], None, seats[0], 0, blinds[0], antes,
            ante_trimming=trim, min_bet=phh.min_bet,
        )
    raise InvalidInput("This hand has no big blind.")


def straddles_at(blinds: Sequence[int]) -> list[int]:
    """The 0-based players posting a straddle (after the two blinds)."""
    return [k for k, b in enumerate(blinds) if k >= 2 and b]


_BOARD_BEFORE = {"flop": 3, "turn": 4, "river": 5}


def replay_phh(phh: PhhHand) -> Hand:
    """Replay a hand through the engine's validation, award it and return it.

    The award comes from the shown cards; a single player left takes everything.
    Raises :class:`PhhReplayError` naming the first action the engine refuses.
    """
    try:
        hand = Hand(setup_of(phh))
    except EngineError as e:
        raise PhhReplayError(None, e.message, **e.values) from None
    to_seat = {f"p{p}": f"p{phh.seat_of(p)}" for p in range(1, phh.players + 1)} if phh.seats else None
    apply = hand.apply
    # The board cards of a street come before its betting (as pokerkit reads PHH); a
    # history that never gives some of them (entered lazily, or unknown) is let be.
    total_board = sum(
        len("".join(a.split("#", 1)[0].split()[2:3])) // 2 for a in phh.actions if a[:4] == "d db"
    )
    board = 0
    # Likewise every player's hole cards come before the betting.
    last_hole = max((k for k, a in enumerate(phh.actions) if a[:4] == "d dh"), default=-1)
    for k, raw in enumerate(phh.actions):
        entry = raw.split("#", 1)[0] if "#" in raw else raw
        try:
            if to_seat is not None:
                entry = " ".join([to_seat.get(w, w) for w in entry.split()])
            if entry[:1] == "d":
                if entry[:5] not in ("d db ", "d dh "):
                    words = entry.split()
                    if len(words) < 2 or words[0] != "d" or words[1] not in ("db", "dh"):
                        raise InvalidInput("{raw} is not an action of this hand's game.", raw=repr(raw))
                if entry[2:4] == "db":
                    board += len(entry[5:].strip()) // 2
                if "?" in entry:
                    continue  # hidden cards
            elif k < last_hole and " sm" not in entry:
                raise IllegalAction(
                    "The hole cards are not all dealt: {player} cannot act before them.",
                    player=entry.split()[0],
                )
            elif board < _BOARD_BEFORE.get(hand.street, 0) <= total_board and " sm" not in entry:
                street = hand.street
                raise IllegalAction(
                    "The {street} has not been dealt: {player} cannot act before it.",
                    street=Term(street), player=entry.split()[0],
                )
            apply(entry)
        except EngineError as e:
            raise PhhReplayError(k, e.message, **e.values) from None
    winners = phh.extra.get("_winners")
    if not hand.is_complete and winners is not None and hand.street == "showdown":
        # Our own export of a hand whose pots the dealer awarded by naming the winners.
        try:
            if not isinstance(winners, list) or not all(
                isinstance(pot, list) and all(type(s) is int for s in pot) for pot in winners
            ):
                raise InvalidInput("_winners must list the winning seats of each pot.")
            hand.award_to(winners)
        except EngineError as e:
            raise PhhReplayError(None, e.message, **e.values) from None
    if not hand.is_complete:
        if hand.turn is not None:
            raise PhhReplayError(
                None, N_("The hand stops before its end: it is seat {seat}'s turn."), seat=hand.turn
            )
        if len(hand.board) < 5 and len(hand.live_seats()) > 1:
            raise PhhReplayError(
                None, N_("The hand stops before its end: the board has {count} cards, not 5."),
                count=len(hand.board),
            )
        try:
            hand.award_from_cards()
        except EngineError as e:
            # Named at the last action: the hand is over there and cannot be awarded
            # (hole cards never shown, ``????``).
            last = len(phh.actions) - 1 if phh.actions else None
            raise PhhReplayError(last, e.message, **e.values) from None
    return hand


def finishing_stacks(phh: PhhHand, hand: Hand) -> list[int]:
    """The hand's final stacks in PHH player order."""
    stacks = hand.stacks()
    return [stacks[phh.seat_of(p)] for p in range(1, phh.players + 1)]


def write_phh(hand: Hand) -> str:
    """A finished (or running) hand as PHH text that :func:`read_phh` reads back.

    Players are listed from the first seat left of the button, with a ``seats`` list; a
    dead small blind is written as the big blind being ``p1`` with nobody posting before
    it. A big-blind ante is written as that player's ante (PHH posts antes before blinds,
    so a big blind too short for both reads back differently).
    """
    setup = hand.setup
    order = list(hand.seats)
    if len(order) == 2:
        big = setup.big_blind_seat
        order = [big] + [s for s in order if s != big]
    player = {f"p{s}": f"p{k + 1}" for k, s in enumerate(order)}
    blinds = [0] * len(order)
    if setup.small_blind_seat is not None:
        blinds[order.index(setup.small_blind_seat)] = setup.small_blind
    blinds[order.index(setup.big_blind_seat)] = setup.big_blind
    for seat, straddle in setup.straddles.items():
        blinds[order.index(seat)] = straddle
    antes = [setup.antes.get(s, 0) for s in order]
    if setup.big_blind_ante:
        antes[order.index(setup.big_blind_seat)] += setup.big_blind_ante
    if len(order) == 2:  # heads-up lists name the button first, as pokerkit reads them
        blinds.reverse()
        antes.reverse()
    # Hole cards first and the board where each street begins, as PHH readers expect,
    # even when the dealer entered the cards later; what is left goes at the end.
    board = [str(c) for c in hand.board]
    streets = iter([a.street for a in hand.actions])
    actions = []
    out = 0
    holes = [e for e in hand.log if e[:4] == "d dh"]  # the deal comes first
    for entry in holes + [e for e in hand.log if e[:4] != "d dh"]:
        words = entry.split()
        if words[:2] == ["d", "win"] or words[:2] == ["d", "db"]:
            continue
        if words[1] in ("f", "cc", "cbr"):
            need = _BOARD_BEFORE.get(next(streets, ""), 0)
            if out < need <= len(board):
                actions.append("d db " + "".join(board[out:need]))
                out = need
        actions.append(" ".join(player.get(w, w) for w in words))
    if out < len(board):
        actions.append("d db " + "".join(board[out:]))
    stacks = hand.stacks()
    variant = next((v for v, kind in VARIANTS.items() if kind == (setup.betting, setup.game)), None)
    if variant is None:
        raise InvalidInput(
            "The PHH standard has no variant for {betting} {game}: this hand cannot be written as a hand history.",
            betting=setup.betting, game=setup.game,
        )
    bets = []
    if setup.betting == FIXED_LIMIT:
        small, big = setup.bet_sizes
        bets = [f"small_bet = {small}", f"big_bet = {big}"]
    lines = [
        f"variant = {json.dumps(variant)}",
        *bets,
        f"ante_trimming_status = {'true' if setup.ante_trimming else 'false'}",
        f"antes = {json.dumps(antes)}",
        f"blinds_or_straddles = {json.dumps(blinds)}",
        f"min_bet = {setup.min_bet or setup.big_blind}",
        f"starting_stacks = {json.dumps([setup.stacks[s] for s in order])}",
        f"seats = {json.dumps(order)}",
        "actions = [",
        *(f"  {json.dumps(a)}," for a in actions),
        "]",
    ]
    if hand.is_complete:
        lines.append(f"finishing_stacks = {json.dumps([stacks[s] for s in order])}")
    return "\n".join(lines) + "\n"


def replay_file(path: str, text: str | None = None) -> list[dict[str, Any]]:
    """One result object per hand of a file, as ``python -m engine replay`` prints them."""
    try:
        if text is None:
            with open(path, encoding="utf-8") as f:
                text = f.read()
        hands = read_phh(text)
    except (OSError, UnicodeDecodeError, EngineError) as e:
        message = str(e) if isinstance(e, EngineError) else f"The file cannot be read: {e}."
        return [_result(path, 0, None, None, message)]
    results = []
    for index, phh in enumerate(hands):
        try:
            hand = replay_phh(phh)
        except PhhReplayError as e:
            results.append(_result(path, index, None, e.action_index, str(e)))
            continue
        # The recorded finishing_stacks are for the reader to compare: a hand that replays
        # without an illegal action has no error, whatever was recorded (the contract).
        results.append(_result(path, index, finishing_stacks(phh, hand), None, None))
    return results


def _result(
    path: str, index: int, stacks: Sequence[int] | None, action_index: int | None, message: str | None
) -> dict[str, Any]:
    error = None if message is None else {"action_index": action_index, "message": message}
    return {
        "file": path,
        "index": index,
        "finishing_stacks": None if stacks is None else list(stacks),
        "error": error,
    }


def replay_main(files: list[str], out: TextIO) -> int:
    """``python -m engine replay FILE...``: one JSON line per hand; 0 when all replay."""
    status = 0
    for path in files:
        for result in replay_file(path):
            if result["error"] is not None:
                status = 1
            out.write(json.dumps(result) + "\n")
    return status
