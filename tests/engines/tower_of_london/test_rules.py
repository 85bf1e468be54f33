"""Every rule of the rulebook, one test (or a few) named after it."""

from __future__ import annotations

import pytest

from engines.base import IllegalMove
from engines.kit import Commitments, Log
from engines.tower_of_london import ENGINE
from engines.tower_of_london import rules as R
from engines.tower_of_london.components import (
    AREA_OF,
    BUILDINGS_IN_AREA,
    CARDS,
    EVENTS,
    QUADRANT_OF,
    RAVENS,
)

from .conftest import build, card
from .test_rulebook_examples import finish_step_passing


def event_id(kind: str) -> int:
    return next(e.id for e in EVENTS.values() if e.kind == kind)


def play_to_end_of_round(state: R.State, keep_first_three: bool = True) -> None:
    """Plays the rest of the round: cards in hand order, orange placements, abilities passed."""
    rnd = state.round
    while state.phase != R.OVER and state.round == rnd:
        for seat in sorted(ENGINE.to_act(state)):
            if seat not in ENGINE.to_act(state):
                continue
            ENGINE.play(state, seat, ENGINE.legal_moves(state, seat)[0 if keep_first_three else -1])


# ---------------------------------------------------------------------------------------- setup
@pytest.mark.parametrize(("players", "card_id"), [(2, "2-3"), (3, "2-3"), (4, "4"), (5, "5")])
def test_setup_scoring_card_matches_the_number_of_players(players: int, card_id: str) -> None:
    assert ENGINE.new_game(players, 3, {}).scoring_card == card_id


def test_setup_three_event_cards_are_drawn_face_down_and_one_flips_each_round() -> None:
    state = ENGINE.new_game(3, 11, {})
    assert state.event and len(state.event_pile) == 2  # three drawn, round 1 flipped one
    view = ENGINE.view(state, 0)
    assert view["event"] == {"current": EVENTS[state.event].as_json(), "face_down": 2, "past": []}


def test_setup_start_player_is_random_and_round_1_goes_clockwise_from_them() -> None:
    starts = set()
    for seed in range(40):
        state = ENGINE.new_game(4, seed, {})
        s = state.start_player
        starts.add(s)
        if EVENTS[state.event].kind != "fewest_ravens_starts":
            assert state.order == [s, (s + 1) % 4, (s + 2) % 4, (s + 3) % 4]
    assert starts == {0, 1, 2, 3}


def test_setup_twenty_beefeaters_per_colour_thirteen_cards_and_31_ravens() -> None:
    state = ENGINE.new_game(5, 2, {})
    assert state.supply == [20] * 5
    assert all(len(state.decks[s]) + len(state.hands[s]) == 13 for s in range(5))
    assert state.raven_supply == RAVENS == 31 and state.ravens == [0] * 5


@pytest.mark.parametrize("players", [1, 6])
def test_setup_tower_of_london_is_for_two_to_five_players(players: int) -> None:
    with pytest.raises(ValueError, match="2 to 5 players"):
        ENGINE.new_game(players, 1, {})


# -------------------------------------------------------------------------------------- prepare
def test_prepare_each_player_shuffles_and_draws_a_hand_of_six() -> None:
    state = ENGINE.new_game(3, 5, {})
    assert [len(h) for h in state.hands] == [6, 6, 6]
    assert [len(d) for d in state.decks] == [7, 7, 7]
    other = ENGINE.new_game(3, 6, {})
    assert state.hands != other.hands  # shuffled by the seed


def test_prepare_flips_a_new_event_card_each_round() -> None:
    state = ENGINE.new_game(2, 8, {})
    seen = [state.event]
    for rnd in (2, 3):  # no one can reach seven ravens in round 1; this seed reaches round 3
        play_to_end_of_round(state)
        assert state.round == rnd and state.phase == R.PICK
        assert state.event not in seen and state.past_events == seen and len(state.event_pile) == 3 - rnd
        seen.append(state.event)


# -------------------------------------------------------------------------- playing cards: step 1
def test_step_1_all_players_choose_two_cards_simultaneously() -> None:
    state = build(3)
    assert ENGINE.to_act(state) == frozenset({0, 1, 2})
    a, b = state.hands[1][:2]
    ENGINE.play(state, 1, {"type": "pick", "first": a, "second": b})
    assert ENGINE.to_act(state) == frozenset({0, 2})
    assert ENGINE.legal_moves(state, 1) == []


def test_step_1_choices_are_hidden_commitments_the_chooser_can_still_look_at() -> None:
    state = build(3)
    a, b = state.hands[1][:2]
    events = ENGINE.play(state, 1, {"type": "pick", "first": a, "second": b})
    assert CARDS[a].name not in events[0].for_seat(0) and CARDS[a].name in events[0].for_seat(1)
    own = ENGINE.view(state, 1)
    assert own["my_picks"] == {"first": a, "second": b}
    assert own["players"][1]["first"] == a
    for seat in (0, 2, None):
        v = ENGINE.view(state, seat)
        assert v["players"][1]["has_chosen"] is True
        assert v["players"][1]["first"] is None and v["players"][1]["second"] is None
        assert v["my_picks"] is None


def test_step_1_you_must_choose_two_different_cards_from_your_hand() -> None:
    state = build(3)
    a = state.hands[0][0]
    with pytest.raises(IllegalMove, match="two different cards from your hand") as err:
        ENGINE.play(state, 0, {"type": "pick", "first": a, "second": a})
    assert err.value.rule == R.RULE_PICK
    missing = next(c for c in CARDS if c not in state.hands[0])
    with pytest.raises(IllegalMove, match=f"card {missing} is not in your hand"):
        ENGINE.play(state, 0, {"type": "pick", "first": a, "second": missing})


def test_step_1_the_order_of_the_two_cards_matters() -> None:
    state = build(2)
    hand = state.hands[0]
    moves = ENGINE.legal_moves(state, 0)
    assert len(moves) == 30 and {"type": "pick", "first": hand[1], "second": hand[0]} in moves


# ------------------------------------------------------------------------- playing cards: step 2
def test_step_2_start_player_reveals_first_then_the_others_in_turn_order() -> None:
    state = build(3, order=[2, 0, 1], picks={0: (1, 2), 1: (3, 4), 2: (5, 6)})
    assert ENGINE.to_act(state) == frozenset({2}) and state.stage == R.STAGE_PLACE
    assert [r["seat"] for r in state.step_reveals] == [2]
    ENGINE.play(state, 2, {"type": "place", "building": 11})  # PROMOTE 11 then FOCUS 12 -> PROMOTE
    assert ENGINE.to_act(state) == frozenset({0})


def test_step_2a_first_card_places_on_one_of_its_three_buildings() -> None:
    state = build(2, order=[0, 1], picks={0: (card("SWITCH 7"), 1), 1: (2, 3)})
    assert ENGINE.legal_moves(state, 0) == [{"type": "place", "building": b} for b in (7, 25, 17)]
    with pytest.raises(IllegalMove, match="SWITCH 7 shows buildings 7, 25, 17") as err:
        ENGINE.play(state, 0, {"type": "place", "building": 8})
    assert err.value.rule == R.RULE_PLACE


def test_step_2a_the_second_card_is_revealed_only_after_placing() -> None:
    state = build(2, order=[0, 1], picks={0: (card("SWITCH 7"), card("BACKSTAB 1")), 1: (2, 3)})
    assert ENGINE.view(state, 1)["players"][0]["first"] == card("SWITCH 7")
    assert ENGINE.view(state, 1)["players"][0]["second"] is None
    ENGINE.play(state, 0, {"type": "place", "building": 7})
    assert ENGINE.view(state, 1)["players"][0]["second"] == card("BACKSTAB 1")


def test_step_2b_the_ability_is_the_second_cards_and_relative_to_the_beefeater_just_placed() -> None:
    # first card BACKSTAB 1 (its ability ignored), second SWITCH 21: SWITCH in the placed quadrant
    state = build(2, order=[0, 1], board={2: {1: 1}, 3: {1: 1}, 4: {1: 1}},
                  picks={0: (card("BACKSTAB 1"), card("SWITCH 21")), 1: (5, 6)})
    ENGINE.play(state, 0, {"type": "place", "building": 1})
    assert state.pending == "SWITCH"
    moves = ENGINE.legal_moves(state, 0)
    assert {tuple(m["b"]) for m in moves if m["type"] == "switch"} == {(2, 1), (3, 1), (4, 1)}


def test_ability_backstab_removes_one_beefeater_plus_or_minus_one_across_colours_and_quadrants() -> None:
    # placed in 8 (blue, quadrant I): reaches 7 (orange, I) and 9 (blue, II), not 6 or 10
    state = build(2, order=[0, 1], board={6: {1: 1}, 7: {1: 1}, 9: {1: 2}, 10: {1: 1}},
                  picks={0: (card("POISON 18"), card("BACKSTAB 26")), 1: (5, 6)})
    ENGINE.play(state, 0, {"type": "place", "building": 8})
    assert {m["building"] for m in ENGINE.legal_moves(state, 0) if m["type"] == "remove"} == {7, 9}
    assert QUADRANT_OF[9] != QUADRANT_OF[8] and AREA_OF[7] != AREA_OF[8]
    with pytest.raises(IllegalMove, match=r"\+/- 1 away from where you placed"):
        ENGINE.play(state, 0, {"type": "remove", "building": 10, "seat": 1, "promoted": False})
    ENGINE.play(state, 0, {"type": "remove", "building": 9, "seat": 1, "promoted": False})
    assert state.plain[9][1] == 1


def test_ability_poison_removes_one_beefeater_from_an_adjacent_building() -> None:
    # building 19 is joined by lines to 16, 17, 18, 20, 21 and 23
    state = build(2, order=[0, 1], board={16: {1: 1}, 22: {1: 1}, 23: {1: 1}},
                  picks={0: (card("SWITCH 7"), card("POISON 3")), 1: (5, 6)})
    state.picks[0] = [card("PROMOTE 11"), card("POISON 3")]  # PROMOTE 11 shows green 19
    ENGINE.play(state, 0, {"type": "place", "building": 19})
    assert {m["building"] for m in ENGINE.legal_moves(state, 0) if m["type"] == "remove"} == {16, 23}
    with pytest.raises(IllegalMove, match="adjacent to where you placed"):
        ENGINE.play(state, 0, {"type": "remove", "building": 22, "seat": 1, "promoted": False})


def test_ability_switch_exchanges_two_beefeaters_in_the_quadrant_where_you_placed() -> None:
    state = build(3, order=[0, 1, 2], board={11: {1: 1}, 13: {2: 1}, 1: {2: 1}},
                  picks={0: (card("FOCUS 12"), card("SWITCH 30")), 1: (5, 6), 2: (7, 8)})
    ENGINE.play(state, 0, {"type": "place", "building": 12})
    with pytest.raises(IllegalMove, match="not in quadrant II"):
        ENGINE.play(state, 0, {"type": "switch", "a": [11, 1], "b": [1, 2]})
    with pytest.raises(IllegalMove, match="lower-numbered building first") as err:
        ENGINE.play(state, 0, {"type": "switch", "a": [13, 2], "b": [11, 1]})  # listed the other way
    assert err.value.rule == R.RULE_ABILITY and state.plain[13][2] == 1
    assert {"type": "switch", "a": [11, 1], "b": [13, 2]} in ENGINE.legal_moves(state, 0)
    ENGINE.play(state, 0, {"type": "switch", "a": [11, 1], "b": [13, 2]})
    assert state.plain[11][2] == 1 and state.plain[13][1] == 1
    assert state.plain[11][1] == 0 and state.plain[13][2] == 0


def test_ability_promote_the_promoted_beefeater_cannot_be_moved() -> None:
    state = build(2, order=[0, 1], board={12: {1: 1}, 13: {0: 1}},
                  picks={0: (card("PROMOTE 11"), card("PROMOTE 6")),
                         1: (card("FOCUS 12"), card("SWITCH 7"))})
    ENGINE.play(state, 0, {"type": "place", "building": 11})
    assert state.promoted[11][0] == 1 and state.plain[11][0] == 0
    assert state.supply[0] == 17  # 13, then the Beefeater placed in 11 and the one on top
    ENGINE.play(state, 1, {"type": "place", "building": 12})
    assert state.pending == "SWITCH"
    assert (11, 0) not in R.movable_beefeaters(state, 12)
    with pytest.raises(IllegalMove, match="promoted Beefeater of seat 0 in building 11 cannot be moved"):
        ENGINE.play(state, 1, {"type": "switch", "a": [11, 0], "b": [12, 1]})


def test_ability_promote_counts_with_its_top_beefeater_and_can_be_removed() -> None:
    state = build(2, order=[1, 0], promoted={11: {0: 1}}, board={11: {1: 1}},
                  picks={0: (2, 3), 1: (card("FOCUS 12"), card("BACKSTAB 1"))})
    assert R.controller(state, 11) == 0  # 2 (promoted) against 1
    ENGINE.play(state, 1, {"type": "place", "building": 12})
    assert {"type": "remove", "building": 11, "seat": 0, "promoted": True} in ENGINE.legal_moves(state, 1)
    ENGINE.play(state, 1, {"type": "remove", "building": 11, "seat": 0, "promoted": True})
    assert state.promoted[11][0] == 0 and state.supply[0] == 20
    assert R.controller(state, 11) == 1


def test_ability_focus_uses_the_power_of_the_first_card() -> None:
    state = build(2, order=[0, 1], board={2: {1: 1}},
                  picks={0: (card("BACKSTAB 1"), card("FOCUS 12")), 1: (5, 6)})
    ENGINE.play(state, 0, {"type": "place", "building": 1})
    assert state.pending == "BACKSTAB"
    assert ENGINE.view(state, 0)["prompt"]["ability"] == "BACKSTAB"


def test_ability_focus_with_focus_as_first_card_has_no_power_to_use() -> None:
    state = build(2, order=[0, 1], board={11: {1: 1}},
                  picks={0: (card("FOCUS 12"), card("FOCUS 22")), 1: (5, 6)})
    ENGINE.play(state, 0, {"type": "place", "building": 12})
    assert state.step_reveals[0]["outcome"] == "FOCUS on FOCUS: no power to use"


def test_ability_may_be_declined_and_without_a_target_has_no_effect() -> None:
    state = build(2, order=[0, 1], board={2: {1: 1}},
                  picks={0: (card("BACKSTAB 1"), card("BACKSTAB 15")), 1: (5, 6)})
    ENGINE.play(state, 0, {"type": "place", "building": 1})
    assert ENGINE.legal_moves(state, 0)[-1] == {"type": "pass"}
    ENGINE.play(state, 0, {"type": "pass"})
    assert state.plain[2][1] == 1 and ENGINE.to_act(state) == frozenset({1})
    # nothing within reach: the ability resolves at once with no effect
    state = build(2, order=[0, 1], picks={0: (card("BACKSTAB 1"), card("BACKSTAB 15")), 1: (5, 6)})
    ENGINE.play(state, 0, {"type": "place", "building": 1})
    assert state.step_reveals[0]["outcome"] == "BACKSTAB has no effect: nothing it could reach"


def test_a_player_with_no_beefeater_left_cannot_place_and_the_ability_has_no_effect() -> None:
    state = build(2, order=[0, 1], board={30: {0: 20}},
                  picks={0: (card("BACKSTAB 1"), card("BACKSTAB 15")), 1: (card("PROMOTE 11"), 6)})
    assert state.step_reveals[0]["placed"] is None and ENGINE.to_act(state) == frozenset({1})


# ------------------------------------------------------------------------- playing cards: step 3
def test_step_3_turn_order_by_the_orange_number_of_the_first_card_highest_first() -> None:
    order, space = R.next_turn_order([0, 1, 2], {0: card("SWITCH 7"), 1: card("SWITCH 30"),
                                                 2: card("BACKSTAB 1")}, {0: 1, 1: 2, 2: 3})
    assert order == [1, 0, 2] and space == {0: 7, 1: 30, 2: 1}


def test_step_3_same_first_card_uses_the_orange_number_of_the_second_card() -> None:
    order, space = R.next_turn_order([0, 1, 2], {0: 4, 1: 4, 2: card("FOCUS 12")},
                                     {0: card("SWITCH 30"), 1: card("BACKSTAB 1"), 2: 5})
    assert space == {0: 30, 1: 1, 2: 12} and order == [0, 2, 1]


def test_step_3_still_tied_players_reverse_their_turn_order_position() -> None:
    order, _ = R.next_turn_order([3, 1, 0, 2], {0: 4, 1: 4, 2: 4, 3: 1}, {0: 6, 1: 6, 2: 6, 3: 2})
    assert order == [2, 0, 1, 3]


def test_step_3_it_does_not_matter_whether_a_beefeater_was_placed() -> None:
    state = build(2, order=[0, 1], board={30: {0: 20}},
                  picks={0: (card("FOCUS 22"), card("BACKSTAB 15")), 1: (card("PROMOTE 11"), 6)})
    finish_step_passing(state)
    assert state.order == [0, 1] and state.track == [22, 11]


def test_step_3_track_beefeaters_are_removed_and_placed_again() -> None:
    state = build(2, order=[0, 1], picks={0: (1, 2), 1: (3, 4)})
    finish_step_passing(state)
    assert state.track == [1, 6] and state.order == [1, 0]
    assert state.supply == [18, 18]  # one Beefeater in a building, one on the track
    for s in range(2):
        a, b = state.hands[s][:2]
        ENGINE.play(state, s, {"type": "pick", "first": a, "second": b})
    finish_step_passing(state)
    assert all(state.track) and sum(1 for t in state.track if t) == 2
    assert all(R.beefeaters_accounted(state, s) == 20 for s in range(2))


def test_playing_cards_is_repeated_three_times_so_all_six_cards_are_played() -> None:
    state = build(3)
    for _ in range(3):
        for s in range(3):
            a, b = state.hands[s][:2]
            ENGINE.play(state, s, {"type": "pick", "first": a, "second": b})
        finish_step_passing(state)
    assert state.phase == R.KEEP and all(len(p) == 6 for p in state.played)
    assert state.hands == [[], [], []]


# --------------------------------------------------------------------------- reduce player decks
def test_reduce_player_decks_keep_three_of_the_six_played_decks_of_10_then_7() -> None:
    state = ENGINE.new_game(2, 21, {})
    play_to_end_of_round(state)
    assert state.round == 2 and state.phase == R.PICK
    assert [len(state.decks[s]) + len(state.hands[s]) for s in range(2)] == [10, 10]
    assert [len(b) for b in state.boxed] == [3, 3]
    play_to_end_of_round(state)
    assert state.round == 3 and state.phase == R.PICK  # this seed reaches round 3
    assert [len(state.decks[s]) + len(state.hands[s]) for s in range(2)] == [7, 7]
    assert [len(b) for b in state.boxed] == [6, 6]


def test_reduce_player_decks_keep_exactly_three_cards_you_played() -> None:
    state = build(2)
    state.phase, state.played = R.KEEP, [[1, 2, 3, 4, 5, 6], [1, 2, 3, 4, 5, 6]]
    state.choosing = Commitments.ask(range(2))
    for bad in ([1, 2], [1, 1, 2], [1, 2, 9], [1, 2, 3, 4]):
        with pytest.raises(IllegalMove, match="keep exactly three different cards") as err:
            ENGINE.play(state, 0, {"type": "keep", "cards": bad})
        assert err.value.rule == R.RULE_REDUCE
    with pytest.raises(IllegalMove, match=r"in ascending order \(\[1, 3, 6\]\)") as err:
        ENGINE.play(state, 0, {"type": "keep", "cards": [6, 1, 3]})  # listed sorted only
    assert err.value.rule == R.RULE_REDUCE and ENGINE.to_act(state) == frozenset({0, 1})
    events = ENGINE.play(state, 0, {"type": "keep", "cards": [1, 3, 6]})
    assert "BACKSTAB" not in events[0].for_seat(1) and "BACKSTAB" in events[0].for_seat(0)
    assert ENGINE.view(state, 1)["players"][0]["has_kept"] is True
    assert ENGINE.view(state, 1)["my_keep"] is None and ENGINE.view(state, 0)["my_keep"] == [1, 3, 6]


def test_reduce_player_decks_is_skipped_in_round_3_where_it_changes_nothing() -> None:
    state = build(2)
    state.round, state.step, state.event_pile = 3, 3, []
    for s in range(2):
        a, b = state.hands[s][:2]
        ENGINE.play(state, s, {"type": "pick", "first": a, "second": b})
    finish_step_passing(state)
    assert state.phase == R.OVER and state.scoring_history[-1]["round"] == 3


# ---------------------------------------------------------------------------------------- scoring
def scored_areas(state: R.State) -> list[str]:
    return [a["area"] for a in state.scoring_history[-1]["areas"]]


@pytest.mark.parametrize(("rnd", "areas"), [(1, ["orange"]), (2, ["green", "orange"]),
                                            (3, ["blue", "green", "orange"])])
def test_scoring_areas_by_round(rnd: int, areas: list[str]) -> None:
    state = build(2)
    state.round = rnd
    state.event_pile = [1, 2, 3]
    R.score_round(state, Log())
    assert scored_areas(state) == areas


def test_scoring_control_needs_strictly_the_most_beefeaters() -> None:
    state = build(3, board={3: {0: 2, 1: 2}, 6: {0: 2, 1: 1}, 7: {2: 1}})
    assert R.controller(state, 3) is None
    assert R.controller(state, 6) == 0 and R.controller(state, 7) == 2 and R.controller(state, 11) is None


def test_scoring_counts_controlled_buildings_not_beefeaters() -> None:
    state = build(3, board={3: {0: 5}, 6: {1: 1}, 7: {1: 1}})
    assert [r["seat"] for r in R.area_ranking(state, "orange")] == [1, 0]


def test_scoring_tie_broken_by_the_highest_numbered_controlled_building() -> None:
    state = build(3, board={3: {0: 1}, 28: {0: 1}, 30: {1: 1}, 1: {1: 1}})
    assert [r["seat"] for r in R.area_ranking(state, "orange")] == [1, 0]


def test_scoring_players_controlling_nothing_take_no_ravens() -> None:
    state = build(4, board={3: {0: 1}})
    R.score_round(state, Log())
    assert state.ravens == [2, 0, 0, 0]  # 4-player card: 2, 1, 1


def test_the_scoring_lines_count_buildings_and_ravens_in_words() -> None:
    """ "with 1 building and takes 2 ravens", "fourth": never "building(s)", "raven(s)" or "#4"."""
    state = build(5, board={3: {0: 1}, 6: {1: 1}, 7: {1: 1}, 11: {2: 1}, 12: {3: 1}})
    log = Log()
    R.score_round(state, log)
    lines = [e.text for e in log.events]
    assert "{seat:1} is first in the orange area with 2 buildings and takes 3 ravens; now 3." in lines
    assert "{seat:3} is second in the orange area with 1 building and takes 1 raven; now 1." in lines
    assert not [t for t in lines if "(s)" in t or "#" in t], lines


def test_scoring_ravens_go_to_first_place_first_while_the_supply_lasts() -> None:
    state = build(5, board={3: {0: 1}, 6: {1: 1}})
    state.raven_supply = 3
    R.score_round(state, Log())
    assert state.ravens[:2] == [0, 3] and state.raven_supply == 0  # 5-player card: 3, 1, 0
    assert state.scoring_history[-1]["areas"][0]["ranking"][1]["ravens"] == 0


def test_winning_seven_ravens_during_scoring_wins_at_once_and_no_more_scoring_takes_place() -> None:
    state = build(2, board={3: {1: 1}, 6: {1: 1}, 2: {0: 1}, 1: {0: 1}})
    state.round, state.ravens, state.raven_supply = 2, [5, 6], 20
    R.score_round(state, Log())  # green first: seat 0 reaches 7; orange is not scored
    assert state.phase == R.OVER and state.winner == 0 and state.ravens == [7, 6]
    assert scored_areas(state) == ["green"]
    result = ENGINE.result(state)
    assert result is not None and result.winners == (0,) and result.scores == (7.0, 6.0)


def test_winning_nobody_at_seven_after_round_3_means_everyone_loses() -> None:
    state = build(2, board={3: {0: 1}})
    state.round = 3
    R.score_round(state, Log())
    result = ENGINE.result(state)
    assert state.phase == R.OVER and result is not None and result.winners == ()
    assert result.details["reason"] == "everyone_loses"


def test_winning_no_more_moves_once_the_game_is_over() -> None:
    state = build(2, board={3: {0: 1}})
    state.round = 3
    R.score_round(state, Log())
    with pytest.raises(IllegalMove, match="the game is over"):
        ENGINE.play(state, 0, {"type": "pass"})
    assert ENGINE.to_act(state) == frozenset() and ENGINE.legal_moves(state, 0) == []


# ----------------------------------------------------------------------------------- event cards
def test_event_score_bonus_crown_jewels_gives_first_place_in_orange_one_more_raven() -> None:
    state = build(3, board={3: {0: 1}, 6: {1: 1}}, event=1)
    R.score_round(state, Log())
    assert state.ravens == [0 + 1, 2 + 1, 0]


def test_event_only_first_place_takes_ravens() -> None:
    state = build(3, board={3: {0: 1}, 6: {1: 1}}, event=event_id("only_first_place"))
    R.score_round(state, Log())
    assert state.ravens == [0, 2, 0]


@pytest.mark.parametrize("ability", ["BACKSTAB", "POISON", "SWITCH"])
def test_event_ability_disabled_for_the_round(ability: str) -> None:
    ev = next(e.id for e in EVENTS.values() if e.effect.get("ability") == ability)
    second = {"BACKSTAB": "BACKSTAB 15", "POISON": "POISON 3", "SWITCH": "SWITCH 7"}[ability]
    state = build(2, order=[0, 1], board={11: {1: 1}, 13: {1: 1}, 15: {1: 1}}, event=ev,
                  picks={0: (card("FOCUS 12"), card(second)), 1: (5, 6)})
    ENGINE.play(state, 0, {"type": "place", "building": 12})
    assert "has no effect this round" in state.step_reveals[0]["outcome"]


def test_event_mutiny_reads_the_track_from_lowest() -> None:
    state = build(2, order=[0, 1], event=event_id("turn_order_reversed"),
                  picks={0: (card("SWITCH 30"), 1), 1: (card("BACKSTAB 1"), 2)})
    finish_step_passing(state)
    assert state.order == [1, 0]


def orders_by_step(version: int, mutiny_round: int) -> dict[tuple[int, int], list[int]]:
    """A 4-player game whose round ``mutiny_round`` is Mutiny and whose other rounds have an event
    that leaves the turn order alone; the Turn Order Track spaces in the order each step is
    played, by (round, step)."""
    state = ENGINE.new_game(4, 77, {}, rules_version=version)
    calm = (event_id("score_bonus"), event_id("only_first_place"))
    events = [calm[0], calm[1], calm[0]]
    events[mutiny_round - 1] = event_id("turn_order_reversed")
    state.event, state.event_pile = events[0], events[1:]
    seen: dict[tuple[int, int], list[int]] = {}
    while state.phase != R.OVER:
        if state.phase == R.PICK and not state.choosing.choices:
            seen[(state.round, state.step)] = [state.track[s] for s in state.order]
        (seat, *_) = sorted(ENGINE.to_act(state))
        moves = ENGINE.legal_moves(state, seat)
        ENGINE.play(state, seat, moves[(7 * seat + state.step) % len(moves)] if moves[0]["type"] == "pick"
                    else moves[-1] if moves[-1]["type"] == "pass" else moves[0])
    return seen


def ascending(spaces: list[int]) -> bool:
    return spaces == sorted(spaces) and len(set(spaces)) > 1


def descending(spaces: list[int]) -> bool:
    return spaces == sorted(spaces, reverse=True) and len(set(spaces)) > 1


def test_event_mutiny_reads_the_track_from_lowest_in_every_step_of_its_own_round_and_no_other() -> None:
    seen = orders_by_step(version=2, mutiny_round=2)
    assert set(seen) >= {(r, s) for r in (1, 2, 3) for s in (1, 2, 3)}
    assert all(ascending(seen[(2, s)]) for s in (1, 2, 3))  # the Mutiny round, from its step 1
    assert all(descending(seen[(r, s)]) for r in (1, 3) for s in (1, 2, 3) if (r, s) != (1, 1))
    assert seen[(1, 1)] == [0, 0, 0, 0]  # nothing on the track before the first step


def test_event_mutiny_in_round_1_leaves_round_2_read_from_highest() -> None:
    seen = orders_by_step(version=2, mutiny_round=1)
    assert all(ascending(seen[(1, s)]) for s in (2, 3))
    assert all(descending(seen[(r, s)]) for r in (2, 3) for s in (1, 2, 3))


def test_event_mutiny_under_rules_version_1_keeps_the_reading_its_tables_were_played_with() -> None:
    """Version 1 read the track lowest first from step 2 of the Mutiny round to step 1 of the
    next: tables and records of that time replay as they were played."""
    seen = orders_by_step(version=1, mutiny_round=2)
    assert descending(seen[(2, 1)]) and ascending(seen[(2, 2)]) and ascending(seen[(2, 3)])
    assert ascending(seen[(3, 1)]) and descending(seen[(3, 2)]) and descending(seen[(3, 3)])


def test_event_topsy_turvy_breaks_area_ties_by_the_lowest_building() -> None:
    state = build(3, board={3: {0: 1}, 30: {1: 1}}, event=event_id("area_tiebreak_lowest"))
    assert [r["seat"] for r in R.area_ranking(state, "orange")] == [0, 1]


def test_event_sealed_quadrant_forbids_placing_there() -> None:
    state = build(2, order=[0, 1], event=event_id("sealed_quadrant"),
                  picks={0: (card("FOCUS 12"), 1), 1: (5, 6)})
    assert [m["building"] for m in ENGINE.legal_moves(state, 0)] == [29, 24]
    with pytest.raises(IllegalMove, match="sealed"):
        ENGINE.play(state, 0, {"type": "place", "building": 12})


def test_event_night_watch_gives_a_tied_building_to_the_only_promoted_player() -> None:
    state = build(2, board={3: {1: 2}}, promoted={3: {0: 1}}, event=event_id("promoted_wins_ties"))
    assert R.controller(state, 3) == 0
    state.event = 0
    assert R.controller(state, 3) is None


def test_event_ceremony_of_the_keys_makes_the_player_with_fewest_ravens_start() -> None:
    state = build(3, order=[0, 1, 2])
    state.ravens = [3, 1, 1]
    state.event_pile = [event_id("fewest_ravens_starts")]
    R.begin_round(state, Log())
    assert state.order == [1, 0, 2]


def test_event_garrison_inspection_needs_two_beefeaters_to_control() -> None:
    state = build(2, board={3: {0: 1}, 6: {1: 2}}, event=event_id("min_beefeaters_to_control"))
    assert R.controller(state, 3) is None and R.controller(state, 6) == 1


def test_event_state_banquet_gives_second_place_one_more_raven() -> None:
    state = build(3, board={3: {0: 1}, 6: {1: 1}}, event=2)
    R.score_round(state, Log())
    assert state.ravens == [2, 2, 0]


def test_event_ravens_feast_gives_first_place_in_every_area_one_more() -> None:
    state = build(3, board={3: {0: 1}}, event=13)
    R.score_round(state, Log())
    assert state.ravens == [3, 0, 0]


def test_every_area_is_scored_from_its_own_buildings_only() -> None:
    # seat 0 holds one building of each area, seat 1 two blue ones: each area ranks its own
    state = build(2, board={3: {0: 1}, 2: {0: 1}, 4: {0: 1}, 8: {1: 1}, 9: {1: 1}})
    assert (AREA_OF[3], AREA_OF[2], AREA_OF[4], AREA_OF[8], AREA_OF[9]) == (
        "orange", "green", "blue", "blue", "blue")
    assert R.area_ranking(state, "orange") == [{"seat": 0, "buildings": [3]}]
    assert R.area_ranking(state, "green") == [{"seat": 0, "buildings": [2]}]
    assert R.area_ranking(state, "blue") == [{"seat": 1, "buildings": [8, 9]}, {"seat": 0, "buildings": [4]}]
    assert sorted(b for area in BUILDINGS_IN_AREA.values() for b in area) == list(range(1, 33))
