"""Seeded random play and the invariants every position must keep (used by tests and bench).

The random player picks a *kind* of move uniformly (its type, plus where a draw comes from or which
action is chosen), then one move of that kind uniformly. Picking among raw moves instead would
let the many "take this card from the board" moves drown every other choice.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from engines.base import Move
from engines.london.components import CARD_IDS
from engines.london.engine import LondonEngine
from engines.london.state import LOAN_TOKENS, State

ENGINE = LondonEngine()


def move_kind(m: Move) -> tuple[str, str]:
    return (m["type"], str(m.get("from", m.get("action", ""))))


def random_move(moves: list[Move], rng: random.Random) -> Move:
    kinds: dict[tuple[str, str], list[Move]] = {}
    for m in moves:
        kinds.setdefault(move_kind(m), []).append(m)
    group = kinds[rng.choice(list(kinds))]
    return group[rng.randrange(len(group))]


def where_cards_are(s: State) -> list[int]:
    """Every card id in every zone (a card in two zones shows up twice)."""
    out = list(s.deck) + s.board_cards() + list(s.box) + list(s.turn.scry)
    for p in s.players:
        out += p.hand
        out += [c for st in p.stacks for c in st]
    if s.turn.step in ("develop_discard", "develop_place") and s.turn.pending is not None:
        out.append(s.turn.pending)
    return out


def _ids_in(obj: Any, out: set[int]) -> None:
    if isinstance(obj, dict):
        for k, v in obj.items():
            if k in ("id", "card") and isinstance(v, int):
                out.add(v)
            else:
                _ids_in(v, out)
    elif isinstance(obj, list):
        for v in obj:
            _ids_in(v, out)


def visible_ids(view: dict[str, Any]) -> set[int]:
    out: set[int] = set()
    _ids_in(view, out)
    return out


def check_invariants(s: State, *, views: bool = True) -> None:
    """Raise AssertionError when a rule of bookkeeping is broken."""
    cards = where_cards_are(s)
    assert sorted(cards) == list(CARD_IDS), "cards not conserved"
    assert sum(p.loans for p in s.players) + s.loan_supply == LOAN_TOKENS, "loan tokens not conserved"
    for p in s.players:
        assert p.money >= 0, "money negative"
        assert p.poverty >= 0, "poverty negative"
        assert p.loans >= 0, "loans negative"
        assert not (p.facedown - {c for st in p.stacks for c in st}), "face-down card not in display"
    assert 0 <= s.current < s.seats
    if not views:
        return
    public = set(s.board_cards()) | {c for p in s.players for st in p.stacks for c in st}
    if s.turn.pending is not None:
        public.add(s.turn.pending)
    for seat in [None, *range(s.seats)]:
        v = ENGINE.view(s, seat)
        json.dumps(v)
        allowed = set(public)
        if seat is not None:
            allowed |= set(s.players[seat].hand)
            if seat == s.current:
                allowed |= set(s.turn.scry)
        leaked = visible_ids(v) - allowed
        assert not leaked, f"view of seat {seat} shows hidden cards {sorted(leaked)}"
        if s.rng is not None:  # the generator's state would tell the future
            assert s.rng.encode() not in json.dumps(v), f"view of seat {seat} shows the generator"


@dataclass
class Game:
    seats: int
    seed: int
    moves: list[tuple[int, Move]] = field(default_factory=list)
    state: State | None = None


def play_random(seats: int, seed: int, *, max_moves: int = 20000, check: bool = False,
                views_every: int = 0, all_moves_every: int = 0, version: int | None = None) -> Game:
    """Play one seeded random game to its end (under rules ``version``, None: the newest);
    optionally check invariants after every move, views every ``views_every`` moves, and that
    every legal move is accepted every ``all_moves_every`` moves."""
    rng = random.Random(seed * 7919 + seats)
    s = ENGINE.new_game(seats, seed, {}, rules_version=version)
    g = Game(seats, seed, state=s)
    n = 0
    while not s.over:
        if n >= max_moves:
            raise AssertionError(f"game {seats}p seed {seed} did not end within {max_moves} moves")
        (seat,) = ENGINE.to_act(s)
        moves = ENGINE.legal_moves(s, seat)
        assert moves, f"no legal move at step {s.turn.step}"
        if all_moves_every and n % all_moves_every == 0:
            snapshot = ENGINE.encode(s)
            for m in moves:
                copy = ENGINE.decode(snapshot)
                ENGINE.play(copy, seat, m)
        m = random_move(moves, rng)
        ENGINE.play(s, seat, m)
        g.moves.append((seat, m))
        n += 1
        if check:
            check_invariants(s, views=bool(views_every) and n % views_every == 0)
    assert ENGINE.result(s) is not None
    return g


def replay(seats: int, seed: int, moves: list[tuple[int, Move]], version: int | None = None) -> State:
    s = ENGINE.new_game(seats, seed, {}, rules_version=version)
    for seat, m in moves:
        ENGINE.play(s, seat, m)
    return s


def seeds(n: int, start: int = 0) -> Iterator[tuple[int, int]]:
    """(seats, seed) pairs cycling 2, 3, 4 players."""
    for i in range(start, start + n):
        yield 2 + i % 3, i
