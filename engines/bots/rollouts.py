"""Weighing a few rival moves by playing each out (a hint where the good bot decides by rule).

Where a game's ``policy`` picks a move because a short search sees little (A Game of Thrones'
orders), a hint still wants figures: each rival move is played out from the same worlds, every
seat then played by the good bot's own rules (its ``policy``, and an easy pick where the policy
has none) until the game's ``horizon`` (the end of the round), and scored with the game's
``evaluate`` for the seat (a finished game: the seat's share of the victory, as in a search).

The worlds are determinizations of the bot's position only, drawn from the bot's generator, and
every rival is played out in each world with the same generator (common random numbers: the
figures differ by the move, not by the luck of the draw). A world is counted only when every
rival's playout in it finished before the deadline, so each rival has the same number of
playouts and each figure is exactly the average of the playouts counted.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from engines.base import Engine, Move
from engines.bots.hooks import Hooks, pick_by_kind, sensible_moves
from engines.bots.ismcts import MAX_PLAYOUT, actor, player, shares
from engines.kit.rng import Rng

WORLD_SEEDS = 1 << 62
"""Seeds of the worlds (each rival's playouts in one world share it)."""


@dataclass(frozen=True)
class Played:
    """Each rival's playouts and the sum of the seat's results in them (same order as the
    rivals); ``worlds`` is how many worlds were played out, one playout per rival each."""

    worlds: int
    totals: tuple[float, ...]

    def average(self, i: int) -> float:
        return self.totals[i] / self.worlds


def good_rules_move(engine: Engine, state: Any, seat: int, hooks: Hooks, rng: Rng) -> Move:
    """The good bot's move by its own rules: the ``policy`` pick, else an easy pick."""
    moves = sensible_moves(hooks, engine, state, seat, engine.legal_moves(state, seat))
    picked = hooks.policy(engine, state, seat, moves) if hooks.policy is not None and len(moves) > 1 else None
    return picked if picked is not None else pick_by_kind(moves, rng)


def play_out(engine: Engine, state: Any, seat: int, seats: int, hooks: Hooks, rng: Rng,
             out_of_time: Callable[[], bool]) -> float | None:
    """The seat's result once every seat has played by the good rules up to the horizon
    (changing ``state``); None when the deadline came first."""
    assert hooks.horizon is not None and hooks.evaluate is not None
    start = copy.copy(state)  # the horizon compares with the start (a shallow copy holds the counters)
    play = player(engine)
    for _ in range(MAX_PLAYOUT):
        awaited = engine.to_act(state)
        if not awaited:
            return shares(engine, state, seats, hooks.margin)[seat]
        if hooks.horizon(start, state):
            break
        if out_of_time():
            return None
        mover = actor(awaited, seat)
        play(state, mover, good_rules_move(engine, state, mover, hooks, rng))
    return hooks.evaluate(engine, state)[seat]


def weigh_rivals(engine: Engine, base: Any, seat: int, seats: int, hooks: Hooks, rivals: Sequence[Move],
                 rng: Rng, playouts: int, out_of_time: Callable[[], bool]) -> Played:
    """Play each rival out from the same worlds until ``playouts`` are spent or time is out."""
    determinize = engine.determinize  # type: ignore[attr-defined]
    play = player(engine)
    totals = [0.0] * len(rivals)
    worlds = 0
    while (worlds + 1) * len(rivals) <= playouts and not out_of_time():
        world = rng.below(WORLD_SEEDS)
        results: list[float] = []
        for move in rivals:
            state = determinize(base, seat, Rng.from_seed(world))
            play(state, seat, move)
            result = play_out(engine, state, seat, seats, hooks, Rng.from_seed(world), out_of_time)
            if result is None:
                return Played(worlds, tuple(totals))
            results.append(result)
        worlds += 1
        totals = [t + r for t, r in zip(totals, results, strict=True)]
    return Played(worlds, tuple(totals))
