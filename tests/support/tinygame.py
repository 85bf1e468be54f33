"""Tally: a small game kept under tests/ to exercise the platform before the real games.

Each seat holds a hidden hand of three number cards. On your turn play one card: it adds to the
tally and you draw a replacement. Whoever brings the tally to the target or past it wins. With the
"vote" option, the game opens with a simultaneous hidden vote of every seat (to exercise
several awaited seats at once).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from engines.base import Event, IllegalMove, Move, Option, Result, View, seat_ref


@dataclass
class TallyState:
    seats: int
    target: int
    deck: list[int]
    hands: list[list[int]]
    tally: int = 0
    current: int = 0
    moves: int = 0
    votes: dict[int, int] = field(default_factory=dict)
    voting: bool = False
    winner: int | None = None


class Tally:
    id = "tally"
    title = "Tally"
    tagline = "Count to the target — and keep your cards close."
    min_seats = 2
    max_seats = 4
    options = (
        Option("target", "Target", (21, 31, 51), 31, "The tally that ends the game."),
        Option("vote", "Opening vote", (False, True), False),
    )

    def new_game(self, seats: int, seed: int, options: Mapping[str, Any]) -> TallyState:
        rng = random.Random(seed)
        deck = [n for n in range(1, 10) for _ in range(6)]
        rng.shuffle(deck)
        hands = [[deck.pop() for _ in range(3)] for _ in range(seats)]
        return TallyState(seats, int(options.get("target", 31)), deck, hands,
                          voting=bool(options.get("vote", False)))

    def to_act(self, state: TallyState) -> frozenset[int]:
        if state.winner is not None:
            return frozenset()
        if state.voting:
            return frozenset(s for s in range(state.seats) if s not in state.votes)
        return frozenset({state.current})

    def legal_moves(self, state: TallyState, seat: int) -> list[Move]:
        if seat not in self.to_act(state):
            return []
        if state.voting:
            return [{"type": "vote", "value": v} for v in (1, 2)]
        return [{"type": "play", "card": c} for c in sorted(set(state.hands[seat]))]

    def play(self, state: TallyState, seat: int, move: Move) -> list[Event]:
        if not isinstance(move, dict) or not isinstance(move.get("type"), str):
            raise IllegalMove("A move is an object with a type.", code="malformed_move")
        if move["type"] not in ("play", "vote"):
            raise IllegalMove(f"Tally has no move called {move['type']!r}.", code="unknown_move")
        if seat not in self.to_act(state):
            raise IllegalMove("It is not your turn.", rule="Tally rule 1: turns", code="not_your_turn")
        if state.voting:
            if move["type"] != "vote" or move.get("value") not in (1, 2):
                raise IllegalMove("Vote 1 or 2 first.", rule="Tally rule 0: the opening vote")
            state.votes[seat] = int(move["value"])
            if len(state.votes) == state.seats:
                state.voting = False
                return [Event(f"{seat_ref(seat)} voted"), Event("Every seat has voted.")]
            return [Event(f"{seat_ref(seat)} voted", {seat: f"You voted {move['value']}"})]
        card = move.get("card")
        if move["type"] != "play" or card not in state.hands[seat]:
            raise IllegalMove("Play a card from your hand.", rule="Tally rule 2: play a card")
        state.hands[seat].remove(card)
        state.tally += card
        state.moves += 1
        events = [Event(f"{seat_ref(seat)} played {card}; the tally is {state.tally}")]
        if state.deck:
            drawn = state.deck.pop()
            state.hands[seat].append(drawn)
            events.append(Event(f"{seat_ref(seat)} drew a card", {seat: f"You drew {drawn}"}))
        if state.tally >= state.target:
            state.winner = seat
            events.append(Event(f"{seat_ref(seat)} reached the target and wins"))
        else:
            state.current = (state.current + 1) % state.seats
        return events

    def view(self, state: TallyState, seat: int | None) -> View:
        awaited = self.to_act(state)
        prompt = None
        if seat is not None and seat in awaited:
            text = "Vote 1 or 2" if state.voting else "Play a card from your hand"
            prompt = {"text": text}
        return {
            "tally": state.tally,
            "target": state.target,
            "deck": len(state.deck),
            "hand": list(state.hands[seat]) if seat is not None else None,
            "hand_sizes": [len(h) for h in state.hands],
            "voted": sorted(state.votes),
            "current": state.current,
            "prompt": prompt,
            "winner": state.winner,
        }

    def result(self, state: TallyState) -> Result | None:
        if state.winner is None:
            return None
        scores = tuple(1.0 if s == state.winner else 0.0 for s in range(state.seats))
        return Result((state.winner,), scores, {"tally": state.tally})

    def encode(self, state: TallyState) -> dict[str, Any]:
        return {"seats": state.seats, "target": state.target, "deck": state.deck,
                "hands": state.hands, "tally": state.tally, "current": state.current,
                "moves": state.moves, "votes": {str(k): v for k, v in state.votes.items()},
                "voting": state.voting, "winner": state.winner}

    def decode(self, data: Mapping[str, Any]) -> TallyState:
        d = dict(data)
        d["votes"] = {int(k): v for k, v in d["votes"].items()}
        d["deck"] = list(d["deck"])
        d["hands"] = [list(h) for h in d["hands"]]
        return TallyState(**d)


ENGINE = Tally()
