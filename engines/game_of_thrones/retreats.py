"""After the winner is known: casualties (the winner's swords less the loser's fortifications,
the loser choosing among different units), the losing attacker's way back, the losing defender's
retreat (routed, to a legal area, siege engines and routed units destroyed), and the units
either loses to supply on the way, chosen by their owner."""

from __future__ import annotations

from engines.base import Move
from engines.game_of_thrones import combat_end as E
from engines.game_of_thrones import rules as R
from engines.game_of_thrones import units as U
from engines.game_of_thrones.components import SIEGE
from engines.game_of_thrones.shared import area_name, kinds_text, unit_name
from engines.game_of_thrones.state import GameState
from engines.game_of_thrones.table import Doer, Mover, make
from engines.kit import Decision, Log


def moves_supply_loss(state: GameState, seat: int, top: Decision | None) -> list[Move]:
    """Supply on the way back or in a retreat: the owner chooses which unit to lose, one at
    a time, among the units that move."""
    return [make("casualty", unit=k) for k in sorted(set(supply_loss_units(state, top)))]


def supply_loss_units(state: GameState, top: Decision | None) -> list[str]:
    c = state.combat
    assert c is not None and top is not None
    if top.data["side"] == "attacker":
        return list(c.army)
    return [u.kind for u in state.units.get(c.area, [])]


def do_supply_loss(state: GameState, seat: int, move: Move, top: Decision | None, log: Log) -> None:
    c = state.combat
    assert c is not None and top is not None
    kind, to = move["unit"], top.data["to"]
    if top.data["side"] == "attacker":
        c.army.remove(kind)
        log.say("{0} loses a {k} to supply going back to {o}", seat, k=unit_name(kind), o=area_name(to))
    else:
        U.destroy(state, c.area, kind)
        log.say("{0} loses a {k} to supply while retreating to {o}", seat, k=unit_name(kind), o=area_name(to))
    top.data["left"] -= 1
    if top.data["left"] > 0:
        return
    state.decisions.pop()
    if top.data["side"] == "defender":
        retreat_to(state, to, log)
        return
    U.enter(state, c.attacker, to, c.army, log, routed=bool(top.data["routed"]))
    E.after_return(state, str(top.data["then"]), log)


def loser_units(state: GameState) -> list[str]:
    """Units the loser may lose as casualties: the attacking army, or the defender's
    units in the embattled area that are not routed."""
    c = state.combat
    assert c is not None
    if c.loser == c.attacker:
        return list(c.army)
    return [u.kind for u in state.units.get(c.area, []) if not u.routed]


def casualties_next(state: GameState, log: Log) -> None:
    c = state.combat
    assert c is not None and c.loser is not None
    units = loser_units(state)
    while c.casualties > 0 and units:
        if c.casualties >= len(units) or len(set(units)) == 1:
            lose_unit(state, units[0], log)
            c.casualties -= 1
            units = loser_units(state)
            continue
        state.decisions.push(Decision("casualties", [c.loser]))
        return
    c.casualties = 0
    retreat_step(state, log)


def lose_unit(state: GameState, kind: str, log: Log) -> None:
    c = state.combat
    assert c is not None and c.loser is not None
    if c.loser == c.attacker:
        c.army.remove(kind)
    else:
        U.destroy(state, c.area, kind)
    log.say("{0} loses a {k} in {a}", c.loser, k=unit_name(kind), a=area_name(c.area))


def moves_casualties(state: GameState, seat: int, top: Decision | None) -> list[Move]:
    return [make("casualty", unit=k) for k in sorted(set(loser_units(state)))]


def do_casualties(state: GameState, seat: int, move: Move, top: Decision | None, log: Log) -> None:
    c = state.combat
    assert c is not None
    state.decisions.pop()
    lose_unit(state, move["unit"], log)
    c.casualties -= 1
    casualties_next(state, log)


def retreat_step(state: GameState, log: Log) -> None:
    """Rules §3.7: the losing attacker goes back where it came from, routed; the losing
    defender retreats all survivors to one legal area (routed), or loses them."""
    c = state.combat
    assert c is not None and c.loser is not None
    if c.loser == c.attacker:
        if c.army and not E.back_to_origin(state, log, routed=True, then="retreat"):
            return
        E.after_return(state, "retreat", log)
        return
    here = state.units.get(c.area, [])
    for u in list(here):
        if u.routed or u.kind == SIEGE:
            U.destroy(state, c.area, u.kind, routed_first=u.routed)
            log.say("{0}'s {k} in {a} cannot retreat and is destroyed", c.loser, k=unit_name(u.kind),
                    a=area_name(c.area))
    kinds = [u.kind for u in state.units.get(c.area, [])]
    if not kinds:
        E.finish_combat(state, log)
        return
    options = retreat_options(state)
    if not options:
        for k in kinds:
            U.destroy(state, c.area, k)
        log.say("{0} has nowhere to retreat: {u} destroyed", c.loser, u=kinds_text(kinds))
        E.finish_combat(state, log)
        return
    chooser = c.winner if c.card.get(c.winner or 0) == "robb-stark" else c.loser
    assert chooser is not None
    if len(options) == 1:
        retreat_to(state, options[0], log)
        return
    state.decisions.push(Decision("retreat", [chooser]))


def retreat_losses(state: GameState, to: str) -> int:
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


def retreat_options(state: GameState) -> list[str]:
    """Legal retreat areas; those breaking supply only when there is nothing else, and then
    those losing the fewest units. Robb Stark's owner must also pick one losing the fewest."""
    c = state.combat
    assert c is not None and c.loser is not None
    kinds = [u.kind for u in state.units.get(c.area, [])]
    areas = R.retreat_areas(state, c.loser, c.area, c.origin, kinds)
    if not areas:
        return []
    losses = {a: retreat_losses(state, a) for a in areas}
    best = min(losses.values())
    if best == 0 and c.card.get(c.winner or 0) != "robb-stark":
        return [a for a in areas if losses[a] == 0]
    return [a for a in areas if losses[a] == best]


def moves_retreat(state: GameState, seat: int, top: Decision | None) -> list[Move]:
    return [make("retreat", to=a) for a in retreat_options(state)]


def do_retreat(state: GameState, seat: int, move: Move, top: Decision | None, log: Log) -> None:
    state.decisions.pop()
    retreat_to(state, move["to"], log)


def retreat_to(state: GameState, to: str, log: Log) -> None:
    c = state.combat
    assert c is not None and c.loser is not None
    losses = retreat_losses(state, to)
    moving = state.units.get(c.area, [])
    if 0 < losses < len(moving) and len({u.kind for u in moving}) > 1:
        # the retreating house chooses which units supply costs it, one at a time
        state.decisions.push(Decision("supply_loss", [c.loser], {"side": "defender", "to": to, "left": losses}))
        return
    here = U.vacate(state, c.area)
    # units lost to supply without a choice: all alike, or all of them
    lost, kept = here[:losses], here[losses:]
    if lost:
        log.say("{0} loses {u} to supply while retreating", c.loser, u=kinds_text([u.kind for u in lost]))
    U.enter(state, c.loser, to, [u.kind for u in kept], log, routed=True)
    log.say("{0} retreats {u} from {a} to {b}, routed", c.loser, u=kinds_text([u.kind for u in kept]),
            a=area_name(c.area), b=area_name(to))
    E.finish_combat(state, log)


MOVES: dict[str, Mover] = {"supply_loss": moves_supply_loss, "casualties": moves_casualties, "retreat": moves_retreat}


DO: dict[str, Doer] = {"supply_loss": do_supply_loss, "casualties": do_casualties, "retreat": do_retreat}
