"""A player who does not see the screen, for the browser tests: reads the page only through the
accessibility tree (Playwright's ARIA snapshot of the board: roles and accessible names) and what
the two live regions said (#announce, #announce-turn, recorded as they speak), and acts only with
the keyboard: Tab or Shift+Tab along the focus order to a control found by role and name, then
Enter. No CSS selector picks a control and no mouse clicks.

The other seats are played through the JSON API (tests/browser/scenes.py's Table); after each of
their moves the player's page must have announced a line naming the mover."""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Locator, Page, expect

from tests.browser import scenes

# every line the live regions speak, kept as it was said (a spoken line leaves #announce later)
RECORD = """() => {
  if (window.heard) return;
  window.heard = { polite: [], turn: [] };
  for (const [id, key] of [["announce", "polite"], ["announce-turn", "turn"]]) {
    new MutationObserver((records) => {
      for (const r of records) for (const n of r.addedNodes) {
        const text = n.textContent.trim();
        if (text) window.heard[key].push(text);
      }
    }).observe(document.getElementById(id), { childList: true, subtree: true });
  }
}"""

# how many steps along the focus order (Tab > 0, Shift+Tab < 0) from the focused element to
# the control: what a keyboard user counts by pressing the key and listening
TAB_DISTANCE = """(target) => {
  const all = [...document.querySelectorAll('a[href], button, input, select, textarea, summary, [tabindex]')]
    .filter((n) => n.tabIndex >= 0 && !n.disabled && !n.closest('[inert]')
      && n.checkVisibility({ checkVisibilityCSS: true }));
  const here = all.indexOf(document.activeElement);
  const there = all.indexOf(target);
  if (there < 0) return null;
  return there - here;
}"""

BUTTON = re.compile(r'^button "(?P<name>.*)"(?P<attrs>(?: \[[^\]]*\])*):?$')


def buttons(scope: Locator, pressed: bool | None = None) -> list[str]:
    """The accessible names of the enabled buttons in scope, in the order of the tree (only the
    toggles pressed, or not pressed, when asked)."""
    out = []
    for raw in scope.aria_snapshot().splitlines():
        line = raw.strip()
        if not line.startswith("- "):
            continue
        line = line[2:]
        if line.startswith("'") and line.rstrip(":").endswith("'"):
            line = line.rstrip(":")[1:-1].replace("''", "'")
        m = BUTTON.match(line)
        if pressed is not None and ("[pressed]" in m["attrs"] if m else False) != pressed:
            continue
        if m and "[disabled]" not in m["attrs"]:
            out.append(m["name"].replace('\\"', '"'))
    return out


def focused(target: Locator) -> bool:
    return bool(target.evaluate("(n) => n === document.activeElement"))


def tab_to(page: Page, target: Locator) -> int:
    """Moves the focus to the control with Tab or Shift+Tab; returns the number of key presses."""
    steps = target.evaluate(TAB_DISTANCE)
    assert steps is not None, "the control is not in the focus order"
    key = "Tab" if steps >= 0 else "Shift+Tab"
    for _ in range(abs(steps)):
        page.keyboard.press(key)
    pressed = abs(steps)
    while not focused(target):  # the count missed (a control appeared): one step at a time
        page.keyboard.press("Tab")
        pressed += 1
        assert pressed < 600, "Tab never reached the control"
    return pressed


@dataclass
class Listener:
    """A seat's page, driven by the keyboard and heard through its live regions."""

    page: Page
    name: str
    presses: int = 0
    moves: int = 0
    checked: dict[str, int] = field(default_factory=dict)  # other seats' moves announced, per name

    def start(self) -> None:
        self.page.evaluate(RECORD)

    def heard(self, key: str = "polite") -> list[str]:
        return list(self.page.evaluate(f"() => window.heard.{key}"))

    def board(self) -> Locator:
        return self.page.get_by_label("The board", exact=True)

    def choices(self, pressed: bool | None = None) -> list[str]:
        return buttons(self.board(), pressed)

    def press(self, name: str | Locator) -> None:
        """Tabs to the button named ``name`` (or to the control given) and presses Enter."""
        target = self.page.get_by_role("button", name=name, exact=True).first if isinstance(name, str) else name
        self.presses += tab_to(self.page, target) + 1
        expect(target).to_be_focused()
        self.page.keyboard.press("Enter")
        self.moves += 1

    def wait_heard(self, key: str, count: int, timeout: float = 15) -> list[str]:
        self.page.wait_for_function(f"(n) => window.heard.{key}.length > n", arg=count, timeout=timeout * 1000)
        return self.heard(key)


def play_others(table: scenes.Table, me: int, listener: Listener, names: dict[int, str],
                pick: Callable[[int, list[dict[str, Any]]], int]) -> bool:
    """Plays the other awaited seats through the API until the listener's seat is awaited (or the
    game ends); each of their moves must be announced on the listener's page, naming the mover.
    Returns False when the game is over."""
    while True:
        summary = table.summary()
        if summary["status"] == "finished":
            return False
        awaited = list(summary["awaiting"])
        if me in awaited:
            return True
        for seat in awaited:
            seq, moves = table.legal(seat)
            if not moves:
                continue
            before = len(listener.heard())
            table.play(seat, moves[pick(seat, moves)], seq)
            who = names[seat]
            try:
                listener.page.wait_for_function(
                    "([n, who]) => window.heard.polite.slice(n).some((l) => l.includes(who))",
                    arg=[before, who], timeout=15_000)
            except PlaywrightError as err:
                raise AssertionError(f"{who}'s move was not announced: {listener.heard()[before:]}") from err
            listener.checked[who] = listener.checked.get(who, 0) + 1


def wait_processed(table: scenes.Table, me: int, seq: int, timeout: float = 15) -> None:
    """Waits until the table has taken the listener's move (the table's count of moves passed seq)."""
    deadline = time.monotonic() + timeout
    while table.legal(me)[0] <= seq:
        assert time.monotonic() < deadline, "the move was not taken"
        time.sleep(0.02)
