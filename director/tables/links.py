"""The address phones are given: the director's choice of the laptop's address on the home
network (a setting, chosen by the command ``tables.address``), else the best guess, and the
player's page address from a token.
"""

from __future__ import annotations

from typing import Any

from flask import current_app, request, url_for
from pydantic import Field
from werkzeug.datastructures import MultiDict

from director.core import address
from director.core.commands import Call, command
from director.core.contract import Write
from director.core.db import get_db
from director.core.work import Work
from director.tables import ADDRESS_SETTING
from engine.errors import InvalidInput


class AddressIn(Write):
    """The laptop's address on the home network, as the QR codes give it to phones."""

    address: str = Field(max_length=253, title="address",
                         description="An IP address (192.168.1.20) or a name on the home network (poker.lan).")


def address_form(fields: MultiDict[str, str]) -> dict[str, Any]:
    """The page's form: the address typed in, else the one picked from the list."""
    return {"address": (fields.get("custom") or fields.get("address") or "").strip()}


@command("tables.address", AddressIn, "Choose the address the QR codes lead to (the laptop's on the home network)",
         form=address_form)
def address_command(work: Work, call: Call, data: AddressIn) -> None:
    chosen = data.address.strip()
    if not address.is_valid_address(chosen):
        raise InvalidInput("{address} is not an address: type an IP address such as 192.168.1.20.",
                           address=repr(chosen))
    work.execute("INSERT INTO settings (key, value) VALUES (?, ?) "
                 "ON CONFLICT (key) DO UPDATE SET value = excluded.value", (ADDRESS_SETTING, chosen))


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
