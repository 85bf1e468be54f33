"""London's views reuse a player's public entry while nothing in it changed, and a reused entry
is always the one built afresh."""

from __future__ import annotations

import random

import orjson

from engines.london import ENGINE
from engines.london import view as london_view


def test_a_player_the_move_did_not_touch_keeps_the_very_entry_and_entries_are_always_right():
    reused = 0
    for seed in range(6):
        rng = random.Random(seed)
        s = ENGINE.new_game(4, seed, {})
        before = london_view.views(s, (0, 1, 2, 3))
        while ENGINE.result(s) is None:
            (seat,) = ENGINE.to_act(s)
            ENGINE.play(s, seat, rng.choice(ENGINE.legal_moves(s, seat)))
            after = london_view.views(s, (0, 1, 2, 3, None))
            for i in range(4):
                fresh = london_view._player(s, i, None)
                public = after[None]["players"][i]
                assert orjson.dumps(public) == orjson.dumps(fresh)
                if i != seat and i != s.current:  # neither the mover nor the next player changed
                    old = before[0 if i else 1]["players"][i]
                    if orjson.dumps(old) == orjson.dumps(public):
                        assert old is public
                        reused += 1
            before = after
    assert reused > 1000
