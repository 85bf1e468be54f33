"""A real Chromium: found a game, answer by code and by link, start, play live, reload."""

from __future__ import annotations

import re

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

from tests.support.play import play_one, started_table

pytestmark = pytest.mark.e2e


@pytest.fixture
def server(sqlite_url, server_factory):
    return server_factory(sqlite_url)


def shot(page: Page, screenshots, name: str) -> None:
    page.screenshot(path=str(screenshots / f"platform-{name}.png"), full_page=True)


def test_found_invite_answer_start_play_and_reload(browser: Browser, server, screenshots):
    founder = browser.new_context().new_page()
    founder.goto(server.base + "/")
    expect(founder.get_by_role("heading", name="Found a new game")).to_be_visible()
    shot(founder, screenshots, "front")
    founder.get_by_label("Your name").fill("Ada")
    founder.get_by_role("button", name=re.compile("Found a new game")).click()
    expect(founder.get_by_text("Invite your players — share this link:")).to_be_visible()
    invite = founder.locator("#invite-link").input_value()
    code = founder.locator("#waiting .code").inner_text().strip()
    assert invite.endswith(f"/join/{code}")
    start = founder.get_by_role("button", name="Begin the game")
    expect(start).to_be_disabled()
    shot(founder, screenshots, "waiting-room")

    # a second player types the code on the front page
    second = browser.new_context().new_page()
    second.goto(server.base + "/")
    second.get_by_label("Invitation code").fill(code.lower())
    second.get_by_role("button", name="Answer").click()
    expect(second.get_by_text("You are cordially invited to a game of")).to_be_visible()
    expect(second.get_by_text("The table is assembling under the code")).to_be_visible()
    shot(second, screenshots, "invitation")
    second.get_by_label("Your name").fill("Bob")
    second.get_by_role("button", name="Take a seat").click()
    expect(second.get_by_text("The waiting room")).to_be_visible()

    # a third opens the shared link
    third = browser.new_context().new_page()
    third.goto(invite)
    third.get_by_label("Your name").fill("Cy <i>")
    third.get_by_role("button", name="Take a seat").click()
    expect(third.get_by_text("The waiting room")).to_be_visible()

    # the founder's list updated live, and Start is now enabled
    expect(founder.locator("#gathered li")).to_have_count(3)
    expect(founder.locator("#gathered")).to_contain_text("Cy <i>")
    expect(start).to_be_enabled()
    shot(founder, screenshots, "waiting-room-full")
    start.click()

    pages = [founder, second, third]
    for p in pages:  # every page turns into the table at once
        expect(p.locator("#table")).to_be_visible()
        expect(p.locator("#seats li")).to_have_count(3)
        expect(p.locator("#seats .me")).to_have_count(1)
    shot(founder, screenshots, "table-start")

    # whoever is awaited plays through the board's buttons; everyone sees the move live
    for turn in range(3):
        mover = next(p for p in pages if "yours" in (p.locator("#prompt").get_attribute("class") or ""))
        expect(mover).to_have_title(re.compile("Your turn"))
        mover.locator("#board button.move").first.click()
        for p in pages:
            expect(p.locator("#log li")).to_have_count(2 * (turn + 1) + 1)  # + the seats drawn by lot
    shot(second, screenshots, "table-after-moves")

    # chat, then a reload of a seat address resumes everything
    second.get_by_role("tab", name="Chat").click()
    second.get_by_label("Message").fill("Well played <b>all</b>")
    second.get_by_role("button", name="Send").click()
    expect(second.locator("#chat li")).to_contain_text("Well played <b>all</b>")
    seat_url = second.url
    second.reload()
    expect(second.locator("#table")).to_be_visible()
    expect(second.locator("#log li")).to_have_count(7)
    second.get_by_role("tab", name="Chat").click()
    expect(second.locator("#chat li")).to_contain_text("Well played <b>all</b>")
    assert second.url == seat_url

    # a late visitor gets a clear page and can watch without seeing any hand
    late = browser.new_context().new_page()
    late.goto(invite)
    expect(late.get_by_text("has already begun")).to_be_visible()
    late.get_by_role("link", name="Watch as a spectator").click()
    expect(late.locator("#seats li")).to_have_count(3)
    expect(late.locator("#board pre")).to_contain_text('"hand": null')
    shot(late, screenshots, "spectator")


def test_the_table_fits_a_phone(browser: Browser, server, screenshots):
    phone = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2, is_mobile=True)
    page = phone.new_page()
    page.goto(server.base + "/")
    shot(page, screenshots, "phone-front")
    page.get_by_label("Your name").fill("Ada")
    page.get_by_role("button", name=re.compile("Found a new game")).click()
    expect(page.get_by_text("Invite your players — share this link:")).to_be_visible()
    shot(page, screenshots, "phone-waiting-room")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the page scrolls sideways ({width} px)"


def test_a_dropped_connection_reconnects_by_itself_after_a_server_restart(browser: Browser, server, screenshots):
    with httpx.Client(base_url=server.base) as c:
        t = started_table(c, ("Ada", "Bob"))
    page = browser.new_context().new_page()
    page.goto(f"{server.base}/seat/{t['tokens'][0]}")
    expect(page.locator("#connection")).to_have_text("Connected")
    # the socket opens before its first view arrives: kill the server only once the table is drawn
    expect(page.locator("#prompt")).to_contain_text(re.compile("Your turn|Waiting for"))
    server.kill()
    expect(page.locator("#connection")).not_to_have_text("Connected")
    # the alarm comes after a few seconds, and the next quiet retries do not hide it again
    expect(page.locator("#connection")).to_contain_text("Connection lost", timeout=8000)
    for _ in range(6):
        page.wait_for_timeout(500)
        expect(page.locator("#connection")).to_contain_text("Connection lost", timeout=100)
    # and nobody is told "Your turn" while no move can be sent
    expect(page.locator("#prompt")).to_contain_text("Not connected — moves cannot be sent")
    expect(page).not_to_have_title(re.compile("Your turn"))
    server.start()  # same port, same database
    expect(page.locator("#connection")).to_have_text("Connected", timeout=15000)
    with httpx.Client(base_url=server.base) as c:  # the game goes on, and the page sees it
        play_one(c, t)
    expect(page.locator("#log li")).to_have_count(3)
