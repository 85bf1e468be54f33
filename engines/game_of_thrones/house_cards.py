"""The house cards' texts as a combat reads them: their strength and icon texts, Mace Tyrell,
and the choices offered by the cards that ask their owner (Tyrion, Aeron, Queen of Thorns, Doran,
Renly, Cersei, Patchface). A chosen text is carried out in ``abilities.py``."""

from __future__ import annotations

from engines.base import Move
from engines.game_of_thrones import rules as R
from engines.game_of_thrones import units as U
from engines.game_of_thrones.components import BOARD, HOUSE_CARDS, SHIP, TRACKS
from engines.game_of_thrones.state import Combat, GameState
from engines.game_of_thrones.table import make
from engines.kit import Log

IMMEDIATE = ("queen-of-thorns", "doran-martell", "mace-tyrell", "aeron-damphair")
"""House cards whose text acts "immediately" after the reveal (Rules §3.3)."""


def opponent(c: Combat, seat: int) -> int:
    """The other combatant."""
    assert c.defender is not None
    return c.defender if seat == c.attacker else c.attacker


def is_supported(state: GameState, c: Combat, seat: int) -> bool:
    """Whether any Support order still on the board backs ``seat``'s side."""
    side = "attacker" if seat == c.attacker else "defender"
    return any(v == side and a in state.orders for a, v in c.supporters.items())


def unit_value(state: GameState, c: Combat, seat: int, kind: str, routed: bool, vs_castle: bool,
                side: str, card: dict[int, str], *, supporting: bool = False) -> int:
    """A unit's combat strength with the house cards' strength texts (Kevan, Victarion,
    Salladhor Saan)."""
    value = R.unit_strength(kind, routed=routed, attacking_castle=vs_castle)
    if value == 0:
        return 0
    attacker_card = card.get(c.attacker)
    if side == "attacker" and seat == c.attacker:
        if kind == "footman" and attacker_card == "ser-kevan-lannister":
            value = 2
        if kind == SHIP and attacker_card == "victarion-greyjoy":
            value = 2
    if kind == SHIP:
        for s, cid in card.items():
            if cid == "salladhor-saan" and is_supported(state, c, s) and state.houses[seat] != "baratheon":
                return 0
    return value


def mace_tyrell(state: GameState, seat: int, log: Log) -> None:
    """Mace Tyrell: immediately destroy one of the opponent's attacking or defending footmen
    (footmen are alike, so no choice is asked)."""
    c = state.combat
    assert c is not None and c.defender is not None
    other = opponent(c, seat)
    if other == c.attacker and "footman" in c.army:
        c.army.remove("footman")
    elif other == c.defender and any(u.kind == "footman" and not u.routed for u in state.units.get(c.area, [])):
        U.destroy(state, c.area, "footman")
    else:
        log.say("Mace Tyrell: {0} has no footman of {1} to destroy", seat, other)
        return
    log.say("Mace Tyrell: {0} destroys a footman of {1}", seat, other)


def ability_moves(state: GameState, seat: int, card: str) -> list[Move]:
    """The choices a card text gives its owner (the decline choice, when there is one, last)."""
    c = state.combat
    if card == "patchface":
        victim = patchface_victim(state, seat)
        if victim is None:
            return []
        return [*(make("ability", choice=x) for x in sorted(state.hands[victim])), make("ability", choice="none")]
    assert c is not None and c.defender is not None
    other = opponent(c, seat)
    if card == "tyrion-lannister":
        return [make("ability", choice="cancel"), make("ability", choice="keep")]
    if card == "aeron-damphair":
        if state.power[seat] < 2 or not state.hands[seat]:
            return []
        return [*(make("ability", choice=x) for x in sorted(state.hands[seat])), make("ability", choice="keep")]
    if card == "queen-of-thorns":
        return [make("ability", choice=a) for a in queen_targets(state, other)]
    if card == "doran-martell":
        return [make("ability", choice=t) for t in TRACKS]
    if card == "renly-baratheon":
        areas = renly_areas(state, seat)
        return [*(make("ability", choice=a) for a in areas), make("ability", choice="none")] if areas else []
    if card == "cersei-lannister":
        areas = sorted(a for a, o in state.orders.items() if o.seat == other)
        return [*(make("ability", choice=a) for a in areas), make("ability", choice="none")] if areas else []
    return []


def queen_targets(state: GameState, other: int) -> list[str]:
    """Queen of Thorns: the opponent's orders in areas adjacent to the embattled area (the
    march that started the combat is no longer on the board)."""
    c = state.combat
    assert c is not None
    return sorted(a for a in BOARD.adjacent[c.area] if a in state.orders and state.orders[a].seat == other)


def renly_areas(state: GameState, seat: int) -> list[str]:
    """Renly Baratheon: where a footman of the winner that took part (the embattled area
    stands for the attacking army) or a supporting Baratheon footman may become a knight."""
    c = state.combat
    assert c is not None
    if R.units_in_pool(state, seat, "knight") <= 0:
        return []
    out = []
    if seat == c.attacker and "footman" in c.army:
        out.append(c.area)
    if seat == c.defender and any(u.kind == "footman" for u in state.units.get(c.area, [])):
        out.append(c.area)
    side = "attacker" if seat == c.attacker else "defender"
    for area, chosen in sorted(c.supporters.items()):
        if (chosen == side and area in state.orders and state.owner.get(area) == seat
                and state.houses[seat] == "baratheon"
                and any(u.kind == "footman" for u in state.units.get(area, []))):
            out.append(area)
    return out


def patchface_victim(state: GameState, seat: int) -> int | None:
    top = state.decisions.top
    victim = top.data.get("victim") if top is not None and top.kind == "ability" else None
    if victim is None or not state.hands[victim]:
        return None
    return int(victim)


def card_strength(state: GameState, c: Combat, seat: int, other: int) -> int:
    cid = c.card.get(seat)
    if cid is None:
        return 0
    value = 0 if c.card.get(other) == "balon-greyjoy" else HOUSE_CARDS[cid].strength
    throne = state.tracks["iron_throne"]
    if cid == "stannis-baratheon" and throne.index(other) < throne.index(seat):
        value += 1
    return value + _davos_theon(state, c, seat, cid)


def _davos_theon(state: GameState, c: Combat, seat: int, cid: str) -> int:
    """Ser Davos Seaworth (Stannis in the discard pile) and Theon Greyjoy (defending a castle or
    stronghold) each add 1 to strength and 1 sword: 1 when either text holds, else 0."""
    davos = cid == "ser-davos-seaworth" and "stannis-baratheon" in state.discards[seat]
    theon = cid == "theon-greyjoy" and seat == c.defender and BOARD.areas[c.area].castle
    return 1 if davos or theon else 0


def take_back_when_empty(state: GameState, seat: int, last: str, log: Log) -> None:
    """A house left without house cards takes its discard pile back, but the card it has just
    given up (``last``), which stays there alone."""
    if not state.hands[seat]:
        state.hands[seat] = sorted(x for x in state.discards[seat] if x != last)
        state.discards[seat] = [last]
        log.say("{0} takes back its house cards", seat)


def icons(state: GameState, seat: int) -> tuple[int, int]:
    """Swords and fortifications of ``seat``'s house card in this combat, with their texts."""
    c = state.combat
    assert c is not None
    cid = c.card.get(seat)
    if cid is None:
        return 0, 0
    card = HOUSE_CARDS[cid]
    swords, forts = card.swords + _davos_theon(state, c, seat, cid), card.fortifications
    if cid == "asha-greyjoy" and not is_supported(state, c, seat):
        swords, forts = swords + 2, forts + 1
    if cid == "nymeria-sand":
        if seat == c.defender:
            forts += 1
        else:
            swords += 1
    return swords, forts
