"""The rulebook's own examples, played on the authored board."""

from __future__ import annotations

from engines.kit import Log
from engines.tower_of_london import ENGINE
from engines.tower_of_london import rules as R
from engines.tower_of_london.components import AREA_OF, QUADRANT_OF

from .conftest import build, card


def finish_step_passing(state: R.State) -> None:
    """Every revealing seat places on its first card's orange building and declines abilities."""
    step = state.step
    while state.phase == R.REVEAL and state.step == step:
        (seat,) = ENGINE.to_act(state)
        if state.stage == R.STAGE_PLACE:
            building = CARD_ORANGE[state.picks[seat][0]]
            ENGINE.play(state, seat, {"type": "place", "building": building})
        else:
            ENGINE.play(state, seat, {"type": "pass"})


CARD_ORANGE = {c: R.CARDS[c].orange for c in R.CARDS}


def test_heathers_backstab_reaches_buildings_11_and_13_from_12() -> None:
    """"If Heather placed a Beefeater in building 12 and played BACKSTAB … then Heather may remove
    one Beefeater from building 11 or 13." Buildings 11 and 13 cross an area (orange 11, green 13):
    +/- 1 doesn't care."""
    heather = 0
    state = build(3, order=[0, 1, 2],
                  board={10: {1: 1}, 11: {1: 1}, 12: {2: 1}, 13: {2: 1}, 14: {1: 1}},
                  picks={0: (card("FOCUS 12"), card("BACKSTAB 15")),
                         1: (card("BACKSTAB 1"), card("SWITCH 7")),
                         2: (card("BACKSTAB 26"), card("SWITCH 21"))})
    assert AREA_OF[11] != AREA_OF[13]
    ENGINE.play(state, heather, {"type": "place", "building": 12})
    moves = ENGINE.legal_moves(state, heather)
    removable = {m["building"] for m in moves if m["type"] == "remove"}
    assert removable == {11, 13}
    ENGINE.play(state, heather, {"type": "remove", "building": 13, "seat": 2, "promoted": False})
    assert state.plain[13][2] == 0 and state.supply[2] == 19


def test_ross_nate_stephanie_and_tom_turn_order() -> None:
    """Ross SWITCH (7), Nate POISON, Stephanie FOCUS (12), Tom POISON; Nate and Tom tie and both
    played PROMOTE (11) second: still tied, so they reverse their order. New order: Stephanie,
    Tom, Nate, Ross."""
    ross, nate, stephanie, tom = 0, 1, 2, 3
    state = build(4, order=[ross, nate, stephanie, tom],
                  picks={ross: (card("SWITCH 7"), card("BACKSTAB 1")),
                         nate: (card("POISON 18"), card("PROMOTE 11")),
                         stephanie: (card("FOCUS 12"), card("BACKSTAB 26")),
                         tom: (card("POISON 18"), card("PROMOTE 11"))})
    finish_step_passing(state)
    assert state.order == [stephanie, tom, nate, ross]
    assert state.track == [7, 11, 12, 11]
    view = ENGINE.view(state, None)
    assert view["turn_order"] == [stephanie, tom, nate, ross]
    assert sorted((b["seat"], b["space"]) for b in view["track"]["beefeaters"]) == [
        (ross, 7), (nate, 11), (stephanie, 12), (tom, 11)]


def test_red_yellow_and_blue_scoring_example() -> None:
    """Red, Yellow and Blue each control one orange building; nobody controls 11 (a tie). The tie
    is broken by the highest controlled building: Red (6) first, Yellow (3) second, Blue third."""
    red, yellow, blue = 0, 1, 2
    state = build(3, board={6: {red: 1}, 3: {yellow: 1}, 1: {blue: 1}, 11: {red: 1, yellow: 1}})
    assert all(AREA_OF[b] == "orange" for b in (1, 3, 6, 11))
    assert R.controller(state, 11) is None
    ranking = R.area_ranking(state, "orange")
    assert [(r["seat"], r["buildings"]) for r in ranking] == [(red, [6]), (yellow, [3]), (blue, [1])]
    R.score_round(state, Log())
    # the 2-3 player scoring card: 2 ravens for first, 1 for second, 0 for third
    assert state.ravens == [2, 1, 0]
    assert QUADRANT_OF[11] == "II"
