// A Game of Thrones: the map of Westeros (SVG, zoom and pan), the units, tokens and orders on
// it, the tracks, and a panel for whatever this seat decides now. Every move sent is one of
// ctx.moves (the prompt's choices): a click on the map or a button only ever picks a listed move.
//
// Fixed data comes from two places, each fetched once and cached by the browser: the outlines
// and the Westeros and wildling card texts from map.json beside this file, and the areas' icons,
// the houses, cards and orders from the table's static data, which the table page merges into
// every view (under keys of its own: "area_info" and "house_info", never the live "areas").

import { el, moveKey, Moves, plural, signed, svg } from "/static/js/kit.js";
import { fitAreas, frameBox, setupGestures, showAll, zoomButtons } from "./mapview.js";
import { barRise, closePopover, drawPopover, openPopover, placePopover, popoverFor } from "./popover.js";
import { drawLastMove, noteLastMove } from "./lastmove.js";
import { watchLog } from "./loglinks.js";

const HOUSES = {
  stark: { name: "Stark", letter: "S", fill: "#dfe4e6", ink: "#1b2227", tint: "#c5ccd2" },
  lannister: { name: "Lannister", letter: "L", fill: "#a3262f", ink: "#ffffff", tint: "#e8bcb5" },
  baratheon: { name: "Baratheon", letter: "B", fill: "#e6c229", ink: "#241c00", tint: "#efdf95" },
  greyjoy: { name: "Greyjoy", letter: "G", fill: "#2b2e33", ink: "#ffffff", tint: "#aeb3b9" },
  tyrell: { name: "Tyrell", letter: "T", fill: "#3f7f35", ink: "#ffffff", tint: "#bcd8ad" },
  martell: { name: "Martell", letter: "M", fill: "#e07a1c", ink: "#1e1100", tint: "#f2c596" },
};
const TRACKS = [["iron_throne", "Iron Throne"], ["fiefdoms", "Fiefdoms"], ["kings_court", "King's Court"]];
const DOMINANCE = { iron_throne: "Iron Throne", fiefdoms: "Valyrian Steel Blade", kings_court: "Messenger Raven" };
const KIND_NAME = { march: "March", defense: "Defense", support: "Support", raid: "Raid", consolidate: "Consolidate Power" };
const STEP_NAME = { raid: "Raids", march: "Marches", consolidate: "Consolidate Power", "": "" };
const PHASE_NAME = { westeros: "Westeros phase", planning: "Planning phase", action: "Action phase", over: "The game is over" };
const STRENGTH = { footman: 1, knight: 2, ship: 1, "siege-engine": 0 };
const UNIT_NAME = { footman: "footman", knight: "knight", ship: "ship", "siege-engine": "siege engine" };
const TRACK_NAME = { iron_throne: "Iron Throne", fiefdoms: "Fiefdoms", kings_court: "King's Court" };

const S = {
  root: null, ctx: null, moves: null, map: null, fixed: null, loading: null, built: null,
  sel: null, zoom: { k: 1, x: 0, y: 0 }, selSeq: -1,
};

// -- data ------------------------------------------------------------------------------------

function load() {
  if (!S.loading) {
    S.loading = fetch("/static/games/game_of_thrones/map.json").then((r) => (r.ok ? r.json() : Promise.reject(new Error("map"))))
      .then((map) => {
        S.map = map;
        if (S.root && S.ctx) render(S.root, S.ctx);
      }, () => { S.loading = null; if (S.root) S.root.querySelector(".got-loading").textContent = "The map could not be loaded; reload the page."; });
  }
}

/** The static data merged into the view, with an index of the areas by id (built once). */
function fixedOf(view) {
  if (!view.area_info) return null;
  if (!S.fixed || S.fixed.area_info !== view.area_info) {
    S.fixed = { area_info: view.area_info, houses: view.house_info, area: Object.fromEntries(view.area_info.map((a) => [a.id, a])) };
  }
  return S.fixed;
}

const areaName = (id) => (S.fixed && S.fixed.area[id] ? S.fixed.area[id].name : id);
const houseOf = (view, seat) => HOUSES[view.houses[seat]] || { name: `Seat ${seat + 1}`, letter: "?", fill: "#777", ink: "#fff", tint: "#ccc" };
const stars = (n) => (n <= 4 ? [3, 2, 1, 0] : [3, 3, 2, 1, 0, 0]);
const orderInfo = (view, id) => (view.orders && view.orders[id]) || { kind: id, modifier: 0, special: false, name: id };

function orderLabel(view, id) {
  const o = orderInfo(view, id);
  return o.name || `${KIND_NAME[o.kind]} ${signed(o.modifier, true)}`;
}

// -- the map ---------------------------------------------------------------------------------

const ORDER_GLYPH = {
  march: "M-6 0H4M0-4L5 0L0 4",
  defense: "M-5-5H5V0Q5 5 0 7Q-5 5-5 0Z",
  support: "M0-6V6M-6 0H6",
  raid: "M-5-5L5 5M5-5L-5 5",
  consolidate: "M-6 4V-4L-3 0L0-5L3 0L6-4V4Z",
};

// four figures told apart by their outline alone: a footman (a pawn), a knight (a horse's head),
// a ship (hull and sail), a siege engine (a trebuchet); each about 24 map units across
const FIGURE = {
  footman: "M-8 11C-8 4-5 1-3 0A5.5 5.5 0 1 1 3 0C5 1 8 4 8 11Z",
  knight: "M-8 11L-7 4C-9 0-7-5-3-8L-2-12L0-9C5-9 9-5 9 1L9 5L5 3L3 5L6 11Z",
  ship: "M-12 2H12L8 10H-8Z M-1 0V-12L9 0Z",
  "siege-engine": "M-11 6H11V10H-11Z M-8 6L0-5L8 6H4L0 0L-4 6Z M-12-9L-10-11.5L11 0.5L9 3Z",
};
const LETTER_Y = { footman: 9, knight: 9, ship: 8.6, "siege-engine": null };
const KIND_ORDER = ["knight", "footman", "siege-engine", "ship"];
const STEP = 25;

function buildMap() {
  const map = S.map;
  const [w, h] = map.size;
  const areas = svg("g", { class: "g-areas" });
  const labels = svg("g", { class: "g-labels", "aria-hidden": "true" });
  const nodes = {};
  for (const [id, a] of Object.entries(map.areas)) {
    const info = S.fixed.area[id] || { name: id, kind: "land" };
    const p = svg("path", { d: a.d, class: `a ${info.kind}`, "fill-rule": "evenodd", "data-area": id, tabindex: "0", role: "button" });
    nodes[id] = p;
    areas.append(p);
    labels.append(areaLabel(id, a, info));
  }
  const borders = svg("g", { class: "g-borders", "aria-hidden": "true" },
    map.borders.filter((b) => !b.wall).map((b) => svg("path", { d: b.d, class: "b" })),
    map.borders.filter((b) => b.wall).map((b) => svg("g", { class: "wall" },
      svg("title", { text: `No passage between ${areaName(b.a[0])} and ${areaName(b.a[1])}` }),
      svg("path", { d: b.d, class: "wall-under" }), svg("path", { d: b.d, class: "wall-over" }))),
    map.frame.map((d) => svg("path", { d, class: "frame" })));
  const dyn = svg("g", { class: "g-dyn", "aria-hidden": "true" });
  const arrows = svg("g", { class: "g-arrows", "aria-hidden": "true" });
  const defs = svg("defs", {},
    svg("pattern", { id: "got-hatch", width: "8", height: "8", patternUnits: "userSpaceOnUse", patternTransform: "rotate(45)" },
      svg("rect", { width: "8", height: "8", fill: "#8d8577" }), svg("path", { d: "M0 0V8", stroke: "#5c564c", "stroke-width": "3" })),
    svg("marker", { id: "got-arrow", viewBox: "0 0 10 10", refX: "7", refY: "5", markerWidth: "5", markerHeight: "5", orient: "auto-start-reverse" },
      svg("path", { d: "M0 0L10 5L0 10Z", class: "arrowhead" })));
  const previewLayer = svg("g", { class: "g-arrows g-preview", "aria-hidden": "true" });
  const world = svg("g", { class: "world" }, areas, borders, labels, dyn, arrows, previewLayer);
  const root = svg("svg", { viewBox: `0 0 ${w} ${h}`, class: "got-svg", role: "group", "aria-label": "Map of Westeros: every area is a button" }, defs, world);
  root.addEventListener("click", (e) => {
    if (S.dragged) { S.dragged = false; return; }
    const t = e.target.closest("[data-area]");
    if (t) onArea(t.dataset.area);
  });
  root.addEventListener("keydown", (e) => {
    const t = e.target.closest("[data-area]");
    if (t && (e.key === "Enter" || e.key === " ")) { e.preventDefault(); onArea(t.dataset.area); }
  });
  // the arrow of a move is drawn while a pointer or the focus rests on its area
  const hover = (e) => {
    // the map moving under a resting pointer (a focused area brought into view) is no pointing
    if (e.type === "pointerover" && performance.now() - (S.pannedAt || 0) < 400) return;
    const t = e.target.closest && e.target.closest("[data-area]"); preview(t ? areaMoves(t.dataset.area) : null);
  };
  root.addEventListener("pointerover", hover);
  root.addEventListener("focusin", hover);
  root.addEventListener("pointerleave", () => preview(null));
  root.addEventListener("focusout", () => preview(null));
  return { svg: root, world, nodes, dyn, arrows, preview: previewLayer };
}

/** Where an area's name stands: the map's place for it; a port's "Port" at the top of the small
 * port, so that the ships below it leave the word readable. */
function labelAt(a, info) {
  return info.kind === "port" ? [a.l[0], a.l[1] - PORT_LIFT] : a.l;
}

// the word stands above its anchor, so that drawn larger (a map zoomed out) it grows away from
// the ships below it
const PORT_LIFT = 9;
const PORT_SHIPS_DROP = 14;

function areaLabel(id, a, info) {
  const [x, y] = labelAt(a, info);
  const outer = svg("g", { class: `lab ${info.kind}`, "data-label": id, transform: `translate(${x} ${y})` });
  // drawn larger while the map is small (mapview.js sets the scale): names stay readable
  const g = svg("g", { class: "lab-in" });
  outer.append(g);
  const name = info.kind === "port" ? "Port" : info.name;
  g.append(svg("text", { class: "name", "text-anchor": "middle", y: info.kind === "port" ? "-4" : "4", text: name }));
  const icons = [];
  if (info.fortification === "stronghold") icons.push(svg("path", { class: "ic fort", d: "M-7 6V-4H-5V-7H-2V-4H2V-7H5V-4H7V6Z", "data-icon": "stronghold" }));
  else if (info.fortification === "castle") icons.push(svg("path", { class: "ic fort", d: "M-5 5V-3H-3V-5H-1V-3H1V-5H3V-3H5V5Z", "data-icon": "castle" }));
  for (let i = 0; i < (info.supply || 0); i++) icons.push(svg("g", { class: "ic barrel" }, svg("rect", { x: "-4", y: "-6", width: "8", height: "11", rx: "3" }), svg("path", { d: "M-4-2H4M-4 2H4" })));
  for (let i = 0; i < (info.crowns || 0); i++) icons.push(svg("path", { class: "ic crown", d: "M-6 4V-5L-3-1L0-6L3-1L6-5V4Z" }));
  if (info.home && HOUSES[info.home]) {
    const hh = HOUSES[info.home];
    icons.unshift(svg("g", { class: "ic sigil" }, svg("path", { d: "M-7-7H7V3L0 8L-7 3Z", fill: hh.fill }),
      svg("text", { "text-anchor": "middle", y: "2.5", fill: hh.ink, text: hh.letter })));
  }
  icons.forEach((ic, i) => { ic.setAttribute("transform", `translate(${(i - (icons.length - 1) / 2) * 15} 15)`); g.append(ic); });
  return outer;
}

/** An area's units as figures, one per kind (and routed or not), with a count where several
 * stand together. */
function unitGroups(units) {
  const out = [];
  for (const kind of KIND_ORDER) {
    for (const routed of [false, true]) {
      const n = units.filter((u) => u.kind === kind && Boolean(u.routed) === routed).length;
      if (n) out.push({ kind, routed, n });
    }
  }
  return out;
}

function unitsAt(cx, cy, units, house, routedClass = true) {
  const g = svg("g", {});
  const groups = unitGroups(units);
  groups.forEach((u, i) => {
    const x = cx + (i - (groups.length - 1) / 2) * STEP;
    const t = svg("g", { class: `unit ${u.kind}${u.routed && routedClass ? " routed" : ""}`, "data-n": String(u.n), transform: `translate(${x} ${cy})${u.routed ? " rotate(90)" : ""}` },
      svg("path", { class: "fig", d: FIGURE[u.kind] }),
      LETTER_Y[u.kind] != null ? svg("text", { class: "who", "text-anchor": "middle", y: String(LETTER_Y[u.kind]), text: house.letter }) : null,
      u.n > 1 ? svg("g", { class: "count" }, svg("circle", { cx: "10", cy: "-10", r: "6.5" }), svg("text", { x: "10", y: "-6.6", "text-anchor": "middle", text: String(u.n) })) : null);
    t.style.setProperty("--h", house.fill);
    t.style.setProperty("--hi", house.ink);
    g.append(t);
  });
  return g;
}

function orderToken(view, order, x, y) {
  const house = houseOf(view, order.seat);
  // face down (another house's, before the reveal): its back, in the house's colour with a ring
  // and the house's letter; one's own face-down orders are drawn face up, with a dashed rim
  const g = svg("g", { class: `order${order.token ? " up" : " down"}${order.hidden && order.token ? " mine" : ""}`, transform: `translate(${x} ${y})` });
  g.style.setProperty("--h", house.fill);
  g.style.setProperty("--hi", house.ink);
  g.append(svg("circle", { r: "13" }));
  if (!order.token) {
    g.append(svg("circle", { class: "ring", r: "15" }), svg("text", { "text-anchor": "middle", y: "4.5", text: house.letter }));
    return g;
  }
  g.append(svg("circle", { class: "ring", r: "15" }));
  const o = orderInfo(view, order.token);
  const mod = (o.modifier ? signed(o.modifier, true) : "") + (o.special ? "★" : "");
  g.append(svg("path", { class: "glyph", d: ORDER_GLYPH[o.kind] || "", transform: `translate(0 ${mod ? -4 : -0.5}) scale(${mod ? 1 : 1.25})` }));
  if (mod) g.append(svg("text", { class: "mod", "text-anchor": "middle", y: "10.6", text: mod }));
  return g;
}

/** The boxes of an area's name and icons (the name's width estimated from its length). */
function labelBoxes(a, info) {
  const [lx, ly] = labelAt(a, info);
  const name = info.kind === "port" ? "Port" : info.name || "";
  const half = info.kind === "port" ? 11 : name.length * 3.4 + 3;
  const icons = (info.fortification === "stronghold" || info.fortification === "castle" ? 1 : 0) + (info.supply || 0) + (info.crowns || 0) + (info.home ? 1 : 0);
  const boxes = [info.kind === "port" ? [lx - half, ly - 14, lx + half, ly + 2] : [lx - half, ly - 10, lx + half, ly + 6]];
  if (icons) boxes.push([lx - icons * 7.5 - 1, ly + 7, lx + icons * 7.5 + 1, ly + 23]);
  return boxes;
}

/** The box of a row of n units centred on (x, y). */
const rowBox = (x, y, n) => { const half = (n - 1) * STEP / 2 + 12; return [x - half, y - 12, x + half, y + 12]; };

/** Where the attackers stand in an embattled area, apart from its holders: below them, or above
 * when below would cover the area's name. */
function armyRowY(a, info, [ux, uy], n) {
  return labelBoxes(a, info).some((b) => meets(rowBox(ux, uy + 27, n), b)) ? uy - 27 : uy + 27;
}

/** How many places an area's row takes: its units, else one for a neutral force. */
const standing = (e) => (e.units && e.units.length ? unitGroups(e.units).length : e.neutral_force ? 1 : 0);

const meets = (b, c) => b[0] < c[2] && c[0] < b[2] && b[1] < c[3] && c[1] < b[3];

/** Where an area's row of units (or its neutral force, n = 1) stands: at its place in the map's
 * data, unless the row would cover the area's name or icons (the data puts a few right on them);
 * then just below or above them. */
function unitSpot(a, info, n) {
  const [ux, uy] = a.u;
  if (info.kind === "port") return n ? [ux, uy + PORT_SHIPS_DROP] : [ux, uy];
  if (!n) return [ux, uy];
  const half = (n - 1) * STEP / 2 + 12;
  const [name, icons] = labelBoxes(a, info);
  const row = (y) => [ux - half, y - 11, ux + half, y + 11];
  if (!meets(row(uy), name) && !(icons && meets(row(uy), icons))) return [ux, uy];
  const below = name[3] + 12 + (icons && icons[0] < ux + half && ux - half < icons[2] ? 17 : 0);
  for (const y of [below, name[1] - 12]) if (Math.abs(y - uy) <= 36 && !meets(row(y), name) && !(icons && meets(row(y), icons))) return [ux, y];
  return [ux, uy];
}

/** Where an area's order token goes: above its units, unless that covers the area's name or
 * icons; then beside them (right, left) or below. */
function orderSpot(a, info, n, taken, [ux, uy]) {
  const boxes = labelBoxes(a, info);
  const side = n ? n * STEP / 2 + 17 : 0;
  if (info.kind === "port") {
    // beside the ships, on the side away from the port's land (whose own order stands there)
    const land = S.map.areas[info.port_of];
    const away = land && land.u[0] > ux ? -1 : 1;
    return [ux + away * (side + 3), uy];
  }
  const spots = [taken.above ? null : [ux, uy - 23], taken.power ? null : [ux + side + 3, uy], taken.garrison ? null : [ux - side - 3, uy], taken.below ? null : [ux, uy + 23]].filter(Boolean);
  const clear = ([x, y]) => boxes.every(([x0, y0, x1, y1]) => {
    const dx = x - Math.min(Math.max(x, x0), x1); const dy = y - Math.min(Math.max(y, y0), y1);
    return dx * dx + dy * dy >= 13 * 13;
  });
  return spots.find(clear) || spots[0];
}

function drawDynamic(view) {
  const B = S.built;
  const live = Object.fromEntries((view.areas || []).map((a) => [a.id, a]));
  S.live = live;
  const hl = new Set(highlighted());
  const parts = [];
  for (const [id, a] of Object.entries(S.map.areas)) {
    const info = S.fixed.area[id] || {};
    const e = live[id] || {};
    const node = B.nodes[id];
    const ctrl = e.controller != null ? houseOf(view, e.controller) : null;
    node.style.fill = e.blocked ? "url(#got-hatch)" : info.kind === "land" && ctrl ? ctrl.tint : "";
    node.classList.toggle("hl", hl.has(id));
    node.classList.toggle("sel", S.sel === id);
    node.classList.toggle("combat", Boolean(view.combat && view.combat.area === id));
    node.setAttribute("aria-label", describeArea(view, id, e, info, hl.has(id)));
    const [ux, uy] = unitSpot(a, info, standing(e));
    const g = svg("g", { "data-at": id });
    if (e.units && e.units.length) g.append(unitsAt(ux, uy, e.units, houseOf(view, e.seat)));
    if (e.neutral_force) {
      g.append(svg("g", { class: "neutral", transform: `translate(${ux} ${uy})` },
        svg("path", { d: "M-6-14H6L14-6V6L6 14H-6L-14 6V-6Z" }), svg("text", { "text-anchor": "middle", y: "5", text: String(e.neutral_force) })));
    }
    const n = e.units && e.units.length ? unitGroups(e.units).length : 0;
    if (e.power_token != null) {
      const hh = houseOf(view, e.power_token);
      const pt = svg("g", { class: "power", transform: `translate(${ux + (n ? n * STEP / 2 + 13 : 0)} ${uy})` },
        svg("path", { d: "M-9 0L-4.5-8H4.5L9 0L4.5 8H-4.5Z" }), svg("text", { "text-anchor": "middle", y: "3.5", text: hh.letter }));
      pt.style.setProperty("--h", hh.fill);
      pt.style.setProperty("--hi", hh.ink);
      g.append(pt);
    }
    if (e.garrison) {
      // a tower in the holder's colour, its strength on it
      const hh = houseOf(view, e.controller != null ? e.controller : 0);
      const gt = svg("g", { class: "garrison", transform: `translate(${ux - (n ? n * STEP / 2 + 15 : 0)} ${uy})` },
        svg("path", { d: "M-10 12V-4H-11.5V-12H-7V-8.5H-2.5V-12H2.5V-8.5H7V-12H11.5V-4H10V12Z" }), svg("text", { "text-anchor": "middle", y: "7.5", text: String(e.garrison) }));
      gt.style.setProperty("--h", hh.fill);
      g.append(gt);
    }
    const c = view.combat;
    const battle = Boolean(c && c.area === id && c.army && c.army.length);
    // the attackers stand in the embattled area during the battle, apart from its holders: below
    // them, or above when below would cover the area's name
    const armyY = battle ? armyRowY(a, info, [ux, uy], unitGroups(c.army.map((k) => ({ kind: k }))).length) : uy + 27;
    if (e.order) {
      const [ox, oy] = orderSpot(a, info, n, { power: e.power_token != null, garrison: Boolean(e.garrison), below: battle && armyY > uy, above: battle && armyY < uy }, [ux, uy]);
      g.append(orderToken(view, e.order, ox, oy));
    }
    if (battle) {
      const army = unitsAt(ux, armyY, c.army.map((k) => ({ kind: k, routed: false })), houseOf(view, c.attacker));
      army.setAttribute("class", "attacking");
      g.append(army);
    }
    parts.push(g);
  }
  B.dyn.replaceChildren(...parts);
  B.arrows.replaceChildren(...arrows(view));
}

function describeArea(view, id, e, info, actionable) {
  const bits = [info.name || id];
  if (info.kind === "sea") bits.push("sea");
  if (info.kind === "port") bits.push("port");
  if (info.fortification && info.fortification !== "none") bits.push(info.fortification);
  if (info.supply) bits.push(plural(info.supply, "barrel"));
  if (info.crowns) bits.push(plural(info.crowns, "crown"));
  if (info.home && HOUSES[info.home]) bits.push(`home of ${HOUSES[info.home].name}`);
  if (e.blocked) bits.push("blocked in this game");
  if (e.controller != null) bits.push(`held by ${houseOf(view, e.controller).name}`);
  if (e.units && e.units.length) bits.push(e.units.map((u) => UNIT_NAME[u.kind] + (u.routed ? " (routed)" : "")).join(", "));
  if (e.garrison) bits.push(`garrison ${e.garrison}`);
  if (e.neutral_force) bits.push(`neutral force ${e.neutral_force}`);
  if (e.power_token != null) bits.push(`Power token of ${houseOf(view, e.power_token).name}`);
  if (e.order) bits.push(e.order.token ? `order: ${orderLabel(view, e.order.token)}${e.order.hidden ? " (face down to the others)" : ""}` : `a face-down order of ${houseOf(view, e.order.seat).name}`);
  if (view.combat && view.combat.area === id) bits.push(`battle: ${houseOf(view, view.combat.attacker).name} attacks with ${view.combat.army.map((k) => UNIT_NAME[k]).join(", ")}`);
  if (actionable) bits.push("you may choose it now");
  return bits.join("; ");
}

/** An area's row of units as drawn now (its place, and the boxes an arrow must keep clear of:
 * the units, the attackers' row in a battle there, the name and its icons). */
function arrowEnd(id) {
  const a = S.map.areas[id];
  if (!a) return { at: [0, 0], boxes: [] };
  const info = S.fixed.area[id] || {};
  const e = (S.live || {})[id] || {};
  const n = e.units && e.units.length ? unitGroups(e.units).length : 0;
  const at = unitSpot(a, info, standing(e));
  const boxes = labelBoxes(a, info);
  if (n) boxes.push(rowBox(at[0], at[1], n));
  if (e.neutral_force) boxes.push([at[0] - 14, at[1] - 14, at[0] + 14, at[1] + 14]);
  const c = S.ctx.view.combat;
  if (c && c.area === id && c.army && c.army.length) { const m = unitGroups(c.army.map((k) => ({ kind: k }))).length; boxes.push(rowBox(at[0], armyRowY(a, info, at, m), m)); }
  return { at, boxes };
}

const clearance = ([x, y], boxes) => Math.min(Infinity, ...boxes.map(([x0, y0, x1, y1]) => Math.hypot(Math.max(x0 - x, 0, x - x1), Math.max(y0 - y, 0, y - y1))));

/** A march, retreat, raid or attack arrow between two areas' unit rows, bent a little. It leaves
 * the first row and stops short of the second (its head clear of the units, the name and the
 * icons there), so that it never hides what stands where it goes. Also a point on the drawn
 * arrow near its head, for its label (an arrow's start may lie off the screen). */
function arrowGeometry(from, to, bend = 0.18) {
  const A = arrowEnd(from); const B = arrowEnd(to);
  const [x1, y1] = A.at; const [x2, y2] = B.at;
  const mx = (x1 + x2) / 2 - (y2 - y1) * bend; const my = (y1 + y2) / 2 + (x2 - x1) * bend;
  const at = (t) => [(1 - t) ** 2 * x1 + 2 * (1 - t) * t * mx + t * t * x2, (1 - t) ** 2 * y1 + 2 * (1 - t) * t * my + t * t * y2];
  // the head reaches 6 beyond the path's end: 10 keeps it clear of what it points at
  let t1 = 1; let best = -1;
  for (let t = 1; t >= 0.5; t -= 0.02) {
    const c = clearance(at(t), B.boxes);
    if (c >= 10) { t1 = t; break; }
    if (c > best) { best = c; t1 = t; }
  }
  let t0 = 0;
  for (let t = 0; t <= Math.min(0.45, t1 - 0.1); t += 0.02) { t0 = t; if (clearance(at(t), A.boxes) >= 4) break; }
  // the part of the curve from t0 to t1 (a quadratic's control point along its tangent at t0)
  const [sx, sy] = at(t0); const [ex, ey] = at(t1);
  const k = t1 - t0;
  const cx = sx + k * ((1 - t0) * (mx - x1) + t0 * (x2 - mx)); const cy = sy + k * ((1 - t0) * (my - y1) + t0 * (y2 - my));
  const r = (v) => v.toFixed(1);
  return { d: `M${r(sx)} ${r(sy)}Q${r(cx)} ${r(cy)} ${r(ex)} ${r(ey)}`, mid: at(t0 + 0.7 * (t1 - t0)) };
}

function arrows(view) {
  const out = [];
  const p = view.prompt;
  if (p && p.kind === "march_moves" && p.from) {
    const count = {};
    for (const [kind, to] of p.staged || []) (count[to] = count[to] || []).push(UNIT_NAME[kind]);
    for (const [to, kinds] of Object.entries(count)) {
      const g = arrowGeometry(p.from, to);
      out.push(svg("path", { class: "arrow staged", d: g.d, "marker-end": "url(#got-arrow)" }));
      out.push(svg("text", { class: "arrow-label", x: g.mid[0].toFixed(1), y: (g.mid[1] - 8).toFixed(1), "text-anchor": "middle", text: kinds.join(", ") }));
    }
  }
  const c = view.combat;
  if (c && c.from) out.push(svg("path", { class: "arrow attack", d: arrowGeometry(c.from, c.area).d, "marker-end": "url(#got-arrow)" }));
  return out;
}

/** Where a listed move goes on the map, drawn before it is confirmed: a unit marching, a
 * retreat, a raid. Null for a move that goes nowhere. */
function moveArrow(m) {
  const view = S.ctx.view;
  const p = view.prompt || {};
  if (m.type === "move" && p.from) return [p.from, m.to, UNIT_NAME[m.unit] || m.unit];
  if (m.type === "retreat" && view.combat) return [view.combat.area, m.to, "retreat"];
  if (m.type === "raid" && m.target) return [m.area, m.target, "raid"];
  return null;
}

/** Show (or with null, clear) the arrows of the moves that a pointer or the focus rests on. */
function preview(list) {
  if (!S.built) return;
  const out = [];
  const seen = new Set();
  for (const m of list || []) {
    const a = moveArrow(m);
    if (!a || seen.has(a[1])) continue;
    seen.add(a[1]);
    const g = arrowGeometry(a[0], a[1]);
    out.push(svg("path", { class: "arrow preview", d: g.d, "marker-end": "url(#got-arrow)" }));
    const names = (list || []).map(moveArrow).filter((b) => b && b[1] === a[1]).map((b) => b[2]);
    out.push(svg("text", { class: "arrow-label preview", x: g.mid[0].toFixed(1), y: (g.mid[1] - 10).toFixed(1), "text-anchor": "middle", text: [...new Set(names)].join(" or ") }));
  }
  S.built.preview.replaceChildren(...out);
  S.built.svg.classList.toggle("previewing", out.length > 0);
}

function previewMoveKey(key) {
  const m = key && S.moves ? S.moves.byKey.get(key) : null;
  preview(m ? [m] : null);
}

// -- moves on the map ------------------------------------------------------------------------

const AREA_TYPES = new Set(["order", "unorder", "raven_swap", "march", "consolidate", "muster", "move", "recruit", "retreat", "destroy", "raid"]);

/** The map area a listed move is chosen by (a raid: its origin, then, once chosen, its target). */
function mapArea(m) {
  if (m.type === "raid") return S.sel && m.area === S.sel && m.target ? m.target : m.area;
  if (m.type === "move" || m.type === "recruit" || m.type === "retreat") return m.to;
  // a casualty is chosen on the embattled area, where both sides' units stand during the battle
  if (m.type === "casualty") return S.ctx.view && S.ctx.view.combat ? S.ctx.view.combat.area : null;
  if (AREA_TYPES.has(m.type)) return m.area;
  const v = m.type === "ability" ? m.choice : m.type === "choose" ? m.option : null;
  return v && S.fixed.area[v] ? v : null;
}

function areaMoves(id) {
  const all = [...S.moves.byKey.values()];
  if (S.sel && all.some((m) => m.type === "raid" && m.area === S.sel)) {
    const hit = all.filter((m) => m.type === "raid" && m.area === S.sel && m.target === id);
    if (hit.length) return hit;
  }
  return all.filter((m) => mapArea(m) === id && !(m.type === "raid" && S.sel === m.area && m.target));
}

function highlighted() {
  if (!S.moves) return [];
  const all = [...S.moves.byKey.values()];
  if (S.sel && all.some((m) => m.type === "raid" && m.area === S.sel)) return all.filter((m) => m.type === "raid" && m.area === S.sel && m.target).map((m) => m.target).concat([S.sel]);
  return [...new Set(all.map((m) => (m.type === "raid" ? m.area : mapArea(m))).filter(Boolean))];
}

const PANEL_TITLE = { orders: "Your orders", raven: "The Messenger Raven", cards: "Choose your house card", bid: "Your bid" };
const POPOVER_TYPES = new Set(["order", "raven_swap", "unorder"]);
const NEEDS_PANEL = new Set(["order", "raven_swap", "raid", "unorder", "casualty"]);

function onArea(id) {
  if (!S.ctx) return;
  const list = areaMoves(id);
  if (popoverFor(id)) {
    // orders: a popover at the area; the same tap again closes it
    if (S.pop === id) { closePopover(); return; }
    S.sel = id;
    openPopover(id);
    render(S.root, S.ctx);
    const first = S.built.pop && S.built.pop.querySelector("button[data-move]:not(:disabled)");
    if (first) first.focus({ preventScroll: true });
    return;
  }
  if (S.pop) closePopover(false);
  if (list.length === 1 && !NEEDS_PANEL.has(list[0].type) && !S.ctx.pending) { S.sel = null; S.ctx.send(list[0]); return; }
  if (list.length === 1 && list[0].type === "raid" && list[0].target && S.sel === list[0].area) { S.sel = null; S.ctx.send(list[0]); return; }
  S.sel = S.sel === id && !list.length ? null : id;
  render(S.root, S.ctx);
  const first = document.querySelector("#bar-do .area-choices button:not(:disabled)");
  if (first && list.length) first.focus({ preventScroll: true });
}

// -- panels ----------------------------------------------------------------------------------

function houseChip(view, seat, extra = "") {
  const h = houseOf(view, seat);
  const chip = el("span", { class: `chip${extra}`, title: h.name },
    el("span", { class: "chip-letter", "aria-hidden": "true", text: h.letter }), el("span", { class: "chip-name", text: h.name }));
  chip.style.setProperty("--h", h.fill);
  chip.style.setProperty("--hi", h.ink);
  return chip;
}

function button(move, label, cls = "") {
  const choice = S.moves.choice(move);
  return el("button", { type: "button", class: `choice ${cls}`, "data-move": moveKey(move), disabled: S.ctx.pending || S.ctx.offline,
    onclick: () => { S.sel = null; S.ctx.send(move); } }, label || (choice && choice.label) || move.type);
}

function actionPanel(view, more) {
  const ctx = S.ctx;
  const p = view.prompt;
  const box = el("section", { class: "got-act", "data-prompt": "", "aria-label": "Your decision" });
  S.areaList = null;
  if (!p && view.standings && more) return more.finalPanel(view);
  if (!p) {
    const who = (ctx.awaiting || []).map((s) => houseOf(view, s).name);
    box.append(el("h2", { text: view.winner != null ? `${houseOf(view, view.winner).name} takes the Iron Throne` : ctx.seat == null ? "Watching" : "Waiting" }),
      el("p", { text: who.length ? `Waiting for ${who.join(", ")}.` : view.winner != null ? "The game is over." : "" }));
    if (view.phase === "planning" && ctx.seat != null && view.planning && (view.planning.ready || []).includes(ctx.seat)) box.append(el("p", { class: "note", text: "Your orders are in. The others are still planning." }));
    return box;
  }
  box.classList.add("mine");
  // the prompt's sentence is in the action bar; the panel names the decision in a few words
  box.append(el("h2", { text: PANEL_TITLE[p.kind] || p.text }));
  const all = [...S.moves.byKey.values()];
  const onMap = all.filter((m) => mapArea(m) || m.type === "raid");
  const loose = all.filter((m) => !onMap.includes(m));
  if (p.kind === "orders" || p.kind === "raven") box.append(planningSummary(view));
  if (p.kind === "march_moves") {
    box.append(el("p", { class: "note", text: `Marching from ${areaName(p.from)}. ` + ((p.staged || []).length ? "So far: " + p.staged.map(([k, to]) => `${UNIT_NAME[k]} → ${areaName(to)}`).join("; ") + "." : "No unit has moved yet.") }));
  }
  if (more == null && needsPanels(view)) box.append(el("p", { class: "note", text: "…" }));
  if (p.kind === "cards" && more) box.append(more.cardChooser(view, loose));
  if (p.kind === "bid") box.append(el("p", { class: "note", text: p.for === "track" ? `Clash of Kings: the ${TRACK_NAME[p.track] || p.track} track. You have ${plural(view.power[ctx.seat], "Power token")}.` : `Wildling attack of strength ${view.wildlings}. You have ${plural(view.power[ctx.seat], "Power token")}.` }));
  if (p.kind === "ties" && p.bids && more) box.append(more.bidTable(view, p.bids));
  if (p.kind === "wildling" && view.wildling_top && more) box.append(more.wildlingCard(view.wildling_top) || "");
  if ((p.kind === "westeros_choice" || p.kind === "wildling_choice") && more) {
    const card = p.card && (S.map.wildlings[p.card] ? more.wildlingCard(p.card) : more.westerosCard(p.card));
    if (card) box.append(card);
  }
  if (onMap.length) {
    const areas = [...new Set(onMap.map((m) => (m.type === "raid" ? m.area : mapArea(m))))];
    const sel = S.sel && !popoverFor(S.sel) && (areas.includes(S.sel) || areaMoves(S.sel).length) ? S.sel : null;
    if (!sel) {
      const done = p.kind === "orders" ? ordered(view) : new Set();
      const todo = areas.filter((id) => !done.has(id));
      if (p.kind === "orders" && !todo.length) {
        box.append(el("p", { class: "all-placed", text: "Every area holding your units has an order: press Ready in the bar (tap an area to change its order)." }));
      } else {
        box.append(el("p", { class: "hint", text: p.kind === "orders" ? `Tap an area on the map to give it an order (${plural(todo.length, "area")} without one), or here:` : "Choose a highlighted area on the map, or here:" }));
      }
      const list = el("div", { class: "area-list" }, areas.map((id) => el("button", { type: "button", class: `area-button${done.has(id) ? " done" : ""}`, "data-area-button": id, onclick: () => onArea(id) }, done.has(id) ? `${areaName(id)} ✓` : areaName(id))));
      // orders are given on the map (a popover at the area): the list of areas stays in the
      // panel, out of the action bar, which keeps to Ready
      if (p.kind === "orders") S.areaList = el("section", { class: "got-areas", "aria-label": "Your areas" }, list);
      else box.append(list);
    } else {
      const list = areaMoves(sel);
      const head = el("h3", { text: areaName(sel) });
      const choices = el("div", { class: "area-choices" });
      for (const m of list) if (!POPOVER_TYPES.has(m.type)) choices.append(button(m));
      const raidOrigin = list.some((m) => m.type === "raid" && m.area === sel && m.target);
      box.append(head, raidOrigin ? el("p", { class: "hint", text: "Choose the raided area on the map, or:" }) : "", choices,
        el("button", { type: "button", class: "link", onclick: () => { S.sel = null; render(S.root, S.ctx); } }, "Back to all areas"));
    }
  }
  const rest = loose.filter((m) => m.type !== "card");
  if (rest.length) {
    const bids = rest.filter((m) => m.type === "bid");
    const other = rest.filter((m) => m.type !== "bid");
    if (bids.length) box.append(el("div", { class: "bids" }, bids.map((m) => button(m, String(m.power), "bid"))));
    if (other.length) box.append(el("div", { class: "buttons" }, other.map((m) => button(m, null, m.type === "ready" || m.type === "end_march" && !m.power || m.type === "end_muster" ? "primary" : ""))));
  }
  if (p.kind === "orders" && !all.some((m) => m.type === "ready")) {
    box.append(el("div", { class: "buttons" }, el("button", { type: "button", class: "choice primary", disabled: true, title: "Place an order on every area holding your units first" }, "Ready"),
      el("small", { class: "note", text: " Place an order on every area holding your units first." })));
  }
  return box;
}

/** The seat's areas that hold an order already. */
function ordered(view) {
  return new Set((view.areas || []).filter((a) => a.order && a.order.seat === S.ctx.seat).map((a) => a.id));
}

function planningSummary(view) {
  const me = S.ctx.seat;
  const pl = view.planning || { asked: [], ready: [], placed: {} };
  const pos = view.tracks.kings_court.indexOf(me);
  const allowed = stars(view.houses.length)[pos] || 0;
  const mine = (view.areas || []).filter((a) => a.order && a.order.seat === me);
  const special = mine.filter((a) => a.order.token && orderInfo(view, a.order.token).special).length;
  const restricted = (view.restricted || []).map((id) => orderLabel(view, id));
  return el("div", { class: "planning" },
    el("p", {}, `Special orders: ${special} of ${allowed} ★ (King's Court, ${ordinal(pos + 1)} place).`,
      restricted.length ? el("span", { class: "restricted", text: ` Restricted this round: ${restricted.join(", ")}.` }) : null),
    view.phase === "planning" ? el("ul", { class: "who" }, (pl.asked || []).map((s) => el("li", {}, houseChip(view, s),
      ` ${(pl.placed || {})[s] || 0} placed — `, (pl.ready || []).includes(s) ? el("strong", { text: "ready" }) : el("em", { text: "still planning" })))) : null);
}

const ordinal = (n) => `${n}${["th", "st", "nd", "rd"][n % 100 > 10 && n % 100 < 14 ? 0 : n % 10 < 4 ? n % 10 : 0]}`;

function tracksPanel(view) {
  const n = view.houses.length;
  const rows = TRACKS.map(([id, title]) => {
    const order = view.tracks[id] || [];
    const used = id === "fiefdoms" ? view.blade_used : id === "kings_court" ? view.raven_used : false;
    return el("div", { class: "track", "data-track": id }, el("h4", { text: title }),
      el("ol", {}, order.map((s, i) => el("li", {}, el("span", { class: "pos", text: String(i + 1) }), houseChip(view, s),
        id === "kings_court" && stars(n)[i] ? el("span", { class: "stars", title: plural(stars(n)[i], "special order"), text: "★".repeat(stars(n)[i]) }) : null,
        i === 0 ? el("span", { class: `dom${used ? " used" : ""}`, text: DOMINANCE[id] + (used ? " (used)" : "") }) : null))));
  });
  const limits = view.supply_limits || [];
  const supply = el("div", { class: "track" }, el("h4", { text: "Supply" }),
    el("ol", {}, view.houses.map((_, s) => el("li", {}, houseChip(view, s), el("span", { text: ` ${view.supply[s]} — armies ${(limits[view.supply[s]] || []).join("·")}` })))));
  const victory = el("div", { class: "track" }, el("h4", { text: "Victory (castles and strongholds, 7 wins)" }),
    el("ol", {}, view.houses.map((_, s) => el("li", {}, houseChip(view, s), el("meter", { min: "0", max: "7", value: String(view.castles[s]), "aria-label": `${houseOf(view, s).name} castles` }), el("span", { text: ` ${view.castles[s]}` })))));
  const wild = el("div", { class: "track wildlings" }, el("h4", { text: `Wildlings: ${view.wildlings} of 12` }),
    el("ol", { class: "wild-steps" }, [0, 2, 4, 6, 8, 10, 12].map((v) => el("li", { class: v === view.wildlings ? "on" : v < view.wildlings ? "past" : "", text: String(v) }))));
  const rounds = el("div", { class: "track rounds" }, el("h4", { text: `Round ${Math.min(view.round, view.rounds || 10)} of ${view.rounds || 10}` }),
    el("ol", { class: "round-steps" }, Array.from({ length: view.rounds || 10 }, (_, i) => el("li", { class: i + 1 === view.round ? "on" : i + 1 < view.round ? "past" : "", text: String(i + 1) }))));
  return el("section", { class: "got-tracks", "aria-label": "Tracks" }, rounds, ...rows, supply, victory, wild);
}

function statusBar(view) {
  const ctx = S.ctx;
  const phase = PHASE_NAME[view.phase] || view.phase;
  let next = "";
  if (view.phase === "action" && view.combat) {
    // a battle holds the march up: say so, not who marches next
    next = `${STEP_NAME[view.step] || "Marches"} — battle for ${areaName(view.combat.area)}`;
  } else if (view.phase === "action" && view.step) {
    const who = (ctx.awaiting || []).map((s) => houseOf(view, s).name);
    next = `${STEP_NAME[view.step] || view.step}${who.length ? ` — ${who.join(", ")} ${who.length > 1 ? "decide" : "resolves next"}` : ""}`;
  }
  const me = ctx.seat != null && view.houses[ctx.seat] ? houseChip(view, ctx.seat, " me") : null;
  return el("div", { class: "got-bar" }, el("span", { class: "round", text: `Round ${Math.min(view.round, view.rounds || 10)}` }),
    el("span", { class: "phase", text: phase }), next ? el("span", { class: "next", text: next }) : null,
    me ? el("span", { class: "you" }, "You are ", me) : el("span", { class: "you", text: "Spectator" }),
    view.winner != null ? el("strong", { class: "won", text: `${houseOf(view, view.winner).name} wins` }) : null);
}

// -- the panels fetched on demand ---------------------------------------------------------------

let P = null; // panels.js once loaded: the combat, Westeros and bidding panels

/** Whether this view shows anything drawn by panels.js. */
function needsPanels(view) {
  const kind = view.prompt ? view.prompt.kind : "";
  return Boolean(view.combat || view.bids || view.standings || view.wildling_last || (view.westeros_cards || []).length || (view.bid_results || []).length
    || ["cards", "ties", "wildling", "westeros_choice", "wildling_choice"].includes(kind));
}

/** panels.js if loaded; else start fetching it (the page is drawn again when it arrives). */
function panels() {
  if (!P && !S.panelsLoading) {
    S.panelsLoading = import("./panels.js").then((m) => { P = m; if (S.root && S.ctx) render(S.root, S.ctx); }, () => { S.panelsLoading = null; });
  }
  return P;
}

// -- the log, filtered by round ----------------------------------------------------------------

const ROUND_LINE = /^Round (\d+) begins/;

/** Hide the log lines outside the chosen round ("" = every round). A line belongs to the round
 * begun by the last "Round N begins" line before it (the setup to round 1). */
function filterLog() {
  const log = document.getElementById("log");
  const pick = document.getElementById("got-log-round");
  if (!log || !pick) return;
  const want = pick.value;
  let round = "1";
  for (const li of log.children) {
    const m = ROUND_LINE.exec(li.textContent);
    if (m) round = m[1];
    li.dataset.round = round;
    li.hidden = Boolean(want) && round !== want;
  }
}

/** A "Round" chooser above the table's log, added once; its rounds follow the game. */
function logFilter(view) {
  const log = document.getElementById("log");
  if (!log) return;
  let pick = document.getElementById("got-log-round");
  if (!pick) {
    pick = el("select", { id: "got-log-round", onchange: () => { filterLog(); const panel = document.getElementById("tab-log"); if (panel) panel.scrollTop = pick.value ? 0 : panel.scrollHeight; } });
    log.before(el("p", { class: "got-log-filter" }, el("label", { for: "got-log-round", text: "Show the log of " }), pick));
    new MutationObserver(filterLog).observe(log, { childList: true });
  }
  const rounds = Math.min(view.round, view.rounds || 10);
  if (pick.options.length !== rounds + 1) {
    const keep = pick.value;
    pick.replaceChildren(el("option", { value: "", text: "every round" }),
      ...Array.from({ length: rounds }, (_, i) => el("option", { value: String(i + 1), text: `round ${i + 1}` })));
    pick.value = keep;
  }
  filterLog();
}

// -- the renderer ----------------------------------------------------------------------------

export function render(root, ctx) {
  S.root = root; S.ctx = ctx;
  const view = ctx.view;
  if (!view) return;
  if (!S.map || !fixedOf(view)) {
    load();
    if (!root.querySelector(".got-loading")) root.replaceChildren(el("p", { class: "got-loading", text: "Unrolling the map of Westeros…" }));
    return;
  }
  S.moves = new Moves(ctx);
  if (ctx.seq !== S.selSeq) { S.selSeq = ctx.seq; if (S.sel && !areaMoves(S.sel).length) S.sel = null; }
  if (!S.built || !root.contains(S.built.svg)) {
    S.built = buildMap();
    const box = el("div", { class: "got-map", tabindex: "0", "aria-label": "The map: + and − zoom, arrow keys pan, Tab moves between areas" }, S.built.svg);
    S.built.box = box;
    // the panels of the moment: over the sea beside Westeros on a wide screen, a sheet above the
    // action bar on a phone when a decision needs them (a battle, the cards, a bid)
    S.built.dockBody = el("div", { class: "dock-body" });
    S.built.fold = el("button", { type: "button", class: "dock-fold", "aria-expanded": "true", onclick: () => {
      S.folded = !S.folded; paintFold(); placePopover(); } }, "Hide panel");
    S.built.dock = el("div", { class: "got-dock", "aria-label": "This moment of the game", role: "region" }, S.built.fold, S.built.dockBody);
    S.built.below = el("div", { class: "got-below" });
    S.built.bar = el("div", { class: "got-bar-wrap" });
    S.built.wrap = el("div", { class: "got-mapwrap" }, box, S.built.bar, zoomButtons(), S.built.dock);
    root.replaceChildren(el("div", { class: "got" }, S.built.wrap, S.built.below));
    S.onZoom = placePopover;
    const above = () => box.style.setProperty("--got-above", `${Math.round(root.getBoundingClientRect().top + scrollY)}px`);
    above();
    addEventListener("resize", above);
    setupGestures(box);
    frameBox();
    S.moment = null;
    if (!root.dataset.gotHover) {
      // a move's arrow while a pointer or the focus rests on its button (in the panel or the bar)
      root.dataset.gotHover = "1";
      const onButton = (e) => { const b = e.target.closest && e.target.closest("[data-move]"); if (b) previewMoveKey(b.dataset.move); };
      const off = (e) => { if (e.target.closest && e.target.closest("[data-move]")) preview(null); };
      root.addEventListener("pointerover", onButton);
      root.addEventListener("focusin", onButton);
      root.addEventListener("pointerout", off);
      root.addEventListener("focusout", off);
      addEventListener("scroll", placePopover, { passive: true });
      addEventListener("resize", placeSheets);
      // the bar grows and shrinks with what is lifted into it: the sheets stand on it
      const bar = document.getElementById("action-bar");
      if (bar) new ResizeObserver(placeSheets).observe(bar);
    }
    watchLog();
  }
  const focus = document.activeElement && S.built.dock.contains(document.activeElement) ? document.activeElement.getAttribute("data-move") || document.activeElement.getAttribute("data-area-button") : null;
  noteLastMove(view);
  drawDynamic(view);
  drawLastMove(view);
  S.built.bar.replaceChildren(statusBar(view));
  const more = needsPanels(view) ? panels() : null;
  const act = actionPanel(view, more);
  S.built.dockBody.replaceChildren((more && more.combatPanel(view)) || "", act, S.areaList || "", (more && more.combatHands(view)) || "",
    (more && more.westerosPanel(view)) || "");
  S.built.below.replaceChildren(tracksPanel(view));
  S.built.dock.classList.toggle("sheet", sheetMoment(view));
  placeSheets();
  paintFold();
  if (focus) {
    const again = S.built.dock.querySelector(`[data-move="${CSS.escape(focus)}"], [data-area-button="${CSS.escape(focus)}"]`);
    if (again) again.focus({ preventScroll: true });
  }
  drawPopover(view);
  fitMoment(view);
  placePopover();
  logFilter(view);
  const focused = document.activeElement && document.activeElement.closest && document.activeElement.closest("[data-area]");
  preview(focused && S.built.svg.contains(focused) ? areaMoves(focused.dataset.area) : null);
  // the seq says "this view is drawn": not before the panels it needs have come
  if (more || !needsPanels(view)) root.dataset.seq = String(ctx.seq);
  root.dataset.kind = view.prompt ? view.prompt.kind : "";
  root.dataset.phase = view.phase;
  root.dataset.round = String(view.round);
  root.dataset.sel = S.sel || "";
  root.classList.toggle("got-mine", Boolean(view.prompt));
  root.classList.toggle("got-over", view.winner != null);
}

/** Whether a phone shows the panels as a sheet above the bar now: a battle, or a decision made
 * in the panel (house cards, a bid, a Westeros or wildling card). */
function sheetMoment(view) {
  const kind = view.prompt ? view.prompt.kind : "";
  return Boolean(view.combat) || ["cards", "bid", "ties", "wildling", "westeros_choice", "wildling_choice", "support"].includes(kind);
}

/** A phone's sheets (the panels, the orders' popover) stand on the action bar. */
function placeSheets() {
  if (!S.built) return;
  S.built.dock.style.bottom = S.built.dock.classList.contains("sheet") && innerWidth < 700 ? `${barRise()}px` : "";
  placePopover();
}

function paintFold() {
  const B = S.built;
  // folding is for a panel over the map (a phone's panels below it never fold)
  const folded = Boolean(S.folded) && (B.dock.classList.contains("sheet") || innerWidth >= 700);
  B.dockBody.hidden = folded;
  B.dock.classList.toggle("folded", folded);
  B.fold.textContent = folded ? "Show panel" : "Hide panel";
  B.fold.setAttribute("aria-expanded", String(!folded));
}

const PHONE_PX = 1.12; // map units to screen pixels on a phone: its smallest texts (9) at 10 px

/** At each new moment (a phase, a prompt, a battle) the view fits what matters now: the whole
 * of Westeros at the opening and for spectators; a battle's areas; on a phone (or where the
 * whole map is drawn small) the areas the seat acts on. Between moments the player's own zoom
 * and pan stay. */
function fitMoment(view) {
  const p = view.prompt;
  const c = view.combat;
  const moment = c ? `c:${view.round}:${c.from}:${c.area}` : `${view.round}:${view.phase}:${p ? p.kind : ""}`;
  if (moment === S.moment || !S.frame) return;
  const first = S.moment == null;
  S.moment = moment;
  const phone = S.built.box.clientWidth < 700;
  const least = phone ? PHONE_PX : 0;
  if (c) {
    fitAreas([c.area, c.from, ...Object.keys(c.supporters || {})].filter(Boolean), { least, most: 1.3 });
    return;
  }
  // the seat's home first (its capital: a player looks there first), then the smaller areas
  const home = S.ctx.seat != null && S.fixed.houses[view.houses[S.ctx.seat]] ? S.fixed.houses[view.houses[S.ctx.seat]].home : null;
  const kindRank = (id) => (id === home ? 0 : (S.fixed.area[id] || {}).kind === "land" ? 1 : 2);
  const targets = (p ? highlighted() : []).sort((a, b) => kindRank(a) - kindRank(b));
  if (p && p.from) targets.unshift(p.from);
  if (!targets.length || (!phone && (first || S.frame.s >= 0.5))) {
    if (first || !targets.length) showAll();
    return;
  }
  fitAreas(targets, { least, most: phone ? 1.6 : 1.2 });
}

// the winner is named here (with the final standings), not again in the table's end box
export const ownResult = true;

// what panels.js draws with
export { areaMoves, areaName, arrowGeometry, HOUSES, houseChip, houseOf, ordinal, orderInfo, orderLabel, orderToken, S, stars, STRENGTH, TRACK_NAME, UNIT_NAME };

/** The lines this game adds to each player's panel beside the board. */
export function panel(view, seat) {
  if (!view || !view.houses || !view.houses[seat]) return [];
  const h = HOUSES[view.houses[seat]];
  const hand = ((view.hands || {})[seat] || []).length;
  const used = ((view.discards || {})[seat] || []).length;
  const out = [{ label: "House", value: h ? h.name : view.houses[seat] },
    { label: "Power", value: String(view.power[seat]), title: "Power tokens available" },
    { label: "Supply", value: String(view.supply[seat]) },
    { label: "Castles", value: `${view.castles[seat]}/7` },
    { label: "Cards", value: `${hand} in hand, ${used} used` }];
  // the house cards already played, by name (they come back when the last one is played)
  if (used) out.push({ label: "Used", value: view.discards[seat].map((id) => ((view.house_cards || {})[id] || {}).name || id).join(", ") });
  if (view.planning && (view.planning.asked || []).includes(seat)) {
    out.push({ label: "Orders", value: (view.planning.ready || []).includes(seat) ? "ready" : `${(view.planning.placed || {})[seat] || 0} placed, not ready`, warn: !(view.planning.ready || []).includes(seat) });
  }
  return out;
}
