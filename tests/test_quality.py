"""The checks a reviewer would run: ruff over the project, mypy --strict over the engine,
the engine's doctests, and the engine's purity (standard library only)."""

import ast
import hashlib
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, cwd=ROOT, capture_output=True, text=True, check=False)


def test_ruff_is_clean():
    result = run(sys.executable, "-m", "ruff", "check", ".")
    assert result.returncode == 0, result.stdout + result.stderr


def test_mypy_strict_on_engine():
    result = run(sys.executable, "-m", "mypy", "--strict", "engine")
    assert result.returncode == 0, result.stdout + result.stderr


def test_engine_doctests():
    result = run(sys.executable, "-m", "pytest", "-q", "--doctest-modules", "engine", "-p", "no:cacheprovider")
    assert result.returncode in (0, 5), result.stdout + result.stderr


def test_engine_imports_only_the_standard_library_and_itself():
    allowed = set(sys.stdlib_module_names) | {"engine"}
    for path in (ROOT / "engine").rglob("*.py"):
        tree = ast.parse(path.read_text(), str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            else:
                continue
            for name in names:
                assert name.split(".")[0] in allowed, f"{path.name} imports {name}"


@pytest.mark.parametrize("banned", ["time.time(", "datetime.now(", "random.random(", "random.shuffle("])
def test_engine_never_reads_the_clock_or_global_randomness(banned):
    for path in (ROOT / "engine").rglob("*.py"):
        assert banned not in path.read_text(), f"{path.name} calls {banned}"


def test_vendored_htmx_is_the_published_file():
    data = (ROOT / "static" / "js" / "htmx-2.0.11.min.js").read_bytes()
    assert hashlib.sha256(data).hexdigest() == (
        "d6fdc75f204e6bdefa99b69bf1e6d4ac69b8a364f77929f45c13476b4000f717"
    )


def test_readme_examples_run():
    import doctest

    failures, tried = doctest.testfile(str(ROOT / "README.md"), module_relative=False)
    assert tried > 0 and failures == 0
