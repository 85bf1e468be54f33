"""A game's turn, declared once: awaited seats, prompts and the frame of every refusal come from it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest

from engines.base import IllegalMove, Move
from engines.kit import Commitments, Decision, DecisionStack, Phase, Step, Turn, committing, current, deciding


@dataclass
class Table:
    """A small real state: a hidden bid, then turns of the current seat, with a reaction on a stack."""

    step: str = "bid"
    current: int = 0
    bids: Commitments = field(default_factory=lambda: Commitments.ask([0, 1, 2]))
    decisions: DecisionStack = field(default_factory=DecisionStack)
    over: bool = False
    hand: list[int] = field(default_factory=lambda: [3, 5])


def label(state: Table, seat: int, move: Move) -> str:
    return f"{move['type']} {move.get('card', '')}".strip()


def check(state: Table, seat: int, move: Move) -> IllegalMove | None:
    if "card" in move and move["card"] not in state.hand:
        return IllegalMove("Not in your hand.", rule="rule 9")
    return None


TURN: Turn[Table] = Turn(
    Step("bid", ("bid",), seats=committing("bids"), rule="rule 1", doing="bidding", ask="Bid in secret"),
    Phase("play", (
        Step("play", ("play", "end"), doing="playing", ask=lambda s, seat: f"Play, seat {seat}",
             extra=lambda s, seat, moves: {"hand": list(s.hand), "count": len(moves)}, unlisted=("end",)),
        Step("react", ("react",), seats=deciding(), rule="rule 3", doing="reacting", ask="React"),
    ), seats=current(), rule="rule 2"),
    where=lambda s: s.decisions.kind() or s.step,
    over=lambda s: s.over,
    label=label,
    mark=lambda s, seat, m: {"costly": True} if m.get("card") == 5 else None,
    anytime=("concede",),
)


def test_the_awaited_seats_are_the_seats_of_the_step_the_table_is_at():
    t = Table()
    assert TURN.awaited(t) == {0, 1, 2}  # a hidden bid: every seat that has not chosen for good
    t.bids.choose(1, 4, ready=True)
    assert TURN.awaited(t) == {0, 2}
    t.step, t.current = "play", 2
    assert TURN.awaited(t) == {2}  # the phase's seats: the current player
    t.decisions.push(Decision("react", [0, 1]))
    assert TURN.awaited(t) == {0, 1}  # the step's own seats: the top decision's
    t.over = True
    assert TURN.awaited(t) == frozenset()


def test_a_phase_lends_its_seats_and_rule_to_the_steps_that_name_none():
    assert TURN.steps["play"].rule == "rule 2" and TURN.steps["react"].rule == "rule 3"
    assert TURN.phase_of == {"play": "play", "react": "play"}
    t = Table(step="play", current=1)
    assert TURN.step_of(t, 1) is TURN.steps["play"] and TURN.step_of(t, 0) is None


def test_the_prompt_has_the_kits_shape_with_the_steps_words_extras_and_marks():
    t = Table(step="play", current=1)
    moves = [{"type": "play", "card": 3}, {"type": "play", "card": 5}, {"type": "end"}]
    assert TURN.prompt(t, 1, moves) == {
        "kind": "play", "text": "Play, seat 1",
        "choices": [{"move": {"type": "play", "card": 3}, "label": "play 3"},
                    {"move": {"type": "play", "card": 5}, "label": "play 5", "costly": True}],
        "hand": [3, 5], "count": 3}  # "end" is not spelled out; the extra sees every move


def test_a_seat_not_awaited_a_spectator_and_everyone_after_the_end_have_no_prompt():
    t = Table(step="play", current=1)
    assert TURN.prompt(t, 0, []) is None
    assert TURN.prompt(t, None, []) is None
    t.over = True
    assert TURN.prompt(t, 1, [{"type": "end"}]) is None


def refused(t: Table, seat: int, move: Move) -> tuple[str, str | None, str] | None:
    why = TURN.refusal(t, seat, move, check)
    return None if why is None else (why.message, why.rule, why.code)


def test_refusals_come_in_the_kits_order_over_then_not_awaited_then_out_of_step_then_the_move():
    t = Table(step="play", current=1)
    assert refused(t, 1, {"type": "play", "card": 3}) is None
    assert refused(t, 1, {"type": "play", "card": 7}) == ("Not in your hand.", "rule 9", "illegal_move")
    assert refused(t, 1, {"type": "bid"}) == ("You cannot bid now: you are playing.", "rule 2", "illegal_move")
    assert refused(t, 0, {"type": "play", "card": 3}) == ("It is not your turn.", "rule 2", "not_your_turn")
    assert refused(t, 1, {"type": "concede"}) is None  # any step passes it to the game's check
    t.over = True
    assert refused(t, 1, {"type": "play", "card": 3}) == ("The game is over.", None, "not_your_turn")


def test_a_game_gives_its_own_words_to_the_refusals_of_the_frame():
    def waiting(s: Any, seat: int, step: Step) -> IllegalMove:
        return IllegalMove(f"Wait: {step.doing}.", rule=step.rule, code="not_your_turn")

    def elsewhere(s: Any, seat: int, kind: str, step: Step) -> IllegalMove:
        return IllegalMove(f"Now is not the time to {kind}.", rule=step.rule)

    turn: Turn[Table] = Turn(*TURN.steps.values(), where=TURN.where, over=TURN.over, label=label,
                             waiting=waiting, elsewhere=elsewhere)
    t = Table()
    t.bids.choose(0, 2, ready=True)
    assert str(turn.refusal(t, 0, {"type": "bid"}, check)) == "Wait: bidding."
    assert str(turn.refusal(t, 1, {"type": "play", "card": 3}, check)) == "Now is not the time to play."


def test_two_steps_of_one_name_and_a_step_that_awaits_nobody_are_refused():
    with pytest.raises(ValueError, match="two steps"):
        Turn(Step("a", (), seats=current()), Step("a", (), seats=current()),
             where=lambda s: "a", over=lambda s: False, label=label)
    with pytest.raises(ValueError, match="whom it waits for"):
        Turn(Step("a", ()), where=lambda s: "a", over=lambda s: False, label=label)


def test_a_step_may_write_its_prompts_choices_itself() -> None:
    kept = [{"move": {"type": "play", "card": 3}, "label": "Three, kept ready"}]
    turn: Turn[Table] = Turn(
        Step("play", ("play",), seats=current(), ask="Play",
             choices=lambda s, seat, moves: kept, extra=lambda s, seat, moves: {"count": len(moves)}),
        where=lambda s: "play", over=lambda s: s.over, label=label)
    t = Table(step="play", current=1)
    assert turn.prompt(t, 1, [{"type": "play", "card": 3}]) == {
        "kind": "play", "text": "Play", "choices": kept, "count": 1}  # not labelled again by the turn
    assert turn.prompt(t, 0, []) is None


def test_the_refusal_at_the_end_knows_the_seat_refused() -> None:
    turn: Turn[Table] = Turn(*TURN.steps.values(), where=TURN.where, over=TURN.over, label=label,
                             ended=lambda s, seat: IllegalMove(f"Seat {seat}: the game is over."))
    t = Table(over=True)
    assert str(turn.refusal(t, 2, {"type": "bid"}, check)) == "Seat 2: the game is over."
