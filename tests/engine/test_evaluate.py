from collections import Counter
from itertools import combinations, combinations_with_replacement, pairwise

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.cards import FULL_DECK, Card, parse_cards
from engine.errors import EngineError, InvalidInput
from engine.evaluate import Category, HandRank, evaluate, rank_value


def hand(text: str) -> HandRank:
    return evaluate(parse_cards(text))


# --- All five-card hands -----------------------------------------------------------


@pytest.mark.slow
def test_every_five_card_hand_has_its_known_category_count_and_7462_distinct_ranks():
    """The 2,598,960 five-card hands fall into the textbook category counts, and
    there are exactly 7,462 distinct hand values among them."""
    by_category: Counter[int] = Counter()
    representative: dict[int, tuple[Card, ...]] = {}
    for cards in combinations(FULL_DECK, 5):
        value = rank_value(cards)
        by_category[value >> 20] += 1
        representative.setdefault(value, cards)

    counts = {Category(c): n for c, n in by_category.items()}
    assert counts == {
        Category.STRAIGHT_FLUSH: 40,
        Category.FOUR_OF_A_KIND: 624,
        Category.FULL_HOUSE: 3_744,
        Category.FLUSH: 5_108,
        Category.STRAIGHT: 10_200,
        Category.THREE_OF_A_KIND: 54_912,
        Category.TWO_PAIR: 123_552,
        Category.PAIR: 1_098_240,
        Category.HIGH_CARD: 1_302_540,
    }
    assert sum(counts.values()) == 2_598_960
    assert len(representative) == 7_462

    # One readable HandRank per value: all distinct, ordered as the values are.
    ranked = [evaluate(representative[v]) for v in sorted(representative)]
    assert len(set(ranked)) == 7_462
    assert all(a < b for a, b in pairwise(ranked))
    assert [r.value for r in ranked] == sorted(representative)
    assert all((r.category, r.ranks) == reference_five(r.cards) for r in ranked)
    assert sum(r.name == "Royal flush" for r in ranked) == 1
    royals = [c for c in combinations(FULL_DECK[-20:], 5) if hand_name(c) == "Royal flush"]
    assert len(royals) == 4


@pytest.mark.slow
def test_every_six_and_seven_card_pattern_is_the_best_of_its_five_card_subsets():
    """Seed 000: each player makes "the best five-card hand" of their seven cards.

    Checked for every multiset of 6 or 7 ranks (suits dealt round the four), and for every
    set of 5 to 7 ranks in one suit beside unsuited fillers."""
    checked = 0
    for n in (6, 7):
        for ranks in combinations_with_replacement(range(2, 15), n):
            if max(ranks.count(r) for r in ranks) > 4:
                continue
            cards = [Card(r, "cdhs"[(i + ranks[:i].count(r)) % 4]) for i, r in enumerate(ranks)]
            if len(set(cards)) < n:  # four of a rank: give them the four suits
                cards = [Card(r, "cdhs"[j]) for r in set(ranks) for j in range(ranks.count(r))]
            assert rank_value(cards) == max(rank_value(f) for f in combinations(cards, 5)), cards
            checked += 1
    fillers = parse_cards("2c 7d Ks 9c Jd")
    for n in (5, 6, 7):
        for ranks in combinations(range(2, 15), n):
            cards = [Card(r, "h") for r in ranks] + list(fillers[: 7 - n])
            best = evaluate(cards)
            assert best == max(evaluate(f) for f in combinations(cards, 5)), cards
            assert best.value == rank_value(cards)
            checked += 1
    assert checked == 18_395 + 49_205 + 1_287 + 1_716 + 1_716


def hand_name(cards: tuple[Card, ...]) -> str:
    return evaluate(cards).name


# --- The seeds' ranking rules, case by case ------------------------------------------


def test_rule_kicker_decides_between_equal_pairs():
    """Seed 000: "a pair of kings with an ace beats a pair of kings with a queen"."""
    board = "Kd 9c 7h 4s 2d"
    with_ace = hand(f"Ks As {board}")
    with_queen = hand(f"Kh Qc {board}")
    assert with_ace.name == with_queen.name == "Pair of kings"
    assert with_ace > with_queen
    assert with_ace.ranks == (13, 14, 9, 7)


def test_rule_kickers_are_compared_one_by_one():
    """Seed 004: "the higher cards win, then the remaining cards (kickers) one by one"."""
    assert hand("Ah Kd 9c 7s 3h") > hand("As Kc 9d 7h 2s")
    assert hand("Ah Kd 9c 7s 3h") < hand("As Kc 9d 8h 2s")
    assert hand("8h 8d Qc 6s 5h") > hand("8s 8c Jd Th 9s")


def test_rule_only_the_best_five_count_the_sixth_card_never_plays():
    """Seed 000: "If the five best cards are equal, the pot is split": a kicker
    beyond the fifth card does not break the tie."""
    board = "Ac Ad Kh Ks Qc"
    assert hand(f"Jd 3s {board}") == hand(f"2h 3c {board}")
    assert hand(f"Jd 3s {board}").ranks == (14, 13, 12)


def test_rule_wheel_is_the_lowest_straight_and_loses_to_six_high():
    """Seed 000: "The ace counts as the highest card, or as the lowest in the straight
    A-2-3-4-5 (the lowest straight)"."""
    wheel = hand("As 2d 3h 4c 5s")
    six_high = hand("2c 3d 4h 5c 6s")
    assert wheel.category is Category.STRAIGHT
    assert wheel.ranks == (5,)
    assert wheel.name == "Straight, five high"
    assert wheel < six_high
    assert wheel > hand("As Ad Ah Kc Qd")  # still beats three aces
    assert wheel.cards == parse_cards("5s 4c 3h 2d As")


def test_rule_wheel_with_a_sixth_card_is_a_six_high_straight():
    """The best five: A-2-3-4-5-6 plays 2-3-4-5-6."""
    assert hand("As 2d 3h 4c 5s 6d Kc").name == "Straight, six high"


def test_rule_straights_do_not_wrap_around():
    """Seed 000: "straights do not wrap around (Q-K-A-2-3 is not a straight)"."""
    for text in ("Qs Kd Ah 2c 3s", "Ks Ad 2h 3c 4s", "Js Qd Kh Ac 2s"):
        assert hand(text).category is Category.HIGH_CARD, text
    assert hand("Qs Kd Ah 2c 3s").name == "High card, ace"


def test_rule_ace_high_straight_and_royal_flush():
    """Seed 004: "The best is A-K-Q-J-10"."""
    assert hand("As Kd Qh Jc Ts").name == "Straight, ace high"
    assert hand("As Ks Qs Js Ts").name == "Royal flush"
    assert hand("As Ks Qs Js Ts") > hand("Ks Qs Js Ts 9s")
    assert hand("5h 4h 3h 2h Ah").name == "Straight flush, five high"
    assert hand("5h 4h 3h 2h Ah") > hand("Ac Ad Ah As Kc")


def test_rule_suits_never_rank_same_cards_other_suits_split():
    """Seed 004: "Suits never rank: hands with the same cards in different suits split the pot"."""
    spades = hand("As Ks Qs Js 9s")
    hearts = hand("Ah Kh Qh Jh 9h")
    assert spades == hearts
    assert not spades < hearts and not hearts < spades
    assert hand("Ac Kd 7h 5s 2c") == hand("Ad Kc 7s 5h 2d")
    assert spades.cards != hearts.cards  # the cards differ, the rank does not


def test_rule_board_plays_both_players_split():
    """Seed 000: each player makes the best five "using one, both or even none of their
    own cards"; when the board is the best hand for both, they split."""
    board = "Ts Js Qd Kc Ah"
    alice = hand(f"2c 3d {board}")
    bob = hand(f"4h 4s {board}")
    assert alice == bob
    assert alice.name == "Straight, ace high"
    assert set(alice.cards) == set(parse_cards(board))


def test_rule_best_five_of_seven_picks_the_flush_over_the_straight():
    """Seed 004: "Your hand is the best five cards from your two cards and the five
    shared cards"."""
    best = hand("Ah 2h 5h 6c 7h 8d 9h")
    assert best.category is Category.FLUSH
    assert best.name == "Flush, ace high"
    assert best.cards == parse_cards("Ah 9h 7h 5h 2h")


def test_rule_flushes_compare_all_five_cards():
    """Seed 004: "the higher cards win, then the remaining cards (kickers) one by one"."""
    assert hand("Ah Kh 9h 7h 3h") > hand("Ad Kd 9d 7d 2d")
    assert hand("Ah Kh 9h 7h 3h") == hand("Ac Kc 9c 7c 3c")
    assert hand("Ah Kh 9h 7h 3h 2h 4c").ranks == (14, 13, 9, 7, 3)


def test_rule_one_hole_card_plays():
    """Seed 000: "using one, both or even none of their own cards"."""
    best = hand("Ah 3c Kh Qh Jh 2s 7h")
    assert best.name == "Flush, ace high"
    assert Card.parse("3c") not in best.cards


def test_rule_two_trips_make_a_full_house_of_the_higher():
    """Seed 000: "Full house: three of a kind plus a pair"; with two sets of trips the
    higher is the trips and the lower gives the pair."""
    best = hand("Kc Kd Ks 7h 7d 7c 2s")
    assert best.category is Category.FULL_HOUSE
    assert best.ranks == (13, 7)
    assert best.name == "Full house, kings full of sevens"
    assert [c.rank for c in best.cards] == [13, 13, 13, 7, 7]


def test_rule_full_house_takes_the_best_pair_available():
    """Trips plus two pairs: the higher pair fills the house."""
    assert hand("9c 9d 9s 4h 4d Qc Qs").ranks == (9, 12)
    assert hand("9c 9d 9s Qh Qd 7c 7s") < hand("Tc Td Ts 2h 2d 3c 4s")


def test_rule_three_pairs_count_the_best_two_plus_the_best_kicker():
    """Seed 004: "Two pair: two cards of one rank and two of another"; with three pairs the
    third pair's rank can still be the kicker."""
    best = hand("Ac Ad 9s 9h 5c 5d 3s")
    assert best.name == "Two pair, aces and nines"
    assert best.ranks == (14, 9, 5)
    assert hand("Ac Ad 9s 9h 5c 5d Ks").ranks == (14, 9, 13)


def test_rule_quads_use_the_best_kicker():
    """Four of a kind plus the highest remaining card."""
    assert hand("7c 7d 7h 7s 2c 9d Kh").ranks == (7, 13)
    assert hand("7c 7d 7h 7s Kc Kd Kh").ranks == (7, 13)
    assert hand("7c 7d 7h 7s Ac") > hand("7c 7d 7h 7s Kc")


def test_rule_straight_flush_beats_quads_in_seven_cards():
    """Seed 000's order: straight flush, then four of a kind."""
    best = hand("9h 9c 9d 9s Jh Qh Kh")
    assert best.name == "Four of a kind, nines"
    best = hand("9h 9c 9d Th Jh Qh Kh")
    assert best.name == "Straight flush, king high"
    assert best.cards == parse_cards("Kh Qh Jh Th 9h")


def test_rule_flush_beats_the_trips_or_two_pair_beside_it():
    """Seed 000's order: flush above three of a kind and two pair; seven cards can hold
    a flush and trips (or two pair) at once, and the flush plays."""
    assert hand("Ah Kh Qh 9h 2h As Ad").name == "Flush, ace high"
    assert hand("Ah Kh Qh 9h 2h As Ks").name == "Flush, ace high"
    assert hand("Ah Kh Qh 9h 2h 8h 3h").cards == parse_cards("Ah Kh Qh 9h 8h")


def test_category_order_follows_the_rulebook():
    """Seed 000: "Royal flush … Straight flush … Four of a kind … Full house … Flush …
    Straight … Three of a kind … Two pair … One pair … High card"."""
    ladder = [
        "7c 5d 4h 3s 2c",  # high card
        "2c 2d 3h 4s 6c",  # pair
        "2c 2d 3h 3s 4c",  # two pair
        "2c 2d 2h 3s 4c",  # three of a kind
        "As 2d 3h 4s 5c",  # straight (the lowest)
        "2c 3c 4c 5c 7c",  # flush (the lowest)
        "2c 2d 2h 3s 3c",  # full house
        "2c 2d 2h 2s 3c",  # four of a kind
        "As 2s 3s 4s 5s",  # straight flush
    ]
    ranked = [hand(t) for t in ladder]
    assert [r.category for r in ranked] == list(Category)
    assert ranked == sorted(ranked)
    # The weakest of each kind beats the strongest of the kind below.
    assert hand("2c 2d 3h 4s 5c") > hand("Ac Kd Qh Js 9c")
    assert hand("2c 3c 4c 5c 7c") > hand("As Kd Qh Jc Ts")


@pytest.mark.parametrize(
    ("cards", "name"),
    [
        ("As Ks Qs Js Ts", "Royal flush"),
        ("9d 8d 7d 6d 5d", "Straight flush, nine high"),
        ("7c 7d 7h 7s 2c", "Four of a kind, sevens"),
        ("Kc Kd Kh 7s 7c", "Full house, kings full of sevens"),
        ("6c 6d 6h Ts Tc", "Full house, sixes full of tens"),
        ("Ah 9h 7h 4h 2h", "Flush, ace high"),
        ("As 2d 3h 4c 5s", "Straight, five high"),
        ("Td 9c 8h 7s 6d", "Straight, ten high"),
        ("Qc Qd Qh 7s 2c", "Three of a kind, queens"),
        ("Jc Jd 4h 4s 2c", "Two pair, jacks and fours"),
        ("Kc Kd 7h 4s 2c", "Pair of kings"),
        ("6c 6d 7h 4s 2c", "Pair of sixes"),
        ("Ac Jd 7h 4s 2c", "High card, ace"),
        ("9c 7d 5h 4s 2c", "High card, nine"),
    ],
)
def test_names_read_like_the_rulebook(cards, name):
    assert hand(cards).name == name


def test_best_five_cards_are_grouped_as_the_hand_reads():
    """Biggest group first, then by rank; within a rank spades, hearts, diamonds, clubs."""
    assert hand("7s Kc 2d 7d Kd Kh 4c").cards == parse_cards("Kh Kd Kc 7s 7d")
    assert hand("3c Jd 4h Js 3s").cards == parse_cards("Js Jd 3s 3c 4h")
    assert hand("9c 9d 9h Td Jc Qs Kh").cards == parse_cards("Kh Qs Jc Td 9h")
    assert len(hand("2c 5d 9h Js Kd Ac 3h").cards) == 5


# --- Errors --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("As Kd Qh Jc", "A hand is the best five of 5, 6 or 7 cards, not of 4 cards (As Kd Qh Jc)."),
        ("As", "A hand is the best five of 5, 6 or 7 cards, not of 1 card (As)."),
        ("", "A hand is the best five of 5, 6 or 7 cards, not of no cards."),
        (
            "As Kd Qh Jc Ts 9s 8s 7s",
            "A hand is the best five of 5, 6 or 7 cards, not of 8 cards (As Kd Qh Jc Ts 9s 8s 7s).",
        ),
    ],
)
def test_a_hand_needs_five_to_seven_cards(text, message):
    for fn in (evaluate, rank_value):
        with pytest.raises(InvalidInput) as err:
            fn(parse_cards(text))
        assert str(err.value) == message
        assert isinstance(err.value, EngineError)


@pytest.mark.parametrize("fn", [evaluate, rank_value])
def test_the_same_card_twice_is_refused(fn):
    cards = [*parse_cards("As Kd Qh Jc"), Card.parse("As")]
    with pytest.raises(InvalidInput, match=r"Ace of spades \(As\) appears twice"):
        fn(cards)
    cards = [*parse_cards("As Kd Qh Jc 2c 3c"), Card.parse("Kd")]
    with pytest.raises(InvalidInput, match=r"King of diamonds \(Kd\) appears twice"):
        fn(cards)


def test_any_iterable_of_cards_is_accepted():
    cards = parse_cards("As Kd Qh Jc Ts")
    assert evaluate(iter(cards)) == evaluate(list(cards)) == evaluate(cards)
    assert rank_value(c for c in cards) == evaluate(cards).value


# --- Invariants ----------------------------------------------------------------------

HEARTS = tuple(c for c in FULL_DECK if c.suit == "h")
LOW_CARDS = FULL_DECK[:24]  # twos to sevens: pairs, trips, quads, wheels and full houses
SUITED = HEARTS + FULL_DECK[-8:]  # every heart plus kings and aces: flushes beside pairs


def distinct_cards(pool, lo, hi):
    return st.lists(st.sampled_from(pool), min_size=lo, max_size=hi, unique=True)


def hands_of(lo, hi):
    """Random hands, plus hands drawn from small decks so that rare shapes come up often."""
    return st.one_of(
        distinct_cards(FULL_DECK, lo, hi),
        distinct_cards(LOW_CARDS, lo, hi),
        distinct_cards(SUITED, lo, hi),
    )


seven_cards = hands_of(7, 7)
five_to_seven = hands_of(5, 7)


def reference_five(cards: tuple[Card, ...]) -> tuple[int, tuple[int, ...]]:
    """An independent, rule-by-rule ranking of exactly five cards: (category, tie-break)."""
    ranks = sorted((c.rank for c in cards), reverse=True)
    flush = len({c.suit for c in cards}) == 1
    distinct = sorted(set(ranks), reverse=True)
    high = 0
    if len(distinct) == 5 and distinct[0] - distinct[4] == 4:
        high = distinct[0]
    elif distinct == [14, 5, 4, 3, 2]:
        high = 5

    def of_a_kind(n: int) -> list[int]:
        return sorted({r for r in ranks if ranks.count(r) == n}, reverse=True)

    def rest(*used: int) -> tuple[int, ...]:
        return tuple(r for r in ranks if r not in used)

    quads, trips, pairs = of_a_kind(4), of_a_kind(3), of_a_kind(2)
    if high and flush:
        return 8, (high,)
    if quads:
        return 7, (quads[0], *rest(quads[0]))
    if trips and pairs:
        return 6, (trips[0], pairs[0])
    if flush:
        return 5, tuple(ranks)
    if high:
        return 4, (high,)
    if trips:
        return 3, (trips[0], *rest(trips[0]))
    if len(pairs) == 2:
        return 2, (pairs[0], pairs[1], *rest(*pairs))
    if pairs:
        return 1, (pairs[0], *rest(pairs[0]))
    return 0, tuple(ranks)


@given(hands_of(5, 5))
def test_five_cards_agree_with_an_independent_reference(cards):
    best = evaluate(cards)
    assert (best.category, best.ranks) == reference_five(tuple(cards))
    assert sorted(best.cards) == sorted(cards)


@given(seven_cards)
def test_seven_cards_are_the_best_of_their_21_five_card_subsets(cards):
    best = evaluate(cards)
    subsets = [evaluate(five) for five in combinations(cards, 5)]
    assert len(subsets) == 21
    assert best == max(subsets)
    assert evaluate(best.cards) == best
    assert set(best.cards) <= set(cards) and len(best.cards) == 5


@given(five_to_seven)
def test_six_and_seven_cards_are_the_best_of_their_subsets(cards):
    best = evaluate(cards)
    assert best == max(evaluate(five) for five in combinations(cards, 5))
    assert best.value == rank_value(cards)


@given(five_to_seven, five_to_seven)
def test_rank_value_orders_hands_as_handrank_does(a, b):
    ha, hb = evaluate(a), evaluate(b)
    va, vb = rank_value(a), rank_value(b)
    assert (ha < hb) == (va < vb)
    assert (ha == hb) == (va == vb)
    assert (ha > hb) == (va > vb)


@given(five_to_seven, st.randoms(use_true_random=False))
def test_order_of_the_cards_does_not_matter(cards, rng):
    shuffled = list(cards)
    rng.shuffle(shuffled)
    assert evaluate(shuffled) == evaluate(cards)
    assert evaluate(shuffled).cards == evaluate(cards).cards
    assert rank_value(shuffled) == rank_value(cards)


@given(five_to_seven, st.permutations("cdhs"))
def test_suits_never_rank_renaming_suits_changes_nothing(cards, suits):
    rename = dict(zip("cdhs", suits, strict=True))
    renamed = [Card(c.rank, rename[c.suit]) for c in cards]
    assert evaluate(renamed) == evaluate(cards)
    assert rank_value(renamed) == rank_value(cards)
