"""A person's record: the nights played (and imported), their totals, the season points of
each, and the statistics of the hands dealt with the assistant; what the person's page and
``GET /api/people/<id>`` show.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from flask import current_app
from sqlite_utils import Database

from director.club.people import Person, knockouts_by, nights_of, person, sync
from director.club.seasons import view as season_view
from director.core.caches import register_cache
from director.core.i18n import gettext, language
from director.core.store import load_state
from engine.bounties import bounties
from engine.errors import EngineError
from engine.tournament import Tournament

# --- a person's nights and statistics ---------------------------------------------------


@dataclass
class NightRow:
    tournament_id: int
    name: str
    at: float
    entries: int
    place: int | None
    prize: int
    knockouts: int
    bounties: int
    finished: bool
    points: float | None = None
    """The night's points in its season (or its league points), when it has any."""


@dataclass
class HandStats:
    """From the hands dealt with the assistant."""

    hands: int = 0
    won: int = 0
    won_at_showdown: int = 0
    all_ins: int = 0
    all_ins_won: int = 0
    biggest_pot: int = 0
    biggest_with: str = ""
    """The hand that won the biggest pot, when the cards decided it."""
    biggest_where: str = ""


@dataclass
class Record:
    person: Person
    nights: list[NightRow] = field(default_factory=list)
    hands: HandStats = field(default_factory=HandStats)
    member: int | None = None
    """The cash club's member number, when the person is one."""
    balance: int | None = None
    """The member's Play Chips now."""

    @property
    def played(self) -> int:
        return len(self.nights)

    @property
    def wins(self) -> int:
        return sum(1 for n in self.nights if n.place == 1)

    @property
    def prizes(self) -> int:
        return sum(n.prize for n in self.nights)

    @property
    def knockouts(self) -> int:
        return sum(n.knockouts for n in self.nights)

    @property
    def average_place(self) -> float | None:
        placed = [n.place for n in self.nights if n.place]
        return round(sum(placed) / len(placed), 1) if placed else None

    def as_json(self) -> dict[str, Any]:
        h = self.hands
        return {
            **self.person.as_json(),
            "nights": [{"tournament": n.tournament_id, "name": n.name, "at": n.at, "entries": n.entries,
                        "place": n.place, "prize": n.prize, "knockouts": n.knockouts, "bounties": n.bounties,
                        "finished": n.finished, "points": n.points} for n in self.nights],
            "totals": {"nights": self.played, "wins": self.wins, "prizes": self.prizes, "knockouts": self.knockouts,
                       "average_place": self.average_place},
            "member": self.member, "balance": self.balance,
            "hands": {"played": h.hands, "won": h.won, "won_at_showdown": h.won_at_showdown, "all_ins": h.all_ins,
                      "all_ins_won": h.all_ins_won, "biggest_pot": h.biggest_pot, "biggest_with": h.biggest_with or None},
        }


STATS_KEPT: dict[tuple[str, int, int, int, str], HandStats] = {}
register_cache("hand statistics", STATS_KEPT.clear)
"""One night's hand statistics of a player, by (database, tournament, seq, player): replayed
once, not at every look at the person's page."""


def night_stats(tournament_id: int, state: Tournament, player: int, night: str) -> HandStats:
    key = (current_app.config["DATABASE"], tournament_id, state.seq, player, language())
    if key not in STATS_KEPT:
        if len(STATS_KEPT) > 16_384:
            STATS_KEPT.clear()
        stats = HandStats()
        hand_stats(state, player, stats, night)
        STATS_KEPT[key] = stats
    return STATS_KEPT[key]


def add_stats(total: HandStats, night: HandStats) -> None:
    total.hands += night.hands
    total.won += night.won
    total.won_at_showdown += night.won_at_showdown
    total.all_ins += night.all_ins
    total.all_ins_won += night.all_ins_won
    if night.biggest_pot > total.biggest_pot:
        total.biggest_pot, total.biggest_with, total.biggest_where = night.biggest_pot, night.biggest_with, night.biggest_where


def hand_stats(state: Tournament, player: int, stats: HandStats, night: str) -> None:
    """Add one night's hands of ``player`` (those dealt with the assistant) to ``stats``."""
    for record in state.dealing.hands:
        seat = record.seat_of(player)
        if seat is None or not record.finished:
            continue
        hand = record.replay()
        stats.hands += 1
        if any(a.seat == seat and a.all_in for a in hand.actions) or hand.is_all_in(seat):
            stats.all_ins += 1
            all_in = True
        else:
            all_in = False
        award = hand.award
        if award is None:
            continue
        won = award.won().get(seat, 0)
        if not won:
            continue
        stats.won += 1
        stats.all_ins_won += 1 if all_in else 0
        shown = any(pot.hand_name for pot in award.pots if seat in pot.winners)
        if shown or len(hand.live_seats()) > 1:
            stats.won_at_showdown += 1
        if won > stats.biggest_pot:
            stats.biggest_pot = won
            stats.biggest_with = next((p.hand_name for p in award.pots if seat in p.winners and p.hand_name), "") or ""
            stats.biggest_where = gettext("%(night)s, table %(table)s, hand %(hand)s", night=night, table=record.table,
                                           hand=record.number)


def _season_points(db: Database, rec: Record) -> None:
    """Each night's points in its season (imported nights are keyed by their negative id)."""
    from engine.season import night_points

    played = [n.tournament_id for n in rec.nights if n.tournament_id > 0]
    imported = [-n.tournament_id for n in rec.nights if n.tournament_id < 0]
    seasons: set[int] = set()
    for table, column, ids in (("season_nights", "stream_id", played), ("imported_nights", "id", imported)):
        if ids:
            marks = ",".join("?" * len(ids))
            seasons |= {int(r[0]) for r in db.execute(f"SELECT season_id FROM {table} WHERE {column} IN ({marks})", ids)}
    points: dict[int, float] = {}
    for season_id in seasons:
        v = season_view(db, season_id)
        for night in v.results:
            mine = night_points(v.rules, night).get(rec.person.id)
            if mine is not None:
                points[night.key] = mine
    for n in rec.nights:
        n.points = points.get(n.tournament_id)


def record_of(db: Database, person_id: int) -> Record:
    sync(db)
    rec = Record(person(db, person_id))
    for stream_id, player in nights_of(db, person_id):
        try:
            state = load_state(db, stream_id)
        except EngineError:
            continue
        awards, won = state.awards(), bounties(state).won
        row = db.execute("SELECT created_at FROM streams WHERE id = ?", (stream_id,)).fetchone()
        rec.nights.append(NightRow(stream_id, state.name, float(row[0]) if row else 0.0, state.entries,
                                   state.places().get(player), awards.get(player, 0), knockouts_by(state).get(player, 0),
                                   won.get(player, 0), state.finished))
        add_stats(rec.hands, night_stats(stream_id, state, player, state.name))
    for night_id, name, at, place, prize, knockouts in db.execute(
        "SELECT n.id, n.name, n.at, r.place, r.prize, r.knockouts FROM imported_results r "
        "JOIN imported_nights n ON n.id = r.night_id WHERE r.person_id = ?", (person_id,)
    ).fetchall():
        entries = db.execute("SELECT count(*) FROM imported_results WHERE night_id = ?", (night_id,)).fetchone()[0]
        rec.nights.append(NightRow(-int(night_id), str(name), float(at), int(entries), int(place), int(prize),
                                   int(knockouts), 0, True))
    rec.nights.sort(key=lambda n: (n.at, n.tournament_id))
    _season_points(db, rec)
    member = db.execute("SELECT e.player_id FROM person_entries e JOIN streams s ON s.id = e.stream_id "
                        "WHERE e.person_id = ? AND s.kind = 'club'", (person_id,)).fetchone()
    if member is not None:
        from director.cash.store import club_balances

        rec.member = int(member[0])
        rec.balance = club_balances(db).get(rec.member, 0)
    return rec
