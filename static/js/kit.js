// The shared client kit every game's renderer stands on: building elements, matching a clicked
// thing to a listed move by its canonical key, choice buttons, the reason for a disabled thing
// (always the server's words), confirmation for costly moves, card zoom on hover and long-press,
// the last move's highlight, and keeping the focus in the prompt when a control goes away.

const SVGNS = "http://www.w3.org/2000/svg";

// -- building ------------------------------------------------------------------------------

function setAttrs(node, attrs) {
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === false || v == null) continue;
    if (k === "class") node.setAttribute("class", v);
    else if (k === "text") node.textContent = v;
    else if (k.startsWith("on") && typeof v === "function") node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v === true ? "" : String(v));
  }
}

function build(node, attrs, children) {
  setAttrs(node, attrs);
  for (const c of children.flat(Infinity)) if (c != null && c !== false) node.append(c);
  return node;
}

/** An HTML element: el("button", {class: "x", onclick: f}, "label", child…). */
export const el = (tag, attrs = {}, ...children) => build(document.createElement(tag), attrs, children);
/** An SVG element, the same way. */
export const svg = (tag, attrs = {}, ...children) => build(document.createElementNS(SVGNS, tag), attrs, children);

const ESC = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
/** Text made safe for an HTML string. */
export const esc = (s) => String(s ?? "").replace(/[&<>"']/g, (c) => ESC[c]);

/** import(url), asked again after a dropped fetch (a fresh query: a browser may keep a failure). */
export async function importModule(url, n = 0) {
  try { return await import(n ? `${url}?try=${n}` : url); } catch (err) {
    if (n > 2) throw err;
    await new Promise((done) => setTimeout(done, 400 << n));
    return importModule(url, n + 1);
  }
}

/** "1 card", "3 cards". */
export const plural = (n, one, many = one + "s") => `${n} ${n === 1 ? one : many}`;

/** A number with a real minus sign: "−7", and "+3" when asked. */
export const signed = (n, plus = false) => (n < 0 ? `−${-n}` : plus && n > 0 ? `+${n}` : String(n));

/** Makes a drawn thing (an SVG group, a div) act as a button: a click, Enter or Space. */
export function activate(node, handler) {
  node.setAttribute("tabindex", "0");
  node.setAttribute("role", "button");
  node.addEventListener("click", handler);
  node.addEventListener("keydown", (e) => {
    if (e.key === "Enter" || e.key === " ") { e.preventDefault(); handler(e); }
  });
}

// -- moves ---------------------------------------------------------------------------------

function canonical(v) {
  if (Array.isArray(v)) return v.map(canonical);
  if (v && typeof v === "object") {
    const out = {};
    for (const k of Object.keys(v).sort()) out[k] = canonical(v[k]);
    return out;
  }
  return v;
}

/** The canonical key of a move: the same move always gives the same string. */
export const moveKey = (m) => JSON.stringify(canonical(m));

/** The moves this seat may make now, looked up by canonical key, with the prompt's choices. */
export class Moves {
  constructor(ctx) {
    this.ctx = ctx;
    this.byKey = new Map((ctx.moves || []).map((m) => [moveKey(m), m]));
    const p = ctx.view && ctx.view.prompt;
    this.choices = new Map(((p && p.choices) || []).map((c) => [moveKey(c.move), c]));
  }
  /** The listed move equal to `want` (whatever the order of its keys), or null. */
  find(want) { return this.byKey.get(moveKey(want)) || null; }
  /** The first listed move for which pred(move) holds, or null. */
  first(pred) { for (const m of this.byKey.values()) if (pred(m)) return m; return null; }
  /** The prompt's choice (label, loans…) for a listed move, or null. */
  choice(move) { return move ? this.choices.get(moveKey(move)) || null : null; }
  get size() { return this.byKey.size; }
}

/** The server's reason a thing cannot be chosen now (prompt.unavailable), or null. */
export function reasonFor(view, match) {
  const list = (view && view.prompt && view.prompt.unavailable) || [];
  const hit = list.find((u) => Object.entries(match).every(([k, v]) => u[k] === v));
  return hit ? hit.reason : null;
}

/** A choice button: exactly one listed move, its label from the server unless given. */
export function choiceButton(choice, send, attrs = {}) {
  return el("button", { type: "button", class: "choice", "data-move": moveKey(choice.move), ...attrs,
    onclick: () => send(choice.move) }, attrs.text ? null : choice.label);
}

// -- confirmation ----------------------------------------------------------------------------

/** Asks before a costly move: resolves true when the player confirms. */
export function confirmMove({ title, text, yes = "Yes, do it", no = "Cancel" }) {
  return new Promise((resolve) => {
    const back = document.activeElement;
    const yesB = el("button", { type: "button", class: "primary", "data-act": "confirm-yes" }, yes);
    const noB = el("button", { type: "button", "data-act": "confirm-no" }, no);
    const dialog = el("dialog", { class: "kit-confirm", "aria-labelledby": "kit-confirm-h", "aria-describedby": "kit-confirm-t" },
      el("h2", { id: "kit-confirm-h", text: title }), el("p", { id: "kit-confirm-t", text }),
      el("div", { class: "kit-confirm-buttons" }, yesB, noB));
    const done = (ok) => {
      dialog.close();
      dialog.remove();
      if (back && back.isConnected) back.focus({ preventScroll: true });
      resolve(ok);
    };
    yesB.addEventListener("click", () => done(true));
    noB.addEventListener("click", () => done(false));
    dialog.addEventListener("cancel", (e) => { e.preventDefault(); done(false); });
    document.body.append(dialog);
    dialog.showModal();
    noB.focus();
  });
}

// -- card zoom -------------------------------------------------------------------------------
// The zoom itself (static/js/zoom.js) is fetched on the first event on a card. What must be
// answered at once is answered here: a touch press on a card is long — a look, not a choice —
// when the kit's timer runs out while the finger is down, or the finger lifts PRESS_MS or more
// after it went down, or the browser's own long press (its menu) comes: whichever comes first,
// the same answer (the zoom opens and stays; no click, no menu).

const PRESS_MS = 450;
let zoomAt = null; // the zoom module, or the promise of it

/** Shows `describe(el)` (a node — the full card — or a promise of one) beside any `selector`
 *  under root: on a mouse's hover, a long press on a touch screen, or the keyboard's focus. */
export function attachZoom(root, selector, describe) {
  if (root.dataset.zoom) return;
  root.dataset.zoom = "1";
  const queue = [];
  const tell = (type, e, target) => {
    const ev = { type, e, target, at: e.timeStamp };
    if (zoomAt && !zoomAt.then) { zoomAt.handle(root, selector, describe, ev); return; }
    if (!queue.length && !target) return; // (nothing to close before the first look)
    queue.push(ev);
    zoomAt = zoomAt || import("./zoom.js").then((m) => (zoomAt = m));
    if (queue.length === 1) zoomAt.then((m) => { for (const q of queue.splice(0)) m.handle(root, selector, describe, q); });
  };
  let press = null; // { target, at, long, timer }
  const card = (e) => (e.target.closest ? e.target.closest(selector) : null);
  const long = () => {
    if (!press || press.long) return;
    press.long = true;
    clearTimeout(press.timer);
    tell("longpress", { timeStamp: performance.now() }, press.target);
  };
  for (const type of ["pointerover", "pointerout", "focusin", "focusout"]) root.addEventListener(type, (e) => tell(type, e, card(e)));
  root.addEventListener("pointerdown", (e) => {
    if (press) clearTimeout(press.timer);
    const t = card(e);
    press = e.pointerType === "touch" && t ? { target: t, at: e.timeStamp, long: false, timer: setTimeout(long, PRESS_MS) } : null;
    tell("pointerdown", e, t);
  });
  const lift = (e) => {
    if (!press || press.long) return;
    if (e.type === "pointerup" && e.timeStamp - press.at >= PRESS_MS) long();
    else { clearTimeout(press.timer); press = null; }
  };
  root.addEventListener("pointerup", lift);
  root.addEventListener("pointercancel", lift);
  root.addEventListener("contextmenu", (e) => {
    if (!press || !press.target.contains(e.target)) return;
    e.preventDefault();
    long();
  });
  root.addEventListener("click", (e) => {
    if (press && press.long && press.target.contains(e.target)) { e.stopPropagation(); e.preventDefault(); }
    press = null;
  }, true);
}

/** Closes the zoom, if one is open. */
export function closeZoom() {
  if (zoomAt && !zoomAt.then) zoomAt.close();
}

// -- sections ------------------------------------------------------------------------------

/** The board's parts, in order, as `<div class="{prefix}-sec {prefix}-sec-{name}" data-sec=name>`
 *  under root: {name: {el, html}}. patchSection redraws one only when its HTML changed, so a
 *  view update touches only what moved. */
export function makeSections(root, prefix, names) {
  const out = {};
  for (const name of names) {
    const el = document.createElement("div");
    el.className = `${prefix}-sec ${prefix}-sec-${name}`;
    el.dataset.sec = name;
    root.append(el);
    out[name] = { el, html: null };
  }
  return out;
}

export function patchSection(sec, html) {
  if (sec.html === html) return;
  sec.html = html;
  sec.el.innerHTML = html;
  sec.el.hidden = !html;
}

// -- what just happened ------------------------------------------------------------------------

const seen = new WeakMap();

/** Marks the things under root (matching selector, named by keyOf) that were not there at the
 *  previous call: the cards and boroughs the last move put down glow for a few seconds. */
export function markFresh(root, selector, keyOf, ms = 4000) {
  const now = new Set();
  const nodes = [...root.querySelectorAll(selector)];
  for (const n of nodes) now.add(keyOf(n));
  const before = seen.get(root);
  seen.set(root, now);
  if (!before) return;
  for (const n of nodes) {
    if (before.has(keyOf(n))) continue;
    n.classList.add("kit-fresh");
    setTimeout(() => n.classList.remove("kit-fresh"), ms);
  }
}

// -- focus -----------------------------------------------------------------------------------

/** Remembers which control (by its `attr`) has the focus, before a redraw. */
export function focusedKey(root, attr = "data-k") {
  const a = document.activeElement;
  return a && root.contains(a) ? a.getAttribute(attr) : null;
}

/** After a redraw: the same control again, or, when it is gone, the first control of the prompt
 *  (never the page's body). */
export function restoreFocus(root, key, attr = "data-k", fallback = "[data-prompt] button:not(:disabled), [data-prompt] [tabindex]") {
  if (key == null) return;
  const same = root.querySelector(`[${attr}="${CSS.escape(key)}"]`);
  if (same) { if (same !== document.activeElement) same.focus({ preventScroll: true }); return; }
  if (document.activeElement && document.activeElement !== document.body && root.contains(document.activeElement)) return;
  const next = root.querySelector(fallback) || root.querySelector("button:not(:disabled), [tabindex='0']");
  if (next) next.focus({ preventScroll: true });
}

/** Brings the decision into view when it is off-screen (a phone after a tap far below). */
export function keepInView(node) {
  if (!node) return;
  const r = node.getBoundingClientRect();
  if (r.top < 0 || r.top > window.innerHeight - 60) node.scrollIntoView({ block: "start", behavior: "smooth" });
}
