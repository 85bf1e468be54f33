"""The hosted games' registry: a built-in game's engine is imported when first asked for, under
the id the registry knew it by; any other engine at once; the order given is kept."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from engines.registry import BUILTIN, BUILTIN_IDS, Engines, load_engine

ROOT = Path(__file__).resolve().parents[2]
TALLY = "tests.support.tinygame:ENGINE"


def test_each_built_in_id_is_its_engines_own() -> None:
    assert set(BUILTIN_IDS) == set(BUILTIN)
    for path, game in BUILTIN_IDS.items():
        assert load_engine(path).id == game


def test_a_built_in_game_is_imported_only_when_first_asked_for() -> None:
    probe = """
import json, sys
from engines.registry import BUILTIN, load_engines
games = load_engines(BUILTIN)
seen = {"keys": list(games), "has": "game_of_thrones" in games, "before": "engines.game_of_thrones" in sys.modules,
        "loaded": games.loaded()}
engine = games["game_of_thrones"]
seen |= {"after": "engines.game_of_thrones" in sys.modules, "id": engine.id,
         "again": games["game_of_thrones"] is engine, "loaded_after": games.loaded(),
         "london": "engines.london" in sys.modules}
print(json.dumps(seen))
"""
    out = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, check=True, capture_output=True, text=True).stdout
    seen = json.loads(out)
    assert seen["keys"] == ["london", "tower_of_london", "towers_of_babylon", "game_of_thrones"]
    assert seen["has"] is True and seen["before"] is False and seen["loaded"] == []
    assert seen["after"] is True and seen["id"] == "game_of_thrones" and seen["again"] is True
    assert seen["loaded_after"] == ["game_of_thrones"] and seen["london"] is False


def test_another_engine_is_imported_at_once_and_an_unknown_game_is_not_found() -> None:
    games = Engines([TALLY, "engines.london:ENGINE"])
    assert games.loaded() == ["tally"] and list(games) == ["tally", "london"]
    assert dict(games)["london"].id == "london"  # every value, as the front page lists them
    with pytest.raises(KeyError):
        games["chess"]
    assert games.get("chess") is None
