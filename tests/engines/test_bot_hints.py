"""A hint is the good bot's own weighing of a decision (engines/bots/core.py, ``weigh``): it sees
only what the seat may see, its first move is the move the good bot plays, and its figures are the
search's own (playouts that sum to no more than the iterations, results between 0 and 1).

In the spirit of the conformance suite: with the bot's generator fixed and an iteration budget,
a hint is the same on the true state, on any determinization for the seat, and (Tally) with the
other seats' hands passed round and the deck reversed.
"""

from __future__ import annotations

import copy
import time
from typing import Any

import pytest

from engines.base import Engine
from engines.bots import Budget, decide, hooks_for, weigh
from engines.game_of_thrones.components import ORDERS
from engines.game_of_thrones.rules import may_place
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


# -- A Game of Thrones' planning: the rule's pick and its rivals, played out -------------------------

GOT = ENGINES["game_of_thrones"]
PLAYED = Budget(iterations=12, seconds=None)


def others_orders_changed(state: Any, seat: int) -> Any:
    """The same planning position for ``seat``, every other house's face-down orders turned into
    other kinds on the same areas (the last token the rules allow on each, in reverse order)."""
    out = copy.deepcopy(state)
    for other, placed in out.planning.choices.items():
        if other == seat or not placed:
            continue
        changed: dict[str, str] = {}
        for area in sorted(placed, reverse=True):
            fits = [t for t in ORDERS if may_place(out, other, changed, area, t) is None]
            changed[area] = fits[-1] if fits else placed[area]
        out.planning.choices[other] = changed
    return out


def planning_positions(seats: int, seed: int, wanted: int) -> list[tuple[Any, int]]:
    """Planning positions of a seeded random game where another house has placed hidden orders
    and the seat still has an area to order."""
    found = []
    for state in states(GOT, seats, seed, every=1, limit=300):
        if not state.planning.open:
            continue
        for seat in deciding(GOT, state):
            hidden = any(placed for other, placed in state.planning.choices.items() if other != seat)
            to_order = any(m["type"] == "order" for m in GOT.legal_moves(state, seat))
            if hidden and to_order and others_orders_changed(state, seat).planning.choices != state.planning.choices:
                found.append((state, seat))
                break
        if len(found) == wanted:
            break
    return found


@pytest.mark.parametrize("seats", [3, 6])
def test_a_game_of_thrones_planning_hint_is_the_same_whatever_orders_the_others_hid(seats: int) -> None:
    compared = 0
    for i, (state, seat) in enumerate(planning_positions(seats, 40 + seats, 3)):
        expected = weigh(GOT, state, seat, "good", Rng.from_seed(5), PLAYED)
        assert expected.how == "playouts", expected
        alike = [others_orders_changed(state, seat)]
        alike += [GOT.determinize(state, seat, Rng.from_seed(100 * i + k)) for k in range(2)]  # type: ignore[attr-defined]
        for other in alike:
            assert weigh(GOT, other, seat, "good", Rng.from_seed(5), PLAYED) == expected
            compared += 1
    assert compared >= 6


def test_a_game_of_thrones_planning_hint_plays_out_the_rules_pick_and_one_order_of_each_other_kind() -> None:
    checked = 0
    for state, seat in planning_positions(4, 7, 3):
        weighed = weigh(GOT, state, seat, "good", Rng.from_seed(2), Budget(iterations=30, seconds=None), top=3)
        rule = decide(GOT, state, seat, "good", Rng.from_seed(2), PLAYED)
        assert weighed.how == "playouts" and 2 <= len(weighed.moves) <= 3
        assert rule.iterations == 0  # the bot itself still plays its rule, without playouts
        kinds = [ORDERS[w.move["order"]].kind for w in weighed.moves]
        assert len(set(kinds)) == len(kinds)
        assert {w.move["area"] for w in weighed.moves} == {rule.move["area"]}
        legal = GOT.legal_moves(state, seat)
        assert all(w.move in legal for w in weighed.moves)
        rivals = weighed.iterations // weighed.moves[0].playouts  # every rival played out in each world
        assert weighed.iterations == rivals * weighed.moves[0].playouts <= 30 and rivals >= len(weighed.moves)
        assert all(w.playouts == weighed.moves[0].playouts for w in weighed.moves)
        results = [w.result for w in weighed.moves]
        assert all(r is not None and 0.0 <= r <= 1.0 for r in results)
        assert results == sorted(results, reverse=True)
        checked += 1
    assert checked == 3


def test_a_game_of_thrones_planning_hint_answers_within_its_deadline() -> None:
    (state, seat), = planning_positions(6, 9, 1)
    started = time.thread_time()
    weighed = weigh(GOT, state, seat, "good", Rng.from_seed(1), Budget(seconds=0.3))
    spent = time.thread_time() - started
    assert weighed.how == "playouts" and weighed.iterations >= 2 * len(weighed.moves)
    assert spent < 0.3 + 0.1, spent
