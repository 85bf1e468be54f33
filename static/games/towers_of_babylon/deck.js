// Towers of Babylon's deck choice: the four ready-made decks, and a pasted list put together
// card by card (each line one listed "add", sent once the previous is taken). Fetched by the
// renderer while the decks are being chosen only, with its style sheet. T: the renderer's helpers.

const sheet = document.createElement("link");
sheet.rel = "stylesheet";
sheet.href = new URL("./deck.css", import.meta.url).pathname;
/** Settles once the deck choice's style sheet has loaded (or failed: the panel still works). */
export const styled = new Promise((done) => { sheet.onload = sheet.onerror = done; });
document.head.append(sheet);

export function panel(v, T) {
  const { S, esc, act, glyph, buttons } = T;
  const me = T.mySeat();
  const dc = v.deck_choice || { chosen: [], ready: [] };
  const other = 1 - me;
  const them = `${esc(T.nameOf(other))} ${dc.ready.includes(other) ? "has chosen a deck" : "is choosing a deck"} (you will see it when both are chosen).`;
  if (!v.prompt) return `<p class="tob-say">Your deck is chosen. ${them}</p>`;
  const decks = (v.decks || []).map((d) => {
    const m = S.moves.find({ type: "deck", deck: d.id });
    if (!m) return "";
    return `<button type="button" class="tob-deck"${act(`d-${d.id}`, m)}><span class="sr">Play the deck </span><span class="dk-name">${d.factions.map((f) => glyph(f)).join("")} ${esc(d.name)}</span>` +
      `<span class="dk-f">${esc(d.factions.map((f) => T.faction(f).name).join(" and "))} · 60 cards</span><span class="dk-d">${esc(d.description)}</span></button>`;
  }).join("");
  const draft = (v.prompt.draft) || { cards: {}, count: 0 };
  const list = Object.entries(draft.cards).map(([id, n]) => `${n} × ${T.card(id).name}`).join(", ");
  const clear = S.moves.find({ type: "clear" });
  const ready = S.moves.find({ type: "ready" });
  const made = `<div class="tob-decks">${decks}</div>`;
  // a list under way comes first, its count and "ready" in sight; the ready-made decks below it
  return `<p class="tob-say yours" data-say>Choose your deck. ${them}</p>${draft.count ? "" : made}` +
    `<details class="tob-paste"${S.pasteOpen || S.paste || draft.count ? " open" : ""}><summary>${draft.count ? "Your own deck" : "…or put a deck together"}: paste a list</summary>` +
    `<p class="hint">One card a line, copies first: <code>3x Fireball</code>. Exactly 60 cards; at most 4 copies of a common card, 3 of an uncommon, 2 of a rare, 1 of a super rare; at most two factions.</p>` +
    `<label class="sr" for="tob-list">Deck list</label><textarea id="tob-list" rows="4" data-k="paste-text"></textarea>` +
    `<div class="tob-row">${ready ? buttons([ready], "primary") : ""}<button type="button" class="tob-btn" data-act="paste" data-k="paste">Add these cards</button>${clear ? buttons([clear]) : ""}</div>` +
    `<p class="tob-draft">Your list: <b>${draft.count}</b>/60 cards${list ? ` — ${esc(list)}` : ""}</p>` +
    (S.paste ? `<p class="tob-refused" role="alert">${esc(S.paste)}</p>` : "") + `</details>${draft.count ? `<p class="hint">…or a ready-made deck:</p>${made}` : ""}`;
}

function parseList(text, T) {
  const cards = T.V().cards;
  const byName = new Map(Object.values(cards).map((c) => [c.name.toLowerCase(), c.id]));
  const moves = [];
  const errors = [];
  text.split(/\n/).forEach((raw, i) => {
    const line = raw.trim();
    if (!line || line.startsWith("#")) return;
    const m = line.match(/^(\d+)\s*x?\s+(.+)$/i);
    if (!m) { errors.push(`Line ${i + 1} (“${line.slice(0, 40)}”): write the number of copies, then the card's name.`); return; }
    const id = cards[m[2].trim()] ? m[2].trim() : byName.get(m[2].trim().toLowerCase());
    if (!id) { errors.push(`Line ${i + 1}: there is no card “${m[2].trim().slice(0, 40)}”.`); return; }
    moves.push({ type: "add", card: id, copies: +m[1] });
  });
  return { moves, errors };
}

/** "Add these cards": the list read in the page (every mistake at once), then sent line by line. */
export function paste(T) {
  const { S } = T;
  const box = S.root.querySelector("#tob-list");
  const { moves, errors } = parseList(box ? box.value : "", T);
  if (errors.length) { S.paste = errors.join(" "); T.draw(); return; }
  if (!moves.length) { S.paste = "The list is empty."; T.draw(); return; }
  S.paste = null;
  S.queue = moves.slice(1);
  S.ctx.send(moves[0]);
}
