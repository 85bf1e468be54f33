"""Tower of London in a real Chromium: three players found, join and start a table through the
pages, then play a whole game by clicking cards, buildings and Beefeaters, to the final screen.
One player sits at a phone-width window throughout."""

from __future__ import annotations

import random
import re
import time

import pytest
from playwright.sync_api import Browser, Page, expect

pytestmark = pytest.mark.e2e

PHONE = {"width": 390, "height": 844}

# What a page shows, read in one round trip.
STATE_JS = """() => {
  const tol = document.querySelector('#board .tol');
  const prompt = document.getElementById('prompt');
  return {
    seq: tol ? Number(tol.dataset.seq) : -1,
    phase: tol ? tol.dataset.phase : null,
    kind: tol ? tol.dataset.kind : null,
    yours: !!(prompt && prompt.classList.contains('yours')),
    pending: document.body.classList.contains('pending'),
    revealed: document.querySelectorAll('#board .tol-reveals .tol-reveal:not(.hidden-cards)').length,
  };
}"""


@pytest.fixture
def server(sqlite_url, server_factory):
    return server_factory(sqlite_url, engines="engines.tower_of_london:ENGINE")


def shot(page: Page, screenshots, name: str, full: bool = True) -> None:
    page.screenshot(path=str(screenshots / f"tower-of-london-{name}.png"), full_page=full)


def assert_fits_phone(page: Page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the page scrolls sideways at phone width ({width} px)"


def wait_seq_change(page: Page, seq: int, timeout: float = 10.0) -> None:
    page.wait_for_function(
        "s => { const t = document.querySelector('#board .tol'); return t && Number(t.dataset.seq) !== s"
        " && !document.body.classList.contains('pending'); }", arg=seq, timeout=timeout * 1000)


def tab_to(page: Page, selector: str, limit: int = 120) -> None:
    """Presses Tab until the focus is on an element matching the selector."""
    for _ in range(limit):
        page.keyboard.press("Tab")
        if page.evaluate("s => !!(document.activeElement && document.activeElement.matches(s))", selector):
            return
    raise AssertionError(f"Tab never reached {selector}")


def play_by_keyboard(page: Page, kind: str, screenshots) -> None:
    """The same moves with the keyboard only: Tab to each choice and press Enter."""
    if kind == "pick":
        page.locator("#board .tol-status").click()  # start tabbing from the top of the board
        tab_to(page, "#board .tol-hand button.tol-card")
        page.keyboard.press("Enter")
        page.keyboard.press("Tab")
        page.keyboard.press("Enter")
        expect(page.locator("#board .tol-slot.slot-2.filled")).to_be_visible()
        tab_to(page, '#board [data-act="pick-confirm"]')
        page.keyboard.press("Enter")
    elif kind == "place":
        page.locator("#board .tol-status").click()
        tab_to(page, "#board svg .tol-building.is-target")
        shot(page, screenshots, "keyboard-focus", full=False)
        page.keyboard.press("Enter")
    else:
        raise AssertionError(kind)


def play_one(page: Page, kind: str, rng: random.Random) -> None:
    """Makes this page's move through clicks: any of the clickable legal options."""
    board = page.locator("#board")
    if kind == "pick":
        cards = board.locator(".tol-hand button.tol-card")
        n = cards.count()
        first, second = rng.sample(range(n), 2)
        cards.nth(first).click()
        expect(board.locator(".tol-slot.slot-1.filled")).to_be_visible()
        cards.nth(second).click()
        expect(board.locator(".tol-slot.slot-2.filled")).to_be_visible()
        board.locator('[data-act="pick-confirm"]').click()
    elif kind == "place":
        # mostly where this round scores, so that the scoring has something to show
        scored = (board.locator(".tol").get_attribute("data-scores") or "").split()
        targets = board.locator("svg .tol-building.is-target")
        areas = [next((a for a in scored if f"area-{a}" in (targets.nth(i).get_attribute("class") or "")), None)
                 for i in range(targets.count())]
        good = [i for i, a in enumerate(areas) if a] if rng.random() < 0.8 else []
        targets.nth(rng.choice(good or range(len(areas)))).click()
    elif kind in ("backstab", "poison"):
        targets = board.locator("svg .tol-token.is-target")
        if targets.count() and rng.random() < 0.75:
            targets.nth(rng.randrange(targets.count())).click()
            board.locator('[data-act="confirm"]').click()
        else:
            board.locator('[data-act="pass"]').click()
    elif kind == "switch":
        targets = board.locator("svg .tol-token.is-target")
        if targets.count() >= 2 and rng.random() < 0.75:
            targets.nth(rng.randrange(targets.count())).click()
            partners = board.locator("svg .tol-token.is-target:not(.is-selected)")
            if partners.count():
                partners.nth(rng.randrange(partners.count())).click()
                board.locator('[data-act="confirm"]').click()
                return
        board.locator('[data-act="pass"]').click()
    elif kind == "keep":
        cards = board.locator(".tol-keep button.tol-card")
        for i in rng.sample(range(cards.count()), 3):
            cards.nth(i).click()
        board.locator('[data-act="keep-confirm"]').click()
    else:
        raise AssertionError(f"unexpected prompt {kind!r}")


def test_three_players_play_a_whole_game(browser: Browser, server, screenshots):
    started = time.monotonic()
    rng = random.Random(2017)
    wide = {"width": 1280, "height": 1000}

    founder = browser.new_context(viewport=wide).new_page()
    founder.goto(server.base + "/")
    founder.get_by_label("Your name").fill("Heather")
    founder.get_by_role("button", name=re.compile("Found a new game")).click()
    expect(founder.get_by_text("Invite your players — share this link:")).to_be_visible()
    invite = founder.locator("#invite-link").input_value()

    second = browser.new_context(viewport=wide).new_page()
    phone = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True).new_page()
    for page, name in ((second, "Ross"), (phone, "Nate")):
        page.goto(invite)
        page.get_by_label("Your name").fill(name)
        page.get_by_role("button", name="Take a seat").click()
        expect(page.get_by_text("The waiting room")).to_be_visible()
    expect(founder.locator("#gathered li")).to_have_count(3)
    founder.get_by_role("button", name="Begin the game").click()

    pages = [founder, second, phone]
    for p in pages:
        expect(p.locator("#board .tol")).to_be_visible()
        expect(p.locator("#board svg.tol-board .tol-building")).to_have_count(32)
    expect(phone.locator("#board .tol-hand button.tol-card")).to_have_count(6)
    assert_fits_phone(phone)
    shot(phone, screenshots, "phone-start")

    by_keyboard = {"pick", "place"}
    took = {"reveal": False, "scoring": False, "phone-pick": False, "keep": False, "ability": False}
    moves = 0
    deadline = time.monotonic() + 150
    while True:
        assert time.monotonic() < deadline, "the game did not finish in time"
        states = [p.evaluate(STATE_JS) for p in pages]
        if all(s["phase"] == "over" for s in states):
            break
        acted = False
        for page, st in zip(pages, states, strict=True):
            if st["pending"] or st["phase"] == "over":
                continue
            if st["kind"] == "scoring":
                if not took["scoring"]:
                    expect(page.locator(".tol-scoring.gate table").first).to_be_visible()
                    shot(page, screenshots, "scoring")
                    took["scoring"] = True
                page.locator('[data-act="continue"]').click()
                acted = True
                continue
            if not st["yours"] or st["kind"] in ("wait", "over"):
                continue
            if not took["reveal"] and st["phase"] == "reveal" and st["revealed"] >= 2:
                watcher = next(p for p in pages if p is not page)
                watcher.wait_for_timeout(1200)  # the reveals appear one by one
                shot(watcher, screenshots, "reveal")
                took["reveal"] = True
            if page is phone and st["kind"] == "pick" and not took["phone-pick"]:
                cards = phone.locator("#board .tol-hand button.tol-card")
                cards.nth(0).click()
                cards.nth(1).click()
                expect(phone.locator("#board svg .tol-building.is-preview")).to_have_count(3)
                assert_fits_phone(phone)
                shot(phone, screenshots, "phone-pick")
                phone.locator('#board [data-act="clear"]').click()
                took["phone-pick"] = True
            if st["kind"] in ("backstab", "poison", "switch") and not took["ability"]:
                shot(page, screenshots, "ability")
                took["ability"] = True
            if st["kind"] == "keep" and not took["keep"]:
                shot(page, screenshots, "keep")
                took["keep"] = True
            if page is founder and st["kind"] in by_keyboard:
                by_keyboard.discard(st["kind"])
                play_by_keyboard(page, st["kind"], screenshots)
            else:
                play_one(page, st["kind"], rng)
            wait_seq_change(page, st["seq"])
            moves += 1
            acted = True
        if not acted:
            time.sleep(0.05)

    for p in pages:
        expect(p.locator("#board .tol-final")).to_be_visible()
    expect(founder.locator("#board .tol-final-title")).to_contain_text(
        re.compile(r"wins the Tower of London|Everyone loses"))
    expect(founder.locator("#board .tol-final .tol-score-table").first).to_be_visible()
    shot(founder, screenshots, "end")
    assert_fits_phone(phone)
    shot(phone, screenshots, "phone-end")
    phone.get_by_role("tab", name="Symbols").click()
    expect(phone.locator("#tab-symbols")).to_contain_text("Outer Ward")
    assert_fits_phone(phone)
    phone.locator("#tab-symbols").screenshot(path=str(screenshots / "tower-of-london-phone-symbols.png"))
    phone.get_by_role("tab", name="Rules").click()
    expect(phone.locator("#tab-rules")).to_contain_text("everyone loses")

    # a spectator sees the same end, and no hand
    watch = founder.locator("#watch-link").get_attribute("href") or ""
    spectator = browser.new_context(viewport=wide).new_page()
    spectator.goto(watch if watch.startswith("http") else server.base + watch)
    expect(spectator.locator("#board .tol-final")).to_be_visible()
    expect(spectator.locator("#board .tol-hand")).to_have_count(0)
    assert took["reveal"] and took["scoring"], took
    assert moves > 20
    assert time.monotonic() - started < 180
