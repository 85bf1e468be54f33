// Tower of London — the table page's board: the Tower drawn as SVG (areas, quadrants, numbered
// buildings, lines, Beefeaters), the Turn Order Track, the event and scoring cards, ravens per
// player, the hand (two cards chosen in order), the reveals in turn order, ability choices made
// on the board, Reduce Player Decks, the round's scoring table and the final screen.
//
// table.js calls render(root, ctx) after every view message; what the player is in the middle
// of choosing (the first of two cards, a Beefeater to remove…) is kept here between calls.

import { activate, attachZoom, el as h, focusedKey, markFresh, Moves, restoreFocus, svg as s } from "/static/js/kit.js";

// the table page draws no prompt line or result box of its own above this board
export const ownPrompt = true;
export const ownResult = true;

export const AREAS = {
  // each area's buildings stand out 3:1 (or more) against their ring
  orange: { word: "orange", name: "Inner Ward", fill: "#c65f10", tint: "#fbe2c5", line: "#b45d14", shape: "circle" },
  green: { word: "green", name: "Middle Ward", fill: "#3d8537", tint: "#dcebd2", line: "#2f6a2a", shape: "square" },
  blue: { word: "blue", name: "Outer Ward", fill: "#2d62a3", tint: "#d5e1f1", line: "#244f86", shape: "hex" },
};
export const AREA_ORDER = ["orange", "green", "blue"];

// Beefeater colours, each with its own pattern and the player's initials: never colour alone.
const SEATS = [
  { colour: "red", fill: "#b3302a", ink: "#ffffff", pattern: "plain" },
  { colour: "yellow", fill: "#f0c02e", ink: "#2a1f17", pattern: "stripes" },
  { colour: "purple", fill: "#6c3c96", ink: "#ffffff", pattern: "dots" },
  { colour: "black", fill: "#2a2a2a", ink: "#ffffff", pattern: "bars" },
  { colour: "white", fill: "#fbf9f3", ink: "#2a1f17", pattern: "checks" },
];

const PHASES = { pick: "Choosing cards", reveal: "Revealing in turn order", keep: "Reducing decks", over: "The game is over" };
export const ORDINAL = ["", "1st", "2nd", "3rd", "4th", "5th"];

// What the player is doing between two calls.
export const ui = {
  key: "",
  picks: [], // [first, second]: card ids chosen, not yet sent
  keep: [], // card ids to keep, not yet sent
  target: null, // {building, seat, promoted}: the Beefeater to remove
  switchSel: [], // [[building, seat], …]: Beefeaters to switch
  seen: new Set(), // reveals already shown (the new ones appear one by one)
  orders: {}, // "round.step" -> that step's turn order
  reveals: {}, // "round.step" -> that step's reveals, as last seen
  acked: null, // the latest round whose scoring table the player has dismissed
  boardSeen: false,
  later: null, // the module fetched when first needed
  wholeTower: false, // a phone zoomed to an ability's Beefeaters: the whole Tower asked for instead
  shown: null, // the prompt whose first target was last brought into view
};

// ------------------------------------------------------------------------------------ helpers
function ackKey() { return `tol-scoring-seen:${location.pathname}`; }

function loadAck() {
  if (ui.acked !== null) return ui.acked;
  try { ui.acked = parseInt(sessionStorage.getItem(ackKey()) || "0", 10) || 0; } catch { ui.acked = 0; }
  return ui.acked;
}

export function saveAck(round) {
  ui.acked = round;
  try { sessionStorage.setItem(ackKey(), String(round)); } catch { /* private mode: memory only */ }
}

// Short, unique labels for the players (their initials), drawn on every Beefeater.
function seatLabels(ctx, n) {
  const names = [];
  for (let i = 0; i < n; i++) names.push(String(ctx.nameOf(i) || `Seat ${i + 1}`).trim() || `Seat ${i + 1}`);
  const letters = (name) => name.replace(/[^\p{L}\p{N}]/gu, "");
  const first = names.map((nm) => (letters(nm)[0] || String(names.indexOf(nm) + 1)).toUpperCase());
  return names.map((nm, i) => {
    const clash = first.filter((f) => f === first[i]).length > 1;
    if (!clash) return first[i];
    const two = (letters(nm).slice(0, 2) || first[i]);
    const label = two[0].toUpperCase() + two.slice(1).toLowerCase();
    const clash2 = names.filter((m, j) => j !== i && letters(m).slice(0, 2).toLowerCase() === label.toLowerCase()).length;
    return clash2 ? `${first[i]}${i + 1}` : label;
  });
}

export function card(view, id) { return view.cards.find((c) => c.id === id); }

export function areaOf(view, number) {
  const b = view.board.buildings.find((x) => x.number === number);
  return b ? b.area : "orange";
}

// --------------------------------------------------------------------------------- the state
function sync(view) {
  const key = `${view.round}.${view.step}.${view.phase}.${view.prompt ? view.prompt.kind : ""}.${view.reveal ? view.reveal.seat : ""}`;
  if (key !== ui.key) {
    ui.key = key;
    ui.target = null;
    ui.switchSel = [];
    ui.wholeTower = false;
    if (view.phase !== "pick") ui.picks = [];
    if (view.phase !== "keep") ui.keep = [];
  }
  const hand = view.hand || [];
  ui.picks = ui.picks.filter((c) => hand.includes(c));
  if (view.phase === "keep" && view.prompt) ui.keep = ui.keep.filter((c) => view.prompt.cards.includes(c));
  const here = `${view.round}.${view.step}`;
  if (view.phase === "pick" || view.phase === "reveal") ui.orders[here] = view.turn_order.slice();
  if (view.step_reveals.length) ui.reveals[here] = JSON.parse(JSON.stringify(view.step_reveals));
  loadAck();
  if (view.phase === "over" && view.last_scoring) saveAck(view.last_scoring.round);
}

function scoringToShow(view) {
  const last = view.last_scoring;
  if (!last || view.phase === "over") return null;
  if (last.round <= ui.acked) return null;
  if (view.round !== last.round + 1 || view.step !== 1 || view.phase !== "pick") return null;
  return last;
}

// ---------------------------------------------------------------------------------- render
export function rerender() {
  if (ui.root && ui.ctx) render(ui.root, ui.ctx);
}

export function render(root, ctx) {
  if (ui.root !== root) setup(root);
  ui.root = root;
  ui.ctx = ctx;
  const view = ctx.view;
  if (!view || !view.board) { if (ui.frame) ui.frame.remove(); ui.frame = null; return; }
  sync(view);
  const focusKey = focusedKey(root, "data-fk");

  const labels = seatLabels(ctx, view.seats);
  const env = { view, ctx, labels, me: ctx.seat, prompt: ctx.seat != null ? view.prompt : null, width: boardWidth(root) };
  const scoring = scoringToShow(view);

  const frame = h("div", {
    class: `tol phase-${view.phase}`, "data-seq": ctx.seq, "data-phase": view.phase,
    "data-scores": view.areas_scored_this_round.join(" "),
    "data-kind": scoring ? "scoring" : (env.prompt ? env.prompt.kind : (view.phase === "over" ? "over" : "wait")),
  });
  frame.append(statusBar(env));
  if (view.phase === "over") frame.append(later("finalScreen", env));
  else if (scoring) frame.append(later("scoringPanel", env, scoring, true));
  else frame.append(actionPanel(env));
  if (["reveal", "keep"].includes(view.phase) || (view.phase === "pick" && view.step > 1)) {
    const reveals = later("revealStrip", env);
    if (reveals) frame.append(reveals);
  }
  frame.append(h("section", { class: "tol-map", "aria-label": "The Tower" }, boardSvg(env), trackStrip(env)));
  frame.append(infoPanel(env));
  // the board is the renderer's, but for the frame's action bar, which stays where it is
  if (ui.frame && ui.frame.parentNode === root) ui.frame.replaceWith(frame);
  else { for (const n of [...root.children]) if (n.id !== "action-bar") n.remove(); root.append(frame); }
  ui.frame = frame;

  restoreFocus(root, focusKey, "data-fk", ".tol-action button:not(:disabled), .tol-action [tabindex='0'], svg [tabindex='0']");
  fitWords(frame);
  // the Beefeaters the last move put down or moved glow for a few seconds
  markFresh(root, ".tol-token", (n) => `${n.dataset.building}.${n.dataset.seat}.${n.dataset.promoted}.${n.dataset.n}`);
  // a new prompt of mine: its first target comes into view (once, after the frame has lifted its
  // buttons into the action bar and measured it), never on a redraw
  const prompt = env.prompt && !ctx.pending && !scoring ? `${ctx.seq}` : null;
  if (prompt && prompt !== ui.shown) requestAnimationFrame(() => requestAnimationFrame(showTarget));
  if (!ctx.pending) ui.shown = prompt;
}

/** An ability's name wider than its card is drawn a little smaller (it is never broken). */
function fitWords(scope) {
  const wide = [...scope.querySelectorAll(".tol-card-ability")].filter((n) => n.scrollWidth > n.clientWidth + 1);
  for (const n of wide) {
    let size = parseFloat(getComputedStyle(n).fontSize);
    for (let i = 0; i < 6 && n.scrollWidth > n.clientWidth + 1; i++) {
      size *= 0.92;
      n.style.fontSize = `${size.toFixed(2)}px`;
    }
  }
}

function setup(root) {
  // the card zoom (the kit's): what it shows is drawn by later.js, fetched when first asked for
  attachZoom(root, ".tol-card[data-card]", (node) => import("/static/games/tower_of_london/later.js").then((m) => m.zoomCard(node)));
  // the board's zoom on a phone depends on the width: drawn again when the window changes size
  let resized = null;
  window.addEventListener("resize", () => { clearTimeout(resized); resized = setTimeout(rerender, 200); });
}

/** What is drawn by the module fetched when first needed (the scoring tables, the end, Reduce
 *  Player Decks, the zoom): drawn there, or a line saying it comes, drawn again once it has. */
function later(name, ...args) {
  if (ui.later && ui.later[name]) return ui.later[name](...args);
  if (!ui.later) ui.later = import("/static/games/tower_of_london/later.js").then((m) => { ui.later = m; rerender(); });
  return h("p", { class: "tol-hint", text: "…" });
}

/** The width the Tower is drawn at, in CSS pixels (a guess before the first drawing). */
function boardWidth(root) {
  const wrap = root.querySelector(".tol-board-wrap");
  const w = wrap ? wrap.getBoundingClientRect().width : root.getBoundingClientRect().width - 24;
  return Math.max(200, Math.min(w || 700, 704));
}

/** Brings the prompt's first target (a hand card, a building, a Beefeater) into view when it is
 *  not: clear of the action bar, just enough to see it. */
function showTarget() {
  const root = ui.root;
  if (!root) return;
  const t = root.querySelector(".tol-hand button.tol-card:not(:disabled), svg .is-target");
  if (!t) return;
  const r = t.getBoundingClientRect();
  const bar = document.getElementById("action-bar");
  const b = bar ? bar.getBoundingClientRect() : { top: 0, bottom: 0, height: 0 };
  const below = bar && getComputedStyle(bar).position === "fixed";
  const top = below ? 0 : Math.max(0, b.bottom);
  const bottom = window.innerHeight - (below ? b.height : 0);
  if (r.top >= top && r.bottom <= bottom) return;
  const wrap = t.closest(".tol-board-wrap");
  // a building or a Beefeater: the Tower comes into view whole when it fits, else the target
  if (wrap && wrap.getBoundingClientRect().height <= bottom - top) wrap.scrollIntoView({ block: "nearest" });
  else t.scrollIntoView({ block: "nearest" });
}

/** The lines this game adds to each player's panel beside the board. */
export function panel(view, seat) {
  const p = view.players && view.players[seat];
  if (!p) return [];
  return [
    { label: "Ravens", value: `${p.ravens} of ${view.rules.ravens_to_win}`, title: "Ravens: seven win at once" },
    { label: "Beefeaters", value: `${p.beefeaters_in_supply}`, title: "Beefeaters left in the supply" },
    { label: "Hand", value: `${p.hand_count}`, title: "Cards in hand" },
    { label: "Deck", value: `${p.deck_count}`, title: "Cards in the deck" },
    ...(status(view, p) ? [{ label: "Now", value: status(view, p) }] : []),
  ];
}

function status(view, p) {
  if (view.phase === "pick") return p.has_chosen ? "has chosen" : "choosing…";
  if (view.phase === "keep") return p.has_kept ? "has kept" : "choosing…";
  if (view.phase !== "reveal") return "";
  if (view.reveal && view.reveal.seat === p.seat) return "revealing";
  return p.revealed === 2 ? "revealed" : "face down";
}

// ------------------------------------------------------------------------------- status bar
function statusBar({ view }) {
  const areas = view.areas_scored_this_round.map((a) => AREAS[a].word);
  return h("div", { class: "tol-status" },
    h("span", { class: "tol-round", text: `Round ${view.round} of 3` }),
    view.phase !== "keep" && view.phase !== "over" ? h("span", { text: `Step ${view.step} of 3` }) : null,
    h("span", { class: "tol-phase", text: PHASES[view.phase] || view.phase }),
    view.phase !== "over" ? h("span", { class: "tol-scores-line" }, "This round scores: ",
      ...areas.flatMap((a, i) => [i ? " then " : "", areaWord(a)])) : null);
}

export function areaWord(area) {
  return h("span", { class: `tol-area-word area-${area}` }, areaGlyph(area), ` ${AREAS[area].word}`);
}

function areaGlyph(area) {
  return h("span", { class: `tol-glyph glyph-${area}`, "aria-hidden": "true" });
}

// A player's token in HTML: their colour, pattern and initials.
export function chip(env, seat, opts = {}) {
  const c = SEATS[seat % SEATS.length];
  return h("span", {
    class: `tol-chip seat-${seat} pat-${c.pattern}${opts.promoted ? " promoted" : ""}${opts.small ? " small" : ""}`,
    title: `${env.ctx.nameOf(seat)} (${c.colour})`, "aria-hidden": "true",
  }, h("span", { class: "tol-chip-label", text: env.labels[seat] }));
}

export function who(env, seat) {
  return h("span", { class: "tol-who" }, chip(env, seat, { small: true }), " ",
    h("span", { class: "tol-who-name", text: env.ctx.nameOf(seat) + (seat === env.me ? " (you)" : "") }));
}

// --------------------------------------------------------------------------------- the cards
export function cardFace(env, id, opts = {}) {
  const c = card(env.view, id);
  const role = opts.role || "";
  const body = [
    // a screen reader hears the card's ability first ("POISON 3 card: orange building 3…")
    h("span", { class: "sr", text: `${c.ability} ${c.orange} card: ` }),
    h("span", { class: "tol-card-nums" },
      ...AREA_ORDER.map((a) => h("span", { class: `tol-num area-${a}` },
        h("span", { class: "sr", text: `${AREAS[a].word} building ` }), String(c[a])))),
    h("span", { class: "tol-card-ability", text: c.ability }),
    // its orange number is its space on the Turn Order Track
    h("span", { class: "tol-card-track" }, "Track space ", h("b", { text: String(c.orange) })),
    h("span", { class: "sr", text: `. ${env.view.abilities[c.ability]}` }),
  ];
  // a hand card keeps the room of its badge ("1st · where") when it has none: choosing it moves nothing
  if (opts.badge || opts.fk) body.unshift(h("span", { class: `tol-card-badge${opts.badge ? "" : " none"}`, text: opts.badge || "·" }));
  const cls = `tol-card${role ? ` as-${role}` : ""}${opts.selected ? " selected" : ""}${opts.mini ? " mini" : ""}`;
  if (opts.onclick) {
    return h("button", {
      type: "button", class: cls, "data-card": id, "data-fk": `card-${opts.fk || ""}-${id}`,
      "aria-pressed": opts.selected ? "true" : "false", disabled: opts.disabled, onclick: opts.onclick,
    }, ...body);
  }
  return h("div", { class: cls, "data-card": id }, ...body);
}

export function cardBack(text) {
  return h("div", { class: "tol-card back", role: "img", "aria-label": text || "a face-down card" },
    h("span", { class: "tol-back-mark", "aria-hidden": "true", text: "❦" }));
}

// ------------------------------------------------------------------------------ the action
function actionPanel(env) {
  const { view, prompt } = env;
  const box = h("section", { class: "tol-action", "aria-label": "Your cards and choices", "data-prompt": "" });
  if (prompt) {
    box.dataset.kind = prompt.kind;
    if (prompt.kind === "pick") box.append(...pickPanel(env));
    else if (prompt.kind === "keep") box.append(...[].concat(later("keepPanel", env)));
    else if (prompt.kind === "place") box.append(...[].concat(later("placePanel", env)));
    else if (prompt.kind === "switch") box.append(...[].concat(later("switchPanel", env)));
    else box.append(...[].concat(later("removePanel", env)));
    return box;
  }
  box.dataset.kind = "wait";
  box.append(...[].concat(later("waitingPanel", env)));
  return box;
}

export function actions(...buttons) { return h("div", { class: "tol-buttons" }, ...buttons); }

export function button(label, act, onclick, opts = {}) {
  return h("button", {
    type: "button", class: opts.primary ? "primary" : "", "data-act": act, "data-fk": `act-${act}`,
    disabled: opts.disabled, onclick,
  }, label);
}

function pickPanel(env) {
  const { view, ctx } = env;
  const hand = view.hand || [];
  const [first, second] = ui.picks;
  const toggle = (id) => () => {
    if (ui.picks.includes(id)) ui.picks = ui.picks.filter((c) => c !== id);
    else if (ui.picks.length < 2) ui.picks = [...ui.picks, id];
    else ui.picks = [ui.picks[0], id];
    rerender();
  };
  const slot = (id, n) => {
    const what = n === 1 ? "where" : "what";
    const explain = n === 1 ? "a Beefeater on one of its buildings" : "its ability, from there";
    return h("div", { class: `tol-slot slot-${n}${id ? " filled" : ""}` },
      h("p", { class: "tol-slot-head" }, h("strong", { text: `${ORDINAL[n]} card — ${what}` }), h("span", { text: `: ${explain}` })),
      id ? cardFace(env, id, { role: n === 1 ? "first" : "second", fk: "slot" })
        : h("div", { class: "tol-card empty", text: n === 1 && !first ? "Choose a card below" : "then a second card" }));
  };
  const send = () => {
    sendMove(ctx, { type: "pick", first, second });
  };
  // (what to do, the action bar says)
  return [
    h("div", { class: "tol-slots" }, slot(first, 1), slot(second, 2)),
    h("p", { class: "tol-hint", text: "Your hand (the cards stay hidden until everyone has chosen):" }),
    h("div", { class: "tol-hand" }, ...hand.map((id) => {
      const at = ui.picks.indexOf(id);
      return cardFace(env, id, {
        fk: "hand", selected: at >= 0, badge: at === 0 ? "1st · where" : at === 1 ? "2nd · what" : null,
        role: at === 0 ? "first" : at === 1 ? "second" : "", onclick: toggle(id), disabled: ctx.pending,
      });
    })),
    actions(
      button("Lay them face down", "pick-confirm", send, { primary: true, disabled: ctx.pending || !(first && second) }),
      button("Swap order", "swap", () => { ui.picks = [second, first]; rerender(); },
        { disabled: ctx.pending || !(first && second) }),
      button("Clear", "clear", () => { ui.picks = []; rerender(); },
        { disabled: ctx.pending || !ui.picks.length })),
    othersChoosing(env, "has_chosen", "has chosen", "choosing…"),
  ];
}

export function othersChoosing(env, flag, done, doing) {
  const { view } = env;
  return h("ul", { class: "tol-others", "aria-label": "The other players" },
    ...view.turn_order.filter((seat) => seat !== env.me).map((seat) => {
      const p = view.players[seat];
      return h("li", { class: p[flag] ? "done" : "" }, who(env, seat), " ",
        h("span", { class: "tol-flag", text: p[flag] ? `✓ ${done}` : doing }));
    }));
}

// Sends the legal move that matches (a switch in either order), as the server listed it.
export function sendMove(ctx, want) {
  const moves = new Moves(ctx);
  const move = moves.find(want) || (want.type === "switch" ? moves.find({ type: "switch", a: want.b, b: want.a }) : null);
  if (move) ctx.send(move);
}

// --------------------------------------------------------------------------------- the board
function boardSvg(env) {
  const { view, prompt, ctx } = env;
  const B = view.board;
  const [W, H] = B.size;
  const [cx, cy] = B.centre;
  // The rings are drawn a little wider apart than the data's radii, to give the thirteen inner
  // buildings and their Beefeaters more room; every building keeps its angle.
  const rr = B.ring_radius;
  const scale = Math.min(cx, cy) / 500;
  const ring = { orange: 205 * scale, green: 325 * scale, blue: 438 * scale };
  const edge = { orange: (ring.orange + ring.green) / 2, green: (ring.green + ring.blue) / 2, blue: Math.min(cx, cy) - 8 };
  const drawn = B.buildings.map((b) => {
    const dist = Math.hypot(b.x - cx, b.y - cy) || 1;
    const r = ring[b.area] ? ring[b.area] * (dist / (rr[b.area] || dist)) : dist;
    return { ...b, x: cx + ((b.x - cx) / dist) * r, y: cy + ((b.y - cy) / dist) * r };
  });
  const byNumber = new Map(drawn.map((b) => [b.number, b]));

  // what is highlighted and what can be clicked
  const targets = new Set(); // buildings to place in
  const preview = new Set(); // buildings a chosen first card would allow
  const reach = new Set(); // buildings an ability reaches
  let quadrant = null;
  const tokenTargets = new Map(); // "b.seat.promoted" -> handler
  const mark = new Set(); // tokens selected
  if (prompt && !ctx.pending) {
    if (prompt.kind === "place") prompt.buildings.forEach((b) => targets.add(b));
    if (prompt.kind === "backstab" || prompt.kind === "poison") {
      prompt.buildings.forEach((b) => reach.add(b));
      for (const t of prompt.targets) {
        tokenTargets.set(`${t.building}.${t.seat}.${t.promoted}`, () => {
          ui.target = { building: t.building, seat: t.seat, promoted: t.promoted };
          rerender();
          focusAction("confirm");
        });
      }
      if (ui.target) mark.add(`${ui.target.building}.${ui.target.seat}.${ui.target.promoted}`);
    }
    if (prompt.kind === "switch") {
      quadrant = prompt.quadrant;
      const sel = ui.switchSel;
      for (const [b, seat] of prompt.beefeaters) {
        const chosen = sel.some(([x, y]) => x === b && y === seat);
        if (chosen) { mark.add(`${b}.${seat}.false`); }
        const ok = chosen || sel.length === 0 || (sel.length === 1 && sel[0][0] !== b && sel[0][1] !== seat);
        if (!ok) continue;
        tokenTargets.set(`${b}.${seat}.false`, () => {
          if (chosen) ui.switchSel = ui.switchSel.filter(([x, y]) => !(x === b && y === seat));
          else ui.switchSel = [...ui.switchSel.slice(0, 1), [b, seat]];
          rerender();
          if (ui.switchSel.length === 2) focusAction("confirm");
        });
      }
    }
  }
  if (prompt && prompt.kind === "pick" && ui.picks[0]) {
    const c = card(view, ui.picks[0]);
    AREA_ORDER.forEach((a) => preview.add(c[a]));
  }
  if (!prompt && view.reveal && view.reveal.stage === "place") {
    const c = card(view, view.reveal.first);
    AREA_ORDER.forEach((a) => preview.add(c[a]));
  }
  if (!prompt && view.reveal && view.reveal.stage === "ability" && view.reveal.placed) {
    // everyone sees where the ability acts from
    reach.add(view.reveal.placed);
  }
  const placed = view.reveal && view.reveal.placed ? view.reveal.placed : null;

  const svg = s("svg", {
    class: "tol-board", viewBox: `0 0 ${W} ${H}`, role: "group",
    "aria-label": `The Tower: ${B.buildings.length} buildings in three areas and four quadrants`,
  });
  svg.append(defs());
  // areas, outer to inner, each a ring with its name
  for (const a of ["blue", "green", "orange"]) {
    svg.append(s("circle", { cx, cy, r: edge[a], fill: AREAS[a].tint, stroke: AREAS[a].line, "stroke-width": 3, class: `tol-ring ring-${a}` }));
  }
  // quadrants
  const clip = s("clipPath", { id: "tol-disc" }, s("circle", { cx, cy, r: edge.blue }));
  svg.append(clip);
  if (quadrant) {
    const q = { I: [cx, 0], II: [cx, cy], III: [0, cy], IV: [0, 0] }[quadrant];
    if (q) svg.append(s("rect", { x: q[0], y: q[1], width: W / 2, height: H / 2, class: "tol-quadrant-on", "clip-path": "url(#tol-disc)" }));
  }
  svg.append(s("line", { x1: cx, y1: 6, x2: cx, y2: H - 6, class: "tol-divider", "clip-path": "url(#tol-disc)" }),
    s("line", { x1: 6, y1: cy, x2: W - 6, y2: cy, class: "tol-divider", "clip-path": "url(#tol-disc)" }));
  const qpos = { I: [W - 58, 70], II: [W - 58, H - 30], III: [58, H - 30], IV: [58, 70] };
  for (const q of B.quadrants) {
    const [x, y] = qpos[q] || [cx, cy];
    svg.append(s("text", { x, y, class: "tol-quadrant-label", "text-anchor": "middle" }, q));
  }
  // area names on arcs
  for (const a of AREA_ORDER) {
    const r = edge[a] - 22;
    const id = `tol-arc-${a}`;
    svg.append(s("path", { id, d: `M ${cx - r} ${cy} A ${r} ${r} 0 0 1 ${cx + r} ${cy}`, fill: "none" }));
    const area = B.areas.find((x) => x.id === a);
    svg.append(s("text", { class: `tol-area-label area-${a}` },
      s("textPath", { href: `#${id}`, startOffset: "50%", "text-anchor": "middle" },
        `${(area && area.name) || AREAS[a].name} · ${AREAS[a].word}`)));
  }
  // lines
  const lines = s("g", { class: "tol-lines" });
  for (const [a, b] of B.lines) {
    const p = byNumber.get(a); const q = byNumber.get(b);
    const hot = (reach.has(a) && b === (prompt && prompt.placed)) || (reach.has(b) && a === (prompt && prompt.placed));
    const hotPoison = prompt && prompt.kind === "poison" && hot;
    lines.append(s("line", { x1: p.x, y1: p.y, x2: q.x, y2: q.y, class: hotPoison ? "hot" : "" }));
  }
  svg.append(lines);
  // buildings
  const layerB = s("g", { class: "tol-buildings" });
  const layerT = s("g", { class: "tol-tokens" });
  for (const b of drawn) {
    layerB.append(building(env, b, { target: targets.has(b.number), preview: preview.has(b.number), reach: reach.has(b.number), placed: placed === b.number, cx, cy }));
    layerT.append(tokens(env, b, tokenTargets, mark, { cx, cy }));
  }
  // Beefeaters that can be chosen go on top of everything
  const layerTop = s("g", { class: "tol-tokens-top" }, ...layerT.querySelectorAll(".tol-token.is-target"));
  svg.append(layerB, layerT, layerTop);
  ui.boardSeen = true;
  // On a narrow screen the Beefeaters an ability may take would be too small to tap: the Tower is
  // shown zoomed to them (and to where the ability acts from), every one at least 24 px, with a
  // button to see it whole.
  const wrap = h("div", { class: "tol-board-wrap" });
  const chosen = [...layerTop.querySelectorAll(".tol-token.is-target")].map((t) => {
    const m = /translate\(([-\d.]+) ([-\d.]+)\)/.exec(t.getAttribute("transform"));
    return m ? [Number(m[1]), Number(m[2])] : null;
  }).filter(Boolean);
  const crop = chosen.length ? cropTo(chosen.concat(prompt && prompt.placed && byNumber.get(prompt.placed)
    ? [[byNumber.get(prompt.placed).x, byNumber.get(prompt.placed).y]] : []), env.width, W, H) : null;
  if (crop) {
    wrap.classList.add("zoomed");
    wrap.append(h("p", { class: "tol-zoom-line" },
      h("span", { text: ui.wholeTower ? "The whole Tower." : "Zoomed to the Beefeaters you may choose." }), " ",
      h("button", { type: "button", class: "tol-whole", "data-fk": "whole", "aria-pressed": String(ui.wholeTower),
        onclick: () => { ui.wholeTower = !ui.wholeTower; rerender(); },
        text: ui.wholeTower ? "Zoom to the choices" : "Show the whole Tower" })));
    if (!ui.wholeTower) svg.setAttribute("viewBox", crop.join(" "));
  }
  wrap.append(svg);
  return wrap;
}

/** The part of the Tower ([x, y, w, h]) that shows the given points with every Beefeater at
 *  least 24 px across when drawn `width` pixels wide, or null when the whole Tower does. */
function cropTo(points, width, W, H) {
  const hit = 54; // a Beefeater's hit area (its focus ring), in the board's units
  const most = (width * hit) / 27; // the widest view that keeps it 27 px
  if (most >= W) return null;
  const xs = points.map((p) => p[0]); const ys = points.map((p) => p[1]);
  const pad = 70;
  let x0 = Math.min(...xs) - pad; let x1 = Math.max(...xs) + pad;
  let y0 = Math.min(...ys) - pad; let y1 = Math.max(...ys) + pad;
  let size = Math.max(x1 - x0, y1 - y0, 380);
  let mx = (x0 + x1) / 2; let my = (y0 + y1) / 2;
  if (size > most) { // they do not all fit: the first ones do
    size = most;
    mx = Math.min(Math.max(points[0][0], size / 2), W - size / 2);
    my = Math.min(Math.max(points[0][1], size / 2), H - size / 2);
  }
  x0 = Math.min(Math.max(mx - size / 2, 0), W - size);
  y0 = Math.min(Math.max(my - size / 2, 0), H - size);
  return [x0, y0, size, size].map((v) => Math.round(v));
}

function defs() {
  const d = s("defs");
  // Switch's quadrant: hatched (the rings keep their colour, so that the buildings on them stay clear)
  d.append(s("pattern", { id: "tol-hatch", width: 16, height: 16, patternUnits: "userSpaceOnUse", patternTransform: "rotate(45)" },
    s("rect", { x: 0, y: 0, width: 3, height: 16, fill: "rgba(122, 31, 43, .35)" })));
  SEATS.forEach((c, i) => {
    const ink = c.ink === "#ffffff" ? "rgba(255,255,255,.55)" : "rgba(42,31,23,.45)";
    let p = null;
    if (c.pattern === "stripes") {
      p = s("pattern", { id: `tol-pat-${i}`, width: 9, height: 9, patternUnits: "userSpaceOnUse", patternTransform: "rotate(45)" },
        s("rect", { x: 0, y: 0, width: 3.5, height: 9, fill: ink }));
    } else if (c.pattern === "dots") {
      p = s("pattern", { id: `tol-pat-${i}`, width: 8, height: 8, patternUnits: "userSpaceOnUse" },
        s("circle", { cx: 4, cy: 4, r: 1.9, fill: ink }));
    } else if (c.pattern === "bars") {
      p = s("pattern", { id: `tol-pat-${i}`, width: 8, height: 8, patternUnits: "userSpaceOnUse" },
        s("rect", { x: 0, y: 0, width: 8, height: 2.5, fill: ink }));
    } else if (c.pattern === "checks") {
      p = s("pattern", { id: `tol-pat-${i}`, width: 10, height: 10, patternUnits: "userSpaceOnUse" },
        s("rect", { x: 0, y: 0, width: 5, height: 5, fill: ink }), s("rect", { x: 5, y: 5, width: 5, height: 5, fill: ink }));
    }
    if (p) d.append(p);
  });
  return d;
}

function shape(area, x, y, r, attrs) {
  const kind = AREAS[area].shape;
  if (kind === "square") return s("rect", { x: x - r * 0.9, y: y - r * 0.9, width: r * 1.8, height: r * 1.8, rx: 7, ...attrs });
  if (kind === "hex") {
    const pts = [];
    for (let i = 0; i < 6; i++) {
      const ang = Math.PI / 6 + (i * Math.PI) / 3;
      pts.push(`${(x + r * Math.cos(ang)).toFixed(1)},${(y + r * Math.sin(ang)).toFixed(1)}`);
    }
    return s("polygon", { points: pts.join(" "), ...attrs });
  }
  return s("circle", { cx: x, cy: y, r, ...attrs });
}

function building(env, b, o) {
  const { ctx } = env;
  const R = 27;
  const cls = ["tol-building", `area-${b.area}`];
  if (o.target) cls.push("is-target");
  if (o.preview) cls.push("is-preview");
  if (o.reach) cls.push("is-reach");
  if (o.placed) cls.push("is-placed");
  const ctrl = b.controller;
  const stacks = b.beefeaters.map((x) => `${ctx.nameOf(x.seat)} ${x.plain ? `${x.plain} Beefeater${x.plain > 1 ? "s" : ""}` : ""}${x.plain && x.promoted ? " and " : ""}${x.promoted ? `${x.promoted} promoted` : ""}`);
  const label = `Building ${b.number}, ${AREAS[b.area].word} area, quadrant ${b.quadrant}` +
    (stacks.length ? `: ${stacks.join("; ")}` : ": empty") +
    (ctrl != null ? `; controlled by ${ctx.nameOf(ctrl)}` : "");
  const g = s("g", { class: cls.join(" "), "data-building": b.number, "aria-label": o.target ? `Place a Beefeater in building ${b.number} (${AREAS[b.area].word}, quadrant ${b.quadrant})` : label });
  g.append(s("title", {}, label));
  if (o.target || o.preview || o.reach || o.placed) g.append(shape(b.area, b.x, b.y, R + 11, { class: "tol-halo" }));
  if (ctrl != null) {
    const c = SEATS[ctrl % SEATS.length];
    g.append(shape(b.area, b.x, b.y, R + 5, { fill: "none", stroke: "#2a1f17", "stroke-width": 8, class: "tol-control-edge" }),
      shape(b.area, b.x, b.y, R + 5, { fill: "none", stroke: c.fill, "stroke-width": 5, class: "tol-control" }));
  }
  g.append(shape(b.area, b.x, b.y, R, { fill: AREAS[b.area].fill, stroke: "#fffaf0", "stroke-width": 3, class: "tol-bshape" }));
  g.append(s("text", { x: b.x, y: b.y + 9, "text-anchor": "middle", class: "tol-bnum" }, String(b.number)));
  if (ctrl != null) {
    const c = SEATS[ctrl % SEATS.length];
    // inwards of the building (the Beefeaters stand outwards or beside it)
    const d = Math.hypot(b.x - o.cx, b.y - o.cy) || 1;
    const bx = b.x - ((b.x - o.cx) / d) * 36; const by = b.y - ((b.y - o.cy) / d) * 36;
    g.append(s("g", { class: "tol-ctrl-badge", "aria-hidden": "true" },
      s("rect", { x: bx - 13, y: by - 10, width: 26, height: 20, rx: 4, fill: c.fill, stroke: "#2a1f17", "stroke-width": 2 }),
      s("text", { x: bx, y: by + 5, "text-anchor": "middle", class: "tol-ctrl-label", fill: c.ink }, `♛${env.labels[ctrl]}`)));
  }
  if (o.target) {
    g.append(shape(b.area, b.x, b.y, R + 15, { class: "tol-focus-ring" }));
    g.setAttribute("data-fk", `b-${b.number}`);
    activate(g, () => { if (!ctx.pending) sendMove(ctx, { type: "place", building: b.number }); });
  }
  return g;
}

// Beefeater stacks: one token per player (and one per promoted stack), with the player's
// initials, colour and pattern; a count when more than one; promoted ones stacked and starred.
function tokens(env, b, tokenTargets, mark, { cx, cy }) {
  const { ctx } = env;
  const g = s("g", { class: "tol-stack", "data-building": b.number });
  const items = [];
  for (const st of b.beefeaters) {
    if (st.plain) items.push({ seat: st.seat, n: st.plain, promoted: false });
    if (st.promoted) items.push({ seat: st.seat, n: st.promoted, promoted: true });
  }
  if (!items.length) return g;
  const dx = b.x - cx; const dy = b.y - cy;
  const len = Math.hypot(dx, dy) || 1;
  const ux = dx / len; const uy = dy / len; // outward
  const tx = -uy; const ty = ux; // along the ring
  // inner ward: the first two beside each other outwards (towards the middle ward, where there
  // is room), any more in a line inwards, so neighbouring buildings' stacks never meet in the
  // crowded centre; middle ward: outwards, three a row; outer ward: beside the building, along
  // the ring, away from the nearer quadrant line. The squares stay upright, so a step along a
  // slanted line is longer (they must clear each other across and down).
  const T = b.area === "orange" ? 32 : 38; const gap = 4;
  const angle = ((Math.atan2(dy, dx) * 180) / Math.PI + 360) % 360;
  const side = angle % 90 > 45 ? -1 : 1;
  const along = (T + gap) / Math.max(Math.abs(tx), Math.abs(ty));
  const out = (T + gap) / Math.max(Math.abs(ux), Math.abs(uy));
  const first = 27 + 6 + T / 2;
  items.forEach((it, i) => {
    let a; let r; // along the ring, and outwards from the building
    if (b.area === "blue") {
      a = side * (first + (i % 3) * along);
      r = -Math.floor(i / 3) * out;
    } else if (b.area === "orange") {
      const two = Math.min(items.length, 2);
      if (i < two) { a = (i - (two - 1) / 2) * along; r = first; } else { a = 0; r = -(first + (i - two) * out); }
    } else {
      const row = Math.floor(i / 3);
      const inRow = Math.min(3, items.length - row * 3);
      a = ((i % 3) - (inRow - 1) / 2) * along;
      r = first + row * out;
    }
    const x = b.x + tx * a + ux * r;
    const y = b.y + ty * a + uy * r;
    const key = `${b.number}.${it.seat}.${it.promoted}`;
    const handler = tokenTargets.get(key);
    const c = SEATS[it.seat % SEATS.length];
    const name = ctx.nameOf(it.seat);
    const desc = `${env.labels[it.seat]}: ${name}'s ${it.promoted ? "promoted " : ""}Beefeater${it.n > 1 ? ` ×${it.n}` : ""} in building ${b.number}`;
    const t = s("g", {
      class: `tol-token seat-${it.seat}${it.promoted ? " promoted" : ""}${handler ? " is-target" : ""}${mark.has(key) ? " is-selected" : ""}`,
      transform: `translate(${x.toFixed(1)} ${y.toFixed(1)})`, "data-seat": it.seat, "data-promoted": it.promoted ? "1" : "0",
      "data-building": b.number, "data-n": it.n, "aria-label": handler ? `${desc} — choose it` : desc,
    });
    t.append(s("title", {}, desc));
    if (handler || mark.has(key)) t.append(s("rect", { x: -T / 2 - 8, y: -T / 2 - 8, width: T + 16, height: T + 16, rx: 9, class: "tol-token-halo" }));
    if (it.promoted) t.append(s("rect", { x: -T / 2 + 5, y: -T / 2 - 5, width: T, height: T, rx: 5, fill: c.fill, stroke: "#2a1f17", "stroke-width": 4.5 }));
    const ox = it.promoted ? -3 : 0; const oy = it.promoted ? 3 : 0;
    t.append(s("rect", { x: -T / 2 + ox, y: -T / 2 + oy, width: T, height: T, rx: 5, fill: c.fill, stroke: "#2a1f17", "stroke-width": 4.5, class: "tol-token-body" }));
    if (c.pattern !== "plain") t.append(s("rect", { x: -T / 2 + ox, y: -T / 2 + oy, width: T, height: T, rx: 5, fill: `url(#tol-pat-${it.seat % SEATS.length})` }));
    t.append(s("text", { x: ox, y: oy + 7, "text-anchor": "middle", class: "tol-token-label", fill: c.ink, stroke: c.ink === "#ffffff" ? "#2a1f17" : "#fffaf0" }, env.labels[it.seat]));
    if (it.promoted) {
      t.append(s("circle", { cx: T / 2 - 1, cy: -T / 2 - 1, r: 10, class: "tol-star-bg" }),
        s("text", { x: T / 2 - 1, y: -T / 2 + 5, "text-anchor": "middle", class: "tol-star", "aria-hidden": "true" }, "★"));
    }
    if (it.n > 1) {
      t.append(s("circle", { cx: T / 2 - 1, cy: T / 2 - 1, r: 10, class: "tol-count-bg" }),
        s("text", { x: T / 2 - 1, y: T / 2 + 4, "text-anchor": "middle", class: "tol-count", "aria-hidden": "true" }, String(it.n)));
    }
    if (handler) {
      t.append(s("rect", { x: -T / 2 - 11, y: -T / 2 - 11, width: T + 22, height: T + 22, rx: 10, class: "tol-focus-ring" }));
      t.setAttribute("data-fk", `t-${key}`);
      activate(t, () => { if (!ctx.pending) handler(); });
    }
    g.append(t);
  });
  return g;
}

function focusAction(act) {
  const b = document.querySelector(`#board [data-act="${act}"]`);
  if (b) b.focus({ preventScroll: true });
}

// ------------------------------------------------------------------------ turn order track
function trackStrip(env) {
  const { view } = env;
  const spaces = view.track.spaces.slice().sort((a, b) => b - a);
  const at = new Map();
  for (const t of view.track.beefeaters) {
    if (!at.has(t.space)) at.set(t.space, []);
    at.get(t.space).push(t.seat);
  }
  const mutiny = view.event.current && view.event.current.id === 7;
  const order = view.turn_order;
  const current = view.reveal ? view.reveal.seat : null;
  return h("section", { class: "tol-track", "aria-label": "Turn Order Track" },
    h("h2", { class: "tol-h small", text: "Turn Order Track" }),
    h("p", { class: "tol-hint", text: mutiny ? "This round (Mutiny) the lowest space starts." : "The highest space starts; ties are broken by the second card, then by reversing the previous order." }),
    h("ol", { class: "tol-track-spaces" }, ...spaces.map((n) => h("li", { class: at.has(n) ? "taken" : "" },
      h("span", { class: "tol-track-no", text: String(n) }),
      h("span", { class: "tol-track-who" }, ...(at.get(n) || []).map((seat) => chip(env, seat, { small: true })))))),
    h("p", { class: "tol-order" }, h("span", { class: "tol-order-head", text: view.phase === "keep" ? `Turn order for round ${view.round + 1}: ` : "Turn order: " }),
      ...order.flatMap((seat, i) => [i ? h("span", { class: "tol-arrow", "aria-hidden": "true", text: " → " }) : null,
        h("span", { class: `tol-order-seat${seat === current ? " current" : ""}` }, who(env, seat))])));
}

// ------------------------------------------------------------------ players, event, scoring
function infoPanel(env) {
  const { view } = env;
  const box = h("section", { class: "tol-info", "aria-label": "Players, event and scoring card" });
  box.append(eventCard(env), scoringCard(env));
  if (view.scoring_history.length && view.phase !== "over") {
    box.append(h("details", { class: "tol-history" }, h("summary", { text: "Scoring so far" }),
      ...view.scoring_history.slice().reverse().map((t) => later("scoringPanel", env, t, false))));
  }
  return box;
}

function eventCard(env) {
  const { view } = env;
  const ev = view.event;
  const backs = [];
  for (let i = 0; i < ev.face_down; i++) backs.push(h("span", { class: "tol-mini-back", "aria-hidden": "true", text: "❦" }));
  return h("div", { class: "tol-event" },
    h("h2", { class: "tol-h small", text: "Event card" }),
    ev.current ? h("div", { class: "tol-event-card" }, h("p", { class: "tol-event-name", text: ev.current.name }),
      h("p", { class: "tol-event-text", text: ev.current.text })) : h("p", { text: "No event yet." }),
    h("p", { class: "tol-hint" }, ...backs, ev.face_down ? ` ${ev.face_down} face down for the coming round${ev.face_down === 1 ? "" : "s"}` : "No event left face down",
      ev.past.length ? ` · past: ${ev.past.map((e) => e.name).join(", ")}` : ""));
}

function scoringCard(env) {
  const { view } = env;
  const sc = view.scoring_card;
  const by = view.rules.areas_scored_by_round;
  return h("div", { class: "tol-scorecard" },
    h("h2", { class: "tol-h small", text: `Scoring card — ${sc.players.join("–")} players` }),
    h("ol", { class: "tol-places" }, ...sc.ravens.map((r, i) => h("li", {},
      h("span", { class: "tol-place", text: ORDINAL[i + 1] }), ` ${r} raven${r === 1 ? "" : "s"}`))),
    h("p", { class: "tol-hint", text: `Ravens left in the supply: ${view.ravens.supply}; ${view.rules.ravens_to_win} win at once.` }),
    h("ul", { class: "tol-rounds" }, ...Object.keys(by).map((r) => h("li", { class: Number(r) === view.round ? "now" : "" },
      `Round ${r}: `, ...by[r].flatMap((a, i) => [i ? " → " : "", areaWord(a)])))));
}

