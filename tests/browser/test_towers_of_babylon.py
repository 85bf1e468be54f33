"""Towers of Babylon in a real Chromium: two players (one on a phone) found, join and start a
table through the pages, choose their decks and their mulligans by clicking, play their first
turns by clicking, and the rest of the game partly through the JSON API (for speed), except that
a combat with a block and a witchery played on the opponent's turn are always clicked. Along the
way: the first screen at both sizes, the keyboard, axe-core, the contrast of every text, the
page weight, and screenshots of the block, the witchery and the end for a person to look at."""

from __future__ import annotations

import gzip
import json
import random
import re
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.look import axe, context_args, low_contrast

pytestmark = pytest.mark.e2e

TOB = "engines.towers_of_babylon:ENGINE"
OUT = Path(__file__).resolve().parents[2] / "artifacts" / "towers_of_babylon"
CLICKED_TURNS = 3  # each player's first turns are played by clicking


@pytest.fixture
def server(sqlite_url, server_factory):
    return server_factory(sqlite_url, engines=TOB)


def key(move: dict[str, Any]) -> str:
    """The kit's canonical key of a move (moveKey in static/js/kit.js)."""
    return json.dumps(move, sort_keys=True, separators=(",", ":"))


def shot(page: Page, name: str) -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(OUT / f"{name}.png"), scale="css")


def board_seq(page: Page) -> int:
    return int(page.locator("#board").get_attribute("data-seq") or -1)


def wait_seq(page: Page, seq: int, timeout: float = 20) -> None:
    page.wait_for_function("s => +(document.getElementById('board').dataset.seq || -1) >= s"
                           " && !document.body.classList.contains('pending')", arg=seq, timeout=timeout * 1000)


def no_side_scroll(page: Page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    view = page.evaluate("window.innerWidth")
    assert width <= view, f"the page scrolls sideways ({width} px in {view} px)"


def first_screen(page: Page) -> dict[str, bool]:
    """Whether the decision, both mats and the hand begin on the first screen."""
    return page.evaluate("""() => {
      const on = (s) => { const e = document.querySelector(s); if (!e) return false;
        const r = e.getBoundingClientRect(); return r.height > 0 && r.top + window.scrollY < window.innerHeight - 30; };
      return { now: on('#board .tob-now'), opp: on('#board .mat.opp'), mine: on('#board .mat.me'),
               hand: on('#board .tob-hand .tc') };
    }""")


def tab_to(page: Page, selector: str, limit: int = 150) -> None:
    for _ in range(limit):
        page.keyboard.press("Tab")
        if page.evaluate("s => !!(document.activeElement && document.activeElement.matches(s))", selector):
            return
    raise AssertionError(f"Tab never reached {selector}")


class Game:
    """The table through the API: the seats' tokens (from the pages' addresses), views, moves."""

    def __init__(self, base: str, pages: list[Page]) -> None:
        self.api = httpx.Client(base_url=base, timeout=20)
        self.token: dict[int, str] = {}
        self.page: dict[int, Page] = {}
        for page in pages:
            tok = page.url.rstrip("/").rsplit("/", 1)[-1]
            seat = self.api.get(f"/api/seats/{tok}").json()["seat"]
            self.token[seat] = tok
            self.page[seat] = page

    def summary(self) -> dict[str, Any]:
        return dict(self.api.get(f"/api/seats/{self.token[0]}").json())

    def view(self, seat: int) -> dict[str, Any]:
        return dict(self.api.get(f"/api/seats/{self.token[seat]}").json()["view"])

    def moves(self, seat: int) -> tuple[int, list[dict[str, Any]]]:
        got = self.api.get(f"/api/seats/{self.token[seat]}/moves").json()
        return int(got["seq"]), list(got["moves"])

    def play(self, seat: int, seq: int, move: dict[str, Any]) -> None:
        r = self.api.post(f"/api/seats/{self.token[seat]}/moves", json={"seq": seq, "move": move})
        assert r.status_code == 200, r.text


class Chooser:
    """Plays so that the game shows its parts: minions enter and some stay on the Ramparts to
    block, the others build or raid, raiders attack the Tower, one card a turn (so that power is
    left over to transform), witcheries kept for the opponent's turn."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.acts = 0

    def pick(self, view: dict[str, Any], moves: list[dict[str, Any]], cards: dict[str, Any]) -> dict[str, Any]:
        seat = view["seat"]
        me = view["players"][seat]
        kind = view["prompt"]["kind"]
        by = lambda t: [m for m in moves if m["type"] == t]  # noqa: E731
        hand = {r["iid"]: cards[r["card"]] for r in me["hand"]}
        if kind in ("start", "offering"):
            sources = len(me["available"]) + len(me["exhausted"])
            offers = [m for m in by("offer") if hand[m["card"]]["kind"] != "witchery"]
            if offers and sources < 5:
                return min(offers, key=lambda m: hand[m["card"]]["cost"])
            return (by("draw") or by("skip") or moves)[0]
        if kind == "defend":
            if by("block") and self.rng.random() < 0.6:
                return by("block")[0]
            return by("pass")[0]
        if kind == "twin":
            return moves[0]
        # main phase
        self.acts += 1
        if self.acts > 10:
            self.acts = 0
            return by("end")[0]
        played = view.get("entered") is not None
        minions = me["minions"]
        plays = [m for m in by("play") if hand[m["card"]]["kind"] != "witchery"]
        if plays and not played:
            return max(plays, key=lambda m: hand[m["card"]]["cost"])
        builds = by("build")
        if builds:
            return builds[0]
        attacks = [m for m in by("attack") if m["target"] == -1] or by("attack")
        if attacks:
            return attacks[0]
        on_ramparts = [m for m in minions if m["zone"] == "ramparts"]
        for m in by("move"):
            mn = next(x for x in minions if x["iid"] == m["minion"])
            if mn["zone"] == "ramparts" and len(on_ramparts) >= 2:
                want = "battlefield" if mn["might"] >= mn["construction"] else "tower"
                if m["zone"] == want:
                    return m
        self.acts = 0
        return by("end")[0]


def click_move(page: Page, move: dict[str, Any], seat: int) -> None:
    """Makes a listed move the way a player does: a card or a minion, then its target or choice."""
    b = page.locator("#board")
    t = move["type"]
    k = key(move)
    if t in ("play", "offer"):
        b.locator(f'.tob-hand [data-k="h-{move["card"]}"]').click()
        if t == "play" and move["target"] >= 0:
            b.locator(f'.mat [data-k="m-{move["target"]}"]').click()
        else:
            b.locator(f".tob-sel [data-move='{k}']").click()
    elif t == "move":
        b.locator(f'.mat [data-k="m-{move["minion"]}"]').click()
        b.locator(f'.mat [data-k="z-{move["zone"]}"]').click()
    elif t == "build":
        b.locator(f'.mat [data-k="m-{move["minion"]}"]').click()
        b.locator(f".tob-sel [data-move='{k}']").click()
    elif t == "attack":
        b.locator(f'.mat [data-k="m-{move["minion"]}"]').click()
        target = f'm-{move["target"]}' if move["target"] >= 0 else f"t-{1 - seat}"
        b.locator(f'.mat [data-k="{target}"]').click()
    elif t in ("block", "strike"):
        b.locator(f'.mat [data-k="m-{move["minion"]}"]').click()
    else:
        b.locator(f".tob-now .tob-row [data-move='{k}']").click()


def test_two_players_play_a_whole_game_of_towers_of_babylon(browser: Browser, server):
    started = time.monotonic()
    errors: list[str] = []
    desk = browser.new_context(**context_args("laptop"))
    ada = desk.new_page()
    ada.on("pageerror", lambda e: errors.append(f"Ada: {e}"))
    ada.goto(server.base + "/?game=towers_of_babylon")
    ada.get_by_label("Your name").fill("Ada")
    ada.get_by_role("button", name=re.compile("Found a new game of Towers of Babylon")).click()
    expect(ada.get_by_text("Invite your players — share this link:")).to_be_visible()
    expect(ada.locator("#waiting .tob-legend")).to_contain_text("Super rare")
    invite = ada.locator("#invite-link").input_value()

    phone = browser.new_context(**context_args("phone"))
    bea = phone.new_page()
    bea.on("pageerror", lambda e: errors.append(f"Beatrice: {e}"))
    bea.goto(invite)
    bea.get_by_label("Your name").fill("Beatrice")
    bea.get_by_role("button", name="Take a seat").click()
    expect(bea.get_by_text("The waiting room")).to_be_visible()
    ada.get_by_role("button", name="Begin the game").click()

    # the deck choice: each player chooses their own, in the page
    for p in (ada, bea):
        expect(p.locator("#board .tob-deck")).to_have_count(4)
    # a pasted list: a name that is no card is caught in the page; a rule broken, by the server
    ada.locator("#board .tob-paste summary").click()
    ada.locator("#tob-list").fill("3x No Such Card")
    ada.locator('#board [data-act="paste"]').click()
    expect(ada.locator("#board .tob-paste .tob-refused")).to_contain_text("no card")
    ada.locator("#tob-list").fill("5x Ember Imp")
    ada.locator('#board [data-act="paste"]').click()
    expect(ada.locator("#board .tob-refused").first).to_contain_text("Deck rule 2")
    ada.locator("#board .tob-deck", has_text="Stone Bastion").click()
    expect(ada.locator("#board .tob-now")).to_contain_text("Your deck is chosen")
    no_side_scroll(bea)
    bea.locator("#board .tob-deck", has_text="Tidebound").click()

    # the mulligan: Ada by keyboard puts one card back, Beatrice keeps her hand
    for p in (ada, bea):
        expect(p.locator('#board[data-kind="mulligan"]')).to_have_count(1)
    ada.locator("#board .tob-status").click()
    tab_to(ada, '#board .tc[data-act="toggle"]')
    ada.keyboard.press("Enter")
    expect(ada.locator("#board .tc.sel")).to_have_count(1)
    tab_to(ada, "#board .tob-now .tob-btn.primary")
    expect(ada.locator(":focus")).to_contain_text("Put back")
    ada.keyboard.press("Enter")
    bea.locator("#board .tob-now .tob-btn.primary", has_text="Keep your hand").click()

    game = Game(server.base, [ada, bea])
    code = game.summary()["code"]
    cards = game.api.get(f"/api/tables/{code}/static").json()["cards"]
    chooser = Chooser(7)
    took: dict[str, Any] = {"block": False, "witchery": False, "axe-main": False, "first-screen": {}}
    clicked = 0
    deadline = time.monotonic() + 150
    while True:
        assert time.monotonic() < deadline, "the game did not finish in time"
        table = game.api.get(f"/api/tables/{code}").json()
        if table["status"] == "finished":
            break
        view = game.view(table["awaiting"][0]) if table["awaiting"] else None
        if view is None or view["prompt"] is None or view["prompt"]["kind"] == "mulligan":
            time.sleep(0.05)
            continue
        seat = view["seat"]
        seq, moves = game.moves(seat)
        page = game.page[seat]
        kind = view["prompt"]["kind"]
        mine = view["players"][seat]
        by_page = mine["turns"] <= CLICKED_TURNS and kind != "defend"
        move = chooser.pick(view, moves, cards)
        if kind == "defend":
            blocks = [m for m in moves if m["type"] == "block"]
            witch = [m for m in moves if m["type"] == "play"]
            if witch and not took["witchery"]:
                move, by_page = witch[0], True
            elif blocks and not took["block"]:
                move, by_page = blocks[0], True
        if kind == "main" and not took["axe-main"] and page is ada and any(m["type"] == "play" for m in moves):
            wait_seq(ada, seq)
            took["first-screen"]["laptop"] = first_screen(ada)
            assert not axe(ada), axe(ada)
            assert not low_contrast(ada, "#board"), low_contrast(ada, "#board")
            took["axe-main"] = True
        if kind == "main" and "phone" not in took["first-screen"] and page is bea:
            wait_seq(bea, seq)
            took["first-screen"]["phone"] = first_screen(bea)
            no_side_scroll(bea)
        if not by_page:
            game.play(seat, seq, move)
            if seq % 12 == 0:  # the pages keep up with the moves played through the API
                for p in (ada, bea):
                    wait_seq(p, seq - 6, timeout=40)
            continue
        wait_seq(page, seq)
        if kind == "defend" and move["type"] == "play":
            # a witchery on the opponent's turn: the card, then its choice
            expect(page.locator("#board .tob-attack")).to_be_visible()
            page.locator(f'#board .tob-hand [data-k="h-{move["card"]}"]').click()
            expect(page.locator("#board .tob-sel")).to_be_visible()
            shot(page, "witchery-chosen")
            assert not axe(page), axe(page)
            page.locator(f"#board .tob-sel [data-move='{key(move)}']").click()
            wait_seq(page, seq + 1)
            other = game.page[1 - seat]
            wait_seq(other, seq + 1)
            shot(other, "witchery-seen-by-attacker")
            took["witchery"] = True
        elif kind == "defend" and move["type"] == "block":
            expect(page.locator("#board .mat.me .mn.can.target")).not_to_have_count(0)
            expect(page.locator("#board .tob-attack")).to_contain_text("attacks")
            shot(page, "block-offered")
            assert not axe(page), axe(page)
            click_move(page, move, seat)
            wait_seq(page, seq + 1)
            shot(page, "block-done")
            shot(game.page[1 - seat], "block-seen-by-attacker")
            took["block"] = True
        else:
            click_move(page, move, seat)
            wait_seq(page, seq + 1)
        clicked += 1

    assert not errors, errors
    for p in (ada, bea):  # the pages may run a little behind the moves played through the API
        wait_seq(p, table["seq"], timeout=60)
    for p in (ada, bea):
        expect(p.locator("#board .tob-final")).to_be_visible()
        expect(p.locator("#board .tob-final h2")).to_have_text(re.compile(r"wins|A draw|You win"))
        expect(p).not_to_have_title(re.compile("Your turn"))
    no_side_scroll(bea)
    shot(ada, "end-laptop")
    shot(bea, "end-phone")
    assert not axe(ada), axe(ada)
    assert not axe(bea), axe(bea)
    assert took["block"] and took["witchery"], took
    fs = took["first-screen"]
    assert all(fs["laptop"].values()) and all(fs["phone"].values()), fs
    assert clicked >= 8

    # the page's weight: the HTML and every script and style sheet it loads, compressed
    urls = ada.evaluate("""() => [location.href, ...performance.getEntriesByType('resource')
        .map((e) => e.name).filter((u) => /\\.(js|css)$/.test(u))]""")
    sizes = {u.replace(server.base, ""): len(gzip.compress(game.api.get(u).content)) for u in urls}
    assert any(u.endswith("/static/games/towers_of_babylon/renderer.js") for u in sizes)
    total = sum(sizes.values())
    catalogue = len(gzip.compress(game.api.get(f"/api/tables/{code}/static").content))
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "page-weight.json").write_text(json.dumps({"gzip_bytes": sizes, "total": total, "catalogue": catalogue,
                                                     "seconds": round(time.monotonic() - started, 1)}, indent=2))
    assert total < 40_000, sizes
