"""The authored components: complete, consistent and resolvable by the engine."""

from __future__ import annotations

from collections import Counter

from engines.base import Engine
from engines.tower_of_london import ENGINE
from engines.tower_of_london.components import (
    ABILITIES,
    ABILITY_TEXT,
    ADJACENT,
    AREA_OF,
    AREAS,
    BEEFEATERS,
    BOARD,
    BUILDINGS,
    BUILDINGS_IN_AREA,
    CARDS,
    EFFECT_KINDS,
    EVENTS,
    QUADRANT_OF,
    RAVENS,
    SCORING_CARDS,
    TRACK_SPACES,
)


def test_engine_follows_the_protocol() -> None:
    assert isinstance(ENGINE, Engine)
    assert (ENGINE.id, ENGINE.title, ENGINE.min_seats, ENGINE.max_seats) == (
        "tower_of_london", "Tower of London", 2, 5)
    assert "seven ravens" in ENGINE.tagline


def test_board_buildings_are_numbered_in_one_sequence_each_in_an_area_and_a_quadrant() -> None:
    assert tuple(range(1, len(BUILDINGS) + 1)) == BUILDINGS
    assert set(AREA_OF.values()) == set(AREAS)
    assert set(QUADRANT_OF.values()) == {"I", "II", "III", "IV"}
    assert all(0 <= b["x"] <= 1000 and 0 <= b["y"] <= 1000 for b in BOARD["buildings"])


def test_board_buildings_of_the_rulebook_examples_exist_where_the_examples_need_them() -> None:
    assert {1, 3, 6, 11} <= set(BUILDINGS_IN_AREA["orange"])  # the scoring example
    assert {11, 12, 13} <= set(BUILDINGS)  # Heather's BACKSTAB


def test_board_lines_join_existing_buildings_and_every_building_has_one() -> None:
    for a, b in BOARD["lines"]:
        assert a in AREA_OF and b in AREA_OF and a != b
    assert all(ADJACENT[b] for b in BUILDINGS)
    assert len({tuple(sorted(line)) for line in BOARD["lines"]}) == len(BOARD["lines"])


def test_cards_thirteen_with_an_orange_green_and_blue_number_and_an_ability() -> None:
    assert sorted(CARDS) == list(range(1, 14))
    for c in CARDS.values():
        assert (AREA_OF[c.orange], AREA_OF[c.green], AREA_OF[c.blue]) == ("orange", "green", "blue")
        assert c.ability in ABILITIES
        assert c.name == f"{c.ability} {c.orange}"
    assert len({c.orange for c in CARDS.values()}) == 13  # one track space per card
    assert {c.green for c in CARDS.values()} == set(BUILDINGS_IN_AREA["green"])
    assert {c.blue for c in CARDS.values()} == set(BUILDINGS_IN_AREA["blue"])
    assert set(Counter(c.ability for c in CARDS.values())) == set(ABILITIES)
    assert set(ABILITY_TEXT) == set(ABILITIES)


def test_cards_of_the_rulebook_examples_switch_7_promote_11_focus_12() -> None:
    names = {c.name for c in CARDS.values()}
    assert {"SWITCH 7", "PROMOTE 11", "FOCUS 12"} <= names
    assert any(c.ability == "POISON" for c in CARDS.values())


def test_turn_order_track_has_a_space_for_every_orange_number() -> None:
    assert set(TRACK_SPACES) == {c.orange for c in CARDS.values()} == set(BUILDINGS_IN_AREA["orange"])
    assert {7, 11, 12} <= set(TRACK_SPACES)


def test_events_thirteen_each_with_an_effect_of_the_engine_vocabulary() -> None:
    assert sorted(EVENTS) == list(range(1, 14))
    assert len({e.name for e in EVENTS.values()}) == 13
    for e in EVENTS.values():
        assert e.kind in EFFECT_KINDS, e.name
        if e.kind == "ability_disabled":
            assert e.effect["ability"] in ABILITIES
        if e.kind == "sealed_quadrant":
            assert e.effect["quadrant"] in {"I", "II", "III", "IV"}
    assert {e.kind for e in EVENTS.values()} == EFFECT_KINDS  # every kind is used


def test_three_scoring_cards_cover_two_to_five_players() -> None:
    assert len(SCORING_CARDS) == 3
    covered = sorted(p for card in SCORING_CARDS for p in card.players)
    assert covered == [2, 3, 4, 5]
    assert all(len(card.ravens) == 3 and card.ravens[0] >= card.ravens[1] >= card.ravens[2]
               for card in SCORING_CARDS)


def test_counts_31_ravens_and_20_beefeaters_per_colour() -> None:
    assert RAVENS == 31 and BEEFEATERS == 20


def test_the_doctests_of_the_engine_modules_pass() -> None:
    import doctest

    import engines.tower_of_london as package
    from engines.tower_of_london import components, engine, rules

    for module in (package, components, engine, rules):
        assert doctest.testmod(module).failed == 0, module.__name__
