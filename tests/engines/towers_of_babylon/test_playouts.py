"""Whole games: the soak's quick mode, hidden information, replays and the authored decisions
that only show over a game (bench/towers_of_babylon_engine.py runs the 10,000-game soak)."""

from __future__ import annotations

import copy
import random
from collections import Counter

import orjson

from bench.towers_of_babylon_engine import main as bench_main
from bench.towers_of_babylon_engine import soak_game
from bench.towers_of_babylon_engine import timing as bench_timing
from engines.kit import Rng
from engines.towers_of_babylon import ENGINE
from engines.towers_of_babylon.playout import check_invariants

from .conftest import give, main_phase, play, power, put


def test_soak_400_seeded_games_random_and_greedy_keep_every_invariant_after_every_move():
    """400 games of the soak (random and greedy players, ready-made and card-by-card decks), the
    invariants checked after every move: about 7 s of CPU. bench/towers_of_babylon_engine.py runs
    the 10,000 (about 3 minutes of CPU; README.md has the last run)."""
    outcomes = Counter(soak_game(seed).outcome for seed in range(400))
    assert outcomes["goal"] > 50 and outcomes["height"] > 50, outcomes


def test_a_random_game_takes_under_20_ms_of_cpu_median(capsys):
    """The bench's budget, on CPU time (what one core spends, however busy the machine): about
    6 ms is measured today."""
    assert bench_timing(40)["median_ms"] < 20


def test_the_bench_script_runs_in_its_quick_modes(capsys):
    bench_main(["--games", "3"])
    bench_main(["--balance", "1"])
    out = capsys.readouterr().out
    assert "soak: games 0 to 2, random and greedy" in out and "ms of CPU median" in out
    assert "highest win rate of a deck against another" in out


def states_of(seed: int, every: int = 9):
    rng = random.Random(seed)
    state = ENGINE.new_game(2, seed, {})
    n = 0
    while not state.over:
        if n % every == 0:
            yield state
        seat = rng.choice(sorted(ENGINE.to_act(state)))
        ENGINE.play(state, seat, rng.choice(ENGINE.legal_moves(state, seat)))
        n += 1
    yield state


def test_hidden_hands_decks_and_choices_are_never_in_another_seats_view():
    """determinize re-draws what a seat cannot see; its view must not change (nor its moves)."""
    redrawn = 0
    for seed in (1, 2):
        for i, state in enumerate(states_of(seed)):
            for seat in (None, 0, 1):
                view = ENGINE.view(state, seat)
                other = ENGINE.determinize(state, seat, Rng.from_seed(1000 * seed + i))
                assert ENGINE.view(other, seat) == view
                if seat is not None:
                    assert ENGINE.legal_moves(other, seat) == ENGINE.legal_moves(state, seat)
                    mine = state.players[seat]
                    theirs, redrawn_theirs = state.players[1 - seat], other.players[1 - seat]
                    assert other.players[seat].hand == mine.hand
                    assert mine.deck[:mine.known_bottom] == other.players[seat].deck[:mine.known_bottom]
                    assert sorted(theirs.hand + theirs.deck) == sorted(redrawn_theirs.hand + redrawn_theirs.deck)
                    redrawn += theirs.hand != redrawn_theirs.hand
                check_invariants(other)
    assert redrawn > 10


def test_a_returned_minion_stays_known_in_its_owners_hand():
    state = main_phase(decks=("water_tide", "fire_legion"))
    riptide = give(state, 0, "water_riptide")
    imp = put(state, 1, "fire_ember_imp", "ramparts")
    power(state, 0, "water", "water", "water")
    play(state, 0, type="play", card=riptide, target=imp.iid)
    view = ENGINE.view(state, 0)["players"][1]
    assert view["known_hand"] == [{"iid": imp.iid, "card": "fire_ember_imp"}] and view["hand"] is None
    for k in range(5):
        assert imp.iid in ENGINE.determinize(state, 0, Rng.from_seed(k)).players[1].hand


def test_replaying_the_moves_from_the_seed_gives_an_equal_state_and_snapshots_round_trip():
    rng = random.Random(11)
    state = ENGINE.new_game(2, 77, {})
    played = []
    while not state.over:
        seat = rng.choice(sorted(ENGINE.to_act(state)))
        move = rng.choice(ENGINE.legal_moves(state, seat))
        ENGINE.play(state, seat, copy.deepcopy(move))
        played.append((seat, move))
        if len(played) % 25 == 0:
            data = orjson.dumps(ENGINE.encode(state))
            assert orjson.dumps(ENGINE.encode(ENGINE.decode(orjson.loads(data)))) == data
    replay = ENGINE.new_game(2, 77, {})
    for seat, move in played:
        ENGINE.play(replay, seat, move)
    assert ENGINE.encode(replay) == ENGINE.encode(state) and ENGINE.result(replay) == ENGINE.result(state)


def test_every_prompt_has_the_kits_shape_and_lists_exactly_the_legal_moves():
    for state in states_of(5, every=4):
        for seat in (0, 1):
            prompt = ENGINE.view(state, seat)["prompt"]
            if seat not in ENGINE.to_act(state):
                assert prompt is None
                continue
            assert prompt["kind"] and prompt["text"] and "{seat:" not in prompt["text"].replace(
                f"{{seat:{1 - seat}}}", "")
            assert spelled_out(prompt) == ENGINE.legal_moves(state, seat)
            assert all(c["label"] for c in prompt["choices"])


def spelled_out(prompt: dict) -> list[dict]:
    """Every move a prompt allows, in ``legal_moves``' order: its choices, and in the deck
    phase the ``add`` moves its ``addable`` map stands for (after the ready-made decks)."""
    moves = [c["move"] for c in prompt["choices"]]
    if prompt["kind"] != "deck":
        return moves
    decks = [m for m in moves if m["type"] == "deck"]
    adds = [{"type": "add", "card": card, "copies": k}
            for card, most in prompt["addable"].items() for k in range(1, most + 1)]
    return decks + adds + [m for m in moves if m["type"] != "deck"]


def test_the_deck_choice_prompt_is_small_and_stands_for_every_legal_add():
    state = ENGINE.new_game(2, 11, {})
    ENGINE.play(state, 0, {"type": "add", "card": "fire_scarlet_elder", "copies": 2})
    for seat in (0, 1):
        view = ENGINE.view(state, seat)
        prompt = view["prompt"]
        assert len(prompt["choices"]) <= 6  # four ready-made decks, clear, ready
        assert spelled_out(prompt) == ENGINE.legal_moves(state, seat)
        assert len(ENGINE.legal_moves(state, seat)) > 300
        assert len(orjson.dumps(view)) < 8_000
    assert "fire_scarlet_elder" not in ENGINE.view(state, 0)["prompt"]["addable"]  # rare: 2 already
