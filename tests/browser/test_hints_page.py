"""Hints at casual tables, in Chromium (app/features/hints.py, static/js/hints.js): the founder allows them
on the front page's form and the waiting room says so; the awaited seat's Hint button asks the
good bot and shows its weighing in the action bar with the best move marked among the choices;
the other seat's log says who asked; the hint goes when the table moves on; at the end, the
result counts each player's hints. At a laptop's and a phone's size, under the site's policy."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser import scenes
from tests.browser.look import axe, context_args
from tests.support.server import ServerProcess, sqlite_server

pytestmark = pytest.mark.e2e

SHOTS = Path(__file__).resolve().parents[2] / "artifacts" / "hints"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    with sqlite_server(tmp_path_factory.mktemp("hints"), "engines.london:ENGINE") as srv:
        yield srv


@pytest.fixture(scope="module")
def api(server: ServerProcess) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=server.base, timeout=30) as c:
        yield c


def hinted_table(api: httpx.Client) -> scenes.Table:
    """A started two-player London table founded with hints, driven like the scenes' tables."""
    founded = api.post("/api/tables", json={"game": "london", "name": "Ada", "hints": True}).json()
    bea = api.post(f"/api/tables/{founded['code']}/join", json={"name": "Bea"}).json()
    api.post(f"/api/seats/{founded['seat_token']}/start").raise_for_status()
    table = scenes.Table.__new__(scenes.Table)
    table.api, table.code, table.moves = api, founded["code"], 0
    table.by_seat = {api.get(f"/api/seats/{t}").json()["seat"]: t for t in (founded["seat_token"], bea["seat_token"])}
    return table


def ready(page: Page) -> None:
    page.wait_for_function("() => window.parlourMetrics && window.parlourMetrics.firstView !== null")


def test_the_founder_allows_hints_on_the_front_page_and_the_waiting_room_says_so(
        browser: Browser, server: ServerProcess) -> None:
    ctx = browser.new_context(**context_args("phone"))
    page = ctx.new_page()
    page.goto(f"{server.base}/?game=london")
    page.get_by_label("Your name").fill("Ada")
    page.locator("details.more-options > summary").click()
    page.get_by_label("Allow hints").check()
    page.get_by_role("button", name="Found a new game of London").click()
    expect(page.locator("#hints-allowed")).to_contain_text("Hints allowed")
    code = page.locator("#waiting .code").first.inner_text().strip()
    assert httpx.get(f"{server.base}/api/tables/{code}").json()["hints"] == {"allowed": True, "asked": {}}
    ctx.close()


@pytest.mark.parametrize("size", ["laptop", "phone"])
def test_the_awaited_seat_asks_for_a_hint_sees_the_bots_weighing_and_the_others_see_that_it_asked(
        browser: Browser, server: ServerProcess, api: httpx.Client, size: str) -> None:
    table = hinted_table(api)
    (seat,) = table.awaiting()
    other = next(s for s in table.by_seat if s != seat)
    ctx = browser.new_context(**context_args(size))
    mine, theirs = ctx.new_page(), ctx.new_page()
    mine.goto(server.base + table.seat_url(seat))
    theirs.goto(server.base + table.seat_url(other))
    ready(mine)
    ready(theirs)
    expect(theirs.locator("#hint")).to_be_disabled()  # not their decision
    button = mine.locator("#hint")
    expect(button).to_be_enabled()
    box = button.bounding_box()
    assert box and box["width"] >= 24 and box["height"] >= 24
    button.click()
    hint = mine.locator("#hint-box")
    expect(hint).to_contain_text("The good bot's weighing", timeout=15_000)
    assert hint.bounding_box() is not None
    within = mine.evaluate("() => { const r = document.getElementById('hint-box').getBoundingClientRect();"
                           " return r.top >= 0 && r.bottom <= innerHeight + 1; }")
    assert within, "the hint is shown where the player looks (in view, in the action bar)"
    best = hint.locator(".hint-best strong, p strong").first.inner_text()
    labels = [c["label"] for c in table.view(seat)["prompt"]["choices"]]
    assert best in labels
    expect(mine.locator(".hinted").first).to_be_visible()  # the best move's control is marked
    expect(theirs.locator("#log")).to_contain_text(f"{mine_name(api, table, seat)} asked for a hint.")
    assert not axe(mine), "axe-core found serious problems with the hint shown"
    SHOTS.mkdir(parents=True, exist_ok=True)
    mine.screenshot(path=str(SHOTS / f"hint-{size}.png"), scale="css")
    # the table moves on: the hint was for one decision
    seq, moves = table.legal(seat)
    table.play(seat, moves[0], seq)
    expect(hint).to_be_hidden()
    expect(mine.locator(".hinted")).to_have_count(0)
    ctx.close()


def mine_name(api: httpx.Client, table: scenes.Table, seat: int) -> str:
    return str(api.get(f"/api/seats/{table.by_seat[seat]}").json()["name"])


def test_the_end_screen_counts_each_players_hints(browser: Browser, server: ServerProcess,
                                                  api: httpx.Client) -> None:
    table = hinted_table(api)
    (seat,) = table.awaiting()
    assert api.post(f"/api/seats/{table.by_seat[seat]}/hint").status_code == 200
    table.advance(scenes.london_chooser(5), lambda t: t.finished(), limit=4000)
    ctx = browser.new_context(**context_args("laptop"))
    page = ctx.new_page()
    page.goto(server.base + table.seat_url(seat))
    ready(page)
    counted = page.locator("#result .hints-count")
    expect(counted).to_contain_text("Hints asked:")
    expect(counted).to_contain_text(f"{mine_name(api, table, seat)} 1")
    ctx.close()


@pytest.fixture(scope="module")
def got_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    folder = tmp_path_factory.mktemp("got-hints")
    server = ServerProcess(f"sqlite+aiosqlite:///{folder / 'parlour.db'}", folder / "server.log",
                           engines="engines.game_of_thrones:ENGINE",
                           extra_env={"BOT_THINK_SECONDS": "3"})  # room for the playouts on a busy machine
    server.start()
    try:
        yield server
    finally:
        server.stop()


def test_a_game_of_thrones_planning_hint_shows_each_orders_position_value_over_its_playouts(
        browser: Browser, got_server: ServerProcess, tmp_path: Path) -> None:
    with httpx.Client(base_url=got_server.base, timeout=30) as api:
        founded = api.post("/api/tables", json={"game": "game_of_thrones", "name": "Ada", "hints": True}).json()
        for name in ("Bea", "Cy"):
            api.post(f"/api/tables/{founded['code']}/join", json={"name": name}).raise_for_status()
        api.post(f"/api/seats/{founded['seat_token']}/start").raise_for_status()
        prompt = api.get(f"/api/seats/{founded['seat_token']}").json()["view"]["prompt"]
        ctx = browser.new_context(**context_args("laptop"))
        page = ctx.new_page()
        page.goto(f"{got_server.base}/seat/{founded['seat_token']}")
        ready(page)
        page.locator("#hint").click()
        hint = page.locator("#hint-box")
        expect(hint).to_contain_text("average position value over", timeout=20_000)
        expect(hint).to_contain_text("to the end of the round")
        expect(hint).to_contain_text("50 % is level")
        shown = hint.locator(".hint-moves li")
        assert 2 <= shown.count() <= 3
        labels = {c["label"] for c in prompt["choices"]}
        for i in range(shown.count()):
            assert shown.nth(i).locator("strong").inner_text() in labels  # the prompt's own words
        # the best order's area is marked on the map and in the keyboard's list of areas
        best = next(c["move"] for c in prompt["choices"] if c["label"] == shown.nth(0).locator("strong").inner_text())
        expect(page.locator(f'path[data-area="{best["area"]}"]')).to_have_class(re.compile(r"\bhinted\b"))
        expect(page.locator(".hinted")).not_to_have_count(0)
        assert page.locator("path.hinted").count() == 1, "one area marked, the hinted order's"
        assert not axe(page), "axe-core found serious problems with the hint shown"
        page.screenshot(path=str(tmp_path / "got-hint.png"), scale="css")
        ctx.close()
