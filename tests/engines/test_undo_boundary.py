"""Where a turn's undo boundary lies: which moves each game lets its player take back (the kit's
``reversible``), and how a history holding take-backs is followed (app/play/takeback.py, pure)."""

from __future__ import annotations

import random

import orjson
import pytest

from app.play.takeback import History, TakeBackGap, chain_after, restore, take_back_entry
from engines.base import IllegalMove
from engines.london import ENGINE as LONDON
from engines.london.components import CARDS
from engines.tower_of_london import ENGINE as TOWER
from tests.support.tinygame import ENGINE as TALLY


def encoded(engine, state) -> bytes:
    return orjson.dumps(engine.encode(state))


def test_the_kit_lets_nothing_be_taken_back_unless_a_game_opts_in():
    state = TALLY.new_game(2, 5, {})
    assert all(not TALLY.reversible(state, 0, m) for m in TALLY.legal_moves(state, 0))


def test_london_a_draw_from_the_deck_is_a_boundary_and_a_loan_is_not():
    s = LONDON.new_game(2, 1, {})
    assert LONDON.reversible(s, 0, {"type": "take_loan"})
    assert not LONDON.reversible(s, 0, {"type": "draw", "from": "deck"})
    LONDON.play(s, 0, {"type": "draw", "from": "deck"})
    assert all(LONDON.reversible(s, 0, m) for m in LONDON.legal_moves(s, 0))  # the choice of action, a loan


def test_london_purchases_effects_that_draw_and_the_end_of_the_turn_are_boundaries():
    rng = random.Random(3)
    seen: dict[str, set[bool]] = {}
    for seed in range(4):
        s = LONDON.new_game(3, seed, {})
        while LONDON.result(s) is None:
            seat = next(iter(LONDON.to_act(s)))
            moves = LONDON.legal_moves(s, seat)
            for m in moves:
                rev = LONDON.reversible(s, seat, m)
                seen.setdefault(m["type"], set()).add(rev)
                if m["type"] == "develop" and CARDS[m["card"]].is_action and any(
                        e["do"] == "draw" for e in CARDS[m["card"]].on_play):
                    assert not rev
                if m["type"] == "draw":
                    assert rev == (m["from"] == "board")
            LONDON.play(s, seat, rng.choice(moves))
    for never in ("buy", "end_turn", "scry", "keep", "bottom"):
        assert seen.get(never, {False}) == {False}, never
    for always in ("take_loan", "choose_action", "place", "end_action", "discard_for_colour"):
        assert seen[always] == {True}, always
    assert seen["draw"] == {True, False}


def test_tower_of_london_a_choice_may_be_made_again_until_the_last_seat_chooses():
    s = TOWER.new_game(3, 7, {})
    pick = TOWER.legal_moves(s, 0)[0]
    assert TOWER.reversible(s, 0, pick)
    TOWER.play(s, 0, pick)
    TOWER.play(s, 1, TOWER.legal_moves(s, 1)[0])
    last = TOWER.legal_moves(s, 2)[0]
    assert not TOWER.reversible(s, 2, last), "the last choice reveals every card"


def test_a_history_follows_take_backs_back_to_the_turns_boundary_and_no_further():
    s = LONDON.new_game(2, 9, {})
    h = History(LONDON, s)
    h.follow(1, 0, {"type": "take_loan"})
    after_loan = encoded(LONDON, h.state)
    h.follow(2, 0, {"type": "draw", "from": "deck"})
    assert h.chain is None, "the draw is a boundary"
    drawn = encoded(LONDON, h.state)
    h.follow(3, 0, {"type": "choose_action", "action": "develop"})
    h.follow(4, 0, {"type": "take_loan"})
    assert h.chain is not None and h.chain.target() == 3
    h.follow(5, 0, take_back_entry(3))
    h.follow(6, 0, take_back_entry(2))
    assert encoded(LONDON, h.state) == drawn != after_loan
    with pytest.raises(LookupError):
        h.follow(7, 0, take_back_entry(1))  # before the draw


def test_a_take_back_is_only_its_own_seats_and_only_to_a_point_of_its_turn():
    s = LONDON.new_game(2, 9, {})
    chain = chain_after(LONDON, None, s, 1, 0, {"type": "take_loan"})
    LONDON.play(s, 0, {"type": "take_loan"})
    with pytest.raises(TakeBackGap):
        restore(LONDON, chain, 1, 0)
    with pytest.raises(ValueError):
        restore(LONDON, chain, 0, 1)  # nothing after entry 1 to take back
    state, rest = restore(LONDON, chain, 0, 0)
    assert encoded(LONDON, state) == encoded(LONDON, LONDON.new_game(2, 9, {})) and rest.moves == []


def test_a_refused_move_leaves_the_chain_as_it_was():
    s = LONDON.new_game(2, 9, {})
    h = History(LONDON, s)
    h.follow(1, 0, {"type": "take_loan"})
    chain = h.chain
    with pytest.raises(IllegalMove):
        h.follow(2, 0, {"type": "end_turn"})
    assert h.chain is chain


def test_towers_of_babylon_deck_list_changes_and_moved_minions_may_be_taken_back_and_nothing_else():
    from engines.towers_of_babylon import ENGINE as BABYLON

    rng = random.Random(1)
    s = BABYLON.new_game(2, 5, {})
    seen = set()
    while BABYLON.result(s) is None:
        seat = min(BABYLON.to_act(s))
        moves = BABYLON.legal_moves(s, seat)
        for m in moves:
            assert BABYLON.reversible(s, seat, m) == (m["type"] in ("add", "clear", "move")), m
            seen.add(m["type"])
        BABYLON.play(s, seat, rng.choice(moves))
    assert {"add", "move", "play", "draw"} <= seen


def test_a_bulk_replay_keeps_turn_chains_only_where_a_take_back_or_the_open_turn_may_need_them():
    from app.play.takeback import capture_points

    loan, undo = {"type": "take_loan"}, take_back_entry(1)
    entries = [(0, loan), (0, loan), (1, loan), (1, loan), (1, undo), (0, loan), (0, loan)]
    assert capture_points(entries) == [False, False, True, True, False, True, True]
    assert capture_points([]) == []


def test_a_bulk_replay_keeps_a_turn_boundary_only_where_a_stored_take_back_follows():
    from app.play.takeback import base_points

    loan, undo = {"type": "take_loan"}, take_back_entry(1)
    entries = [(0, loan), (0, loan), (1, loan), (1, loan), (1, undo), (0, loan), (0, loan)]
    # the open turn (the last two) keeps its chain but not its boundary: a take-back asked later
    # reads that from the store
    assert base_points(entries) == [False, False, True, True, False, False, False]
    assert base_points([]) == []


def test_a_chain_without_its_boundary_asks_for_it_before_taking_back():
    from app.play.takeback import BoundaryNotKept

    s = LONDON.new_game(2, 5, {})
    chain = chain_after(LONDON, None, s, 1, 0, {"type": "take_loan"}, keep_base=False)
    assert chain is not None and chain.base is None
    LONDON.play(s, 0, {"type": "take_loan"})
    with pytest.raises(BoundaryNotKept) as gap:
        restore(LONDON, chain, 0, 0)
    assert gap.value.chain is chain


@pytest.mark.parametrize("game", ["london", "tower_of_london", "towers_of_babylon"])
def test_taking_back_returns_exactly_to_the_state_before_the_move_taken_back(game):
    """A random game with random take-backs: after each, the state is byte for byte the one
    before the move taken back, and the game still plays on to its end."""
    from engines.registry import BUILTIN, load_engines

    engine = load_engines(BUILTIN)[game]
    rng = random.Random(game)
    h = History(engine, engine.new_game(engine.min_seats, 77, {}))
    before: dict[int, bytes] = {0: encoded(engine, h.state)}  # entry -> the state after it
    seq = takes = 0
    while engine.result(h.state) is None and seq < 5000:
        seq += 1
        chain = h.chain
        if chain is not None and chain.moves and rng.random() < 0.3:
            target = chain.target()
            h.follow(seq, chain.seat, take_back_entry(target))
            assert encoded(engine, h.state) == before[target]
            takes += 1
        else:
            seat = rng.choice(sorted(engine.to_act(h.state)))
            h.follow(seq, seat, rng.choice(engine.legal_moves(h.state, seat)))
        before[seq] = encoded(engine, h.state)
    assert engine.result(h.state) is not None and takes >= 3
