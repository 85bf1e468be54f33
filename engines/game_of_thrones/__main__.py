"""Play a random game and print its log: ``python -m engines.game_of_thrones --seats 6 --seed 7``."""

from __future__ import annotations

import argparse

from engines.game_of_thrones import ENGINE
from engines.kit import Rng


def main() -> None:
    parser = argparse.ArgumentParser(description="A random game of A Game of Thrones, move by move.")
    parser.add_argument("--seats", type=int, default=6)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    state = ENGINE.new_game(args.seats, args.seed, {})
    chooser = Rng.from_seed(args.seed + 1)
    names = {f"{{seat:{s}}}": ENGINE.view(state, None)["houses"][s].capitalize() for s in range(args.seats)}
    while ENGINE.to_act(state):
        seat = sorted(ENGINE.to_act(state))[0]
        moves = ENGINE.legal_moves(state, seat)
        ready = [m for m in moves if m["type"] == "ready"]
        move = ready[0] if ready and chooser.below(2) else chooser.choice(moves)
        for event in ENGINE.play(state, seat, move):
            text = event.text
            for ref, name in names.items():
                text = text.replace(ref, name)
            print(text)
    result = ENGINE.result(state)
    assert result is not None
    print("Result:", result.as_json())


if __name__ == "__main__":
    main()
