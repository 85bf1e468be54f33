"""The action phase: raids, marches, consolidate power, clean-up and victory."""

from __future__ import annotations

import pytest

from engines.base import IllegalMove
from engines.game_of_thrones import ENGINE
from engines.game_of_thrones import rules as R
from engines.game_of_thrones import shared as E
from engines.game_of_thrones.state import CONSOLIDATE, MARCH, RAID

from .conftest import plan, play, position, seat


def test_raids_resolve_first_in_iron_throne_order():
    # Iron Throne (6 players): Baratheon, Lannister, Stark, ...
    state = position(6, {"kingswood": ("baratheon", ["footman"]), "kings-landing": ("lannister", ["footman"]),
                         "blackwater": ("stark", ["footman"])})
    plan(state, {"kingswood": "raid", "kings-landing": "raid", "blackwater": "support"})
    assert state.step == RAID and ENGINE.to_act(state) == {seat(state, "baratheon")}


def test_a_raid_removes_an_adjacent_enemy_support_order():
    state = position(6, {"kingswood": ("baratheon", ["footman"]), "the-reach": ("lannister", ["footman"])})
    plan(state, {"kingswood": "raid", "the-reach": "support"})
    play(state, "baratheon", "raid", area="kingswood", target="the-reach")
    assert "the-reach" not in state.orders and "kingswood" not in state.orders


def test_a_plain_raid_cannot_remove_a_defense_order_but_a_special_raid_can():
    state = position(6, {"kingswood": ("baratheon", ["footman"]), "the-reach": ("lannister", ["footman"])})
    plan(state, {"kingswood": "raid", "the-reach": "defense-plus-one"})
    assert ENGINE.legal_moves(state, seat(state, "baratheon")) == [
        {"type": "raid", "area": "kingswood", "target": ""}]
    with pytest.raises(IllegalMove) as err:
        play(state, "baratheon", "raid", area="kingswood", target="the-reach")
    assert err.value.rule == E.RULE_RAID
    state = position(6, {"kingswood": ("baratheon", ["footman"]), "the-reach": ("lannister", ["footman"])})
    plan(state, {"kingswood": "special-raid", "the-reach": "defense-plus-one"})
    play(state, "baratheon", "raid", area="kingswood", target="the-reach")
    assert "the-reach" not in state.orders


def test_raiding_consolidate_power_takes_a_power_token_from_the_victim():
    state = position(6, {"kingswood": ("baratheon", ["footman"]), "the-reach": ("lannister", ["footman"])})
    plan(state, {"kingswood": "raid", "the-reach": "consolidate-power"})
    play(state, "baratheon", "raid", area="kingswood", target="the-reach")
    assert state.power[seat(state, "baratheon")] == 6 and state.power[seat(state, "lannister")] == 4


def test_land_units_cannot_raid_a_sea_and_a_port_is_raided_only_from_its_sea():
    state = position(6, {"lannisport": ("lannister", ["footman"]), "the-golden-sound": ("greyjoy", ["ship"]),
                         "port-of-lannisport": ("lannister", ["ship"]), "riverrun": ("stark", ["footman"])})
    plan(state, {"lannisport": "raid", "the-golden-sound": "support", "port-of-lannisport": "support",
                 "riverrun": "raid"})
    # Lannisport touches the Golden Sound and its port, but land units raid only land
    assert R.raid_targets(state, seat(state, "lannister"), "lannisport") == ["riverrun"]
    # Stark in Riverrun touches Lannisport and the Golden Sound, not the port
    assert R.raid_targets(state, seat(state, "stark"), "riverrun") == ["lannisport"]
    state.orders["the-golden-sound"].token = "raid"
    assert "port-of-lannisport" in R.raid_targets(state, seat(state, "greyjoy"), "the-golden-sound")


def test_a_march_moves_units_step_by_step_and_ends_with_supply_checked():
    state = position(6, {"winterfell": ("stark", ["footman", "knight"])})
    plan(state, {"winterfell": "march"})
    stark = seat(state, "stark")
    play(state, stark, "march", area="winterfell")
    play(state, stark, "move", unit="knight", to="castle-black")
    play(state, stark, "move", unit="footman", to="karhold")
    assert {"type": "end_march", "power": True} not in ENGINE.legal_moves(state, stark)
    play(state, stark, "end_march", power=False)
    assert state.owner["castle-black"] == stark and state.owner["karhold"] == stark
    assert "winterfell" not in state.units
    # Winterfell is Stark's home: no Power token is needed there, and none was placed
    assert "winterfell" not in state.tokens and R.controller(state, "winterfell") == stark


def test_leaving_a_power_token_keeps_control_of_an_emptied_land_area():
    state = position(6, {"white-harbor": ("stark", ["footman"])})
    plan(state, {"white-harbor": "march"})
    stark = seat(state, "stark")
    play(state, stark, "march", area="white-harbor")
    play(state, stark, "move", unit="footman", to="widows-watch")
    play(state, stark, "end_march", power=True)
    assert state.tokens["white-harbor"] == stark and state.power[stark] == 4
    assert R.controller(state, "white-harbor") == stark


def test_a_power_token_cannot_be_left_while_units_remain():
    state = position(6, {"white-harbor": ("stark", ["footman", "footman"])})
    plan(state, {"white-harbor": "march"})
    stark = seat(state, "stark")
    play(state, stark, "march", area="white-harbor")
    play(state, stark, "move", unit="footman", to="widows-watch")
    with pytest.raises(IllegalMove) as err:
        play(state, stark, "end_march", power=True)
    assert err.value.rule == E.RULE_POWER_TOKEN


def test_a_march_may_not_exceed_the_supply_limit():
    # Stark at supply 0: two armies of 2 at most
    state = position(6, {"winterfell": ("stark", ["footman", "footman"]),
                         "castle-black": ("stark", ["footman", "footman"])}, supply=[0, 2, 2, 2, 2, 2])
    plan(state, {"winterfell": "march", "castle-black": "defense-plus-one"})
    stark = seat(state, "stark")
    play(state, stark, "march", area="winterfell")
    play(state, stark, "move", unit="footman", to="castle-black")
    assert {"type": "end_march", "power": False} not in ENGINE.legal_moves(state, stark)
    with pytest.raises(IllegalMove) as err:
        play(state, stark, "end_march", power=False)
    assert err.value.rule == E.RULE_SUPPLY
    play(state, stark, "undo")
    play(state, stark, "end_march", power=False)


def test_only_one_attack_per_march_order():
    state = position(6, {"the-reach": ("tyrell", ["knight", "knight"]), "blackwater": ("lannister", ["footman"]),
                         "kingswood": ("baratheon", ["footman"])})
    plan(state, {"the-reach": "march", "blackwater": "defense-plus-one", "kingswood": "defense-plus-one"})
    tyrell = seat(state, "tyrell")
    play(state, tyrell, "march", area="the-reach")
    play(state, tyrell, "move", unit="knight", to="blackwater")
    with pytest.raises(IllegalMove) as err:
        play(state, tyrell, "move", unit="knight", to="kingswood")
    assert err.value.rule == E.RULE_ONE_ATTACK
    play(state, tyrell, "move", unit="knight", to="blackwater")


def test_ships_carry_land_units_along_a_chain_of_own_ships():
    state = position(6, {"dragonstone": ("baratheon", ["footman"]), "shipbreaker-bay": ("baratheon", ["ship"]),
                         "the-narrow-sea": ("baratheon", ["ship"])})
    reach = R.destinations(state, seat(state, "baratheon"), "dragonstone", "footman")
    assert {"kingswood", "storms-end", "crackclaw-point", "the-fingers", "white-harbor", "the-eyrie"} <= reach


def test_ships_in_a_port_do_not_carry_and_land_units_never_enter_the_sea():
    state = position(6, {"dragonstone": ("baratheon", ["footman"]),
                         "port-of-dragonstone": ("baratheon", ["ship"])})
    assert R.destinations(state, seat(state, "baratheon"), "dragonstone", "footman") == set()


def test_ships_enter_seas_and_only_ports_their_house_controls():
    state = position(6, {"the-golden-sound": ("greyjoy", ["ship"]), "lannisport": ("lannister", ["footman"])})
    reach = R.destinations(state, seat(state, "greyjoy"), "the-golden-sound", "ship")
    assert "port-of-lannisport" not in reach and "ironmans-bay" in reach
    state.owner["lannisport"] = seat(state, "greyjoy")
    assert "port-of-lannisport" in R.destinations(state, seat(state, "greyjoy"), "the-golden-sound", "ship")


def test_blocked_areas_are_never_entered():
    state = position(3, {"the-reach": ("lannister", ["footman"])})
    assert "highgarden" not in R.destinations(state, seat(state, "lannister"), "the-reach", "footman")
    assert "dornish-marches" not in R.destinations(state, seat(state, "lannister"), "the-reach", "footman")


def test_entering_an_area_holding_only_an_enemy_power_token_is_no_attack_and_returns_the_token():
    state = position(6, {"the-reach": ("tyrell", ["footman"])}, tokens={"blackwater": 1})
    plan(state, {"the-reach": "march"})
    tyrell = seat(state, "tyrell")
    assert not R.is_attack(state, tyrell, "blackwater")
    play(state, tyrell, "march", area="the-reach")
    play(state, tyrell, "move", unit="footman", to="blackwater")
    play(state, tyrell, "end_march", power=False)
    assert "blackwater" not in state.tokens and state.owner["blackwater"] == tyrell
    assert R.power_pool(state, 1) == 15


def test_an_enemy_home_with_only_its_garrison_is_attacked():
    state = position(6, {"searoad-marches": ("tyrell", ["knight"]), "riverrun": ("stark", ["footman"])})
    assert R.is_attack(state, seat(state, "tyrell"), "lannisport")
    assert R.controller(state, "lannisport") == seat(state, "lannister")


def test_a_neutral_force_falls_to_strength_at_least_its_value():
    state = position(6, {"kingswood": ("baratheon", ["knight", "knight", "footman"])})
    plan(state, {"kingswood": "march"})
    b = seat(state, "baratheon")
    play(state, b, "march", area="kingswood")
    for unit in ("knight", "knight", "footman"):
        play(state, b, "move", unit=unit, to="kings-landing")
    play(state, b, "end_march", power=False)
    assert "kings-landing" not in state.neutral and state.owner["kings-landing"] == b


def test_a_neutral_force_too_strong_leaves_the_marchers_at_home():
    state = position(6, {"kingswood": ("baratheon", ["knight", "footman"])})
    plan(state, {"kingswood": "march"})
    b = seat(state, "baratheon")
    play(state, b, "march", area="kingswood")
    play(state, b, "move", unit="knight", to="kings-landing")
    play(state, b, "move", unit="footman", to="kings-landing")
    play(state, b, "end_march", power=False)
    assert state.neutral["kings-landing"] == 5 and len(state.units["kingswood"]) == 2


def test_support_counts_against_a_neutral_force():
    state = position(6, {"kingswood": ("baratheon", ["knight", "footman"]),
                         "blackwater": ("lannister", ["knight"])})
    plan(state, {"kingswood": "march", "blackwater": "support-plus-one"})
    b = seat(state, "baratheon")
    play(state, b, "march", area="kingswood")
    play(state, b, "move", unit="knight", to="kings-landing")
    play(state, b, "move", unit="footman", to="kings-landing")
    play(state, b, "end_march", power=False)
    assert ENGINE.legal_moves(state, seat(state, "lannister")) == [
        {"type": "support", "side": "attacker"}, {"type": "support", "side": "none"}]
    play(state, "lannister", "support", side="attacker")  # 3 + 2 + 1 = 6 >= 5
    assert state.owner["kings-landing"] == b


def test_consolidate_power_gains_one_plus_crowns_on_land_and_nothing_at_sea():
    state = position(6, {"kingswood": ("baratheon", ["footman"]), "shipbreaker-bay": ("baratheon", ["ship"])})
    plan(state, {"kingswood": "consolidate-power", "shipbreaker-bay": "consolidate-power"})
    b = seat(state, "baratheon")
    assert state.step == CONSOLIDATE
    play(state, b, "consolidate", area="kingswood")
    assert state.power[b] == 7
    play(state, b, "consolidate", area="shipbreaker-bay")
    assert state.power[b] == 7


def test_consolidate_power_in_a_port_gains_one_unless_enemy_ships_are_in_its_sea():
    state = position(6, {"port-of-dragonstone": ("baratheon", ["ship"]), "dragonstone": ("baratheon", ["footman"]),
                         "shipbreaker-bay": ("greyjoy", ["ship"])})
    assert R.crowns_power(state, seat(state, "baratheon"), "port-of-dragonstone") == 0
    del state.units["shipbreaker-bay"], state.owner["shipbreaker-bay"]
    assert R.crowns_power(state, seat(state, "baratheon"), "port-of-dragonstone") == 1


def test_power_gains_stop_at_twenty_tokens_per_house():
    state = position(6, {"kingswood": ("baratheon", ["footman"])}, power=[5, 5, 19, 5, 5, 5])
    plan(state, {"kingswood": "consolidate-power"})
    play(state, "baratheon", "consolidate", area="kingswood")
    assert state.power[seat(state, "baratheon")] == 20


def test_special_consolidate_power_may_muster_in_a_castle_area():
    state = position(6, {"dragonstone": ("baratheon", ["footman"])})
    plan(state, {"dragonstone": "special-consolidate-power"})
    b = seat(state, "baratheon")
    moves = ENGINE.legal_moves(state, b)
    assert {"type": "muster", "area": "dragonstone"} in moves
    play(state, b, "muster", area="dragonstone")
    play(state, b, "recruit", unit="ship", to="shipbreaker-bay")
    play(state, b, "recruit", unit="upgrade:knight", to="dragonstone")
    assert [u.kind for u in state.units["dragonstone"]] == ["knight"]
    assert [u.kind for u in state.units["shipbreaker-bay"]] == ["ship"]
    assert state.decisions.top is None or state.decisions.top.kind != "muster"


def test_mustering_respects_supply_as_in_the_seed_s_example():
    # The seed's Mustering example, at Riverrun: Lannister (supply 3) has an army of three knights
    # there; one point places a ship in the Golden Sound (an army of two ships); the last point
    # cannot be used, the supply limit being met (armies 3, 2, 2, 2).
    state = position(6, {"riverrun": ("lannister", ["knight", "knight", "knight"]),
                         "the-golden-sound": ("lannister", ["ship"]),
                         "lannisport": ("lannister", ["footman", "footman"]),
                         "harrenhal": ("lannister", ["knight", "footman"]),
                         "ironmans-bay": ("greyjoy", ["ship"])},
                     supply=[1, 3, 2, 2, 2, 2])
    plan(state, {"riverrun": "special-consolidate-power", "the-golden-sound": "support",
                 "lannisport": "defense-plus-one", "harrenhal": "support", "ironmans-bay": "defense-plus-one"})
    lannister = seat(state, "lannister")
    play(state, lannister, "muster", area="riverrun")
    moves = ENGINE.legal_moves(state, lannister)
    assert {"type": "recruit", "unit": "ship", "to": "the-golden-sound"} in moves
    assert {"type": "recruit", "unit": "footman", "to": "riverrun"} not in moves  # an army of 4
    assert {"type": "recruit", "unit": "ship", "to": "ironmans-bay"} not in moves  # enemy ships there
    play(state, lannister, "recruit", unit="ship", to="the-golden-sound")
    assert len(state.units["the-golden-sound"]) == 2
    assert state.decisions.top is None or state.decisions.top.kind != "muster"  # the point is lost


def test_clean_up_removes_orders_stands_routed_units_and_refreshes_raven_and_blade():
    state = position(6, {"winterfell": ("stark", ["footman"])})
    state.units["winterfell"][0].routed = True
    state.blade_used = True
    plan(state, {"winterfell": "defense-plus-one"})
    assert state.round == 2 and not state.units["winterfell"][0].routed
    assert not state.blade_used and not state.raven_used and state.orders == {}


def test_seven_castles_win_at_once():
    castles = ["winterfell", "white-harbor", "moat-cailin", "the-reach", "harrenhal", "crackclaw-point"]
    state = position(6, {a: ("stark", ["footman"]) for a in castles} | {"the-twins": ("stark", ["knight"])})
    state.neutral.pop("the-eyrie")
    tokens = ["defense-plus-one", "defense-plus-one", "support", "support", "defense-plus-two",
              "support-plus-one"]
    plan(state, {**dict(zip(castles, tokens, strict=True)), "the-twins": "march"})
    stark = seat(state, "stark")
    play(state, stark, "march", area="the-twins")
    play(state, stark, "move", unit="knight", to="seagard")
    play(state, stark, "end_march", power=False)
    assert state.phase == "over" and ENGINE.result(state).winners == (stark,)
    assert ENGINE.result(state).details["ended_by"] == "seven castles"


def test_after_round_ten_most_castles_win_then_land_areas_then_supply_then_iron_throne():
    state = position(3, {"winterfell": ("stark", ["footman"]), "lannisport": ("lannister", ["footman"]),
                         "dragonstone": ("baratheon", ["footman"])}, round=10)
    plan(state, {"winterfell": "defense-plus-one", "lannisport": "defense-plus-one",
                 "dragonstone": "defense-plus-one"})
    # one castle each; Stark has Winterfell only, each one land area: supply decides (Lannister 2,
    # Baratheon 2), then the Iron Throne (Baratheon first)
    assert ENGINE.result(state).winners == (seat(state, "baratheon"),)


def test_after_round_ten_land_areas_break_a_castle_tie():
    state = position(3, {"winterfell": ("stark", ["footman"]), "karhold": ("stark", ["footman"]),
                         "lannisport": ("lannister", ["footman"]), "dragonstone": ("baratheon", ["footman"])},
                     round=10)
    plan(state, {"winterfell": "defense-plus-one", "karhold": "defense-plus-one", "lannisport": "defense-plus-one",
                 "dragonstone": "defense-plus-one"})
    assert ENGINE.result(state).winners == (seat(state, "stark"),)


def test_march_step_follows_raids_and_precedes_consolidation():
    state = position(6, {"kingswood": ("baratheon", ["footman"]), "the-reach": ("tyrell", ["footman"]),
                         "blackwater": ("lannister", ["footman"])})
    plan(state, {"kingswood": "consolidate-power", "the-reach": "march", "blackwater": "raid"})
    assert state.step == RAID
    play(state, "lannister", "raid", area="blackwater", target="")
    assert state.step == MARCH
