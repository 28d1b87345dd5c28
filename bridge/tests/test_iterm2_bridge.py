"""The bridge's iTerm2 side against a fake iTerm2: what it tells the daemon for each thing iTerm2 reports."""
import asyncio
import unittest

import support
from fake_iterm2 import FakeIterm2, Keystroke, until

import iterm2_bridge
from iterm2_bridge import ItermBridge, classify_key


class BridgeCase(unittest.IsolatedAsyncioTestCase):
    async def asyncSetUp(self):
        self.it = FakeIterm2()
        self.iterm = self.it.iterm
        self.sent = support.Sent()
        self.iterm.add_window("w1", ("S1", "zsh", 80, 24))
        self.iterm.session("S1").variables.update(jobName="zsh", jobPid=100, commandLine="-zsh", tty="/dev/ttys001", terminalWindowName="~")
        self.bridge = ItermBridge(self.it, self.sent)
        self.task = asyncio.ensure_future(self.bridge.run(await self.it.Connection.async_create()))
        await self.iterm.until_subscribed("screen", "S1")
        await self.iterm.until_subscribed("focus")
        await self.iterm.until_subscribed("keys", "S1")
        await self.iterm.until_subscribed("prompt", "S1")

    async def asyncTearDown(self):
        self.iterm.drop()
        await self.task

    async def wait_sent(self, kind, what, **fields):
        await until(lambda: self.sent.of(kind, **fields), what)
        return self.sent.of(kind, **fields)[-1]


class SessionsAndScreens(BridgeCase):
    async def test_lists_sessions_first_with_size_and_command(self):
        self.assertEqual(self.sent[0], {"type": "sessions", "sessions": [{"session": "S1", "name": "zsh", "cols": 80, "rows": 24, "command": "-zsh"}]})

    async def test_sends_the_screen_on_start_and_when_it_changes_never_twice_the_same(self):
        first = await self.wait_sent("screen", "the first screen")
        self.assertEqual(len(first["rows"]), 24)
        self.iterm.show("S1", ["$ make", "compiling"] + [""] * 22, (9, 1), first_line=500)
        shown = await self.wait_sent("screen", "the new screen", rows=["$ make", "compiling"] + [""] * 22)
        # iTerm2 counts lines from the start of history: the cursor is sent on the screen.
        self.assertEqual(shown["cursor"], {"x": 9, "y": 1})
        self.assertEqual(shown["cols"], 80)
        count = len(self.sent.of("screen"))
        self.iterm.show("S1", ["$ make", "compiling"] + [""] * 22, (9, 1), first_line=500)
        self.iterm.layout_changed()  # something else, so the test knows the bridge has read the repeat
        await until(lambda: self.iterm.refreshes >= 2, "the layout re-read")
        self.assertEqual(len(self.sent.of("screen")), count)

    async def test_the_last_change_of_a_burst_is_read_even_when_its_notification_was_dropped(self):
        final = ["$ make", "done", "$ "] + [""] * 21
        # screen.py: a change notified while the streamer fetches the previous screen finds nobody awaiting: dropped.
        self.iterm.during_fetch.append(lambda: self.iterm.show("S1", final, (2, 2)))
        self.iterm.show("S1", ["$ make"] + [""] * 23, (6, 0))
        for _ in range(500):  # the settle re-read comes SCREEN_SETTLE_S after the last notified change
            if self.sent.of("screen") and self.sent.of("screen")[-1]["rows"][1] == "done":
                break
            await asyncio.sleep(0.01)
        self.assertEqual(self.iterm.dropped_screen_updates, 1)
        self.assertEqual(self.sent.of("screen")[-1]["rows"], final)
        self.assertEqual(self.sent.of("screen")[-1]["cursor"], {"x": 2, "y": 2})

    async def test_caps_rows_and_row_length(self):
        self.iterm.show("S1", ["x" * 5000] + ["y"] * 1500, (0, 0))
        await until(lambda: self.sent.of("screen")[-1]["rows"][0].startswith("x"), "the huge screen")
        shown = self.sent.of("screen")[-1]
        self.assertEqual(len(shown["rows"]), iterm2_bridge.MAX_ROWS)
        self.assertEqual(len(shown["rows"][0]), iterm2_bridge.MAX_ROW_CHARS)

    async def test_a_window_resize_reaches_the_screens_columns(self):
        self.iterm.set_variable("S1", "columns", 120)
        self.iterm.show("S1", ["wide"] * 30, (0, 29))
        shown = await self.wait_sent("screen", "the resized screen", cols=120)
        self.assertEqual(len(shown["rows"]), 30)

    async def test_new_and_ended_sessions_update_the_list(self):
        self.iterm.new_session("w1", "S2", "claude")
        await until(lambda: len(self.sent.of("sessions")) >= 2, "the list with S2")
        self.assertEqual([s["session"] for s in self.sent.of("sessions")[-1]["sessions"]], ["S1", "S2"])
        await self.iterm.until_subscribed("screen", "S2")
        self.iterm.terminate("S1")
        await until(lambda: len(self.sent.of("sessions")) >= 3, "the list without S1")
        self.assertEqual([s["session"] for s in self.sent.of("sessions")[-1]["sessions"]], ["S2"])
        await until(lambda: not self.iterm.subscribed("screen", "S1"), "S1's watches to stop")

    async def test_a_pane_hidden_by_a_maximised_one_stays_listed(self):
        self.iterm.new_session("w1", "S2", "claude")
        await until(lambda: len(self.sent.of("sessions")) >= 2, "the list with S2")
        self.iterm.windows[0].tabs[0].sessions.append(self.iterm.windows[0].tabs[1].sessions.pop())
        self.iterm.windows[0].tabs.pop()
        before = self.iterm.refreshes
        self.iterm.maximize("S1")  # tab.py: S2 is now in minimized_sessions, not tab.sessions
        # The App's own handler and the bridge's re-read both refresh; then the bridge lists what it found.
        await until(lambda: self.iterm.refreshes >= before + 2, "the layout re-read")
        for _ in range(20):
            await asyncio.sleep(0)
        self.assertEqual([s["session"] for s in self.sent.of("sessions")[-1]["sessions"]], ["S1", "S2"])

    async def test_iterm2_going_away_lists_no_sessions_and_ends_the_run(self):
        self.iterm.drop()
        await self.task
        self.assertEqual(self.sent[-1], {"type": "sessions", "sessions": []})
        self.assertEqual(self.iterm.monitors, [])


class PromptsKeysVariables(BridgeCase):
    async def test_prompt_monitor_events_become_prompt_messages(self):
        mode = self.it.PromptMonitor.Mode
        self.iterm.prompt("S1", mode.COMMAND_START, "make -j8")
        self.iterm.prompt("S1", mode.COMMAND_END, 2)
        self.iterm.prompt("S1", mode.PROMPT, None)
        await until(lambda: len(self.sent.of("prompt")) == 3, "three prompt events")
        self.assertEqual(self.sent.of("prompt"), [
            {"type": "prompt", "session": "S1", "event": "command_start", "command": "make -j8"},
            {"type": "prompt", "session": "S1", "event": "command_end", "status": 2},
            {"type": "prompt", "session": "S1", "event": "prompt"},
        ])

    async def test_only_submitting_and_interrupting_keys_are_sent_by_name(self):
        kc, mod = self.it.Keycode, self.it.Modifier
        for k in [
            Keystroke("l", kc.ANSI_A),
            Keystroke("\r", kc.RETURN),
            Keystroke("\r", kc.RETURN, [mod.SHIFT]),
            Keystroke("\x1b", kc.ESCAPE),
            Keystroke("\x03", kc.ANSI_C, [mod.CONTROL]),
            Keystroke("\x03", kc.ANSI_KEYPAD_ENTER, [mod.NUMPAD]),
        ]:
            self.iterm.key("S1", k)
        await until(lambda: len(self.sent.of("key")) == 4, "four keys")
        self.assertEqual([m["key"] for m in self.sent.of("key")], ["enter", "escape", "interrupt", "enter"])

    async def test_a_key_code_the_library_does_not_name_is_no_key_and_the_watch_goes_on(self):
        self.iterm.key("S1", Keystroke("\x03", 0x7F, [1]))  # keyboard.py: Keycode(0x7F) raises ValueError
        self.iterm.key("S1", Keystroke("\r", self.it.Keycode.RETURN))
        await until(lambda: self.sent.of("key"), "a key")
        self.assertEqual([m["key"] for m in self.sent.of("key")], ["interrupt", "enter"])

    async def test_variables_are_sent_at_start_then_on_change_only(self):
        await until(lambda: len(self.sent.of("variable")) == 5, "the five variables")
        self.assertEqual({m["name"]: m["value"] for m in self.sent.of("variable")},
                         {"jobName": "zsh", "jobPid": 100, "commandLine": "-zsh", "tty": "/dev/ttys001", "terminalWindowName": "~"})
        await self.iterm.until_subscribed("variable", ("S1", "jobPid"))
        self.iterm.set_variable("S1", "jobName", "claude")
        self.iterm.set_variable("S1", "jobPid", 4242.0)
        self.iterm.set_variable("S1", "jobName", "claude")
        self.iterm.set_variable("S1", "tty", 7)
        await until(lambda: len(self.sent.of("variable")) == 8, "three changes")
        self.assertEqual(self.sent.of("variable")[5:], [
            {"type": "variable", "session": "S1", "name": "jobName", "value": "claude"},
            {"type": "variable", "session": "S1", "name": "jobPid", "value": 4242},
            {"type": "variable", "session": "S1", "name": "tty", "value": None},
        ])

    async def test_an_old_iterm2_still_reports_prompts(self):
        self.iterm.drop()
        await self.task
        it = FakeIterm2()
        it.iterm.prompt_modes_supported = False
        it.iterm.add_window("w1", ("S1", "zsh"))
        sent = support.Sent()
        task = asyncio.ensure_future(ItermBridge(it, sent).run(await it.Connection.async_create()))
        await it.iterm.until_subscribed("prompt", "S1")
        it.iterm.prompt("S1", it.PromptMonitor.Mode.PROMPT)
        await until(lambda: sent.of("prompt"), "a prompt")
        self.assertEqual(sent.of("prompt"), [{"type": "prompt", "session": "S1", "event": "prompt"}])
        it.iterm.drop()
        await task
        self.iterm = it.iterm  # tearDown drops this one again: harmless
        self.task = task


class Focus(BridgeCase):
    async def asyncSetUp(self):
        await super().asyncSetUp()
        self.iterm.add_window("w2", ("S2", "claude"))
        self.iterm.layout_changed()
        await self.iterm.until_subscribed("screen", "S2")

    async def test_looking_at_another_session_is_sent_once(self):
        # api.proto WindowStatus: 0 became key, 2 resigned key (the library gives them as a Reason enum member).
        self.iterm.focus(window=("w1", 2))
        self.iterm.focus(window=("w2", 0))
        self.iterm.focus(session="S2")  # the same session again: nothing new
        self.iterm.focus(session="S1")
        await until(lambda: len(self.sent.of("focus")) == 2, "two focus messages")
        self.assertEqual([m["session"] for m in self.sent.of("focus")], ["S2", "S1"])

    async def test_nothing_is_looked_at_while_iterm2_is_in_the_background(self):
        self.iterm.focus(application_active=False)
        self.iterm.focus(session="S2")
        self.iterm.focus(application_active=True)  # back to iTerm2: its current session (S1) is looked at again
        await until(lambda: self.sent.of("focus"), "a focus message")
        self.iterm.focus(selected_tab="tab-w2")
        await until(lambda: len(self.sent.of("focus")) == 2, "two focus messages")
        self.assertEqual([m["session"] for m in self.sent.of("focus")], ["S1", "S2"])


class FocusUnknownAtFirst(unittest.IsolatedAsyncioTestCase):
    async def test_before_iterm2_says_what_has_focus_nothing_is_taken_as_looked_at(self):
        it = FakeIterm2()
        it.iterm.add_window("w1", ("S1", "zsh"))
        it.iterm.answers_focus = False  # app.py: app_active and the current window are None until focus info
        sent = support.Sent()
        bridge = ItermBridge(it, sent)
        task = asyncio.ensure_future(bridge.run(await it.Connection.async_create()))
        await it.iterm.until_subscribed("focus")
        self.assertIsNone(it.App.instance.app_active)
        self.assertIsNone(bridge.focused)
        it.iterm.focus(session="S1")  # the first focus news: S1 is the active session of its tab
        await until(lambda: sent.of("focus"), "a focus message")
        self.assertEqual(sent.of("focus"), [{"type": "focus", "session": "S1"}])
        it.iterm.drop()
        await task


class SendText(BridgeCase):
    async def test_types_into_that_session_only(self):
        await self.bridge.send_text("S1", "make test\r")
        self.assertEqual(self.iterm.session("S1").sent_text, [("make test\r", True)])

    async def test_an_unknown_session_is_an_error(self):
        with self.assertRaises(LookupError):
            await self.bridge.send_text("nope", "x")


class Activate(BridgeCase):
    async def test_selects_the_tab_brings_the_window_and_the_app_to_the_front(self):
        await self.bridge.activate("S1")
        self.assertEqual(self.iterm.session("S1").activated, [{"select_tab": True, "order_window_front": True}])
        self.assertEqual(self.iterm.activations, [{"raise_all_windows": False, "ignoring_other_apps": True}])

    async def test_an_unknown_session_is_an_error(self):
        with self.assertRaises(LookupError):
            await self.bridge.activate("nope")
        self.assertEqual(self.iterm.activations, [])


class Replay(BridgeCase):
    async def test_replay_is_the_current_state(self):
        await until(lambda: len(self.sent.of("variable")) == 5, "the variables")
        await self.wait_sent("screen", "a screen")
        kinds = [m["type"] for m in self.bridge.replay()]
        self.assertEqual(kinds, ["sessions"] + ["variable"] * 5 + ["screen"])


class Keys(unittest.TestCase):
    def test_classify(self):
        it = FakeIterm2()
        kc, mod = it.Keycode, it.Modifier
        self.assertEqual(classify_key(it, Keystroke("\r", kc.RETURN, [mod.NUMPAD])), "enter")
        self.assertIsNone(classify_key(it, Keystroke("\r", kc.RETURN, [mod.OPTION])))
        self.assertIsNone(classify_key(it, Keystroke("c", kc.ANSI_C)))


if __name__ == "__main__":
    unittest.main()
