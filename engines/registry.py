"""The games this site hosts: one line per game."""

from __future__ import annotations

import importlib
from collections.abc import Iterator, Mapping

from engines.base import Engine

BUILTIN: tuple[str, ...] = (
    "engines.london:ENGINE",
    "engines.tower_of_london:ENGINE",
    "engines.towers_of_babylon:ENGINE",
    "engines.game_of_thrones:ENGINE",
)
"""Import paths ("module:attribute") of the engines hosted by default."""

BUILTIN_IDS: dict[str, str] = {
    "engines.london:ENGINE": "london",
    "engines.tower_of_london:ENGINE": "tower_of_london",
    "engines.towers_of_babylon:ENGINE": "towers_of_babylon",
    "engines.game_of_thrones:ENGINE": "game_of_thrones",
}
"""A built-in engine's game id, known without importing it (tests/engines/test_registry.py checks
each against the engine's own)."""


def load_engine(path: str) -> Engine:
    """Import an engine from "package.module:attribute"."""
    module_name, _, attr = path.partition(":")
    obj = getattr(importlib.import_module(module_name), attr or "ENGINE")
    engine = obj() if isinstance(obj, type) else obj
    if not isinstance(engine, Engine):
        raise TypeError(f"{path} does not follow the engine protocol")
    return engine


class Engines(Mapping[str, Engine]):
    """The hosted games by id, in the order their paths were given. A built-in game's engine is
    imported when it is first asked for (a table of it loaded or founded, the front page listing
    every game): a process whose tables are all London never loads the other three games' rules
    and data (1.6 MB). Any other path is imported at once, to learn its id."""

    def __init__(self, paths: tuple[str, ...] | list[str]) -> None:
        self._paths: dict[str, str] = {}
        self._loaded: dict[str, Engine] = {}
        for path in paths:
            game = BUILTIN_IDS.get(path)
            if game is None:
                engine = load_engine(path)
                game = engine.id
                self._loaded[game] = engine
            else:
                self._loaded.pop(game, None)  # a later path for the same id wins, as it always did
            self._paths[game] = path

    def __getitem__(self, game: str) -> Engine:
        engine = self._loaded.get(game)
        if engine is None:
            engine = load_engine(self._paths[game])
            if engine.id != game:
                raise TypeError(f"{self._paths[game]} names the game {engine.id!r}, not {game!r}")
            self._loaded[game] = engine
        return engine

    def __contains__(self, game: object) -> bool:
        return game in self._paths  # asked without importing (Mapping's own would import)

    def __iter__(self) -> Iterator[str]:
        return iter(self._paths)

    def __len__(self) -> int:
        return len(self._paths)

    def host(self, game: str, engine: Engine) -> None:
        """Host ``engine`` under ``game`` in place of what was there (a test's stand-in)."""
        self._paths.setdefault(game, f"<{type(engine).__name__}>")
        self._loaded[game] = engine

    def loaded(self) -> list[str]:
        """The ids whose engines are imported so far."""
        return [game for game in self._paths if game in self._loaded]


def load_engines(paths: tuple[str, ...] | list[str] = BUILTIN) -> Engines:
    return Engines(paths)
