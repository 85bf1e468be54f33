"""The screenshot gallery: every game's front page, waiting room and a turn in the middle of a game,
on a phone (390×844) and a laptop (1366×768), in the light and the dark theme, written to
docs/screenshots/ with an index (docs/screenshots/README.md).

    .venv/bin/python scripts/screenshots.py            # the whole gallery
    .venv/bin/python scripts/screenshots.py london     # one game's pictures only

It starts its own server (every built-in game, a fresh SQLite database in a temporary folder, a
free port, invitation links on an example address), founds a table of each game through the API,
seats the players, plays the first moves with a seeded chooser, and looks through Debian's
Chromium (`chromium` on the PATH), as the browser tests do. A picture over PICTURE_BUDGET bytes
is stored with a palette of 256 colours (median cut, in the browser), which keeps the gallery small.
"""

from __future__ import annotations

import base64
import os
import random
import shutil
import struct
import subprocess
import sys
import tempfile
import time
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
from playwright.sync_api import Browser, Page, sync_playwright

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.browser import scenes  # noqa: E402 -- the tests' own ways to reach a state
from tests.browser.test_game_of_thrones import Policy  # noqa: E402
from tests.support.server import free_port  # noqa: E402

OUT = ROOT / "docs" / "screenshots"
GAMES = {"london": "London", "tower_of_london": "Tower of London", "towers_of_babylon": "Towers of Babylon",
         "game_of_thrones": "A Game of Thrones"}
SIZES = {"phone": (390, 844), "laptop": (1366, 768)}
THEMES = ("light", "dark")
PICTURE_BUDGET = 160_000
PUBLIC_URL = "https://parlour.example"  # what the invitation links in the pictures read
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run"]
NAMES = {"london": ("Ada", "Beatrice"), "tower_of_london": ("Heather", "Ross", "Nate"),
         "towers_of_babylon": ("Ada", "Beatrice"), "game_of_thrones": ("Ada", "Bea", "Cyril")}


# -- tables at the moments shown -----------------------------------------------------------

def waiting_room(api: httpx.Client, game: str) -> str:
    """A gathering table as its founder sees it: a second player has answered, and where a third
    seat exists a bot sits in it."""
    names = NAMES[game]
    t = api.post("/api/tables", json={"game": game, "name": names[0]}).json()
    api.post(f"/api/tables/{t['code']}/join", json={"name": names[1]}).raise_for_status()
    if game not in ("london", "towers_of_babylon"):
        api.post(f"/api/seats/{t['seat_token']}/bots", json={"level": "good"}).raise_for_status()
    return f"/seat/{t['seat_token']}"


Pick = Callable[[int, list[dict[str, Any]]], int]


def preferring(seed: int, *kinds: str, never: tuple[str, ...] = ("undo", "unorder")) -> Pick:
    """Picks a move of the first kind listed that is legal now (at random among them), or else
    any move but a take-back."""
    rng = random.Random(seed)

    def pick(seat: int, moves: list[dict[str, Any]]) -> int:
        for kind in kinds:
            found = [i for i, m in enumerate(moves) if m["type"] == kind]
            if found:
                return rng.choice(found)
        rest = [i for i, m in enumerate(moves) if m["type"] not in never]
        return rng.choice(rest or list(range(len(moves))))
    return pick


def mid_game(api: httpx.Client, game: str) -> str:
    """A seat's page on its turn, some way into a game."""
    if game == "london":
        t = scenes.london(api)
        t.advance(scenes.london_chooser(3), scenes.london_step("action", min_moves=40))
        return t.seat_url(t.awaiting()[0])
    if game == "tower_of_london":
        t = scenes.tower(api)
        t.advance(scenes.tower_chooser(1), scenes.tower_kind("place"))
        return t.seat_url(scenes.awaited_with(t, "place"))
    t = scenes.Table(api, game, NAMES[game])
    if game == "towers_of_babylon":
        # ready-made decks, kept hands, then a main phase with minions on both sides and cards in hand
        pick = preferring(5, "deck", "ready", "keep", "play", "build", "attack", "move", "end")

        def main_phase(t: scenes.Table) -> bool:
            if t.moves < 40 or 0 not in t.awaiting():
                return False
            view = t.view(0)
            return (view["prompt"] or {}).get("kind") == "main" and len(view["players"][0]["hand"] or []) >= 2
        t.advance(pick, main_phase)
        return t.seat_url(0)
    # A Game of Thrones: the tests' policy (orders on every area, marches towards the enemy) into
    # round 2's action phase
    policy = Policy(api.get(f"/api/tables/{t.code}/static").json()["adjacency"])
    for _ in range(3000):
        view = t.view(0)
        if view["round"] >= 2 and view["phase"] == "action" and 0 in t.awaiting():
            return t.seat_url(0)
        for seat in t.awaiting():
            seq, moves = t.legal(seat)
            if moves:
                t.play(seat, policy.pick(seat, moves, t.view(seat)), seq)
    raise RuntimeError("A Game of Thrones never reached round 2's action phase")


# -- the server -----------------------------------------------------------------------------

def serve(folder: Path) -> tuple[subprocess.Popen[bytes], str]:
    """`parlour serve` with every built-in game on a fresh SQLite database, on a free port."""
    port = free_port()
    env = {**os.environ, "DATABASE_URL": f"sqlite+aiosqlite:///{folder / 'parlour.db'}", "PARLOUR_ENGINES": "",
           "PUBLIC_URL": PUBLIC_URL, "PYTHONUNBUFFERED": "1"}
    log = open(folder / "server.log", "ab")  # noqa: SIM115 -- handed to the server process
    proc = subprocess.Popen([sys.executable, "-m", "app.cli", "serve", "--host", "127.0.0.1", "--port", str(port)],
                            cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError((folder / "server.log").read_text()[-3000:])
        try:
            if httpx.get(f"{base}/healthz", timeout=1).status_code == 200:
                return proc, base
        except httpx.HTTPError:
            time.sleep(0.2)
    proc.kill()
    raise RuntimeError("the server did not start in 60 s")


# -- pictures ------------------------------------------------------------------------------

def open_page(page: Page, url: str) -> None:
    page.goto(url)
    if "/seat/" in url:
        page.wait_for_function("() => window.parlourMetrics && (window.parlourMetrics.firstView !== null"
                               " || !document.getElementById('waiting').hidden)")
    page.evaluate("() => document.fonts.ready")
    page.wait_for_timeout(400)
    page.evaluate("() => document.getAnimations().forEach((a) => { try { a.finish(); } catch (e) { /* endless */ } })")


# Median cut over a 6-bit-per-channel histogram of the picture, in the page: the palette (the
# mean colour of each box) and each pixel's index, base64.
QUANTIZE_JS = """async (png) => {
  const img = new Image(); img.src = 'data:image/png;base64,' + png; await img.decode();
  const c = document.createElement('canvas'); c.width = img.width; c.height = img.height;
  const g = c.getContext('2d'); g.drawImage(img, 0, 0);
  const d = g.getImageData(0, 0, c.width, c.height).data;
  const n = c.width * c.height, of = new Uint32Array(n);
  const bins = new Uint32Array(1 << 18), sums = new Float64Array(3 << 18);
  for (let i = 0; i < n; i++) {
    const r = d[4 * i], gg = d[4 * i + 1], b = d[4 * i + 2];
    const k = ((r >> 2) << 12) | ((gg >> 2) << 6) | (b >> 2);
    of[i] = k; bins[k]++; sums[3 * k] += r; sums[3 * k + 1] += gg; sums[3 * k + 2] += b;
  }
  let used = []; for (let k = 0; k < bins.length; k++) if (bins[k]) used.push(k);
  const ch = (k, a) => a === 0 ? k >> 12 : a === 1 ? (k >> 6) & 63 : k & 63;
  const boxOf = (keys) => {
    const lo = [63, 63, 63], hi = [0, 0, 0]; let count = 0;
    for (const k of keys) {
      count += bins[k];
      for (let a = 0; a < 3; a++) { const v = ch(k, a); lo[a] = Math.min(lo[a], v); hi[a] = Math.max(hi[a], v); }
    }
    return { keys, count, lo, hi };
  };
  const boxes = [boxOf(used)];
  while (boxes.length < 256) {
    let best = -1, score = 0;
    boxes.forEach((b, i) => { const span = Math.max(...[0, 1, 2].map((a) => b.hi[a] - b.lo[a]));
      const s = span * Math.sqrt(b.count); if (span > 0 && s > score) { score = s; best = i; } });
    if (best < 0) break;
    const b = boxes[best];
    const spans = [0, 1, 2].map((a) => b.hi[a] - b.lo[a]); const axis = spans.indexOf(Math.max(...spans));
    b.keys.sort((x, y) => ch(x, axis) - ch(y, axis));
    let half = 0, at = 0;
    while (at < b.keys.length - 1 && half + bins[b.keys[at]] < b.count / 2) half += bins[b.keys[at++]];
    at = Math.max(1, at);
    boxes.splice(best, 1, boxOf(b.keys.slice(0, at)), boxOf(b.keys.slice(at)));
  }
  const index = new Uint8Array(1 << 18), palette = [];
  boxes.forEach((b, i) => { let r = 0, gg = 0, bb = 0;
    for (const k of b.keys) { index[k] = i; r += sums[3 * k]; gg += sums[3 * k + 1]; bb += sums[3 * k + 2]; }
    palette.push([r, gg, bb].map((v) => Math.round(v / b.count))); });
  const out = new Uint8Array(n); for (let i = 0; i < n; i++) out[i] = index[of[i]];
  let s = ''; for (let i = 0; i < n; i += 0x8000) s += String.fromCharCode.apply(null, out.subarray(i, i + 0x8000));
  return { width: c.width, height: c.height, palette, pixels: btoa(s) };
}"""


def chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def paletted_png(width: int, height: int, palette: list[list[int]], pixels: bytes) -> bytes:
    rows = b"".join(b"\0" + pixels[y * width:(y + 1) * width] for y in range(height))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0))
            + chunk(b"PLTE", b"".join(bytes(c) for c in palette)) + chunk(b"IDAT", zlib.compress(rows, 9))
            + chunk(b"IEND", b""))


def smaller(workbench: Page, png: bytes) -> bytes:
    if len(png) <= PICTURE_BUDGET:
        return png
    q = workbench.evaluate(QUANTIZE_JS, base64.b64encode(png).decode())
    small = paletted_png(q["width"], q["height"], q["palette"], base64.b64decode(q["pixels"]))
    return small if len(small) < len(png) else png


def shoot(browser: Browser, base: str, pages: dict[str, str], game: str) -> list[Path]:
    workbench = browser.new_page()
    written = []
    for size, (w, h) in SIZES.items():
        for theme in THEMES:
            args: dict[str, Any] = {"viewport": {"width": w, "height": h}, "color_scheme": theme,
                                    "reduced_motion": "reduce"}
            if size == "phone":
                args.update(is_mobile=True, has_touch=True)
            ctx = browser.new_context(**args)
            page = ctx.new_page()
            for what, path in pages.items():
                open_page(page, base + path)
                out = OUT / f"{game}-{what}-{size}-{theme}.png"
                out.write_bytes(smaller(workbench, page.screenshot()))
                written.append(out)
                print(f"{out.relative_to(ROOT)}  {out.stat().st_size // 1024} KB", flush=True)
            ctx.close()
    workbench.close()
    return written


INDEX_HEAD = """# Screenshots

Made by `.venv/bin/python scripts/screenshots.py` (every game's front page, waiting room and a turn
in the middle of a game, on a 390×844 phone and a 1366×768 laptop, light and dark). Run it again
after changing a page, and look at every picture.

"""


def write_index() -> None:
    lines = [INDEX_HEAD]
    for game, title in GAMES.items():
        lines.append(f"## {title}\n\n| | phone, light | phone, dark | laptop, light | laptop, dark |\n"
                     "| --- | --- | --- | --- | --- |\n")
        for what, label in (("front", "front page"), ("waiting", "waiting room"), ("turn", "a turn")):
            cells = [f"[{s}, {t}]({game}-{what}-{s}-{t}.png)" for s in SIZES for t in THEMES]
            lines.append(f"| {label} | " + " | ".join(cells) + " |\n")
        lines.append("\n")
    (OUT / "README.md").write_text("".join(lines).rstrip() + "\n")


def main(argv: list[str]) -> int:
    games = [g for g in argv if g in GAMES] or list(GAMES)
    chromium = shutil.which("chromium")
    if chromium is None:
        print("Chromium is needed: apt-get install chromium (scripts/test.sh installs it too)", file=sys.stderr)
        return 1
    OUT.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        server, base = serve(Path(tmp))
        try:
            api = httpx.Client(base_url=base, timeout=30)
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS, headless=True)
                total = 0
                for game in games:
                    pages = {"front": f"/?game={game}", "waiting": waiting_room(api, game), "turn": mid_game(api, game)}
                    total += sum(p.stat().st_size for p in shoot(browser, base, pages, game))
                browser.close()
        finally:
            server.terminate()
            server.wait(10)
    write_index()
    print(f"{total // 1024} KB written to {OUT.relative_to(ROOT)}/")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
