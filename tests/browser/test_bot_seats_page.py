"""A real Chromium: the founder seats a bot in the waiting room, which plays its turns on the
page; an absent player's seat is handed to a bot from the player panel."""

from __future__ import annotations

import re
from collections.abc import Iterator

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.look import axe, context_args
from tests.support.play import join
from tests.support.server import ServerProcess

pytestmark = pytest.mark.e2e
FAST_BOTS = {"BOT_DELAY_SECONDS": "0.2", "BOT_THINK_SECONDS": "0.05", "BOT_WORKERS": "1"}


@pytest.fixture
def server(sqlite_url, tmp_path) -> Iterator[ServerProcess]:
    # A long start-up allowance: on a machine busy with other work, importing takes a while.
    proc = ServerProcess(sqlite_url, tmp_path / "server.log", extra_env=FAST_BOTS).start(timeout=240)
    yield proc
    proc.stop()


def shot(page: Page, screenshots, name: str) -> None:
    page.screenshot(path=str(screenshots / f"bots-{name}.png"), full_page=True)


def test_the_founder_seats_a_bot_in_the_waiting_room_and_it_plays_its_turns_to_the_end(
        browser: Browser, server, screenshots):
    page = browser.new_context(**context_args("phone")).new_page()
    page.goto(server.base + "/?game=tally")
    page.get_by_label("Your name").fill("Ada")
    # A tally of 51 takes at least six plays (a card is at most 9): Ada has her three turns below
    # before the game can end, whichever seat the lot puts first (at 31 it could end after four).
    page.locator("select[name=option_target]").select_option("51")
    page.get_by_role("button", name=re.compile("Found a new game")).click()
    expect(page.get_by_text("The waiting room")).to_be_visible()
    start = page.get_by_role("button", name="Begin the game")
    expect(start).to_be_disabled()
    page.get_by_label("Seat a bot in an empty seat").select_option("easy")
    page.get_by_role("button", name="Seat a bot").click()
    expect(page.locator("#gathered li")).to_have_count(2)
    expect(page.locator("#gathered")).to_contain_text("Easy bot 1")
    expect(page.locator("#gathered .badge.bot")).to_have_text("bot · easy")
    expect(start).to_be_enabled()  # the bot counts toward the minimum
    assert not axe(page, scope="#waiting")
    shot(page, screenshots, "waiting-room")
    start.click()

    expect(page.locator("#table")).to_be_visible()
    bot_panel = page.locator("#seats li", has_text="Easy bot 1")
    expect(bot_panel.locator(".badge.bot")).to_have_text("bot · easy")
    expect(bot_panel.locator(".presence")).to_have_count(0)  # a bot is neither here nor away
    for _ in range(3):  # Ada plays on the page; the bot answers by itself
        expect(page.locator("#prompt")).to_have_class(re.compile("yours"), timeout=15000)
        moves = page.locator("#log li").count()
        page.locator("#board button.move").first.click()
        expect(page.locator("#log li")).not_to_have_count(moves)
    expect(page.locator("#log")).to_contain_text("Easy bot 1 played")
    assert not axe(page, scope="#seats")
    shot(page, screenshots, "table")
    # on to the end: the end's box says in words who was a bot
    yours_or_end = ("() => document.querySelector('#prompt').classList.contains('yours')"
                    " || !document.getElementById('result').hidden")
    last_seq = "() => Math.max(0, ...[...document.querySelectorAll('#log li[data-seq]')].map((li) => +li.dataset.seq))"
    for _ in range(60):  # a tally of 51 in cards of at least 1: at most 26 turns of Ada's
        page.wait_for_function(yours_or_end, timeout=15000)
        if page.locator("#result").is_visible():
            break
        shown = page.evaluate(last_seq)
        page.locator("#board button.move").first.click()
        page.wait_for_function(f"() => ({last_seq})() > {shown}", timeout=15000)  # Ada's move is shown
    expect(page.locator("#result")).to_contain_text("Bots at the end: Easy bot 1 (a bot, easy).")
    expect(page.locator("#seats li", has_text="Easy bot 1").locator(".badge.bot")).to_have_text("bot · easy")


def test_an_absent_players_seat_is_handed_to_a_bot_from_the_player_panel_and_its_clock_stops(
        browser: Browser, server, screenshots):
    with httpx.Client(base_url=server.base) as c:
        r = c.post("/api/tables", json={"game": "tally", "name": "Ada", "options": {"target": 51},
                                        "bot_after_seconds": 1,
                                        "clock": {"kind": "fischer", "seconds": 600, "increment": 5}})
        ada, code = r.json()["seat_token"], r.json()["code"]
        bob = join(c, code, "Bob")["seat_token"]
        assert c.post(f"/api/seats/{ada}/start").status_code == 200
        bob_seat = c.get(f"/api/seats/{bob}").json()["seat"]
    page = browser.new_context(**context_args("laptop")).new_page()
    page.goto(f"{server.base}/seat/{ada}")
    bob_panel = page.locator("#seats li", has_text="Bob")
    bob_clock = page.locator(f"#seats .clock[data-seat='{bob_seat}']")
    expect(bob_clock).not_to_contain_text("bot plays")
    vote = bob_panel.get_by_role("button", name=re.compile("Hand to a bot"))
    expect(vote).to_have_text("Hand to a bot (0 of 1 votes)", timeout=15000)  # once Bob has been away 1 s
    shot(page, screenshots, "vote")
    vote.click()
    expect(bob_panel.locator(".badge.bot")).to_have_text("bot plays · good")
    expect(page.locator("#log")).to_contain_text("a bot (good) now plays Bob's seat")
    # Bob's clock stands still while the bot plays, said in words (not by colour alone)
    expect(bob_clock).to_contain_text("stopped: bot plays")
    expect(bob_clock.get_by_role("timer")).to_have_attribute("aria-label", re.compile("stopped while a bot plays"))
    assert not axe(page, scope="#players")
    shot(page, screenshots, "handed-over")
    # Bob comes back: opening the seat's address takes it back, and Ada's page says so.
    back = browser.new_context().new_page()
    back.goto(f"{server.base}/seat/{bob}")
    expect(bob_panel.locator(".badge.bot")).to_have_count(0)
    expect(page.locator("#log")).to_contain_text("Bob is back")
    expect(bob_clock).not_to_contain_text("bot plays")  # Bob's own time again
