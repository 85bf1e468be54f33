"""Time at the table in Chromium: a clock running out and what follows, "your turn" as a
notification on a hidden tab, the front page's list of this browser's tables, and play again."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from tests.browser.look import axe, context_args
from tests.support.play import play_one
from tests.support.server import ServerProcess

pytestmark = pytest.mark.e2e

# A tab the player has switched away from: the page is told it is hidden (Chromium keeps a
# headless page visible otherwise).
HIDE_TAB = """
  Object.defineProperty(document, "hidden", { get: () => Boolean(window.__hidden) });
  Object.defineProperty(document, "visibilityState", { get: () => (window.__hidden ? "hidden" : "visible") });
"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    folder = tmp_path_factory.mktemp("time")
    srv = ServerProcess(f"sqlite+aiosqlite:///{folder / 'parlour.db'}", folder / "server.log",
                        extra_env={"CLOCK_POLL_SECONDS": "0.2"})
    srv.start()
    yield srv
    srv.stop()


@pytest.fixture(scope="module")
def api(server: ServerProcess) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=server.base, timeout=20) as c:
        yield c


def table(api: httpx.Client, clock: dict[str, Any] | None = None, names: tuple[str, ...] = ("Ada", "Bob"),
          **options: Any) -> dict[str, Any]:
    r = api.post("/api/tables", json={"game": "tally", "name": names[0], "options": options, "clock": clock})
    assert r.status_code == 201, r.text
    code, tokens = r.json()["code"], [r.json()["seat_token"]]
    for name in names[1:]:
        tokens.append(api.post(f"/api/tables/{code}/join", json={"name": name}).json()["seat_token"])
    api.post(f"/api/seats/{tokens[0]}/start")
    by_seat = {api.get(f"/api/seats/{t}").json()["seat"]: t for t in tokens}
    return {"code": code, "tokens": tokens, "by_seat": by_seat}


def awaited(api: httpx.Client, t: dict[str, Any]) -> int:
    return int(api.get(f"/api/seats/{t['tokens'][0]}").json()["awaiting"][0])


def ready(page: Page) -> None:
    page.wait_for_function("() => window.parlourMetrics && window.parlourMetrics.firstView !== null")


def shot(page: Page, screenshots: Path, name: str) -> None:
    page.screenshot(path=str(screenshots / f"time-{name}.png"), full_page=True)


def test_a_clock_runs_out_and_the_seat_passes_on_every_page(browser: Browser, server: ServerProcess,
                                                            api: httpx.Client, screenshots: Path) -> None:
    # A chess clock of 30 s with 10 minutes added a move: the first player moves at once (and
    # has time to spare afterwards); the second lets the clock run out.
    t = table(api, {"kind": "fischer", "seconds": 30, "increment": 600, "on_timeout": "pass"}, target=51)
    quick = awaited(api, t)
    late = 1 - quick
    play_one(api, t)
    pages = []
    for seat, size in ((late, "laptop"), (quick, "phone")):
        page = browser.new_context(**context_args(size)).new_page()
        page.goto(server.base + f"/seat/{t['by_seat'][seat]}")
        ready(page)
        pages.append(page)
    watcher = browser.new_context(**context_args("laptop")).new_page()
    watcher.goto(server.base + f"/watch/{t['code']}")
    for page in [*pages, watcher]:  # every seat and spectator sees both clocks, the late one running
        expect(page.locator("#seats .clock")).to_have_count(2)
        expect(page.locator(f"#seats .clock[data-seat='{late}'] .clock-state")).to_have_text("▶ running")
        expect(page.locator(f"#seats .clock[data-seat='{quick}'] .clock-state")).to_have_text("waiting")
    assert re.fullmatch(r"0:[0-3]\d", pages[0].locator(f"#seats .clock[data-seat='{late}'] .clock-time").inner_text())
    assert re.fullmatch(r"10:[23]\d", pages[0].locator(f"#seats .clock[data-seat='{quick}'] .clock-time").inner_text())
    shot(pages[0], screenshots, "clock-running")
    assert not axe(pages[0], scope="#players")
    # the time runs out: the keeper plays for the seat, and everyone is shown what happened
    for page in [*pages, watcher]:
        expect(page.locator("#clock-note")).to_contain_text("ran out of time at move 2", timeout=60000)
        expect(page.locator("#log")).to_contain_text("played")
    expect(pages[1].locator("#prompt")).to_contain_text("Your turn")
    expect(pages[0].locator("#prompt")).to_contain_text("Waiting for")
    expect(pages[1].locator(f"#seats .clock[data-seat='{quick}'] .clock-state")).to_have_text("▶ running")
    # its time was spent, then the move's increment added: ten minutes for the next move
    expect(pages[1].locator(f"#seats .clock[data-seat='{late}'] .clock-time")).to_have_text("10:00")
    shot(pages[1], screenshots, "clock-ran-out-phone")
    for page in [*pages, watcher]:
        page.context.close()


def test_a_hidden_tab_is_notified_when_it_becomes_your_turn(browser: Browser, server: ServerProcess,
                                                            api: httpx.Client) -> None:
    t = table(api)
    first = awaited(api, t)
    waiting_seat = 1 - first
    context: BrowserContext = browser.new_context(**context_args("laptop"))
    context.grant_permissions(["notifications"], origin=server.base)
    context.add_init_script(HIDE_TAB)
    page = context.new_page()
    page.goto(server.base + f"/seat/{t['by_seat'][waiting_seat]}")
    ready(page)
    button = page.get_by_role("button", name=re.compile("Notify me"))
    button.click()  # the player allows notifications (granted here) and the page subscribes
    expect(page.locator("#notify-me")).to_have_text("Notifications: on")
    page.evaluate("() => { window.__hidden = true; document.dispatchEvent(new Event('visibilitychange')); }")
    token = t["by_seat"][first]
    moves = api.get(f"/api/seats/{token}/moves").json()
    api.post(f"/api/seats/{token}/moves", json={"seq": moves["seq"], "move": moves["moves"][0]})
    page.wait_for_function("() => (window.parlourMetrics.notices || []).length === 1")
    notice = page.evaluate("() => window.parlourMetrics.notices[0]")
    assert notice["title"] == "Your turn — Tally" and t["code"] in notice["body"]
    # a visible tab is not notified: the prompt says it
    page.evaluate("() => { window.__hidden = false; }")
    token = t["by_seat"][waiting_seat]
    moves = api.get(f"/api/seats/{token}/moves").json()
    api.post(f"/api/seats/{token}/moves", json={"seq": moves["seq"], "move": moves["moves"][0]})
    token = t["by_seat"][first]
    moves = api.get(f"/api/seats/{token}/moves").json()
    api.post(f"/api/seats/{token}/moves", json={"seq": moves["seq"], "move": moves["moves"][0]})
    expect(page.locator("#prompt")).to_contain_text("Your turn")
    assert page.evaluate("() => window.parlourMetrics.notices.length") == 1
    context.close()


def test_the_front_page_lists_this_browsers_tables_and_forgets_one(browser: Browser, server: ServerProcess,
                                                                    api: httpx.Client, screenshots: Path) -> None:
    mine = table(api, names=("Ada", "Bob"))
    other = table(api, {"kind": "fischer", "seconds": 600, "increment": 5}, names=("Ada", "Cy", "Di"))
    context = browser.new_context(**context_args("phone"))
    page = context.new_page()
    ada_mine = mine["tokens"][0]
    ada_other = other["tokens"][0]
    for token in (ada_mine, ada_other):
        page.goto(server.base + f"/seat/{token}")
        ready(page)
    page.goto(server.base + "/")
    rows = page.locator("#my-tables .my-table")
    expect(rows).to_have_count(2)
    # the seat visited last comes first
    expect(rows.nth(0)).to_contain_text(f"table {other['code']}")
    for name in ("Cy", "Di"):  # the players in seat order (drawn by lot)
        expect(rows.nth(0).locator(".my-table-players")).to_contain_text(name)
    expect(rows.nth(1).locator(".my-table-players")).to_contain_text("Bob")
    ada_turn = awaited(api, mine) == api.get(f"/api/seats/{ada_mine}").json()["seat"]
    expect(rows.nth(1).locator(".my-table-turn")).to_have_text("Your turn" if ada_turn else "Waiting for Bob")
    expect(rows.nth(1).locator(".my-table-when")).to_have_text("no move yet")
    play_one(api, mine)
    page.reload()
    expect(rows.nth(1).locator(".my-table-when")).to_have_text("last move just now")
    shot(page, screenshots, "my-tables-phone")
    assert not axe(page)
    rows.nth(0).get_by_role("button", name=re.compile("Forget")).click()
    expect(rows).to_have_count(1)
    page.reload()
    expect(rows).to_have_count(1)
    expect(rows.nth(0)).to_contain_text(mine["code"])
    # a "your turn" notification opens the front page with the code: it goes on to the seat
    page.goto(server.base + f"/?open={mine['code']}")
    page.wait_for_url(re.compile(f"/seat/{ada_mine}$"))
    page.goto(server.base + "/")
    page.get_by_role("link", name=re.compile(mine["code"])).click()
    page.wait_for_url(re.compile(f"/seat/{ada_mine}$"))
    context.close()


def test_play_again_invites_the_other_player_live_and_seats_them_in_one_step(
        browser: Browser, server: ServerProcess, api: httpx.Client, screenshots: Path) -> None:
    t = table(api, target=21)
    while api.get(f"/api/seats/{t['tokens'][0]}").json()["status"] != "finished":
        play_one(api, t)
    pages = []
    for token in t["tokens"]:
        page = browser.new_context(**context_args("laptop")).new_page()
        page.goto(server.base + f"/seat/{token}")
        ready(page)
        pages.append(page)
    ada, bob = pages
    ada.get_by_role("button", name="Play again").click()
    ada.wait_for_url(re.compile(r"/seat/"))
    expect(ada.get_by_text("The waiting room")).to_be_visible()
    invite = bob.locator("#result .play-again")
    expect(invite).to_have_text("Join Ada's new table")  # live, on Bob's old seat page
    shot(bob, screenshots, "play-again-invited")
    invite.click()
    expect(bob.get_by_text("Ada invites you to play again")).to_be_visible()
    shot(bob, screenshots, "play-again-offer")
    assert not axe(bob)
    bob.get_by_role("button", name="Take your seat as Bob").click()
    expect(bob.get_by_text("The waiting room")).to_be_visible()
    expect(ada.locator("#gathered")).to_contain_text("Bob")
    expect(ada.get_by_role("button", name="Begin the game")).to_be_enabled()
    for page in pages:
        page.context.close()
