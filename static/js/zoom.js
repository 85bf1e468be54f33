// The card zoom, fetched by the kit (kit.js, attachZoom) on the first event on a card, which hands
// it every event since, in order, with the moment it happened. One zoom at a time, in one box
// fixed to the window (it never moves the page), placed clear of its card and of the action bar.
// It opens on a mouse's rest over a card (and closes when the mouse leaves it), on a long press
// (decided by the kit; it stays once the finger lifts: a tap elsewhere or on the zoom closes it),
// or on a card reached from the keyboard (leaving it or Escape closes it). A description may come
// late (a game's module fetched on first use): it shows if it is still wanted when it comes.
import { el } from "./kit.js";

const sheet = Object.assign(document.createElement("link"), { rel: "stylesheet", href: new URL("../css/zoom.css", import.meta.url).pathname });
// (a zoom is shown once its styles are there: it is measured to be placed)
const styled = new Promise((done) => { sheet.onload = sheet.onerror = done; });
document.head.append(sheet);
const HOVER_MS = 350;
let box = null;
let want = null; // { root, selector, target, how: "hover" | "press" | "focus" } — shown, or on its way
let asked = 0; // each request's number: a description that comes for an older one is dropped
let timer = 0;
let rest = null; // where a mouse button last went down: a card drawn anew under a still mouse stays shut
let watcher = null;

/** Closes the zoom (shown or on its way). */
export function close() {
  clearTimeout(timer);
  asked++;
  want = null;
  if (watcher) watcher.disconnect();
  if (box) box.hidden = true;
}

// A redraw replaced the card: the same card drawn again is the element under root matching the
// selector with the same data attributes; none, and the zoom closes.
function follow() {
  if (!want || want.target.isConnected) return Boolean(want);
  const same = JSON.stringify({ ...want.target.dataset });
  const again = [...want.root.querySelectorAll(want.selector)].find((n) => JSON.stringify({ ...n.dataset }) === same);
  if (again) { want.target = again; return true; }
  close();
  return false;
}

function ask(root, selector, describe, target, how, delay) {
  clearTimeout(timer);
  const n = ++asked;
  want = { root, selector, target, how };
  if (box && !box.hidden && how === "press") box.hidden = true;
  timer = setTimeout(async () => {
    let content = null;
    try { content = await describe(target); await styled; } catch { content = null; }
    if (n !== asked || !follow()) return;
    if (content) show(content); else close();
  }, delay);
}

function show(content) {
  if (!box) {
    box = el("div", { class: "kit-zoom", role: "tooltip", id: "kit-zoom", hidden: true });
    document.body.append(box);
    // a held zoom closes on a tap on it — at the click: closed at its pointerdown, the tap would
    // fall through to what lies under it
    box.addEventListener("click", close);
    new ResizeObserver(() => place()).observe(box);
  }
  box.replaceChildren(content);
  // hovered, it lets the pointer through; held, it takes the tap that closes it
  box.classList.toggle("held", want.how === "press");
  box.hidden = false;
  place();
  if (!watcher) watcher = new MutationObserver(() => follow() && place());
  watcher.observe(want.root, { childList: true, subtree: true });
}

// Beside the card (right, else left), else above or below it: never over the card or the bar;
// where neither above nor below has room, on the roomier side, drawn smaller to fit.
function place() {
  if (!want || !box || box.hidden) return;
  box.style.transform = "";
  const r = want.target.getBoundingClientRect();
  if (r.bottom < 0 || r.top > innerHeight || !r.width) { close(); return; }
  const w = box.offsetWidth; const h = box.offsetHeight;
  const vw = document.documentElement.clientWidth;
  const b = document.getElementById("action-bar")?.getBoundingClientRect();
  let top = 6, vh = innerHeight;
  if (b?.height) { if (b.top > vh / 2) vh = b.top; else if (b.top < 1) top = b.bottom + 6; }
  let x = r.right + 10;
  if (x + w > vw - 6) x = r.left - w - 10;
  let y = Math.min(Math.max(top, r.top), vh - h - 6);
  let k = 1;
  if (x < 6) {
    // over the card's column: above it, else below it, else on the roomier side, smaller
    const above = r.top - 10 - top; const below = vh - 6 - r.bottom - 10;
    if (h > above && h > below) k = Math.max(0.5, Math.max(above, below) / h);
    y = h * k <= above ? r.top - 10 - h * k : h * k <= below || below > above ? r.bottom + 10 : r.top - 10 - h * k;
    x = Math.max(6, Math.min(vw - w * k - 6, r.left + r.width / 2 - w * k / 2));
  }
  if (k < 1) box.style.transform = `scale(${k.toFixed(3)})`;
  box.style.left = `${Math.round(x)}px`;
  box.style.top = `${Math.round(Math.max(top, y))}px`;
}

function pressedAt(e) {
  if (e.pointerType === "mouse") rest = [e.clientX, e.clientY];
  if (want && !(box && box.contains(e.target))) close();
}

document.addEventListener("keydown", (e) => { if (e.key === "Escape" && want) close(); });
// a press or a click anywhere else closes it
document.addEventListener("pointerdown", pressedAt, true);
// the page or a row scrolls: the zoom follows its card, or closes once the card has left
document.addEventListener("scroll", () => place(), { capture: true, passive: true });

/** One event the kit saw on a root (``ev.at``: when it happened; ``ev.target``: the card it
 *  happened on, or null). */
export function handle(root, selector, describe, ev) {
  const { type, e, target } = ev;
  const mine = want && want.target === target;
  if (type === "pointerdown") pressedAt(e);
  else if (type === "longpress") ask(root, selector, describe, target, "press", 0);
  else if (type === "pointerover" && target && e.pointerType !== "touch" && !mine) {
    // (a card drawn anew under a mouse that has not moved since its click is not looked at)
    if (rest && Math.hypot(e.clientX - rest[0], e.clientY - rest[1]) <= 4) return;
    rest = null;
    ask(root, selector, describe, target, "hover", Math.max(0, HOVER_MS - (performance.now() - ev.at)));
  } else if (type === "pointerout" && mine && want.how === "hover" && e.pointerType !== "touch") {
    if (!(e.relatedTarget && target.contains(e.relatedTarget))) close();
  } else if (type === "focusin" && target && !mine && document.activeElement === target && target.matches(":focus-visible")) {
    ask(root, selector, describe, target, "focus", 0);
  } else if (type === "focusout" && mine && want.how === "focus") close();
}
