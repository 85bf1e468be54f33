"""The engine protocol: illegal moves change nothing, views hide what they must, snapshots."""

from __future__ import annotations

import json
from typing import Any

import pytest

from engines.base import IllegalMove
from engines.tower_of_london import ENGINE
from engines.tower_of_london import rules as R
from engines.tower_of_london.components import ABILITY_TEXT, BOARD, CARDS, SCORING_CARDS, TRACK_SPACES

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


def test_view_shows_the_public_table_and_only_the_viewers_own_cards() -> None:
    state = build(4)
    for seat in (0, 1, None):
        view = ENGINE.view(state, seat)
        assert json.loads(json.dumps(view)) == view
        assert (view["game"], view["seat"], view["seats"]) == ("tower_of_london", seat, 4)
        assert (view["round"], view["step"], view["phase"]) == (1, 1, "pick")
        assert view["turn_order"] == state.order and view["start_player"] == state.order[0]
        assert view["areas_scored_this_round"] == ["orange"]
        assert view["track"] == {"spaces": sorted(TRACK_SPACES), "beefeaters": []}
        assert view["event"] == {"current": None, "face_down": 2, "past": []}  # build() clears it
        assert view["scoring_card"] == {"id": "4", "name": SCORING_CARDS[1].name, "players": [4],
                                        "ravens": [2, 1, 1]}
        assert view["ravens"] == {"supply": 31, "by_seat": [0, 0, 0, 0]}
        board = view["board"]
        assert [b["number"] for b in board["buildings"]] == list(range(1, 33))
        assert all(b["beefeaters"] == [] and b["controller"] is None for b in board["buildings"])
        assert board["lines"] == BOARD["lines"] and board["size"] == BOARD["size"]
        assert view["players"] == [
            {"seat": s, "ravens": 0, "beefeaters_in_supply": 20, "hand_count": 6, "deck_count": 7,
             "has_chosen": False, "has_kept": None, "first": None, "second": None, "revealed": 0,
             "played": [], "boxed": [], "track_space": None} for s in range(4)]
        assert (view["reveal"], view["step_reveals"], view["last_scoring"], view["scoring_history"],
                view["result"], view["my_picks"], view["my_keep"]) == (None, [], None, [], None, None, None)
        assert view["hand"] == (sorted(state.hands[seat]) if seat is not None else None)
        assert view["deck"] == (sorted(state.decks[seat]) if seat is not None else None)
        assert "cards" not in view and "abilities" not in view and "rules" not in view  # static_view
    assert ENGINE.view(state, None)["prompt"] is None
    prompt = ENGINE.view(state, 0)["prompt"]
    a, b = state.hands[0][:2]
    assert prompt["kind"] == "pick" and prompt["cards"] == state.hands[0]
    assert [c["move"] for c in prompt["choices"]] == ENGINE.legal_moves(state, 0)
    assert prompt["choices"][0] == {"move": {"type": "pick", "first": a, "second": b},
                                    "label": f"First {CARDS[a].name}, then {CARDS[b].name}"}
    assert set(prompt) == {"kind", "text", "choices", "cards"}


def test_static_view_holds_the_cards_abilities_and_rules_served_once() -> None:
    state = build(3)
    assert ENGINE.static_view(state) == {
        "cards": [CARDS[c].as_json() for c in sorted(CARDS)],
        "abilities": ABILITY_TEXT,
        "rules": {"ravens_to_win": 7, "beefeaters_per_colour": 20, "promoted_beefeater_counts_as": 2,
                  "areas_scored_by_round": {"1": ["orange"], "2": ["green", "orange"],
                                            "3": ["blue", "green", "orange"]}}}


def test_view_counts_a_promoted_stack_as_one_stack_of_strength_two() -> None:
    state = build(2, board={11: {1: 1}}, promoted={11: {0: 1}, 12: {1: 1}})
    stacks = {b["number"]: b["beefeaters"] for b in ENGINE.view(state, None)["board"]["buildings"]}
    assert stacks[11] == [{"seat": 0, "count": 1, "plain": 0, "promoted": 1, "strength": 2},
                          {"seat": 1, "count": 1, "plain": 1, "promoted": 0, "strength": 1}]
    assert stacks[12] == [{"seat": 1, "count": 1, "plain": 0, "promoted": 1, "strength": 2}]


def test_prompts_label_every_listed_move() -> None:
    state = build(3, order=[0, 1, 2], board={11: {1: 1}, 13: {2: 1}},
                  picks={0: (card("FOCUS 12"), card("BACKSTAB 15")), 1: (5, 6), 2: (7, 8)})
    place = ENGINE.view(state, 0)["prompt"]
    assert place["kind"] == "place" and place["buildings"] == [12, 29, 24] and place["card"] == 6
    assert place["choices"][0] == {"move": {"type": "place", "building": 12},
                                   "label": "Place in building 12 (Inner Ward)"}
    ENGINE.play(state, 0, {"type": "place", "building": 12})
    backstab = ENGINE.view(state, 0)["prompt"]
    assert (backstab["kind"], backstab["ability"], backstab["placed"], backstab["buildings"],
            backstab["can_pass"]) == ("backstab", "BACKSTAB", 12, [11, 13], True)
    assert backstab["targets"] == [{"building": 11, "seat": 1, "promoted": False},
                                   {"building": 13, "seat": 2, "promoted": False}]
    assert [c["label"] for c in backstab["choices"]] == [
        "Remove {seat:1}'s Beefeater from building 11", "Remove {seat:2}'s Beefeater from building 13",
        "Pass (do not use BACKSTAB)"]


def test_view_never_shows_other_hands_deck_order_or_face_down_events() -> None:
    state = build(4, seed=99)
    v = ENGINE.view(state, 1)
    assert v["hand"] == state.hands[1] and v["deck"] == sorted(state.decks[1])
    assert [(p["hand_count"], p["deck_count"]) for p in v["players"]] == [(6, 7)] * 4
    assert v["event"]["face_down"] == 2
    # the same view whatever the other hands, the deck orders and the face-down events are
    other = ENGINE.decode(ENGINE.encode(state))
    other.hands[0], other.decks[0] = sorted(other.decks[0][:6]), other.hands[0] + other.decks[0][6:]
    other.decks[1].reverse()
    other.event_pile = [e for e in range(1, 14) if e not in state.event_pile and e != state.event][:2]
    assert other != state and ENGINE.view(other, 1) == v


def test_encode_decode_round_trip_and_json() -> None:
    state = build(5, picks={s: (s + 1, s + 2) for s in range(5)})
    data = json.loads(json.dumps(ENGINE.encode(state)))
    again = ENGINE.decode(data)
    assert again == state and ENGINE.encode(again) == ENGINE.encode(state)
    assert ENGINE.view(again, 2) == ENGINE.view(state, 2)
