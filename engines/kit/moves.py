"""Move shapes: each move type's fields and their types, checked before any rule is.

A game declares its moves once::

    MOVES = MoveSchema(
        MoveSpec("pick", first=INT, second=INT),
        MoveSpec("keep", cards=INT_LIST),
        MoveSpec("pass"),
    )

``MOVES.make("pick", first=3, second=9)`` builds a move in its canonical form (``"type"`` first,
then the fields in declared order); ``legal_moves`` builds every move that way. ``MOVES.parse(m)``
refuses anything that is not exactly such a shape — an unknown type, a missing or extra field,
a wrong type (``true`` is not a number), a number out of range — with ``IllegalMove``
(code ``unknown_move`` or ``malformed_move``), and returns the canonical form. So the rules only
ever see well-formed moves, and what is stored is the canonical move.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engines.base import IllegalMove, Move

MAX_NUMBER = 1 << 31
"""Numbers in moves are ids, counts and positions: anything larger is malformed."""


@dataclass(frozen=True, slots=True)
class FieldType:
    """One field's type: ``name`` for messages, ``kind`` for the check."""

    name: str
    kind: str
    length: int | None = None  # fixed length of a list (pairs)

    def accepts(self, value: Any) -> bool:
        if self.kind == "int":
            return type(value) is int and -MAX_NUMBER < value < MAX_NUMBER
        if self.kind == "bool":
            return type(value) is bool
        if self.kind == "str":
            return type(value) is str and len(value) <= 200
        if self.kind == "int_list":
            return (type(value) is list and len(value) <= 200
                    and (self.length is None or len(value) == self.length)
                    and all(type(v) is int and -MAX_NUMBER < v < MAX_NUMBER for v in value))
        if self.kind == "str_list":
            return (type(value) is list and len(value) <= 200
                    and all(type(v) is str and len(v) <= 200 for v in value))
        raise AssertionError(self.kind)


INT = FieldType("a whole number", "int")
BOOL = FieldType("true or false", "bool")
STR = FieldType("a text", "str")
INT_LIST = FieldType("a list of whole numbers", "int_list")
STR_LIST = FieldType("a list of texts", "str_list")
PAIR = FieldType("a pair of whole numbers", "int_list", length=2)


class MoveSpec:
    """One move type and its fields, in canonical order."""

    __slots__ = ("fields", "type")

    def __init__(self, type: str, **fields: FieldType) -> None:
        self.type = type
        self.fields = fields


class MoveSchema:
    """Every move type of a game."""

    def __init__(self, *specs: MoveSpec, game: str = "this game") -> None:
        self.specs = {s.type: s for s in specs}
        self.game = game

    @property
    def types(self) -> tuple[str, ...]:
        return tuple(self.specs)

    def make(self, type: str, **values: Any) -> Move:
        """A move in canonical form (the caller passes every field)."""
        spec = self.specs[type]
        move: Move = {"type": type}
        for name in spec.fields:
            move[name] = values[name]
        return move

    def parse(self, move: Any) -> Move:
        """The canonical form of a well-shaped move; ``IllegalMove`` for any other input."""
        if not isinstance(move, Mapping) or type(move.get("type")) is not str:
            raise IllegalMove('Malformed move: a move is a JSON object with a "type".', code="malformed_move")
        spec = self.specs.get(move["type"])
        if spec is None:
            kind = str(move["type"])[:40]
            raise IllegalMove(f"Unknown move {kind!r}: {self.game} moves are {', '.join(self.specs)}.",
                              code="unknown_move")
        extra = sorted(str(k)[:40] for k in move if k != "type" and k not in spec.fields)
        if extra:
            raise IllegalMove(f"Malformed move: a {spec.type!r} move has no field {extra[0]!r}.",
                              code="malformed_move")
        out: Move = {"type": spec.type}
        for name, ftype in spec.fields.items():
            if name not in move:
                raise IllegalMove(f"Malformed move: a {spec.type!r} move needs {name!r} ({ftype.name}).",
                                  code="malformed_move")
            value = move[name]
            if not ftype.accepts(value):
                raise IllegalMove(f"Malformed move: {name!r} must be {ftype.name}.", code="malformed_move")
            out[name] = list(value) if isinstance(value, list) else value
        return out
