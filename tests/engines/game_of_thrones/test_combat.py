"""Combat scenarios: support, house cards (hidden until both chose), their strength texts, the
Valyrian Steel Blade, ties, casualties, retreats, routed units, siege engines, garrisons."""

from __future__ import annotations

import pytest

from engines.base import IllegalMove
from engines.game_of_thrones import ENGINE
from engines.game_of_thrones.state import GameState

from .conftest import plan, play, position, seat

# The Reach (Tyrell) attacks Blackwater (Lannister) in most scenarios below.


def attack(state: GameState, house: str, origin: str, target: str, units: list[str]) -> None:
    s = seat(state, house)
    play(state, s, "march", area=origin)
    for u in units:
        play(state, s, "move", unit=u, to=target)
    play(state, s, "end_march", power=False)


def cards(state: GameState, **by_house: str) -> None:
    """Both combatants choose; then the blade is kept, card texts declined (their last choice) and
    the first listed retreat and casualty taken, so the combat is over (unless a test plays those
    steps itself: see ``stop``)."""
    stop = by_house.pop("stop", None)
    for house, card in by_house.items():
        play(state, house, "card", card=card)
    while state.decisions.top is not None and state.decisions.top.kind in ("blade", "retreat", "casualties",
                                                                          "ability"):
        kind = state.decisions.top.kind
        if kind == stop:
            return
        who = state.decisions.top.seats[0]
        move = ENGINE.legal_moves(state, who)[-1 if kind in ("blade", "ability") else 0]
        ENGINE.play(state, who, move)


def basic(extra: dict | None = None, orders: dict | None = None, **changes) -> GameState:
    """Tyrell in the Reach (march) and Lannister in Blackwater (Defense +1); a Stark footman at
    Castle Black with a Consolidate Power order keeps the round going after the combat."""
    units = {"the-reach": ("tyrell", ["knight", "footman"]), "blackwater": ("lannister", ["footman", "footman"]),
             "castle-black": ("stark", ["footman"])}
    units.update(extra or {})
    state = position(6, units, **changes)
    plan(state, {"the-reach": "march", "blackwater": "defense-plus-one", "castle-black": "consolidate-power",
                 **(orders or {})})
    return state


def test_house_cards_are_hidden_until_both_combatants_have_chosen():
    state = basic()
    attack(state, "tyrell", "the-reach", "blackwater", ["knight", "footman"])
    assert ENGINE.to_act(state) == {seat(state, "tyrell"), seat(state, "lannister")}
    play(state, "tyrell", "card", card="mace-tyrell")
    lannister_view = ENGINE.view(state, seat(state, "lannister"))
    assert "mace-tyrell" not in str(lannister_view["combat"])
    assert ENGINE.view(state, seat(state, "tyrell"))["combat"]["my_card"] == "mace-tyrell"
    assert ENGINE.view(state, None)["combat"]["chosen"] == [seat(state, "tyrell")]


def test_a_house_card_must_come_from_the_hand():
    state = basic()
    attack(state, "tyrell", "the-reach", "blackwater", ["knight", "footman"])
    with pytest.raises(IllegalMove, match="house card from your hand"):
        play(state, "tyrell", "card", card="tywin-lannister")


def test_the_higher_total_wins_and_the_winner_s_swords_cause_casualties():
    state = basic()
    attack(state, "tyrell", "the-reach", "blackwater", ["knight", "footman"])
    # Tyrell 3 + Garlan 2 = 5 (2 swords); Lannister 2 + defense 1 + Hound 2 = 5 (2 forts): tie
    cards(state, tyrell="ser-garlan-tyrell", lannister="ser-jaime-lannister")
    # Tyrell 3 + 2 = 5; Lannister 2 + 1 + 2 = 5: tie -> Fiefdoms (Tyrell 2nd, Lannister 6th): Tyrell
    assert state.owner["blackwater"] == seat(state, "tyrell")


def test_ties_go_to_the_higher_house_on_the_fiefdoms_track():
    state = basic()
    attack(state, "tyrell", "the-reach", "blackwater", ["knight", "footman"])
    cards(state, tyrell="alester-florent", lannister="ser-kevan-lannister")
    # 3 + 1 = 4 against 2 + 1 + 1 = 4; Tyrell is above Lannister on Fiefdoms
    assert state.owner["blackwater"] == seat(state, "tyrell")


def test_the_losing_defender_retreats_routed_and_the_attacker_moves_in():
    state = basic()
    attack(state, "tyrell", "the-reach", "blackwater", ["knight", "footman"])
    cards(state, tyrell="mace-tyrell", lannister="cersei-lannister", stop="retreat")
    lannister = seat(state, "lannister")
    assert state.decisions.top.kind == "retreat" and ENGINE.to_act(state) == {lannister}
    options = ENGINE.legal_moves(state, lannister)
    assert {"type": "retreat", "to": "the-reach"} not in options  # the attacker came from there
    play(state, lannister, "retreat", to="stoney-sept")
    assert [u.routed for u in state.units["stoney-sept"]] == [True]  # Mace Tyrell destroyed the other
    assert sorted(u.kind for u in state.units["blackwater"]) == ["footman", "knight"]


def test_casualties_are_swords_minus_fortifications_and_the_loser_picks_them():
    state = basic({"the-reach": ("tyrell", ["knight", "knight"]),
                   "blackwater": ("lannister", ["footman", "knight"])})
    attack(state, "tyrell", "the-reach", "blackwater", ["knight", "knight"])
    cards(state, tyrell="ser-garlan-tyrell", lannister="cersei-lannister")
    # 4 + 2 = 6 against 3 + 1 + 0 = 4; 2 swords - 0 forts: 2 casualties = both units
    assert "blackwater" in state.units and state.owner["blackwater"] == seat(state, "tyrell")
    assert not any(u for a, us in state.units.items() if state.owner[a] == seat(state, "lannister") for u in us)


def test_fortifications_cancel_swords():
    state = basic({"blackwater": ("lannister", ["footman", "knight"])})
    attack(state, "tyrell", "the-reach", "blackwater", ["knight", "footman"])
    cards(state, tyrell="randyll-tarly", lannister="the-hound")
    # 3 + 2 = 5 (1 sword) against 3 + 1 + 2 = 6: Lannister wins; the attacker loses nothing
    # to swords (Hound has none) and goes home routed
    assert [u.routed for u in state.units["the-reach"]] == [True, True]


def test_the_loser_chooses_a_casualty_among_different_units():
    state = basic({"blackwater": ("lannister", ["footman", "knight"])})
    attack(state, "tyrell", "the-reach", "blackwater", ["knight", "footman"])
    cards(state, tyrell="ser-garlan-tyrell", lannister="cersei-lannister")
    # 3 + 2 = 5 against 3 + 1 = 4: two swords, so both units are lost: no choice needed
    state = basic({"blackwater": ("lannister", ["footman", "knight", "footman"])})
    attack(state, "tyrell", "the-reach", "blackwater", ["knight", "footman"])
    cards(state, tyrell="ser-garlan-tyrell", lannister="cersei-lannister", stop="casualties")
    if state.decisions.top is not None and state.decisions.top.kind == "casualties":
        lannister = seat(state, "lannister")
        assert {m["unit"] for m in ENGINE.legal_moves(state, lannister)} == {"footman", "knight"}
        play(state, lannister, "casualty", unit="footman")


def test_the_blackfish_prevents_sword_casualties():
    state2 = basic({"the-reach": ("tyrell", ["knight", "knight"]), "blackwater": ("stark", ["footman", "footman"])})
    attack(state2, "tyrell", "the-reach", "blackwater", ["knight", "knight"])
    cards(state2, tyrell="ser-garlan-tyrell", stark="the-blackfish")
    stark = seat(state2, "stark")
    # Stark lost but lost no unit to swords: both footmen retreat
    assert sum(len(us) for a, us in state2.units.items() if state2.owner[a] == stark and a != "castle-black") == 2


def test_support_adds_the_supporting_units_and_the_order_s_bonus():
    state = basic({"stoney-sept": ("lannister", ["knight"])}, orders={"stoney-sept": "support-plus-one"})
    attack(state, "tyrell", "the-reach", "blackwater", ["knight", "footman"])
    assert ENGINE.to_act(state) == {seat(state, "lannister")}
    play(state, "lannister", "support", side="defender")
    cards(state, tyrell="ser-garlan-tyrell", lannister="cersei-lannister")
    # 3 + 2 = 5 against 2 + 1 + (2 + 1) + 0 = 6: Lannister holds
    assert state.owner["blackwater"] == seat(state, "lannister")


def test_a_third_house_may_support_either_side_or_nobody():
    state = basic({"kings-landing": ("baratheon", ["knight"])}, orders={"kings-landing": "support"})
    state.neutral.pop("kings-landing", None)
    attack(state, "tyrell", "the-reach", "blackwater", ["knight", "footman"])
    b = seat(state, "baratheon")
    assert [m["side"] for m in ENGINE.legal_moves(state, b)] == ["attacker", "defender", "none"]
    play(state, b, "support", side="attacker")
    assert ENGINE.view(state, None)["combat"]["supporters"] == {"kings-landing": "attacker"}


def test_land_units_cannot_support_a_sea_combat():
    state = position(6, {"shipbreaker-bay": ("baratheon", ["ship", "ship"]), "blackwater-bay": ("lannister", ["ship"]),
                         "kingswood": ("lannister", ["knight"])})
    plan(state, {"shipbreaker-bay": "march", "blackwater-bay": "defense-plus-one", "kingswood": "support"})
    attack(state, "baratheon", "shipbreaker-bay", "blackwater-bay", ["ship", "ship"])
    assert state.decisions.top.kind == "cards"  # nobody was asked for support


def test_routed_units_count_nothing_and_are_destroyed_if_they_must_retreat_again():
    state = basic()
    for u in state.units["blackwater"]:
        u.routed = True
    attack(state, "tyrell", "the-reach", "blackwater", ["knight", "footman"])
    cards(state, tyrell="alester-florent", lannister="tyrion-lannister")
    # 3 + 1 against 0 + 1 + 1: Tyrell wins; the routed footmen cannot retreat again
    assert state.owner["blackwater"] == seat(state, "tyrell")
    assert all(state.owner[a] != seat(state, "lannister") for a in state.units)


def test_the_valyrian_steel_blade_adds_one_once_a_round():
    state = basic({"the-reach": ("greyjoy", ["knight", "footman"])})
    state.tracks["fiefdoms"] = [seat(state, h) for h in ("greyjoy", "tyrell", "martell", "stark", "baratheon",
                                                          "lannister")]
    attack(state, "greyjoy", "the-reach", "blackwater", ["knight", "footman"])
    cards(state, greyjoy="dagmar-cleftjaw", lannister="ser-jaime-lannister", stop="blade")
    g = seat(state, "greyjoy")
    assert ENGINE.to_act(state) == {g}
    play(state, g, "blade", use=True)
    cards(state)
    assert state.blade_used
    assert state.owner["blackwater"] == g  # 3 + 1 + 1 = 5 against 2 + 1 + 2 = 5, Greyjoy first on Fiefdoms


def test_the_blade_is_offered_only_when_unused_this_round():
    state = basic({"the-reach": ("greyjoy", ["knight", "footman"])}, blade_used=True)
    attack(state, "greyjoy", "the-reach", "blackwater", ["knight", "footman"])
    cards(state, greyjoy="dagmar-cleftjaw", lannister="ser-jaime-lannister")
    assert state.decisions.top is None or state.decisions.top.kind != "blade"


def test_siege_engines_count_four_only_against_a_castle():
    state = position(6, {"stoney-sept": ("lannister", ["siege-engine", "footman"]),
                         "harrenhal": ("stark", ["footman", "footman"])})
    plan(state, {"stoney-sept": "march", "harrenhal": "defense-plus-one"})
    attack(state, "lannister", "stoney-sept", "harrenhal", ["siege-engine", "footman"])
    cards(state, lannister="cersei-lannister", stark="catelyn-stark")
    # 4 + 1 + 0 = 5 against 2 + 2 (Catelyn doubles the Defense +1) + 0 = 4
    assert ENGINE.view(state, None)["combat"] is None
    assert state.owner["harrenhal"] == seat(state, "lannister")


def test_siege_engines_count_nothing_against_an_area_without_castle():
    state = position(6, {"harrenhal": ("lannister", ["siege-engine", "footman"]),
                         "stoney-sept": ("stark", ["footman"])})
    plan(state, {"harrenhal": "march", "stoney-sept": "support"})
    attack(state, "lannister", "harrenhal", "stoney-sept", ["siege-engine", "footman"])
    state_combat = state.combat
    cards(state, lannister="cersei-lannister", stark="ser-rodrick-cassel")
    # 0 + 1 + 0 against 1 + 1: Stark wins
    assert state_combat is not None and state_combat.strength == {
        seat(state, "lannister"): 1, seat(state, "stark"): 2}


def test_a_defending_siege_engine_cannot_retreat():
    state = position(6, {"the-reach": ("tyrell", ["knight", "knight"]),
                         "blackwater": ("lannister", ["siege-engine", "footman"])})
    plan(state, {"the-reach": "march", "blackwater": "support"})
    attack(state, "tyrell", "the-reach", "blackwater", ["knight", "knight"])
    cards(state, tyrell="ser-loras-tyrell", lannister="cersei-lannister")
    assert not any(u.kind == "siege-engine" for us in state.units.values() for u in us)


def test_the_home_garrison_defends_its_house():
    state = position(6, {"searoad-marches": ("tyrell", ["knight", "knight"]),
                         "lannisport": ("lannister", ["footman"])})
    plan(state, {"searoad-marches": "march", "lannisport": "support"})
    attack(state, "tyrell", "searoad-marches", "lannisport", ["knight", "knight"])
    cards(state, tyrell="ser-loras-tyrell", lannister="ser-jaime-lannister")
    # 4 + 3 = 7 against 1 + 2 (garrison) + 2 = 5: Tyrell takes Lannisport, the garrison goes
    assert state.owner["lannisport"] == seat(state, "tyrell") and "lannisport" not in state.garrisons


def test_a_garrison_alone_still_fights_and_the_house_plays_a_card():
    state = position(6, {"searoad-marches": ("tyrell", ["knight"]), "riverrun": ("lannister", ["footman"])})
    plan(state, {"searoad-marches": "march", "riverrun": "defense-plus-one"})
    attack(state, "tyrell", "searoad-marches", "lannisport", ["knight"])
    assert ENGINE.to_act(state) == {seat(state, "tyrell"), seat(state, "lannister")}
    cards(state, tyrell="alester-florent", lannister="tywin-lannister")
    # 2 + 1 = 3 against 2 (garrison) + 4 = 6: Tyrell goes back to the Searoad Marches;
    # Tywin: Lannister gains two Power tokens
    assert "lannisport" not in state.units and state.owner["searoad-marches"] == seat(state, "tyrell")
    assert state.power[seat(state, "lannister")] == 7


def test_a_losing_defender_with_no_legal_retreat_is_destroyed():
    state = position(6, {"shipbreaker-bay": ("baratheon", ["ship", "ship"]), "blackwater-bay": ("lannister", ["ship"])})
    plan(state, {"shipbreaker-bay": "march", "blackwater-bay": "support"})
    state.neutral.pop("kings-landing")
    attack(state, "baratheon", "shipbreaker-bay", "blackwater-bay", ["ship", "ship"])
    cards(state, baratheon="salladhor-saan", lannister="cersei-lannister")
    # Blackwater Bay touches only Shipbreaker Bay (whence the attack) and land: the ship is lost
    assert state.owner["blackwater-bay"] == seat(state, "baratheon")
    assert not any(state.owner[a] == seat(state, "lannister") for a in state.units)


def test_house_cards_go_to_the_discard_pile_and_come_back_when_all_seven_are_used():
    state = basic()
    lannister = seat(state, "lannister")
    state.hands[lannister] = ["cersei-lannister"]
    state.discards[lannister] = ["tywin-lannister", "ser-gregor-clegane", "ser-jaime-lannister", "the-hound",
                                 "ser-kevan-lannister", "tyrion-lannister"]
    attack(state, "tyrell", "the-reach", "blackwater", ["knight", "footman"])
    cards(state, tyrell="randyll-tarly", lannister="cersei-lannister")
    assert state.discards[lannister] == ["cersei-lannister"]
    assert len(state.hands[lannister]) == 6
    assert state.discards[seat(state, "tyrell")] == ["randyll-tarly"]


def test_balon_greyjoy_sets_the_opponent_s_printed_strength_to_zero():
    state = basic({"the-reach": ("greyjoy", ["knight", "footman"])})
    attack(state, "greyjoy", "the-reach", "blackwater", ["knight", "footman"])
    cards(state, greyjoy="balon-greyjoy", lannister="tywin-lannister")
    if state.decisions.top is not None and state.decisions.top.kind == "blade":
        play(state, "greyjoy", "blade", use=False)
    # 3 + 2 = 5 against 2 + 1 + 0 = 3
    assert state.owner["blackwater"] == seat(state, "greyjoy")


def test_stannis_gains_one_against_a_house_higher_on_the_iron_throne():
    state = position(6, {"kingswood": ("lannister", ["footman"]), "the-reach": ("baratheon", ["footman"])})
    state.neutral.pop("kings-landing")
    state.tracks["iron_throne"] = [seat(state, h) for h in ("lannister", "baratheon", "stark", "martell", "greyjoy",
                                                             "tyrell")]
    plan(state, {"the-reach": "march", "kingswood": "defense-plus-one"})
    attack(state, "baratheon", "the-reach", "kingswood", ["footman"])
    cards(state, baratheon="stannis-baratheon", lannister="tywin-lannister")
    # 1 + 4 + 1 = 6 against 1 + 1 + 4 = 6; tie to Fiefdoms: Baratheon (5th) above Lannister (6th)
    assert state.owner["kingswood"] == seat(state, "baratheon")


def test_asha_gains_two_swords_and_a_fortification_when_unsupported():
    state = basic({"the-reach": ("greyjoy", ["knight", "knight"]),
                   "blackwater": ("lannister", ["footman", "footman"])}, blade_used=True)
    attack(state, "greyjoy", "the-reach", "blackwater", ["knight", "knight"])
    cards(state, greyjoy="asha-greyjoy", lannister="cersei-lannister")
    # 4 + 1 = 5 against 2 + 1 = 3, two swords: both footmen lost
    assert not any(state.owner[a] == seat(state, "lannister") for a in state.units)


def test_kevan_doubles_attacking_lannister_footmen():
    state = position(6, {"stoney-sept": ("lannister", ["footman", "footman"]),
                         "blackwater": ("tyrell", ["knight"])})
    plan(state, {"stoney-sept": "march", "blackwater": "defense-plus-one"})
    attack(state, "lannister", "stoney-sept", "blackwater", ["footman", "footman"])
    combat = state.combat
    cards(state, lannister="ser-kevan-lannister", tyrell="margaery-tyrell")
    # 4 + 1 = 5 against 2 + 1 + 1 = 4
    assert combat is not None and combat.strength[seat(state, "lannister")] == 5


def test_mace_tyrell_destroys_a_defending_footman_before_strengths_are_counted():
    state = basic()
    attack(state, "tyrell", "the-reach", "blackwater", ["knight", "footman"])
    combat = state.combat
    cards(state, tyrell="mace-tyrell", lannister="the-hound", stop="retreat")
    # one footman left: 1 + 1 + 2 = 4 against 3 + 4 = 7
    assert combat is not None and combat.strength[seat(state, "lannister")] == 4


def test_ser_loras_moves_the_winning_march_order_into_the_conquered_area():
    state = basic({"blackwater": ("lannister", ["footman"])})
    attack(state, "tyrell", "the-reach", "blackwater", ["knight", "footman"])
    cards(state, tyrell="ser-loras-tyrell", lannister="cersei-lannister")
    assert state.orders["blackwater"].token == "march"
    assert state.decisions.top.kind == "march" and ENGINE.to_act(state) == {seat(state, "tyrell")}


def test_arianne_keeps_the_winning_attacker_out():
    state = basic({"blackwater": ("martell", ["footman"])})
    attack(state, "tyrell", "the-reach", "blackwater", ["knight", "footman"])
    cards(state, tyrell="ser-garlan-tyrell", martell="arianne-martell")
    assert "blackwater" not in state.owner or state.owner["blackwater"] != seat(state, "tyrell")
    assert sorted(u.kind for u in state.units["the-reach"]) == ["footman", "knight"]
