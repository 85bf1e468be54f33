"""Hidden simultaneous commitments: several seats choose at once, nobody sees another's choice
until everyone has chosen, then all are revealed together.

A ``Commitments`` lives in the game's state (it snapshots like any dataclass). Each seat's view
shows its own choice (``own``) and, of the others, only *whether* they have chosen and whether
they are ready (``public``). Where the game allows it a seat may change its choice until it
declares itself ready (orders placed one by one); otherwise choosing is final (``ready=True``).

    c = Commitments.ask([0, 1, 2])
    c.choose(0, [3, 9], ready=True)
    c.awaited()         # frozenset({1, 2})
    c.public()          # {"asked": [0, 1, 2], "chosen": [0], "ready": [0]}
    ...when c.everyone_ready(): choices = c.reveal()
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(slots=True)
class Commitments:
    """Who is asked, what each has chosen so far (hidden), and who has declared themselves ready."""

    asked: list[int] = field(default_factory=list)
    choices: dict[int, Any] = field(default_factory=dict)
    ready: list[int] = field(default_factory=list)

    @classmethod
    def ask(cls, seats: list[int] | range) -> Commitments:
        return cls(asked=sorted(seats))

    @property
    def open(self) -> bool:
        """True while a round of choosing is going on."""
        return bool(self.asked)

    def awaited(self) -> frozenset[int]:
        return frozenset(self.asked).difference(self.ready)

    def choose(self, seat: int, choice: Any, *, ready: bool = False) -> None:
        """Record (or, before ready, replace) a seat's choice. The caller has checked the rules."""
        if seat not in self.asked or seat in self.ready:
            raise ValueError(f"seat {seat} may not choose now")
        self.choices[seat] = choice
        if ready:
            self.ready.append(seat)
            self.ready.sort()

    def withdraw(self, seat: int) -> None:
        """Take back a seat's choice before it is ready (an order taken off the board): the seat
        has then not chosen."""
        if seat not in self.asked or seat in self.ready:
            raise ValueError(f"seat {seat} may not withdraw now")
        self.choices.pop(seat, None)

    def declare_ready(self, seat: int) -> None:
        if seat not in self.asked:
            raise ValueError(f"seat {seat} is not asked")
        if seat not in self.ready:
            self.ready.append(seat)
            self.ready.sort()

    def has_chosen(self, seat: int) -> bool:
        return seat in self.choices

    def everyone_ready(self) -> bool:
        return bool(self.asked) and len(self.ready) == len(self.asked)

    def own(self, seat: int | None) -> Any:
        """This seat's own choice (None: none yet, or a spectator)."""
        return self.choices.get(seat) if seat is not None else None

    def public(self) -> dict[str, list[int]]:
        """What everyone may know: who is asked, who has chosen, who is ready — never what."""
        return {"asked": list(self.asked), "chosen": sorted(self.choices), "ready": list(self.ready)}

    def reveal(self) -> dict[int, Any]:
        """Every choice at once; the commitments are then closed."""
        choices = dict(sorted(self.choices.items()))
        self.asked, self.choices, self.ready = [], {}, []
        return choices
