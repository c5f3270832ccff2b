"""The address phones are given: the director's choice of the laptop's address on the home
network (a setting), else the best guess, and the player's page address from a token.
"""

from __future__ import annotations

from flask import current_app, request, url_for

from director.core import address
from director.core.db import get_db
from director.tables import ADDRESS_SETTING


def stored_address() -> str | None:
    row = get_db().execute("SELECT value FROM settings WHERE key = ?", [ADDRESS_SETTING]).fetchone()
    return None if row is None else str(row[0])


def current_address() -> str:
    """The host part of the links in QR codes: the director's choice, else the best guess."""
    return stored_address() or address.best_address()


def public_base_url() -> str:
    """``http://192.168.1.20:5000``: the start of every address a phone is given.

    ``PUBLIC_URL`` in the config wins (for a reverse proxy or a name on the home network).
    """
    configured = current_app.config.get("PUBLIC_URL")
    if configured:
        return str(configured).rstrip("/")
    return address.base_url(current_address(), address.port_of(request.host, request.scheme), request.scheme)


def player_url(token: str) -> str:
    return public_base_url() + url_for("player.page", token=token)
