"""Cash-game nights: the club's members and balances, sessions with their tables, seats,
buy-ins, waiting lists and ledger, and the dealer's table page at fixed blinds.

Storage: a cash session is a stream (a row of ``streams``) of ``kind = 'cash'``, the club a single
row with ``kind = 'club'``; their events go to the same ``events`` table through
``director.core.store.command`` (one transaction; expected seq, 409 when stale). ``engine.cash`` folds them. A
member's balance is the club's grants plus, over every session, what they cashed out less
what they bought in.

The package is in layers, each a module: ``store`` (the streams and their fold),
``commands`` (each action, registered: its input, refusals and events, one unit of work),
``views`` (what the pages and the JSON answers show), ``pages`` (the HTML routes, htmx
included; the blueprint) and ``api`` (the JSON routes and their OpenAPI operations). Routes
only route.

Routes (blueprint ``cash``): ``/cash`` (sessions, new session), ``/cash/club`` (members,
balances, grants), ``/cash/<id>`` (the night: tables, seats, waiting lists, ledger),
``/cash/<id>/<action>``, ``/cash/<id>/table/<n>`` (the dealer's assistant),
``/cash/<id>/summary`` and ``/cash/<id>/ledger.csv``; and their JSON twins under ``/api/cash``.
"""

from __future__ import annotations

from flask_babel import lazy_gettext

from engine.errors import N_

SESSION_KIND = "cash"


CLUB_KIND = "club"


STALE = N_("Someone else changed this cash game a moment ago; the page has been refreshed.")


DEFAULT_GRANT = 10_000


class UnknownSession(LookupError):
    """No cash session with that id."""

    def __init__(self, session_id: object) -> None:
        super().__init__(f"There is no cash session number {session_id}.")
        self.session_id = session_id


FIRST_BUTTON = lazy_gettext("the button is drawn by high card when you deal the first hand")
"""What a table's page says of the positions before its first hand (the deal draws the button)."""
