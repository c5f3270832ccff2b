"""The poker-director web app: Flask, htmx and an event log in SQLite."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from flask import Flask

PACKAGE_DIR = Path(__file__).resolve().parent


def resource_dir(name: str) -> Path:
    """``templates`` or ``static``: inside the package once installed, at the repo root in a checkout."""
    installed = PACKAGE_DIR / name
    return installed if installed.is_dir() else PACKAGE_DIR.parent / name


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    app = Flask(
        __name__,
        template_folder=str(resource_dir("templates")),
        static_folder=str(resource_dir("static")),
    )
    if test_config:
        app.config.update(test_config)

    @app.get("/health")
    def health() -> dict[str, str]:
        return {"status": "ok"}

    return app
