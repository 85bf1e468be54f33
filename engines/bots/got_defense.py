"""What threatens a house's areas, as the board shows it: the good A Game of Thrones bot keeps
its capital held (a lost capital is a stronghold gone and a garrison never rebuilt).

Only the public board is read (units, owners, garrisons); orders, house cards and support are
unknown, so a threat is the strongest single enemy house's land units next to the area."""

from __future__ import annotations

from collections import Counter
from typing import Any

from engines.game_of_thrones import rules as R
from engines.game_of_thrones.components import BOARD, LAND


def capital(state: Any, seat: int) -> str | None:
    """The house's home area (its capital)."""
    return next((a for a, s in state.homes.items() if s == seat), None)


def threat(state: Any, seat: int, area: str) -> int:
    """The most strength one enemy house could march into ``area`` from the land next to it
    (its footmen and knights; siege engines count against a castle)."""
    castle = BOARD.areas[area].castle
    by_house: Counter[int] = Counter()
    for b in BOARD.adjacent[area]:
        if BOARD.areas[b].kind != LAND or not R.passable(state, b):
            continue
        owner = state.owner.get(b)
        if owner is None or owner == seat:
            continue
        by_house[owner] += sum(R.unit_strength(u.kind, routed=u.routed, attacking_castle=castle)
                               for u in state.units.get(b, []))
    return max(by_house.values(), default=0)


def held_strength(state: Any, seat: int, area: str, leaving: int = 0) -> int:
    """What ``seat`` defends ``area`` with before orders and cards: its units there (less
    ``leaving`` strength, marching out) and its garrison."""
    units = sum(R.unit_strength(u.kind, routed=u.routed) for u in state.units.get(area, [])
                if state.owner.get(area) == seat)
    garrison = state.garrisons.get(area, 0) if state.homes.get(area) == seat else 0
    return max(0, units - leaving) + garrison


def capital_threatened(state: Any, seat: int) -> bool:
    """Whether an enemy next to the capital could take it: its strength there comes within one
    of what holds it now (a Defense order, support or a house card decide such a battle)."""
    home = capital(state, seat)
    if home is None or R.controller(state, home) != seat:
        return False
    danger = threat(state, seat, home)
    return danger > 0 and danger + 1 >= held_strength(state, seat, home)
