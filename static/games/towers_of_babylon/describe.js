// Towers of Babylon's board in words (the kit's "Describe the board", static/js/describe.js): the
// turn and the attack under way, then each player's mat zone by zone (the Ramparts' defenders,
// the Tower's builders, the Battlefield's raiders, with their state and numbers), their Tower,
// power and piles, and the seat's own hand.
const ZONES = [["ramparts", "Ramparts (defenders)"], ["tower", "Tower (builders)"], ["battlefield", "Battlefield (raiders)"]];
const STATUS = { ready: "ready", immobile: "immobile", exhausted: "exhausted" };
const PHASE = {
  deck: "choosing decks", mulligan: "choosing cards to put back", start: "start of turn", main: "main phase",
  defend: "answering an attack", twin: "Twinstrike", offering: "an offering", over: "the game is over",
};

export function describe(v, ctx) {
  if (!v || !v.players || !v.cards) return [];
  const cards = v.cards;
  const nameOf = ctx.nameOf;
  const cardName = (key) => (cards[key] ? cards[key].name : key);
  const faction = (id) => ((v.factions || []).find((f) => f.id === id) || { name: id }).name;
  const count = (list) => {
    const n = {};
    for (const f of list) n[faction(f)] = (n[faction(f)] || 0) + 1;
    const words = Object.entries(n).map(([f, k]) => `${k} ${f}`);
    return words.length ? words.join(", ") : "none";
  };
  const minion = (m) => `${cardName(m.card)}, ${STATUS[m.status] || m.status}: construction ${m.construction}, might ${m.might}, ` +
    `health ${m.health - (m.damage || 0)} of ${m.health}${m.sentenced ? ", sentenced" : ""}`;
  const all = [];
  for (const pl of v.players) for (const m of pl.minions) all.push([m, pl.seat]);
  const minionName = (iid) => { const hit = all.find(([m]) => m.iid === iid); return hit ? `${nameOf(hit[1])}'s ${cardName(hit[0].card)}` : "a minion"; };
  const out = [];
  const turn = [v.result ? "The game is over." : `${v.active !== null && v.active !== undefined ? `${nameOf(v.active)}'s turn` : "Before the first turn"}: ${PHASE[v.phase] || v.phase}.`,
    `A Tower wins at ${v.goal} levels; the game ends after turn ${v.last_turn}.`];
  if (v.attack) {
    const a = v.attack;
    turn.push(`${minionName(a.attacker)} attacks ${a.target < 0 ? "the Tower" : minionName(a.target)}` +
      `${a.blocker !== null && a.blocker !== undefined ? `, blocked by ${minionName(a.blocker)}` : ""}.`);
  }
  out.push({ heading: "The turn", lines: turn });
  const me = ctx.seat !== null && ctx.seat !== undefined ? v.players[ctx.seat] : null;
  const order = me ? [me, ...v.players.filter((p) => p !== me)] : v.players;
  for (const pl of order) {
    const who = pl === me ? "Your" : `${nameOf(pl.seat)}'s`;
    const lines = [
      `Tower ${pl.tower} of ${v.goal} levels; turn ${pl.turns} of ${v.last_turn}${pl.deck_name ? `; deck ${pl.deck_name}` : ""}.`,
      `Power available: ${count(pl.available)}; exhausted: ${count(pl.exhausted)}; transformed: ${pl.transformed}.`,
      `Deck ${pl.deck}, hand ${pl.hand_count}, sacrifice ${pl.sacrifice.length}, discard ${pl.discard.length}` +
        `${pl.discard.length ? ` (top: ${cardName(pl.discard[pl.discard.length - 1].card)})` : ""}.`,
    ];
    if (pl.invocations.length) lines.push(`Invocations waiting: ${pl.invocations.map((r) => cardName(r.card)).join(", ")}.`);
    if (pl !== me && pl.known_hand.length) lines.push(`Known in hand: ${pl.known_hand.map((r) => cardName(r.card)).join(", ")}.`);
    for (const [z, zn] of ZONES) {
      const here = pl.minions.filter((m) => m.zone === z);
      lines.push(`${zn}: ${here.length ? here.map(minion).join("; ") : "empty"}.`);
    }
    out.push({ heading: `${who} mat`, lines });
  }
  if (me && me.hand) {
    out.push({ heading: `Your hand (${me.hand.length})`, lines: me.hand.length ? me.hand.map((r) => {
      const c = cards[r.card];
      if (!c) return r.card;
      return `${c.name}: ${faction(c.faction)} ${c.kind}, costs ${c.cost}${c.kind === "witchery" ? " transformed" : ""} power` +
        `${c.kind === "minion" ? `, construction ${c.construction}, might ${c.might}, health ${c.health}` : ""}${c.text ? `. ${c.text}` : ""}`;
    }) : ["Your hand is empty."] });
  }
  return out;
}
