// The load client's move policies (bench/node/load_client.mjs --policy).
//
// "random": any legal move. "progress": a full game by the rules in far fewer moves, as the
// easy bot plays (a random Game of Thrones game at six seats is about 4,600 moves, mostly orders
// placed and taken back): "ready" when listed; an order only on an area still without one (an
// area with one lists an "unorder"); never "unorder" or "undo" unless nothing else is listed;
// "end_march" half the time it is listed. It never cycles: where a march cannot end as staged
// ("undo" listed, "end_march" not: the steps so far break supply), a step is undone half the
// time, so it backs out as far as it must (with nothing staged a march can always end); and
// 3 % of the choices are any listed move, so no other position can hold it either.

const anyOf = (list, random) => list[Math.floor(random() * list.length)];

export function pickMove(policy, moves, random = Math.random) {
  if (policy !== "progress" || random() < 0.03) return anyOf(moves, random);
  const ready = moves.filter((m) => m.type === "ready");
  if (ready.length) return ready[0];
  const ends = moves.filter((m) => m.type === "end_march");
  if (ends.length && random() < 0.5) return anyOf(ends, random);
  const undo = moves.find((m) => m.type === "undo");
  if (undo && !ends.length && random() < 0.5) return undo;
  const ordered = new Set(moves.filter((m) => m.type === "unorder").map((m) => m.area));
  const kept = moves.filter((m) => m.type !== "unorder" && m.type !== "undo"
    && !(m.type === "order" && ordered.has(m.area)));
  return anyOf(kept.length ? kept : moves, random);
}
