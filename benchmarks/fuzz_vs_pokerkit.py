"""Differential fuzzing of the hand engine against pokerkit, the reference of the PHH standard.

    python benchmarks/fuzz_vs_pokerkit.py --hands 20000 --seed 1 [--variant NT|FT|PO|FO/8] [--show 5]

Each random No-Limit Hold'em hand (2 to 9 players, unequal stacks down to a few chips,
random blinds, antes none / uniform / big-blind ante, sometimes straddles) is played
through pokerkit with random legal actions (minimum raises, all-ins, one chip short of
all-in, short all-ins, calls for less), random cards and a showdown, while our
:class:`engine.hand.Hand` follows action by action. At every decision both engines are
asked whether the chosen action is legal; only actions both accept are played, and every
disagreement is counted under a named category. The finished hand is written as PHH by
pokerkit, replayed through ``engine.phh.replay_file`` and the finishing stacks compared.
Then each hand is mutated into an illegal one (a raise below the minimum, a bet above the
stack, an action out of turn, a raise after a short all-in that did not reopen, an action
after the hand is over) and both engines must refuse it at the same action index.

``--variant FT`` plays Fixed-Limit Hold'em instead (pokerkit's ``FixedLimitTexasHoldem``,
random ``small_bet`` and ``big_bet``, no straddles; the mutations add a bet of another size)
and ``--variant PO`` Pot-Limit Omaha (``PotLimitOmahaHoldem``, four hole cards; the mutations
add a bet above the pot).

``--variant FO/8`` plays Fixed-Limit Omaha hi-lo eight or better: random hands as FT's, four
hole cards, PHH ``small_bet`` and ``big_bet``. pokerkit 0.7.7's
``FixedLimitOmahaHoldemHighLowSplitEightOrBetter`` bets *pot limit* (it is built on
``PotLimitPokerMixin``: any size from the street's bet up to the pot, no cap), so its refusals
cannot be compared with ours. Instead: (a) pokerkit's FO/8 class plays the cards and the pots
and only actions legal in both engines are played (and in the pokerkit ``FixedLimitTexasHoldem``
hand that follows the same betting with each player's first two hole cards), the finishing
stacks compared; (b) our refusals are checked against our own rules: FO/8 bets exactly as FT,
so at every decision our FO/8 hand is judged by that pokerkit FT hand (FT's known differences
apart), and every mutated FO/8 hand must be refused by our FO/8 replay exactly as by our FT
replay of the same betting (same action, same message), which is then compared with pokerkit's
FT as for ``--variant FT``. A decision on which pokerkit's FO/8 class disagrees with us while
its FT class agrees is counted as ``fo8-pot-limit`` only when pot limit explains it (pokerkit
takes a size between its minimum and the pot, or refuses one outside them). Stacks that differ
are counted as ``hilo-side-pot-no-low`` or ``odd-chips`` only when pokerkit's pushes, redone by
our rule (see :func:`_hilo_difference`), give ours but for odd chips.

Known, deliberate differences (seed 000 wins over pokerkit, and in fixed and pot limit the
TDA rules and the issue on games) are counted apart, each with its reason in :data:`KNOWN`; see
``tests/engine/test_hand_vs_pokerkit.py``. Prints the counts; exit 1 on any unexplained
disagreement. Nothing here is asserted by the tests (the test file runs a small batch).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.errors import EngineError  # noqa: E402
from engine.hand import Hand  # noqa: E402
from engine.hand_setup import FIXED_LIMIT, POT_LIMIT, PREFLOP, STREETS, TURN  # noqa: E402
from engine.phh import read_phh, replay_file, setup_of  # noqa: E402

RANKS = "23456789TJQKA"
SUITS = "cdhs"
DECK = [r + s for r in RANKS for s in SUITS]
VARIANTS = ("NT", "FT", "PO", "FO/8")
HOLE_CARDS = {"NT": 2, "FT": 2, "PO": 4, "FO/8": 4}
LIMIT_VARIANTS = ("FT", "FO/8")

# Categories of disagreement that are settled in favour of seed 000 and the TDA rules (ours
# is right).
KNOWN = {
    "short-blind": "a short big blind or straddle: ours asks the full blind to call and "
    "counts the minimum raise from it (seed 000)",
    "no-reopen": "a short all-in did not reopen the betting for a player who already acted",
    "heads-up-equal-blinds": "heads-up with equal blinds: ours lets the button (p2) act first",
    "odd-chips": "odd chips one each, pot by pot, from the first winner left of the button",
    "board-before-show": "pokerkit refuses a board card before the all-in hands are shown",
    "limit-cap-preflop": "fixed limit: the big blind is the first bet before the flop, so a bet "
    "and three raises are three raises (pokerkit allows four)",
    "limit-cap-heads-up": "fixed limit: the cap is lifted when two players are left in the hand "
    "(pokerkit keeps it)",
    "limit-cap-short-all-in": "fixed limit: an all-in raise of less than half a bet does not "
    "count towards the cap, as it does not reopen the betting (pokerkit counts it)",
    "limit-half-bet-reopens": "fixed limit: an all-in raise of at least half a bet reopens the "
    "betting for those who have acted (TDA 47-B; pokerkit asks a full bet)",
    "pot-limit-short-blind": "pot limit before the flop: a short blind counts as posted in full "
    "(TDA 54; pokerkit counts what was posted)",
    "fo8-pot-limit": "FO/8: pokerkit's fixed-limit Omaha hi-lo class bets pot limit (any size up "
    "to the pot, no cap); ours bets fixed limit, as FT",
    "hilo-side-pot-no-low": "FO/8: a pot where none of its players has a low goes whole to the "
    "high (pokerkit halves every pot once anyone has a low, sharing that low half among the "
    "pot's players whose hands it did not kill)",
}


@dataclass
class Report:
    hands: int = 0
    compared: int = 0
    matched: int = 0
    known_hands: Counter[str] = field(default_factory=Counter)
    decisions: Counter[str] = field(default_factory=Counter)
    decision_hands: Counter[str] = field(default_factory=Counter)
    mutations: Counter[str] = field(default_factory=Counter)
    problems: list[str] = field(default_factory=list)


def random_hand_spec(rng: random.Random, variant: str = "NT") -> dict[str, Any]:
    """Players, blinds, antes, straddles and stacks for one random hand (PHH order); fixed
    limit has no straddles and its own small and big bets."""
    n = rng.randint(2, 9)
    bb = rng.choice([2, 3, 4, 10, 20, 25, 100, 200, 1000])
    sb = rng.choice([bb // 2, bb // 2, bb // 2, max(1, bb // 3), bb, 0 if n > 2 else bb // 2])
    sb = max(sb, 1) if n == 2 else sb
    blinds = [0] * n
    if n == 2:
        blinds[0], blinds[1] = sb, bb  # pokerkit reads heads-up lists button first
    else:
        blinds[0], blinds[1] = sb, bb
        if n >= 4 and rng.random() < 0.15:
            blinds[2] = 2 * bb
            if n >= 5 and rng.random() < 0.3:
                blinds[3] = 4 * bb
    ante_kind = rng.choice(["none", "none", "uniform", "bba"])
    antes = [0] * n
    if ante_kind == "uniform":
        ante = rng.choice([1, max(1, bb // 10), max(1, bb // 4), bb])
        antes = [ante] * n
    elif ante_kind == "bba":
        # The big blind's ante: index 1 for every table size, as pokerkit reads heads-up
        # lists (the button's entry first, then the big blind's).
        antes[1] = rng.choice([bb, bb // 2 or 1])
    stacks = []
    for _ in range(n):
        kind = rng.random()
        if kind < 0.08:
            chips = rng.randint(1, 3)
        elif kind < 0.14:
            chips = rng.choice([bb, sb or bb, bb + 1, max(1, bb - 1), max(antes) or bb])
        elif kind < 0.2:
            chips = max(1, max(antes) + rng.choice([0, 1, bb // 2, bb]))
        elif kind < 0.45:
            chips = rng.randint(1, 10 * bb)
        else:
            chips = rng.randint(bb, 150 * bb)
        stacks.append(max(1, chips))
    spec = {
        "n": n,
        "blinds": blinds,
        "antes": antes,
        "stacks": stacks,
        "min_bet": bb if rng.random() < 0.9 else rng.choice([max(1, bb // 2), 2 * bb]),
        "trim": rng.random() < 0.1,
        "variant": variant,
    }
    if variant in LIMIT_VARIANTS:
        spec["blinds"] = [*blinds[:2], *[0] * (n - 2)]
        small = rng.choice([bb, bb, bb, 2 * bb, max(1, bb // 2)])
        spec["small_bet"] = small
        spec["big_bet"] = rng.choice([2 * small, 2 * small, 2 * small, small, 3 * small])
    return spec


def _pk() -> Any:
    import pokerkit

    return pokerkit


def new_state(spec: dict[str, Any]) -> tuple[Any, Any]:
    pk = _pk()
    a = pk.Automation
    automations = (a.ANTE_POSTING, a.BET_COLLECTION, a.BLIND_OR_STRADDLE_POSTING, a.CARD_BURNING,
                   a.HAND_KILLING, a.CHIPS_PUSHING, a.CHIPS_PULLING)
    variant = spec.get("variant", "NT")
    if variant in LIMIT_VARIANTS:
        sizes = (spec["small_bet"], spec["big_bet"])
        kind = pk.FixedLimitTexasHoldem if variant == "FT" else pk.FixedLimitOmahaHoldemHighLowSplitEightOrBetter
        game = kind(
            automations, spec["trim"], spec["antes"], spec["blinds"], *sizes, mode=pk.Mode.CASH_GAME
        )
    else:
        kind = pk.PotLimitOmahaHoldem if variant == "PO" else pk.NoLimitTexasHoldem
        game = kind(
            automations,
            spec["trim"],
            spec["antes"],
            spec["blinds"],
            spec["min_bet"],
            mode=pk.Mode.CASH_GAME,
        )
    return game, game(spec["stacks"], spec["n"])


def phh_header(spec: dict[str, Any]) -> str:
    variant = spec.get("variant", "NT")
    if variant in LIMIT_VARIANTS:
        sizes = f"small_bet = {spec['small_bet']}\nbig_bet = {spec['big_bet']}\n"
    else:
        sizes = f"min_bet = {spec['min_bet']}\n"
    return (
        f'variant = "{variant}"\n'
        f"ante_trimming_status = {'true' if spec['trim'] else 'false'}\n"
        f"antes = {spec['antes']}\nblinds_or_straddles = {spec['blinds']}\n"
        f"{sizes}starting_stacks = {spec['stacks']}\n"
    )


def phh_text(spec: dict[str, Any], actions: list[str]) -> str:
    body = ",\n".join(f'  "{a}"' for a in actions)
    return phh_header(spec) + f"actions = [\n{body}\n]\n"


def ours_for(spec: dict[str, Any]) -> Hand:
    [phh] = read_phh(phh_text(spec, []))
    return Hand(setup_of(phh))


def betting_spec(spec: dict[str, Any]) -> dict[str, Any]:
    """The hand whose betting is compared with pokerkit's: FO/8 bets as FT (see the module)."""
    return {**spec, "variant": "FT"} if spec.get("variant") == "FO/8" else spec


def betting_actions(spec: dict[str, Any], actions: list[str]) -> list[str]:
    """The actions of :func:`betting_spec`'s hand: FO/8's hole cards dealt and shown, two of
    four (the betting is unchanged, action for action)."""
    if spec.get("variant") != "FO/8":
        return actions
    return [_two_of(a) for a in actions]


def _two_of(entry: str) -> str:
    words = entry.split()
    if words[:2] == ["d", "dh"] and len(words) == 4 and len(words[3]) == 8:
        return " ".join([*words[:3], words[3][:4]])
    if len(words) == 3 and words[1] == "sm" and len(words[2]) == 8:
        return " ".join([*words[:2], words[2][:4]])
    return entry


def _try(fn: Any, *args: Any) -> str | None:
    """None when ``fn(*args)`` works, else the error message."""
    try:
        fn(*args)
    except (ValueError, UserWarning) as e:
        return str(e) or type(e).__name__
    return None


def classify(
    ours_error: str | None, theirs_error: str | None, hand: Hand, state: Any, amount: int = 0
) -> str:
    """A name for a disagreement on one action's legality (a bet or raise to ``amount``)."""
    if ours_error and "did not reopen" in ours_error:
        return "no-reopen"
    known = _structure_difference(ours_error, theirs_error, hand, state, amount)
    if known:
        return known
    known = _known_setup(hand)
    if known:
        return known
    return f"unexplained: ours={ours_error!r} pokerkit={theirs_error!r}"


def _structure_difference(
    ours_error: str | None, theirs_error: str | None, hand: Hand, state: Any, amount: int
) -> str | None:
    """A known difference of the fixed-limit cap and reopening, or of the pot-limit maximum."""
    setup = hand.setup
    if setup.betting == FIXED_LIMIT:
        ours_capped = ours_error is not None and "capped" in ours_error and theirs_error is None
        theirs_capped = (
            ours_error is None and theirs_error is not None and "No more completion" in theirs_error
        )
        if ours_capped or theirs_capped:
            legal = hand.legal_actions()
            if legal is None:
                return None
            if legal.raises_left is None:
                heads_up = theirs_capped and len(hand.live_seats()) == 2
                return "limit-cap-heads-up" if heads_up else None
            # pokerkit counts every bet and raise of the street but the blinds; we count the
            # big blind, and not the all-ins of less than half a bet.
            preflop = hand.street == STREETS[PREFLOP]
            ours = setup.raise_cap - legal.raises_left - preflop
            short = _short_raises(hand)
            if state.completion_betting_or_raising_count != ours + short:
                return None
            return "limit-cap-preflop" if ours_capped else "limit-cap-short-all-in"
        if ours_error is not None or theirs_error is None:
            return None
        if "Short all-in" in theirs_error or "non-full all-in" in theirs_error:
            i = state.actor_index
            owed, size = max(state.bets) - state.bets[i], _bet_size(hand)
            if i in state.acted_player_indices and (size + 1) // 2 <= owed < size:
                return "limit-half-bet-reopens"
        return None
    if setup.betting == POT_LIMIT and ours_error is None and theirs_error:
        most = state.max_completion_betting_or_raising_to_amount
        if (
            "above the maximum" in theirs_error
            and hand.street == STREETS[PREFLOP]
            and most is not None
            and amount <= most + _blind_short(hand)
        ):
            return "pot-limit-short-blind"
    return None


def _bet_size(hand: Hand) -> int:
    """Fixed limit: the bet of the hand's street."""
    small, big = hand.setup.bet_sizes
    return big if STREETS.index(hand.street) >= TURN else small


def _short_raises(hand: Hand) -> int:
    """Fixed limit: the all-in raises of this street by less than half a bet."""
    setup, street = hand.setup, hand.street
    current = max([setup.big_blind, *setup.straddles.values()]) if street == STREETS[PREFLOP] else 0
    half, count = (_bet_size(hand) + 1) // 2, 0
    for action in hand.actions:
        if action.street == street and action.kind in ("bet", "raise"):
            count += action.to - current < half
            current = max(current, action.to)
    return count


def _blind_short(hand: Hand) -> int:
    """What the blinds lack of being posted in full (after the antes)."""
    setup, short = hand.setup, 0
    blinds = ((setup.small_blind_seat, setup.small_blind), (setup.big_blind_seat, setup.big_blind))
    for seat, blind in blinds:
        if seat is not None:
            short += max(0, blind - max(0, setup.stacks[seat] - setup.antes.get(seat, 0)))
    return short


def _short_blind(hand: Hand) -> bool:
    """Whether the big blind or a straddle cannot be posted in full (after the ante)."""
    setup = hand.setup
    blinds = {setup.big_blind_seat: setup.big_blind, **setup.straddles}
    if setup.ante_trimming and setup.small_blind_seat is not None:
        # pokerkit sizes blinds before it trims the antes back
        blinds[setup.small_blind_seat] = setup.small_blind
    return any(
        setup.stacks[seat] - setup.antes.get(seat, 0) < blind for seat, blind in blinds.items()
    )


def _known_setup(hand: Hand) -> str | None:
    """A known difference that the set-up alone explains, if any."""
    if _short_blind(hand):
        return "short-blind"
    setup = hand.setup
    if len(setup.stacks) == 2 and setup.small_blind == setup.big_blind:
        return "heads-up-equal-blinds"
    return None


def play_one(
    rng: random.Random, report: Report, variant: str = "NT"
) -> tuple[dict[str, Any], list[str]] | None:
    """Play one random hand in both engines; return its spec and PHH actions."""
    spec = random_hand_spec(rng, variant)
    _game, state = new_state(spec)
    # FO/8: pokerkit's FO/8 class bets pot limit; its FT class follows the betting (module doc).
    shadow = new_state(betting_spec(spec))[1] if variant == "FO/8" else None
    try:
        hand = ours_for(spec)
    except EngineError as e:
        report.problems.append(f"set-up refused: {e} {spec}")
        return None
    deck = DECK[:]
    rng.shuffle(deck)
    actions: list[str] = []
    known: set[str] = set()
    setup_known = _known_setup(hand)

    def problem(text: str) -> None:
        if setup_known:
            report.known_hands[setup_known] += 1
        else:
            report.problems.append(text)

    def both(entry: str, pk_do: Any) -> None:
        actions.append(entry)
        pk_do()
        if shadow is not None:
            _catch_up(shadow)
            _pk().notation.parse_action(shadow, _two_of(entry))
        hand.apply(entry)

    for p in range(spec["n"]):
        cards = "".join(deck.pop() for _ in range(HOLE_CARDS[variant]))
        entry = f"d dh p{p + 1} {cards}"
        both(entry, lambda c=cards, i=p: state.deal_hole(c, i))
    guard = 0
    while state.status:
        guard += 1
        if guard > 500:
            report.problems.append(f"runaway hand {spec} {actions}")
            return None
        if state.actor_index is not None:
            p = state.actor_index + 1
            if hand.turn != p:
                problem(f"turn: pokerkit p{p}, ours {hand.turn} {phh_text(spec, actions)}")
                return None
            if shadow is not None:
                _catch_up(shadow)
                if shadow.actor_index != p - 1:
                    problem(f"turn: pokerkit FO/8 p{p}, FT {shadow.actor_index} {phh_text(spec, actions)}")
                    return None
            entry = choose_action(rng, state, hand, p, report, known, shadow)
            if entry is None:
                return None
            before = state.stacks[p - 1]
            mine = hand.stacks()[p]
            both(entry, lambda e=entry: _pk().notation.parse_action(state, e))
            if before - state.stacks[p - 1] != mine - hand.stacks()[p]:
                problem(f"{entry} puts in different chips: {phh_text(spec, actions)}")
                return None
        elif state.can_select_runout_count():
            state.select_runout_count()  # not written in PHH
        elif state.can_deal_board():
            k = state.board_dealing_count or 1
            cards = "".join(deck.pop() for _ in range(k))
            both(f"d db {cards}", lambda c=cards: state.deal_board(c))
        elif state.can_show_or_muck_hole_cards():
            i = state.showdown_index
            cards = "".join(repr(c) for c in state.hole_cards[i])
            entry = f"p{i + 1} sm {cards}"
            actions.append(entry)
            state.show_or_muck_hole_cards(True, i)
            try:
                hand.apply(entry)
            except EngineError as e:
                problem(f"show refused: {e} {phh_text(spec, actions)}")
                return None
        else:
            report.problems.append(f"stuck: {phh_text(spec, actions)}")
            return None
    if shadow is not None:
        _catch_up(shadow)
        if shadow.status:
            report.problems.append(f"pokerkit's FT hand goes on: {phh_text(spec, actions)}")
            return None
    return spec, actions


def _catch_up(state: Any) -> None:
    """The runout selections and the shows pokerkit's FT hand asks before its next step (the
    FO/8 hand's shows are in the actions)."""
    while True:
        if state.can_select_runout_count():
            state.select_runout_count()
        elif state.can_show_or_muck_hole_cards():
            state.show_or_muck_hole_cards(True)
        else:
            return


def choose_action(
    rng: random.Random, state: Any, hand: Hand, p: int, report: Report, known: set[str],
    shadow: Any = None,
) -> str | None:
    """A random action legal in both engines (FO/8: and in pokerkit's FT hand, ``shadow``,
    which judges our betting instead of pokerkit's pot-limit FO/8 class)."""
    candidates: list[str] = []
    legal = hand.legal_actions()
    assert legal is not None
    if state.can_complete_bet_or_raise_to():
        lo = state.min_completion_betting_or_raising_to_amount
        hi = state.max_completion_betting_or_raising_to_amount
        amounts = {lo, hi, hi - 1, lo + 1, rng.randint(lo, hi), rng.randint(lo, min(hi, 3 * lo))}
        if legal.min_bet_or_raise_to is not None:
            amounts.add(legal.min_bet_or_raise_to)
        candidates += [f"p{p} cbr {a}" for a in sorted(amounts) if lo <= a <= hi]
    elif legal.min_bet_or_raise_to is not None:
        candidates.append(f"p{p} cbr {legal.min_bet_or_raise_to}")
    ref = state if shadow is None else shadow  # the pokerkit hand that judges our betting
    if hand.setup.betting in (FIXED_LIMIT, POT_LIMIT):
        extra = [f"p{p} cbr {a}" for a in _limit_amounts(ref, legal)]
        candidates += [entry for entry in extra if entry not in candidates]
    if hand.setup.betting == FIXED_LIMIT:  # raise more often, to reach the cap
        lows = {ref.min_completion_betting_or_raising_to_amount, legal.min_bet_or_raise_to}
        candidates += [f"p{p} cbr {a}" for a in lows if a is not None] * 2
    candidates += [f"p{p} cc"] * 3
    if state.checking_or_calling_amount:
        candidates += [f"p{p} f"] * 2
    elif rng.random() < 0.05:
        candidates.append(f"p{p} f")
    rng.shuffle(candidates)
    tried: set[str] = set()
    for entry in candidates:
        if entry in tried:
            continue
        tried.add(entry)
        words = entry.split()
        if words[1] == "cbr":
            amount = int(words[2])
            theirs = _try(ref.verify_completion_betting_or_raising_to, amount)
            ours = _try(hand.verify_bet_or_raise_to, p, amount)
            pot_limit = None if shadow is None else _try(state.verify_completion_betting_or_raising_to, amount)
        else:
            theirs, ours, pot_limit, amount = None, None, None, 0
        name = None
        if (theirs is None) != (ours is None):
            name = classify(ours, theirs, hand, ref, amount)
        elif shadow is not None and (pot_limit is None) != (ours is None):
            name = _pot_limit_difference(ours, pot_limit, state, amount)
        if name is not None:
            report.decisions[name] += 1
            if name not in known:
                report.decision_hands[name] += 1  # hands with such a decision
                known.add(name)
            if name.startswith("unexplained"):
                report.problems.append(f"{name} at {entry} in hand {hand.setup} {hand.log}")
            continue
        if theirs is None:
            return entry
    return f"p{p} cc"


def _pot_limit_difference(ours_error: str | None, theirs_error: str | None, state: Any, amount: int) -> str:
    """FO/8: a bet or raise to ``amount`` that pokerkit's FO/8 class judges otherwise than we
    do (and pokerkit's FT class as we do): ``fo8-pot-limit`` when its pot limit explains it, a
    size between its minimum and the pot taken, one outside them refused."""
    lo = state.min_completion_betting_or_raising_to_amount
    hi = state.max_completion_betting_or_raising_to_amount
    if lo is not None and hi is not None:
        inside = lo <= amount <= hi or amount == state.stacks[state.actor_index] + state.bets[state.actor_index]
        if ours_error is not None and theirs_error is None and inside:
            return "fo8-pot-limit"
        if ours_error is None and theirs_error is not None and not inside:
            return "fo8-pot-limit"
    return f"unexplained (FO/8): ours={ours_error!r} pokerkit={theirs_error!r}"


def _limit_amounts(state: Any, legal: Any) -> list[int]:
    """Bets and raises just past either engine's limits, and our maximum and pot (fixed and
    pot limit): most are refused by both, the rest played."""
    ours = [legal.min_bet_or_raise_to, legal.max_bet_or_raise_to, legal.pot_to]
    amounts = {a for a in ours if a is not None}
    theirs = [
        state.min_completion_betting_or_raising_to_amount,
        state.max_completion_betting_or_raising_to_amount,
    ]
    for a in (*theirs, *ours):
        if a is not None:
            amounts |= {a - 1, a + 1}
    return sorted(a for a in amounts if a > max(state.bets))


def mutate(rng: random.Random, spec: dict[str, Any], actions: list[str]) -> tuple[str, list[str]]:
    """One illegal (or possibly legal) variant of a legal hand's action list."""
    kinds = ["below-min", "above-stack", "out-of-turn", "after-end", "raise-anyway", "inserted"]
    variant = spec.get("variant", "NT")
    if variant != "NT":
        kinds.append("off-the-limit" if variant in LIMIT_VARIANTS else "above-pot")
    kind = rng.choice(kinds)
    if kind == "inserted":  # an extra action anywhere, dealer's turns included
        k = rng.randint(0, len(actions))
        extra = f"p{rng.randint(1, spec['n'])} {rng.choice(['cc', 'f', 'cbr 1000000'])}"
        return kind, [*actions[:k], extra, *actions[k:]]
    if kind == "after-end":
        return kind, [*actions, f"p{rng.randint(1, spec['n'])} {rng.choice(['cc', 'f', 'cbr 999999'])}"]
    moves = [k for k, a in enumerate(actions) if a[0] == "p" and " sm" not in a]
    if not moves:
        return "after-end", [*actions, "p1 cc"]
    k = rng.choice(moves)
    player, *_ = actions[k].split()
    # Replay pokerkit to just before k to know the limits there (FO/8: its FT betting).
    _, state = new_state(betting_spec(spec))
    for a in betting_actions(spec, actions[:k]):
        while state.can_select_runout_count():
            state.select_runout_count()
        _pk().notation.parse_action(state, a)
    lo = state.min_completion_betting_or_raising_to_amount
    hi = state.max_completion_betting_or_raising_to_amount
    stack_to = state.stacks[state.actor_index] + state.bets[state.actor_index]
    if kind == "below-min":
        amount = (lo - 1) if lo is not None else max(state.bets) + 1
        new = f"{player} cbr {amount}"
    elif kind == "above-stack":
        new = f"{player} cbr {stack_to + rng.randint(1, 50)}"
    elif kind == "raise-anyway":
        new = f"{player} cbr {lo if lo is not None else max(state.bets) + _unit(spec, state)}"
    elif kind == "off-the-limit":  # a fixed-limit bet or raise of another size
        exact = lo if lo is not None else max(state.bets) + _unit(spec, state)
        new = f"{player} cbr {exact + rng.choice([-1, 1])}"
    elif kind == "above-pot":
        new = f"{player} cbr {(hi if hi is not None else max(state.bets) + spec['min_bet']) + 1}"
    else:
        others = [q for q in range(1, spec["n"] + 1) if f"p{q}" != player]
        new = f"p{rng.choice(others)} {rng.choice(['cc', 'f'])}"
    return kind, [*actions[:k], new, *actions[k + 1 :]]


def _unit(spec: dict[str, Any], state: Any) -> int:
    """The smallest bet of pokerkit's street: ``min_bet``, or fixed limit's small or big bet."""
    if spec.get("variant") not in LIMIT_VARIANTS:
        return int(spec["min_bet"])
    return int(spec["big_bet"] if state.street_index and state.street_index >= TURN else spec["small_bet"])


def first_refusal_pokerkit(spec: dict[str, Any], actions: list[str]) -> int | None:
    _, state = new_state(spec)
    for k, a in enumerate(actions):
        try:
            while state.can_select_runout_count():
                state.select_runout_count()
            _pk().notation.parse_action(state, a)
        except (ValueError, UserWarning):
            return k
    return None


def check_mutation(rng: random.Random, spec: dict[str, Any], actions: list[str], report: Report) -> None:
    kind, mutated = mutate(rng, spec, actions)
    [result] = replay_file("fuzz.phh", phh_text(spec, mutated))
    error = result["error"]
    ours = None if error is None else error["action_index"]
    if spec.get("variant") == "FO/8":
        # Our own rules: FO/8 refuses what FT refuses, at the same action and for the same
        # reason (then FT is compared with pokerkit's FT).
        spec, mutated = betting_spec(spec), betting_actions(spec, mutated)
        [as_ft] = replay_file("fuzz.phh", phh_text(spec, mutated))
        if error != as_ft["error"]:
            report.mutations[f"{kind}: FO/8 BETS OTHERWISE THAN FT"] += 1
            report.problems.append(
                f"mutation {kind}: FO/8 refuses {error}, FT {as_ft['error']}\n" + phh_text(spec, mutated)
            )
            return
    theirs = first_refusal_pokerkit(spec, mutated)
    if ours == theirs:
        report.mutations[f"{kind}: same"] += 1
        return
    message = error["message"] if error else None
    if message and "did not reopen" in message:
        report.mutations[f"{kind}: known no-reopen"] += 1
        return
    known = _known_setup(ours_for(spec))
    if known is None and theirs is not None and mutated[theirs].startswith("d db"):
        known = "board-before-show"
    if known is None and spec.get("variant", "NT") != "NT":
        known = _known_at(spec, mutated, min(k for k in (ours, theirs) if k is not None))
    if known:
        report.mutations[f"{kind}: known {known}"] += 1
        return
    report.mutations[f"{kind}: DIFFERENT"] += 1
    report.problems.append(
        f"mutation {kind}: pokerkit refuses at {theirs}, ours at {ours} ({message})\n"
        + phh_text(spec, mutated)
    )


def _known_at(spec: dict[str, Any], actions: list[str], k: int) -> str | None:
    """The known difference that explains one engine refusing the bet or raise at index ``k``
    that the other accepts, if any."""
    player, word, *rest = actions[k].split()
    if word != "cbr" or len(rest) != 1 or not rest[0].isdigit():
        return None
    _, state = new_state(spec)
    hand = ours_for(spec)
    try:
        for a in actions[:k]:
            while state.can_select_runout_count():
                state.select_runout_count()
            _pk().notation.parse_action(state, a)
            hand.apply(a)
    except (ValueError, UserWarning):
        return None
    p, amount = int(player[1:]), int(rest[0])
    if state.actor_index != p - 1 or hand.turn != p:
        return None
    theirs = _try(state.verify_completion_betting_or_raising_to, amount)
    ours = _try(hand.verify_bet_or_raise_to, p, amount)
    if (theirs is None) == (ours is None):
        return None
    name = classify(ours, theirs, hand, state, amount)
    return None if name.startswith("unexplained") else name


def compare_replay(spec: dict[str, Any], actions: list[str], report: Report, game: Any = None) -> None:
    """Write the hand as PHH, replay it through replay_file and compare with pokerkit."""
    _, state = new_state(spec)
    for a in actions:
        _pk().notation.parse_action(state, a)
        while state.can_select_runout_count():
            state.select_runout_count()
    [result] = replay_file("fuzz.phh", phh_text(spec, actions))
    report.compared += 1
    theirs, ours = list(state.stacks), result["finishing_stacks"]
    if result["error"] is None and ours == theirs:
        report.matched += 1
        return
    if result["error"] is None and spec.get("variant") == "FO/8":
        known = _hilo_difference(actions, state, ours)
        if known:
            report.known_hands[known] += 1
            return
    elif result["error"] is None and max(abs(a - b) for a, b in zip(ours, theirs, strict=True)) < len(ours):
        report.known_hands["odd-chips"] += 1  # a few chips apart: how odd chips are given
        return
    known = _known_setup(ours_for(spec))
    if known:
        report.known_hands[known] += 1
        return
    report.problems.append(
        f"replay: pokerkit {list(state.stacks)}, ours {result['finishing_stacks']} "
        f"error {result['error']}\n" + phh_text(spec, actions)
    )


def _hilo_difference(actions: list[str], state: Any, ours: list[int]) -> str | None:
    """FO/8: the known difference that explains pokerkit's finishing stacks, if any.

    pokerkit halves every pot once any player has a low, and gives the low half of a pot
    where none of its players has one to all of them (``hilo-side-pot-no-low``); ours gives
    that pot whole to the high. pokerkit's award is redone by our rule (the half moved to the
    pot's high winners) and must then match ours but for odd chips (``odd-chips``: fewer than
    one chip per player apart, the totals equal)."""
    pk = _pk()
    board = "".join(a.split()[2] for a in actions if a.startswith("d db "))
    holes = {int(a.split()[2][1:]) - 1: a.split()[3] for a in actions if a.startswith("d dh ")}
    pushes = [op for op in state.operations if isinstance(op, pk.ChipsPushing)]
    redone, moved = list(state.stacks), False
    for op in pushes:
        if op.hand_type_index != 1:
            continue
        takers = [i for i, a in enumerate(op.amounts) if a]
        lows = {_has_low(holes[i], board) for i in takers}
        if lows != {False}:
            if None in lows:
                return None  # pokerkit and we read a low otherwise
            continue
        [high] = [o for o in pushes if o.pot_index == op.pot_index and o.hand_type_index == 0]
        winners = [i for i, a in enumerate(high.amounts) if a]
        share, odd = divmod(sum(op.amounts), len(winners))
        for i in takers:
            redone[i] -= op.amounts[i]
        for i in winners:
            redone[i] += share + (odd if i == winners[0] else 0)
        moved = True
    if sum(redone) != sum(ours) or max(abs(a - b) for a, b in zip(ours, redone, strict=True)) >= len(ours):
        return None
    if moved:
        return "hilo-side-pot-no-low"
    return "odd-chips" if redone != ours else None


def _has_low(hole: str, board: str) -> bool | None:
    """Whether the hand has a low eight or better, by ours and by pokerkit (None if they differ)."""
    from engine import omaha
    from engine.cards import parse_cards

    ours = omaha.low_ranks(parse_cards(hole), parse_cards(board)) is not None
    try:
        _pk().OmahaEightOrBetterLowHand.from_game(hole, board)
        theirs = True
    except ValueError:
        theirs = False
    return ours if ours == theirs else None


def run(hands: int, seed: int, variant: str = "NT") -> Report:
    """Play ``hands`` random hands of ``variant`` (NT, FT, PO or FO/8) from ``seed``."""
    if variant not in VARIANTS:
        raise ValueError(f"variant must be one of {', '.join(VARIANTS)}, not {variant!r}")
    rng = random.Random(seed)
    report = Report()
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for _ in range(hands):
            report.hands += 1
            try:
                played = play_one(rng, report, variant)
                if played is None:
                    continue
                spec, actions = played
                compare_replay(spec, actions, report)
                check_mutation(rng, spec, actions, report)
            except AssertionError:  # pokerkit's own internal checks, seen in rare hands
                report.known_hands["pokerkit-assertion"] += 1
    return report


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--variant", choices=VARIANTS, default="NT", help="the PHH variant to play")
    parser.add_argument("--show", type=int, default=3, help="problems to print in full")
    args = parser.parse_args()
    try:
        import pokerkit  # noqa: F401
    except ImportError:
        print("pokerkit is not installed: pip install -e '.[bench]'")
        return 2
    start = time.perf_counter()
    report = run(args.hands, args.seed, args.variant)
    elapsed = time.perf_counter() - start
    print(f"{report.hands} {args.variant} hands in {elapsed:.1f} s (seed {args.seed})")
    print(f"compared {report.compared}, identical finishing stacks {report.matched}")
    print("hands set aside for a known difference:", dict(report.known_hands))
    print("decisions where the engines disagree:", dict(report.decisions))
    print("hands with such a decision:", dict(report.decision_hands))
    print("mutations:", dict(sorted(report.mutations.items())))
    print(f"unexplained problems: {len(report.problems)}")
    for problem in report.problems[: args.show]:
        print("-" * 60)
        print(problem)
    return 1 if report.problems else 0


if __name__ == "__main__":
    raise SystemExit(main())
