"""Tables brought to a given moment of a game through the JSON API, for the browser tests that
look at a page (layout, contrast, axe-core) rather than play it: the opening, a turn in the
middle of a game, an ability prompt, the end screen. Each scene is a fresh table played by a
seeded chooser, so the same scene looks the same on every run."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import httpx

View = dict[str, Any]


class Chooser:
    """Picks among London's legal moves so that a game ends soon: draw from the deck, develop and
    buy, Draw Three often, one or two runs for show, loans only when nothing else is possible."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.runs = 0
        self.activations = 0

    def pick(self, moves: list[dict[str, Any]], stacks: int = 0) -> int:
        def first(pred: Callable[[dict[str, Any]], bool]) -> int | None:
            return next((i for i, m in enumerate(moves) if pred(m)), None)

        def has(typ: str, **kw: Any) -> int | None:
            return first(lambda m: m["type"] == typ and all(m.get(k) == v for k, v in kw.items()))

        for typ in ("end_turn", "keep", "bottom", "discard_for_colour", "pay", "flip", "discard", "buy"):
            i = has(typ)
            if i is not None:
                return i
        i = has("place")
        if i is not None:
            return i
        if has("choose_action") is not None:
            if self.runs < 2 and stacks >= 2 and self.rng.random() < 0.5:
                self.runs += 1
                return has("choose_action", action="run_city")  # type: ignore[return-value]
            order = ["develop", "buy_land", "draw_three"] if self.rng.random() < 0.6 else ["buy_land", "draw_three"]
            for a in order:
                i = has("choose_action", action=a)
                if i is not None:
                    return i
            return has("choose_action", action="draw_three")  # type: ignore[return-value]
        if has("activate") is not None and self.activations < 3:
            self.activations += 1
            return has("activate")  # type: ignore[return-value]
        i = has("borough_ability")
        if i is not None:
            return i
        i = has("develop")
        if i is not None and (has("end_action") is None or self.rng.random() < 0.5):
            return i
        for pred in (lambda m: m["type"] == "end_action", lambda m: m["type"] == "draw" and m["from"] == "deck",
                     lambda m: m["type"] == "draw", lambda m: m["type"] == "stop_drawing",
                     lambda m: m["type"] not in ("take_loan", "repay_loan", "scry")):
            i = first(pred)
            if i is not None:
                return i
        return 0


class Table:
    """A started table and its seats, driven through the API."""

    def __init__(self, api: httpx.Client, game: str, names: tuple[str, ...]) -> None:
        self.api = api
        founded = api.post("/api/tables", json={"game": game, "name": names[0]}).json()
        self.code: str = founded["code"]
        tokens = [founded["seat_token"]]
        for name in names[1:]:
            joined = api.post(f"/api/tables/{self.code}/join", json={"name": name})
            assert joined.status_code == 201, joined.text
            tokens.append(joined.json()["seat_token"])
        api.post(f"/api/seats/{tokens[0]}/start").raise_for_status()
        self.by_seat: dict[int, str] = {}
        for tok in tokens:
            self.by_seat[api.get(f"/api/seats/{tok}").json()["seat"]] = tok
        self.moves = 0

    def summary(self) -> dict[str, Any]:
        return dict(self.api.get(f"/api/tables/{self.code}").json())

    def view(self, seat: int) -> View:
        return dict(self.api.get(f"/api/seats/{self.by_seat[seat]}").json()["view"])

    def awaiting(self) -> list[int]:
        return list(self.summary()["awaiting"])

    def finished(self) -> bool:
        return bool(self.summary()["status"] == "finished")

    def legal(self, seat: int) -> tuple[int, list[dict[str, Any]]]:
        got = self.api.get(f"/api/seats/{self.by_seat[seat]}/moves").json()
        return int(got["seq"]), list(got["moves"])

    def play(self, seat: int, move: dict[str, Any], seq: int) -> None:
        r = self.api.post(f"/api/seats/{self.by_seat[seat]}/moves", json={"seq": seq, "move": move})
        r.raise_for_status()
        self.moves += 1

    def seat_url(self, seat: int) -> str:
        return f"/seat/{self.by_seat[seat]}"

    def watch_url(self) -> str:
        return f"/watch/{self.code}"

    def advance(self, pick: Callable[[int, list[dict[str, Any]]], int],
                until: Callable[[Table], bool], limit: int = 3000) -> None:
        """Plays the awaited seats' moves, chosen by ``pick(seat, moves)``, until ``until(self)``."""
        while not until(self):
            awaited = self.awaiting()
            if not awaited:
                return
            for seat in awaited:
                seq, moves = self.legal(seat)
                if moves:
                    self.play(seat, moves[pick(seat, moves)], seq)
            assert self.moves < limit, "the scene was never reached"


# -- London --------------------------------------------------------------------------------

def london(api: httpx.Client, names: tuple[str, ...] = ("Ada", "Beatrice"), seed: int = 7) -> Table:
    return Table(api, "london", names)


def london_chooser(seed: int) -> Callable[[int, list[dict[str, Any]]], int]:
    chooser = Chooser(seed)
    return lambda seat, moves: chooser.pick(moves, stacks=2)


def london_step(step: str, min_moves: int = 0) -> Callable[[Table], bool]:
    def at(t: Table) -> bool:
        if t.moves < min_moves:
            return False
        awaited = t.awaiting()
        return bool(awaited) and t.view(awaited[0])["step"] == step
    return at


# -- Tower of London ---------------------------------------------------------------------

def tower(api: httpx.Client, names: tuple[str, ...] = ("Heather", "Ross", "Nate")) -> Table:
    return Table(api, "tower_of_london", names)


def tower_chooser(seed: int) -> Callable[[int, list[dict[str, Any]]], int]:
    rng = random.Random(seed)

    def pick(seat: int, moves: list[dict[str, Any]]) -> int:
        removes = [i for i, m in enumerate(moves) if m["type"] in ("remove", "switch")]
        if removes and rng.random() < 0.8:
            return rng.choice(removes)
        return rng.randrange(len(moves))
    return pick


def tower_kind(*kinds: str) -> Callable[[Table], bool]:
    def at(t: Table) -> bool:
        for seat in t.awaiting():
            p = t.view(seat)["prompt"]
            if p and p["kind"] in kinds:
                return True
        return False
    return at


def awaited_with(t: Table, *kinds: str) -> int:
    for seat in t.awaiting():
        p = t.view(seat)["prompt"]
        if p and p["kind"] in kinds:
            return seat
    raise AssertionError(f"no seat awaited for {kinds}")
