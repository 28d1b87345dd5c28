"""DaemonLink against a fake daemon: hello, replay, queueing, reconnect with backoff, send_text, replacement."""
import asyncio
import unittest

import support  # noqa: F401
from fake_daemon import FakeDaemon, Sleeps
from fake_iterm2 import until

import ws_client
from daemon_link import RETRY_FIRST_S, RETRY_MAX_S, DaemonLink, Replaced

TOKEN = "t" * 40
URL = "ws://127.0.0.1:7878/bridge/iterm2"


class LinkCase(unittest.IsolatedAsyncioTestCase):
    async def asyncSetUp(self):
        self.daemon = FakeDaemon()
        self.sleeps = Sleeps()
        self.target = (URL, TOKEN)
        self.state = [{"type": "sessions", "sessions": []}]
        self.typed = []
        self.activated = []
        self.link = DaemonLink(lambda: self.target, {"bridge": "iterm2_bridge/test"}, lambda: list(self.state), self.on_send_text,
                               connect=self.daemon.connect, sleep=self.sleeps, on_activate=self.on_activate)
        self.task = None

    def start(self):
        self.task = asyncio.ensure_future(self.link.run())

    async def asyncTearDown(self):
        if self.task:
            self.task.cancel()
            await asyncio.gather(self.task, return_exceptions=True)

    async def on_send_text(self, session, text):
        if session == "broken":
            raise LookupError("no such session")
        self.typed.append((session, text))

    async def on_activate(self, session):
        if session == "gone":
            raise LookupError("no iTerm2 session gone")
        self.activated.append(session)

    async def connected(self, n=1):
        await until(lambda: len(self.daemon.sockets) >= n and self.link.welcomed, f"connection {n}")
        return self.daemon.sockets[n - 1]


class Connecting(LinkCase):
    async def test_hello_with_the_token_then_the_state_then_what_is_sent(self):
        self.start()
        self.assertFalse(self.link.send({"type": "focus", "session": "S1"}))  # not connected: dropped
        s = await self.connected()
        self.assertEqual(s.url, URL)
        self.assertEqual(s.headers, {"Authorization": f"Bearer {TOKEN}"})
        self.assertTrue(self.link.send({"type": "focus", "session": "S1"}))
        await until(lambda: len(s.sent) == 3, "three messages")
        self.assertEqual(s.sent, [
            {"type": "hello", "v": 1, "bridge": "iterm2_bridge/test"},
            {"type": "sessions", "sessions": []},
            {"type": "focus", "session": "S1"},
        ])

    async def test_reconnects_after_a_drop_and_sends_the_state_again(self):
        self.start()
        s1 = await self.connected()
        self.state = [{"type": "sessions", "sessions": [{"session": "S1", "name": "zsh", "cols": 80, "rows": 24}]}]
        s1.drop()
        s2 = await self.connected(2)
        await until(lambda: len(s2.sent) == 2, "hello and the state")
        self.assertEqual(s2.sent[1], self.state[0])
        self.assertEqual(self.sleeps, [RETRY_FIRST_S])
        self.assertTrue(s1.closed)

    async def test_backs_off_while_no_daemon_runs_then_starts_over(self):
        self.target = None
        self.start()
        await until(lambda: len(self.sleeps) >= 6, "six attempts")
        self.assertEqual(self.sleeps[:6], [0.5, 1.0, 2.0, 4.0, 8.0, RETRY_MAX_S])
        self.target = (URL, TOKEN)
        s = await self.connected()
        n = len(self.sleeps)
        s.drop()
        await self.connected(2)
        self.assertEqual(self.sleeps[n], RETRY_FIRST_S)

    async def test_a_refused_token_is_logged_and_retried(self):
        self.daemon.refusals = [ws_client.HandshakeError(401, "upgrade refused: HTTP/1.1 401 Unauthorized")]
        with self.assertLogs("iterm2_bridge", "WARNING") as logs:
            self.start()
            await self.connected()
        self.assertIn("the daemon refused the token", logs.output[0])

    async def test_no_welcome_is_a_failed_attempt(self):
        self.daemon.welcomes = False
        self.start()
        await until(lambda: self.daemon.sockets, "a socket")
        self.daemon.sockets[0].deliver({"type": "error"})
        await until(lambda: len(self.daemon.sockets) == 2, "a second attempt")
        self.assertFalse(self.link.welcomed)


class FromTheDaemon(LinkCase):
    async def test_send_text_is_typed_and_bad_requests_are_ignored(self):
        self.start()
        s = await self.connected()
        with self.assertLogs("iterm2_bridge", "WARNING") as logs:
            s.deliver("not json")
            s.deliver({"type": "send_text", "session": "S1"})
            s.deliver({"type": "send_text", "session": "broken", "text": "x"})
            s.deliver({"type": "send_text", "session": "S1", "text": "make\r"})
            await until(lambda: self.typed, "the text typed")
        self.assertEqual(self.typed, [("S1", "make\r")])
        self.assertEqual(len(logs.output), 3)
        self.assertTrue(self.link.welcomed)  # none of it broke the link

    async def test_activate_is_done_and_answered_under_its_id(self):
        self.start()
        s = await self.connected()
        with self.assertLogs("iterm2_bridge", "WARNING") as logs:
            s.deliver({"type": "activate", "session": "S1"})  # no id: nothing to answer under
            s.deliver({"type": "activate", "session": "S1", "id": 7})
            s.deliver({"type": "activate", "session": "gone", "id": 8})
            await until(lambda: len([m for m in s.sent if m.get("type") == "activated"]) == 2, "two answers")
        self.assertEqual(self.activated, ["S1"])
        self.assertEqual([m for m in s.sent if m.get("type") == "activated"], [
            {"type": "activated", "session": "S1", "id": 7, "ok": True},
            {"type": "activated", "session": "gone", "id": 8, "ok": False, "error": "no iTerm2 session gone"},
        ])
        self.assertEqual(len(logs.output), 1)

    async def test_a_newer_bridge_replaces_this_one(self):
        self.start()
        s = await self.connected()
        s.drop(code=4001)
        with self.assertRaises(Replaced), self.assertLogs("iterm2_bridge", "WARNING") as logs:
            await self.task
        self.assertIn("a newer bridge replaced this one", logs.output[0])


if __name__ == "__main__":
    unittest.main()
