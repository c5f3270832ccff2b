import random

import pytest

from engine.cards import FULL_DECK, Card, format_cards, new_deck, parse_cards
from engine.errors import EngineError, InvalidInput


def test_parse_and_print_round_trip():
    for card in FULL_DECK:
        assert Card.parse(str(card)) == card
        assert repr(card) == str(card)


def test_parse_accepts_ten_written_as_10():
    assert Card.parse("10d") == Card.parse("Td")
    assert parse_cards("10h Jh") == parse_cards("ThJh")


def test_parse_whole_hand():
    assert parse_cards("AsKd") == (Card(14, "s"), Card(13, "d"))
    assert format_cards(parse_cards("7h 8h 9c")) == "7h8h9c"


@pytest.mark.parametrize("text", ["", "A", "Ax", "1s", "AsK", "??", "Zs"])
def test_bad_cards_are_refused_with_a_reason(text):
    if text == "":
        assert parse_cards(text) == ()
        return
    with pytest.raises(InvalidInput) as err:
        parse_cards(text)
    assert "card" in str(err.value)
    assert isinstance(err.value, EngineError) and isinstance(err.value, ValueError)


def test_the_same_card_twice_is_a_fouled_deck():
    with pytest.raises(InvalidInput, match="appears twice"):
        parse_cards("AsAs")


def test_deck_has_52_distinct_cards_and_shuffles_only_with_rng():
    assert len(set(FULL_DECK)) == 52
    assert new_deck() == list(FULL_DECK)
    a, b = new_deck(random.Random(1)), new_deck(random.Random(1))
    assert a == b and a != list(FULL_DECK) and sorted(a) == sorted(FULL_DECK)


def test_codes_are_0_to_51():
    assert sorted(c.code for c in FULL_DECK) == list(range(52))
    assert Card.parse("As").name == "Ace of spades"
