"""Hidden simultaneous commitments and the decision stack."""

from __future__ import annotations

import pytest

from engines.kit import Commitments, Decision, DecisionStack


def test_each_seat_sees_only_whether_the_others_have_chosen():
    c = Commitments.ask(range(3))
    c.choose(2, "secret", ready=True)
    assert c.public() == {"asked": [0, 1, 2], "chosen": [2], "ready": [2]}
    assert "secret" not in str(c.public())
    assert c.own(2) == "secret" and c.own(0) is None and c.own(None) is None
    assert c.awaited() == frozenset({0, 1})


def test_a_choice_may_change_until_the_seat_is_ready_and_not_after():
    c = Commitments.ask([0, 1])
    c.choose(0, ["Raid"])
    c.choose(0, ["March"])
    assert c.own(0) == ["March"] and c.awaited() == frozenset({0, 1})
    c.declare_ready(0)
    with pytest.raises(ValueError):
        c.choose(0, ["Defend"])
    assert c.awaited() == frozenset({1})


def test_all_choices_are_revealed_together_and_the_round_closes():
    c = Commitments.ask([0, 1])
    c.choose(1, 5, ready=True)
    assert not c.everyone_ready()
    c.choose(0, 3, ready=True)
    assert c.everyone_ready()
    assert c.reveal() == {0: 3, 1: 5}
    assert not c.open and c.awaited() == frozenset()


def test_a_seat_not_asked_cannot_choose():
    c = Commitments.ask([0])
    with pytest.raises(ValueError):
        c.choose(1, "x")


def test_the_top_decision_says_who_is_awaited_and_popping_returns_to_the_outer_one():
    stack = DecisionStack()
    assert stack.awaited() == frozenset() and stack.top is None
    stack.push(Decision("march", [2], {"from": "Winterfell"}))
    stack.push(Decision("support", [0, 1]))
    assert stack.awaited() == frozenset({0, 1}) and stack.kind() == "support"
    assert stack.pop().kind == "support"
    assert stack.awaited() == frozenset({2}) and stack.top.data == {"from": "Winterfell"}


def test_a_choice_may_be_withdrawn_before_the_seat_is_ready_and_not_after():
    c = Commitments.ask([0, 1])
    c.choose(0, ["Raid"])
    c.withdraw(0)
    assert not c.has_chosen(0) and c.public()["chosen"] == [] and c.awaited() == frozenset({0, 1})
    c.choose(1, ["March"], ready=True)
    with pytest.raises(ValueError):
        c.withdraw(1)
    with pytest.raises(ValueError):
        c.withdraw(5)
    assert c.own(1) == ["March"]
