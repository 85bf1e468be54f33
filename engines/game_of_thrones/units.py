"""Units on and off the board: taking a unit out of an area, destroying one, units entering an
area (an enemy Power token there goes back; the port of a land area taken changes hands and its
new holder is asked how many captured ships to replace), and the questions effects raise."""

from __future__ import annotations

from engines.base import Move
from engines.game_of_thrones import rules as R
from engines.game_of_thrones.components import BOARD, RULES, SHIP
from engines.game_of_thrones.shared import area_name
from engines.game_of_thrones.state import GameState, Unit
from engines.game_of_thrones.table import Doer, Mover, make
from engines.kit import Decision, Log, counted


def take_unit(state: GameState, area: str, kind: str) -> Unit:
    us = state.units[area]
    i = next(i for i, u in enumerate(us) if u.kind == kind and not u.routed)
    unit = us.pop(i)
    if not us:
        vacate(state, area)
    return unit


def destroy(state: GameState, area: str, kind: str, *, routed_first: bool = False) -> None:
    us = state.units[area]
    order = sorted(range(len(us)), key=lambda i: (us[i].kind != kind, us[i].routed != routed_first))
    us.pop(order[0])
    if not us:
        vacate(state, area)


def vacate(state: GameState, area: str) -> list[Unit]:
    """Every unit leaves ``area``, and with them its holder and the order there; the units left."""
    units = state.units.pop(area)
    del state.owner[area]
    state.orders.pop(area, None)
    return units


def enter(state: GameState, seat: int, area: str, kinds: list[str], log: Log,
           *, routed: bool = False) -> None:
    """Units arrive in an area: an enemy Power token there goes back to its pool."""
    if area in state.tokens and state.tokens[area] != seat:
        victim = state.tokens.pop(area)
        log.say("{0}'s Power token in {a} returns to the Power Pool", victim, a=area_name(area))
    state.units.setdefault(area, []).extend(Unit(k, routed) for k in kinds)
    state.owner[area] = seat
    port = BOARD.port_of_land.get(area)
    if port is not None and state.owner.get(port, seat) != seat:
        # Rules §3.8: the new holder of a land area takes its port: the other house's ships
        # there are removed, and the new holder may replace them with its own (asked next)
        victim = state.owner.pop(port)
        n = len(state.units.pop(port))
        state.orders.pop(port, None)
        log.say("{0} loses {n} in {p} to {1}", victim, seat, n=counted(n, "ship"), p=area_name(port))
        if port_choices(state, seat, port, n) != [0]:
            state.pending.append({"kind": "port", "seat": seat, "port": port, "ships": n})


def port_choices(state: GameState, seat: int, port: str, ships: int) -> list[int]:
    """How many of the captured ships the new holder may replace with its own: its available
    ships, within its supply limits (0: they are all destroyed)."""
    most = min(ships, R.units_in_pool(state, seat, SHIP), RULES.port_capacity)
    return [k for k in range(most + 1) if k < 2 or R.supply_ok(state, seat, {port: k})]


def moves_port(state: GameState, seat: int, top: Decision | None) -> list[Move]:
    assert top is not None
    return [make("replace", ships=k)
            for k in reversed(port_choices(state, seat, top.data["port"], top.data["ships"]))]


def do_port(state: GameState, seat: int, move: Move, top: Decision | None, log: Log) -> None:
    assert top is not None
    state.decisions.pop()
    port, k = top.data["port"], move["ships"]
    if k:
        state.units[port] = [Unit(SHIP) for _ in range(k)]
        state.owner[port] = seat
    log.say("{0} replaces {k} in {p} with its own", seat, k=counted(k, "captured ship"), p=area_name(port))


def flush_pending(state: GameState) -> None:
    """Questions raised by an effect (a captured port) are asked before the flow goes on."""
    for item in reversed(state.pending):
        state.decisions.push(Decision(item["kind"], [item["seat"]],
                                      {k: v for k, v in item.items() if k not in ("kind", "seat")}))
    state.pending = []


MOVES: dict[str, Mover] = {"port": moves_port}


DO: dict[str, Doer] = {"port": do_port}
