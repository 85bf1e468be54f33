// A plain renderer for a game that has no board drawing of its own: what the seat may see,
// and every legal move as a button.
export function renderGeneric(root, ctx) {
  root.replaceChildren();
  if (!ctx.view) return;
  const moves = document.createElement("div");
  moves.className = "generic-moves";
  for (const move of ctx.moves) {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "move";
    b.textContent = describe(move);
    b.dataset.move = JSON.stringify(move);
    b.disabled = ctx.pending;
    b.addEventListener("click", () => ctx.send(move));
    moves.append(b);
  }
  const pre = document.createElement("pre");
  pre.className = "generic-view";
  pre.textContent = JSON.stringify(ctx.view, null, 2);
  root.append(moves, pre);
}

function describe(move) {
  const { type, ...rest } = move;
  const args = Object.entries(rest).map(([k, v]) => `${k} ${typeof v === "object" ? JSON.stringify(v) : v}`);
  return args.length ? `${type}: ${args.join(", ")}` : type;
}
