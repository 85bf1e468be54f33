"""One way to write log lines and prompts.

Log lines name seats as ``{seat:N}`` (the site shows the player's name); ``Log.say`` takes the
seats as positional arguments and other values by name, so no text writes ``{seat:N}`` by hand::

    log = Log()
    log.say("{0} drew a card from the deck", seat, privately={seat: "You drew {card}"}, card="Brewery")
    log.say("{0} removes {1}'s Beefeater from building {b}", seat, victim, b=7)
    return log.events

For the lines a game writes most often, an f-string naming seats with ``ref`` is quicker and
says the same: ``log.add(f"{ref(seat)} reveals {card}")``.

A prompt is the same shape in every game: what to decide in plain words, and every listed move
with a label (``prompt(kind, text, choices)``); a game adds what its renderer needs.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from engines.base import Event, Move, seat_ref

_REFS = tuple(seat_ref(s) for s in range(16))


def _ref(seat: int) -> str:
    return _REFS[seat] if 0 <= seat < 16 else seat_ref(seat)


def ref(seat: int) -> str:
    """How a text names a seat (``{seat:N}``, shown as the player's name): for lines written as
    f-strings with ``Log.add``."""
    return _REFS[seat] if 0 <= seat < 16 else seat_ref(seat)


def say(text: str, *seats: int, **values: Any) -> str:
    """``text`` with ``{0}``, ``{1}``… replaced by seat references and ``{name}`` by values."""
    return text.format(*[_ref(s) for s in seats], **values)


class Log:
    """The log lines one move produces."""

    __slots__ = ("events",)

    def __init__(self) -> None:
        self.events: list[Event] = []

    def say(self, text: str, *seats: int, privately: Mapping[int, str] | None = None,
            **values: Any) -> None:
        """A line everyone reads; ``privately`` gives some seats their own text instead
        (formatted the same way)."""
        if seats:
            refs = [_REFS[s] if 0 <= s < 16 else seat_ref(s) for s in seats]
            line = text.format(*refs, **values)
        else:
            refs = []
            line = text.format(**values) if values or "{" in text else text
        if privately:
            self.events.append(Event(line, {s: t.format(*refs, **values) for s, t in privately.items()}))
        else:
            self.events.append(Event(line))

    def add(self, line: str, privately: Mapping[int, str] | None = None) -> None:
        """A line already written, seats named with ``ref(seat)``: the quick way for a game's
        most frequent lines (a template costs a few times more than an f-string)."""
        self.events.append(Event(line, privately))

    def extend(self, events: Iterable[Event]) -> None:
        self.events.extend(events)


def counted(n: int, one: str, many: str | None = None) -> str:
    """A count with its noun in the right number: "1 point", "0 points", "2 Power tokens"."""
    return f"{n} {one if n == 1 else (many or one + 's')}"


def choice(move: Move, label: str, **extra: Any) -> dict[str, Any]:
    return {"move": move, "label": label, **extra}


def prompt(kind: str, text: str, moves: Iterable[Move], label: Callable[[Move], str],
           **extra: Any) -> dict[str, Any]:
    """``{kind, text, choices: [{move, label}], ...extra}``: the prompt of an awaited seat."""
    return {"kind": kind, "text": text, "choices": [{"move": m, "label": label(m)} for m in moves],
            **extra}
