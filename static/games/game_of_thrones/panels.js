// A Game of Thrones: the panels a table needs only now and then — the combat (each side's
// strength part by part, the house cards), the Westeros cards drawn, the bidding and its
// revealed bids, the wildling cards. Fetched on demand by renderer.js when a view first needs
// one, so the page's first view does not carry them.

import { el, moveKey, plural, signed } from "/static/js/kit.js";
import { areaName, HOUSES, houseChip, houseOf, ordinal, orderInfo, S, UNIT_NAME } from "./renderer.js";

const STRENGTH = { footman: 1, knight: 2, ship: 1, "siege-engine": 0 };
export const TRACK_NAME = { iron_throne: "Iron Throne", fiefdoms: "Fiefdoms", kings_court: "King's Court" };

function houseCard(view, id, state, move) {
  const c = (view.house_cards || {})[id];
  if (!c) return null;
  const h = HOUSES[c.house] || {};
  // a card to play is named by what playing it does: "Play Eddard Stark, strength 4", then its
  // swords, fortifications and text (the figure drawn in its corner is said in words instead)
  const body = [move ? el("span", { class: "sr", text: "Play " }) : null,
    el("span", { class: "hc-str", title: "Combat strength", "aria-hidden": move ? "true" : null, text: String(c.strength) }),
    el("strong", { class: "hc-name", text: c.name }), move ? el("span", { class: "sr", text: `, strength ${c.strength}. ` }) : null,
    el("span", { class: "hc-icons", text: [c.swords ? `⚔ ${c.swords} sword${c.swords > 1 ? "s" : ""}` : "", c.fortifications ? `▣ ${c.fortifications} fortification${c.fortifications > 1 ? "s" : ""}` : ""].filter(Boolean).join(" · ") }),
    el("span", { class: "hc-text", text: c.text || "" })];
  if (state) body.push(el("span", { class: "hc-state", text: state }));
  const attrs = { class: `hcard${state ? " " + state.replace(/\W+/g, "-") : ""}`, "data-card": id };
  const node = move ? el("button", { type: "button", ...attrs, "data-move": moveKey(move), disabled: S.ctx.pending, onclick: () => S.ctx.send(move) }, body) : el("div", attrs, body);
  node.style.setProperty("--h", h.fill || "#777");
  return node;
}

/** What the decision panel shows for the prompts drawn here: the cards to choose from, the
 * bid's stakes, the tied bids, the wildling or Westeros card to decide on. */
export function promptParts(view, loose) {
  const p = view.prompt;
  const out = [];
  const power = () => plural(view.power[S.ctx.seat], "Power token");
  if (p.kind === "cards") out.push(cardChooser(view, loose));
  if (p.kind === "bid") {
    out.push(el("p", { class: "note", text: p.for === "track" ? `Clash of Kings: the ${TRACK_NAME[p.track] || p.track} track. You have ${power()}.` : `Wildling attack of strength ${view.wildlings}. You have ${power()}.` }));
    // each bid's button says what it does: "Bid 3 Power on the Iron Throne"
    const on = p.for === "track" ? `on the ${TRACK_NAME[p.track] || p.track}` : "against the wildlings";
    const bids = loose.filter((m) => m.type === "bid");
    if (bids.length) {
      out.push(el("div", { class: "bids" }, bids.map((m) => el("button", { type: "button", class: "choice bid", "data-move": moveKey(m), disabled: S.ctx.pending || S.ctx.offline,
        "aria-label": `Bid ${m.power} Power ${on}`, onclick: () => { S.sel = null; S.ctx.send(m); } }, String(m.power)))));
    }
  }
  if (p.kind === "ties" && p.bids) out.push(bidTable(view, p.bids));
  if (p.kind === "wildling" && view.wildling_top) out.push(wildlingCard(view.wildling_top) || "");
  if ((p.kind === "westeros_choice" || p.kind === "wildling_choice") && p.card) {
    const card = S.map.wildlings[p.card] ? wildlingCard(p.card) : westerosCard(p.card);
    if (card) out.push(card);
  }
  return out;
}

export function cardChooser(view, loose) {
  const me = S.ctx.seat;
  const house = view.houses[me];
  const ids = (S.fixed.houses[house] || {}).house_cards || [];
  const hand = new Set((view.hands || {})[me] || []);
  const byCard = new Map(loose.filter((m) => m.type === "card").map((m) => [m.card, m]));
  return el("div", { class: "hand" }, ids.map((id) => houseCard(view, id, hand.has(id) ? (byCard.has(id) ? "" : "cancelled") : "used", byCard.get(id))));
}

// The parts of a side's strength, in the order the rules add them up (Rules §3.2–3.5).
const PARTS = [["units", "Units"], ["order", "Order"], ["garrison", "Garrison"], ["neutral_force", "Neutral force"],
  ["support", "Support"], ["card", "House card"], ["blade", "Valyrian Steel Blade"]];

/** Each side's strength by part: the engine's own breakdown when the view carries one, else the
 * same parts counted from what the view shows (a part not known yet is null). */
function breakdown(view) {
  const c = view.combat;
  if (c.breakdown) return c.breakdown;
  const live = Object.fromEntries((view.areas || []).map((a) => [a.id, a]));
  const there = live[c.area] || {};
  const info = S.fixed.area[c.area] || {};
  const fort = info.fortification && info.fortification !== "none";
  const unitValue = (k, attacking) => (k === "siege-engine" ? (attacking && fort ? 4 : 0) : STRENGTH[k]);
  const revealed = Object.keys(c.cards || {}).length > 0;
  // supporters: the area of each Support order -> the side it backs ("none": nobody)
  const support = (attacking) => {
    let total = 0;
    for (const [id, chose] of Object.entries(c.supporters || {})) {
      const a = live[id];
      if (chose !== (attacking ? "attacker" : "defender") || !a || !a.order || !a.order.token) continue;
      if (info.kind === "sea" && S.fixed.area[id] && S.fixed.area[id].kind === "land") continue;
      total += (a.units || []).reduce((t, u) => t + (u.routed ? 0 : unitValue(u.kind, attacking)), 0) + (orderInfo(view, a.order.token).modifier || 0);
    }
    return total;
  };
  const side = (seat, attacking) => {
    const parts = {};
    parts.units = attacking ? c.army.reduce((t, k) => t + unitValue(k, true), 0)
      : (there.units || []).reduce((t, u) => t + (u.routed ? 0 : unitValue(u.kind, false)), 0);
    const defense = there.order && there.order.token && orderInfo(view, there.order.token);
    parts.order = attacking ? orderInfo(view, c.march).modifier || 0 : defense && defense.kind === "defense" ? defense.modifier : 0;
    if (!attacking) parts.garrison = there.garrison || 0;
    parts.support = support(attacking);
    const card = (c.cards || {})[String(seat)];
    parts.card = revealed && card && view.house_cards[card] ? view.house_cards[card].strength : null;
    const known = Object.values(parts).reduce((t, v) => t + (v || 0), 0);
    const total = c.strength && c.strength[String(seat)];
    // the final total also holds the blade and the cards' texts, which the view does not itemise
    parts.blade = total != null ? total - known : null;
    parts.total = total != null ? total : known;
    return parts;
  };
  if (c.defender == null) {
    const att = side(c.attacker, true);
    return { attacker: att, defender: { neutral_force: there.neutral_force || 0, total: there.neutral_force || 0 } };
  }
  return { attacker: side(c.attacker, true), defender: side(c.defender, false) };
}

export function combatPanel(view) {
  const c = view.combat;
  if (!c) return null;
  const att = houseOf(view, c.attacker);
  const neutral = c.defender == null;
  const parts = breakdown(view);
  const final = c.winner != null || Boolean(c.strength && Object.keys(c.strength).length);
  const column = (title, chip, side, p) => {
    const rows = PARTS.filter(([k]) => k in p && !(k === "order" && !p[k] && side === "defender") && !(k === "garrison" && !p[k]))
      .map(([k, name]) => {
        let label = name;
        if (k === "order") label = side === "attacker" ? "March order" : "Defense order";
        if (k === "card") { const id = (c.cards || {})[String(side === "attacker" ? c.attacker : c.defender)]; if (id && view.house_cards[id]) label = `House card: ${view.house_cards[id].name}`; }
        if (k === "blade" && !view.breakdown && !c.breakdown) label = "Blade and card texts";
        return el("tr", { "data-part": k }, el("th", { scope: "row", text: label }),
          el("td", { text: p[k] == null ? "…" : signed(p[k], true), title: p[k] == null ? "not known yet" : "" }));
      });
    return el("div", { class: "side-col", "data-side": side }, el("h4", {}, chip, ` ${title}`),
      el("table", {}, el("tbody", {}, rows),
        el("tfoot", {}, el("tr", { "data-part": "total" }, el("th", { scope: "row", text: final ? "Total" : "So far" }), el("td", { text: String(p.total ?? 0) })))));
  };
  const chosen = (c.chosen || []).map((s) => houseOf(view, s).name);
  const holder = Object.fromEntries((view.areas || []).map((a) => [a.id, a.seat]));
  const supporters = Object.entries(c.supporters || {}).map(([id, side]) =>
    `${holder[id] != null ? houseOf(view, holder[id]).name : "?"} from ${areaName(id)} backs ${side === "none" ? "nobody" : `the ${side}`}`);
  const box = el("section", { class: "got-combat", "aria-label": "Combat" },
    el("h3", { text: `Battle for ${areaName(c.area)}` }),
    el("p", { class: "note", text: `${att.name} attacks from ${areaName(c.from)} with ${armyText(c.army)}.` }),
    el("div", { class: "sides" }, column("attacker", houseChip(view, c.attacker), "attacker", parts.attacker),
      neutral ? column("defender", el("span", { class: "chip neutral", text: "Neutral force" }), "defender", parts.defender)
        : column("defender", houseChip(view, c.defender), "defender", parts.defender)),
    supporters.length ? el("p", { class: "note support-list", text: `Support: ${supporters.join("; ")}.` }) : null,
    chosen.length && !Object.keys(c.cards || {}).length ? el("p", { class: "note", text: `House card chosen (face down): ${chosen.join(", ")}.` }) : null,
    c.my_card ? el("p", { class: "note", text: `Your card: ${view.house_cards[c.my_card].name}.` }) : null,
    Object.keys(c.cards || {}).length ? el("div", { class: "hand revealed" }, Object.values(c.cards).map((id) => houseCard(view, id))) : null,
    c.winner != null ? el("p", { class: "winner", text: `${houseOf(view, c.winner).name} wins the battle.` }) : null);
  return box;
}

/** House cards are public: each side's cards still in hand, with their texts (the seat's own
 * are in its chooser while it picks one). Drawn after the decision, so that on a phone the
 * totals and the seat's own cards come first. */
export function combatHands(view) {
  const c = view.combat;
  if (!c) return null;
  const seats = [c.attacker, c.defender].filter((s) => s != null)
    .filter((s) => !(view.prompt && view.prompt.kind === "cards" && s === S.ctx.seat));
  if (!seats.length) return null;
  return el("section", { class: "got-combat-hands", "aria-label": "House cards in the battle" }, seats.map((s) => sideHand(view, s)));
}

/** A house's house cards still in hand, each with its text. */
function sideHand(view, seat) {
  const hand = (view.hands || {})[seat] || [];
  return el("div", { class: "side-hand", "data-hand-of": String(seat) },
    el("h4", {}, houseChip(view, seat), ` ${plural(hand.length, "house card")} in hand`),
    el("div", { class: "hand compact" }, hand.map((id) => houseCard(view, id))));
}

const UNITS_NAME = { footman: "footmen", knight: "knights", ship: "ships", "siege-engine": "siege engines" };

/** "a footman", "2 footmen and a knight". */
function armyText(kinds) {
  const n = {};
  for (const k of kinds) n[k] = (n[k] || 0) + 1;
  const parts = Object.entries(n).map(([k, c]) => (c === 1 ? `a ${UNIT_NAME[k]}` : `${c} ${UNITS_NAME[k] || UNIT_NAME[k]}`));
  return parts.length > 1 ? `${parts.slice(0, -1).join(", ")} and ${parts[parts.length - 1]}` : parts[0] || "no unit";
}

/** The end: who won and how, and every house in its final place with what decided it. */
export function finalPanel(view) {
  const st = view.standings;
  // the table names a seat "Lannister (Ada)" where the game labels its seats; the player alone
  // when it does not
  const player = (s) => {
    const n = S.ctx.nameOf ? S.ctx.nameOf(s) : `seat ${s + 1}`;
    const h = houseOf(view, s).name;
    return n.startsWith(`${h} (`) && n.endsWith(")") ? n.slice(h.length + 2, -1) : n;
  };
  const who = (s) => `${houseOf(view, s).name} (${player(s)})`;
  const how = st.ended_by === "seven castles"
    ? "Seven castles and strongholds held: the game ends at once."
    : "After the tenth round: the most castles and strongholds win; ties go to the most land areas, then supply, then the higher place on the Iron Throne track.";
  const rows = st.houses.map((h, i) => el("tr", { "data-seat": h.seat, class: h.seat === view.winner ? "won" : null },
    el("td", { text: h.seat === view.winner ? "1st ♛ winner" : ordinal(i + 1) }),
    el("th", { scope: "row" }, houseChip(view, h.seat), el("span", { class: "who", text: ` (${player(h.seat)})` })),
    el("td", { text: String(h.castles) }), el("td", { text: String(h.land) }), el("td", { text: String(h.supply) }), el("td", { text: ordinal(h.throne) })));
  return el("section", { class: "got-act got-final", "data-prompt": "", "aria-label": "The end of the game" },
    el("h2", { text: `${who(view.winner)} wins the Iron Throne` }),
    el("p", { class: "note", text: how }),
    // scrolled sideways by keyboard too, should a narrow screen still not hold every column
    el("div", { class: "final-wrap", tabindex: "0", role: "region", "aria-label": "Final standings" }, el("table", { class: "final-table" }, el("caption", { text: "Final standings" }),
      el("thead", {}, el("tr", {}, ["Place", "House", "Castles", "Land areas", "Supply", "Iron Throne"].map((t) => el("th", { scope: "col", text: t })))),
      el("tbody", {}, rows))));
}

export function bidTable(view, bids) {
  return el("table", { class: "bid-table" }, el("thead", {}, el("tr", {}, el("th", { text: "House" }), el("th", { text: "Bid" }))),
    el("tbody", {}, bids.map((b, s) => el("tr", {}, el("th", { scope: "row" }, houseChip(view, s)), el("td", { text: String(b) })))));
}

export function westerosCard(id) {
  for (const [deck, cards] of Object.entries(S.map.westeros)) {
    if (cards[id]) return el("div", { class: "wcard" }, el("span", { class: "deck", text: `Deck ${deck}` }), el("strong", { text: cards[id].name }),
      cards[id].icons ? el("span", { class: "icons", text: ` ${"✦".repeat(cards[id].icons)} ${plural(cards[id].icons, "wildling icon")}` }) : null, el("p", { text: cards[id].text }));
  }
  return null;
}

export function wildlingCard(id) {
  const w = S.map.wildlings[id];
  if (!w) return null;
  return el("div", { class: "wcard wild" }, el("strong", { text: w.name }),
    el("p", {}, el("b", { text: "Night's Watch wins: " }), `highest bidder: ${w.win.highest_bidder} Everyone else: ${w.win.everyone_else}`),
    el("p", {}, el("b", { text: "Wildlings win: " }), `lowest bidder: ${w.lose.lowest_bidder} Everyone else: ${w.lose.everyone_else}`));
}

const BID_NAME = { ...TRACK_NAME, wildlings: "Wildlings" };

/** The revealed bids of this Westeros phase: one column per bidding, a row per house, each cell
 * the bid and the place it won (for a track), then who broke a tie. */
function bidResults(view) {
  const results = view.bid_results || [];
  if (!results.length) return null;
  const place = (r, s) => { const i = (r.order || []).indexOf(s); return r.track in TRACK_NAME && i >= 0 ? ` · ${ordinal(i + 1)}` : ""; };
  const ties = results.filter((r) => r.tie_broken_by != null)
    .map((r) => `${BID_NAME[r.track] || r.track}: tie broken by ${houseOf(view, r.tie_broken_by).name}`);
  return el("div", { class: "bid-results", tabindex: "0", role: "region", "aria-label": "Revealed bids" },
    el("table", { class: "bid-table" }, el("caption", { text: `Bids revealed in round ${results[0].round}` }),
      el("thead", {}, el("tr", {}, el("th", { scope: "col", text: "House" }), results.map((r) => el("th", { scope: "col", "data-track": r.track, text: BID_NAME[r.track] || r.track })))),
      el("tbody", {}, view.houses.map((_, s) => el("tr", { "data-seat": String(s) }, el("th", { scope: "row" }, houseChip(view, s)),
        results.map((r) => el("td", { "data-track": r.track, text: r.bids[String(s)] == null ? "—" : `${r.bids[String(s)]}${place(r, s)}` })))))),
    ties.length ? el("p", { class: "note", text: `${ties.join(". ")}.` }) : null,
    wildlingOutcome(results));
}

const MUSTER_LINE = /Night's Watch musters (\d+) against the wildlings' (\d+): (.*)$/;

/** The wildling attack's two sides: the Night's Watch (every bid added up) against the
 * wildlings' strength, and who won — as the log told it. */
function wildlingOutcome(results) {
  const r = results.find((x) => x.track === "wildlings");
  if (!r) return null;
  const total = Object.values(r.bids).reduce((t, b) => t + b, 0);
  const lines = [...document.querySelectorAll("#log li")].map((li) => MUSTER_LINE.exec(li.textContent)).filter(Boolean);
  const m = lines[lines.length - 1];
  const text = m ? `Wildling attack: the Night's Watch ${m[1]} (every bid added up) against the wildlings' ${m[2]}: ${m[3]}.`
    : `Wildling attack: the Night's Watch ${total} (every bid added up).`;
  return el("p", { class: "wild-outcome", "data-watch": String(total), text });
}

function westerosCards(view) {
  return el("div", { class: "wcards" }, (view.westeros_cards || []).map((id, i) => {
    const deck = ["I", "II", "III"][i];
    const c = S.map.westeros[deck] && S.map.westeros[deck][id];
    return c ? el("div", { class: "wcard", "data-card": id }, el("span", { class: "deck", text: `Deck ${deck}` }), el("strong", { text: c.name }),
      c.icons ? el("span", { class: "icons", text: ` ${"✦".repeat(c.icons)} ${plural(c.icons, "wildling icon")}` }) : null,
      el("p", { text: c.text })) : null;
  }));
}

export function westerosPanel(view) {
  const bits = [];
  if ((view.westeros_cards || []).length) {
    // the three cards drawn this round: in full during the Westeros phase, folded afterwards
    // (their restrictions still hold, so they stay at hand)
    if (view.phase === "westeros") bits.push(el("h4", { text: "The cards drawn this round" }), westerosCards(view));
    else bits.push(el("details", { class: "drawn" }, el("summary", { text: `Westeros cards of round ${view.round}: ${view.westeros_cards.map((id, i) => ((S.map.westeros[["I", "II", "III"][i]] || {})[id] || {}).name || id).join(", ")}` }), westerosCards(view)));
  }
  if (view.bids) {
    const asked = view.bids.asked || []; const chosen = view.bids.chosen || [];
    bits.push(el("div", { class: "bidding" }, el("h4", { text: view.prompt && view.prompt.kind === "bid" && view.prompt.for === "track" ? `Bidding: ${TRACK_NAME[view.prompt.track]}` : "Bidding" }),
      el("ul", { class: "who" }, asked.map((s) => el("li", {}, houseChip(view, s), chosen.includes(s) ? " has bid (hidden)" : " still deciding",
        ` · ${plural(view.power[s], "Power token")}`))),
      view.bids.mine != null ? el("p", { class: "note", text: `Your bid: ${view.bids.mine}.` }) : null));
  }
  const results = bidResults(view);
  if (results) bits.push(results);
  if (view.wildling_last && S.map.wildlings[view.wildling_last]) bits.push(el("details", { class: "last-wild" }, el("summary", { text: `Last wildling card: ${S.map.wildlings[view.wildling_last].name}` }), wildlingCard(view.wildling_last)));
  if (!bits.length) return null;
  return el("section", { class: "got-westeros", "aria-label": "Westeros" }, el("h3", { text: "Westeros" }), bits);
}
