"""The engine protocol, the component data, hidden information, snapshots, perft counts and
the property test over random illegal moves."""

from __future__ import annotations

import base64
import json
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest

from engines.base import Engine, IllegalMove
from engines.london import ENGINE
from engines.london.components import BOROUGHS, CARDS, DESIGNS, STARTERS
from engines.london.effects import EFFECTS, ONGOING
from engines.london.moves import ACTIONS, MOVES
from engines.london.playout import (
    check_invariants,
    play_random,
    random_move,
    replay,
    visible_ids,
)

HERE = Path(__file__).parent

# -- protocol -------------------------------------------------------------------------------


def test_engine_follows_the_protocol():
    assert isinstance(ENGINE, Engine)
    assert (ENGINE.id, ENGINE.title, ENGINE.min_seats, ENGINE.max_seats) == ("london", "London", 2, 4)
    assert ENGINE.tagline == "Raise the city from its ashes — and mind the poverty."
    assert ENGINE.options == ()


def test_new_game_refuses_bad_seat_counts_and_options():
    with pytest.raises(ValueError):
        ENGINE.new_game(5, 1, {})
    with pytest.raises(ValueError):
        ENGINE.new_game(2, 1, {"variant": "x"})


def test_setup_deals_six_cards_and_five_pounds_with_era_a_on_top():
    s = ENGINE.new_game(4, 42, {})
    assert all(len(p.hand) == 6 and p.money == 5 and p.poverty == 0 for p in s.players)
    eras = [CARDS[c].era for c in s.deck]
    assert eras == sorted(eras, reverse=True)  # C at the bottom, then B, A on top
    assert sorted(s.market) == sorted(STARTERS) and len(s.borough_deck) == 17
    assert len(s.board[0]) == len(s.board[1]) == 5


def test_the_same_seed_gives_the_same_game_and_another_seed_another():
    a, b, c = (ENGINE.encode(ENGINE.new_game(3, seed, {})) for seed in (5, 5, 6))
    assert a == b and a != c


# -- component data ---------------------------------------------------------------------------


def test_every_effect_and_ongoing_name_in_the_data_resolves():
    names, ongoing = set(), set()
    for d in DESIGNS.values():
        effects = list(d.on_play) + (list(d.activation.effects) if d.activation else [])
        names |= {e["do"] for e in effects}
        if d.ongoing:
            ongoing.add(d.ongoing["ability"])
    for b in BOROUGHS.values():
        names |= {e["do"] for e in b.effects}
        if b.ongoing:
            ongoing.add(b.ongoing["ability"])
    assert names <= set(EFFECTS), names - set(EFFECTS)
    assert ongoing <= set(ONGOING), ongoing - set(ONGOING)


def test_the_city_deck_has_101_cards_4_actions_11_paupers_in_three_eras():
    assert len(CARDS) == 101
    assert sum(c.is_action for c in CARDS) == 4
    assert sum(c.is_pauper for c in CARDS) == 11
    assert {c.colour for c in CARDS if not c.is_pauper} == {"brown", "blue", "pink"}
    split = {era: sum(c.era == era for c in CARDS) for era in "ABC"}
    assert split == {"A": 26, "B": 40, "C": 35}
    assert {c.name for c in CARDS if c.is_action} == {"Wren", "Huguenots", "Nash", "Jewish Refugees"}


def test_the_real_london_names_are_in_the_deck():
    names = {c.name for c in CARDS}
    for name in ("Hospital", "Vauxhall Gardens", "Town Houses", "West India Docks", "Steamboats",
                 "Vintners", "Bank of England", "Huguenots", "Wren", "Jewish Refugees", "Coffee House",
                 "Omnibus", "Shops", "Water Works", "School", "Almshouses", "Billingsgate Market",
                 "Albert Hall", "Brixton Prison", "Fleet Street", "East India Company"):
        assert name in names
    assert sum(c.name == "Omnibus" for c in CARDS) >= 2


def test_known_card_facts_from_the_reference():
    docks = DESIGNS["west_india_docks"]
    assert docks.activation and docks.activation.pay == "discard" and docks.activation.flips
    assert docks.activation.effects == ({"do": "gain_money", "amount": 7},)
    assert DESIGNS["hospital"].colour == "blue" and DESIGNS["hospital"].cost == 2
    assert DESIGNS["huguenots"].colour == "brown" and DESIGNS["huguenots"].on_play == (
        {"do": "draw", "count": 2},)
    assert DESIGNS["shops"].activation and DESIGNS["shops"].activation.flips
    assert DESIGNS["vintners"].colour == "brown" and DESIGNS["vauxhall_gardens"].colour == "blue"


def test_twenty_boroughs_three_starters_north_and_south():
    assert len(BOROUGHS) == 20
    assert {BOROUGHS[k].name for k in STARTERS} == {"City", "Westminster", "Southwark & Bermondsey"}
    w = BOROUGHS["wandsworth"]
    assert (w.draw, w.prestige, w.relief, w.effects) == (2, 2, 1, ({"do": "gain_poverty", "amount": 2},))
    assert {b.side for b in BOROUGHS.values()} == {"north", "south"}
    assert BOROUGHS["st_pancras"].start_draw == "st_pancras"
    assert BOROUGHS["westminster"].start_draw == "westminster"


# -- move errors ------------------------------------------------------------------------------


def test_unknown_malformed_and_wrong_seat_moves_have_their_codes():
    s = ENGINE.new_game(2, 1, {})
    cases = [({"type": "fly"}, "unknown_move"), ({"type": "draw"}, "malformed_move"),
             ({"type": "draw", "from": "board"}, "malformed_move"),
             ({"type": "draw", "from": "deck", "x": 1}, "malformed_move"),
             ({"type": "develop", "card": "17"}, "malformed_move"),
             ({"type": "develop", "card": True}, "malformed_move"), ("draw", "malformed_move"),
             ({"type": ["draw"]}, "malformed_move"), ({"type": {"draw": 1}}, "malformed_move"),
             ({"type": "draw", "from": ["deck"]}, "malformed_move"),
             ({"type": "choose_action", "action": "nap"}, "malformed_move")]
    before = ENGINE.encode(s)
    for move, code in cases:
        with pytest.raises(IllegalMove) as info:
            ENGINE.play(s, 0, move)
        assert info.value.code == code, move
    with pytest.raises(IllegalMove) as info:
        ENGINE.play(s, 1, {"type": "draw", "from": "deck"})
    assert info.value.code == "not_your_turn"
    assert ENGINE.encode(s) == before


def _universe():
    cards = list(range(-1, len(CARDS) + 1))
    out = [{"type": t} for t in MOVES.types]
    out += [{"type": "draw", "from": "deck"}]
    out += [{"type": "draw", "from": "board", "card": c} for c in cards]
    for t, spec in MOVES.specs.items():
        if list(spec.fields) == ["card"]:
            out += [{"type": t, "card": c} for c in cards]
    out += [{"type": "choose_action", "action": a} for a in ACTIONS]
    out += [{"type": "place", "stack": x} for x in ("new", -1, 0, 1, 2, 3, 7)]
    out += [{"type": "buy", "borough": b} for b in [*BOROUGHS, "atlantis"]]
    out += [{"type": "end_turn", "extra": 1}, {"type": 3}, [], {"type": "draw", "from": "sky"}]
    return out


UNIVERSE = _universe()


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_a_move_is_accepted_exactly_when_listed_and_refusals_change_nothing(seats):
    rng = random.Random(seats)
    tried = refused = 0
    for game in range(6):
        s = ENGINE.new_game(seats, 1000 + game, {})
        prng = random.Random(game)
        n = 0
        while not s.over:
            (seat,) = ENGINE.to_act(s)
            legal = ENGINE.legal_moves(s, seat)
            if n % 7 == 0:
                before = ENGINE.encode(s)
                for move in [*rng.sample(UNIVERSE, 25), rng.choice(legal)]:
                    who = seat if rng.random() < 0.85 else rng.randrange(seats)
                    listed = strictly_in(move, ENGINE.legal_moves(s, who))
                    assert ENGINE.is_legal(s, who, move) == listed, (move, s.turn.step)
                    tried += 1
                    if listed:
                        continue
                    with pytest.raises(IllegalMove) as info:
                        ENGINE.play(s, who, move)
                    refused += 1
                    err = info.value
                    assert err.message
                    assert err.code in ("illegal_move", "malformed_move", "unknown_move", "not_your_turn")
                    assert err.code != "illegal_move" or err.rule.startswith("London rule "), err.rule
                    assert ENGINE.encode(s) == before
            ENGINE.play(s, seat, random_move(legal, prng))
            n += 1
    assert tried > 2000 and refused > 1000, (tried, refused)


def strictly_in(move, moves) -> bool:
    """``move in moves`` where a value's type counts too (in Python ``False == 0`` and ``7.0 == 7``)."""
    key = json.dumps(move, sort_keys=True)
    return any(json.dumps(m, sort_keys=True) == key for m in moves)


def _mutations(move, seat, seats, elsewhere):
    """Moves near ``move``: an extra field, each field missing, each field of a wrong type or out
    of range, the keys in another order, and moves listed at other steps (``elsewhere``)."""
    out = [{**move, "extra": 1}, {**move, "type": move["type"] + "x"}, dict(reversed(move.items()))]
    for key, value in move.items():
        if key == "type":
            continue
        out.append({k: v for k, v in move.items() if k != key})
        for bad in (True, False, None, "7", 7.0, [value], {"v": value}, -1, 2**31, -(2**31), 2**63, 10**100):
            out.append({**move, key: bad})
    return [(m, seat) for m in out] + [(m, (seat + 1) % seats) for m in (move,)] + [(m, seat) for m in elsewhere]


@pytest.mark.parametrize("seats", [2, 4])
def test_mutated_moves_are_listed_or_refused_with_illegal_move_and_nothing_else(seats):
    rng = random.Random(50 + seats)
    s = ENGINE.new_game(seats, 50 + seats, {})
    seen: list[dict] = []  # moves listed at earlier steps
    tried = n = 0
    while not s.over:
        (seat,) = ENGINE.to_act(s)
        legal = ENGINE.legal_moves(s, seat)
        before = ENGINE.encode(s)
        for move in legal[:4] if n % 3 == 0 else ():
            for m, who in _mutations(move, seat, seats, rng.sample(seen, min(4, len(seen)))):
                listed = strictly_in(m, ENGINE.legal_moves(s, who))
                copy = ENGINE.decode(before)
                try:
                    ENGINE.play(copy, who, m)
                except IllegalMove:
                    assert not listed, (m, who, s.turn.step)
                    assert ENGINE.encode(copy) == before
                else:
                    assert listed, (m, who, s.turn.step)
                    assert ENGINE.canonical(m) in ENGINE.legal_moves(s, who)
                    assert list(ENGINE.canonical(m)) == list(next(x for x in ENGINE.legal_moves(s, who) if x == m))
                tried += 1
        seen.extend(legal[:3])
        seen = seen[-60:]
        ENGINE.play(s, seat, random_move(legal, rng))
        n += 1
    assert tried > 3000, tried


# -- hidden information --------------------------------------------------------------------------


def encodings(number: int) -> list[str]:
    """The ways a number could leak into a text: decimal, hex, and base64 of its bytes."""
    out = [str(number), format(number, "x"), format(number, "X"), format(number, "#x")]
    for size in {(number.bit_length() + 7) // 8, 16}:
        for order in ("big", "little"):
            raw = number.to_bytes(size, order)
            out += [base64.b64encode(raw).decode().rstrip("="),
                    base64.urlsafe_b64encode(raw).decode().rstrip("=")]
    return out


def test_encodings_of_a_number_cover_decimal_hex_and_base64():
    assert {"255", "ff", "FF", "0xff", "/w"} <= set(encodings(255))


def test_views_never_show_other_hands_the_deck_order_or_the_seed():
    s = ENGINE.new_game(3, 987654321, {})
    for seat in (None, 0, 1, 2):
        v = ENGINE.view(s, seat)
        text = json.dumps(v)
        assert not [e for e in encodings(987654321) if e in text]
        ids = visible_ids(v)
        for other in range(3):
            if other != seat:
                assert not ids & set(s.players[other].hand)
                assert v["players"][other]["hand"] is None
                assert v["players"][other]["hand_count"] == 6
        assert not ids & set(s.deck)
        assert v["deck"] == {"count": len(s.deck), "era": "A"}
    assert ENGINE.view(s, None)["prompt"] is None and ENGINE.view(s, 1)["prompt"] is None
    own = ENGINE.view(s, 0)
    assert [c["id"] for c in own["players"][0]["hand"]] == s.players[0].hand
    assert own["prompt"]["text"].startswith("Start of your turn.")


@pytest.mark.parametrize("version", [1, 2])
def test_no_view_static_data_or_log_line_holds_the_seed_or_the_generator_in_any_encoding(version):
    seed = 0x5EED_C0DE_1234_5678_9ABC_DEF0_0FED_CBA9
    s = ENGINE.new_game(3, seed, {}, rules_version=version)
    secrets = encodings(seed)
    if s.rng is not None:
        secrets += [*encodings(s.rng.state), s.rng.encode()]
    rng = random.Random(4)
    texts = [json.dumps(ENGINE.static_view(s))]
    n = 0
    while not s.over:
        (seat,) = ENGINE.to_act(s)
        events = ENGINE.play(s, seat, random_move(ENGINE.legal_moves(s, seat), rng))
        texts += [e.for_seat(viewer) for e in events for viewer in (None, 0, 1, 2)]
        if n % 5 == 0:
            texts += [json.dumps(v) for v in ENGINE.views(s, [None, 0, 1, 2]).values()]
        n += 1
    texts += [json.dumps(v) for v in ENGINE.views(s, [None, 0, 1, 2]).values()]
    blob = "\n".join(texts)
    assert n > 100 and not [x for x in secrets if x in blob]


def test_random_games_keep_every_view_free_of_hidden_cards():
    for seats, seed in ((2, 11), (3, 12), (4, 13)):
        play_random(seats, seed, check=True, views_every=1)


def test_view_shape_for_a_browser_renderer():
    s = ENGINE.new_game(2, 3, {})
    v = ENGINE.view(s, 0)
    assert set(v) == {"game", "seats", "you", "turn_no", "current", "step", "action", "deck", "board",
                      "market", "borough_deck", "loan_supply", "box_count", "players", "turn", "scry",
                      "endgame", "over", "prompt", "result"}
    assert set(v["prompt"]) == {"kind", "text", "step", "action", "pending", "choices", "unavailable"}
    assert v["prompt"]["kind"] == v["prompt"]["step"] == v["step"] == "start"
    assert [c["move"] for c in v["prompt"]["choices"]] == ENGINE.legal_moves(s, 0)
    assert all(isinstance(c["label"], str) and c["label"] for c in v["prompt"]["choices"])
    assert json.loads(json.dumps(v)) == v
    cat = ENGINE.static_view(s)["catalogue"]  # sent once per connection, merged into every view
    assert set(cat["cards"]) == set(DESIGNS) and set(cat["boroughs"]) == set(BOROUGHS)
    assert cat["cards"]["west_india_docks"]["activation"]["text"] == "Discard a card: Gain £7 ⤵"
    assert json.loads(json.dumps(cat)) == cat


def test_the_end_view_carries_the_scoring_breakdown_and_result():
    g = play_random(2, 77)
    v = ENGINE.view(g.state, None)
    assert v["over"] and v["prompt"] is None and v["current"] is None
    rows = v["result"]["details"]["scoring"]
    assert [len(r["steps"]) for r in rows] == [7, 7]
    assert v["result"]["scores"] == [float(r["total"]) for r in rows]


# -- snapshots and replays ----------------------------------------------------------------------


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_replay_of_seed_and_moves_gives_the_same_state(seats):
    g = play_random(seats, 500 + seats)
    assert ENGINE.encode(replay(seats, 500 + seats, g.moves)) == ENGINE.encode(g.state)


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_decode_of_encode_continues_play_identically(seats):
    g = play_random(seats, 600 + seats)
    for cut in (0, len(g.moves) // 3, len(g.moves) // 2, len(g.moves) - 1):
        s = replay(seats, 600 + seats, g.moves[:cut])
        data = json.loads(json.dumps(ENGINE.encode(s)))
        copy = ENGINE.decode(data)
        assert ENGINE.encode(copy) == ENGINE.encode(s) and copy == s
        assert ENGINE.view(copy, 0) == ENGINE.view(s, 0)
        for seat, m in g.moves[cut:]:
            assert ENGINE.legal_moves(copy, seat) == ENGINE.legal_moves(s, seat)
            ENGINE.play(copy, seat, m)
            ENGINE.play(s, seat, m)
        assert ENGINE.encode(copy) == ENGINE.encode(s) == ENGINE.encode(g.state)
        assert ENGINE.result(copy) == ENGINE.result(g.state)


# -- perft -------------------------------------------------------------------------------------


def test_perft_counts_from_fixed_positions():
    data = json.loads((HERE / "perft.json").read_text())
    for pos in data["positions"]:
        rng = random.Random(pos["seed"])
        s = ENGINE.new_game(pos["seats"], pos["seed"], {}, rules_version=1)
        for _ in range(pos["random_plies"]):
            (seat,) = ENGINE.to_act(s)
            ENGINE.play(s, seat, random_move(ENGINE.legal_moves(s, seat), rng))
        (seat,) = ENGINE.to_act(s)
        moves = ENGINE.legal_moves(s, seat)
        assert (s.turn.step, len(moves)) == (pos["step"], pos["depth1"]), pos
        snap = ENGINE.encode(s)
        depth2 = 0
        for m in moves:
            c = ENGINE.decode(snap)
            ENGINE.play(c, seat, m)
            depth2 += len(ENGINE.legal_moves(c, c.current)) if not c.over else 0
        assert depth2 == pos["depth2"], pos


def test_perft_at_the_opening_of_a_game(table):
    s = ENGINE.new_game(2, 1, {})
    assert ENGINE.legal_moves(s, 0) == [{"type": "draw", "from": "deck"}, {"type": "take_loan"}]
    t = table()
    t.hand(0, "vintners", "shops", "hospital", "royal_society", "pauper_a")
    t.board("school", "almshouses")
    t.stack(0, "brewery")
    s = t.ready(step="develop", action="develop")
    # vintners, shops (brown pair), hospital and royal society (blue pair), end_action? no (0 developed)
    assert len(ENGINE.legal_moves(s, 0)) == 4 + 1
    s = t.s
    s.turn.step, s.turn.developed = "action", 0
    assert len(ENGINE.legal_moves(s, 0)) == 5  # 4 actions (buy affordable via loans) + loan


# -- the whole game, many times ------------------------------------------------------------------


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_random_games_end_with_invariants_after_every_move(seats):
    """1,020 seeded games in all (340 per player count); bench/london_engine.py runs 10,000."""
    lengths = []
    for seed in range(340):
        g = play_random(seats, seed, check=True, views_every=40, all_moves_every=60, max_moves=5000)
        check_invariants(g.state)
        lengths.append(len(g.moves))
        r = ENGINE.result(g.state)
        assert r is not None and len(r.scores) == seats and r.winners
    lengths.sort()
    assert lengths[-1] < 1500, lengths  # games end well within bounds
    assert 200 < lengths[len(lengths) // 2] < 900


def test_uniformly_random_moves_also_reach_the_end():
    for seats, seed in ((2, 1), (4, 2)):
        rng = random.Random(seed)
        s = ENGINE.new_game(seats, seed, {})
        n = 0
        while not s.over:
            (seat,) = ENGINE.to_act(s)
            ENGINE.play(s, seat, rng.choice(ENGINE.legal_moves(s, seat)))
            n += 1
            assert n < 20000
        check_invariants(s)


def test_command_line_runner_prints_log_and_scores():
    out = subprocess.run([sys.executable, "-m", "engines.london", "--seats", "3", "--seed", "4"],
                         capture_output=True, text=True, check=True, cwd=HERE.parents[2]).stdout
    assert "Final scores" in out and re.search(r"Winner", out)


# -- the prompt: loans per choice, cards that cannot be chosen --------------------------------


def _choice(v, move):
    return next(c for c in v["prompt"]["choices"] if c["move"] == move)


def test_a_choice_that_takes_loans_says_how_many(table):
    t = table()
    gallery, _partner, hosp, _royal = t.hand(0, "national_gallery", "dulwich_picture_gallery",
                                           "hospital", "royal_society")
    s = t.ready(step="develop", action="develop")
    s.players[0].money = 2
    cost = CARDS[gallery].cost
    v = ENGINE.view(s, 0)
    assert _choice(v, {"type": "take_loan"}) == {"move": {"type": "take_loan"}, "label": "Take a £10 loan",
                                                 "loans": 1}
    assert _choice(v, {"type": "develop", "card": gallery})["loans"] == -(-(cost - 2) // 10)
    assert "loans" not in _choice(v, {"type": "develop", "card": hosp})  # £2 in hand pays £2...
    s.players[0].money = 1
    v = ENGINE.view(s, 0)
    assert _choice(v, {"type": "develop", "card": hosp})["loans"] == 1  # ...£1 takes a loan
    s.players[0].money = cost + 11
    assert all("loans" not in c for c in ENGINE.view(s, 0)["prompt"]["choices"]
               if c["move"]["type"] != "take_loan")
    t2 = table()
    t2.boroughs(0, "city")  # £12 loans: a £13 shortfall takes two
    s2 = t2.ready(step="buy", action="buy_land")
    s2.players[0].money = 0
    v2 = ENGINE.view(s2, 0)
    for c in v2["prompt"]["choices"]:
        if c["move"]["type"] == "buy":
            price = BOROUGHS[c["move"]["borough"]].cost
            assert c.get("loans", 0) == -(-price // 12), c
    t3 = table()
    (zoo,) = t3.stack(0, "london_zoo")
    s3 = t3.ready(step="run", action="run_city")
    s3.players[0].money = 0
    assert _choice(ENGINE.view(s3, 0), {"type": "activate", "card": zoo})["loans"] == 1
    for seat_view in (ENGINE.view(s3, None), ENGINE.view(s3, 1)):
        assert seat_view["prompt"] is None


def test_the_prompt_names_the_cards_that_cannot_be_chosen_and_why(table):
    t = table()
    hosp, shops, pauper, gallery = t.hand(0, "hospital", "shops", "pauper_a", "houses_of_parliament")
    t.boroughs(0, "islington")  # £1 off every development
    s = t.ready(step="develop", action="develop")
    s.players[0].money, s.loan_supply = 2, 0
    v = ENGINE.view(s, 0)
    why = {u["card"]: u["reason"] for u in v["prompt"]["unavailable"]}
    assert set(why) == {hosp, shops, pauper, gallery}
    assert why[hosp] == ("You cannot develop Hospital: it needs a blue card discarded and your hand has "
                         "none (paupers do not count); it would cost £1 (£2 less £1 off) "
                         "(London rule 4: Develop)")
    assert why[pauper] == "You cannot develop a Pauper: paupers can never be placed (London rule 4: Develop)"
    gcost = CARDS[gallery].cost
    assert why[shops].endswith("your hand has none (paupers do not count); it would cost £0 "
                               "(London rule 4: Develop)")
    assert why[gallery] == (f"You cannot develop Houses of Parliament: it costs £{gcost - 1} (£{gcost} less £1 "
                            f"off), you have £2 and the loans left cannot cover it (London rule 4: Develop)")
    listed = {c["move"].get("card") for c in v["prompt"]["choices"]}
    assert not listed & set(why)


def test_unavailable_cards_while_paying_a_colour_and_in_a_run(table, do):
    t = table()
    vint, brew, hosp, pauper = t.hand(0, "vintners", "brewery", "hospital", "pauper_a")
    low, top = t.stack(0, "shops", "royal_observatory")
    (down,) = t.stack(0, "coffee_house", facedown=("coffee_house",))
    s = t.ready(step="develop", action="develop")
    do(s, 0, {"type": "develop", "card": vint})
    why = {u["card"]: u["reason"] for u in ENGINE.view(s, 0)["prompt"]["unavailable"]}
    assert set(why) == {hosp, pauper}
    assert why[hosp] == ("Hospital is blue; developing Vintners needs a brown card discarded "
                         "(London rule 4: Develop)")
    do(s, 0, {"type": "discard_for_colour", "card": brew}, {"type": "place", "stack": "new"})
    s.turn.step, s.turn.action = "run", "run_city"
    why = {u["card"]: u["reason"] for u in ENGINE.view(s, 0)["prompt"]["unavailable"]}
    assert why[low].startswith("You cannot activate Shops: only the top card of one of your stacks")
    assert why[down] == ("You cannot activate Coffee House: it is face-down (⤵ flipped) "
                         "(London rule 6: Run the City)")
    assert top not in why and vint not in why
    assert all(u["reason"].endswith(")") and "London rule" in u["reason"]
               for u in ENGINE.view(s, 0)["prompt"]["unavailable"])
