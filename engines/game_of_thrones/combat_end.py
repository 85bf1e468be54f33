"""The end of a combat: the attacking army goes back to the area it marched from (a neutral force
too strong for it, a lost attack, Arianne Martell's refusal), losing to supply what no longer
fits, or the winning attacker moves in; then the house cards go to the discard pile, hands are
taken back, the combat's decisions leave the stack and Patchface is asked."""

from __future__ import annotations

from engines.game_of_thrones import house_cards as H
from engines.game_of_thrones import rules as R
from engines.game_of_thrones import units as U
from engines.game_of_thrones.shared import area_name, kinds_text, unit_name
from engines.game_of_thrones.state import GameState, PlacedOrder
from engines.kit import Decision, Log


def back_to_origin(state: GameState, log: Log, *, routed: bool = False, then: str) -> bool:
    """The attacking army goes back to the area it marched from. If that would break its
    supply limits, units are lost until they fit: chosen by the attacker one at a time when
    the army mixes kinds (a ``supply_loss`` decision; False is returned and ``then`` says
    how the flow goes on once it is settled), else at once."""
    c = state.combat
    assert c is not None
    here = len(state.units.get(c.origin, []))
    keep = len(c.army)
    while keep and not R.supply_ok(state, c.attacker, {c.origin: here + keep}):
        keep -= 1
    lose = len(c.army) - keep
    if lose and keep and len(set(c.army)) > 1:
        state.decisions.push(Decision("supply_loss", [c.attacker], {
            "side": "attacker", "to": c.origin, "left": lose, "routed": routed, "then": then}))
        return False
    for kind in c.army[:lose]:
        log.say("{0} loses a {k} to supply going back to {o}", c.attacker, k=unit_name(kind), o=area_name(c.origin))
    c.army = c.army[lose:]
    if c.army:
        U.enter(state, c.attacker, c.origin, c.army, log, routed=routed)
    return True


def after_return(state: GameState, then: str, log: Log) -> None:
    """How the flow goes on once an attacking army is back in its area: the attack on a
    neutral force is over; a lost combat or Arianne's refusal goes on to its end."""
    c = state.combat
    assert c is not None
    if then == "neutral":
        state.combat = None
        return
    if then == "retreat" and c.army:
        log.say("{0} retreats {u} to {o}, routed", c.attacker, u=kinds_text(c.army), o=area_name(c.origin))
    elif then == "arianne":
        log.say("Arianne Martell: {0}'s units go back to {o}", c.attacker, o=area_name(c.origin))
    c.army = []
    finish_combat(state, log)


def finish_combat(state: GameState, log: Log) -> None:
    """Rules §3.8: the winning attacker moves in (an enemy Power token there is discarded, a
    defeated home garrison removed, the loser's ships in the port destroyed); house cards go
    to the discard pile and a house with an empty hand takes its discards back."""
    c = state.combat
    assert c is not None and c.winner is not None
    arianne = c.winner == c.attacker and c.card.get(c.defender or 0) == "arianne-martell"
    if arianne and c.army:
        # Arianne Martell: the defender lost, but the attackers may not enter
        if back_to_origin(state, log, then="arianne"):
            after_return(state, "arianne", log)
        return
    if c.winner == c.attacker and c.army:
        if c.area in state.owner and state.owner[c.area] != c.attacker:
            raise AssertionError("the embattled area is still held")
        U.enter(state, c.attacker, c.area, c.army, log)
        state.garrisons.pop(c.area, None)
        log.say("{0} takes {a}", c.attacker, a=area_name(c.area))
        if c.card.get(c.attacker) == "ser-loras-tyrell":
            # Ser Loras: the march order moves into the conquered area, to be resolved again
            state.orders[c.area] = PlacedOrder(c.attacker, c.march)
            log.say("Ser Loras Tyrell: {0}'s march order moves into {a}", c.attacker, a=area_name(c.area))
    for seat, cid in sorted(c.card.items()):
        state.discards[seat].append(cid)
        if seat == c.loser and c.notes.get("roose"):
            state.hands[seat].extend(state.discards[seat])
            state.discards[seat] = []
            log.say("Roose Bolton: {0} takes back every discarded house card", seat)
        H.take_back_when_empty(state, seat, cid, log)
    state.combat = None
    end_combat_decisions(state)
    for seat, cid in sorted(c.card.items()):
        other = H.opponent(c, seat)
        if cid == "patchface" and state.hands[other]:
            state.decisions.push(Decision("ability", [seat], {"card": "patchface", "victim": other}))


def end_combat_decisions(state: GameState) -> None:
    while state.decisions.top is not None and state.decisions.top.kind != "combat":
        state.decisions.pop()
    if state.decisions.top is not None:
        state.decisions.pop()
