"""After the winner is known: casualties (the winner's swords less the loser's fortifications,
the loser choosing among different units), the losing attacker's way back, the losing defender's
retreat (routed, to a legal area, siege engines and routed units destroyed), and the units
either loses to supply on the way, chosen by their owner."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engines.base import Move
from engines.game_of_thrones import combat as C
from engines.game_of_thrones import rules as R
from engines.game_of_thrones import units as U
from engines.game_of_thrones.components import SIEGE
from engines.game_of_thrones.shared import Doer, Mover, area_name, kinds_text, unit_name
from engines.game_of_thrones.state import GameState
from engines.kit import Decision, Log

if TYPE_CHECKING:
    from engines.game_of_thrones.engine import GameOfThrones


def back_to_origin(eng: GameOfThrones, state: GameState, log: Log, *, routed: bool = False, then: str) -> bool:
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
        U.enter(eng, state, c.attacker, c.origin, c.army, log, routed=routed)
    return True


def moves_supply_loss(eng: GameOfThrones, state: GameState, seat: int, top: Decision | None) -> list[Move]:
    """Supply on the way back or in a retreat: the owner chooses which unit to lose, one at
    a time, among the units that move."""
    return [eng.MOVES.make("casualty", unit=k) for k in sorted(set(supply_loss_units(eng, state, top)))]


def supply_loss_units(eng: GameOfThrones, state: GameState, top: Decision | None) -> list[str]:
    c = state.combat
    assert c is not None and top is not None
    if top.data["side"] == "attacker":
        return list(c.army)
    return [u.kind for u in state.units.get(c.area, [])]


def do_supply_loss(eng: GameOfThrones, state: GameState, seat: int, move: Move, top: Decision | None, log: Log) -> None:
    c = state.combat
    assert c is not None and top is not None
    kind, to = move["unit"], top.data["to"]
    if top.data["side"] == "attacker":
        c.army.remove(kind)
        log.say("{0} loses a {k} to supply going back to {o}", seat, k=unit_name(kind), o=area_name(to))
    else:
        U.destroy(eng, state, c.area, kind)
        log.say("{0} loses a {k} to supply while retreating to {o}", seat, k=unit_name(kind), o=area_name(to))
    top.data["left"] -= 1
    if top.data["left"] > 0:
        return
    state.decisions.pop()
    if top.data["side"] == "defender":
        retreat_to(eng, state, to, log)
        return
    U.enter(eng, state, c.attacker, to, c.army, log, routed=bool(top.data["routed"]))
    after_return(eng, state, str(top.data["then"]), log)


def after_return(eng: GameOfThrones, state: GameState, then: str, log: Log) -> None:
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
    C.finish_combat(eng, state, log)


def loser_units(eng: GameOfThrones, state: GameState) -> list[str]:
    """Units the loser may lose as casualties: the attacking army, or the defender's
    units in the embattled area that are not routed."""
    c = state.combat
    assert c is not None
    if c.loser == c.attacker:
        return list(c.army)
    return [u.kind for u in state.units.get(c.area, []) if not u.routed]


def casualties_next(eng: GameOfThrones, state: GameState, log: Log) -> None:
    c = state.combat
    assert c is not None and c.loser is not None
    units = loser_units(eng, state)
    while c.casualties > 0 and units:
        if c.casualties >= len(units) or len(set(units)) == 1:
            lose_unit(eng, state, units[0], log)
            c.casualties -= 1
            units = loser_units(eng, state)
            continue
        state.decisions.push(Decision("casualties", [c.loser]))
        return
    c.casualties = 0
    retreat_step(eng, state, log)


def lose_unit(eng: GameOfThrones, state: GameState, kind: str, log: Log) -> None:
    c = state.combat
    assert c is not None and c.loser is not None
    if c.loser == c.attacker:
        c.army.remove(kind)
    else:
        U.destroy(eng, state, c.area, kind)
    log.say("{0} loses a {k} in {a}", c.loser, k=unit_name(kind), a=area_name(c.area))


def moves_casualties(eng: GameOfThrones, state: GameState, seat: int, top: Decision | None) -> list[Move]:
    return [eng.MOVES.make("casualty", unit=k) for k in sorted(set(loser_units(eng, state)))]


def do_casualties(eng: GameOfThrones, state: GameState, seat: int, move: Move, top: Decision | None, log: Log) -> None:
    c = state.combat
    assert c is not None
    state.decisions.pop()
    lose_unit(eng, state, move["unit"], log)
    c.casualties -= 1
    casualties_next(eng, state, log)


def retreat_step(eng: GameOfThrones, state: GameState, log: Log) -> None:
    """Rules §3.7: the losing attacker goes back where it came from, routed; the losing
    defender retreats all survivors to one legal area (routed), or loses them."""
    c = state.combat
    assert c is not None and c.loser is not None
    if c.loser == c.attacker:
        if c.army and not back_to_origin(eng, state, log, routed=True, then="retreat"):
            return
        after_return(eng, state, "retreat", log)
        return
    here = state.units.get(c.area, [])
    for u in list(here):
        if u.routed or u.kind == SIEGE:
            U.destroy(eng, state, c.area, u.kind, routed_first=u.routed)
            log.say("{0}'s {k} in {a} cannot retreat and is destroyed", c.loser, k=unit_name(u.kind),
                    a=area_name(c.area))
    kinds = [u.kind for u in state.units.get(c.area, [])]
    if not kinds:
        C.finish_combat(eng, state, log)
        return
    options = retreat_options(eng, state)
    if not options:
        for k in kinds:
            U.destroy(eng, state, c.area, k)
        log.say("{0} has nowhere to retreat: {u} destroyed", c.loser, u=kinds_text(kinds))
        C.finish_combat(eng, state, log)
        return
    chooser = c.winner if c.card.get(c.winner or 0) == "robb-stark" else c.loser
    assert chooser is not None
    if len(options) == 1:
        retreat_to(eng, state, options[0], log)
        return
    state.decisions.push(Decision("retreat", [chooser]))


def retreat_losses(eng: GameOfThrones, state: GameState, to: str) -> int:
    """Units the retreating defender would lose to supply by retreating to ``to``."""
    c = state.combat
    assert c is not None and c.loser is not None
    moving = len(state.units.get(c.area, []))
    n = moving
    while n > 0:
        changes = {c.area: 0, to: len(state.units.get(to, [])) + n}
        if R.supply_ok(state, c.loser, changes):
            return moving - n
        n -= 1
    return moving


def retreat_options(eng: GameOfThrones, state: GameState) -> list[str]:
    """Legal retreat areas; those breaking supply only when there is nothing else, and then
    those losing the fewest units. Robb Stark's owner must also pick one losing the fewest."""
    c = state.combat
    assert c is not None and c.loser is not None
    kinds = [u.kind for u in state.units.get(c.area, [])]
    areas = R.retreat_areas(state, c.loser, c.area, c.origin, kinds)
    if not areas:
        return []
    losses = {a: retreat_losses(eng, state, a) for a in areas}
    best = min(losses.values())
    if best == 0 and c.card.get(c.winner or 0) != "robb-stark":
        return [a for a in areas if losses[a] == 0]
    return [a for a in areas if losses[a] == best]


def moves_retreat(eng: GameOfThrones, state: GameState, seat: int, top: Decision | None) -> list[Move]:
    return [eng.MOVES.make("retreat", to=a) for a in retreat_options(eng, state)]


def do_retreat(eng: GameOfThrones, state: GameState, seat: int, move: Move, top: Decision | None, log: Log) -> None:
    state.decisions.pop()
    retreat_to(eng, state, move["to"], log)


def retreat_to(eng: GameOfThrones, state: GameState, to: str, log: Log) -> None:
    c = state.combat
    assert c is not None and c.loser is not None
    losses = retreat_losses(eng, state, to)
    moving = state.units.get(c.area, [])
    if 0 < losses < len(moving) and len({u.kind for u in moving}) > 1:
        # the retreating house chooses which units supply costs it, one at a time
        state.decisions.push(Decision("supply_loss", [c.loser], {"side": "defender", "to": to, "left": losses}))
        return
    here = state.units.pop(c.area)
    del state.owner[c.area]
    state.orders.pop(c.area, None)
    # units lost to supply without a choice: all alike, or all of them
    lost, kept = here[:losses], here[losses:]
    if lost:
        log.say("{0} loses {u} to supply while retreating", c.loser, u=kinds_text([u.kind for u in lost]))
    U.enter(eng, state, c.loser, to, [u.kind for u in kept], log, routed=True)
    log.say("{0} retreats {u} from {a} to {b}, routed", c.loser, u=kinds_text([u.kind for u in kept]),
            a=area_name(c.area), b=area_name(to))
    C.finish_combat(eng, state, log)


MOVES: dict[str, Mover] = {"supply_loss": moves_supply_loss, "casualties": moves_casualties, "retreat": moves_retreat}


DO: dict[str, Doer] = {"supply_loss": do_supply_loss, "casualties": do_casualties, "retreat": do_retreat}
