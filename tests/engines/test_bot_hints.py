"""A hint is the good bot's own weighing of a decision (engines/bots/core.py, ``weigh``): it sees
only what the seat may see, its first move is the move the good bot plays, and its figures are the
search's own (playouts that sum to no more than the iterations, results between 0 and 1).

In the spirit of the conformance suite: with the bot's generator fixed and an iteration budget,
a hint is the same on the true state, on any determinization for the seat, and (Tally) with the
other seats' hands passed round and the deck reversed.
"""

from __future__ import annotations

import pytest

from engines.base import Engine
from engines.bots import Budget, decide, hooks_for, weigh
from engines.kit import Rng
from engines.registry import BUILTIN, load_engines
from tests.support.positions import deciding, states, swap_other_hands
from tests.support.tinygame import ENGINE as TALLY

QUICK = Budget(iterations=80, seconds=None)
ENGINES: dict[str, Engine] = {**load_engines(BUILTIN), "tally": TALLY}





@pytest.mark.parametrize("vote", [False, True])
def test_a_hint_is_the_same_whatever_the_hidden_cards_are(vote: bool) -> None:
    compared = 0
    for seed in (31, 32, 33):
        for i, state in enumerate(states(TALLY, 3, seed, every=1, options={"vote": vote})):
            for seat in deciding(TALLY, state):
                expected = weigh(TALLY, state, seat, "good", Rng.from_seed(7), QUICK)
                alike = [swap_other_hands(state, seat)]
                alike += [TALLY.determinize(state, seat, Rng.from_seed(100 * i + k)) for k in range(2)]
                for other in alike:
                    assert weigh(TALLY, other, seat, "good", Rng.from_seed(7), QUICK) == expected
                    compared += 1
    assert compared > 40


@pytest.mark.parametrize("gid", ["london", "tower_of_london", "towers_of_babylon", "game_of_thrones"])
def test_a_hint_is_the_same_on_the_true_state_and_on_any_determinization(gid: str) -> None:
    engine = ENGINES[gid]
    assert hooks_for(engine).canonical is not None, "without a canonical hook the search may differ"
    budget = Budget(iterations=10, seconds=None)
    compared = 0
    for i, state in enumerate(states(engine, engine.min_seats, 5, every=29)[:5]):
        for seat in deciding(engine, state):
            expected = weigh(engine, state, seat, "good", Rng.from_seed(3), budget)
            for k in range(2):
                other = engine.determinize(state, seat, Rng.from_seed(1000 * i + k))  # type: ignore[attr-defined]
                assert weigh(engine, other, seat, "good", Rng.from_seed(3), budget) == expected
                compared += 1
    assert compared >= 4


@pytest.mark.parametrize(("gid", "every"), [("tally", 1), ("london", 7), ("towers_of_babylon", 7)])
def test_a_hints_first_move_is_the_move_the_good_bot_plays(gid: str, every: int) -> None:
    engine = ENGINES[gid]
    checked = 0
    for state in states(engine, 2, 9, every=every)[:8]:
        for seat in deciding(engine, state):
            weighed = weigh(engine, state, seat, "good", Rng.from_seed(11), QUICK)
            assert weighed.moves[0].move == decide(engine, state, seat, "good", Rng.from_seed(11), QUICK).move
            checked += 1
    assert checked >= 4


def test_a_searched_hints_figures_are_the_searchs_own() -> None:
    seen_search = 0
    for state in states(ENGINES["london"], 2, 13, every=5)[:10]:
        for seat in deciding(ENGINES["london"], state):
            weighed = weigh(ENGINES["london"], state, seat, "good", Rng.from_seed(2), QUICK, top=3)
            assert 1 <= len(weighed.moves) <= 3
            legal = ENGINES["london"].legal_moves(state, seat)
            assert all(w.move in legal for w in weighed.moves)
            if weighed.how != "search":
                assert [w.playouts for w in weighed.moves] == [0] and weighed.moves[0].result is None
                continue
            seen_search += 1
            assert weighed.iterations == QUICK.iterations
            assert sum(w.playouts for w in weighed.moves) <= weighed.iterations
            counts = [w.playouts for w in weighed.moves]
            assert counts == sorted(counts, reverse=True)
            assert all(w.result is None or 0.0 <= w.result <= 1.0 for w in weighed.moves)
            assert len(weighed.moves) == min(3, weighed.considered)
    assert seen_search >= 3


def test_a_forced_move_is_hinted_as_forced_without_figures() -> None:
    state = TALLY.new_game(2, 1, {})
    state.hands[0] = [5, 5, 5]  # one distinct card: one legal move
    weighed = weigh(TALLY, state, 0, "good", Rng.from_seed(1), QUICK)
    assert weighed.how == "forced" and weighed.iterations == 0
    assert [w.as_json() for w in weighed.moves] == [{"move": {"type": "play", "card": 5}, "playouts": 0,
                                                     "result": None}]
