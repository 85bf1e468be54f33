"""What a game may tell its bots, and what every game gets without telling anything.

A game's bots work with no hooks at all: "easy" picks among the generic sensible moves, "good"
searches with random sensible playouts to the end. A game may add, in ``engines/bots/<id>.py``
(never inside the engine):

* ``canonical(state, seat)`` — a copy in which every part ``seat`` cannot see is put in a fixed
  order (sorted), so that ``determinize`` of it depends on nothing but what ``seat`` sees and the
  bot's generator. Without it a bot's choice is still drawn from the same distribution whatever
  the hidden cards are, but not move for move the same; with it, it is (tested).
* ``sensible(engine, state, seat, moves)`` — the moves worth considering at random (the easy bot,
  and every playout). ``state`` is always a determinization for ``seat`` or a state inside a
  search, never the true one.
* ``evaluate(engine, state)`` — for each seat, how good the position looks, in [0, 1]; with
  ``depth`` (moves), playouts stop there and the evaluation stands in for the result.
* ``components(engine, state)`` — at the end of a game, who held what (balance checks).
* ``policy(engine, state, seat, moves)`` — the good level's own pick among the sensible moves
  where the game knows better than a short search (``state`` a determinization, as for
  ``sensible``); None: search as usual.
* ``rivals(engine, state, seat, moves, picked)`` and ``horizon(start, state)`` — for a hint where
  ``policy`` picked: the moves worth comparing with the pick (it among them), each then played
  out by the good rules until ``horizon`` says the playout has gone far enough
  (``rollouts.py``); without them the pick stands alone.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from engines.base import Engine, Move
from engines.kit.rng import Rng

Canonical = Callable[[Any, int], Any]
Sensible = Callable[[Engine, Any, int, list[Move]], list[Move]]
Evaluate = Callable[[Engine, Any], Sequence[float]]
Components = Callable[[Engine, Any], dict[str, list[int]]]
Policy = Callable[[Engine, Any, int, list[Move]], Move | None]
Rivals = Callable[[Engine, Any, int, list[Move], Move], list[Move]]
Horizon = Callable[[Any, Any], bool]

PASSES = frozenset({"pass", "skip", "decline"})
"""Move types that give up a turn or a chance: never the easy bot's pick while it has another."""


@dataclass(frozen=True)
class Hooks:
    canonical: Canonical | None = None
    sensible: Sensible | None = None
    evaluate: Evaluate | None = None
    depth: int | None = None
    """Playout moves before ``evaluate`` stands in for the result (None: play to the end)."""
    margin: float | None = None
    """When set, a finished playout rewards each seat half for its share of the victory and half
    for its lead in final score over the best other seat (a logistic, ``margin`` points a unit):
    a search then tells a near miss from a rout."""
    exploration: float = 0.7
    """The UCB exploration constant of the search (rewards lie in [0, 1])."""
    components: Components | None = None
    """For balance checks: at the end of a game, each component a player can hold (a card, a
    borough, a deck) -> the seats holding it (``python -m engines.tournament --balance``)."""
    policy: Policy | None = None
    """The good level's own choice where a short search sees little (A Game of Thrones' hidden
    orders, whose worth shows only rounds later); None from it: search as usual."""
    rivals: Rivals | None = None
    """For a hint where ``policy`` picked: the moves to play out against each other (the pick
    among them; fewer than two: the pick stands alone). Needs ``horizon`` and ``evaluate``."""
    horizon: Horizon | None = None
    """Whether a hint's playout, begun at ``start``, stops at ``state`` (then ``evaluate``)."""


NONE = Hooks()

GAMES: dict[str, str] = {
    "tally": "engines.bots.tally",
    "london": "engines.bots.london",
    "tower_of_london": "engines.bots.tower_of_london",
    "towers_of_babylon": "engines.bots.towers_of_babylon",
    "game_of_thrones": "engines.bots.game_of_thrones",
}
"""Game id -> the module whose ``HOOKS`` serve it (imported when first asked for)."""

_loaded: dict[str, Hooks] = {}


def hooks_for(engine: Engine) -> Hooks:
    """The hooks of ``engine``'s game (``NONE`` for a game that has none)."""
    found = _loaded.get(engine.id)
    if found is None:
        path = GAMES.get(engine.id)
        found = importlib.import_module(path).HOOKS if path else NONE
        assert isinstance(found, Hooks)
        _loaded[engine.id] = found
    return found


def move_key(move: Move) -> str:
    """A move as a hashable key (moves from ``legal_moves`` are in canonical form).

    >>> move_key({"type": "play", "card": 3})
    "{'type': 'play', 'card': 3}"
    """
    return repr(move)


def kind(move: Move) -> tuple[Any, ...]:
    """What sort of move this is: its type and its word-valued fields ("draw from the deck",
    "choose action develop"); the card or place it names does not count.

    >>> kind({"type": "draw", "from": "board", "card": 7})
    ('draw', 'board')
    """
    return tuple([v for v in move.values() if v.__class__ is str])


def generic_sensible(moves: list[Move]) -> list[Move]:
    """Every move but the passes, unless passing is all there is.

    >>> generic_sensible([{"type": "pass"}, {"type": "place", "building": 3}])
    [{'type': 'place', 'building': 3}]
    """
    kept = [m for m in moves if m["type"] not in PASSES]
    return kept or moves


def sensible_moves(hooks: Hooks, engine: Engine, state: Any, seat: int, moves: list[Move]) -> list[Move]:
    """The moves an easy player would consider: the generic filter, then the game's own."""
    kept = generic_sensible(moves)
    if hooks.sensible is not None:
        kept = hooks.sensible(engine, state, seat, kept) or kept
    return kept


def pick_by_kind(moves: list[Move], rng: Rng) -> Move:
    """A kind of move uniformly, then a move of that kind uniformly: the many "take this card"
    moves do not drown the one "end the turn"."""
    kinds: dict[tuple[Any, ...], list[Move]] = {}
    for m in moves:
        key = tuple([v for v in m.values() if v.__class__ is str])
        group = kinds.get(key)
        if group is None:
            kinds[key] = [m]
        else:
            group.append(m)
    if len(kinds) == 1:
        return moves[rng.below(len(moves))]
    group = list(kinds.values())[rng.below(len(kinds))]
    return group[rng.below(len(group))]
