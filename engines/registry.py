"""The games this site hosts: one line per game."""

from __future__ import annotations

import importlib

from engines.base import Engine

BUILTIN: tuple[str, ...] = (
    "engines.london:ENGINE",
    "engines.tower_of_london:ENGINE",
    "engines.towers_of_babylon:ENGINE",
    "engines.game_of_thrones:ENGINE",
)
"""Import paths ("module:attribute") of the engines hosted by default."""


def load_engine(path: str) -> Engine:
    """Import an engine from "package.module:attribute"."""
    module_name, _, attr = path.partition(":")
    obj = getattr(importlib.import_module(module_name), attr or "ENGINE")
    engine = obj() if isinstance(obj, type) else obj
    if not isinstance(engine, Engine):
        raise TypeError(f"{path} does not follow the engine protocol")
    return engine


def load_engines(paths: tuple[str, ...] | list[str] = BUILTIN) -> dict[str, Engine]:
    engines = [load_engine(p) for p in paths]
    return {e.id: e for e in engines}
