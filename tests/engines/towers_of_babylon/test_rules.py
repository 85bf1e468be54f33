"""Every rule of the seed, each test named for the rule it checks (seed section in the docstring)."""

from __future__ import annotations

import pytest

from engines.base import IllegalMove
from engines.towers_of_babylon.components import BATTLEFIELD, EXHAUSTED, IMMOBILE, RAMPARTS, READY, TOWER
from engines.towers_of_babylon.state import TOWER_TARGET, WHEN_ABLE

from .conftest import ENGINE, R, dealt, give, main_phase, minion, play, power, put, texts


def refused(state, seat, words, **move):
    before = ENGINE.encode(state)
    with pytest.raises(IllegalMove) as err:
        ENGINE.play(state, seat, move)
    assert words in err.value.message, err.value.message
    assert ENGINE.encode(state) == before
    return err.value


# ============================================================================ Game Setup
def test_setup_towers_at_10_transformed_power_at_0_turn_markers_at_0():
    state = ENGINE.new_game(2, 3, {})
    assert [(p.tower, p.transformed, p.turns) for p in state.players] == [(10, 0, 0), (10, 0, 0)]


def test_setup_who_plays_first_is_decided_by_lot():
    firsts = {ENGINE.new_game(2, seed, {}).first for seed in range(40)}
    assert firsts == {0, 1}


def test_setup_first_player_draws_4_second_draws_5_and_starts_with_1_transformed_power():
    state = ENGINE.new_game(2, 5, {})
    for seat in (0, 1):
        play(state, seat, type="deck", deck="earth_bastion")
    first, second = state.first, 1 - state.first
    assert len(state.players[first].hand) == 4 and len(state.players[second].hand) == 5
    assert state.players[first].transformed == 0 and state.players[second].transformed == 1
    assert all(len(p.deck) + len(p.hand) == 60 for p in state.players)


def test_setup_each_player_may_put_up_to_3_cards_on_the_bottom_and_draws_as_many():
    state = ENGINE.new_game(2, 5, {})
    for seat in (0, 1):
        play(state, seat, type="deck", deck="water_tide")
    second = 1 - state.first
    hand = sorted(state.players[second].hand)
    assert len(ENGINE.legal_moves(state, second)) == 1 + 5 + 10 + 10  # none, one, two or three of five
    refused(state, second, "at most 3 cards", type="mulligan", cards=hand[:4])
    refused(state, second, "in increasing order", type="mulligan", cards=[hand[2], hand[0]])
    play(state, second, type="mulligan", cards=hand[:3])
    play(state, state.first, type="mulligan", cards=[])
    pl = state.players[second]
    assert pl.deck[:3] == list(reversed(hand[:3])) and len(pl.hand) == 5 and pl.known_bottom == 3
    assert not set(hand[:3]) & set(pl.hand)
    assert pl.mulliganed == 3 and state.players[state.first].mulliganed == 0


def test_setup_the_mulligan_is_a_hidden_simultaneous_choice():
    state = ENGINE.new_game(2, 5, {})
    for seat in (0, 1):
        play(state, seat, type="deck", deck="water_tide")
    assert ENGINE.to_act(state) == {0, 1}
    choice = sorted(state.players[0].hand)[:2]
    events = play(state, 0, type="mulligan", cards=choice)
    assert ENGINE.to_act(state) == {1}
    other = ENGINE.view(state, 1)
    assert other["mulligan"] == {"asked": [0, 1], "chosen": [0], "ready": [0], "own": None}
    assert ENGINE.view(state, 0)["mulligan"]["own"] == choice
    assert "put back" not in events[0].for_seat(1) and "You put back" in events[0].for_seat(0)


# ============================================================================ Decks
def test_decks_each_seat_chooses_its_own_deck_hidden_until_both_have_chosen():
    state = ENGINE.new_game(2, 9, {})
    elsewhere = ENGINE.new_game(2, 9, {})
    play(state, 1, type="deck", deck="light_citadel")
    play(elsewhere, 1, type="deck", deck="water_tide")
    view = ENGINE.view(state, 0)
    assert view["deck_choice"]["chosen"] == [1] and view["deck_choice"]["own"]["count"] == 0
    assert view == ENGINE.view(elsewhere, 0) and ENGINE.view(state, None) == ENGINE.view(elsewhere, None)
    play(state, 0, type="deck", deck="fire_legion")
    assert [p.deck_name for p in state.players] == ["Ember Legion", "Dawn Citadel"]
    assert ENGINE.view(state, 0)["players"][1]["deck_list"] == dict(sorted(
        R.DECKS["light_citadel"]["cards"].items()))


def test_decks_a_custom_deck_is_put_together_card_by_card_and_is_ready_at_exactly_60():
    state = ENGINE.new_game(2, 9, {})
    cards = R.DECKS["earth_bastion"]["cards"]
    for i, (cid, n) in enumerate(cards.items()):
        if i == 3:
            assert {"type": "ready"} not in ENGINE.legal_moves(state, 0)
            refused(state, 0, "Deck rule 1 (size): a deck holds exactly 60 cards", type="ready")
        play(state, 0, type="add", card=cid, copies=n)
    assert ENGINE.legal_moves(state, 0)[-2:] == [{"type": "clear"}, {"type": "ready"}]
    assert not [m for m in ENGINE.legal_moves(state, 0) if m["type"] == "add"]
    play(state, 0, type="ready")
    play(state, 1, type="deck", deck="water_tide")
    assert state.players[0].deck_name == "Custom deck" and state.players[0].deck_list == dict(sorted(cards.items()))


def test_decks_an_illegal_addition_is_refused_naming_the_card_and_the_rule():
    state = ENGINE.new_game(2, 9, {})
    refused(state, 0, "Scarlet Elder is rare, and a deck may hold at most 2 copies of a rare card, not 3",
            type="add", card="fire_scarlet_elder", copies=3)
    play(state, 0, type="add", card="fire_ember_imp", copies=4)
    play(state, 0, type="add", card="light_dawn_squire", copies=1)
    refused(state, 0, "Deck rule 3 (factions): Tide Sprite is a Water card", type="add",
            card="water_tide_sprite", copies=1)
    refused(state, 0, "there is no card 'dragon'", type="add", card="dragon", copies=1)
    play(state, 0, type="clear")
    assert R.draft_of(state, 0) == {}


# ============================================================================ Start of a turn
def test_start_of_turn_in_order_turn_marker_power_sources_ready_minions_invocations_draw():
    state = main_phase()
    pl = state.players[0]
    pl.exhausted = ["fire", "fire"]
    imp = put(state, 0, "fire_ember_imp", BATTLEFIELD, EXHAUSTED)
    paladin = put(state, 1, "light_sun_blessed_paladin", RAMPARTS, EXHAUSTED, damage=3)
    fuse = give(state, 0, "fire_slow_fuse")
    power(state, 0, "fire", "fire")
    play(state, 0, type="play", card=fuse, target=TOWER_TARGET)
    assert pl.invocations == [fuse]
    hand = len(pl.hand)
    events = play(state, 0, type="end")
    assert state.active == 1 and state.players[1].turns == 1
    assert paladin.status == READY and paladin.damage == 0  # ready; Regenerating removed its damage
    assert state.decisions.kind() == R.START
    play(state, 1, type="draw")
    events = play(state, 1, type="end")
    log = texts(events)
    assert pl.turns == 2 and imp.status == READY
    assert pl.available == ["fire", "fire", "fire", "fire"] and pl.exhausted == []
    assert "Slow Fuse resolves" in log and log.index("Slow Fuse") < log.index("draws")
    assert state.players[1].tower == 10 - 3 and pl.invocations == [] and fuse in pl.discard
    assert len(pl.hand) == hand + 1


def test_start_of_turn_draw_a_second_card_or_make_an_offering():
    state = dealt(2)
    seat = state.first
    pl = state.players[seat]
    hand = list(pl.hand)
    moves = ENGINE.legal_moves(state, seat)
    assert moves == [{"type": "draw"}] + [{"type": "offer", "card": i} for i in hand]
    card = hand[0]
    events = play(state, seat, type="offer", card=card)
    assert pl.sacrifice == [card] and pl.available == [state.card(card).faction]
    assert "offers" in texts(events) and state.decisions.kind() == R.MAIN


def test_offering_gives_a_power_source_of_the_cards_colour_usable_at_once():
    state = main_phase()
    give(state, 0, "fire_ember_imp")
    assert not R.play_moves(state, 0)
    state.decisions.pop()
    state.decisions.push(R.Decision(R.START, [0]))
    imp = state.players[0].hand[0]
    other = give(state, 0, "fire_torchbearer")
    play(state, 0, type="offer", card=other)
    assert R.play_moves(state, 0) == [(imp, TOWER_TARGET)]


# ============================================================================ Main phase
def test_play_a_minion_pays_its_power_cost_with_the_specific_cost_in_matching_symbols():
    state = main_phase(decks=("light_citadel", "fire_legion"))
    paladin = give(state, 0, "light_sun_blessed_paladin")
    power(state, 0, "light", "fire", "fire", "water")
    refused(state, 0, "Sun Blessed Paladin costs 4 power, at least 2 of it Light; you have 4 available, 1 of "
            "them Light", type="play", card=paladin, target=TOWER_TARGET)
    power(state, 0, "light", "light", "light", "fire", "water")
    play(state, 0, type="play", card=paladin, target=TOWER_TARGET, pay=["fire", "light", "light", "water"])
    pl = state.players[0]
    assert sorted(pl.exhausted) == ["fire", "light", "light", "water"] and pl.available == ["light"]


def test_play_a_minion_puts_it_on_the_ramparts_immobile():
    state = main_phase()
    imp = give(state, 0, "fire_ember_imp")
    power(state, 0, "fire")
    play(state, 0, type="play", card=imp, target=TOWER_TARGET)
    m = minion(state, imp)
    assert (m.zone, m.status) == (RAMPARTS, IMMOBILE)
    assert not [mv for mv in ENGINE.legal_moves(state, 0) if mv["type"] == "move"]


def test_play_a_command_resolves_its_effect_then_goes_to_the_discard_pile():
    state = main_phase()
    target = put(state, 1, "light_dawn_squire", RAMPARTS)
    fireball = give(state, 0, "fire_fireball")
    power(state, 0, "fire", "fire", "fire")
    refused(state, 0, "is not a target", type="play", card=fireball, target=TOWER_TARGET)
    play(state, 0, type="play", card=fireball, target=target.iid)
    assert state.minion(target.iid) is None and target.iid in state.players[1].discard
    assert fireball in state.players[0].discard


def test_a_spell_without_a_legal_target_cannot_be_played():
    state = main_phase()
    smite = give(state, 0, "light_smite")
    power(state, 0, "light", "light", "light", "light")
    put(state, 1, "fire_ember_imp", RAMPARTS)
    assert not R.play_moves(state, 0)
    refused(state, 0, "needs a target and there is none", type="play", card=smite, target=TOWER_TARGET)


def test_main_phase_each_action_may_be_made_as_many_times_as_the_resources_allow():
    """Main Phase: "You can make each action as many times as you want, as long as you have the
    resources required." Two minions played, two builders build, two raiders attack; a third
    card waits for power."""
    state = main_phase()
    imps = [give(state, 0, "fire_ember_imp") for _ in range(3)]
    power(state, 0, "fire", "fire")
    builders = [put(state, 0, "fire_forge_apprentice", TOWER) for _ in range(2)]
    raiders = [put(state, 0, "fire_ash_hound", BATTLEFIELD) for _ in range(2)]
    for imp in imps[:2]:
        play(state, 0, type="play", card=imp, target=TOWER_TARGET)
    refused(state, 0, "you have 0 available", type="play", card=imps[2], target=TOWER_TARGET)
    tower = state.players[0].tower
    for b in builders:
        play(state, 0, type="build", minion=b.iid)
    assert state.players[0].tower == tower + sum(b.construction for b in builders)
    for r in raiders:
        play(state, 0, type="attack", minion=r.iid, target=TOWER_TARGET)
        play(state, 1, type="pass")
    assert state.players[1].tower == 10 - sum(r.might for r in raiders)
    assert [minion(state, i).zone for i in imps[:2]] == [RAMPARTS, RAMPARTS]


def test_move_a_ready_minion_to_another_zone_makes_it_immobile():
    state = main_phase()
    m = put(state, 0, "fire_ash_hound", RAMPARTS)
    play(state, 0, type="move", minion=m.iid, zone=BATTLEFIELD)
    assert (m.zone, m.status) == (BATTLEFIELD, IMMOBILE)
    refused(state, 0, "only Ready minions can move, and Ash Hound is immobile", type="move", minion=m.iid, zone=TOWER)


def test_an_immobile_minion_can_still_build_defend_and_attack():
    state = main_phase()
    builder = put(state, 0, "fire_forge_apprentice", TOWER, IMMOBILE)
    raider = put(state, 0, "fire_ash_hound", BATTLEFIELD, IMMOBILE)
    moves = ENGINE.legal_moves(state, 0)
    assert {"type": "build", "minion": builder.iid} in moves
    assert {"type": "attack", "minion": raider.iid, "target": TOWER_TARGET} in moves
    defender = put(state, 1, "light_dawn_squire", RAMPARTS, IMMOBILE)
    play(state, 0, type="attack", minion=raider.iid, target=TOWER_TARGET)
    assert {"type": "block", "minion": defender.iid} in ENGINE.legal_moves(state, 1)


def test_build_exhausts_a_builder_and_raises_the_tower_by_its_construction():
    state = main_phase()
    elder = put(state, 0, "fire_scarlet_elder", TOWER)
    play(state, 0, type="build", minion=elder.iid)
    assert state.players[0].tower == 13 and elder.status == EXHAUSTED
    refused(state, 0, "exhausted Builders can't build", type="build", minion=elder.iid)
    raider = put(state, 0, "fire_ash_hound", BATTLEFIELD)
    refused(state, 0, "only Builders (minions in the Tower) can build", type="build", minion=raider.iid)


def test_exhausted_minions_cannot_move_attack_block_or_build():
    state = main_phase()
    tired = [put(state, 0, "fire_ash_hound", z, EXHAUSTED) for z in (RAMPARTS, TOWER, BATTLEFIELD)]
    moves = ENGINE.legal_moves(state, 0)
    assert not [m for m in moves if m.get("minion") in {t.iid for t in tired}]
    refused(state, 0, "exhausted Raiders can't attack", type="attack", minion=tired[2].iid, target=TOWER_TARGET)
    blocker = put(state, 1, "light_dawn_squire", RAMPARTS, EXHAUSTED)
    raider = put(state, 0, "fire_ember_imp", BATTLEFIELD)
    state.players[1].windows = "always"
    play(state, 0, type="attack", minion=raider.iid, target=TOWER_TARGET)
    assert {"type": "block", "minion": blocker.iid} not in ENGINE.legal_moves(state, 1)
    refused(state, 1, "only a Defender", type="block", minion=blocker.iid)


# ============================================================================ Clashing
def test_attack_exhausts_the_raider_and_targets_an_enemy_minion_or_the_enemy_tower():
    state = main_phase()
    raider = put(state, 0, "fire_ash_hound", BATTLEFIELD)
    enemy = put(state, 1, "light_temple_novice", TOWER)
    targets = sorted(m["target"] for m in ENGINE.legal_moves(state, 0) if m["type"] == "attack")
    assert targets == [TOWER_TARGET, enemy.iid]
    refused(state, 0, "the target must be an enemy minion", type="attack", minion=raider.iid, target=raider.iid)
    play(state, 0, type="attack", minion=raider.iid, target=enemy.iid)
    assert raider.status == EXHAUSTED


def test_clash_the_defender_may_block_with_a_defender_and_the_clash_is_with_the_blocker():
    state = main_phase()
    raider = put(state, 0, "fire_cinder_runner", BATTLEFIELD)    # might 2, health 2
    put(state, 1, "light_temple_novice", TOWER)
    guard = put(state, 1, "light_lantern_warden", RAMPARTS, damage=1)  # might 2, health 3, 1 damage
    play(state, 0, type="attack", minion=raider.iid, target=TOWER_TARGET)
    assert ENGINE.to_act(state) == {1}
    assert ENGINE.legal_moves(state, 1) == [{"type": "block", "minion": guard.iid}, {"type": "pass"}]
    events = play(state, 1, type="block", minion=guard.iid)
    assert state.minion(raider.iid) is None and raider.iid in state.players[0].discard  # 2 damage on health 2
    assert state.minion(guard.iid) is None and guard.iid in state.players[1].discard    # 1 + 2 on health 3
    assert state.players[1].tower == 10 and "clashes" in texts(events)
    assert state.decisions.kind() == R.MAIN and ENGINE.to_act(state) == {0}


def test_clash_both_deal_their_might_and_a_survivor_keeps_its_damage_markers():
    state = main_phase()
    raider = put(state, 0, "fire_blazing_duelist", BATTLEFIELD)  # 3 might, 3 health
    target = put(state, 1, "light_halo_sentinel", TOWER)          # 2 might, 4 health
    play(state, 0, type="attack", minion=raider.iid, target=target.iid)
    play(state, 1, type="pass")
    assert raider.damage == 2 and target.damage == 3


def test_clash_the_defending_minion_becomes_exhausted():
    state = main_phase()
    raider = put(state, 0, "fire_ember_imp", BATTLEFIELD)
    guard = put(state, 1, "light_halo_sentinel", RAMPARTS)
    play(state, 0, type="attack", minion=raider.iid, target=TOWER_TARGET)
    play(state, 1, type="block", minion=guard.iid)
    assert guard.status == EXHAUSTED and guard.damage == 2


def test_clash_an_attack_on_a_raider_cannot_be_blocked():
    state = main_phase()
    raider = put(state, 0, "fire_ember_imp", BATTLEFIELD)
    enemy = put(state, 1, "light_dawn_squire", BATTLEFIELD)
    put(state, 1, "light_halo_sentinel", RAMPARTS)
    play(state, 0, type="attack", minion=raider.iid, target=enemy.iid)
    assert ENGINE.legal_moves(state, 1) == [{"type": "pass"}]


def test_clash_an_unblocked_attack_on_the_tower_lowers_it_by_the_attackers_might():
    state = main_phase()
    raider = put(state, 0, "fire_magma_brute", BATTLEFIELD)
    put(state, 1, "light_halo_sentinel", RAMPARTS)
    play(state, 0, type="attack", minion=raider.iid, target=TOWER_TARGET)
    play(state, 1, type="pass")
    assert state.players[1].tower == 6


def test_clash_an_exhausted_target_cannot_defend_and_deals_no_damage_back():
    state = main_phase()
    raider = put(state, 0, "fire_ember_imp", BATTLEFIELD)        # 2 might, 1 health
    builder = put(state, 1, "light_beacon_keeper", TOWER, EXHAUSTED)
    play(state, 0, type="attack", minion=raider.iid, target=builder.iid)
    play(state, 1, type="pass")
    assert raider.damage == 0 and builder.damage == 2


def test_clash_a_tower_never_goes_below_zero():
    state = main_phase()
    state.players[1].tower = 2
    raider = put(state, 0, "fire_magma_brute", BATTLEFIELD)
    play(state, 0, type="attack", minion=raider.iid, target=TOWER_TARGET)
    play(state, 1, type="pass")
    assert state.players[1].tower == 0


# ============================================================================ End of turn
def test_end_of_turn_unused_power_sources_are_exhausted_and_each_adds_one_transformed_power():
    state = main_phase()
    power(state, 0, "fire", "fire", "light")
    state.players[0].exhausted = ["fire"]
    play(state, 0, type="end")
    pl = state.players[0]
    assert pl.available == [] and sorted(pl.exhausted) == ["fire", "fire", "fire", "light"]
    assert pl.transformed == 3


def test_end_of_turn_transformed_power_is_saved_from_turn_to_turn():
    """End of turn: "Transformed Power is saved from turn to turn"."""
    state = main_phase()
    power(state, 0, "fire", "fire")
    play(state, 0, type="end")
    assert state.players[0].transformed == 2
    play(state, 1, type="draw")
    play(state, 1, type="end")   # the opponent's turn, then the start of the next: still there
    play(state, 0, type="draw")
    assert state.players[0].transformed == 2
    play(state, 0, type="end")   # the two sources, available again and unused: +2 on top
    assert state.players[0].transformed == 4


def test_witcheries_are_paid_from_transformed_power_not_from_power_sources():
    state = main_phase()
    rage = give(state, 0, "fire_flash_of_rage")
    m = put(state, 0, "fire_ash_hound", BATTLEFIELD)
    power(state, 0, "fire", "fire")
    refused(state, 0, "Flash of Rage costs 1 transformed power and you have 0", type="play", card=rage, target=m.iid)
    state.players[0].transformed = 2
    play(state, 0, type="play", card=rage, target=m.iid)
    assert state.players[0].transformed == 1 and state.players[0].available == ["fire", "fire"]
    assert m.might == 5
    play(state, 0, type="end")
    assert m.might == 3  # "this turn"


def test_invocations_stay_in_play_until_they_resolve_at_the_start_of_the_next_turn_then_are_discarded():
    """Spells: "Invocations have a delayed effect ... They stay in play, until their effect has
    resolved at the given time, and are then discarded." """
    state = main_phase(decks=("light_citadel", "fire_legion"))
    prayer = give(state, 0, "light_dawn_prayer")
    power(state, 0, "light", "light")
    play(state, 0, type="play", card=prayer, target=TOWER_TARGET)
    pl = state.players[0]
    assert pl.invocations == [prayer] and prayer not in pl.discard and pl.tower == 10
    play(state, 0, type="end")
    assert pl.invocations == [prayer]  # through the opponent's turn
    play(state, 1, type="draw")
    play(state, 1, type="end")
    assert pl.invocations == [] and prayer in pl.discard and pl.tower == 14


def test_witcheries_like_commands_resolve_at_once_and_are_then_discarded():
    """Spells: "Like Commands, Witcheries have an immediate effect, and are then discarded." """
    state = main_phase(decks=("earth_bastion", "fire_legion"))
    skin = give(state, 0, "earth_stone_skin")
    m = put(state, 0, "earth_guild_mason", TOWER)
    state.players[0].transformed = 1
    play(state, 0, type="play", card=skin, target=m.iid)
    assert m.health == 5 and skin in state.players[0].discard and skin not in state.players[0].hand


# ============================================================================ Witcheries
def test_witchery_when_an_enemy_minion_is_attacking_is_played_in_the_defence_window():
    state = main_phase(decks=("light_citadel", "fire_legion"))
    raider = put(state, 0, "light_sky_griffin", BATTLEFIELD)
    backdraft = give(state, 1, "fire_backdraft")
    state.players[1].transformed = 2
    assert (backdraft, TOWER_TARGET) not in R.play_moves(state, 1)
    play(state, 0, type="attack", minion=raider.iid, target=TOWER_TARGET)
    assert {"type": "play", "card": backdraft, "target": TOWER_TARGET} in ENGINE.legal_moves(state, 1)
    play(state, 1, type="play", card=backdraft, target=TOWER_TARGET)
    assert raider.damage == 3 and ENGINE.to_act(state) == {1}   # still answering the attack
    play(state, 1, type="pass")
    assert state.players[1].tower == 10 - 4 and raider.zone == RAMPARTS  # Retreating


def test_witchery_a_witchery_that_kills_the_attacker_ends_the_attack_without_a_clash():
    state = main_phase(decks=("light_citadel", "fire_legion"))
    raider = put(state, 0, "light_dawn_squire", BATTLEFIELD)
    backdraft = give(state, 1, "fire_backdraft")
    state.players[1].transformed = 2
    play(state, 0, type="attack", minion=raider.iid, target=TOWER_TARGET)
    play(state, 1, type="play", card=backdraft, target=TOWER_TARGET)
    assert state.minion(raider.iid) is None and state.players[1].tower == 10
    assert state.attack is None and ENGINE.to_act(state) == {0}


def test_witchery_halt_ends_the_attack_without_a_clash():
    state = main_phase(decks=("fire_legion", "light_citadel"))
    raider = put(state, 0, "fire_magma_brute", BATTLEFIELD)
    aegis = give(state, 1, "light_aegis_of_dawn")
    state.players[1].transformed = 2
    play(state, 0, type="attack", minion=raider.iid, target=TOWER_TARGET)
    play(state, 1, type="play", card=aegis, target=TOWER_TARGET)
    assert state.players[1].tower == 10 and state.attack is None and raider.status == EXHAUSTED


def test_witchery_at_any_time_may_be_played_in_your_main_phase_and_on_the_opponents_attack():
    state = main_phase(decks=("water_tide", "earth_bastion"))
    skin = give(state, 1, "earth_stone_skin")
    state.players[1].transformed = 1
    guard = put(state, 1, "earth_boulder_golem", RAMPARTS)
    raider = put(state, 0, "water_undertow_raider", BATTLEFIELD)
    play(state, 0, type="attack", minion=raider.iid, target=guard.iid)
    play(state, 1, type="play", card=skin, target=guard.iid)
    assert guard.health == 8
    ebb = give(state, 0, "water_ebb")
    state.players[0].transformed = 2
    play(state, 1, type="pass")
    play(state, 0, type="play", card=ebb, target=guard.iid)   # in the main phase
    assert guard.status == EXHAUSTED


def test_witchery_when_a_friendly_minion_enters_is_open_until_your_next_other_action():
    state = main_phase(decks=("water_tide", "fire_legion"))
    current = give(state, 0, "water_swift_current")
    state.players[0].transformed = 1
    sprite = give(state, 0, "water_tide_sprite")
    power(state, 0, "water", "water")
    assert (current, TOWER_TARGET) not in R.play_moves(state, 0)
    play(state, 0, type="play", card=sprite, target=TOWER_TARGET)
    assert (current, TOWER_TARGET) in R.play_moves(state, 0)
    play(state, 0, type="play", card=current, target=TOWER_TARGET)
    m = minion(state, sprite)
    assert m.status == READY
    play(state, 0, type="move", minion=sprite, zone=BATTLEFIELD)
    assert {"type": "attack", "minion": sprite, "target": TOWER_TARGET} in ENGINE.legal_moves(state, 0)
    second = give(state, 0, "water_swift_current")
    state.players[0].transformed = 1
    other = give(state, 0, "water_harbor_porter")
    play(state, 0, type="play", card=other, target=TOWER_TARGET)
    play(state, 0, type="end")
    assert state.entered == -1 and second in state.players[0].hand


def test_witchery_cards_that_are_not_witcheries_cannot_be_played_on_the_opponents_turn():
    state = main_phase()
    raider = put(state, 0, "fire_ember_imp", BATTLEFIELD)
    fireball = give(state, 1, "light_consecrate")
    power(state, 1, "light", "light", "light")
    play(state, 0, type="attack", minion=raider.iid, target=TOWER_TARGET)
    refused(state, 1, "only Witcheries can be played now", type="play", card=fireball, target=TOWER_TARGET)


# ============================================================================ Reaction windows
def _attack_with_and_without_a_witchery(mode: str):
    views = []
    for holds in (False, True):
        state = main_phase(seed=4)
        state.players[1].windows = mode
        raider = put(state, 0, "fire_ash_hound", BATTLEFIELD)
        give(state, 1, "light_penance" if holds else "light_consecrate")
        state.players[1].transformed = 3
        play(state, 0, type="attack", minion=raider.iid, target=TOWER_TARGET)
        views.append((ENGINE.view(state, 0), sorted(ENGINE.to_act(state))))
    return views


def test_windows_by_default_every_attack_opens_a_window_so_the_attacker_learns_nothing():
    (without, awaited_without), (with_, awaited_with) = _attack_with_and_without_a_witchery("always")
    assert awaited_without == awaited_with == [1]
    assert without == with_


def test_windows_when_able_opens_only_when_the_defender_can_react_which_the_attacker_then_sees():
    (without, awaited_without), (_, awaited_with) = _attack_with_and_without_a_witchery(WHEN_ABLE)
    assert awaited_without == [0] and awaited_with == [1]
    assert without["players"][1]["windows"] == WHEN_ABLE  # chosen knowingly, and public


def test_windows_the_setting_is_a_main_phase_choice_with_its_consequence_in_words():
    state = main_phase()
    choice = [c for c in ENGINE.view(state, 0)["prompt"]["choices"] if c["move"]["type"] == "windows"]
    assert choice[0]["move"] == {"type": "windows", "mode": WHEN_ABLE}
    assert "my opponent will then see when I could react" in choice[0]["label"]
    play(state, 0, type="windows", mode=WHEN_ABLE)
    refused(state, 0, "already", type="windows", mode=WHEN_ABLE)
    assert {"type": "windows", "mode": "always"} in ENGINE.legal_moves(state, 0)


# ============================================================================ Keywords
def test_swear_allegiance_triggers_when_the_minion_enters_the_game():
    state = main_phase()
    victim = put(state, 1, "light_dawn_squire", TOWER)
    spark = give(state, 0, "fire_sparkcaller")
    power(state, 0, "fire", "fire", "fire")
    play(state, 0, type="play", card=spark, target=victim.iid)
    assert state.minion(victim.iid) is None


def test_swear_allegiance_with_nothing_to_target_still_lets_the_minion_be_played():
    state = main_phase()
    spark = give(state, 0, "fire_sparkcaller")
    power(state, 0, "fire", "fire", "fire")
    assert R.play_moves(state, 0) == [(spark, TOWER_TARGET)]
    play(state, 0, type="play", card=spark, target=TOWER_TARGET)


def test_offering_as_an_effect_is_a_decision_of_its_player():
    state = main_phase(decks=("light_citadel", "fire_legion"))
    pilgrim = give(state, 0, "light_wandering_pilgrim")
    spare = give(state, 0, "light_consecrate")
    power(state, 0, "light", "light")
    play(state, 0, type="play", card=pilgrim, target=TOWER_TARGET)
    assert state.decisions.kind() == R.OFFERING
    assert ENGINE.legal_moves(state, 0) == [{"type": "offer", "card": spare}, {"type": "skip"}]
    play(state, 0, type="offer", card=spare)
    assert state.players[0].available == ["light"] and state.decisions.kind() == R.MAIN


def test_shape_triggers_when_the_minion_builds():
    state = main_phase(decks=("water_tide", "fire_legion"))
    engineer = put(state, 0, "water_canal_engineer", TOWER)
    play(state, 0, type="build", minion=engineer.iid)
    assert state.players[0].tower == 12 and state.players[0].transformed == 1


def test_dying_words_trigger_when_the_minion_dies():
    state = main_phase(decks=("light_citadel", "fire_legion"))
    keeper = put(state, 1, "fire_pyre_keeper", RAMPARTS)
    raider = put(state, 0, "light_sky_griffin", BATTLEFIELD)
    play(state, 0, type="attack", minion=raider.iid, target=keeper.iid)
    play(state, 1, type="pass")
    assert state.minion(keeper.iid) is None and state.players[0].tower == 8


def test_tunnel_cannot_be_blocked_when_attacking_the_enemy_tower():
    state = main_phase(decks=("water_tide", "fire_legion"))
    diver = put(state, 0, "water_reef_diver", BATTLEFIELD)
    guard = put(state, 1, "fire_kiln_golem", RAMPARTS)
    builder = put(state, 1, "fire_bellows_smith", TOWER)
    play(state, 0, type="attack", minion=diver.iid, target=TOWER_TARGET)
    assert ENGINE.legal_moves(state, 1) == [{"type": "pass"}]
    refused(state, 1, "a Tunnel minion attacking the Tower cannot be blocked", type="block", minion=guard.iid)
    play(state, 1, type="pass")
    assert state.players[1].tower == 8
    diver.status = READY
    play(state, 0, type="attack", minion=diver.iid, target=builder.iid)  # a minion: it can be blocked
    assert {"type": "block", "minion": guard.iid} in ENGINE.legal_moves(state, 1)


def test_lethal_kills_any_minion_it_damages():
    state = main_phase(decks=("earth_bastion", "fire_legion"))
    viper = put(state, 0, "earth_sand_viper", BATTLEFIELD)
    titan = put(state, 1, "fire_lava_titan", RAMPARTS)
    play(state, 0, type="attack", minion=viper.iid, target=titan.iid)
    play(state, 1, type="pass")
    assert state.minion(titan.iid) is None and state.minion(viper.iid) is None


def test_thief_adds_the_levels_the_enemy_tower_lost_to_your_tower():
    state = main_phase(decks=("water_tide", "fire_legion"))
    smuggler = put(state, 0, "water_harbor_smuggler", BATTLEFIELD)
    play(state, 0, type="attack", minion=smuggler.iid, target=TOWER_TARGET)
    play(state, 1, type="pass")
    assert state.players[1].tower == 8 and state.players[0].tower == 12
    state.players[1].tower = 1
    smuggler.status = READY
    play(state, 0, type="attack", minion=smuggler.iid, target=TOWER_TARGET)
    play(state, 1, type="pass")
    assert state.players[1].tower == 0 and state.players[0].tower == 13


def test_regenerating_removes_all_damage_at_the_start_of_your_turn():
    state = main_phase(decks=("light_citadel", "fire_legion"))
    sentinel = put(state, 0, "light_halo_sentinel", RAMPARTS, damage=3)
    squire = put(state, 0, "light_dawn_squire", RAMPARTS, damage=1)
    play(state, 0, type="end")
    assert sentinel.damage == 3  # only at the start of its controller's turn
    play(state, 1, type="draw")
    play(state, 1, type="end")
    assert sentinel.damage == 0 and squire.damage == 1


def test_crush_sends_the_excess_damage_over_a_killed_blocker_to_the_original_target():
    state = main_phase()
    brute = put(state, 0, "fire_magma_brute", BATTLEFIELD)          # 4 might, Crush
    squire = put(state, 1, "light_dawn_squire", RAMPARTS, damage=1)  # 1 health left
    play(state, 0, type="attack", minion=brute.iid, target=TOWER_TARGET)
    play(state, 1, type="block", minion=squire.iid)
    assert state.minion(squire.iid) is None and state.players[1].tower == 10 - 3


def test_crush_does_nothing_when_the_blocker_survives():
    state = main_phase()
    brute = put(state, 0, "fire_magma_brute", BATTLEFIELD)
    guard = put(state, 1, "earth_boulder_golem", RAMPARTS)  # 6 health
    play(state, 0, type="attack", minion=brute.iid, target=TOWER_TARGET)
    play(state, 1, type="block", minion=guard.iid)
    assert state.players[1].tower == 10 and guard.damage == 4


def test_twinstrike_also_damages_another_minion_in_the_clash_zone_which_does_not_strike_back():
    state = main_phase()
    duelist = put(state, 0, "fire_blazing_duelist", BATTLEFIELD)   # 3 might, 3 health
    a = put(state, 1, "light_lantern_warden", TOWER)                # 2 might, 3 health
    b = put(state, 1, "light_dawn_shieldmaiden", TOWER)  # 3 might, 4 health
    c = put(state, 1, "light_beacon_keeper", TOWER)
    put(state, 1, "light_temple_novice", RAMPARTS, EXHAUSTED)
    play(state, 0, type="attack", minion=duelist.iid, target=a.iid)
    play(state, 1, type="pass")
    assert state.decisions.kind() == R.TWIN and ENGINE.to_act(state) == {0}
    assert ENGINE.legal_moves(state, 0) == [{"type": "strike", "minion": b.iid}, {"type": "strike", "minion": c.iid}]
    play(state, 0, type="strike", minion=b.iid)
    assert state.minion(a.iid) is None and b.damage == 3 and c.damage == 0
    assert duelist.damage == 2  # only the clash partner struck back


def test_twinstrike_with_a_single_other_minion_needs_no_choice():
    state = main_phase()
    duelist = put(state, 0, "fire_blazing_duelist", BATTLEFIELD)
    a = put(state, 1, "light_temple_novice", TOWER)
    b = put(state, 1, "light_beacon_keeper", TOWER)
    play(state, 0, type="attack", minion=duelist.iid, target=a.iid)
    play(state, 1, type="pass")
    assert b.damage == 3 and state.decisions.kind() == R.MAIN


def test_retreating_moves_the_attacker_to_the_ramparts_after_it_attacked():
    state = main_phase(decks=("water_tide", "fire_legion"))
    sprite = put(state, 0, "water_tide_sprite", BATTLEFIELD)
    play(state, 0, type="attack", minion=sprite.iid, target=TOWER_TARGET)
    play(state, 1, type="pass")
    assert (sprite.zone, sprite.status) == (RAMPARTS, EXHAUSTED)


def test_sentence_a_sentenced_minion_takes_1_damage_every_time_it_becomes_exhausted():
    state = main_phase()
    judge = give(state, 1, "light_grey_magistrate")
    builder = put(state, 0, "fire_bellows_smith", TOWER)   # 3 health
    play(state, 0, type="end")
    play(state, 1, type="draw")
    power(state, 1, "light", "light", "light")
    play(state, 1, type="play", card=judge, target=builder.iid)
    assert builder.sentenced
    play(state, 1, type="end")
    play(state, 0, type="draw")
    play(state, 0, type="build", minion=builder.iid)
    assert builder.damage == 1


# ============================================================================ End of the game
def test_end_reaching_50_levels_wins_at_once():
    state = main_phase()
    state.players[0].tower = 48
    elder = put(state, 0, "fire_scarlet_elder", TOWER)
    events = play(state, 0, type="build", minion=elder.iid)
    assert state.over and ENGINE.result(state).winners == (0,)
    assert ENGINE.to_act(state) == frozenset() and "reaches 50 levels" in texts(events)


def test_end_after_both_players_15th_turn_the_higher_tower_wins():
    state = main_phase()
    state.players[0].turns = state.players[1].turns = 15
    state.players[0].tower, state.players[1].tower = 20, 21
    state.active = 1
    state.decisions.stack[-1].seats = [1]
    play(state, 1, type="end")
    assert ENGINE.result(state).winners == (1,) and ENGINE.result(state).details["outcome"] == "height"


def test_end_the_first_players_15th_turn_does_not_end_the_game():
    state = main_phase()
    state.players[0].turns = 15
    state.players[1].turns = 14
    play(state, 0, type="end")
    assert not state.over and state.players[1].turns == 15


def test_end_equal_towers_after_both_15th_turns_is_a_draw():
    state = main_phase()
    state.players[0].turns = state.players[1].turns = 15
    state.active = 1
    state.decisions.stack[-1].seats = [1]
    play(state, 1, type="end")
    res = ENGINE.result(state)
    assert res.details["outcome"] == "draw" and res.winners == (0, 1)


# ============================================================================ Empty deck (authored)
def test_empty_deck_the_discard_pile_is_shuffled_into_a_new_deck():
    state = main_phase()
    pl = state.players[1]
    pl.discard, pl.deck = pl.deck[:5], []
    events = play(state, 0, type="end")
    assert len(pl.hand) == 1 and len(pl.deck) == 4 and pl.discard == []
    assert "shuffled into a new deck" in texts(events)


def test_empty_deck_with_no_discard_pile_the_draw_is_lost():
    state = main_phase()
    state.players[1].deck = []
    events = play(state, 0, type="end")
    assert state.players[1].hand == [] and "cannot draw" in texts(events)
    assert not state.over


# ============================================================================ Turn order
def test_only_the_awaited_seat_may_move_and_a_move_of_another_step_is_refused():
    state = main_phase()
    err = refused(state, 1, "It is not your turn", type="end")
    assert err.code == "not_your_turn"
    refused(state, 0, "now you must act in your main phase; a 'draw' move is not possible", type="draw")


def test_end_an_invocation_that_reaches_50_levels_wins_at_the_start_of_the_turn_and_others_wait():
    state = main_phase(decks=("light_citadel", "fire_legion"))
    pl = state.players[0]
    noon, prayer = give(state, 0, "light_high_noon"), give(state, 0, "light_dawn_prayer")
    for card in (noon, prayer):
        pl.hand.remove(card)
        pl.invocations.append(card)
    pl.tower = 45
    play(state, 0, type="end")
    play(state, 1, type="draw")
    events = play(state, 1, type="end")
    assert state.over and ENGINE.result(state).winners == (0,) and pl.tower == 51
    assert pl.invocations == [prayer] and noon in pl.discard and "reaches 50 levels" in texts(events)
