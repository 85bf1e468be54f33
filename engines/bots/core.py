"""``choose``: a bot's move for one seat, seeing only what that seat sees.

The caller (a tournament, the server's worker) passes the state it holds; the bot never reads
it directly beyond the seat's legal moves. It searches on ``engine.determinize(state, seat, rng)``
only — every part the seat cannot see re-drawn — after the game's ``canonical`` hook (if any)
has put the hidden parts in a fixed order. So with the same generator the choice is the same on
the true state and on any state the seat cannot tell from it (tests/engines/test_bots.py).

``choose`` is a pure function of its arguments when the budget is counted in iterations; a time
limit (CPU time of the calling thread) may cut the search short, and then the answer depends on
the machine's speed.

``weigh`` is the same decision with its reasons kept: the best few moves with the playouts that
began with each and their average result, or why no search was needed (a hint at the table).
Where the game's rule picks (``policy``) and the game names rivals to it (``rivals``), a hint
plays each rival out by the good rules instead (``rollouts.py``, how "playouts"); the bot's own
move stays the rule's pick.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from engines.base import Engine, Move
from engines.bots import ismcts, rollouts
from engines.bots.hooks import Hooks, hooks_for, move_key, pick_by_kind, sensible_moves
from engines.kit.rng import Rng

LEVELS = ("easy", "good")


@dataclass(frozen=True)
class Budget:
    """How long "good" may think about one move: at most ``iterations`` search iterations, and
    at most ``seconds`` of CPU time (None: no time limit, and the choice is reproducible)."""

    iterations: int = 100_000
    seconds: float | None = 0.9
    clock: Callable[[], float] = time.thread_time

    def deadline(self) -> Callable[[], bool]:
        if self.seconds is None:
            return lambda: False
        clock, end = self.clock, self.clock() + self.seconds
        return lambda: clock() >= end


DEFAULT = Budget()


@dataclass(frozen=True)
class Choice:
    move: Move
    iterations: int = 0
    """Search iterations spent (0: no search was needed, or the level does not search)."""
    considered: int = 1
    """How many moves were worth considering (1: the move was forced, or the only sensible one)."""


def position(engine: Engine, state: Any, seat: int, hooks: Hooks) -> Any:
    """The state the bot works from: hidden parts in a fixed order when the game says how."""
    return hooks.canonical(state, seat) if hooks.canonical is not None else state


def decide(engine: Engine, state: Any, seat: int, level: str, rng: Rng, budget: Budget = DEFAULT,
           hooks: Hooks | None = None) -> Choice:
    """``choose``, with what the search spent."""
    weighed = weighing(engine, state, seat, level, rng, budget, hooks, top=1, explain=False)
    return Choice(weighed.moves[0].move, weighed.iterations, weighed.considered)


@dataclass(frozen=True)
class Weighed:
    """One move as the search weighed it: the playouts that began with it and their average
    result for the seat (None: not searched)."""

    move: Move
    playouts: int = 0
    result: float | None = None

    def as_json(self) -> dict[str, Any]:
        return {"move": self.move, "playouts": self.playouts,
                "result": None if self.result is None else round(self.result, 4)}


HOW = ("search", "forced", "only_sensible", "rule", "easy", "playouts")
"""How a decision's move was found: by searching, as the only legal move, as the only sensible
one, by the game's own rule for the step (a ``policy`` hook), at random by the easy level, or
(a hint only) where the rule decides, by playing out the rule's pick and its rivals: each move's
figures are then its playouts and their average result (``rollouts.py``), best average first."""


@dataclass(frozen=True)
class Weighing:
    """A decision with its reasons: the best moves first (at least one), how they were found,
    the search iterations spent and how many moves were sensible."""

    how: str
    moves: tuple[Weighed, ...]
    iterations: int = 0
    considered: int = 1

    def as_json(self) -> dict[str, Any]:
        return {"how": self.how, "moves": [w.as_json() for w in self.moves], "iterations": self.iterations,
                "considered": self.considered}


def weigh(engine: Engine, state: Any, seat: int, level: str, rng: Rng, budget: Budget = DEFAULT,
          hooks: Hooks | None = None, top: int = 3) -> Weighing:
    """``decide``, keeping the ``top`` moves the search weighed with its figures (a hint)."""
    return weighing(engine, state, seat, level, rng, budget, hooks, top, explain=True)


def weighing(engine: Engine, state: Any, seat: int, level: str, rng: Rng, budget: Budget, hooks: Hooks | None,
             top: int, explain: bool) -> Weighing:
    """``weigh``; with ``explain`` a rule's pick is played out against its rivals (a hint)."""
    if level not in LEVELS:
        raise ValueError(f"unknown bot level {level!r} (one of {', '.join(LEVELS)})")
    if seat not in engine.to_act(state):
        raise ValueError(f"seat {seat} is not awaited")
    legal = engine.legal_moves(state, seat)  # the same on every determinization: the seat sees them
    if not legal:
        raise ValueError(f"seat {seat} has no legal move")
    hooks = hooks_for(engine) if hooks is None else hooks
    if len(legal) == 1:
        return Weighing("forced", (Weighed(legal[0]),))
    base = position(engine, state, seat, hooks)
    determinize = engine.determinize  # type: ignore[attr-defined]
    seen = determinize(base, seat, rng) if hooks.sensible is not None or hooks.policy is not None else base
    moves = sensible_moves(hooks, engine, seen, seat, legal)
    if level == "easy" or len(moves) == 1:
        how = "only_sensible" if len(moves) == 1 else "easy"
        return Weighing(how, (Weighed(pick_by_kind(moves, rng)),), considered=len(moves))
    picked = hooks.policy(engine, seen, seat, moves) if hooks.policy is not None else None
    if picked is not None:
        rivals = hooks.rivals(engine, seen, seat, moves, picked) if explain and hooks.rivals is not None else []
        if len(rivals) > 1:
            played = rollouts.weigh_rivals(engine, base, seat, seat_count(engine, state), hooks, rivals, rng,
                                           budget.iterations, budget.deadline())
            if played.worlds:
                return Weighing("playouts", by_average(rivals, played)[:max(1, top)], played.worlds * len(rivals),
                                len(moves))
        return Weighing("rule", (Weighed(picked),), considered=len(moves))
    stats = ismcts.search(engine, base, seat, seat_count(engine, state), hooks, rng, budget.iterations,
                          budget.deadline())
    return Weighing("search", ranked(stats.root, moves)[:max(1, top)], stats.iterations, len(moves))


def ranked(root: ismcts.Node, moves: list[Move]) -> tuple[Weighed, ...]:
    """The bot's moves best first: the most playouts, then the best average, then the first
    listed (the first is the move the good bot plays)."""
    def weighed(m: Move) -> Weighed:
        child = root.children.get(move_key(m))
        if child is None or not child.visits:
            return Weighed(m)
        return Weighed(m, child.visits, child.reward / child.visits)

    order = [weighed(m) for m in moves]
    best_first = sorted(range(len(moves)), key=lambda i: (order[i].playouts, order[i].result or 0.0, -i),
                        reverse=True)
    return tuple(order[i] for i in best_first)


def by_average(rivals: list[Move], played: rollouts.Played) -> tuple[Weighed, ...]:
    """The rivals best average first (the first listed, the rule's pick, first among equals)."""
    order = sorted(range(len(rivals)), key=lambda i: (-played.average(i), i))
    return tuple(Weighed(rivals[i], played.worlds, played.average(i)) for i in order)


def seat_count(engine: Engine, state: Any) -> int:
    """How many seats the game has (the kit engines say; others keep ``seats`` in the state)."""
    seats_of = getattr(engine, "seats_of", None)
    return int(seats_of(state)) if seats_of is not None else int(state.seats)


def choose(engine: Engine, state: Any, seat: int, level: str, rng: Rng, budget: Budget = DEFAULT) -> Move:
    """The move a bot of ``level`` ("easy" or "good") plays for ``seat``, one of
    ``engine.legal_moves(state, seat)``. ``rng`` is the bot's own generator (never the game's);
    ``budget`` bounds the search of "good"."""
    return decide(engine, state, seat, level, rng, budget).move
