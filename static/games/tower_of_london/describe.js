// Tower of London's board in words (the kit's "Describe the board", static/js/describe.js): the
// round, the seat's hand, the Tower's buildings quadrant by quadrant (each with its area, its
// Beefeaters and who controls it), the Turn Order Track, the ravens, the event and this step's
// reveals.
const AREA = { orange: "orange, Inner Ward", green: "green, Middle Ward", blue: "blue, Outer Ward" };
const PHASE = { pick: "choosing cards", reveal: "revealing in turn order", keep: "reducing decks", over: "over" };

const cardOf = (v, id) => (v.cards || []).find((c) => c.id === id);
const cardWords = (v, id) => {
  const c = cardOf(v, id);
  return c ? `${c.ability} (track space ${c.orange}): buildings orange ${c.orange}, green ${c.green}, blue ${c.blue}` : `card ${id}`;
};

function beefeaters(b, nameOf) {
  if (!b.beefeaters.length) return "empty";
  return b.beefeaters.map((x) => {
    const parts = [];
    if (x.plain) parts.push(`${x.plain} Beefeater${x.plain > 1 ? "s" : ""}`);
    if (x.promoted) parts.push(`${x.promoted} promoted`);
    return `${nameOf(x.seat)} ${parts.join(" and ")}`;
  }).join(", ");
}

export function describe(v, ctx) {
  if (!v || !v.board) return [];
  const out = [];
  const nameOf = ctx.nameOf;
  const scored = (v.areas_scored_this_round || []).join(", ");
  out.push({ heading: "The round", lines: [
    v.phase === "over" ? "The game is over." : `Round ${v.round} of 3, step ${v.step} of 3: ${PHASE[v.phase] || v.phase}. This round scores: ${scored}.`,
    `Turn order: ${v.turn_order.map(nameOf).join(", ")}.`,
    ...(v.event && v.event.current ? [`Event: ${v.event.current.name}. ${v.event.current.text}`] : []),
  ] });
  if (ctx.seat !== null && ctx.seat !== undefined && v.hand) {
    out.push({ heading: "Your hand", lines: v.hand.length ? v.hand.map((id) => cardWords(v, id)) : ["Your hand is empty."] });
  }
  const byQuadrant = new Map();
  for (const b of v.board.buildings) {
    if (!byQuadrant.has(b.quadrant)) byQuadrant.set(b.quadrant, []);
    byQuadrant.get(b.quadrant).push(b);
  }
  for (const [q, list] of byQuadrant) {
    out.push({ heading: `Quadrant ${q}`, lines: list.slice().sort((a, b) => a.number - b.number).map((b) =>
      `Building ${b.number} (${AREA[b.area] || b.area}): ${beefeaters(b, nameOf)}` +
      `${b.controller !== null && b.controller !== undefined ? `; controlled by ${nameOf(b.controller)}` : ""}.`) });
  }
  const track = (v.track && v.track.beefeaters) || [];
  out.push({ heading: "Players", lines: v.players.map((p) => {
    const onTrack = track.find((t) => t.seat === p.seat);
    return `${nameOf(p.seat)}: ${p.ravens} raven${p.ravens === 1 ? "" : "s"}, ${p.beefeaters_in_supply} Beefeaters in supply, ` +
      `${p.hand_count} cards in hand, ${p.deck_count} in deck${onTrack ? `, track space ${onTrack.space}` : ""}` +
      `${p.has_chosen ? ", has chosen" : ""}.`;
  }).concat(v.ravens ? [`Ravens left in the supply: ${v.ravens.supply}.`] : []) });
  if (v.step_reveals && v.step_reveals.length) {
    out.push({ heading: "This step's reveals", lines: v.step_reveals.map((r) =>
      `${nameOf(r.seat)}: first ${cardWords(v, r.first)}, second ${cardWords(v, r.second)}` +
      `${r.placed ? `; placed in building ${r.placed}` : ""}${r.outcome ? `; ${r.outcome}` : ""}.`) });
  }
  return out;
}
