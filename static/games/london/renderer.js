// London's board: the hand, the development board, the borough market, every player's display,
// what this seat must do now, and the final scores. Drawn as styled HTML from the view; every
// clickable thing is exactly one of ctx.moves (nothing else is ever sent).
//
// Redrawing is by section: each section's markup is rebuilt as a string and the DOM is only
// touched when that string changed, so a view update costs a few string joins. Clicks are
// handled once, on the root. The renderer keeps its own little state between calls: the reason
// last shown for a disabled thing, the element whose move is on its way.
// Why a thing cannot be chosen is the server's word (prompt.unavailable); a move that would take
// a loan (choice.loans) says so on the card and asks before it is sent.

import { attachZoom, closeZoom, confirmMove, esc, focusedKey, makeSections, markFresh, moveKey, Moves, patchSection, plural, reasonFor, restoreFocus } from "/static/js/kit.js";

// the table page draws no prompt line or result box of its own above this board
export const ownPrompt = true;
export const ownResult = true;

const S = {
  root: null, ctx: null, moves: null, sections: {}, why: null, whySeq: -1, whyHand: false,
  sent: null, lastPrompt: null, handOpen: true, final: null,
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
// the plain choices shown as buttons, with their look
const SIMPLE = { draw: "", scry: "", stop_drawing: "", borough_ability: "must", place: "", end_action: "", end_turn: "primary" };
const WHERE = { any: "borough", north: "north borough", south: "south borough", river: "river borough" };

// -- small helpers --------------------------------------------------------------------------

// Long words of names, their syllables marked: a name breaks there ("Amphi-theatre"), never inside
// a syllable; a word still too wide is drawn smaller (fitNames).
const SYLLABLES = ("Bat-ter-sea Hu-gue-nots Is-ling-ton Sal-va-tion Ca-the-dral Hamp-stead Fac-to-ries Green-wich " +
 "Found-ling Work-house South-wark Pawn-broker Wands-worth Alms-houses Ware-houses Mary-le-bone " +
 "Par-lia-ment Steam-boats Pad-ding-ton Shore-ditch Uni-ver-sity Camber-well Ken-sing-ton " +
 "Ber-mond-sey West-min-ster Ham-mer-smith In-sti-tu-tion Ob-ser-va-tory Under-ground Ba-zal-gette's " +
 "Bil-lings-gate Met-ro-pol-itan Am-phi-the-atre").trim().split(" ");
const SHY = new Map(SYLLABLES.map((w) => [w.replace(/-/g, ""), w.replace(/-/g, "\u00ad")]));
/** A name, made safe for HTML, with its long words' syllables marked by soft hyphens. */
const nameHtml = (name) => esc(name.replace(/[A-Za-z']+/g, (w) => SHY.get(w) || w));

/** A name with a word wider than its box is drawn a little smaller. */
function fitNames(scope) {
  const wide = [...scope.querySelectorAll(".lc-name, .bt-name")].filter((n) => n.scrollWidth > n.clientWidth + 1);
  for (const n of wide) {
    let size = parseFloat(getComputedStyle(n).fontSize);
    for (let i = 0; i < 6 && n.scrollWidth > n.clientWidth + 1; i++) {
      size *= 0.92;
      n.style.fontSize = `${size.toFixed(2)}px`;
    }
  }
}

// a move that takes loans without saying so in its name (taking a loan on purpose is not one)
const loansOf = (move) => (move && move.type !== "take_loan" && S.moves.choice(move) ? S.moves.choice(move).loans || 0 : 0);

/** Attributes of a clickable thing: a legal move (data-move), marked when it needs a loan, or a
 *  disabled one with its reason (read on a tap, and by screen readers). */
function act(k, move, why) {
  if (move) return ` data-k="${esc(k)}" data-move="${esc(moveKey(move))}"${loansOf(move) ? ` data-loans="${loansOf(move)}"` : ""}`;
  return ` data-k="${esc(k)}" aria-disabled="true" data-why="${esc(why)}"`;
}

const findMove = (pred) => S.moves.first(pred);
/** What choosing a thing does, in the server's words, to begin its name ("Discard Coffee House. "). */
const doing = (m) => (S.moves.choice(m) ? esc(S.moves.choice(m).label) + ". " : "");
const cardMove = (types, id) => findMove((m) => types.includes(m.type) && m.card === id);

/** Why a card (or a borough) cannot be chosen now: whose turn it is, or the server's reason. */
function whyNot(match, fallback = "Not a choice at this step") {
  return notYours() || reasonFor(S.ctx.view, match) || fallback;
}

// -- cards -----------------------------------------------------------------------------------

function effect(e) {
  const n = e.amount ?? e.count ?? 0;
  switch (e.do) {
    case "gain_money": return `<i class="s money">£${n}</i>`;
    case "gain_prestige": return `<i class="s now">${n}</i>`;
    case "gain_poverty": return `<i class="s pov">+${n}</i>`;
    case "alleviate_poverty": return `<i class="s pov">−${n}</i>`;
    case "draw": return `<i class="s draw">+${n}</i>`;
    case "money_per_borough":
      return `<i class="s money">£${n}</i><small>/${esc(WHERE[e.where])}</small>`;
    case "alleviate_per_borough":
      return `<i class="s pov">−${n}</i><small>/${esc(WHERE[e.where])}</small>`;
    case "prestige_per_colour":
      return `<i class="s now">${n}</i><small>/${esc(e.colour)} card</small>`;
    case "money_per_colour":
      return `<i class="s money">£${n}</i><small>/${esc(e.colour)} card</small>`;
    case "free_colour_discard": return `<small>next develop: no colour discard</small>`;
    default: return `<small>${esc(e.do)}</small>`;
  }
}

function payGlyph(a) {
  if (a.pay === "money") return `<i class="s pay">£${a.amount}</i><b class="arrow">→</b>`;
  if (a.pay === "discard") return `<i class="s discard">🂠</i><b class="arrow">→</b>`;
  return "";
}

/** A card in words: read by screen readers, and shown in full by the zoom. */
function cardLines(c) {
  const lines = [];
  if (c.kind === "pauper") lines.push("A pauper: it can never be developed; discard it to pay an activation to shed it");
  else if (c.kind === "action") lines.push(`Action card: ${c.on_play ? c.on_play.text : ""}`);
  else lines.push(`Develop: £${c.cost} and another ${c.colour} card discarded`);
  if (c.activation) lines.push(`Activate: ${c.activation.text.replace("⤵", "(then it flips face-down)")}`);
  if (c.ongoing) lines.push(`Always: ${c.ongoing.text}`);
  if (c.prestige) lines.push(`${c.prestige} end-game prestige`);
  return lines;
}
const cardText = (c) => [`${c.name} — ${COLOURS[c.colour] || c.colour}`, ...cardLines(c)].join("; ");

/** One card. opts: {k, move, why, cls, tag, faceDown, note, interactive} */
function card(ref, opts = {}) {
  const c = S.ctx.view.catalogue.cards[ref.key];
  const down = opts.faceDown;
  const interactive = opts.move || opts.why;
  const tag = interactive ? "button" : "div";
  const loans = loansOf(opts.move);
  const cls = `lc c-${c.colour}${down ? " down" : ""}${c.kind === "action" ? " action" : ""}${c.kind === "pauper" ? " pauper" : ""}` +
    `${opts.move ? (loans ? " loan" : " can") : ""}${opts.cls ? " " + opts.cls : ""}`;
  const text = cardText(c);
  const attrs = interactive ? act(opts.k, opts.move, opts.why) + ' type="button"' : "";
  const colour = COLOURS[c.colour] || c.colour;
  let body;
  if (down) {
    body = `<span class="lc-back" aria-hidden="true">❦</span><span class="lc-name">${nameHtml(c.name)}</span>` +
      `<span class="lc-band">${esc(colour)} · face-down</span>` +
      (c.prestige ? `<span class="lc-foot"><i class="s end">${c.prestige}</i></span>` : "");
  } else {
    let line = "";
    if (c.activation) line = payGlyph(c.activation) + c.activation.effects.map(effect).join("") + (c.activation.flips ? `<i class="s flip">⤵</i>` : "");
    else if (c.on_play) line = `<small class="k">Action:</small>` + c.on_play.effects.map(effect).join("");
    else if (c.kind === "pauper") line = `<small class="k">Pauper — cannot be developed</small>`;
    else if (!c.ongoing) line = `<small class="k">No ability</small>`;
    body =
      `<span class="lc-band"><span>${esc(colour)}</span><span class="era">${esc(c.era)}</span></span>` +
      `<span class="lc-head">${c.kind === "building" ? `<i class="s cost">£${c.cost}</i>` : "<span></span>"}` +
      `${c.prestige ? `<i class="s end">${c.prestige}</i>` : ""}</span>` +
      `<span class="lc-name">${nameHtml(c.name)}</span>` +
      `<span class="lc-act">${line}</span>` +
      (c.ongoing ? `<span class="lc-on">${esc(c.ongoing.text)}</span>` : "");
  }
  const notes = [opts.note, loans ? `needs ${loans === 1 ? "a £10 loan" : `${loans} £10 loans`}` : null].filter(Boolean);
  const note = notes.length ? `<span class="lc-note${loans ? " lc-loan" : ""}" aria-hidden="true">${esc(notes.join(" · "))}</span>` : "";
  const sr = `<span class="sr">${doing(opts.move)}${esc(text)}${notes.length ? ". " + esc(notes.join(", ")) : ""}${opts.why ? ". Not now: " + esc(opts.why) : ""}</span>`;
  return `<${tag} class="${cls}" data-card="${ref.id}" data-key="${esc(ref.key)}"${attrs}><span aria-hidden="true" class="lc-in">${body}</span>${note}${sr}</${tag}>`;
}

function borough(bkey, opts = {}) {
  const b = S.ctx.view.catalogue.boroughs[bkey];
  const interactive = opts.move || opts.why;
  const tag = interactive ? "button" : "div";
  const side = b.side === "north" ? "North of the Thames" : "South of the Thames";
  const text = `${b.name}: ${side}${b.river ? ", on the river" : ""}; costs £${b.cost}; draw ${b.draw}; +${b.prestige} prestige; ` +
    `${b.relief ? `−${b.relief} poverty; ` : ""}${b.text}`;
  const attrs = interactive ? act(opts.k, opts.move, opts.why) + ' type="button"' : "";
  const loans = loansOf(opts.move);
  return `<${tag} class="bt ${b.side}${opts.live ? " live" : ""}${opts.move ? (loans ? " loan" : " can") : ""}${opts.cls ? " " + opts.cls : ""}" data-borough="${esc(bkey)}"${attrs}>` +
    `<span aria-hidden="true" class="bt-in"><span class="bt-top"><i class="s cost">£${b.cost}</i><span class="bt-name">${nameHtml(b.name)}</span></span>` +
    `<span class="bt-side">${b.side === "north" ? "North" : "South"}${b.river ? " · river" : ""}${opts.live ? ' · <b class="live-tag">live</b>' : ""}</span>` +
    `<span class="bt-gain"><i class="s draw">+${b.draw}</i><i class="s now">${b.prestige}</i>` +
    `${b.relief ? `<i class="s pov">−${b.relief}</i>` : ""}</span>` +
    `${b.text ? `<span class="bt-text">${esc(b.text)}</span>` : ""}` +
    `${loans ? `<span class="lc-note lc-loan">needs ${loans === 1 ? "a £10 loan" : `${loans} £10 loans`}</span>` : ""}</span>` +
    `<span class="sr">${doing(opts.move)}${esc(text)}${opts.live ? " (live: its ability works)" : ""}${loans ? `. Needs ${plural(loans, "£10 loan")}` : ""}${opts.why ? ". Not now: " + esc(opts.why) : ""}</span></${tag}>`;
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

/** What the step asks for instead, when a thing is simply not part of it. */
function nowHint() {
  const p = S.ctx.view.prompt;
  return p ? `Now: ${p.text}` : "Not a choice now";
}

// -- sections --------------------------------------------------------------------------------

function statusSection(v) {
  const ctx = S.ctx;
  const phase = PHASE[v.step] ?? 0;
  const phases = ["Draw", "Action", "Hand limit", "End"].map((p, i) =>
    `<li${!v.over && i === phase ? ' class="now" aria-current="step"' : ""}>${p}${!v.over && i === phase ? ' <span class="sr">(now)</span>' : ""}</li>`).join("");
  const endgame = v.endgame.triggered && !v.over
    ? `<p class="lon-endgame" role="status">⚑ The city deck is empty — the endgame has begun: ${plural(v.endgame.final_turns_left, "final turn")} left.</p>` : "";
  // (whose turn it is, and what to do, the action bar says)
  return `<div class="lon-status"><p class="lon-turn"><b>Turn ${v.turn_no}</b>` +
    `${v.over ? "" : ` · <span class="lon-step">${esc(STEPS[v.step] || v.step)}</span>`}</p>` +
    `<ol class="lon-phases" aria-label="Turn order">${phases}</ol>` +
    `<p class="lon-supply"><span title="Cards left in the city deck">Deck: <b>${v.deck.count}</b>${v.deck.era ? ` · era <b>${esc(v.deck.era)}</b>` : ""}</span>` +
    `<span title="Loan tokens left in the box">Loans left: <b>${v.loan_supply}</b></span></p>${v.prompt ? allChoices(v) : ""}${endgame}</div>`;
}

/** Every legal choice as a list of buttons, folded away (each thing can also be clicked where it lies). */
function allChoices(v) {
  return `<details class="lon-all"><summary>List every choice (${v.prompt.choices.length})</summary><div class="lon-list">` +
    v.prompt.choices.map((c, i) => `<button type="button" class="lon-btn ${loansOf(c.move) ? "loan" : "can"}"${act(`list-${i}`, c.move)}>${esc(c.label)}${loansOf(c.move) ? ` <small>(needs ${plural(c.loans, "£10 loan")})</small>` : ""}</button>`).join("") +
    `</div></details>`;
}

// The decision's panel: the card being developed or activated, St Pancras' cards, the step's buttons
// and the lines answering a click (the frame lifts those into its action bar, beside the prompt).
function nowSection(v, me) {
  const ctx = S.ctx;
  const p = v.prompt;
  const parts = [];
  // the card being developed or activated: in my hand strip on my turn, here for the others
  if (v.turn.pending && !v.over && !(me && me.hand && v.current === ctx.seat)) {
    parts.push(`<div class="lon-pending"><span class="k">${pendingWord(v)}:</span>${card(v.turn.pending, { cls: "mini" })}</div>`);
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
  if (S.why && S.whySeq === ctx.seq && !S.whyHand) parts.push(`<p class="lon-why" role="status"><b>Not now:</b> ${esc(S.why)}</p>`);
  else parts.push(`<p class="lon-why" role="status" hidden></p>`);
  return `<div class="lon-now${p ? " mine" : ""}" data-prompt>${parts.join("")}</div>`;
}

function buttons(v, me) {
  const out = [];
  const b = (k, move, label, why, cls = "") =>
    `<button type="button" class="lon-btn${move ? " can" : ""}${cls ? " " + cls : ""}"${act(k, move, why)}>${label}</button>`;
  if (v.step === "action") {
    out.push(`<div class="lon-actions" role="group" aria-label="Choose your action">` + ACTIONS.map(([a, name, hint]) => {
      const m = findMove((x) => x.type === "choose_action" && x.action === a);
      return b(`action-${a}`, m, `<b>${name}</b> <small>${hint}</small>`, whyNot({ action: a }, nowHint()), "big");
    }).join("") + `</div>`);
  }
  // the step's plain choices, in the server's words (the cards and boroughs are clicked where they lie)
  const simple = v.prompt.choices.filter(({ move: m }) => SIMPLE[m.type] !== undefined && (m.type !== "draw" || m.from === "deck") &&
    (m.type !== "place" || m.stack === "new")).map(({ move: m, label }) => b(m.type.replace("_", "-"), m,
    esc(label) + (m.type === "end_action" && v.step === "run" ? ` <small>(+${me.run_poverty} poverty)</small>` : ""), null, SIMPLE[m.type]));
  const loan = findMove((x) => x.type === "take_loan");
  const repay = findMove((x) => x.type === "repay_loan");
  const money = [b("loan", loan, `Take a £${me.loan_amount} loan`, whyNot({ move: "take_loan" }, "Not available now"), "quiet"),
    b("repay", repay, `Repay a loan (£${me.repay_cost})`, whyNot({ move: "repay_loan" }, me.loans ? "Loans are repaid at the very start of your turn, before drawing" : "You have no loans to repay"), "quiet")];
  if (simple.length) out.push(`<div class="lon-simple" role="group" aria-label="Choices">${simple.join("")}</div>`);
  out.push(`<div class="lon-money" role="group" aria-label="Loans">${money.join("")}</div>`);
  return out.join("");
}

const pendingWord = (v) => (v.step.startsWith("develop") ? "Being developed" : "Being activated");

// The hand: a strip pinned to the bottom of the window (above a phone's action bar), so that a
// prompt asking for a card has it in view; its header says why a tapped card cannot be chosen.
function handSection(v, me) {
  if (!me || !me.hand) return "";
  const cards = v.catalogue.cards;
  const order = { brown: 0, blue: 1, pink: 2, grey: 3 };
  const hand = [...me.hand].sort((a, b) => (order[cards[a.key].colour] - order[cards[b.key].colour]) ||
    cards[a.key].name.localeCompare(cards[b.key].name) || a.id - b.id);
  const counts = {};
  for (const r of hand) counts[cards[r.key].colour] = (counts[cards[r.key].colour] || 0) + 1;
  const summary = Object.entries(counts).map(([c, n]) => `${n} ${COLOURS[c].toLowerCase()}`).join(", ");
  const types = ["develop", "discard_for_colour", "pay", "discard"];
  const body = hand.length ? hand.map((r) => {
    const move = cardMove(types, r.id);
    return card(r, { k: `hand-${r.id}`, move, why: move ? null : whyNot({ card: r.id }, nowHint()) });
  }).join("") : `<p class="empty">Your hand is empty.</p>`;
  const pending = v.turn.pending && !v.over && v.current === S.ctx.seat
    ? `<div class="lon-pending"><span class="k">${pendingWord(v)}</span>${card(v.turn.pending, { cls: "mini" })}</div>` : "";
  const asked = hand.some((r) => cardMove(types, r.id));
  const open = S.handOpen || asked;
  const why = S.why && S.whySeq === S.ctx.seq && S.whyHand;
  return `<section class="lon-hand${open ? "" : " folded"}${asked ? " asked" : ""}" aria-labelledby="lon-hand-h">` +
    `<div class="lon-hand-head"><h2 id="lon-hand-h">Your hand <small>${hand.length} of ${me.hand_limit}</small></h2>` +
    `<p class="lon-hand-note${why ? " why" : ""}"><span class="lon-hand-sum">${esc(summary)}</span>` +
    `<span class="lon-hand-why" role="status">${why ? `<b>Not now:</b> ${esc(S.why)}` : ""}</span></p>` +
    `<button type="button" class="lon-fold" data-fold aria-expanded="${open}" aria-controls="lon-hand-cards">${open ? "Fold ▾" : "Show ▴"}</button></div>` +
    `<div class="row cards${asked ? "" : " idle"}" id="lon-hand-cards"${open ? "" : " hidden"}>${pending}${body}</div></section>`;
}

function citySection(v, me) {
  const ctx = S.ctx;
  const seat = ctx.seat !== null && ctx.seat !== undefined;
  const boardWhy = notYours() || nowHint();
  // a row with no card is drawn low: an empty board takes little room
  const rows = v.board.rows.map((row, ri) => `<div class="slots${row.some(Boolean) ? "" : " bare"}" role="list" aria-label="${ri === 0 ? "Top row" : "Bottom row"}">` + row.map((r) => {
    if (!r) return `<div class="slot" role="listitem"><span class="sr">empty space</span></div>`;
    const move = seat ? findMove((m) => m.type === "draw" && m.from === "board" && m.card === r.id) : null;
    return `<div class="slot" role="listitem">${card(r, seat ? { k: `board-${r.id}`, move, why: move ? null : reasonFor(v, { card: r.id }) || boardWhy, cls: "mini" } : { cls: "mini" })}</div>`;
  }).join("") + `</div>`).join("");
  const deckMove = seat ? findMove((m) => m.type === "draw" && m.from === "deck") : null;
  const deckWhy = notYours() || (v.deck.count === 0 ? "The city deck is empty" : nowHint());
  const deckInner = `<span class="deck-back" aria-hidden="true">❦</span><span class="deck-n" aria-hidden="true"><b>${v.deck.count}</b> cards</span>` +
    `<span class="deck-era" aria-hidden="true">${v.deck.era ? `era ${esc(v.deck.era)}` : "empty"}</span><span class="sr">${doing(deckMove)}The city deck: ${v.deck.count} cards${v.deck.era ? `, era ${esc(v.deck.era)} on top` : ""}</span>`;
  const anyDraw = findMove((m) => m.type === "draw");
  const deck = seat
    ? `<button type="button" class="deck${deckMove ? " can" : ""}${anyDraw ? "" : " idle"}${v.deck.count === 0 ? " empty" : ""}"${act("deck", deckMove, deckWhy)}>${deckInner}</button>`
    : `<div class="deck${v.deck.count === 0 ? " empty" : ""}">${deckInner}</div>`;
  const buyWhyBase = notYours() || (v.step === "buy" ? null : nowHint());
  const market = v.market.length ? v.market.map((k) => {
    if (!seat) return borough(k);
    const move = findMove((m) => m.type === "buy" && m.borough === k);
    return borough(k, { k: `buy-${k}`, move, why: move ? null : buyWhyBase || reasonFor(v, { borough: k }) || "Not within reach now" });
  }).join("") : `<p class="empty">The market is empty.</p>`;
  return `<section class="lon-city" aria-label="The city"><div class="lon-boardwrap"><h2>The development board</h2>` +
    `<div class="lon-devboard${v.board.rows.some((row) => row.some(Boolean)) ? "" : " bare"}">${deck}<div class="rows${anyDraw ? "" : " idle"}">${rows}</div></div></div>` +
    `<div class="lon-marketwrap"><h2>The borough market <small>${plural(v.borough_deck, "borough")} to come</small></h2>` +
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
      return `<li class="buried c-${d.colour}${c.face_up ? "" : " down"}" data-key="${esc(c.key)}">` +
        `<span>${esc(d.name)}</span><small>${esc(COLOURS[d.colour])}${c.face_up ? "" : " · face-down"}${d.prestige ? ` · ${d.prestige}★` : ""}</small></li>`;
    }).join("");
    const top = st.cards[n - 1];
    let topHtml;
    const used = v.turn.activated.includes(top.id) && v.current === pl.seat;
    const note = used ? "activated" : st.built_this_turn ? "built this turn" : null;
    if (myTurn) {
      const move = cardMove(["activate", "flip"], top.id);
      topHtml = card(top, { k: `disp-${top.id}`, move, why: move ? null : whyNot({ card: top.id }, nowHint()), faceDown: !top.face_up, cls: "mini", note });
    } else topHtml = card(top, { faceDown: !top.face_up, cls: "mini", note });
    let place = "";
    if (myTurn && v.step === "develop_place") {
      const m = findMove((x) => x.type === "place" && x.stack === st.index);
      place = `<button type="button" class="lon-btn place${m ? " can" : ""}"${act(`place-${st.index}`, m, st.built_this_turn ? "Built this turn: place on another stack" : "Not available")}>Place here<span class="sr">: ${doing(m)}</span></button>`;
    }
    return `<li class="stack"><span class="sr">Stack ${st.index + 1}, ${plural(n, "card")}.</span>` +
      (buried ? `<ol class="buried-list" aria-label="Buried cards">${buried}</ol>` : "") + topHtml + place + `</li>`;
  });
  if (myTurn && v.step === "develop_place") {
    const m = findMove((x) => x.type === "place" && x.stack === "new");
    stacks.push(`<li class="stack new"><button type="button" class="newstack${m ? " can" : ""}"${act("place-new", m, "Not available")}><span aria-hidden="true">＋<br></span>New stack<span class="sr">: ${doing(m)}</span></button></li>`);
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
    return b.live ? borough(b.key, { live: true }) : `<div class="bt under" data-key="${esc(b.key)}">${nameHtml(v.catalogue.boroughs[b.key].name)}<span class="sr"> (covered: its ability no longer works)</span></div>`;
  }).join("");
  const stat = (label, value, title, cls = "") => `<span class="stat ${cls}" title="${esc(title)}">${label} <b>${value}</b></span>`;
  return `<section class="lon-player${mine ? " me" : ""}${current ? " current" : ""}" data-seat="${pl.seat}" aria-label="${esc(name)}${mine ? " (you)" : ""}">` +
    `<header><h2><span class="seatno">${pl.seat + 1}</span> ${esc(name)}${mine ? " <small>(you)</small>" : ""}` +
    `${current ? ' <span class="to-play">to play</span>' : ""}</h2>` +
    `<p class="stats">${panel(v, pl.seat).concat({ label: "Run the City", value: `+${pl.run_poverty} poverty`, title: "Poverty a Run the City would cost now" })
      .map((x) => stat(x.label, esc(x.value), x.title, x.warn ? "warn" : "")).join(" ")}</p></header>` +
    `<div class="pl-body"><div class="pl-display"><h3>Display <small>${plural(pl.stacks.length, "stack")}</small></h3>` +
    (stacks.length ? `<ol class="stacks${findMove((m) => m.type === "activate" || m.type === "flip") ? "" : " idle"}">${stacks.join("")}</ol>` : `<p class="empty">No cards developed yet.</p>`) + `</div>` +
    `<div class="pl-boroughs"><h3>Boroughs <small>${pl.boroughs.length}${live ? " · top one live" : ""}</small></h3>` +
    (bs ? `<div class="bpile">${bs}</div>` : `<p class="empty">None yet.</p>`) + `</div></div></section>`;
}

function playersSection(v, mine) {
  // your own display sits just under your hand; everybody else's after the city, in seat order
  const seat = S.ctx.seat;
  const list = v.players.filter((p) => (p.seat === seat) === mine);
  return list.length ? `<div class="lon-players${mine ? " mine" : ""}">${list.map((p) => playerSection(v, p)).join("")}</div>` : "";
}

// The final scores: drawn by a module of their own, fetched when the game is over.
function finalSection(v) {
  if (!v.over) return "";
  if (!S.final) {
    S.final = import("/static/games/london/final.js").then((m) => m.ready.then(() => m)).then((m) => {
      S.final = m;
      if (S.root && S.ctx) render(S.root, S.ctx);
    });
    return "";
  }
  return S.final.section ? S.final.section(v, S.ctx) : "";
}

// -- drawing ---------------------------------------------------------------------------------

// Your own display and boroughs (which Run the City works from) sit just above your hand.
const ORDER = ["final", "status", "now", "city", "mine", "hand", "players"];

function setup(root) {
  S.root = root;
  root.classList.add("lon");
  // the board is the renderer's, but for the frame's action bar, which stays where it is
  for (const n of [...root.children]) if (n.id !== "action-bar") n.remove();
  S.sections = makeSections(root, "lon", ORDER);
  root.addEventListener("click", onClick);
  // the card zoom (the kit's): what it shows is drawn by zoom.js, fetched when first asked for
  attachZoom(root, ".lc, .buried, .bt[data-borough], .bt.under", (node) => import("/static/games/london/zoom.js")
    .then((m) => m.describe(node, { card, borough, esc, view: S.ctx && S.ctx.view })));
  // the room the pinned hand takes, kept free below the page's end and beside the things scrolled to
  // (--game-pinned-h: what a phone's page has pinned above the frame's bar, for the frame to see)
  new ResizeObserver(() => {
    const el = S.sections.hand.el;
    const h = el.hidden ? 0 : Math.ceil(el.getBoundingClientRect().height);
    root.style.setProperty("--lon-hand-h", `${h}px`);
    const fixed = getComputedStyle(el).position === "fixed";
    document.documentElement.style.setProperty("--game-pinned-h", `${fixed ? h : 0}px`);
  }).observe(S.sections.hand.el);
  let resized = null;
  window.addEventListener("resize", () => { clearTimeout(resized); resized = setTimeout(() => fitNames(root), 150); });
}

function patch(name, html) {
  const before = S.sections[name].html;
  patchSection(S.sections[name], html);
  return before !== S.sections[name].html;
}

/** A new prompt's first target comes into view: a hand card in its strip (the page does not
 *  move), a place on the board scrolled to, just enough (once per prompt, never on a redraw). */
function showTarget() {
  const t = [...S.root.querySelectorAll("[data-move]:not([aria-disabled])")].find((n) => !n.closest("#action-bar, details"));
  if (!t) return;
  const strip = t.closest(".lon-hand .row");
  if (strip) {
    const r = t.getBoundingClientRect(); const sr = strip.getBoundingClientRect();
    if (r.left < sr.left || r.right > sr.right) strip.scrollLeft += r.left - sr.left - 8;
  }
  if (strip && getComputedStyle(S.sections.hand.el).position === "fixed") return;
  // clear of the action bar (on top, or at the bottom of a phone) and the pinned hand
  const r = t.getBoundingClientRect();
  const bar = document.getElementById("action-bar");
  const b = bar ? bar.getBoundingClientRect() : { top: 0, bottom: 0, height: 0 };
  const barBelow = bar && getComputedStyle(bar).position === "fixed";
  const hand = strip ? 0 : S.sections.hand.el.getBoundingClientRect().height;
  const top = barBelow ? 0 : Math.max(0, b.bottom);
  const bottom = window.innerHeight - (barBelow ? b.height : 0) - hand;
  if (r.top < top || r.bottom > bottom) t.scrollIntoView({ block: "nearest" });
}

export function render(root, ctx) {
  if (S.root !== root) setup(root);
  S.ctx = ctx;
  const v = ctx.view;
  if (!v) return;
  if (!ctx.pending) S.sent = null;
  S.moves = new Moves(ctx);
  const me = ctx.seat !== null && ctx.seat !== undefined ? v.players[ctx.seat] : null;
  const focused = focusedKey(root);

  const changed = [
    patch("final", finalSection(v)) && "final",
    patch("status", statusSection(v)) && "status",
    patch("now", nowSection(v, me)) && "now",
    patch("city", citySection(v, me)) && "city",
    patch("mine", playersSection(v, true)) && "mine",
    patch("hand", handSection(v, me)) && "hand",
    patch("players", playersSection(v, false)) && "players",
  ].filter(Boolean);

  root.classList.toggle("lon-mine", !!v.prompt);
  root.classList.toggle("lon-waiting", !!ctx.pending);
  root.classList.toggle("lon-over", !!v.over);
  root.classList.toggle("lon-has-hand", Boolean(me && me.hand));
  root.dataset.seq = String(ctx.seq);
  root.dataset.step = v.over ? "over" : v.step;
  root.querySelectorAll(".sending").forEach((n) => n.classList.remove("sending"));
  if (S.sent && ctx.pending) {
    const n = root.querySelector(`[data-k="${CSS.escape(S.sent)}"]`);
    if (n) n.classList.add("sending");
  }
  restoreFocus(root, focused);
  for (const name of changed) fitNames(S.sections[name].el);
  // what the last move put down (a developed card, a bought borough, a refilled board) glows
  markFresh(root, ".lon-player [data-card], .lon-player .bt[data-borough], .lon-city .slot [data-card]",
    (n) => `${n.closest("[data-seat]") ? n.closest("[data-seat]").dataset.seat : "city"}:${n.dataset.card || n.dataset.borough}`);
  // a new prompt of mine: what it asks for comes into view (once the frame has drawn its bar)
  const prompt = v.prompt && !ctx.pending ? `${ctx.seq}` : null;
  if (prompt && prompt !== S.lastPrompt) {
    closeZoom(); // what it showed belongs to the last prompt
    requestAnimationFrame(() => requestAnimationFrame(showTarget));
  }
  if (!ctx.pending) S.lastPrompt = prompt;
}

/** The lines this game adds to each player's panel beside the board. */
export function panel(view, seat) {
  const pl = view.players && view.players[seat];
  if (!pl) return [];
  return [
    { label: "£", value: `${pl.money}`, title: "Money" },
    { label: "Loans", value: pl.loans ? `${pl.loans}` : "0", title: `${plural(pl.loans, "loan")}: −7 VP each if unpaid at the end`, warn: pl.loans > 0 },
    { label: "Poverty", value: `${pl.poverty}`, title: "Poverty", warn: pl.poverty >= 5 },
    { label: "Prestige", value: `${pl.prestige}`, title: "Prestige scored so far" },
    { label: "Hand", value: `${pl.hand_count}/${pl.hand_limit}`, title: "Cards in hand / hand limit" },
  ];
}
panel.more = (view, seat) => {
  const pl = view.players && view.players[seat];
  if (!pl || !pl.stacks.length || !view.catalogue) return null;
  const p = document.createElement("p");
  p.className = "seat-more";
  p.textContent = "Display: " + pl.stacks.map((st) => {
    const top = st.cards[st.cards.length - 1];
    const c = view.catalogue.cards[top.key];
    return `${c.name}${top.face_up ? "" : " (face-down)"}`;
  }).join(", ");
  return p;
};

function onClick(e) {
  const fold = e.target.closest("[data-fold]");
  if (fold && S.root.contains(fold)) { toggleHand(); return; }
  const t = e.target.closest("[data-move],[data-why]");
  if (!t || !S.root.contains(t)) return;
  const ctx = S.ctx;
  if (t.getAttribute("aria-disabled") === "true") {
    // why not: beside the hand for a hand card (nothing on the screen moves), in the action bar otherwise
    S.why = t.dataset.why;
    S.whySeq = ctx.seq;
    S.whyHand = Boolean(t.closest(".lon-hand"));
    const line = S.root.querySelector(S.whyHand ? ".lon-hand-why" : ".lon-why");
    if (line) {
      line.hidden = false;
      line.innerHTML = `<b>Not now:</b> ${esc(S.why)}`;
      if (S.whyHand) line.parentElement.classList.add("why");
    }
    S.sections.now.html = null;
    S.sections.hand.html = null;
    return;
  }
  const move = S.moves.byKey.get(t.dataset.move);
  if (!move || ctx.pending) return;
  const loans = loansOf(move);
  if (loans) {
    const choice = S.moves.choice(move);
    const me = ctx.view.players[ctx.seat];
    const what = loans === 1 ? "a £10 loan" : `${loans} £10 loans`;
    confirmMove({
      title: `This takes ${what}`,
      text: `${choice ? choice.label : "This move"}: you have £${me.money}, so it takes ${what}. ` +
        `Each loan costs 7 VP at the end of the game unless you repay it (£15 at the start of a turn).`,
      yes: `Take ${what} and do it`, no: "Cancel",
    }).then((ok) => { if (ok && S.ctx === ctx && !ctx.pending) sendFrom(t, move); });
    return;
  }
  sendFrom(t, move);
}

/** Folds the hand strip away, or opens it again (it opens by itself when a prompt asks for a card). */
function toggleHand() {
  S.handOpen = !S.handOpen;
  S.sections.hand.html = null;
  render(S.root, S.ctx);
  const b = S.root.querySelector("[data-fold]");
  if (b) b.focus({ preventScroll: true });
}

function sendFrom(t, move) {
  const ctx = S.ctx;
  S.why = null;
  S.sent = t.dataset.k;
  if (ctx.send(move) === false) return;
  t.classList.add("sending");
  S.root.classList.add("lon-waiting");
  const line = S.root.querySelector(".lon-why");
  if (line && line.isConnected) { line.hidden = false; line.className = "lon-why lon-sending"; line.innerHTML = '<span class="dot" aria-hidden="true"></span> Sending your move…'; }
  S.sections.now.html = null;
}
