// "Your turn" while away: loaded only when the player asks for notifications, or when it becomes
// their turn in a hidden tab after they allowed them. Asking also subscribes this browser to
// Web Push (a service worker and the server's VAPID key), so a closed tab is told too.

const ICON = "/static/favicon.svg";

function b64ToBytes(text) {
  const raw = atob(text.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (text.length % 4)) % 4));
  return Uint8Array.from(raw, (c) => c.charCodeAt(0));
}

function paint(button) {
  const on = "Notification" in window && Notification.permission === "granted";
  button.setAttribute("aria-pressed", String(on));
  button.textContent = on ? "Notifications: on" : "Notify me";
}

/** The player asked: the browser's permission, then a push subscription for this seat. */
export async function ask(boot, button) {
  if (!("Notification" in window)) { button.textContent = "No notifications in this browser"; return; }
  const answer = await Notification.requestPermission();
  paint(button);
  if (answer !== "granted") { button.textContent = "Notifications refused"; return; }
  await subscribe(boot);
}

async function subscribe(boot) {
  if (!boot.api || !("serviceWorker" in navigator) || !("PushManager" in window)) return false;
  try {
    const registration = await navigator.serviceWorker.register("/static/js/sw.js");
    await navigator.serviceWorker.ready;
    const { key } = await (await fetch("/api/push/key")).json();
    const sub = (await registration.pushManager.getSubscription())
      || await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: b64ToBytes(key) });
    const r = await fetch(`${boot.api}/push`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(sub) });
    return r.ok;
  } catch { return false; } // no push service here: the open tab's notifications still work
}

/** It became this seat's turn while the tab is hidden (told only if the player allowed it). */
export function notify(boot, text) {
  if (!("Notification" in window) || Notification.permission !== "granted") return null;
  const note = new Notification(`Your turn — ${boot.title}`, { body: `Table ${boot.code}: ${text}`, tag: `parlour-${boot.code}`, icon: ICON });
  note.onclick = () => { window.focus(); note.close(); };
  (window.parlourMetrics.notices = window.parlourMetrics.notices || []).push({ title: note.title, body: note.body });
  return note;
}
