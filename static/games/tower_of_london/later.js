// Tower of London: what the board needs later than a player's first choice of cards, fetched when
// first needed — the reveals, placing and the abilities' panels, the waiting player's panel, the
// round's scoring tables, the final screen, Reduce Player Decks and the card zoom.
import { el as h, Moves } from "/static/js/kit.js";
import { actions, AREAS, areaOf, areaWord, button, card, cardBack, cardFace, chip, ORDINAL, othersChoosing, rerender,
  saveAck, sendMove, ui, who } from "./renderer.js";

/** The card zoom's content (the kit shows it): the card drawn again, larger, with its ability in words. */
export function zoomCard(node) {
  const view = ui.ctx && ui.ctx.view;
  const c = view && card(view, Number(node.dataset.card));
  if (!c) return null;
  const env = { view, ctx: ui.ctx, labels: [], me: ui.ctx.seat };
  const role = node.classList.contains("as-first") ? "first" : node.classList.contains("as-second") ? "second" : "";
  const big = cardFace(env, c.id, { role });
  big.classList.add("zoomed");
  return h("div", { class: "tol-zoom" }, big, h("p", { class: "tol-zoom-text" },
    h("strong", { text: c.ability }), ` — ${view.abilities[c.ability]}`));
}

export function keepPanel(env) {
  const { ctx, prompt } = env;
  const count = prompt.count || 3;
  const toggle = (id) => () => {
    if (ui.keep.includes(id)) ui.keep = ui.keep.filter((c) => c !== id);
    else if (ui.keep.length < count) ui.keep = [...ui.keep, id];
    rerender();
  };
  const chosen = ui.keep.slice().sort((a, b) => a - b);
  const send = () => {
    const move = new Moves(ctx).find({ type: "keep", cards: chosen }) ||
      ctx.moves.find((m) => m.type === "keep" && m.cards.slice().sort((a, b) => a - b).join() === chosen.join());
    if (move) ctx.send(move);
  };
  const deckSize = { 1: 10, 2: 7 }[env.view.round];
  // (what to do, the action bar says)
  return [
    h("p", { class: "tol-hint", text: `The cards kept are shuffled back into your deck${deckSize ? ` (${deckSize} cards next round)` : ""}.` }),
    h("div", { class: "tol-hand tol-keep" }, ...prompt.cards.map((id) => cardFace(env, id, {
      fk: "keep", selected: ui.keep.includes(id), badge: ui.keep.includes(id) ? "keep" : "to the box",
      onclick: toggle(id), disabled: ctx.pending,
    }))),
    h("p", { class: "tol-count", text: `${ui.keep.length} of ${count} chosen` }),
    actions(button(`Keep these ${count}`, "keep-confirm", send, { primary: true, disabled: ctx.pending || ui.keep.length !== count }),
      button("Clear", "clear", () => { ui.keep = []; rerender(); },
        { disabled: ctx.pending || !ui.keep.length })),
    othersChoosing(env, "has_kept", "has kept", "choosing…"),
  ];
}

function ravenPips(n, goal) {
  const pips = [];
  for (let i = 0; i < Math.max(goal, n); i++) pips.push(h("span", { class: `tol-pip${i < n ? " on" : ""}` }));
  return h("span", { class: "tol-pips", "aria-hidden": "true" }, ...pips);
}

// ----------------------------------------------------------------------- the scoring table
export function scoringPanel(env, table, gate) {
  const { view, ctx } = env;
  const box = h("section", { class: `tol-scoring${gate ? " gate" : ""}`, "aria-label": `Round ${table.round} scoring` });
  const eventName = table.event ? (view.event.past.concat(view.event.current ? [view.event.current] : []).find((e) => e.id === table.event) || {}).name : null;
  box.append(h("h2", { class: gate ? "tol-h" : "tol-h small", text: `Round ${table.round} scoring` }));
  if (eventName) box.append(h("p", { class: "tol-hint", text: `Event: ${eventName}` }));
  for (const area of table.areas) {
    const t = h("table", { class: "tol-table tol-score-table" },
      h("caption", {}, areaWord(area.area), ` area (${AREAS[area.area].name})`),
      h("thead", {}, h("tr", {}, h("th", { scope: "col", text: "Place" }), h("th", { scope: "col", text: "Player" }),
        h("th", { scope: "col", text: "Buildings controlled" }), h("th", { scope: "col", text: "Ravens" }))));
    const body = h("tbody");
    if (!area.ranking.length) body.append(h("tr", {}, h("td", { colspan: 4, text: "Nobody controls a building here." })));
    for (const row of area.ranking) {
      body.append(h("tr", {}, h("td", { text: ORDINAL[row.place] || `${row.place}` }), h("td", {}, who(env, row.seat)),
        h("td", { text: `${row.buildings.length}: ${row.buildings.slice().sort((a, b) => b - a).join(", ")}` }),
        h("td", { class: "num", text: `+${row.ravens}` })));
    }
    t.append(body);
    box.append(t);
    const held = area.control.filter((c) => c.seat != null);
    box.append(h("p", { class: "tol-control-line" }, held.length ? "Buildings controlled: " : "No building in this area is controlled.",
      ...held.map((c) => h("span", { class: "tol-ctl" }, `${c.building} `, chip(env, c.seat, { small: true }))),
      held.length && held.length < area.control.length ? ` — the other ${area.control.length - held.length} have no controller (empty or tied).` : ""));
  }
  if (table.ravens) {
    box.append(h("p", { class: "tol-after" }, "Ravens after scoring: ",
      ...table.ravens.flatMap((r, seat) => [seat ? " · " : "", who(env, seat), ` ${r}`])));
  }
  if (table.winner != null) box.append(h("p", { class: "tol-winner-line" }, who(env, table.winner), " reaches seven ravens and wins at once."));
  if (gate) {
    box.append(actions(button(`Continue to round ${view.round}`, "continue", () => {
      saveAck(table.round);
      rerender();
      const first = document.querySelector("#board .tol-action button, #board .tol-action [tabindex]");
      if (first) first.focus({ preventScroll: true });
    }, { primary: true })));
  }
  return box;
}

// ------------------------------------------------------------------------- the final screen
export function finalScreen(env) {
  const { view } = env;
  const res = view.result || env.ctx.result || { winners: [], details: {} };
  const winner = res.winners && res.winners.length ? res.winners[0] : null;
  const standings = view.players.slice().sort((a, b) => b.ravens - a.ravens);
  const box = h("section", { class: "tol-final", "aria-label": "The end of the game" },
    h("p", { class: "tol-fleuron", "aria-hidden": "true", text: "❦" }),
    winner != null
      ? h("h2", { class: "tol-final-title" }, who(env, winner), ` wins the Tower of London with ${view.players[winner].ravens} ravens`)
      : h("h2", { class: "tol-final-title", text: "Everyone loses" }),
    h("p", { class: "tol-final-why", text: winner != null
      ? `Seven ravens during the round ${view.last_scoring ? view.last_scoring.round : ""} scoring — no more scoring takes place.`
      : "Round 3 has been scored and nobody gathered seven ravens: the Tower falls to no one." }),
    h("ol", { class: "tol-standings" }, ...standings.map((p) => h("li", {}, who(env, p.seat), " ",
      h("strong", { text: `${p.ravens}` }), ` raven${p.ravens === 1 ? "" : "s"}`, ravenPips(p.ravens, view.rules.ravens_to_win)))));
  if (view.last_scoring) box.append(scoringPanel(env, view.last_scoring, false));
  if (view.scoring_history.length > 1) {
    box.append(h("details", { class: "tol-history" }, h("summary", { text: "Earlier rounds" }),
      ...view.scoring_history.slice(0, -1).reverse().map((t) => scoringPanel(env, t, false))));
  }
  return box;
}
export function placePanel(env) {
  const { prompt, ctx } = env;
  // (what to do, the action bar says; the buildings' buttons go there)
  return [
    h("div", { class: "tol-row" }, cardFace(env, prompt.card, { role: "first", badge: "1st · where" }),
      actions(...prompt.buildings.map((b) => button([h("span", { class: "sr", text: "Place a Beefeater in building " }), `${b}`], `place-${b}`, () => sendMove(ctx, { type: "place", building: b }),
        { disabled: ctx.pending })))),
  ];
}

export function removePanel(env) {
  const { view, prompt, ctx } = env;
  const c = card(view, prompt.card);
  const out = [
    h("h2", { class: "tol-h", text: `${prompt.ability}${c.ability === "FOCUS" ? " (through FOCUS)" : ""}` }),
    h("div", { class: "tol-row" }, cardFace(env, prompt.card, { role: "second", badge: "2nd · what" })),
  ];
  const t = ui.target;
  if (t) {
    const whose = t.seat === env.me ? "your own" : `${ctx.nameOf(t.seat)}'s`;
    out.push(h("p", { class: "tol-confirm", role: "status", text: `Remove ${whose} ${t.promoted ? "promoted " : ""}Beefeater from building ${t.building}?` }));
  }
  out.push(actions(
    t ? button("Remove it", "confirm", () => sendMove(ctx, { type: "remove", building: t.building, seat: t.seat, promoted: t.promoted }),
      { primary: true, disabled: ctx.pending }) : null,
    t ? button("Choose again", "cancel", () => { ui.target = null; rerender(); }) : null,
    button(`Pass (do not use ${prompt.ability})`, "pass", () => sendMove(ctx, { type: "pass" }), { disabled: ctx.pending })));
  return out;
}

export function switchPanel(env) {
  const { view, prompt, ctx } = env;
  const c = card(view, prompt.card);
  const out = [
    h("h2", { class: "tol-h", text: `SWITCH${c.ability === "FOCUS" ? " (through FOCUS)" : ""}` }),
    h("div", { class: "tol-row" }, cardFace(env, prompt.card, { role: "second", badge: "2nd · what" }),
      h("p", { class: "tol-hint", text: "Promoted Beefeaters cannot move." })),
  ];
  const sel = ui.switchSel;
  if (sel.length) {
    const describe = ([b, seat]) => `${seat === env.me ? "your" : `${ctx.nameOf(seat)}'s`} Beefeater in building ${b}`;
    out.push(h("p", { class: "tol-confirm", role: "status", text: sel.length === 1
      ? `Selected ${describe(sel[0])} — now click the Beefeater to swap it with.`
      : `Swap ${describe(sel[0])} with ${describe(sel[1])}?` }));
  }
  out.push(actions(
    sel.length === 2 ? button("Switch them", "confirm", () => sendMove(ctx, { type: "switch", a: sel[0], b: sel[1] }),
      { primary: true, disabled: ctx.pending }) : null,
    sel.length ? button("Choose again", "cancel", () => { ui.switchSel = []; rerender(); }) : null,
    button("Pass (do not SWITCH)", "pass", () => sendMove(ctx, { type: "pass" }), { disabled: ctx.pending })));
  return out;
}

export function waitingPanel(env) {
  const { view } = env;
  const mine = env.me != null ? view.players[env.me] : null;
  const out = [];
  if (view.phase === "pick") {
    if (view.my_picks) {
      out.push(h("h2", { class: "tol-h", text: "Your two cards lie face down" }),
        h("div", { class: "tol-slots" },
          h("div", { class: "tol-slot slot-1 filled" }, h("p", { class: "tol-slot-head" }, h("strong", { text: "1st card — where" })),
            cardFace(env, view.my_picks.first, { role: "first" })),
          h("div", { class: "tol-slot slot-2 filled" }, h("p", { class: "tol-slot-head" }, h("strong", { text: "2nd card — what" })),
            cardFace(env, view.my_picks.second, { role: "second" }))));
    } else {
      out.push(h("h2", { class: "tol-h", text: "Everyone chooses two cards" }));
    }
    out.push(othersChoosing(env, "has_chosen", "has chosen", "choosing…"));
  } else if (view.phase === "keep") {
    out.push(h("h2", { class: "tol-h", text: "Reduce Player Decks" }));
    if (view.my_keep) {
      out.push(h("p", { class: "tol-hint", text: "You keep:" }),
        h("div", { class: "tol-hand" }, ...view.my_keep.map((id) => cardFace(env, id, { mini: true }))));
    } else out.push(h("p", { class: "tol-hint", text: "Each player keeps three of the six cards they played this round; the choices are revealed when all have chosen." }));
    out.push(othersChoosing(env, "has_kept", "has kept", "choosing…"));
  } else if (view.phase === "reveal" && view.reveal) {
    const r = view.reveal;
    const what = r.stage === "place" ? "places a Beefeater" : `uses ${r.ability}`;
    out.push(h("h2", { class: "tol-h" }, who(env, r.seat), ` ${what}…`));
  }
  if (mine && view.phase !== "over") {
    out.push(h("p", { class: "tol-mine" },
      `Your hand: ${view.hand.length} card${view.hand.length === 1 ? "" : "s"} · deck: ${view.deck.length}`));
    if (view.phase !== "pick" && view.hand.length) {
      out.push(h("details", { class: "tol-peek" }, h("summary", { text: "Look at your hand" }),
        h("div", { class: "tol-hand" }, ...view.hand.map((id) => cardFace(env, id, { mini: true })))));
    }
  }
  return out;
}

// --------------------------------------------------------------------------- the reveals
export function revealStrip(env) {
  const { view } = env;
  let title; let entries; let order;
  if (view.phase === "reveal") {
    title = `Step ${view.step}: the cards are revealed in turn order`;
    entries = view.step_reveals;
    order = view.turn_order;
  } else if (view.phase === "pick" && view.step > 1) {
    const prev = `${view.round}.${view.step - 1}`;
    title = `Step ${view.step - 1}, as revealed`;
    order = ui.orders[prev] || view.turn_order;
    entries = pastReveals(view, view.step - 1, ui.reveals[prev] || [], order);
  } else if (view.phase === "keep") {
    title = "Step 3, as revealed";
    order = ui.orders[`${view.round}.3`] || view.turn_order;
    entries = pastReveals(view, 3, ui.reveals[`${view.round}.3`] || [], order);
  } else return null;
  const bySeat = new Map(entries.map((e) => [e.seat, e]));
  let fresh = 0;
  const items = order.map((seat) => {
    const e = bySeat.get(seat);
    const current = view.reveal && view.reveal.seat === seat;
    const li = h("li", { class: `tol-reveal${current ? " current" : ""}${e ? "" : " hidden-cards"}`, "data-seat": seat });
    li.append(h("div", { class: "tol-reveal-who" }, who(env, seat), current ? h("span", { class: "tol-now", text: "now" }) : null));
    if (!e) {
      li.append(h("div", { class: "tol-reveal-cards" }, cardBack("first card, face down"), cardBack("second card, face down")),
        h("p", { class: "tol-outcome", text: "face down" }));
      return li;
    }
    const key = `${view.round}.${e.stepNo || view.step}.${seat}`;
    const cards = h("div", { class: "tol-reveal-cards" });
    for (const [n, id] of [[1, e.first], [2, e.second]]) {
      const k = `${key}.${n}`;
      let node;
      if (id == null) node = cardBack(n === 1 ? "first card, face down" : "second card, face down");
      else {
        node = cardFace(env, id, { mini: true, role: n === 1 ? "first" : "second", badge: n === 1 ? "1st · where" : "2nd · what" });
        if (!ui.seen.has(k)) {
          ui.seen.add(k);
          if (!e.past) { node.classList.add("appear"); node.style.animationDelay = `${fresh * 0.45}s`; fresh++; }
        }
      }
      cards.append(node);
    }
    li.append(cards);
    const lines = [];
    if (e.placed) lines.push(`placed in ${e.placed} (${AREAS[areaOf(view, e.placed)].word})`);
    else if (e.second != null && !e.past) lines.push("could not place");
    if (e.outcome) lines.push(e.outcome.replace(/\{seat:(\d+)\}/g, (_, n) => env.ctx.nameOf(Number(n))));
    else if (current && view.reveal.stage === "ability") lines.push(`choosing how to use ${view.reveal.ability}…`);
    else if (current) lines.push("choosing where to place…");
    li.append(h("p", { class: "tol-outcome", text: lines.join(" · ") || " " }));
    return li;
  });
  return h("section", { class: "tol-reveals", "aria-label": title },
    h("h2", { class: "tol-h small", text: title }), h("ol", { class: "tol-reveal-list" }, ...items));
}

// A finished step: the cards come from what each player played this round (always public once
// revealed); where they placed and what the ability did, from the reveals this page saw.
function pastReveals(view, stepNo, seen, order) {
  const bySeat = new Map(seen.map((e) => [e.seat, e]));
  return order.map((seat) => {
    const played = view.players[seat].played;
    const first = played[2 * (stepNo - 1)];
    const second = played[2 * (stepNo - 1) + 1];
    const e = bySeat.get(seat) || {};
    return { seat, first: first ?? e.first, second: second ?? e.second, placed: e.placed, outcome: e.outcome, past: true, stepNo };
  }).filter((e) => e.first != null);
}

