"""Undo and replays in a real Chromium, on London: a loan taken on the page and taken back with
its Undo button, the button gone (and the server's refusal) once a card is drawn; a finished
game stepped through with the keyboard on its replay page, reached from the end screen."""

from __future__ import annotations

import random
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.look import axe, context_args

pytestmark = pytest.mark.e2e

LONDON = "engines.london:ENGINE"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Any:
    from app.storage.db import migrate
    from tests.support.server import ServerProcess

    folder = tmp_path_factory.mktemp("replay-undo")
    url = f"sqlite+aiosqlite:///{folder / 'parlour.db'}"
    migrate(url)
    s = ServerProcess(url, folder / "server.log", engines=LONDON).start()
    yield s
    s.stop()


def table(api: httpx.Client) -> dict[str, Any]:
    t = api.post("/api/tables", json={"game": "london", "name": "Ada"}).json()
    bea = api.post(f"/api/tables/{t['code']}/join", json={"name": "Bea"}).json()
    assert api.post(f"/api/seats/{t['seat_token']}/start").status_code == 200
    by_seat = {api.get(f"/api/seats/{tok}").json()["seat"]: tok for tok in (t["seat_token"], bea["seat_token"])}
    return {"code": t["code"], "by_seat": by_seat}


def wait_seq(page: Page, seq: int) -> None:
    page.wait_for_function("s => +(document.getElementById('board').dataset.seq || -1) >= s"
                           " && !document.body.classList.contains('pending')", arg=seq)


def test_a_loan_is_taken_back_with_the_undo_button_and_not_after_a_draw(browser: Browser, server, screenshots):
    api = httpx.Client(base_url=server.base)
    t = table(api)
    mover = t["by_seat"][0]
    page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    errors: list[Any] = []
    page.on("pageerror", lambda e: errors.append(e))
    page.goto(f"{server.base}/seat/{mover}")
    wait_seq(page, 0)
    undo = page.locator("#undo")
    expect(undo).to_be_hidden()  # its place in the action bar is kept, hidden
    # the turn bell is synthesised by the module fetched on first need (not at the first view)
    with page.expect_request(lambda r: r.url.endswith("/static/js/extras.js")):
        page.click("#sound-toggle")
    page.click('#board [data-k="loan"]')
    wait_seq(page, 1)
    expect(undo).to_be_visible()
    page.screenshot(path=str(screenshots / "undo-button.png"))
    undo.focus()
    page.keyboard.press("Enter")
    wait_seq(page, 2)
    expect(undo).to_be_hidden()
    assert api.get(f"/api/seats/{mover}").json()["view"]["players"][0]["loans"] == 0
    expect(page.locator("#log li", has_text="took back a move")).to_have_count(1)
    # a card drawn from the deck is a boundary: no button, and the server refuses
    page.click('#board [data-k="deck"]')
    wait_seq(page, 3)
    expect(undo).to_be_hidden()
    refused = page.evaluate("""async (url) => {
        const r = await fetch(url, { method: "POST", headers: { "Content-Type": "application/json" },
                                     body: JSON.stringify({ seq: 3 }) });
        return { status: r.status, body: await r.json() };
    }""", f"/api/seats/{mover}/undo")
    assert refused["status"] == 409 and refused["body"]["error"] == "cannot_undo", refused
    assert "card drawn" in refused["body"]["message"]
    assert errors == []


# A quick way through London: draw, take the Draw Three action, discard down, end the turn.
HURRY = ({"type": "draw", "from": "deck"}, {"type": "choose_action", "action": "draw_three"},
         {"type": "end_action"}, {"type": "end_turn"})


def finished_london(api: httpx.Client) -> dict[str, Any]:
    """A two-player London played to the end through the API, the deck drawn dry quickly."""
    t = table(api)
    rng = random.Random(5)
    tok = t["by_seat"][0]
    while True:
        moves = api.get(f"/api/seats/{tok}/moves").json()
        if not moves["moves"]:  # the turn passed (or the game ended)
            other = t["by_seat"][1] if tok == t["by_seat"][0] else t["by_seat"][0]
            moves = api.get(f"/api/seats/{other}/moves").json()
            if not moves["moves"]:
                return t
            tok = other
        hurry = [m for m in moves["moves"] if m in HURRY or m["type"] == "discard"]
        move = hurry[0] if hurry else rng.choice(moves["moves"])
        r = api.post(f"/api/seats/{tok}/moves", json={"seq": moves["seq"], "move": move})
        assert r.status_code == 200, r.text


def test_a_finished_game_is_stepped_through_with_the_keys_on_its_replay_page(browser: Browser, server, screenshots):
    api = httpx.Client(base_url=server.base, timeout=30)
    t = finished_london(api)
    steps = len(api.get(f"/api/tables/{t['code']}/replay").json()["steps"])
    end = browser.new_context(**context_args("laptop")).new_page()
    end.goto(f"{server.base}/seat/{t['by_seat'][1]}")
    link = end.get_by_role("link", name="Watch the replay")
    expect(link).to_be_visible()
    expect(end.get_by_role("link", name="Replay from your seat")).to_be_visible()
    link.scroll_into_view_if_needed()
    end.screenshot(path=str(screenshots / "replay-link-end-screen.png"))
    link.click()
    page = end
    where = page.locator("#r-where")
    expect(where).to_contain_text(f"Step 0 of {steps}")
    expect(page.locator("#board .lon-hand")).to_have_count(0)  # the public view: no hand
    page.keyboard.press("ArrowRight")
    expect(where).to_contain_text(f"Step 1 of {steps}")
    wait_seq(page, 1)
    assert page.evaluate("location.hash") == "#step=1"
    page.keyboard.press("End")
    expect(where).to_contain_text(f"Step {steps} of {steps}")
    page.keyboard.press("ArrowLeft")
    expect(where).to_contain_text(f"Step {steps - 1} of {steps}")
    page.keyboard.press("Home")
    expect(where).to_contain_text(f"Step 0 of {steps}")
    page.keyboard.press("PageDown")  # to the next round
    second = int(page.locator("#r-round option").nth(1).get_attribute("value") or "0")
    expect(where).to_contain_text(f"Step {second} of {steps}")
    expect(page.locator("#r-round")).to_have_value(str(second))
    page.screenshot(path=str(screenshots / "replay-public.png"))
    assert axe(page) == []
    page.keyboard.press(" ")  # play
    expect(page.locator("#r-play")).to_have_attribute("aria-pressed", "true")
    page.wait_for_function("s => location.hash !== '#step=' + s", arg=second)
    page.keyboard.press(" ")
    expect(page.locator("#r-play")).to_have_attribute("aria-pressed", "false")
    # a shared link opens at its step; a player's own replay shows their hand
    mine = browser.new_context(**context_args("phone")).new_page()
    mine.goto(f"{server.base}/seat/{t['by_seat'][1]}/replay#step=12")
    expect(mine.locator("#r-where")).to_contain_text(f"Step 12 of {steps}")
    expect(mine.locator("#board .lon-hand .lc").first).to_be_visible()
    assert mine.evaluate("document.documentElement.scrollWidth") <= 390
    mine.screenshot(path=str(screenshots / "replay-own-seat-phone.png"), full_page=True)
    assert axe(mine) == []


# every link to a replay and every heading put into the end's box, counted as they come
COUNT_INSERTS = """new MutationObserver((changes) => {
  for (const c of changes) for (const n of c.addedNodes) if (n.nodeType === 1) {
    window.endInserts = window.endInserts || {links: 0, headings: 0};
    window.endInserts.links += n.matches("a.replay") ? 1 : n.querySelectorAll("a.replay").length;
    window.endInserts.headings += n.matches("h2") ? 1 : n.querySelectorAll("h2").length;
  }
}).observe(document, {childList: true, subtree: true});"""


def test_the_end_box_is_drawn_once_after_the_board_so_its_replay_links_stay_under_the_pointer(browser: Browser,
                                                                                                server):
    """The game's renderer says whether it names the winner itself: the end's box waits for it,
    instead of being drawn with a winner's heading and drawn again without (its links replaced
    while a player reaches for them). The renderer is held back to make the order certain."""
    api = httpx.Client(base_url=server.base, timeout=30)
    t = finished_london(api)
    end = browser.new_context(**context_args("laptop")).new_page()
    end.add_init_script(COUNT_INSERTS)
    held: list[Any] = []
    end.route("**/static/games/london/renderer.js*", lambda route: held.append(route))
    end.goto(f"{server.base}/seat/{t['by_seat'][1]}")
    expect(end.locator("#players .seat")).to_have_count(2)  # the view has come
    # the end's module has come (the page asks for it with the first view of a finished game)
    end.wait_for_function("() => performance.getEntriesByType('resource').some((r) => r.name.includes('/extras.js'))")
    end.wait_for_timeout(500)  # and time for a box drawn too early to be drawn
    assert held, "the renderer was never asked for"
    assert end.locator("#result").is_hidden()
    for route in held:
        route.continue_()
    expect(end.get_by_role("link", name="Watch the replay")).to_be_visible()
    expect(end.get_by_role("link", name="Replay from your seat")).to_be_visible()
    end.wait_for_timeout(300)
    inserts = end.evaluate("window.endInserts")
    assert inserts["links"] == 2, inserts  # each link once
    assert end.locator("#result h2").count() == 0  # London's board names the winner
    end.context.close()


@pytest.fixture(scope="module")
def tower(tmp_path_factory: pytest.TempPathFactory) -> Any:
    from tests.support.server import ServerProcess

    folder = tmp_path_factory.mktemp("tower-undo")
    s = ServerProcess(f"sqlite+aiosqlite:///{folder / 'parlour.db'}", folder / "server.log",
                      engines="engines.tower_of_london:ENGINE").start()
    yield s
    s.stop()


def test_tower_of_london_chosen_cards_are_taken_back_while_the_other_player_still_chooses(browser: Browser, tower,
                                                                                          screenshots):
    api = httpx.Client(base_url=tower.base)
    t = api.post("/api/tables", json={"game": "tower_of_london", "name": "Ada"}).json()
    api.post(f"/api/tables/{t['code']}/join", json={"name": "Bea"})
    assert api.post(f"/api/seats/{t['seat_token']}/start").status_code == 200
    me = t["seat_token"]
    page = browser.new_context(**context_args("phone")).new_page()
    page.goto(f"{tower.base}/seat/{me}")
    page.wait_for_function("() => document.querySelector('#board .tol[data-seq=\"0\"]')")
    moves = api.get(f"/api/seats/{me}/moves").json()
    assert api.post(f"/api/seats/{me}/moves", json={"seq": 0, "move": moves["moves"][0]}).status_code == 200
    undo = page.locator("#undo")
    expect(undo).to_be_visible()
    page.screenshot(path=str(screenshots / "undo-tower-of-london-phone.png"))
    undo.click()
    page.wait_for_function("() => document.querySelector('#board .tol[data-seq=\"2\"]')")
    expect(undo).to_be_hidden()
    mine = api.get(f"/api/seats/{me}").json()
    assert mine["seat"] in mine["awaiting"] and mine["undo"] is False
