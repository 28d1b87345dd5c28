#!/usr/bin/env python3
"""Stands in for /usr/bin/osascript when the bridge runs with the real `iterm2` library against the pretend iTerm2
(iterm2_protocol_server.py): it reads the AppleScript the library sends (auth.py `request_cookie_and_key`) on stdin
and answers the two things it asks: whether iTerm2 is running, and a new cookie (a file the pretend iTerm2 accepts
once). The state folder is $FAKE_ITERM2_STATE."""
import os
import secrets
import sys

state = os.environ["FAKE_ITERM2_STATE"]
script = sys.stdin.read()
running = os.path.exists(os.path.join(state, "running"))
if "is running" in script:
    print("yes" if running else "no")
elif "request cookie and key" in script:
    if not running:
        # osascript's error line: auth.py takes the number in parentheses and the message before it.
        print("0:54: execution error: iTerm2 got an error: Application isn't running. (-600)", file=sys.stderr)
        sys.exit(1)
    cookie = secrets.token_hex(16)
    open(os.path.join(state, "cookies", cookie), "w").close()
    print(f"{cookie} {secrets.token_hex(8)}")
else:
    print(f"0:0: execution error: unexpected script (-2741)", file=sys.stderr)
    sys.exit(1)
