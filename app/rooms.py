"""Founding a table, answering an invitation, and drawing seats by lot at the start."""

from __future__ import annotations

import secrets
import unicodedata
from dataclasses import dataclass
from typing import Any

from sqlalchemy import func, select, update
from sqlalchemy.exc import IntegrityError

from app.errors import ApiError
from app.live import LiveTables, PlayerInfo, new_state
from app.models import GameTable, Player, utcnow
from app.notify import Notifier
from app.tokens import hash_token, new_code, new_seed, new_token
from engines.base import Engine, resolve_options

NAME_MAX = 24


def clean_name(raw: object) -> str:
    """A player's name: 1–24 characters after trimming, no control characters.

    >>> clean_name("  Ada  Lovelace ")
    'Ada Lovelace'
    """
    if not isinstance(raw, str):
        raise ApiError(422, "invalid_name", "Give your name: 1 to 24 characters.")
    name = unicodedata.normalize("NFC", " ".join(raw.split()))
    if any(unicodedata.category(c) in ("Cc", "Cf", "Cs", "Co", "Cn") for c in name):
        raise ApiError(422, "invalid_name", "A name cannot hold control or invisible characters.")
    if not name:
        raise ApiError(422, "invalid_name", "Give your name: 1 to 24 characters.")
    if len(name) > NAME_MAX:
        raise ApiError(422, "invalid_name", f"A name is at most {NAME_MAX} characters long.")
    return name


@dataclass
class SeatTicket:
    code: str
    token: str
    table_id: int


class Rooms:
    def __init__(self, live: LiveTables, notifier: Notifier) -> None:
        self.live = live
        self.notifier = notifier

    def engine(self, game: object) -> Engine:
        if not isinstance(game, str) or game not in self.live.engines:
            known = ", ".join(sorted(self.live.engines))
            raise ApiError(422, "unknown_game", f"This site hosts no game called {game!r}; it hosts {known}.")
        return self.live.engines[game]

    async def found(self, game: object, name: object, options: object) -> SeatTicket:
        engine = self.engine(game)
        name = clean_name(name)
        if options is not None and not isinstance(options, dict):
            raise ApiError(422, "invalid_options", "Options are an object of option names and values.")
        try:
            resolved = resolve_options(engine, options)
        except ValueError as exc:
            raise ApiError(422, "invalid_options", f"Invalid option: {exc}.") from None
        hex_seed, _, digest = new_seed()
        token = new_token()
        for _ in range(8):  # a code collision is rare; draw again
            code = new_code()
            try:
                async with self.live.sessions() as s, s.begin():
                    row = GameTable(code=code, game=engine.id, options=resolved, status="gathering",
                                    seed=hex_seed, seed_hash=digest, seq=0)
                    s.add(row)
                    await s.flush()
                    s.add(Player(table_id=row.id, token_hash=hash_token(token), name=name, joined=0,
                                 is_founder=True))
                return SeatTicket(code, token, row.id)
            except IntegrityError:
                continue
        raise ApiError(503, "busy", "Could not find a free table code; try again.")

    async def join(self, code: str, name: object) -> SeatTicket:
        live = await self.live.by_code(code)
        if live is None:
            raise ApiError(404, "unknown_table", "No table has this code. Check the code and try again.")
        name = clean_name(name)
        token = new_token()
        async with live.lock:
            if live.status != "gathering":
                raise ApiError(409, "already_started",
                               "This game has already begun; you can watch it as a spectator.")
            if len(live.players) >= live.max_seats:
                raise ApiError(409, "table_full", f"This table is full: {live.engine.title} seats at most "
                               f"{live.max_seats} players.")
            if any(p.name.casefold() == name.casefold() for p in live.players):
                raise ApiError(409, "name_taken", f"Someone at this table is already called {name}; "
                               "choose another name.")
            try:
                async with self.live.sessions() as s, s.begin():
                    row = await s.get(GameTable, live.id)
                    if row is None or row.status != "gathering":
                        raise ApiError(409, "already_started",
                                       "This game has already begun; you can watch it as a spectator.")
                    count = await s.scalar(select(func.count()).select_from(Player)
                                           .where(Player.table_id == live.id)) or 0
                    if count >= live.max_seats:
                        raise ApiError(409, "table_full", "This table is full.")
                    player = Player(table_id=live.id, token_hash=hash_token(token), name=name,
                                    joined=count, is_founder=False)
                    s.add(player)
                    await s.flush()
                    await self.notifier.in_transaction(s, live.id, "lobby")
            except IntegrityError:
                # another server process let someone in at the same moment
                self.live.forget(live.id)
                raise ApiError(409, "name_taken", "That name or place was just taken; try again.") from None
            live.players.append(PlayerInfo(player.id, name, count, None, False, player.token_hash))
            self.live.remember(live)
        return SeatTicket(live.code, token, live.id)

    async def start(self, token_hash: str) -> None:
        found = await self.live.by_token_hash(token_hash)
        if found is None:
            raise ApiError(404, "unknown_seat", "No seat has this address.")
        live, player = found
        async with live.lock:
            if not player.is_founder:
                raise ApiError(403, "not_founder", "Only the player who founded the table can start it.")
            if live.status != "gathering":
                raise ApiError(409, "already_started", "This game has already begun.")
            n = len(live.players)
            if not live.min_seats <= n <= live.max_seats:
                raise ApiError(409, "wrong_player_count",
                               f"{live.engine.title} needs {live.min_seats} to {live.max_seats} players; "
                               f"{n} have joined.")
            order = list(range(n))
            secrets.SystemRandom().shuffle(order)  # seats are drawn by lot
            async with self.live.sessions() as s, s.begin():
                res = await s.execute(update(GameTable).where(GameTable.id == live.id,
                                                              GameTable.status == "gathering")
                                      .values(status="playing", started_at=utcnow()))
                if res.rowcount != 1:  # type: ignore[attr-defined]
                    self.live.forget(live.id)
                    raise ApiError(409, "already_started", "This game has already begun.")
                for player_info, seat in zip(live.players, order, strict=True):
                    await s.execute(update(Player).where(Player.id == player_info.id).values(seat=seat))
                await self.notifier.in_transaction(s, live.id, "lobby")
            for player_info, seat in zip(live.players, order, strict=True):
                player_info.seat = seat
            live.players.sort(key=lambda p: p.seat if p.seat is not None else 99)
            live.status = "playing"
            live.seq = 0
            live.state = new_state(live)

    @staticmethod
    def describe(engine: Engine) -> dict[str, Any]:
        return {"id": engine.id, "title": engine.title, "tagline": engine.tagline,
                "min_seats": engine.min_seats, "max_seats": engine.max_seats,
                "options": [o.as_json() for o in engine.options]}
