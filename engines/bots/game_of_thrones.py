"""A Game of Thrones' bot hooks.

Easy play places an order on each area that has none, then declares itself ready (it never
takes an order back or undoes a march step, which only make a random player slow); everything
else is any listed move. A playout is 40 moves of easy play, then ``evaluate`` weighs each
house's castles and strongholds (what wins the game), its land areas and its Power tokens.
"""

from __future__ import annotations

from typing import Any

from engines.base import Engine, Move
from engines.bots.hooks import Hooks
from engines.bots.ismcts import lead
from engines.game_of_thrones import rules as R

CASTLE_WORTH = 3.0
"""Land areas a castle or stronghold is worth (seven of them win at once)."""
POWER_WORTH = 0.2
"""Land areas an available Power token is worth (bids, supporting a march into the open)."""


def sensible(engine: Engine, state: Any, seat: int, moves: list[Move]) -> list[Move]:
    """Ready once allowed; orders only on areas still without one; no undo, no take-back."""
    ready = [m for m in moves if m["type"] == "ready"]
    if ready:
        return ready
    placed = state.planning.choices.get(seat) or {} if state.planning.open else {}
    kept = [m for m in moves if m["type"] not in ("unorder", "undo")
            and not (m["type"] == "order" and m["area"] in placed)]
    return kept or moves


def evaluate(engine: Engine, state: Any) -> list[float]:
    """Each house's lead in castles and strongholds (worth three land areas each), land areas
    and available Power tokens."""
    worth = [CASTLE_WORTH * R.castles_held(state, s) + R.land_held(state, s) + POWER_WORTH * state.power[s]
             for s in range(state.seats)]
    return [lead(worth, s, 4.0) for s in range(state.seats)]


HOOKS = Hooks(sensible=sensible, evaluate=evaluate, depth=40)
