"""Single-observer Information Set Monte Carlo Tree Search (Cowling, Powley and Whitehouse, 2012).

One tree for the bot's information set. Every iteration draws a fresh determinization of the
position for the bot's seat, walks the tree using only the sensible moves (``hooks.py``: every
legal move but passes and what the game's hook rules out) of that determinization
(a child's *availability* counts how often it could have been chosen, and replaces the parent's
visits in UCB), adds one node, plays the rest out (random sensible moves, or a few of them and then
the game's evaluation), and credits each node with the reward of the seat that chose it.

When several seats are awaited at once (a simultaneous choice), the bot's own seat moves first in
the tree, so its choice never rests on the others' hidden choices; then the lowest seat.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from engines.base import Engine, Move
from engines.bots.hooks import Hooks, move_key, pick_by_kind, sensible_moves
from engines.kit.engine import KitEngine
from engines.kit.rng import Rng

MAX_PLAYOUT = 5000
"""A playout longer than this is scored as a draw (no game here comes near it)."""


@dataclass(slots=True)
class Node:
    seat: int = -1  # the seat whose move led here
    move: Move | None = None
    visits: int = 0
    reward: float = 0.0
    available: int = 0
    children: dict[str, Node] = field(default_factory=dict)

    def ucb(self, c: float) -> float:
        return self.reward / self.visits + c * math.sqrt(math.log(self.available) / self.visits)


@dataclass(slots=True)
class Stats:
    iterations: int = 0
    root: Node = field(default_factory=Node)


def actor(awaited: frozenset[int], me: int) -> int:
    """Who moves next in the tree: the bot when it is awaited, else the lowest awaited seat."""
    return me if me in awaited else min(awaited)


def shares(engine: Engine, state: Any, seats: int, margin: float | None = None) -> list[float]:
    """Each seat's share of the victory (ties split it; nobody's victory: equal shares), blended
    half and half with its lead in score when ``margin`` is set."""
    result = engine.result(state)
    if result is None or not result.winners:
        won = [1.0 / seats] * seats
    else:
        won = [1.0 / len(result.winners) if s in result.winners else 0.0 for s in range(seats)]
    if margin is None or result is None or len(result.scores) != seats:
        return won
    return [0.5 * w + 0.5 * lead(result.scores, s, margin) for s, w in enumerate(won)]


def lead(scores: Sequence[float], seat: int, scale: float) -> float:
    """A logistic of ``seat``'s lead over the best other seat, in (0, 1).

    >>> lead([10, 4], 0, 6.0) > 0.73 > lead([10, 4], 1, 6.0)
    True
    """
    best_other = max(x for s, x in enumerate(scores) if s != seat)
    return 1.0 / (1.0 + math.exp(max(-50.0, min(50.0, -(scores[seat] - best_other) / scale))))


def player(engine: Engine) -> Callable[[Any, int, Move], object]:
    """How the search plays a move it took from ``legal_moves``: a kit engine's ``apply`` (the
    move is known legal, so its checks are skipped), else ``play``."""
    return engine.apply if isinstance(engine, KitEngine) else engine.play


def playout(engine: Engine, state: Any, seats: int, me: int, hooks: Hooks, rng: Rng) -> Sequence[float]:
    """Play on from ``state`` (changing it) and return each seat's reward."""
    play = player(engine)
    limit = hooks.depth if hooks.evaluate is not None and hooks.depth is not None else MAX_PLAYOUT
    for _ in range(limit):
        awaited = engine.to_act(state)
        if not awaited:
            return shares(engine, state, seats, hooks.margin)
        seat = actor(awaited, me)
        moves = sensible_moves(hooks, engine, state, seat, engine.legal_moves(state, seat))
        play(state, seat, pick_by_kind(moves, rng))
    if not engine.to_act(state):
        return shares(engine, state, seats, hooks.margin)
    if hooks.evaluate is not None:
        return hooks.evaluate(engine, state)
    return [1.0 / seats] * seats


def search(engine: Engine, base: Any, seat: int, seats: int, hooks: Hooks, rng: Rng,
           iterations: int, out_of_time: Callable[[], bool]) -> Stats:
    """Grow the tree from ``base`` (the bot's position; only its determinizations are searched)
    for ``iterations`` or until ``out_of_time()``; the root's children are the bot's moves."""
    stats = Stats()
    root = stats.root
    c = hooks.exploration
    determinize = engine.determinize  # type: ignore[attr-defined]
    play = player(engine)
    while stats.iterations < iterations and not (stats.iterations and out_of_time()):
        stats.iterations += 1
        state = determinize(base, seat, rng)
        node = root
        path: list[Node] = []
        rewards: Sequence[float] | None = None
        while True:
            awaited = engine.to_act(state)
            if not awaited:
                rewards = shares(engine, state, seats, hooks.margin)
                break
            mover = actor(awaited, seat)
            legal = sensible_moves(hooks, engine, state, mover, engine.legal_moves(state, mover))
            untried: list[tuple[str, Move]] = []
            best: Node | None = None
            best_score = -math.inf
            for m in legal:
                key = move_key(m)
                child = node.children.get(key)
                if child is None:
                    untried.append((key, m))
                    continue
                child.available += 1
                if not untried:
                    score = child.ucb(c)
                    if score > best_score:
                        best, best_score = child, score
            if untried:
                key, m = untried[rng.below(len(untried))]
                child = node.children[key] = Node(mover, m, available=1)
                play(state, mover, m)
                path.append(child)
                break
            assert best is not None and best.move is not None
            play(state, mover, best.move)
            path.append(best)
            node = best
        if rewards is None:
            rewards = playout(engine, state, seats, seat, hooks, rng)
        root.visits += 1
        for n in path:
            n.visits += 1
            n.reward += rewards[n.seat]
    return stats

