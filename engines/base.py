"""The engine protocol: the only way the server knows a game.

An engine is a pure library. The server calls it like this::

    state = engine.new_game(seats=3, seed=1234, options={})
    engine.to_act(state)                 # frozenset({0}) -- seats awaited now
    engine.legal_moves(state, 0)         # [{"type": "draw"}, ...] -- every legal move
    events = engine.play(state, 0, move) # validates, then mutates state; raises IllegalMove
    engine.view(state, 0)                # what seat 0 may see (None = spectator)
    engine.result(state)                 # None while the game runs

Conventions every engine follows:

* A move is a JSON object (``dict``) with a ``"type"`` key. ``legal_moves`` lists every legal
  move exactly as ``play`` accepts it, so scripts, bots and fuzzers can play.
* ``play`` validates completely before it mutates (or works on a copy): an ``IllegalMove``
  leaves the state exactly as it was. Its message names the rule that forbids the move.
* All randomness comes from the ``seed`` given to ``new_game`` (a generator held in the state).
  Nothing reads the clock or the global ``random`` module, so the same seed and the same moves
  always give an equal state (replays, crash recovery and fair-shuffle verification rely on it).
* ``encode``/``decode`` turn a state into JSON-safe data and back, for snapshots.
* Texts (events, prompts) name a seat as ``{seat:N}``; the site replaces it with that player's
  name (escaped), beside the seat's label where the engine gives ``seat_labels`` ("Stark (Ada)").
  Engines never see player names.
* ``view(state, seat)`` carries a ``"prompt"`` key: for an awaited seat a dict with ``"text"``
  (what to decide now, in plain words) and whatever the renderer needs to build the legal moves;
  ``None`` when the seat is not awaited. It never carries other seats' hidden cards, deck order
  or the seed.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Protocol, runtime_checkable

Move = dict[str, Any]
"""A move: a JSON object with a "type" key, e.g. {"type": "develop", "card": 17}."""

View = dict[str, Any]
"""What one seat (or a spectator) may see: JSON-safe."""


def seat_ref(seat: int) -> str:
    """How a text names a seat; the site shows that player's name in its place.

    >>> seat_ref(2) + " drew a card"
    '{seat:2} drew a card'
    """
    return "{seat:%d}" % seat  # noqa: UP031 -- braces are literal here


class IllegalMove(Exception):
    """A move the rules forbid. ``str(err)`` is the message shown to the player.

    ``rule`` names the rule (e.g. "London rule 4: Develop"); ``code`` is a short machine word
    ("illegal_move", "unknown_move", "not_your_turn", "malformed_move").
    """

    def __init__(self, message: str, *, rule: str | None = None, code: str = "illegal_move") -> None:
        super().__init__(message)
        self.message = message
        self.rule = rule
        self.code = code


class Event:
    """One line of the game log.

    ``text`` is what everyone reads; ``private`` maps a seat to the text that seat reads instead
    (``{0: "You drew Brewery"}`` beside ``text="{seat:0} drew a card"``). A plain slotted class,
    not a frozen dataclass: engines make dozens per move, and a frozen dataclass is several times
    slower to build. Treat it as immutable.
    """

    __slots__ = ("private", "text")

    def __init__(self, text: str, private: Mapping[int, str] | None = None) -> None:
        self.text = text
        self.private: Mapping[int, str] = private if private is not None else _NO_PRIVATE

    def for_seat(self, seat: int | None) -> str:
        """The text this seat (None: a spectator) reads."""
        if seat is not None and seat in self.private:
            return self.private[seat]
        return self.text

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Event) and other.text == self.text and dict(other.private) == dict(self.private)

    def __hash__(self) -> int:
        return hash((self.text, tuple(sorted(self.private.items()))))

    def __repr__(self) -> str:
        return f"Event({self.text!r}, {dict(self.private)!r})"


_NO_PRIVATE: Mapping[int, str] = MappingProxyType({})


@dataclass(frozen=True, slots=True)
class Option:
    """A game option offered when founding a table (e.g. a variant)."""

    id: str
    label: str
    choices: tuple[Any, ...]
    default: Any
    help: str = ""

    def as_json(self) -> dict[str, Any]:
        return {"id": self.id, "label": self.label, "choices": list(self.choices),
                "default": self.default, "help": self.help}


@dataclass(frozen=True, slots=True)
class Result:
    """The end of a game: who won, the final scores, and any breakdown the end screen shows."""

    winners: tuple[int, ...]
    scores: tuple[float, ...]
    details: Mapping[str, Any] = field(default_factory=dict)

    def as_json(self) -> dict[str, Any]:
        return {"winners": list(self.winners), "scores": list(self.scores),
                "details": dict(self.details)}


@runtime_checkable
class Engine(Protocol):
    """What every game provides. ``State`` is the engine's own (mutable) object."""

    id: str  # the folder name, used in URLs and the API ("london")
    title: str  # "London"
    tagline: str  # one line under the title on the site
    min_seats: int
    max_seats: int
    options: tuple[Option, ...]

    def new_game(self, seats: int, seed: int, options: Mapping[str, Any]) -> Any: ...

    def to_act(self, state: Any) -> frozenset[int]: ...

    def legal_moves(self, state: Any, seat: int) -> list[Move]: ...

    def play(self, state: Any, seat: int, move: Move) -> list[Event]: ...

    def view(self, state: Any, seat: int | None) -> View: ...

    def result(self, state: Any) -> Result | None: ...

    def encode(self, state: Any) -> dict[str, Any]: ...

    def decode(self, data: Mapping[str, Any]) -> Any: ...

    # Optional: ``views(state, seats, legal) -> {seat: view}`` -- several seats' views at once, sharing
    # the work on what they have in common; equal to ``view`` seat by seat (tested).
    #
    # Optional: ``static_view(state) -> dict`` -- data fixed for the whole game (a card
    # catalogue, a board's layout), the same for every seat. The site sends it once per
    # connection and the browser merges it into every view, so it is not re-sent per move.
    #
    # Optional: ``reversible(state, seat, move) -> bool`` -- may the player take back this (legal,
    # not yet played) move within their turn: it reveals nothing and hands the game to no other
    # seat (app/play/takeback.py; none may be taken back without it). Optional: ``round_of(state) ->
    # int | None`` -- the round the game is in, for replays to jump between.
    #
    # Optional: ``seat_labels(state) -> list[str]`` -- what each seat is called in this game beside
    # its player's name (a house, a colour), by seat, public and fixed once the game is dealt. The
    # site then names every seat so, the player beside it ("Stark (Ada)"): ``{seat:N}`` in the log,
    # the banner, the chats and the end screen.


def views(engine: Engine, state: Any, seats: Iterable[int | None],
          legal: Mapping[int, list[Move]] | None = None) -> dict[int | None, View]:
    """Every listed seat's view at once. An engine may provide ``views(state, seats, legal)`` to
    share the public part between seats, and to reuse ``legal`` (the legal moves of awaited seats,
    already computed by the caller) in its prompts; it must equal ``view`` seat by seat."""
    method = getattr(engine, "views", None)
    if method is not None:
        return dict(method(state, seats, legal))
    return {seat: engine.view(state, seat) for seat in seats}


def rules_version(engine: Engine) -> int:
    """The newest rules version of an engine (1 for an engine that declares none).

    A table stores the version it was dealt under; an engine keeps dealing old tables the old
    way, so games in a host's database and published records stay valid after an upgrade."""
    return int(getattr(engine, "rules_version", 1))


def new_game(engine: Engine, seats: int, seed: int, options: Mapping[str, Any],
             version: int | None = None) -> Any:
    """``engine.new_game`` under a given rules version (None: the newest)."""
    if getattr(engine, "rules_version", None) is None:
        return engine.new_game(seats, seed, options)
    return engine.new_game(seats, seed, options, rules_version=version)  # type: ignore[call-arg]


def canonical_move(engine: Engine, move: Any) -> Move:
    """The form of an accepted move that is stored and published: exactly as ``legal_moves``
    lists it (same keys in the same order). An engine may provide ``canonical(move)``; call
    this only for a move ``play`` accepted."""
    method = getattr(engine, "canonical", None)
    return dict(method(move)) if method is not None else dict(move)


def static_view(engine: Engine, state: Any) -> View:
    """The engine's fixed, public data for this game ({} if it has none)."""
    method = getattr(engine, "static_view", None)
    return dict(method(state)) if method is not None else {}


def seat_labels(engine: Engine, state: Any) -> list[str] | None:
    """Each seat's name in the game (a house, a colour) when the engine gives one, else None."""
    method = getattr(engine, "seat_labels", None)
    return [str(x) for x in method(state)] if method is not None and state is not None else None


def resolve_options(engine: Engine, given: Mapping[str, Any] | None) -> dict[str, Any]:
    """Fill in defaults and check every given option is known and allowed.

    >>> class E: options = (Option("variant", "Variant", ("a", "b"), "a"),)
    >>> resolve_options(E(), {"variant": "b"})
    {'variant': 'b'}
    """
    given = dict(given or {})
    known = {o.id: o for o in engine.options}
    unknown = sorted(set(given) - set(known))
    if unknown:
        raise ValueError(f"unknown option {unknown[0]!r}")
    out: dict[str, Any] = {}
    for oid, opt in known.items():
        value = given.get(oid, opt.default)
        if value not in opt.choices:
            raise ValueError(f"option {oid!r} must be one of {list(opt.choices)}")
        out[oid] = value
    return out
