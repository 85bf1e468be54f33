"""Towers of Babylon in a real Chromium, one server for the module.

* Two players (Ada on a laptop, Beatrice on a phone) play a whole game through the pages, every
  move a click (or a key): founding and joining the table, each choosing a deck (Ada a
  ready-made one, Beatrice a pasted list, after a refused one), the mulligan, and every turn to
  the end screen. They play so that the game is short and shows its parts: Ada raids with one
  minion until Beatrice has blocked once and played a witchery on Ada's turn; Beatrice builds
  with builders and building spells, and wins by reaching 50 levels. Screenshots of the block,
  the witchery and the end are kept for a person to look at; axe-core and the contrast of every
  text are checked at those moments.
* A spectator watches a game played on the API and is never sent, nor shown, a hand card or a
  deck's order.
* axe-core finds nothing serious in light and dark themes, on a laptop and on a phone, at each
  step of a game (deck choice, mulligan, main phase, an attack to answer, the end).
* A card that can be paid in several ways: the page shows the ways as Power Source symbols, the
  cheapest for later preselected, and the player pays the way they choose.
"""

from __future__ import annotations

import gzip
import json
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Locator, Page, WebSocket, expect

from engines.towers_of_babylon.components import CARD_LIST
from tests.browser.look import axe, context_args, low_contrast
from tests.support.server import ServerProcess, sqlite_server

pytestmark = pytest.mark.e2e

TOB = "engines.towers_of_babylon:ENGINE"
OUT = Path(__file__).resolve().parents[2] / "artifacts" / "towers_of_babylon"

# Beatrice's deck: Earth and Light builders, spells that build, defenders, and every witchery of
# the two factions that answers an attack (so that she can answer Ada's raids early).
BUILDERS_LIST = """\
# Earth and Light: build fast, answer raids
4x Dawn Prayer
3x Consecrate
2x High Noon
3x Turning Seasons
4x Deep Foundations
4x Stonecutter
4x Temple Novice
4x Guild Mason
4x Mason of Dawn
4x Beacon Keeper
3x Choir of Spires
2x Gilded Architect
4x Boulder Golem
3x Halo Sentinel
4x Stone Skin
3x Grasping Roots
3x Aegis of Dawn
2x Penance
"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    with sqlite_server(tmp_path_factory.mktemp("tob"), TOB) as srv:
        yield srv


def key(move: dict[str, Any]) -> str:
    """The kit's canonical key of a move (moveKey in static/js/kit.js)."""
    return json.dumps(move, sort_keys=True, separators=(",", ":"))


def shot(page: Page, name: str) -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(OUT / f"{name}.png"), scale="css")


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
      return { now: on('#board .tob-sec-now > .tob-now'), opp: on('#board .mat.opp'), mine: on('#board .mat.me'),
               hand: on('#board .tob-hand .tc') };
    }""")


def tab_to(page: Page, selector: str, limit: int = 150) -> None:
    for _ in range(limit):
        page.keyboard.press("Tab")
        if page.evaluate("s => !!(document.activeElement && document.activeElement.matches(s))", selector):
            return
    raise AssertionError(f"Tab never reached {selector}")


class Game:
    """The table as the API shows it (read only, to decide what to click): the seats' tokens,
    their views and legal moves. ``play`` is for the tests that drive a game on the API."""

    def __init__(self, base: str, tokens: list[str]) -> None:
        self.api = httpx.Client(base_url=base, timeout=20)
        self.token: dict[int, str] = {}
        self.name: dict[int, str] = {}
        for tok in tokens:
            info = self.api.get(f"/api/seats/{tok}").json()
            self.token[info["seat"]] = tok
        self.code = str(self.api.get(f"/api/seats/{tokens[0]}").json()["code"])
        for p in self.table()["players"]:
            self.name[p["seat"]] = p["name"]

    def table(self) -> dict[str, Any]:
        return dict(self.api.get(f"/api/tables/{self.code}").json())

    def now(self, seat: int) -> dict[str, Any]:
        """One request: the table's status, seq and awaited seats, and this seat's view (whose
        prompt lists the seat's legal moves, past the deck choice)."""
        return dict(self.api.get(f"/api/seats/{self.token[seat]}").json())

    def view(self, seat: int) -> dict[str, Any]:
        return dict(self.api.get(f"/api/seats/{self.token[seat]}").json()["view"])

    def moves(self, seat: int) -> tuple[int, list[dict[str, Any]]]:
        got = self.api.get(f"/api/seats/{self.token[seat]}/moves").json()
        return int(got["seq"]), list(got["moves"])

    def play(self, seat: int, seq: int, move: dict[str, Any]) -> None:
        r = self.api.post(f"/api/seats/{self.token[seat]}/moves", json={"seq": seq, "move": move})
        assert r.status_code == 200, r.text


def token_of(page: Page) -> str:
    return page.url.rstrip("/").rsplit("/", 1)[-1]


class Plan:
    """What the two players choose, so that a game is short and shows its parts. The raider
    (Ada, a ready-made Fire deck) keeps one minion on the Battlefield and attacks the Tower
    until the builder has blocked once and played a witchery on her turn; otherwise she draws
    and ends her turn. The builder (Beatrice, the pasted deck) keeps one minion on the Ramparts,
    sends the others to the Tower, plays building spells and builders, keeps two power aside
    while she has less than two transformed power, answers the first attack she can with a
    witchery and the next with a block, and reaches 50 levels in about ten turns."""

    def __init__(self, cards: dict[str, Any]) -> None:
        self.cards = cards
        self.witchery = False
        self.block = False

    def pick(self, view: dict[str, Any], moves: list[dict[str, Any]], role: str) -> dict[str, Any]:
        cards = self.cards
        seat = view["seat"]
        me = view["players"][seat]
        kind = view["prompt"]["kind"]
        by = lambda t: [m for m in moves if m["type"] == t]  # noqa: E731
        hand = {r["iid"]: cards[r["card"]] for r in me["hand"]}
        minions = {m["iid"]: m for m in me["minions"]}
        if kind == "mulligan":
            if role == "builder" and sum(c["kind"] == "witchery" for c in hand.values()) < 2:
                back = sorted((i for i in hand if hand[i]["kind"] != "witchery"), key=lambda i: -hand[i]["cost"])[:3]
                return next(m for m in moves if m["cards"] == sorted(back))
            return next(m for m in moves if m["cards"] == [])
        if kind in ("start", "offering"):
            sources = len(me["available"]) + len(me["exhausted"])
            offers = [m for m in by("offer") if hand[m["card"]]["kind"] != "witchery"]
            digging = role == "builder" and not self.witchery and not any(
                c["kind"] == "witchery" for c in hand.values())
            if offers and sources < (6 if role == "builder" else 3) and len(hand) > 2 and not digging:
                return min(offers, key=lambda m: (hand[m["card"]]["kind"] == "minion", hand[m["card"]]["cost"]))
            return (by("draw") or by("skip"))[0]
        if kind == "defend":
            if by("play") and not self.witchery:
                return by("play")[0]
            return (by("block") or by("pass"))[0]
        if kind == "twin":
            return moves[0]
        if role == "raider":
            attacks = [m for m in by("attack") if m["target"] == -1]
            if attacks and not (self.block and self.witchery):
                return attacks[0]
            for m in by("move"):
                if minions[m["minion"]]["zone"] == "ramparts" and m["zone"] == "battlefield":
                    return m
            if not me["minions"]:
                plays = [m for m in by("play") if hand[m["card"]]["kind"] == "minion" and hand[m["card"]]["might"] >= 2]
                if plays:
                    return min(plays, key=lambda m: hand[m["card"]]["cost"])
            return by("end")[0]
        keep = max(0, 2 - me["transformed"])
        plays = [m for m in by("play") if hand[m["card"]]["kind"] != "witchery"
                 and hand[m["card"]]["cost"] <= len(me["available"]) - keep]
        if plays:
            return max(plays, key=lambda m: (hand[m["card"]]["kind"] != "minion", hand[m["card"]]["cost"]))
        if by("build"):
            return by("build")[0]
        on_ramparts = [m for m in me["minions"] if m["zone"] == "ramparts"]
        for m in by("move"):
            mn = minions[m["minion"]]
            if mn["zone"] == "ramparts" and len(on_ramparts) >= 2 and m["zone"] == "tower" and mn["construction"] >= 1:
                return m
        return by("end")[0]


def click_move(page: Page, move: dict[str, Any], seat: int) -> None:
    """Makes a listed move the way a player does: a card or a minion, then its target or choice."""
    b = page.locator("#board")
    t = move["type"]
    k = key(move)
    if t in ("play", "offer"):
        b.locator(f'.tob-hand [data-k="h-{move["card"]}"]').click()
        if "pay" in move:  # several ways to pay: choose this one (the first is preselected)
            way = b.locator(f'.tob-sel .tob-pay[data-pay="{",".join(move["pay"])}"]')
            if way.get_attribute("aria-pressed") != "true":
                way.click()
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
    elif t == "mulligan":
        for iid in move["cards"]:
            b.locator(f'.tob-hand [data-k="h-{iid}"]').click()
        b.locator(f".tob-now .tob-row [data-move='{k}']").click()
    else:
        b.locator(f".tob-now .tob-row [data-move='{k}']").click()


def found_and_join(browser: Browser, server: ServerProcess, errors: list[str]) -> tuple[Page, Page]:
    """Ada founds a table on a laptop, Beatrice joins on a phone, Ada begins the game."""
    ada = browser.new_context(**context_args("laptop")).new_page()
    ada.on("pageerror", lambda e: errors.append(f"Ada: {e}"))
    ada.goto(server.base + "/?game=towers_of_babylon")
    ada.get_by_label("Your name").fill("Ada")
    ada.get_by_role("button", name=re.compile("Found a new game of Towers of Babylon")).click()
    expect(ada.get_by_text("Invite your players — share this link:")).to_be_visible()
    expect(ada.locator("#waiting .tob-legend")).to_contain_text("Super rare")
    invite = ada.locator("#invite-link").input_value()
    bea = browser.new_context(**context_args("phone")).new_page()
    bea.on("pageerror", lambda e: errors.append(f"Beatrice: {e}"))
    bea.goto(invite)
    bea.get_by_label("Your name").fill("Beatrice")
    bea.get_by_role("button", name="Take a seat").click()
    expect(bea.get_by_text("The waiting room")).to_be_visible()
    ada.get_by_role("button", name="Begin the game").click()
    return ada, bea


def test_two_players_play_a_whole_game_of_towers_of_babylon_by_clicking(browser: Browser, server):
    started = time.monotonic()
    errors: list[str] = []
    ada, bea = found_and_join(browser, server, errors)

    # the deck choice: each player chooses their own, in the page (the first board of the
    # server's first game: given the time a loaded machine may take to fetch its parts)
    for p in (ada, bea):
        expect(p.locator("#board .tob-deck")).to_have_count(4, timeout=15000)
    ada.locator("#board .tob-deck", has_text="Ember Legion").click()
    expect(ada.locator("#board .tob-sec-now > .tob-now")).to_contain_text("Your deck is chosen")
    # Beatrice pastes lists: a name that is no card is caught in the page, a deck rule broken
    # is refused by the server naming the card and the rule, then her deck of 60
    no_side_scroll(bea)
    bea.locator("#board .tob-paste summary").click()
    bea.locator("#tob-list").fill("3x No Such Card")
    bea.locator('#board [data-act="paste"]').click()
    expect(bea.locator("#board .tob-paste .tob-refused")).to_contain_text("no card")
    bea.locator("#tob-list").fill("5x Stonecutter")
    bea.locator('#board [data-act="paste"]').click()
    expect(bea.locator("#board .tob-refused").first).to_contain_text(re.compile("Deck rule 2.*Stonecutter"))
    bea.locator("#tob-list").fill(BUILDERS_LIST)
    bea.locator('#board [data-act="paste"]').click()
    expect(bea.locator("#board .tob-draft b")).to_have_text("60", timeout=30_000)
    shot(bea, "deck-pasted-phone")
    bea.locator("#board .tob-btn.primary", has_text="This deck is ready").click()

    game = Game(server.base, [token_of(ada), token_of(bea)])
    seat_of = {"ada": next(s for s, t in game.token.items() if t == token_of(ada))}
    seat_of["bea"] = 1 - seat_of["ada"]
    page = {seat_of["ada"]: ada, seat_of["bea"]: bea}
    role = {seat_of["ada"]: "raider", seat_of["bea"]: "builder"}
    cards = game.api.get(f"/api/tables/{game.code}/static").json()["cards"]
    plan = Plan(cards)

    # the mulligan, hidden and simultaneous: Ada by keyboard keeps her hand, Beatrice taps
    for p in (ada, bea):
        expect(p.locator('#board[data-kind="mulligan"]')).to_have_count(1)
    for seat in (seat_of["bea"], seat_of["ada"]):
        seq, moves = game.moves(seat)
        move = plan.pick(game.view(seat), moves, role[seat])
        if seat == seat_of["ada"]:
            ada.locator("#board .tob-status").click()
            tab_to(ada, "#board .tob-now .tob-btn.primary")
            expect(ada.locator(":focus")).to_contain_text("Keep your hand")
            ada.keyboard.press("Enter")
        else:
            click_move(bea, move, seat)
            expect(bea.locator("#board .tob-sec-now > .tob-now")).not_to_contain_text("Tap up to 3 cards")

    took: dict[str, Any] = {"first-screen": {}}
    clicks = 0
    seat = seat_of["ada"]
    deadline = time.monotonic() + 300
    while True:
        assert time.monotonic() < deadline, "the game did not finish in time"
        now = game.now(seat)
        if now["status"] == "finished":
            break
        if seat not in now["awaiting"]:
            seat = now["awaiting"][0] if now["awaiting"] else seat
            continue
        view, seq = now["view"], now["seq"]
        if view["prompt"] is None or view["prompt"]["kind"] == "mulligan":
            continue
        moves = [c["move"] for c in view["prompt"]["choices"]]
        move = plan.pick(view, moves, role[seat])
        kind = view["prompt"]["kind"]
        p = page[seat]
        wait_seq(p, seq)
        if kind == "main" and p is ada and "laptop" not in took["first-screen"] and view["players"][seat]["hand"]:
            took["first-screen"]["laptop"] = first_screen(ada)
        if kind == "main" and p is bea and "phone" not in took["first-screen"]:
            took["first-screen"]["phone"] = first_screen(bea)
            no_side_scroll(bea)
        if kind == "defend" and move["type"] == "play":
            # a witchery on the opponent's turn: the card, then its target or its choice
            expect(bea.locator("#board .tob-attack")).to_be_visible()
            bea.locator(f'#board .tob-hand [data-k="h-{move["card"]}"]').click()
            shot(bea, "witchery-chosen")
            assert not axe(bea), axe(bea)
            if move["target"] >= 0:
                bea.locator(f'#board .mat [data-k="m-{move["target"]}"]').click()
            else:
                bea.locator(f"#board .tob-sel [data-move='{key(move)}']").click()
            wait_seq(bea, seq + 1)
            wait_seq(ada, seq + 1)
            shot(bea, "witchery-played")
            shot(ada, "witchery-seen-by-attacker")
            played = cards[next(r["card"] for r in view["players"][seat]["hand"] if r["iid"] == move["card"])]
            expect(ada.locator("#log li", has_text=played["name"])).not_to_have_count(0)
            plan.witchery = True
        elif kind == "defend" and move["type"] == "block":
            expect(bea.locator("#board .mat.me .mn.can.target")).not_to_have_count(0)
            expect(bea.locator("#board .tob-attack")).to_contain_text("attacks")
            shot(bea, "block-offered")
            assert not axe(bea), axe(bea)
            assert not low_contrast(bea, "#board"), low_contrast(bea, "#board")
            click_move(bea, move, seat)
            wait_seq(bea, seq + 1)
            wait_seq(ada, seq + 1)
            shot(bea, "block-done")
            shot(ada, "block-seen-by-attacker")
            assert not axe(ada), axe(ada)
            plan.block = True
        else:
            click_move(p, move, seat)
            wait_seq(p, seq + 1)
        clicks += 1

    assert not errors, errors
    for p in (ada, bea):
        wait_seq(p, now["seq"])
        expect(p.locator("#board .tob-final")).to_be_visible()
        expect(p).not_to_have_title(re.compile("Your turn"))
    expect(bea.locator("#board .tob-final h2")).to_have_text("You win")
    expect(ada.locator("#board .tob-final h2")).to_have_text("Beatrice wins")
    # the builder's win: 50 levels, or the higher tower after both players' 15 turns (the deck's
    # fair shuffle is new at every game)
    expect(ada.locator("#board .tob-final")).to_contain_text(
        re.compile(r"reached 50 levels|Both players have played 15 turns; Beatrice's Tower is the higher"))
    no_side_scroll(bea)
    shot(ada, "end-laptop")
    shot(bea, "end-phone")
    assert not axe(ada), axe(ada)
    assert not axe(bea), axe(bea)
    assert plan.block and plan.witchery
    fs = took["first-screen"]
    assert all(fs["laptop"].values()) and all(fs["phone"].values()), fs
    seconds = round(time.monotonic() - started, 1)

    # the page's weight at its first view, as London's budget counts it: a seat's page opened
    # afresh, the HTML and every script and style sheet it loads, compressed (Ada's own page
    # also holds the waiting room's module, which the frame fetches only while a table gathers)
    fresh = browser.new_context(**context_args("laptop")).new_page()
    fresh.goto(f"{server.base}/seat/{token_of(ada)}")
    wait_seq(fresh, now["seq"])
    urls = fresh.evaluate("""() => [location.href, ...performance.getEntriesByType('resource')
        .map((e) => e.name).filter((u) => /\\.(js|css)$/.test(u))]""")
    fresh.context.close()
    sizes = {u.replace(server.base, ""): len(gzip.compress(game.api.get(u).content)) for u in urls}
    assert any(u.endswith("/static/games/towers_of_babylon/renderer.js") for u in sizes)
    total = sum(sizes.values())
    catalogue = len(gzip.compress(game.api.get(f"/api/tables/{game.code}/static").content))
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "page-weight.json").write_text(json.dumps({"gzip_bytes": sizes, "total": total, "catalogue": catalogue,
                                                     "clicked_moves": clicks, "seconds": seconds}, indent=2))
    assert total <= 40 * 1024, sizes


# -- a game played on the API, for the spectator and for the looks --------------------------

def api_table(server: ServerProcess) -> Game:
    api = httpx.Client(base_url=server.base, timeout=20)
    t = api.post("/api/tables", json={"game": "towers_of_babylon", "name": "Ada"}).json()
    joined = api.post(f"/api/tables/{t['code']}/join", json={"name": "Beatrice"}).json()
    api.post(f"/api/seats/{t['seat_token']}/start").raise_for_status()
    return Game(server.base, [t["seat_token"], joined["seat_token"]])


def choose_decks(game: Game) -> None:
    for seat, deck in ((0, "fire_legion"), (1, "light_citadel")):
        seq, _ = game.moves(seat)
        game.play(seat, seq, {"type": "deck", "deck": deck})


def play_until(game: Game, plan: Plan, done: Any, limit: int = 1000) -> None:
    """Plays the awaited seats' moves on the API (seat 0 raids, seat 1 builds) until ``done()``."""
    seat = 0
    for _ in range(limit):
        if done():
            return
        now = game.now(seat)
        if now["status"] == "finished":
            return
        if seat not in now["awaiting"]:
            seat = now["awaiting"][0]
            continue
        view = now["view"]
        move = plan.pick(view, [c["move"] for c in view["prompt"]["choices"]], "raider" if seat == 0 else "builder")
        if view["prompt"]["kind"] == "defend":
            plan.witchery = plan.witchery or move["type"] == "play"
            plan.block = plan.block or move["type"] == "block"
        game.play(seat, now["seq"], move)
    raise AssertionError("the game did not reach the state wanted")


def test_a_spectator_is_never_sent_nor_shown_a_hand_card_or_a_decks_order(browser: Browser, server):
    game = api_table(server)
    watcher = browser.new_context(**context_args("laptop")).new_page()
    frames: list[dict[str, Any]] = []

    def listen(ws: WebSocket) -> None:
        ws.on("framereceived", lambda payload: frames.append(json.loads(payload)) if isinstance(payload, str) else None)

    watcher.on("websocket", listen)
    watcher.goto(f"{server.base}/watch/{game.code}")
    expect(watcher.locator("#prompt")).to_contain_text("Watching")
    choose_decks(game)
    plan = Plan(game.api.get(f"/api/tables/{game.code}/static").json()["cards"])
    checked = 0
    for moves_played in (6, 30, 60, 10_000):
        play_until(game, plan, lambda n=moves_played: game.table()["seq"] >= n)
        seq = game.table()["seq"]
        wait_seq(watcher, seq)
        views = [game.view(s) for s in (0, 1)]
        hidden = {r["iid"] for s, v in enumerate(views) for r in v["players"][s]["hand"]
                  if r["iid"] not in {k["iid"] for k in v["players"][s]["known_hand"]}}
        shown = {int(x) for x in watcher.eval_on_selector_all("#board [data-card]",
                                                              "es => es.map((e) => e.dataset.card)")}
        assert not hidden & shown, f"a hand card is on the spectator's page: {hidden & shown}"
        expect(watcher.locator("#board .tob-hand")).to_have_count(0)
        expect(watcher.locator("#board [data-move]")).to_have_count(0)
        checked += 1
    assert game.table()["status"] == "finished"
    expect(watcher.locator("#board .tob-final")).to_be_visible()
    shot(watcher, "spectator-end")
    sent = [f["view"] for f in frames if f.get("type") == "view" and f.get("view")]
    assert len(sent) > 20
    for v in sent:
        assert v["seat"] is None and v["prompt"] is None
        assert (v.get("deck_choice") or {}).get("own") is None and (v.get("mulligan") or {}).get("own") is None
        for pl in v["players"]:
            assert pl["hand"] is None, "a hand was sent to a spectator"
            assert isinstance(pl["deck"], int), "a deck's order was sent to a spectator"
    assert checked == 4


LOOKS = [("light", "laptop"), ("dark", "laptop"), ("light", "phone"), ("dark", "phone")]


@pytest.fixture(scope="module")
def scenes(server: ServerProcess) -> dict[str, tuple[Game, int]]:
    """A game at each step worth looking at: (game, seat to look from)."""
    out: dict[str, tuple[Game, int]] = {}
    deck = api_table(server)
    out["deck-choice"] = (deck, 0)
    mull = api_table(server)
    choose_decks(mull)
    out["mulligan"] = (mull, 1)
    game = api_table(server)
    choose_decks(game)
    plan = Plan(game.api.get(f"/api/tables/{game.code}/static").json()["cards"])

    def defending() -> bool:
        table = game.table()
        if 1 not in table["awaiting"]:
            return False
        prompt = game.view(1)["prompt"]
        return bool(prompt and prompt["kind"] == "defend" and game.view(1)["players"][1]["minions"])

    play_until(game, plan, defending)
    out["defend"] = (game, 1)  # (the attacker's page is looked at in the whole game above)
    ended = api_table(server)
    choose_decks(ended)
    play_until(ended, Plan(plan.cards), lambda: ended.table()["status"] == "finished")
    out["end"] = (ended, 1)
    out["end-other-seat"] = (ended, 0)  # one of the two hands is often empty at the end
    return out


@pytest.mark.parametrize(("theme", "size"), LOOKS, ids=[f"{t}-{s}" for t, s in LOOKS])
def test_axe_finds_nothing_serious_in_light_and_dark_on_a_laptop_and_a_phone(browser: Browser, server, scenes,
                                                                             theme: str, size: str):
    page = browser.new_context(**context_args(size, theme)).new_page()
    found: dict[str, Any] = {}
    for name, (game, seat) in scenes.items():
        page.goto(f"{server.base}/seat/{game.token[seat]}")
        wait_seq(page, game.table()["seq"])
        bad = axe(page)
        low = low_contrast(page)
        if bad or low:
            found[name] = {"axe": bad, "contrast": low}
        shot(page, f"look-{name}-{theme}-{size}")
        if size == "phone":
            no_side_scroll(page)
    assert not found, json.dumps(found, indent=1)[:6000]


# -- paying: the player chooses the Power Sources ---------------------------------------------

def two_faction_list(factions: tuple[str, str]) -> list[dict[str, Any]]:
    """The add moves of a 60-card deck of two factions, two copies of each card (one of a rare)."""
    moves: list[dict[str, Any]] = []
    total = 0
    for c in CARD_LIST:
        n = min(1 if c.rarity in ("rare", "super_rare") else 2, 60 - total)
        if c.faction in factions and n:
            moves.append({"type": "add", "card": c.id, "copies": n})
            total += n
    return [*moves, {"type": "ready"}]


def until_a_choice_of_payment(game: Game) -> int:
    """Plays on the API, both seats on Light and Fire decks: each offers a card of the colour it
    has fewer sources of at the start of its turns and plays nothing, until a seat's main phase
    lists a card with several ways to pay. That seat."""
    for seat in (0, 1):
        for move in two_faction_list(("light", "fire")):
            seq, _ = game.moves(seat)
            game.play(seat, seq, move)
    seat = 0
    for _ in range(400):
        now = game.now(seat)
        if seat not in now["awaiting"]:
            seat = now["awaiting"][0]
            continue
        view = now["view"]
        prompt = view["prompt"]
        moves = [c["move"] for c in prompt["choices"]]
        by = {m["type"]: m for m in reversed(moves)}
        me = view["players"][seat]
        kind = prompt["kind"]
        if kind == "main" and any("pay" in m for m in moves):
            return seat
        if kind == "mulligan":
            move = next(m for m in moves if m["cards"] == [])
        elif kind == "start" and len(me["hand"]) > 1:
            have = me["available"] + me["exhausted"]
            fewer = min(("light", "fire"), key=have.count)
            offers = [m for m in moves if m["type"] == "offer"]
            card_of = {r["iid"]: r["card"] for r in me["hand"]}
            move = next((m for m in offers if card_of[m["card"]].startswith(fewer)), offers[0])
        else:
            move = by.get("end") or by.get("draw") or by.get("pass") or by.get("skip") or moves[0]
        game.play(seat, now["seq"], move)
    raise AssertionError("no card with several ways to pay came up")


def carries(board: Locator, move: dict[str, Any]) -> None:
    """The play of the selected card (its target on the mat, or its button) sends ``move``."""
    where = board.locator(f'.mat [data-k="m-{move["target"]}"]') if move["target"] >= 0 \
        else board.locator(".tob-sel .tob-row [data-move]").first
    expect(where).to_have_attribute("data-move", key(move))


def test_a_card_with_several_ways_to_pay_shows_them_the_cheapest_preselected_and_pays_the_one_chosen(
        browser: Browser, server, tmp_path: Path):
    game = api_table(server)
    seat = until_a_choice_of_payment(game)
    now = game.now(seat)
    view, seq = now["view"], now["seq"]
    moves = [c["move"] for c in view["prompt"]["choices"]]
    paid = [m for m in moves if "pay" in m]
    iid = paid[0]["card"]
    ways = []
    for m in paid:
        if m["card"] == iid and m["pay"] not in ways:
            ways.append(m["pay"])
    assert len(ways) >= 2
    shots = {}
    for size in ("phone", "laptop"):
        page = browser.new_context(**context_args(size)).new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e, errors=errors: errors.append(str(e)))
        page.goto(f"{server.base}/seat/{game.token[seat]}")
        wait_seq(page, seq)
        b = page.locator("#board")
        b.locator(f'.tob-hand [data-k="h-{iid}"]').click()
        row = b.locator(".tob-sel .tob-pays")
        expect(row).to_be_visible()
        page.wait_for_timeout(300)  # (the page scrolls the card's first target into view, once)
        page.mouse.move(0, 0)  # (the pointer leaves the card: its zoom closes)
        buttons = row.locator(".tob-pay")
        expect(buttons).to_have_count(len(ways))
        assert [x.split(",") for x in buttons.evaluate_all("bs => bs.map((b) => b.dataset.pay)")] == ways
        expect(buttons.first).to_have_attribute("aria-pressed", "true")
        expect(buttons.first).to_contain_text("best for later")
        for box in buttons.evaluate_all("bs => bs.map((b) => b.getBoundingClientRect().toJSON())"):
            assert box["width"] >= 24 and box["height"] >= 24, box  # touch targets
        carries(b, next(m for m in paid if m["card"] == iid and m["pay"] == ways[0]))
        # where the ways and the hand's cards sit in the window (the hand, the ways above its cards,
        # is held at the bottom of the window while the game runs), and the page's scroll
        boxes = ("() => ['#board .tob-pays', '#board .tob-hand .hand-row'].map((s) => {"
                 " const r = document.querySelector(s).getBoundingClientRect();"
                 " return [r.left, r.top, r.width, r.height]; }).concat([[scrollX, scrollY]])")
        before = page.evaluate(boxes)
        shot_path = tmp_path / f"pay-choice-{size}.png"
        page.screenshot(path=str(shot_path), scale="css")
        shots[size] = shot_path
        found = axe(page, scope="#board")
        assert not found, json.dumps(found, indent=1)
        assert not low_contrast(page, "#board .tob-sel"), low_contrast(page, "#board .tob-sel")
        # choosing another way moves nothing, and the play (button or target) then carries it
        buttons.nth(1).click()
        expect(buttons.nth(1)).to_have_attribute("aria-pressed", "true")
        expect(buttons.first).to_have_attribute("aria-pressed", "false")
        carries(b, next(m for m in paid if m["card"] == iid and m["pay"] == ways[1]))
        assert page.evaluate(boxes) == before
        page.screenshot(path=str(tmp_path / f"pay-choice-{size}-second.png"), scale="css")
        if size == "laptop":
            chosen = next(m for m in paid if m["card"] == iid and m["pay"] == ways[1])
            had = sorted(view["players"][seat]["exhausted"])
            if chosen["target"] >= 0:
                b.locator(f'.mat [data-k="m-{chosen["target"]}"]').click()
            else:
                b.locator(f".tob-sel [data-move='{key(chosen)}']").click()
            wait_seq(page, seq + 1)
            after = game.view(seat)["players"][seat]
            assert sorted(after["exhausted"]) == sorted(had + chosen["pay"])
            assert iid not in [r["iid"] for r in after["hand"]]
        assert not errors, errors
        page.context.close()
    print("payment screenshots:", *shots.values())


def test_a_dropped_fetch_of_the_boards_scripts_is_tried_again_without_a_reload(browser: Browser, server):
    """The game's renderer and its deck-choice part are fetched when first needed; a fetch that
    fails (a dropped connection, a server restarting) is asked for again, so the player gets the
    game's own board, not the plain fallback, and the deck choice, without reloading."""
    api = httpx.Client(base_url=server.base, timeout=20)
    t = api.post("/api/tables", json={"game": "towers_of_babylon", "name": "Ada"}).json()
    api.post(f"/api/tables/{t['code']}/join", json={"name": "Beatrice"}).raise_for_status()
    api.post(f"/api/seats/{t['seat_token']}/start").raise_for_status()
    page = browser.new_context(**context_args("laptop")).new_page()
    dropped: list[str] = []

    def drop_first(route: Any) -> None:
        name = route.request.url.rsplit("/", 1)[-1].split("?")[0]
        if name not in dropped:
            dropped.append(name)
            route.abort("connectionreset")
        else:
            route.continue_()

    page.route(re.compile(r".*/static/games/towers_of_babylon/(renderer|deck)\.js(\?.*)?$"), drop_first)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(t["seat_url"])
    expect(page.locator("#board .tob-deck")).to_have_count(4, timeout=15000)
    assert sorted(dropped) == ["deck.js", "renderer.js"] and not errors, (dropped, errors)
