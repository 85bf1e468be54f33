"""The Westeros phase: the round marker, the three decks, the wildling icons, and every Westeros
card by name (Supply with the seed's example, Mustering with the seed's example, Clash of Kings
with the seed's five-player example, the dominance-token holders' choices, the restrictions)."""

from __future__ import annotations

from typing import Any

import pytest

from engines.base import IllegalMove
from engines.game_of_thrones import ENGINE
from engines.game_of_thrones import shared as E
from engines.game_of_thrones import westeros as W
from engines.game_of_thrones.components import WESTEROS_CARDS
from engines.game_of_thrones.state import PLANNING, WESTEROS, GameState
from engines.kit import Commitments, Log

from .conftest import play, position, seat, through_westeros


def westeros(players: int, units: dict[str, tuple[str, list[str]]], cards: tuple[str, str, str],
             **changes: Any) -> GameState:
    """A position at the start of round 2's Westeros phase with the given top cards (decks I, II,
    III, each deck made of that card only)."""
    state = position(players, units, **changes)
    state.round = 2
    state.planning = Commitments()
    state.westeros_decks = {d: [c] * 10 for d, c in zip(W.DECKS, cards, strict=True)}
    log = Log()
    ENGINE._start_round(state, log)
    ENGINE._advance(state, log)
    return state


def end_others_mustering(state: GameState, house: str) -> None:
    """Every house but ``house`` ends its mustering when asked."""
    while state.decisions.top is not None and state.decisions.top.kind in ("mustering", "muster") \
            and state.decisions.top.seats[0] != seat(state, house):
        play(state, state.decisions.top.seats[0], "end_muster")


QUIET = ("last-days-of-summer", "game-of-thrones", "storm-of-swords")


# -- the phase -----------------------------------------------------------------------------------

def test_every_westeros_card_in_the_data_has_an_effect_and_each_deck_holds_ten():
    assert {card for (_, card) in WESTEROS_CARDS} <= W.KNOWN_CARDS
    state = ENGINE.new_game(6, 3, {})
    assert {d: len(p) for d, p in state.westeros_decks.items()} == {"I": 10, "II": 10, "III": 10}


def test_the_phase_draws_the_top_card_of_each_deck_and_puts_it_at_the_bottom():
    state = position(4, {"winterfell": ("stark", ["footman"])})
    state.westeros_decks["I"] = ["supply", *["mustering"] * 9]
    state.round, state.planning = 2, Commitments()
    ENGINE._start_round(state, Log())
    assert state.phase == WESTEROS and state.revealed[0] == "supply"
    assert state.westeros_decks["I"][-1] == "supply" and len(state.westeros_decks["I"]) == 10


def test_the_wildling_track_advances_two_per_icon_on_the_drawn_cards():
    state = westeros(6, {"winterfell": ("stark", ["footman"])},
                     ("last-days-of-summer", "dark-wings-dark-words", "storm-of-swords"), wildlings=2)
    assert state.wildlings == 8  # three icons


def test_reaching_twelve_starts_an_attack_at_once_and_surplus_icons_are_ignored():
    state = westeros(6, {"winterfell": ("stark", ["footman"])},
                     ("last-days-of-summer", "dark-wings-dark-words", "storm-of-swords"), wildlings=10)
    assert state.wildlings == 12
    assert state.decisions.top.kind == "bid" and state.decisions.top.data["strength"] == 12
    assert state.tasks[0] == {"do": "card", "deck": "I"}  # the cards come after the attack


def test_the_cards_resolve_in_deck_order_and_planning_follows():
    state = westeros(6, {"winterfell": ("stark", ["footman"])}, ("supply", "game-of-thrones", "web-of-lies"))
    assert state.phase == PLANNING
    assert state.restricted == ["support", "support-plus-one"]


def test_winter_is_coming_shuffles_its_deck_and_draws_a_replacement():
    state = position(6, {"winterfell": ("stark", ["footman"])})
    state.westeros_decks = {"I": ["winter-is-coming", *["supply"] * 9], "II": ["game-of-thrones"] * 10,
                            "III": ["storm-of-swords"] * 10}
    state.round, state.planning = 2, Commitments()
    log = Log()
    ENGINE._start_round(state, log)
    assert state.revealed[0] == "supply"
    assert sorted(state.westeros_decks["I"]) == sorted(["winter-is-coming", *["supply"] * 9])
    assert any("Winter is Coming" in e.text for e in log.events)


def test_the_game_ends_after_round_ten_without_another_westeros_phase():
    state = position(3, {"winterfell": ("stark", ["footman"])})
    state.westeros_decks = {"I": ["supply"] * 10, "II": ["game-of-thrones"] * 10, "III": ["put-to-the-sword"] * 10}
    for _ in range(10):
        through_westeros(state)
        play(state, "stark", "order", area="winterfell", order="support")
        play(state, "stark", "ready")
        if state.decisions.top is not None and state.decisions.top.kind == "raven":
            play(state, state.decisions.top.seats[0], "raven_pass")
    assert state.phase == "over" and state.round == 10


# -- Deck I ----------------------------------------------------------------------------------------

def supply_example() -> GameState:
    """The seed's Supply example: Lannister lost Riverrun and Seagard (to Greyjoy); its supply
    drops from 5 to 3 while it has armies of 4, 3, 2 and 2."""
    units = {"harrenhal": ("lannister", ["footman"] * 4), "the-twins": ("lannister", ["footman"] * 3),
             "lannisport": ("lannister", ["footman", "knight"]), "stoney-sept": ("lannister", ["footman"] * 2),
             "searoad-marches": ("lannister", ["footman"]),
             "riverrun": ("greyjoy", ["footman"]), "seagard": ("greyjoy", ["footman"])}
    state = position(6, units)
    state.supply[seat(state, "lannister")] = 5
    state.round, state.planning = 2, Commitments()
    state.westeros_decks = {"I": ["supply"] * 10, "II": ["game-of-thrones"] * 10, "III": ["storm-of-swords"] * 10}
    log = Log()
    ENGINE._start_round(state, log)
    ENGINE._advance(state, log)
    return state


def test_supply_recounts_the_barrels_and_the_house_reconciles_by_destroying_units_of_its_choice():
    state = supply_example()
    lannister = seat(state, "lannister")
    assert state.supply[lannister] == 3
    assert state.decisions.top.kind == "reconcile" and ENGINE.to_act(state) == {lannister}
    view = ENGINE.view(state, lannister)
    assert view["prompt"]["kind"] == "reconcile"
    listed = ENGINE.legal_moves(state, lannister)
    assert {"type": "destroy", "area": "searoad-marches", "unit": "footman"} not in listed  # a single unit
    play(state, lannister, "destroy", area="the-twins", unit="footman")
    assert state.decisions.top.kind == "reconcile"
    play(state, lannister, "destroy", area="harrenhal", unit="footman")
    # armies of 3, 2, 2 and 2: the limits of supply 3
    sizes = sorted((len(u) for a, u in state.units.items() if state.owner[a] == lannister and len(u) > 1),
                   reverse=True)
    assert sizes == [3, 2, 2, 2]
    assert state.phase == PLANNING


def test_reconciling_refuses_a_unit_outside_an_army_by_the_supply_rule():
    state = supply_example()
    with pytest.raises(IllegalMove) as err:
        play(state, "lannister", "destroy", area="searoad-marches", unit="footman")
    assert err.value.rule == W.RULE_SUPPLY_CARD


def test_supply_moves_the_token_up_as_well():
    state = westeros(6, {"winterfell": ("stark", ["footman"]), "white-harbor": ("stark", ["footman"]),
                         "widows-watch": ("stark", ["footman"]), "karhold": ("stark", ["footman"])},
                     ("supply", "game-of-thrones", "storm-of-swords"))
    assert state.supply[seat(state, "stark")] == 2  # Winterfell and Widow's Watch


def mustering_example() -> GameState:
    """The seed's Mustering example: Lannister (Supply 3) musters at Lannisport, Harrenhal and
    Riverrun; it holds an army of three knights at Riverrun (Greyjoy ships hold Ironman's Bay)."""
    units = {"lannisport": ("lannister", ["footman"]), "harrenhal": ("lannister", ["footman", "footman"]),
             "riverrun": ("lannister", ["knight"] * 3), "stoney-sept": ("lannister", ["footman"]),
             "ironmans-bay": ("greyjoy", ["ship"])}
    state = westeros(6, units, ("mustering", "game-of-thrones", "storm-of-swords"))
    state.supply[seat(state, "lannister")] = 3
    end_others_mustering(state, "lannister")
    return state


def test_mustering_the_seed_example_lannisport_harrenhal_and_riverrun():
    state = mustering_example()
    lannister = seat(state, "lannister")
    assert state.decisions.top.kind == "mustering" and ENGINE.to_act(state) == {lannister}
    areas = [m["area"] for m in ENGINE.legal_moves(state, lannister) if m["type"] == "muster"]
    assert areas == ["harrenhal", "lannisport", "riverrun"]  # not Stoney Sept: no castle
    play(state, lannister, "muster", area="lannisport")
    play(state, lannister, "recruit", unit="footman", to="lannisport")
    play(state, lannister, "recruit", unit="ship", to="the-golden-sound")
    play(state, lannister, "muster", area="harrenhal")
    play(state, lannister, "recruit", unit="upgrade:knight", to="harrenhal")
    play(state, lannister, "muster", area="riverrun")
    assert {"type": "recruit", "unit": "footman", "to": "riverrun"} not in ENGINE.legal_moves(state, lannister)
    play(state, lannister, "recruit", unit="ship", to="the-golden-sound")
    # the last point at Riverrun cannot be spent: the supply limit is met; mustering ends
    assert sorted(u.kind for u in state.units["harrenhal"]) == ["footman", "knight"]
    assert [u.kind for u in state.units["the-golden-sound"]] == ["ship", "ship"]
    assert len(state.units["lannisport"]) == 2
    assert state.decisions.top is None or state.decisions.top.seats != [lannister]


def test_mustering_puts_no_ship_in_a_sea_holding_enemy_ships():
    units = {"lannisport": ("lannister", ["footman"]), "the-golden-sound": ("greyjoy", ["ship"])}
    state = westeros(6, units, ("mustering", "game-of-thrones", "storm-of-swords"))
    end_others_mustering(state, "lannister")
    lannister = seat(state, "lannister")
    play(state, lannister, "muster", area="lannisport")
    targets = {m["to"] for m in ENGINE.legal_moves(state, lannister) if m.get("unit") == "ship"}
    assert targets == {"port-of-lannisport"}


def test_a_throne_of_blades_lets_the_iron_throne_holder_choose_supply_mustering_or_nothing():
    state = westeros(6, {"winterfell": ("stark", ["footman"])},
                     ("a-throne-of-blades", "game-of-thrones", "storm-of-swords"))
    holder = state.tracks["iron_throne"][0]
    assert state.decisions.top.kind == "westeros_choice" and ENGINE.to_act(state) == {holder}
    assert [m["option"] for m in ENGINE.legal_moves(state, holder)] == ["supply", "mustering", "nothing"]
    assert "Throne of Blades" in ENGINE.view(state, holder)["prompt"]["text"]
    play(state, holder, "choose", option="mustering")
    assert state.decisions.top.kind == "mustering"


def test_last_days_of_summer_does_nothing_but_its_icon():
    state = westeros(6, {"winterfell": ("stark", ["footman"])},
                     ("last-days-of-summer", "game-of-thrones", "feast-for-crows"), wildlings=0)
    assert state.wildlings == 4 and state.phase == PLANNING


# -- Deck II ---------------------------------------------------------------------------------------

def bid(state: GameState, bids: dict[str, int]) -> None:
    for house, n in bids.items():
        s = seat(state, house)
        if state.decisions.top.kind == "bid" and s in ENGINE.to_act(state):
            play(state, s, "bid", power=n)


def test_clash_of_kings_the_seed_example_greyjoy_breaks_the_fiefdoms_tie():
    state = westeros(5, {"winterfell": ("stark", ["footman"])}, ("supply", "clash-of-kings", "storm-of-swords"),
                     power=[5, 5, 5, 5, 5])
    g = seat(state, "greyjoy")
    # the Iron Throne: Greyjoy bids highest and takes the Iron Throne
    bid(state, {"stark": 0, "lannister": 1, "baratheon": 2, "greyjoy": 5, "tyrell": 3})
    assert state.tracks["iron_throne"][0] == g
    # the Fiefdoms: 4/3/3/2/0, Baratheon and Stark tied; the Iron Throne holder (Greyjoy) decides
    bid(state, {"lannister": 4, "baratheon": 3, "stark": 3, "tyrell": 2, "greyjoy": 0})
    assert state.decisions.top.kind == "ties" and ENGINE.to_act(state) == {g}
    assert sorted(m["house"] for m in ENGINE.legal_moves(state, g)) == ["baratheon", "stark"]
    play(state, g, "rank", house="baratheon")
    order = [state.houses[s] for s in state.tracks["fiefdoms"]]
    assert order == ["lannister", "baratheon", "stark", "tyrell", "greyjoy"]
    assert state.tracks["fiefdoms"][0] == seat(state, "lannister")  # the Valyrian Steel Blade
    assert state.decisions.top.kind == "bid"  # King's Court next


def test_ties_on_the_iron_throne_track_are_broken_by_the_holder_before_the_track_changes():
    state = westeros(3, {"winterfell": ("stark", ["footman"])}, ("supply", "clash-of-kings", "storm-of-swords"))
    holder = state.tracks["iron_throne"][0]  # Baratheon
    bid(state, {"stark": 2, "lannister": 2, "baratheon": 0})
    assert state.decisions.top.kind == "ties" and ENGINE.to_act(state) == {holder}
    play(state, holder, "rank", house="lannister")
    assert [state.houses[s] for s in state.tracks["iron_throne"]] == ["lannister", "stark", "baratheon"]


def test_every_bid_goes_to_the_power_pool_and_bids_stay_hidden_until_all_are_in():
    state = westeros(3, {"winterfell": ("stark", ["footman"])}, ("supply", "clash-of-kings", "storm-of-swords"))
    stark, lannister = seat(state, "stark"), seat(state, "lannister")
    play(state, stark, "bid", power=3)
    assert ENGINE.view(state, stark)["bids"]["mine"] == 3
    assert ENGINE.view(state, lannister)["bids"]["mine"] is None
    assert ENGINE.view(state, None)["bids"]["chosen"] == [stark]
    bid(state, {"lannister": 1, "baratheon": 0})
    assert state.power[stark] == 2 and state.power[lannister] == 4
    assert state.tracks["iron_throne"][0] == stark


def test_a_bid_above_the_available_power_is_refused_by_the_bidding_rule():
    state = westeros(3, {"winterfell": ("stark", ["footman"])}, ("supply", "clash-of-kings", "storm-of-swords"))
    with pytest.raises(IllegalMove) as err:
        play(state, "stark", "bid", power=6)
    assert err.value.rule == W.RULE_BIDDING


def test_game_of_thrones_gives_power_per_crown_and_per_port_with_a_ship():
    units = {"winterfell": ("stark", ["footman"]), "karhold": ("stark", ["footman"]),
             "port-of-winterfell": ("stark", ["ship"])}
    state = westeros(6, units, ("supply", "game-of-thrones", "storm-of-swords"))
    # Winterfell 1 crown, Karhold 1 crown, the port with a Stark ship (the Bay of Ice is free) 1
    assert state.power[seat(state, "stark")] == 5 + 3


def test_dark_wings_dark_words_lets_the_raven_holder_choose_and_its_power_counts_crowns_only():
    units = {"winterfell": ("stark", ["footman"]), "port-of-winterfell": ("stark", ["ship"])}
    state = westeros(6, units, ("supply", "dark-wings-dark-words", "storm-of-swords"))
    raven = state.tracks["kings_court"][0]
    assert state.decisions.top.kind == "westeros_choice" and ENGINE.to_act(state) == {raven}
    assert [m["option"] for m in ENGINE.legal_moves(state, raven)] == ["clash-of-kings", "game-of-thrones",
                                                                        "nothing"]
    play(state, raven, "choose", option="game-of-thrones")
    assert state.power[seat(state, "stark")] == 5 + 1  # Winterfell's crown; the port gives nothing


def test_dark_wings_dark_words_may_call_a_clash_of_kings():
    state = westeros(6, {"winterfell": ("stark", ["footman"])}, ("supply", "dark-wings-dark-words", "storm-of-swords"))
    play(state, state.tracks["kings_court"][0], "choose", option="clash-of-kings")
    assert state.decisions.top.kind == "bid" and state.decisions.top.data["track"] == "iron_throne"


# -- Deck III --------------------------------------------------------------------------------------

@pytest.mark.parametrize(("card", "barred"), [
    ("storm-of-swords", ["defense-plus-one", "defense-plus-two"]),
    ("rains-of-autumn", ["march-plus-one"]),
    ("sea-of-storms", ["raid", "special-raid"]),
    ("web-of-lies", ["support", "support-plus-one"]),
    ("feast-for-crows", ["consolidate-power", "special-consolidate-power"]),
])
def test_westeros_three_restrictions_bar_their_orders_this_round(card, barred):
    state = westeros(6, {"winterfell": ("stark", ["footman"])}, ("supply", "game-of-thrones", card))
    assert state.restricted == barred
    stark = seat(state, "stark")
    listed = {m["order"] for m in ENGINE.legal_moves(state, stark) if m["type"] == "order"}
    assert not listed & set(barred)
    with pytest.raises(IllegalMove) as err:
        play(state, stark, "order", area="winterfell", order=barred[0])
    assert err.value.rule == E.RULE_RESTRICTED


def test_put_to_the_sword_lets_the_blade_holder_choose_the_restriction():
    state = westeros(6, {"winterfell": ("stark", ["footman"])}, ("supply", "game-of-thrones", "put-to-the-sword"))
    blade = state.tracks["fiefdoms"][0]
    assert ENGINE.to_act(state) == {blade}
    assert [m["option"] for m in ENGINE.legal_moves(state, blade)] == ["no-defense", "no-march-plus-one",
                                                                        "nothing"]
    play(state, blade, "choose", option="no-march-plus-one")
    assert state.restricted == ["march-plus-one"] and state.phase == PLANNING


def test_restrictions_last_one_round_only():
    state = westeros(3, {"winterfell": ("stark", ["footman"])}, ("supply", "game-of-thrones", "web-of-lies"))
    state.westeros_decks["III"] = ["storm-of-swords"] * 10
    play(state, "stark", "order", area="winterfell", order="defense-plus-one")
    play(state, "stark", "ready")
    if state.decisions.top is not None and state.decisions.top.kind == "raven":
        play(state, state.decisions.top.seats[0], "raven_pass")
    through_westeros(state)
    assert state.round == 3 and state.restricted == ["defense-plus-one", "defense-plus-two"]


def test_wildlings_attack_card_attacks_at_the_track_s_value():
    state = westeros(6, {"winterfell": ("stark", ["footman"])}, ("supply", "game-of-thrones", "wildlings-attack"),
                     wildlings=6)
    assert state.decisions.top.kind == "bid" and state.decisions.top.data["strength"] == 6
