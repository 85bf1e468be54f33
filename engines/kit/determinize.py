"""Helpers for ``determinize``: re-draw what a seat cannot see, keeping what it can.

The usual hidden part is a set of places (other players' hands, a deck) whose *sizes* are known
but whose *contents* are not: pool their cards, shuffle, and deal back the same sizes.
"""

from __future__ import annotations

from collections.abc import MutableSequence
from typing import TypeVar

from engines.kit.rng import Rng

T = TypeVar("T")


def redeal(rng: Rng, *places: MutableSequence[T]) -> None:
    """Pool the items of ``places``, shuffle them, and refill each place to its own size, in
    place. Each list keeps its length; together they keep their items."""
    pool: list[T] = [x for place in places for x in place]
    rng.shuffle(pool)
    i = 0
    for place in places:
        n = len(place)
        place[:] = pool[i:i + n]
        i += n
