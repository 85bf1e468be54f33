"""Clock arithmetic, pure: the settings chosen at founding, each seat's time after a run of
stored moves, the earliest time-out, and what every seat is shown.

Two kinds (chosen when founding; none by default):

- ``fischer``: a chess clock per seat: ``seconds`` to start with, ``increment`` added after each
  of the seat's moves. A seat's clock runs while it is awaited; where several seats are awaited
  at once (a simultaneous decision), every awaited seat's clock runs.
- ``deadline``: each decision has ``seconds`` (a day, for games over days), from the moment the
  seat became awaited.

A seat a bot holds (added as a bot, or handed to one while its player is away) runs no clock:
the bot answers within a second, and the player's time is theirs to spend when they take the
seat back. Its clock stops when the bot takes the seat (what ran until then is spent), its
moves cost nothing and earn no increment, and it is never timed out; when the player is back
and the seat is awaited, the clock runs again from that moment.

A take-back (app/play/takeback.py) returns every seat's clock to what it showed after the entry it
returns to, as if the moves taken back had never been played while the time still passed: their
increments are gone, a clock they stopped runs again from when its seat's decision began (the
time since is charged to it), and a clock they started stands again where it stood. So the state
keeps, for the entries a take-back may still return to, the clocks after each (``points``): from
the entry before the latest seat's run of entries on, a take-back never reaching before another
seat's entry, nor before a time-out's move (which ends the turn). A seat that changed hands
since the point keeps its clock as it stands: a bot's stillness is not the player's to undo.

The state is plain JSON (stored in the ``clocks`` row): ``remaining`` ms per seat (fischer),
``since`` the moment each awaited seat's wait began, ``at`` the last move's moment, ``held``
the seats bots hold, the last few time-outs (what every seat is told happened), and, where the
game lets moves be taken back, ``run`` (the seat of the latest entry) and its ``points``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from app.server.errors import ApiError

KINDS = ("fischer", "deadline")
ON_TIMEOUT = ("pass", "bot_easy", "bot_good")
MAX_SECONDS = 30 * 24 * 3600
TIMEOUTS_KEPT = 20
POINTS_KEPT = 64  # take-back points of one run kept at most (a London turn is about 20 entries)


@dataclass(frozen=True)
class ClockSettings:
    kind: str
    seconds: float
    increment: float = 0.0
    on_timeout: str = "pass"

    @classmethod
    def parse(cls, raw: object) -> ClockSettings | None:
        """The founding payload's ``clock`` (None or {} for no clock); a clear 422 otherwise."""
        if raw is None or raw == {} or raw == "none":
            return None
        if not isinstance(raw, Mapping):
            raise bad('"clock" is an object such as {"kind": "fischer", "seconds": 600, "increment": 5}.')
        unknown = set(raw) - {"kind", "seconds", "increment", "on_timeout"}
        if unknown:
            raise bad(f"unknown clock field {sorted(unknown)[0]!r}.")
        kind = raw.get("kind")
        if kind not in KINDS:
            raise bad('the clock\'s "kind" is "fischer" (a chess clock) or "deadline" (a time per decision).')
        seconds = number(raw.get("seconds"), "seconds")
        increment = number(raw.get("increment", 0), "increment")
        if not 1 <= seconds <= MAX_SECONDS:
            raise bad(f'the clock\'s "seconds" lies between 1 and {MAX_SECONDS} (30 days).')
        if not 0 <= increment <= 3600:
            raise bad('the clock\'s "increment" lies between 0 and 3600 seconds.')
        if kind == "deadline" and increment:
            raise bad("a deadline per decision has no increment.")
        on_timeout = raw.get("on_timeout", "pass")
        if on_timeout not in ON_TIMEOUT:
            raise bad('"on_timeout" is "pass" (a pass or the first listed move), "bot_easy" or "bot_good".')
        return cls(str(kind), seconds, increment, str(on_timeout))

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> ClockSettings:
        return cls(str(data["kind"]), float(data["seconds"]), float(data.get("increment", 0)),
                   str(data.get("on_timeout", "pass")))

    def as_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "seconds": self.seconds, "increment": self.increment,
                "on_timeout": self.on_timeout}


def bad(message: str) -> ApiError:
    return ApiError(422, "invalid_clock", f"Invalid clock: {message}")


def number(value: object, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value != value:
        raise bad(f'"{name}" is a number of seconds.')
    return float(value)


def stamp(t: datetime) -> str:
    return t.isoformat(sep=" ")


def parse_stamp(text: str) -> datetime:
    return datetime.fromisoformat(text)


def ms_between(a: datetime, b: datetime) -> int:
    return int((b - a) / timedelta(milliseconds=1))


def begin(settings: ClockSettings, seats: Iterable[int], awaiting: Iterable[int], at: datetime,
          held: Iterable[int] = ()) -> dict[str, Any]:
    """The clocks at the start: everyone's full time, the first awaited seats running (but for
    the seats bots hold)."""
    full = int(settings.seconds * 1000)
    bots = sorted(set(held))
    return {"remaining": {str(s): full for s in seats},
            "since": {str(s): stamp(at) for s in awaiting if s not in bots},
            "at": stamp(at), "timeouts": [], "held": bots}


def held_by_bots(state: Mapping[str, Any]) -> set[int]:
    """The seats whose clocks stand still because a bot holds them."""
    return {int(s) for s in state.get("held", [])}


def hand_over(settings: ClockSettings, state: Mapping[str, Any], held: Iterable[int], awaiting: Iterable[int],
              at: datetime) -> dict[str, Any]:
    """The clocks once the seats in ``held`` (and only those) are a bot's, from ``at``: a seat
    just taken by a bot stops its clock (the time it ran until ``at`` is spent); a seat just
    taken back by its player runs from ``at`` if it is awaited."""
    remaining: dict[str, int] = dict(state.get("remaining", {}))
    since: dict[str, str] = dict(state.get("since", {}))
    before, after = held_by_bots(state), set(held)
    for seat in after - before:
        began = since.pop(str(seat), None)
        if began is not None and settings.kind == "fischer":
            remaining[str(seat)] = max(0, remaining.get(str(seat), 0) - max(0, ms_between(parse_stamp(began), at)))
    waiting = set(awaiting)
    for seat in before - after:
        if seat in waiting:
            since.setdefault(str(seat), stamp(at))
    return {**state, "remaining": remaining, "since": since, "held": sorted(after)}


def advance(settings: ClockSettings, state: Mapping[str, Any], moves: Iterable[tuple[int, int, datetime]],
            awaiting: Iterable[int], flagged: Mapping[int, int] | None = None,
            taken_back: Mapping[int, int] | None = None, points: bool = False) -> dict[str, Any]:
    """The clocks after the stored moves (seq, seat, moment), oldest first; ``awaiting``: the
    seats awaited after the last of them. ``flagged`` maps the seq of a move the clock keeper
    played on a time-out to its seat: that seat's time is spent. ``taken_back`` maps the seq of
    each take-back entry to the entry it returns to: the clocks return to their point there (see
    the module's notes). ``points``: does the game let moves be taken back (keep the points)?

    Between two moves only the movers are known, not who became awaited: a seat that moves
    without a running clock is charged from the previous move (exact in turn-by-turn play, and
    for the one move a process can store before it writes the clocks). A point kept between two
    such moves lacks the seats awaited then; returning to it, they are charged from its moment."""
    remaining: dict[str, int] = dict(state.get("remaining", {}))
    since: dict[str, str] = dict(state.get("since", {}))
    timeouts: list[dict[str, Any]] = list(state.get("timeouts", []))
    at = parse_stamp(state["at"]) if state.get("at") else None
    increment = int(settings.increment * 1000)
    flagged = flagged or {}
    back = taken_back or {}
    bots = held_by_bots(state)
    marks: dict[str, dict[str, Any]] = dict(state.get("points", {})) if points else {}
    run = state.get("run") if points else None
    last = None
    for seq, seat, when in moves:
        key = str(seat)
        if points and seat != run:  # another seat's entry: no take-back reaches before it
            marks = {str(seq - 1): point(remaining, since, at, bots)} if at is not None else {}
            run = seat
        mark = marks.get(str(back[seq])) if seq in back else None
        if mark is not None:
            remaining, since, at = restore(mark, remaining, since, at, bots)
            marks = {k: v for k, v in marks.items() if int(k) <= back[seq]}
        else:  # a move; or a take-back past the points kept (charged like a move, without increment)
            bonus = 0 if seq in back or seat in bots else increment
            began = parse_stamp(since.pop(key)) if key in since else (at or when)
            spent = 0 if seat in bots else max(0, ms_between(began, when))  # a bot's clock stands still
            if seq in flagged and flagged[seq] == seat:
                spent = remaining.get(key, 0)
                timeouts = [*timeouts, {"seq": seq, "seat": seat, "action": settings.on_timeout}][-TIMEOUTS_KEPT:]
                marks = {}  # a time-out's move ends the turn: nothing up to it is taken back
            if settings.kind == "fischer":
                remaining[key] = max(0, remaining.get(key, 0) - spent) + bonus
            at = when
        if points:
            marks[str(seq)] = point(remaining, since, at, bots)
            while len(marks) > POINTS_KEPT:
                del marks[min(marks, key=int)]
        last = seq
    if at is not None:
        waiting = {str(s) for s in awaiting}
        for key in [k for k in since if k not in waiting]:  # no longer awaited without moving
            began = parse_stamp(since.pop(key))
            if settings.kind == "fischer":
                remaining[key] = max(0, remaining.get(key, 0) - max(0, ms_between(began, at)))
        for key in waiting:
            if int(key) not in bots:
                since.setdefault(key, stamp(at))
        if last is not None and str(last) in marks:  # the latest point, with the seats awaited after it
            marks[str(last)] = point(remaining, since, at, bots)
    out = {"remaining": remaining, "since": since, "at": stamp(at) if at else state.get("at"),
           "timeouts": timeouts, "held": sorted(bots)}
    if points:
        out.update(run=run, points=marks)
    return out


def point(remaining: Mapping[str, int], since: Mapping[str, str], at: datetime | None,
          bots: Iterable[int]) -> dict[str, Any]:
    """The clocks after an entry, as a take-back returns to them."""
    return {"remaining": dict(remaining), "since": dict(since), "at": stamp(at) if at else None,
            "held": sorted(bots)}


def restore(mark: Mapping[str, Any], remaining: Mapping[str, int], since: Mapping[str, str],
            at: datetime | None, bots: set[int]) -> tuple[dict[str, int], dict[str, str], datetime | None]:
    """The clocks (remaining, since, the last entry's moment) at a point again. A seat a bot
    holds now, or held then, keeps its clock as it stands: the time it stood still, or ran since
    its player came back, is not what the take-back undoes."""
    out_remaining: dict[str, int] = dict(mark.get("remaining", {}))
    out_since: dict[str, str] = dict(mark.get("since", {}))
    kept = bots | {int(s) for s in mark.get("held", [])}
    for key in {*remaining, *since, *out_remaining, *out_since}:
        if int(key) not in kept:
            continue
        out_remaining.pop(key, None)
        out_since.pop(key, None)
        if key in remaining:
            out_remaining[key] = remaining[key]
        if key in since:
            out_since[key] = since[key]
    return out_remaining, out_since, parse_stamp(mark["at"]) if mark.get("at") else at


def seat_due(settings: ClockSettings, state: Mapping[str, Any], seat: int) -> datetime | None:
    """When the awaited seat's time runs out (None: not awaited)."""
    began = state.get("since", {}).get(str(seat))
    if began is None:
        return None
    if settings.kind == "fischer":
        left = int(state.get("remaining", {}).get(str(seat), 0))
    else:
        left = int(settings.seconds * 1000)
    return parse_stamp(began) + timedelta(milliseconds=left)


def due(settings: ClockSettings, state: Mapping[str, Any]) -> datetime | None:
    """The earliest time-out among the awaited seats."""
    times = [t for s in state.get("since", {}) if (t := seat_due(settings, state, int(s))) is not None]
    return min(times) if times else None


def public(settings: ClockSettings, state: Mapping[str, Any], seats: Iterable[int], now: datetime) -> dict[str, Any]:
    """What every seat and spectator is shown: each seat's time left now, whose runs, and whose
    stands still because a bot holds the seat."""
    bots = held_by_bots(state)
    out = []
    for seat in sorted(seats):
        end = seat_due(settings, state, seat)
        if end is not None:
            left = max(0, ms_between(now, end))
        elif settings.kind == "fischer":
            left = int(state.get("remaining", {}).get(str(seat), settings.seconds * 1000))
        else:
            left = int(settings.seconds * 1000)
        out.append({"seat": seat, "ms": left, "running": end is not None, "bot": seat in bots})
    return {**settings.as_json(), "seats": out, "timeouts": list(state.get("timeouts", []))}
