"""Rules versions, old snapshots and ``determinize``.

Tables dealt before the engine kit (rules version 1) are in hosts' databases and in published
records: they must keep their deal, their snapshots and their log. data/old_snapshots.json was
written by that code (see data/make_old_snapshots.py)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from engines.kit import Rng
from engines.london import ENGINE
from engines.london.components import BOROUGHS, CARDS, STARTERS
from engines.london.hidden import unseen_places
from engines.london.playout import check_invariants, random_move, replay
from engines.london.state import State

OLD = json.loads((Path(__file__).parent / "data" / "old_snapshots.json").read_text(encoding="utf-8"))
NEW_KEYS = ("rules_version", "rng")
"""What the kit's snapshot of a London state has that the old snapshots had not."""


def old_form(snapshot: dict) -> dict:
    """A snapshot as the old code wrote it: the same keys, in the same order, without the new ones."""
    return {k: v for k, v in snapshot.items() if k not in NEW_KEYS}


def ids(game: dict) -> str:
    return f"{game['seats']}p-seed{game['seed']}"


# -- rules versions ---------------------------------------------------------------------------


def test_the_newest_rules_version_is_2_and_version_1_is_kept():
    assert (ENGINE.rules_version, ENGINE.rules_versions) == (2, (1, 2))
    assert ENGINE.new_game(2, 5, {}).rules_version == 2
    assert ENGINE.new_game(2, 5, {}, rules_version=None).rules_version == 2
    assert ENGINE.new_game(2, 5, {}, rules_version=1).rules_version == 1
    with pytest.raises(ValueError, match="no rules version 3"):
        ENGINE.new_game(2, 5, {}, rules_version=3)


@pytest.mark.parametrize("game", OLD["games"], ids=ids)
def test_rules_version_1_deals_exactly_as_the_code_before_the_kit(game):
    s = ENGINE.new_game(game["seats"], game["seed"], {}, rules_version=1)
    assert s.rng is None
    assert old_form(ENGINE.encode(s)) == game["points"][0]["snapshot"]
    assert ENGINE.view(s, None) == game["points"][0]["spectator"]


def test_rules_version_2_deals_with_the_kits_generator_over_the_whole_seed():
    seed = (0xA5 << 120) | 12345
    s = ENGINE.new_game(3, seed, {})
    assert isinstance(s.rng, Rng)
    rng = Rng.from_seed(seed)  # the same shuffles, in the same order, as the setup's
    deck = []
    for era in "CBA":
        part = [cid for cid, c in enumerate(CARDS) if c.era == era]
        rng.shuffle(part)
        deck += part
    others = [k for k in BOROUGHS if k not in STARTERS]
    rng.shuffle(others)
    assert s.rng == rng and s.borough_deck == others
    hands = [deck[-1 - i::-3][:6] for i in range(3)]  # dealt one at a time from the top
    assert [p.hand for p in s.players] == hands and s.deck == deck[:-18]
    low = ENGINE.new_game(3, 12345, {})  # only the top bits differ: another deal
    assert low.deck != s.deck


def test_a_seed_deals_differently_under_each_version_and_both_replay():
    v1, v2 = (ENGINE.new_game(2, 77, {}, rules_version=v) for v in (1, 2))
    assert v1.deck != v2.deck
    for version in (1, 2):
        rng = random.Random(version)
        s = ENGINE.new_game(2, 77, {}, rules_version=version)
        moves = []
        for _ in range(150):
            (seat,) = ENGINE.to_act(s)
            m = random_move(ENGINE.legal_moves(s, seat), rng)
            ENGINE.play(s, seat, m)
            moves.append((seat, m))
        assert replay(2, 77, moves, version) == s


# -- snapshots written before the kit -------------------------------------------------------


@pytest.mark.parametrize("game", OLD["games"], ids=ids)
def test_old_snapshots_decode_into_an_equal_game_that_plays_on_as_the_old_code_did(game):
    moves = [(seat, m) for seat, m in game["moves"]]
    final = ENGINE.decode(game["final"])
    assert final.rules_version == 1 and final.over
    assert ENGINE.result(final).as_json() == game["result"]
    for point in game["points"]:
        after = point["after"]
        s = ENGINE.decode(json.loads(json.dumps(point["snapshot"])))
        assert isinstance(s, State) and s.rules_version == 1 and s.rng is None
        assert s == replay(game["seats"], game["seed"], moves[:after], 1)
        assert ENGINE.view(s, None) == point["spectator"]
        assert ENGINE.decode(ENGINE.encode(s)) == s
        log = []
        for seat, m in moves[after:]:
            log.append([[e.text, {str(k): v for k, v in e.private.items()}] for e in ENGINE.play(s, seat, m)])
        assert log == game["log"][after:]
        assert s == final
        assert old_form(ENGINE.encode(s)) == game["final"]
        assert ENGINE.result(s).as_json() == game["result"]
        assert ENGINE.view(s, None) == game["spectator"]


def test_a_new_snapshot_holds_the_rules_version_and_the_generator():
    s = ENGINE.new_game(2, 9, {})
    data = json.loads(json.dumps(ENGINE.encode(s)))
    assert data["rules_version"] == 2 and data["rng"] == s.rng.encode()
    assert ENGINE.decode(data) == s
    assert ENGINE.encode(ENGINE.new_game(2, 9, {}, rules_version=1))["rng"] is None


# -- determinize -------------------------------------------------------------------------------


def _states(seats: int, seed: int, version: int, every: int = 9):
    rng = random.Random(seed)
    s = ENGINE.new_game(seats, seed, {}, rules_version=version)
    n = 0
    while not s.over:
        if n % every == 0:
            yield s
        (seat,) = ENGINE.to_act(s)
        ENGINE.play(s, seat, random_move(ENGINE.legal_moves(s, seat), rng))
        n += 1
    yield s


@pytest.mark.parametrize(("seats", "version"), [(2, 2), (3, 1), (4, 2)])
def test_determinize_keeps_every_view_of_the_seat_and_redraws_what_it_cannot_see(seats, version):
    changed = {"hands": 0, "deck": 0, "boroughs": 0}
    checked = 0
    for s in _states(seats, 40 + seats, version):
        before = ENGINE.encode(s)
        for seat in [None, *range(seats)]:
            for k in range(3):
                d = ENGINE.determinize(s, seat, Rng.from_seed(1000 * k + seats))
                assert ENGINE.view(d, seat) == ENGINE.view(s, seat)
                assert ENGINE.legal_moves(d, s.current) == ENGINE.legal_moves(s, s.current) or seat != s.current
                check_invariants(d, views=False)
                for i, (p, q) in enumerate(zip(s.players, d.players, strict=True)):
                    assert len(p.hand) == len(q.hand)
                    assert (p.stacks, p.facedown, p.boroughs, p.money) == (q.stacks, q.facedown, q.boroughs, q.money)
                    if i == seat:
                        assert p.hand == q.hand
                    changed["hands"] += p.hand != q.hand
                assert (d.board, d.box, d.market, d.turn) == (s.board, s.box, s.market, s.turn) or (
                    seat != s.current and d.turn.scry != s.turn.scry)
                assert [CARDS[c].era for c in d.deck] == [CARDS[c].era for c in s.deck]
                assert sorted(d.borough_deck) == sorted(s.borough_deck)
                changed["deck"] += d.deck != s.deck
                changed["boroughs"] += d.borough_deck != s.borough_deck
                assert (d.rng is None) == (s.rng is None) and (d.rng is None or d.rng != s.rng)
                checked += 1
        assert ENGINE.encode(s) == before, "determinize changed its input"
    assert checked > 100 and all(n > 0 for n in changed.values()), changed


def test_determinize_redraws_st_pancras_cards_only_for_those_who_did_not_see_them(table, do):
    t = table(3)
    t.boroughs(0, "st_pancras")
    looked = t.deck_top("shops", "school", "hospital")
    s = t.ready()
    do(s, 0, {"type": "scry"})
    assert s.turn.scry == looked
    assert s.turn.scry in unseen_places(s, 1) and s.turn.scry not in unseen_places(s, 0)
    moved = 0
    for k in range(20):
        mine = ENGINE.determinize(s, 0, Rng.from_seed(k))
        assert mine.turn.scry == looked and mine.players[0].hand == s.players[0].hand
        theirs = ENGINE.determinize(s, 1, Rng.from_seed(k))
        assert len(theirs.turn.scry) == 3 and ENGINE.view(theirs, 1) == ENGINE.view(s, 1)
        assert [CARDS[c].era for c in theirs.turn.scry] == [CARDS[c].era for c in looked]
        moved += theirs.turn.scry != looked
    assert moved > 10


def test_determinize_keeps_the_public_box_and_face_down_cards(table):
    t = table()
    t.stack(1, "shops", facedown=("shops",))
    t.hand(1, "hospital", "school")
    s = t.ready()
    s.box = s.deck[:5]
    s.deck = s.deck[5:]
    d = ENGINE.determinize(s, 0, Rng.from_seed(3))
    assert d.box == s.box and d.players[1].stacks == s.players[1].stacks
    assert d.players[1].facedown == s.players[1].facedown
