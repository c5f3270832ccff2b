"""The built wheel carries the templates, the static files and the compiled message catalogues:
installed without the source tree, the app still serves its pages, in French too."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

CHECK = textwrap.dedent(
    """
    import sys, tempfile
    import director
    assert director.__file__.startswith(sys.argv[1]), director.__file__
    from director import create_app
    app = create_app({"TESTING": True}, instance_path=tempfile.mkdtemp())
    client = app.test_client()
    for path in ("/auth/first-run", "/static/css/app.css", "/static/js/htmx-2.0.11.min.js", "/static/js/app.js"):
        response = client.get(path)
        assert response.status_code == 200, (path, response.status_code)
        response.close()
    import sqlite3
    with sqlite3.connect(app.config["DATABASE"]) as connection:
        connection.execute("INSERT INTO app_settings VALUES ('language', 'fr')")
    page = client.get("/auth/first-run").get_data(as_text=True)
    assert '<html lang="fr">' in page and "Mot de passe" in page, page[:800]
    print("served from", director.__file__)
    """
)


@pytest.mark.slow
def test_wheel_serves_pages_without_the_source_tree(tmp_path: Path) -> None:
    built = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(tmp_path / "dist"), str(ROOT)],
        capture_output=True, text=True, timeout=600, check=False,
    )
    if built.returncode != 0:
        if os.environ.get("CI") == "true":
            pytest.fail(f"the wheel did not build: {built.stderr[-600:]}")
        pytest.skip(f"could not build the wheel here (the build backend comes from PyPI): {built.stderr[-300:]}")
    wheel = next((tmp_path / "dist").glob("poker_director-*.whl"))
    names = zipfile.ZipFile(wheel).namelist()
    assert "director/templates/base.html" in names
    assert "director/static/css/app.css" in names
    assert "director/static/js/htmx-2.0.11.min.js" in names
    for code in ("fr", "de", "es"):  # the catalogues, compiled by the build
        assert f"director/translations/{code}/LC_MESSAGES/messages.mo" in names
    site = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(site)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    result = subprocess.run(
        [sys.executable, "-I", "-c", f"import sys; sys.path.insert(0, {str(site)!r}); " + "exec(" + repr(CHECK) + ")", str(site)],
        cwd=elsewhere, capture_output=True, text=True, timeout=120, check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "served from" in result.stdout
