"""The seeded generator every engine keeps in its state.

``Rng`` is PCG64 (a 128-bit linear congruential generator with the XSL-RR output function,
O'Neill 2014; the same numbers as numpy's ``PCG64`` from the same state and increment), written
out in plain integer arithmetic so that it draws the same numbers on every Python version and
platform: a published record keeps verifying after an upgrade. All 128 bits of
a table's seed go into its state.

The state is JSON-safe text (``encode``/``decode``); it never appears in a view or a log line.
"""

from __future__ import annotations

from collections.abc import MutableSequence, Sequence
from typing import TypeVar

T = TypeVar("T")

_M128 = (1 << 128) - 1
_M64 = (1 << 64) - 1
_MULT = 0x2360ED051FC65DA44385DF649FCCF645  # PCG's 128-bit default multiplier
_INC = 0x5851F42D4C957F2D14057B7EF767814F  # PCG's 128-bit default stream (odd)


class Rng:
    """A deterministic generator: ``Rng.from_seed(seed)``, then ``below``, ``shuffle``, ``choice``.

    >>> r = Rng.from_seed(0x0123456789ABCDEF0123456789ABCDEF)
    >>> [r.below(6) for _ in range(5)]
    [3, 5, 5, 4, 0]
    >>> Rng.decode(r.encode()) == r
    True
    """

    __slots__ = ("state",)

    def __init__(self, state: int) -> None:
        self.state = state & _M128

    @classmethod
    def from_seed(cls, seed: int) -> Rng:
        """Seeded as PCG does it: step, add the seed (all 128 bits), step."""
        rng = cls(0)
        rng._step()
        rng.state = (rng.state + (seed & _M128)) & _M128
        rng._step()
        return rng

    def _step(self) -> None:
        self.state = (self.state * _MULT + _INC) & _M128

    def next64(self) -> int:
        """The next 64 random bits."""
        new = self.state = (self.state * _MULT + _INC) & _M128
        xored = ((new >> 64) ^ new) & _M64
        rot = new >> 122
        return ((xored >> rot) | (xored << ((-rot) & 63))) & _M64

    def below(self, n: int) -> int:
        """A uniform integer in ``[0, n)``, without modulo bias (rejection sampling)."""
        if n <= 0:
            raise ValueError("below(n) needs n >= 1")
        limit = ((1 << 64) // n) * n
        while True:  # next64, inlined: shuffles call this once per card
            new = self.state = (self.state * _MULT + _INC) & _M128
            xored = ((new >> 64) ^ new) & _M64
            rot = new >> 122
            x = ((xored >> rot) | (xored << ((-rot) & 63))) & _M64
            if x < limit:
                return x % n

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Fisher–Yates in place."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def choice(self, items: Sequence[T]) -> T:
        return items[self.below(len(items))]

    def fork(self) -> Rng:
        """An independent generator drawn from this one (e.g. a bot's own stream)."""
        return Rng.from_seed((self.next64() << 64) | self.next64())

    def encode(self) -> str:
        return format(self.state, "x")

    @classmethod
    def decode(cls, text: str) -> Rng:
        return cls(int(text, 16))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Rng) and other.state == self.state

    def __hash__(self) -> int:
        return hash(self.state)

    def __repr__(self) -> str:
        return "Rng(<hidden>)"  # never print the state: it would tell the future
