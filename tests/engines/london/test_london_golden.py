"""A golden playthrough: a seeded 2-player game move by move, with what every seat reads (log
lines and prompt). A rules change shows up in review as a diff of golden_playthrough.txt.
Regenerate with LONDON_REGOLD=1 after checking the change is intended."""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

from engines.london import ENGINE
from engines.london.playout import random_move

GOLDEN = Path(__file__).with_name("golden_playthrough.txt")


def playthrough(seats: int = 2, seed: int = 2024, moves: int = 120) -> str:
    rng = random.Random(seed)
    s = ENGINE.new_game(seats, seed, {})
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


def test_golden_playthrough_is_unchanged():
    text = playthrough()
    if os.environ.get("LONDON_REGOLD") or not GOLDEN.exists():
        GOLDEN.write_text(text, encoding="utf-8")
    assert text == GOLDEN.read_text(encoding="utf-8")
