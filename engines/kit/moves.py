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

A field may hold one of a few words, or a word or a number (``one_of("deck", "board")``,
``one_of("new", numbers=True)``). A move type may have a second shape, taken when the move says
so (a draw from the board names the card it takes; a draw from the deck does not)::

    MoveSchema(MoveSpec("draw", source=FROM),
               MoveSpec("draw", source=FROM, card=INT).when(lambda m: m.get("source") == "board"))
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from engines.base import IllegalMove, Move

MAX_NUMBER = 1 << 31
"""Numbers in moves are ids, counts and positions: anything larger is malformed."""


def _is_int(v: Any) -> bool:
    return type(v) is int and -MAX_NUMBER < v < MAX_NUMBER


def _is_bool(v: Any) -> bool:
    return type(v) is bool


def _is_str(v: Any) -> bool:
    return type(v) is str and len(v) <= 200


def _is_int_list(v: Any) -> bool:
    return type(v) is list and len(v) <= 200 and all(type(x) is int and -MAX_NUMBER < x < MAX_NUMBER for x in v)


def _is_str_list(v: Any) -> bool:
    return type(v) is list and len(v) <= 200 and all(type(x) is str and len(x) <= 200 for x in v)


_CHECKS: dict[str, Callable[[Any], bool]] = {
    "int": _is_int, "bool": _is_bool, "str": _is_str, "int_list": _is_int_list, "str_list": _is_str_list}


@dataclass(frozen=True, slots=True)
class FieldType:
    """One field's type: ``name`` for messages, ``kind`` for the check, ``length`` for a list of
    fixed length (pairs). A game may subclass it with its own ``accepts`` (a field of a few words)."""

    name: str
    kind: str
    length: int | None = None

    def accepts(self, value: Any) -> bool:
        if not _CHECKS[self.kind](value):
            return False
        return self.length is None or len(value) == self.length


INT = FieldType("a whole number", "int")
BOOL = FieldType("true or false", "bool")
STR = FieldType("a text", "str")
INT_LIST = FieldType("a list of whole numbers", "int_list")
STR_LIST = FieldType("a list of texts", "str_list")
PAIR = FieldType("a pair of whole numbers", "int_list", length=2)


@dataclass(frozen=True, slots=True)
class OneOf(FieldType):
    """A field that holds one of a few words (and, with ``numbers``, also a whole number)."""

    words: tuple[str, ...] = ()
    numbers: bool = False

    def accepts(self, value: Any) -> bool:
        if type(value) is str:
            return value in self.words
        return self.numbers and type(value) is int and -MAX_NUMBER < value < MAX_NUMBER


def one_of(*words: str, numbers: bool = False, name: str | None = None) -> OneOf:
    """The field type of "one of these words" (``numbers``: "a word or a whole number");
    ``name`` is how messages say it (by default the words, quoted)."""
    if name is None:
        said = " or ".join(f'"{w}"' for w in words) if len(words) <= 2 else "one of " + ", ".join(words)
        name = f"{said} or a whole number" if numbers else said
    return OneOf(name, "one_of", words=tuple(words), numbers=numbers)


_MISSING = object()


class MoveSpec:
    """One move type and its fields, in canonical order."""

    __slots__ = ("checks", "chosen", "fields", "size", "type")

    def __init__(self, type: str, **fields: FieldType) -> None:
        self.type = type
        self.fields = fields
        self.size = len(fields) + 1
        self.chosen: Callable[[Mapping[str, Any]], bool] | None = None
        # The check of each field, taken once: a plain kit type's function itself, else the
        # field type's own ``accepts`` (a game's subclass).
        self.checks: tuple[tuple[str, Callable[[Any], bool]], ...] = tuple(
            (name, _CHECKS[f.kind] if type_is_plain(f) else f.accepts) for name, f in fields.items())

    def when(self, chosen: Callable[[Mapping[str, Any]], bool]) -> MoveSpec:
        """This spec as the second shape of its move type, taken for a move (or ``make``'s
        values) of which ``chosen`` is true; the first shape is taken for every other."""
        self.chosen = chosen
        return self


def type_is_plain(ftype: FieldType) -> bool:
    """A kit field type whose check is its kind's function alone (no subclass, no fixed length)."""
    return type(ftype) is FieldType and ftype.length is None


class MoveSchema:
    """Every move type of a game."""

    def __init__(self, *specs: MoveSpec, game: str = "this game") -> None:
        self.specs = {s.type: s for s in specs if s.chosen is None}
        self.second = {s.type: s for s in specs if s.chosen is not None}
        """The second shapes (``MoveSpec.when``), by move type."""
        self.game = game
        unknown = set(self.second) - set(self.specs)
        if unknown:
            raise ValueError(f"a second shape of {sorted(unknown)[0]!r} needs a first")

    @property
    def types(self) -> tuple[str, ...]:
        return tuple(self.specs)

    def make(self, type: str, **values: Any) -> Move:
        """A move in canonical form (the caller passes every field)."""
        spec = self.specs[type]
        second = self.second.get(type) if self.second else None
        if second is not None and second.chosen(values):  # type: ignore[misc]  # set by when
            spec = second
        move: Move = {"type": type}
        for name in spec.fields:
            move[name] = values[name]
        return move

    def parse(self, move: Any) -> Move:
        """The canonical form of a well-shaped move; ``IllegalMove`` for any other input."""
        if type(move) is dict:  # the usual case, every move played: checked at once
            kind = move.get("type")
            spec = self.specs.get(kind) if type(kind) is str else None
            if self.second and spec is not None:
                second = self.second.get(spec.type)
                if second is not None and second.chosen(move):  # type: ignore[misc]  # set by when
                    spec = second
            if spec is not None and len(move) == spec.size:
                out: Move = {"type": spec.type}
                for name, check in spec.checks:
                    value = move.get(name, _MISSING)
                    if check is _is_int:  # the usual field, checked inline
                        if type(value) is not int or not -MAX_NUMBER < value < MAX_NUMBER:
                            break
                    elif value is _MISSING or not check(value):
                        break
                    out[name] = list(value) if type(value) is list else value
                else:
                    return out
        return self._refuse(move)

    def _refuse(self, move: Any) -> Move:
        """The slow path: the canonical form, or the precise reason a move is malformed."""
        if not isinstance(move, Mapping) or type(move.get("type")) is not str:
            raise IllegalMove('Malformed move: a move is a JSON object with a "type".', code="malformed_move")
        spec = self.specs.get(move["type"])
        second = self.second.get(move["type"])
        if second is not None and second.chosen(move):  # type: ignore[misc]  # set by when
            spec = second
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
