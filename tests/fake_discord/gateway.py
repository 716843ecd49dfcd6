"""The gateway: a websocket speaking Discord's gateway protocol v10.

HELLO, heartbeats and their ACKs, IDENTIFY -> READY + one GUILD_CREATE per
server, RESUME -> the missed events then RESUMED, INVALID_SESSION, member
chunks, and dispatches with sequence numbers. Transport compression is
`zlib-stream` (one compressor per connection, each message ended with a
Z_SYNC_FLUSH) or `zstd-stream` when the `zstandard` package is installed.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
import zlib
from collections import deque
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from aiohttp import WSMsgType, web

from .core import GUILD_MEMBERS, GUILD_PRESENCES, MESSAGE_CONTENT
from .model import JSON

if TYPE_CHECKING:
    from asyncio import Transport

    from .core import Core

DISPATCH, HEARTBEAT, IDENTIFY, PRESENCE, VOICE_STATE, RESUME = 0, 1, 2, 3, 4, 6
RECONNECT, REQUEST_MEMBERS, INVALID_SESSION, HELLO, HEARTBEAT_ACK = 7, 8, 9, 10, 11
PRIVILEGED = GUILD_MEMBERS | GUILD_PRESENCES | MESSAGE_CONTENT
REPLAY_BUFFER = 5000
TRACE = ["fake-discord-gateway"]


class Compressor:
    """Transport compression for one connection."""

    def __init__(self, kind: str | None) -> None:
        self.kind = kind
        self._zlib: Any = None
        self._zstd: Any = None
        self._zstd_flush = 0
        if kind == "zlib-stream":
            self._zlib = zlib.compressobj()
        elif kind == "zstd-stream":
            import zstandard  # only present when discord.py would ask for zstd

            self._zstd = zstandard.ZstdCompressor().compressobj()
            self._zstd_flush = zstandard.COMPRESSOBJ_FLUSH_BLOCK

    def encode(self, text: str) -> bytes | str:
        raw = text.encode()
        out: bytes
        if self._zlib is not None:
            out = self._zlib.compress(raw) + self._zlib.flush(zlib.Z_SYNC_FLUSH)
        elif self._zstd is not None:
            out = self._zstd.compress(raw) + self._zstd.flush(self._zstd_flush)
        else:
            return text
        return out


def zstd_available() -> bool:
    try:
        import zstandard  # noqa: F401
    except ImportError:
        return False
    return True


class Connection:
    """One websocket; writes go through a queue so that order and compression stay intact."""

    def __init__(
        self,
        ws: web.WebSocketResponse,
        compressor: Compressor,
        path: str,
        transport: Transport | None,
    ) -> None:
        self.ws = ws
        self.compressor = compressor
        self.path = path
        self.transport = transport
        self.session: Session | None = None
        self.closed = False
        #: Closed by the fake on purpose (a drop), so the session stays resumable.
        self.dropped = False
        self.heartbeats = 0
        self.sent: list[JSON] = []
        self._queue: asyncio.Queue[str | None] = asyncio.Queue()
        self._writer = asyncio.get_running_loop().create_task(self._write())

    @property
    def compression(self) -> str | None:
        return self.compressor.kind

    def send(self, payload: JSON) -> None:
        if not self.closed:
            self.sent.append(payload)
            self._queue.put_nowait(json.dumps(payload))

    async def _write(self) -> None:
        while True:
            text = await self._queue.get()
            if text is None:
                return
            data = self.compressor.encode(text)
            try:
                if isinstance(data, bytes):
                    await self.ws.send_bytes(data)
                else:
                    await self.ws.send_str(data)
            except (ConnectionError, RuntimeError):
                return

    def finish(self) -> None:
        """The socket is gone: stop writing."""
        self.closed = True
        self._writer.cancel()

    async def close(self, code: int, *, abrupt: bool = False, flush: bool = True) -> None:
        if self.closed:
            return
        self.closed = True
        if flush:
            self._queue.put_nowait(None)
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(asyncio.shield(self._writer), timeout=2)
        self._writer.cancel()
        if abrupt and self.transport is not None:
            self.transport.abort()
            return
        with contextlib.suppress(ConnectionError, RuntimeError, asyncio.TimeoutError):
            await asyncio.wait_for(self.ws.close(code=code), timeout=2)


@dataclass(eq=False)
class Session:
    id: str
    intents: int
    shard: tuple[int, int] | None
    large_threshold: int
    seq: int = 0
    buffer: deque[JSON] = field(default_factory=lambda: deque(maxlen=REPLAY_BUFFER))
    conn: Connection | None = None
    invalid: bool = False
    resumes: int = 0

    def owns(self, guild_id: int | None) -> bool:
        if self.shard is None:
            return True
        shard_id, count = self.shard
        if guild_id is None:
            return shard_id == 0
        return (guild_id >> 22) % count == shard_id

    def send_dispatch(self, event: str, data: JSON) -> None:
        self.seq += 1
        payload = {"op": DISPATCH, "t": event, "s": self.seq, "d": data}
        self.buffer.append(payload)
        if self.conn is not None:
            self.conn.send(payload)


class GatewayHub:
    def __init__(
        self,
        core: Core,
        *,
        heartbeat_interval_ms: int = 41250,
        recommended_shards: int = 1,
        max_concurrency: int = 1,
        identify_every: float = 5.0,
    ) -> None:
        self.core = core
        self.heartbeat_interval_ms = heartbeat_interval_ms
        self.recommended_shards = recommended_shards
        # Discord's session start limit: one IDENTIFY per `identify_every` seconds in each
        # bucket (`shard_id % max_concurrency`), whatever process sends it.
        self.max_concurrency = max_concurrency
        self.identify_every = identify_every
        self._identified_at: dict[int, float] = {}
        self.sessions: dict[str, Session] = {}
        self.connections: list[Connection] = []
        self.identifies = 0
        self.resumes = 0
        self.gateway_url = ""
        self.resume_url = ""

    # ------------------------------------------------------------ queries

    def live_sessions(self) -> list[Session]:
        return [
            s
            for s in self.sessions.values()
            if s.conn is not None and not s.conn.closed and not s.invalid
        ]

    def open_connections(self) -> list[Connection]:
        return [c for c in self.connections if not c.closed]

    # ------------------------------------------------------------ events

    def dispatch(
        self,
        event: str,
        data: JSON,
        *,
        guild_id: int | None,
        intent: int | None,
        strip_content: bool,
    ) -> None:
        sessions = [s for s in self.sessions.values() if not s.invalid and s.owns(guild_id)]
        if event == "INTERACTION_CREATE":
            # Discord hands an interaction to one connection: the live session of the
            # guild's shard (the newest, if several), or else the newest session to resume.
            live = [s for s in sessions if s.conn is not None and not s.conn.closed]
            sessions = (live or sessions)[-1:]
        for session in sessions:
            if intent is not None and not session.intents & intent:
                continue
            payload = data
            if strip_content and not session.intents & MESSAGE_CONTENT:
                payload = dict(data, content="", embeds=[], attachments=[], components=[])
            session.send_dispatch(event, payload)

    # ------------------------------------------------------------ control, for tests

    async def drop(self, *, code: int = 1001, abrupt: bool = False) -> int:
        """Close every live connection as a network failure would; sessions stay resumable."""
        conns = self.open_connections()
        for conn in conns:
            conn.dropped = True
            await conn.close(code, abrupt=abrupt, flush=False)
        self.core.pulse()
        return len(conns)

    def reconnect(self) -> None:
        """Ask every live connection to reconnect (op 7); discord.py then resumes."""
        for conn in self.open_connections():
            if conn.session is not None:
                conn.dropped = True
                conn.send({"op": RECONNECT, "d": None, "s": None, "t": None})

    def invalidate(self, *, resumable: bool) -> None:
        """Send INVALID_SESSION to every live connection."""
        for conn in self.open_connections():
            if conn.session is not None:
                if not resumable:
                    conn.session.invalid = True
                conn.dropped = True
                conn.send({"op": INVALID_SESSION, "d": resumable, "s": None, "t": None})

    async def close_all(self) -> None:
        for conn in self.open_connections():
            conn.dropped = True
            await conn.close(1001, flush=False)

    # ------------------------------------------------------------ the websocket

    async def handle(self, request: web.Request) -> web.StreamResponse:
        if self.core.outage is not None:  # a simulated outage: no websocket upgrade
            return web.Response(status=503, text="503: Service Unavailable")
        ws = web.WebSocketResponse(autoping=True, max_msg_size=4 * 1024 * 1024)
        query = request.query
        compress = query.get("compress")
        await ws.prepare(request)
        problem = None
        close_code = 4000
        if query.get("v") != "10":
            problem, close_code = f"gateway version {query.get('v')!r}, expected 10", 4012
        elif query.get("encoding", "json") != "json":
            problem, close_code = (
                f"encoding {query.get('encoding')!r}: the fake speaks json only",
                4002,
            )
        elif compress not in (None, "zlib-stream", "zstd-stream"):
            problem, close_code = f"unknown transport compression {compress!r}", 4000
        elif compress == "zstd-stream" and not zstd_available():
            problem = "zstd-stream asked for but the zstandard package is missing"
        if problem is not None:
            self.core.violation(f"gateway: {problem}")
            await ws.close(code=close_code)
            return ws
        conn = Connection(ws, Compressor(compress), request.path, request.transport)
        self.connections.append(conn)
        conn.send(
            {
                "op": HELLO,
                "s": None,
                "t": None,
                "d": {"heartbeat_interval": self.heartbeat_interval_ms, "_trace": TRACE},
            }
        )
        try:
            async for msg in ws:
                if msg.type is WSMsgType.TEXT:
                    if not await self._receive(conn, msg.data):
                        break
                elif msg.type is WSMsgType.BINARY:
                    await self._refuse(
                        conn, 4002, "sent a binary frame; discord.py sends JSON text"
                    )
                    break
        finally:
            self._closed(conn, ws.close_code)
        return ws

    def _closed(self, conn: Connection, code: int | None) -> None:
        was_closed = conn.closed
        conn.finish()
        session = conn.session
        if session is not None and session.conn is conn:
            session.conn = None
            if not conn.dropped and not was_closed and code in (1000, 1001):
                session.invalid = True  # a clean close by the client ends its session
        self.core.pulse()

    async def _refuse(self, conn: Connection, code: int, why: str) -> None:
        self.core.violation(f"gateway: {why} (closed with {code})")
        await conn.close(code)

    async def _receive(self, conn: Connection, text: str) -> bool:
        try:
            payload = json.loads(text)
            op = payload["op"]
        except (ValueError, KeyError, TypeError):
            await self._refuse(conn, 4002, f"undecodable payload {text[:100]!r}")
            return False
        data = payload.get("d")
        if op == HEARTBEAT:
            conn.heartbeats += 1
            conn.send({"op": HEARTBEAT_ACK, "d": None, "s": None, "t": None})
            return True
        if op == IDENTIFY:
            return await self._identify(conn, data if isinstance(data, dict) else {})
        if op == RESUME:
            return await self._resume(conn, data if isinstance(data, dict) else {})
        if conn.session is None:
            await self._refuse(conn, 4003, f"op {op} before IDENTIFY")
            return False
        if op in (PRESENCE, VOICE_STATE):
            return True
        if op == REQUEST_MEMBERS:
            self._request_members(conn.session, data if isinstance(data, dict) else {})
            return True
        await self._refuse(conn, 4001, f"unknown opcode {op}")
        return False

    def _token_ok(self, token: Any) -> bool:
        return isinstance(token, str) and token.removeprefix("Bot ") == self.core.token

    async def _identify(self, conn: Connection, data: JSON) -> bool:
        if conn.session is not None:
            await self._refuse(conn, 4005, "IDENTIFY sent twice on one connection")
            return False
        if not self._token_ok(data.get("token")):
            await self._refuse(conn, 4004, "IDENTIFY with a wrong token")
            return False
        intents = data.get("intents")
        if not isinstance(intents, int) or intents < 0:
            await self._refuse(conn, 4013, f"invalid intents {intents!r}")
            return False
        disallowed = intents & PRIVILEGED & ~self.core.allowed_intents
        if disallowed:
            await self._refuse(
                conn,
                4014,
                f"privileged intents {disallowed} not enabled for this application "
                "(FakeDiscord(privileged_intents=...))",
            )
            return False
        shard = data.get("shard")
        shard_pair: tuple[int, int] | None = None
        if shard is not None:
            if (
                not isinstance(shard, list)
                or len(shard) != 2
                or not all(isinstance(x, int) for x in shard)
                or not 0 <= shard[0] < shard[1]
            ):
                await self._refuse(conn, 4010, f"invalid shard {shard!r}")
                return False
            shard_pair = (shard[0], shard[1])
        bucket = (shard_pair[0] if shard_pair else 0) % self.max_concurrency
        now = asyncio.get_running_loop().time()
        last = self._identified_at.get(bucket)
        if last is not None and now - last < self.identify_every:
            self.core.violation(
                f"IDENTIFY of shard {shard_pair} {now - last:.2f} s after another in bucket"
                f" {bucket}: one per {self.identify_every:g} s (max_concurrency"
                f" {self.max_concurrency})"
            )
        self._identified_at[bucket] = now
        session = Session(
            id=secrets.token_hex(16),
            intents=intents,
            shard=shard_pair,
            large_threshold=int(data.get("large_threshold", 50)),
        )
        self.sessions[session.id] = session
        session.conn = conn
        conn.session = session
        world = self.core.world
        owned = [g for g in world.guilds.values() if session.owns(g.id)]
        ready: JSON = {
            "v": 10,
            "user": dict(world.bot.payload(), verified=True, mfa_enabled=False, email=None),
            "guilds": [{"id": str(g.id), "unavailable": True} for g in owned],
            "session_id": session.id,
            "session_type": "normal",
            "resume_gateway_url": self.resume_url,
            "application": {"id": str(world.application_id), "flags": self.application_flags()},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "guild_join_requests": [],
            "geo_ordered_rtc_regions": [],
            "user_settings": {},
            "auth": {},
            "_trace": TRACE,
        }
        if shard_pair is not None:
            ready["shard"] = list(shard_pair)
        session.send_dispatch("READY", ready)
        for guild in owned:
            session.send_dispatch("GUILD_CREATE", self.guild_create(session, guild.id))
        self.identifies += 1
        self.core.pulse()
        return True

    def application_flags(self) -> int:
        allowed = self.core.allowed_intents
        flags = 1 << 23  # APPLICATION_COMMAND_BADGE
        if allowed & GUILD_PRESENCES:
            flags |= 1 << 13
        if allowed & GUILD_MEMBERS:
            flags |= 1 << 15
        if allowed & MESSAGE_CONTENT:
            flags |= 1 << 19
        return flags

    def guild_create(self, session: Session, guild_id: int) -> JSON:
        guild = self.core.world.guilds[guild_id]
        return guild.payload(
            bot_id=self.core.world.bot.id,
            all_members=bool(session.intents & GUILD_PRESENCES),
            large_threshold=session.large_threshold,
        )

    async def _resume(self, conn: Connection, data: JSON) -> bool:
        if conn.session is not None:
            await self._refuse(conn, 4005, "RESUME on an already identified connection")
            return False
        session = self.sessions.get(str(data.get("session_id")))
        seq = data.get("seq")
        oldest = session.buffer[0]["s"] if session is not None and session.buffer else 1
        if (
            session is None
            or session.invalid
            or not self._token_ok(data.get("token"))
            or (isinstance(seq, int) and seq < oldest - 1)
        ):
            conn.send({"op": INVALID_SESSION, "d": False, "s": None, "t": None})
            return True
        old = session.conn
        if old is not None and old is not conn:
            old.dropped = True
            await old.close(4000, flush=False)
        session.conn = conn
        conn.session = session
        last = seq if isinstance(seq, int) else 0
        for payload in list(session.buffer):
            if payload["s"] > last:
                conn.send(payload)
        session.send_dispatch("RESUMED", {"_trace": TRACE})
        session.resumes += 1
        self.resumes += 1
        self.core.pulse()
        return True

    def _request_members(self, session: Session, data: JSON) -> None:
        world = self.core.world
        try:
            guild = world.guilds[int(data["guild_id"])]
        except (KeyError, ValueError, TypeError):
            self.core.violation(
                f"gateway: REQUEST_GUILD_MEMBERS for unknown guild {data.get('guild_id')!r}"
            )
            return
        query = data.get("query")
        user_ids = data.get("user_ids")
        if not session.intents & GUILD_MEMBERS and not user_ids and not query:
            self.core.violation(
                "gateway: REQUEST_GUILD_MEMBERS for the whole list without the GUILD_MEMBERS intent"
            )
            return
        members = list(guild.members.values())
        if user_ids:
            wanted = {int(u) for u in (user_ids if isinstance(user_ids, list) else [user_ids])}
            members = [m for m in members if m.user.id in wanted]
        elif query:
            members = [m for m in members if m.user.username.startswith(str(query).lower())]
        limit = data.get("limit") or 0
        if limit:
            members = members[:limit]
        chunk: JSON = {
            "guild_id": str(guild.id),
            "members": [m.payload() for m in members],
            "chunk_index": 0,
            "chunk_count": 1,
            "not_found": [],
        }
        if data.get("nonce"):
            chunk["nonce"] = data["nonce"]
        session.send_dispatch("GUILD_MEMBERS_CHUNK", chunk)
