// Private chats (diplomacy): the "Private" tab of a table whose game offers them, loaded only
// there. A player sees the chats they are in, opens one with a seat or a group, reads and writes
// in it, and agrees (or not) to its being published with the game's record. Unread marks are the
// server's (each seat's read position is stored), so they survive a reload and follow the player
// from tab to tab. Everything goes through the seat's own API; the socket brings what others do.
// A game whose seats have names of their own (A Game of Thrones' houses) sends them as "labels":
// members are then named by both, "Stark (Ada)".
import { el } from "./kit.js";

const $ = (id) => document.getElementById(id);

export function start(boot) {
  const panel = $("tab-private");
  const tab = $("t-private");
  const css = el("link", { rel: "stylesheet", href: "/static/css/diplomacy.css" });
  document.head.append(css);

  const my = { chats: new Map(), players: [], labels: null, status: boot.status, seat: null, open: null, messages: [],
    loaded: false, loading: null, sending: false, error: "" };

  const playerOf = (seat) => (my.players.find((p) => p.seat === seat) || {}).name || `Seat ${seat + 1}`;
  /** "Stark (Ada)" in a game whose seats have names, else "Ada"; for one's own: "Stark (Ada, you)". */
  function named(seat, player, you) {
    const label = my.labels && my.labels[seat];
    if (label) return `${label} (${player}${you ? ", you" : ""})`;
    return you ? `${player} (you)` : player;
  }
  const nameOf = (seat) => named(seat, playerOf(seat), false);
  const others = (chat) => chat.members.filter((s) => s !== my.seat);
  const title = (chat) => `With ${others(chat).map((s) => nameOf(s)).join(", ")}`;
  const visible = () => !panel.hidden && document.visibilityState === "visible";

  async function api(path, method = "GET", body) {
    const resp = await fetch(`${boot.api}/chats${path}`, {
      method, headers: body ? { "Content-Type": "application/json" } : {}, body: body ? JSON.stringify(body) : undefined,
    }).catch(() => null);
    if (!resp) return { ok: false, body: { message: "Not connected — try again in a moment." } };
    const data = await resp.json().catch(() => ({}));
    return { ok: resp.ok, status: resp.status, body: data };
  }

  function fail(message) {
    my.error = message || "";
    const box = $("pc-error");
    if (box) { box.hidden = !my.error; box.textContent = my.error; }
  }

  // -- what the server says --------------------------------------------------------------------

  function keep(summary) {
    const had = my.chats.get(summary.id);
    // a chat's shared news (members, agreement, newest message) leaves this seat's marks as they were
    my.chats.set(summary.id, Object.assign({ read_id: 0, unread: 0 }, had, summary));
  }

  async function load() {
    if (my.loading) return my.loading;
    my.loading = (async () => {
      const r = await api("");
      if (r.ok) {
        my.chats.clear();
        r.body.chats.forEach(keep);
        my.labels = r.body.labels || null;
        my.loaded = true;
        if (my.open) await openChat(my.open, false);
      }
      my.loading = null;
      render();
    })();
    return my.loading;
  }

  async function openChat(id, focus = true) {
    my.open = id;
    const r = await api(`/${id}/messages`);
    if (!r.ok) { fail(r.body.message); my.open = null; render(); return; }
    keep(r.body.chat);
    my.messages = r.body.messages;
    render();
    markRead();
    if (focus) { const input = $("pc-text"); if (input) input.focus(); }
  }

  async function markRead() {
    const chat = my.open && my.chats.get(my.open);
    if (!chat || !visible() || !chat.unread || !chat.last_id) return;
    chat.unread = 0;
    paintBadges();
    const r = await api(`/${chat.id}/read`, "POST", { upto: chat.last_id });
    if (r.ok) { chat.read_id = r.body.read_id; chat.unread = r.body.unread; paintBadges(); }
  }

  function onMessage(m) {
    const chat = my.chats.get(m.chat);
    if (!chat) { load(); return; } // a chat this page has not heard of yet
    chat.last_id = Math.max(chat.last_id || 0, m.id);
    if (m.seat === my.seat) chat.read_id = Math.max(chat.read_id, m.id);
    if (my.open === m.chat) {
      if (!my.messages.some((x) => x.id === m.id)) my.messages.push(m);
      if (m.seat !== my.seat) { chat.unread += 1; markRead(); }
    } else if (m.seat !== my.seat && m.id > chat.read_id) chat.unread += 1;
    render();
  }

  function receive(msg) {
    switch (msg.type) {
      case "table": {
        const wasGathering = my.status === "gathering";
        my.players = msg.table.players;
        my.status = msg.table.status;
        const me = my.players.find((p) => boot.you && p.name === boot.you.name);
        my.seat = me ? me.seat : null;
        if (wasGathering && my.status !== "gathering") load();
        else render();
        break;
      }
      case "private_chats": // on every (re)connection: what was missed meanwhile
        my.chats.clear();
        msg.chats.forEach(keep);
        my.labels = msg.labels || null;
        my.loaded = true;
        if (my.open) openChat(my.open, false); else render();
        break;
      case "private_chat": keep(msg.chat); render(); break;
      case "private_message": onMessage(msg.message); break;
      case "private_read": {
        const chat = my.chats.get(msg.chat);
        if (chat) { chat.read_id = msg.read_id; chat.unread = msg.unread; paintBadges(); }
        break;
      }
      default: break;
    }
  }

  // -- drawing ---------------------------------------------------------------------------------

  function paintBadges() {
    const total = [...my.chats.values()].reduce((n, c) => n + (c.unread || 0), 0);
    const badge = $("private-unread");
    badge.hidden = !total;
    badge.textContent = total ? String(total) : "";
    tab.setAttribute("aria-label", total ? `Private chats, ${total} unread` : "Private chats");
    panel.querySelectorAll("[data-chat]").forEach((b) => {
      const chat = my.chats.get(+b.dataset.chat);
      const mark = b.querySelector(".pc-unread");
      if (chat && mark) { mark.hidden = !chat.unread; mark.textContent = chat.unread ? `${chat.unread} unread` : ""; }
    });
  }

  function render() {
    const focusId = document.activeElement && panel.contains(document.activeElement) ? document.activeElement.id : null;
    const draft = $("pc-text") ? $("pc-text").value : "";
    const picked = [...panel.querySelectorAll("input[name=seat]:checked")].map((i) => i.id);
    let body;
    if (my.status === "gathering" || my.seat === null) body = [el("p", { class: "note", text: "Private chats open when the game begins." })];
    else if (!my.loaded) body = [el("p", { class: "note", text: "Loading your private chats…" })];
    else if (my.open && my.chats.has(my.open)) body = chatView(my.chats.get(my.open));
    else body = listView();
    panel.replaceChildren(el("p", { id: "pc-error", class: "chat-error", role: "alert", hidden: !my.error, text: my.error }), ...body);
    const input = $("pc-text");
    if (input && draft) input.value = draft;
    picked.forEach((id) => { if ($(id)) $(id).checked = true; });
    if (focusId && $(focusId)) $(focusId).focus({ preventScroll: true });
    const list = $("pc-messages");
    if (list) list.scrollTop = list.scrollHeight;
    paintBadges();
  }

  function listView() {
    const chats = [...my.chats.values()].sort((a, b) => (b.last_id || 0) - (a.last_id || 0) || a.id - b.id);
    const items = chats.map((c) => el("li", {},
      el("button", { type: "button", class: "pc-chat", id: `pc-chat-${c.id}`, "data-chat": c.id, onclick: () => { fail(""); openChat(c.id); } },
        el("span", { class: "pc-who", text: title(c) }),
        el("span", { class: "badge pc-unread", hidden: !c.unread, text: c.unread ? `${c.unread} unread` : "" }))));
    const seats = my.players.filter((p) => p.seat !== null && p.seat !== my.seat).sort((a, b) => a.seat - b.seat);
    const form = el("form", { class: "pc-new", id: "pc-new", onsubmit: newChat },
      el("fieldset", {},
        el("legend", { text: "Open a chat with" }),
        ...seats.map((p) => el("label", { class: "pc-seat" },
          el("input", { type: "checkbox", name: "seat", value: p.seat, id: `pc-seat-${p.seat}` }), ` ${nameOf(p.seat)}`))),
      el("button", { type: "submit", id: "pc-open", text: "Open chat" }));
    return [
      el("h2", { class: "pc-heading", text: "Your private chats" }),
      items.length ? el("ul", { class: "pc-list", "aria-label": "Your private chats" }, ...items)
        : el("p", { class: "note", text: "No private chats yet. Only a chat's members ever read it." }),
      form,
      el("p", { class: "note pc-help", text: "Pick one player for a chat between the two of you, or several for a group." }),
    ];
  }

  function chatView(chat) {
    const agreed = chat.agreed.includes(my.seat);
    const consent = chat.members.map((s) => `${s === my.seat ? "you" : nameOf(s)} ${chat.agreed.includes(s) ? "✓ agrees" : "— not yet"}`).join(" · ");
    return [
      el("div", { class: "pc-top" },
        el("button", { type: "button", class: "pc-back", id: "pc-back", text: "← All chats", onclick: () => { my.open = null; fail(""); render(); const b = $(`pc-chat-${chat.id}`); if (b) b.focus(); } }),
        el("h2", { class: "pc-heading", id: "pc-title", text: title(chat) })),
      el("ol", { class: "chat pc-messages", id: "pc-messages", "aria-labelledby": "pc-title", "aria-live": "polite", tabindex: "0" },
        ...(my.messages.length ? my.messages.map((m) => el("li", { "data-id": m.id, class: m.seat === my.seat ? "mine" : null },
          el("span", { class: "name", text: named(m.seat, m.name, m.seat === my.seat) }), " ", el("span", { text: m.text })))
          : [el("li", { class: "note", text: "Nothing said yet." })])),
      el("form", { class: "inline pc-send", id: "pc-send", onsubmit: (e) => sendMessage(e, chat) },
        el("label", { class: "sr", for: "pc-text", text: `Message to ${others(chat).map((s) => nameOf(s)).join(", ")}` }),
        el("input", { id: "pc-text", maxlength: "500", autocomplete: "off", placeholder: "Write privately…" }),
        el("button", { type: "submit", text: "Send" })),
      el("label", { class: "pc-agree" },
        el("input", { type: "checkbox", id: "pc-agree", checked: agreed, onchange: (e) => agree(e, chat) }),
        " I agree to publish this chat with the game's record"),
      el("p", { class: "note pc-consent", text: `Published only if every member agrees: ${consent}.` }),
    ];
  }

  // -- what the player does --------------------------------------------------------------------

  async function newChat(e) {
    e.preventDefault();
    const members = [...e.currentTarget.querySelectorAll("input[name=seat]:checked")].map((i) => +i.value);
    if (!members.length) { fail("Choose at least one player to talk with."); return; }
    fail("");
    const r = await api("", "POST", { members });
    if (!r.ok) { fail(r.body.message || "The chat could not be opened."); return; }
    keep(r.body.chat);
    await openChat(r.body.chat.id);
  }

  async function sendMessage(e, chat) {
    e.preventDefault();
    const input = $("pc-text");
    const text = input.value.trim();
    if (!text || my.sending) return;
    my.sending = true;
    input.value = ""; // the panel may be redrawn while it is sent: the text waits here, not in the box
    const r = await api(`/${chat.id}/messages`, "POST", { text });
    my.sending = false;
    if (!r.ok) {
      const box = $("pc-text");
      if (box && !box.value) box.value = text; // refused: given back to be changed and sent again
      fail(r.body.message || "Your message was not sent.");
      return;
    }
    fail("");
    onMessage(r.body.message);
  }

  async function agree(e, chat) {
    const r = await api(`/${chat.id}/publish`, "PUT", { agree: e.currentTarget.checked });
    if (!r.ok) { fail(r.body.message || "That was not saved."); render(); return; }
    keep(r.body.chat);
    render();
  }

  // the chat shown becomes read when its tab is chosen (by click or keys), or the page seen again
  new MutationObserver(() => markRead()).observe(panel, { attributes: true, attributeFilter: ["hidden"] });
  document.addEventListener("visibilitychange", () => markRead());
  render();
  return receive;
}
