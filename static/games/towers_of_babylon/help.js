// Towers of Babylon's words for a player who asks: why a card cannot be played now, what to do
// in the first turns when nothing can be paid for, and the card zoom (the card itself, larger,
// what it is now on the mat, its keywords explained). Fetched by the renderer on first need (the
// kit's zoom asking for a card, a tap on a card that cannot be played, a first turn), so that a
// seat's first view does not carry it. T: the renderer's helpers.

const sheet = document.createElement("link");
sheet.rel = "stylesheet";
sheet.href = new URL("./help.css", import.meta.url).pathname;
/** Settles once the help's style sheet has loaded (or failed). */
export const styled = new Promise((done) => { sheet.onload = sheet.onerror = done; });
document.head.append(sheet);

/** Why a card in hand cannot be played now. */
export function whyNot(c, T) {
  const v = T.V();
  const p = v.prompt;
  const me = v.players[T.mySeat()];
  if (!p) return v.active === null || v.active === undefined ? "Wait for the other player's choice."
    : `It is ${T.nameOf(v.active)}'s turn: only a Witchery can be played then, when an attack is answered.`;
  if (c.kind !== "witchery" && p.kind !== "main") return p.kind === "defend" ? "While an attack is answered, only a Witchery can be played." : `${c.name} cannot be played now.`;
  if (c.kind === "witchery") {
    if (me.transformed < c.cost) return `${c.name} is a Witchery: it costs ${c.cost} transformed power, and you have ${me.transformed}.`;
    if (c.window !== "any_time") return `${c.name} can be played only ${T.WINDOW[c.window]}.`;
  } else {
    const have = me.available.length;
    const own = me.available.filter((f) => f === c.faction).length;
    if (have < c.cost || own < c.specific) {
      return `${c.name} costs ${T.costWords(c)}; your available power is ${have}${c.specific ? `, ${own} of it ${T.faction(c.faction).name}` : ""}.` +
        (have + me.exhausted.length ? "" : " Offer a card at the start of your turn to gain a Power Source.");
    }
  }
  return `${c.name} cannot be played now: it has nothing to act on.`;
}

/** The first turns' hint: at the start of a turn with no Power Source ("start"), or in a main
 *  phase where nothing can be done but end the turn ("main"). */
export function hint(which, none) {
  return which === "start"
    // (what to do, the action bar says: here why, and what an offering gives)
    ? "You have no Power Source yet, so no card can be paid for. A card you offer goes to your Sacrifice Pile, and its Power Source is usable at once: enough for a card costing 1."
    : `Nothing in your hand can be paid for now: ${none ? "you have no Power Source yet" : "your available power is too little"}. You can only end your turn; at the start of the next one, offer a card to gain a Power Source.`;
}

/** The zoom of a card, a minion or a pile. */
export function zoom(node, T) {
  const v = T.S.ctx && T.S.ctx.view;
  if (!v) return null;
  const { esc } = T;
  const box = document.createElement("div");
  box.className = "tob-zoom";
  if (node.dataset.pile) {
    const [seat, pile] = node.dataset.pile.split(":");
    const list = v.players[+seat][pile] || [];
    const title = { sacrifice: "Sacrifice Pile", discard: "Discard Pile", invocations: "Invocations waiting", known_hand: "Cards known in hand" }[pile];
    box.innerHTML = `<p class="z-name">${esc(title)} — ${esc(T.nameOf(+seat))}</p>` +
      (list.length ? `<ol>${list.slice().reverse().map((r) => `<li>${esc(T.card(r.card).name)}</li>`).join("")}</ol>` : "<p>Empty.</p>");
    return box;
  }
  const key = node.dataset.key;
  const c = key && v.cards[key];
  if (!c) return null;
  const mn = node.dataset.mn ? T.minionOf(+node.dataset.mn) : null;
  let html = T.handCard({ iid: node.dataset.card, card: key }, null, { zoom: true, cls: "big" });
  if (mn) {
    const m = mn.m;
    html += `<p class="z-now">Now: ${T.STATUS[m.status]} (${T.TURNED[m.status]}) on the ${T.ZONE_NAME[m.zone]}; might ${m.might}, health ${m.health}, ` +
      `construction ${m.construction}${m.damage ? `; ${T.plural(m.damage, "damage marker")}` : ""}${m.sentenced ? "; Sentenced" : ""}.</p>`;
  }
  const kws = T.keywordsOf(c);
  if (mn && mn.m.sentenced && !kws.some((k) => k.id === "sentence")) kws.push((v.keywords || []).find((k) => k.id === "sentence"));
  if (kws.length) html += `<dl class="z-kw">${kws.filter(Boolean).map((k) => `<dt>${esc(k.name)}</dt><dd>${esc(k.meaning)}</dd>`).join("")}</dl>`;
  box.innerHTML = html;
  return box;
}
