"""How old_snapshots.json beside this file was made: by the London code of before the engine kit
(rules version 1, commit c4ae97a), whose snapshots (``state.encode``) are stored in hosts'
databases. For three seeded random games (2, 3 and 4 players) it keeps the seed, every move, the
snapshot and the spectator's view at a few points, and at the end the snapshot, the result, the
spectator's view and every log line (public and private texts).

    git worktree add OLD c4ae97a
    python tests/engines/london/data/make_old_snapshots.py OLD

Tests load the file; they never run this (today's code would not write the old format).
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

GAMES = ((2, 31), (3, 32), (4, 33))


def main(old: str) -> None:
    sys.path.insert(0, str(Path(old).resolve()))
    from engines.london import ENGINE
    from engines.london.playout import random_move

    games = []
    for seats, seed in GAMES:
        rng = random.Random(seed * 7919 + seats)
        s = ENGINE.new_game(seats, seed, {})
        moves, log, points = [], [], []
        n = 0
        while not s.over:
            if n in (0, 97, 251):
                points.append({"after": n, "snapshot": ENGINE.encode(s), "spectator": ENGINE.view(s, None)})
            (seat,) = ENGINE.to_act(s)
            m = random_move(ENGINE.legal_moves(s, seat), rng)
            events = ENGINE.play(s, seat, m)
            moves.append([seat, m])
            log.append([[e.text, {str(k): v for k, v in e.private.items()}] for e in events])
            n += 1
        result = ENGINE.result(s)
        assert result is not None
        games.append({"seats": seats, "seed": seed, "moves": moves, "points": points,
                      "final": ENGINE.encode(s), "result": result.as_json(),
                      "spectator": ENGINE.view(s, None), "log": log})
    out = Path(__file__).with_name("old_snapshots.json")
    out.write_text(json.dumps({"made_by": "London before the engine kit (rules version 1, c4ae97a)",
                               "games": games}, separators=(",", ":")) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main(sys.argv[1])
