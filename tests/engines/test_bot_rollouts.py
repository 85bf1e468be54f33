"""A hint's playouts where the good bot decides by rule (engines/bots/rollouts.py): every rival is
played out in the same worlds, a world the deadline cuts short is not counted, and each figure is
the average of exactly the playouts counted."""

from __future__ import annotations

from typing import Any

from engines.bots import hooks_for
from engines.bots.core import position
from engines.bots.rollouts import WORLD_SEEDS, play_out, weigh_rivals
from engines.game_of_thrones import ENGINE as GOT
from engines.kit import Rng
from tests.support.positions import deciding, states

HOOKS = hooks_for(GOT)


def planning(seats: int) -> tuple[Any, int, list[dict[str, Any]]]:
    """A planning position of a seeded game, its seat, and the rule's pick with its rivals."""
    state = next(s for s in states(GOT, seats, 3, every=1) if s.planning.open and deciding(GOT, s))
    seat = deciding(GOT, state)[0]
    seen = GOT.determinize(position(GOT, state, seat, HOOKS), seat, Rng.from_seed(1))
    moves = GOT.legal_moves(seen, seat)
    assert HOOKS.policy is not None and HOOKS.rivals is not None
    picked = HOOKS.policy(GOT, seen, seat, moves)
    assert picked is not None
    return state, seat, HOOKS.rivals(GOT, seen, seat, moves, picked)


class Calls:
    """A deadline that comes after a number of asks (the clock of a test, not of a machine)."""

    def __init__(self, allowed: int) -> None:
        self.left = allowed

    def __call__(self) -> bool:
        self.left -= 1
        return self.left < 0


def test_a_world_cut_short_by_the_deadline_is_not_counted_and_the_rest_are_as_if_uncut() -> None:
    state, seat, rivals = planning(3)
    base = position(GOT, state, seat, HOOKS)
    uncut = weigh_rivals(GOT, base, seat, 3, HOOKS, rivals, Rng.from_seed(8), 4 * len(rivals), lambda: False)
    assert uncut.worlds == 4
    deadline = Calls(400)  # asked before each world and each playout move: it comes inside a world
    cut = weigh_rivals(GOT, base, seat, 3, HOOKS, rivals, Rng.from_seed(8), 100, deadline)
    assert deadline.left < 0 and 0 < cut.worlds < 100 // len(rivals)
    first = weigh_rivals(GOT, base, seat, 3, HOOKS, rivals, Rng.from_seed(8), cut.worlds * len(rivals),
                         lambda: False)
    assert cut == first


def test_each_figure_is_the_average_of_the_playouts_of_its_move_in_the_same_worlds() -> None:
    state, seat, rivals = planning(4)
    base = position(GOT, state, seat, HOOKS)
    played = weigh_rivals(GOT, base, seat, 4, HOOKS, rivals, Rng.from_seed(6), 3 * len(rivals), lambda: False)
    rng = Rng.from_seed(6)  # the same generator draws the same worlds
    worlds = [rng.below(WORLD_SEEDS) for _ in range(3)]
    for i, move in enumerate(rivals):
        results = []
        for world in worlds:
            s = GOT.determinize(base, seat, Rng.from_seed(world))
            GOT.play(s, seat, move)
            result = play_out(GOT, s, seat, 4, HOOKS, Rng.from_seed(world), lambda: False)
            assert result is not None and 0.0 <= result <= 1.0
            results.append(result)
        assert played.average(i) == sum(results) / 3


def test_a_playout_stops_at_the_end_of_the_round() -> None:
    state, seat, rivals = planning(3)
    s = GOT.determinize(position(GOT, state, seat, HOOKS), seat, Rng.from_seed(2))
    GOT.play(s, seat, rivals[0])
    assert play_out(GOT, s, seat, 3, HOOKS, Rng.from_seed(2), lambda: False) is not None
    assert s.round == state.round + 1 and not s.planning.open and not s.orders
