// Loaded on demand (a click on "Hand to a bot"): a present player's vote to hand an absent
// player's seat to a bot. The table's next summary shows the count, or the bot.
export async function vote(api, seat, flash) {
  const r = await fetch(`${api}/handover`, {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ seat }),
  });
  const body = await r.json().catch(() => ({}));
  if (!r.ok) flash(body.message || "Your vote was not counted.");
  else if (!body.handed) flash(`Your vote is counted: ${body.votes} of ${body.needed}.`);
}
