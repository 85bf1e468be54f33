"""The log reads as English for one and for many: "1 point", "2 points", "2 footmen", never
"1 points", "2 footmans" or "Power token(s)". Seeded random games at every player count, every
line any seat reads (public and private texts) checked."""

from __future__ import annotations

import random
import re
from collections import Counter

from engines.game_of_thrones import ENGINE

from .conftest import pick

NOUNS = ("point", "Power token", "token", "unit", "order", "castle", "stronghold", "ship", "captured ship",
         "knight", "siege engine", "icon", "place", "card", "area")
ONE = "|".join(re.escape(n) + "s" for n in NOUNS) + "|footmen"
MANY = "|".join(re.escape(n) for n in NOUNS) + "|footman"
AT = r"(?<![\w+\-−])"
"""Where a count starts: not in a word, nor an order's strength ("No March +1 orders")."""
WRONG = [
    re.compile(rf"{AT}1 ({ONE})\b"),  # "1 points"
    re.compile(rf"{AT}(0|[2-9]|\d\d+) ({MANY})\b"),  # "2 point", "3 footman"
    re.compile(r"\(s\)"),  # "Power token(s)": a count knows its number
    re.compile(r"footmans|siege-engine"),  # a plural made by rote, a unit's id instead of its name
]
COUNTED = re.compile(rf"{AT}(\d+) ({ONE}|{MANY})\b")


def game_lines(players: int, seed: int) -> list[str]:
    """Every text any seat reads in one random game."""
    rng = random.Random(seed)
    state = ENGINE.new_game(players, seed, {})
    lines: list[str] = []
    while awaited := sorted(ENGINE.to_act(state)):
        seat = rng.choice(awaited)
        for event in ENGINE.play(state, seat, pick(rng, ENGINE.legal_moves(state, seat))):
            lines.append(event.for_seat(None))
            lines.extend(event.for_seat(s) for s in range(players) if event.for_seat(s) != event.text)
    return lines


def test_log_lines_name_counts_in_the_right_number_for_one_and_for_many():
    wrong: list[str] = []
    seen: Counter[str] = Counter()
    for players in (3, 4, 5, 6):
        for seed in range(3):
            for line in game_lines(players, 500 + 10 * players + seed):
                if any(r.search(line) for r in WRONG):
                    wrong.append(line)
                for n, noun in COUNTED.findall(line):
                    seen["one" if n == "1" else "many"] += 1
                    seen[noun] += 1
    assert not wrong, sorted(set(wrong))[:20]
    # the games did count things both ways (the check above saw the lines it is about)
    assert seen["one"] > 10 and seen["many"] > 10, seen
    assert {"point", "points", "Power token", "Power tokens", "icons", "footman", "knights"} <= set(seen), seen
