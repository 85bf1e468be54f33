"""Bots (engines/bots) and the tournament runner (engines/tournament.py).

A bot always answers with a legal move, answers the same given the same generator and an
iteration budget, keeps to its time budget, and never looks at what its seat cannot see: its
choice is the same on the true state, on any determinization for its seat, and on a state whose
other hands were swapped around.
"""

from __future__ import annotations

import copy
import time
from typing import Any

import pytest

from engines.base import Engine
from engines.bots import LEVELS, Budget, Hooks, choose, decide, hooks_for
from engines.bots.hooks import generic_sensible, kind, pick_by_kind, sensible_moves
from engines.kit import Rng
from engines.registry import BUILTIN, load_engines
from engines.tournament import Report, Setup, game_seed, main, play_one, seat_of, wilson
from tests.support.positions import deciding, states, swap_other_hands
from tests.support.tinygame import ENGINE as TALLY

QUICK = Budget(iterations=60, seconds=None)
ENGINES: dict[str, Engine] = {**load_engines(BUILTIN), "tally": TALLY}


def can_determinize(engine: Engine) -> bool:
    """True when the engine implements ``determinize`` (bots need it to search)."""
    try:
        state = engine.new_game(engine.min_seats, 1, {})
        engine.determinize(state, 0, Rng.from_seed(1))  # type: ignore[attr-defined]
    except (AttributeError, NotImplementedError):
        return False
    return True


BOTTABLE = sorted(gid for gid, e in ENGINES.items() if can_determinize(e))




# -- a legal move, always ----------------------------------------------------------------------

@pytest.mark.parametrize("seats", [2, 3, 4])
@pytest.mark.parametrize("vote", [False, True])
def test_a_bot_always_plays_a_legal_move_to_the_end_of_a_game(seats, vote):
    state = TALLY.new_game(seats, 100 + seats, {"vote": vote, "target": 21})
    rng = Rng.from_seed(seats)
    moves = 0
    while TALLY.to_act(state):
        for seat in sorted(TALLY.to_act(state)):
            level = LEVELS[(seat + moves) % 2]
            move = choose(TALLY, state, seat, level, rng, QUICK)
            assert move in TALLY.legal_moves(state, seat)
            TALLY.play(state, seat, move)
            moves += 1
            break
    assert TALLY.result(state) is not None


@pytest.mark.parametrize("gid", [g for g in BOTTABLE if g != "tally"])
def test_every_bottable_game_gets_legal_moves_from_both_levels(gid):
    engine = ENGINES[gid]
    for seats in range(engine.min_seats, engine.max_seats + 1):
        for state in states(engine, seats, 7 * seats, every=25)[:4]:
            for seat in deciding(engine, state):
                for level in LEVELS:
                    move = choose(engine, state, seat, level, Rng.from_seed(seat), Budget(8, None))
                    assert move in engine.legal_moves(state, seat)


def test_a_bot_refuses_to_play_for_a_seat_that_is_not_awaited():
    state = TALLY.new_game(2, 1, {})
    with pytest.raises(ValueError, match="not awaited"):
        choose(TALLY, state, 1, "good", Rng.from_seed(1), QUICK)
    with pytest.raises(ValueError, match="unknown bot level"):
        choose(TALLY, state, 0, "grandmaster", Rng.from_seed(1), QUICK)


def test_a_single_legal_move_is_played_without_searching():
    state = TALLY.new_game(2, 1, {})
    state.hands[0] = [5]
    choice = decide(TALLY, state, 0, "good", Rng.from_seed(1), QUICK)
    assert choice.move == {"type": "play", "card": 5} and choice.iterations == 0


# -- the same answer from the same generator ---------------------------------------------------

@pytest.mark.parametrize("level", LEVELS)
def test_a_bot_with_an_iteration_budget_answers_the_same_given_the_same_generator(level):
    for state in states(TALLY, 3, 5, every=2):
        for seat in deciding(TALLY, state):
            first = choose(TALLY, copy.deepcopy(state), seat, level, Rng.from_seed(42), QUICK)
            again = choose(TALLY, copy.deepcopy(state), seat, level, Rng.from_seed(42), QUICK)
            assert first == again


def test_a_bot_does_not_change_the_state_it_is_given():
    for state in states(TALLY, 2, 9):
        for seat in deciding(TALLY, state):
            before = TALLY.encode(state)
            choose(TALLY, state, seat, "good", Rng.from_seed(1), QUICK)
            assert TALLY.encode(state) == before


def test_the_good_bot_keeps_to_its_time_budget():
    state = TALLY.new_game(4, 3, {"target": 51})
    start = time.thread_time()
    choice = decide(TALLY, state, 0, "good", Rng.from_seed(1), Budget(iterations=10**9, seconds=0.2))
    spent = time.thread_time() - start
    assert spent < 0.5 and choice.iterations > 10


def test_the_default_budget_answers_within_a_second():
    state = TALLY.new_game(3, 4, {"target": 51})
    start = time.thread_time()
    decide(TALLY, state, 0, "good", Rng.from_seed(1))
    assert time.thread_time() - start < 1.0


# -- nothing hidden is looked at ---------------------------------------------------------------


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("vote", [False, True])
def test_a_tally_bot_chooses_the_same_whatever_the_hidden_cards(level, vote):
    compared = 0
    positions = [s for seed in (21, 22, 23) for s in states(TALLY, 3, seed, every=1, options={"vote": vote})]
    for i, state in enumerate(positions):
        for seat in deciding(TALLY, state):
            expected = choose(TALLY, state, seat, level, Rng.from_seed(99), QUICK)
            alike = [swap_other_hands(state, seat)]
            alike += [TALLY.determinize(state, seat, Rng.from_seed(1000 * i + k)) for k in range(3)]
            for other in alike:
                assert TALLY.view(other, seat) == TALLY.view(state, seat)
                assert choose(TALLY, other, seat, level, Rng.from_seed(99), QUICK) == expected
                compared += 1
    assert compared > 40


@pytest.mark.parametrize("gid", [g for g in BOTTABLE if g != "tally" and hooks_for(ENGINES[g]).canonical])
def test_a_bot_chooses_the_same_on_the_true_state_and_on_any_determinization(gid):
    engine = ENGINES[gid]
    for seats in (engine.min_seats, engine.max_seats):
        for i, state in enumerate(states(engine, seats, 3 + seats, every=37)[:5]):
            for seat in deciding(engine, state):
                for level in LEVELS:
                    expected = choose(engine, state, seat, level, Rng.from_seed(5), Budget(12, None))
                    for k in range(2):
                        other = engine.determinize(state, seat, Rng.from_seed(1000 * i + k))  # type: ignore[attr-defined]
                        assert choose(engine, other, seat, level, Rng.from_seed(5), Budget(12, None)) == expected


@pytest.mark.parametrize("gid", [g for g in BOTTABLE if hooks_for(ENGINES[g]).canonical])
def test_a_canonical_position_is_one_the_seat_cannot_tell_from_the_true_one(gid):
    engine = ENGINES[gid]
    canonical = hooks_for(engine).canonical
    assert canonical is not None
    for seats in (engine.min_seats, engine.max_seats):
        for state in states(engine, seats, 11 + seats, every=9)[:12]:
            before = engine.encode(state)
            for seat in range(seats):
                same = canonical(state, seat)
                assert engine.view(same, seat) == engine.view(state, seat)
                assert sorted(engine.to_act(same)) == sorted(engine.to_act(state))
                if seat in engine.to_act(state):
                    assert engine.legal_moves(same, seat) == engine.legal_moves(state, seat)
            assert engine.encode(state) == before


@pytest.mark.parametrize("gid", [g for g in BOTTABLE if hooks_for(ENGINES[g]).evaluate])
def test_an_evaluation_gives_every_seat_a_value_between_0_and_1(gid):
    engine = ENGINES[gid]
    evaluate = hooks_for(engine).evaluate
    assert evaluate is not None
    for seats in (engine.min_seats, engine.max_seats):
        for state in states(engine, seats, 5, every=40):
            values = evaluate(engine, state)
            assert len(values) == seats and all(0.0 <= v <= 1.0 for v in values)


def test_the_search_runs_on_determinizations_only():
    """A search never sees the state it was given: every state it plays on is a determinization."""
    seen: list[int] = []

    class Watching:
        def __init__(self, inner: Any) -> None:
            self.inner = inner

        def __getattr__(self, name: str) -> Any:
            return getattr(self.inner, name)

        def determinize(self, state: Any, seat: Any, rng: Rng) -> Any:
            out = self.inner.determinize(state, seat, rng)
            seen.append(id(out))
            return out

        def play(self, state: Any, seat: int, move: Any) -> Any:
            assert id(state) in seen, "the bot played on a state that is not a determinization"
            return self.inner.play(state, seat, move)

    state = TALLY.new_game(3, 8, {})
    choose(Watching(TALLY), state, 0, "good", Rng.from_seed(1), QUICK)  # type: ignore[arg-type]
    assert len(seen) == QUICK.iterations


# -- sensible moves ------------------------------------------------------------------------------

def test_a_pass_is_never_the_easy_choice_while_another_move_exists():
    moves = [{"type": "pass"}, {"type": "place", "building": 1}, {"type": "place", "building": 2}]
    assert generic_sensible(moves) == moves[1:]
    assert generic_sensible(moves[:1]) == moves[:1]


def test_moves_are_picked_by_kind_so_many_of_one_kind_do_not_drown_another():
    moves = [{"type": "draw", "from": "board", "card": c} for c in range(20)] + [{"type": "draw", "from": "deck"}]
    rng = Rng.from_seed(3)
    picks = [pick_by_kind(moves, rng) for _ in range(400)]
    assert 150 < sum(m["from"] == "deck" for m in picks) < 250
    assert kind(moves[0]) == ("draw", "board")


def test_a_game_without_hooks_gets_the_generic_ones():
    class Unknown:
        id = "unknown"

    assert hooks_for(Unknown()) == Hooks()  # type: ignore[arg-type]


# -- the tournament ----------------------------------------------------------------------------

def test_the_wilson_interval():
    assert [round(x, 3) for x in wilson(140, 200)] == [0.633, 0.759]
    assert wilson(0, 0) == (0.0, 1.0)
    lo, hi = wilson(200, 200)
    assert hi == 1.0 and lo > 0.98


def test_seats_rotate_so_no_entrant_always_sits_first():
    firsts = [next(i for i in range(4) if seat_of(i, g, 4) == 0) for g in range(8)]
    assert sorted(set(firsts)) == [0, 1, 2, 3]
    assert all(sorted(seat_of(i, g, 3) for i in range(3)) == [0, 1, 2] for g in range(6))
    assert game_seed(1, 0) != game_seed(1, 1) and game_seed(1, 0) == game_seed(1, 0)


def test_a_tournament_game_is_reproducible_and_credits_the_winner():
    setup = Setup("tests.support.tinygame:ENGINE", 3, ("good", "easy", "easy"), 5, QUICK)
    first, again = play_one(setup, 2), play_one(setup, 2)
    assert first.error is None and sum(first.shares) == pytest.approx(1.0)
    assert (first.shares, first.moves) == (again.shares, again.moves)
    lines = Report(setup, [first, play_one(setup, 3)]).lines()
    assert any("entrant 0 (good)" in line for line in lines)


def test_the_tournament_command(capsys):
    code = main(["tests.support.tinygame:ENGINE", "--seats", "2", "--games", "4", "--bots", "good,easy",
                 "--iterations", "30", "--seconds", "0", "--option", "target=21"])
    out = capsys.readouterr().out
    assert code == 0
    assert "entrant 0 (good)" in out and "entrant 1 (easy)" in out and "moves on average" in out
    assert "ms CPU per decision" in out


# -- A Game of Thrones -----------------------------------------------------------------------------

def got_searched_positions(seats: int, seed: int, wanted: int, every: int = 4) -> list[tuple[Any, int]]:
    """Positions of a seeded easy game of A Game of Thrones where a seat has a choice outside
    Planning (a march, a raid, support, a house card, a muster, a bid …): every ``every``-th one."""
    engine = ENGINES["game_of_thrones"]
    state = engine.new_game(seats, seed, {})
    rng = Rng.from_seed(seed)
    out: list[tuple[Any, int]] = []
    found = 0
    while engine.to_act(state) and len(out) < wanted:
        seat = min(engine.to_act(state))
        choice = decide(engine, state, seat, "easy", rng)
        if state.decisions.top is not None and choice.considered > 1:
            if found % every == 0:
                out.append((copy.deepcopy(state), seat))
            found += 1
        engine.play(state, seat, choice.move)
    return out


@pytest.mark.parametrize("seats", [3, 6])
def test_a_game_of_thrones_bot_chooses_the_same_on_the_true_state_and_on_any_determinization(seats):
    """The hidden decks, others' face-down orders, cards and bids change nothing: the good bot's
    heuristic and its search work from the canonical position."""
    engine = ENGINES["game_of_thrones"]
    positions = got_searched_positions(seats, 40 + seats, 8, every=2)
    assert len(positions) == 8
    searched = 0
    for i, (state, seat) in enumerate(positions):
        expected = decide(engine, state, seat, "good", Rng.from_seed(5), Budget(6, None))
        searched += expected.iterations > 0
        for k in range(2):
            other = engine.determinize(state, seat, Rng.from_seed(1000 * i + k))  # type: ignore[attr-defined]
            assert choose(engine, other, seat, "good", Rng.from_seed(5), Budget(6, None)) == expected.move
    assert searched >= 2


def test_a_game_of_thrones_easy_march_stages_only_what_lets_it_end_and_backs_out_of_a_dead_end():
    """Two ships in a port whose sea already holds two, at supply 2 (3, 2, 2): one ship may go
    (then the march cannot end), both may not. The easy bot ends the march instead, and from
    the dead end (staged by a player whose seat it took) it undoes: it never alternates
    stage/undo forever."""
    from tests.engines.game_of_thrones.conftest import plan, play, position, seat

    engine = ENGINES["game_of_thrones"]
    state = position(3, {"port-of-dragonstone": ("baratheon", ["ship", "ship"]),
                         "shipbreaker-bay": ("baratheon", ["ship", "ship"]),
                         "kings-landing": ("baratheon", ["footman", "footman", "footman"]),
                         "winterfell": ("stark", ["footman"]), "lannisport": ("lannister", ["footman"])})
    baratheon = seat(state, "baratheon")
    state.supply[baratheon] = 2
    plan(state, {"port-of-dragonstone": "march", "shipbreaker-bay": "support", "kings-landing": "support",
                 "winterfell": "support", "lannisport": "support"})
    play(state, baratheon, "march", area="port-of-dragonstone")
    hooks = hooks_for(engine)
    stage = {"type": "move", "unit": "ship", "to": "shipbreaker-bay"}
    assert stage in engine.legal_moves(state, baratheon)
    assert sensible_moves(hooks, engine, state, baratheon, engine.legal_moves(state, baratheon)) == [
        {"type": "end_march", "power": False}]
    play(state, baratheon, "move", unit="ship", to="shipbreaker-bay")
    assert engine.legal_moves(state, baratheon) == [stage, {"type": "undo"}]
    assert sensible_moves(hooks, engine, state, baratheon, engine.legal_moves(state, baratheon)) == [{"type": "undo"}]


def test_easy_game_of_thrones_bots_end_the_game_that_once_marched_back_and_forth_forever():
    """Game 0 of the seeded three-player easy tournament: round 8's march used to loop."""
    setup = Setup("game_of_thrones", 3, ("easy", "easy", "easy"), 1, Budget(4, None))
    outcome = play_one(setup, 0)
    assert outcome.error is None and sum(outcome.shares) == pytest.approx(1.0)
