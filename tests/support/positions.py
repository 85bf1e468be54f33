"""Positions of seeded random games, for the tests of what a bot (or a hint) does with a seat's
information: copies of the state every few moves, the seats with a real choice, and (Tally) the
same position for one seat with the hidden parts moved about."""

from __future__ import annotations

import copy
import random
from typing import Any

from engines.base import Engine


def states(engine: Engine, seats: int, seed: int, every: int = 3, options: dict[str, Any] | None = None,
           limit: int = 200) -> list[Any]:
    """Positions of one seeded random game, every ``every`` moves (copies)."""
    rng = random.Random(seed)
    state = engine.new_game(seats, seed, options or {})
    out = []
    for n in range(limit):
        awaited = sorted(engine.to_act(state))
        if not awaited:
            break
        if n % every == 0:
            out.append(copy.deepcopy(state))
        seat = rng.choice(awaited)
        engine.play(state, seat, rng.choice(engine.legal_moves(state, seat)))
    return out


def deciding(engine: Engine, state: Any) -> list[int]:
    """The awaited seats with more than one legal move."""
    return [s for s in sorted(engine.to_act(state)) if len(engine.legal_moves(state, s)) > 1]


def swap_other_hands(state: Any, seat: int) -> Any:
    """Tally: the same position for ``seat``, the other seats' hands passed round, the deck reversed."""
    out = copy.deepcopy(state)
    others = [s for s in range(out.seats) if s != seat]
    hands = [out.hands[s] for s in others]
    for s, h in zip(others, hands[1:] + hands[:1], strict=True):
        out.hands[s] = h
    out.deck.reverse()
    return out
