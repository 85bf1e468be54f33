"""Consolidate Power (power for crowns; the special order in a castle or stronghold area may
muster instead) and mustering in one area, unit by unit, shared with the Mustering card."""

from __future__ import annotations

from engines.base import Move
from engines.game_of_thrones import marches as M
from engines.game_of_thrones import rules as R
from engines.game_of_thrones import units as U
from engines.game_of_thrones.components import BOARD, ORDERS, PORT, RULES, SEA, SHIP, SIEGE
from engines.game_of_thrones.shared import area_name, unit_name
from engines.game_of_thrones.state import GameState
from engines.game_of_thrones.table import Auto, Doer, Mover, make
from engines.kit import Decision, Log, counted


def moves_consolidate(state: GameState, seat: int, top: Decision | None) -> list[Move]:
    """Resolve one Consolidate Power order: collect power, or with the special order in a
    castle or stronghold area, muster there instead."""
    out = []
    for area in M.my_orders(state, seat, "consolidate"):
        out.append(make("consolidate", area=area))
        if ORDERS[state.orders[area].token].special and BOARD.areas[area].castle:
            out.append(make("muster", area=area))
    return out


def do_consolidate(state: GameState, seat: int, move: Move, top: Decision | None, log: Log) -> None:
    state.decisions.pop()
    area = move["area"]
    del state.orders[area]
    if move["type"] == "muster":
        points = BOARD.areas[area].mustering_points
        state.decisions.push(Decision("muster", [seat], {"area": area, "points": points}))
        log.say("{0} musters in {a} ({n})", seat, a=area_name(area), n=counted(points, "point"))
        return
    got = R.gain_power(state, seat, R.crowns_power(state, seat, area))
    log.say("{0} consolidates power in {a}: +{n}", seat, a=area_name(area), n=got)


def muster_options(state: GameState, seat: int, area: str, points: int) -> list[Move]:
    """Seed, Mustering: footman 1, knight 2, siege engine 2, ship 1 (into the port or an
    adjacent sea holding no enemy ship), a footman upgraded for 1; supply and the unit limits
    hold after each unit."""
    out = []
    costs = RULES.muster_costs
    for kind in ("footman", "knight", SIEGE):
        if costs[kind] <= points and R.units_in_pool(state, seat, kind) > 0:
            size = len(state.units.get(area, []))
            if R.supply_ok(state, seat, {area: size + 1}):
                out.append(make("recruit", unit=kind, to=area))
    if costs[SHIP] <= points and R.units_in_pool(state, seat, SHIP) > 0:
        for b in sorted(BOARD.adjacent[area]):
            a = BOARD.areas[b]
            sea_ok = a.kind == SEA and state.owner.get(b, seat) == seat and R.passable(state, b)
            port_ok = a.kind == PORT and a.port_of == area and len(state.units.get(b, [])) < RULES.port_capacity
            if not (sea_ok or port_ok):
                continue
            if R.supply_ok(state, seat, {b: len(state.units.get(b, [])) + 1}):
                out.append(make("recruit", unit=SHIP, to=b))
    if RULES.upgrade_cost <= points and any(u.kind == "footman" for u in state.units.get(area, [])):
        for kind in ("knight", SIEGE):
            if R.units_in_pool(state, seat, kind) > 0:
                out.append(make("recruit", unit=f"upgrade:{kind}", to=area))
    return out


def moves_muster(state: GameState, seat: int, top: Decision | None) -> list[Move]:
    assert top is not None
    return [*muster_options(state, seat, top.data["area"], top.data["points"]),
            make("end_muster")]


def do_muster(state: GameState, seat: int, move: Move, top: Decision | None, log: Log) -> None:
    assert top is not None
    if move["type"] == "end_muster":
        state.decisions.pop()
        return
    unit, to = move["unit"], move["to"]
    if unit.startswith("upgrade:"):
        kind = unit.split(":", 1)[1]
        for u in state.units[to]:
            if u.kind == "footman":
                u.kind = kind
                break
        top.data["points"] -= RULES.upgrade_cost
        log.say("{0} upgrades a footman to a {k} in {a}", seat, k=unit_name(kind), a=area_name(to))
    else:
        U.enter(state, seat, to, [unit], log)
        top.data["points"] -= RULES.muster_costs[unit]
        log.say("{0} musters a {k} in {a}", seat, k=unit_name(unit), a=area_name(to))
    if top.data["points"] <= 0:
        state.decisions.pop()


def auto_muster(state: GameState, top: Decision, log: Log) -> bool:
    if not muster_options(state, top.seats[0], top.data["area"], top.data["points"]):
        state.decisions.pop()
        return True
    return False


MOVES: dict[str, Mover] = {"consolidate": moves_consolidate, "muster": moves_muster}


DO: dict[str, Doer] = {"consolidate": do_consolidate, "muster": do_muster}


AUTO: dict[str, Auto] = {"muster": auto_muster}
