// London's board: the hand, the development board, the borough market, every player's display,
// what this seat must do now, and the final scores. Drawn as styled HTML from the view; every
// clickable thing is exactly one of ctx.moves (nothing else is ever sent).
//
// Redrawing is by section: each section's markup is rebuilt as a string and the DOM is only
// touched when that string changed, so a view update costs a few string joins. Clicks are
// handled once, on the root. The renderer keeps its own little state between calls: the reason
// last shown for a disabled thing, the element whose move is on its way, and the endgame notice.

const S = {
  root: null, ctx: null, moves: new Map(), sections: {}, why: null, whySeq: -1,
  sent: null, sentSeq: -1, endgameSeen: false,
};

const COLOURS = { brown: "Brown", blue: "Blue", pink: "Pink", grey: "Pauper" };
const STEPS = {
  start: "start of turn — drawing", scry_keep: "St Pancras — keeping a card",
  scry_bottom: "St Pancras — ordering the deck", action: "choosing an action",
  develop: "Develop", develop_discard: "Develop — paying the colour", develop_place: "Develop — placing the card",
  buy: "Buy Land", run: "Run the City", run_pay: "Run the City — paying an activation",
  hospital: "Run the City — Hospital's choice", draw_three: "Draw Three", discard: "discarding to the hand limit",
  end: "end of turn",
};
const PHASE = {
  start: 0, scry_keep: 0, scry_bottom: 0, action: 1, develop: 1, develop_discard: 1, develop_place: 1,
  buy: 1, run: 1, run_pay: 1, hospital: 1, draw_three: 1, discard: 2, end: 3,
};
const ACTIONS = [
  ["develop", "Develop", "Play cards from your hand into your display"],
  ["buy_land", "Buy Land", "Buy a borough from the market"],
  ["run_city", "Run the City", "Activate your face-up cards, then take poverty"],
  ["draw_three", "Draw Three", "Draw three cards, deck or board"],
];
const WHERE = { any: "borough", north: "north borough", south: "south borough", river: "river borough" };

// -- small helpers --------------------------------------------------------------------------

const ESC = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
const esc = (s) => String(s ?? "").replace(/[&<>"']/g, (c) => ESC[c]);
const key = (m) => JSON.stringify(m, Object.keys(m).sort());
const plural = (n, one, many = one + "s") => `${n} ${n === 1 ? one : many}`;

/** Attributes of a clickable thing: a legal move (data-move) or a disabled one with its reason. */
function act(k, move, why) {
  if (move) return ` data-k="${esc(k)}" data-move="${esc(key(move))}"`;
  return ` data-k="${esc(k)}" aria-disabled="true" data-why="${esc(why)}" title="${esc(why)}"`;
}

function findMove(pred) {
  for (const m of S.ctx.moves) if (pred(m)) return m;
  return null;
}
const cardMove = (types, id) => findMove((m) => types.includes(m.type) && m.card === id);

// -- cards -----------------------------------------------------------------------------------

function effect(e) {
  const n = e.amount ?? e.count ?? 0;
  switch (e.do) {
    case "gain_money": return `<i class="s money" title="Gain £${n}">£${n}</i>`;
    case "gain_prestige": return `<i class="s now" title="+${n} prestige now">${n}</i>`;
    case "gain_poverty": return `<i class="s pov" title="+${n} poverty">+${n}</i>`;
    case "alleviate_poverty": return `<i class="s pov" title="−${n} poverty">−${n}</i>`;
    case "draw": return `<i class="s draw" title="Draw ${n} from the deck">+${n}</i>`;
    case "money_per_borough":
      return `<i class="s money" title="£${n} per ${WHERE[e.where]} you own">£${n}</i><small>/${esc(WHERE[e.where])}</small>`;
    case "alleviate_per_borough":
      return `<i class="s pov" title="−${n} poverty per ${WHERE[e.where]} you own">−${n}</i><small>/${esc(WHERE[e.where])}</small>`;
    case "prestige_per_colour":
      return `<i class="s now" title="+${n} prestige per face-up ${e.colour} card">${n}</i><small>/${esc(e.colour)} card</small>`;
    case "money_per_colour":
      return `<i class="s money" title="£${n} per face-up ${e.colour} card">£${n}</i><small>/${esc(e.colour)} card</small>`;
    case "free_colour_discard": return `<small>next develop: no colour discard</small>`;
    default: return `<small>${esc(e.do)}</small>`;
  }
}

function payGlyph(a) {
  if (a.pay === "money") return `<i class="s pay" title="Pay £${a.amount} to activate">£${a.amount}</i><b class="arrow">→</b>`;
  if (a.pay === "discard") return `<i class="s discard" title="Discard a card to activate">🂠</i><b class="arrow">→</b>`;
  return "";
}

function cardText(c) {
  const bits = [`${c.name} — ${COLOURS[c.colour] || c.colour}`];
  if (c.kind === "pauper") bits.push("a pauper: it can never be developed; discard it to pay an activation to shed it");
  else if (c.kind === "action") bits.push(`action card: ${c.on_play ? c.on_play.text : ""}`);
  else bits.push(`costs £${c.cost} to develop`);
  if (c.activation) bits.push(c.activation.text.replace("⤵", "(then flips face-down)"));
  if (c.ongoing) bits.push(c.ongoing.text);
  if (c.prestige) bits.push(`${c.prestige} end-game prestige`);
  return bits.join("; ");
}

/** One card. opts: {k, move, why, cls, tag, faceDown, note, interactive} */
function card(ref, opts = {}) {
  const c = S.ctx.view.catalogue.cards[ref.key];
  const down = opts.faceDown;
  const interactive = opts.move || opts.why;
  const tag = interactive ? "button" : "div";
  const cls = `lc c-${c.colour}${down ? " down" : ""}${c.kind === "action" ? " action" : ""}${c.kind === "pauper" ? " pauper" : ""}` +
    `${opts.move ? " can" : ""}${opts.cls ? " " + opts.cls : ""}`;
  const text = cardText(c);
  const attrs = interactive ? act(opts.k, opts.move, opts.why) + ' type="button"' : ` title="${esc(text)}"`;
  const colour = COLOURS[c.colour] || c.colour;
  let body;
  if (down) {
    body = `<span class="lc-back" aria-hidden="true">❦</span><span class="lc-name">${esc(c.name)}</span>` +
      `<span class="lc-band">${esc(colour)} · face-down</span>` +
      (c.prestige ? `<span class="lc-foot"><i class="s end" title="${c.prestige} end-game prestige">${c.prestige}</i></span>` : "");
  } else {
    let line = "";
    if (c.activation) line = payGlyph(c.activation) + c.activation.effects.map(effect).join("") + (c.activation.flips ? `<i class="s flip" title="Flips face-down once activated">⤵</i>` : "");
    else if (c.on_play) line = `<small class="k">Action:</small>` + c.on_play.effects.map(effect).join("");
    else if (c.kind === "pauper") line = `<small class="k">Pauper — cannot be developed</small>`;
    else if (!c.ongoing) line = `<small class="k">No ability</small>`;
    body =
      `<span class="lc-band"><span>${esc(colour)}</span><span class="era">${esc(c.era)}</span></span>` +
      `<span class="lc-head">${c.kind === "building" ? `<i class="s cost" title="Costs £${c.cost} to develop">£${c.cost}</i>` : "<span></span>"}` +
      `${c.prestige ? `<i class="s end" title="${c.prestige} end-game prestige">${c.prestige}</i>` : ""}</span>` +
      `<span class="lc-name">${esc(c.name)}</span>` +
      `<span class="lc-act">${line}</span>` +
      (c.ongoing ? `<span class="lc-on">${esc(c.ongoing.text)}</span>` : "");
  }
  const note = opts.note ? `<span class="lc-note">${esc(opts.note)}</span>` : "";
  const sr = `<span class="sr">${esc(text)}${opts.why ? ". Not now: " + esc(opts.why) : ""}</span>`;
  return `<${tag} class="${cls}" data-card="${ref.id}"${attrs}><span aria-hidden="true" class="lc-in">${body}</span>${note}${sr}</${tag}>`;
}

function borough(bkey, opts = {}) {
  const b = S.ctx.view.catalogue.boroughs[bkey];
  const interactive = opts.move || opts.why;
  const tag = interactive ? "button" : "div";
  const side = b.side === "north" ? "North of the Thames" : "South of the Thames";
  const text = `${b.name}: ${side}${b.river ? ", on the river" : ""}; costs £${b.cost}; draw ${b.draw}; +${b.prestige} prestige; ` +
    `${b.relief ? `−${b.relief} poverty; ` : ""}${b.text}`;
  const attrs = interactive ? act(opts.k, opts.move, opts.why) + ' type="button"' : ` title="${esc(text)}"`;
  return `<${tag} class="bt ${b.side}${opts.live ? " live" : ""}${opts.move ? " can" : ""}${opts.cls ? " " + opts.cls : ""}" data-borough="${esc(bkey)}"${attrs}>` +
    `<span aria-hidden="true" class="bt-in"><span class="bt-top"><i class="s cost">£${b.cost}</i><span class="bt-name">${esc(b.name)}</span></span>` +
    `<span class="bt-side">${b.side === "north" ? "North" : "South"}${b.river ? " · river" : ""}${opts.live ? ' · <b class="live-tag">live</b>' : ""}</span>` +
    `<span class="bt-gain"><i class="s draw" title="Draw ${b.draw}">+${b.draw}</i><i class="s now" title="+${b.prestige} prestige">${b.prestige}</i>` +
    `${b.relief ? `<i class="s pov" title="−${b.relief} poverty">−${b.relief}</i>` : ""}</span>` +
    `${b.text ? `<span class="bt-text">${esc(b.text)}</span>` : ""}</span>` +
    `<span class="sr">${esc(text)}${opts.live ? " (live: its ability works)" : ""}${opts.why ? ". Not now: " + esc(opts.why) : ""}</span></${tag}>`;
}

// -- reasons things are not playable ----------------------------------------------------------

function notYours() {
  const ctx = S.ctx;
  const v = ctx.view;
  if (v.over) return "The game is over";
  if (ctx.pending) return "Your last move is still on its way";
  if (v.current !== ctx.seat) return `It is ${ctx.nameOf(v.current)}'s turn`;
  return null;
}

function handWhy(ref, me) {
  const v = S.ctx.view;
  const cards = v.catalogue.cards;
  const c = cards[ref.key];
  const nope = notYours();
  if (nope) return nope;
  const pend = v.turn.pending ? cards[v.turn.pending.key] : null;
  switch (v.step) {
    case "start": return "Draw first: from the deck or a card on the development board";
    case "draw_three": return "Draw Three: take cards from the deck or the development board";
    case "scry_keep": case "scry_bottom": return "St Pancras: choose among the cards shown above";
    case "action": return "Choose your action first";
    case "develop": {
      if (c.kind === "pauper") return "Paupers can never be developed";
      const others = me.hand.filter((r) => r.id !== ref.id && cards[r.key].colour === c.colour && cards[r.key].kind !== "pauper");
      if (!others.length && !v.turn.free_colour) return `Needs another ${c.colour} card in your hand to discard for its colour`;
      return `Costs £${c.cost}: more than your money and the loans left can pay`;
    }
    case "develop_discard":
      if (pend && v.turn.pending.id === ref.id) return "This is the card being developed";
      if (c.kind === "pauper") return "Paupers cannot pay for a colour";
      return `Not ${pend ? pend.colour : "the right colour"}: ${pend ? pend.name : "the card"} needs a ${pend ? pend.colour : ""} card discarded`;
    case "develop_place": return `Now place ${pend ? pend.name : "the card"}: on a new stack or one of your stacks`;
    case "buy": return "Buy Land: choose a borough in the market";
    case "run": return "In a run, hand cards are discarded only when an activation asks for one";
    case "hospital": return "Choose which card flips: the activated card or your Hospital";
    case "end": return "Your action is done: end your turn";
    default: return v.prompt ? v.prompt.text : "Not now";
  }
}

function displayWhy(ref, face, isTop, me) {
  const v = S.ctx.view;
  const c = v.catalogue.cards[ref.key];
  const nope = notYours();
  if (nope) return nope;
  if (v.step === "develop_place") return "Use the “Place here” button under a stack";
  if (!["run", "hospital"].includes(v.step)) return "Cards in your display are activated during Run the City";
  if (v.step === "hospital") return "Choose the activated card or your Hospital";
  if (!isTop) return "Buried: only the top card of a stack can be activated";
  if (!face) return "Face-down: it has flipped and can no longer be activated";
  if (!c.activation) return c.ongoing ? `No activation — its ability works by itself: ${c.ongoing.text}` : "This card has no ability to activate";
  if (v.turn.activated.includes(ref.id)) return "Already activated in this run";
  if (c.activation.pay === "money" && me.money < c.activation.amount) return `Activating costs £${c.activation.amount}; you have £${me.money}`;
  if (c.activation.pay === "discard" && me.hand_count === 0) return "Needs a card from your hand to discard";
  return "Cannot be activated now";
}

function actionWhy(a, me) {
  const nope = notYours();
  if (nope) return nope;
  const v = S.ctx.view;
  if (v.step !== "action") return v.step === "start" ? "Draw your card first" : "You have already chosen this turn's action";
  if (a === "develop") return "No card in your hand can be developed now: each needs its £ cost and another card of its colour to discard";
  if (a === "buy_land") return `No borough in the market is within reach of your £${me.money} and the loans left`;
  return "Not available now";
}

// -- sections --------------------------------------------------------------------------------

function statusSection(v) {
  const ctx = S.ctx;
  const phase = PHASE[v.step] ?? 0;
  const who = v.over ? "The game is over" : v.current === ctx.seat ? "Your turn" : `${esc(ctx.nameOf(v.current))}'s turn`;
  const phases = ["Draw", "Action", "Hand limit", "End"].map((p, i) =>
    `<li${!v.over && i === phase ? ' class="now" aria-current="step"' : ""}>${p}${!v.over && i === phase ? ' <span class="sr">(now)</span>' : ""}</li>`).join("");
  const endgame = v.endgame.triggered && !v.over
    ? `<p class="lon-endgame" role="status">⚑ The city deck is empty — the endgame has begun: ${plural(v.endgame.final_turns_left, "final turn")} left.</p>` : "";
  return `<div class="lon-status"><p class="lon-turn"><b>${who}</b> · turn ${v.turn_no}` +
    `${v.over ? "" : ` · <span class="lon-step">${esc(STEPS[v.step] || v.step)}</span>`}</p>` +
    `<ol class="lon-phases" aria-label="Turn order">${phases}</ol>` +
    `<p class="lon-supply"><span title="Cards left in the city deck">Deck: <b>${v.deck.count}</b>${v.deck.era ? ` · era <b>${esc(v.deck.era)}</b>` : ""}</span>` +
    `<span title="Loan tokens left in the box">Loans left: <b>${v.loan_supply}</b></span>` +
    `<span title="Boroughs not yet in the market">Borough deck: <b>${v.borough_deck}</b></span></p>${endgame}</div>`;
}

function nowSection(v, me) {
  const ctx = S.ctx;
  const p = v.prompt;
  const parts = [];
  if (v.over) {
    parts.push(`<p class="lon-say">The game is over — the final scores are below.</p>`);
  } else if (ctx.seat === null || ctx.seat === undefined) {
    parts.push(`<p class="lon-say">You are watching. ${esc(ctx.nameOf(v.current))} is at: ${esc(STEPS[v.step] || v.step)}.</p>`);
  } else if (!p) {
    parts.push(`<p class="lon-say">Waiting for ${esc(ctx.nameOf(v.current))} — ${esc(STEPS[v.step] || v.step)}.</p>`);
  } else {
    parts.push(`<p class="lon-say yours"><span class="lon-you">Your move:</span> ${esc(p.text)}</p>`);
  }
  if (v.turn.pending && !v.over) {
    const doing = v.step.startsWith("develop") ? "Being developed" : "Being activated";
    parts.push(`<div class="lon-pending"><span class="k">${doing}:</span>${card(v.turn.pending, { cls: "mini" })}</div>`);
  }
  if (p && v.scry.length) {
    const type = v.step === "scry_keep" ? "keep" : "bottom";
    parts.push(`<div class="lon-scry"><span class="k">St Pancras shows you:</span><div class="row">` +
      v.scry.map((r) => card(r, { k: `scry-${r.id}`, move: cardMove([type], r.id),
        why: "Not a choice now", note: type === "keep" ? "Keep" : "To the bottom" })).join("") + `</div></div>`);
  }
  if (p) parts.push(buttons(v, me));
  if (ctx.pending) parts.push(`<p class="lon-sending" role="status"><span class="dot" aria-hidden="true"></span> Sending your move…</p>`);
  else if (ctx.error && ctx.error.seq === ctx.seq) parts.push(`<p class="lon-refused" role="alert"><b>Refused:</b> ${esc(ctx.error.message)}</p>`);
  if (S.why && S.whySeq === ctx.seq) parts.push(`<p class="lon-why" role="status"><b>Not now:</b> ${esc(S.why)}</p>`);
  else parts.push(`<p class="lon-why" role="status" hidden></p>`);
  return `<div class="lon-now${p ? " mine" : ""}">${parts.join("")}</div>`;
}

function buttons(v, me) {
  const out = [];
  const b = (k, move, label, why, cls = "") =>
    `<button type="button" class="lon-btn${move ? " can" : ""}${cls ? " " + cls : ""}"${act(k, move, why)}>${label}</button>`;
  if (v.step === "action") {
    out.push(`<div class="lon-actions" role="group" aria-label="Choose your action">` + ACTIONS.map(([a, name, hint]) => {
      const m = findMove((x) => x.type === "choose_action" && x.action === a);
      return b(`action-${a}`, m, `<b>${name}</b><small>${hint}</small>`, actionWhy(a, me), "big");
    }).join("") + `</div>`);
  }
  const simple = [];
  const add = (type, extra = () => true) => { const m = findMove((x) => x.type === type && extra(x)); return m; };
  const deck = add("draw", (x) => x.from === "deck");
  if (deck) simple.push(b("draw-deck", deck, `Draw from the deck <small>(${v.deck.count} left)</small>`));
  const scry = add("scry");
  if (scry) simple.push(b("scry", scry, "Look at the top 3 (St Pancras)"));
  const stop = add("stop_drawing");
  if (stop) simple.push(b("stop", stop, "Stop drawing"));
  const ability = add("borough_ability");
  if (ability) simple.push(b("ability", ability, `Resolve ${esc(v.catalogue.boroughs[me.live_borough]?.name || "the borough")}'s ability`, null, "must"));
  else if (v.step === "run" && me.live_borough && v.catalogue.boroughs[me.live_borough].kind === "active") {
    simple.push(b("ability", null, `${esc(v.catalogue.boroughs[me.live_borough].name)}'s ability`, v.turn.borough_done ? "Already resolved in this run" : "Not available now"));
  }
  const place = findMove((x) => x.type === "place" && x.stack === "new");
  if (place) simple.push(b("place-new-btn", place, "Place on a new stack"));
  const endAction = add("end_action");
  if (endAction) simple.push(b("end-action", endAction, v.step === "run" ? `End the run <small>(+${me.run_poverty} poverty)</small>` : "Stop developing"));
  else if (v.step === "run") simple.push(b("end-action", null, "End the run", `First resolve ${v.catalogue.boroughs[me.live_borough]?.name || "your borough"}'s ability — the run cannot end without it`));
  const end = add("end_turn");
  if (end) simple.push(b("end-turn", end, "End turn", null, "primary"));
  const loan = add("take_loan");
  const repay = add("repay_loan");
  const loanWhy = v.loan_supply === 0 ? "No loan tokens are left in the box" : "Not available now";
  let repayWhy = "Loans are repaid only at the very start of your turn, before drawing";
  if (!me.loans) repayWhy = "You have no loans to repay";
  else if (v.step === "start" && v.turn.repay_open && me.money < me.repay_cost) repayWhy = `Repaying costs £${me.repay_cost}; you have £${me.money}`;
  const money = [b("loan", loan, `Take a £${me.loan_amount} loan`, loanWhy, "quiet"),
    b("repay", repay, `Repay a loan (£${me.repay_cost})`, repayWhy, "quiet")];
  if (simple.length) out.push(`<div class="lon-simple" role="group" aria-label="Choices">${simple.join("")}</div>`);
  out.push(`<div class="lon-money" role="group" aria-label="Loans">${money.join("")}</div>`);
  const n = v.prompt.choices.length;
  out.push(`<details class="lon-all"><summary>Every legal choice as a list (${n})</summary><div class="lon-list">` +
    v.prompt.choices.map((c, i) => `<button type="button" class="lon-btn can"${act(`list-${i}-${key(c.move)}`, c.move)}>${esc(c.label)}</button>`).join("") +
    `</div></details>`);
  return out.join("");
}

function handSection(v, me) {
  if (!me || !me.hand) return "";
  const cards = v.catalogue.cards;
  const order = { brown: 0, blue: 1, pink: 2, grey: 3 };
  const hand = [...me.hand].sort((a, b) => (order[cards[a.key].colour] - order[cards[b.key].colour]) ||
    cards[a.key].name.localeCompare(cards[b.key].name) || a.id - b.id);
  const counts = {};
  for (const r of hand) counts[cards[r.key].colour] = (counts[cards[r.key].colour] || 0) + 1;
  const summary = Object.entries(counts).map(([c, n]) => `${n} ${COLOURS[c].toLowerCase()}`).join(", ");
  const body = hand.length ? hand.map((r) => {
    const move = cardMove(["develop", "discard_for_colour", "pay", "discard"], r.id);
    return card(r, { k: `hand-${r.id}`, move, why: move ? null : handWhy(r, me) });
  }).join("") : `<p class="empty">Your hand is empty.</p>`;
  const idle = hand.some((r) => cardMove(["develop", "discard_for_colour", "pay", "discard"], r.id)) ? "" : " idle";
  return `<section class="lon-hand" aria-labelledby="lon-hand-h"><h3 id="lon-hand-h">Your hand <small>${hand.length} of ${me.hand_limit} · ${esc(summary)}</small></h3>` +
    `<div class="row cards${idle}">${body}</div></section>`;
}

function citySection(v, me) {
  const ctx = S.ctx;
  const seat = ctx.seat !== null && ctx.seat !== undefined;
  const drawStep = ["start", "draw_three"].includes(v.step);
  const boardWhy = notYours() || (drawStep ? "Not a choice now" : "Cards are taken from the board only when drawing: at the start of your turn or with Draw Three");
  const rows = v.board.rows.map((row, ri) => `<div class="slots" role="list" aria-label="${ri === 0 ? "Top row" : "Bottom row"}">` + row.map((r) => {
    if (!r) return `<div class="slot" role="listitem"><span class="sr">empty space</span></div>`;
    const move = seat ? findMove((m) => m.type === "draw" && m.from === "board" && m.card === r.id) : null;
    return `<div class="slot" role="listitem">${card(r, seat ? { k: `board-${r.id}`, move, why: move ? null : boardWhy, cls: "mini" } : { cls: "mini" })}</div>`;
  }).join("") + `</div>`).join("");
  const deckMove = seat ? findMove((m) => m.type === "draw" && m.from === "deck") : null;
  const deckWhy = notYours() || (v.deck.count === 0 ? "The city deck is empty" : "You draw from the deck only at the start of your turn or with Draw Three");
  const deckInner = `<span class="deck-back" aria-hidden="true">❦</span><span class="deck-n"><b>${v.deck.count}</b> cards</span>` +
    `<span class="deck-era">${v.deck.era ? `era ${esc(v.deck.era)}` : "empty"}</span><span class="sr">The city deck: ${v.deck.count} cards${v.deck.era ? `, era ${esc(v.deck.era)} on top` : ""}</span>`;
  const anyDraw = findMove((m) => m.type === "draw");
  const deck = seat
    ? `<button type="button" class="deck${deckMove ? " can" : ""}${anyDraw ? "" : " idle"}${v.deck.count === 0 ? " empty" : ""}"${act("deck", deckMove, deckWhy)}>${deckInner}</button>`
    : `<div class="deck${v.deck.count === 0 ? " empty" : ""}">${deckInner}</div>`;
  const buyWhyBase = notYours() || (v.step === "buy" ? null : "Boroughs are bought with the Buy Land action");
  const market = v.market.length ? v.market.map((k) => {
    if (!seat) return borough(k);
    const move = findMove((m) => m.type === "buy" && m.borough === k);
    const b = v.catalogue.boroughs[k];
    return borough(k, { k: `buy-${k}`, move, why: move ? null : buyWhyBase || `Costs £${b.cost}: more than your £${me.money} and the loans left` });
  }).join("") : `<p class="empty">The market is empty.</p>`;
  return `<section class="lon-city" aria-label="The city"><div class="lon-boardwrap"><h3>The development board</h3>` +
    `<div class="lon-devboard">${deck}<div class="rows${anyDraw ? "" : " idle"}">${rows}</div></div></div>` +
    `<div class="lon-marketwrap"><h3>The borough market <small>${plural(v.borough_deck, "borough")} to come</small></h3>` +
    `<div class="row market${findMove((m) => m.type === "buy") ? "" : " idle"}">${market}</div></div></section>`;
}

function playerSection(v, pl) {
  const ctx = S.ctx;
  const mine = pl.seat === ctx.seat;
  const myTurn = mine && v.prompt;
  const cards = v.catalogue.cards;
  const name = ctx.nameOf(pl.seat);
  const current = !v.over && v.current === pl.seat;
  const stacks = pl.stacks.map((st) => {
    const n = st.cards.length;
    const buried = st.cards.slice(0, -1).map((c) => {
      const d = cards[c.key];
      return `<li class="buried c-${d.colour}${c.face_up ? "" : " down"}" title="${esc(cardText(d))}">` +
        `<span>${esc(d.name)}</span><small>${esc(COLOURS[d.colour])}${c.face_up ? "" : " · face-down"}${d.prestige ? ` · ${d.prestige}★` : ""}</small></li>`;
    }).join("");
    const top = st.cards[n - 1];
    let topHtml;
    const used = v.turn.activated.includes(top.id) && v.current === pl.seat;
    const note = used ? "activated" : st.built_this_turn ? "built this turn" : null;
    if (myTurn) {
      const move = cardMove(["activate", "flip"], top.id);
      topHtml = card(top, { k: `disp-${top.id}`, move, why: move ? null : displayWhy(top, top.face_up, true, pl), faceDown: !top.face_up, cls: "mini", note });
    } else topHtml = card(top, { faceDown: !top.face_up, cls: "mini", note });
    // a Hospital's flip choice may name a buried card? only tops flip; keep it simple
    let place = "";
    if (myTurn && v.step === "develop_place") {
      const m = findMove((x) => x.type === "place" && x.stack === st.index);
      place = `<button type="button" class="lon-btn place${m ? " can" : ""}"${act(`place-${st.index}`, m, st.built_this_turn ? "Built this turn: place on another stack" : "Not available")}>Place here</button>`;
    }
    return `<li class="stack"><span class="sr">Stack ${st.index + 1}, ${plural(n, "card")}.</span>` +
      (buried ? `<ol class="buried-list" aria-label="Buried cards">${buried}</ol>` : "") + topHtml + place + `</li>`;
  });
  if (myTurn && v.step === "develop_place") {
    const m = findMove((x) => x.type === "place" && x.stack === "new");
    stacks.push(`<li class="stack new"><button type="button" class="newstack${m ? " can" : ""}"${act("place-new", m, "Not available")}>＋<br>New stack</button></li>`);
  }
  const live = pl.live_borough;
  const bs = pl.boroughs.slice().reverse().map((b) => {
    if (b.live && myTurn && v.step === "run") {
      const m = findMove((x) => x.type === "borough_ability");
      const bk = v.catalogue.boroughs[b.key];
      if (bk.kind === "active") {
        return borough(b.key, { live: true, k: "ability-tile", move: m, why: m ? null : (v.turn.borough_done ? "Already resolved in this run" : "Not available now"),
          cls: v.turn.borough_done ? "done" : "" });
      }
    }
    return b.live ? borough(b.key, { live: true }) : `<div class="bt under" title="${esc(v.catalogue.boroughs[b.key].name)} (not live: covered)">${esc(v.catalogue.boroughs[b.key].name)}</div>`;
  }).join("");
  const stat = (label, value, title, cls = "") => `<span class="stat ${cls}" title="${esc(title)}"><small>${label}</small><b>${value}</b></span>`;
  return `<section class="lon-player${mine ? " me" : ""}${current ? " current" : ""}" aria-label="${esc(name)}${mine ? " (you)" : ""}">` +
    `<header><h3><span class="seatno">${pl.seat + 1}</span> ${esc(name)}${mine ? " <small>(you)</small>" : ""}` +
    `${current ? ' <span class="to-play">to play</span>' : ""}</h3>` +
    `<div class="stats">` +
    stat("Money", `£${pl.money}`, "Money", "money") +
    stat("Loans", pl.loans ? `${pl.loans} × £10` : "none", `${plural(pl.loans, "loan")}: −7 VP each if unpaid at the end`, pl.loans ? "warn" : "") +
    stat("Poverty", pl.poverty, "Poverty: costs VP at the end on a rising scale", pl.poverty >= 5 ? "warn" : "") +
    stat("Prestige", pl.prestige, "Immediate prestige scored so far (end-game prestige is on the cards)") +
    stat("Hand", `${pl.hand_count}/${pl.hand_limit}`, "Cards in hand / hand limit") +
    stat("Run costs", `+${pl.run_poverty}`, "Poverty a Run the City would cost now") +
    `</div></header>` +
    `<div class="pl-body"><div class="pl-display"><h4>Display <small>${plural(pl.stacks.length, "stack")}</small></h4>` +
    (stacks.length ? `<ol class="stacks${findMove((m) => m.type === "activate" || m.type === "flip") ? "" : " idle"}">${stacks.join("")}</ol>` : `<p class="empty">No cards developed yet.</p>`) + `</div>` +
    `<div class="pl-boroughs"><h4>Boroughs <small>${pl.boroughs.length}${live ? " · top one live" : ""}</small></h4>` +
    (bs ? `<div class="bpile">${bs}</div>` : `<p class="empty">None yet.</p>`) + `</div></div></section>`;
}

function playersSection(v, mine) {
  // your own display sits just under your hand; everybody else's after the city, in seat order
  const seat = S.ctx.seat;
  const list = v.players.filter((p) => (p.seat === seat) === mine);
  return list.length ? `<div class="lon-players${mine ? " mine" : ""}">${list.map((p) => playerSection(v, p)).join("")}</div>` : "";
}

function finalSection(v) {
  const ctx = S.ctx;
  const r = v.result || ctx.result;
  if (!v.over || !r) return "";
  const sc = r.details.scoring;
  const names = sc.map((s) => ctx.nameOf(s.seat));
  const win = r.winners.map((w) => ctx.nameOf(w));
  const head = win.length === 1 ? `${esc(win[0])} wins` : win.length ? `A shared victory: ${esc(win.join(", "))}` : "Nobody wins";
  const stepLine = (s) => {
    switch (s.step) {
      case 1: return `${plural(s.cards, "card")} → ${s.poverty} poverty`;
      case 3: return s.loans ? `${plural(s.loans, "loan")} repaid (£${s.money_spent})` : "none";
      case 4: return `£${s.money} left`;
      case 5: return s.loans ? plural(s.loans, "loan") + " unpaid" : "none";
      case 6: return `${s.poverty_before} − ${s.subtracted} = ${s.poverty_after}`;
      case 7: return `${s.poverty} poverty`;
      default: return "";
    }
  };
  const rows = [];
  rows.push(`<tr><th scope="row">Prestige scored during play</th>${sc.map((s) => `<td><b>${s.prestige_in_play}</b></td>`).join("")}</tr>`);
  for (let i = 0; i < 7; i++) {
    const label = sc[0].steps[i].label;
    rows.push(`<tr><th scope="row"><span class="stepno">${i + 1}</span> ${esc(label)}</th>` + sc.map((s) => {
      const st = s.steps[i];
      const vp = st.vp ? `<b>${st.vp > 0 ? "+" : ""}${st.vp}</b>` : `<b class="zero">0</b>`;
      const note = stepLine(st);
      return `<td>${vp}${note ? `<small>${esc(note)}</small>` : ""}</td>`;
    }).join("") + `</tr>`);
  }
  rows.push(`<tr class="total"><th scope="row">Total VP</th>${sc.map((s) => `<td><b>${s.total}</b></td>`).join("")}</tr>`);
  rows.push(`<tr class="tb"><th scope="row">Poverty left · boroughs · best card</th>${sc.map((s) => `<td><small>${s.poverty} · ${s.boroughs} · ${s.best_card}★</small></td>`).join("")}</tr>`);
  const tb = r.details.tiebreak;
  let tie = "";
  if (tb && tb.tied_on_vp && tb.tied_on_vp.length > 1) {
    tie = `<p class="lon-tie">Tied on VP: ${esc(tb.tied_on_vp.map((s) => ctx.nameOf(s)).join(", "))} — decided by <b>${esc(tb.decided_by)}</b>` +
      ` (rule 13: fewest poverty, then most boroughs, then the single highest-prestige card, then a shared victory).</p>`;
  } else tie = `<p class="lon-tie">No tie-break was needed.</p>`;
  const hash = document.getElementById("seed-hash");
  const seed = ctx.seed
    ? `<p class="lon-seed">The fair-shuffle seed is now revealed: <code class="hash">${esc(ctx.seed)}</code>` +
      `${hash && hash.textContent.trim() !== "—" ? ` — its SHA-256, published when the game began, was <code class="hash">${esc(hash.textContent.trim())}</code>` : ""}.` +
      `${ctx.code ? ` <a href="/api/tables/${esc(ctx.code)}/record">The full record</a> lets anyone replay and verify the game.` : ""}</p>`
    : `<p class="lon-seed">The fair-shuffle seed is revealed when the table closes.</p>`;
  return `<section class="lon-final" aria-labelledby="lon-final-h"><p class="fleuron" aria-hidden="true">❦</p>` +
    `<h2 id="lon-final-h">Final scores</h2><p class="lon-winner">${head}</p>` +
    `<div class="lon-scorewrap"><table class="lon-scores"><caption class="sr">The seven scoring steps for each player</caption>` +
    `<thead><tr><th scope="col">Scoring step</th>${names.map((n, i) => `<th scope="col"${r.winners.includes(sc[i].seat) ? ' class="winner"' : ""}>${esc(n)}${r.winners.includes(sc[i].seat) ? " ❦" : ""}</th>`).join("")}</tr></thead>` +
    `<tbody>${rows.join("")}</tbody></table></div>${tie}${seed}</section>`;
}

// -- drawing ---------------------------------------------------------------------------------

const ORDER = ["final", "status", "now", "hand", "mine", "city", "players"];

function setup(root) {
  S.root = root;
  root.classList.add("lon");
  root.replaceChildren();
  for (const name of ORDER) {
    const div = document.createElement("div");
    div.className = `lon-sec lon-sec-${name}`;
    div.dataset.sec = name;
    root.append(div);
    S.sections[name] = { el: div, html: null };
  }
  root.addEventListener("click", onClick);
}

function patch(name, html) {
  const sec = S.sections[name];
  if (sec.html === html) return;
  sec.html = html;
  sec.el.innerHTML = html;
  sec.el.hidden = !html;
}

export function render(root, ctx) {
  if (S.root !== root) setup(root);
  S.ctx = ctx;
  const v = ctx.view;
  if (!v) return;
  if (!ctx.pending) S.sent = null;
  S.moves = new Map(ctx.moves.map((m) => [key(m), m]));
  const me = ctx.seat !== null && ctx.seat !== undefined ? v.players[ctx.seat] : null;
  const focused = document.activeElement && root.contains(document.activeElement) ? document.activeElement.dataset.k : null;

  patch("final", finalSection(v));
  patch("status", statusSection(v));
  patch("now", nowSection(v, me));
  patch("hand", handSection(v, me));
  patch("city", citySection(v, me));
  patch("mine", playersSection(v, true));
  patch("players", playersSection(v, false));

  root.classList.toggle("lon-mine", !!v.prompt);
  root.classList.toggle("lon-waiting", !!ctx.pending);
  root.classList.toggle("lon-over", !!v.over);
  root.dataset.seq = String(ctx.seq);
  root.dataset.step = v.over ? "over" : v.step;
  root.querySelectorAll(".sending").forEach((n) => n.classList.remove("sending"));
  if (S.sent && ctx.pending) {
    const n = root.querySelector(`[data-k="${CSS.escape(S.sent)}"]`);
    if (n) n.classList.add("sending");
  }
  if (focused) {
    const n = root.querySelector(`[data-k="${CSS.escape(focused)}"]`);
    if (n && n !== document.activeElement) n.focus({ preventScroll: true });
  }
  if (v.endgame.triggered && !S.endgameSeen) S.endgameSeen = true;
}

function onClick(e) {
  const t = e.target.closest("[data-move],[data-why]");
  if (!t || !S.root.contains(t)) return;
  const ctx = S.ctx;
  if (t.getAttribute("aria-disabled") === "true") {
    S.why = t.dataset.why;
    S.whySeq = ctx.seq;
    const line = S.root.querySelector(".lon-why");
    if (line) { line.hidden = false; line.innerHTML = `<b>Not now:</b> ${esc(S.why)}`; }
    S.sections.now.html = null;
    return;
  }
  const move = S.moves.get(t.dataset.move);
  if (!move || ctx.pending) return;
  S.why = null;
  S.sent = t.dataset.k;
  S.sentSeq = ctx.seq;
  if (ctx.send(move) === false) return;
  t.classList.add("sending");
  S.root.classList.add("lon-waiting");
  const line = S.root.querySelector(".lon-why");
  if (line) { line.hidden = false; line.className = "lon-why lon-sending"; line.innerHTML = '<span class="dot" aria-hidden="true"></span> Sending your move…'; }
  S.sections.now.html = null;
}
