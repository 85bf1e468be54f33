"""A Game of Thrones with a screen reader: one seat (Stark) plays a whole round — every order placed
from the list of its areas, the raid, the march into a sea Baratheon has just taken (a battle with
house cards, the Valyrian Steel Blade), the consolidation, and the next round's Westeros phase up
to its planning — using only roles, accessible names, the focus and the keyboard (Enter, Tab, the
description's key). Its state is read from the accessibility tree (the names of the buttons and
the map's areas, the board's description in words) and from the live regions: every line said in
#announce (polite) and #announce-turn (assertive) is recorded as a screen reader would hear it.
The other two seats play through the HTTP API, and each of their moves is checked to have been
announced, in the words the seat's log gives it. The test waits for the board's drawn sequence
number only to know that a view has arrived."""

from __future__ import annotations

import contextlib
import json
import re
import time
from collections import Counter
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
import websockets.sync.client as ws_client
from playwright.sync_api import Browser, Locator, Page, expect

from tests.browser.look import axe, context_args
from tests.browser.scenes import Table
from tests.browser.screen_reader import tab_to as tab_to_control
from tests.support.server import ServerProcess, sqlite_server

pytestmark = pytest.mark.e2e

NAMES = ("Ada", "Bea", "Cyril")

# what a screen reader hears: every text put into either live region, in order
HEAR_JS = """() => {
  window.heard = []; window.turns = [];
  for (const [id, into] of [["announce", window.heard], ["announce-turn", window.turns]]) {
    const box = document.getElementById(id);
    new MutationObserver((recs) => { for (const r of recs) for (const n of r.addedNodes) {
      const t = (n.textContent || "").trim(); if (t) into.push(t); } })
      .observe(box, { childList: true, subtree: true });
  }
}"""

# the orders Stark gives: the ship marches (and fights), White Harbor raids, Winterfell gathers power
STARK_ORDERS = {"The Shivering Sea": "March +1 ★", "White Harbor": "Raid", "Winterfell": "Consolidate Power"}
PRESSES: list[int] = []  # the keys pressed for each choice made by press()
QUIET = ("defense", "defense-plus-one", "support", "consolidate-power", "raid")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    with sqlite_server(tmp_path_factory.mktemp("got-sr"), "engines.game_of_thrones:ENGINE") as srv:
        yield srv


def drawn(page: Page) -> int:
    return int(page.evaluate("+(document.getElementById('board').dataset.seq || -1)"))


def wait_drawn(page: Page, seq: int) -> None:
    page.wait_for_function("s => +(document.getElementById('board').dataset.seq || -1) >= s", arg=seq, timeout=15000)


class Others:
    """The two seats played through the API, and what their moves logged (read on the Stark
    seat's own socket: the lines as that seat's page receives them)."""

    def __init__(self, api: httpx.Client, table: Table, sock: Any, baratheon: int) -> None:
        self.api, self.table, self.sock, self.baratheon = api, table, sock, baratheon
        self.lines: dict[int, list[str]] = {}  # seq -> the log lines of the move that made it
        self.moves: list[tuple[int, int, dict[str, Any]]] = []  # (seat, new seq, move)
        self.seen = -1

    def drain(self, seq: int) -> None:
        """Reads the socket until the view of ``seq`` has come."""
        while self.seen < seq:
            msg = json.loads(self.sock.recv(timeout=15))
            if msg["type"] == "view":
                for e in msg.get("log") or []:
                    self.lines.setdefault(e["seq"], []).append(e["text"])
                self.seen = max(self.seen, msg["seq"])

    def choose(self, seat: int, legal: list[dict[str, Any]], view: dict[str, Any]) -> dict[str, Any]:
        kinds = {m["type"] for m in legal}
        if "order" in kinds:
            placed = {a["id"] for a in view["areas"] if a.get("order") and a["order"]["seat"] == seat}
            todo = [m for m in legal if m["type"] == "order" and m["area"] not in placed]
            if todo:
                if seat == self.baratheon:  # Baratheon's fleet will take The Narrow Sea
                    m = next((m for m in todo if m["area"] == "shipbreaker-bay" and m["order"] == "march"), None)
                    if m:
                        return m
                area = todo[0]["area"]
                return next((m for w in QUIET for m in todo if m["area"] == area and m["order"] == w), todo[0])
            return next(m for m in legal if m["type"] == "ready")
        if view["prompt"]["kind"] == "march_moves":
            step = next((m for m in legal if m["type"] == "move" and m["to"] == "the-narrow-sea"), None)
            return step or next(m for m in legal if m["type"] == "end_march" and not m["power"])
        for t in ("raven_pass", "end_muster", "march", "consolidate", "card", "support"):
            m = next((m for m in legal if m["type"] == t), None)
            if m:
                return m
        if "bid" in kinds:
            bids = [m for m in legal if m["type"] == "bid"]
            return min(bids, key=lambda m: abs(m["power"] - 1))
        if "raid" in kinds:
            return next((m for m in legal if m["type"] == "raid" and m["target"]), legal[0])
        return next((m for m in legal if m["type"] not in ("undo", "unorder")), legal[0])

    def play(self, seat: int) -> None:
        seq, legal = self.table.legal(seat)
        move = self.choose(seat, legal, self.table.view(seat))
        r = self.api.post(f"/api/seats/{self.table.by_seat[seat]}/moves", json={"seq": seq, "move": move})
        r.raise_for_status()
        new = int(r.json()["seq"])
        self.moves.append((seat, new, move))
        self.drain(new)


def heard(page: Page) -> list[str]:
    return list(page.evaluate("window.heard"))


def turns(page: Page) -> list[str]:
    return list(page.evaluate("window.turns"))


def choices(page: Page) -> Locator:
    return page.get_by_role("group", name="Your choices")


def press(page: Page, button: Locator) -> None:
    """Tabs (or Shift+Tabs) from the focus to a button found by its role and name, and presses
    Enter on it."""
    PRESSES.append(tab_to_control(page, button) + 1)
    expect(button).to_be_focused()
    page.keyboard.press("Enter")


def sent(page: Page, seq: int) -> None:
    wait_drawn(page, seq + 1)


def tab_to(page: Page, button: Locator, limit: int = 20) -> None:
    """Moves the focus with Tab until it is on ``button`` (the way a keyboard goes)."""
    for _ in range(limit):
        if button.evaluate("(b) => b === document.activeElement"):
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached {button}")


def describe(page: Page) -> dict[str, list[str]]:
    """The board in words: the description's key, its dialog's sections read by their headings
    and list items, then Escape."""
    page.keyboard.press("d")
    dialog = page.get_by_role("dialog", name=re.compile("the board in words"))
    expect(dialog).to_be_visible()
    out: dict[str, list[str]] = {}
    for section in dialog.get_by_role("heading", level=3).all():
        out[section.inner_text()] = []
    texts = dialog.evaluate("""(d) => [...d.querySelectorAll('h3')].map((h) =>
        [h.textContent, [...h.nextElementSibling.querySelectorAll('li')].map((li) => li.textContent)])""")
    out = {h: lines for h, lines in texts}
    page.keyboard.press("Escape")
    expect(dialog).to_have_count(0)
    return out


def test_a_screen_reader_seat_plays_a_whole_round_of_game_of_thrones_by_keyboard(
        browser: Browser, server: ServerProcess) -> None:
    with contextlib.ExitStack() as stack:
        play_a_round(browser, server, stack)


def play_a_round(browser: Browser, server: ServerProcess, stack: contextlib.ExitStack) -> None:
    started = time.monotonic()
    api = httpx.Client(base_url=server.base, timeout=30)
    table = Table(api, "game_of_thrones", NAMES)
    houses = table.view(0)["houses"]
    me, baratheon = houses.index("stark"), houses.index("baratheon")
    players = {p["seat"]: p["name"] for p in table.summary()["players"]}
    sock = stack.enter_context(ws_client.connect(f"{server.base.replace('http', 'ws')}/ws/seats/{table.by_seat[me]}",
                                                 max_size=2**22))
    others = Others(api, table, sock, baratheon)
    others.drain(table.summary()["seq"])

    page = browser.new_context(**context_args("laptop")).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if "Content-Security-Policy" in m.text else None)
    page.goto(server.base + table.seat_url(me))
    opened = table.summary()["seq"]
    wait_drawn(page, opened)
    page.evaluate(HEAR_JS)

    def others_play_until_mine() -> None:
        while True:
            awaited = table.awaiting()
            rest = [s for s in awaited if s != me]
            if not rest:
                return
            others.play(rest[0])

    # -- planning: the others place theirs (face down), then Stark from the list of its areas
    others_play_until_mine()
    wait_drawn(page, table.summary()["seq"])
    mine = page.get_by_role("region", name="Your areas")
    expect(mine.get_by_role("button")).to_have_count(3)
    words = describe(page)
    # the others' orders lie face down: where, and whose, never which
    assert any("Lannister order face down" in line for line in words["Lannister's areas: 4"]), words
    others_said = [line for h, lines in words.items() if h.endswith("areas: 4") for line in lines]
    assert not any(" order " in line and "face down" not in line for line in others_said), others_said
    assert any(line.startswith(f"Stark ({players[me]}) (you): 5 Power tokens") for line in words["Houses"]), words
    # Tab from the map goes to the areas that may be chosen now: Stark's three, not all 58
    page.get_by_label(re.compile(r"^The map: ")).focus()
    reached = []
    for _ in range(3):
        page.keyboard.press("Tab")
        reached.append(page.evaluate("document.activeElement.getAttribute('aria-label')"))
    assert sorted(r.split(";")[0] for r in reached) == sorted(STARK_ORDERS), reached
    assert all(r.endswith("you may choose it now") for r in reached), reached
    first = True
    for area, order in STARK_ORDERS.items():
        button = mine.get_by_role("button", name=re.compile(f"^{re.escape(area)}, .*: no order yet$"))
        if first:
            press(page, button)
            first = False
        else:  # the focus went on to this area by itself, after the order before
            expect(button).to_be_focused()
            page.keyboard.press("Enter")
        dialog = page.get_by_role("dialog", name=area)
        expect(dialog).to_be_visible()
        want = dialog.get_by_role("button", name=f"Place {order} on {area}")
        expect(dialog.get_by_role("button").first).to_be_attached()
        tab_to(page, want)
        if area == "White Harbor":  # the popover open: axe-core finds nothing serious
            found = axe(page)
            assert not found, json.dumps(found)[:2000]
        seq = drawn(page)
        page.keyboard.press("Enter")
        sent(page, seq)
        placed = re.compile(f"^{re.escape(area)}, .*: {re.escape(order)}$")
        expect(mine.get_by_role("button", name=placed)).to_be_visible()
    # the last order placed, the focus is on Ready
    ready = choices(page).get_by_role("button", name="Ready")
    expect(ready).to_be_focused()
    own = page.get_by_role("button", name=re.compile(r"^The Shivering Sea; sea; held by Stark; ship; order: March \+1"))
    expect(own).to_have_attribute("aria-label", re.compile(r"\(face down to the others\)"))
    seq = drawn(page)
    page.keyboard.press("Enter")
    sent(page, seq)

    # -- the rest of the round: the others through the API, Stark by keyboard at each decision
    fought = False
    said_at_battle: list[str] = []
    for _ in range(200):
        summary = table.summary()
        view = table.view(me)
        if view["round"] == 2 and view["phase"] == "planning":
            break
        awaited = summary["awaiting"]
        if me not in awaited:
            others.play(awaited[0])
            continue
        seq = summary["seq"]
        wait_drawn(page, seq)
        others.drain(seq)
        bar = choices(page)
        prompt = page.get_by_role("region", name="Your move").inner_text()
        if "Choose a house card" in prompt:
            fought = True
            # the cards, with their texts, stay in the panel of the moment (the bar holds answers);
            # each is named "Play Eddard Stark, strength 4. …": the strongest is played
            moment = page.get_by_role("region", name="This moment of the game")
            expect(moment.get_by_role("button", name=re.compile(r"^Play .*, strength \d")).first).to_be_visible()
            hand = re.findall(r'button "(Play .*?, strength (\d))', moment.aria_snapshot())
            assert len(hand) == 7, hand  # the round's first battle: the whole hand
            best = max(hand, key=lambda h: int(h[1]))[0]
            words = describe(page)
            battle = next(h for h in words if h.startswith("Battle for"))
            assert battle == "Battle for The Narrow Sea", words.keys()
            said_at_battle = words[battle]
            found = axe(page)
            assert not found, json.dumps(found)[:2000]
            press(page, moment.get_by_role("button", name=re.compile("^" + re.escape(best))))
        elif "Resolve one of your Raid orders" in prompt:
            press(page, bar.get_by_role("button", name="Raid from White Harbor"))
            # the raid has nothing next to it to take: it is removed
            gone = bar.get_by_role("button", name="Remove the raid in White Harbor")
            expect(gone).to_be_focused()
            page.keyboard.press("Enter")
        elif "Choose which March order" in prompt:
            press(page, bar.get_by_role("button", name="March in The Shivering Sea"))
        elif "Move units one by one" in prompt:
            step = bar.get_by_role("button", name="March from The Shivering Sea to The Narrow Sea")
            if step.count():
                sea = page.get_by_role("button", name=re.compile(r"^The Narrow Sea;"))
                expect(sea).to_have_attribute("aria-label", re.compile(r"held by Baratheon; ship, ship"))
                press(page, step)
            else:
                press(page, bar.get_by_role("button", name="End the march", exact=True))
        elif "Valyrian Steel Blade" in prompt:
            press(page, bar.get_by_role("button", name="Use the blade"))
        elif "Resolve one of your Consolidate Power" in prompt:
            press(page, bar.get_by_role("button", name="Consolidate in Winterfell"))
        elif bar.get_by_role("button", name=re.compile(r"^Bid \d+ Power")).count():
            bids = bar.get_by_role("button", name=re.compile(r"^Bid \d+ Power"))
            moment = describe(page)["The moment"]
            assert any(line.startswith("Bidding: ") and "Stark is deciding" in line for line in moment), moment
            press(page, bids.nth(min(1, bids.count() - 1)))
        elif bar.get_by_role("button", name="End mustering").count():
            press(page, bar.get_by_role("button", name="End mustering"))
        else:  # any other decision (a retreat, a Westeros card's choice): its first choice
            press(page, bar.get_by_role("button").filter(has_not_text="Back to all areas").first)
        wait_drawn(page, seq + 1)
    else:
        raise AssertionError("the round never ended")
    assert fought, "Stark never fought"
    assert said_at_battle and "Baratheon" in " ".join(said_at_battle), said_at_battle

    # -- what was heard: each of the others' moves, once, in its log's words; Stark's own turns
    wait_drawn(page, table.summary()["seq"])
    others.drain(table.summary()["seq"])
    page.wait_for_timeout(300)
    said = heard(page)
    # a line said as often as the log has it since the page opened (a bid's "has bid" comes once
    # per bidding, each said once)
    logged = Counter(line for seq, lines in others.lines.items() if seq > opened for line in lines)
    missing, silent, spoken = [], [], 0
    for seat, new, move in others.moves:
        lines = others.lines.get(new, [])
        # an order placed lies face down: the log says nothing of it until "ready" and the reveal;
        # a march is told once, whole, when it ends (the March chosen and each unit's step before)
        if not lines and move["type"] not in ("order", "march", "move"):
            silent.append((seat, move))
        if move["type"] == "end_march":
            assert any(" marches " in line for line in lines), lines
        for line in lines:
            spoken += 1
            if said.count(line) != logged[line]:
                missing.append((seat, move, line, said.count(line), logged[line]))
    assert not silent, f"moves of the others the log never told: {silent}"
    assert not missing, f"lines of the others' moves not said once per time logged: {missing[:10]}"
    assert spoken >= 5, spoken  # two "ready", the Raven, Baratheon's march, its house card at least
    stark, bara = f"Stark ({players[me]})", f"Baratheon ({players[baratheon]})"
    assert f"{stark} attacks {bara} in The Narrow Sea with 1 ship" in said, said
    outcome = re.compile(rf"{re.escape(stark)} \d+ against {re.escape(bara)} \d+: .* wins")
    assert any(outcome.fullmatch(line) for line in said), said
    # the seat's own turns, assertively, with the prompt of each decision
    told = turns(page)
    # (which March to resolve is asked only while there is a choice)
    for words in ("Place an order on every area", "Resolve one of your Raid orders", "Move units one by one",
                  "Choose a house card", "Resolve one of your Consolidate Power orders"):
        assert any(t.startswith("Your turn — " + words) for t in told), (words, told)
    found = axe(page)
    assert not found, json.dumps(found)[:2000]
    assert not errors, errors
    page.context.close()
    print(f"{len(PRESSES)} choices by Tab and Enter, {sum(PRESSES)} keys; "
          f"{len(others.moves)} moves by the others, {spoken} lines heard of them; {len(said)} said in all; "
          f"{time.monotonic() - started:.0f} s")


def test_the_seats_turn_is_said_once_through_its_orders_and_again_at_a_refusal_and_a_new_decision(
        browser: Browser, server: ServerProcess) -> None:
    """Planning is one decision, however many orders it takes: Stark's turn is said (assertively)
    once, not again after each order placed, nor when the others place theirs; it is said again
    when a move is refused, and when a new decision is Stark's after the planning."""
    with contextlib.ExitStack() as stack:
        api = stack.enter_context(httpx.Client(base_url=server.base, timeout=30))
        table = Table(api, "game_of_thrones", NAMES)
        me = table.view(0)["houses"].index("stark")
        sock = stack.enter_context(ws_client.connect(
            f"{server.base.replace('http', 'ws')}/ws/seats/{table.by_seat[me]}", max_size=2**22))
        others = Others(api, table, sock, table.view(0)["houses"].index("baratheon"))
        others.drain(table.summary()["seq"])
        page = browser.new_context(**context_args("laptop")).new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(server.base + table.seat_url(me))
        wait_drawn(page, table.summary()["seq"])
        page.evaluate(HEAR_JS)
        # the others place their orders and are ready: the first line heard brings the live
        # regions, which say Stark's turn then, once
        while rest := [s for s in table.awaiting() if s != me]:
            others.play(rest[0])
        page.wait_for_function("() => window.heard.some((l) => l.endsWith(' is ready'))")
        page.wait_for_function("() => window.turns.length > 0")
        page.wait_for_timeout(300)
        assert turns(page) == ["Your turn — Place an order on every area holding your units, then declare "
                               "yourself ready"], turns(page)
        mine = page.get_by_role("region", name="Your areas")
        for n, (area, order) in enumerate(STARK_ORDERS.items()):
            button = mine.get_by_role("button", name=re.compile(f"^{re.escape(area)}, .*: no order yet$"))
            if n == 0:
                press(page, button)
            else:  # the focus went on to the next area by itself
                expect(button).to_be_focused()
                page.keyboard.press("Enter")
            dialog = page.get_by_role("dialog", name=area)
            want = dialog.get_by_role("button", name=f"Place {order} on {area}")
            expect(want).to_be_attached()
            tab_to(page, want)
            seq = drawn(page)
            page.keyboard.press("Enter")
            sent(page, seq)
            expect(mine.get_by_role("button", name=re.compile(f"^{re.escape(area)}, .*: {re.escape(order)}$"))) \
                .to_be_visible()
            page.wait_for_timeout(300)  # time enough for the turn to be said again, were it said
            assert len(turns(page)) == 1, f"said again after {n + 1} orders placed: {turns(page)}"
        # a refusal (an order on an area Stark does not hold): the decision is open again, and said
        before = len(heard(page))
        page.evaluate("""() => import('/static/js/table.js').then((m) =>
            m.sendMove({ type: 'order', area: 'dorne', order: 'raid' }))""")
        page.wait_for_function("() => window.turns.length > 1")
        page.wait_for_timeout(300)
        assert turns(page)[1:] == [turns(page)[0]], turns(page)
        assert len(heard(page)) == before, heard(page)[before:]  # a refusal is not a move of the log
        # ready: the planning ends; the next decision that is Stark's is said, once
        press(page, choices(page).get_by_role("button", name="Ready"))
        for _ in range(60):
            awaited = table.awaiting()
            if me in awaited:
                break
            others.play(awaited[0])
        else:
            raise AssertionError("Stark was never awaited after the planning")
        wait_drawn(page, table.summary()["seq"])
        page.wait_for_function("() => window.turns.length > 2")
        page.wait_for_timeout(300)
        told = turns(page)
        assert len(told) == 3 and told[2].startswith("Your turn — ") and "Place an order" not in told[2], told
        assert not errors, errors
        page.context.close()
