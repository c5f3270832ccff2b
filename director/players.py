"""The players pages."""

from __future__ import annotations

from flask import Blueprint

bp = Blueprint("players", __name__)
