#!/usr/bin/env python3
"""termsupervisor's iTerm2 bridge: watches every iTerm2 session through iTerm2's Python API and streams it to the
termsupervisor daemon (websocket /bridge/iterm2, the daemon's token), which tells you when one needs you.

Needs iTerm2 with its Python API enabled (Settings > General > Magic > Enable Python API) and the `iterm2` package
(`pip3 install iterm2`, or run it as an iTerm2 AutoLaunch script, whose environment has it). Run it next to a
running daemon:  python3 iterm2_bridge.py [--daemon http://127.0.0.1:7878] [--verbose]

What it forwards, per session (the protocol: docs/iterm2-bridge.md): the set of sessions whenever it changes; the
screen whenever iTerm2 says it changed (ScreenStreamer, no polling); shell-integration prompt events (prompt,
command start, command end with its status); the session variables jobName, jobPid, commandLine, tty and
terminalWindowName; which session the person is looking at (focus); and the keys that submit or interrupt (Enter,
Esc, Ctrl-C: their names, never what was typed). It types text the daemon sends (send_text) into its session, and
shows a session to the person when the daemon asks (activate, a jump). It
reconnects to either side by itself.
"""
import argparse
import asyncio
import logging
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import daemon_target  # noqa: E402
from daemon_link import DaemonLink, Replaced  # noqa: E402
from iterm2_connection import ItermConnector, watch_iterm  # noqa: E402
from iterm2_watch import MAX_ROW_CHARS, MAX_ROWS, ItermBridge, classify_key  # noqa: E402,F401  (tests use them here)

BRIDGE_VERSION = "0.1.0"
#: While iTerm2 cannot be reached (not running, its API off, no cookie), a new connection is tried this often.
ITERM_RETRY_S = 5.0


def make_bridge(it, daemon_flag=None, env=None, connect=None):
    """The two halves, wired: (ItermBridge, DaemonLink)."""
    link = None
    bridge = ItermBridge(it, lambda m: link.send(m))
    version = getattr(it, "__version__", None)
    hello = {"bridge": f"iterm2_bridge/{BRIDGE_VERSION}", **({"iterm2": str(version)[:64]} if version else {})}
    kwargs = {"connect": connect} if connect else {}
    link = DaemonLink(lambda: daemon_target.find_daemon(daemon_flag, env), hello, bridge.replay, bridge.send_text, on_activate=bridge.activate, **kwargs)
    return bridge, link


def run(it, daemon_flag=None, env=None, connect=None):
    """Runs until a newer bridge replaces this one: the daemon link and iTerm2's connections on one event loop."""
    loop = asyncio.new_event_loop()
    asyncio.set_event_loop(loop)
    bridge, link = make_bridge(it, daemon_flag, env, connect)
    try:
        return loop.run_until_complete(_run_both(bridge, link, ItermConnector(it)))
    finally:
        pending = [t for t in asyncio.all_tasks(loop) if not t.done()]
        for t in pending:
            t.cancel()
        loop.run_until_complete(asyncio.gather(*pending, return_exceptions=True))
        asyncio.set_event_loop(None)
        loop.close()


async def _run_both(bridge, link, connector):
    link_task = asyncio.ensure_future(link.run())
    iterm_task = asyncio.ensure_future(watch_iterm(bridge, connector, ITERM_RETRY_S))
    try:
        await asyncio.wait([link_task, iterm_task], return_when=asyncio.FIRST_COMPLETED)
    finally:
        bridge.stop()
        iterm_task.cancel()
        await asyncio.gather(iterm_task, return_exceptions=True)
    if not link_task.done():  # the iTerm2 side cannot end by itself: something it did not expect
        link_task.cancel()
        await asyncio.gather(link_task, return_exceptions=True)
        iterm_task.result()
        return 1
    try:
        link_task.result()
        return 1
    except Replaced:
        return 0


def main(argv=None):
    parser = argparse.ArgumentParser(description="Stream iTerm2's sessions to the termsupervisor daemon.")
    parser.add_argument("--daemon", help="the daemon's URL (default: $TERMSUPERVISOR_DAEMON, else the running daemon's runtime file)")
    parser.add_argument("--verbose", action="store_true", help="log every connection step")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.DEBUG if args.verbose else logging.INFO, format="iterm2_bridge: %(levelname)s %(message)s")
    try:
        import iterm2
    except ImportError:
        print("iterm2_bridge: needs the iterm2 package: pip3 install iterm2 (or run it as an iTerm2 AutoLaunch script)", file=sys.stderr)
        return 2
    return run(iterm2, args.daemon)


if __name__ == "__main__":
    sys.exit(main())
