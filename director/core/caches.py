"""Every cache the app keeps, registered with how to empty it: each is keyed by the database
it came from, and a restore or a migration empties all of them at once
(:func:`forget_everything`), so that every page and poll shows the database as it is.
"""

from __future__ import annotations

from collections.abc import Callable

from flask import Flask, current_app, has_app_context

_caches: dict[str, Callable[[], None]] = {}


def register_cache(name: str, forget: Callable[[], None]) -> None:
    """A cache the app keeps, and how to empty it: a restore or a migration empties them all."""
    _caches[name] = forget


def register_app_cache(app: Flask, name: str, forget: Callable[[], None]) -> None:
    """A cache one app keeps (the polls' answers): emptied with the others."""
    app.extensions.setdefault("caches", {})[name] = forget


def caches() -> tuple[str, ...]:
    """The names of the caches registered, for the tests and the README."""
    own = current_app.extensions.get("caches", {}) if has_app_context() else {}
    return tuple(sorted({*_caches, *own}))


def forget_everything() -> None:
    """Empty every cache (the database under them was replaced by a restore, or migrated)."""
    for forget in list(_caches.values()):
        forget()
    if has_app_context():
        for forget in list(current_app.extensions.get("caches", {}).values()):
            forget()


__all__ = ["caches", "forget_everything", "register_app_cache", "register_cache"]
