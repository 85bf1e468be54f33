"""Setup for 3–6 players, the round structure, planning (hidden orders, stars, restrictions,
reveal) and the Messenger Raven."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

from engines.base import IllegalMove
from engines.game_of_thrones import ENGINE, shared
from engines.game_of_thrones import engine as engine_module
from engines.game_of_thrones import rules as R
from engines.game_of_thrones.components import HOUSES, SETUPS
from engines.game_of_thrones.state import ACTION, PLANNING

from .conftest import plan, play, position, random_game, seat, through_westeros


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_setup_puts_each_house_in_play_on_its_starting_areas(players):
    state = ENGINE.new_game(players, 5, {})
    assert state.houses == list(SETUPS[players].houses)
    for house in state.houses:
        s = seat(state, house)
        expected = {a: u for a, u in HOUSES[house].units.items() if a not in SETUPS[players].units_not_placed_in}
        mine = {a: sorted(u.kind for u in us) for a, us in state.units.items() if state.owner[a] == s}
        assert mine == {a: sorted(k for k, n in u.items() for _ in range(n)) for a, u in expected.items()}


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_setup_gives_five_power_tokens_supply_positions_and_garrisons(players):
    state = ENGINE.new_game(players, 5, {})
    assert state.power == [5] * players
    assert state.supply == [HOUSES[h].positions["supply"] for h in state.houses]
    assert state.garrisons == {HOUSES[h].home: 2 for h in state.houses}
    assert state.neutral == SETUPS[players].neutral_forces
    assert set(state.blocked) == set(SETUPS[players].blocked)
    for s in range(players):
        assert R.power_pool(state, s) == 15


def test_three_player_setup_blocks_the_south_and_drops_lannister_s_port_ship():
    state = ENGINE.new_game(3, 5, {})
    assert "port-of-lannisport" not in state.units
    assert {"highgarden", "sunspear", "pyke"} <= set(state.blocked)
    assert state.neutral == {"kings-landing": 5, "the-eyrie": 6}


def test_six_player_setup_gives_lannister_a_ship_in_its_port():
    state = ENGINE.new_game(6, 5, {})
    assert [u.kind for u in state.units["port-of-lannisport"]] == ["ship"]


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_setup_orders_the_influence_tracks_and_hands_out_dominance_by_first_place(players):
    state = ENGINE.new_game(players, 5, {})
    for track, order in SETUPS[players].tracks.items():
        assert [state.houses[s] for s in state.tracks[track]] == list(order)
    view = ENGINE.view(state, 0)
    assert state.houses[view["tracks"]["iron_throne"][0]] == "baratheon"  # Iron Throne token
    assert state.houses[view["tracks"]["fiefdoms"][0]] == ("stark" if players == 3 else "greyjoy")  # Blade
    assert state.houses[view["tracks"]["kings_court"][0]] == "lannister"  # Raven


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_setup_gives_each_house_its_seven_house_cards_and_the_decks_are_shuffled(players):
    state = ENGINE.new_game(players, 5, {})
    for s, house in enumerate(state.houses):
        assert sorted(state.hands[s]) == sorted(HOUSES[house].house_cards)
    assert len(state.wildling_deck) == 9 and state.wildlings == 2
    other = ENGINE.new_game(players, 6, {})
    assert (state.wildling_deck, state.westeros_decks) != (other.wildling_deck, other.westeros_decks)


def test_round_one_starts_in_planning_without_a_westeros_phase():
    state = ENGINE.new_game(4, 5, {})
    assert state.round == 1 and state.phase == PLANNING
    assert ENGINE.to_act(state) == frozenset(range(4))


def test_the_westeros_phase_is_skipped_in_round_one_and_played_from_round_two():
    state = position(3, {"winterfell": ("stark", ["footman"])})
    assert state.round == 1 and state.phase == PLANNING and state.revealed == []
    assert not hasattr(engine_module, "WESTEROS_PHASE_PLAYED")
    state.westeros_decks = {"I": ["mustering"] * 10, "II": ["clash-of-kings"] * 10, "III": ["web-of-lies"] * 10}
    plan(state, {"winterfell": "defense-plus-one"})
    assert state.round == 2 and state.phase == "westeros"
    assert state.revealed == ["mustering", "clash-of-kings", "web-of-lies"]
    through_westeros(state)
    assert state.phase == PLANNING and state.restricted == ["support", "support-plus-one"]


def test_a_round_is_planning_then_action_then_clean_up_and_the_game_lasts_ten_rounds():
    state = position(3, {"winterfell": ("stark", ["footman"]), "lannisport": ("lannister", ["footman"])})
    # cards without wildling icons, so no attack destroys these footmen
    state.westeros_decks = {"I": ["mustering"] * 10, "II": ["game-of-thrones"] * 10, "III": ["put-to-the-sword"] * 10}
    for r in range(1, 11):
        through_westeros(state)
        assert state.round == r and state.phase == PLANNING
        plan(state, {"winterfell": "defense-plus-one", "lannisport": "defense-plus-one"})
    assert state.phase == "over"
    result = ENGINE.result(state)
    assert result is not None and result.details["ended_by"] == "round 10"


def test_every_house_must_order_every_area_holding_its_units_before_ready():
    state = ENGINE.new_game(6, 5, {})
    stark = seat(state, "stark")
    moves = ENGINE.legal_moves(state, stark)
    assert {"type": "ready"} not in moves
    with pytest.raises(IllegalMove, match="every area holding its units") as err:
        play(state, stark, "ready")
    assert err.value.rule == shared.RULE_PLANNING
    for area in ("winterfell", "white-harbor", "the-shivering-sea"):
        play(state, stark, "order", area=area, order="defense-plus-one" if area != "winterfell" else "march")
    assert {"type": "ready"} in ENGINE.legal_moves(state, stark)


def test_orders_can_only_go_on_areas_holding_the_house_s_units():
    state = ENGINE.new_game(6, 5, {})
    with pytest.raises(IllegalMove, match="areas holding its units"):
        play(state, "stark", "order", area="pyke", order="march")


def test_orders_are_placed_one_by_one_and_changed_until_ready():
    state = ENGINE.new_game(6, 5, {})
    play(state, "stark", "order", area="winterfell", order="march")
    play(state, "stark", "order", area="winterfell", order="raid")
    play(state, "stark", "unorder", area="winterfell")
    play(state, "stark", "order", area="winterfell", order="support")
    assert state.planning.choices[seat(state, "stark")] == {"winterfell": "support"}


def test_a_house_that_is_ready_can_no_longer_change_its_orders():
    state = ENGINE.new_game(6, 5, {})
    for area in ("winterfell", "white-harbor", "the-shivering-sea"):
        play(state, "stark", "order", area=area, order="support" if area != "winterfell" else "march")
    play(state, "stark", "ready")
    with pytest.raises(IllegalMove) as err:
        play(state, "stark", "order", area="winterfell", order="raid")
    assert err.value.code == "not_your_turn"


def test_each_order_token_is_used_at_most_as_often_as_the_house_has_it():
    state = ENGINE.new_game(6, 5, {})
    play(state, "stark", "order", area="winterfell", order="march")
    moves = ENGINE.legal_moves(state, seat(state, "stark"))
    assert {"type": "order", "area": "white-harbor", "order": "march"} not in moves
    with pytest.raises(IllegalMove, match="no March \\+0 token left"):
        play(state, "stark", "order", area="white-harbor", order="march")


def test_special_orders_are_limited_by_king_s_court_stars_six_players():
    # King's Court: Lannister 1st (3 stars), Stark 2nd (3), Martell 3rd (2), Baratheon 4th (1),
    # Tyrell 5th (0), Greyjoy 6th (0)
    state = ENGINE.new_game(6, 5, {})
    assert [R.star_limit(state, seat(state, h)) for h in ("lannister", "stark", "martell", "baratheon",
                                                          "tyrell", "greyjoy")] == [3, 3, 2, 1, 0, 0]
    with pytest.raises(IllegalMove, match="only 0 special orders") as err:
        play(state, "greyjoy", "order", area="pyke", order="march-plus-one")
    assert err.value.rule == shared.RULE_STARS
    play(state, "baratheon", "order", area="dragonstone", order="march-plus-one")
    with pytest.raises(IllegalMove, match="only 1 special orders"):
        play(state, "baratheon", "order", area="kingswood", order="defense-plus-two")
    # replacing the special order on the same area is allowed
    play(state, "baratheon", "order", area="dragonstone", order="defense-plus-two")


def test_three_and_four_players_use_the_king_s_court_overlay():
    state = ENGINE.new_game(4, 5, {})
    assert [R.star_limit(state, s) for s in state.tracks["kings_court"]] == [3, 2, 1, 0]


def test_restricted_orders_cannot_be_placed():
    state = ENGINE.new_game(6, 5, {})
    state.restricted = ["march-plus-one"]
    with pytest.raises(IllegalMove, match="may not be placed this round") as err:
        play(state, "lannister", "order", area="lannisport", order="march-plus-one")
    assert err.value.rule == shared.RULE_RESTRICTED


def test_others_see_how_many_orders_a_house_placed_and_who_is_ready_but_never_their_kinds():
    state = ENGINE.new_game(6, 5, {})
    play(state, "stark", "order", area="winterfell", order="march-plus-one")
    stark, lannister = seat(state, "stark"), seat(state, "lannister")
    mine = ENGINE.view(state, stark)
    theirs = ENGINE.view(state, lannister)
    spectator = ENGINE.view(state, None)
    assert any(a.get("order", {}).get("token") == "march-plus-one" for a in mine["areas"])
    for view in (theirs, spectator):
        assert "march-plus-one" not in str(view["areas"])
        assert view["planning"]["placed"][str(stark)] == 1
        assert view["planning"]["ready"] == []


def orders_shown(view: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {a["id"]: a["order"] for a in view["areas"] if "order" in a}


@pytest.mark.parametrize("players", [3, 6])
def test_while_planning_every_view_shows_where_each_house_s_orders_lie_face_down_and_only_its_own_kinds(players):
    """Rules §1.1: orders are placed face down on the board. Every seat and a spectator see on
    which areas each house has placed one; only the house itself sees their kinds, until the
    reveal. Other kinds in the other houses' orders change no one else's view."""
    planning_states = 0
    for state in random_game(players, 40 + players, limit=2500):
        if state.phase != PLANNING or not state.planning.open:
            continue
        placed = {a: (s, t) for s, orders in state.planning.choices.items() for a, t in (orders or {}).items()}
        if not placed:
            continue
        planning_states += 1
        for viewer in [None, *range(players)]:
            shown = orders_shown(ENGINE.view(state, viewer))
            assert set(shown) == set(placed), "every placed order lies on the map, face down"
            for area, order in shown.items():
                owner, token = placed[area]
                assert order["seat"] == owner and order["hidden"] is True
                if owner == viewer:
                    assert order["token"] == token  # one's own, face up to oneself
                else:
                    assert "token" not in order, f"seat {viewer} sees seat {owner}'s order kind in {area}"
        # other kinds under the same face-down tokens: no other seat nor a spectator can tell
        for owner, orders in state.planning.choices.items():
            if not orders:
                continue
            before = {v: ENGINE.view(state, v) for v in [None, *range(players)] if v != owner}
            other = copy.deepcopy(state)
            other.planning.choices[owner] = {a: next(t for t in ("support", "raid", "defense")
                                                     if t != token) for a, token in orders.items()}
            for v, view in before.items():
                assert ENGINE.view(other, v) == view, f"seat {v}'s view tells seat {owner}'s order kinds"
            break
        if planning_states >= 12:
            break
    assert planning_states >= 12


def test_after_the_reveal_every_view_shows_every_order_face_up():
    state = position(3, {"winterfell": ("stark", ["footman"]), "lannisport": ("lannister", ["footman"]),
                         "dragonstone": ("baratheon", ["footman"])})
    plan(state, {"winterfell": "defense-plus-one", "lannisport": "support", "dragonstone": "raid"}, raven=False)
    for viewer in (None, 0, 1, 2):
        assert {a: (o["token"], o.get("hidden")) for a, o in orders_shown(ENGINE.view(state, viewer)).items()} == {
            "winterfell": ("defense-plus-one", None), "lannisport": ("support", None), "dragonstone": ("raid", None)}


def test_orders_are_revealed_together_when_every_house_is_ready():
    state = position(3, {"winterfell": ("stark", ["footman"]), "lannisport": ("lannister", ["footman"]),
                         "dragonstone": ("baratheon", ["footman"])})
    play(state, "stark", "order", area="winterfell", order="defense-plus-one")
    play(state, "stark", "ready")
    play(state, "lannister", "order", area="lannisport", order="support")
    play(state, "lannister", "ready")
    assert state.orders == {}
    play(state, "baratheon", "order", area="dragonstone", order="consolidate-power")
    events = play(state, "baratheon", "ready")
    assert state.phase == ACTION
    assert {a: o.token for a, o in state.orders.items()} == {
        "winterfell": "defense-plus-one", "lannisport": "support", "dragonstone": "consolidate-power"}
    assert sum("reveals" in e.text for e in events) == 3


def test_the_messenger_raven_holder_may_swap_an_order_within_the_star_limit():
    state = position(3, {"lannisport": ("lannister", ["footman"]), "winterfell": ("stark", ["footman"])})
    plan(state, {"lannisport": "defense-plus-one", "winterfell": "defense-plus-one"}, raven=False)
    lannister = seat(state, "lannister")
    assert ENGINE.to_act(state) == {lannister}
    assert state.decisions.top is not None and state.decisions.top.kind == "raven"
    play(state, lannister, "raven_swap", area="lannisport", order="march-plus-one")
    assert state.orders["lannisport"].token == "march-plus-one"
    assert state.raven_used


def test_the_raven_holder_sees_no_wildling_card_before_looking_and_its_swap_is_public_face_up():
    """The Raven is used once every order is face up: the holder sees what everyone sees (no
    wildling card before it chooses to look), and the order it swaps in lies face up for all."""
    state = position(3, {"lannisport": ("lannister", ["footman"]), "winterfell": ("stark", ["footman"])})
    plan(state, {"lannisport": "defense-plus-one", "winterfell": "defense-plus-one"}, raven=False)
    lannister = seat(state, "lannister")
    assert all(ENGINE.view(state, v)["wildling_top"] is None for v in (None, 0, 1, 2))
    play(state, lannister, "raven_swap", area="lannisport", order="march-plus-one")
    for viewer in (None, 0, 1, 2):
        view = ENGINE.view(state, viewer)
        assert orders_shown(view)["lannisport"] == {"seat": lannister, "token": "march-plus-one"}
        assert view["wildling_top"] is None


def test_the_raven_swap_respects_restrictions_and_stars():
    state = position(3, {"lannisport": ("lannister", ["footman"]), "winterfell": ("stark", ["footman"])})
    plan(state, {"lannisport": "defense-plus-one", "winterfell": "defense-plus-one"}, raven=False)
    state.restricted = ["march-plus-one"]
    lannister = seat(state, "lannister")
    moves = ENGINE.legal_moves(state, lannister)
    assert {"type": "raven_swap", "area": "lannisport", "order": "march-plus-one"} not in moves
    with pytest.raises(IllegalMove):
        play(state, lannister, "raven_swap", area="lannisport", order="march-plus-one")


def test_the_raven_holder_may_look_at_the_top_wildling_card_and_bury_it():
    state = position(3, {"lannisport": ("lannister", ["footman"]), "winterfell": ("stark", ["footman"])})
    plan(state, {"lannisport": "defense-plus-one", "winterfell": "defense-plus-one"}, raven=False)
    lannister = seat(state, "lannister")
    top = state.wildling_deck[0]
    events = play(state, lannister, "raven_look")
    assert ENGINE.view(state, lannister)["wildling_top"] == top
    assert ENGINE.view(state, seat(state, "stark"))["wildling_top"] is None
    assert ENGINE.view(state, None)["wildling_top"] is None
    assert any(top.replace("-", " ") not in e.text.lower() for e in events)
    assert all(top not in e.text for e in events)
    play(state, lannister, "wildling", bury=True)
    assert state.wildling_deck[-1] == top


def test_the_raven_holder_may_keep_the_wildling_card_on_top_and_still_knows_it():
    state = position(3, {"lannisport": ("lannister", ["footman"]), "winterfell": ("stark", ["footman"])})
    plan(state, {"lannisport": "defense-plus-one", "winterfell": "defense-plus-one"}, raven=False)
    lannister = seat(state, "lannister")
    top = state.wildling_deck[0]
    play(state, lannister, "raven_look")
    play(state, lannister, "wildling", bury=False)
    assert state.wildling_deck[0] == top
    assert ENGINE.view(state, lannister)["wildling_top"] == top


def test_the_round_a_game_is_in_is_told_for_replays():
    state = ENGINE.new_game(3, 5, {})
    assert ENGINE.round_of(state) == 1
    state.round = 4
    assert ENGINE.round_of(state) == 4


def test_a_planning_seat_lists_exactly_the_orders_the_rules_allow_and_ready_when_allowed():
    """The planning listing (counted in one pass for speed) against the rules themselves: every
    order ``R.may_place`` allows on each area holding the seat's units (never the area's own
    token), a removal for each placed order, and ready exactly when ``may_declare_ready``."""
    from engines.game_of_thrones import planning as P
    from engines.game_of_thrones.components import ORDERS

    rng = random.Random(3)
    listings = 0
    for game in range(12):
        state = ENGINE.new_game(3 + game % 4, 40 + game, {})
        if game % 3 == 0:  # Westeros III: some tokens barred this round
            state.restricted = rng.sample(sorted(ORDERS), 3)
        while state.phase == PLANNING and state.decisions.top is None:
            awaited = sorted(ENGINE.to_act(state))
            for s in awaited:
                placed = state.planning.choices.get(s) or {}
                expected = []
                for area in R.order_areas(state, s):
                    expected += [{"type": "order", "area": area, "order": t} for t in ORDERS
                                 if t != placed.get(area) and R.may_place(state, s, placed, area, t) is None]
                    if area in placed:
                        expected.append({"type": "unorder", "area": area})
                if P.may_declare_ready(state, s, placed):
                    expected.append({"type": "ready"})
                assert ENGINE.legal_moves(state, s) == expected
                listings += 1
            s = rng.choice(awaited)
            moves = ENGINE.legal_moves(state, s)
            ENGINE.play(state, s, {"type": "ready"} if {"type": "ready"} in moves and rng.random() < 0.2
                        else rng.choice(moves))
    assert listings > 300
