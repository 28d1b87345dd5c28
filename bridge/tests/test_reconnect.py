"""The whole bridge (iterm2_bridge.run) with each event-loop behaviour of the library: the daemon hears from iTerm2
and jumps reach it while iTerm2 is connected; iTerm2 quits and comes back with single-use cookies; a session created
after the return is seen. Runs in a thread with a deadline: a bridge whose loop stands still would hang, not fail."""
import asyncio
import os
import tempfile
import threading
import unittest
from unittest import mock

import support  # noqa: F401
from fake_daemon import FakeDaemon
from fake_iterm2 import FakeIterm2

import iterm2_bridge
import iterm2_connection

#: Wall-clock limit for one whole run (it takes well under a second); past it the bridge is stuck.
RUN_DEADLINE_S = 20.0
#: The bridge's retry while iTerm2 is away, shortened so the test does not wait 5 s per attempt.
FAST_RETRY_S = 0.02


def run_bridge(it, script):
    """Runs the bridge against `it` and a fake daemon whose socket calls `script(message, socket)` for each message
    the bridge sends. Returns (exit code or None if stuck, the daemon's sockets, log lines)."""
    daemon = FakeDaemon()

    async def connect(url, headers):
        s = await daemon.connect(url, headers)
        send = s.send

        async def send_and_react(text):
            await send(text)
            script(s.sent[-1], s)

        s.send = send_and_react
        return s

    result = {}
    with tempfile.TemporaryDirectory() as home:
        env = {"HOME": home, "TERMSUPERVISOR_DAEMON": "http://127.0.0.1:7878"}

        def target():
            with mock.patch.object(iterm2_bridge, "ITERM_RETRY_S", FAST_RETRY_S):
                result["code"] = iterm2_bridge.run(it, None, env, connect=connect)

        with unittest.TestCase().assertLogs("iterm2_bridge", "DEBUG") as logs:
            thread = threading.Thread(target=target, daemon=True)
            thread.start()
            thread.join(RUN_DEADLINE_S)
    return result.get("code"), daemon.sockets, logs.output


class QuitAndReturn(unittest.TestCase):
    def setUp(self):
        self._env = {k: os.environ.get(k) for k in iterm2_connection.COOKIE_VARS}

    def tearDown(self):
        for k, v in self._env.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v

    def check_style(self, style):
        it = FakeIterm2(loop_style=style)
        iterm = it.iterm
        iterm.add_window("w1", ("S1", "zsh", 100, 30))
        iterm.require_cookies("first-cookie")  # iTerm2 started the script with a cookie (AutoLaunch)
        os.environ["ITERM2_COOKIE"], os.environ["ITERM2_KEY"] = "first-cookie", "key"
        steps = []

        def script(m, s):
            step = len(steps)
            if step == 0 and m["type"] == "screen" and m["session"] == "S1":
                steps.append("screen")
                s.deliver({"type": "activate", "session": "S1", "id": 1})  # a jump, read while iTerm2 is connected
            elif step == 1 and m["type"] == "activated":
                steps.append(("activated", m["ok"]))
                iterm.drop()  # iTerm2 quits
            elif step == 2 and m == {"type": "sessions", "sessions": []}:
                steps.append("closed")
                iterm.restart()  # and comes back: the bridge needs a new cookie (AppleScript)
            elif step == 3 and m["type"] == "screen" and iterm.connects == 2:
                steps.append("back")

                async def create_when_watched():
                    await iterm.until_subscribed("new_session")
                    iterm.new_session("w1", "S2", "claude")
                asyncio.ensure_future(create_when_watched())
            elif step == 4 and m["type"] == "sessions" and "S2" in [x["session"] for x in m["sessions"]]:
                steps.append("new session seen")
                s.drop(code=4001)  # done: a newer bridge takes over, run() returns 0

        code, sockets, logs = run_bridge(it, script)
        self.assertEqual(steps, ["screen", ("activated", True), "closed", "back", "new session seen"], "\n".join(logs[-30:]))
        self.assertEqual(code, 0)
        self.assertEqual(iterm.session("S1").activated, [{"select_tab": True, "order_window_front": True}])
        self.assertEqual(iterm.dispatch_errors, [])  # no handler of the first connection ran on the second
        self.assertNotEqual(os.environ.get("ITERM2_COOKIE"), "first-cookie")

    def test_current_library_a_new_event_loop_per_run(self):
        self.check_style("2.11")

    def test_library_2_10_the_callers_event_loop(self):
        self.check_style("2.10")

    def test_no_cookie_and_no_applescript_is_said_plainly_and_retried(self):
        it = FakeIterm2()
        it.iterm.add_window("w1", ("S1", "zsh"))
        it.iterm.require_cookies()
        it.iterm.applescript = False
        os.environ.pop("ITERM2_COOKIE", None)
        attempts = []

        real_connect = iterm2_connection.ItermConnector.connect

        async def counting_connect(self):
            attempts.append("iterm")
            if attempts.count("iterm") >= 3:  # retried: now iTerm2's cookie arrives (run from AutoLaunch)
                os.environ["ITERM2_COOKIE"] = it.iterm.issue_cookie()
            return await real_connect(self)

        def script(m, s):
            if m["type"] == "screen":
                s.drop(code=4001)

        with mock.patch.object(iterm2_connection.ItermConnector, "connect", counting_connect), \
                mock.patch.object(iterm2_connection, "OSASCRIPT", "/nonexistent/osascript"):
            code, _sockets, logs = run_bridge(it, script)
        self.assertEqual(code, 0)
        said = [line for line in logs if "no AppleScript" in line]
        self.assertEqual(len(said), 2, "\n".join(logs))  # once at WARNING, then quietly
        self.assertTrue(said[0].startswith("WARNING"))
        self.assertTrue(said[1].startswith("DEBUG"))


if __name__ == "__main__":
    unittest.main()
