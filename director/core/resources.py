"""Where the app's templates and static files are: inside the package once installed, at the
repository's root in a checkout."""

from __future__ import annotations

from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent.parent
"""The ``director`` package's folder."""


def resource_dir(name: str) -> Path:
    """``templates`` or ``static``: inside the package once installed, at the repo root in a checkout."""
    installed = PACKAGE_DIR / name
    return installed if installed.is_dir() else PACKAGE_DIR.parent / name
