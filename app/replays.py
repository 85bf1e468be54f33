"""Replays of finished games: every step's view rebuilt from the published record, for anyone
(the public view) and, with their seat's address, for each player (their own seat's view).

Nothing of a running game is reachable here: every answer first checks the game has ended
(403 ``not_finished`` otherwise). A replay's views are not stored: the game is replayed once when
its replay is first asked for, keeping the encoded state every ``CHECKPOINT_EVERY`` entries (and
the turn chain a take-back may return into); a step is then a decode, a few moves and a view.
The books of the most recently watched games are kept (``BOOKS_KEPT``).

Rounds: the engine's optional ``round_of(state)``; failing that, the log's "Round N begins"
lines; failing both, a mark every ``MOVES_PER_MARK`` entries.
"""

from __future__ import annotations

import asyncio
import re
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any
from weakref import WeakKeyDictionary

import orjson
from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response
from sqlalchemy import select

from app.errors import ApiError, not_found
from app.live import LiveTable, new_state
from app.models import MoveRecord
from app.parlour import JSON, Parlour, ParlourDep, client_id
from app.takeback import History, TurnChain, capture_points, is_take_back
from engines.base import Engine

CHECKPOINT_EVERY = 16
BOOKS_KEPT = 16
MOVES_PER_MARK = 50
ROUND_LINE = re.compile(r"\bRound (\d+) begins\b")

router = APIRouter(tags=["replays"])


@dataclass(slots=True)
class Entry:
    seq: int
    seat: int
    move: dict[str, Any]
    events: list[dict[str, Any]]


@dataclass(slots=True)
class Book:
    """One finished game, ready to be stepped through."""

    table_id: int
    engine: Engine
    entries: list[Entry]
    checkpoints: list[tuple[bytes, TurnChain | None]]  # [i]: after entry i * CHECKPOINT_EVERY, as JSON
    rounds: list[dict[str, Any]]
    capture: list[bool]  # where a turn chain may matter (app/takeback.py: capture_points)

    def state_at(self, seq: int) -> Any:
        """The engine state after entry ``seq`` (0: the deal)."""
        mark = seq // CHECKPOINT_EVERY
        encoded, chain = self.checkpoints[mark]
        history = History(self.engine, self.engine.decode(orjson.loads(encoded)), mark * CHECKPOINT_EVERY, chain)
        for entry in self.entries[mark * CHECKPOINT_EVERY:seq]:
            history.follow(entry.seq, entry.seat, entry.move, self.capture[entry.seq - 1])
        return history.state


def build_book(live: LiveTable, rows: list[Any]) -> Book:
    engine = live.engine
    state = new_state(live)
    history = History(engine, state)
    entries = [Entry(r.seq, r.seat, r.move, r.events) for r in rows]
    checkpoints: list[tuple[bytes, TurnChain | None]] = [(orjson.dumps(engine.encode(state)), None)]
    round_of = getattr(engine, "round_of", None)
    by_engine: list[dict[str, Any]] = []
    by_log: list[dict[str, Any]] = []
    last_round = round_of(state) if round_of is not None else None
    if last_round is not None:
        by_engine.append({"label": f"Round {last_round}", "seq": 0})
    capture = capture_points([(e.seat, e.move) for e in entries])
    for e, keep in zip(entries, capture, strict=True):
        history.follow(e.seq, e.seat, e.move, keep)
        if e.seq % CHECKPOINT_EVERY == 0:
            checkpoints.append((orjson.dumps(engine.encode(history.state)), history.chain))
        if round_of is not None:
            now = round_of(history.state)
            if now is not None and now != last_round:
                # the round begins with the entry that brought it: show the position after it
                by_engine.append({"label": f"Round {now}", "seq": e.seq})
                last_round = now
        for ev in e.events:
            m = ROUND_LINE.search(str(ev.get("text", "")))
            if m:
                by_log.append({"label": f"Round {m.group(1)}", "seq": e.seq})
                break
    rounds = by_engine or by_log or [{"label": f"Move {n}", "seq": n}
                                     for n in range(0, len(entries), MOVES_PER_MARK)]
    if not rounds or rounds[0]["seq"] != 0:
        rounds.insert(0, {"label": "The deal", "seq": 0})
    return Book(live.id, engine, entries, checkpoints, rounds, capture)


class Replays:
    """The books of recently watched finished games."""

    def __init__(self) -> None:
        self._books: OrderedDict[int, Book] = OrderedDict()
        self._building: dict[int, asyncio.Future[Book]] = {}
        self._gate = asyncio.Semaphore(1)  # one game replayed at a time: a burst costs time, not cores
        self.built = 0

    async def book(self, parlour: Parlour, live: LiveTable) -> Book:
        finished(live)
        book = self._books.get(live.id)
        if book is not None:
            self._books.move_to_end(live.id)
            return book
        building = self._building.get(live.id)
        if building is not None:  # one build per game, however many ask at once
            return await asyncio.shield(building)
        fut: asyncio.Future[Book] = asyncio.get_running_loop().create_future()
        self._building[live.id] = fut
        try:
            async with parlour.sessions() as s:
                rows = (await s.execute(select(MoveRecord.seq, MoveRecord.seat, MoveRecord.move, MoveRecord.events)
                                        .where(MoveRecord.table_id == live.id)
                                        .order_by(MoveRecord.seq))).all()
            # The engine is pure and the state is the book's own: the replay runs off the loop.
            async with self._gate:
                book = await asyncio.to_thread(build_book, live, list(rows))
            fut.set_result(book)
        except BaseException as exc:
            fut.set_exception(exc)
            fut.exception()  # the waiters re-raise it; mark it retrieved
            raise
        finally:
            self._building.pop(live.id, None)
        self.built += 1
        self._books[live.id] = book
        while len(self._books) > BOOKS_KEPT:
            self._books.popitem(last=False)
        return book


def finished(live: LiveTable) -> None:
    if live.status != "finished":
        raise ApiError(403, "not_finished", "A game's replay opens when the game has ended.")


_REPLAYS: WeakKeyDictionary[Parlour, Replays] = WeakKeyDictionary()


def replays_of(parlour: Parlour) -> Replays:
    found = _REPLAYS.get(parlour)
    if found is None:
        found = _REPLAYS[parlour] = Replays()
    return found


def contents(live: LiveTable, book: Book, seat: int | None) -> JSON:
    """The steps (who moved, what the log said, as ``seat`` reads it) and where rounds begin."""
    key = str(seat) if seat is not None else None
    steps = []
    for e in book.entries:
        lines = []
        for ev in e.events:
            private = ev.get("private") or {}
            text = private.get(key, ev["text"]) if key is not None else ev["text"]
            lines.append(live.render_text(text))
        steps.append({"seq": e.seq, "seat": e.seat, "undo": is_take_back(e.move), "log": lines})
    return {"code": live.code, "game": live.game, "title": live.engine.title, "seat": seat,
            "players": [{"seat": p.seat, "name": p.name} for p in live.players if p.seat is not None],
            "labels": live.labels(), "steps": steps, "rounds": book.rounds, "result": live.result}


def step(live: LiveTable, book: Book, seq: int, seat: int | None) -> JSON:
    if not 0 <= seq <= len(book.entries):
        raise ApiError(404, "unknown_step", f"This game has steps 0 to {len(book.entries)}.")
    engine = live.engine
    state = book.state_at(seq)
    result = engine.result(state)
    view = engine.view(state, seat)
    if seat is not None:  # a replay decides nothing: the seat's choices then are not offered
        view["prompt"] = None
    return {"seq": seq, "seat": seat, "view": view,
            "awaiting": sorted(engine.to_act(state)) if result is None else [],
            "result": result.as_json() if result is not None else None}


async def seat_of(parlour: Parlour, request: Request, token: str) -> tuple[LiveTable, int]:
    found = await parlour.seat(token, client_id(request))
    if found is None:
        raise not_found("seat")
    live, player = found
    if player.seat is None:
        raise ApiError(403, "no_seat", "You had no seat at this table; watch the public replay.")
    return live, player.seat


@router.get("/api/tables/{code}/replay", tags=["api"])
async def replay_contents(code: str, request: Request, parlour: ParlourDep) -> JSON:
    """After the end: every step of the game (who moved, the public log lines, take-backs
    marked) and where each round begins. 403 ``not_finished`` while the game runs."""
    live = await parlour.find_table(client_id(request), code)
    return contents(live, await replays_of(parlour).book(parlour, live), None)


@router.get("/api/tables/{code}/replay/{seq}", tags=["api"])
async def replay_step(code: str, seq: int, request: Request, parlour: ParlourDep) -> JSON:
    """After the end: the public view after entry ``seq`` (0: the deal)."""
    live = await parlour.find_table(client_id(request), code)
    return step(live, await replays_of(parlour).book(parlour, live), seq, None)


@router.get("/api/seats/{token}/replay", tags=["api"])
async def seat_replay_contents(token: str, request: Request, parlour: ParlourDep) -> JSON:
    """After the end: the steps as this seat read them (its own private log lines)."""
    live, seat = await seat_of(parlour, request, token)
    return contents(live, await replays_of(parlour).book(parlour, live), seat)


@router.get("/api/seats/{token}/replay/{seq}", tags=["api"])
async def seat_replay_step(token: str, seq: int, request: Request, parlour: ParlourDep) -> JSON:
    """After the end: this seat's own view after entry ``seq`` (its hand included)."""
    live, seat = await seat_of(parlour, request, token)
    return step(live, await replays_of(parlour).book(parlour, live), seq, seat)


def replay_page(request: Request, live: LiveTable, api: str, seat: int | None) -> Response:
    from app.routes.pages import page

    return page(request, "replay.html", live=live, engine=live.engine, api_path=api, seat=seat,
                watch_url=f"/replay/{live.code}")


@router.get("/replay/{code}", response_class=HTMLResponse, tags=["pages"])
async def public_replay_page(code: str, request: Request, parlour: ParlourDep) -> Response:
    from app.routes.pages import _find, page

    live, error, status = await _find(request, parlour, code)
    if live is None:
        return page(request, "missing.html", status_code=status, message=error)
    if live.status != "finished":
        return page(request, "missing.html", status_code=403,
                    message="This game is still being played; its replay opens when it ends.")
    return replay_page(request, live, f"/api/tables/{live.code}/replay", None)


@router.get("/seat/{token}/replay", response_class=HTMLResponse, tags=["pages"])
async def seat_replay_page(token: str, request: Request, parlour: ParlourDep) -> Response:
    from app.routes.pages import page

    found = await parlour.seat(token, client_id(request))
    if found is None or found[1].seat is None:
        return page(request, "missing.html", status_code=404,
                    message="No seat has this address. Check the link you were given.")
    live, player = found
    if live.status != "finished":
        return page(request, "missing.html", status_code=403,
                    message="This game is still being played; its replay opens when it ends.")
    return replay_page(request, live, f"/api/seats/{token}/replay", player.seat)
