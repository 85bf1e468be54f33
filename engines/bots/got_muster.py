"""How the good A Game of Thrones bot musters: always, where it can, and for strength.

Mustering points not spent are lost, so the bot musters in every castle and stronghold it
can (the strongholds and the threatened ones first) and spends every point. A point buys
most strength as an upgrade (a footman made a knight: +1 for 1 point, no supply), then a
knight (+2 for 2) or a footman (+1 for 1, but a place in an army); a ship where the house has
few at sea; a siege engine only next to an enemy castle it could break."""

from __future__ import annotations

from typing import Any

from engines.base import Engine, Move
from engines.bots.got_defense import threat
from engines.game_of_thrones import consolidate as CP
from engines.game_of_thrones import rules as R
from engines.game_of_thrones.components import BOARD, LAND, SEA, SHIP, SIEGE


def mustering_pick(engine: Engine, state: Any, seat: int, moves: list[Move]) -> Move | None:
    """Muster somewhere rather than end: the area with most points, then the most threatened."""
    areas = [m for m in moves if m["type"] == "muster"]
    if not areas:
        return None
    return max(areas, key=lambda m: (BOARD.areas[m["area"]].mustering_points, threat(state, seat, m["area"])))


def ships_at_sea(state: Any, seat: int) -> int:
    return sum(1 for a, us in state.units.items() if state.owner.get(a) == seat
               for u in us if u.kind == SHIP)


def enemy_castle_near(state: Any, seat: int, area: str) -> bool:
    return any(BOARD.areas[b].castle and BOARD.areas[b].kind == LAND and R.controller(state, b) not in (None, seat)
               for b in BOARD.adjacent[area])


def recruit_worth(state: Any, seat: int, move: Move, points: int) -> float:
    """Strength per point, with what the board says each kind is for."""
    unit, to = move["unit"], move["to"]
    if unit.startswith("upgrade:"):
        return 1.3 if unit.endswith(":knight") else (1.1 if enemy_castle_near(state, seat, to) else 0.1)
    if unit == "knight":
        return 1.2
    if unit == "footman":
        return 1.0 if points < 2 or R.units_in_pool(state, seat, "knight") == 0 else 0.9
    if unit == SHIP:
        return 1.05 if ships_at_sea(state, seat) < 2 and BOARD.areas[to].kind == SEA else 0.5
    if unit == SIEGE:
        return 1.1 if enemy_castle_near(state, seat, to) else 0.2
    return 0.0


def muster_pick(engine: Engine, state: Any, seat: int, moves: list[Move]) -> Move | None:
    """The unit that adds most strength for the points; never end with points left to spend."""
    top = state.decisions.top
    recruits = [m for m in moves if m["type"] == "recruit"]
    if top is None or not recruits:
        return None
    points = int(top.data["points"])
    return max(recruits, key=lambda m: recruit_worth(state, seat, m, points))


def consolidate_pick(engine: Engine, state: Any, seat: int, moves: list[Move]) -> Move | None:
    """A special Consolidate Power in a castle musters (units win castles; Power only bids);
    otherwise the order on the most crowns first."""
    if not moves:
        return None
    musters = [m for m in moves if m["type"] == "muster" and CP.muster_options(
        state, seat, m["area"], BOARD.areas[m["area"]].mustering_points)]
    if musters:
        return max(musters, key=lambda m: BOARD.areas[m["area"]].mustering_points)
    return max(moves, key=lambda m: BOARD.areas[m["area"]].crowns)
