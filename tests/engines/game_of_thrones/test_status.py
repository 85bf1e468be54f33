"""The status line (the view's ``status``) tells the step the prompt asks about, and the houses
awaited: never "Raids" while the Messenger Raven is decided, never the march while a battle is
fought."""

from __future__ import annotations

from engines.game_of_thrones import ENGINE
from engines.game_of_thrones import westeros as W
from engines.game_of_thrones.engine import DO_BY_KIND
from engines.game_of_thrones.status import STEPS
from engines.kit import Commitments

from . import test_good_bot as G
from .conftest import plan, play, position, random_game, seat


def status_text(state) -> str:
    return str(ENGINE.view(state, None)["status"]["text"])


def test_every_decision_the_game_asks_for_has_the_words_of_its_step():
    assert set(STEPS) == set(DO_BY_KIND)


def test_planning_says_who_is_still_placing_orders():
    state = position(6, {"winterfell": ("stark", ["footman"]), "lannisport": ("lannister", ["footman"])})
    assert status_text(state) == "Placing orders — Stark, Lannister are still placing orders"
    play(state, "stark", "order", area="winterfell", order="defense-plus-one")
    play(state, "stark", "ready")
    assert status_text(state) == "Placing orders — Lannister is still placing orders"
    assert ENGINE.view(state, None)["status"]["phase"] == "Planning phase"


def test_the_messenger_raven_is_the_step_while_it_is_decided_and_the_raids_follow():
    """Lannister holds the raven (King's Court) while a Raid order waits: the status names the
    Raven, as the prompt does, and the raids only once the raven is done."""
    state = position(6, {"winterfell": ("stark", ["footman"]), "lannisport": ("lannister", ["footman"]),
                         "stoney-sept": ("lannister", ["footman"])})
    holder = state.tracks["kings_court"][0]
    plan(state, {"winterfell": "raid", "lannisport": "defense-plus-one", "stoney-sept": "consolidate-power"},
         raven=False)
    assert state.decisions.top.kind == "raven"
    assert ENGINE.view(state, holder)["prompt"]["text"].startswith("Messenger Raven")
    assert status_text(state) == f"Messenger Raven — {state.houses[holder].capitalize()} decides"
    play(state, holder, "raven_pass")
    assert status_text(state) == "Raids — Stark decides"


def test_a_battle_is_the_step_while_it_is_fought_with_the_houses_choosing_their_cards():
    units = {"the-reach": ("tyrell", ["knight", "footman"]), "blackwater": ("lannister", ["footman"]),
             "castle-black": ("stark", ["footman"])}
    state = position(6, units)
    plan(state, {"the-reach": "march", "blackwater": "defense-plus-one", "castle-black": "consolidate-power"})
    tyrell = seat(state, "tyrell")
    play(state, tyrell, "march", area="the-reach")
    assert status_text(state) == "Marches: the march from The Reach — Tyrell decides"
    play(state, tyrell, "move", unit="knight", to="blackwater")
    play(state, tyrell, "end_march", power=False)
    houses = ", ".join(sorted(("Tyrell", "Lannister"), key=lambda h: seat(state, h.lower())))
    assert status_text(state) == f"Battle for Blackwater: house cards — {houses} decide"


def test_a_bidding_says_the_track_and_who_has_still_to_bid():
    state = G.bidding("fiefdoms", [3, 3, 3, 3, 3, 3])
    assert status_text(state) == ("Clash of Kings: bidding for the Fiefdoms track — "
                                  "Stark, Lannister, Baratheon, Greyjoy, Tyrell, Martell bid")
    for house in ("stark", "lannister", "baratheon", "greyjoy", "tyrell"):
        play(state, house, "bid", power=0)
    assert status_text(state) == "Clash of Kings: bidding for the Fiefdoms track — Martell bids"


def test_a_wildling_attack_says_its_strength():
    state = position(6)
    state.planning, state.phase = Commitments(), "westeros"
    W.ask_bids(state, list(range(6)), {"for": "wildlings", "strength": 8})
    assert status_text(state).startswith("Wildlings attack (strength 8): bidding for the Night's Watch — ")


def test_through_a_whole_game_the_status_names_the_step_of_the_decision_and_every_house_awaited():
    seen: set[str] = set()
    for state in random_game(4, 5):
        view = ENGINE.view(state, None)
        text, top = view["status"]["text"], state.decisions.top
        if state.phase == "over":
            assert text == f"{state.houses[state.winner].capitalize()} wins"
            continue
        for s in ENGINE.to_act(state):
            assert state.houses[s].capitalize() in text, (text, top)
        kind = top.kind if top is not None else "orders"
        seen.add(kind)
        assert text.startswith("Raids") == (kind == "raid"), (text, kind)
        assert text.startswith("Messenger Raven") == (kind in ("raven", "wildling")), (text, kind)
        if kind in ("support", "cards", "blade", "casualties", "retreat"):
            assert text.startswith("Battle for "), (text, kind)
    assert {"orders", "raven", "raid", "march", "march_moves", "cards", "consolidate", "bid"} <= seen
