"""A small websocket client (RFC 6455) on asyncio streams, for the bridge's link to the daemon.

The bridge runs inside iTerm2's Python environment, whose `websockets` package changes its connect() signature
between versions; the daemon's link needs little (text frames, a bearer header, ping/pong, close), so the bridge
carries its own client and depends on nothing but the standard library for it.
"""
import asyncio
import base64
import hashlib
import os
import ssl
import struct
from urllib.parse import urlsplit

#: RFC 6455's fixed GUID for the handshake's accept key.
_ACCEPT_GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
#: A handshake response larger than this is not a websocket server's.
MAX_HANDSHAKE_BYTES = 16 << 10
#: Largest message accepted from the daemon: it only sends welcomes and text to type (64 KiB at most).
MAX_MESSAGE_BYTES = 1 << 20

OP_CONT, OP_TEXT, OP_BINARY, OP_CLOSE, OP_PING, OP_PONG = 0x0, 0x1, 0x2, 0x8, 0x9, 0xA


class HandshakeError(Exception):
    """The server answered the upgrade with something other than 101 (e.g. 401: the token was refused)."""

    def __init__(self, status, message):
        super().__init__(message)
        self.status = status


class WebSocketClosed(Exception):
    """The connection is closed; `code` is the close code the server sent (1006 when it just went away)."""

    def __init__(self, code=1006, reason=""):
        super().__init__(f"websocket closed ({code}{': ' + reason if reason else ''})")
        self.code = code
        self.reason = reason


async def within(awaitable, timeout):
    """awaitable's result, or asyncio.TimeoutError after `timeout` seconds. Unlike asyncio.wait_for before Python
    3.12, a cancellation arriving just as the awaitable completes is never swallowed."""
    task = asyncio.ensure_future(awaitable)
    try:
        done, _ = await asyncio.wait({task}, timeout=timeout)
    except BaseException:
        task.cancel()
        raise
    if not done:
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
        raise asyncio.TimeoutError()
    return task.result()


async def connect(url, headers=None, timeout=5.0):
    """Opens a websocket to `url` (ws:// or wss://) with extra request `headers`; raises HandshakeError or OSError."""
    parts = urlsplit(url)
    secure = parts.scheme == "wss"
    host = parts.hostname or "localhost"
    port = parts.port or (443 if secure else 80)
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    ctx = ssl.create_default_context() if secure else None
    reader, writer = await within(asyncio.open_connection(host, port, ssl=ctx), timeout)
    try:
        key = base64.b64encode(os.urandom(16)).decode()
        host_header = f"[{host}]" if ":" in host else host
        lines = [
            f"GET {path} HTTP/1.1",
            f"Host: {host_header}:{port}",
            "Upgrade: websocket",
            "Connection: Upgrade",
            f"Sec-WebSocket-Key: {key}",
            "Sec-WebSocket-Version: 13",
        ]
        lines += [f"{k}: {v}" for k, v in (headers or {}).items()]
        writer.write(("\r\n".join(lines) + "\r\n\r\n").encode())
        await writer.drain()
        head = await within(reader.readuntil(b"\r\n\r\n"), timeout)
        if len(head) > MAX_HANDSHAKE_BYTES:
            raise HandshakeError(0, "handshake response too large")
        status_line, *header_lines = head.decode("latin-1").split("\r\n")
        fields = status_line.split(" ", 2)
        status = int(fields[1]) if len(fields) > 1 and fields[1].isdigit() else 0
        if status != 101:
            raise HandshakeError(status, f"upgrade refused: {status_line.strip()}")
        got = {}
        for line in header_lines:
            name, _, value = line.partition(":")
            got[name.strip().lower()] = value.strip()
        expected = base64.b64encode(hashlib.sha1((key + _ACCEPT_GUID).encode()).digest()).decode()
        if got.get("sec-websocket-accept") != expected:
            raise HandshakeError(status, "bad Sec-WebSocket-Accept")
    except BaseException:
        writer.close()
        raise
    return WebSocket(reader, writer)


def _mask(data, mask):
    """XOR with the 4-byte mask, as one big integer operation (fast enough for screens of text)."""
    if not data:
        return data
    n = len(data)
    key = (mask * (n // 4 + 1))[:n]
    return (int.from_bytes(data, "big") ^ int.from_bytes(key, "big")).to_bytes(n, "big")


class WebSocket:
    def __init__(self, reader, writer):
        self._reader = reader
        self._writer = writer
        self._write_lock = asyncio.Lock()
        self.closed = False

    async def send(self, text):
        await self._frame(OP_TEXT, text.encode("utf-8"))

    async def recv(self):
        """The next text message; raises WebSocketClosed when the connection ends."""
        parts = []
        size = 0
        while True:
            try:
                fin, op, payload = await self._read_frame()
            except (asyncio.IncompleteReadError, ConnectionError, OSError):
                self.closed = True
                self._writer.close()
                raise WebSocketClosed(1006, "connection lost")
            if op == OP_PING:
                await self._frame(OP_PONG, payload)
                continue
            if op == OP_PONG:
                continue
            if op == OP_CLOSE:
                code = struct.unpack("!H", payload[:2])[0] if len(payload) >= 2 else 1005
                reason = payload[2:].decode("utf-8", "replace")
                await self.close(code)
                raise WebSocketClosed(code, reason)
            size += len(payload)
            if size > MAX_MESSAGE_BYTES:
                await self.close(1009)
                raise WebSocketClosed(1009, "message too big")
            parts.append(payload)
            if fin:
                data = b"".join(parts)
                if op == OP_BINARY:
                    parts, size = [], 0
                    continue  # the daemon sends text only; a binary frame is skipped, not misread
                return data.decode("utf-8", "replace")

    async def close(self, code=1000):
        if self.closed:
            return
        try:
            await self._frame(OP_CLOSE, struct.pack("!H", code))
        except (ConnectionError, OSError, RuntimeError):
            pass
        self.closed = True
        self._writer.close()

    async def _read_frame(self):
        b0, b1 = await self._reader.readexactly(2)
        fin = bool(b0 & 0x80)
        op = b0 & 0x0F
        length = b1 & 0x7F
        if length == 126:
            length = struct.unpack("!H", await self._reader.readexactly(2))[0]
        elif length == 127:
            length = struct.unpack("!Q", await self._reader.readexactly(8))[0]
        if length > MAX_MESSAGE_BYTES:
            raise ConnectionError("frame too big")
        mask = await self._reader.readexactly(4) if b1 & 0x80 else None
        payload = await self._reader.readexactly(length)
        return fin, op, _mask(payload, mask) if mask else payload

    async def _frame(self, op, payload):
        if self.closed:
            raise WebSocketClosed(1006, "already closed")
        n = len(payload)
        if n < 126:
            head = struct.pack("!BB", 0x80 | op, 0x80 | n)
        elif n < 1 << 16:
            head = struct.pack("!BBH", 0x80 | op, 0x80 | 126, n)
        else:
            head = struct.pack("!BBQ", 0x80 | op, 0x80 | 127, n)
        mask = os.urandom(4)
        async with self._write_lock:
            self._writer.write(head + mask + _mask(payload, mask))
            await self._writer.drain()
