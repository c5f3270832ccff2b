"""The cash games' club: its members and the director's grants of play chips, a fold of the
club's events longer-lived than any session (:class:`Club`, :func:`club_fold`), and each
member's balance: the grants plus, for every session, what they cashed out less what they
bought in (:func:`balances`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, TypeAlias

from engine.cash_session import CashSession
from engine.cash_stakes import _verify_chips, clean_name
from engine.errors import N_, IllegalAction, InvalidInput
from engine.events import Event, History, apply_event

Chips: TypeAlias = int
MemberId: TypeAlias = int


@dataclass(frozen=True)
class Member:
    """A member of the club."""

    id: MemberId
    name: str
    joined_at: float


@dataclass(frozen=True)
class Grant:
    """Play chips the director gave a member (a starting balance, a weekly top-up)."""

    seq: int
    member: MemberId
    amount: Chips
    reason: str
    at: float


@dataclass(frozen=True)
class Club:
    """The club's members and grants: the fold of the club's events.

    Events: ``created`` (``{}``), ``member_added`` (``{"name", "grant"?, "reason"?}``),
    ``chips_granted`` (``{"member", "amount", "reason"?}``) and ``undo``.

    >>> club = club_fold([Event(1, "created", {}, 0.0),
    ...                   Event(2, "member_added", {"name": "Ann", "grant": 10000}, 1.0)])
    >>> club.member_named("ann"), club.granted(1)
    (Member(id=1, name='Ann', joined_at=1.0), 10000)
    """

    seq: int = 0
    members: tuple[Member, ...] = ()
    grants: tuple[Grant, ...] = ()
    history: History = field(default_factory=History, repr=False, compare=False)

    def member(self, member_id: MemberId) -> Member:
        for m in self.members:
            if m.id == member_id:
                return m
        raise InvalidInput("There is no club member number {member}.", member=str(member_id))

    def member_named(self, name: str) -> Member | None:
        key = " ".join(name.split()).casefold()
        for m in self.members:
            if m.name.casefold() == key:
                return m
        return None

    def granted(self, member_id: MemberId) -> Chips:
        return sum(g.amount for g in self.grants if g.member == member_id)

    @property
    def can_undo(self) -> bool:
        return self.history.depth > 0

    @property
    def redo_event(self) -> Event | None:
        """The entry a ``redo`` would put back (the last one undone), if any."""
        return self.history.undone[-1] if self.history.undone else None

    def names(self) -> dict[MemberId, str]:
        return {m.id: m.name for m in self.members}


def _member_id(payload: Mapping[str, Any], key: str = "member") -> MemberId:
    value = payload.get(key)
    if isinstance(value, bool):
        raise InvalidInput("{value} is not a member number.", value=repr(value))
    try:
        return int(str(value))
    except ValueError:
        raise InvalidInput("{value} is not a member number.", value=repr(value)) from None


def _amount(payload: Mapping[str, Any], key: str = "amount") -> Chips:
    value = payload.get(key)
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidInput("The amount must be a whole number of chips, not {value}.", value=repr(value))
    return value


def _grant(club: Club, member: Member, amount: Chips, reason: object, event: Event) -> Club:
    _verify_chips(amount, "grant", member.name)
    text = " ".join(str(reason or "Grant").split())[:80] or "Grant"
    return replace(club, grants=(*club.grants, Grant(event.seq, member.id, amount, text, event.at)))


def club_apply(club: Club, event: Event) -> Club:
    """The club after one more event; ``EngineError`` if it cannot happen."""
    if event.type == "created":
        if club.seq:
            raise IllegalAction("The club already exists.")
        if event.seq != club.seq + 1:
            raise InvalidInput(
                "Event {event} cannot follow event {previous}.", event=str(event.seq), previous=str(club.seq)
            )
        return Club(seq=event.seq)
    if event.type == "undo" and club.history.depth == 0 and event.seq == club.seq + 1:
        raise IllegalAction("There is nothing to undo in the club.")
    return apply_event(club, event, _CLUB_HANDLERS, N_("club event"))


def _member_added(club: Club, event: Event) -> Club:
    p = event.payload
    name = clean_name(p.get("name"), N_("member's name"))
    existing = club.member_named(name)
    if existing is not None:
        raise IllegalAction("{name} is already a member of the club.", name=existing.name)
    member = Member(max((m.id for m in club.members), default=0) + 1, name, event.at)
    new = replace(club, members=(*club.members, member))
    grant = p.get("grant")
    if grant not in (None, 0):
        new = _grant(new, member, _amount(p, "grant"), p.get("reason") or N_("Starting balance"), event)
    return new


def _chips_granted(club: Club, event: Event) -> Club:
    member = club.member(_member_id(event.payload))
    return _grant(club, member, _amount(event.payload), event.payload.get("reason"), event)


_CLUB_HANDLERS: dict[str, Callable[[Club, Event], Club]] = {
    "member_added": _member_added,
    "chips_granted": _chips_granted,
}


def club_fold(events: Iterable[Event]) -> Club:
    """The club after all ``events`` (the first is ``created``)."""
    club = Club()
    for event in events:
        club = club_apply(club, event)
    return club

def balances(club: Club, sessions: Iterable[CashSession]) -> dict[MemberId, Chips]:
    """Each member's Play Chips: grants, plus what every session cashed out less what it
    bought in (chips on a table are not in the balance until cashed out)."""
    out = {m.id: club.granted(m.id) for m in club.members}
    for session in sessions:
        for member, change in session.balance_changes().items():
            out[member] = out.get(member, 0) + change
    return out


__all__ = ["Club", "Grant", "Member", "balances", "club_apply", "club_fold"]
