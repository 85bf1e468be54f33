"""The good bot plays A Game of Thrones as a player would: it keeps its capital, musters where
it can, backs its own battles, bids with sense, answers within its time, and beats the easy bot.

Each position is a real one: a game dealt by the engine, its board replaced where a test says
so, and every step before the decision played through the engine's own moves."""

from __future__ import annotations

import time
from typing import Any

from engines.bots import Budget, decide
from engines.bots.hooks import hooks_for
from engines.game_of_thrones import ENGINE
from engines.game_of_thrones import westeros as W
from engines.game_of_thrones.components import ORDERS
from engines.game_of_thrones.state import GameState
from engines.kit import Commitments, Rng
from engines.tournament import Setup, play_one

from .conftest import plan, play, position, seat

FIXED = Budget(iterations=4, seconds=None)


def good(state: GameState, who: int) -> dict[str, Any]:
    return decide(ENGINE, state, who, "good", Rng.from_seed(7), FIXED).move


def strength_in(state: GameState, area: str) -> int:
    return sum({"footman": 1, "knight": 2}.get(u.kind, 0) for u in state.units.get(area, []))


# -- its capital -----------------------------------------------------------------------------------

def test_the_good_bot_defends_its_capital_when_an_enemy_next_to_it_could_take_it():
    """Two Greyjoy knights (4) in Moat Cailin beside Winterfell, held by a footman and the garrison
    (3): Stark's first order is a Defense on Winterfell, not a march into empty Castle Black."""
    state = position(6, {"winterfell": ("stark", ["footman"]), "moat-cailin": ("greyjoy", ["knight", "knight"])})
    stark = seat(state, "stark")
    move = good(state, stark)
    assert move["type"] == "order" and move["area"] == "winterfell"
    assert ORDERS[move["order"]].kind == "defense"


def test_the_good_bot_marches_out_of_its_capital_only_what_leaves_it_held():
    """Winterfell holds a footman, a knight and its garrison (5) beside two Greyjoy knights (4).
    Ordered to march, Stark may send the footman out (4 stay) but never the knight."""
    state = position(6, {"winterfell": ("stark", ["footman", "knight"]),
                         "moat-cailin": ("greyjoy", ["knight", "knight"])})
    stark = seat(state, "stark")
    plan(state, {"winterfell": "march", "moat-cailin": "defense-plus-one"})
    play(state, stark, "march", area="winterfell")
    while state.decisions.top is not None and state.decisions.top.kind == "march_moves":
        move = good(state, stark)
        assert not (move["type"] == "move" and move["unit"] == "knight"), move
        ENGINE.play(state, stark, move)
    assert [u.kind for u in state.units["winterfell"]] == ["knight"]
    assert state.owner["winterfell"] == stark


def march_all_out(origin: str, to: str, power: int) -> dict[str, Any]:
    """Stark's footman marches from ``origin`` into empty ``to``; the good bot's way to end."""
    state = position(6, {origin: ("stark", ["footman"]), "lannisport": ("lannister", ["footman"])})
    stark = seat(state, "stark")
    state.power[stark] = power
    plan(state, {origin: "march", "lannisport": "defense-plus-one"})
    play(state, stark, "march", area=origin)
    play(state, stark, "move", unit="footman", to=to)
    move = good(state, stark)
    assert move["type"] == "end_march"
    return move


def test_the_good_bot_spends_power_to_hold_a_castle_it_empties_but_keeps_its_last_tokens_elsewhere():
    assert march_all_out("white-harbor", "widows-watch", 1)["power"] is True  # a castle
    assert march_all_out("karhold", "castle-black", 2)["power"] is False  # crowns, but the last two tokens
    assert march_all_out("karhold", "castle-black", 3)["power"] is True


# -- mustering -------------------------------------------------------------------------------------

def test_the_good_bot_musters_with_a_special_consolidate_power_in_its_stronghold_and_spends_every_point():
    """Consolidate Power's special order in Winterfell (a stronghold: 2 points): Stark musters
    rather than take Power, upgrades its footman to a knight (1 point: +1 strength, no supply),
    then spends the last point on a unit (a ship: it has none at sea), no point left unspent."""
    state = position(6, {"winterfell": ("stark", ["footman"]), "lannisport": ("lannister", ["footman"])})
    stark = seat(state, "stark")
    plan(state, {"winterfell": "special-consolidate-power", "lannisport": "defense-plus-one"})
    assert state.decisions.top.kind == "consolidate"
    move = good(state, stark)
    assert move == {"type": "muster", "area": "winterfell"}
    ENGINE.play(state, stark, move)
    while state.decisions.top is not None and state.decisions.top.kind == "muster":
        move = good(state, stark)
        assert move["type"] == "recruit", move
        ENGINE.play(state, stark, move)
    assert [u.kind for u in state.units["winterfell"]] == ["knight"]
    assert sum(len(us) for a, us in state.units.items() if state.owner[a] == stark) == 2


def mustering_positions(seats: int, seed: int) -> list[tuple[GameState, int]]:
    """Positions of a seeded easy game where a house decides how to muster (the Westeros card
    Mustering, or a special Consolidate Power) and could muster something."""
    import copy

    state = ENGINE.new_game(seats, seed, {})
    rng = Rng.from_seed(seed)
    out = []
    while ENGINE.to_act(state):
        who = min(ENGINE.to_act(state))
        top = state.decisions.top
        legal = ENGINE.legal_moves(state, who)
        if top is not None and top.kind in ("mustering", "muster") and len(legal) > 1:
            out.append((copy.deepcopy(state), who))
        ENGINE.play(state, who, decide(ENGINE, state, who, "easy", rng).move)
    return out


def test_the_good_bot_never_ends_mustering_while_it_can_still_muster():
    positions = [p for seed in (3, 4) for p in mustering_positions(6, seed)]
    assert len(positions) >= 10
    for state, who in positions:
        move = good(state, who)
        assert move["type"] != "end_muster", (state.decisions.top, ENGINE.legal_moves(state, who))


# -- support ---------------------------------------------------------------------------------------

def test_the_good_bot_orders_support_next_to_the_battle_its_own_march_will_fight():
    """Stark has placed its three March orders (one from Winterfell, next to Greyjoy's Moat
    Cailin); White Harbor, next to Moat Cailin too, gets a Support order rather than the special
    Consolidate Power that would muster there."""
    state = position(6, {"winterfell": ("stark", ["footman", "knight"]), "karhold": ("stark", ["footman"]),
                         "castle-black": ("stark", ["footman"]), "white-harbor": ("stark", ["footman"]),
                         "moat-cailin": ("greyjoy", ["footman"])})
    stark = seat(state, "stark")
    for area, token in (("winterfell", "march-plus-one"), ("karhold", "march"), ("castle-black", "march-minus-one")):
        play(state, stark, "order", area=area, order=token)
    move = good(state, stark)
    assert move["type"] == "order" and move["area"] == "white-harbor"
    assert ORDERS[move["order"]].kind == "support"


def test_the_good_bot_backs_its_own_side_and_nobody_in_a_battle_of_two_others():
    """Tyrell marches from the Reach on Lannister's Blackwater; Lannister's Support in Stoney Sept
    backs the defender; Baratheon's in King's Landing backs nobody."""
    units = {"the-reach": ("tyrell", ["knight", "footman"]), "blackwater": ("lannister", ["footman"]),
             "stoney-sept": ("lannister", ["footman"]), "kings-landing": ("baratheon", ["footman"])}
    state = position(6, units)
    state.neutral.pop("kings-landing", None)
    plan(state, {"the-reach": "march", "blackwater": "defense-plus-one", "stoney-sept": "support",
                 "kings-landing": "support"})
    tyrell = seat(state, "tyrell")
    play(state, tyrell, "march", area="the-reach")
    play(state, tyrell, "move", unit="knight", to="blackwater")
    play(state, tyrell, "end_march", power=False)
    sides = {}
    while state.decisions.top is not None and state.decisions.top.kind == "support":
        who = state.decisions.top.seats[0]
        move = good(state, who)
        sides[state.houses[who]] = move["side"]
        ENGINE.play(state, who, move)
    assert sides == {"lannister": "defender", "baratheon": "none"}


# -- bids ------------------------------------------------------------------------------------------

def bidding(track: str, power: list[int], *, wildlings: int = 2, leader: str | None = None) -> GameState:
    """A dealt six-player game at the bidding for ``track``, each house holding ``power``."""
    state = position(6)
    state.planning, state.phase = Commitments(), "westeros"
    state.power = list(power)
    state.wildlings = wildlings
    if leader is not None:
        order = state.tracks[track]
        order.remove(seat(state, leader))
        order.insert(0, seat(state, leader))
    W.ask_bids(state, list(range(6)), {"for": "track", "track": track})
    return state


def bid_of(state: GameState, house: str) -> int:
    move = good(state, seat(state, house))
    assert move["type"] == "bid"
    return int(move["power"])


def test_the_good_bot_never_pours_all_its_power_into_a_track_it_already_leads():
    state = bidding("fiefdoms", [10, 8, 8, 8, 8, 8], leader="stark")
    assert 0 < bid_of(state, "stark") <= 5


def test_the_good_bot_bids_no_more_than_it_takes_to_be_first():
    """Every other house holds one Power token: two outbid them all (the Iron Throne is not
    Stark's, so a tie would not be)."""
    state = bidding("iron_throne", [8, 1, 1, 1, 1, 1])
    assert state.tracks["iron_throne"][0] != seat(state, "stark")
    assert bid_of(state, "stark") == 2


def test_the_good_bot_keeps_power_for_the_wildlings_when_their_threat_is_high():
    calm = bid_of(bidding("kings_court", [8, 12, 12, 12, 12, 12], wildlings=2), "stark")
    threatened = bid_of(bidding("kings_court", [8, 12, 12, 12, 12, 12], wildlings=10), "stark")
    assert threatened < calm
    assert 8 - threatened >= 2  # its part of a strength-10 attack among six houses


def test_the_good_bot_bids_its_part_of_a_wildling_attack_and_one_more():
    state = position(6)
    state.planning, state.phase = Commitments(), "westeros"
    state.power = [10] * 6
    W.ask_bids(state, list(range(6)), {"for": "wildlings", "strength": 12})
    assert bid_of(state, "stark") == 3


# -- time, and strength --------------------------------------------------------------------------

def searched_positions(seats: int, seed: int, wanted: int) -> list[tuple[GameState, int]]:
    """Positions of a seeded easy game where the good bot would search (no heuristic settles
    the choice and more than one move is sensible)."""
    import copy

    hooks = hooks_for(ENGINE)
    state = ENGINE.new_game(seats, seed, {})
    rng = Rng.from_seed(seed)
    out = []
    while ENGINE.to_act(state) and len(out) < wanted:
        who = min(ENGINE.to_act(state))
        choice = decide(ENGINE, state, who, "easy", rng)
        seen = ENGINE.determinize(hooks.canonical(state, who), who, Rng.from_seed(0))
        if choice.considered > 1 and hooks.policy(ENGINE, seen, who, ENGINE.legal_moves(seen, who)) is None:
            out.append((copy.deepcopy(state), who))
        ENGINE.play(state, who, choice.move)
    return out


def test_the_good_bot_thinks_no_longer_than_its_budget_at_six_seats():
    """The site's budget (BOT_THINK_SECONDS, 0.9 s) bounds a searched choice; the choices the
    heuristic settles take a few milliseconds."""
    positions = searched_positions(6, 11, 3)
    assert len(positions) == 3
    for state, who in positions:
        start = time.thread_time()
        choice = decide(ENGINE, state, who, "good", Rng.from_seed(1), Budget(iterations=10**9, seconds=0.3))
        spent = time.thread_time() - start
        assert choice.iterations > 1 and spent < 0.3 + 0.1
    state = ENGINE.new_game(6, 11, {})
    start = time.thread_time()
    for _ in range(20):
        who = min(ENGINE.to_act(state))
        ENGINE.play(state, who, decide(ENGINE, state, who, "good", Rng.from_seed(1)).move)
    assert (time.thread_time() - start) / 20 < 0.05


def test_the_good_bot_beats_the_easy_ones_in_a_small_seeded_match():
    """One good bot against three easy ones, seats rotated, six seeded games (reproducible: an
    iteration budget, no clock): it wins at least five."""
    setup = Setup("game_of_thrones", 4, ("good", "easy", "easy", "easy"), 1, FIXED)
    wins = 0.0
    for g in range(6):
        outcome = play_one(setup, g)
        assert outcome.error is None
        wins += outcome.shares[0]
    assert wins >= 5
