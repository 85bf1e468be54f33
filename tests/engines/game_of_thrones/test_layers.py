"""The package's modules stand in layers: the README's table of files lists them from the top
down, and each imports only modules listed below it (every import counts, as in the tree's
import-graph test), so a phase never reaches the engine or a phase above it."""

from __future__ import annotations

import re
from pathlib import Path

from tests.test_import_graph import import_graph

PACKAGE = "engines.game_of_thrones"
README = Path(__file__).resolve().parents[3] / "engines" / "game_of_thrones" / "README.md"


def listed_top_down() -> list[str]:
    """The modules of the README's table of files, in its order."""
    names = re.findall(r"^\| `([a-z_]+)\.py` \|", README.read_text(encoding="utf-8"), re.M)
    return [PACKAGE if n == "__init__" else f"{PACKAGE}.{n}" for n in names]


def test_the_table_of_files_lists_every_module_once() -> None:
    listed = listed_top_down()
    found = {m for m in import_graph() if m == PACKAGE or m.startswith(PACKAGE + ".")}
    found |= {f"{PACKAGE}.{p.stem}" for p in README.parent.glob("*.py") if p.stem != "__init__"}
    assert len(listed) == len(set(listed))
    assert set(listed) == found | {PACKAGE}


def test_each_module_imports_only_modules_listed_below_it() -> None:
    listed = listed_top_down()
    place = {m: i for i, m in enumerate(listed)}
    graph = import_graph()
    upward = sorted(f"{m} imports {t}" for m in listed for t in graph.get(m, ())
                    if t in place and place[t] <= place[m])
    assert upward == []
