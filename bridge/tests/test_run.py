"""The whole bridge: iterm2's runner (fake iTerm2) and the daemon link (fake daemon) in one event loop."""
import tempfile
import unittest

import support  # noqa: F401
from fake_daemon import FakeDaemon
from fake_iterm2 import FakeIterm2

import iterm2_bridge


class Run(unittest.TestCase):
    def test_streams_iterm2_to_the_daemon_until_a_newer_bridge_replaces_it(self):
        it = FakeIterm2()
        it.iterm.add_window("w1", ("S1", "zsh", 100, 30))
        daemon = FakeDaemon()

        async def connect(url, headers):
            s = await daemon.connect(url, headers)
            send = s.send

            async def send_then_maybe_replace(text):
                await send(text)
                if s.sent[-1]["type"] == "screen":
                    s.drop(code=4001)  # the daemon saw the screen; now a newer bridge takes over

            s.send = send_then_maybe_replace
            return s

        with tempfile.TemporaryDirectory() as home, self.assertLogs("iterm2_bridge", "INFO") as logs:
            env = {"HOME": home, "TERMSUPERVISOR_DAEMON": "http://127.0.0.1:7878"}
            self.assertEqual(iterm2_bridge.run(it, None, env, connect=connect), 0)
        s = daemon.sockets[0]
        self.assertEqual(s.url, "ws://127.0.0.1:7878/bridge/iterm2")
        self.assertEqual(s.headers, {})  # no token file yet: the daemon will refuse, and the bridge says so
        self.assertEqual(s.sent[0], {"type": "hello", "v": 1, "bridge": f"iterm2_bridge/{iterm2_bridge.BRIDGE_VERSION}", "iterm2": "2.99-fake"})
        self.assertIn({"type": "sessions", "sessions": [{"session": "S1", "name": "zsh", "cols": 100, "rows": 30}]}, s.sent)
        screen = next(m for m in s.sent if m["type"] == "screen")
        self.assertEqual((len(screen["rows"]), screen["cols"]), (30, 100))
        self.assertTrue(any("newer bridge" in line for line in logs.output))


if __name__ == "__main__":
    unittest.main()
