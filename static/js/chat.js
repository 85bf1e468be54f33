// The table's chat as it comes (table.js hands every "chat" message here): each message once, by
// its seat's name, an invitation link to this site as a link, the unread count on the Chat tab
// while it is closed, "Play again?" offered in the result's box. Fetched with the first message
// the table sends (none at a fresh table, so a game's first view carries none of it).
import { el } from "./kit.js";

const $ = (id) => document.getElementById(id);

export function show(messages, { state, boot, nameOf, lastRead, markRead, chatRefused, renderResult, readKey }) {
  const chat = $("chat");
  const panel = $("tab-chat");
  let read = lastRead();
  if (Number.isNaN(read)) { // a first visit: what was said before counts as read
    read = Math.max(0, ...messages.map((m) => m.id));
    try { localStorage.setItem(readKey(), String(read)); } catch { /* private mode */ }
  }
  for (const m of messages) {
    if (chat.querySelector(`[data-id="${m.id}"]`)) continue;
    const who = m.seat != null && state.table && state.table.labels ? nameOf(m.seat) : m.name;
    chat.append(el("li", { "data-id": m.id }, el("span", { class: "name", text: who }), " ", chatText(m.text)));
    if (state.chatSent && boot.you && m.name === boot.you.name && m.text === state.chatSent) {
      state.chatSent = null;
      const input = $("chat-text");
      if (input) input.value = "";
      chatRefused(null);
    }
    const again = m.text.match(/^Play again\? New table: (\S+)$/);
    if (again) {
      state.again = { href: new URL(again[1], location.href).pathname, by: m.name, mine: boot.you && m.name === boot.you.name };
      renderResult();
    }
  }
  panel.scrollTop = panel.scrollHeight;
  if (panel.hidden) {
    const unread = [...chat.querySelectorAll("[data-id]")].filter((n) => +n.dataset.id > read).length;
    const badge = $("chat-unread");
    badge.hidden = !unread;
    badge.textContent = unread ? String(unread) : "";
    $("t-chat").setAttribute("aria-label", unread ? `Chat, ${unread} unread` : "Chat");
  } else markRead();
}

// an invitation link to this site becomes a link; everything else stays text
function chatText(text) {
  const m = text.match(/^(.*?)(https?:\/\/\S+\/join\/[A-Za-z0-9]+)$/);
  if (!m || new URL(m[2]).host !== location.host) return el("span", { text });
  return el("span", {}, m[1], el("a", { href: new URL(m[2]).pathname, text: m[2] }));
}

