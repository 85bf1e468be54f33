"""Move shapes: exactly the declared shape is accepted, in canonical form; all else is refused."""

from __future__ import annotations

import pytest

from engines.base import IllegalMove
from engines.kit import BOOL, INT, INT_LIST, PAIR, MoveSchema, MoveSpec

MOVES = MoveSchema(
    MoveSpec("pick", first=INT, second=INT),
    MoveSpec("remove", building=INT, seat=INT, promoted=BOOL),
    MoveSpec("switch", a=PAIR, b=PAIR),
    MoveSpec("keep", cards=INT_LIST),
    MoveSpec("pass"),
    game="Sample",
)


def test_make_builds_the_canonical_form_type_first_then_fields_in_declared_order():
    move = MOVES.make("pick", second=2, first=1)
    assert list(move) == ["type", "first", "second"]


def test_parse_returns_the_canonical_form_whatever_the_key_order():
    move = MOVES.parse({"second": 2, "type": "pick", "first": 1})
    assert list(move.items()) == [("type", "pick"), ("first", 1), ("second", 2)]


@pytest.mark.parametrize(("move", "code", "words"), [
    ("pick", "malformed_move", "JSON object"),
    ({"first": 1}, "malformed_move", "JSON object"),
    ({"type": 3}, "malformed_move", "JSON object"),
    ({"type": [1]}, "malformed_move", "JSON object"),
    ({"type": {"a": 1}}, "malformed_move", "JSON object"),
    ({"type": "fly"}, "unknown_move", "Sample moves are pick, remove, switch, keep, pass"),
    ({"type": "pick", "first": 1}, "malformed_move", "needs 'second'"),
    ({"type": "pick", "first": 1, "second": 2, "extra": 0}, "malformed_move", "no field 'extra'"),
    ({"type": "pick", "first": True, "second": 2}, "malformed_move", "'first' must be a whole number"),
    ({"type": "pick", "first": 1.0, "second": 2}, "malformed_move", "'first' must be a whole number"),
    ({"type": "pick", "first": 1 << 70, "second": 2}, "malformed_move", "'first' must be a whole number"),
    ({"type": "pick", "first": "1", "second": 2}, "malformed_move", "'first' must be a whole number"),
    ({"type": "remove", "building": 1, "seat": 0}, "malformed_move", "needs 'promoted'"),
    ({"type": "remove", "building": 1, "seat": 0, "promoted": 1}, "malformed_move", "true or false"),
    ({"type": "switch", "a": [1, 2, 3], "b": [1, 2]}, "malformed_move", "pair"),
    ({"type": "keep", "cards": [1, None]}, "malformed_move", "list of whole numbers"),
    ({"type": "keep", "cards": list(range(500))}, "malformed_move", "list of whole numbers"),
])
def test_anything_but_the_declared_shape_is_refused_with_a_clear_message(move, code, words):
    with pytest.raises(IllegalMove) as err:
        MOVES.parse(move)
    assert err.value.code == code
    assert words in err.value.message
