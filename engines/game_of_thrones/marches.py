"""The action phase's raids and marches: a raid removes an adjacent enemy order; a march is built
one unit at a time (undo, end with supply checked, maybe leaving a Power token) and may start one
combat."""

from __future__ import annotations

from collections import Counter

from engines.base import Move
from engines.game_of_thrones import combat as C
from engines.game_of_thrones import rules as R
from engines.game_of_thrones import units as U
from engines.game_of_thrones.components import BOARD, LAND, ORDERS, PORT, RULES
from engines.game_of_thrones.shared import area_name, kinds_text
from engines.game_of_thrones.state import GameState
from engines.game_of_thrones.table import Doer, Mover, make
from engines.kit import Decision, Log


def moves_raid(state: GameState, seat: int, top: Decision | None) -> list[Move]:
    """Resolve one of your Raid orders: remove an adjacent enemy order it may raid, or none."""
    out = []
    for area in my_orders(state, seat, "raid"):
        for target in R.raid_targets(state, seat, area):
            out.append(make("raid", area=area, target=target))
        out.append(make("raid", area=area, target=""))
    return out


def do_raid(state: GameState, seat: int, move: Move, top: Decision | None, log: Log) -> None:
    state.decisions.pop()
    area, target = move["area"], move["target"]
    del state.orders[area]
    if not target:
        log.say("{0} removes the raid in {a} without raiding", seat, a=area_name(area))
        return
    victim = state.orders.pop(target)
    log.say("{0} raids from {a}: {1}'s {o} in {t} is removed", seat, victim.seat, a=area_name(area),
            o=ORDERS[victim.token].name, t=area_name(target))
    if ORDERS[victim.token].kind == "consolidate":
        # Rules §2.1: raiding Consolidate Power: the raider gains 1 power, the victim loses 1
        if state.power[victim.seat] > 0:
            state.power[victim.seat] -= 1
            log.say("{0} loses a Power token", victim.seat)
        if R.gain_power(state, seat, 1):
            log.say("{0} gains a Power token", seat)


def my_orders(state: GameState, seat: int, kind: str) -> list[str]:
    return sorted(a for a, o in state.orders.items() if o.seat == seat and ORDERS[o.token].kind == kind)


def moves_march(state: GameState, seat: int, top: Decision | None) -> list[Move]:
    return [make("march", area=a) for a in my_orders(state, seat, "march")]


def do_march(state: GameState, seat: int, move: Move, top: Decision | None, log: Log) -> None:
    state.decisions.pop()
    state.decisions.push(Decision("march_moves", [seat], {"from": move["area"], "staged": []}))


def movable(state: GameState, origin: str, staged: list[list[str]]) -> Counter[str]:
    left = Counter(u.kind for u in state.units.get(origin, []) if not u.routed)
    left.subtract(Counter(k for k, _ in staged))
    return +left


def march_plan(state: GameState, seat: int, origin: str,
                staged: list[list[str]]) -> tuple[dict[str, int], str | None]:
    """Sizes after the staged moves (the attacked area counted as won) and the attacked area."""
    attack = next((to for _, to in staged if R.is_attack(state, seat, to)), None)
    changes = {origin: len(state.units.get(origin, [])) - len(staged)}
    for _, to in staged:
        base = 0 if to == attack else len(state.units.get(to, []))
        changes[to] = changes.get(to, base) + 1
    return changes, attack


def moves_march_moves(state: GameState, seat: int, top: Decision | None) -> list[Move]:
    """A march step by step: move one unit to an area it may reach (at most one attacked
    area per march), undo the last step, or end the march (supply must hold)."""
    assert top is not None
    origin, staged = top.data["from"], top.data["staged"]
    out = []
    _, attack = march_plan(state, seat, origin, staged)
    for kind in sorted(movable(state, origin, staged)):
        for to in sorted(R.destinations(state, seat, origin, kind)):
            if attack is not None and to != attack and R.is_attack(state, seat, to):
                continue
            if BOARD.areas[to].kind == PORT:
                ships = len(state.units.get(to, [])) + sum(1 for _, t in staged if t == to)
                if ships >= RULES.port_capacity:
                    continue
            out.append(make("move", unit=kind, to=to))
    if staged:
        out.append(make("undo"))
    changes, attack = march_plan(state, seat, origin, staged)
    if R.supply_ok(state, seat, changes):
        out.append(make("end_march", power=False))
        if may_leave_power(state, seat, origin, staged):
            out.append(make("end_march", power=True))
    return out


def may_leave_power(state: GameState, seat: int, origin: str, staged: list[list[str]]) -> bool:
    """Rules §2.2: leaving a land area empty, a house may place a Power token from its
    available power there to keep control (not at sea, not needed in its home area)."""
    return (BOARD.areas[origin].kind == LAND and len(staged) == len(state.units.get(origin, []))
            and state.power[seat] > 0 and origin not in state.tokens and state.homes.get(origin) != seat)


def do_march_moves(state: GameState, seat: int, move: Move, top: Decision | None, log: Log) -> None:
    assert top is not None
    staged = top.data["staged"]
    if move["type"] == "move":
        staged.append([move["unit"], move["to"]])
        return
    if move["type"] == "undo":
        staged.pop()
        return
    state.decisions.pop()
    origin = top.data["from"]
    _, attack = march_plan(state, seat, origin, staged)
    token = state.orders.pop(origin).token
    peaceful = [(k, to) for k, to in staged if to != attack]
    army = [k for k, to in staged if to == attack]
    for kind, _to in staged:
        U.take_unit(state, origin, kind)
    by_dest: dict[str, list[str]] = {}
    for kind, to in peaceful:
        by_dest.setdefault(to, []).append(kind)
    if not staged:
        log.say("{0} resolves the march in {a} without moving", seat, a=area_name(origin))
    for to, kinds in sorted(by_dest.items()):
        U.enter(state, seat, to, kinds, log)
        log.say("{0} marches {u} from {a} to {b}", seat, u=kinds_text(kinds), a=area_name(origin), b=area_name(to))
    if move["power"]:
        state.power[seat] -= 1
        state.tokens[origin] = seat
        log.say("{0} leaves a Power token in {a}", seat, a=area_name(origin))
    if attack is not None:
        C.start_combat(state, seat, origin, attack, army, token, log)


MOVES: dict[str, Mover] = {"raid": moves_raid, "march": moves_march, "march_moves": moves_march_moves}


DO: dict[str, Doer] = {"raid": do_raid, "march": do_march, "march_moves": do_march_moves}
