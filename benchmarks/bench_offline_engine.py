"""The rules on the dealer's phone: which Python runtime for the browser runs the engine, what
it costs the phone to fetch, and how soon the page is usable and the phone ready to go on alone.

    python benchmarks/bench_offline_engine.py [--runs 3] [--cpu 4] [--brython DIR] [--micropython DIR]

In Debian's Chromium (``/usr/bin/chromium``) on a 390 x 844 page with the CPU slowed ``--cpu``
times (Chrome's DevTools ``Emulation.setCPUThrottlingRate``), with an empty cache each run:

* the app's own dealer page at a table with a hand dealt, served by the app as on the night
  (the vendored Pyodide under ``static/``): *usable* is the page's load event with the panel
  drawn; *offline ready* is ``document.body.dataset.offlineReady == "yes"`` (static/js/offline.js:
  the runtime loaded after the page, the engine imported and the hand replayed once);
* each candidate runtime on a bare page that loads it after its load event, imports the engine
  from ``/static-engine.zip`` (or the engine's files, for Brython) and replays a hand: the time
  until that is done. ``--brython`` is the ``brython/data`` folder of the PyPI wheel
  (``pip download brython``), ``--micropython`` the folder of
  ``npm pack @micropython/micropython-webassembly-pyscript``; a candidate that cannot import
  the engine says why.

The size is the bytes the phone fetches for the runtime and the engine: as sent (the laptop
sends the files as they are) and gzip'd (level 6, what a compressing server would send).
No figure is asserted: a benchmark, not a test.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import gzip
import http.server
import logging
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from playwright.sync_api import sync_playwright  # noqa: E402

FLAGS = ["--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync"]
PHONE = {"width": 390, "height": 844}
NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"]

PROBE = """
from engine.declared import play, setup_data
from engine.hand import HandSetup
setup = HandSetup(stacks={1: 1000, 2: 1000, 3: 1000, 4: 1000}, button=4, small_blind_seat=1,
                  big_blind_seat=2, small_blind=10, big_blind=20)
shown = play({"setup": setup_data(setup), "log": ["p3 cbr 60"]},
             [{"what": "act", "kind": "call"}, {"what": "act", "kind": "raise", "amount": "70"}])
result = "turn %s, refused: %s" % (shown["turn"], shown["refused"]["english"])
"""

PYODIDE_PAGE = """<!doctype html><html><head><meta charset=utf-8><title>pyodide</title></head><body><p id=out>…</p>
<script>
addEventListener("load", function () { setTimeout(function () {
  import("/pyodide/pyodide.mjs").then(async function (m) {
    const py = await m.loadPyodide({ indexURL: "/pyodide/" });
    py.unpackArchive(await (await fetch("/static-engine.zip")).arrayBuffer(), "zip");
    py.runPython(await (await fetch("/probe.py")).text());
    document.getElementById("out").textContent = "OK " + py.globals.get("result");
    window.ready = performance.now();
  }).catch(function (e) { document.getElementById("out").textContent = "FAIL " + e; window.ready = -1; });
}, 0); });
</script></body></html>"""

BRYTHON_PAGE = """<!doctype html><html><head><meta charset=utf-8><title>brython</title></head><body><p id=out>…</p>
<script type="text/python" id="probe">
from browser import document, window
try:
    exec(window.probeSource, globals())
    document["out"].text = "OK " + result
except BaseException as e:
    document["out"].text = "FAIL " + repr(e)
window.ready = window.performance.now()
</script>
<script>
addEventListener("load", function () { setTimeout(function () {
  var probe = new XMLHttpRequest(); probe.open("GET", "/probe.py", false); probe.send(); window.probeSource = probe.responseText;
  var n = 0;
  ["/brython/brython.js", "/brython/brython_stdlib.js"].forEach(function (src, i, all) {
    var s = document.createElement("script"); s.src = src; s.async = false;
    s.onload = function () { if (++n === all.length) { brython({ pythonpath: ["/src"] }); } };
    document.head.appendChild(s);
  });
}, 0); });
</script></body></html>"""

MICROPYTHON_PAGE = """<!doctype html><html><head><meta charset=utf-8><title>micropython</title></head><body><p id=out>…</p>
<script>
addEventListener("load", function () { setTimeout(function () {
  import("/micropython/micropython.mjs").then(async function (m) {
    const mp = await m.loadMicroPython();
    try { mp.runPython("from __future__ import annotations\\nfrom dataclasses import dataclass");
          document.getElementById("out").textContent = "OK"; }
    catch (e) { document.getElementById("out").textContent = "FAIL " + String(e).trim().split("\\n").pop(); }
    window.ready = performance.now();
  }).catch(function (e) { document.getElementById("out").textContent = "FAIL " + e; window.ready = -1; });
}, 0); });
</script></body></html>"""


class Fetched:
    """The bytes a page fetched, by URL (the body as sent, and gzip'd as a server would)."""

    def __init__(self, files: dict[str, Path]) -> None:
        self.files = files
        self.sent: dict[str, int] = {}

    def watch(self, page: Any) -> None:
        page.on("requestfinished", self._done)

    def _done(self, request: Any) -> None:
        with contextlib.suppress(Exception):
            self.sent[request.url] = int(request.sizes()["responseBodySize"])

    def gzipped(self, url: str) -> int:
        path = self.files.get(url.split("?")[0].split("/", 3)[-1])
        return len(gzip.compress(path.read_bytes(), 6)) if path is not None and path.is_file() else self.sent[url]


def runtime_urls(sent: dict[str, int], parts: tuple[str, ...]) -> dict[str, int]:
    return {url: size for url, size in sent.items() if any(p in url for p in parts)}


def throttled(context: Any, page: Any, rate: float) -> None:
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.setCacheDisabled", {"cacheDisabled": True})
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": rate})


def megabytes(n: float) -> str:
    return f"{n / 1_000_000:.2f} MB"


def serve_folder(folder: Path) -> tuple[http.server.ThreadingHTTPServer, str]:
    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:
            pass

    handler = functools.partial(Quiet, directory=str(folder))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_port}"


def candidate(browser: Any, base: str, page_name: str, files: dict[str, Path], parts: tuple[str, ...],
              rate: float, runs: int) -> None:
    usable: list[float] = []
    ready: list[float] = []
    said, sizes = "", {}
    for _ in range(runs):
        context = browser.new_context(viewport=PHONE)
        page = context.new_page()
        throttled(context, page, rate)
        fetched = Fetched(files)
        fetched.watch(page)
        page.goto(f"{base}/{page_name}", wait_until="load")
        usable.append(page.evaluate("performance.getEntriesByType('navigation')[0].loadEventEnd"))
        page.wait_for_function("window.ready !== undefined", timeout=600_000)
        ready.append(page.evaluate("window.ready"))
        said = page.inner_text("#out")
        sizes = {url: (size, fetched.gzipped(url)) for url, size in runtime_urls(fetched.sent, parts).items()}
        context.close()
    sent = sum(s for s, _ in sizes.values())
    zipped = sum(z for _, z in sizes.values())
    print(f"  {said[:110]}")
    print(f"  fetched: {megabytes(sent)} as sent, {megabytes(zipped)} gzip'd ({len(sizes)} files)")
    print(f"  usable (load event): {statistics.median(usable):.0f} ms; engine ready: "
          f"{statistics.median(ready) / 1000:.1f} s (median of {runs})")


def the_app(browser: Any, rate: float, runs: int) -> None:
    from werkzeug.serving import make_server

    from director import create_app
    from director.core.store import cache
    from tests.browser.conftest import LiveServer
    from tests.browser.test_first_night import seated_table

    logging.getLogger("werkzeug").setLevel(logging.ERROR)
    with tempfile.TemporaryDirectory() as folder:
        cache.clear()
        app = create_app({"TESTING": False}, instance_path=Path(folder) / "instance")
        with app.app_context():
            from director.core.first_start import set_password

            set_password("bench-password")
        server = make_server("127.0.0.1", 0, app, threaded=True)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        live = LiveServer(url=f"http://127.0.0.1:{server.server_port}", app=app, password="bench-password")
        tid = seated_table(live, NAMES, table_size=6)
        setup = browser.new_context(viewport=PHONE)
        first = setup.new_page()
        live.login(first)
        first.goto(f"{live.url}/t/{tid}/table/1")
        first.locator("#dealer .dl-big", has_text="Deal").click()
        first.wait_for_selector("#hand-data", state="attached")
        cookies = setup.cookies()
        setup.close()
        usable: list[float] = []
        ready: list[float] = []
        sizes: dict[str, tuple[int, int]] = {}
        static = ROOT / "static"
        files = {f"static/{p.relative_to(static)}": p for p in static.rglob("*") if p.is_file()}
        for _ in range(runs):
            context = browser.new_context(viewport=PHONE)
            context.add_cookies(cookies)
            page = context.new_page()
            throttled(context, page, rate)
            fetched = Fetched(files)
            fetched.watch(page)
            page.goto(f"{live.url}/t/{tid}/table/1", wait_until="load")
            page.wait_for_selector("#dealer .dl-pad button")
            usable.append(page.evaluate("performance.getEntriesByType('navigation')[0].loadEventEnd"))
            page.wait_for_function("document.body.dataset.offlineReady", timeout=600_000)
            assert page.evaluate("document.body.dataset.offlineReady") == "yes"
            ready.append(page.evaluate("performance.now()"))
            sizes = {url: (size, fetched.gzipped(url)) for url, size in
                     runtime_urls(fetched.sent, ("pyodide-", "static-engine.zip", "engine-words")).items()}
            context.close()
        server.shutdown()
        cache.clear()
    sent = sum(s for s, _ in sizes.values())
    zipped = sum(z for _, z in sizes.values())
    print(f"the dealer's page (Pyodide, as the app serves it), CPU {rate:g}x slower, empty cache:")
    for url, (size, zsize) in sorted(sizes.items()):
        print(f"  {url.rsplit('/', 1)[-1].split('?')[0]:<22} {size:>10,} B as sent {zsize:>10,} B gzip'd")
    print(f"  fetched: {megabytes(sent)} as sent, {megabytes(zipped)} gzip'd")
    print(f"  usable: {statistics.median(usable):.0f} ms; offline ready: {statistics.median(ready) / 1000:.1f} s "
          f"(median of {runs})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--cpu", type=float, default=4.0, help="CPU slowdown (Chrome's throttling rate)")
    parser.add_argument("--brython", type=Path, help="the brython/data folder of the PyPI wheel")
    parser.add_argument("--micropython", type=Path, help="the npm package's folder (micropython.mjs, .wasm)")
    args = parser.parse_args()

    from director.tables.offline import engine_zip

    pyodide = next(iter(sorted((ROOT / "static").glob("pyodide-*"))))
    with tempfile.TemporaryDirectory() as folder, sync_playwright() as p:
        www = Path(folder)
        (www / "static-engine.zip").write_bytes(engine_zip()[0])
        (www / "probe.py").write_text(PROBE)
        (www / "pyodide").symlink_to(pyodide)
        (www / "pyodide.html").write_text(PYODIDE_PAGE)
        (www / "src").symlink_to(ROOT)  # Brython imports the engine's files one by one
        files = {"static-engine.zip": www / "static-engine.zip"}
        files.update({f"pyodide/{f.name}": f for f in pyodide.iterdir()})
        runs: list[tuple[str, str, tuple[str, ...]]] = [(f"Pyodide {pyodide.name.split('-', 1)[1]}", "pyodide.html",
                                                         ("/pyodide/", "static-engine.zip"))]
        if args.brython:
            (www / "brython").symlink_to(args.brython.resolve())
            (www / "brython.html").write_text(BRYTHON_PAGE)
            files.update({f"brython/{f.name}": f for f in args.brython.iterdir()})
            files.update({f"src/engine/{f.name}": f for f in (ROOT / "engine").glob("*.py")})
            runs.append(("Brython", "brython.html", ("/brython/", "/src/engine/")))
        if args.micropython:
            (www / "micropython").symlink_to(args.micropython.resolve())
            (www / "micropython.html").write_text(MICROPYTHON_PAGE)
            files.update({f"micropython/{f.name}": f for f in args.micropython.iterdir()})
            runs.append(("MicroPython (WebAssembly)", "micropython.html", ("/micropython/",)))
        server, base = serve_folder(www)
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=FLAGS)
        try:
            started = time.perf_counter()
            for name, page_name, parts in runs:
                print(f"{name}, CPU {args.cpu:g}x slower, empty cache:")
                candidate(browser, base, page_name, files, parts, args.cpu, args.runs)
            the_app(browser, args.cpu, args.runs)
            print(f"({time.perf_counter() - started:.0f} s)")
        finally:
            browser.close()
            server.shutdown()


if __name__ == "__main__":
    main()
