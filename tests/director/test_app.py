"""The app factory, the database, auth and CSRF, and the error pages."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from flask import Flask
from flask.testing import FlaskClient

from director import BLUEPRINTS, create_app
from tests.director.conftest import (
    PASSWORD,
    Director,
    csrf_token,
    new_tournament,
    set_password,
    soup,
)


def test_factory_creates_the_database_in_wal_mode_and_a_secret(app: Flask) -> None:
    path = Path(app.config["DATABASE"])
    assert path.exists()
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert {"streams", "events", "settings", "player_names", "snapshots"} <= tables
    secret = Path(app.instance_path) / "secret_key"
    assert secret.read_text().strip() == app.config["SECRET_KEY"]
    assert len(app.config["SECRET_KEY"]) == 64


def test_secret_is_generated_once(tmp_path: Path) -> None:
    first = create_app({"TESTING": True}, instance_path=tmp_path).config["SECRET_KEY"]
    second = create_app({"TESTING": True}, instance_path=tmp_path).config["SECRET_KEY"]
    assert first == second


def test_every_blueprint_is_registered(app: Flask) -> None:
    from director import load_blueprint

    names = {load_blueprint(spec).name for spec in BLUEPRINTS}
    assert len(names) == len(BLUEPRINTS) and names <= set(app.blueprints)


def test_first_page_asks_for_the_directors_password(client: FlaskClient) -> None:
    response = client.get("/")
    assert response.status_code == 302
    assert response.headers["Location"].endswith("/auth/first-run")
    page = soup(client.get("/auth/first-run"))
    assert page.find("input", attrs={"name": "password"}) is not None
    assert page.find("a", string="Director login") is None  # nothing to log in with yet
    set_password(client)
    client.post("/auth/logout", data={"csrf_token": csrf_token(client, "/auth/login")})
    assert soup(client.get("/auth/login")).find("a", string="Director login") is not None


def test_first_run_refuses_a_short_or_mismatched_password(client: FlaskClient) -> None:
    token = csrf_token(client, "/auth/first-run")
    response = client.post("/auth/first-run", data={"password": "ab", "confirm": "ab", "csrf_token": token})
    assert response.status_code == 422
    assert "at least 4 characters" in soup(response).find(class_="flash-error").text
    response = client.post(
        "/auth/first-run", data={"password": "abcd", "confirm": "abce", "csrf_token": token}
    )
    assert response.status_code == 422
    assert "differ" in response.get_data(as_text=True)


def test_password_is_stored_hashed(client: FlaskClient, app: Flask) -> None:
    set_password(client)
    conn = sqlite3.connect(app.config["DATABASE"])
    stored = conn.execute("SELECT value FROM settings WHERE key='password_hash'").fetchone()[0]
    assert PASSWORD not in stored
    assert stored.startswith(("scrypt:", "pbkdf2:"))


def test_login_and_logout(client: FlaskClient) -> None:
    set_password(client)
    director = Director(client)
    assert director.post("/auth/logout").status_code == 302
    assert client.get("/new").status_code == 302  # guarded again
    token = csrf_token(client)
    wrong = client.post("/auth/login", data={"password": "nope", "csrf_token": token})
    assert wrong.status_code == 422
    assert "not the director's password" in soup(wrong).find(class_="flash-error").text
    right = client.post("/auth/login", data={"password": PASSWORD, "csrf_token": token, "next": "/new"})
    assert right.status_code == 302
    assert right.headers["Location"] == "/new"


def test_login_never_redirects_off_site(client: FlaskClient) -> None:
    set_password(client)
    Director(client).post("/auth/logout")
    token = csrf_token(client)
    response = client.post(
        "/auth/login", data={"password": PASSWORD, "csrf_token": token, "next": "//evil.example/"}
    )
    assert response.headers["Location"] == "/"


def test_a_post_without_csrf_token_is_refused(client: FlaskClient) -> None:
    set_password(client)
    response = client.post("/auth/logout")
    assert response.status_code == 400
    assert "security token" in response.get_data(as_text=True)


def test_guarded_page_sends_htmx_to_login_with_hx_redirect(client: FlaskClient) -> None:
    set_password(client)
    Director(client).post("/auth/logout")
    response = client.get("/new", headers={"HX-Request": "true"})
    assert response.status_code == 401
    assert response.headers["HX-Redirect"].startswith("/auth/login")


def test_unknown_tournament_is_a_404_page_not_a_stack_trace(director: Director) -> None:
    response = director.get("/t/999")
    assert response.status_code == 404
    assert "There is no tournament number 999." in soup(response).find(id="error").text


def test_unknown_page_is_a_404_page(client: FlaskClient) -> None:
    response = client.get("/no-such-page")
    assert response.status_code == 404
    assert soup(response).find("h1").text == "Page not found"


def test_responses_vary_on_hx_request(client: FlaskClient) -> None:
    assert "HX-Request" in client.get("/auth/first-run").headers["Vary"]


def test_base_layout_configures_htmx_and_sends_the_csrf_token(director: Director) -> None:
    page = soup(director.get("/"))
    config = page.find("meta", attrs={"name": "htmx-config"})["content"]
    assert '"historyRestoreAsHxRequest": false' in config
    assert '"422"' in config and '"409"' in config
    # The token of this very page (a signed token carries its second: the fixture's, taken
    # from an earlier page, differs from it whenever a second boundary fell in between).
    sent = json.loads(page.body["hx-headers"])["X-CSRFToken"]
    assert sent == page.find("meta", attrs={"name": "csrf-token"})["content"]
    answer = director.client.post("/api/logout", headers={"X-CSRFToken": sent})  # it is this session's
    assert answer.status_code == 200, answer.get_data(as_text=True)
    assert page.find("script", src="/static/js/htmx-2.0.11.min.js") is not None


def test_static_files_are_served(client: FlaskClient) -> None:
    for path in ("/static/css/app.css", "/static/js/app.js", "/static/js/htmx-2.0.11.min.js"):
        response = client.get(path)
        assert response.status_code == 200, path
        response.close()


def test_home_lists_tournaments_newest_first_with_their_status(director: Director) -> None:
    from tests.director.conftest import new_tournament

    first = new_tournament(director, ["Ann", "Bob"], start=True)
    director.api("POST", f"/api/t/{first}/bust", {"player": 2})
    new_tournament(director, ["Cy"], name="Second")
    items = soup(director.get("/")).find(id="tournaments").find_all("li")
    assert [i.find("strong").text for i in items] == ["Second", "Friday"]
    assert items[0].find(class_="status").text == "Not started · 1 registered"
    assert items[1].find(class_="status").text == "Finished · won by Ann"


def test_demo_button_fills_a_tournament(director: Director) -> None:
    response = director.post("/demo")
    assert response.status_code == 303
    page = soup(director.get(response.headers["Location"]))
    assert page.find("h1").text == "Demo: Saturday night"
    assert "Level 4" in page.find(id="clock").text


def test_htmx_post_with_an_old_token_reloads_the_page(director: Director) -> None:
    response = director.client.post("/auth/logout", headers={"HX-Request": "true", "X-CSRFToken": "stale"})
    assert response.status_code == 400
    assert response.headers["HX-Refresh"] == "true"
    page = soup(director.get("/"))
    assert "out of date and has been reloaded" in page.find(class_="flash-error").text


def test_home_offers_creation_only_to_the_director(client: FlaskClient, director: Director) -> None:
    assert soup(director.get("/")).find("a", string="New tournament") is not None
    director.post("/auth/logout")
    page = soup(client.get("/"))
    assert page.find("a", string="New tournament") is None
    assert page.find("button", string="Fill a demo") is None
    assert page.find("a", string="Director login") is not None


def test_wrong_passwords_are_slowed_down(client: FlaskClient) -> None:
    set_password(client)
    Director(client).post("/auth/logout")
    token = csrf_token(client)
    for _ in range(5):
        assert client.post("/auth/login", data={"password": "guess", "csrf_token": token}).status_code == 422
    blocked = client.post("/auth/login", data={"password": PASSWORD, "csrf_token": token})
    assert blocked.status_code == 429
    assert "Too many wrong passwords: wait" in soup(blocked).find(id="error").text
    api = client.post("/api/login", json={"password": PASSWORD}, headers={"X-CSRFToken": token})
    assert api.status_code == 429 and "Too many wrong passwords" in api.get_json()["error"]


def test_every_page_has_an_icon_and_favicon_ico_leads_to_it(director: Director) -> None:
    """No page logs a 404 for /favicon.ico: print pages link the icon, and the old address
    sends a browser to it."""
    tid = new_tournament(director, ["Ann", "Bob"])
    for path in (f"/t/{tid}/print/cards", f"/t/{tid}/print/signs", f"/t/{tid}/print/clock", f"/t/{tid}"):
        page = director.get(path)
        icon = soup(page).select_one("link[rel=icon]")
        assert page.status_code == 200, path
        assert icon is not None and icon["href"] == "/static/img/favicon.svg", path
    response = director.get("/favicon.ico")
    assert response.status_code == 301 and response.headers["Location"].endswith("/static/img/favicon.svg")
