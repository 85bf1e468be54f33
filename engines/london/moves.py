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

from engines.kit import INT, STR, MoveSchema, MoveSpec, one_of

ACTIONS = ("develop", "buy_land", "run_city", "draw_three")

FROM = one_of("deck", "board")
ACTION = one_of(*ACTIONS)
STACK = one_of("new", numbers=True, name='"new" or a stack number')


MOVES = MoveSchema(
    MoveSpec("repay_loan"),
    MoveSpec("take_loan"),
    MoveSpec("draw", **{"from": FROM}),
    MoveSpec("draw", **{"from": FROM, "card": INT}).when(lambda m: m.get("from") == "board"),
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
    game="London",
)
"""Every London move. Card ids are instance ids (0-100), boroughs keys, stacks "new" or an index."""
