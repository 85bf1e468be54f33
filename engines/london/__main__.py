"""Play one seeded random game of London and print its log and the final scores.

    python -m engines.london --seats 3 --seed 7
"""

from __future__ import annotations

import argparse
import random
import re
import sys

from engines.london.playout import ENGINE, random_move

_SEAT = re.compile(r"\{seat:(\d+)\}")


def _names(text: str) -> str:
    return _SEAT.sub(lambda m: f"Player {int(m.group(1)) + 1}", text)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m engines.london", description=__doc__)
    ap.add_argument("--seats", type=int, default=3)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--quiet", action="store_true", help="print only the final scores")
    args = ap.parse_args(argv)
    s = ENGINE.new_game(args.seats, args.seed, {})
    rng = random.Random(args.seed)
    out = sys.stdout
    while not s.over:
        (seat,) = ENGINE.to_act(s)
        for e in ENGINE.play(s, seat, random_move(ENGINE.legal_moves(s, seat), rng)):
            if not args.quiet:
                out.write(_names(e.text) + "\n")
    res = ENGINE.result(s)
    assert res is not None
    out.write("\nFinal scores\n")
    for row in res.details["scoring"]:
        steps = ", ".join(f"({st['step']}) {st['vp']:+d}" for st in row["steps"])
        out.write(f"  Player {row['seat'] + 1}: {row['total']} VP  [prestige in play "
                  f"{row['prestige_in_play']:+d}; {steps}; poverty left {row['poverty']}]\n")
    out.write("Winner: " + ", ".join(f"Player {w + 1}" for w in res.winners)
              + f" (decided by {res.details['tiebreak']['decided_by']})\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
