"""The authored card pool, decks and deck rules of Towers of Babylon."""

from __future__ import annotations

from collections import Counter

import pytest

from engines.towers_of_babylon.catalogue import static_json
from engines.towers_of_babylon.components import (
    ABILITIES,
    CARD_LIST,
    CARDS,
    COPY_LIMITS,
    DECKS,
    FACTIONS,
    KEYWORDS,
    RARITIES,
    SPELL_KINDS,
    TRIGGERS,
    WINDOWS,
    deck_errors,
    parse_deck_list,
)
from engines.towers_of_babylon.effects import SELECTORS, TARGET_KINDS, VOCABULARY, card_text
from engines.towers_of_babylon.rules import HANDLERS

SEED_KEYWORDS = ("swear_allegiance", "offering", "shape", "dying_words", "tunnel", "lethal", "thief",
                 "regenerating", "crush", "twinstrike", "retreating", "sentence")


def all_effects(card):
    return [*card.effects, *card.swear_allegiance, *card.shape, *card.dying_words]


def test_at_least_four_factions_with_fire_and_light_each_with_a_colour_and_a_symbol():
    assert len(FACTIONS) >= 4 and {"fire", "light"} <= set(FACTIONS)
    for f in FACTIONS.values():
        assert f["colour"].startswith("#") and f["symbol"] and f["name"]
    assert len({f["colour"] for f in FACTIONS.values()}) == len(FACTIONS)


def test_each_faction_has_at_least_25_distinct_cards_across_minions_and_every_kind_of_spell():
    for faction in FACTIONS:
        cards = [c for c in CARD_LIST if c.faction == faction]
        assert len({c.name for c in cards}) >= 25, faction
        kinds = Counter(c.kind for c in cards)
        assert kinds["minion"] >= 15 and all(kinds[k] >= 2 for k in SPELL_KINDS), (faction, kinds)


def test_card_ids_and_names_are_unique_and_the_four_rarities_are_the_seeds():
    assert len({c.id for c in CARD_LIST}) == len(CARD_LIST)
    assert len({c.name for c in CARD_LIST}) == len(CARD_LIST)
    assert {r: RARITIES[r]["colour"] for r in RARITIES} == {
        "common": "green", "uncommon": "blue", "rare": "purple", "super_rare": "orange"}
    assert {c.rarity for c in CARD_LIST} == set(RARITIES)


def test_scarlet_elder_is_exactly_as_the_seed_describes_it():
    c = CARDS["fire_scarlet_elder"]
    assert (c.name, c.faction, c.kind, c.cost, c.specific) == ("Scarlet Elder", "fire", "minion", 5, 2)
    assert (c.construction, c.might, c.health, c.type, c.rarity) == (3, 4, 3, "Human Mage", "rare")


def test_sun_blessed_paladin_has_a_specific_cost_of_2_light():
    c = CARDS["light_sun_blessed_paladin"]
    assert (c.name, c.faction, c.kind, c.specific) == ("Sun Blessed Paladin", "light", "minion", 2)


def test_every_keyword_of_the_seed_is_on_real_cards():
    assert set(SEED_KEYWORDS) == set(KEYWORDS)
    for keyword in SEED_KEYWORDS:
        holders = [c.name for c in CARD_LIST if c.has(keyword)]
        assert len(holders) >= 2, keyword
        assert any(KEYWORDS[keyword]["name"] in card_text(CARDS[c.id]) for c in CARD_LIST if c.has(keyword)), keyword


def test_every_effect_name_in_the_data_resolves_in_the_vocabulary_and_has_a_behaviour():
    assert set(VOCABULARY) == set(HANDLERS)
    for card in CARD_LIST:
        for e in all_effects(card):
            assert e["do"] in VOCABULARY, (card.id, e)
            assert set(e) - {"do"} == set(VOCABULARY[e["do"]].params), (card.id, e)
            if "to" in e:
                assert e["to"] in SELECTORS, (card.id, e)
        assert set(card.keywords) <= set(ABILITIES), card.id
        if card.target is not None:
            assert card.target in TARGET_KINDS, card.id
        uses_target = any(e.get("to") == "target" for e in all_effects(card))
        assert uses_target == (card.target is not None), card.id


def test_effects_needing_a_moment_or_a_choice_are_only_where_they_can_happen():
    """Offerings are decisions of the card's player: only last in a list, never in Dying Words
    (which may happen on the opponent's turn) nor in Invocations (start of turn); 'attacker' only
    in enemy-attacking witcheries, 'entering' only in friendly-enters witcheries."""
    for card in CARD_LIST:
        for effects in (card.effects, card.swear_allegiance, card.shape, card.dying_words):
            assert all(e["do"] != "offering" for e in effects[:-1]), card.id
        assert all(e["do"] != "offering" for e in card.dying_words), card.id
        if card.kind == "invocation" or card.kind == "witchery":
            assert all(e["do"] != "offering" for e in card.effects), card.id
        for e in all_effects(card):
            if e.get("to") == "attacker":
                assert card.window == "enemy_attacking", card.id
            if e.get("to") == "entering":
                assert card.window == "friendly_enters", card.id
            if e["do"] == "halt":
                assert card.window == "enemy_attacking", card.id
        assert (card.kind == "witchery") == (card.window in WINDOWS), card.id
        if card.kind == "witchery":
            assert card.specific == 0, "witcheries are paid from transformed power, which has no colour"
        assert 0 <= card.specific <= card.cost
        if card.is_minion:
            assert card.health >= 1 and card.type
        for trigger in TRIGGERS:
            assert card.is_minion or not getattr(card, trigger), card.id


def test_every_window_of_the_seed_is_on_witcheries_of_several_factions():
    for window in WINDOWS:
        assert len({c.faction for c in CARD_LIST if c.window == window}) >= 2, window


def test_at_least_four_ready_made_decks_of_60_cards_that_keep_the_deck_rules():
    assert len(DECKS) >= 4
    assert {f for d in DECKS.values() for f in d["factions"]} == set(FACTIONS)
    for deck in DECKS.values():
        assert sum(deck["cards"].values()) == 60, deck["id"]
        assert deck_errors(deck["cards"]) == [], deck["id"]
        assert {CARDS[c].faction for c in deck["cards"]} == set(deck["factions"])


@pytest.mark.parametrize(("cards", "words"), [
    ({"fire_scarlet_elder": 3}, "Deck rule 2 (copies by rarity): Scarlet Elder is rare, and a deck may hold at "
                                "most 2 copies of a rare card, not 3."),
    ({"fire_inferno_drake": 2}, "Inferno Drake is super rare, and a deck may hold at most 1 copy of a super "
                                "rare card, not 2."),
    ({"fire_ember_imp": 4, "light_dawn_squire": 4, "water_tide_sprite": 4},
     "Deck rule 3 (factions): Tide Sprite is a Water card, and a deck draws on at most 2 factions; this one "
     "already holds Fire and Light cards."),
    ({"fire_ember_imp": 4}, "Deck rule 1 (size): a deck holds exactly 60 cards; this one holds 4."),
    ({"no_such_card": 1}, "Deck rule 0 (known cards): there is no card 'no_such_card'"),
])
def test_an_illegal_deck_is_refused_with_an_error_naming_the_card_and_the_rule(cards, words):
    assert any(words in e for e in deck_errors(cards)), deck_errors(cards)


def test_copy_limits_go_by_rarity():
    assert COPY_LIMITS == {"common": 4, "uncommon": 3, "rare": 2, "super_rare": 1}


def test_a_pasted_deck_list_is_read_by_name_or_id_and_checked():
    text = "\n".join(f"{n}x {CARDS[c].name}" for c, n in DECKS["water_tide"]["cards"].items())
    cards, errors = parse_deck_list("# my deck\n\n" + text)
    assert errors == [] and cards == DECKS["water_tide"]["cards"]
    cards, errors = parse_deck_list("3 water_riptide\n2 Sea Serpant\nsome words")
    assert cards == {"water_riptide": 3}
    assert "Line 2: Deck rule 0 (known cards): there is no card 'Sea Serpant'" in errors[0]
    assert errors[1].startswith("Line 3 ('some words'): write the number of copies")
    assert errors[2] == "Deck rule 1 (size): a deck holds exactly 60 cards; this one holds 3."


def test_card_texts_are_made_from_the_effects():
    assert card_text(CARDS["fire_sparkcaller"]) == "Swear Allegiance: Deal 2 damage to target enemy minion."
    assert card_text(CARDS["water_canal_engineer"]) == "Shape: Gain 1 transformed power."
    assert card_text(CARDS["fire_pyre_keeper"]) == "Dying Words: The enemy Tower loses 2 levels."
    assert card_text(CARDS["light_dawn_prayer"]) == "At the start of your next turn: your Tower gains 4 levels."
    assert card_text(CARDS["fire_backdraft"]) == (
        "Witchery — when an enemy minion is attacking: Deal 3 damage to the attacking minion.")
    assert card_text(CARDS["earth_fertile_ground"]) == "Draw a card, then you may make an Offering."
    assert card_text(CARDS["fire_inferno_drake"]) == "Crush, Twinstrike."


def test_the_static_data_holds_the_catalogue_keywords_and_decks():
    data = static_json()
    assert set(data["cards"]) == set(CARDS)
    assert data["cards"]["fire_scarlet_elder"]["might"] == 4
    assert {k["id"] for k in data["keywords"]} == set(SEED_KEYWORDS)
    assert all(k["meaning"] for k in data["keywords"])
    assert [d["id"] for d in data["decks"]] == list(DECKS)


def test_deck_rule_messages_and_log_lines_take_the_right_article():
    from engines.towers_of_babylon.components import CARD_LIST, copies_error, with_article

    assert [with_article(w) for w in ("Earth", "Fire", "uncommon", "Raider")] == [
        "an Earth", "a Fire", "an uncommon", "a Raider"]
    uncommon = next(c for c in CARD_LIST if c.rarity == "uncommon")
    assert "of an uncommon card, not 4." in copies_error(uncommon, 4)
