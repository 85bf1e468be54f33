"""A whole game with a screen reader, per game (issue 31): one seat's page is played from the
first move to the end with the keyboard alone, choosing among the buttons the accessibility
tree names (what choosing each one does, in words), and reading the table only from that tree
and the live regions: its own turn is announced assertively once per decision, and every move
of every other seat (played through the API) is announced politely, naming the mover. The
board in words opens on the one key "D", focused, with a heading per part, and Escape closes it.
See tests/browser/screen_reader.py for the listener."""

from __future__ import annotations

import contextlib
import json
import random
import re
import time
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets.sync.client as ws_client
from playwright.sync_api import Browser, Page, expect

from tests.browser import scenes
from tests.browser.look import axe, context_args
from tests.browser.screen_reader import Listener, buttons, play_others, wait_processed
from tests.support.server import ServerProcess, sqlite_server

pytestmark = pytest.mark.e2e

OUT = Path(__file__).resolve().parents[2] / "artifacts" / "screen_reader"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    with sqlite_server(tmp_path_factory.mktemp("screen-reader"), "") as srv:
        yield srv


@pytest.fixture(scope="module")
def api(server: ServerProcess) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=server.base, timeout=30) as c:
        yield c


def seat_names(api: httpx.Client, table: scenes.Table) -> dict[int, str]:
    return {seat: str(api.get(f"/api/seats/{tok}").json()["name"]) for seat, tok in table.by_seat.items()}


def open_seat(browser: Browser, server: ServerProcess, table: scenes.Table, seat: int, name: str) -> Listener:
    page = browser.new_context(**context_args("laptop")).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server.base + table.seat_url(seat))
    expect(page.get_by_role("region", name="Your move")).to_be_visible()
    expect(page.get_by_role("button", name="Describe the board (D)")).to_be_visible()
    page.wait_for_function("() => window.parlourMetrics && window.parlourMetrics.firstView !== null")
    listener = Listener(page, name)
    listener.start()
    page.errors = errors  # type: ignore[attr-defined]
    return listener


def check_description(page: Page, headings: list[str | re.Pattern[str]]) -> None:
    """"D" opens the board in words: a dialog, focused at its title, a heading per part; Escape
    closes it and the focus comes back."""
    page.keyboard.press("d")
    dialog = page.get_by_role("dialog")
    expect(dialog).to_be_visible()
    expect(dialog.get_by_role("heading", level=2)).to_be_focused()
    for h in headings:
        expect(dialog.get_by_role("heading", name=h, level=3).first).to_be_visible()
    assert not axe(page), axe(page)
    page.keyboard.press("Escape")
    expect(dialog).to_have_count(0)


class Chooser:
    """Chooses by accessible name, by a list of patterns in order of preference."""

    def __init__(self, seed: int, prefer: list[str], avoid: str = r"^$") -> None:
        self.rng = random.Random(seed)
        self.prefer = [re.compile(p) for p in prefer]
        self.avoid = re.compile(avoid)

    def pick(self, names: list[str]) -> str:
        usable = [n for n in names if not self.avoid.search(n)]
        for pattern in self.prefer:
            hits = [n for n in usable if pattern.search(n)]
            if hits:
                return self.rng.choice(hits)
        # nothing but loans: a loan it is (its confirmation is answered by keyboard)
        usable = usable or [n for n in names if not re.search(r"^↶ Undo|^Fold|^Show|Describe|^Hint|^Repay", n)]
        assert usable, f"nothing to choose among {names}"
        return self.rng.choice(usable)


# the board drew the view of this seq (each game's board carries it)
DRAWN = """(seq) => {
  const b = document.querySelector('#board[data-seq]') || document.querySelector('#board [data-seq]');
  return b && +b.dataset.seq >= seq; }"""


def end_of_game(listener: Listener, name: str, started: float) -> None:
    """A whole game's last checks: no error in the page; its end kept as OUT/<name>-end.png and
    what it took printed; the page closed."""
    page = listener.page
    assert not page.errors, page.errors  # type: ignore[attr-defined]
    OUT.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(OUT / f"{name}-end.png"))
    print(name, {"my moves": listener.moves, "key presses": listener.presses, "announced": listener.checked,
                 "seconds": round(time.monotonic() - started, 1)})
    page.context.close()


def play_whole_game(table: scenes.Table, me: int, listener: Listener, names: dict[int, str],
                    choose: Callable[[Listener], tuple[str, bool]],
                    bots: Callable[[int, list[dict[str, Any]]], int], limit: int) -> None:
    """Plays the listener's seat to the end. ``choose`` names the button to press and says whether
    pressing it sends a move (else it only prepares one: a card chosen, a Beefeater marked).

    The seat's turn is announced once per decision: when the seat becomes awaited, or the step
    asked or its sentence changes (the prompt's kind and text, read from the API), never again
    after a move of its own that leaves it at the same step, nor after a button that only prepares
    a move."""
    page = listener.page
    turns = 0
    asked: tuple[Any, ...] = ()  # the step and sentence (kind, text) the seat last answered
    left_at: tuple[Any, ...] = ()  # where its press left it: seq, kind, text

    def here() -> tuple[Any, ...]:
        prompt = table.view(me).get("prompt") or {}
        return table.legal(me)[0], prompt.get("kind"), prompt.get("text")

    while play_others(table, me, listener, names, bots):
        now = here()
        page.wait_for_function(DRAWN, arg=now[0], timeout=15_000)
        if now == left_at and now[1:] == asked:  # the same decision goes on: its turn is not said again
            page.wait_for_timeout(150)  # time enough for it to be said, were it said
            # (but the first: speak.js comes with the first line heard, and says the turn then)
            assert len(listener.heard("turn")) <= turns + (not turns), (now, listener.heard("turn")[turns:])
        elif listener.heard() or turns:  # the live regions are there (the first line was said)
            said = listener.wait_heard("turn", turns)
            assert said[-1].startswith("Your turn — "), said[-1]
            assert len(said) == turns + 1, f"a decision announced more than once: {said[turns:]}"
        else:  # the page opened on the seat's decision: its title says so
            expect(page).to_have_title(re.compile("Your turn"))
            page.wait_for_timeout(300)  # the live regions' module may be on its way with a first line
        turns = len(listener.heard("turn"))
        asked = now[1:]
        name, sends = choose(listener)
        seq = table.legal(me)[0]
        listener.press(name)
        confirm = page.get_by_role("dialog")
        if confirm.count():  # a move taking a loan asks first: its "do it" is before "Cancel"
            page.keyboard.press("Shift+Tab")
            expect(confirm.get_by_role("button", name=re.compile("and do it"))).to_be_focused()
            page.keyboard.press("Enter")
        if sends:
            wait_processed(table, me, seq)
        left_at = here()
        assert listener.moves < limit, "the game did not end"


# -- London ----------------------------------------------------------------------------------

class LondonChooser(Chooser):
    """Plays London to its end soon: draws, develops and buys, Draw Three half the time, a few runs."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed, [
            r"^End turn$", r"^Keep ", r"at the very bottom", r"^Discard .* to pay the colour", r"^Discard .* to pay\b",
            r"^Flip ", r"^Discard ", r"^Buy (?!Land)", r"^Place on a new stack$", r"^Place here: ", r"^New stack: ",
            r"^Resolve ",
        ], avoid=r"(?i)needs (a|\d) £10 loan|^Take a £|^Repay|^Look at the top|^↶ Undo|^Fold|^Show|Describe|^Hint")
        self.actions = 0

    def pick(self, names: list[str]) -> str:
        first = super().pick(names) if any(p.search(n) for p in self.prefer for n in names
                                           if not self.avoid.search(n)) else None
        if first:
            return first
        actions = {a: n for n in names for a in ("Develop", "Buy Land", "Run the City", "Draw Three")
                   if n.startswith(a + " ") and not re.match(r"^Develop .*\(£", n)}
        if actions:
            self.actions += 1
            # Draw Three most often: the city deck, and with it the game, runs out sooner
            roll = self.rng.random()
            order = ["Draw Three", "Develop", "Buy Land"] if roll < 0.5 else ["Develop", "Buy Land", "Draw Three"] \
                if roll < 0.8 else ["Buy Land", "Draw Three"]
            for a in (["Run the City"] if self.actions % 5 == 4 else []) + order:
                if a in actions:
                    return actions[a]
            return next(iter(actions.values()))
        for pattern in (r"^Activate ", r"^Develop .*\(£", r"^End the run$|^Stop developing$", r"^Draw from the deck$",
                        r"^Take .* from the development board", r"^Stop drawing$"):
            hits = [n for n in names if re.search(pattern, n) and not self.avoid.search(n)]
            stop = pattern.startswith("^Develop") and "Stop developing" in names and self.rng.random() < 0.4
            if hits and not stop:
                return self.rng.choice(hits)
        return super().pick(names)


def test_london_a_whole_game_played_by_keyboard_and_heard_through_the_live_regions(
        browser: Browser, server: ServerProcess, api: httpx.Client) -> None:
    started = time.monotonic()
    table = scenes.london(api, ("Ada", "Bea"))
    names = seat_names(api, table)
    me = next(s for s, n in names.items() if n == "Ada")
    listener = open_seat(browser, server, table, me, "Ada")
    assert not axe(listener.page), axe(listener.page)
    check_description(listener.page, [re.compile(r"^Your hand"), "Your display and money", "The development board",
                                      "The borough market", "Bea's display"])
    chooser = LondonChooser(5)
    play_whole_game(table, me, listener, names, lambda lis: (chooser.pick(lis.choices()), True),
                    scenes.london_chooser(5), limit=900)
    page = listener.page
    expect(page.get_by_role("region", name="Your move")).to_contain_text("Game over")
    expect(page).not_to_have_title(re.compile("Your turn"))
    assert listener.checked.get("Bea", 0) > 20, listener.checked
    end_of_game(listener, "london", started)


# -- Tower of London -----------------------------------------------------------------------

def tower_choice(rng: random.Random) -> Callable[[Listener], tuple[str, bool]]:
    """Two cards chosen (Enter on each card's toggle) then laid face down; a Beefeater placed
    from the bar's buttons; an ability used on a Beefeater the board names, or passed; cards kept."""
    def choose(lis: Listener) -> tuple[str, bool]:
        names = lis.choices()
        for sends in (r"^Lay them face down$", r"^Keep these \d+$", r"^Remove it$", r"^Switch them$"):
            hit = [n for n in names if re.search(sends, n)]
            if hit:
                return hit[0], True
        gate = [n for n in names if n.startswith("Continue to round")]
        if gate:
            return gate[0], False
        unpressed = [n for n in lis.choices(pressed=False) if re.search(r" card: orange building", n)]
        if unpressed and "Lay them face down" not in names:
            pressed = [n for n in lis.choices(pressed=True) if re.search(r" card: orange building", n)]
            keeping = any(n.startswith("Keep these") for n in lis.choices()) or lis.page.get_by_role(
                "button", name=re.compile(r"^Keep these")).count()
            if keeping or len(pressed) < 2:
                return rng.choice(unpressed), False
        place = [n for n in names if re.match(r"^Place a Beefeater in building \d+$", n)]
        if place:
            return rng.choice(place), True
        tokens = [n for n in names if n.endswith("— choose it")]
        if tokens and rng.random() < 0.8:
            return rng.choice(tokens), False
        passing = [n for n in names if n.startswith("Pass")]
        if passing:
            return passing[0], True
        raise AssertionError(f"nothing to choose among {names}")
    return choose


def test_tower_of_london_a_whole_game_played_by_keyboard_and_heard_through_the_live_regions(
        browser: Browser, server: ServerProcess, api: httpx.Client) -> None:
    started = time.monotonic()
    table = scenes.tower(api, ("Ada", "Bea", "Cyd"))
    names = seat_names(api, table)
    me = next(s for s, n in names.items() if n == "Ada")
    listener = open_seat(browser, server, table, me, "Ada")
    check_description(listener.page, ["The round", "Your hand", "Quadrant I", "Quadrant II", "Quadrant III",
                                      "Quadrant IV", "Players"])
    play_whole_game(table, me, listener, names, tower_choice(random.Random(3)), scenes.tower_chooser(3), limit=400)
    page = listener.page
    expect(page.get_by_role("region", name="Your move")).to_contain_text("Game over")
    assert listener.checked.get("Bea", 0) > 5 and listener.checked.get("Cyd", 0) > 5, listener.checked
    end_of_game(listener, "tower", started)


# -- Towers of Babylon ---------------------------------------------------------------------

def babylon_choice(rng: random.Random) -> Callable[[Listener], tuple[str, bool]]:
    """The deck Ember Legion chosen on the board; then, at every decision, the folded list of
    every choice opened (its summary, by keyboard) and one of its buttons, each named by the
    server's words, pressed: plays, attacks, builds and offers rather than ending the turn."""
    def choose(lis: Listener) -> tuple[str, bool]:
        names = lis.choices()
        deck = [n for n in names if n.startswith("Play the deck Ember Legion")]
        if deck:
            return deck[0], True
        every = lis.page.get_by_role("group").filter(has_text=re.compile(r"^Every choice as a list"))
        expect(every).to_have_count(1)
        if not buttons(every):
            lis.press(every.get_by_text(re.compile(r"^Every choice as a list")))
        listed = [n for n in buttons(every) if not n.startswith("Ask me")]
        assert listed, names
        ending = [n for n in listed if re.match(r"^(End your turn|Make no offering|Let it through|Pass)", n)]
        doing = [n for n in listed if n not in ending]
        if doing and (not ending or rng.random() < 0.75):
            return rng.choice(doing), True
        return (ending or listed)[0], True
    return choose


def babylon_bot(api: httpx.Client, table: scenes.Table) -> Callable[[int, list[dict[str, Any]]], int]:
    """Bea builds (the plan of the clicking test): her Tower reaches 50 levels in about ten turns."""
    from tests.browser.test_towers_of_babylon import Plan
    plan = Plan(api.get(f"/api/tables/{table.code}/static").json()["cards"])

    def pick(seat: int, moves: list[dict[str, Any]]) -> int:
        view = table.view(seat)
        if view["phase"] == "deck":
            return next(i for i, m in enumerate(moves) if m.get("deck") == "light_citadel")
        move = plan.pick(view, moves, "builder")
        return next(i for i, m in enumerate(moves) if m == move)
    return pick


def test_towers_of_babylon_a_whole_game_played_by_keyboard_and_heard_through_the_live_regions(
        browser: Browser, server: ServerProcess, api: httpx.Client) -> None:
    started = time.monotonic()
    table = scenes.Table(api, "towers_of_babylon", ("Ada", "Bea"))
    names = seat_names(api, table)
    me = next(s for s, n in names.items() if n == "Ada")
    listener = open_seat(browser, server, table, me, "Ada")
    play_whole_game(table, me, listener, names, babylon_choice(random.Random(2)), babylon_bot(api, table), limit=400)
    page = listener.page
    expect(page.get_by_role("region", name="Your move")).to_contain_text("Game over")
    check_description(page, ["The turn", "Your mat", "Bea's mat"])
    assert listener.checked.get("Bea", 0) > 10, listener.checked
    end_of_game(listener, "babylon", started)


def test_a_seats_turn_is_announced_once_while_the_others_choose_at_the_same_time(
        browser: Browser, server: ServerProcess, api: httpx.Client) -> None:
    """Tower of London's players choose their cards at the same time: the others' choices are
    announced politely, one each, and the seat's own turn once, not again at each of them."""
    table = scenes.tower(api, ("Ada", "Bea", "Cyd"))
    names = seat_names(api, table)
    me = next(s for s, n in names.items() if n == "Ada")
    listener = open_seat(browser, server, table, me, "Ada")
    page = listener.page
    expect(page).to_have_title(re.compile("Your turn"))
    others = [s for s in sorted(names) if s != me]
    for seat in others:
        before = len(listener.heard())
        seq, moves = table.legal(seat)
        table.play(seat, moves[0], seq)
        said = listener.wait_heard("polite", before)
        assert any(names[seat] in line for line in said[before:]), said
        page.wait_for_timeout(400)  # time enough for a second turn announcement, were there one
        turn = listener.heard("turn")
        assert len(turn) == 1, turn
        assert turn[0].startswith("Your turn — Choose two cards"), turn
        assert "also awaited" not in turn[0], turn
    # the seat's own choice, by keyboard: it is no longer its turn; nothing more is said of it
    for _ in range(2):
        card = next(n for n in listener.choices(pressed=False) if " card: orange building" in n)
        listener.press(card)
    before = len(listener.heard())
    listener.press("Lay them face down")
    page.wait_for_function("(n) => window.heard.polite.slice(n).some((l) => l.includes('Ada'))", arg=before)
    page.wait_for_timeout(400)
    # Once every card is down the round goes on, and the next step may be Ada's (her place in the
    # turn order is drawn): a new sentence may be said, never the choice she has just made.
    again = listener.heard("turn")[1:]
    assert not any(t.startswith("Your turn — Choose two cards") for t in again), again
    assert not page.errors, page.errors  # type: ignore[attr-defined]
    page.context.close()


# -- a spectator -----------------------------------------------------------------------------

class Lines:
    """The log lines one socket of the table receives after it opened, by the seq of the move
    that made them (a spectator's socket: the public lines; a seat's: its own)."""

    def __init__(self, sock: Any) -> None:
        self.sock = sock
        self.by_seq: dict[int, list[str]] = {}
        self.seen = -1

    def drain(self, seq: int) -> None:
        while self.seen < seq:
            msg = json.loads(self.sock.recv(timeout=15))
            if msg["type"] != "view":
                continue
            if not msg.get("full"):  # a first view's lines are history
                for e in msg.get("log") or []:
                    self.by_seq.setdefault(e["seq"], []).append(e["text"])
            self.seen = max(self.seen, msg["seq"])


def thrones_pick(table: scenes.Table) -> Callable[[int, list[dict[str, Any]]], int]:
    """A Game of Thrones' seats: an order on each area without one, then ready; afterwards the
    first choice (never a take-back)."""
    def pick(seat: int, legal: list[dict[str, Any]]) -> int:
        placed = {a["id"] for a in table.view(seat)["areas"] if a.get("order") and a["order"]["seat"] == seat}
        for want in (lambda m: m["type"] == "order" and m["area"] not in placed, lambda m: m["type"] == "ready",
                     lambda m: m["type"] not in ("undo", "unorder", "order")):
            found = next((i for i, m in enumerate(legal) if want(m)), None)
            if found is not None:
                return found
        return 0
    return pick


# moves the log tells only later: an order placed (at the reveal), a march's steps (when it ends)
TOLD_LATER = ("order", "march", "move")


@pytest.mark.parametrize(("game", "players", "moves"), [("london", ("Ada", "Bea"), 40),
                                                        ("tower_of_london", ("Ada", "Bea", "Cyd"), 30),
                                                        ("game_of_thrones", ("Ada", "Bea", "Cyd"), 20)])
def test_a_spectator_hears_every_move_once_with_the_movers_name_and_no_seats_private_details(
        browser: Browser, server: ServerProcess, api: httpx.Client, game: str, players: tuple[str, ...],
        moves: int) -> None:
    """A spectator (no seat) hears each move of the seats, played through the API, once through the
    polite live region, in the public log's words with the mover's name; never what only a seat's
    own log says (the card a London player drew, the cards a Tower of London player chose), and
    never a turn (the assertive region stays silent). A Game of Thrones' orders placed are told
    at the reveal, as the log tells them ("Stark (Ada) is ready" meanwhile)."""
    table = scenes.Table(api, game, players)
    names = seat_names(api, table)
    pick = {"london": scenes.london_chooser(4), "tower_of_london": scenes.tower_chooser(4),
            "game_of_thrones": thrones_pick(table)}[game]
    base = server.base.replace("http", "ws", 1)
    with contextlib.ExitStack() as stack:
        public = Lines(stack.enter_context(ws_client.connect(f"{base}/ws/watch/{table.code}", max_size=2**22)))
        seats = {s: Lines(stack.enter_context(ws_client.connect(f"{base}/ws/seats/{tok}", max_size=2**22)))
                 for s, tok in table.by_seat.items()}
        opened = table.summary()["seq"]
        for lines in (public, *seats.values()):
            lines.drain(opened)
        page = browser.new_context(**context_args("laptop")).new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(server.base + table.watch_url())
        expect(page.get_by_role("region", name="Your move")).to_contain_text("Watching")
        page.wait_for_function("() => window.parlourMetrics && window.parlourMetrics.firstView !== null")
        listener = Listener(page, "spectator")
        listener.start()
        movers: dict[int, int] = {}  # seq -> the seat whose move made it
        later: set[int] = set()  # the seqs of moves the log tells later
        for _ in range(moves):
            seat = table.awaiting()[0]
            seq, legal = table.legal(seat)
            move = legal[pick(seat, legal)]
            table.play(seat, move, seq)
            movers[seq + 1] = seat
            if move["type"] in TOLD_LATER:
                later.add(seq + 1)
            for lines in (public, *seats.values()):
                lines.drain(seq + 1)
            said = sum(len(public.by_seq.get(s, [])) for s in movers)
            page.wait_for_function("(n) => window.heard.polite.length >= n", arg=said, timeout=15_000)
        page.wait_for_timeout(400)  # time enough for a line said twice, or a turn, to be heard
        heard = listener.heard()
        told = listener.heard("turn")
        region = page.get_by_role("region", name="Your move").inner_text()
        page.context.close()
    logged = [line for s in sorted(movers) for line in public.by_seq.get(s, [])]
    extra, missing = Counter(heard) - Counter(logged), Counter(logged) - Counter(heard)
    assert not extra and not missing, {"heard, not logged": list(extra.elements()),
                                       "logged, not heard once": list(missing.elements())}
    assert heard == logged, "the lines were not said in the log's order"
    unnamed = {s: public.by_seq.get(s) for s, seat in movers.items()
               if s not in later and not any(names[seat] in line for line in public.by_seq.get(s, []))}
    assert not unnamed, f"moves not said, or said without the mover's name: {unnamed}"
    # what only a seat's own log says ("You drew Shops from the deck") is never said to a spectator
    private = {line for lines in seats.values() for s in movers for line in lines.by_seq.get(s, [])
               if line not in public.by_seq.get(s, [])}
    if game != "game_of_thrones":  # (its private lines come later: a house card, a wildling card seen)
        assert private, "the game logged nothing private: the test proves nothing"
    tails = {re.sub(r"^You ", "", line) for line in private}
    assert not [h for h in heard if any(h.endswith(t) for t in tails)], (heard, private)
    assert not [h for h in heard if re.match(r"^Your?\b", h)], heard
    assert told == [], f"a spectator was told of a turn: {told}"
    assert "Your turn" not in region, region
    assert not errors, errors
