"""A Game of Thrones at the table (issue #27): the map first, pieces you can read, and every
decision where the player looks — measured with bounding boxes in a real Chromium, on tables
brought to a moment through the API: the opening (planning), a battle (house cards), a Westeros
phase (a bidding). Sizes: a 390×844 phone, a 1366×768 laptop, a 1920×1080 screen.

* The map's box takes at least 60 % of a 1366×768 and a 1920×1080 window; the opening and a
  spectator show the whole of Westeros, at 1920×1080 with every area's name at least 11 px high.
* On a phone the map comes first and the seat's areas are in its visible part; units and order
  tokens are drawn at least 24 px there.
* An order is placed from a popover at the tapped area (in view, greyed orders with their
  reason); once every area has one the panel says so and Ready is in the action bar; one tap on
  a partly visible area opens it (the map does not move between press and release).
* At a battle the combat panel shows both sides' house cards with their texts and the running
  totals, in view on a phone; in a Westeros phase the three cards drawn and the bid buttons are in
  view, and afterwards the wildling attack's two sides.
* Wheel, drag, pinch and keys zoom and pan; an area named in the log lights up on the map; the
  last move stays marked. No sideways scrolling, touch targets of 24 px, axe-core and the
  site's Content-Security-Policy clean. Screenshots: artifacts/game_of_thrones/table-*.png."""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.got_look import inside, measure, rect, small_targets
from tests.browser.look import axe, context_args, settle
from tests.browser.scenes import Table
from tests.browser.test_game_of_thrones import Policy
from tests.support.server import ServerProcess, sqlite_server

pytestmark = pytest.mark.e2e

SHOTS = Path(__file__).resolve().parents[2] / "artifacts" / "game_of_thrones"
NAMES = ("Ada", "Bea", "Cyril")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    with sqlite_server(tmp_path_factory.mktemp("got-table"), "engines.game_of_thrones:ENGINE") as srv:
        yield srv


@pytest.fixture(scope="module")
def api(server: ServerProcess) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=server.base, timeout=30) as c:
        yield c


def shot(page: Page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"table-{name}.png"), scale="css")


# -- tables brought to a moment ------------------------------------------------------------

def play_until(api: httpx.Client, at: Callable[[Table, int, dict[str, Any]], bool], limit: int = 1500,
               tries: int = 4) -> tuple[Table, int]:
    """A fresh three-seat table played through the API by the attacking policy until ``at``
    holds for an awaited seat's view (another table when a game never gets there)."""
    for _ in range(tries):
        table = Table(api, "game_of_thrones", NAMES)
        policy = Policy(api.get(f"/api/tables/{table.code}/static").json()["adjacency"])
        for _ in range(limit):
            awaited = table.awaiting()
            if not awaited:
                break
            for seat in awaited:
                view = table.view(seat)
                if at(table, seat, view):
                    return table, seat
            seat = awaited[0]
            view = table.view(seat)
            seq, legal = table.legal(seat)
            table.play(seat, policy.pick(seat, legal, view), seq)
    raise AssertionError("the moment was never reached")


def at_cards(table: Table, seat: int, view: dict[str, Any]) -> bool:
    return bool(view["prompt"] and view["prompt"]["kind"] == "cards" and view["combat"]["defender"] is not None)


def at_bid(table: Table, seat: int, view: dict[str, Any]) -> bool:
    return bool(view["prompt"] and view["prompt"]["kind"] == "bid" and len(view.get("westeros_cards") or []) == 3)


@pytest.fixture(scope="module")
def combat(api: httpx.Client) -> tuple[Table, int]:
    return play_until(api, at_cards)


@pytest.fixture(scope="module")
def bidding(api: httpx.Client) -> tuple[Table, int]:
    return play_until(api, at_bid)


# -- looking at a page ---------------------------------------------------------------------

def open_page(browser: Browser, server: ServerProcess, url: str, size: str, seq: int) -> Page:
    page = browser.new_context(**context_args(size)).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors  # type: ignore[attr-defined]
    page.goto(server.base + url)
    page.wait_for_function("s => +(document.getElementById('board').dataset.seq || -1) >= s", arg=seq, timeout=20000)
    page.wait_for_timeout(150)
    settle(page)
    return page


def close(page: Page) -> None:
    errors = page.errors  # type: ignore[attr-defined]
    assert not errors, errors
    page.context.close()


def check_frame(page: Page) -> None:
    """No sideways scrolling, no touch target under 24 px, the action bar in the window,
    axe-core finds nothing serious."""
    m = measure(page)
    assert m["overflow"] <= 0, f"the page scrolls sideways by {m['overflow']} px"
    small = small_targets(page)
    assert not small, f"touch targets under 24 px: {small}"
    expect(page.locator("#action-bar")).to_be_in_viewport()
    found = axe(page)
    assert not found, found


# -- the map first -------------------------------------------------------------------------

@pytest.mark.parametrize("size", ["laptop", "wide"])
def test_the_map_takes_sixty_percent_of_a_wide_window_and_the_opening_shows_all_of_westeros(
        browser: Browser, server: ServerProcess, api: httpx.Client, size: str) -> None:
    """At the opening a seat and a spectator see the map's box over at least 60 % of the window,
    zoomed out to the whole of Westeros, all of it inside the visible part of the box; at
    1920×1080 every area's name is drawn at least 11 px high."""
    table = Table(api, "game_of_thrones", NAMES)
    seq = table.summary()["seq"]
    for who, url in (("seat", table.seat_url(0)), ("spectator", table.watch_url())):
        page = open_page(browser, server, url, size, seq)
        m = measure(page)
        print(size, who, f"map share {m['share']:.3f}, smallest name {m['minName']:.1f} px")
        assert m["share"] >= 0.60, f"{size} {who}: the map takes {m['share']:.1%} of the window"
        assert m["zoom"] == 1, f"{size} {who}: the opening is zoomed to {m['zoom']}"
        assert inside(m["world"], m["visible"]), f"{size} {who}: Westeros {m['world']} not in view {m['visible']}"
        if size == "wide":
            assert m["minName"] >= 11, f"{who}: an area's name is {m['minName']:.1f} px high"
            shot(page, f"opening-{who}-1920")
        check_frame(page)
        close(page)


def test_a_phone_shows_the_map_first_with_the_seats_home_and_its_pieces_readable(
        browser: Browser, server: ServerProcess, api: httpx.Client) -> None:
    """On a 390×844 phone the map's box starts in the first screen and takes most of it; the
    seat's home (an area it must give an order) is inside the visible part of the map, its units
    and garrison drawn at least 24 px; the units are four different figures."""
    table = Table(api, "game_of_thrones", NAMES)
    page = open_page(browser, server, table.seat_url(0), "phone", table.summary()["seq"])
    m = measure(page)
    assert m["visible"][1] < 844 / 3, f"the map starts at {m['visible'][1]} px"
    assert m["share"] >= 0.5, f"the map takes {m['share']:.1%} of a phone's screen"
    home = table.view(0)["houses"][0]
    fixed = api.get(f"/api/tables/{table.code}/static").json()
    capital = fixed["house_info"][home]["home"]
    expect(page.locator(f'#board .a.hl[data-area="{capital}"]')).to_have_count(1)
    for part in (f'#board [data-at="{capital}"] .unit', f'#board [data-at="{capital}"] .garrison'):
        box = rect(page, part)
        assert inside(box, m["visible"]), f"{part} {box} is not in the visible map {m['visible']}"
        w, h = box[2] - box[0], box[3] - box[1]
        assert max(w, h) >= 24, f"{part} is drawn {w:.1f}×{h:.1f} px"
    garrison = next(a["garrison"] for a in table.view(0)["areas"] if a["id"] == capital)
    expect(page.locator(f'#board [data-at="{capital}"] .garrison text')).to_have_text(str(garrison))
    figures = page.locator("#board .unit .fig").evaluate_all(
        "(els) => [...new Set(els.map((e) => e.getAttribute('d')))].length")
    assert figures >= 3, "footmen, knights and ships are drawn alike"
    shot(page, "opening-phone")
    check_frame(page)
    close(page)


# -- decisions where you look ----------------------------------------------------------------

def order_areas(table: Table, seat: int) -> list[str]:
    _, legal = table.legal(seat)
    return list(dict.fromkeys(m["area"] for m in legal if m["type"] == "order"))


HIT = """([x, y]) => { const t = document.elementFromPoint(x, y);
  const a = t && t.closest && t.closest("[data-area]"); return a ? a.dataset.area : null; }"""


def tap_area(page: Page, area: str, phone: bool) -> bool:
    """Taps (or clicks) the area where its pieces stand, once the point is still (the map may
    settle after a move) and the area is what lies under it: False (nothing tapped) when the
    pieces' middle is over another area's shape (a port drawn over its sea)."""
    spot = None
    for _ in range(20):
        box = rect(page, f'#board [data-at="{area}"] .unit')
        now = ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)
        if now == spot:
            break
        spot = now
        page.wait_for_timeout(100)
    assert spot is not None
    if page.evaluate(HIT, list(spot)) != area:
        return False
    if phone:
        page.touchscreen.tap(*spot)
    else:
        page.mouse.click(*spot)
    return True


@pytest.mark.parametrize("size", ["phone", "wide"])
def test_orders_are_placed_from_a_popover_at_the_area_and_ready_waits_in_the_action_bar(
        browser: Browser, server: ServerProcess, api: httpx.Client, size: str) -> None:
    """A tap on an area opens its orders in a popover (a sheet above the bar on a phone) wholly
    in the window, next to the area on a wide screen; the star orders beyond the King's Court's
    allowance are greyed with that reason; a chosen order lies on the area at 24 px or more (a
    phone); once every area has one the panel says so and Ready, enabled, is in the action bar."""
    table = Table(api, "game_of_thrones", NAMES)
    seat = 0
    view = table.view(seat)
    allowed = {0: 3, 1: 2, 2: 1}[view["tracks"]["kings_court"].index(seat)]
    page = open_page(browser, server, table.seat_url(seat), size, table.summary()["seq"])
    phone = size == "phone"
    areas = order_areas(table, seat)
    stars_used = 0
    for i, area in enumerate(areas):
        seq = table.summary()["seq"]
        # the area reached on the map: its pieces in the visible part (else by keyboard: Tab
        # brings a focused area into view)
        m = measure(page)
        if not inside(rect(page, f'#board [data-at="{area}"] .unit'), m["visible"]) or not tap_area(page, area, phone):
            page.locator(f'#board [data-area="{area}"]').focus()
            page.keyboard.press("Enter")
        pop = page.locator(".got-pop")
        expect(pop).to_be_visible()
        expect(pop).to_have_attribute("data-pop", area)
        box = rect(page, ".got-pop")
        window = context_args(size)["viewport"]
        assert inside(box, [0, 0, window["width"], window["height"]]), box
        bar = rect(page, "#action-bar")
        assert box[3] <= bar[1] + 1 or box[1] >= bar[3] - 1, f"the popover {box} lies over the action bar {bar}"
        if not phone:
            spot = rect(page, f'#board [data-at="{area}"] .unit')
            gap = max(box[0] - spot[2], spot[0] - box[2], box[1] - spot[3], spot[1] - box[3], 0)
            assert gap < 80, f"the popover opens {gap:.0f} px from {area}"
        if i == 0:
            shot(page, f"popover-{size}")
            check_frame(page)
        if stars_used >= allowed:
            greyed = pop.locator("button.order-choice:disabled small", has_text="King's Court allows")
            expect(greyed.first).to_be_visible()
        want = "march-plus-one" if stars_used < allowed and i == 0 else "support"
        button = pop.locator(f'button[data-move*=\'"order":"{want}"\']')
        if not button.count() or button.first.is_disabled():
            button = pop.locator("button[data-move]:not(:disabled)")
        if "★" in (button.first.text_content() or ""):
            stars_used += 1
        button.first.click()
        page.wait_for_function("s => +document.getElementById('board').dataset.seq > s", arg=seq)
        expect(page.locator(".got-pop")).to_have_count(0)
        token = rect(page, f'#board [data-at="{area}"] .order')
        if phone:
            side = min(token[2] - token[0], token[3] - token[1])
            assert side >= 24, f"an order token is {side:.1f} px"
    expect(page.locator("#board .got-act .all-placed")).to_be_visible()
    ready = page.locator("#action-bar button[data-move*='\"ready\"']")
    expect(ready).to_be_enabled()
    expect(ready).to_be_in_viewport()
    shot(page, f"all-placed-{size}")
    close(page)


def test_one_tap_on_a_partly_visible_area_opens_its_orders_and_the_map_does_not_move(
        browser: Browser, server: ServerProcess, api: httpx.Client) -> None:
    """On a phone, with an area of the seat's cut by the map's edge, a single tap on its visible
    part opens its orders: the map's transform is the same at the press and after the release."""
    table = Table(api, "game_of_thrones", NAMES)
    page = open_page(browser, server, table.seat_url(0), "phone", table.summary()["seq"])
    area = order_areas(table, 0)[0]
    m = measure(page)
    # the map panned (by its arrow keys) until the area's outline crosses an edge of the visible map
    left, right = m["visible"][0], m["visible"][2]
    page.locator(".got-map").focus()
    key, edge = "ArrowRight", None
    for _ in range(40):
        b = rect(page, f'#board [data-area="{area}"]')
        if b[0] < left - 10 and b[2] > left + 40:
            edge = left
            break
        if b[2] > right + 10 and b[0] < right - 40:
            edge = right
            break
        page.keyboard.press(key)
        if rect(page, f'#board [data-area="{area}"]') == b:  # the map's edge: the other way
            key = "ArrowLeft" if key == "ArrowRight" else "ArrowRight"
    assert edge is not None, "the area is never cut by the map's edge"
    before = page.locator("#board .world").get_attribute("transform")
    # a point of the area just inside the visible map, by the edge that cuts it
    x, y = page.evaluate("""([id, edge, top, bottom]) => {
        const n = document.querySelector(`#board [data-area="${id}"]`);
        const dir = edge < innerWidth / 2 ? 1 : -1;
        for (let y = top + 10; y < bottom - 10; y += 6) for (let d = 6; d < 80; d += 6) {
          const x = edge + dir * d; if (document.elementFromPoint(x, y) === n) return [x, y]; }
        return [0, 0]; }""", [area, edge, m["visible"][1], m["visible"][3]])
    page.evaluate("() => { window.__moved = []; document.querySelector('.got-map').addEventListener('pointerup', () =>"
                  " window.__moved.push(document.querySelector('#board .world').getAttribute('transform')),"
                  " { once: true }); }")
    page.touchscreen.tap(x, y)
    expect(page.locator(f'.got-pop[data-pop="{area}"]')).to_be_visible()
    assert page.evaluate("window.__moved") == [before], "the map moved between the press and the release"
    assert page.locator("#board .world").get_attribute("transform") == before
    close(page)


def test_the_combat_panel_shows_both_sides_house_cards_and_totals_in_view(
        browser: Browser, server: ServerProcess, combat: tuple[Table, int]) -> None:
    """At a battle, the seat choosing its house card sees (phone and 1920×1080) the combat panel
    in the window: each side's strength so far, the opponent's cards in hand with their texts,
    its own cards to choose from — the first of them wholly in the window on the phone — and the
    battle's area in the visible part of the map."""
    table, seat = combat
    view = table.view(seat)
    c = view["combat"]
    other = c["defender"] if seat == c["attacker"] else c["attacker"]
    fixed = table.api.get(f"/api/tables/{table.code}/static").json()
    for size in ("phone", "wide"):
        page = open_page(browser, server, table.seat_url(seat), size, table.summary()["seq"])
        panel = page.locator("#board .got-combat")
        expect(panel).to_be_visible()
        expect(panel.locator("h3")).to_be_in_viewport()
        expect(panel.locator("[data-side=attacker] tr[data-part=total] td")).to_have_count(1)
        expect(panel.locator("[data-side=defender] tr[data-part=total] td")).to_have_count(1)
        theirs = page.locator(f'#board .got-combat-hands [data-hand-of="{other}"] .hcard')
        expect(theirs).to_have_count(len(view["hands"][str(other)]))
        first = view["hands"][str(other)][0]
        expect(page.locator(f'#board [data-hand-of="{other}"] [data-card="{first}"] .hc-text')).to_have_text(
            fixed["house_cards"][first]["text"])
        shot(page, f"combat-{size}")
        mine = page.locator("#board .got-act:not(.bar-shell) .hand button.hcard").first
        expect(mine).to_be_visible()
        if size == "phone":
            expect(mine).to_be_in_viewport(ratio=1)
            expect(page.locator(".got-dock")).to_have_class(re.compile(r"\bsheet\b"))
        m = measure(page)
        spot = rect(page, f'#board [data-area="{c["area"]}"]')
        v = m["visible"]
        assert spot[2] > v[0] and spot[0] < v[2] and spot[3] > v[1] and spot[1] < v[3], \
            f"the battle's area {spot} is outside the visible map {v}"
        if size == "wide":  # the battle's pieces beside the panel docked over the sea, not under it
            pieces, dock = rect(page, f'#board [data-at="{c["area"]}"] .unit'), rect(page, ".got-dock")
            assert pieces[2] <= dock[0], f"the battle's pieces {pieces} lie under the docked panel {dock}"
        shot(page, f"combat-{size}")
        check_frame(page)
        close(page)


def test_a_westeros_bidding_shows_the_three_cards_and_the_bids_in_view(
        browser: Browser, server: ServerProcess, bidding: tuple[Table, int]) -> None:
    """In a Westeros phase's bidding the three cards drawn are shown with their texts and the
    bid buttons are in the action bar, in the window (phone and 1920×1080); once every house has
    bid, the revealed bids show the Night's Watch's total against the wildlings."""
    table, seat = bidding
    view = table.view(seat)
    for size in ("phone", "wide"):
        page = open_page(browser, server, table.seat_url(seat), size, table.summary()["seq"])
        cards = page.locator("#board .got-westeros .wcard")
        expect(cards).to_have_count(3)
        for i in range(3):
            expect(cards.nth(i).locator("p")).not_to_be_empty()
        bid = page.locator("#action-bar button[data-move*='\"bid\"']").first
        expect(bid).to_be_in_viewport(ratio=1)
        if size == "phone":
            expect(page.locator("#board .got-westeros h3")).to_be_in_viewport()
        shot(page, f"westeros-{size}")
        check_frame(page)
        close(page)
    # every house bids (through the API), ties settled; the results then name both sides of a
    # wildling attack
    if view["prompt"].get("for") != "wildlings":
        return
    policy = Policy(table.api.get(f"/api/tables/{table.code}/static").json()["adjacency"])
    for _ in range(40):
        if any(r["track"] == "wildlings" for r in table.view(seat).get("bid_results") or []):
            break
        s = table.awaiting()[0]
        seq, legal = table.legal(s)
        table.play(s, policy.pick(s, legal, table.view(s)), seq)
    results = next(r for r in table.view(seat)["bid_results"] if r["track"] == "wildlings")
    page = open_page(browser, server, table.seat_url(seat), "wide", table.summary()["seq"])
    outcome = page.locator("#board .bid-results .wild-outcome")
    expect(outcome).to_contain_text("Night's Watch")
    expect(outcome).to_have_attribute("data-watch", str(sum(results["bids"].values())))
    for s, bid in results["bids"].items():
        expect(page.locator(f".bid-results tr[data-seat='{s}'] td[data-track='wildlings']")).to_contain_text(str(bid))
    shot(page, "wildling-bids")
    close(page)


# -- the map's controls, the log, the last move ------------------------------------------------

def test_wheel_drag_pinch_and_keys_zoom_and_pan_the_map(browser: Browser, server: ServerProcess,
                                                        api: httpx.Client) -> None:
    """The wheel zooms in at the pointer, a drag pans, the keys + − 0 zoom and show it all, and a
    two-finger pinch zooms (pointer events as a touch screen sends them)."""
    table = Table(api, "game_of_thrones", NAMES)
    page = open_page(browser, server, table.watch_url(), "wide", table.summary()["seq"])
    zoom = page.locator(".got-map")
    box = rect(page, ".got-map")
    cx, cy = (box[0] + box[2]) / 2 - 200, (box[1] + box[3]) / 2
    page.mouse.move(cx, cy)
    page.mouse.wheel(0, -300)
    expect(zoom).not_to_have_attribute("data-zoom", "1.00")
    before = page.locator("#board .world").get_attribute("transform")
    page.mouse.move(cx, cy)
    page.mouse.down()
    page.mouse.move(cx + 60, cy + 40, steps=5)
    page.mouse.up()
    assert page.locator("#board .world").get_attribute("transform") != before, "a drag did not pan"
    zoom.focus()
    page.keyboard.press("0")
    expect(zoom).to_have_attribute("data-zoom", "1.00")
    page.keyboard.press("+")
    assert float(zoom.get_attribute("data-zoom") or 1) > 1.2
    page.keyboard.press("0")
    page.evaluate("""([x, y]) => {
      const m = document.querySelector('.got-map');
      const ev = (type, id, px) => m.dispatchEvent(new PointerEvent(type,
        { pointerId: id, clientX: px, clientY: y, pointerType: 'touch', bubbles: true }));
      ev('pointerdown', 1, x - 20); ev('pointerdown', 2, x + 20);
      for (let d = 20; d <= 80; d += 10) { ev('pointermove', 1, x - d); ev('pointermove', 2, x + d); }
      ev('pointerup', 1, x - 80); ev('pointerup', 2, x + 80); }""", [cx, cy])
    assert float(zoom.get_attribute("data-zoom") or 1) > 2.5, "a pinch did not zoom"
    close(page)


def test_an_area_named_in_the_log_lights_up_on_the_map_and_the_last_move_stays_marked(
        browser: Browser, server: ServerProcess, combat: tuple[Table, int]) -> None:
    """A log line naming an area lights that area on the map while the pointer rests on it; a
    march seen by an open page leaves the areas it changed marked, with its arrow, until the
    next move that changes the map."""
    table, _ = combat
    page = open_page(browser, server, table.watch_url(), "wide", table.summary()["seq"])
    line = page.locator("#log li", has_text="Winterfell").first
    if not line.count():
        line = page.locator("#log li").filter(has_text="march").first
    line.scroll_into_view_if_needed()
    line.hover()
    expect(page.locator("#board .a.named").first).to_be_attached()
    named = page.locator("#board .a.named").evaluate_all(
        "(els) => els.map((e) => e.getAttribute('aria-label').split(';')[0])")
    text = line.text_content() or ""
    assert named and all(n in text for n in named), (named, text)
    page.mouse.move(5, 5)
    expect(page.locator("#board .a.named")).to_have_count(0)
    # the battle played out through the API (the attacking policy) until the map changes
    policy = Policy(table.api.get(f"/api/tables/{table.code}/static").json()["adjacency"])
    before = {a["id"]: (a.get("seat"), len(a.get("units") or [])) for a in table.view(0)["areas"]}
    for _ in range(200):
        now = {a["id"]: (a.get("seat"), len(a.get("units") or [])) for a in table.view(0)["areas"]}
        if now != before:
            break
        s = table.awaiting()[0]
        seq, legal = table.legal(s)
        table.play(s, policy.pick(s, legal, table.view(s)), seq)
        time.sleep(0.02)
    page.wait_for_function("s => +document.getElementById('board').dataset.seq >= s", arg=table.summary()["seq"])
    changed = sorted(k for k in now if now[k] != before[k])
    marked = sorted(page.locator("#board .a.changed").evaluate_all("(els) => els.map((e) => e.dataset.area)"))
    assert changed and set(changed) <= set(marked), (changed, marked)
    shot(page, "last-move")
    close(page)
