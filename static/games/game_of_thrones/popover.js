// A Game of Thrones: the orders of one area, offered in a small popover placed at that area on
// the map (as Swords and Ravens does) — or, on a phone, in a sheet just above the action bar.
// Each button is one listed move; an order that cannot go there now is shown greyed with the
// reason. Placed in the window's coordinates and kept inside the part of it the player sees.

import { el, moveKey, svg } from "/static/js/kit.js";
import { visibleRect } from "./mapview.js";
import { areaMoves, areaName, orderInfo, orderLabel, orderToken, S, stars } from "./renderer.js";

const POP_TYPES = new Set(["order", "raven_swap", "unorder"]);

export function closePopover(refocus = true) {
  const was = S.pop;
  S.pop = null;
  S.popOpened = null;
  if (S.built && S.built.pop) { S.built.pop.remove(); S.built.pop = null; }
  // back where the keyboard came from: the area's button in the list, or the area on the map
  const button = S.popFrom === "list" && was ? document.querySelector(`[data-area-button="${CSS.escape(was)}"]`) : null;
  if (refocus && was && S.built && (button || S.built.nodes[was])) (button || S.built.nodes[was]).focus({ preventScroll: true });
}

function reason(view, id, o, area, used, specials, allowed) {
  if ((view.restricted || []).includes(id)) return "restricted this round";
  if (o.special && specials >= allowed) return allowed ? `star orders: King's Court allows ${allowed}` : "star orders: none from your King's Court place";
  if ((used[id] || 0) >= o.count) return "already placed";
  const here = (view.areas || []).find((a) => a.id === area);
  if (here && here.order && here.order.token === id) return "placed here";
  const info = S.fixed.area[area] || {};
  if (info.kind === "port" && ["defense", "consolidate"].includes(o.kind)) return "not in a port";
  return "not here";
}

/** An order chosen: the popover closes and the focus goes on — to the next of the seat's areas
 * still without an order in the list of areas (the way a keyboard came), else back to the area on
 * the map; Ready, once every area has its order and the view says so. */
function chosen(view, area) {
  const from = S.popFrom;
  closePopover(false);
  const done = new Set((view.areas || []).filter((a) => a.order && a.order.seat === S.ctx.seat).map((a) => a.id)).add(area);
  const list = [...document.querySelectorAll("[data-area-button]")];
  const next = list.find((b) => !done.has(b.dataset.areaButton) && list.indexOf(b) > list.findIndex((x) => x.dataset.areaButton === area))
    || list.find((b) => !done.has(b.dataset.areaButton));
  const seq = S.ctx.seq;
  if (from === "list" && next) next.focus({ preventScroll: true });
  else if (S.built.nodes[area]) S.built.nodes[area].focus({ preventScroll: true });
  if (next) return;
  // the last order: Ready comes into the action bar with the next view (unless the player has
  // moved the focus elsewhere meanwhile)
  const ready = moveKey({ type: "ready" });
  const here = document.activeElement;
  let tries = 200;
  const look = () => {
    const b = S.ctx.seq !== seq && document.querySelector(`#action-bar [data-move="${CSS.escape(ready)}"]:not(:disabled)`);
    if (b && (document.activeElement === here || document.activeElement === document.body)) b.focus({ preventScroll: true });
    else if (!b && tries-- > 0) setTimeout(look, 50);
  };
  setTimeout(look, 50);
}

function orderButtons(view, area, list) {
  const me = S.ctx.seat;
  const kind = list.some((m) => m.type === "order") ? "order" : "raven_swap";
  const listed = new Map(list.filter((m) => m.type === kind).map((m) => [m.order, m]));
  const placed = (view.areas || []).filter((a) => a.order && a.order.seat === me && a.order.token);
  const used = {};
  for (const a of placed) if (a.id !== area) used[a.order.token] = (used[a.order.token] || 0) + 1;
  const allowed = stars(view.houses.length)[view.tracks.kings_court.indexOf(me)] || 0;
  const specials = placed.filter((a) => a.id !== area && orderInfo(view, a.order.token).special).length;
  return Object.entries(view.orders || {}).map(([id, o]) => {
    const m = listed.get(id);
    const token = svg("svg", { class: "tok", viewBox: "-16 -16 32 32", "aria-hidden": "true" }, orderToken(view, { seat: me, token: id }, 0, 0));
    const name = el("span", { class: "oname", text: o.name || orderLabel(view, id) });
    if (m) {
      // said in full to a screen reader, around the name shown: what choosing it does, and where
      // ("Place March +1 ★ on Winterfell")
      const [before, after] = kind === "order" ? ["Place ", ` on ${areaName(area)}`] : ["Raven: put ", ` in ${areaName(area)} instead`];
      return el("button", { type: "button", class: "choice order-choice", "data-move": moveKey(m), disabled: S.ctx.pending || S.ctx.offline,
        onclick: () => { chosen(view, area); S.ctx.send(m); } }, token, el("span", { class: "sr", text: before }), name, el("span", { class: "sr", text: after }));
    }
    const why = reason(view, id, o, area, used, specials, allowed);
    return el("button", { type: "button", class: "choice order-choice", disabled: true, "aria-disabled": "true", title: why }, token, name, el("small", { text: why }));
  });
}

/** The popover of the open area, drawn anew with each view (null when none is open). */
export function drawPopover(view) {
  const id = S.pop;
  if (S.built.pop) { S.built.pop.remove(); S.built.pop = null; }
  if (!id) return null;
  if (S.popOpened !== id) {
    // opened now: from the list of areas or from the map (where the focus goes back)
    S.popOpened = id;
    const f = document.activeElement;
    S.popFrom = f && f.closest && f.closest("[data-area-button]") ? "list" : "map";
  }
  const list = areaMoves(id);
  if (!list.some((m) => POP_TYPES.has(m.type))) { S.pop = null; return null; }
  const unorder = list.find((m) => m.type === "unorder");
  const here = (view.areas || []).find((a) => a.id === id);
  const now = here && here.order && here.order.token ? orderLabel(view, here.order.token) : null;
  const heading = el("h3", { id: "got-pop-h" }, areaName(id));
  const close = el("button", { type: "button", class: "pop-close", "aria-label": "Close", onclick: () => closePopover() }, "×");
  const hasOrders = list.some((m) => m.type === "order" || m.type === "raven_swap");
  const pop = el("div", { class: "got-pop", role: "dialog", "aria-labelledby": "got-pop-h", "data-pop": id },
    el("div", { class: "pop-head" }, heading, close),
    now ? el("p", { class: "pop-now", text: `Order here: ${now}` }) : null,
    hasOrders ? el("div", { class: "pop-orders" }, orderButtons(view, id, list)) : null,
    unorder ? el("button", { type: "button", class: "choice pop-unorder", "data-move": moveKey(unorder), disabled: S.ctx.pending || S.ctx.offline,
      "aria-label": `Take this order back from ${areaName(id)}`, onclick: () => { closePopover(); S.ctx.send(unorder); } }, "Take this order back") : null);
  pop.addEventListener("keydown", (e) => { if (e.key === "Escape") { e.preventDefault(); closePopover(); } });
  S.built.pop = pop;
  S.built.wrap.append(pop);
  return pop;
}

/** How far above the window's bottom a sheet stands: on the action bar fixed at a phone's
 * bottom (its box, not the page's estimate of its height). */
export function barRise() {
  const bar = document.getElementById("action-bar");
  const r = bar ? bar.getBoundingClientRect() : null;
  return r && r.height && r.top > innerHeight / 2 ? Math.max(0, Math.ceil(innerHeight - r.top)) : 0;
}

/** Puts the popover beside its area (a sheet above the bar on a narrow screen), inside what
 * the player sees. */
export function placePopover() {
  const pop = S.built && S.built.pop;
  if (!pop) return;
  const phone = innerWidth < 700;
  pop.classList.toggle("sheet", phone);
  if (phone) { pop.style.left = ""; pop.style.top = ""; pop.style.bottom = `${barRise()}px`; return; }
  const v = visibleRect();
  const node = S.built.nodes[S.pop];
  const at = node ? node.getBoundingClientRect() : v;
  const spot = S.built.dyn.querySelector(`[data-at="${CSS.escape(S.pop)}"]`);
  const r = spot && spot.getBoundingClientRect().width ? spot.getBoundingClientRect() : at;
  const w = pop.offsetWidth; const h = pop.offsetHeight;
  const cx = Math.min(Math.max(r.left + r.width / 2, v.left), v.left + v.width);
  const cy = Math.min(Math.max(r.top + r.height / 2, v.top), v.top + v.height);
  // right of the area's pieces, else left of them; never over the bar or off the window
  let x = cx + 34;
  if (x + w > innerWidth - 8) x = cx - 34 - w;
  x = Math.max(8, Math.min(innerWidth - w - 8, x));
  let y = cy - h / 2;
  y = Math.max(v.top + 4, Math.min(v.top + v.height - h - 4, y));
  y = Math.max(4, Math.min(innerHeight - h - 4, y));
  pop.style.left = `${Math.round(x)}px`;
  pop.style.top = `${Math.round(y)}px`;
}
