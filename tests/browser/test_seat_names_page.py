"""Seats named as the game names them, in a real Chromium: on a table whose seats are houses
(the engine's seat labels), the banner ("Waiting for Lannister (Bob)…"), the log, the table chat
and the end screen name every seat by its house with the player beside it."""

from __future__ import annotations

import re

import httpx
import pytest
from playwright.sync_api import Browser, expect

from tests.browser.look import context_args
from tests.support.diplomatic import HOUSES, HOUSES_TALLY
from tests.support.play import awaited_token, play_one, started_table

pytestmark = pytest.mark.e2e


@pytest.fixture
def server(sqlite_url, server_factory):
    return server_factory(sqlite_url, engines=HOUSES_TALLY)


def test_the_banner_log_chat_and_end_screen_name_seats_by_house_and_player(browser: Browser, server):
    api = httpx.Client(base_url=server.base)
    t = started_table(api, ("Ada", "Bob"), target=21)
    names = {p["seat"]: p["name"] for p in api.get(f"/api/tables/{t['code']}").json()["players"]}
    who = {s: f"{HOUSES[s]} ({names[s]})" for s in names}  # "Stark (Ada)"
    _, awaited = awaited_token(api, t)
    idle = 1 - awaited
    page = browser.new_context(**context_args("laptop")).new_page()
    page.goto(f"{server.base}/seat/{t['by_seat'][idle]}")

    expect(page.locator("#prompt")).to_have_text(f"Waiting for {who[awaited]}…")
    expect(page.locator("#log li").first).to_have_text(
        f"Seats were drawn by lot: 1. {who[0]}, 2. {who[1]}. The game begins.")

    play_one(api, t)
    expect(page.locator("#log li").nth(1)).to_have_text(re.compile(f"^{re.escape(who[awaited])} "))

    page.get_by_role("tab", name="Chat").click()
    page.get_by_label("Message").fill("Winter is coming")
    page.get_by_role("button", name="Send").click()
    expect(page.locator("#chat li .name")).to_have_text(who[idle])

    while api.get(f"/api/tables/{t['code']}").json()["status"] != "finished":
        play_one(api, t)
    winner = api.get(f"/api/tables/{t['code']}").json()["result"]["winners"][0]
    expect(page.locator("#result h2")).to_have_text(f"{who[winner]} wins")
    expect(page.locator("#result")).to_contain_text(f"Scores: {who[0]} ")
