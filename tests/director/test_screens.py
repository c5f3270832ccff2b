"""The host's TV: the look saved from the TV settings page and the JSON API, the uploads
checked by their content (an SVG or a renamed file is refused, with the limit), the preview,
and a look that no longer exists falling back to the standard one."""

from __future__ import annotations

import io
import json
import struct
import wave
from typing import Any

from flask import Flask
from PIL import Image
from werkzeug.test import EnvironBuilder

from director.core.db import get_db
from director.setup.commands import create_tournament

from .conftest import Director, soup

FORM = {"layout": "info", "theme": "light", "title": "Thursday Club", "accent": "#ff8800",
        "show": ["next_levels", "leaders", "chart"]}


def png(size: tuple[int, int] = (40, 20)) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", size, (200, 30, 30)).save(out, "PNG")
    return out.getvalue()


def wav(seconds: float = 0.5) -> bytes:
    out = io.BytesIO()
    with wave.open(out, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(8000)
        w.writeframes(struct.pack("<h", 0) * int(8000 * seconds))
    return out.getvalue()


def upload(data: bytes, name: str) -> tuple[io.BytesIO, str]:
    return io.BytesIO(data), name


def tournament(app: Flask) -> int:
    with app.app_context():
        return create_tournament(get_db(), {"name": "Friday", "buy_in": 20}, 1_800_000_000.0)


def tv(director: Director, tid: int, query: str = "") -> Any:
    response = director.get(f"/t/{tid}/tv{query}")
    assert response.status_code == 200
    return soup(response)


def save(director: Director, **extra: Any) -> Any:
    # Built here rather than by the client, so that the body it spools to a file for a large
    # upload is closed with the request.
    builder = EnvironBuilder("/tv-settings", method="POST", data={"csrf_token": director.token, **FORM, **extra})
    environ = builder.get_environ()
    try:
        return director.client.open(environ, buffered=True)
    finally:
        environ["wsgi.input"].close()
        builder.close()


def test_the_look_saved_is_the_look_of_every_tv(app: Flask, director: Director) -> None:
    tid = tournament(app)
    response = save(director)
    assert response.status_code == 303
    page = tv(director, tid)
    body = page.body
    assert body is not None
    classes = body["class"]
    assert "layout-info" in classes and "theme-light" in classes
    assert "hide-payouts" in classes and "hide-board" in classes and "hide-season" in classes
    assert "hide-leaders" not in classes
    assert body["style"] == "--tv-accent: #ff8800"
    brand = page.find(id="tv-brand")
    assert brand is not None and brand.get_text(strip=True) == "Thursday Club"
    assert brand["hx-preserve"] == "true", "kept through every poll"
    shown = director.get("/api/tv-settings").get_json()
    assert shown["layout"] == "info" and shown["show"] == ["next_levels", "leaders", "chart"]


def test_a_logo_and_sounds_are_uploaded_checked_and_served(app: Flask, director: Director) -> None:
    tid = tournament(app)
    response = save(director, logo=upload(png(), "club.png"), **{"one-minute": upload(wav(), "ding.wav")})
    assert response.status_code == 303
    look = director.get("/api/tv-settings").get_json()
    assert look["logo"] == "logo-1.png" and look["sounds"] == {"one-minute": "sound-one-minute-1.wav"}
    page = tv(director, tid)
    logo = page.select_one("#tv-brand img")
    assert logo is not None and logo["src"] == "/tv-files/logo-1.png?v=1"
    main = page.find(id="tv")
    assert main is not None and main["data-sound-one-minute"] == "/tv-files/sound-one-minute-1.wav?v=1"
    served = director.get("/tv-files/logo-1.png", buffered=True)
    assert served.status_code == 200 and served.mimetype == "image/png"
    assert served.headers["X-Content-Type-Options"] == "nosniff"
    assert served.data == png()
    assert director.get("/tv-files/sound-one-minute-1.wav", buffered=True).mimetype == "audio/wav"
    # A new logo replaces the old file; removing the sound goes back to the TV's own.
    save(director, logo=upload(png((10, 10)), "other.png"), **{"remove_one-minute": "1"})
    look = director.get("/api/tv-settings").get_json()
    assert look["logo"] == "logo-2.png" and look["sounds"] == {}
    assert director.get("/tv-files/logo-1.png").status_code == 404
    assert director.get("/tv-files/sound-one-minute-1.wav").status_code == 404


def refused(director: Director, **files: Any) -> str:
    before = director.get("/api/tv-settings").get_json()
    response = save(director, **files)
    assert response.status_code == 422
    assert director.get("/api/tv-settings").get_json() == before, "nothing saved"
    alert = soup(response).select_one(".flash-error")
    assert alert is not None
    return alert.get_text(strip=True)


def test_an_svg_logo_is_refused_even_named_png(director: Director) -> None:
    svg = b'<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'
    assert "SVG" in refused(director, logo=upload(svg, "logo.png"))
    assert "SVG" in refused(director, logo=upload(b"<svg onload='alert(1)'/>", "logo.svg"))


def test_a_file_that_is_not_an_image_or_a_sound_is_refused_by_its_content(director: Director) -> None:
    assert refused(director, logo=upload(b"MZ\x90\x00 not an image", "logo.png")) == \
        "The logo is not an image: upload a PNG, JPEG, GIF or WebP file."
    assert refused(director, **{"level-change": upload(png(), "chime.wav")}) == \
        "The sound is not a sound: upload a WAV, MP3, Ogg or FLAC file."


def test_uploads_over_their_limits_are_refused_with_the_limit(director: Director) -> None:
    big = png() + b"\0" * (2 * 1024 * 1024)
    assert refused(director, logo=upload(big, "logo.png")) == "The logo is over 2 MB: save a smaller one."
    assert refused(director, **{"break": upload(wav(20), "long.wav")}) == "The sound lasts 20 seconds: at most 15."
    assert "4096×4096" in refused(director, logo=upload(png((5000, 4000)), "huge.png"))


def test_a_colour_that_is_not_a_colour_is_refused(director: Director) -> None:
    before = director.get("/api/tv-settings").get_json()
    response = director.api("POST", "/api/tv-settings", {"accent": "red"})
    assert response.status_code == 422
    assert "accent colour" in response.get_json()["error"]
    assert director.get("/api/tv-settings").get_json() == before
    page = save(director, accent="javascript:alert(1)")
    assert page.status_code == 422
    assert director.api("POST", "/api/tv-settings", {"accent": "#00AA33", "layout": "big"}).get_json()["accent"] == \
        "#00AA33"
    kept = director.api("POST", "/api/tv-settings", {"layout": None, "title": None}).get_json()
    assert kept["layout"] == "big" and kept["title"] == "", "null leaves a field as it was"


def test_writes_need_the_director(app: Flask, client: Any) -> None:
    token = client.get("/api/session").get_json()["csrf_token"]
    response = client.post("/api/tv-settings", json={"layout": "big"}, headers={"X-CSRFToken": token})
    assert response.status_code == 401
    assert client.post("/tv-settings", data={"csrf_token": token, **FORM}).status_code in (302, 303, 401)
    assert client.get("/api/tv-settings").get_json()["layout"] == "standard"


def test_a_layout_that_no_longer_exists_falls_back_to_the_standard_one(app: Flask, director: Director) -> None:
    tid = tournament(app)
    with app.app_context():
        get_db().execute("INSERT INTO tv_look (id, body) VALUES (1, ?)",
                         (json.dumps({"layout": "classic", "theme": "sepia", "accent": "red;}", "show": ["x"]}),))
        get_db().conn.commit()
    body = tv(director, tid).body
    assert body is not None
    assert "layout-standard" in body["class"] and "theme-dark" in body["class"]
    assert body["style"] == "--tv-accent: #35d07f"


def test_the_preview_tries_a_look_without_saving_it(app: Flask, director: Director) -> None:
    tid = tournament(app)
    page = tv(director, tid, "?preview=1&layout=big&theme=light&accent=%23123456&title=Try")
    body = page.body
    assert body is not None and "layout-big" in body["class"] and "theme-light" in body["class"]
    assert body["style"] == "--tv-accent: #123456"
    assert page.find(id="tv-sound") is None, "the preview has no buttons"
    main = page.find(id="tv")
    assert main is not None and main["data-director"] == "false", "no keys in a preview"
    assert director.get("/api/tv-settings").get_json()["layout"] == "standard"
    settings = soup(director.get("/tv-settings"))
    frame = settings.find(id="tv-preview")
    assert frame is not None and frame["data-base"] == f"/t/{tid}/tv"


def test_tv_files_are_only_those_the_app_wrote(director: Director) -> None:
    for name in ("../poker-director.db", "secret_key", "logo-1.svg", "logo.png", "logo-1.html"):
        assert director.get(f"/tv-files/{name}").status_code == 404
