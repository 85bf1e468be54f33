"""Players for benchmarks, soak tests and the balance report: a random one and a greedy one.

Both answer with a listed move. In the deck phase each plays the ready-made deck it is given
(``decks[seat]``); the random player then plays uniformly among the listed moves, the greedy one
scores each listed move by a few rules of thumb (no look-ahead, nothing hidden read) and pays
for a card the way the page preselects (``cheapest_ways``).

>>> state = play_game(7, ("fire_legion", "earth_bastion"), ("greedy", "greedy"))
>>> state.over
True
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence

from engines.base import Move
from engines.towers_of_babylon.components import (
    BATTLEFIELD,
    CARDS,
    DECK_SIZE,
    EXHAUSTED,
    GOAL,
    IMMOBILE,
    LAST_TURN,
    RAMPARTS,
    READY,
    TOWER,
    WITCHERY,
    ZONES,
)
from engines.towers_of_babylon.engine import ENGINE
from engines.towers_of_babylon.state import TOWER_TARGET, State

Policy = Callable[[State, int, list[Move], random.Random], Move]


def random_policy(state: State, seat: int, moves: list[Move], rng: random.Random) -> Move:
    return moves[rng.randrange(len(moves))]


def _kills(might: int, health_left: int, lethal: bool) -> bool:
    return might >= health_left or (lethal and might > 0)


def _score(state: State, seat: int, move: Move) -> float:
    t = move["type"]
    pl = state.players[seat]
    enemy = state.players[1 - seat]
    if t == "mulligan":
        return sum(1 for c in move["cards"] if state.card(c).cost >= 5) - 0.1 * len(move["cards"])
    if t == "offer":
        sources = len(pl.available) + len(pl.exhausted)
        if sources >= 7:
            return -1.0
        card = state.card(move["card"])
        return 5.0 - card.cost * 0.5 + (2.0 if card.faction == CARDS[state.cards[pl.hand[0]]].faction else 0.0)
    if t in ("draw", "skip", "pass", "end"):
        return 0.0
    if t == "windows":
        return -100.0
    if t == "play":
        card = state.card(move["card"])
        value = 10.0 + card.cost
        target = state.minion(move["target"]) if move["target"] >= 0 else None
        if target is not None:
            mine = target.owner == seat
            value += (target.might + target.construction) * (1 if mine else 1.5) - (0 if mine else target.damage)
        if card.kind == WITCHERY and card.window == "any_time" and state.decisions.kind() != "defend":
            value -= 8.0
        return value
    if t == "build":
        m = state.minion(move["minion"])
        assert m is not None
        return 9.0 + m.construction
    if t == "attack":
        m = state.minion(move["minion"])
        assert m is not None
        target = state.minion(move["target"]) if move["target"] >= 0 else None
        if target is None:
            return 6.0 + m.might
        left = target.health - target.damage
        hits_back = 0 if target.status == EXHAUSTED else target.might
        if _kills(m.might, left, m.has("lethal")) and hits_back < m.health - m.damage:
            return 7.0 + target.spec.cost
        return -1.0
    if t == "move":
        m = state.minion(move["minion"])
        assert m is not None
        zone = move["zone"]
        raiders = [x for x in enemy.minions if x.zone == BATTLEFIELD]
        defenders = [x for x in pl.minions if x.zone == RAMPARTS and x.status != EXHAUSTED]
        if zone == TOWER:
            return 4.0 + m.construction - m.might * 0.5
        if zone == BATTLEFIELD:
            return 3.0 + m.might - m.construction * 0.5
        return 6.0 if raiders and not defenders and m.health >= 3 else -1.0
    if t == "block":
        m = state.minion(move["minion"])
        attack = state.attack
        att = state.minion(attack.attacker) if attack else None
        if m is None or att is None:
            return -1.0
        survives = not _kills(att.might, m.health - m.damage, att.has("lethal"))
        kills = _kills(m.might, att.health - att.damage, m.has("lethal"))
        return 5.0 * survives + 4.0 * kills + (2.0 if attack and attack.target == TOWER_TARGET else 0.0) - 3.0
    if t == "strike":
        m = state.minion(move["minion"])
        return float(m.might + m.construction) if m else 0.0
    return 0.0


def cheapest_ways(moves: list[Move]) -> list[Move]:
    """The moves with, for each card and target, only the first listed way to pay (the cheapest
    for later, which the page preselects): the other ways score the same by these rules of thumb
    and would only be drawn at random."""
    seen: set[tuple[int, int]] = set()
    out: list[Move] = []
    for m in moves:
        if "pay" in m:
            key = (m["card"], m["target"])
            if key in seen:
                continue
            seen.add(key)
        out.append(m)
    return out


def greedy_policy(state: State, seat: int, moves: list[Move], rng: random.Random) -> Move:
    moves = cheapest_ways(moves)
    best, best_score = moves[0], float("-inf")
    for move in moves:
        score = _score(state, seat, move) + rng.random() * 0.01
        if score > best_score:
            best, best_score = move, score
    return best


_INSTANCES = [frozenset(range(100 * seat, 100 * seat + DECK_SIZE)) for seat in range(2)]


def check_invariants(state: State) -> None:
    """What must hold after every move (AssertionError naming what broke):

    * cards are conserved: each seat's 60 cards are, each once, in its deck, hand, discard pile,
      sacrifice pile, invocations or in play, and no card changes sides;
    * power sources are conserved: a seat holds exactly one source per card it sacrificed;
    * towers are between 0 and the goal while the game runs; transformed power is never negative;
    * every minion in play is alive (damage below health), in a zone, in one of the three states;
    * turn markers never pass the last turn; the game is over exactly when a tower reached the
      goal or both players played their last turn;
    * every awaited seat has a legal move, and nobody else has one.
    """
    if state.players[0].deck_list:
        for seat, pl in enumerate(state.players):
            ids = pl.deck + pl.hand + pl.discard + pl.sacrifice + pl.invocations + [m.iid for m in pl.minions]
            # each of the seat's instances (100 × seat + i) once: conserved, and none changed sides
            assert len(ids) == DECK_SIZE and set(ids) == _INSTANCES[seat], f"seat {seat}'s cards are not conserved"
            if state.over or pl.turns == 0:  # what an instance is never changes: checked at both ends
                assert Counter(state.cards[i] for i in ids) == Counter(pl.deck_list), f"seat {seat}'s deck list"
            assert set(pl.known_hand) <= set(pl.hand), "a known card is not in the hand"
            assert len(pl.available) + len(pl.exhausted) == len(pl.sacrifice), f"seat {seat}'s power sources"
            assert pl.transformed >= 0 and pl.tower >= 0, f"seat {seat}'s counters"
            assert pl.tower < GOAL or (state.over and state.winner == seat), "a tower passed the goal"
            assert 0 <= pl.turns <= LAST_TURN, "a turn marker passed the last turn"
            for m in pl.minions:
                assert 0 <= m.damage < m.health, f"a dead minion is in play: {m}"
                assert m.zone in ZONES and m.status in (READY, IMMOBILE, EXHAUSTED) and m.owner == seat
    if any(p.tower >= GOAL for p in state.players):
        assert state.over and state.outcome == "goal", "a tower reached the goal and the game goes on"
    if state.over:
        assert state.outcome == "goal" or all(p.turns == LAST_TURN for p in state.players), "ended early"
    awaited = ENGINE.to_act(state)
    assert state.over == (not awaited), "a running game awaits nobody"
    for seat in range(2):
        assert bool(ENGINE.legal_moves(state, seat)) == (seat in awaited), f"seat {seat}'s moves"


POLICIES: dict[str, Policy] = {"random": random_policy, "greedy": greedy_policy}


def play_game(seed: int, decks: Sequence[str], players: Sequence[str] = ("random", "random"),
              check: Callable[[State], None] | None = None) -> State:
    """A whole game from the seed: seat s plays ``decks[s]`` with the policy ``players[s]``."""
    rng = random.Random(seed)
    state = ENGINE.new_game(2, seed, {})
    policies = [POLICIES[p] for p in players]
    while not state.over:
        if check is not None:
            check(state)
        awaited = sorted(ENGINE.to_act(state))
        seat = awaited[0] if len(awaited) == 1 else awaited[rng.randrange(len(awaited))]
        if state.decisions.kind() == "deck":
            move: Move = {"type": "deck", "deck": decks[seat]}
        else:
            move = policies[seat](state, seat, ENGINE.legal_moves(state, seat), rng)
        ENGINE.play(state, seat, move)
    if check is not None:
        check(state)
    return state
