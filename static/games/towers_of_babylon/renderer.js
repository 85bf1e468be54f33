// Towers of Babylon's table: both play mats, this seat's hand and the decision of the moment,
// drawn as HTML from the view. Every clickable thing carries exactly one listed move (data-move)
// or selects a card whose listed moves then show. A minion's card outline turns (upright, sideways,
// upside down); its name, numbers and state stay upright and in words.

import { attachZoom, esc, importModule, focusedKey, makeSections, markFresh, moveKey, Moves, patchSection, plural, restoreFocus } from "/static/js/kit.js";

// the table page draws no prompt line or result box of its own above this board
export const ownPrompt = true;
export const ownResult = true;

const S = {
  root: null, ctx: null, moves: null, sections: {}, sel: null, mull: [], queue: [], paste: null,
  why: null, whySeq: -1, sent: null, pay: null, fold: false, aimed: null, aimedStep: null, help: null, deck: null,
};

const ZONES = [["ramparts", "Ramparts", "Defenders"], ["tower", "Tower", "Builders"], ["battlefield", "Battlefield", "Raiders"]];
const ZONE_NAME = { ramparts: "Ramparts", tower: "Tower", battlefield: "Battlefield" };
const STATUS = { ready: "Ready", immobile: "Immobile", exhausted: "Exhausted" };
const TURNED = { ready: "upright", immobile: "sideways", exhausted: "upside down" };
const KIND = { minion: "Minion", command: "Command", invocation: "Invocation", witchery: "Witchery" };
const WINDOW = { any_time: "at any time", friendly_enters: "when a friendly minion enters", enemy_attacking: "when an enemy minion attacks" };
const SHAPE = { common: "●", uncommon: "◆", rare: "★", super_rare: "✦" };
const PHASE = {
  deck: "choosing decks", mulligan: "choosing cards to put back", start: "start of turn", main: "main phase",
  defend: "answering an attack", twin: "Twinstrike", offering: "an offering", over: "the game is over",
};

// the four faction symbols (flame, sun, wave, mountain), drawn once and used everywhere
const SPRITE = `<svg class="tob-sprite" aria-hidden="true" focusable="false" width="0" height="0"><defs>` +
  `<symbol id="tob-fire" viewBox="0 0 24 24"><path d="M12 1.5c.6 4.3 5.8 6.6 5.8 12a5.8 5.8 0 0 1-11.6.2c0-3 1.8-4.6 2.5-7 1.9 1.4 2.7 3.3 2.7 5.3 1.6-2.6 1.4-6.3.6-10.5z"/></symbol>` +
  `<symbol id="tob-light" viewBox="0 0 24 24"><circle cx="12" cy="12" r="5"/><path d="M12 1v4M12 19v4M1 12h4M19 12h4M4.2 4.2l2.8 2.8M17 17l2.8 2.8M4.2 19.8 7 17M17 7l2.8-2.8" stroke="currentColor" stroke-width="2.2" stroke-linecap="round"/></symbol>` +
  `<symbol id="tob-water" viewBox="0 0 24 24"><path d="M1.5 8.5c3-3 5.5-3 8 0s5.5 3 7 0 5-3 6 0M1.5 16c3-3 5.5-3 8 0s5.5 3 7 0 5-3 6 0" fill="none" stroke="currentColor" stroke-width="2.6" stroke-linecap="round"/></symbol>` +
  `<symbol id="tob-earth" viewBox="0 0 24 24"><path d="M1 21 9 5.5l4.2 7.4L16 9l7 12z"/></symbol>` +
  `</defs></svg>`;

const glyph = (f, cls = "g") => `<svg class="${cls} f-${f}" aria-hidden="true" focusable="false"><use href="#tob-${f}"/></svg>`;

// -- small helpers

const V = () => S.ctx.view;
const card = (id) => V().cards[id];
const faction = (id) => (V().factions || []).find((f) => f.id === id) || { name: id };
const rarity = (id) => (V().rarities || []).find((r) => r.id === id) || { name: id };
const fill = (text) => String(text || "").replace(/\{seat:(\d+)\}/g, (_, n) => S.ctx.nameOf(+n));
const mySeat = () => (S.ctx.seat === null || S.ctx.seat === undefined ? null : S.ctx.seat);
const nameOf = (seat) => S.ctx.nameOf(seat);
const whose = (seat) => (seat === mySeat() ? "your" : `${nameOf(seat)}'s`);

function minionOf(iid) {
  for (const pl of V().players) for (const m of pl.minions) if (m.iid === iid) return { m, owner: pl.seat };
  return null;
}
function cardOfIid(iid) {
  for (const pl of V().players) {
    for (const list of [pl.hand || [], pl.known_hand, pl.sacrifice, pl.discard, pl.invocations]) {
      const r = list.find((x) => x.iid === iid);
      if (r) return r.card;
    }
  }
  const m = minionOf(iid);
  return m ? m.m.card : null;
}

/** A card's cost in words and symbols: "5 power, 2 of them Fire". */
function costWords(c) {
  if (c.kind === "witchery") return `${c.cost} transformed power`;
  return `${c.cost} power${c.specific ? `, ${c.specific} of them ${faction(c.faction).name}` : ""}`;
}

function keywordsOf(c) {
  const all = V().keywords || [];
  return (c.keywords || []).map((k) => all.find((x) => x.id === k)).filter(Boolean);
}

/** Every word of a card, for screen readers and the zoom. */
function cardWords(c) {
  const parts = [`${c.name}: ${faction(c.faction).name} ${KIND[c.kind]}${c.type ? ` (${c.type})` : ""}`,
    `${rarity(c.rarity).name.toLowerCase()}`, `costs ${costWords(c)}`];
  if (c.kind === "minion") parts.push(`construction ${c.construction}, might ${c.might}, health ${c.health}`);
  if (c.window) parts.push(`played ${WINDOW[c.window]}`);
  if (c.text) parts.push(c.text);
  for (const k of keywordsOf(c)) parts.push(`${k.name}: ${k.meaning}`);
  return parts.join(". ");
}

// the way a play pays (its "pay": Power Source symbols) as a key; its label ends ", paying …"
const payOf = (m) => (m.pay ? m.pay.join() : "");
const PAYING = ", paying ";

const act = (k, move) => ` data-k="${esc(k)}" data-move="${esc(moveKey(move))}"`;
const choiceLabel = (move) => { const c = S.moves.choice(move); return fill(c ? c.label : move.type); };

// parts fetched on first need (help.js, deck.js), given these helpers; the board is drawn again
// when one comes
const T = { S, V, card, faction, esc, plural, glyph, act, buttons, minionOf, keywordsOf, costWords, nameOf, mySeat, handCard,
  draw: () => draw(), WINDOW, STATUS, TURNED, ZONE_NAME };
const loaded = {};
function fetchPart(name) {
  if (!loaded[name]) {
    loaded[name] = importModule(new URL(`./${name}.js`, import.meta.url).href)
      .then(async (m) => { if (m.styled) await m.styled; S[name] = m; if (S.ctx) draw(); return m; });
    loaded[name].catch(() => { loaded[name] = null; });
  }
  return loaded[name];
}

// -- what may be clicked now

/** Which hand cards, minions, towers and zones carry a move (or select something) right now. */
function plan(v) {
  const P = { hand: new Map(), mn: new Map(), tower: new Map(), zone: new Map(), selMoves: [], selectable: new Set(), pays: new Map() };
  const moves = [...S.moves.byKey.values()];
  const kind = v.prompt ? v.prompt.kind : null;
  if (!kind || S.ctx.pending) return P;
  for (const m of moves) {
    if ((m.type === "play" || m.type === "offer") && !P.hand.has(m.card)) P.hand.set(m.card, "sel");
    if (["move", "build", "attack"].includes(m.type)) P.selectable.add(m.minion);
    if (m.type === "block" || m.type === "strike") P.mn.set(m.minion, m);
  }
  if (kind === "mulligan") for (const r of v.players[mySeat()].hand || []) P.hand.set(r.iid, "toggle");
  // a selection that is no longer possible is forgotten
  if (S.sel && !(S.sel.t === "h" ? P.hand.has(S.sel.iid) : P.selectable.has(S.sel.iid))) S.sel = null;
  if (!S.sel) return P;
  if (S.sel.t === "h") {
    const mine = moves.filter((m) => (m.type === "play" || m.type === "offer") && m.card === S.sel.iid);
    // several ways to pay: a play per way, the cheapest for later listed first (so preselected);
    // the targets and the play button then carry the way chosen
    for (const m of mine) if (m.pay && !P.pays.has(payOf(m))) P.pays.set(payOf(m), m);
    if (P.pays.size && !(S.pay && S.pay.iid === S.sel.iid && P.pays.has(S.pay.key))) S.pay = { iid: S.sel.iid, key: P.pays.keys().next().value };
    P.selMoves = mine.filter((m) => !m.pay || payOf(m) === S.pay.key);
    for (const m of P.selMoves) if (m.type === "play" && m.target >= 0) P.mn.set(m.target, m);
  } else {
    P.selMoves = moves.filter((m) => ["move", "build", "attack"].includes(m.type) && m.minion === S.sel.iid);
    for (const m of P.selMoves) {
      if (m.type === "attack" && m.target >= 0) P.mn.set(m.target, m);
      if (m.type === "attack" && m.target < 0) P.tower.set(1 - mySeat(), m);
      if (m.type === "move") P.zone.set(m.zone, m);
    }
  }
  return P;
}

// -- cards in hand

// a card in hand is a button: playable, it selects (or toggles); else a tap says why not
function handCard(ref, P, opts = {}) {
  const c = card(ref.card);
  const how = P ? P.hand.get(ref.iid) : null;
  const selected = (S.sel && S.sel.t === "h" && S.sel.iid === ref.iid) || (how === "toggle" && S.mull.includes(ref.iid));
  const live = !opts.zoom && !S.ctx.replay;
  const attrs = live ? ` type="button" data-k="h-${ref.iid}" data-act="${how || "why"}"` +
    (how ? (selected ? ' aria-pressed="true"' : how === "toggle" ? ' aria-pressed="false"' : "") : ' aria-disabled="true"') : "";
  const tag = live ? "button" : "div";
  const f = c.faction;
  const spec = c.kind === "witchery" ? `<span class="tc-tp">transformed</span>` : glyph(f).repeat(c.specific);
  const stats = c.kind === "minion"
    ? `<span class="tc-stats"><i>⚒${c.construction}</i><i>⚔${c.might}</i><i>♥${c.health}</i></span>` : "";
  const sub = c.kind === "minion" ? c.type : c.kind === "witchery" ? WINDOW[c.window] : "";
  const note = selected ? `<span class="tc-note" aria-hidden="true">✓ ${how === "toggle" ? "to put back" : "selected"}</span>` : "";
  return `<${tag} class="tc f-${f} k-${c.kind}${how ? " can" : ""}${selected ? " sel" : ""}${opts.cls ? " " + opts.cls : ""}" data-card="${ref.iid}" data-key="${esc(ref.card)}"${attrs}>` +
    `<span class="tc-in" aria-hidden="true">` +
    `<span class="tc-top"><b class="tc-cost${c.kind === "witchery" ? " tp" : ""}">${c.cost}</b><span class="tc-spec">${spec}</span>${glyph(f, "g tc-f")}</span>` +
    `<span class="tc-name">${esc(c.name)}</span>` +
    `<span class="tc-kind">${KIND[c.kind]}${sub ? ` · ${esc(sub)}` : ""}</span>${stats}` +
    `<span class="tc-text">${esc((c.text || "").replace(/^Witchery — [^:]*: /, ""))}</span>` +
    `<span class="tc-rar r-${c.rarity}"><span class="shape">${SHAPE[c.rarity]}</span> ${esc(rarity(c.rarity).name)}</span>${note}</span>` +
    `<span class="sr">${esc(cardWords(c))}${selected ? ". Selected" : ""}</span></${tag}>`;
}

// -- the mats

function minionTile(m, owner, P, v) {
  const c = card(m.card);
  const move = P.mn.get(m.iid);
  const selectable = owner === mySeat() && P.selectable.has(m.iid);
  const selected = S.sel && S.sel.t === "m" && S.sel.iid === m.iid;
  const a = v.attack;
  const roles = [];
  if (a && a.attacker === m.iid) roles.push("attacking");
  if (a && a.target === m.iid) roles.push("attacked");
  if (a && a.blocker === m.iid) roles.push("blocking");
  let attrs = "";
  let hint = "";
  if (move) {
    attrs = ` type="button"${act(`m-${m.iid}`, move)}`;
    hint = choiceLabel(move);
  } else if (selectable) {
    attrs = ` type="button" data-k="m-${m.iid}" data-act="sel" aria-pressed="${selected ? "true" : "false"}"`;
    hint = "choose what it does";
  }
  const tag = attrs ? "button" : "div";
  // (reached by the keyboard, for the zoom)
  if (!attrs && !S.ctx.replay) attrs = ' tabindex="0"';
  const hp = m.damage ? `${m.health - m.damage}/${m.health}` : `${m.health}`;
  const sr = `${hint ? `${hint}. ` : ""}${c.name}, ${whose(owner)} ${ZONE_NAME[m.zone]}: ${STATUS[m.status]} (${TURNED[m.status]}); construction ${m.construction}, might ${m.might}, ` +
    `health ${m.health}${m.damage ? `, ${plural(m.damage, "damage marker")}` : ""}${m.sentenced ? ", Sentenced" : ""}` +
    `${roles.length ? `; ${roles.join(", ")}` : ""}`;
  return `<${tag} class="mn f-${c.faction} s-${m.status}${move ? " can target" : selectable ? " can" : ""}${selected ? " sel" : ""}${roles.map((r) => " " + r).join("")}" ` +
    `data-mn="${m.iid}" data-card="${m.iid}" data-key="${esc(m.card)}"${attrs}>` +
    `<span class="mn-card" aria-hidden="true"><span class="mn-top"></span>${glyph(c.faction)}</span>` +
    `<span class="mn-face" aria-hidden="true"><span class="mn-name">${esc(c.name)}</span>` +
    `<span class="mn-st"><i>⚒${m.construction}</i><i>⚔${m.might}</i><i class="${m.damage ? "hurt" : ""}">♥${hp}</i></span>` +
    `<span class="mn-state">${STATUS[m.status]}</span></span>` +
    (m.damage ? `<span class="mk dmg" aria-hidden="true">${m.damage}</span>` : "") +
    (m.sentenced ? `<span class="mk sen" aria-hidden="true">⚖</span>` : "") +
    (roles.length ? `<span class="mn-role" aria-hidden="true">${roles.join(" · ")}</span>` : "") +
    `<span class="sr">${esc(sr)}</span></${tag}>`;
}

function sources(list) {
  if (!list.length) return `<span class="none">none</span>`;
  const count = {};
  for (const f of list) count[f] = (count[f] || 0) + 1;
  return Object.entries(count).map(([f, n]) => `<span class="src f-${f}" title="${esc(faction(f).name)}">${glyph(f)}<b>${n}</b>` +
    `<span class="sr"> ${n} ${esc(faction(f).name)}</span></span>`).join("");
}

function track(value, max, label, cls) {
  // the level track to 50 (ticks every ten) or the turn counter to 15 (one pip a turn)
  let marks = "";
  if (cls === "lvl") {
    for (let i = 0; i <= max; i += 10) marks += `<line x1="${1 + (i / max) * 100}" x2="${1 + (i / max) * 100}" y1="1" y2="11"/>`;
    const w = (Math.min(value, max) / max) * 100;
    return `<svg class="trk-svg lvl" viewBox="0 0 102 12" preserveAspectRatio="none" aria-hidden="true" focusable="false">` +
      `<rect class="bg" x="1" y="3" width="100" height="6"/><rect class="fg" x="1" y="3" width="${w.toFixed(2)}" height="6"/>${marks}</svg>`;
  }
  for (let i = 0; i < max; i++) marks += `<rect class="${i < value ? "fg" : "bg"}" x="${i * 8 + 1}" y="2" width="6" height="8" rx="1"/>`;
  return `<svg class="trk-svg pips" viewBox="0 0 ${max * 8 + 2} 12" aria-hidden="true" focusable="false">${marks}</svg>`;
}

function mat(v, pl, P) {
  const mine = pl.seat === mySeat();
  const name = nameOf(pl.seat);
  const turn = !v.result && v.active === pl.seat;
  const towerMove = P.tower.get(pl.seat);
  const towerIn = `<span class="trk-l">Tower</span>${track(pl.tower, v.goal, "Tower", "lvl")}<span class="trk-n"><b>${pl.tower}</b>/${v.goal}</span>` +
    `<span class="sr">${esc(whose(pl.seat))} Tower: ${pl.tower} levels of ${v.goal}${towerMove ? `. ${esc(choiceLabel(towerMove))}` : ""}</span>`;
  const attacked = v.attack && v.attack.target < 0 && minionOf(v.attack.attacker) && minionOf(v.attack.attacker).owner !== pl.seat;
  const tower = towerMove
    ? `<button type="button" class="trk tower can target"${act(`t-${pl.seat}`, towerMove)}>${towerIn}<span class="trk-go" aria-hidden="true">⚔ Attack</span></button>`
    : `<div class="trk tower${attacked ? " attacked" : ""}">${towerIn}${attacked ? `<span class="trk-go" aria-hidden="true">attacked</span>` : ""}</div>`;
  const pile = (label, n, key, extra = "") => `<span class="pile"${key ? ` data-pile="${pl.seat}:${key}"` : ""}><small>${label}</small><b>${n}</b>${extra}</span>`;
  const top = (list) => (list.length ? `<span class="pile-top">${esc(card(list[list.length - 1].card).name)}</span>` : "");
  const known = pl.known_hand.length && !mine ? `<span class="pile-top">knows: ${esc(pl.known_hand.map((r) => card(r.card).name).join(", "))}</span>` : "";
  const zones = ZONES.map(([z, zn, role]) => {
    const list = pl.minions.filter((m) => m.zone === z);
    const drop = mine ? P.zone.get(z) : null;
    return `<div class="zone z-${z}${drop ? " drop" : ""}" data-zone="${z}"><h3>${zn} <small>${role}</small></h3><div class="tiles">` +
      list.map((m) => minionTile(m, pl.seat, P, v)).join("") +
      (drop ? `<button type="button" class="tob-drop"${act(`z-${z}`, drop)}>＋ Move here<span class="sr">: ${esc(choiceLabel(drop))}</span></button>` : "") +
      (!list.length && !drop ? `<span class="empty">empty</span>` : "") + `</div></div>`;
  }).join("");
  const inv = pl.invocations.length
    ? `<p class="mat-inv" data-pile="${pl.seat}:invocations"><small>Invocations waiting:</small> ${esc(pl.invocations.map((r) => card(r.card).name).join(", "))}</p>` : "";
  return `<section class="mat${mine ? " me" : " opp"}${turn ? " turn" : ""}" data-seat="${pl.seat}" aria-label="${esc(name)}${mine ? " (you)" : ""}: play mat">` +
    `<header class="mat-h"><h2><span class="seatno">${pl.seat + 1}</span> ${esc(name)}${mine ? " <small>(you)</small>" : ""}` +
    `${turn ? ' <span class="to-play">to play</span>' : ""}${pl.deck_name ? ` <small class="deckname">${esc(pl.deck_name)}</small>` : ""}</h2>` +
    `${tower}<div class="trk turns"><span class="trk-l">Turn</span>${track(pl.turns, v.last_turn, "Turn", "pips")}<span class="trk-n"><b>${pl.turns}</b>/${v.last_turn}</span>` +
    `<span class="sr">${esc(whose(pl.seat))} turn counter: ${pl.turns} of ${v.last_turn}</span></div></header>` +
    `<div class="piles">${pile("Deck", pl.deck)}${pile("Hand", pl.hand_count, pl.known_hand.length && !mine ? "known_hand" : null, known)}` +
    `${pile("Sacrifice", pl.sacrifice.length, "sacrifice", top(pl.sacrifice))}${pile("Discard", pl.discard.length, "discard", top(pl.discard))}` +
    `<span class="pile power"><small>Available power</small><span class="srcs">${sources(pl.available)}</span></span>` +
    `<span class="pile power"><small>Exhausted power</small><span class="srcs">${sources(pl.exhausted)}</span></span>` +
    `<span class="pile tp"><small>Transformed</small><b>${pl.transformed}</b></span></div>${inv}` +
    `<div class="zones">${zones}</div></section>`;
}

// -- the decision

// (whose turn it is, and what to do, the action bar says)
function statusLine(v) {
  const active = v.active !== null && v.active !== undefined;
  const turn = active ? `Turn ${v.players[v.active].turns} of ${v.last_turn}` : v.result ? "The end" : "Before the first turn";
  return `<p class="tob-status"><b>${turn}</b>${v.result ? "" : ` · <span>${esc(PHASE[v.phase] || v.phase)}</span>`}</p>`;
}

function attackLine(v) {
  const a = v.attack;
  if (!a) return "";
  const att = minionOf(a.attacker);
  if (!att) return "";
  const tgt = a.target >= 0 ? minionOf(a.target) : null;
  const what = a.target < 0 ? `${whose(1 - att.owner)} Tower` : tgt ? `${whose(tgt.owner)} ${card(tgt.m.card).name}` : "a minion that has left";
  const blk = a.blocker >= 0 && minionOf(a.blocker) ? ` — blocked by ${card(minionOf(a.blocker).m.card).name}` : "";
  const who = att.owner === mySeat() ? "Your" : `${nameOf(att.owner)}'s`;
  return `<p class="tob-attack" role="status"><span aria-hidden="true">⚔</span> ${esc(who)} <b>${esc(card(att.m.card).name)}</b> (might ${att.m.might}) attacks <b>${esc(what)}</b>${esc(blk)}.</p>`;
}

// beside the ways to pay (quiet), a play's words stay (nothing moves); its name ends with the way
function buttons(list, cls = "", quiet = false) {
  return list.map((m) => {
    const label = choiceLabel(m);
    const i = quiet && m.pay ? label.lastIndexOf(PAYING) : -1;
    return `<button type="button" class="tob-btn${cls ? " " + cls : ""}"${act(`b-${moveKey(m)}`, m)}` +
      (i < 0 ? `>${esc(label)}` : ` aria-label="${esc(label)}">${esc(label.slice(0, i))}`) + `</button>`;
  }).join("");
}

/** The ways to pay for the selected card, as Power Source symbols; one is always chosen. */
function payRow(P) {
  if (P.pays.size < 2) return "";
  const ways = [...P.pays].map(([k, m], i) => {
    const on = k === S.pay.key;
    const label = choiceLabel(m);
    return `<button type="button" class="tob-pay${on ? " on" : ""}" data-act="pay" data-pay="${esc(k)}" data-k="pay-${esc(k)}" aria-pressed="${on}">` +
      `<span class="tick" aria-hidden="true">${on ? "✓" : ""}</span>${m.pay.map((f) => `<span class="pay-s f-${f}" aria-hidden="true">${glyph(f)}</span>`).join("")}` +
      `<span class="sr">${esc(label.slice(label.lastIndexOf(PAYING) + PAYING.length))}</span>${i ? "" : "<small>best for later</small>"}</button>`;
  }).join("");
  return `<div class="tob-pays" role="group" aria-labelledby="tob-pays-h"><span id="tob-pays-h">Pay with</span>${ways}</div>`;
}

function nowSection(v, P) {
  const ctx = S.ctx;
  const p = v.prompt;
  const me = mySeat();
  const parts = [statusLine(v)];
  if (v.result) {
    parts.push(`<p class="tob-say">The final Towers: ${v.players.map((q) => `${esc(nameOf(q.seat))} ${q.tower}`).join(" · ")} levels.</p>`);
  } else if (v.phase === "deck" && me !== null) {
    parts.push(S.deck ? S.deck.panel(v, T) : (fetchPart("deck"), `<p class="tob-say" data-say>Choose your deck (the decks are coming…)</p>`));
  } else if (!p) {
    const who = (ctx.awaiting || []).map(nameOf).join(" and ") || "the other player";
    let doing = PHASE[v.phase] || v.phase;
    if (v.phase === "defend" && v.attack) doing = "deciding whether to block the attack, play a witchery or let it through";
    parts.push(attackLine(v));
    // (who is awaited, the action bar says; here what they are doing)
    parts.push(`<p class="tob-say">${esc(who)}: ${esc(doing)}.</p>`);
  } else {
    parts.push(attackLine(v));
    let text = fill(p.text);
    if (p.kind === "main") text = "Tap a card in your hand to play it, or one of your minions to move it, build or attack.";
    if (p.kind === "start") text = "Draw a second card — or tap a card in your hand to offer it for a Power Source of its colour.";
    if (p.kind === "offering") text = "You may make an offering: tap a card in your hand, or make none.";
    if (p.kind === "mulligan") text = `Tap up to 3 cards of your hand to put them on the bottom of your deck (you draw as many), then confirm. ${nameOf(1 - me)} chooses at the same time and will not see your choice.`;
    if (p.kind === "defend") {
      const blocks = [...S.moves.byKey.values()].filter((m) => m.type === "block").length;
      const wit = [...P.hand.keys()].length;
      text = `Block it, play a witchery, or let it through. ${blocks ? "Tap a Defender outlined in red to block." : "No Defender of yours can block it."} ` +
        `${wit ? "Your witcheries playable now are outlined in green in your hand." : "No witchery of yours can be played now."}`;
    }
    if (p.kind === "twin") text = "Twinstrike: tap the second enemy minion your attacker strikes (highlighted).";
    // the sentence the action bar says (in place of the server's: it says where to tap)
    parts.push(`<p class="tob-say yours" data-say>${esc(text)}</p>`);
    parts.push(controls(v, P));
  }
  if (ctx.pending) parts.push(`<p class="tob-sending" role="status"><span class="dot" aria-hidden="true"></span> Sending your move…</p>`);
  else if (ctx.error && ctx.error.seq === ctx.seq) parts.push(`<p class="tob-refused" role="alert"><b>Refused:</b> ${esc(ctx.error.message)}</p>`);
  if (p && p.kind !== "deck" && S.moves.size) {
    const w = [...S.moves.byKey.values()].find((m) => m.type === "windows");
    const mine = v.players[me];
    parts.push(`<div class="tob-more"><details class="tob-all"><summary>Every choice as a list (${S.moves.size})</summary><div class="tob-list">${buttons([...S.moves.byKey.values()])}</div></details>` +
      (w ? `<details class="tob-win"><summary>Reaction windows: ${mine.windows === "always" ? "asked at every enemy attack" : "asked only when I can react"}</summary>${buttons([w], "quiet")}</details>` : "") + `</div>`);
  }
  return `<div class="tob-now${p ? " mine" : ""}" data-prompt>${parts.join("")}</div>`;
}

// the first turns, when nothing in the hand can be paid for: what to do instead
function firstTurns(v) {
  const pl = v.players[mySeat()];
  const kind = v.prompt.kind;
  const none = !pl.available.length && !pl.exhausted.length;
  const which = kind === "start" && none ? "start"
    : kind === "main" && pl.turns <= 3 && ![...S.moves.byKey.values()].some((m) => m.type !== "end" && m.type !== "windows") ? "main" : null;
  if (!which) return "";
  if (!S.help) { fetchPart("help"); return ""; }
  return `<b>First turns:</b> ${esc(S.help.hint(which, none))} <a href="#tab-symbols" data-act="words">What these words mean</a>`;
}

function controls(v, P) {
  const p = v.prompt;
  const out = [];
  if (p.kind === "mulligan") {
    const cards = S.mull.slice().sort((a, b) => a - b);
    const m = S.moves.find({ type: "mulligan", cards });
    out.push(`<div class="tob-row">${m ? buttons([m], "primary") : ""}${S.mull.length ? `<button type="button" class="tob-btn" data-act="unmull" data-k="unmull">Start again</button>` : ""}</div>`);
    return out.join("");
  }
  const all = [...S.moves.byKey.values()];
  const simple = all.filter((m) => ["draw", "skip", "pass", "end"].includes(m.type));
  const extra = p.kind === "defend" ? all.filter((m) => m.type === "block") : p.kind === "twin" ? all : [];
  if (simple.length || extra.length) out.push(`<div class="tob-row">${buttons(extra)}${buttons(simple, "primary")}</div>`);
  return out.join("");
}

// the selected card or minion: its ways to pay and choices, above the hand; targets outlined
function selPanel(P) {
  if (!S.sel || !S.ctx.view.prompt) return "";
  const name = S.sel.t === "h" ? card(cardOfIid(S.sel.iid)).name : card(minionOf(S.sel.iid).m.card).name;
  const targets = P.selMoves.some((m) => (m.type === "play" && m.target >= 0) || m.type === "attack");
  const movesTo = P.selMoves.some((m) => m.type === "move");
  const hint = [targets ? "tap a highlighted target" : null, movesTo ? "tap “Move here” in a zone" : null].filter(Boolean).join(", or ");
  const paying = P.pays.size > 1 ? " pick how to pay (“best for later” keeps the most of your hand playable), then" : "";
  return `<div class="tob-sel" data-prompt><p><b>${esc(name)}</b> is selected —${paying}${hint ? ` ${hint}, or pick one of its choices` : " pick one of its choices"}.</p>${payRow(P)}` +
    `<div class="tob-row">${buttons(P.selMoves, "", true)}<button type="button" class="tob-btn quiet" data-act="cancel" data-k="cancel">Cancel</button></div></div>`;
}

// the hand: a strip at the window's bottom; a row that scrolls says so (a count, a fade, arrows)
function handSection(v, P) {
  const me = mySeat();
  if (me === null || v.phase === "deck") return "";
  const pl = v.players[me];
  const hand = pl.hand || [];
  const kind = v.prompt ? v.prompt.kind : null;
  const label = kind === "mulligan" ? "tap the cards to put back" : kind === "start" || kind === "offering" ? "tap a card to offer it"
    : hand.some((r) => P.hand.has(r.iid)) ? "outlined in green: playable now" : "";
  const why = S.why && S.whySeq === S.ctx.seq;
  const tip = !why && v.prompt && firstTurns(v);
  const fold = S.fold && !S.sel;
  return `<section class="tob-hand${fold ? " folded" : ""}" aria-label="Your hand">${selPanel(P)}<div class="hand-head"><h2>Your hand <small>${plural(hand.length, "card")}</small></h2>` +
    `<p class="hand-note${why ? " why" : tip ? " tob-hint" : ""}">${why ? `<b>Not now:</b> ${esc(S.why)}` : tip || esc(label)}</p>` +
    // the arrows stand beside the count, over no card (a control never covers another)
    `<span class="hand-nav"><button type="button" class="hand-go prev" data-act="go" data-dir="-1" aria-label="Earlier cards" hidden>‹</button>` +
    `<span class="hand-count" hidden></span>` +
    `<button type="button" class="hand-go next" data-act="go" data-dir="1" aria-label="More cards" hidden>›</button></span>` +
    (hand.length ? `<button type="button" class="hand-fold" data-act="fold" data-k="fold" aria-expanded="${!fold}" aria-controls="tob-hand-row">${fold ? "Show" : "Hide"}</button>` : "") + `</div>` +
    (hand.length ? `<div class="hand-wrap"><div class="hand-row" id="tob-hand-row">${hand.map((r) => handCard(r, P)).join("")}</div></div>`
      : `<p class="empty">Your hand is empty.</p>`) + `</section>`;
}

function finalSection(v) {
  const r = v.result || S.ctx.result;
  if (!r) return "";
  const d = r.details || {};
  const towers = d.towers || v.players.map((p) => p.tower);
  const names = v.players.map((p) => nameOf(p.seat));
  const score = `${names[0]} ${towers[0]} · ${names[1]} ${towers[1]} levels`;
  let head; let why;
  if (d.outcome === "draw" || r.winners.length !== 1) { head = "A draw"; why = `Both players have played ${v.last_turn} turns and the Towers are level.`; }
  else {
    const w = r.winners[0];
    head = w === mySeat() ? "You win" : `${nameOf(w)} wins`;
    why = d.outcome === "goal" ? `${nameOf(w)}'s Tower reached ${v.goal} levels.` : `Both players have played ${v.last_turn} turns; ${nameOf(w)}'s Tower is the higher.`;
  }
  const seed = S.ctx.seed ? `<p class="tob-seed">The fair-shuffle seed is now revealed: <code class="hash">${esc(S.ctx.seed)}</code>.` +
    `${S.ctx.code ? ` <a href="/api/tables/${esc(S.ctx.code)}/record">The full record</a> lets anyone replay and verify the game.` : ""}</p>` : "";
  return `<section class="tob-final" aria-labelledby="tob-final-h"><h2 id="tob-final-h">${esc(head)}</h2><p>${esc(why)}</p><p class="tob-score">${esc(score)}</p>${seed}</section>`;
}

// -- drawing

// the mats first, under the action bar; the decision's own panel (its details, the list of every
// choice) just above the hand
const ORDER = ["final", "opp", "mine", "now", "hand"];
const motion = () => (matchMedia("(prefers-reduced-motion: reduce)").matches ? "auto" : "smooth");

function setup(root) {
  S.root = root;
  root.classList.add("tob");
  root.replaceChildren();
  root.insertAdjacentHTML("afterbegin", SPRITE);
  S.sections = makeSections(root, "tob", ORDER);
  // why a card cannot be played, said aloud (a region kept across redraws)
  S.said = root.appendChild(Object.assign(document.createElement("p"), { className: "sr" }));
  S.said.setAttribute("role", "status");
  root.addEventListener("click", onClick);
  // the pasted-list panel stays as the player left it when the board is drawn again
  root.addEventListener("toggle", (e) => { if (e.target.matches(".tob-paste")) S.pasteOpen = e.target.open; }, true);
  // the card zoom (the kit's): what it shows is drawn by help.js, fetched when first asked for
  attachZoom(root, ".tc, .mn, [data-pile]", (node) => fetchPart("help").then((m) => m.zoom(node, T)));
  // the hand row's count and arrows follow its scrolling
  root.addEventListener("scroll", (e) => { if (e.target.classList && e.target.classList.contains("hand-row")) handSign(); }, true);
  addEventListener("resize", handSign);
}

function patch(name, html) {
  patchSection(S.sections[name], html);
}

/** The hand row's count and arrows. */
function handSign() {
  const row = S.root && S.root.querySelector(".hand-row");
  if (!row) return;
  const wrap = row.parentElement;
  const cards = [...row.children];
  const more = row.scrollWidth > row.clientWidth + 1;
  const ends = [row.scrollLeft > 1, row.scrollLeft + row.clientWidth < row.scrollWidth - 1];
  const nav = S.root.querySelector(".tob-hand .hand-nav");
  ["prev", "next"].forEach((k, i) => {
    const b = nav.querySelector(`.${k}`);
    const on = more && ends[i];
    wrap.classList.toggle(`more-${k}`, on);
    if (!on && b === document.activeElement) (nav.querySelector(`.${["next", "prev"][i]}:not([hidden])`) || cards[i ? cards.length - 1 : 0]).focus();
    b.hidden = !on;
  });
  let text = "";
  if (more) {
    const box = row.getBoundingClientRect();
    const seen = cards.map((c, i) => [c.getBoundingClientRect(), i]).filter(([r]) => r.left >= box.left - 2 && r.right <= box.right + 2).map(([, i]) => i + 1);
    const [a, b] = [seen[0], seen[seen.length - 1]];
    text = !a ? `${cards.length} cards` : a === b ? `Card ${a} of ${cards.length}` : `Cards ${a}–${b} of ${cards.length}`;
  }
  const count = S.root.querySelector(".hand-count");
  count.hidden = !more;
  if (count.textContent !== text) count.textContent = text;
}

/** Scrolls `el` whole into the window, clear of the action bar and the hand. */
function reveal(el) {
  const r = el.getBoundingClientRect();
  const bar = document.getElementById("action-bar");
  const b = bar && bar.getBoundingClientRect();
  const low = b && b.height && getComputedStyle(bar).position === "fixed" && b.top > innerHeight / 2; // a phone's, at the bottom
  const hand = S.sections.hand.el;
  const pinned = getComputedStyle(hand).position === "sticky" ? hand.getBoundingClientRect().height : 0;
  const top = (b && !low ? b.height : 0) + 8;
  const bottom = innerHeight - (low ? b.height : 0) - pinned - 8;
  const dy = r.top < top ? r.top - top : r.bottom > bottom ? Math.min(r.bottom - bottom, r.top - top) : 0;
  if (dy) scrollBy({ top: dy, behavior: motion() });
}

// once per new prompt (or selection): its first target on the board into view; the first
// playable card into the hand row's view
function aim(fresh) {
  const row = S.root.querySelector(".hand-row");
  const c = row && row.querySelector(".tc.can");
  if (fresh && c) {
    const a = row.getBoundingClientRect();
    const r = c.getBoundingClientRect();
    if (r.left < a.left || r.right > a.right) row.scrollLeft += r.left - a.left - 8;
  }
  const t = S.root.querySelector(".mat .mn.target, .mat .trk.tower.target");
  if (t) reveal(t);
}

function draw() {
  const ctx = S.ctx;
  const v = ctx.view;
  const root = S.root;
  const me = mySeat();
  const focused = focusedKey(root);
  const P = plan(v);
  const text = root.querySelector("#tob-list");
  const typed = text ? text.value : "";
  const row0 = root.querySelector(".hand-row");
  const sx = row0 ? row0.scrollLeft : 0;
  const step = v.prompt && !ctx.pending && !ctx.replay ? ctx.seq : null;
  const fresh = step !== null && step !== S.aimedStep;
  const aimKey = step === null ? null : `${step}:${S.sel ? S.sel.t + S.sel.iid : ""}`;
  if (fresh && P.hand.size) S.fold = false;
  // the player's own mat sits next to their hand; a spectator sees seat 2 above seat 1
  const top = v.players[me === null ? 1 : 1 - me];
  const bottom = v.players[me === null ? 0 : me];
  patch("final", finalSection(v));
  patch("now", nowSection(v, P));
  patch("opp", v.phase === "deck" ? "" : mat(v, top, P));
  patch("mine", v.phase === "deck" ? "" : mat(v, bottom, P));
  patch("hand", handSection(v, P));
  const t2 = root.querySelector("#tob-list");
  if (t2 && typed && !t2.value) t2.value = typed;
  const row = root.querySelector(".hand-row");
  if (row && row !== row0) row.scrollLeft = sx;
  root.classList.toggle("tob-mine", !!v.prompt);
  root.classList.toggle("tob-over", !!v.result);
  root.classList.toggle("tob-replay", !!ctx.replay);
  root.classList.toggle("tob-selecting", !!S.sel);
  root.dataset.seq = String(ctx.seq);
  root.dataset.kind = v.result ? "over" : v.prompt ? v.prompt.kind : "wait";
  root.dataset.phase = v.result ? "over" : v.phase || "";
  restoreFocus(root, focused);
  handSign();
  // (after the frame's action bar is drawn: its height counts)
  if (aimKey !== null && aimKey !== S.aimed) requestAnimationFrame(() => aim(fresh));
  S.aimed = aimKey;
  if (step !== null) S.aimedStep = step;
  return P;
}

export function render(root, ctx) {
  if (S.root !== root) setup(root);
  const seqChanged = !S.ctx || S.ctx.seq !== ctx.seq;
  S.ctx = ctx;
  const v = ctx.view;
  if (!v) return;
  S.moves = new Moves(ctx);
  if (seqChanged) {
    S.why = null;
    if (!v.prompt || v.prompt.kind !== "mulligan") S.mull = [];
  }
  if (ctx.error && S.queue.length) {
    S.queue = [];
    S.paste = `Stopped: ${ctx.error.message}`;
  }
  draw();
  markFresh(root, ".mat [data-mn], .tob-hand [data-card]", (n) => `${n.closest("[data-seat]") ? "m" : "h"}:${n.dataset.card}:${n.className.match(/s-\w+/) || ""}`);
  // a pasted deck list goes one listed "add" at a time, each once the previous is taken
  if (S.queue.length && !ctx.pending && v.prompt && v.prompt.kind === "deck") {
    const next = S.queue.shift();
    setTimeout(() => { if (S.ctx === ctx && !ctx.pending) ctx.send(next); }, 0);
  }
}

/** The lines this game adds to each player's panel beside the board. */
export function panel(view, seat) {
  const pl = view.players && view.players[seat];
  if (!pl) return [];
  return [
    { label: "Tower", value: `${pl.tower}/${view.goal}`, title: "Tower levels (50 wins)" },
    { label: "Turn", value: `${pl.turns}/${view.last_turn}`, title: "Turns played" },
    { label: "Hand", value: `${pl.hand_count}`, title: "Cards in hand" },
    { label: "Deck", value: `${pl.deck}`, title: "Cards in the deck" },
  ];
}

// -- clicks

function onClick(e) {
  const t = e.target.closest("[data-move],[data-act]");
  if (!t || !S.root.contains(t)) return;
  const ctx = S.ctx;
  const a = t.dataset.act;
  if (ctx.pending && a !== "cancel") return;
  if (a === "sel") {
    const iid = +(t.dataset.card || t.dataset.mn);
    const kind = t.dataset.mn ? "m" : "h";
    S.sel = S.sel && S.sel.iid === iid ? null : { t: kind, iid };
    S.why = null;
    draw();
    return;
  }
  if (a === "toggle") {
    const iid = +t.dataset.card;
    if (S.mull.includes(iid)) S.mull = S.mull.filter((x) => x !== iid);
    else if (S.mull.length >= 3) { S.why = "You may put at most 3 cards back."; S.whySeq = ctx.seq; }
    else S.mull = [...S.mull, iid];
    draw();
    return;
  }
  if (a === "why") {
    fetchPart("help").then((m) => { S.why = m.whyNot(card(t.dataset.key), T); S.whySeq = ctx.seq; S.said.textContent = `Not now: ${S.why}`; draw(); });
    return;
  }
  if (a === "go") { const row = S.root.querySelector(".hand-row"); row.scrollBy({ left: +t.dataset.dir * row.clientWidth * 0.8, behavior: motion() }); return; }
  if (a === "fold") { S.fold = !S.fold; draw(); return; }
  if (a === "words") {
    e.preventDefault();
    const tab = document.getElementById("t-symbols");
    if (tab) { tab.click(); tab.focus({ preventScroll: true }); tab.scrollIntoView({ block: "start", behavior: motion() }); }
    return;
  }
  if (a === "unmull") { S.mull = []; draw(); return; }
  if (a === "pay") { if (S.sel) S.pay = { iid: S.sel.iid, key: t.dataset.pay }; draw(); return; }
  if (a === "cancel") { S.sel = null; draw(); return; }
  if (a === "paste") { if (S.deck) S.deck.paste(T); return; }
  const move = S.moves.byKey.get(t.dataset.move);
  if (!move) return;
  S.sel = null;
  S.why = null;
  if (ctx.send(move) === false) return;
  t.classList.add("sending");
}
