"""The wildlings: the attack (secret bids, the Night's Watch against the attack's strength,
ties for highest and lowest bidder broken by the Iron Throne holder), the track after a win or a
loss, the deck (the revealed card goes to the bottom; the top card is hidden), and each of the
nine wildling cards by name, on the highest bidder, the lowest bidder and everyone else."""

from __future__ import annotations

from typing import Any

import pytest

from engines.base import IllegalMove
from engines.game_of_thrones import ENGINE
from engines.game_of_thrones.components import WILDLING_CARDS
from engines.game_of_thrones.state import PLANNING, GameState

from .conftest import play, seat
from .test_westeros import westeros

# Three players: Iron Throne order Baratheon, Lannister, Stark.
UNITS = {"winterfell": ("stark", ["footman", "knight"]), "white-harbor": ("stark", ["footman"]),
         "lannisport": ("lannister", ["footman", "knight"]), "stoney-sept": ("lannister", ["footman"]),
         "dragonstone": ("baratheon", ["footman", "knight"]), "kingswood": ("baratheon", ["footman"])}


def attack(card: str, strength: int = 6, units: dict[str, Any] | None = None, **changes: Any) -> GameState:
    """A Wildlings Attack card at ``strength`` with ``card`` on top of the wildling deck."""
    state = westeros(3, units or UNITS, ("supply", "game-of-thrones", "wildlings-attack"), wildlings=strength,
                     **changes)
    state.wildling_deck.remove(card)
    state.wildling_deck.insert(0, card)
    for s in range(3):
        state.power[s] = 5
    return state


def bids(state: GameState, **by_house: int) -> None:
    for house, n in by_house.items():
        play(state, house, "bid", power=n)


def test_every_wildling_card_of_the_data_has_an_effect():
    from engines.game_of_thrones.wildlings import EFFECTS
    assert set(WILDLING_CARDS) == set(EFFECTS) and len(WILDLING_CARDS) == 9


def test_the_night_s_watch_wins_with_bids_reaching_the_attack_and_the_track_goes_to_zero():
    state = attack("silence-at-the-wall", 6)
    bids(state, stark=3, lannister=2, baratheon=1)
    assert state.wildlings == 0 and state.power == [2, 3, 4]  # every bid is spent
    assert state.wildling_deck[-1] == "silence-at-the-wall" and state.wildling_last == "silence-at-the-wall"
    assert state.phase == PLANNING


def test_the_wildlings_win_below_the_attack_and_the_track_moves_back_two_spaces():
    state = attack("silence-at-the-wall", 8)
    bids(state, stark=3, lannister=2, baratheon=1)
    assert state.wildlings == 4


def test_bids_are_secret_until_all_are_in():
    state = attack("silence-at-the-wall", 6)
    play(state, "stark", "bid", power=4)
    for s in (None, seat(state, "lannister"), seat(state, "baratheon")):
        assert ENGINE.view(state, s)["bids"]["mine"] is None
        assert "4" not in str(ENGINE.view(state, s)["bids"])
    assert ENGINE.view(state, seat(state, "stark"))["bids"]["mine"] == 4


def test_the_top_wildling_card_is_hidden_from_every_view_but_the_raven_s_who_looked():
    state = attack("mammoth-riders", 6)
    for s in (None, 0, 1, 2):
        assert "mammoth-riders" not in str(ENGINE.view(state, s))
    state.raven_saw = 1
    assert ENGINE.view(state, 1)["wildling_top"] == "mammoth-riders"
    assert ENGINE.view(state, 0)["wildling_top"] is None


def test_a_tie_for_highest_bidder_is_broken_by_the_iron_throne_holder():
    state = attack("skinchanger-scout", 6)
    bids(state, stark=3, lannister=3, baratheon=0)
    holder = seat(state, "baratheon")
    assert state.decisions.top.kind == "ties" and ENGINE.to_act(state) == {holder}
    assert sorted(m["house"] for m in ENGINE.legal_moves(state, holder)) == ["lannister", "stark"]
    play(state, holder, "rank", house="stark")
    assert state.power[seat(state, "stark")] == 5  # Skinchanger Scout: its bid comes back


def test_a_tie_for_lowest_bidder_is_broken_by_the_iron_throne_holder():
    state = attack("skinchanger-scout", 12)
    bids(state, stark=1, lannister=1, baratheon=2)
    holder = seat(state, "baratheon")
    play(state, holder, "rank", house="lannister")
    # Lannister (lowest) loses all 4 left; the others lose 2
    assert state.power == [2, 0, 1]


def test_a_tie_is_refused_for_a_house_outside_the_tie():
    state = attack("skinchanger-scout", 12)
    bids(state, stark=1, lannister=1, baratheon=2)
    with pytest.raises(IllegalMove):
        play(state, "baratheon", "rank", house="baratheon")


# -- the nine cards --------------------------------------------------------------------------------

def test_silence_at_the_wall_does_nothing():
    state = attack("silence-at-the-wall", 12)
    before = {a: len(u) for a, u in state.units.items()}
    bids(state, stark=0, lannister=1, baratheon=2)
    assert {a: len(u) for a, u in state.units.items()} == before


def test_preemptive_raid_win_attacks_again_at_six_without_the_highest_bidder():
    state = attack("preemptive-raid", 4)
    bids(state, stark=4, lannister=0, baratheon=1)
    top = state.decisions.top
    assert top.kind == "bid" and top.data["strength"] == 6
    assert ENGINE.to_act(state) == {seat(state, "lannister"), seat(state, "baratheon")}


def test_preemptive_raid_loss_the_lowest_bidder_chooses_units_or_its_best_track():
    state = attack("preemptive-raid", 12)
    bids(state, stark=0, lannister=1, baratheon=2)
    stark = seat(state, "stark")
    assert state.decisions.top.kind == "wildling_choice" and ENGINE.to_act(state) == {stark}
    # Stark stands first on Fiefdoms (3 players)
    assert [m["option"] for m in ENGINE.legal_moves(state, stark)] == ["units", "fiefdoms"]
    play(state, stark, "choose", option="fiefdoms")
    assert state.tracks["fiefdoms"].index(stark) == 2


def test_crow_killers_loss_swaps_knights_for_footmen():
    state = attack("crow-killers", 12, units={**UNITS, "white-harbor": ("stark", ["knight"]),
                                                "kingswood": ("baratheon", ["knight", "knight"])})
    bids(state, stark=0, lannister=1, baratheon=2)
    # Stark (lowest): every knight becomes a footman
    assert all(u.kind == "footman" for a, us in state.units.items() if state.owner[a] == seat(state, "stark")
               for u in us)
    # Baratheon (everyone else) swaps 2 knights of its choice (it has three)
    b = seat(state, "baratheon")
    assert state.decisions.top.kind == "swap" and ENGINE.to_act(state) == {b}
    assert [m["option"] for m in ENGINE.legal_moves(state, b)] == ["dragonstone", "kingswood"]
    play(state, b, "choose", option="kingswood")
    play(state, b, "choose", option="kingswood")
    assert [u.kind for u in state.units["kingswood"]] == ["footman", "footman"]


def test_crow_killers_win_swaps_up_to_two_footmen_for_knights():
    state = attack("crow-killers", 4)
    bids(state, stark=4, lannister=0, baratheon=0)
    stark = seat(state, "stark")
    assert [m["option"] for m in ENGINE.legal_moves(state, stark)] == ["white-harbor", "winterfell", "done"]
    play(state, stark, "choose", option="white-harbor")
    play(state, stark, "choose", option="done")
    assert [u.kind for u in state.units["white-harbor"]] == ["knight"]


def test_rattleshirt_s_raiders_loss_lowers_supply_and_the_house_reconciles():
    state = attack("rattleshirts-raiders", 12)
    state.supply = [2, 2, 2]
    bids(state, stark=0, lannister=1, baratheon=2)
    assert state.supply == [0, 1, 1]


def test_rattleshirt_s_raiders_win_raises_the_highest_bidder_s_supply():
    state = attack("rattleshirts-raiders", 4)
    state.supply = [2, 2, 2]
    bids(state, stark=4, lannister=0, baratheon=0)
    assert state.supply == [3, 2, 2]


def test_massing_on_the_milkwater_loss_discards_the_strongest_cards_and_others_choose_one():
    state = attack("massing-on-the-milkwater", 12)
    bids(state, stark=0, lannister=1, baratheon=2)
    stark = seat(state, "stark")
    assert "eddard-stark" in state.discards[stark] and len(state.hands[stark]) == 6
    who = state.decisions.top.seats[0]
    assert state.decisions.top.kind == "wildling_choice" and who == seat(state, "baratheon")
    play(state, who, "choose", option="melisandre")
    assert "melisandre" in state.discards[who]


def test_massing_on_the_milkwater_win_takes_back_every_discard():
    state = attack("massing-on-the-milkwater", 4)
    stark = seat(state, "stark")
    state.hands[stark] = ["eddard-stark"]
    state.discards[stark] = ["robb-stark", "roose-bolton"]
    bids(state, stark=4, lannister=0, baratheon=0)
    assert sorted(state.hands[stark]) == ["eddard-stark", "robb-stark", "roose-bolton"]


def test_a_king_beyond_the_wall_loss_puts_the_lowest_last_everywhere_and_others_choose():
    state = attack("a-king-beyond-the-wall", 12)
    bids(state, stark=0, lannister=1, baratheon=2)
    stark = seat(state, "stark")
    assert all(state.tracks[t][-1] == stark for t in state.tracks)
    who = state.decisions.top.seats[0]
    assert [m["option"] for m in ENGINE.legal_moves(state, who)] == ["fiefdoms", "kings_court"]


def test_a_king_beyond_the_wall_win_puts_the_highest_first_on_a_track_of_its_choice():
    state = attack("a-king-beyond-the-wall", 4)
    bids(state, stark=4, lannister=0, baratheon=0)
    stark = seat(state, "stark")
    play(state, stark, "choose", option="iron_throne")
    assert state.tracks["iron_throne"][0] == stark  # and so it holds the Iron Throne


def test_mammoth_riders_loss_destroys_three_of_the_lowest_and_two_of_the_others():
    state = attack("mammoth-riders", 12)
    bids(state, stark=0, lannister=1, baratheon=2)
    stark = seat(state, "stark")
    assert state.decisions.top.kind == "destroy" and state.decisions.top.data["left"] == 3
    for _ in range(3):
        play(state, stark, "destroy", **{k: v for k, v in ENGINE.legal_moves(state, stark)[0].items() if k != "type"})
    assert not any(s == stark for s in state.owner.values())
    assert state.decisions.top.data["left"] == 2 and state.decisions.top.seats == [seat(state, "baratheon")]


def test_mammoth_riders_win_takes_back_one_discarded_card():
    state = attack("mammoth-riders", 4)
    stark = seat(state, "stark")
    state.hands[stark].remove("robb-stark")
    state.discards[stark] = ["robb-stark"]
    bids(state, stark=4, lannister=0, baratheon=0)
    assert [m["option"] for m in ENGINE.legal_moves(state, stark)] == ["robb-stark", "none"]
    play(state, stark, "choose", option="robb-stark")
    assert "robb-stark" in state.hands[stark]


def test_the_horde_descends_loss_destroys_two_units_in_one_castle_area():
    state = attack("the-horde-descends", 12)
    bids(state, stark=0, lannister=1, baratheon=2)
    stark = seat(state, "stark")
    areas = {m["area"] for m in ENGINE.legal_moves(state, stark)}
    assert areas == {"winterfell", "white-harbor"}
    play(state, stark, "destroy", area="winterfell", unit="knight")
    assert {m["area"] for m in ENGINE.legal_moves(state, stark)} == {"winterfell"}
    play(state, stark, "destroy", area="winterfell", unit="footman")
    assert "winterfell" not in state.units
    assert state.decisions.top.data["left"] == 1  # the next house destroys one unit


def test_the_horde_descends_win_musters_in_one_castle_area():
    state = attack("the-horde-descends", 4)
    bids(state, stark=4, lannister=0, baratheon=0)
    stark = seat(state, "stark")
    assert state.decisions.top.kind == "mustering" and state.decisions.top.data["one"]
    play(state, stark, "muster", area="winterfell")
    play(state, stark, "end_muster")
    assert state.decisions.top is None or state.decisions.top.kind != "mustering"


def test_skinchanger_scout_loss_costs_the_lowest_all_its_power_and_the_others_two():
    state = attack("skinchanger-scout", 12)
    bids(state, stark=0, lannister=1, baratheon=2)
    assert state.power == [0, 2, 1]


def test_skinchanger_scout_win_returns_the_highest_bidder_s_bid():
    state = attack("skinchanger-scout", 4)
    bids(state, stark=4, lannister=0, baratheon=1)
    assert state.power == [5, 5, 4]
