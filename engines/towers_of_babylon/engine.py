"""The Towers of Babylon engine: the kit's protocol over ``rules``.

Moves (every one listed by ``legal_moves`` exactly as ``play`` accepts it; see README.md):

* deck phase (hidden, simultaneous): ``deck`` (a ready-made deck), ``add`` / ``clear`` /
  ``ready`` (a deck put together card by card);
* setup (hidden, simultaneous): ``mulligan`` (up to 3 cards, sorted);
* start of turn: ``draw`` or ``offer``;
* main phase: ``play``, ``move``, ``build``, ``attack``, ``windows``, ``end``; a ``play`` names
  the Power Sources that pay (``pay``) when there are several ways to pay (rules version 2);
* on an attack: ``block``, ``play`` (a witchery) or ``pass`` (the defender); ``strike`` (Twinstrike);
* an effect's Offering: ``offer`` or ``skip``.

>>> state = ENGINE.new_game(2, 7, {})
>>> sorted(ENGINE.to_act(state))
[0, 1]
>>> ENGINE.legal_moves(state, 0)[0]
{'type': 'deck', 'deck': 'fire_legion'}
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from engines.base import Event, IllegalMove, Move, Result, View
from engines.kit import (
    INT,
    INT_LIST,
    STR,
    STR_LIST,
    Commitments,
    Decision,
    KitEngine,
    Log,
    MoveSchema,
    MoveSpec,
    Rng,
)
from engines.towers_of_babylon import rules as R
from engines.towers_of_babylon.catalogue import static_json
from engines.towers_of_babylon.components import (
    BATTLEFIELD,
    DECK_SIZE,
    DECKS,
    FACTIONS,
    GOAL,
    LAST_TURN,
    MULLIGAN_MAX,
    READY,
    TOWER,
    WITCHERY,
    ZONES,
    Card,
    deck_errors,
)
from engines.towers_of_babylon.state import ALWAYS, TOWER_TARGET, WHEN_ABLE, WINDOW_MODES, Minion, Player
from engines.towers_of_babylon.state import State as GameState
from engines.towers_of_babylon.turn import TURN, illegal

MOVES = MoveSchema(
    MoveSpec("deck", deck=STR),
    MoveSpec("add", card=STR, copies=INT),
    MoveSpec("clear"),
    MoveSpec("ready"),
    MoveSpec("mulligan", cards=INT_LIST),
    MoveSpec("draw"),
    MoveSpec("offer", card=INT),
    MoveSpec("skip"),
    MoveSpec("play", card=INT, target=INT),
    # From rules version 2, a play names the Power Sources that pay (``pay``, a multiset of
    # symbols) when there are several ways to pay; with one way (or under version 1, where the
    # engine chose) it names none.
    MoveSpec("play", card=INT, target=INT, pay=STR_LIST).when(lambda m: "pay" in m),
    MoveSpec("move", minion=INT, zone=STR),
    MoveSpec("build", minion=INT),
    MoveSpec("attack", minion=INT, target=INT),
    MoveSpec("block", minion=INT),
    MoveSpec("pass"),
    MoveSpec("strike", minion=INT),
    MoveSpec("windows", mode=STR),
    MoveSpec("end"),
    game="Towers of Babylon",
)

_STATIC = static_json()
_DECK_IDS = tuple(DECKS)




class TowersOfBabylon(KitEngine[GameState]):
    """Towers of Babylon, a card game for two: build your tower to 50 levels, or be the higher
    after fifteen turns each."""

    id = "towers_of_babylon"
    title = "Towers of Babylon"
    tagline = "Two towers, two decks of sixty: build to fifty levels while your raiders tear the other tower down."
    min_seats = 2
    max_seats = 2
    rules_version = R.RULES_VERSION
    rules_versions = (1, 2)
    State = GameState
    MOVES = MOVES
    TURN = TURN

    # ------------------------------------------------------------------------------ setup
    def setup(self, seats: int, seed: int, options: Mapping[str, Any], version: int) -> GameState:
        """Game Setup: "Choose who plays first" — by lot, from the table's seed; then each seat
        chooses its deck (the first, hidden and simultaneous decision)."""
        rng = Rng.from_seed(seed)
        first = rng.below(2)
        state = GameState(seats=seats, rng=rng, first=first, players=[Player(), Player()], rules_version=version)
        state.deck_choice = Commitments.ask([0, 1])
        state.decisions.push(Decision(R.DECK, [0, 1]))
        return state

    # ------------------------------------------------------------------------------ legality
    def legal_moves(self, state: GameState, seat: int) -> list[Move]:
        if state.over or seat not in self.awaited(state):
            return []
        kind = state.decisions.kind()
        make = MOVES.make
        pl = state.players[seat]
        if kind == R.DECK:
            return self._deck_moves(state, seat)
        if kind == R.MULLIGAN:
            return [make("mulligan", cards=c) for c in R.mulligan_options(state, seat)]
        if kind == R.START:
            return [make("draw")] + [make("offer", card=i) for i in pl.hand]
        if kind == R.OFFERING:
            return [make("offer", card=i) for i in pl.hand] + [make("skip")]
        if kind == R.TWIN:
            return [make("strike", minion=i) for i in R.twin_candidates(state)]
        if kind == R.DEFEND:
            return ([make("block", minion=i) for i in R.blockers(state)]
                    + [make("play", card=c, target=t) for c, t in R.play_moves(state, seat)]
                    + [make("pass")])
        # The main phase is listed most often: dict literals in MOVES' canonical field order.
        moves = self._main_plays(state, seat)
        for m in pl.minions:
            if m.status == READY:
                moves.extend({"type": "move", "minion": m.iid, "zone": z} for z in ZONES if z != m.zone)
        moves.extend({"type": "build", "minion": m.iid} for m in pl.minions if R.can_build(m))
        targets = R.attack_targets(state, seat)
        for m in pl.minions:
            if R.can_attack(m):
                moves.extend({"type": "attack", "minion": m.iid, "target": t} for t in targets)
        moves.append({"type": "windows", "mode": WHEN_ABLE if pl.windows == ALWAYS else ALWAYS})
        moves.append({"type": "end"})
        return moves

    def _main_plays(self, state: GameState, seat: int) -> list[Move]:
        """The main phase's plays. From rules version 2, a card that can be paid in several ways
        (different multisets of symbols) is listed once per target and way, naming it (``pay``),
        the cheapest for later first; a card with one way names none."""
        plays = R.play_moves(state, seat)
        if state.rules_version < R.PLAYER_PAYS or not plays:
            return [{"type": "play", "card": c, "target": t} for c, t in plays]
        pl = state.players[seat]
        ways: dict[int, list[R.Payment]] = {}
        moves: list[Move] = []
        for c, t in plays:
            options = ways.get(c)
            if options is None:
                options = R.payments(pl, state.card(c))
                if len(options) > 1:
                    options = R.cheapest_for_later(state, seat, c, options)
                ways[c] = options
            if len(options) > 1:
                moves.extend({"type": "play", "card": c, "target": t, "pay": list(p)} for p in options)
            else:
                moves.append({"type": "play", "card": c, "target": t})
        return moves

    def _deck_moves(self, state: GameState, seat: int) -> list[Move]:
        draft = R.draft_of(state, seat)
        moves = [MOVES.make("deck", deck=d) for d in _DECK_IDS]
        for card, limit in R.addable(draft).items():
            moves.extend({"type": "add", "card": card, "copies": k} for k in range(1, limit + 1))
        return moves + _deck_steps(draft)

    def check(self, state: GameState, seat: int, move: Move) -> IllegalMove | None:
        why: tuple[str, str] | None = getattr(self, f"_check_{move['type']}")(state, seat, move)
        return None if why is None else illegal(why[1], why[0])

    # Each _check_* returns None (legal) or (rule, message); they ask the predicates legal_moves uses.
    def _check_deck(self, state: GameState, seat: int, move: Move) -> tuple[str, str] | None:
        if move["deck"] not in DECKS:
            return R.RULE_DECKS, f"there is no ready-made deck {move['deck'][:40]!r}; they are {', '.join(DECKS)}."
        return None

    def _check_add(self, state: GameState, seat: int, move: Move) -> tuple[str, str] | None:
        why = R.add_refusal(R.draft_of(state, seat), move["card"], move["copies"])
        return (R.RULE_DECKS, why) if why else None

    def _check_clear(self, state: GameState, seat: int, move: Move) -> tuple[str, str] | None:
        return None if R.draft_of(state, seat) else (R.RULE_DECKS, "your deck list is already empty.")

    def _check_ready(self, state: GameState, seat: int, move: Move) -> tuple[str, str] | None:
        errors = deck_errors(R.draft_of(state, seat))
        return (R.RULE_DECKS, errors[0]) if errors else None

    def _check_mulligan(self, state: GameState, seat: int, move: Move) -> tuple[str, str] | None:
        cards = move["cards"]
        hand = state.players[seat].hand
        if len(cards) > MULLIGAN_MAX:
            return R.RULE_MULLIGAN, f"you may put at most {MULLIGAN_MAX} cards on the bottom, not {len(cards)}."
        missing = [c for c in cards if c not in hand]
        if missing:
            return R.RULE_MULLIGAN, f"card {missing[0]} is not in your hand."
        if cards != sorted(set(cards)):
            return R.RULE_MULLIGAN, "list the cards each once, in increasing order."
        return None

    def _hand_card(self, state: GameState, seat: int, iid: int, rule: str) -> tuple[str, str] | None:
        if iid not in state.players[seat].hand:
            return rule, f"card {iid} is not in your hand."
        return None

    def _check_draw(self, state: GameState, seat: int, move: Move) -> tuple[str, str] | None:
        return None

    def _check_offer(self, state: GameState, seat: int, move: Move) -> tuple[str, str] | None:
        return self._hand_card(state, seat, move["card"], R.RULE_OFFERING)

    def _check_skip(self, state: GameState, seat: int, move: Move) -> tuple[str, str] | None:
        return None

    def _check_play(self, state: GameState, seat: int, move: Move) -> tuple[str, str] | None:
        iid, target = move["card"], move["target"]
        pl = state.players[seat]
        if iid not in pl.hand:
            return R.RULE_PLAY_SPELL, f"card {iid} is not in your hand."
        card = state.card(iid)
        rule = R.RULE_PLAY_MINION if card.is_minion else R.RULE_WITCHERY if card.kind == WITCHERY else R.RULE_PLAY_SPELL
        if card.kind == WITCHERY:
            if not R.witchery_window_open(state, seat, card):
                return rule, f"{card.name} may be played only {_window_words(card.window)}."
            if not R.can_pay(pl, card):
                return rule, (f"{card.name} costs {card.cost} transformed power and you have "
                              f"{pl.transformed}.")
            if "pay" in move:
                return R.RULE_WITCHERY, (f"{card.name} is a Witchery, paid from transformed power: "
                                         "a play of it names no Power Sources.")
        else:
            if state.decisions.kind() != R.MAIN:
                return rule, f"{card.name} is not a Witchery: only Witcheries can be played now."
            if not R.can_pay(pl, card):
                colour = FACTIONS[card.faction]["name"]
                return rule, (f"{card.name} costs {card.cost} power, at least {card.specific} of it "
                              f"{colour}; you have {len(pl.available)} available, "
                              f"{pl.available.count(card.faction)} of them {colour}.")
            why = self._check_payment(state, seat, card, iid, move.get("pay"))
            if why is not None:
                return R.RULE_PAY, why
        targets = R.play_targets(state, seat, card)
        if target not in targets:
            if not targets:
                return rule, f"{card.name} needs a target and there is none."
            return rule, f"{target} is not a target {card.name} may take."
        return None

    def _check_payment(self, state: GameState, seat: int, card: Card, iid: int,
                       named: list[str] | None) -> str | None:
        """Rules version 2: the Power Sources are named exactly when there are several ways to
        pay, and then they must be one of those ways. Version 1: the engine chooses; none named."""
        pl = state.players[seat]
        if state.rules_version < R.PLAYER_PAYS:
            if named is None:
                return None
            return ("this table keeps rules version 1, where the engine chooses the Power Sources: "
                    "a play names none.")
        options = R.payments(pl, card)
        if named is None:
            if len(options) == 1:
                return None
            best = R.cheapest_for_later(state, seat, iid, options)[0]
            return (f"{card.name} can be paid in {len(options)} ways; name the Power Sources that pay "
                    f"(\"pay\", for instance {list(best)} for {R.payment_words(best)}).")
        why = R.payment_refusal(pl, card, named)
        if why is not None:
            return why
        if len(options) == 1:
            return (f"{card.name} can be paid only one way ({R.payment_words(options[0])}): play it "
                    "without naming the Power Sources.")
        return None

    def _own_minion(self, state: GameState, seat: int, iid: int,
                    rule: str) -> tuple[Minion | None, tuple[str, str] | None]:
        m = state.minion(iid)
        if m is None or m.owner != seat:
            return None, (rule, f"you have no minion {iid} in play.")
        return m, None

    def _check_move(self, state: GameState, seat: int, move: Move) -> tuple[str, str] | None:
        m, why = self._own_minion(state, seat, move["minion"], R.RULE_MOVE)
        if m is None:
            return why
        if move["zone"] not in ZONES:
            return R.RULE_MOVE, f"the zones are {', '.join(ZONES)}."
        if not R.can_move(m, move["zone"]):
            if move["zone"] == m.zone:
                return R.RULE_MOVE, f"{m.spec.name} is already there."
            return R.RULE_MOVE, f"only Ready minions can move, and {m.spec.name} is {m.status}."
        return None

    def _check_build(self, state: GameState, seat: int, move: Move) -> tuple[str, str] | None:
        m, why = self._own_minion(state, seat, move["minion"], R.RULE_BUILD)
        if m is None:
            return why
        if not R.can_build(m):
            if m.zone != TOWER:
                return R.RULE_BUILD, f"only Builders (minions in the Tower) can build; {m.spec.name} is not one."
            return R.RULE_BUILD, f"{m.spec.name} is exhausted: exhausted Builders can't build."
        return None

    def _check_attack(self, state: GameState, seat: int, move: Move) -> tuple[str, str] | None:
        m, why = self._own_minion(state, seat, move["minion"], R.RULE_ATTACK)
        if m is None:
            return why
        if not R.can_attack(m):
            if m.zone != BATTLEFIELD:
                return R.RULE_ATTACK, f"only Raiders (minions on the Battlefield) can attack; {m.spec.name} is not one."
            return R.RULE_ATTACK, f"{m.spec.name} is exhausted: exhausted Raiders can't attack."
        if move["target"] not in R.attack_targets(state, seat):
            return R.RULE_ATTACK, "the target must be an enemy minion, or -1 for the enemy Tower."
        return None

    def _check_block(self, state: GameState, seat: int, move: Move) -> tuple[str, str] | None:
        if move["minion"] not in R.blockers(state):
            attack = state.attack
            if attack is not None and not R.can_be_blocked(state, attack):
                if attack.target == TOWER_TARGET:
                    return R.RULE_BLOCK, "a Tunnel minion attacking the Tower cannot be blocked."
                return R.RULE_BLOCK, "an attack on a Raider cannot be blocked."
            return R.RULE_BLOCK, "only a Defender (on your Ramparts, not exhausted, not the target) can block."
        return None

    def _check_pass(self, state: GameState, seat: int, move: Move) -> tuple[str, str] | None:
        return None

    def _check_strike(self, state: GameState, seat: int, move: Move) -> tuple[str, str] | None:
        if move["minion"] not in R.twin_candidates(state):
            return R.RULE_TWIN, "the second victim must be another enemy minion in the zone of the clash."
        return None

    def _check_windows(self, state: GameState, seat: int, move: Move) -> tuple[str, str] | None:
        if move["mode"] not in WINDOW_MODES:
            return R.RULE_WINDOWS, f"the modes are {', '.join(WINDOW_MODES)}."
        if move["mode"] == state.players[seat].windows:
            return R.RULE_WINDOWS, f"your reaction windows are already {move['mode']!r}."
        return None

    def _check_end(self, state: GameState, seat: int, move: Move) -> tuple[str, str] | None:
        return None

    # ------------------------------------------------------------------------------ apply
    def apply(self, state: GameState, seat: int, move: Move) -> list[Event]:
        log = Log()
        state.moves += 1
        getattr(self, f"_do_{move['type']}")(state, seat, move, log)
        return log.events

    def _do_deck(self, state: GameState, seat: int, move: Move, log: Log) -> None:
        deck = DECKS[move["deck"]]
        state.deck_choice.choose(seat, {"name": deck["id"], "cards": dict(deck["cards"])}, ready=True)
        log.say("{0} has chosen a deck.", seat, privately={seat: "You chose the deck {deck}."}, deck=deck["name"])
        self._after_deck_choice(state, log)

    def _do_add(self, state: GameState, seat: int, move: Move, log: Log) -> None:
        draft = R.draft_of(state, seat)
        draft[move["card"]] = draft.get(move["card"], 0) + move["copies"]
        state.deck_choice.choose(seat, {"name": "custom", "cards": draft})

    def _do_clear(self, state: GameState, seat: int, move: Move, log: Log) -> None:
        state.deck_choice.choose(seat, {"name": "custom", "cards": {}})

    def _do_ready(self, state: GameState, seat: int, move: Move, log: Log) -> None:
        state.deck_choice.declare_ready(seat)
        log.say("{0} has chosen a deck.", seat, privately={seat: "Your deck of {n} cards is ready."}, n=DECK_SIZE)
        self._after_deck_choice(state, log)

    def _after_deck_choice(self, state: GameState, log: Log) -> None:
        if not state.deck_choice.everyone_ready():
            return
        choices = state.deck_choice.reveal()
        state.decisions.pop()
        R.deal_decks(state, choices, log)
        state.mulligan = Commitments.ask([0, 1])
        state.decisions.push(Decision(R.MULLIGAN, [0, 1]))

    def _do_mulligan(self, state: GameState, seat: int, move: Move, log: Log) -> None:
        cards = list(move["cards"])
        state.mulligan.choose(seat, cards, ready=True)
        names = ", ".join(state.card(c).name for c in cards) or "nothing"
        log.say("{0} has chosen which cards to keep.", seat, privately={seat: "You put back: {names}."}, names=names)
        if not state.mulligan.everyone_ready():
            return
        choices = state.mulligan.reveal()
        state.decisions.pop()
        R.do_mulligans(state, choices, log)
        state.active = state.first
        R.start_turn(state, log)

    def _do_draw(self, state: GameState, seat: int, move: Move, log: Log) -> None:
        R.draw(state, seat, 1, log)
        R.begin_main(state)

    def _do_offer(self, state: GameState, seat: int, move: Move, log: Log) -> None:
        kind = state.decisions.kind()
        R.make_offering(state, seat, move["card"], log)
        if kind == R.START:
            R.begin_main(state)
        else:
            state.decisions.pop()

    def _do_skip(self, state: GameState, seat: int, move: Move, log: Log) -> None:
        log.say("{0} makes no offering.", seat)
        state.decisions.pop()

    def _do_play(self, state: GameState, seat: int, move: Move, log: Log) -> None:
        if state.rules_version < R.PLAYER_PAYS:
            R.do_play(state, seat, move["card"], move["target"], log)
            return
        named = move.get("pay")
        payment = tuple(named) if named is not None else R.payments(state.players[seat], state.card(move["card"]))[0]
        R.do_play(state, seat, move["card"], move["target"], log, payment, named=named is not None)

    def _do_move(self, state: GameState, seat: int, move: Move, log: Log) -> None:
        m = state.minion(move["minion"])
        assert m is not None
        R.do_move(state, m, move["zone"], log)

    def _do_build(self, state: GameState, seat: int, move: Move, log: Log) -> None:
        m = state.minion(move["minion"])
        assert m is not None
        R.do_build(state, m, log)

    def _do_attack(self, state: GameState, seat: int, move: Move, log: Log) -> None:
        m = state.minion(move["minion"])
        assert m is not None
        R.do_attack(state, m, move["target"], log)

    def _do_block(self, state: GameState, seat: int, move: Move, log: Log) -> None:
        m = state.minion(move["minion"])
        assert m is not None
        R.do_block(state, m, log)

    def _do_pass(self, state: GameState, seat: int, move: Move, log: Log) -> None:
        R.do_let_through(state, seat, log)

    def _do_strike(self, state: GameState, seat: int, move: Move, log: Log) -> None:
        R.do_twin(state, move["minion"], log)

    def _do_windows(self, state: GameState, seat: int, move: Move, log: Log) -> None:
        state.players[seat].windows = move["mode"]
        if move["mode"] == ALWAYS:
            log.say("{0} will be asked at every attack of the opponent.", seat)
        else:
            log.say("{0} will be asked only when they can block or play a witchery.", seat)

    def _do_end(self, state: GameState, seat: int, move: Move, log: Log) -> None:
        R.end_turn(state, log)

    # ------------------------------------------------------------------------------ views
    def static_view(self, state: GameState) -> View:
        return _STATIC

    def view(self, state: GameState, seat: int | None) -> View:
        kind = state.decisions.kind()
        attack = state.attack
        out: View = {
            "game": self.id,
            "seat": seat,
            "phase": "over" if state.over else kind,
            "active": state.active if state.active >= 0 else None,
            "first": state.first,
            "goal": GOAL,
            "last_turn": LAST_TURN,
            "players": [_player_view(state, s, seat) for s in range(2)],
            "attack": None if attack is None else {
                "attacker": attack.attacker, "target": attack.target, "blocker": attack.blocker,
                "halted": attack.halted},
            "entered": state.entered if state.entered >= 0 else None,
            "deck_choice": None,
            "mulligan": None,
            "result": None,
            "prompt": None,
        }
        if kind == R.DECK:
            draft = R.draft_of(state, seat) if seat is not None else {}
            out["deck_choice"] = {**state.deck_choice.public(), "own": (
                None if seat is None else {"cards": draft, "count": sum(draft.values()),
                                           "name": (state.deck_choice.own(seat) or {}).get("name")})}
        if kind == R.MULLIGAN:
            out["mulligan"] = {**state.mulligan.public(), "own": state.mulligan.own(seat)}
        res = self.result(state)
        if res is not None:
            out["result"] = res.as_json()
        out["prompt"] = self.prompt(state, seat)
        return out

    def reversible(self, state: GameState, seat: int, move: Move) -> bool:
        """Undo: a change to one's deck list before it is ready, and a minion moved between
        zones, reveal nothing and keep the turn; every other move may draw, reveal or pass."""
        return move["type"] in ("add", "clear", "move")

    # ------------------------------------------------------------------------------ result
    def result(self, state: GameState) -> Result | None:
        if not state.over:
            return None
        towers = tuple(float(p.tower) for p in state.players)
        winners = (state.winner,) if state.winner >= 0 else (0, 1)
        return Result(winners=winners, scores=towers, details={
            "outcome": state.outcome, "towers": [p.tower for p in state.players],
            "turns": [p.turns for p in state.players]})

    # ------------------------------------------------------------------------------ hidden
    def determinize(self, state: GameState, seat: int | None, rng: Rng) -> GameState:
        """Re-draw all ``seat`` cannot see: the other hand (but the cards it saw go there) and
        deck order, its own deck order above the cards it put on the bottom, a hidden deck
        choice or mulligan of the other seat, and the generator."""
        out = copy.deepcopy(state)
        for s in range(2):
            pl = out.players[s]
            if s == seat:
                top = pl.deck[pl.known_bottom:]
                rng.shuffle(top)
                pl.deck[pl.known_bottom:] = top
                continue
            unknown = [i for i in pl.hand if i not in pl.known_hand]
            pool = unknown + pl.deck
            rng.shuffle(pool)
            pl.hand = [i for i in pl.hand if i in pl.known_hand] + pool[:len(unknown)]
            pl.deck = pool[len(unknown):]
            if out.deck_choice.has_chosen(s):
                deck = DECKS[_DECK_IDS[rng.below(len(_DECK_IDS))]]
                out.deck_choice.choices[s] = {"name": deck["id"], "cards": dict(deck["cards"])}
            if out.mulligan.has_chosen(s):
                hand = sorted(pl.hand)
                n = rng.below(min(MULLIGAN_MAX, len(hand)) + 1)
                rng.shuffle(hand)
                out.mulligan.choices[s] = sorted(hand[:n])
        out.rng = rng.fork()
        return out


def _deck_steps(draft: Mapping[str, int]) -> list[Move]:
    """Starting the list again, and declaring it ready at exactly 60 cards."""
    steps = [MOVES.make("clear")] if draft else []
    if sum(draft.values()) == DECK_SIZE:
        steps.append(MOVES.make("ready"))
    return steps


def _window_words(window: str | None) -> str:
    return {"any_time": "in your main phase or when your opponent attacks",
            "friendly_enters": "right after a friendly minion enters the game, in your main phase",
            "enemy_attacking": "when an enemy minion is attacking"}.get(window or "", "never")


def _card_ref(state: GameState, iid: int) -> dict[str, Any]:
    return {"iid": iid, "card": state.cards[iid]}


def _minion_view(m: Minion) -> dict[str, Any]:
    return {"iid": m.iid, "card": m.card, "zone": m.zone, "status": m.status, "damage": m.damage,
            "sentenced": m.sentenced, "might": m.might, "health": m.health,
            "construction": m.construction}


def _player_view(state: GameState, s: int, viewer: int | None) -> dict[str, Any]:
    pl = state.players[s]
    return {
        "seat": s,
        "deck_name": pl.deck_name or None,
        "deck_list": pl.deck_list or None,
        "deck": len(pl.deck),
        "hand": [_card_ref(state, i) for i in pl.hand] if s == viewer else None,
        "hand_count": len(pl.hand),
        "known_hand": [_card_ref(state, i) for i in pl.hand if i in pl.known_hand],
        "tower": pl.tower,
        "turns": pl.turns,
        "transformed": pl.transformed,
        "available": list(pl.available),
        "exhausted": list(pl.exhausted),
        "sacrifice": [_card_ref(state, i) for i in pl.sacrifice],
        "discard": [_card_ref(state, i) for i in pl.discard],
        "invocations": [_card_ref(state, i) for i in pl.invocations],
        "minions": [_minion_view(m) for m in pl.minions],
        "windows": pl.windows,
        "mulliganed": pl.mulliganed if pl.mulliganed >= 0 else None,
    }


ENGINE = TowersOfBabylon()
