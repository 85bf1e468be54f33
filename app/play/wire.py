"""What a table looks like on the wire: the public summary, the log as one seat reads it, and the
view message a seat's socket is sent. Pure functions of a live table (see app/play/live.py); the
caller makes sure the table is ``showable``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from app.play.live import LiveTable, PlayerInfo
from app.play.takeback import can_take_back


def player_json(p: PlayerInfo, connected: bool, handover: dict[str, int] | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"name": p.name, "seat": p.seat, "founder": p.is_founder, "joined": p.joined,
                           "connected": connected, "bot": p.bot, "is_bot": p.is_bot}
    if handover is not None:  # away long enough: the others may vote to hand the seat to a bot
        out["handover"] = handover
    return out


def public_summary(live: LiveTable, connected: set[int] | frozenset[int] = frozenset()) -> dict[str, Any]:
    """What anybody holding the code may know about the table."""
    return {
        "code": live.code,
        "game": live.game,
        "title": live.engine.title,
        "status": live.status,
        "players": [player_json(p, p.id in connected, live.handover.get(p.id)) for p in live.players],
        "min_seats": live.min_seats,
        "max_seats": live.max_seats,
        "seq": live.seq,
        "awaiting": list(live.awaiting),
        "seed_hash": live.seed_hash if live.status != "gathering" else None,
        "seed": live.seed if live.status == "finished" else None,
        "result": live.result,
        # where the game names its seats (houses), pages name them so, the player beside it
        "labels": live.labels(),
        # seats may ask the good bot for a hint; how many each has asked for (public)
        "hints": {"allowed": True, "asked": {str(k): v for k, v in sorted(live.hints_asked.items())}}
        if live.hints else None,
    }


def log_for(live: LiveTable, seat: int | None, after_seq: int = -1) -> list[dict[str, Any]]:
    """The log lines after ``after_seq`` as this seat reads them (names filled in);
    ``after_seq`` < 0 is the whole log, opening with the seats drawn by lot."""
    out: list[dict[str, Any]] = []
    if after_seq < 0 and live.status != "gathering":
        names = live.seat_names()
        order = ", ".join(f"{p.seat + 1}. {names.get(p.seat, p.name)}" for p in live.players if p.seat is not None)
        out.append({"seq": 0, "text": f"Seats were drawn by lot: {order}. The game begins."})
    key = str(seat) if seat is not None else None
    changes = [c for c in live.seat_changes if c[0] > after_seq] if live.seat_changes else []
    for seq, events in live.log.after(after_seq):
        while changes and changes[0][0] < seq:  # a seat changed hands before this move
            out.append({"seq": changes[0][0], "text": changes.pop(0)[2]})
        out.extend({"seq": seq, "text": live.line_for(ev, key)} for ev in events)
    out.extend({"seq": c[0], "text": c[2]} for c in changes)
    return out


def log_is_public(live: LiveTable, after_seq: int) -> bool:
    """Every seat reads the log lines after ``after_seq`` alike (no private text among them,
    and not the whole log, which opens with the seats' names): they can be made once for all."""
    if after_seq < 0:
        return False
    return not any(ev.get("private") for _, events in live.log.after(after_seq) for ev in events)


def view_message(live: LiveTable, seat: int | None, after_seq: int, view: dict[str, Any] | None = None,
                 legal: Mapping[int, list[Any]] | None = None,
                 log: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """The message a connection is sent after a change: its view and the log lines it has not
    seen (``log``: those lines made already, once for every seat that reads them alike). The
    seat's legal moves travel once, inside the view's ``prompt.choices``; only an
    engine whose prompt lists no choices has them sent beside the view as ``moves``."""
    engine = live.engine
    awaiting = live.awaiting
    if view is None:
        view = engine.view(live.state, seat)
    message: dict[str, Any] = {
        "type": "view",
        "seq": live.seq,
        "seat": seat,
        "status": live.status,
        "awaiting": list(awaiting),
        "view": view,
        "log": log_for(live, seat, after_seq) if log is None else log,
    }
    prompt = view.get("prompt")
    if not (isinstance(prompt, dict) and isinstance(prompt.get("choices"), list)):
        moves: list[Any] = []
        if seat is not None and seat in awaiting:
            moves = legal[seat] if legal is not None and seat in legal else engine.legal_moves(live.state, seat)
        message["moves"] = moves
    if seat is not None and can_take_back(live.chain, seat) and live.status == "playing":
        message["undo"] = True  # the page offers to take back the seat's last move
    if after_seq < 0:  # a connection's first view: the whole log, to replace what it had
        message["full"] = True
    if live.status == "finished":
        message["result"] = live.result
        message["seed"] = live.seed
    return message
