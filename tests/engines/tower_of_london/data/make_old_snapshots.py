"""How ``old_snapshots.json`` beside this file was made: by the Tower of London code of rules
version 1 (before the engine kit, commit c4ae97a), never by today's.

    git worktree add OLD c4ae97a
    .venv/bin/python tests/engines/tower_of_london/data/make_old_snapshots.py OLD

For a few seeded random games it keeps the moves, the old snapshot (``encode``) at one point,
the log lines of every move, the views of the spectator and of seat 0 at that point and at the
end, and the result. The tests decode the old snapshot with today's code, play the rest of the
moves and compare. Kept to say what the file is; tests never run it.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent


def main(old_root: str) -> None:
    sys.path.insert(0, str(Path(old_root).resolve()))
    from engines.tower_of_london import ENGINE
    from engines.tower_of_london import rules as R

    assert "encode_state" in dir(R), "run this with the code of rules version 1"

    def mutiny_in_round(state: Any, rnd: int) -> bool:
        pile = [state.event, *state.event_pile]
        return R.EVENTS[pile[rnd - 1]].kind == "turn_order_reversed"

    def game(seats: int, seed: int, where: str) -> dict[str, Any]:
        rnd = random.Random(seed)
        state = ENGINE.new_game(seats, seed, {})
        moves: list[list[Any]] = []
        events: list[list[dict[str, Any]]] = []
        snap: dict[str, Any] | None = None
        at = -1
        while ENGINE.result(state) is None:
            if snap is None and taken(state, where):
                at, snap = len(moves), json.loads(json.dumps(ENGINE.encode(state)))
                views_at = {str(s): ENGINE.view(state, s) for s in (None, 0)}
            seat = rnd.choice(sorted(ENGINE.to_act(state)))
            move = rnd.choice(ENGINE.legal_moves(state, seat))
            moves.append([seat, move])
            events.append([{"text": e.text, "private": {str(k): v for k, v in e.private.items()}}
                           for e in ENGINE.play(state, seat, move)])
        assert snap is not None, where
        result = ENGINE.result(state)
        return {"seats": seats, "seed": format(seed, "032x"), "where": where, "at": at,
                "snapshot": snap, "moves": moves, "events": events, "views_at": views_at,
                "final_views": {str(s): ENGINE.view(state, s) for s in (None, 0)},
                "result": result.as_json() if result else None}

    def taken(state: Any, where: str) -> bool:
        if where == "pick, some have chosen":
            return state.phase == R.PICK and 0 < sum(1 for p in state.picks if p) < state.seats
        if where == "reveal, an ability to choose":
            return state.phase == R.REVEAL and state.stage == R.STAGE_ABILITY
        if where == "keep, some have kept":
            return state.phase == R.KEEP and 0 < sum(1 for k in state.keeps if k) < state.seats
        if where == "round 2, reveal, placing":
            return state.round == 2 and state.phase == R.REVEAL and state.stage == R.STAGE_PLACE
        raise AssertionError(where)

    # A seed whose round 2 is Mutiny: version 1 reads the track lowest first from step 2 of that
    # round to step 1 of the next, and must go on doing so for games of that time.
    mutiny_seed = next(s for s in range(1 << 100, (1 << 100) + 500)
                       if mutiny_in_round(ENGINE.new_game(4, s, {}), 2))
    cases = [
        game(2, 0x9F3C_1B2A_77E0_4D5C_A1B2_C3D4_E5F6_0789, "pick, some have chosen"),
        game(3, 0x0123_4567_89AB_CDEF_FEDC_BA98_7654_3210, "reveal, an ability to choose"),
        game(5, 0x2C26_50CB_FE26_EACC_E26F_5F5C_3E71_2BD5, "keep, some have kept"),
        game(4, mutiny_seed, "round 2, reveal, placing"),
    ]
    (HERE / "old_snapshots.json").write_text(json.dumps(cases, separators=(",", ":")) + "\n")


if __name__ == "__main__":
    main(sys.argv[1])
