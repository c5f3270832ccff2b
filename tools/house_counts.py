"""The sizes of the house: what a newcomer has to hold, counted from the source.

    python tools/house_counts.py [ROOT]

Prints, for ``engine/`` and ``director/``: modules per folder, the largest modules and
functions, the modules over 600 lines and functions over 80, the import circles between
modules (type-only imports included), the places that open a write transaction, and the
modules a dealer's raise passes through (the modules its route's module imports, transitively,
that are the app's own).
"""

from __future__ import annotations

import ast
import sys
from collections import defaultdict
from pathlib import Path

MODULE_LINES = 600
FUNCTION_LINES = 80


def modules(root: Path) -> dict[str, Path]:
    found = {}
    for package in ("engine", "director"):
        for path in sorted((root / package).rglob("*.py")):
            parts = path.relative_to(root).with_suffix("").parts
            name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            found[name] = path
    return found


def imports(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    tree = ast.parse(path.read_text())
    out: set[str] = set()
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names if a.name in known)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(package.split(".")[: len(package.split(".")) - node.level + 1] + ([base] if base else []))
            for alias in node.names:
                full = f"{base}.{alias.name}"
                out.add(full if full in known else base)
    return {m for m in out if m in known and m != name}


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected groups of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    found: list[list[str]] = []
    counter = [0]

    def visit(v: str) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    sys.setrecursionlimit(10_000)
    for v in graph:
        if v not in index:
            visit(v)
    return found


def functions(path: Path) -> list[tuple[int, str]]:
    tree = ast.parse(path.read_text())
    return [((node.end_lineno or node.lineno) - node.lineno + 1, node.name)
            for node in ast.walk(tree) if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))]


def reach(graph: dict[str, set[str]], start: str) -> set[str]:
    seen = {start}
    todo = [start]
    while todo:
        for nxt in graph[todo.pop()]:
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return seen


def main(root: Path) -> None:
    known = modules(root)
    graph = {name: imports(name, path, known) for name, path in known.items()}
    folders: dict[str, int] = defaultdict(int)
    for path in known.values():
        folders[str(path.parent.relative_to(root))] += 1
    print("modules per folder:", ", ".join(f"{k} {v}" for k, v in sorted(folders.items())))
    sizes = sorted(((len(p.read_text().splitlines()), n) for n, p in known.items()), reverse=True)
    print("largest modules:", ", ".join(f"{n} {s}" for s, n in sizes[:5]))
    print(f"modules over {MODULE_LINES} lines:", sum(1 for s, _ in sizes if s > MODULE_LINES))
    long = sorted(((size, f"{n}.{f}") for n, p in known.items() for size, f in functions(p)), reverse=True)
    print("largest functions:", ", ".join(f"{n} {s}" for s, n in long[:5]))
    print(f"functions over {FUNCTION_LINES} lines:", sum(1 for s, _ in long if s > FUNCTION_LINES))
    found = circles(graph)
    print("import circles:", len(found), "".join(f"\n  {' <-> '.join(c)}" for c in found))
    begins = [(n, p.read_text().count('"BEGIN IMMEDIATE"') + p.read_text().count(".atomic()")
               + p.read_text().count("with db.conn:")) for n, p in known.items()]
    print("write transactions opened:", sum(c for _, c in begins), "in", ", ".join(f"{n} ({c})" for n, c in begins if c))
    for start in ("director.tables.dealer", "director.tables.api"):
        if start in graph:
            own = sorted(m for m in reach(graph, start) if m.startswith("director"))
            print(f"a raise ({start}) reaches {len(own)} director modules")


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parent.parent)
