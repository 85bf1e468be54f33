"""Hidden information: picks and keeps as hidden commitments, views that leak nothing
``determinize`` re-draws, batch views, and the generator of each rules version."""

from __future__ import annotations

import base64
import json
import random
from collections.abc import Iterator

import pytest

from engines.kit import Rng
from engines.tower_of_london import ENGINE
from engines.tower_of_london import rules as R
from engines.tower_of_london.components import BEEFEATERS, EVENTS, ROUNDS

from .conftest import build


def states(seats: int, seed: int, version: int = 2, every: int = 1) -> Iterator[R.State]:
    """The states of a seeded random game, one every ``every`` moves, and the last."""
    rnd = random.Random(seed)
    state = ENGINE.new_game(seats, seed, {}, rules_version=version)
    i = 0
    while ENGINE.result(state) is None:
        if i % every == 0:
            yield state
        seat = rnd.choice(sorted(ENGINE.to_act(state)))
        ENGINE.play(state, seat, rnd.choice(ENGINE.legal_moves(state, seat)))
        i += 1
    yield state


def test_picks_are_commitments_each_seat_sees_its_own_and_only_whether_others_chose() -> None:
    state = build(3)
    a, b = state.hands[1][:2]
    ENGINE.play(state, 1, {"type": "pick", "first": a, "second": b})
    assert state.choosing.public() == {"asked": [0, 1, 2], "chosen": [1], "ready": [1]}
    own = ENGINE.view(state, 1)
    assert own["my_picks"] == {"first": a, "second": b}
    assert (own["players"][1]["first"], own["players"][1]["second"]) == (a, b)
    for seat in (0, 2, None):
        v = ENGINE.view(state, seat)
        assert [p["has_chosen"] for p in v["players"]] == [False, True, False]
        assert v["players"][1] == {**own["players"][1], "first": None, "second": None}
        assert v["my_picks"] is None or seat == 1


def test_keeps_are_commitments_revealed_together() -> None:
    state = build(2)
    state.phase, state.played = R.KEEP, [[1, 2, 3, 4, 5, 6], [7, 8, 9, 10, 11, 12]]
    state.decks = [[7, 8, 9, 10, 11, 12, 13], [1, 2, 3, 4, 5, 6, 13]]
    state.hands = [[], []]
    state.choosing = R.Commitments.ask(range(2))
    ENGINE.play(state, 0, {"type": "keep", "cards": [1, 2, 3]})
    assert ENGINE.view(state, 0)["my_keep"] == [1, 2, 3] and ENGINE.view(state, 1)["my_keep"] is None
    assert [p["has_kept"] for p in ENGINE.view(state, 1)["players"]] == [True, False]
    assert state.decks[0] == [7, 8, 9, 10, 11, 12, 13]  # nothing happens until everyone has kept
    ENGINE.play(state, 1, {"type": "keep", "cards": [10, 11, 12]})
    assert state.boxed == [[4, 5, 6], [7, 8, 9]]
    assert state.round == 2 and state.choosing.public() == {"asked": [0, 1], "chosen": [], "ready": []}


@pytest.mark.parametrize("version", [1, 2])
@pytest.mark.parametrize("seats", [2, 3, 4, 5])
def test_no_view_changes_when_what_the_seat_cannot_see_is_redrawn(seats: int, version: int) -> None:
    checked = 0
    for state in states(seats, 300 + seats, version, every=5):
        before = ENGINE.encode(state)
        for seat in [None, *range(seats)]:
            view = ENGINE.view(state, seat)
            for k in range(2):
                other = ENGINE.determinize(state, seat, Rng.from_seed(1000 * checked + k))
                assert ENGINE.view(other, seat) == view
                for s in range(seats):
                    assert R.beefeaters_accounted(other, s) == BEEFEATERS
                    assert R.cards_owned(other, s) == R.cards_owned(state, s)
                    assert other.hands[s] == sorted(other.hands[s])
        assert ENGINE.encode(state) == before  # determinize leaves its input alone
        checked += 1
    assert checked >= 8


def test_determinize_redraws_every_hidden_part_and_keeps_what_the_seat_sees() -> None:
    state = build(4)
    for s in (0, 2):
        a, b = state.hands[s][:2]
        ENGINE.play(state, s, {"type": "pick", "first": a, "second": b})
    draws = [ENGINE.determinize(state, 0, Rng.from_seed(i)) for i in range(30)]
    for d in draws:  # the viewer's own cards and choice stay
        assert d.hands[0] == state.hands[0] and d.choosing.own(0) == state.choosing.own(0)
        assert sorted(d.decks[0]) == sorted(state.decks[0])
        assert sorted(d.choosing.choices) == [0, 2] and len(d.choosing.choices[2]) == 2
        unseen = sorted(d.hands[2] + d.decks[2] + d.choosing.choices[2])
        assert unseen == sorted(state.hands[2] + state.decks[2] + state.choosing.choices[2])
    assert len({tuple(d.hands[1]) for d in draws}) > 1  # another's hand against its deck
    assert len({tuple(d.choosing.choices[2]) for d in draws}) > 1  # another's hidden pick
    assert len({tuple(d.decks[0]) for d in draws}) > 1  # the viewer's own deck order
    assert len({tuple(d.event_pile) for d in draws}) > 1  # the face-down events
    assert all(len(d.event_pile) == 2 and state.event not in d.event_pile for d in draws)
    assert len({d.rng.encode() for d in draws if d.rng is not None}) == 30  # the generator
    spectator = [ENGINE.determinize(state, None, Rng.from_seed(i)) for i in range(10)]
    assert len({tuple(d.hands[0]) for d in spectator}) > 1


def test_determinize_redraws_unrevealed_picks_during_the_reveal_and_keeps_before_theirs() -> None:
    state = build(3, order=[0, 1, 2], picks={0: (1, 2), 1: (3, 4), 2: (5, 6)})
    assert state.stage == R.STAGE_PLACE and state.revealed == [1, 0, 0]
    draws = [ENGINE.determinize(state, 1, Rng.from_seed(i)) for i in range(20)]
    assert all(d.picks[0][0] == 1 and d.picks[1] == [3, 4] for d in draws)  # revealed, own
    assert len({tuple(d.picks[0]) for d in draws}) > 1 and len({tuple(d.picks[2]) for d in draws}) > 1
    state = build(2)
    state.phase, state.played = R.KEEP, [[1, 2, 3, 4, 5, 6], [7, 8, 9, 10, 11, 12]]
    state.hands = [[], []]
    state.choosing = R.Commitments.ask(range(2))
    ENGINE.play(state, 1, {"type": "keep", "cards": [7, 8, 9]})
    kept = {tuple(ENGINE.determinize(state, 0, Rng.from_seed(i)).choosing.choices[1]) for i in range(20)}
    assert len(kept) > 1 and all(set(k) <= set(state.played[1]) and list(k) == sorted(k) for k in kept)


def test_a_determinized_game_plays_on_to_its_end() -> None:
    for state in states(4, 9, every=40):
        d = ENGINE.determinize(state, 1, Rng.from_seed(5))
        rnd = random.Random(1)
        while ENGINE.result(d) is None:
            seat = rnd.choice(sorted(ENGINE.to_act(d)))
            ENGINE.play(d, seat, rnd.choice(ENGINE.legal_moves(d, seat)))
        assert d.round <= ROUNDS


@pytest.mark.parametrize("seats", [2, 5])
def test_batch_views_equal_each_seats_own_view_with_or_without_legal_moves(seats: int) -> None:
    for state in states(seats, 11, every=3):
        everyone = [None, *range(seats)]
        legal = {s: ENGINE.legal_moves(state, s) for s in ENGINE.to_act(state)}
        for batch in (ENGINE.views(state, everyone), ENGINE.views(state, everyone, legal)):
            assert batch == {s: ENGINE.view(state, s) for s in everyone}


def encodings(number: int) -> list[str]:
    raw = number.to_bytes((number.bit_length() + 7) // 8 or 1, "big")
    return [str(number), format(number, "x"), format(number, "X"),
            base64.b64encode(raw).decode().rstrip("="), base64.urlsafe_b64encode(raw).decode().rstrip("=")]


@pytest.mark.parametrize("version", [1, 2])
def test_neither_the_seed_nor_the_generator_appear_in_views_or_log_lines(version: int) -> None:
    seed = 0x9E37_79B9_7F4A_7C15_F39C_C060_5CED_C834
    rnd = random.Random(2)
    state = ENGINE.new_game(4, seed, {}, rules_version=version)
    secrets = encodings(seed) + encodings(seed & ((1 << 64) - 1))
    texts: list[str] = []
    while True:
        generator = state.rng.state if state.rng is not None else int(state.splitmix, 16)
        words = [w for w in encodings(generator) + secrets if len(w) >= 8]
        data = json.dumps([ENGINE.static_view(state), ENGINE.views(state, [None, 0, 1, 2, 3]), *texts])
        assert not [w for w in words if w in data]
        if ENGINE.result(state) is not None:
            break
        seat = rnd.choice(sorted(ENGINE.to_act(state)))
        events = ENGINE.play(state, seat, rnd.choice(ENGINE.legal_moves(state, seat)))
        texts = [t for e in events for t in (e.text, *e.private.values())]


# ---------------------------------------------------------------------------------- versions
def test_rules_version_2_is_the_default_and_the_state_records_its_version() -> None:
    assert (ENGINE.rules_version, ENGINE.rules_versions) == (2, (1, 2))
    assert ENGINE.new_game(3, 5, {}).rules_version == 2
    assert ENGINE.new_game(3, 5, {}, rules_version=1).rules_version == 1
    with pytest.raises(ValueError, match="no rules version 3"):
        ENGINE.new_game(3, 5, {}, rules_version=3)


def test_rules_version_2_deals_from_all_128_bits_of_the_seed_with_the_kits_generator() -> None:
    low = 0x0123_4567_89AB_CDEF
    a, b = (ENGINE.new_game(4, (high << 64) | low, {}) for high in (1, 2))
    assert a.hands != b.hands  # the high half of the seed matters
    assert a.rng is not None and a.splitmix == ""
    mirror = Rng.from_seed((1 << 64) | low)  # the same draws as setup makes, in the same order
    pile = sorted(EVENTS)
    mirror.shuffle(pile)
    assert a.event_pile == pile[1:3] and a.event == pile[0] and a.start_player == mirror.below(4)


def test_rules_version_1_deals_from_the_low_64_bits_with_splitmix64() -> None:
    low = 0x0123_4567_89AB_CDEF
    a, b = (ENGINE.new_game(4, (high << 64) | low, {}, rules_version=1) for high in (1, 2))
    assert a == b and a.rng is None
    gen = R.SplitMix64.from_seed(low)
    pile = sorted(EVENTS)
    gen.shuffle(pile)
    assert [a.event, *a.event_pile] == pile[:3] and a.start_player == gen.below(4)
