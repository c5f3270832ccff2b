"""The cards and the end of a hand: the board and hole cards entered, the showdown (who
shows first, who may muck), and the pots awarded, from the cards or to the winners the
dealer names.

Cards are optional: betting never waits for them. :class:`engine.hand.Hand` has every
method here.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from engine import notation, omaha
from engine.cards import FULL_DECK, Card, check_distinct, format_cards, parse_cards
from engine.errors import IllegalAction, Term
from engine.evaluate import HandRank, evaluate, rank_value
from engine.hand_setup import (
    BOARD_SIZE,
    COMPLETE,
    HOLDEM,
    HOLE_CARDS,
    SHOWDOWN,
    SPLIT_GAMES,
    HandState,
    Seat,
)
from engine.pots import Award, Pot, award_pot, split_high_low

_CARD_BY_TEXT = {str(c): c for c in FULL_DECK}


class CardsAndShowdown(HandState):
    """The cards, the showdown and the award of :class:`engine.hand.Hand`, which holds the
    state they read and change."""

    __slots__ = ()

    if TYPE_CHECKING:  # read from Hand

        @property
        def street(self) -> str: ...

        def pots(self) -> tuple[Pot, ...]: ...

        def _seat_index(self, seat: Seat) -> int: ...

    # ------------------------------------------------------------------ cards

    def verify_deal_board(self, cards: Sequence[Card], keys: Sequence[str] = ()) -> None:
        if self._street == COMPLETE and self.award is not None and self._live == 1:
            raise IllegalAction("No more board cards: the hand is over.")
        allowed = BOARD_SIZE[self._street]
        total = len(self._board) + len(cards)
        if total > allowed:
            if self._street < SHOWDOWN:
                raise IllegalAction(
                    "The board cannot have {total} cards: at most {allowed} on the {street}.",
                    total=total, allowed=allowed, street=Term(self.street),
                )
            raise IllegalAction(
                "The board cannot have {total} cards: at most {allowed} in a hand.",
                total=total, allowed=allowed,
            )
        self._verify_new_cards(cards, keys)

    def _verify_new_cards(self, cards: Sequence[Card], keys: Sequence[str] = ()) -> None:
        """Refuse a card already out. ``keys`` (each card's text) come from :func:`_cards`,
        which has refused a card given twice."""
        known = self._seen
        if keys:
            if known.isdisjoint(keys):
                return
        else:
            keys = [str(c) for c in cards]
        for k, key in enumerate(keys):
            if key in known or key in keys[:k]:
                c = cards[k]
                raise IllegalAction("The {card} ({code}) has already been dealt.", card=c.name, code=str(c))

    def deal_board(self, cards: Sequence[Card] | str) -> None:
        """Enter community cards (optional: betting never waits for them)."""
        cards, text, keys = _cards(cards)
        self.verify_deal_board(cards, keys)
        self._board.extend(cards)
        self._seen.update(keys)
        self.log.append(notation.board(text))

    def verify_deal_hole(self, seat: Seat, cards: Sequence[Card], keys: Sequence[str] = ()) -> None:
        i = self._seat_index(seat)
        needed = HOLE_CARDS[self.setup.game]
        if len(cards) != needed:
            raise IllegalAction(
                "Seat {seat} must be dealt {needed} hole cards, not {count}.", seat=seat, needed=needed, count=len(cards)
            )
        if i in self._holes:
            raise IllegalAction("Seat {seat} already has hole cards.", seat=seat)
        if self._street == COMPLETE:
            raise IllegalAction("Seat {seat} cannot be dealt cards: the hand is over.", seat=seat)
        self._verify_new_cards(cards, keys)

    def deal_hole(self, seat: Seat, cards: Sequence[Card] | str) -> None:
        """Enter a seat's hole cards (optional)."""
        cards, text, keys = _cards(cards)
        self.verify_deal_hole(seat, cards, keys)
        self._holes[self._index[seat]] = cards
        self._seen.update(keys)
        self.log.append(f"d dh p{seat} {text}")

    # ------------------------------------------------------------------ showdown

    @property
    def all_hands_face_up(self) -> bool:
        """True at a showdown where someone is all-in: every hand is tabled at once."""
        return self._street == SHOWDOWN and any(
            not self._folded[i] and self._stack[i] == 0 for i in range(self._n)
        )

    def showdown_order(self) -> tuple[Seat, ...]:
        """Who shows first: the last to bet or raise on the river, else the first live
        seat left of the button; then clockwise. Empty before the showdown."""
        if self._street != SHOWDOWN:
            return ()
        live = [i for i in range(self._n) if not self._folded[i]]
        first = self._river_aggressor if self._river_aggressor in live else live[0]
        k = live.index(first)
        return tuple(self.seats[i] for i in live[k:] + live[:k])

    def next_to_show(self) -> Seat | None:
        """The first seat in showdown order that has neither shown nor mucked."""
        for seat in self.showdown_order():
            i = self._index[seat]
            if i not in self._shown and i not in self._mucked:
                return seat
        return None

    def best_shown(self) -> tuple[Seat, ...]:
        """Seats whose shown hands are the best shown so far (needs the five board cards)."""
        if len(self._board) != 5:
            return ()
        best, seats = -1, []
        for i, cards in self._shown.items():
            if cards and i not in self._mucked:
                v = self._value(cards)
                if v > best:
                    best, seats = v, [self.seats[i]]
                elif v == best:
                    seats.append(self.seats[i])
        return tuple(seats)

    def can_win(self, cards: Sequence[Card] | str) -> bool:
        """Whether these hole cards beat or tie every hand shown so far; a player who
        cannot mucks (seed 000). True when nothing is shown or the board is incomplete."""
        cards = _cards(cards)[0]
        best = self.best_shown()
        if not best:
            return True
        shown = self._shown[self._index[best[0]]]
        assert shown is not None
        return self._value(cards) >= self._value(shown)

    def verify_show(self, seat: Seat, cards: Sequence[Card] | None = None) -> None:
        i = self._seat_index(seat)
        # The player who won when everyone else folded may show (PHH, as pokerkit).
        fold_out = self._street == COMPLETE and self._live == 1
        if self._street != SHOWDOWN and not fold_out:
            raise IllegalAction("Seat {seat} cannot show: the hand is not at the showdown.", seat=seat)
        if self._folded[i]:
            raise IllegalAction("Seat {seat} cannot show: they folded.", seat=seat)
        if (i in self._shown and not fold_out) or i in self._mucked:
            raise IllegalAction("Seat {seat} has already shown or mucked.", seat=seat)
        if cards is not None:
            needed = HOLE_CARDS[self.setup.game]
            if len(cards) != needed:
                raise IllegalAction(
                    "Seat {seat} must show {needed} cards, not {count}.", seat=seat, needed=needed, count=len(cards)
                )
            dealt = self._holes.get(i) or (self._shown.get(i) if fold_out else None)
            if dealt is not None:
                if set(dealt) != set(cards):
                    raise IllegalAction(
                        "Seat {seat} was dealt {dealt}, not {cards}.",
                        seat=seat, dealt=format_cards(dealt), cards=format_cards(cards),
                    )
            else:
                self._verify_new_cards(cards)

    def show(self, seat: Seat, cards: Sequence[Card] | str | None = None) -> None:
        """Table a hand at the showdown (``cards`` None: shown but not entered)."""
        parsed, text, keys = _cards(cards) if cards else (None, "????", ())
        self.verify_show(seat, parsed)
        i = self._index[seat]
        if parsed is not None or i not in self._shown:
            self._shown[i] = parsed
        self._seen.update(keys)
        self.log.append(notation.show(seat, text))

    def verify_muck(self, seat: Seat) -> None:
        i = self._seat_index(seat)
        if self._street != SHOWDOWN:
            raise IllegalAction("Seat {seat} cannot muck: the hand is not at the showdown.", seat=seat)
        if self._folded[i] or i in self._shown or i in self._mucked:
            raise IllegalAction("Seat {seat} has no hand left to muck.", seat=seat)
        if self.all_hands_face_up:
            raise IllegalAction(
                "Seat {seat} cannot muck: a player is all-in, so every hand is turned face up.",
                seat=seat
            )
        contenders = sum(
            1 for j in range(self._n) if not self._folded[j] and j not in self._mucked
        )
        if contenders == 1:
            raise IllegalAction("Seat {seat} is the last hand left and cannot muck.", seat=seat)

    def muck(self, seat: Seat) -> None:
        """Give up at the showdown without showing: no claim on any pot."""
        self.verify_muck(seat)
        self._mucked.add(self._index[seat])
        self.log.append(notation.muck(seat))

    # ------------------------------------------------------------------ award

    def _verify_award(self) -> None:
        if self._street != SHOWDOWN:
            if self._street == COMPLETE:
                raise IllegalAction("The pots have already been awarded.")
            raise IllegalAction(
                "The pots cannot be awarded on the {street}: the betting is not over.",
                street=Term(self.street),
            )

    def award_from_cards(self) -> Award:
        """Award every pot to its best hand (board plus shown or dealt hole cards)."""
        self._verify_award()
        pots = self.pots()
        contenders_all = [
            i for i in range(self._n) if not self._folded[i] and i not in self._mucked
        ]
        ranks: dict[int, int] = {}
        if len(contenders_all) > 1:
            if len(self._board) != 5:
                raise IllegalAction(
                    "The board has {count} cards: all five are needed to award from cards.",
                    count=len(self._board),
                )
            for i in contenders_all:
                cards = self._shown.get(i) or self._holes.get(i)
                if not cards:
                    raise IllegalAction(
                        "Seat {seat}'s cards are unknown and were never shown: "
                        "the pots cannot be awarded from the cards.",
                        seat=self.seats[i],
                    )
                ranks[i] = self._value(cards)
        split = self.setup.game in SPLIT_GAMES and bool(ranks)
        lows = {i: omaha.low_ranks(self._cards_of(i), self._board) for i in ranks} if split else {}
        results = []
        names: dict[int, str] = {}  # a hand's name, read once for all the pots it wins
        for k, pot in enumerate(pots):
            eligible = [self._index[s] for s in pot.eligible]
            contenders = [i for i in eligible if i not in self._mucked] or eligible
            name = None
            low_seats: list[int] = []
            if len(contenders) > 1 and all(i in ranks for i in contenders):
                # Hi-lo: a pot is halved only when a player who can win it has a low; else
                # the high takes it whole.
                with_low = [i for i in contenders if lows.get(i) is not None]
                if with_low:
                    best_low = min(lows[i] or () for i in with_low)
                    low_seats = [i for i in with_low if lows[i] == best_low]
                best = max(ranks[i] for i in contenders)
                contenders = [i for i in contenders if ranks[i] == best]
                first = contenders[0]
                name = names.get(first) or names.setdefault(first, self._hand_rank(first).name)
            high = [self.seats[i] for i in contenders]
            if low_seats:
                results.append(split_high_low(
                    k, pot, high, [self.seats[i] for i in low_seats], self.setup.button, name,
                    omaha.low_name(lows[low_seats[0]]),
                ))
            else:
                results.append(award_pot(k, pot, high, self.setup.button, name))
        return self._finish(Award(tuple(results)), notation.award(None))

    def _cards_of(self, i: int) -> tuple[Card, ...]:
        return self._shown.get(i) or self._holes.get(i) or ()

    def _hand_rank(self, i: int) -> HandRank:
        cards = self._shown.get(i) or self._holes.get(i) or ()
        if self.setup.game == HOLDEM:
            return evaluate((*cards, *self._board))
        return omaha.best_hand(cards, self._board)

    def _value(self, hole: Sequence[Card]) -> int:
        """The value of a hand of these hole cards with the board, as the game reads it."""
        if self.setup.game == HOLDEM:
            return rank_value((*hole, *self._board))
        return omaha.rank_value(hole, self._board)

    def award_to(self, winners: Sequence[Sequence[Seat]], lows: Sequence[Sequence[Seat]] | None = None) -> Award:
        """Award the pots to the winners the dealer names, pot by pot, main pot first; in a
        hi-lo game ``lows`` names each pot's low winners too (empty: no low, the high takes
        the pot whole)."""
        self._verify_award()
        split = self.setup.game in SPLIT_GAMES
        if split and lows is None:
            raise IllegalAction(
                "This is a hi-lo game: say who wins the low half of each pot, or that there is no low."
            )
        if not split and lows is not None:
            raise IllegalAction("There is no low half to award: only a hi-lo game splits its pots.")
        pots = self.pots()
        if len(winners) != len(pots):
            if len(pots) == 1:
                raise IllegalAction("There is 1 pot to award, not {count}.", count=len(winners))
            raise IllegalAction(
                "There are {pots} pots to award, not {count}.", pots=len(pots), count=len(winners)
            )
        if lows is not None and len(lows) != len(pots):
            raise IllegalAction("Say the low of each of the {pots} pots, not of {count}.", pots=len(pots), count=len(lows))
        results = []
        for k, (pot, seats) in enumerate(zip(pots, winners, strict=True)):
            if not seats:
                if k == 0:
                    raise IllegalAction("The main pot needs at least one winner.")
                raise IllegalAction("Side pot {number} needs at least one winner.", number=k)
            for s in seats:
                if s not in pot.eligible:
                    if k == 0:
                        raise IllegalAction("Seat {seat} cannot win the main pot: it was not in it.", seat=s)
                    raise IllegalAction(
                        "Seat {seat} cannot win side pot {number}: it was not in it.", seat=s, number=k
                    )
            low = list(lows[k]) if lows is not None else []
            for s in low:
                if s not in pot.eligible:
                    if k == 0:
                        raise IllegalAction("Seat {seat} cannot win the low of the main pot: it was not in it.", seat=s)
                    raise IllegalAction(
                        "Seat {seat} cannot win the low of side pot {number}: it was not in it.", seat=s, number=k
                    )
            if low:
                results.append(split_high_low(k, pot, list(seats), low, self.setup.button))
            else:
                results.append(award_pot(k, pot, list(seats), self.setup.button))
        return self._finish(Award(tuple(results)), notation.award(winners, lows))

    def _finish(self, award: Award, note: str) -> Award:
        for seat, chips in award.won().items():
            self._stack[self._index[seat]] += chips
        for j in range(self._n):
            self._committed[j] = 0
        self._dead = 0
        self._antes = None
        self._street = COMPLETE
        self.award = award
        self.log.append(note)
        return award


def _cards(given: Sequence[Card] | str) -> tuple[tuple[Card, ...], str, tuple[str, ...]]:
    """The cards, their compact text (``AsKd``) and each card's text; refuses a card twice.

    Compact text is read without detours: replaying hands is mostly entering cards.
    """
    if isinstance(given, str):
        n = len(given)
        by_text = _CARD_BY_TEXT
        if n == 4:  # hole cards
            a, b = given[:2], given[2:]
            first, second = by_text.get(a), by_text.get(b)
            if first is not None and second is not None and a != b:
                return (first, second), given, (a, b)
        elif n == 2 and (card := by_text.get(given)) is not None:  # a turn or river card
            return (card,), given, (given,)
        if n <= 10 and not n % 2:
            keys = tuple([given[k : k + 2] for k in range(0, n, 2)])
            try:
                cards = tuple([by_text[k] for k in keys])
            except KeyError:
                cards = ()
            if cards and len(set(keys)) == len(keys):
                return cards, given, keys
        cards = parse_cards(given)
    else:
        cards = tuple(given)
        check_distinct(cards)
    keys = tuple([str(c) for c in cards])
    return cards, "".join(keys), keys
