"""London's moves, declared once with the kit's ``MoveSchema``: every move's type and fields.

``MOVES.parse`` refuses any other shape (``malformed_move`` / ``unknown_move``) before a rule is
asked, and ``MOVES.make`` builds the canonical form that ``legal_moves`` lists and the table
stores. One move has two shapes: a draw from the deck names no card, a draw from the development
board names the card it takes.

>>> MOVES.make("draw", **{"from": "board", "card": 7})
{'type': 'draw', 'from': 'board', 'card': 7}
>>> MOVES.parse({"card": 7, "from": "board", "type": "draw"})
{'type': 'draw', 'from': 'board', 'card': 7}
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engines.base import Move
from engines.kit import INT, STR, FieldType, MoveSchema, MoveSpec
from engines.kit.moves import MAX_NUMBER

ACTIONS = ("develop", "buy_land", "run_city", "draw_three")


@dataclass(frozen=True, slots=True)
class OneOf(FieldType):
    """A field that holds one of a few words (and, with ``numbers``, also a whole number)."""

    words: tuple[str, ...] = ()
    numbers: bool = False

    def accepts(self, value: Any) -> bool:
        if type(value) is str:
            return value in self.words
        return self.numbers and type(value) is int and -MAX_NUMBER < value < MAX_NUMBER


FROM = OneOf('"deck" or "board"', "one_of", words=("deck", "board"))
ACTION = OneOf("one of " + ", ".join(ACTIONS), "one_of", words=ACTIONS)
STACK = OneOf('"new" or a stack number', "one_of", words=("new",), numbers=True)


class LondonMoves(MoveSchema):
    """The kit's schema, plus the draw's second shape (from the board, naming the card)."""

    def __init__(self, *specs: MoveSpec) -> None:
        super().__init__(*specs, game="London")
        self.board_draw = MoveSchema(MoveSpec("draw", **{"from": FROM, "card": INT}), game="London")

    def make(self, type: str, **values: Any) -> Move:
        if type == "draw" and values.get("from") == "board":
            return self.board_draw.make(type, **values)
        return super().make(type, **values)

    def parse(self, move: Any) -> Move:
        if type(move) is dict:
            kind = move.get("type")
            if type(kind) is not str:  # the kit's quick path would look up an unhashable "type"
                return self._refuse(move)
            if kind == "draw" and move.get("from") == "board":
                return self.board_draw.parse(move)
            return super().parse(move)
        if isinstance(move, Mapping) and move.get("type") == "draw" and move.get("from") == "board":
            return self.board_draw.parse(move)
        return super().parse(move)


MOVES = LondonMoves(
    MoveSpec("repay_loan"),
    MoveSpec("take_loan"),
    MoveSpec("draw", **{"from": FROM}),  # from the board: see LondonMoves
    MoveSpec("scry"),
    MoveSpec("stop_drawing"),
    MoveSpec("keep", card=INT),
    MoveSpec("bottom", card=INT),
    MoveSpec("choose_action", action=ACTION),
    MoveSpec("develop", card=INT),
    MoveSpec("discard_for_colour", card=INT),
    MoveSpec("place", stack=STACK),
    MoveSpec("buy", borough=STR),
    MoveSpec("activate", card=INT),
    MoveSpec("borough_ability"),
    MoveSpec("pay", card=INT),
    MoveSpec("flip", card=INT),
    MoveSpec("end_action"),
    MoveSpec("discard", card=INT),
    MoveSpec("end_turn"),
)
"""Every London move. Card ids are instance ids (0-100), boroughs keys, stacks "new" or an index."""
