#!/usr/bin/env python3
"""Runs the bridge (iterm2_bridge.run) with the REAL `iterm2` library, against the pretend iTerm2 of
iterm2_protocol_server.py (tests/e2e/iterm2-real-library.test.ts). The library is imported as it is, from
$ITERM2_LIBRARY_PATH or wherever Python finds it; one thing is replaced: the AppleScript runner's program
(auth.py CommandLineApplescriptRunner runs /usr/bin/osascript, which would ask the person's real iTerm2, or is
absent off macOS) runs fake_osascript.py instead, with the same script on stdin. HOME points the library at the
pretend iTerm2's socket."""
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
if os.environ.get("ITERM2_LIBRARY_PATH"):
    sys.path.insert(0, os.environ["ITERM2_LIBRARY_PATH"])

import iterm2  # noqa: E402
import iterm2.auth  # noqa: E402

import iterm2_bridge  # noqa: E402
import iterm2_connection  # noqa: E402

FAKE_OSASCRIPT = os.path.join(HERE, "fake_osascript.py")


def execute(self):
    """auth.py CommandLineApplescriptRunner.execute, with fake_osascript.py for /usr/bin/osascript."""
    p = subprocess.Popen([sys.executable, FAKE_OSASCRIPT], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    stdout, stderr = p.communicate(self._script)
    self._returncode = p.returncode
    self._output = stdout.decode("utf-8").rstrip()
    self._error = stderr.decode("utf-8").rstrip()


iterm2.auth.gAppKitAvailable = False  # AppKit would ask the real iTerm2
iterm2.auth.CommandLineApplescriptRunner.execute = execute
iterm2_connection.OSASCRIPT = FAKE_OSASCRIPT
print(f"real_library_bridge: iterm2 {iterm2.__version__} from {os.path.dirname(iterm2.__file__)}", file=sys.stderr, flush=True)
sys.exit(iterm2_bridge.main(sys.argv[1:]))
