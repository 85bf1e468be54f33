"""The rulebook, rule by rule: each rule sentence of the seed (the rulebook's first part) and each
point of the reference summary of the rest (Rules §0–§7) names the tests that prove it, and
``test_every_rule_names_tests_that_exist`` checks that every one of them exists. The tests here
prove the rules no other file covers."""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Callable
from pathlib import Path

from engines.game_of_thrones import ENGINE
from engines.game_of_thrones import rules as R
from engines.game_of_thrones import units as U
from engines.game_of_thrones.components import BOARD, RULES
from engines.game_of_thrones.state import GameState, Unit

from .conftest import plan, play, position, seat
from .test_westeros import end_others_mustering, westeros

# -- rules no other file covers ---------------------------------------------------------------


def test_a_single_unit_is_no_army_and_never_limited_by_supply():
    assert R.within_supply([1] * 12, 0)
    assert not R.within_supply([3], 0)


def test_a_house_may_field_fewer_and_smaller_armies_than_its_supply_allows():
    assert R.within_supply([], 0) and R.within_supply([2], 6) and R.within_supply([4, 2], 6)
    assert not R.within_supply([2, 2, 2], 0)  # supply 0: two armies of two at most


def test_knights_and_siege_engines_count_as_one_unit_for_supply():
    state = position(6, {"lannisport": ("lannister", ["knight", "siege-engine"]),
                         "stoney-sept": ("lannister", ["knight", "knight", "knight"])})
    lannister = seat(state, "lannister")
    state.supply[lannister] = 0
    assert R.army_sizes(state, lannister) == {"lannisport": 2, "stoney-sept": 3}
    assert not R.supply_ok(state, lannister)
    assert R.supply_ok(state, lannister, {"stoney-sept": 2})


def test_two_ships_in_one_sea_are_an_army_under_the_supply_limits():
    state = position(6, {"the-golden-sound": ("lannister", ["ship", "ship", "ship"])})
    lannister = seat(state, "lannister")
    state.supply[lannister] = 0
    assert R.army_sizes(state, lannister) == {"the-golden-sound": 3} and not R.supply_ok(state, lannister)


def test_supply_icons_won_in_the_action_phase_move_the_supply_track_only_when_a_supply_card_says():
    state = position(6, {"stoney-sept": ("lannister", ["footman"]), "lannisport": ("lannister", ["footman"])})
    lannister = seat(state, "lannister")
    track, held = state.supply[lannister], R.barrels(state, lannister)
    plan(state, {"stoney-sept": "march", "lannisport": "defense-plus-one"})
    play(state, lannister, "march", area="stoney-sept")
    play(state, lannister, "move", unit="footman", to="riverrun")
    play(state, lannister, "end_march", power=False)
    assert R.barrels(state, lannister) == held + 1  # Riverrun's barrel is held now …
    assert state.supply[lannister] == track  # … but the Supply track did not move


def test_a_destroyed_unit_returns_to_its_house_s_available_units():
    state = position(6, {"winterfell": ("stark", ["footman", "knight"])})
    stark = seat(state, "stark")
    pool = R.units_in_pool(state, stark, "knight")
    U.destroy(state, "winterfell", "knight")
    assert R.units_in_pool(state, stark, "knight") == pool + 1


def test_strongholds_give_two_mustering_points_castles_one_and_other_areas_none():
    for area in BOARD.areas.values():
        assert area.mustering_points == {"stronghold": 2, "castle": 1, "none": 0}[area.fortification]
    assert BOARD.areas["lannisport"].mustering_points == 2 and BOARD.areas["harrenhal"].mustering_points == 1


def test_mustering_costs_a_footman_1_a_knight_2_a_siege_engine_2_a_ship_1_and_an_upgrade_1():
    assert RULES.muster_costs == {"footman": 1, "knight": 2, "siege-engine": 2, "ship": 1}
    assert RULES.upgrade_cost == 1
    state = westeros(6, {"lannisport": ("lannister", ["footman"])}, ("mustering", "game-of-thrones", "storm-of-swords"))
    end_others_mustering(state, "lannister")
    lannister = seat(state, "lannister")
    play(state, lannister, "muster", area="lannisport")
    play(state, lannister, "recruit", unit="knight", to="lannisport")  # both points of the stronghold
    assert sorted(u.kind for u in state.units["lannisport"]) == ["footman", "knight"]
    assert not any(d.kind == "muster" for d in state.decisions.stack)


def test_land_units_are_never_mustered_in_ports_or_seas():
    state = westeros(6, {"lannisport": ("lannister", ["footman"])}, ("mustering", "game-of-thrones", "storm-of-swords"))
    end_others_mustering(state, "lannister")
    lannister = seat(state, "lannister")
    play(state, lannister, "muster", area="lannisport")
    for move in ENGINE.legal_moves(state, lannister):
        if move["type"] == "recruit" and move["unit"] != "ship":
            assert move["to"] == "lannisport"
        elif move["type"] == "recruit":
            assert BOARD.areas[move["to"]].kind in ("sea", "port")


def test_each_house_finishes_all_its_mustering_before_the_next_in_turn_order():
    units = {"lannisport": ("lannister", ["footman"]), "winterfell": ("stark", ["footman"]),
             "dragonstone": ("baratheon", ["footman"])}
    state = westeros(6, units, ("mustering", "game-of-thrones", "storm-of-swords"))
    throne = state.tracks["iron_throne"]
    asked: list[int] = []
    while state.decisions.top is not None and state.decisions.top.kind in ("mustering", "muster"):
        who = state.decisions.top.seats[0]
        if not asked or asked[-1] != who:
            asked.append(who)
        play(state, who, "end_muster")
    # each house is asked once, all its areas together, in Iron Throne order
    assert len(asked) == len(set(asked)) > 1 and asked == sorted(asked, key=throne.index)


def test_mustering_points_left_in_an_area_are_lost():
    state = westeros(6, {"lannisport": ("lannister", ["footman"]), "harrenhal": ("lannister", ["footman"])},
                     ("mustering", "game-of-thrones", "storm-of-swords"))
    end_others_mustering(state, "lannister")
    lannister = seat(state, "lannister")
    play(state, lannister, "muster", area="lannisport")
    play(state, lannister, "recruit", unit="footman", to="lannisport")
    play(state, lannister, "end_muster")  # the second point of Lannisport is not spent
    assert {"type": "muster", "area": "lannisport"} not in ENGINE.legal_moves(state, lannister)
    assert {"type": "muster", "area": "harrenhal"} in ENGINE.legal_moves(state, lannister)


def test_clash_of_kings_bids_for_the_iron_throne_then_the_fiefdoms_then_the_king_s_court():
    state = westeros(3, {"winterfell": ("stark", ["footman"])}, ("supply", "clash-of-kings", "storm-of-swords"))
    tracks = []
    while state.decisions.top is not None and state.decisions.top.kind in ("bid", "ties"):
        top = state.decisions.top
        if top.kind == "bid":
            tracks.append(top.data["track"])
            for s in sorted(ENGINE.to_act(state)):
                play(state, s, "bid", power=min(s, state.power[s]))
        else:
            play(state, top.seats[0], "rank", house=ENGINE.legal_moves(state, top.seats[0])[0]["house"])
    assert tracks == ["iron_throne", "fiefdoms", "kings_court"]


def test_routed_units_do_not_stop_an_order_from_being_placed():
    state = position(6, {"winterfell": ("stark", ["footman"])})
    state.units["winterfell"] = [Unit("footman", routed=True)]
    assert {"type": "order", "area": "winterfell", "order": "defense-plus-one"} in ENGINE.legal_moves(
        state, seat(state, "stark"))


def test_control_goes_to_units_then_a_power_token_then_the_home_sigil_and_a_port_follows_its_land():
    state = position(6, {"the-reach": ("tyrell", ["footman"])})
    tyrell, stark = seat(state, "tyrell"), seat(state, "stark")
    assert R.controller(state, "the-reach") == tyrell
    assert R.controller(state, "winterfell") == stark  # a home area with no unit and no token
    state.tokens["karhold"] = stark
    assert R.controller(state, "karhold") == stark  # a Power token alone
    assert R.controller(state, "port-of-white-harbor") == R.controller(state, "white-harbor")
    assert R.controller(state, "the-mountains-of-the-moon") is None


def test_destroying_the_last_unit_of_an_area_leaves_it_without_a_controller():
    state = position(6, {"the-reach": ("tyrell", ["footman"])})
    U.destroy(state, "the-reach", "footman")
    assert R.controller(state, "the-reach") is None and "the-reach" not in state.owner


def test_a_house_without_orders_of_the_current_kind_is_skipped():
    state = position(6, {"the-reach": ("tyrell", ["footman"]), "winterfell": ("stark", ["footman"])})
    plan(state, {"the-reach": "raid", "winterfell": "march"})
    # only Tyrell raids: the raid step asks Tyrell alone, then Stark marches
    assert ENGINE.to_act(state) == {seat(state, "tyrell")}
    play(state, "tyrell", "raid", area="the-reach", target="")
    assert ENGINE.to_act(state) == {seat(state, "stark")} and state.decisions.top.kind == "march"


def first_listed_until(state: GameState, done: Callable[[], bool]) -> None:
    """Play the first listed move of the first awaited seat until ``done()``."""
    while not done():
        s = min(ENGINE.to_act(state))
        ENGINE.play(state, s, ENGINE.legal_moves(state, s)[0])


def test_one_support_order_backs_every_combat_next_to_it_in_a_round():
    units = {"the-reach": ("tyrell", ["knight"]), "highgarden": ("tyrell", ["knight"]),
             "dornish-marches": ("martell", ["footman"]), "oldtown": ("martell", ["footman"]),
             "three-towers": ("baratheon", ["footman"])}
    state = position(6, units)
    assert "three-towers" in BOARD.adjacent["oldtown"] and "three-towers" in BOARD.adjacent["dornish-marches"]
    plan(state, {"the-reach": "march", "highgarden": "march-minus-one", "dornish-marches": "defense-plus-one",
                 "oldtown": "defense-plus-one", "three-towers": "support"})
    tyrell, baratheon = seat(state, "tyrell"), seat(state, "baratheon")
    asked = 0
    for origin, target in (("the-reach", "dornish-marches"), ("highgarden", "oldtown")):
        first_listed_until(state, lambda: state.decisions.top is not None and state.decisions.top.kind == "march"
                           and ENGINE.to_act(state) == {tyrell})
        play(state, tyrell, "march", area=origin)
        play(state, tyrell, "move", unit="knight", to=target)
        play(state, tyrell, "end_march", power=False)
        assert state.decisions.top.kind == "support" and ENGINE.to_act(state) == {baratheon}
        play(state, baratheon, "support", side="defender")
        asked += 1
    assert asked == 2 and state.orders["three-towers"].token == "support"


# -- the rulebook, rule by rule -------------------------------------------------------------

SEED: dict[str, list[str]] = {
    "Unit: a ship, footman, knight or siege engine; garrisons, neutral forces and influence tokens are not units": [
        "test_starting_units_total_and_pool_limits",
        "test_a_garrison_alone_still_fights_and_the_house_plays_a_card",
    ],
    "Area: a sea area or a land area": [
        "test_the_map_has_58_areas_38_land_12_sea_and_8_ports",
    ],
    "Home area: a land area with its House's printed shield": [
        "test_each_house_has_a_stronghold_home_area_marked_with_its_sigil",
    ],
    "Turn order: the order of the Iron Throne track, position 1 first": [
        "test_raids_resolve_first_in_iron_throne_order",
        "test_each_house_finishes_all_its_mustering_before_the_next_in_turn_order",
    ],
    "Army: two or more friendly units in one area; a single unit is no army and unaffected by supply": [
        "test_a_single_unit_is_no_army_and_never_limited_by_supply",
        "test_supply_recounts_the_barrels_and_the_house_reconciles_by_destroying_units_of_its_choice",
    ],
    "Available power: each House receives five Power tokens at setup; the Power Pool is not available": [
        "test_setup_gives_five_power_tokens_supply_positions_and_garrisons",
        "test_every_bid_goes_to_the_power_pool_and_bids_stay_hidden_until_all_are_in",
    ],
    "Collect, receive, discard power: from and to the Power Pool, own insignia only": [
        "test_power_gains_stop_at_twenty_tokens_per_house",
        "test_raiding_consolidate_power_takes_a_power_token_from_the_victim",
    ],
    "Destroy: a destroyed unit returns to its player's available units": [
        "test_a_destroyed_unit_returns_to_its_house_s_available_units",
    ],
    "Embattled area: the area in which a combat takes place": [
        "test_the_higher_total_wins_and_the_winner_s_swords_cause_casualties",
    ],
    "The game lasts 10 rounds of Westeros, Planning and Action phases": [
        "test_a_round_is_planning_then_action_then_clean_up_and_the_game_lasts_ten_rounds",
    ],
    "The Westeros phase is skipped in game round 1": [
        "test_the_westeros_phase_is_skipped_in_round_one_and_played_from_round_two",
        "test_round_one_starts_in_planning_without_a_westeros_phase",
    ],
    "Westeros cards: the top card of each deck is drawn, then resolved in order I, II, III": [
        "test_the_phase_draws_the_top_card_of_each_deck_and_puts_it_at_the_bottom",
        "test_the_cards_resolve_in_deck_order_and_planning_follows",
    ],
    "Planning: each player simultaneously assigns facedown orders to each area with his units": [
        "test_every_house_must_order_every_area_holding_its_units_before_ready",
        "test_orders_are_revealed_together_when_every_house_is_ready",
        "test_others_see_how_many_orders_a_house_placed_and_who_is_ready_but_never_their_kinds",
        "test_while_planning_every_view_shows_where_each_house_s_orders_lie_face_down_and_only_its_own_kinds",
    ],
    "Action: the orders are resolved": [
        "test_march_step_follows_raids_and_precedes_consolidation",
    ],
    "Wildling icons advance the Wildling Threat token one space each": [
        "test_the_wildling_track_advances_two_per_icon_on_the_drawn_cards",
    ],
    "Seven areas with a castle or stronghold win at once": [
        "test_seven_castles_win_at_once",
    ],
    "After round 10 the most castles and strongholds win": [
        "test_after_round_ten_most_castles_win_then_land_areas_then_supply_then_iron_throne",
    ],
    "Westeros step 1: advance the round marker; from the 10th space the game is over instead": [
        "test_the_game_ends_after_round_ten_without_another_westeros_phase",
    ],
    "Westeros step 3: the track reaching 12 means a wildling attack at once, surplus icons ignored": [
        "test_reaching_twelve_starts_an_attack_at_once_and_surplus_icons_are_ignored",
    ],
    "Supply: each House in turn order counts its supply icons and moves its Supply token": [
        "test_supply_recounts_the_barrels_and_the_house_reconciles_by_destroying_units_of_its_choice",
        "test_supply_moves_the_token_up_as_well",
    ],
    "Supply example: Lannister drops from 5 to 3 and destroys a footman at The Twins and at Harrenhal": [
        "test_supply_recounts_the_barrels_and_the_house_reconciles_by_destroying_units_of_its_choice",
    ],
    "The Supply track's flags: the number and sizes of armies per supply level (3: armies of 3, 2, 2, 2)": [
        "test_supply_limits_grow_with_the_supply_level",
        "test_supply_recounts_the_barrels_and_the_house_reconciles_by_destroying_units_of_its_choice",
    ],
    "Armies beyond new supply limits are reduced at once by removing units": [
        "test_supply_recounts_the_barrels_and_the_house_reconciles_by_destroying_units_of_its_choice",
        "test_reconciling_refuses_a_unit_outside_an_army_by_the_supply_rule",
    ],
    "Armies are reconciled only when the Supply track is adjusted": [
        "test_supply_icons_won_in_the_action_phase_move_the_supply_track_only_when_a_supply_card_says",
        "test_rattleshirt_s_raiders_loss_lowers_supply_and_the_house_reconciles",
    ],
    "No action may exceed the supply limit (mustering, marching, retreating)": [
        "test_a_march_may_not_exceed_the_supply_limit",
        "test_mustering_respects_supply_as_in_the_seed_s_example",
        "test_a_retreat_that_breaks_supply_lets_the_retreating_house_choose_the_units_it_loses",
    ],
    "Fewer or smaller armies than the limit are allowed": [
        "test_a_house_may_field_fewer_and_smaller_armies_than_its_supply_allows",
    ],
    "A knight or a siege engine counts as one unit for supply": [
        "test_knights_and_siege_engines_count_as_one_unit_for_supply",
    ],
    "Mustering: in turn order, each player recruits in each area he controls with a castle or stronghold": [
        "test_mustering_the_seed_example_lannisport_harrenhal_and_riverrun",
        "test_each_house_finishes_all_its_mustering_before_the_next_in_turn_order",
    ],
    "Strongholds give 2 mustering points, castles 1": [
        "test_strongholds_give_two_mustering_points_castles_one_and_other_areas_none",
    ],
    "Costs: footman 1, knight 2 (1 upgraded), ship 1, siege engine 2 (1 upgraded)": [
        "test_mustering_costs_a_footman_1_a_knight_2_a_siege_engine_2_a_ship_1_and_an_upgrade_1",
        "test_mustering_the_seed_example_lannisport_harrenhal_and_riverrun",
    ],
    "Each player resolves all his mustering before the next player starts": [
        "test_each_house_finishes_all_its_mustering_before_the_next_in_turn_order",
    ],
    "A mustered unit comes from unused units into the mustering area": [
        "test_mustering_the_seed_example_lannisport_harrenhal_and_riverrun",
        "test_starting_units_total_and_pool_limits",
    ],
    "Ships are mustered only into a connected port or an adjacent sea, never a sea with enemy ships": [
        "test_mustering_puts_no_ship_in_a_sea_holding_enemy_ships",
        "test_mustering_the_seed_example_lannisport_harrenhal_and_riverrun",
    ],
    "A footman in a mustering area may be upgraded to a knight or siege engine for 1 point": [
        "test_mustering_the_seed_example_lannisport_harrenhal_and_riverrun",
    ],
    "No unit may be mustered beyond the supply limit; ships in one sea are an army": [
        "test_mustering_the_seed_example_lannisport_harrenhal_and_riverrun",
        "test_two_ships_in_one_sea_are_an_army_under_the_supply_limits",
    ],
    "Mustering points not spent are lost": [
        "test_mustering_points_left_in_an_area_are_lost",
    ],
    "Footmen, knights and siege engines are never mustered in ports or seas": [
        "test_land_units_are_never_mustered_in_ports_or_seas",
    ],
    "Mustering example: Lannisport, Harrenhal, Riverrun; none at Stoney Sept": [
        "test_mustering_the_seed_example_lannisport_harrenhal_and_riverrun",
    ],
    "Clash of Kings: hidden simultaneous bids, revealed together": [
        "test_every_bid_goes_to_the_power_pool_and_bids_stay_hidden_until_all_are_in",
        "test_bids_are_secret_until_all_are_in",
        "test_bid_results_show_each_track_s_bids_its_order_and_who_broke_the_tie_after_the_reveal_only",
    ],
    "The highest bid takes position 1 of the track, the second highest position 2, and so on": [
        "test_clash_of_kings_the_seed_example_greyjoy_breaks_the_fiefdoms_tie",
    ],
    "Ties in bidding are decided by the Iron Throne holder, in the order of his choice": [
        "test_clash_of_kings_the_seed_example_greyjoy_breaks_the_fiefdoms_tie",
    ],
    "All bid power is discarded to the Power Pool": [
        "test_every_bid_goes_to_the_power_pool_and_bids_stay_hidden_until_all_are_in",
    ],
    "Position 1 takes the track's Dominance token": [
        "test_clash_of_kings_the_seed_example_greyjoy_breaks_the_fiefdoms_tie",
        "test_setup_orders_the_influence_tracks_and_hands_out_dominance_by_first_place",
    ],
    "Bidding runs on the Iron Throne track, then Fiefdoms, then King's Court": [
        "test_clash_of_kings_bids_for_the_iron_throne_then_the_fiefdoms_then_the_king_s_court",
    ],
    "Clash of Kings example: five players, Fiefdoms bids 4/3/3/2/0, Greyjoy decides the tie": [
        "test_clash_of_kings_the_seed_example_greyjoy_breaks_the_fiefdoms_tie",
    ],
    "The Valyrian Steel Blade is used once a round and refreshed at the end of the Action phase": [
        "test_the_valyrian_steel_blade_adds_one_once_a_round",
        "test_the_blade_is_offered_only_when_unused_this_round",
        "test_clean_up_removes_orders_stands_routed_units_and_refreshes_raven_and_blade",
    ],
    "The King's Court track gives special orders by its stars; the overlay for 3 and 4 players": [
        "test_special_orders_are_limited_by_king_s_court_stars_six_players",
        "test_three_and_four_players_use_the_king_s_court_overlay",
    ],
    "The Iron Throne holder decides all ties but those in combat and for the winner": [
        "test_clash_of_kings_the_seed_example_greyjoy_breaks_the_fiefdoms_tie",
        "test_a_tie_for_lowest_bidder_is_broken_by_the_iron_throne_holder",
        "test_ties_go_to_the_higher_house_on_the_fiefdoms_track",
    ],
    "The Iron Throne token changes hands only once the Iron Throne track's bidding is resolved": [
        "test_ties_on_the_iron_throne_track_are_broken_by_the_holder_before_the_track_changes",
    ],
    "Higher on the Fiefdoms track wins combat ties": [
        "test_ties_go_to_the_higher_house_on_the_fiefdoms_track",
    ],
    "The Messenger Raven: swap an order, or look at the top wildling card": [
        "test_the_messenger_raven_holder_may_swap_an_order_within_the_star_limit",
        "test_the_raven_holder_may_look_at_the_top_wildling_card_and_bury_it",
        "test_the_raven_holder_may_keep_the_wildling_card_on_top_and_still_knows_it",
    ],
}
"""Each rule sentence of the seed (the rulebook's first part), in its order, and its tests."""

REFERENCE: dict[str, list[str]] = {
    "§0 ten rounds, round 1 without Westeros": [
        "test_the_westeros_phase_is_skipped_in_round_one_and_played_from_round_two",
    ],
    "§0 immediate win at seven castles, checked at any time": [
        "test_seven_castles_win_at_once",
        "test_random_games_keep_every_invariant_and_end_after_ten_rounds_or_seven_castles",
    ],
    "§0 control: units, then a Power token, then a home area's sigil; a port goes with its land": [
        "test_control_goes_to_units_then_a_power_token_then_the_home_sigil_and_a_port_follows_its_land",
    ],
    "§1.1 one order on every area with units, sea and ports included": [
        "test_every_house_must_order_every_area_holding_its_units_before_ready",
        "test_orders_can_only_go_on_areas_holding_the_house_s_units",
    ],
    "§1.1 fifteen tokens, each once a round": [
        "test_each_house_has_fifteen_order_tokens_three_of_each_kind_one_special_each",
        "test_each_order_token_is_used_at_most_as_often_as_the_house_has_it",
    ],
    "§1.1 special orders by King's Court stars": [
        "test_special_orders_are_limited_by_king_s_court_stars_six_players",
        "test_three_and_four_players_use_the_king_s_court_overlay",
    ],
    "§1.1 Westeros III restrictions": [
        "test_restricted_orders_cannot_be_placed",
        "test_westeros_three_restrictions_bar_their_orders_this_round",
    ],
    "§1.1 routed units do not stop an order": [
        "test_routed_units_do_not_stop_an_order_from_being_placed",
    ],
    "§1.2 reveal all orders together": [
        "test_orders_are_revealed_together_when_every_house_is_ready",
    ],
    "§1.3 the Messenger Raven": [
        "test_the_messenger_raven_holder_may_swap_an_order_within_the_star_limit",
        "test_the_raven_swap_respects_restrictions_and_stars",
        "test_the_raven_holder_may_look_at_the_top_wildling_card_and_bury_it",
    ],
    "§2 raids, marches, consolidate power, in Iron Throne order, one order per turn": [
        "test_raids_resolve_first_in_iron_throne_order",
        "test_march_step_follows_raids_and_precedes_consolidation",
    ],
    "§2 a house without an order of the step is skipped": [
        "test_a_house_without_orders_of_the_current_kind_is_skipped",
    ],
    "§2 clean-up: orders removed, routed units stand, Raven and Blade refreshed, round 10 ends": [
        "test_clean_up_removes_orders_stands_routed_units_and_refreshes_raven_and_blade",
        "test_the_game_ends_after_round_ten_without_another_westeros_phase",
    ],
    "§2.1 what a raid removes; a special raid also Defense": [
        "test_a_raid_removes_an_adjacent_enemy_support_order",
        "test_a_plain_raid_cannot_remove_a_defense_order_but_a_special_raid_can",
    ],
    "§2.1 raiding Consolidate Power steals a Power token": [
        "test_raiding_consolidate_power_takes_a_power_token_from_the_victim",
    ],
    "§2.1 who raids where (land, ships, ports)": [
        "test_land_units_cannot_raid_a_sea_and_a_port_is_raided_only_from_its_sea",
    ],
    "§2.2 a march splits units into several areas, step by step": [
        "test_a_march_moves_units_step_by_step_and_ends_with_supply_checked",
    ],
    "§2.2 land units to land, ships to seas and own ports": [
        "test_ships_enter_seas_and_only_ports_their_house_controls",
        "test_ships_in_a_port_do_not_carry_and_land_units_never_enter_the_sea",
    ],
    "§2.2 ship transport along a chain of own ships": [
        "test_ships_carry_land_units_along_a_chain_of_own_ships",
    ],
    "§2.2 one attack per march": [
        "test_only_one_attack_per_march_order",
    ],
    "§2.2 a Power token alone is no combat; a garrisoned home is": [
        "test_entering_an_area_holding_only_an_enemy_power_token_is_no_attack_and_returns_the_token",
        "test_an_enemy_home_with_only_its_garrison_is_attacked",
    ],
    "§2.2 supply after every move": [
        "test_a_march_may_not_exceed_the_supply_limit",
    ],
    "§2.2 leaving a Power token": [
        "test_leaving_a_power_token_keeps_control_of_an_emptied_land_area",
        "test_a_power_token_cannot_be_left_while_units_remain",
    ],
    "§2.2 Ser Loras: the march order moves in": [
        "test_ser_loras_moves_the_winning_march_order_into_the_conquered_area",
    ],
    "§2.2 neutral forces: strength + march + support against the token": [
        "test_a_neutral_force_falls_to_strength_at_least_its_value",
        "test_a_neutral_force_too_strong_leaves_the_marchers_at_home",
        "test_support_counts_against_a_neutral_force",
        "test_the_breakdown_of_an_attack_on_a_neutral_force_shows_the_force",
    ],
    "§2.2 blocked areas": [
        "test_blocked_areas_are_never_entered",
        "test_three_players_block_the_south_and_absent_homes",
    ],
    "§2.3 consolidate power by area kind": [
        "test_consolidate_power_gains_one_plus_crowns_on_land_and_nothing_at_sea",
        "test_consolidate_power_in_a_port_gains_one_unless_enemy_ships_are_in_its_sea",
    ],
    "§2.3 special consolidate power musters": [
        "test_special_consolidate_power_may_muster_in_a_castle_area",
    ],
    "§2.4 mustering points, costs, limits": [
        "test_mustering_costs_a_footman_1_a_knight_2_a_siege_engine_2_a_ship_1_and_an_upgrade_1",
        "test_mustering_puts_no_ship_in_a_sea_holding_enemy_ships",
        "test_starting_units_total_and_pool_limits",
        "test_mustering_respects_supply_as_in_the_seed_s_example",
    ],
    "§3.1 support: adjacent, declared by each supporter, land not at sea, ports only their sea": [
        "test_support_adds_the_supporting_units_and_the_order_s_bonus",
        "test_a_third_house_may_support_either_side_or_nobody",
        "test_land_units_cannot_support_a_sea_combat",
        "test_the_breakdown_counts_support_as_each_supporter_declares_it",
    ],
    "§3.2 strengths: footman 1, knight 2, ship 1, siege 4 against castles, routed 0; orders; garrison": [
        "test_siege_engines_count_four_only_against_a_castle",
        "test_siege_engines_count_nothing_against_an_area_without_castle",
        "test_routed_units_count_nothing_and_are_destroyed_if_they_must_retreat_again",
        "test_the_home_garrison_defends_its_house",
        "test_the_combat_breakdown_is_filled_step_by_step_and_ends_at_the_combat_strength",
    ],
    "§3.3 house cards chosen in secret, revealed together; texts by timing": [
        "test_house_cards_are_hidden_until_both_combatants_have_chosen",
        "test_a_house_card_must_come_from_the_hand",
        "test_tyrion_cancels_the_opponent_s_card_which_returns_to_hand_and_another_is_chosen",
        "test_mace_tyrell_destroys_a_defending_footman_before_strengths_are_counted",
    ],
    "§3.4 the Valyrian Steel Blade": [
        "test_the_valyrian_steel_blade_adds_one_once_a_round",
    ],
    "§3.5 the higher total wins; ties by Fiefdoms": [
        "test_the_higher_total_wins_and_the_winner_s_swords_cause_casualties",
        "test_ties_go_to_the_higher_house_on_the_fiefdoms_track",
    ],
    "§3.6 casualties: swords less fortifications, the loser chooses": [
        "test_casualties_are_swords_minus_fortifications_and_the_loser_picks_them",
        "test_fortifications_cancel_swords",
        "test_the_loser_chooses_a_casualty_among_different_units",
        "test_the_blackfish_prevents_sword_casualties",
    ],
    "§3.7 retreats: routed, legal areas, supply, none → destroyed, siege engines destroyed": [
        "test_the_losing_defender_retreats_routed_and_the_attacker_moves_in",
        "test_a_losing_defender_with_no_legal_retreat_is_destroyed",
        "test_a_defending_siege_engine_cannot_retreat",
        "test_a_retreat_that_breaks_supply_lets_the_retreating_house_choose_the_units_it_loses",
        "test_an_attacker_going_back_beyond_its_supply_chooses_the_units_it_loses",
        "test_arianne_keeps_the_winning_attacker_out",
    ],
    "§3.8 cards to the discard pile, hands back when all seven are used; ports replaced": [
        "test_house_cards_go_to_the_discard_pile_and_come_back_when_all_seven_are_used",
        "test_the_new_holder_of_a_port_s_land_replaces_the_captured_ships_with_its_own",
        "test_captured_ships_not_replaced_are_destroyed",
    ],
    "§4 the wildling track, attacks, bids, highest and lowest bidders, ties, the deck": [
        "test_the_night_s_watch_wins_with_bids_reaching_the_attack_and_the_track_goes_to_zero",
        "test_the_wildlings_win_below_the_attack_and_the_track_moves_back_two_spaces",
        "test_a_tie_for_highest_bidder_is_broken_by_the_iron_throne_holder",
        "test_the_top_wildling_card_is_hidden_from_every_view_but_the_raven_s_who_looked",
        "test_every_wildling_card_of_the_data_has_an_effect",
        "test_bid_results_of_a_wildling_attack_rank_the_bidders_and_are_replaced_by_the_next_westeros_phase",
    ],
    "§4 Preemptive Raid's second attack": [
        "test_preemptive_raid_win_attacks_again_at_six_without_the_highest_bidder",
    ],
    "§5 the Westeros phase and every card": [
        "test_every_westeros_card_in_the_data_has_an_effect_and_each_deck_holds_ten",
        "test_winter_is_coming_shuffles_its_deck_and_draws_a_replacement",
        "test_a_throne_of_blades_lets_the_iron_throne_holder_choose_supply_mustering_or_nothing",
        "test_dark_wings_dark_words_lets_the_raven_holder_choose_and_its_power_counts_crowns_only",
        "test_put_to_the_sword_lets_the_blade_holder_choose_the_restriction",
        "test_game_of_thrones_gives_power_per_crown_and_per_port_with_a_ship",
        "test_wildlings_attack_card_attacks_at_the_track_s_value",
        "test_last_days_of_summer_does_nothing_but_its_icon",
    ],
    "§5 Clash of Kings bidding": [
        "test_clash_of_kings_bids_for_the_iron_throne_then_the_fiefdoms_then_the_king_s_court",
        "test_clash_of_kings_the_seed_example_greyjoy_breaks_the_fiefdoms_tie",
    ],
    "§5 supply limits": [
        "test_supply_limits_grow_with_the_supply_level",
        "test_two_ships_in_one_sea_are_an_army_under_the_supply_limits",
    ],
    "§6 the end and its tie-breakers": [
        "test_after_round_ten_most_castles_win_then_land_areas_then_supply_then_iron_throne",
        "test_after_round_ten_land_areas_break_a_castle_tie",
    ],
    "§7.1–2 ports": [
        "test_the_new_holder_of_a_port_s_land_replaces_the_captured_ships_with_its_own",
        "test_replacing_captured_ships_respects_supply_limits",
    ],
    "§7.3–4 ship retreats, no legal retreat": [
        "test_a_losing_defender_with_no_legal_retreat_is_destroyed",
    ],
    "§7.5 several combats, the Blade once a round": [
        "test_the_blade_is_offered_only_when_unused_this_round",
    ],
    "§7.6 one support order in every adjacent combat": [
        "test_one_support_order_backs_every_combat_next_to_it_in_a_round",
    ],
    "§7.7 supporting an attack on a neutral force": [
        "test_support_counts_against_a_neutral_force",
    ],
    "§7.8 an emptied area's order goes": [
        "test_leaving_a_power_token_keeps_control_of_an_emptied_land_area",
    ],
    "§7.10 unit shortages: Renly, Crow Killers": [
        "test_renly_baratheon_needs_a_knight_in_the_pool",
        "test_crow_killers_loss_with_too_few_footmen_lets_the_lowest_bidder_choose_which_knights_become_footmen",
    ],
    "§7.11–12 destroyed units break control": [
        "test_destroying_the_last_unit_of_an_area_leaves_it_without_a_controller",
    ],
    "§7.13 dominance tokens follow first places at once": [
        "test_doran_martell_moves_the_opponent_to_the_last_place_and_the_dominance_token_follows",
        "test_a_king_beyond_the_wall_win_puts_the_highest_first_on_a_track_of_its_choice",
    ],
    "§7.14 absent houses' homes; blocked areas": [
        "test_three_players_block_the_south_and_absent_homes",
        "test_four_and_five_players_leave_no_blocked_area",
    ],
    "§7.15 twenty Power tokens at most": [
        "test_power_gains_stop_at_twenty_tokens_per_house",
    ],
}
"""Each point of the reference summary of the rules beyond the seed (Rules §0–§7), and its tests."""


def every_test_name() -> set[str]:
    here = Path(__file__).parent
    names: set[str] = set()
    for path in here.glob("test_*.py"):
        module = importlib.import_module(f"{__package__}.{path.stem}")
        names.update(n for n, f in inspect.getmembers(module, inspect.isfunction) if n.startswith("test_"))
    return names


def test_every_rule_names_tests_that_exist():
    known = every_test_name()
    missing = sorted({t for table in (SEED, REFERENCE) for tests in table.values() for t in tests} - known)
    assert not missing, missing
    assert all(tests for table in (SEED, REFERENCE) for tests in table.values())
