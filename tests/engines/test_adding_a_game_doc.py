"""docs/ADDING_A_GAME.md builds its worked example whole: the code blocks marked ``python tally``,
in order, are tests/support/tinygame.py, and those marked ``python tally-bots`` are
engines/bots/tally.py (blank lines between blocks aside). So the page cannot teach code that no
longer runs, and a game can be written from the page alone."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "ADDING_A_GAME.md"


def blocks(tag: str) -> list[str]:
    return re.findall(rf"^```python {re.escape(tag)}\n(.*?)^```$", DOC.read_text(encoding="utf-8"), re.M | re.S)


def same_code(text: str) -> str:
    """Code as compared: runs of blank lines count as one, outer blank lines not at all."""
    return re.sub(r"\n{3,}", "\n\n", text.strip("\n"))


@pytest.mark.parametrize(("tag", "path"), [("tally", "tests/support/tinygame.py"),
                                           ("tally-bots", "engines/bots/tally.py")])
def test_the_worked_examples_code_in_the_doc_is_the_code_that_runs(tag: str, path: str) -> None:
    found = blocks(tag)
    assert found, f"no ```python {tag} block in {DOC.name}"
    in_doc = same_code("\n\n".join(found))
    in_tree = same_code((ROOT / path).read_text(encoding="utf-8"))
    assert in_doc == in_tree, f"{DOC.name}'s {tag} blocks and {path} differ"


def test_every_name_the_doc_gives_an_engine_or_its_hooks_exists() -> None:
    from engines.bots.hooks import GAMES, Hooks
    from engines.kit import KitEngine
    from tests.support.tinygame import ENGINE

    text = DOC.read_text(encoding="utf-8")
    for attr in ("id", "title", "tagline", "min_seats", "max_seats", "options", "State", "MOVES", "TURN",
                 "rules_version", "rules_versions"):
        assert f"`{attr}" in text and hasattr(ENGINE, attr), attr
    for method in ("setup", "awaited", "legal_moves", "refusal", "check", "prompt", "apply", "view", "result",
                   "determinize", "reversible", "round_of", "seats_of"):
        assert f"`{method}" in text and hasattr(KitEngine, method), method
    for hook in ("canonical", "sensible", "evaluate", "depth", "margin", "policy", "components"):
        assert f"`{hook}" in text and hook in Hooks.__dataclass_fields__, hook
    assert GAMES[ENGINE.id] == "engines.bots.tally"
