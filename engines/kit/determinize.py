"""Helpers for ``determinize``: re-draw what a seat cannot see, keeping what it can.

The usual hidden part is a set of places (other players' hands, a deck) whose *sizes* are known
but whose *contents* are not: pool their cards, sort them, shuffle, and deal back the same sizes.
Sorting first makes the result depend on what the places hold, not on the order they hold it in:
two states a seat cannot tell apart are re-drawn alike from the same generator.
"""

from __future__ import annotations

from collections.abc import MutableSequence
from typing import TYPE_CHECKING, TypeVar

from engines.kit.rng import Rng

if TYPE_CHECKING:
    from _typeshed import SupportsRichComparison

T = TypeVar("T", bound="SupportsRichComparison")


def redeal(rng: Rng, *places: MutableSequence[T]) -> None:
    """Pool the items of ``places``, sort them, shuffle them, and refill each place to its own
    size, in place. Each list keeps its length; together they keep their items."""
    pool: list[T] = sorted(x for place in places for x in place)
    rng.shuffle(pool)
    i = 0
    for place in places:
        n = len(place)
        place[:] = pool[i:i + n]
        i += n
