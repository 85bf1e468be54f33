"""Move shapes: exactly the declared shape is accepted, in canonical form; all else is refused."""

from __future__ import annotations

import pytest

from engines.base import IllegalMove
from engines.kit import BOOL, INT, INT_LIST, PAIR, MoveSchema, MoveSpec, one_of

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


DRAWS = MoveSchema(
    MoveSpec("draw", source=one_of("deck", "board")),
    MoveSpec("draw", source=one_of("deck", "board"), card=INT).when(lambda m: m.get("source") == "board"),
    MoveSpec("place", stack=one_of("new", numbers=True)),
    game="Sample",
)


def test_a_move_type_takes_its_second_shape_exactly_when_the_move_says_so():
    assert DRAWS.make("draw", source="deck") == {"type": "draw", "source": "deck"}
    assert DRAWS.make("draw", source="board", card=7) == {"type": "draw", "source": "board", "card": 7}
    assert DRAWS.parse({"card": 7, "source": "board", "type": "draw"}) == {"type": "draw", "source": "board", "card": 7}
    with pytest.raises(IllegalMove, match="'card'") as err:
        DRAWS.parse({"type": "draw", "source": "board"})  # the board's shape names the card
    assert err.value.code == "malformed_move"
    with pytest.raises(IllegalMove, match="no field 'card'"):
        DRAWS.parse({"type": "draw", "source": "deck", "card": 7})


def test_a_one_of_field_takes_one_of_its_words_and_with_numbers_a_whole_number():
    assert DRAWS.parse({"type": "place", "stack": "new"})["stack"] == "new"
    assert DRAWS.parse({"type": "place", "stack": 3})["stack"] == 3
    for bad in ("old", True, 2.5, [1]):
        with pytest.raises(IllegalMove, match='"new" or a whole number'):
            DRAWS.parse({"type": "place", "stack": bad})
    with pytest.raises(IllegalMove, match='"deck" or "board"'):
        DRAWS.parse({"type": "draw", "source": 1})


def test_a_second_shape_needs_a_first():
    with pytest.raises(ValueError, match="needs a first"):
        MoveSchema(MoveSpec("draw", card=INT).when(lambda m: True))
