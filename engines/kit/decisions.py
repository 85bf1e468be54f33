"""A stack of decisions for nested sub-decisions: a combat inside a march inside the action
phase, a reaction window inside an attack. The top decision says who is awaited and what they
decide, so ``to_act``, prompts and legality read from one place.

    stack.push(Decision("march", [2], {"from": "Winterfell"}))
    stack.push(Decision("support", [0, 1]))   # a sub-decision of the march
    stack.awaited()   # frozenset({0, 1})
    stack.pop()       # back to the march
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(slots=True)
class Decision:
    """One pending decision: its ``kind`` (the game's word), the seats that decide, and data."""

    kind: str
    seats: list[int] = field(default_factory=list)
    data: dict[str, Any] = field(default_factory=dict)


@dataclass(slots=True)
class DecisionStack:
    stack: list[Decision] = field(default_factory=list)

    def push(self, decision: Decision) -> None:
        self.stack.append(decision)

    def pop(self) -> Decision:
        return self.stack.pop()

    @property
    def top(self) -> Decision | None:
        return self.stack[-1] if self.stack else None

    def awaited(self) -> frozenset[int]:
        return frozenset(self.stack[-1].seats) if self.stack else frozenset()

    def kind(self) -> str | None:
        return self.stack[-1].kind if self.stack else None

    def __len__(self) -> int:
        return len(self.stack)
