"""Golden playthroughs: a seeded 2-player game move by move, with what every seat reads (log
lines and prompt), under each rules version. A change to the rules, the log or the prompts shows
up in review as a diff of golden_playthrough_v<N>.txt.

A missing or different file fails the test; a normal run never writes it. After checking that a
change is intended, regenerate the files with

    LONDON_REGOLD=1 pytest tests/engines/london/test_london_golden.py

and commit them with the change. Version 1's file dates from before the engine kit: it proves
the move to the kit left every log line and prompt of an old table as it was.
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

import pytest

from engines.london import ENGINE
from engines.london.playout import random_move

HERE = Path(__file__).parent


def golden(version: int) -> Path:
    return HERE / f"golden_playthrough_v{version}.txt"


def playthrough(version: int, seats: int = 2, seed: int = 2024, moves: int = 120) -> str:
    rng = random.Random(seed)
    s = ENGINE.new_game(seats, seed, {}, rules_version=version)
    lines: list[str] = []
    for n in range(moves):
        if s.over:
            break
        (seat,) = ENGINE.to_act(s)
        v = ENGINE.view(s, seat)
        lines.append(f"#{n} seat {seat} [{v['step']}] {v['prompt']['text']}")
        legal = ENGINE.legal_moves(s, seat)
        m = random_move([x for x in legal if x["type"] != "take_loan"] or legal, rng)  # no loan spree
        lines.append(f"  move {json.dumps(m, sort_keys=True)}")
        for e in ENGINE.play(s, seat, m):
            for viewer in [None, *range(seats)]:
                who = "spectator" if viewer is None else f"seat {viewer}"
                if viewer is None or e.for_seat(viewer) != e.text:
                    lines.append(f"  {who}: {e.for_seat(viewer)}")
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("version", ENGINE.rules_versions)
def test_golden_playthrough_is_unchanged(version):
    text = playthrough(version)
    path = golden(version)
    if os.environ.get("LONDON_REGOLD") == "1":
        path.write_text(text, encoding="utf-8")
    assert path.exists(), f"{path.name} is missing: regenerate it with LONDON_REGOLD=1 (see the docstring)"
    assert text == path.read_text(encoding="utf-8"), f"{path.name} differs from this code's playthrough"
