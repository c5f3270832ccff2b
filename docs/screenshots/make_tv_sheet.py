"""A contact sheet of the TV in every state of a night at six screen sizes, with Debian's
Chromium: the states of tests/browser/tv_states.py (built through the JSON API), each
photographed at 1920×1080, 1280×720, 1366×768, 3840×2160, 1024×768 and a portrait 1080×1920.

    python docs/screenshots/make_tv_sheet.py

Writes tv-states.png next to this file.
"""

from __future__ import annotations

import io
import sys
import tempfile
import threading
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))

from PIL import Image, ImageDraw, ImageFont  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402
from werkzeug.serving import make_server  # noqa: E402

from director import create_app  # noqa: E402
from director.core.first_start import set_password  # noqa: E402
from tests.browser import tv_states  # noqa: E402
from tests.browser.conftest import PASSWORD  # noqa: E402

SIZES = [(1920, 1080), (1280, 720), (1366, 768), (3840, 2160), (1024, 768), (1080, 1920)]
CELL = 260  # each picture fits a square of this many pixels
LABEL = 22
FLAGS = ["--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync"]


def main() -> None:
    app = create_app({"TESTING": False}, instance_path=Path(tempfile.mkdtemp()) / "instance")
    with app.app_context():
        set_password(PASSWORD)
    server = make_server("127.0.0.1", 0, app, threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_port}"
    tv_states.look(app)
    api = tv_states.Api(app)
    font = ImageFont.load_default(size=16)
    names = list(tv_states.STATES)
    sheet = Image.new("RGB", (LABEL * 5 + CELL * len(SIZES), LABEL + (CELL + LABEL) * len(names)), "white")
    draw = ImageDraw.Draw(sheet)
    for col, (width, height) in enumerate(SIZES):
        draw.text((LABEL * 5 + col * CELL + 6, 2), f"{width}x{height}", fill="black", font=font)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=FLAGS)
        for row, name in enumerate(names):
            path = tv_states.STATES[name](api)  # built just before its pictures (an envelope lasts a minute)
            top = LABEL + row * (CELL + LABEL)
            draw.text((4, top + CELL // 2), name, fill="black", font=font)
            for col, (width, height) in enumerate(SIZES):
                context = browser.new_context(viewport={"width": width, "height": height})
                page = context.new_page()
                page.goto(url + path)
                page.wait_for_timeout(900)
                shot = Image.open(io.BytesIO(page.screenshot()))
                context.close()
                shot.thumbnail((CELL - 8, CELL - 8))
                sheet.paste(shot, (LABEL * 5 + col * CELL + 4, top + 4))
            print(name, flush=True)
        browser.close()
    server.shutdown()
    out = HERE / "tv-states.png"
    sheet.quantize(colors=128).save(out, optimize=True)
    print(f"{out.name}  {out.stat().st_size // 1024} KB")


if __name__ == "__main__":
    main()
