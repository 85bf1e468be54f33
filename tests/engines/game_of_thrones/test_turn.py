"""The turn declared in ``turn.py``: one step per decision kind, taking exactly the move types the
kind lists; the awaited seats, prompts and the frame of refusals come from it."""

from __future__ import annotations

import random

from engines.game_of_thrones import ENGINE
from engines.game_of_thrones.kinds import MOVES_BY_KIND
from engines.game_of_thrones.refusals import RULES
from engines.game_of_thrones.shared import RULE_TURN
from engines.game_of_thrones.state import OVER
from engines.game_of_thrones.turn import TURN


def test_one_step_per_decision_kind_and_planning_each_under_its_rule() -> None:
    assert set(TURN.steps) == set(MOVES_BY_KIND) | {"orders"}
    assert all(step.rule == RULES[name] for name, step in TURN.steps.items())


def test_every_listed_move_is_of_a_type_its_step_takes_and_the_prompt_is_the_steps() -> None:
    for seats, seed in ((3, 21), (6, 22)):
        state = ENGINE.new_game(seats, seed, {})
        rng = random.Random(seed)
        for _ in range(400):
            awaited = sorted(ENGINE.awaited(state))
            if not awaited:
                break
            for seat in awaited:
                step = TURN.step_of(state, seat)
                assert step is not None
                moves = ENGINE.legal_moves(state, seat)
                assert {m["type"] for m in moves} <= set(step.moves)
                assert ENGINE.view(state, seat)["prompt"]["kind"] == step.name
            seat = rng.choice(awaited)
            ENGINE.play(state, seat, rng.choice(ENGINE.legal_moves(state, seat)))


def test_after_the_end_every_house_is_told_it_is_not_its_turn_to_decide() -> None:
    state = ENGINE.new_game(3, 7, {})
    state.phase, state.winner = OVER, 0  # the game's end, as the flow leaves it
    assert ENGINE.awaited(state) == frozenset()
    for seat, house in enumerate(ENGINE.seat_labels(state)):
        why = ENGINE.refusal(state, seat, {"type": "ready"})
        assert why is not None and (str(why), why.rule, why.code) == (
            f"It is not {house}'s turn to decide.", RULE_TURN, "not_your_turn")
        assert ENGINE.view(state, seat)["prompt"] is None
