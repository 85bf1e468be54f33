"""The engine's data files, checked rather than trusted: the map, the ports, the houses' setups
for every player count, the tokens and the cards."""

from __future__ import annotations

from collections import Counter, deque
from itertools import pairwise

import pytest

from engines.game_of_thrones.components import (
    BOARD,
    HOUSE_CARDS,
    HOUSE_ORDER,
    HOUSES,
    LAND,
    ORDERS,
    PORT,
    RULES,
    SEA,
    SETUPS,
    SHIP,
    TRACKS,
    WESTEROS_DECKS,
    WILDLING_CARDS,
    stars_for,
)


def test_the_map_has_58_areas_38_land_12_sea_and_8_ports():
    kinds = Counter(a.kind for a in BOARD.areas.values())
    assert kinds == {LAND: 38, SEA: 12, PORT: 8}


def test_there_are_143_adjacencies_each_listed_once_between_known_areas():
    assert len(BOARD.pairs) == 143
    assert len({frozenset(p) for p in BOARD.pairs}) == 143
    for a, b in BOARD.pairs:
        assert a != b and a in BOARD.areas and b in BOARD.areas


def test_adjacency_is_symmetric():
    for a, near in BOARD.adjacent.items():
        for b in near:
            assert a in BOARD.adjacent[b], (a, b)


def test_every_area_is_reachable_from_every_other():
    start = "winterfell"
    seen = {start}
    todo = deque([start])
    while todo:
        for b in BOARD.adjacent[todo.popleft()]:
            if b not in seen:
                seen.add(b)
                todo.append(b)
    assert seen == set(BOARD.areas)


def test_every_land_area_touches_another_land_or_a_sea():
    for a in BOARD.areas.values():
        if a.kind == LAND:
            assert any(BOARD.areas[b].kind in (LAND, SEA) for b in BOARD.adjacent[a.id]), a.id


def test_each_port_touches_exactly_its_land_and_its_sea_and_these_touch_each_other():
    ports = [a for a in BOARD.areas.values() if a.kind == PORT]
    assert {p.port_of for p in ports} == set(BOARD.port_of_land)
    for p in ports:
        assert p.port_of is not None and p.port_sea is not None
        assert BOARD.adjacent[p.id] == {p.port_of, p.port_sea}
        assert BOARD.areas[p.port_of].kind == LAND and BOARD.areas[p.port_sea].kind == SEA
        assert p.port_sea in BOARD.adjacent[p.port_of]
        assert BOARD.areas[p.port_of].castle, "every port belongs to a castle or stronghold"
        assert BOARD.port_of_land[p.port_of] == p.id
    assert len({p.port_of for p in ports}) == len(ports), "one port per land area"


def test_sea_areas_touch_no_port_but_their_own():
    for p in (a for a in BOARD.areas.values() if a.kind == PORT):
        for b in BOARD.adjacent[p.id]:
            if BOARD.areas[b].kind == SEA:
                assert b == p.port_sea


def test_there_are_ten_strongholds_and_ten_castles():
    forts = Counter(a.fortification for a in BOARD.areas.values())
    assert forts["stronghold"] == 10 and forts["castle"] == 10
    assert all(a.kind == LAND for a in BOARD.areas.values() if a.castle)


def test_icons_are_only_on_land():
    for a in BOARD.areas.values():
        if a.kind != LAND:
            assert a.supply == a.crowns == 0 and not a.castle and a.home is None


def test_each_house_has_a_stronghold_home_area_marked_with_its_sigil():
    for house in HOUSES.values():
        home = BOARD.areas[house.home]
        assert home.fortification == "stronghold" and home.home == house.id
    assert sorted(a.home for a in BOARD.areas.values() if a.home) == sorted(HOUSES)


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_the_houses_in_play_are_the_first_n_of_stark_lannister_baratheon_greyjoy_tyrell_martell(players):
    assert SETUPS[players].houses == HOUSE_ORDER[:players]


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_track_orders_keep_the_printed_six_player_order_of_the_houses_in_play(players):
    setup = SETUPS[players]
    for track in TRACKS:
        order = setup.tracks[track]
        assert sorted(order) == sorted(setup.houses)
        assert list(order) == sorted(setup.houses, key=lambda h: HOUSES[h].positions[track])


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_king_s_court_stars_are_the_overlay_for_three_or_four_players(players):
    stars = stars_for(players)[:players]
    assert len(stars) == players and list(stars) == sorted(stars, reverse=True)
    assert list(stars) == ([3, 2, 1, 0] if players <= 4 else [3, 3, 2, 1, 0, 0])[:players]
    assert list(SETUPS[players].stars) == list(stars)


def _placed_units(players: int, house: str) -> dict[str, dict[str, int]]:
    setup = SETUPS[players]
    return {a: u for a, u in HOUSES[house].units.items() if a not in setup.units_not_placed_in}


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_every_house_setup_places_units_where_they_may_stand(players):
    setup = SETUPS[players]
    for house in setup.houses:
        for area, units in _placed_units(players, house).items():
            kind = BOARD.areas[area].kind
            assert area not in setup.blocked and area not in setup.neutral_forces
            for unit in units:
                assert (unit == SHIP) == (kind != LAND), (house, area, unit)
            if kind == PORT:
                # a port's ships belong to the house holding its land area
                assert BOARD.areas[area].port_of in _placed_units(players, house)


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_every_house_starts_with_the_supply_its_barrels_give_and_armies_within_it(players):
    for house in SETUPS[players].houses:
        placed = _placed_units(players, house)
        barrels = sum(BOARD.areas[a].supply for a in placed if BOARD.areas[a].kind == LAND)
        level = HOUSES[house].positions["supply"]
        assert barrels == level, house
        armies = sorted((sum(u.values()) for u in placed.values() if sum(u.values()) >= 2), reverse=True)
        limits = RULES.supply_limits[level]
        assert len(armies) <= len(limits) and all(a <= b for a, b in zip(armies, limits, strict=False))


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_no_two_houses_start_in_the_same_area_and_homes_hold_their_house(players):
    seen: dict[str, str] = {}
    for house in SETUPS[players].houses:
        assert HOUSES[house].home in _placed_units(players, house)
        for area in _placed_units(players, house):
            assert area not in seen, (area, house, seen.get(area))
            seen[area] = house


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_neutral_forces_sit_on_land_and_include_kings_landing_and_the_eyrie(players):
    setup = SETUPS[players]
    for area, value in setup.neutral_forces.items():
        assert BOARD.areas[area].kind == LAND and 3 <= value <= 6
        assert BOARD.areas[area].home not in setup.houses
    for area, value in BOARD.neutral_every_count.items():
        assert setup.neutral_forces[area] == value
    assert not set(setup.neutral_forces) & setup.blocked


def test_three_players_block_the_south_and_absent_homes():
    setup = SETUPS[3]
    assert {"pyke", "highgarden", "sunspear"} <= setup.blocked
    for area in setup.blocked:
        if BOARD.areas[area].kind == PORT:
            assert BOARD.areas[area].port_of in setup.blocked
    for area, port in BOARD.port_of_land.items():
        if area in setup.blocked:
            assert port in setup.blocked
    assert not any(BOARD.areas[a].kind == SEA for a in setup.blocked)


def test_four_and_five_players_leave_no_blocked_area():
    assert not SETUPS[4].blocked and not SETUPS[5].blocked and not SETUPS[6].blocked


def test_starting_units_total_and_pool_limits():
    for house in HOUSES.values():
        total: Counter[str] = Counter()
        for units in house.units.values():
            total.update(units)
        for kind, n in total.items():
            assert n <= RULES.unit_limits[kind]
    assert RULES.unit_limits == {"footman": 10, "knight": 5, "ship": 6, "siege-engine": 2}


def test_each_house_has_fifteen_order_tokens_three_of_each_kind_one_special_each():
    assert sum(o.count for o in ORDERS.values()) == 15
    by_kind: Counter[str] = Counter()
    for o in ORDERS.values():
        by_kind[o.kind] += o.count
    assert by_kind == {"march": 3, "defense": 3, "support": 3, "raid": 3, "consolidate": 3}
    specials = [o for o in ORDERS.values() if o.special]
    assert sorted(o.kind for o in specials) == sorted(by_kind)
    assert all(o.count == 1 for o in specials)
    assert {o.id: o.modifier for o in ORDERS.values() if o.kind in ("march", "defense", "support")} == {
        "march-minus-one": -1, "march": 0, "march-plus-one": 1, "defense-plus-one": 1,
        "defense-plus-two": 2, "support": 0, "support-plus-one": 1}


def test_each_house_has_seven_house_cards_of_strengths_4_3_2_2_1_1_0():
    assert len(HOUSE_CARDS) == 42
    for house in HOUSES.values():
        cards = [HOUSE_CARDS[c] for c in house.house_cards]
        assert len(cards) == 7 and all(c.house == house.id for c in cards)
        assert sorted((c.strength for c in cards), reverse=True) == [4, 3, 2, 2, 1, 1, 0]


def test_every_house_card_timing_is_one_the_engine_knows():
    timings = {"none", "cancel", "immediately", "strength", "after_winner", "on_retreat", "casualties",
               "after_combat"}
    for card in HOUSE_CARDS.values():
        assert card.timing in timings
        assert (card.timing == "none") == (card.text == "No text ability.")


def test_the_westeros_decks_hold_ten_cards_each_and_there_are_nine_wildling_cards():
    assert {d: len(cards) for d, cards in WESTEROS_DECKS.items()} == {"I": 10, "II": 10, "III": 10}
    assert len(WILDLING_CARDS) == 9


def test_supply_limits_grow_with_the_supply_level():
    limits = RULES.supply_limits
    assert len(limits) == 7
    for low, high in pairwise(limits):
        assert len(high) >= len(low)
        assert all(h >= lo for h, lo in zip(high, low, strict=False))
    assert all(x >= 2 for level in limits for x in level)
