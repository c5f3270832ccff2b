"""Differential fuzzing of the hand engine against pokerkit, the reference of the PHH standard.

    python benchmarks/fuzz_vs_pokerkit.py --hands 20000 --seed 1 [--show 5]

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

Known, deliberate differences (seed 000 wins over pokerkit) are counted apart; see
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
from engine.phh import read_phh, replay_file, setup_of  # noqa: E402

RANKS = "23456789TJQKA"
SUITS = "cdhs"
DECK = [r + s for r in RANKS for s in SUITS]

# Categories of disagreement that are settled in favour of seed 000 (ours is right).
KNOWN = {
    "short-blind": "a short big blind or straddle: ours asks the full blind to call and "
    "counts the minimum raise from it (seed 000)",
    "no-reopen": "a short all-in did not reopen the betting for a player who already acted",
    "heads-up-equal-blinds": "heads-up with equal blinds: ours lets the button (p2) act first",
    "odd-chips": "odd chips one each, pot by pot, from the first winner left of the button",
    "board-before-show": "pokerkit refuses a board card before the all-in hands are shown",
}


@dataclass
class Report:
    hands: int = 0
    compared: int = 0
    matched: int = 0
    known_hands: Counter[str] = field(default_factory=Counter)
    decisions: Counter[str] = field(default_factory=Counter)
    mutations: Counter[str] = field(default_factory=Counter)
    problems: list[str] = field(default_factory=list)


def random_hand_spec(rng: random.Random) -> dict[str, Any]:
    """Players, blinds, antes, straddles and stacks for one random hand (PHH order)."""
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
    return {
        "n": n,
        "blinds": blinds,
        "antes": antes,
        "stacks": stacks,
        "min_bet": bb if rng.random() < 0.9 else rng.choice([max(1, bb // 2), 2 * bb]),
        "trim": rng.random() < 0.1,
    }


def _pk() -> Any:
    import pokerkit

    return pokerkit


def new_state(spec: dict[str, Any]) -> tuple[Any, Any]:
    pk = _pk()
    a = pk.Automation
    game = pk.NoLimitTexasHoldem(
        (a.ANTE_POSTING, a.BET_COLLECTION, a.BLIND_OR_STRADDLE_POSTING, a.CARD_BURNING,
         a.HAND_KILLING, a.CHIPS_PUSHING, a.CHIPS_PULLING),
        spec["trim"],
        spec["antes"],
        spec["blinds"],
        spec["min_bet"],
        mode=pk.Mode.CASH_GAME,
    )
    return game, game(spec["stacks"], spec["n"])


def phh_header(spec: dict[str, Any]) -> str:
    return (
        'variant = "NT"\n'
        f"ante_trimming_status = {'true' if spec['trim'] else 'false'}\n"
        f"antes = {spec['antes']}\nblinds_or_straddles = {spec['blinds']}\n"
        f"min_bet = {spec['min_bet']}\nstarting_stacks = {spec['stacks']}\n"
    )


def phh_text(spec: dict[str, Any], actions: list[str]) -> str:
    body = ",\n".join(f'  "{a}"' for a in actions)
    return phh_header(spec) + f"actions = [\n{body}\n]\n"


def ours_for(spec: dict[str, Any]) -> Hand:
    [phh] = read_phh(phh_text(spec, []))
    return Hand(setup_of(phh))


def _try(fn: Any, *args: Any) -> str | None:
    """None when ``fn(*args)`` works, else the error message."""
    try:
        fn(*args)
    except (ValueError, UserWarning) as e:
        return str(e) or type(e).__name__
    return None


def classify(ours_error: str | None, theirs_error: str | None, hand: Hand, state: Any) -> str:
    """A name for a disagreement on one action's legality."""
    if ours_error and "did not reopen" in ours_error:
        return "no-reopen"
    known = _known_setup(hand)
    if known:
        return known
    return f"unexplained: ours={ours_error!r} pokerkit={theirs_error!r}"


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


def play_one(rng: random.Random, report: Report) -> tuple[dict[str, Any], list[str]] | None:
    """Play one random hand in both engines; return its spec and PHH actions."""
    spec = random_hand_spec(rng)
    _game, state = new_state(spec)
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
        hand.apply(entry)

    for p in range(spec["n"]):
        cards = deck.pop() + deck.pop()
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
            entry = choose_action(rng, state, hand, p, report, known)
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
    return spec, actions


def choose_action(
    rng: random.Random, state: Any, hand: Hand, p: int, report: Report, known: set[str]
) -> str | None:
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
    candidates += [f"p{p} cc"] * 3
    if state.checking_or_calling_amount:
        candidates += [f"p{p} f"] * 2
    elif rng.random() < 0.05:
        candidates.append(f"p{p} f")
    rng.shuffle(candidates)
    for entry in candidates:
        words = entry.split()
        if words[1] == "cbr":
            amount = int(words[2])
            theirs = _try(state.verify_completion_betting_or_raising_to, amount)
            ours = _try(hand.verify_bet_or_raise_to, p, amount)
        else:
            theirs, ours = None, None
        if (theirs is None) != (ours is None):
            name = classify(ours, theirs, hand, state)
            report.decisions[name] += 1
            if name.startswith("unexplained"):
                report.problems.append(f"{name} at {entry} in hand {hand.setup} {hand.log}")
            continue
        if theirs is None:
            return entry
    return f"p{p} cc"


def mutate(rng: random.Random, spec: dict[str, Any], actions: list[str]) -> tuple[str, list[str]]:
    """One illegal (or possibly legal) variant of a legal hand's action list."""
    kind = rng.choice(
        ["below-min", "above-stack", "out-of-turn", "after-end", "raise-anyway", "inserted"]
    )
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
    # Replay pokerkit to just before k to know the limits there.
    _, state = new_state(spec)
    for a in actions[:k]:
        while state.can_select_runout_count():
            state.select_runout_count()
        _pk().notation.parse_action(state, a)
    lo = state.min_completion_betting_or_raising_to_amount
    stack_to = state.stacks[state.actor_index] + state.bets[state.actor_index]
    if kind == "below-min":
        amount = (lo - 1) if lo is not None else max(state.bets) + 1
        new = f"{player} cbr {amount}"
    elif kind == "above-stack":
        new = f"{player} cbr {stack_to + rng.randint(1, 50)}"
    elif kind == "raise-anyway":
        new = f"{player} cbr {lo if lo is not None else max(state.bets) + spec['min_bet']}"
    else:
        others = [q for q in range(1, spec["n"] + 1) if f"p{q}" != player]
        new = f"p{rng.choice(others)} {rng.choice(['cc', 'f'])}"
    return kind, [*actions[:k], new, *actions[k + 1 :]]


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
    theirs = first_refusal_pokerkit(spec, mutated)
    [result] = replay_file("fuzz.phh", phh_text(spec, mutated))
    error = result["error"]
    ours = None if error is None else error["action_index"]
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
    if known:
        report.mutations[f"{kind}: known {known}"] += 1
        return
    report.mutations[f"{kind}: DIFFERENT"] += 1
    report.problems.append(
        f"mutation {kind}: pokerkit refuses at {theirs}, ours at {ours} ({message})\n"
        + phh_text(spec, mutated)
    )


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
    if result["error"] is None and max(abs(a - b) for a, b in zip(ours, theirs, strict=True)) < len(ours):
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


def run(hands: int, seed: int) -> Report:
    rng = random.Random(seed)
    report = Report()
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for _ in range(hands):
            report.hands += 1
            try:
                played = play_one(rng, report)
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
    parser.add_argument("--show", type=int, default=3, help="problems to print in full")
    args = parser.parse_args()
    try:
        import pokerkit  # noqa: F401
    except ImportError:
        print("pokerkit is not installed: pip install -e '.[bench]'")
        return 2
    start = time.perf_counter()
    report = run(args.hands, args.seed)
    elapsed = time.perf_counter() - start
    print(f"{report.hands} hands in {elapsed:.1f} s (seed {args.seed})")
    print(f"compared {report.compared}, identical finishing stacks {report.matched}")
    print("hands set aside for a known difference:", dict(report.known_hands))
    print("decisions where the engines disagree:", dict(report.decisions))
    print("mutations:", dict(sorted(report.mutations.items())))
    print(f"unexplained problems: {len(report.problems)}")
    for problem in report.problems[: args.show]:
        print("-" * 60)
        print(problem)
    return 1 if report.problems else 0


if __name__ == "__main__":
    raise SystemExit(main())
