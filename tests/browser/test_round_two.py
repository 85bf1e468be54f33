"""At the table, round two: what a player needs at a glance, and nothing taken without asking —
checked in Chromium at the sizes players use (1366×768, 1920×1080 and a 390×844 phone)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser import scenes
from tests.browser.look import context_args, low_contrast
from tests.support.server import ServerProcess, sqlite_server

pytestmark = pytest.mark.e2e

ENGINES = "engines.london:ENGINE,engines.tower_of_london:ENGINE"
BUDGET = 40 * 1024  # bytes, compressed, of code per game page at its first view: the page, its scripts and styles
# Not code: the game's fixed data (/api/tables/CODE/static, fetched once and kept by the browser) and the icon.
NOT_CODE = ("/api/tables/", "/static/favicon.svg")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    with sqlite_server(tmp_path_factory.mktemp("round2"), ENGINES) as srv:
        yield srv


@pytest.fixture(scope="module")
def api(server: ServerProcess) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=server.base, timeout=20) as c:
        yield c


def ready(page: Page) -> None:
    page.wait_for_function("() => window.parlourMetrics && window.parlourMetrics.firstView !== null")
    page.wait_for_timeout(100)


def box(page: Page, selector: str) -> dict[str, float]:
    b = page.locator(selector).first.bounding_box()
    assert b, f"{selector} is not shown"
    return b


def test_london_hand_board_market_and_prompt_on_the_first_screen(browser: Browser, server: ServerProcess,
                                                                 api: httpx.Client) -> None:
    table = scenes.london(api)
    table.advance(scenes.london_chooser(3), scenes.london_step("action", min_moves=30))
    url = server.base + table.seat_url(table.awaiting()[0])
    for size in ("laptop", "wide"):
        ctx = browser.new_context(**context_args(size))
        page = ctx.new_page()
        page.goto(url)
        ready(page)
        height = page.viewport_size["height"]
        for sel in (".lon-now", ".lon-boardwrap", ".lon-marketwrap", ".lon-hand .lc"):
            b = box(page, sel)
            assert b["y"] + b["height"] <= height, f"{sel} ends at {b['y'] + b['height']:.0f} px at {size}"
        # every column of the development board and every borough of the market is shown whole
        for sel in (".lon-devboard .slot", ".lon-market .bt, .market .bt"):
            for i in range(page.locator(sel).count()):
                b = page.locator(sel).nth(i).bounding_box()
                assert b and b["x"] + b["width"] <= box(page, "#board")["x"] + box(page, "#board")["width"], sel
        # the borough names are whole, not cut
        cut = page.evaluate("""() => [...document.querySelectorAll('.bt-name')]
            .filter((n) => n.scrollWidth > n.clientWidth + 1).map((n) => n.textContent)""")
        assert not cut, cut
        # every opponent's money, loans and poverty beside the board
        panel = page.locator("#seats .seat").filter(has_not=page.locator(".me"))
        expect(page.locator("#seats .seat:not(.me) .seat-stats")).to_contain_text(re.compile("Loans.*Poverty"))
        assert panel.count() >= 1
        ctx.close()
    # a phone: the decision and what it concerns are on the first screen, nothing sideways
    ctx = browser.new_context(**context_args("phone"))
    page = ctx.new_page()
    page.goto(url)
    ready(page)
    b = box(page, ".lon-now .lon-actions")
    assert b["y"] + b["height"] <= 844, b
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    cut = page.evaluate("""() => [...document.querySelectorAll('.bt-name')]
        .filter((n) => n.scrollWidth > n.clientWidth + 1
          || n.getBoundingClientRect().right > n.closest('.bt').getBoundingClientRect().right + 1)
        .map((n) => n.textContent)""")
    assert not cut, f"borough names cut on a phone: {cut}"
    # the market's boroughs are all in view side by side, not behind a sideways swipe
    market = page.locator(".market .bt")
    for i in range(market.count()):
        mb = market.nth(i).bounding_box()
        assert mb and mb["x"] + mb["width"] <= 390, "a borough of the market is off to the side"
    ctx.close()


def test_a_move_that_needs_a_loan_says_so_and_asks_first(browser: Browser, server: ServerProcess,
                                                         api: httpx.Client) -> None:
    table = scenes.london(api)

    def needs_loan(t: scenes.Table) -> bool:
        for seat in t.awaiting():
            p = t.view(seat).get("prompt") or {}
            for c in p.get("choices", []):
                if c.get("loans") and c["move"]["type"] in ("develop", "buy"):
                    return True
        return False

    table.advance(scenes.london_chooser(8), needs_loan, limit=1500)
    seat = table.awaiting()[0]
    before = table.view(seat)["players"][seat]["loans"]
    page = browser.new_context(**context_args("laptop")).new_page()
    page.goto(server.base + table.seat_url(seat))
    ready(page)
    costly = page.locator("#board [data-loans]:not(.lon-list [data-loans])").first
    expect(costly).to_contain_text("needs a £10 loan")
    assert "can" not in (costly.get_attribute("class") or "").split(), "a move that needs a loan shows ✓"
    seq = page.locator("#board").get_attribute("data-seq")
    costly.click()
    dialog = page.locator("dialog.kit-confirm")
    expect(dialog).to_be_visible()
    expect(dialog).to_contain_text("£10 loan")
    expect(dialog).to_contain_text("7 VP")
    dialog.get_by_role("button", name="Cancel").click()
    expect(dialog).to_have_count(0)
    page.wait_for_timeout(300)
    assert page.locator("#board").get_attribute("data-seq") == seq, "a cancelled loan still played the move"
    costly.click()
    page.locator("dialog.kit-confirm [data-act=confirm-yes]").click()
    page.wait_for_function("s => document.getElementById('board').dataset.seq !== s", arg=seq)
    assert table.view(seat)["players"][seat]["loans"] > before


def test_the_log_follows_with_turn_rules_and_one_name_per_player(browser: Browser, server: ServerProcess,
                                                                 api: httpx.Client) -> None:
    table = scenes.london(api)
    table.advance(scenes.london_chooser(4), scenes.london_step("action", min_moves=40))
    seat = table.awaiting()[0]
    page = browser.new_context(**context_args("laptop")).new_page()
    page.goto(server.base + table.seat_url(seat))
    ready(page)
    name = page.locator("#seats .seat.me .name").inner_text().replace(" (you)", "")
    texts = page.locator("#log li").all_inner_texts()
    assert not [t for t in texts if t.startswith("You ")], "the log calls a player both 'You' and by name"
    assert any(t.startswith(name) for t in texts)
    assert page.locator("#log li.turn-end").count() >= 2, "no rule between turns"
    at_end = ("() => { const p = document.getElementById('tab-log');"
              " return p.scrollHeight - p.scrollTop - p.clientHeight < 4; }")
    assert page.evaluate(at_end), "the log panel does not show its newest entry"
    # a move: the panel follows to the newest entry
    count = page.locator("#log li").count()
    page.locator("#board .lon-actions [data-move]").last.click()
    expect(page.locator("#log li")).not_to_have_count(count)
    page.wait_for_function(at_end)


def test_chat_refusals_show_in_the_chat_and_the_text_stays(browser: Browser, server: ServerProcess,
                                                           api: httpx.Client) -> None:
    table = scenes.london(api)
    page = browser.new_context(**context_args("laptop")).new_page()
    page.goto(server.base + table.seat_url(0))
    ready(page)
    page.get_by_role("tab", name="Chat").click()
    box_ = page.get_by_label("Message")
    for i in range(5):
        box_.fill(f"hello {i}")
        page.get_by_role("button", name="Send").click()
        expect(page.locator("#chat li")).to_have_count(i + 1)
    box_.fill("one too many")
    page.get_by_role("button", name="Send").click()
    expect(page.locator("#chat-error")).to_contain_text("too fast")
    expect(box_).to_have_value("one too many")
    expect(page.locator("#board")).not_to_contain_text("too fast")
    expect(page.locator("#prompt")).not_to_contain_text("too fast")
    # after a reload, the messages already read are not counted as unread
    page.reload()
    ready(page)
    expect(page.locator("#chat-unread")).to_be_hidden()
    expect(page.locator("#chat-error")).to_be_hidden()
    # a spectator, new here, is not told that every past message is unread either
    watcher = browser.new_context(**context_args("laptop")).new_page()
    watcher.goto(server.base + table.watch_url())
    ready(watcher)
    expect(watcher.locator("#chat-unread")).to_be_hidden()


def test_card_zoom_on_hover_and_long_press(browser: Browser, server: ServerProcess, api: httpx.Client) -> None:
    table = scenes.london(api)
    url = server.base + table.seat_url(table.awaiting()[0])
    page = browser.new_context(**context_args("laptop")).new_page()
    page.goto(url)
    ready(page)
    card = page.locator("#board .lon-hand .lc").first
    card.hover()
    zoom = page.locator("#kit-zoom")
    expect(zoom).to_be_visible()
    name = card.locator(".lc-name").inner_text()
    expect(zoom).to_contain_text(name)
    expect(zoom).to_contain_text(re.compile("Develop: £|pauper|Action card"))
    phone = browser.new_context(**context_args("phone")).new_page()
    phone.goto(url)
    ready(phone)
    target = phone.locator("#board .lon-hand .lc").first
    target.dispatch_event("pointerdown", {"pointerType": "touch", "bubbles": True})
    phone.wait_for_timeout(700)
    expect(phone.locator("#kit-zoom")).to_be_visible()
    target.dispatch_event("pointerup", {"pointerType": "touch", "bubbles": True})


def test_keyboard_focus_stays_in_the_prompt(browser: Browser, server: ServerProcess, api: httpx.Client) -> None:
    table = scenes.london(api)
    table.advance(scenes.london_chooser(2), scenes.london_step("action", min_moves=2))
    page = browser.new_context(**context_args("laptop")).new_page()
    page.goto(server.base + table.seat_url(table.awaiting()[0]))
    ready(page)
    button = page.locator("#board .lon-actions [data-move]").last  # Draw Three: always possible
    button.focus()
    seq = page.locator("#board").get_attribute("data-seq")
    page.keyboard.press("Enter")
    page.wait_for_function("s => document.getElementById('board').dataset.seq !== s", arg=seq)
    page.wait_for_timeout(200)
    where = page.evaluate("() => { const a = document.activeElement;"
                          " return a && (a.closest('[data-prompt]') ? 'prompt' : a.tagName); }")
    assert where == "prompt", f"the focus fell to {where}"


def test_the_end_names_the_winner_once_with_real_minus_signs_and_play_again(browser: Browser, server: ServerProcess,
                                                                           api: httpx.Client) -> None:
    table = scenes.london(api)
    table.advance(scenes.london_chooser(6), lambda t: t.finished())
    pages: list[Page] = []
    for seat in (0, 1):
        page = browser.new_context(**context_args("laptop")).new_page()
        page.goto(server.base + table.seat_url(seat))
        ready(page)
        pages.append(page)
    page = pages[0]
    # the end screen names the winner once (the action bar's one line says it too: "Game over — Ada
    # wins", in view wherever the page is scrolled)
    text = page.evaluate("() => { const m = document.querySelector('main').cloneNode(true);"
                         " m.querySelector('#action-bar').remove(); document.body.append(m);"
                         " const t = m.innerText; m.remove(); return t; }")
    # ("shared victory:" heads the names of a shared win; a tie on VP also explains rule 13, which
    # ends "then a shared victory)" and names nobody)
    assert len(re.findall(r"\bwins\b|shared victory:", text, re.I)) == 1, "the winner is named more than once"
    expect(page.locator("#prompt")).to_have_text(re.compile(r"^Game over — .+ wins$|^Game over — shared victory: "))
    assert not re.search(r"(?<![\w£])-\d", page.locator(".lon-scores").inner_text()), "a hyphen stands for a minus"
    page.get_by_role("button", name="Play again").click()
    page.wait_for_url(re.compile(r"/seat/"))
    expect(page.get_by_text("The waiting room")).to_be_visible()
    # the other player is invited: a link to the new table, at the end screen and in the chat
    expect(pages[1].locator("#result .play-again")).to_contain_text("new table")
    pages[1].locator("#result .play-again").click()
    expect(pages[1].get_by_text(re.compile("invites you to play again"))).to_be_visible()


def test_tower_cards_and_board_read_clearly(browser: Browser, server: ServerProcess, api: httpx.Client) -> None:
    table = scenes.tower(api)
    table.advance(scenes.tower_chooser(5), lambda t: t.moves >= 24 and bool(scenes.tower_kind("pick")(t)))
    page = browser.new_context(**context_args("wide")).new_page()
    page.goto(server.base + table.seat_url(0))
    ready(page)
    # no ability's name overflows its card
    over = page.evaluate("""() => [...document.querySelectorAll('.tol-card-ability')]
        .filter((n) => n.scrollWidth > n.clientWidth + 1
          || n.getBoundingClientRect().right > n.closest('.tol-card').getBoundingClientRect().right + 1)
        .map((n) => n.textContent)""")
    assert not over, over
    # no Beefeater lies on another (their bodies, the squares with the initials)
    clash = page.evaluate("""() => {
      const t = [...document.querySelectorAll('svg .tol-token .tol-token-body')]
        .map((n) => ({ b: n.closest('.tol-token').dataset.building, r: n.getBoundingClientRect() }));
      const out = [];
      for (let i = 0; i < t.length; i++) for (let j = i + 1; j < t.length; j++) {
        const a = t[i].r, c = t[j].r;
        const w = Math.min(a.right, c.right) - Math.max(a.left, c.left);
        const h = Math.min(a.bottom, c.bottom) - Math.max(a.top, c.top);
        if (w > 4 && h > 4) out.push([t[i].b, t[j].b]);
      }
      return out;
    }""")
    assert not clash, f"Beefeaters overlap: {clash}"
    # control is told by the controller's initials, not by the ring's colour alone
    controlled = page.locator("svg .tol-building .tol-control")
    assert controlled.count() == page.locator("svg .tol-ctrl-badge").count()
    assert not low_contrast(page, ".tol-action"), low_contrast(page, ".tol-action")


def test_a_full_table_says_so_before_the_name_form(browser: Browser, server: ServerProcess, api: httpx.Client) -> None:
    t = api.post("/api/tables", json={"game": "tower_of_london", "name": "A"}).json()
    for name in ("B", "C", "D", "E"):
        r = api.post(f"/api/tables/{t['code']}/join", json={"name": name})
        if r.status_code != 201:
            break
    page = browser.new_context(**context_args("phone")).new_page()
    page.goto(f"{server.base}/join/{t['code']}")
    expect(page.get_by_text("This table is full")).to_be_visible()
    expect(page.get_by_label("Your name")).to_have_count(0)


def weight(page: Page) -> dict[str, Any]:
    got = dict(page.evaluate("""() => {
      const nav = performance.getEntriesByType('navigation')[0];
      const items = [{ url: location.pathname, bytes: nav.encodedBodySize }]
        .concat(performance.getEntriesByType('resource')
          .map((e) => ({ url: new URL(e.name).pathname, bytes: e.encodedBodySize })));
      return { items };
    }"""))
    code = [item for item in got["items"] if not item["url"].startswith(NOT_CODE)]
    return {"items": got["items"], "total": sum(item["bytes"] for item in code)}


@pytest.mark.parametrize("game", ["london", "tower_of_london"])
def test_a_game_page_weighs_under_40_kb_compressed(browser: Browser, server: ServerProcess, api: httpx.Client,
                                                   game: str) -> None:
    table = scenes.london(api) if game == "london" else scenes.tower(api)
    page = browser.new_context(**context_args("laptop")).new_page()
    page.goto(server.base + table.seat_url(table.awaiting()[0]))
    ready(page)
    page.wait_for_load_state("networkidle")
    got = weight(page)
    print(game, got["total"], got["items"])
    assert got["total"] < BUDGET, f"{game}: {got['total']} bytes compressed > {BUDGET}: {got['items']}"
