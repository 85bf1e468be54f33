"""Helpers for A Game of Thrones tests: build a position, plan orders through moves, play."""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping
from typing import Any

from engines.game_of_thrones import ENGINE
from engines.game_of_thrones.state import GameState, Unit
from engines.kit import Commitments


def seat(state: GameState, house: str) -> int:
    return state.houses.index(house)


def play(state: GameState, who: int | str, type: str, **fields: Any) -> list[Any]:
    s = who if isinstance(who, int) else seat(state, who)
    return ENGINE.play(state, s, {"type": type, **fields})


def position(players: int = 6, units: Mapping[str, tuple[str, list[str]]] | None = None,
             seed: int = 1, **changes: Any) -> GameState:
    """A new game whose board is replaced by ``units`` (area -> (house, kinds)), in Planning."""
    state = ENGINE.new_game(players, seed, {})
    if units is not None:
        state.units.clear()
        state.owner.clear()
        for area, (house, kinds) in units.items():
            state.units[area] = [Unit(k) for k in kinds]
            state.owner[area] = seat(state, house)
        asked = sorted({state.owner[a] for a in state.units})
        state.planning = Commitments.ask(asked)
        for s in asked:
            state.planning.choices[s] = {}
    for name, value in changes.items():
        setattr(state, name, value)
    return state


def plan(state: GameState, orders: Mapping[str, str], *, raven: bool = True) -> None:
    """Every house places the given orders (area -> token) through moves and declares ready;
    the raven holder passes unless ``raven`` is False."""
    for area, token in orders.items():
        play(state, state.owner[area], "order", area=area, order=token)
    for s in sorted(ENGINE.to_act(state)):
        play(state, s, "ready")
    top = state.decisions.top
    if raven and top is not None and top.kind == "raven":
        play(state, top.seats[0], "raven_pass")


MAX_LISTED = 300
"""Every listed-move set stays small: a march, a muster, casualties and retreats are built step
by step, never listed as every combination at once."""


def random_game(players: int, seed: int, limit: int = 30000) -> Iterator[GameState]:
    """The state after each random legal move of a whole game (undo and unorder are rare)."""
    rng = random.Random(seed)
    state = ENGINE.new_game(players, seed, {})
    yield state
    for _ in range(limit):
        awaited = sorted(ENGINE.to_act(state))
        if not awaited:
            return
        s = rng.choice(awaited)
        moves = ENGINE.legal_moves(state, s)
        assert len(moves) <= MAX_LISTED, f"{len(moves)} moves listed for a {state.decisions.top} decision"
        ENGINE.play(state, s, pick(rng, moves))
        yield state
    raise AssertionError("the game did not end")


def pick(rng: random.Random, moves: list[dict[str, Any]]) -> dict[str, Any]:
    """A random move, preferring progress: ready when allowed, few undos."""
    if {"type": "ready"} in moves and rng.random() < 0.7:
        return {"type": "ready"}
    if {"type": "undo"} in moves and not any(m["type"] == "end_march" for m in moves) and rng.random() < 0.5:
        return {"type": "undo"}  # a march staged beyond supply: step back rather than wander
    useful = [m for m in moves if m["type"] not in ("undo", "unorder")]
    if useful and rng.random() < 0.97:
        return rng.choice(useful)
    return rng.choice(moves)


QUIET = ("nothing", "keep", "none", "done", "end_muster")


def quiet_move(moves: list[dict[str, Any]]) -> dict[str, Any]:
    """The least eventful listed move: bid 0, end mustering, choose "nothing", else the first."""
    for m in moves:
        if m["type"] == "bid" and m["power"] == 0:
            return m
        if m["type"] == "end_muster" or m.get("option") in QUIET or m.get("choice") in QUIET:
            return m
    return moves[0]


def through_westeros(state: GameState) -> None:
    """Play the Westeros phase (if it is on) with the quietest listed moves."""
    while state.phase == "westeros" and ENGINE.to_act(state):
        s = min(ENGINE.to_act(state))
        ENGINE.play(state, s, quiet_move(ENGINE.legal_moves(state, s)))
