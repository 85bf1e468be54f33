"""Tally: a small game kept under tests/ to exercise the platform, and the worked example of
docs/ADDING_A_GAME.md (written on the engine kit like every game).

Each seat holds a hidden hand of three number cards. On your turn play one card: it adds to the
tally and you draw a replacement. Whoever brings the tally to the target or past it wins. With the
"vote" option, the game opens with a simultaneous hidden vote of every seat (to exercise
several awaited seats at once).
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from engines.base import Event, IllegalMove, Move, Option, Result, View
from engines.kit import (
    INT,
    Commitments,
    KitEngine,
    Log,
    MoveSchema,
    MoveSpec,
    Rng,
    Step,
    Turn,
    committing,
    current,
    redeal,
)

RULE_TURNS = "Tally rule 1: turns"
RULE_PLAY = "Tally rule 2: play a card"
RULE_VOTE = "Tally rule 0: the opening vote"


@dataclass
class TallyState:
    seats: int
    target: int
    rng: Rng
    deck: list[int]  # drawn from the end
    hands: list[list[int]]
    tally: int = 0
    current: int = 0
    moves: int = 0
    votes: Commitments = field(default_factory=Commitments)
    winner: int | None = None


def label(state: TallyState, seat: int, move: Move) -> str:
    return f"Vote {move['value']}" if move["type"] == "vote" else f"Play {move['card']}"


def not_your_turn(state: TallyState, seat: int, step: Step) -> IllegalMove:
    return IllegalMove("It is not your turn.", rule=RULE_TURNS, code="not_your_turn")


TURN = Turn(
    Step("vote", moves=("vote",), seats=committing("votes"), rule=RULE_VOTE, doing="voting",
         ask="Vote 1 or 2"),
    Step("play", moves=("play",), seats=current(), rule=RULE_PLAY, doing="playing a card",
         ask="Play a card from your hand"),
    where=lambda state: "vote" if state.votes.open else "play",
    over=lambda state: state.winner is not None,
    label=label,
    waiting=not_your_turn,
)


class Tally(KitEngine[TallyState]):
    id = "tally"
    title = "Tally"
    tagline = "Count to the target — and keep your cards close."
    min_seats = 2
    max_seats = 4
    options = (
        Option("target", "Target", (21, 31, 51), 31, "The tally that ends the game."),
        Option("vote", "Opening vote", (False, True), False),
    )
    State = TallyState
    MOVES = MoveSchema(MoveSpec("vote", value=INT), MoveSpec("play", card=INT), game="Tally")
    TURN = TURN

    def setup(self, seats: int, seed: int, options: Mapping[str, Any], version: int) -> TallyState:
        rng = Rng.from_seed(seed)
        deck = [n for n in range(1, 10) for _ in range(6)]
        rng.shuffle(deck)
        hands = [[deck.pop() for _ in range(3)] for _ in range(seats)]
        state = TallyState(seats, int(options["target"]), rng, deck, hands)
        if options["vote"]:
            state.votes = Commitments.ask(range(seats))
        return state

    def legal_moves(self, state: TallyState, seat: int) -> list[Move]:
        step = TURN.step_of(state, seat)
        if step is None:
            return []
        if step.name == "vote":
            return [self.MOVES.make("vote", value=v) for v in (1, 2)]
        return [self.MOVES.make("play", card=c) for c in sorted(set(state.hands[seat]))]

    def check(self, state: TallyState, seat: int, move: Move) -> IllegalMove | None:
        if move["type"] == "vote" and move["value"] not in (1, 2):
            return IllegalMove("Vote 1 or 2.", rule=RULE_VOTE)
        if move["type"] == "play" and move["card"] not in state.hands[seat]:
            return IllegalMove("Play a card from your hand.", rule=RULE_PLAY)
        return None

    def apply(self, state: TallyState, seat: int, move: Move) -> list[Event]:
        log = Log()
        if move["type"] == "vote":
            state.votes.choose(seat, move["value"], ready=True)
            log.say("{0} voted", seat, privately={seat: "You voted {v}"}, v=move["value"])
            if state.votes.everyone_ready():
                state.votes.reveal()
                log.say("Every seat has voted.")
            return log.events
        card = move["card"]
        state.hands[seat].remove(card)
        state.tally += card
        state.moves += 1
        log.say("{0} played {card}; the tally is {tally}", seat, card=card, tally=state.tally)
        if state.deck:
            drawn = state.deck.pop()
            state.hands[seat].append(drawn)
            log.say("{0} drew a card", seat, privately={seat: "You drew {card}"}, card=drawn)
        if state.tally >= state.target:
            state.winner = seat
            log.say("{0} reached the target and wins", seat)
        else:
            state.current = (state.current + 1) % state.seats
        return log.events

    def view(self, state: TallyState, seat: int | None) -> View:
        return {
            "tally": state.tally,
            "target": state.target,
            "deck": len(state.deck),
            "hand": list(state.hands[seat]) if seat is not None else None,
            "hand_sizes": [len(h) for h in state.hands],
            "voted": state.votes.public()["chosen"],
            "my_vote": state.votes.own(seat),
            "current": state.current,
            "prompt": self.prompt(state, seat),
            "winner": state.winner,
        }

    def result(self, state: TallyState) -> Result | None:
        if state.winner is None:
            return None
        scores = tuple(1.0 if s == state.winner else 0.0 for s in range(state.seats))
        return Result((state.winner,), scores, {"tally": state.tally})

    def determinize(self, state: TallyState, seat: int | None, rng: Rng) -> TallyState:
        out = copy.deepcopy(state)
        unseen = [h for s, h in enumerate(out.hands) if s != seat]
        redeal(rng, out.deck, *unseen)
        for s in list(out.votes.choices):
            if s != seat:
                out.votes.choices[s] = 1 + rng.below(2)
        out.rng = rng.fork()
        return out


ENGINE = Tally()
