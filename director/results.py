"""The results pages."""

from __future__ import annotations

from flask import Blueprint

bp = Blueprint("results", __name__)
