"""A combat from the march that starts it to its winner: the call for support, the house cards
chosen in secret and revealed together, their windows, the Valyrian Steel Blade, each side's
strength by part, the winner and the casualties it inflicts. Attacks on a neutral force are
settled here too. Casualties and retreats are in ``retreats.py``, the end of a combat (the
attacker moves in or goes back, cards to the discard pile) in ``combat_end.py``, what the card
texts add in ``house_cards.py`` and the texts that ask their owner, once chosen, in
``abilities.py``."""

from __future__ import annotations

from engines.base import Move
from engines.game_of_thrones import combat_end as E
from engines.game_of_thrones import house_cards as H
from engines.game_of_thrones import retreats as RT
from engines.game_of_thrones import rules as R
from engines.game_of_thrones import units as U
from engines.game_of_thrones.components import BOARD, HOUSE_CARDS, ORDERS
from engines.game_of_thrones.shared import area_name, kinds_text
from engines.game_of_thrones.state import Combat, GameState
from engines.game_of_thrones.table import Auto, Doer, Mover, make
from engines.kit import Commitments, Decision, Log, counted


def start_combat(state: GameState, seat: int, origin: str, area: str, army: list[str], token: str,
                  log: Log) -> None:
    defender = state.owner.get(area)
    if defender is None and area not in state.neutral:
        defender = state.homes.get(area)
    c = Combat(attacker=seat, defender=defender if area not in state.neutral else None, area=area,
               origin=origin, army=list(army), march=token)
    state.combat = c
    if c.defender is None:
        log.say("{0} attacks the neutral force in {a} (strength {n}) with {u}", seat, a=area_name(area),
                n=state.neutral[area], u=kinds_text(army))
    else:
        log.say("{0} attacks {1} in {a} with {u}", seat, c.defender, a=area_name(area), u=kinds_text(army))
    areas = R.supports_for(state, area)
    seats = {state.orders[a].seat for a in areas}
    c.to_ask = [s for s in state.tracks["iron_throne"] if s in seats]
    state.decisions.push(Decision("combat", []))
    combat_next(state, log)


def combat_next(state: GameState, log: Log) -> None:
    """Push the next decision of the combat, or finish it."""
    c = state.combat
    assert c is not None
    if c.to_ask:
        state.decisions.push(Decision("support", [c.to_ask[0]]))
        return
    if c.defender is None:
        neutral_outcome(state, log)
        return
    if c.step == "support":
        c.step = "cards"
        asked = [s for s in (c.attacker, c.defender) if state.hands[s]]
        c.cards = Commitments.ask(asked)
        state.decisions.push(Decision("cards", asked))
        return


def moves_support(state: GameState, seat: int, top: Decision | None) -> list[Move]:
    """Call for support: back the attacker, the defender, or nobody (a neutral force gets no
    support)."""
    c = state.combat
    assert c is not None
    sides = ["attacker", "none"] if c.defender is None else ["attacker", "defender", "none"]
    return [make("support", side=s) for s in sides]


def do_support(state: GameState, seat: int, move: Move, top: Decision | None, log: Log) -> None:
    c = state.combat
    assert c is not None
    state.decisions.pop()
    c.to_ask.pop(0)
    for area in R.supports_for(state, c.area):
        if state.orders[area].seat == seat:
            c.supporters[area] = move["side"]
    side = move["side"]
    if side == "none":
        log.say("{0} supports nobody", seat)
    else:
        backed = c.attacker if side == "attacker" else c.defender
        log.say("{0} supports {1}", seat, backed if backed is not None else c.attacker)
    combat_next(state, log)


def support_strength(state: GameState, c: Combat, side: str, seat_card: dict[int, str]) -> int:
    total = 0
    castle = BOARD.areas[c.area].castle
    for area, chosen in c.supporters.items():
        if chosen != side or area not in state.orders:
            continue
        order = state.orders[area]
        total += ORDERS[order.token].modifier
        for u in state.units.get(area, []):
            total += H.unit_value(state, c, order.seat, u.kind, u.routed, side == "attacker" and castle,
                                      side, seat_card, supporting=True)
    return total


def neutral_outcome(state: GameState, log: Log) -> None:
    """Rules §2.2: a neutral force falls when the attacking units' strength, the march
    modifier and the support given reach its value; no house cards, no Blade."""
    c = state.combat
    assert c is not None
    castle = BOARD.areas[c.area].castle
    total = sum(R.unit_strength(k, attacking_castle=castle) for k in c.army)
    total += ORDERS[c.march].modifier + support_strength(state, c, "attacker", {})
    need = state.neutral[c.area]
    E.end_combat_decisions(state)
    if total >= need:
        del state.neutral[c.area]
        U.enter(state, c.attacker, c.area, c.army, log)
        log.say("{0} defeats the neutral force in {a} ({t} against {n}) and marches in", c.attacker,
                a=area_name(c.area), t=total, n=need)
    else:
        log.say("{0} is too weak for the neutral force in {a} ({t} against {n}): the units stay in {o}",
                c.attacker, a=area_name(c.area), t=total, n=need, o=area_name(c.origin))
        if not E.back_to_origin(state, log, then="neutral"):
            return
    state.combat = None


def moves_cards(state: GameState, seat: int, top: Decision | None) -> list[Move]:
    """Both combatants choose a house card from hand, hidden until both have chosen."""
    exclude = top.data.get("exclude") if top is not None else None
    return [make("card", card=cid) for cid in sorted(state.hands[seat]) if cid != exclude]


def do_cards(state: GameState, seat: int, move: Move, top: Decision | None, log: Log) -> None:
    c = state.combat
    assert c is not None
    c.cards.choose(seat, move["card"], ready=True)
    log.say("{0} chooses a house card", seat, privately={seat: "You choose {card}"},
            card=HOUSE_CARDS[move["card"]].name)


def after_cards(state: GameState, log: Log) -> None:
    """Both cards are revealed together (or, after Tyrion's cancel, the replacement); then
    the card texts' windows run: cancel, immediately, the Blade, the winner."""
    c = state.combat
    assert c is not None
    state.decisions.pop()  # the cards decision
    chosen = c.cards.reveal() if c.cards.asked else {}
    for s, cid in sorted(chosen.items()):
        c.card[int(s)] = str(cid)
        state.hands[s].remove(cid)
        log.say("{0} reveals {card}", s, card=HOUSE_CARDS[cid].name)
    if c.step == "cards":
        c.step = "cancel"
    card_windows(state, log)


def card_windows(state: GameState, log: Log) -> None:
    """House card texts by timing (Rules §3.3), the combatants in Iron Throne order: first
    cancel effects (Tyrion), then "immediately" effects (Queen of Thorns, Doran, Mace,
    Aeron), then the Valyrian Steel Blade and the winner."""
    c = state.combat
    assert c is not None and c.defender is not None
    order = [s for s in state.tracks["iron_throne"] if s in (c.attacker, c.defender)]
    if c.step == "cancel":
        for s in order:
            if (c.card.get(s) == "tyrion-lannister" and c.card.get(H.opponent(c, s)) is not None
                    and not c.notes.get("tyrion")):
                c.notes["tyrion"] = True
                state.decisions.push(Decision("ability", [s], {"card": "tyrion-lannister"}))
                return
        c.step = "immediately"
    if c.step == "immediately":
        done: list[str] = c.notes.setdefault("done", [])
        for s in order:
            cid = c.card.get(s)
            if cid not in H.IMMEDIATE or cid in done:
                continue
            done.append(cid)
            if cid == "mace-tyrell":
                H.mace_tyrell(state, s, log)
                continue
            if H.ability_moves(state, s, cid):
                state.decisions.push(Decision("ability", [s], {"card": cid}))
                return
            log.say("{card}: {0} has nothing to do", s, card=HOUSE_CARDS[cid].name)
        c.step = "blade"
        offer_blade(state, log)


def offer_blade(state: GameState, log: Log) -> None:
    """The Valyrian Steel Blade: its holder, when a combatant, may add +1 once a round."""
    c = state.combat
    assert c is not None
    holder = state.tracks["fiefdoms"][0]
    if not state.blade_used and holder in (c.attacker, c.defender):
        state.decisions.push(Decision("blade", [holder]))
        return
    resolve_combat(state, log)


def moves_blade(state: GameState, seat: int, top: Decision | None) -> list[Move]:
    return [make("blade", use=True), make("blade", use=False)]


def do_blade(state: GameState, seat: int, move: Move, top: Decision | None, log: Log) -> None:
    c = state.combat
    assert c is not None
    state.decisions.pop()
    if move["use"]:
        c.blade = True
        state.blade_used = True
        log.say("{0} uses the Valyrian Steel Blade (+1)", seat)
    resolve_combat(state, log)


def combat_totals(state: GameState) -> dict[int, int]:
    """Final combat strength of both sides (Rules §3.2–3.5)."""
    c = state.combat
    assert c is not None and c.defender is not None
    parts = combat_breakdown(state, final=True)
    return {c.attacker: int(parts["attacker"]["total"] or 0), c.defender: int(parts["defender"]["total"] or 0)}


def combat_breakdown(state: GameState, *, final: bool = False) -> dict[str, dict[str, int | None]]:
    """Each side's strength by part, as far as it is known now (a part not known yet is
    None; ``final`` counts everything, at the winner's step): the units (with the house
    cards' unit texts once revealed), the March or Defense order, the garrison, the support
    declared so far, the house card once both are revealed, the Valyrian Steel Blade once
    its holder has decided, and the total of the known parts."""
    c = state.combat
    assert c is not None
    castle = BOARD.areas[c.area].castle
    att: dict[str, int | None] = {
        "units": sum(H.unit_value(state, c, c.attacker, k, False, castle, "attacker", c.card) for k in c.army),
        "order": ORDERS[c.march].modifier,
        "support": support_strength(state, c, "attacker", c.card),
    }
    if c.defender is None:
        att["total"] = sum(v or 0 for v in att.values())
        force = state.neutral.get(c.area, 0)
        return {"attacker": att, "defender": {"neutral_force": force, "total": force}}
    dfn_seat = c.defender
    defense = state.orders.get(c.area)
    bonus = 0
    if defense is not None and defense.seat == dfn_seat and ORDERS[defense.token].kind == "defense":
        bonus = ORDERS[defense.token].modifier * (2 if c.card.get(dfn_seat) == "catelyn-stark" else 1)
    dfn: dict[str, int | None] = {
        "units": sum(H.unit_value(state, c, dfn_seat, u.kind, u.routed, False, "defender", c.card)
                     for u in state.units.get(c.area, [])),
        "order": bonus,
        "garrison": state.garrisons[c.area] if state.homes.get(c.area) == dfn_seat and c.area in state.garrisons
        else 0,
        "support": support_strength(state, c, "defender", c.card),
    }
    top = state.decisions.top
    choosing = top is not None and top.kind == "cards"
    cards_known = final or (c.step not in ("support", "cards") and not choosing)
    blade_known = final or c.blade or c.winner is not None
    holder = state.tracks["fiefdoms"][0]
    for seat, other, parts in ((c.attacker, dfn_seat, att), (dfn_seat, c.attacker, dfn)):
        parts["card"] = H.card_strength(state, c, seat, other) if cards_known else None
        parts["blade"] = (1 if c.blade and seat == holder else 0) if blade_known else None
        parts["total"] = sum(v or 0 for v in parts.values())
    return {"attacker": att, "defender": dfn}


def resolve_combat(state: GameState, log: Log) -> None:
    """Rules §3.5–3.6: the higher total wins; a tie goes to the combatant higher on the
    Fiefdoms track. The loser takes casualties: the winner's swords less its fortifications."""
    c = state.combat
    assert c is not None and c.defender is not None
    totals = combat_totals(state)
    c.strength = totals
    att, dfn = c.attacker, c.defender
    if totals[att] != totals[dfn]:
        winner = att if totals[att] > totals[dfn] else dfn
    else:
        fief = state.tracks["fiefdoms"]
        winner = att if fief.index(att) < fief.index(dfn) else dfn
    loser = dfn if winner == att else att
    c.winner, c.loser = winner, loser
    log.say("{0} {a} against {1} {d}: {2} wins", att, dfn, winner, a=totals[att], d=totals[dfn])
    after_winner(state, log)
    c.step = "after_winner"
    after_winner_window(state, log)


def after_winner(state: GameState, log: Log) -> None:
    """House cards that act once the winner is known and ask nothing (Tywin, Roose)."""
    c = state.combat
    assert c is not None and c.winner is not None and c.loser is not None
    if c.card.get(c.winner) == "tywin-lannister":
        got = R.gain_power(state, c.winner, 2)
        log.say("Tywin Lannister: {0} gains {n}", c.winner, n=counted(got, "Power token"))
    if c.card.get(c.loser) == "roose-bolton":
        c.notes["roose"] = True


def after_winner_window(state: GameState, log: Log) -> None:
    """The winner's card texts that ask (Renly Baratheon, Cersei Lannister), then the
    casualties: the winner's swords less the loser's fortifications."""
    c = state.combat
    assert c is not None and c.winner is not None and c.loser is not None
    cid = c.card.get(c.winner)
    if cid in ("renly-baratheon", "cersei-lannister") and not c.notes.get("after_winner"):
        c.notes["after_winner"] = True
        if H.ability_moves(state, c.winner, cid):
            state.decisions.push(Decision("ability", [c.winner], {"card": cid}))
            return
        log.say("{card}: {0} has nothing to do", c.winner, card=HOUSE_CARDS[cid].name)
    swords, _ = H.icons(state, c.winner)
    _, forts = H.icons(state, c.loser)
    c.casualties = max(0, swords - forts)
    if c.card.get(c.loser) == "the-blackfish":
        c.casualties = 0
    c.step = "casualties"
    RT.casualties_next(state, log)


def auto_combat(state: GameState, top: Decision, log: Log) -> bool:
    raise AssertionError("a combat is always waiting on one of its steps")


MOVES: dict[str, Mover] = {"support": moves_support, "cards": moves_cards, "blade": moves_blade}


DO: dict[str, Doer] = {"support": do_support, "cards": do_cards, "blade": do_blade}
AUTO: dict[str, Auto] = {"combat": auto_combat}
