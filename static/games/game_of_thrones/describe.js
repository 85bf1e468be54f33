// A Game of Thrones: the board in words, for a screen reader — the moment, each house (power,
// supply, castles, house cards), the tracks, then every area grouped by the house holding it
// (units, order, Power token, garrison, castle and icons), the battle if one is fought. Only what
// the seat may see: the view already leaves out the others' hidden orders and cards. Fetched when
// a description is first asked for.

import { plural } from "/static/js/kit.js";
import { areaName, HOUSES, houseOf, orderLabel, ordinal, S, UNIT_NAME } from "./renderer.js";

const TRACKS = [["iron_throne", "Iron Throne"], ["fiefdoms", "Fiefdoms"], ["kings_court", "King's Court"]];
const UNITS = { footman: "footmen", knight: "knights", ship: "ships", "siege-engine": "siege engines" };
const KINDS = ["knight", "footman", "siege-engine", "ship"];

/** "2 footmen, a knight (routed)". */
export function unitsText(units) {
  const out = [];
  for (const kind of KINDS) {
    for (const routed of [false, true]) {
      const n = units.filter((u) => u.kind === kind && Boolean(u.routed) === routed).length;
      if (n) out.push((n === 1 ? `a ${UNIT_NAME[kind]}` : `${n} ${UNITS[kind]}`) + (routed ? " (routed)" : ""));
    }
  }
  return out.join(", ");
}

function seatName(view, seat) {
  const house = houseOf(view, seat).name;
  const name = S.ctx && S.ctx.nameOf ? S.ctx.nameOf(seat) : house;
  return name.startsWith(house) ? name : `${house} (${name})`;
}

const cardName = (view, id) => {
  const c = (view.house_cards || {})[id];
  return c ? `${c.name} (${c.strength})` : id;
};

/** What an area is (its kind, castle, barrels, crowns, home) and what lies on it. */
function areaLine(view, e, me) {
  const info = S.fixed.area[e.id] || {};
  const what = [];
  if (info.kind === "sea") what.push("sea");
  if (info.kind === "port") what.push("port");
  if (info.fortification && info.fortification !== "none") what.push(info.fortification);
  if (info.supply) what.push(plural(info.supply, "supply barrel"));
  if (info.crowns) what.push(plural(info.crowns, "power crown"));
  if (info.home) what.push(`home of ${HOUSES[info.home] ? HOUSES[info.home].name : info.home}`);
  const bits = [];
  if (e.units && e.units.length) bits.push((e.seat !== e.controller && e.seat != null ? `${houseOf(view, e.seat).name}: ` : "") + unitsText(e.units));
  if (e.neutral_force) bits.push(`neutral force of strength ${e.neutral_force}`);
  if (e.garrison) bits.push(`garrison ${e.garrison}`);
  if (e.power_token != null) bits.push(`${houseOf(view, e.power_token).name} Power token`);
  if (e.order) {
    const whose = e.order.seat === me ? "" : `${houseOf(view, e.order.seat).name} `;
    bits.push(e.order.token ? `${whose}order ${orderLabel(view, e.order.token)}${e.order.hidden ? " (face down to the others)" : ""}` : `${whose}order face down`);
  }
  return `${areaName(e.id)}${what.length ? ` (${what.join(", ")})` : ""}: ${bits.length ? bits.join("; ") : "empty"}`;
}

/** The board in words: sections of a heading and lines. */
export function describe(view, ctx) {
  const me = ctx && ctx.seat != null ? ctx.seat : S.ctx ? S.ctx.seat : null;
  const st = view.status || {};
  const n = view.houses.length;
  const out = [];
  const moment = [`Round ${Math.min(view.round, view.rounds || 10)} of ${view.rounds || 10}, ${st.phase || `${view.phase} phase`}${st.step ? `: ${st.step}` : ""}.`];
  if (me != null && view.houses[me]) moment.push(`You are ${seatName(view, me)}.`);
  if (st.text) moment.push(st.text);
  if (view.prompt) moment.push(`Your decision: ${view.prompt.text}.`);
  if (view.planning) {
    // how far each house is with its orders (how many, never which)
    const each = (view.planning.asked || []).map((s) => `${houseOf(view, s).name}${s === me ? " (you)" : ""} ${(view.planning.placed || {})[s] || 0}${(view.planning.ready || []).includes(s) ? ", ready" : ""}`);
    moment.push(`Orders placed: ${each.join("; ")}.`);
  }
  if ((view.restricted || []).length) moment.push(`Orders restricted this round: ${view.restricted.map((id) => orderLabel(view, id)).join(", ")}.`);
  const wcards = (view.westeros_cards || []).map((id, i) => ((S.map.westeros[["I", "II", "III"][i]] || {})[id] || {}).name).filter(Boolean);
  if (wcards.length) moment.push(`Westeros cards this round: ${wcards.join(", ")}.`);
  if (view.bids) {
    const chosen = view.bids.chosen || [];
    moment.push(`Bidding: ${(view.bids.asked || []).map((s) => `${houseOf(view, s).name} ${chosen.includes(s) ? "has bid" : "is deciding"}`).join(", ")}${view.bids.mine != null ? `; your bid: ${view.bids.mine}` : ""}.`);
  }
  for (const r of view.bid_results || []) {
    const what = TRACKS.find(([id]) => id === r.track);
    moment.push(`Bids ${what ? `for the ${what[1]}` : "against the wildlings"}: ${Object.entries(r.bids).map(([s, b]) => `${houseOf(view, +s).name} ${b}`).join(", ")}.`);
  }
  if (view.wildling_top && S.map.wildlings[view.wildling_top]) moment.push(`The top wildling card, seen by you: ${S.map.wildlings[view.wildling_top].name}.`);
  out.push({ heading: "The moment", lines: moment });

  const c = view.combat;
  if (c) {
    const lines = [`${houseOf(view, c.attacker).name} attacks ${areaName(c.area)} from ${areaName(c.from)} with ${unitsText(c.army.map((kind) => ({ kind })))}${c.defender != null ? `; ${houseOf(view, c.defender).name} defends` : "; a neutral force defends"}.`];
    for (const [id, side] of Object.entries(c.supporters || {})) lines.push(`Support from ${areaName(id)}: ${side === "none" ? "nobody" : `the ${side}`}.`);
    for (const [seat, id] of Object.entries(c.cards || {})) lines.push(`${houseOf(view, +seat).name} plays ${cardName(view, id)}.`);
    if (c.my_card) lines.push(`Your card, face down: ${cardName(view, c.my_card)}.`);
    for (const [seat, v] of Object.entries(c.strength || {})) lines.push(`${houseOf(view, +seat).name}'s strength: ${v}.`);
    if (c.winner != null) lines.push(`${houseOf(view, c.winner).name} wins the battle.`);
    out.push({ heading: `Battle for ${areaName(c.area)}`, lines });
  }

  const order = view.tracks.iron_throne || view.houses.map((_, s) => s);
  out.push({ heading: "Houses", lines: order.map((s) => {
    const hand = ((view.hands || {})[s] || []).map((id) => cardName(view, id));
    const used = ((view.discards || {})[s] || []).map((id) => cardName(view, id));
    return `${seatName(view, s)}${s === me ? " (you)" : ""}: ${plural(view.power[s], "Power token")}, supply ${view.supply[s]}, ${view.castles[s]} of 7 castles and strongholds; house cards in hand: ${hand.join(", ") || "none"}${used.length ? `; used: ${used.join(", ")}` : ""}.`;
  }) });

  const tracks = TRACKS.map(([id, name]) => `${name}: ${(view.tracks[id] || []).map((s, i) => `${ordinal(i + 1)} ${houseOf(view, s).name}`).join(", ")}.`);
  const by = (key) => order.map((s) => `${houseOf(view, s).name} ${view[key][s]}`).join(", ");
  tracks.push(`Supply: ${by("supply")}.`, `Victory, castles and strongholds held: ${by("castles")}.`,
    `Wildling threat: ${view.wildlings} of 12.`, `Round: ${Math.min(view.round, view.rounds || 10)} of ${view.rounds || 10}.`);
  if (view.raven_used || view.blade_used) tracks.push(`Used this round: ${[view.raven_used ? "the Messenger Raven" : "", view.blade_used ? "the Valyrian Steel Blade" : ""].filter(Boolean).join(" and ")}.`);
  out.push({ heading: "Tracks", lines: tracks });

  // every area, grouped by the house holding it; the areas nobody holds last
  const live = Object.fromEntries((view.areas || []).map((a) => [a.id, a]));
  const all = (view.area_info || []).map((a) => live[a.id] || { id: a.id });
  const holder = (e) => (e.controller != null ? e.controller : e.seat != null ? e.seat : null);
  const seats = [...(me != null && view.houses[me] ? [me] : []), ...order.filter((s) => s !== me)];
  for (const s of seats) {
    const mine = all.filter((e) => holder(e) === s);
    out.push({ heading: `${houseOf(view, s).name}'s areas${s === me ? " (yours)" : ""}: ${mine.length}`, lines: mine.map((e) => areaLine(view, e, me)) });
  }
  const rest = all.filter((e) => holder(e) == null && !e.blocked);
  out.push({ heading: `Areas nobody holds: ${rest.length}`, lines: rest.map((e) => areaLine(view, e, me)) });
  const blocked = all.filter((e) => e.blocked);
  if (blocked.length) out.push({ heading: `Out of play with ${plural(n, "house")}: ${blocked.length} areas`, lines: [`${blocked.map((e) => areaName(e.id)).join(", ")}.`] });
  return out;
}
