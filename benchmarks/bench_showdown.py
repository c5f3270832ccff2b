"""How long does a showdown take in each game? Nine players all in preflop (so every hand is
tabled and there are side pots), the board dealt, the pots awarded from the cards.

    python benchmarks/bench_showdown.py [--showdowns 2000] [--players 9] [--repeat 3] [--seed 2026]

Prints, for Hold'em, Omaha, five-card Omaha and Omaha hi-lo (each pot's high and low), the time
of one whole award from the cards (every pot, every hand read) and that time per player. The goal is well under a millisecond
per player. Each figure is the best of ``--repeat`` rounds over the same seeded deals.
"""

from __future__ import annotations

import argparse
import gc
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.cards import FULL_DECK
from engine.hand import Hand, HandSetup
from engine.hand_setup import HOLDEM, HOLE_CARDS, NO_LIMIT, OMAHA, OMAHA5, OMAHA_HILO, POT_LIMIT

GAMES = ((HOLDEM, NO_LIMIT, "Hold'em"), (OMAHA, POT_LIMIT, "Omaha"), (OMAHA5, POT_LIMIT, "five-card Omaha"),
         (OMAHA_HILO, POT_LIMIT, "Omaha hi-lo"))


def at_showdown(rng: random.Random, game: str, betting: str, players: int) -> Hand:
    """Every player all in before the flop with a different stack, the cards dealt."""
    stacks = {seat: 1000 + 100 * seat for seat in range(1, players + 1)}
    hand = Hand(HandSetup(stacks, players, 1, 2, 5, 10, betting=betting, game=game))
    deck = list(FULL_DECK)
    rng.shuffle(deck)
    size = HOLE_CARDS[game]
    for k, seat in enumerate(range(1, players + 1)):
        hand.deal_hole(seat, deck[k * size:(k + 1) * size])
    while hand.turn is not None:
        legal = hand.legal_actions()
        assert legal is not None
        if legal.can_all_in and legal.all_in_amount == legal.max_bet_or_raise_to:
            hand.all_in(hand.turn)
        elif legal.max_bet_or_raise_to is not None:
            hand.raise_to(hand.turn, legal.max_bet_or_raise_to)  # pot limit: the pot, again and again
        else:
            hand.call(hand.turn)
    hand.deal_board(deck[players * size:players * size + 5])
    return hand


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--showdowns", type=int, default=2000)
    parser.add_argument("--players", type=int, default=9)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args(argv)
    if not 2 <= args.players <= 9:
        parser.error("--players must be from 2 to 9 (five-card Omaha deals 45 hole cards at nine)")
    print(f"{args.showdowns} showdowns of {args.players} players, all in before the flop:")
    for game, betting, name in GAMES:
        rng = random.Random(args.seed)
        hands = [at_showdown(rng, game, betting, args.players) for _ in range(args.showdowns)]
        pots = sum(len(h.pots()) for h in hands) / len(hands)
        best = float("inf")
        for _ in range(args.repeat):
            fresh = [Hand.replay(h.setup, h.log) for h in hands]
            gc.disable()
            start = time.perf_counter()
            for hand in fresh:
                hand.award_from_cards()
            best = min(best, time.perf_counter() - start)
            gc.enable()
        each = best / len(hands) * 1000
        print(f"  {name:<16} {each:7.3f} ms a showdown ({pots:.1f} pots), {each / args.players * 1000:6.1f} µs a player")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
