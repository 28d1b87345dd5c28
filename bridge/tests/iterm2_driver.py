#!/usr/bin/env python3
"""The real bridge (iterm2_bridge.run: its daemon link, its websocket client) against the fake iTerm2, for the
daemon's end-to-end test (tests/e2e/iterm2-bridge.test.ts). The fake iTerm2 is scripted through stdin, one JSON
command per line; what happens is reported on stdout, one JSON line each:

    {"event": "done", "n": <command number>}                  the command was applied
    {"event": "error", "n": ..., "error": "..."}              it could not be
    {"event": "sent_text", "session": ..., "text": ..., "suppress_broadcast": ...}   the daemon typed into a session

argv[1] is the initial layout: {"w1": [["S1", "zsh", 80, 24], ...], ...}. The daemon is found as a user's bridge
finds it ($TERMSUPERVISOR_DAEMON, else the runtime file) with the token from the XDG config dir.
"""
import asyncio
import json
import logging
import sys

import support  # noqa: F401
from fake_iterm2 import FakeIterm2, Keystroke

import iterm2_bridge

#: A command waits this many 10 ms steps for the bridge to be watching what it scripts (it is, within milliseconds).
SUBSCRIBE_STEPS = 1000


def report(**event):
    print(json.dumps(event), flush=True)


async def watched(it, kind, key=None):
    for _ in range(SUBSCRIBE_STEPS):
        if it.iterm.subscribed(kind, key):
            return
        await asyncio.sleep(0.01)
    raise RuntimeError(f"the bridge is not watching {kind} {key}")


async def apply(it, cmd):
    op, sid = cmd["op"], cmd.get("session")
    iterm = it.iterm
    if op == "show":
        await watched(it, "screen", sid)
        iterm.show(sid, cmd["rows"], tuple(cmd["cursor"]), cmd.get("first_line", 0))
    elif op == "prompt":
        await watched(it, "prompt", sid)
        iterm.prompt(sid, it.PromptMonitor.Mode[cmd["mode"]], cmd.get("value"))
    elif op == "key":
        await watched(it, "keys", sid)
        mods = [it.Modifier[m] for m in cmd.get("modifiers", [])]
        iterm.key(sid, Keystroke(cmd["chars"], it.Keycode[cmd["keycode"]], mods))
    elif op == "var":
        await watched(it, "variable", (sid, cmd["name"]))
        iterm.set_variable(sid, cmd["name"], cmd["value"])
    elif op == "focus":
        await watched(it, "focus")
        kind = dict(cmd["update"])  # one of application_active, window ([id, status]), selected_tab, session
        if "window" in kind:
            kind["window"] = tuple(kind["window"])
        iterm.focus(**kind)
    elif op == "new_session":
        await watched(it, "new_session")
        report_typing(iterm.new_session(cmd["window"], sid, cmd["name"]))
    elif op == "terminate":
        await watched(it, "terminate")
        iterm.terminate(sid)
    elif op == "drop":
        iterm.drop()
    elif op == "restart":
        iterm.restart()
    else:
        raise ValueError(f"unknown op {op}")


def report_typing(session):
    session.on_text = lambda text, suppress_broadcast: report(
        event="sent_text", session=session.session_id, text=text, suppress_broadcast=suppress_broadcast)


async def commands(it):
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    n = 0
    while True:
        line = await reader.readline()
        if not line:
            return
        n += 1
        try:
            await apply(it, json.loads(line))
            report(event="done", n=n)
        except Exception as e:
            report(event="error", n=n, error=str(e))


def main():
    logging.basicConfig(level=logging.DEBUG, stream=sys.stderr, format="iterm2_bridge: %(levelname)s %(message)s")
    it = FakeIterm2()
    for window, sessions in json.loads(sys.argv[1]).items():
        for s in it.iterm.add_window(window, *[tuple(x) for x in sessions]):
            report_typing(s)
    async_create = it.Connection.async_create
    started = []

    async def async_create_and_read_commands():
        if not started:  # the script reader lives in the bridge's own loop, from the first connection on
            started.append(asyncio.get_running_loop().create_task(commands(it)))
        return await async_create()

    it.Connection.async_create = async_create_and_read_commands
    sys.exit(iterm2_bridge.run(it))


if __name__ == "__main__":
    main()
