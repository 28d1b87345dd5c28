"""The fake `iterm2` module keeps the real library's facts the bridge once tripped over (see fake_iterm2.py)."""
import asyncio
import os
import unittest

import support  # noqa: F401
from fake_iterm2 import FakeIterm2


def caller_loop_ran_during_run(style):
    """Does a task on the caller's event loop run while `run_until_complete` runs the library's main?"""
    it = FakeIterm2(loop_style=style)
    it.iterm.add_window("w1", ("S1", "zsh"))
    loop = asyncio.new_event_loop()
    asyncio.set_event_loop(loop)
    ticks = []

    async def tick():
        while True:
            ticks.append(1)
            await asyncio.sleep(0)

    loop.create_task(tick())

    async def main(_connection):
        for _ in range(50):
            await asyncio.sleep(0)
        return len(ticks)

    seen = {}

    async def record(connection):
        seen["ticks"] = await main(connection)

    try:
        it.run_until_complete(record)
    finally:
        for task in asyncio.all_tasks(loop):
            task.cancel()
        loop.run_until_complete(asyncio.sleep(0))
        asyncio.set_event_loop(None)
        loop.close()
    return seen["ticks"] > 0


class Facts(unittest.TestCase):
    def test_since_2_11_run_until_complete_runs_a_loop_of_its_own(self):
        self.assertTrue(caller_loop_ran_during_run("2.10"))
        self.assertFalse(caller_loop_ran_during_run("2.11"))

    def test_the_runner_removes_the_spent_cookie(self):
        it = FakeIterm2()
        it.iterm.require_cookies("c1")
        os.environ["ITERM2_COOKIE"] = "c1"
        try:
            it.run_until_complete(lambda _c: asyncio.sleep(0))
            self.assertNotIn("ITERM2_COOKIE", os.environ)
        finally:
            os.environ.pop("ITERM2_COOKIE", None)


class HandlerTable(unittest.IsolatedAsyncioTestCase):
    async def test_a_dead_apps_handlers_stop_the_dispatch_on_the_next_connection(self):
        it = FakeIterm2()
        it.iterm.add_window("w1", ("S1", "zsh"))
        first = await it.Connection.async_create()
        await it.async_get_app(first)
        it.iterm.drop()
        it.iterm.restart()
        it.App.instance = None
        second = await it.Connection.async_create()
        await it.async_get_app(second)
        async with it.NewSessionMonitor(second) as mon:
            it.iterm.new_session("w1", "S2", "claude")
            for _ in range(50):
                await asyncio.sleep(0)
            self.assertTrue(mon.queue.empty())  # the first App's handler failed first: this one never ran
        self.assertEqual(len(it.iterm.dispatch_errors), 1)


if __name__ == "__main__":
    unittest.main()
