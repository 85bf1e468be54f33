// The service worker of "your turn" by Web Push: shows the server's message (it carries the
// table's code, never a seat address) and, when clicked, opens the front page with that code,
// which goes on to the seat this browser holds there.
self.addEventListener("push", (event) => {
  let data = {};
  try { data = event.data ? event.data.json() : {}; } catch { data = {}; }
  event.waitUntil(self.registration.showNotification(data.title || "Your turn", {
    body: data.body || "", tag: data.code ? `parlour-${data.code}` : "parlour", icon: "/static/favicon.svg", data,
  }));
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const data = event.notification.data || {};
  event.waitUntil(self.clients.openWindow(new URL(data.url || "/", self.location.origin).href));
});
