"""A fake daemon end for DaemonLink: sockets that record what the bridge sends and deliver what the test scripts."""
import asyncio
import json

import support  # noqa: F401  (bridge/ on the path)
import ws_client


class FakeSocket:
    def __init__(self, daemon, url, headers):
        self.daemon = daemon
        self.url = url
        self.headers = headers
        self.sent = []
        self.inbox = asyncio.Queue()
        self.closed = False

    async def send(self, text):
        if self.closed:
            raise ws_client.WebSocketClosed(1006, "closed")
        m = json.loads(text)
        self.sent.append(m)
        if m.get("type") == "hello" and self.daemon.welcomes:
            self.deliver({"type": "welcome", "v": 1, "daemon": "9.9.9-test"})

    async def recv(self):
        item = await self.inbox.get()
        if isinstance(item, Exception):
            raise item
        return item if isinstance(item, str) else json.dumps(item)

    async def close(self, code=1000):
        self.closed = True

    def deliver(self, item):
        """A message (dict or raw text) from the daemon, or an exception recv() raises (the link dropping)."""
        self.inbox.put_nowait(item)

    def drop(self, code=1006):
        self.deliver(ws_client.WebSocketClosed(code, "test"))


class FakeDaemon:
    def __init__(self):
        self.sockets = []
        self.refusals = []
        self.welcomes = True

    async def connect(self, url, headers):
        if self.refusals:
            raise self.refusals.pop(0)
        s = FakeSocket(self, url, headers)
        self.sockets.append(s)
        return s


class Sleeps(list):
    """DaemonLink's sleep: records the backoff delays and returns at once (no wall-clock waiting in tests)."""

    async def __call__(self, seconds):
        self.append(seconds)
        await asyncio.sleep(0)
