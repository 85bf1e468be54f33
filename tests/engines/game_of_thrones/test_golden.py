"""The golden playthrough: a seeded 3-player game, move by move, with the mover's prompt and what
every seat reads in the log. A change to the rules, the log or the prompts shows up in review as
a diff of golden_playthrough.txt.

A missing or different file fails the test; a normal run never writes it. After checking that a
change is intended, regenerate it with

    GOT_REGOLD=1 pytest tests/engines/game_of_thrones/test_golden.py

and commit it with the change.
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

from engines.game_of_thrones import ENGINE

from .conftest import pick

GOLDEN = Path(__file__).parent / "golden_playthrough.txt"


def playthrough(seats: int = 3, seed: int = 2024, moves: int = 900) -> str:
    rng = random.Random(seed)
    state = ENGINE.new_game(seats, seed, {})
    lines: list[str] = []
    for n in range(moves):
        awaited = sorted(ENGINE.to_act(state))
        if not awaited:
            break
        seat = rng.choice(awaited)
        view = ENGINE.view(state, seat)
        lines.append(f"#{n} round {view['round']} seat {seat} [{view['decision']}] {view['prompt']['text']}")
        move = pick(rng, ENGINE.legal_moves(state, seat))
        lines.append(f"  move {json.dumps(move, sort_keys=True)}")
        for event in ENGINE.play(state, seat, move):
            lines.append(f"  all: {event.for_seat(None)}")
            for viewer in range(seats):
                if event.for_seat(viewer) != event.text:
                    lines.append(f"  seat {viewer}: {event.for_seat(viewer)}")
    result = ENGINE.result(state)
    lines.append(f"result {json.dumps(result.as_json() if result else None, sort_keys=True)}")
    return "\n".join(lines) + "\n"


def test_golden_playthrough_is_unchanged():
    text = playthrough()
    if os.environ.get("GOT_REGOLD") == "1":
        GOLDEN.write_text(text, encoding="utf-8")
    assert GOLDEN.exists(), f"{GOLDEN.name} is missing: regenerate it with GOT_REGOLD=1 (see the docstring)"
    assert text == GOLDEN.read_text(encoding="utf-8"), f"{GOLDEN.name} differs from this code's playthrough"
