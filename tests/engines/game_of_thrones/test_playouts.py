"""Random legal-move games for every player count, with invariants checked after every move;
replays; refusals that change nothing. (The conformance suite, tests/engines/test_conformance.py,
runs its checks on this engine at 3, 4, 5 and 6 players now that the site hosts it.)"""

from __future__ import annotations

import orjson
import pytest

from bench.game_of_thrones_engine import check_invariants
from engines.base import IllegalMove
from engines.game_of_thrones import ENGINE
from engines.game_of_thrones import rules as R
from engines.game_of_thrones.components import RULES
from engines.game_of_thrones.state import PLANNING

from .conftest import random_game

GAMES = 100
"""Games per player count: 400 games take about a minute of CPU (0.1 s for a checked 3-player
game, 0.25 s for 6 players). The README gives the result of a larger run made by hand."""
BATCHES = 4
"""Each player count's games in four tests, so none runs long on a busy machine."""


@pytest.mark.parametrize("batch", range(BATCHES))
@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_random_games_keep_every_invariant_and_end_after_ten_rounds_or_seven_castles(players, batch):
    """Invariants after every move (bench/game_of_thrones_engine.py: units within each house's
    pool and of the right kind for their area, ports, supply limits, Power tokens conserved with
    the pool, orders only with their units, every awaited seat with a listed move), each listed
    set at most MAX_LISTED moves (conftest), and a winner at the end."""
    endings: set[str] = set()
    for game in range(batch, GAMES, BATCHES):
        last = None
        for state in random_game(players, 1000 * players + game):
            check_invariants(state)
            last = state
        assert last is not None
        result = ENGINE.result(last)
        assert result is not None and len(result.winners) == 1
        assert last.round == RULES.rounds or R.castles_held(last, result.winners[0]) >= RULES.castles_to_win
        endings.add(last.ended_by)
    assert "round 10" in endings


def test_replaying_a_game_from_its_seed_and_moves_gives_an_equal_state():
    import random

    rng = random.Random(4)
    state = ENGINE.new_game(5, 99, {})
    played = []
    while ENGINE.to_act(state):
        seat = rng.choice(sorted(ENGINE.to_act(state)))
        move = rng.choice(ENGINE.legal_moves(state, seat))
        ENGINE.play(state, seat, move)
        played.append((seat, move))
    again = ENGINE.new_game(5, 99, {})
    for seat, move in played:
        ENGINE.play(again, seat, move)
    assert orjson.dumps(ENGINE.encode(again)) == orjson.dumps(ENGINE.encode(state))
    assert ENGINE.decode(orjson.loads(orjson.dumps(ENGINE.encode(state)))) == state


def test_refused_moves_leave_the_state_unchanged_and_name_a_rule():
    bad = [{"type": "order", "area": "pyke", "order": "march"}, {"type": "ready"},
           {"type": "march", "area": "winterfell"}, {"type": "card", "card": "eddard-stark"},
           {"type": "retreat", "to": "the-eyrie"}, {"type": "move", "unit": "knight", "to": "dorne"},
           {"type": "end_march", "power": True}, {"type": "raid", "area": "x", "target": ""}]
    checked = 0
    for i, state in enumerate(random_game(4, 77)):
        if i % 23:
            continue
        for seat in ENGINE.to_act(state):
            listed = ENGINE.legal_moves(state, seat)
            for move in bad:
                if move in listed:
                    continue
                before = orjson.dumps(ENGINE.encode(state))
                with pytest.raises(IllegalMove) as err:
                    ENGINE.play(state, seat, move)
                assert err.value.rule and err.value.message
                assert orjson.dumps(ENGINE.encode(state)) == before
                checked += 1
    assert checked > 50


def test_no_view_shows_another_house_s_unrevealed_orders_or_chosen_card():
    seen_planning = seen_cards = 0
    for state in random_game(6, 5):
        if state.phase == PLANNING and state.planning.open:
            for seat in [None, *range(state.seats)]:
                view = ENGINE.view(state, seat)
                for area in view["areas"]:
                    # another house's order lies face down: whose and where, never its kind
                    if "order" in area and area["order"]["seat"] != seat:
                        assert area["order"] == {"seat": area["order"]["seat"], "hidden": True}
            seen_planning += 1
        c = state.combat
        if c is not None and c.cards.open and c.cards.choices:
            for seat in [None, *range(state.seats)]:
                shown = ENGINE.view(state, seat)["combat"]["my_card"]
                assert shown == (c.cards.choices.get(seat) if seat is not None else None)
            seen_cards += 1
    assert seen_planning and seen_cards
