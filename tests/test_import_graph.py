"""The shape of the tree, read from its imports (every import, those inside functions and under
TYPE_CHECKING included: a circle dodged by a late import is still a circle).

- ``engines/`` never imports ``app/``: the rules know nothing of the server.
- ``app/`` stands in floors (``LAYERS``, the order app/__init__.py tells): every module of it is on
  one floor, and none imports a module on a floor above its own.
- No circle between the server's modules, on a floor or across floors.
- No new import circle. The circles that remain are listed here by name, to be taken apart; the
  test fails when a new one appears and when a listed one is gone (then strike it from the list),
  so the list only shrinks.
"""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("app", "engines")

LAYERS = ("app.server", "app.storage", "app.play", "app.tables", "app.features", "app.parlour", "app.web",
          "app.main", "app.cli")
"""The server's floors, from the ground up: a module may import its own floor and those below."""

KNOWN_CIRCLES: set[frozenset[str]] = set()
KNOWN_PACKAGE_CIRCLES: set[str] = set()
"""Packages whose modules import each other in a circle, to be taken apart: none is left (A Game of
Thrones' phases, which reached each other through the engine object, now form layers)."""


def modules() -> dict[str, Path]:
    found = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            parts = path.relative_to(ROOT).with_suffix("").parts
            name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            found[name] = path
    return found


def import_graph() -> dict[str, set[str]]:
    mods = modules()

    def owner(target: str) -> str | None:
        while target and target not in mods:
            target = target.rpartition(".")[0]
        return target or None

    graph: dict[str, set[str]] = defaultdict(set)
    for name, path in mods.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    up = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join([*up, base] if base else up)
                targets = [f"{base}.{a.name}" for a in node.names] + [base]
            for target in targets:
                found = owner(target)
                if found is not None and found != name and not name.startswith(found + "."):
                    graph[name].add(found)
    return graph


def circles(graph: dict[str, set[str]]) -> list[frozenset[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm, iteratively)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[frozenset[str]] = []
    for start in sorted(set(graph) | {t for ts in graph.values() for t in ts}):
        if start in index:
            continue
        work = [(start, iter(sorted(graph.get(start, ()))))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                group = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.add(member)
                    if member == node:
                        break
                if len(group) > 1:
                    found.append(frozenset(group))
    return found


def floor(module: str, layers: tuple[str, ...] = LAYERS) -> int | None:
    """The index of the floor a module stands on (its package, or itself for a top module)."""
    for i, layer in enumerate(layers):
        if module == layer or module.startswith(layer + "."):
            return i
    return None


def upward_imports(graph: dict[str, set[str]], layers: tuple[str, ...] = LAYERS) -> list[str]:
    """Every import from a module to one on a higher floor, as "a (floor) imports b (floor)"."""
    found = []
    for module, targets in graph.items():
        here = floor(module, layers)
        for target in targets:
            there = floor(target, layers)
            if here is not None and there is not None and there > here:
                found.append(f"{module} ({layers[here]}) imports {target} ({layers[there]})")
    return sorted(found)


def test_every_server_module_stands_on_a_floor() -> None:
    unplaced = sorted(m for m in modules() if m.startswith("app.") and floor(m) is None)
    assert unplaced == [], "a module of app/ on no floor: put it in the package it belongs to, or add its floor"


def test_no_server_module_imports_one_on_a_floor_above_its_own() -> None:
    assert upward_imports(import_graph()) == []


def test_no_circle_between_the_server_s_modules() -> None:
    assert [sorted(c) for c in circles(import_graph()) if any(m == "app" or m.startswith("app.") for m in c)] == []


def test_the_floor_check_finds_an_upward_import_and_only_that() -> None:
    layers = ("low", "mid", "top")
    graph = {"top.a": {"mid.b", "low.c"}, "mid.b": {"low.c", "mid.d"}, "low.c": {"top.a"}, "mid.d": set()}
    assert upward_imports(graph, layers) == ["low.c (low) imports top.a (top)"]


def test_the_engines_never_import_the_server() -> None:
    graph = import_graph()
    reaching = sorted(f"{m} imports {t}" for m, ts in graph.items() if m.startswith("engines")
                      for t in ts if t == "app" or t.startswith("app."))
    assert reaching == []


def test_no_new_import_circle_and_none_listed_that_is_gone() -> None:
    found = circles(import_graph())
    in_packages = {c for c in found if any(all(m.startswith(p + ".") for m in c) for p in KNOWN_PACKAGE_CIRCLES)}
    others = set(found) - in_packages
    assert others - KNOWN_CIRCLES == set(), "a new import circle"
    assert KNOWN_CIRCLES - others == set(), "a listed circle is gone: strike it from KNOWN_CIRCLES"
    gone = {p for p in KNOWN_PACKAGE_CIRCLES if not any(all(m.startswith(p + ".") for m in c) for c in found)}
    assert gone == set(), "a listed package has no circle left: strike it from KNOWN_PACKAGE_CIRCLES"


def test_the_circle_finder_finds_a_circle_and_only_that() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": {"e"}, "e": set()}
    assert circles(graph) == [frozenset({"a", "b", "c"})]
