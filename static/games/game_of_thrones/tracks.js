// A Game of Thrones: the tracks below the map — the round, the three influence tracks with their
// dominance tokens, supply, victory and the wildlings. Fetched when scrolled near.

import { el, plural } from "/static/js/kit.js";
import { houseChip, houseOf, stars } from "./renderer.js";

const TRACKS = [["iron_throne", "Iron Throne"], ["fiefdoms", "Fiefdoms"], ["kings_court", "King's Court"]];
const DOMINANCE = { iron_throne: "Iron Throne", fiefdoms: "Valyrian Steel Blade", kings_court: "Messenger Raven" };

export function tracksPanel(view) {
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
