"""Random legal-move playouts (2-5 players, seeded) with the invariants checked after every move."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from engines.base import IllegalMove
from engines.tower_of_london import ENGINE
from engines.tower_of_london import rules as R
from engines.tower_of_london.components import BEEFEATERS, CARDS, RAVENS, ROUNDS


def check(state: R.State) -> None:
    for s in range(state.seats):
        assert R.beefeaters_accounted(state, s) == BEEFEATERS
        reductions = state.round - 1 + (1 if state.phase == R.OVER and state.round < ROUNDS else 0)
        assert R.cards_owned(state, s) == 13 - 3 * reductions
    assert state.raven_supply + sum(state.ravens) == RAVENS


def hidden_of(state: R.State, seat: int) -> list[int]:
    """Cards of ``seat`` no other seat may see now: hand, unrevealed picks, unannounced keeps."""
    hidden = list(state.hands[seat])
    if state.phase == R.PICK:
        hidden += state.choosing.own(seat) or []
    elif state.phase == R.REVEAL:
        hidden += state.picks[seat][state.revealed[seat]:]
    return hidden


def check_views(state: R.State) -> None:
    for viewer in [None, *range(state.seats)]:
        view = ENGINE.view(state, viewer)
        for s in range(state.seats):
            p = view["players"][s]
            shown = state.revealed[s] if state.phase != R.PICK else 0
            picks = state.picks[s] if state.phase != R.PICK else state.choosing.own(s)
            if s == viewer:
                shown = 2
            assert p["first"] == (picks[0] if picks and shown >= 1 else None)
            assert p["second"] == (picks[1] if picks and shown >= 2 else None)
            assert (p["hand_count"], p["deck_count"]) == (len(state.hands[s]), len(state.decks[s]))
            assert p["has_kept"] == (state.choosing.has_chosen(s) if state.phase == R.KEEP else None)
            if s != viewer:
                visible = {p["first"], p["second"]}
                assert not visible & (set(hidden_of(state, s)) - set(state.played[s]))
        if viewer is None:
            assert view["my_keep"] is None and view["my_picks"] is None and view["hand"] is None
            assert view["prompt"] is None
        else:
            own = state.choosing.own(viewer)
            assert view["my_keep"] == (own if state.phase == R.KEEP else None)
            assert view["hand"] == sorted(state.hands[viewer])
            prompt = view["prompt"]
            if viewer in ENGINE.to_act(state):
                assert prompt is not None
                assert [c["move"] for c in prompt["choices"]] == ENGINE.legal_moves(state, viewer)
                assert all(c["label"] for c in prompt["choices"])
            else:
                assert prompt is None


def playout(seats: int, seed: int, deep: bool) -> tuple[R.State, list[tuple[int, dict[str, Any]]]]:
    rnd = random.Random(seed)
    state = ENGINE.new_game(seats, seed, {})
    history: list[tuple[int, dict[str, Any]]] = []
    while ENGINE.result(state) is None:
        awaited = sorted(ENGINE.to_act(state))
        assert awaited
        for s in range(seats):
            if s not in awaited:
                assert ENGINE.legal_moves(state, s) == []
        seat = rnd.choice(awaited)
        moves = ENGINE.legal_moves(state, seat)
        assert moves
        if deep:
            for m in moves if len(moves) <= 40 else rnd.sample(moves, 40):
                ENGINE.play(ENGINE.decode(ENGINE.encode(state)), seat, m)  # every legal move is accepted
            before = json.dumps(ENGINE.encode(state), sort_keys=True)
            with pytest.raises(IllegalMove):
                ENGINE.play(state, seat, {"type": moves[0]["type"], **_garble(moves[0])})
            assert json.dumps(ENGINE.encode(state), sort_keys=True) == before
        move = rnd.choice(moves)
        events = ENGINE.play(state, seat, move)
        history.append((seat, move))
        if move["type"] in ("pick", "keep"):  # the chooser's own line names the cards to them only
            cards = move.get("cards") or [move["first"], move["second"]]
            assert all(CARDS[c].name in events[0].for_seat(seat) for c in cards)
            for other in range(seats):
                if other != seat:
                    assert all(CARDS[c].name not in events[0].for_seat(other) for c in cards)
        check(state)
        if deep:
            check_views(state)
            assert ENGINE.decode(json.loads(json.dumps(ENGINE.encode(state)))) == state
    return state, history


def _garble(move: dict[str, Any]) -> dict[str, Any]:
    """A wrong version of a legal move."""
    t = move["type"]
    if t == "pick":
        return {"first": move["first"], "second": move["first"]}
    if t == "place":
        return {"building": 99}
    if t == "remove":
        return {"building": 99, "seat": 0, "promoted": False}
    if t == "switch":
        return {"a": move["a"], "b": move["a"]}
    if t == "keep":
        return {"cards": move["cards"][:2]}
    return {"type": "keep", "cards": []}  # instead of "pass"


@pytest.mark.parametrize("seats", [2, 3, 4, 5])
@pytest.mark.parametrize("seed", range(6))
def test_random_playout_deep_checks(seats: int, seed: int) -> None:
    state, history = playout(seats, 1000 * seats + seed, deep=True)
    replay = ENGINE.new_game(seats, 1000 * seats + seed, {})
    for seat, move in history:
        ENGINE.play(replay, seat, move)
    assert replay == state and ENGINE.encode(replay) == ENGINE.encode(state)


def test_many_random_playouts_keep_the_invariants() -> None:
    """2,000 seeded games, 2 to 5 players; bench/tower_of_london_engine.py runs 10,000."""
    outcomes = {"seven_ravens": 0, "everyone_loses": 0}
    for i in range(2000):
        state, _ = playout(2 + i % 4, 50_000 + i, deep=False)
        outcomes[state.end_reason] += 1
        result = ENGINE.result(state)
        assert result is not None and len(result.scores) == state.seats
        assert result.winners == ((state.winner,) if state.winner >= 0 else ())
    assert outcomes["seven_ravens"] > 0
