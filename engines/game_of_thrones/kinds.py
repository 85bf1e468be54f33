"""Every decision kind, gathered from the modules of the phases: its listed moves, its effect and,
where it may settle itself, its automatic end; then what a seat may play. Who is awaited is the
turn's (``turn.py``: one step per kind). Planning's orders are no decision on the stack: they are
the planning module's, asked of every house at once while the stack is empty."""

from __future__ import annotations

from engines.base import Move
from engines.game_of_thrones import abilities as A
from engines.game_of_thrones import bidding as B
from engines.game_of_thrones import combat as C
from engines.game_of_thrones import consolidate as CP
from engines.game_of_thrones import marches as M
from engines.game_of_thrones import planning as P
from engines.game_of_thrones import retreats as RT
from engines.game_of_thrones import units as U
from engines.game_of_thrones import westeros as W
from engines.game_of_thrones import wildlings as WL
from engines.game_of_thrones.state import GameState
from engines.game_of_thrones.table import Auto, Doer, Mover
from engines.game_of_thrones.turn import TURN

MOVES_BY_KIND: dict[str, Mover] = {**P.MOVES, **M.MOVES, **U.MOVES, **C.MOVES, **RT.MOVES, **A.MOVES, **CP.MOVES,
                                   **B.MOVES, **W.MOVES, **WL.MOVES}
DO_BY_KIND: dict[str, Doer] = {**P.DO, **M.DO, **U.DO, **C.DO, **RT.DO, **A.DO, **CP.DO, **B.DO, **W.DO, **WL.DO}
AUTO_BY_KIND: dict[str, Auto] = {**C.AUTO, **CP.AUTO, **B.AUTO, **W.AUTO, **WL.AUTO}


def legal_moves(state: GameState, seat: int) -> list[Move]:
    """Every move ``seat`` may play now, as ``play`` accepts it."""
    if TURN.step_of(state, seat) is None:
        return []
    top = state.decisions.top
    if top is None:
        return P.moves_orders(state, seat, None)
    return MOVES_BY_KIND[top.kind](state, seat, top)
