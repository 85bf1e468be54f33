"""Every decision kind, gathered from the modules of the phases: its listed moves, its effect and,
where it may settle itself, its automatic end; then who is awaited now and what a seat may play.
Planning's orders are no decision on the stack: they are the planning module's, asked of every
house at once while the stack is empty."""

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
from engines.game_of_thrones.state import OVER, PLANNING, GameState
from engines.game_of_thrones.table import Auto, Doer, Mover

MOVES_BY_KIND: dict[str, Mover] = {**P.MOVES, **M.MOVES, **U.MOVES, **C.MOVES, **RT.MOVES, **A.MOVES, **CP.MOVES,
                                   **B.MOVES, **W.MOVES, **WL.MOVES}
DO_BY_KIND: dict[str, Doer] = {**P.DO, **M.DO, **U.DO, **C.DO, **RT.DO, **A.DO, **CP.DO, **B.DO, **W.DO, **WL.DO}
AUTO_BY_KIND: dict[str, Auto] = {**C.AUTO, **CP.AUTO, **B.AUTO, **W.AUTO, **WL.AUTO}


def awaited(state: GameState) -> frozenset[int]:
    """The seats whose decision the game waits for: the top decision's (a combat's house cards
    and a bidding: those who have not chosen yet), or while planning, the houses not ready."""
    if state.phase == OVER:
        return frozenset()
    if state.decisions.top is not None:
        top = state.decisions.top
        if top.kind == "cards" and state.combat is not None:
            return state.combat.cards.awaited()
        if top.kind == "bid":
            return state.bids.awaited()
        return state.decisions.awaited()
    if state.phase == PLANNING:
        return state.planning.awaited()
    return frozenset()


def legal_moves(state: GameState, seat: int) -> list[Move]:
    """Every move ``seat`` may play now, as ``play`` accepts it."""
    if seat not in awaited(state):
        return []
    top = state.decisions.top
    if top is None:
        return P.moves_orders(state, seat, None)
    return MOVES_BY_KIND[top.kind](state, seat, top)
