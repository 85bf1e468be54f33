"""Choices the rules leave to a player that an engine could easily make for them (units lost to
supply in a retreat or on the way back, Crow Killers' knights when footmen run short), and what
the view adds for the table: the combat strength by part, step by step, and the bids revealed
in the latest Westeros phase (never before the reveal)."""

from __future__ import annotations

import pytest

from engines.base import IllegalMove
from engines.game_of_thrones import ENGINE
from engines.game_of_thrones import rules as R
from engines.game_of_thrones import shared as E
from engines.game_of_thrones.state import GameState
from engines.kit import Log

from .conftest import plan, play, position, random_game, seat
from .test_combat import attack, basic, cards
from .test_westeros import bid, westeros
from .test_wildlings import UNITS, bids
from .test_wildlings import attack as wildling_attack


def first_in_fiefdoms(state: GameState, house: str) -> None:
    track = state.tracks["fiefdoms"]
    track.remove(seat(state, house))
    track.insert(0, seat(state, house))


# -- supply losses are chosen ------------------------------------------------------------------

def test_a_retreat_that_breaks_supply_lets_the_retreating_house_choose_the_units_it_loses():
    """Rules §3.7: a retreat breaking supply only when nothing else exists; the retreating player
    then destroys units (of its choice) until supply holds."""
    state = basic({"the-reach": ("tyrell", ["knight", "knight", "footman"]),
                   "blackwater": ("lannister", ["knight", "footman", "footman"])})
    lannister = seat(state, "lannister")
    state.supply[lannister] = 0  # armies of 2 at most: three units cannot stay together
    attack(state, "tyrell", "the-reach", "blackwater", ["knight", "knight", "footman"])
    cards(state, tyrell="ser-loras-tyrell", lannister="cersei-lannister", stop="retreat")
    # 5 + 3 = 8 against 4 + 1 = 5; Ser Loras has no swords: the three units must retreat
    assert state.decisions.top.kind == "retreat"
    play(state, lannister, "retreat", to="stoney-sept")
    assert state.decisions.top.kind == "supply_loss" and ENGINE.to_act(state) == {lannister}
    moves = ENGINE.legal_moves(state, lannister)
    assert moves == [{"type": "casualty", "unit": "footman"}, {"type": "casualty", "unit": "knight"}]
    assert ENGINE.view(state, lannister)["prompt"]["text"].startswith("Supply:")
    play(state, lannister, "casualty", unit="knight")
    assert sorted(u.kind for u in state.units["stoney-sept"]) == ["footman", "footman"]
    assert all(u.routed for u in state.units["stoney-sept"])
    assert state.owner["blackwater"] == seat(state, "tyrell")


def test_a_unit_outside_the_moving_units_is_refused_as_a_supply_loss_by_the_supply_rule():
    state = basic({"the-reach": ("tyrell", ["knight", "knight", "footman"]),
                   "blackwater": ("lannister", ["knight", "footman", "footman"])})
    lannister = seat(state, "lannister")
    state.supply[lannister] = 0
    attack(state, "tyrell", "the-reach", "blackwater", ["knight", "knight", "footman"])
    cards(state, tyrell="ser-loras-tyrell", lannister="cersei-lannister", stop="retreat")
    play(state, lannister, "retreat", to="stoney-sept")
    with pytest.raises(IllegalMove) as err:
        play(state, lannister, "casualty", unit="ship")
    assert err.value.rule == E.RULE_SUPPLY


def test_an_attacker_going_back_beyond_its_supply_chooses_the_units_it_loses():
    """Rules §3.7 and §2.2: the losing attacker goes back to its area; supply limits hold for
    every move, so a return that would break them costs units of the attacker's choice."""
    state = basic({"the-reach": ("tyrell", ["knight", "footman", "footman"]),
                   "highgarden": ("tyrell", ["footman", "footman", "footman"]),
                   "blackwater": ("lannister", ["knight", "knight"])},
                  orders={"highgarden": "defense-plus-one"})
    tyrell = seat(state, "tyrell")
    state.supply[tyrell] = 1  # armies of 3 and 2
    attack(state, "tyrell", "the-reach", "blackwater", ["knight", "footman"])
    cards(state, tyrell="margaery-tyrell", lannister="the-hound", stop="supply_loss")
    # 3 + 1 = 4 against 4 + 1 + 2 = 7: Tyrell loses; two units back into the Reach (one there)
    # would make a second army of 3 next to Highgarden's
    assert state.decisions.top.kind == "supply_loss" and ENGINE.to_act(state) == {tyrell}
    assert [m["unit"] for m in ENGINE.legal_moves(state, tyrell)] == ["footman", "knight"]
    play(state, tyrell, "casualty", unit="footman")
    assert sorted(u.kind for u in state.units["the-reach"]) == ["footman", "knight"]
    assert [u.routed for u in state.units["the-reach"]].count(True) == 1  # the one that came back
    assert state.combat is None


# -- Crow Killers -------------------------------------------------------------------------------

def test_crow_killers_loss_with_too_few_footmen_lets_the_lowest_bidder_choose_which_knights_become_footmen():
    """Rules §7.10: a knight that cannot be swapped for an available footman is destroyed; which
    knights get the last footmen is the house's choice."""
    singles = ["karhold", "castle-black", "the-stony-shore", "moat-cailin", "greywater-watch", "widows-watch",
               "the-twins", "the-fingers"]
    units = {**UNITS, "white-harbor": ("stark", ["knight"]), **{a: ("stark", ["footman"]) for a in singles}}
    state = wildling_attack("crow-killers", 12, units=units)
    stark = seat(state, "stark")
    bids(state, stark=0, lannister=1, baratheon=2)
    # Stark has 9 footmen on the board: one left for its two knights
    assert state.decisions.top.kind == "swap" and ENGINE.to_act(state) == {stark}
    assert [m["option"] for m in ENGINE.legal_moves(state, stark)] == ["white-harbor", "winterfell"]
    play(state, stark, "choose", option="white-harbor")
    assert [u.kind for u in state.units["white-harbor"]] == ["footman"]
    assert [u.kind for u in state.units["winterfell"]] == ["footman"]  # its knight was destroyed


# -- the combat breakdown -------------------------------------------------------------------------

def breakdown(state: GameState, seat_: int | None = None) -> dict:
    return ENGINE.view(state, seat_)["combat"]["breakdown"]


def test_the_combat_breakdown_is_filled_step_by_step_and_ends_at_the_combat_strength():
    state = basic(orders={"the-reach": "march-minus-one"})
    first_in_fiefdoms(state, "tyrell")
    tyrell, lannister = seat(state, "tyrell"), seat(state, "lannister")
    attack(state, "tyrell", "the-reach", "blackwater", ["knight", "footman"])
    before = {"attacker": {"units": 3, "order": -1, "support": 0, "card": None, "blade": None, "total": 2},
              "defender": {"units": 2, "order": 1, "garrison": 0, "support": 0, "card": None, "blade": None,
                           "total": 3}}
    assert breakdown(state) == before
    play(state, tyrell, "card", card="mace-tyrell")
    assert breakdown(state, lannister) == before == breakdown(state, tyrell)  # nothing before the reveal
    play(state, lannister, "card", card="cersei-lannister")
    # revealed: Mace Tyrell destroyed a defending footman; the Blade's holder has not decided
    assert state.decisions.top.kind == "blade"
    assert breakdown(state) == {
        "attacker": {"units": 3, "order": -1, "support": 0, "card": 4, "blade": None, "total": 6},
        "defender": {"units": 1, "order": 1, "garrison": 0, "support": 0, "card": 0, "blade": None, "total": 2}}
    play(state, tyrell, "blade", use=True)
    shown = breakdown(state)
    assert shown["attacker"]["blade"] == 1 and shown["defender"]["blade"] == 0
    assert {tyrell: shown["attacker"]["total"], lannister: shown["defender"]["total"]} == state.combat.strength


def test_the_breakdown_counts_support_as_each_supporter_declares_it():
    state = basic({"stoney-sept": ("baratheon", ["knight"]), "kingswood": ("stark", ["footman"])},
                  orders={"stoney-sept": "support", "kingswood": "support-plus-one"})
    attack(state, "tyrell", "the-reach", "blackwater", ["knight", "footman"])
    # Kingswood is not next to Blackwater: only Baratheon in Stoney Sept is asked
    assert state.decisions.top.kind == "support"
    play(state, "baratheon", "support", side="defender")
    assert breakdown(state)["defender"]["support"] == 2
    assert breakdown(state)["attacker"]["support"] == 0


def test_the_breakdown_of_an_attack_on_a_neutral_force_shows_the_force():
    state = position(6, {"kingswood": ("baratheon", ["knight", "footman"]),
                         "blackwater": ("lannister", ["knight"])})
    plan(state, {"kingswood": "march-plus-one", "blackwater": "support-plus-one"})
    attack(state, "baratheon", "kingswood", "kings-landing", ["knight", "footman"])
    assert state.decisions.top.kind == "support"  # Lannister is asked
    assert breakdown(state) == {"attacker": {"units": 3, "order": 1, "support": 0, "total": 4},
                                "defender": {"neutral_force": 5, "total": 5}}


# -- the revealed bids -----------------------------------------------------------------------------

def test_bid_results_show_each_track_s_bids_its_order_and_who_broke_the_tie_after_the_reveal_only():
    state = westeros(5, {"winterfell": ("stark", ["footman"])}, ("supply", "clash-of-kings", "storm-of-swords"),
                     power=[5, 5, 5, 5, 5])
    g = seat(state, "greyjoy")
    bid(state, {"stark": 0, "lannister": 1, "baratheon": 2, "greyjoy": 5, "tyrell": 3})
    assert [r["track"] for r in ENGINE.view(state, None)["bid_results"]] == ["iron_throne"]
    bid(state, {"lannister": 4, "baratheon": 3, "stark": 3})
    # two Fiefdoms bids are still hidden: nothing about them is shown
    assert [r["track"] for r in ENGINE.view(state, g)["bid_results"]] == ["iron_throne"]
    bid(state, {"tyrell": 2, "greyjoy": 0})
    play(state, g, "rank", house="baratheon")
    fiefdoms = ENGINE.view(state, None)["bid_results"][1]
    names = {str(seat(state, h)): h for h in state.houses}
    assert fiefdoms["track"] == "fiefdoms" and fiefdoms["round"] == 2
    assert {names[s]: n for s, n in fiefdoms["bids"].items()} == {
        "lannister": 4, "baratheon": 3, "stark": 3, "tyrell": 2, "greyjoy": 0}
    assert [state.houses[s] for s in fiefdoms["order"]] == ["lannister", "baratheon", "stark", "tyrell", "greyjoy"]
    assert fiefdoms["tie_broken_by"] == g
    assert ENGINE.view(state, None)["bid_results"][0]["tie_broken_by"] is None


def test_bid_results_of_a_wildling_attack_rank_the_bidders_and_are_replaced_by_the_next_westeros_phase():
    state = wildling_attack("silence-at-the-wall", 12)
    bids(state, stark=2, lannister=2, baratheon=0)
    holder = state.tracks["iron_throne"][0]
    result = ENGINE.view(state, 0)["bid_results"][0]
    assert result["track"] == "wildlings" and result["tie_broken_by"] is None
    assert [state.houses[s] for s in result["order"]][-1] == "baratheon"
    assert holder is not None
    state.round = 3
    ENGINE._start_round(state, Log())
    assert state.bid_results == []


# -- the end: the final standings ---------------------------------------------------------------


def test_the_end_shows_every_house_in_its_final_place_with_the_winner_first_and_what_decided_it():
    """No standings while the game runs; at the end every view (each seat's, a spectator's) has
    the same: how the game ended, the winner first, the others by castles, land areas, supply and
    the Iron Throne (Rules §6), each with those numbers."""
    state = None
    for state in random_game(3, 11):
        if state.winner is None:
            assert ENGINE.view(state, None)["standings"] is None
    assert state is not None and state.winner is not None
    views = [ENGINE.view(state, v) for v in (None, 0, 1, 2)]
    st = views[0]["standings"]
    assert all(v["standings"] == st for v in views)
    assert st["ended_by"] in ("round 10", "seven castles")
    seats = [h["seat"] for h in st["houses"]]
    assert seats[0] == state.winner and sorted(seats) == [0, 1, 2]
    rest = [R.final_standing(state, s) for s in seats[1:]]
    assert rest == sorted(rest, reverse=True)
    for h in st["houses"]:
        s = h["seat"]
        expected = (views[0]["castles"][s], R.land_held(state, s), state.supply[s])
        assert (h["castles"], h["land"], h["supply"]) == expected
        assert h["throne"] == state.tracks["iron_throne"].index(s) + 1
