"""The move table, below every phase: the shape of each move (``MOVES``, the schema the engine
declares), ``make`` to build a move in its canonical form, and the types of the tables each
phase module fills: for a decision kind its listed moves (``Mover``), its effect (``Doer``) and,
where it may settle itself, its automatic end (``Auto``); a step of the Westeros phase (``Task``).

The phase modules build their moves here rather than through the engine, so none of them needs
the engine object: the engine, at the top, gathers their tables (``kinds.py``) and runs the flow.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engines.base import Move
from engines.game_of_thrones.state import GameState
from engines.kit import BOOL, INT, STR, Decision, Log, MoveSchema, MoveSpec

MOVES = MoveSchema(
    MoveSpec("order", area=STR, order=STR),
    MoveSpec("unorder", area=STR),
    MoveSpec("ready"),
    MoveSpec("raven_swap", area=STR, order=STR),
    MoveSpec("raven_look"),
    MoveSpec("raven_pass"),
    MoveSpec("wildling", bury=BOOL),
    MoveSpec("raid", area=STR, target=STR),
    MoveSpec("march", area=STR),
    MoveSpec("move", unit=STR, to=STR),
    MoveSpec("undo"),
    MoveSpec("end_march", power=BOOL),
    MoveSpec("support", side=STR),
    MoveSpec("card", card=STR),
    MoveSpec("blade", use=BOOL),
    MoveSpec("casualty", unit=STR),
    MoveSpec("retreat", to=STR),
    MoveSpec("consolidate", area=STR),
    MoveSpec("muster", area=STR),
    MoveSpec("recruit", unit=STR, to=STR),
    MoveSpec("end_muster"),
    MoveSpec("ability", choice=STR),
    MoveSpec("replace", ships=INT),
    MoveSpec("bid", power=INT),
    MoveSpec("rank", house=STR),
    MoveSpec("destroy", area=STR, unit=STR),
    MoveSpec("choose", option=STR),
    game="A Game of Thrones",
)

make = MOVES.make

Mover = Callable[[GameState, int, Decision], list[Move]]
Doer = Callable[[GameState, int, Move, Decision, Log], None]
Auto = Callable[[GameState, Decision, Log], bool]
Task = Callable[[GameState, dict[str, Any], Log], None]
