"""The kit's card zoom, the same for London, Tower of London and Towers of Babylon: a long press
opens it whatever comes first (the kit's timer, the browser's own long press, the finger lifting
before the zoom's module has arrived) and it stays open after the lift; a tap elsewhere closes it;
the press chooses nothing; a hovered zoom lets the pointer through and never covers its card."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page, Route

from tests.browser import scenes
from tests.browser.look import context_args
from tests.browser.test_towers_of_babylon import api_table, choose_decks
from tests.support.server import ServerProcess, sqlite_server

pytestmark = pytest.mark.e2e

ENGINES = "engines.london:ENGINE,engines.tower_of_london:ENGINE,engines.towers_of_babylon:ENGINE"
# each game: its hand's cards, and the module that draws its zoom (fetched on first use)
GAMES = {
    "london": ("#board .lon-hand .lc", "**/games/london/zoom.js"),
    "tower_of_london": ("#board .tol-hand .tol-card", "**/games/tower_of_london/later.js"),
    "towers_of_babylon": ("#board .tob-hand .tc", "**/games/towers_of_babylon/help.js"),
}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    with sqlite_server(tmp_path_factory.mktemp("zoom"), ENGINES) as srv:
        yield srv


@pytest.fixture(scope="module")
def paths(server: ServerProcess) -> dict[str, str]:
    """A seat whose hand is on the board, for each game."""
    api = httpx.Client(base_url=server.base, timeout=30)
    out = {}
    lon = scenes.london(api)
    out["london"] = lon.seat_url(lon.awaiting()[0])
    tol = scenes.tower(api)
    out["tower_of_london"] = tol.seat_url(0)
    game = api_table(server)
    choose_decks(game)
    for seat in (0, 1):
        seq, _ = game.moves(seat)
        game.play(seat, seq, {"type": "mulligan", "cards": []})
    out["towers_of_babylon"] = f"/seat/{game.token[0]}"
    return out


def open_page(page: Page, base: str, path: str) -> None:
    page.goto(base + path)
    page.wait_for_function("() => window.parlourMetrics && window.parlourMetrics.firstView !== null")
    page.wait_for_timeout(300)


ZOOM_JS = """(sel) => {
  const z = document.querySelector('.kit-zoom:not([hidden])');
  const card = [...document.querySelectorAll(sel)].find((c) => c.getBoundingClientRect().height);
  if (!z || !card) return { shown: false };
  const a = card.getBoundingClientRect();
  const b = z.getBoundingClientRect();
  const over = Math.min(a.right, b.right) - Math.max(a.left, b.left) > 1
    && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 1;
  return { shown: true, coversCard: over, text: z.textContent.trim().slice(0, 40) };
}"""


def shown_within(page: Page, selector: str, within_ms: int = 6000) -> dict[str, Any]:
    found: dict[str, Any] = page.evaluate(ZOOM_JS, selector)
    for _ in range(within_ms // 100):
        if found["shown"]:
            break
        page.wait_for_timeout(100)
        found = page.evaluate(ZOOM_JS, selector)
    return found


def seq(page: Page) -> str:
    # (London and Towers of Babylon keep it on the board, Tower of London on an element of its own)
    return str(page.evaluate(
        "() => (document.querySelector('#board [data-seq]') || document.getElementById('board')).dataset.seq"))


def press_centre(page: Page, selector: str) -> tuple[float, float]:
    card = page.locator(selector).first
    card.scroll_into_view_if_needed()
    page.wait_for_timeout(200)
    box = card.bounding_box()
    assert box
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


@pytest.mark.parametrize("game", list(GAMES))
def test_a_long_press_lifted_before_the_zooms_module_arrives_opens_the_zoom_and_it_stays(
        browser: Browser, server: ServerProcess, paths: dict[str, str], game: str) -> None:
    """The zoom's module is held back until after the finger has lifted (a slow network): the
    press was long (700 ms), so the zoom opens when its module comes, stays open, chooses nothing,
    and a tap elsewhere closes it."""
    selector, module = GAMES[game]
    ctx = browser.new_context(**context_args("phone"))
    page = ctx.new_page()
    held: list[Route] = []
    let_through = False

    def hold(route: Route) -> None:
        if let_through:
            route.continue_()
        else:
            held.append(route)
    page.route(module, hold)
    open_page(page, server.base, paths[game])
    before = seq(page)
    x, y = press_centre(page, selector)
    client = ctx.new_cdp_session(page)
    client.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
    page.wait_for_timeout(700)
    client.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    page.wait_for_timeout(300)
    assert not page.evaluate(ZOOM_JS, selector)["shown"], "a zoom shown before its module came"
    let_through = True
    for route in held:
        route.continue_()
    found = {"opened": shown_within(page, selector)}
    page.wait_for_timeout(500)
    found["stays"] = page.evaluate(ZOOM_JS, selector)
    assert found["opened"]["shown"] and found["stays"]["shown"], found
    assert not found["stays"]["coversCard"], found
    assert seq(page) == before, "the long press chose the card"
    page.touchscreen.tap(5, 150)
    for _ in range(20):
        if not page.evaluate(ZOOM_JS, selector)["shown"]:
            break
        page.wait_for_timeout(100)
    assert not page.evaluate(ZOOM_JS, selector)["shown"], "a tap elsewhere left the zoom open"
    ctx.close()


@pytest.mark.parametrize("game", list(GAMES))
def test_a_long_press_opens_the_zoom_when_the_browsers_own_long_press_comes_first(
        browser: Browser, server: ServerProcess, paths: dict[str, str], game: str) -> None:
    """The page is busy when the finger goes down (its scripts run for a second): the browser's own
    long-press gesture reaches the page before the kit's timer can run. Either way the press is a
    long one: the zoom opens, no context menu is left to the browser, and it stays after the lift."""
    selector, _ = GAMES[game]
    ctx = browser.new_context(**context_args("phone"))
    page = ctx.new_page()
    open_page(page, server.base, paths[game])
    page.evaluate("() => { window.menus = 0; document.addEventListener('contextmenu', (e) => {"
                  " if (!e.defaultPrevented) menus++; }); }")
    before = seq(page)
    x, y = press_centre(page, selector)
    client = ctx.new_cdp_session(page)
    client.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
    page.evaluate("() => { const end = performance.now() + 1200; while (performance.now() < end) { /* busy */ } }")
    page.wait_for_timeout(300)
    found = {"opened": shown_within(page, selector)}
    client.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    page.wait_for_timeout(400)
    found["stays"] = page.evaluate(ZOOM_JS, selector)
    menus = page.evaluate("() => window.menus")
    after = seq(page)
    ctx.close()
    assert found["opened"]["shown"] and found["stays"]["shown"], found
    assert menus == 0, f"{menus} context menu(s) left to the browser"
    assert after == before, "the long press chose the card"


@pytest.mark.parametrize("game", list(GAMES))
def test_a_hovered_zoom_lets_the_pointer_through_and_never_covers_its_card(
        browser: Browser, server: ServerProcess, paths: dict[str, str], game: str) -> None:
    """On a laptop, a card hovered shows its zoom beside it: what lies under the pointer is still
    the card (the zoom takes no pointer), the zoom does not cover the card, and the pointer leaving
    the card closes it."""
    selector, _ = GAMES[game]
    ctx = browser.new_context(**context_args("laptop"))
    page = ctx.new_page()
    open_page(page, server.base, paths[game])
    card = page.locator(selector).first
    card.scroll_into_view_if_needed()
    box = card.bounding_box()
    assert box
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.mouse.move(x, y)
    found = shown_within(page, selector)
    under = page.evaluate("([x, y, s]) => !!document.elementFromPoint(x, y)?.closest(s)", [x, y, selector])
    page.mouse.move(2, 2)
    page.wait_for_timeout(300)
    after = page.evaluate(ZOOM_JS, selector)
    ctx.close()
    assert found["shown"], found
    assert not found["coversCard"], found
    assert under, "the zoom took the pointer from its card"
    assert not after["shown"], "the pointer left the card and the zoom stayed"
