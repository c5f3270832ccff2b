"""The director's password and session (director.core.auth): the password rules and their messages,
the login throttle, ``login_required`` for the JSON API and for pages, and ``safe_next``."""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

import pytest
from flask import Flask
from flask.testing import FlaskClient

from director.core.auth import (
    LoginThrottle,
    TooManyTries,
    login_required,
    password_problem,
    safe_next,
)
from tests.director.conftest import PASSWORD, Director, csrf_token, set_password


@pytest.fixture
def guarded(app: Flask) -> Flask:
    """The app with one guarded view under /api/ and the same view as a page."""

    def probe() -> dict[str, bool]:
        return {"ok": True}

    app.add_url_rule("/api/probe", "probe_api", login_required(probe), methods=["GET", "POST"])
    app.add_url_rule("/probe", "probe_page", login_required(probe), methods=["GET", "POST"])
    return app


@pytest.mark.parametrize(
    ("password", "confirm", "problem"),
    [
        ("abc", None, "The password needs at least 4 characters."),
        ("abc", "abc", "The password needs at least 4 characters."),  # length is checked first
        ("abcd", "abce", "The two passwords differ: type the same password twice."),
        ("abcd", None, None),  # no confirmation asked (the API's setup)
        ("abcd", "abcd", None),
    ],
)
def test_password_problem_names_the_rule_broken(password: str, confirm: str | None, problem: str | None) -> None:
    assert password_problem(password, confirm) == problem


def test_the_throttle_counts_wrong_passwords_per_address_within_its_window() -> None:
    throttle = LoginThrottle(limit=3, window=60.0)
    for at in (0.0, 1.0, 2.0):
        throttle.check("10.0.0.1", at)
        throttle.failed("10.0.0.1", at)
    with pytest.raises(TooManyTries) as refused:
        throttle.check("10.0.0.1", 10.0)
    assert str(refused.value) == "Too many wrong passwords: wait 51 seconds and try again."
    throttle.check("10.0.0.2", 10.0)  # another phone is not slowed down
    throttle.check("10.0.0.1", 60.0)  # the first failure has left the window
    for at in (61.0, 61.5, 61.8):
        throttle.failed("10.0.0.1", at)
    with pytest.raises(TooManyTries):
        throttle.check("10.0.0.1", 62.0)
    throttle.succeeded("10.0.0.1")  # a right password forgets the wrong ones
    throttle.check("10.0.0.1", 62.0)


def test_login_answers_429_after_five_wrong_passwords_even_to_the_right_one(client: FlaskClient) -> None:
    # The throttle's clock stands still: the wait said is the same whatever the machine's speed.
    client.application.extensions["login_throttle"] = LoginThrottle(clock=lambda: 1000.0)
    set_password(client)
    Director(client).post("/auth/logout")
    token = csrf_token(client)
    for _ in range(4):
        assert client.post("/auth/login", data={"password": "guess", "csrf_token": token}).status_code == 422
    # A success resets the count: five more wrong ones are still answered 422.
    assert client.post("/auth/login", data={"password": PASSWORD, "csrf_token": token}).status_code == 302
    Director(client).post("/auth/logout")
    token = csrf_token(client)
    for _ in range(5):
        wrong = client.post("/auth/login", data={"password": "guess", "csrf_token": token})
        assert wrong.status_code == 422
        assert "That is not the director&#39;s password." in wrong.get_data(as_text=True)
    blocked = client.post("/auth/login", data={"password": PASSWORD, "csrf_token": token})
    assert blocked.status_code == 429
    assert "Too many wrong passwords: wait 61 seconds" in blocked.get_data(as_text=True)
    with client.session_transaction() as session:
        assert "director" not in session
    other = client.post("/auth/login", data={"password": PASSWORD, "csrf_token": token},
                        environ_overrides={"REMOTE_ADDR": "10.0.0.9"})
    assert other.status_code == 302


def test_login_required_answers_401_json_under_api(guarded: Flask, client: FlaskClient) -> None:
    response = client.get("/api/probe")
    assert response.status_code == 401
    assert response.get_json() == {"error": "Set the director's password first."}
    set_password(client)
    assert client.get("/api/probe").get_json() == {"ok": True}
    Director(client).post("/auth/logout")
    response = client.get("/api/probe")
    assert response.status_code == 401
    assert response.get_json() == {"error": "Log in as the director first."}


def test_login_required_sends_a_page_to_first_run_then_to_login_and_back(guarded: Flask, client: FlaskClient) -> None:
    response = client.get("/probe")
    assert response.status_code == 302
    assert response.headers["Location"] == "/auth/first-run"
    htmx = client.get("/probe", headers={"HX-Request": "true"})  # htmx is told where to go
    assert htmx.status_code == 401 and htmx.headers["HX-Redirect"] == "/auth/first-run"
    set_password(client)
    Director(client).post("/auth/logout")
    response = client.get("/probe")
    assert response.status_code == 302
    location = urlsplit(response.headers["Location"])
    assert location.path == "/auth/login"
    target = parse_qs(location.query)["next"][0]
    assert target.startswith("/probe")
    login = client.post("/auth/login", data={"password": PASSWORD, "next": target, "csrf_token": csrf_token(client)})
    assert login.status_code == 302
    assert login.headers["Location"] == "/probe"
    assert client.get("/probe").get_json() == {"ok": True}


def test_login_makes_a_fresh_permanent_director_session(client: FlaskClient) -> None:
    set_password(client)
    Director(client).post("/auth/logout")
    token = csrf_token(client)
    with client.session_transaction() as session:
        session["left_over"] = "from before"
    response = client.post("/auth/login", data={"password": PASSWORD, "csrf_token": token})
    assert response.status_code == 302
    with client.session_transaction() as session:
        assert session["director"] is True
        assert session.permanent
        assert "left_over" not in session  # log_in clears the old session
    assert "Expires=" in response.headers["Set-Cookie"]


def test_logout_ends_the_director_session(director: Director) -> None:
    response = director.post("/auth/logout")
    assert response.status_code == 302
    assert response.headers["Location"] == "/"
    with director.client.session_transaction() as session:
        assert "director" not in session
        assert session["_flashes"] == [("ok", "Logged out.")]


def test_first_run_and_login_send_each_other_away(client: FlaskClient) -> None:
    """Before a password there is nothing to log in with; after it, no second first run."""
    assert client.get("/auth/login").headers["Location"] == "/auth/first-run"
    set_password(client)
    assert client.get("/auth/first-run").headers["Location"] == "/auth/login"


@pytest.mark.parametrize(
    ("target", "safe"),
    [
        ("/t/3/log?", "/t/3/log"),
        ("/t/3?tab=players", "/t/3?tab=players"),
        ("//evil.example/", "/"),
        ("https://evil.example/", "/"),
        ("", "/"),
        (None, "/"),
        ("/\t/evil.example/", "/"),  # browsers drop the tab: '//evil.example/'
        ("/\n/evil.example/", "/"),
        ("/\\evil.example/", "/"),  # a backslash reads as a slash
    ],
)
def test_safe_next_keeps_only_paths_on_this_site(app: Flask, target: str | None, safe: str) -> None:
    with app.test_request_context("/auth/login"):
        assert safe_next(target) == safe


def test_login_never_sends_the_director_off_site_through_a_control_character(client: FlaskClient) -> None:
    """A browser drops a tab inside a URL (WHATWG), and so does Werkzeug's Location header:
    "/<TAB>/evil.example/" is sent as "//evil.example/", another site."""
    set_password(client)
    Director(client).post("/auth/logout")
    response = client.post(
        "/auth/login", data={"password": PASSWORD, "csrf_token": csrf_token(client), "next": "/\t/evil.example/"}
    )
    assert response.status_code == 302
    assert response.headers["Location"] == "/"
