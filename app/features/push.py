"""Web Push: "your turn" to a player whose page is closed.

The server's VAPID key pair is made on first start and kept in the database (``server_keys``),
so every server process, and every restart, signs with the same key the browsers subscribed
with. A seat's page may subscribe (the player asks for it); when the seat becomes awaited and it
has no open socket on any server process, each of its subscriptions is sent one message,
encrypted for the browser (RFC 8291, aes128gcm, by ``pywebpush``). Each subscription's
``last_seq`` is claimed with a guarded update first, so two processes never both send it.

Where pushes may go is ``app/features/push_policy.py``'s rule, checked when a browser subscribes and again
before each send; ``app/features/push_client.py`` sends them. At most ``SENDING_AT_ONCE`` are on their way
at a time; one more is dropped (and logged), not queued. A push that fails is logged and
dropped; an endpoint whose push service answers 404 or 410 is forgotten (the protocol's "this
subscription is gone").
"""

from __future__ import annotations

import asyncio
import base64
import binascii
import logging
import time
from collections import OrderedDict
from collections.abc import Coroutine
from typing import TYPE_CHECKING, Any

import orjson
from sqlalchemy import delete, select, update
from sqlalchemy.exc import IntegrityError

from app.features.push_policy import MAX_ENDPOINT, PushPolicy, Refused
from app.play.hub import Connection, Hub
from app.play.live import LiveTable, LiveTables
from app.server.config import Settings
from app.server.errors import ApiError
from app.storage.models import PushSubscription, ServerKey

if TYPE_CHECKING:
    from yarl import URL

    from app.features.push_client import PushClient

log = logging.getLogger("parlour.push")
KEY_NAME = "vapid_private_pem"
SUBSCRIPTIONS_PER_SEAT = 8
KNOWN_LIMIT = 50_000
SUBSCRIBERS_TTL = 30.0
SENDING_AT_ONCE = 8
TTL_SECONDS = 24 * 3600  # how long a push service keeps a message for a browser that is offline
VAPID_SECONDS = 12 * 3600


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def clean_subscription(raw: object, policy: PushPolicy) -> tuple[str, str, str]:
    """(endpoint, p256dh, auth) of a browser's PushSubscription.toJSON(); 422 when malformed or
    when its endpoint is not a place pushes may go."""
    def bad(why: str) -> ApiError:
        return ApiError(422, "invalid_subscription", f"Invalid push subscription: {why}.")

    if not isinstance(raw, dict):
        raise bad("send the browser's subscription (endpoint and keys)")
    endpoint, keys = raw.get("endpoint"), raw.get("keys")
    if not isinstance(endpoint, str) or len(endpoint) > MAX_ENDPOINT or not isinstance(keys, dict):
        raise bad(f"an endpoint (at most {MAX_ENDPOINT} characters) and keys are needed")
    try:
        policy.endpoint(endpoint)
    except Refused as exc:
        raise bad(str(exc)) from None
    p256dh, auth = keys.get("p256dh"), keys.get("auth")
    try:
        point = unb64url(p256dh) if isinstance(p256dh, str) and len(p256dh) < 200 else b""
        secret = unb64url(auth) if isinstance(auth, str) and len(auth) < 100 else b""
    except (binascii.Error, ValueError):
        raise bad("the keys are base64url") from None
    if len(point) != 65 or point[0] != 4 or len(secret) != 16:
        raise bad("p256dh is a P-256 public key and auth a 16-byte secret")
    return endpoint, p256dh, auth  # type: ignore[return-value]


class Pusher:
    def __init__(self, tables: LiveTables, hub: Hub, settings: Settings) -> None:
        self.tables = tables
        self.hub = hub
        self.contact = settings.push_contact
        self.policy = PushPolicy(settings.push_services, settings.push_test_port)
        self.ca_file = settings.push_ca_file
        self._client: PushClient | None = None
        self.vapid: Any = None
        self._public_key = ""
        self._key_lock = asyncio.Lock()
        self._awaited: OrderedDict[int, tuple[int, frozenset[int]]] = OrderedDict()
        self._tasks: set[asyncio.Task[Any]] = set()
        self._subscribers: OrderedDict[int, tuple[float, frozenset[int]]] = OrderedDict()
        self.sending = 0
        # What became of the pushes, for the host (GET /api/stats, which the public cannot read).
        self.sent = self.failed = self.refused = self.dropped = self.forgotten = 0
        hub.listeners.shown.append(self._on_change)

    @property
    def client(self) -> PushClient:
        """The sending client, made at the first push: most processes never send one, and its HTTP
        library is among the largest a process would otherwise load at start."""
        if self._client is None:
            from app.features.push_client import PushClient

            self._client = PushClient(self.policy, self.ca_file)
        return self._client

    async def public_key(self) -> str:
        """The VAPID public key (base64url) a page subscribes with; the key pair is loaded, or
        made, when first wanted: by a page subscribing, or by a push to send."""
        if self.vapid is None:
            async with self._key_lock:
                if self.vapid is None:
                    await self._load_key()
        return self._public_key

    async def _load_key(self) -> None:
        """Load the VAPID key pair, or make it the very first time (one process wins)."""
        from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
        from py_vapid import Vapid

        async with self.tables.sessions() as s:
            pem = await s.scalar(select(ServerKey.value).where(ServerKey.name == KEY_NAME))
        if pem is None:
            fresh = Vapid()
            fresh.generate_keys()
            try:
                async with self.tables.sessions() as s, s.begin():
                    s.add(ServerKey(name=KEY_NAME, value=fresh.private_pem().decode()))
            except IntegrityError:  # another process made it first: use theirs
                pass
            async with self.tables.sessions() as s:
                pem = await s.scalar(select(ServerKey.value).where(ServerKey.name == KEY_NAME))
        assert pem is not None
        vapid = Vapid.from_pem(pem.encode())
        self._public_key = b64url(vapid.public_key.public_bytes(Encoding.X962, PublicFormat.UncompressedPoint))
        self.vapid = vapid

    async def stop(self) -> None:
        if self._tasks:
            await asyncio.wait(set(self._tasks), timeout=5)
        for task in list(self._tasks):
            task.cancel()
        if self._client is not None:
            await self._client.close()

    def stats(self) -> dict[str, int]:
        return {"sent": self.sent, "failed": self.failed, "refused": self.refused, "dropped": self.dropped,
                "forgotten": self.forgotten, "sending": self.sending}

    # -- subscriptions -------------------------------------------------------------------------

    async def subscribe(self, player_id: int, raw: object, table_id: int | None = None) -> None:
        endpoint, p256dh, auth = clean_subscription(raw, self.policy)
        self._subscribers.pop(table_id or 0, None)  # read again at the next turn
        async with self.tables.sessions() as s, s.begin():
            rows = (await s.scalars(select(PushSubscription).where(PushSubscription.player_id == player_id))).all()
            same = next((r for r in rows if r.endpoint == endpoint), None)
            if same is not None:
                same.p256dh, same.auth = p256dh, auth
                return
            if len(rows) >= SUBSCRIPTIONS_PER_SEAT:
                raise ApiError(409, "too_many_subscriptions",
                               f"This seat already notifies {len(rows)} browsers; remove one first.")
            s.add(PushSubscription(player_id=player_id, endpoint=endpoint, p256dh=p256dh, auth=auth, last_seq=-1))

    async def unsubscribe(self, player_id: int, endpoint: object) -> bool:
        if not isinstance(endpoint, str) or "\x00" in endpoint or len(endpoint) > MAX_ENDPOINT:
            raise ApiError(422, "invalid_subscription", "Name the endpoint to stop notifying.")
        async with self.tables.sessions() as s, s.begin():
            res = await s.execute(delete(PushSubscription).where(PushSubscription.player_id == player_id,
                                                                 PushSubscription.endpoint == endpoint))
        return bool(res.rowcount)

    # -- sending -------------------------------------------------------------------------------

    def _on_change(self, live: LiveTable, conn: Connection | None) -> None:
        """The hub's hook after a change: the seats that just became awaited, and are not
        connected anywhere, are sent a push."""
        if conn is not None:
            return
        if live.status != "playing":
            self._awaited.pop(live.id, None)
            return
        before = self._awaited.get(live.id)
        if before is not None and before[0] >= live.seq:
            return
        now = frozenset(live.awaiting)
        self._awaited[live.id] = (live.seq, now)
        self._awaited.move_to_end(live.id)
        while len(self._awaited) > KNOWN_LIMIT:
            self._awaited.popitem(last=False)
        fresh = now - before[1] if before is not None else now
        if not fresh:
            return
        connected = self.hub.connected(live.id)
        away = [p.id for p in live.players if p.seat in fresh and p.id not in connected]
        if away:
            self._spawn(self._notify_away(live, away, live.seq))

    def _spawn(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _notify_away(self, live: LiveTable, player_ids: list[int], seq: int) -> None:
        subscribed = await self._subscribed(live)
        for player_id in player_ids:
            if player_id in subscribed:
                await self.notify(live, player_id, seq)

    async def _subscribed(self, live: LiveTable) -> frozenset[int]:
        """The table's players with a subscription, read at most every SUBSCRIBERS_TTL seconds (a
        move costs no query at a table nobody subscribed at; a subscription made through another
        server process is seen within that time, one made here at once)."""
        known = self._subscribers.get(live.id)
        if known is not None and time.monotonic() - known[0] < SUBSCRIBERS_TTL:
            return known[1]
        ids = [p.id for p in live.players]
        async with self.tables.sessions() as s:
            found = frozenset((await s.scalars(select(PushSubscription.player_id)
                                               .where(PushSubscription.player_id.in_(ids)))).all())
        self._subscribers[live.id] = (time.monotonic(), found)
        self._subscribers.move_to_end(live.id)
        while len(self._subscribers) > KNOWN_LIMIT:
            self._subscribers.popitem(last=False)
        return found

    async def notify(self, live: LiveTable, player_id: int, seq: int) -> int:
        """Start sending "your turn" to each of the player's subscriptions not yet sent one at
        ``seq``; the number started."""
        async with self.tables.sessions() as s:
            subs = (await s.scalars(select(PushSubscription).where(PushSubscription.player_id == player_id))).all()
        if not subs:
            return 0
        await self.public_key()  # the signing key, loaded at the first push
        payload = orjson.dumps({
            "title": f"Your turn — {live.engine.title}",
            "body": f"Table {live.code}: the others await your move.",
            "code": live.code, "seq": seq, "url": f"/?open={live.code}",
        })
        started = 0
        for sub in subs:
            if self.sending >= SENDING_AT_ONCE:  # a host's pushes are few; so many at once is a fault
                self.dropped += 1
                log.warning("a push was dropped: %d are still being sent", self.sending)
                continue
            async with self.tables.sessions() as s, s.begin():
                claimed = await s.execute(update(PushSubscription).where(
                    PushSubscription.id == sub.id, PushSubscription.last_seq < seq).values(last_seq=seq))
            if claimed.rowcount != 1:
                continue  # sent already, by this process or another
            self.sending += 1
            self._spawn(self._send(sub.id, sub.endpoint, sub.p256dh, sub.auth, payload))
            started += 1
        return started

    async def _send(self, sub_id: int, endpoint: str, p256dh: str, auth: str, payload: bytes) -> None:
        from app.features.push_client import UNANSWERED

        host = "?"
        try:
            # Checked again: the rule may have changed since it was stored, or it predates the rule.
            url = self.policy.endpoint(endpoint)
            host = url.raw_host or "?"
            status = await self.client.post(url, *self._message(url, p256dh, auth, payload))
        except Refused as exc:
            self.refused += 1
            log.warning("a push to %s was refused: %s", host, exc)
            return
        except UNANSWERED as exc:
            self.failed += 1
            log.info("a push to %s could not be sent: %s", host, exc.__class__.__name__)
            return
        except Exception:  # a fault of ours must not end the sending of the others
            self.failed += 1
            log.exception("a push to %s failed", host)
            return
        finally:
            self.sending -= 1
        if 200 <= status < 300:
            self.sent += 1
            return
        self.failed += 1
        log.info("a push to %s was answered %d", host, status)
        if status in (404, 410):  # the browser dropped the subscription: forget it
            async with self.tables.sessions() as s, s.begin():
                await s.execute(delete(PushSubscription).where(PushSubscription.id == sub_id))
            self.forgotten += 1

    def _message(self, url: URL, p256dh: str, auth: str, payload: bytes) -> tuple[bytes, dict[str, str]]:
        """The encrypted body and the headers of one push (RFC 8030, 8291 and 8292)."""
        from pywebpush import WebPusher

        body = WebPusher({"endpoint": str(url), "keys": {"p256dh": p256dh, "auth": auth}}).encode(payload)["body"]
        claims = {"sub": self.contact, "aud": str(url.origin()), "exp": int(time.time()) + VAPID_SECONDS}
        headers = {"TTL": str(TTL_SECONDS), "Content-Encoding": "aes128gcm",
                   "Content-Type": "application/octet-stream", **self.vapid.sign(claims)}
        return body, headers
