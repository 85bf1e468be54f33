// London's board in words (the kit's "Describe the board", static/js/describe.js): the seat's
// hand and display, the development board, the borough market, then every other player.
const COLOURS = { brown: "brown", blue: "blue", pink: "pink", grey: "pauper" };

function cardWords(c, faceUp = true) {
  const parts = [`${c.name} (${COLOURS[c.colour] || c.colour}${faceUp ? "" : ", face-down"})`];
  if (!faceUp) return parts[0] + (c.prestige ? `, ${c.prestige} end-game prestige` : "");
  if (c.kind === "building") parts.push(`costs £${c.cost}`);
  if (c.kind === "pauper") parts.push("a pauper, never developed");
  if (c.on_play) parts.push(`action: ${c.on_play.text}`);
  if (c.activation) parts.push(`activate: ${c.activation.text.replace("⤵", "(then it flips face-down)")}`);
  if (c.ongoing) parts.push(`always: ${c.ongoing.text}`);
  if (c.prestige) parts.push(`${c.prestige} end-game prestige`);
  return parts.join(", ");
}

function boroughWords(b, live) {
  const side = `${b.side === "north" ? "north" : "south"} of the Thames${b.river ? ", on the river" : ""}`;
  return `${b.name} (${side}): costs £${b.cost}, draws ${b.draw}, ${b.prestige} prestige` +
    `${b.relief ? `, −${b.relief} poverty` : ""}${b.text ? `; ${b.text}` : ""}${live === false ? " (covered)" : ""}`;
}

function stats(pl) {
  return `£${pl.money}, ${pl.loans} ${pl.loans === 1 ? "loan" : "loans"}, poverty ${pl.poverty}, prestige ${pl.prestige}, ` +
    `${pl.hand_count} of ${pl.hand_limit} cards in hand; Run the City would cost ${pl.run_poverty} poverty.`;
}

function display(v, pl) {
  const cards = v.catalogue.cards;
  const lines = pl.stacks.map((st) => {
    const top = st.cards[st.cards.length - 1];
    const under = st.cards.slice(0, -1).map((c) => cards[c.key].name);
    return `Stack ${st.index + 1}: ${cardWords(cards[top.key], top.face_up)}` +
      `${under.length ? `; under it ${under.join(", ")}` : ""}${st.built_this_turn ? " (built this turn)" : ""}.`;
  });
  if (!lines.length) lines.push("No cards developed yet.");
  const bs = pl.boroughs.slice().reverse();
  lines.push(bs.length ? `Boroughs, top first: ${bs.map((b) => boroughWords(v.catalogue.boroughs[b.key], b.live)).join(". ")}.` : "No boroughs yet.");
  return lines;
}

export function describe(v, ctx) {
  if (!v || !v.catalogue || !v.players) return [];
  const cards = v.catalogue.cards;
  const out = [];
  const me = ctx.seat !== null && ctx.seat !== undefined ? v.players[ctx.seat] : null;
  out.push({ heading: "The turn", lines: [
    v.over ? "The game is over." : `Turn ${v.turn_no}: ${ctx.nameOf(v.current)} to play.`,
    `City deck: ${v.deck.count} cards${v.deck.era ? `, era ${v.deck.era} on top` : ""}; ${v.borough_deck} boroughs to come; ${v.loan_supply} loans left.`,
    ...(v.endgame && v.endgame.triggered && !v.over ? [`The endgame has begun: ${v.endgame.final_turns_left} final turns left.`] : []),
  ] });
  if (me && me.hand) {
    out.push({ heading: `Your hand (${me.hand.length} of ${me.hand_limit})`,
      lines: me.hand.length ? me.hand.map((r) => cardWords(cards[r.key])) : ["Your hand is empty."] });
    out.push({ heading: "Your display and money", lines: [stats(me), ...display(v, me)] });
  }
  const rows = v.board.rows.map((row, i) => {
    const here = row.filter(Boolean).map((r) => cardWords(cards[r.key]));
    return `${i === 0 ? "Top" : "Bottom"} row: ${here.length ? here.join("; ") : "empty"}.`;
  });
  out.push({ heading: "The development board", lines: rows });
  out.push({ heading: "The borough market",
    lines: v.market.length ? v.market.map((k) => boroughWords(v.catalogue.boroughs[k])) : ["The market is empty."] });
  for (const pl of v.players) {
    if (me && pl.seat === ctx.seat) continue;
    out.push({ heading: `${ctx.nameOf(pl.seat)}'s display`, lines: [stats(pl), ...display(v, pl)] });
  }
  return out;
}
