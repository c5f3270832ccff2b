"""The first start: before any password exists, whoever opens the app sets the director's
password (the command ``core.password``) from ``/auth/first-run`` or ``POST
/api/session/setup-password``, and is logged in as the director.
"""

from __future__ import annotations

import time

from flask import Blueprint, flash, redirect, request, url_for
from flask.typing import ResponseReturnValue
from werkzeug.security import generate_password_hash

from director.core.auth import log_in, password_hash, password_problem
from director.core.commands import Call, command, perform, run
from director.core.db import get_db
from director.core.i18n import gettext
from director.core.inputs import PasswordIn
from director.core.web import render
from director.core.words import say
from director.core.work import Work
from engine.errors import IllegalAction, InvalidInput

bp = Blueprint("first_start", __name__, url_prefix="/auth")


@command("core.password", PasswordIn, "First start only: set the director's password (whoever starts the app "
         "before a password exists is the director)")
def password_command(work: Work, call: Call, data: PasswordIn) -> None:
    if work.execute("SELECT 1 FROM settings WHERE key = 'password_hash'").fetchone() is not None:
        raise IllegalAction("The director's password is already set: log in instead.")
    problem = password_problem(data.password)
    if problem:
        raise InvalidInput(problem)
    work.execute("INSERT INTO settings (key, value) VALUES ('password_hash', ?)", (generate_password_hash(data.password),))


def set_password(password: str) -> None:
    """The first start's password set from Python (the command line, a test, a benchmark)."""
    run(password_command, PasswordIn(password=password), db=get_db(), now=time.time())


@bp.route("/first-run", methods=["GET", "POST"])
def page() -> ResponseReturnValue:
    if password_hash() is not None:
        return redirect(url_for("auth.login"))
    error = None
    if request.method == "POST":
        password = request.form.get("password", "")
        error = password_problem(password, request.form.get("confirm", ""))
        if error is None:
            try:
                perform(password_command, {"password": password})
            except (IllegalAction, InvalidInput) as refused:  # set a moment ago from another device
                error = say(refused)
            else:
                log_in()
                flash(gettext("Password set. You are the director."), "ok")
                return redirect(url_for("home.index"))
    return render("auth/first_run.html", error=error), 422 if error else 200
