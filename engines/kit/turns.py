"""A game's turn, declared once: its steps, the moves each takes, who is awaited there, the rule
that governs it and the prompt's words. Prompts, the frame of every refusal (the game is over;
not your turn; not a move of this step) and the awaited seats all come from the declaration, so
every game builds them one way.

The model is boardgame.io's ``phases`` and ``turn.stages``: a phase or a stage names the moves
allowed in it, and a player may make only the moves of the stage they are in. Here the table is
at one step at a time (the game says which: ``where``), and each step says which seats it waits
for (the current player, every seat of an open ``Commitments``, the seats of the top
``Decision``), so ``awaited`` needs no code of its own::

    TURN = Turn(
        Step("vote", moves=("vote",), seats=committing("votes"), rule=RULE_VOTE, ask="Vote 1 or 2"),
        Step("play", moves=("play",), seats=current(), rule=RULE_PLAY, ask="Play a card"),
        where=lambda s: "vote" if s.votes.open else "play",
        over=lambda s: s.winner is not None,
        label=lambda s, seat, m: ...,
    )
    TURN.awaited(state)                    # the seats of the step the table is at
    TURN.prompt(state, seat, moves)        # {kind: the step, text, choices: [{move, label}], ...}
    TURN.refusal(state, seat, move, check) # over / not your turn / not this step, else check(...)

A ``Phase`` groups steps that share their seats and their rule (London's action phase); the
steps are what the table is at. A game whose words differ from the kit's gives its own refusal
texts (``ended``, ``waiting``, ``elsewhere``): the order of the checks and the rules they name
stay the kit's.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from operator import attrgetter
from typing import Any, Generic, TypeVar

from engines.base import IllegalMove, Move

S = TypeVar("S")

Seats = Callable[[Any], Iterable[int]]
"""Who a step waits for, read from the state."""
Text = str | Callable[[Any, int], str]
"""Words fixed for the step, or written from the state for the seat."""


def current(attr: str = "current") -> Seats:
    """The seat the state names (``state.current``): a step of one player's turn."""
    get = attrgetter(attr)
    return lambda state: (get(state),)


def committing(attr: str) -> Seats:
    """The seats of an open ``Commitments`` (``state.<attr>``) that have not chosen for good: a
    hidden simultaneous choice."""
    get = attrgetter(attr)
    return lambda state: get(state).awaited()


def deciding(attr: str = "decisions") -> Seats:
    """The seats of the top ``Decision`` of a ``DecisionStack`` (``state.<attr>``)."""
    get = attrgetter(attr)
    return lambda state: get(state).awaited()


@dataclass(frozen=True, slots=True)
class Step:
    """One step of a turn: the table is at it, some seats are awaited, and they may make its moves.

    ``name`` is the game's word (the prompt's ``kind``); ``moves`` the move types the step takes;
    ``seats`` who is awaited (None: the phase's); ``rule`` the rule a move out of this step breaks
    (None: the phase's); ``doing`` what the awaited seat is doing, in words, for refusals; ``ask``
    the prompt's text; ``extra`` what the renderer also reads, of (state, seat, moves); ``unlisted``
    move types the prompt does not spell out as choices (it carries them some shorter way);
    ``choices`` the prompt's choices written by the game, of (state, seat, moves), for a step whose
    labelled choices are kept ready made with its listing (A Game of Thrones' planning: dozens of
    orders, labelled once and listed again after every placement at the table)."""

    name: str
    moves: tuple[str, ...]
    seats: Seats | None = None
    rule: str | None = None
    doing: str = ""
    ask: Text = ""
    extra: Callable[[Any, int, list[Move]], Mapping[str, Any]] | None = None
    unlisted: tuple[str, ...] = ()
    choices: Callable[[Any, int, list[Move]], list[dict[str, Any]]] | None = None

    def text(self, state: Any, seat: int) -> str:
        return self.ask if isinstance(self.ask, str) else self.ask(state, seat)


@dataclass(frozen=True, slots=True)
class Phase:
    """Steps that belong together, with the seats and the rule they share unless a step says
    otherwise."""

    name: str
    steps: tuple[Step, ...]
    seats: Seats | None = None
    rule: str | None = None


def _ended(state: Any, seat: int) -> IllegalMove:
    return IllegalMove("The game is over.", code="not_your_turn")


def _waiting(state: Any, seat: int, step: Step) -> IllegalMove:
    return IllegalMove("It is not your turn.", rule=step.rule, code="not_your_turn")


def _elsewhere(state: Any, seat: int, kind: str, step: Step) -> IllegalMove:
    return IllegalMove(f"You cannot {kind.replace('_', ' ')} now: you are {step.doing or 'elsewhere'}.",
                       rule=step.rule)


class Turn(Generic[S]):
    """A game's steps (alone or grouped in ``Phase``s) and how to read them from a state.

    ``where(state)`` names the step the table is at (None: no one is awaited); ``over(state)`` is
    True once the game has ended; ``label(state, seat, move)`` words a listed move; ``mark(state,
    seat, move)`` adds to a choice what the page needs (London: the loans a move takes);
    ``anytime`` are move types that any step passes to the game's check (a loan in London).
    ``ended``, ``waiting`` and ``elsewhere`` write the three refusals of the frame; each is given
    the seat refused (a game may name its house)."""

    def __init__(self, *parts: Step | Phase, where: Callable[[S], str | None],
                 over: Callable[[S], bool], label: Callable[[S, int, Move], str],
                 mark: Callable[[S, int, Move], Mapping[str, Any] | None] | None = None,
                 anytime: tuple[str, ...] = (),
                 ended: Callable[[S, int], IllegalMove] = _ended,
                 waiting: Callable[[S, int, Step], IllegalMove] = _waiting,
                 elsewhere: Callable[[S, int, str, Step], IllegalMove] = _elsewhere) -> None:
        self.steps: dict[str, Step] = {}
        self.phase_of: dict[str, str] = {}
        self._seats: dict[str, Seats] = {}
        for part in parts:
            if isinstance(part, Step):
                self._add(part, None)
            else:
                for step in part.steps:
                    self._add(replace(step, seats=step.seats or part.seats, rule=step.rule or part.rule),
                              part.name)
        self.where = where
        self.over = over
        self.label = label
        self.mark = mark
        self.anytime = anytime
        self.ended, self.waiting, self.elsewhere = ended, waiting, elsewhere

    def _add(self, step: Step, phase: str | None) -> None:
        if step.name in self.steps:
            raise ValueError(f"two steps are called {step.name!r}")
        if step.seats is None:
            raise ValueError(f"step {step.name!r} says nowhere whom it waits for")
        self.steps[step.name] = step
        self._seats[step.name] = step.seats
        if phase is not None:
            self.phase_of[step.name] = phase

    # -- where the table is --------------------------------------------------------------------
    def step(self, state: S) -> Step | None:
        """The step the table is at (None: the game is over, or nobody is awaited)."""
        if self.over(state):
            return None
        name = self.where(state)
        return None if name is None else self.steps[name]

    def awaited(self, state: S) -> frozenset[int]:
        """The seats the step the table is at waits for."""
        step = self.step(state)
        if step is None:
            return frozenset()
        return frozenset(self._seats[step.name](state))

    def step_of(self, state: S, seat: int | None) -> Step | None:
        """The step ``seat`` is awaited at (None: it is not awaited, or a spectator)."""
        step = self.step(state)
        if step is None or seat is None or seat not in self._seats[step.name](state):
            return None
        return step

    # -- what the awaited seat reads -----------------------------------------------------------
    def prompt(self, state: S, seat: int | None, moves: Sequence[Move]) -> dict[str, Any] | None:
        """The prompt of ``seat`` given its legal ``moves``: ``{kind, text, choices: [{move,
        label}], ...}`` with the step's extras; None for a seat that is not awaited."""
        step = self.step_of(state, seat)
        if step is None or seat is None:
            return None
        if step.choices is not None:
            choices = step.choices(state, seat, list(moves))
        else:
            listed = [m for m in moves if m["type"] not in step.unlisted] if step.unlisted else list(moves)
            label, mark = self.label, self.mark
            choices = []
            for m in listed:
                more = mark(state, seat, m) if mark is not None else None
                choices.append({"move": m, "label": label(state, seat, m), **more} if more else
                               {"move": m, "label": label(state, seat, m)})
        out: dict[str, Any] = {"kind": step.name, "text": step.text(state, seat), "choices": choices}
        if step.extra is not None:
            out.update(step.extra(state, seat, list(moves)))
        return out

    # -- refusals ------------------------------------------------------------------------------
    def refusal(self, state: S, seat: int, move: Move,
                check: Callable[[S, int, Move], IllegalMove | None]) -> IllegalMove | None:
        """Why ``seat`` may not play the well-shaped ``move`` now, in the kit's order: the game is
        over; the seat is not awaited; the step does not take this move; else what the game's
        ``check`` of the move itself says (None: legal)."""
        if self.over(state):
            return self.ended(state, seat)
        name = self.where(state)  # not self.step: over was asked just now (every move comes here)
        if name is None:
            return self.waiting(state, seat, _NOWHERE)
        step = self.steps[name]
        if seat not in self._seats[name](state):
            return self.waiting(state, seat, step)
        kind = move["type"]
        if kind not in step.moves and kind not in self.anytime:
            return self.elsewhere(state, seat, kind, step)
        return check(state, seat, move)


_NOWHERE = Step("", (), seats=lambda state: ())
"""The step named to ``waiting`` when the table is at none (between two steps nobody is awaited)."""
