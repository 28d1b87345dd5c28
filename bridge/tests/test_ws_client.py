"""The websocket client against a small in-test websocket server on loopback: handshake, frames both ways,
ping/pong, close codes, and a refused upgrade."""
import asyncio
import base64
import hashlib
import os
import struct
import unittest

import support  # noqa: F401
import ws_client

GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"


class Server:
    """Accepts one websocket at a time; `script(reader, writer, request)` plays the server's part."""

    def __init__(self, script, status=101, accept=None):
        self.script = script
        self.status = status
        self.accept = accept
        self.requests = []
        self.finished = asyncio.Event()

    async def start(self):
        self.server = await asyncio.start_server(self.handle, "127.0.0.1", 0)
        self.url = f"ws://127.0.0.1:{self.server.sockets[0].getsockname()[1]}/bridge/iterm2"
        return self

    async def handle(self, reader, writer):
        head = (await reader.readuntil(b"\r\n\r\n")).decode()
        self.requests.append(head)
        if self.status != 101:
            writer.write(f"HTTP/1.1 {self.status} Unauthorized\r\nContent-Length: 0\r\n\r\n".encode())
            await writer.drain()
            writer.close()
            return
        key = next(line.split(":", 1)[1].strip() for line in head.split("\r\n") if line.lower().startswith("sec-websocket-key"))
        accept = self.accept or base64.b64encode(hashlib.sha1((key + GUID).encode()).digest()).decode()
        writer.write(f"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: {accept}\r\n\r\n".encode())
        await self.script(reader, writer)
        writer.close()
        self.finished.set()

    async def stop(self):
        self.server.close()
        await self.server.wait_closed()


def frame(op, payload, fin=True):
    n = len(payload)
    head = struct.pack("!BB", (0x80 if fin else 0) | op, n) if n < 126 else struct.pack("!BBH", (0x80 if fin else 0) | op, 126, n)
    return head + payload


async def read_frame(reader):
    b0, b1 = await reader.readexactly(2)
    n = b1 & 0x7F
    if n == 126:
        n = struct.unpack("!H", await reader.readexactly(2))[0]
    elif n == 127:
        n = struct.unpack("!Q", await reader.readexactly(8))[0]
    assert b1 & 0x80, "a client must mask its frames"
    mask = await reader.readexactly(4)
    data = bytes(b ^ mask[i % 4] for i, b in enumerate(await reader.readexactly(n)))
    return b0 & 0x0F, data


class Client(unittest.IsolatedAsyncioTestCase):
    async def test_text_both_ways_ping_fragments_and_the_close_code(self):
        got = []

        async def script(reader, writer):
            got.append(await read_frame(reader))
            got.append(await read_frame(reader))
            writer.write(frame(ws_client.OP_PING, b"hi"))
            writer.write(frame(ws_client.OP_TEXT, b'{"type":', fin=False) + frame(ws_client.OP_CONT, b'"welcome"}'))
            await writer.drain()
            got.append(await read_frame(reader))  # the pong
            writer.write(frame(ws_client.OP_CLOSE, struct.pack("!H", 4001) + b"replaced"))
            await writer.drain()
            got.append(await read_frame(reader))  # the close echoed

        server = await Server(script).start()
        ws = await ws_client.connect(server.url, {"Authorization": "Bearer tok"})
        await ws.send('{"type":"hello"}')
        big = "é" * 40000  # 80 000 bytes: the 64-bit length form
        await ws.send(big)
        self.assertEqual(await ws.recv(), '{"type":"welcome"}')
        with self.assertRaises(ws_client.WebSocketClosed) as closed:
            await ws.recv()
        self.assertEqual((closed.exception.code, closed.exception.reason), (4001, "replaced"))
        await server.finished.wait()
        await server.stop()
        self.assertEqual(got[0], (ws_client.OP_TEXT, b'{"type":"hello"}'))
        self.assertEqual(got[1], (ws_client.OP_TEXT, big.encode()))
        self.assertEqual(got[2], (ws_client.OP_PONG, b"hi"))
        self.assertEqual(got[3][0], ws_client.OP_CLOSE)
        self.assertIn("GET /bridge/iterm2 HTTP/1.1", server.requests[0])
        self.assertIn("Authorization: Bearer tok", server.requests[0])

    async def test_a_refused_upgrade_reports_its_status(self):
        server = await Server(None, status=401).start()
        with self.assertRaises(ws_client.HandshakeError) as refused:
            await ws_client.connect(server.url)
        self.assertEqual(refused.exception.status, 401)
        await server.stop()

    async def test_a_wrong_accept_key_is_refused(self):
        async def script(reader, writer):
            await reader.read()

        server = await Server(script, accept="wrong").start()
        with self.assertRaises(ws_client.HandshakeError):
            await ws_client.connect(server.url)
        await server.stop()

    async def test_the_connection_dropping_is_a_1006_close(self):
        async def script(reader, writer):
            pass

        server = await Server(script).start()
        ws = await ws_client.connect(server.url)
        with self.assertRaises(ws_client.WebSocketClosed) as closed:
            await ws.recv()
        self.assertEqual(closed.exception.code, 1006)
        await server.stop()

    def test_mask_round_trip(self):
        data = os.urandom(1001)
        mask = b"\x01\x02\x03\x04"
        self.assertEqual(ws_client._mask(ws_client._mask(data, mask), mask), data)


if __name__ == "__main__":
    unittest.main()
