"""The engine protocol: illegal moves change nothing, views hide what they must, snapshots."""

from __future__ import annotations

import json
from typing import Any

import pytest

from engines.base import IllegalMove
from engines.tower_of_london import ENGINE
from engines.tower_of_london import rules as R

from .conftest import build, card


def snapshot(state: R.State) -> str:
    return json.dumps(ENGINE.encode(state), sort_keys=True)


@pytest.mark.parametrize(("move", "code", "words"), [
    ({"type": "dance"}, "unknown_move", "Unknown move 'dance'"),
    ({"kind": "pick"}, "malformed_move", "a move is a JSON object"),
    ({"type": "pick", "first": "a", "second": 2}, "malformed_move", "'first' must be a whole number"),
    ({"type": "place", "building": 3}, "illegal_move", "now is not the time to place"),
    ({"type": "keep", "cards": [1, 2, 3]}, "illegal_move", "now is not the time to keep"),
])
def test_illegal_moves_are_refused_with_the_rule_and_change_nothing(
        move: dict[str, Any], code: str, words: str) -> None:
    state = build(3)
    before = snapshot(state)
    with pytest.raises(IllegalMove) as err:
        ENGINE.play(state, 0, move)
    assert err.value.code == code and words in err.value.message
    assert snapshot(state) == before


def test_not_your_turn_during_the_reveal_and_after_choosing() -> None:
    state = build(3, order=[1, 2, 0], picks={0: (1, 2), 1: (3, 4), 2: (5, 6)})
    before = snapshot(state)
    with pytest.raises(IllegalMove, match="it is not your turn") as err:
        ENGINE.play(state, 0, {"type": "place", "building": 1})
    assert err.value.code == "not_your_turn" and snapshot(state) == before
    state = build(3)
    a, b = state.hands[0][:2]
    ENGINE.play(state, 0, {"type": "pick", "first": a, "second": b})
    before = snapshot(state)
    c, d = state.hands[0][:2]
    with pytest.raises(IllegalMove, match="already chosen your two cards") as err:
        ENGINE.play(state, 0, {"type": "pick", "first": c, "second": d})
    assert err.value.code == "not_your_turn" and snapshot(state) == before


def test_illegal_ability_choices_change_nothing() -> None:
    state = build(2, order=[0, 1], board={11: {1: 1}, 13: {1: 1}},
                  picks={0: (card("FOCUS 12"), card("BACKSTAB 15")), 1: (5, 6)})
    ENGINE.play(state, 0, {"type": "place", "building": 12})
    before = snapshot(state)
    for bad in ({"type": "remove", "building": 11, "seat": 0, "promoted": False},
                {"type": "remove", "building": 11, "seat": 1, "promoted": True},
                {"type": "remove", "building": 11, "seat": 1, "promoted": "no"},
                {"type": "switch", "a": [11, 1], "b": [13, 0]},
                {"type": "keep", "cards": [1, 2, 3]}):
        with pytest.raises(IllegalMove):
            ENGINE.play(state, 0, bad)
        assert snapshot(state) == before


def test_view_is_json_safe_and_has_the_documented_keys() -> None:
    state = build(4)
    for seat in (0, 1, None):
        view = ENGINE.view(state, seat)
        json.dumps(view)
        assert {"board", "cards", "turn_order", "track", "event", "scoring_card", "ravens", "round",
                "phase", "reveal", "last_scoring", "prompt", "players", "hand"} <= set(view)
    assert ENGINE.view(state, None)["prompt"] is None and ENGINE.view(state, None)["hand"] is None
    prompt = ENGINE.view(state, 0)["prompt"]
    assert prompt["kind"] == "pick" and prompt["moves"] == ENGINE.legal_moves(state, 0)


def test_view_never_shows_other_hands_deck_order_seed_or_face_down_events() -> None:
    state = build(4, seed=99)
    view = json.dumps(ENGINE.view(state, 1))
    enc = ENGINE.encode(state)
    assert enc["rng"] not in view and '"rng"' not in view and '"event_pile"' not in view
    v = ENGINE.view(state, 1)
    assert v["hand"] == state.hands[1]
    assert all("hand" not in p for p in v["players"])
    assert v["players"][0]["hand_count"] == 6 and v["deck"] == sorted(state.decks[1])


def test_encode_decode_round_trip_and_json() -> None:
    state = build(5, picks={s: (s + 1, s + 2) for s in range(5)})
    data = json.loads(json.dumps(ENGINE.encode(state)))
    again = ENGINE.decode(data)
    assert again == state and ENGINE.encode(again) == ENGINE.encode(state)
    assert ENGINE.view(again, 2) == ENGINE.view(state, 2)
