"""The house card texts that ask their owner, each in its timing window: Tyrion Lannister
(cancel), Aeron Damphair, Queen of Thorns and Doran Martell (immediately), Renly Baratheon and
Cersei Lannister (once the winner is known), Patchface (after the combat); and the port rule: the
new holder of a land area may replace the captured ships in its port with its own."""

from __future__ import annotations

import pytest

from engines.base import IllegalMove
from engines.game_of_thrones import ENGINE
from engines.game_of_thrones import shared as E
from engines.game_of_thrones.state import GameState, Unit

from .conftest import plan, play, position, seat
from .test_combat import attack, basic, cards


def ability(state: GameState) -> tuple[int, str, list[str]]:
    """The awaited ability decision: who decides, for which card, and the choices listed."""
    top = state.decisions.top
    assert top is not None and top.kind == "ability", top
    who = top.seats[0]
    return who, top.data["card"], [m["choice"] for m in ENGINE.legal_moves(state, who)]


# -- Tyrion Lannister: cancel -------------------------------------------------------------------

def test_tyrion_cancels_the_opponent_s_card_which_returns_to_hand_and_another_is_chosen():
    state = basic()
    attack(state, "tyrell", "the-reach", "blackwater", ["knight", "footman"])
    play(state, "tyrell", "card", card="mace-tyrell")
    play(state, "lannister", "card", card="tyrion-lannister")
    who, card, choices = ability(state)
    assert (who, card, choices) == (seat(state, "lannister"), "tyrion-lannister", ["cancel", "keep"])
    view = ENGINE.view(state, who)
    assert view["prompt"]["kind"] == "ability" and "Tyrion" in view["prompt"]["text"]
    play(state, "lannister", "ability", choice="cancel")
    tyrell = seat(state, "tyrell")
    assert "mace-tyrell" in state.hands[tyrell]
    assert ENGINE.to_act(state) == {tyrell}
    listed = [m["card"] for m in ENGINE.legal_moves(state, tyrell)]
    assert "mace-tyrell" not in listed and "ser-garlan-tyrell" in listed
    with pytest.raises(IllegalMove) as err:
        play(state, "tyrell", "card", card="mace-tyrell")
    assert err.value.rule == E.RULE_CARDS
    combat = state.combat
    cards(state, tyrell="randyll-tarly")
    # Mace was cancelled before its "immediately" text: both Lannister footmen fought
    assert combat is not None and combat.card[tyrell] == "randyll-tarly"
    assert "mace-tyrell" in state.hands[tyrell] and "mace-tyrell" not in state.discards[tyrell]
    assert "randyll-tarly" in state.discards[tyrell]


def test_tyrion_may_let_the_opponent_s_card_stand():
    state = basic()
    attack(state, "tyrell", "the-reach", "blackwater", ["knight", "footman"])
    play(state, "tyrell", "card", card="ser-garlan-tyrell")
    play(state, "lannister", "card", card="tyrion-lannister")
    play(state, "lannister", "ability", choice="keep")
    assert state.combat is None or state.combat.card[seat(state, "tyrell")] == "ser-garlan-tyrell"
    assert "ser-garlan-tyrell" in state.discards[seat(state, "tyrell")]


def test_after_tyrion_s_cancel_an_opponent_without_another_card_fights_without_one():
    state = basic()
    tyrell = seat(state, "tyrell")
    state.hands[tyrell] = ["mace-tyrell"]
    state.discards[tyrell] = ["ser-loras-tyrell", "randyll-tarly", "ser-garlan-tyrell", "margaery-tyrell",
                              "alester-florent", "queen-of-thorns"]
    attack(state, "tyrell", "the-reach", "blackwater", ["knight", "footman"])
    combat = state.combat
    play(state, "tyrell", "card", card="mace-tyrell")
    play(state, "lannister", "card", card="tyrion-lannister")
    play(state, "lannister", "ability", choice="cancel")
    cards(state)
    assert combat is not None and tyrell not in combat.card
    # 3 (no card) against 2 + 1 + 1 = 4: Lannister holds; Mace is still in hand
    assert state.owner["blackwater"] == seat(state, "lannister")
    assert state.hands[tyrell] == ["mace-tyrell"]


# -- Aeron Damphair: pay 2 to swap ---------------------------------------------------------------

def test_aeron_damphair_pays_two_power_to_swap_for_another_card():
    state = basic({"the-reach": ("greyjoy", ["knight", "footman"])}, blade_used=True)
    attack(state, "greyjoy", "the-reach", "blackwater", ["knight", "footman"])
    combat = state.combat
    play(state, "greyjoy", "card", card="aeron-damphair")
    play(state, "lannister", "card", card="the-hound")
    who, card, choices = ability(state)
    g = seat(state, "greyjoy")
    assert who == g and card == "aeron-damphair"
    assert choices[-1] == "keep" and "aeron-damphair" not in choices and "euron-crows-eye" in choices
    play(state, "greyjoy", "ability", choice="euron-crows-eye")
    cards(state)
    assert state.power[g] == 3
    assert combat is not None and combat.card[g] == "euron-crows-eye"
    assert "aeron-damphair" in state.discards[g] and "euron-crows-eye" in state.discards[g]
    # 3 + 4 = 7 against 2 + 1 + 2 = 5: Greyjoy takes Blackwater
    assert state.owner["blackwater"] == g


def test_aeron_damphair_is_not_offered_without_two_power_tokens():
    state = basic({"the-reach": ("greyjoy", ["knight", "footman"])}, blade_used=True)
    g = seat(state, "greyjoy")
    state.power[g] = 1
    attack(state, "greyjoy", "the-reach", "blackwater", ["knight", "footman"])
    play(state, "greyjoy", "card", card="aeron-damphair")
    play(state, "lannister", "card", card="the-hound")
    assert state.decisions.top is None or state.decisions.top.kind != "ability"
    assert state.power[g] == 1


# -- Queen of Thorns: remove an adjacent order ---------------------------------------------------

def test_queen_of_thorns_removes_an_opponent_s_order_next_to_the_embattled_area():
    state = basic({"stoney-sept": ("lannister", ["knight"]), "lannisport": ("lannister", ["footman"])},
                  orders={"stoney-sept": "support-plus-one", "lannisport": "consolidate-power"})
    attack(state, "tyrell", "the-reach", "blackwater", ["knight", "footman"])
    play(state, "lannister", "support", side="defender")
    combat = state.combat
    play(state, "tyrell", "card", card="queen-of-thorns")
    play(state, "lannister", "card", card="cersei-lannister")
    who, card, choices = ability(state)
    # Lannisport is not next to Blackwater; the Defense order is in the embattled area itself
    assert (who, card, choices) == (seat(state, "tyrell"), "queen-of-thorns", ["stoney-sept"])
    play(state, "tyrell", "ability", choice="stoney-sept")
    assert "stoney-sept" not in state.orders and "lannisport" in state.orders
    cards(state)
    # the removed support no longer counts: 3 + 0 = 3 against 2 + 1 + 0 = 3, Tyrell first on Fiefdoms
    assert combat is not None and combat.strength[seat(state, "lannister")] == 3


def test_queen_of_thorns_with_no_order_to_remove_does_nothing():
    state = basic()
    attack(state, "tyrell", "the-reach", "blackwater", ["knight", "footman"])
    play(state, "tyrell", "card", card="queen-of-thorns")
    play(state, "lannister", "card", card="cersei-lannister")
    assert state.decisions.top is None or state.decisions.top.kind != "ability" or \
        state.decisions.top.data["card"] != "queen-of-thorns"


# -- Doran Martell: last place of a track --------------------------------------------------------

def test_doran_martell_moves_the_opponent_to_the_last_place_and_the_dominance_token_follows():
    state = basic({"the-reach": ("martell", ["knight", "footman"])})
    attack(state, "martell", "the-reach", "blackwater", ["knight", "footman"])
    play(state, "martell", "card", card="doran-martell")
    play(state, "lannister", "card", card="the-hound")
    who, card, choices = ability(state)
    assert (who, card, choices) == (seat(state, "martell"), "doran-martell",
                                    ["iron_throne", "fiefdoms", "kings_court"])
    lannister = seat(state, "lannister")
    assert state.tracks["kings_court"][0] == lannister  # the Messenger Raven
    play(state, "martell", "ability", choice="kings_court")
    assert state.tracks["kings_court"][-1] == lannister
    assert state.tracks["kings_court"][0] == seat(state, "stark")  # Stark now holds the Raven
    assert sorted(state.tracks["kings_court"]) == list(range(6))


# -- Renly Baratheon: upgrade a footman ------------------------------------------------------------

def test_renly_baratheon_upgrades_a_footman_that_took_part_to_a_knight():
    state = basic({"the-reach": ("baratheon", ["knight", "footman"])}, blade_used=True)
    attack(state, "baratheon", "the-reach", "blackwater", ["knight", "footman"])
    play(state, "baratheon", "card", card="renly-baratheon")
    play(state, "lannister", "card", card="cersei-lannister")
    who, card, choices = ability(state)
    assert (who, card, choices) == (seat(state, "baratheon"), "renly-baratheon", ["blackwater", "none"])
    play(state, "baratheon", "ability", choice="blackwater")
    cards(state)
    assert sorted(u.kind for u in state.units["blackwater"]) == ["knight", "knight"]


def test_renly_baratheon_needs_a_knight_in_the_pool():
    state = basic({"the-reach": ("baratheon", ["knight", "footman"]),
                   "kingswood": ("baratheon", ["knight"] * 4)}, orders={"kingswood": "consolidate-power"},
                  blade_used=True)
    state.supply[seat(state, "baratheon")] = 6  # room for the army of four knights
    attack(state, "baratheon", "the-reach", "blackwater", ["knight", "footman"])
    play(state, "baratheon", "card", card="renly-baratheon")
    play(state, "lannister", "card", card="cersei-lannister")
    assert state.decisions.top is None or state.decisions.top.kind != "ability"


# -- Cersei Lannister: remove any order of the loser ----------------------------------------------

def test_cersei_lannister_removes_one_order_of_the_loser_from_anywhere():
    state = basic({"blackwater": ("lannister", ["knight", "knight"]), "highgarden": ("tyrell", ["footman"])},
                  orders={"highgarden": "consolidate-power"})
    attack(state, "tyrell", "the-reach", "blackwater", ["knight", "footman"])
    play(state, "tyrell", "card", card="margaery-tyrell")
    play(state, "lannister", "card", card="cersei-lannister")
    who, card, choices = ability(state)
    assert (who, card, choices) == (seat(state, "lannister"), "cersei-lannister", ["highgarden", "none"])
    play(state, "lannister", "ability", choice="highgarden")
    assert "highgarden" not in state.orders
    cards(state)


def test_cersei_lannister_asks_nothing_when_her_side_loses():
    state = basic({"the-reach": ("tyrell", ["knight", "knight"])})
    attack(state, "tyrell", "the-reach", "blackwater", ["knight", "knight"])
    play(state, "tyrell", "card", card="ser-garlan-tyrell")
    play(state, "lannister", "card", card="cersei-lannister")
    top = state.decisions.top
    assert top is None or top.kind != "ability"


# -- Patchface: after the combat -----------------------------------------------------------------

def test_patchface_discards_one_card_of_the_opponent_s_hand_after_the_combat():
    state = basic({"the-reach": ("baratheon", ["knight", "footman"])}, blade_used=True)
    attack(state, "baratheon", "the-reach", "blackwater", ["knight", "footman"])
    play(state, "baratheon", "card", card="patchface")
    play(state, "lannister", "card", card="the-hound")
    cards(state, stop="ability")
    assert state.combat is None  # the combat is over
    who, card, choices = ability(state)
    lannister = seat(state, "lannister")
    assert who == seat(state, "baratheon") and card == "patchface"
    assert choices == [*sorted(state.hands[lannister]), "none"]
    play(state, "baratheon", "ability", choice="tywin-lannister")
    assert "tywin-lannister" not in state.hands[lannister]
    assert state.discards[lannister] == ["the-hound", "tywin-lannister"]


def test_an_ability_choice_outside_the_list_is_refused_by_the_house_card_rule():
    state = basic({"the-reach": ("baratheon", ["knight", "footman"])}, blade_used=True)
    attack(state, "baratheon", "the-reach", "blackwater", ["knight", "footman"])
    play(state, "baratheon", "card", card="patchface")
    play(state, "lannister", "card", card="the-hound")
    cards(state, stop="ability")
    with pytest.raises(IllegalMove) as err:
        play(state, "baratheon", "ability", choice="the-hound")  # already discarded
    assert err.value.rule == E.RULE_ABILITY


# -- ports ---------------------------------------------------------------------------------------

def port_position(**changes) -> GameState:
    state = position(6, {"three-towers": ("lannister", ["footman"]), "port-of-oldtown": ("tyrell", ["ship", "ship"]),
                         "castle-black": ("stark", ["footman"])}, **changes)
    plan(state, {"three-towers": "march", "port-of-oldtown": "support", "castle-black": "consolidate-power"})
    play(state, "lannister", "march", area="three-towers")
    play(state, "lannister", "move", unit="footman", to="oldtown")
    play(state, "lannister", "end_march", power=False)
    return state


def test_the_new_holder_of_a_port_s_land_replaces_the_captured_ships_with_its_own():
    state = port_position()
    lannister = seat(state, "lannister")
    assert "port-of-oldtown" not in state.units and "port-of-oldtown" not in state.orders
    assert state.decisions.top.kind == "port" and ENGINE.to_act(state) == {lannister}
    assert [m["ships"] for m in ENGINE.legal_moves(state, lannister)] == [2, 1, 0]
    assert ENGINE.view(state, lannister)["prompt"]["kind"] == "port"
    play(state, "lannister", "replace", ships=2)
    assert [u.kind for u in state.units["port-of-oldtown"]] == ["ship", "ship"]
    assert state.owner["port-of-oldtown"] == lannister


def test_captured_ships_not_replaced_are_destroyed():
    state = port_position()
    play(state, "lannister", "replace", ships=0)
    assert "port-of-oldtown" not in state.units


def test_replacing_captured_ships_respects_supply_limits():
    state = port_position()
    lannister = seat(state, "lannister")
    state.supply[lannister] = 0  # armies of 2 and 2 at most
    state.units["lannisport"] = [Unit("footman"), Unit("footman")]
    state.owner["lannisport"] = lannister
    state.units["stoney-sept"] = [Unit("footman"), Unit("footman")]
    state.owner["stoney-sept"] = lannister
    assert [m["ships"] for m in ENGINE.legal_moves(state, lannister)] == [1, 0]
    with pytest.raises(IllegalMove) as err:
        play(state, "lannister", "replace", ships=2)
    assert err.value.rule == E.RULE_PORT
