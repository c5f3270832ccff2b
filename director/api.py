"""The api pages."""

from __future__ import annotations

from flask import Blueprint

bp = Blueprint("api", __name__)
