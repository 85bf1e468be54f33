"""Private chats in a real Chromium: three players (one on a phone) and a spectator. A private
message reaches only its members (named by house and player, as a game whose seats are houses
gives them), survives a reload, its unread mark clears once read (and stays
while unread, across a reload); the panel is driven by keyboard and axe-core finds nothing serious
in it; the spectator's page never loads it."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.look import axe, context_args
from tests.support.diplomatic import HOUSES, HOUSES_TALLY
from tests.support.play import started_table

pytestmark = pytest.mark.e2e

SECRET = "Meet me at Harrenhal"


@pytest.fixture
def server(sqlite_url, server_factory):
    return server_factory(sqlite_url, engines=HOUSES_TALLY)


def shot(page: Page, screenshots: Path, name: str) -> None:
    page.screenshot(path=str(screenshots / f"private-chats-{name}.png"), full_page=True)


def private_tab(page: Page) -> Any:
    return page.locator("#t-private")


def open_private_tab_by_keyboard(page: Page) -> None:
    """From the Log tab, the arrow keys reach the Private tab (the tabs' own keyboard use)."""
    page.locator("#t-log").focus()
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    expect(private_tab(page)).to_be_focused()
    expect(page.locator("#tab-private")).to_be_visible()


def test_a_private_message_reaches_only_its_members_survives_reload_and_its_unread_mark_clears(
        browser: Browser, server, screenshots: Path):
    api = httpx.Client(base_url=server.base)
    t = started_table(api, ("Ada", "Bob", "Cy"))
    names = {p["seat"]: p["name"] for p in api.get(f"/api/tables/{t['code']}").json()["players"]}
    seat_of = {n: s for s, n in names.items()}
    url = {n: f"{server.base}/seat/{t['by_seat'][seat_of[n]]}" for n in ("Ada", "Bob", "Cy")}
    who = {n: f"{HOUSES[seat_of[n]]} ({n})" for n in ("Ada", "Bob", "Cy")}  # "Stark (Ada)"
    chat_with = {n: re.compile(f"^With {re.escape(who[n])}(?!,)") for n in ("Ada", "Bob")}

    ada = browser.new_context(**context_args("laptop")).new_page()
    bob = browser.new_context(**context_args("phone")).new_page()  # on a phone
    cy = browser.new_context(**context_args("laptop", "dark")).new_page()  # in the dark theme
    spectator = browser.new_context(**context_args("laptop")).new_page()
    loaded: list[str] = []
    spectator.on("request", lambda r: loaded.append(r.url))
    cy_loaded: list[str] = []
    cy.on("request", lambda r: cy_loaded.append(r.url))
    for page, where in ((ada, url["Ada"]), (bob, url["Bob"]), (cy, url["Cy"]),
                        (spectator, f"{server.base}/watch/{t['code']}")):
        page.goto(where)
        expect(page.locator("#seats li")).to_have_count(3)

    # Ada opens a chat with Bob, all by keyboard, and writes to him.
    open_private_tab_by_keyboard(ada)
    expect(ada.locator("#tab-private")).to_contain_text("No private chats yet")
    assert not axe(ada, scope="#tab-private"), axe(ada, scope="#tab-private")
    shot(ada, screenshots, "list")
    box = ada.get_by_role("checkbox", name=who["Bob"])
    box.focus()
    ada.keyboard.press("Space")
    expect(box).to_be_checked()
    for _ in range(3):  # past the other seats' boxes to the button
        if ada.evaluate("document.activeElement.id") == "pc-open":
            break
        ada.keyboard.press("Tab")
    expect(ada.get_by_role("button", name="Open chat")).to_be_focused()
    ada.keyboard.press("Enter")
    expect(ada.get_by_role("heading", name=f"With {who['Bob']}")).to_be_visible()
    expect(ada.get_by_label(f"Message to {who['Bob']}")).to_be_focused()
    ada.keyboard.type(SECRET)
    ada.keyboard.press("Enter")
    expect(ada.locator("#pc-messages")).to_contain_text(SECRET)
    expect(ada.locator("#pc-messages li.mine .name")).to_have_text(f"{HOUSES[seat_of['Ada']]} (Ada, you)")
    expect(ada.get_by_label(f"Message to {who['Bob']}")).to_have_value("")

    # Bob, on his phone, is told: a mark on the tab and on the chat, in words.
    expect(private_tab(bob)).to_have_attribute("aria-label", "Private chats, 1 unread")
    expect(bob.locator("#private-unread")).to_have_text("1")
    shot(bob, screenshots, "phone-unread")
    private_tab(bob).click()
    expect(bob.get_by_role("button", name=chat_with["Ada"])).to_contain_text("1 unread")
    bob.get_by_role("button", name=chat_with["Ada"]).click()
    expect(bob.locator("#pc-messages")).to_contain_text(SECRET)
    expect(bob.locator("#private-unread")).to_be_hidden()  # read now, and stored as read
    assert not axe(bob, scope="#tab-private"), axe(bob, scope="#tab-private")
    width = bob.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the phone page scrolls sideways ({width} px)"
    shot(bob, screenshots, "phone-chat")

    # Bob answers; then looks at the log while Ada writes again: the mark stays across a reload.
    bob.get_by_label(f"Message to {who['Ada']}").fill("Agreed — not a word to Cy.")
    bob.get_by_role("button", name="Send").click()
    expect(ada.locator("#pc-messages")).to_contain_text("not a word to Cy")
    expect(ada.locator("#private-unread")).to_be_hidden()  # Ada has the chat open before her eyes
    bob.locator("#t-log").click()
    ada.get_by_label(f"Message to {who['Bob']}").fill("Then march on the Reach.")
    ada.keyboard.press("Enter")
    expect(bob.locator("#private-unread")).to_have_text("1")
    bob.reload()
    expect(bob.locator("#private-unread")).to_have_text("1")
    private_tab(bob).click()
    bob.get_by_role("button", name=chat_with["Ada"]).click()
    expect(bob.locator("#pc-messages li")).to_have_count(3)
    expect(bob.locator("#private-unread")).to_be_hidden()
    bob.reload()
    expect(bob.locator("#seats li")).to_have_count(3)
    private_tab(bob).click()
    expect(bob.get_by_role("button", name=chat_with["Ada"])).to_be_visible()
    expect(bob.locator("#private-unread")).to_be_hidden()  # read before the reload: still read
    bob.get_by_role("button", name=chat_with["Ada"]).click()
    expect(bob.locator("#pc-messages")).to_contain_text(SECRET)

    # Agreeing to publish: each member's own choice, shown to both.
    bob.get_by_label("I agree to publish this chat with the game's record").check()
    expect(ada.locator("#tab-private .pc-consent")).to_contain_text(f"{who['Bob']} ✓ agrees")
    expect(ada.locator("#tab-private .pc-consent")).to_contain_text("you — not yet")
    shot(ada, screenshots, "chat")

    # Cy and the spectator saw none of it. Cy's page has not even fetched the private chats'
    # module (nothing private came to it); choosing the tab does, and it has no chat.
    assert not [u for u in cy_loaded if "diplomacy" in u]
    private_tab(cy).click()
    expect(cy.locator("#tab-private")).to_contain_text("No private chats yet")
    expect(cy.locator("#private-unread")).to_be_hidden()
    for page in (cy, spectator):
        page.locator("#t-chat").click()
        assert SECRET not in page.content() and "Reach" not in page.content()
    expect(spectator.locator("#t-private")).to_have_count(0)
    assert not [u for u in loaded if "diplomacy" in u], "the spectator's page loaded the private chats"

    # Cy opens a group with both; everyone in it sees it.
    private_tab(cy).click()
    cy.get_by_role("checkbox", name=who["Ada"]).check()
    cy.get_by_role("checkbox", name=who["Bob"]).check()
    cy.get_by_role("button", name="Open chat").click()
    pair = f"({re.escape(who['Ada'])}, {re.escape(who['Bob'])}|{re.escape(who['Bob'])}, {re.escape(who['Ada'])})"
    expect(cy.get_by_role("heading", name=re.compile(f"^With {pair}$"))).to_be_visible()
    cy.get_by_label(re.compile(f"^Message to {pair}$")).fill("A council of three?")
    cy.keyboard.press("Enter")
    expect(cy.locator("#pc-messages")).to_contain_text("A council of three?")
    assert not axe(cy, scope="#tab-private"), axe(cy, scope="#tab-private")
    shot(cy, screenshots, "dark-group")
    bob.get_by_role("button", name="← All chats").click()
    group = bob.get_by_role("button", name=re.compile(
        f"With ({re.escape(who['Ada'])}, {re.escape(who['Cy'])}|{re.escape(who['Cy'])}, {re.escape(who['Ada'])})"))
    expect(group).to_contain_text("1 unread")
    expect(bob.locator("#private-unread")).to_have_text("1")
    shot(bob, screenshots, "phone-two-chats")
