#!/usr/bin/env python3
"""A stand-in coding agent that asks for approval with a numbered menu, for tests of acting on panes (issue 15).

Interface (shared by the daemon, dashboard and `top` tests):
  fake-menu-agent.py --log KEYS.jsonl [--work 0.6] [--menus 1] [--ask menu|yn]
  - Draws an input box `> ` (bracketed paste on) and reads the terminal in raw mode, byte by byte as it arrives.
  - A prompt submitted (text, then Enter) starts a turn: a braille spinner with "esc to interrupt" for --work
    seconds, then the approval menu, Claude Code's shape:
        Do you want to run `make deploy`?
        ❯ 1. Yes
          2. Yes, and don't ask again for make commands
          3. No, and tell the agent what to do differently
        Esc to cancel · ↑/↓ to move · 1-3 to pick
    A digit 1-3 picks at once (no Enter); ↑/↓ move the ❯ and Enter picks the selected row; Esc cancels.
    After a pick it prints "picked N: <label>", works again for --work seconds, then "✓ done" and the input box.
    With --menus N the turn asks N times in a row before it ends. With --ask yn it asks a line-mode question
    instead, "Deploy to production? [y/N] " (the question's text from $FAKE_AGENT_QUESTION when set) with the
    cursor after it: typed characters echo, Enter answers (y/yes picks 1, anything else 3), Esc or Ctrl-C cancels.
  - Esc while working interrupts the turn ("⎿ Interrupted") and goes back to the input box.
  - Every read from the terminal is appended to KEYS.jsonl as {"t": epoch_s, "keys": "<the bytes read>",
    "screen": "prompt|working|menu"}: what the agent received, exactly, and what it was showing then.
  - Ctrl-D at the input box exits 0.
stdlib only.
"""
import argparse
import json
import os
import select
import sys
import termios
import time
import tty

SPINNER = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"
# Spinner redraw period: about what real agents do (Claude ~8/s).
FRAME_S = 0.1
PASTE_ON = "\x1b[?2004h"
PASTE_OFF = "\x1b[?2004l"
CLEAR_LINE = "\r\x1b[K"
OPTIONS = ["Yes", "Yes, and don't ask again for make commands", "No, and tell the agent what to do differently"]


def out(text):
    os.write(sys.stdout.fileno(), text.encode())


class Agent:
    def __init__(self, log, work_s, menus, ask):
        self.log = log
        self.ask = ask
        self.work_s = work_s
        self.menus = menus
        self.fd = sys.stdin.fileno()
        self.screen = "prompt"

    def read(self, timeout):
        """Bytes typed within `timeout` seconds (None = wait), logged; b'' when nothing came; None at EOF."""
        r, _, _ = select.select([self.fd], [], [], timeout)
        if not r:
            return b""
        data = os.read(self.fd, 1024)
        if not data:
            return None
        with open(self.log, "a", encoding="utf-8") as f:
            f.write(json.dumps({"t": time.time(), "keys": data.decode("utf-8", "replace"), "screen": self.screen}) + "\n")
        return data

    def prompt(self):
        """The input box with a footer below it, the cursor back in the box (an agent TUI's shape)."""
        self.screen = "prompt"
        out("\r\n─────────────────────────────\r\n> \r\n  ? for shortcuts\x1b[1A\r\x1b[2C" + PASTE_ON)

    def work(self):
        """Spinner for work_s seconds; False if Esc interrupted it."""
        self.screen = "working"
        out(PASTE_OFF + "\r\n")
        start = time.monotonic()
        frame = 0
        while time.monotonic() - start < self.work_s:
            out(CLEAR_LINE + f"{SPINNER[frame % len(SPINNER)]} Working… ({int(time.monotonic() - start)}s · esc to interrupt)")
            frame += 1
            data = self.read(FRAME_S)
            if data is None:
                return False
            if b"\x1b" in data and not data.startswith(b"\x1b["):
                out(CLEAR_LINE + "⎿ Interrupted · What should the agent do instead?\r\n")
                return False
        out(CLEAR_LINE)
        return True

    def draw_menu(self, selected, parked):
        """Draws the options and the footer, then parks the cursor on the selected row (rows below it: a TUI)."""
        if parked is not None:
            out(f"\x1b[{parked + 1}A")  # from the parked row back to the first option row
        else:
            out("\r\n")
        for i, label in enumerate(OPTIONS):
            mark = "❯" if i == selected else " "
            out(CLEAR_LINE + f" {mark} {i + 1}. {label}\r\n")
        out(CLEAR_LINE + " Esc to cancel · ↑/↓ to move · 1-3 to pick")
        out(f"\x1b[{len(OPTIONS) - selected}A\r")
        return selected

    def yes_no(self):
        """A line-mode [y/N] question; the index picked, or None for Esc / Ctrl-C."""
        self.screen = "menu"
        out("\r\n " + os.environ.get("FAKE_AGENT_QUESTION", "Deploy to production?") + " [y/N] ")
        line = b""
        while True:
            data = self.read(None)
            if data is None or data in (b"\x1b", b"\x03"):
                return None
            for b in data:
                if b in (0x0D, 0x0A):
                    return 0 if line.strip().lower() in (b"y", b"yes") else 2
                if b >= 0x20:
                    line += bytes([b])
                    out(chr(b))

    def menu(self):
        """The approval menu; the index picked, or None for Esc."""
        if self.ask == "yn":
            return self.yes_no()
        self.screen = "menu"
        out("\r\n Do you want to run `make deploy`?")
        selected = 0
        parked = self.draw_menu(selected, None)
        picked = None
        while True:
            data = self.read(None)
            if data is None:
                break
            if data in (b"\x1b[A", b"\x1bOA"):
                selected = (selected - 1) % len(OPTIONS)
            elif data in (b"\x1b[B", b"\x1bOB"):
                selected = (selected + 1) % len(OPTIONS)
            elif data in (b"\r", b"\n"):
                picked = selected
                break
            elif data == b"\x1b":
                break
            elif len(data) == 1 and data in b"123":
                picked = int(data) - 1
                break
            else:
                continue
            parked = self.draw_menu(selected, parked)
        out(f"\x1b[{len(OPTIONS) - parked}B")  # below the footer again
        return picked

    def turn(self):
        out("\x1b[1B")  # past the input box's footer
        if not self.work():
            return
        for _ in range(self.menus):
            picked = self.menu()
            out("\r\n")
            if picked is None:
                out("⎿ Cancelled · What should the agent do instead?\r\n")
                return
            out(f"picked {picked + 1}: {OPTIONS[picked]}\r\n")
            if not self.work():
                return
        out("✓ done\r\n")

    def run(self):
        out("fake menu agent · type a prompt\r\n")
        self.prompt()
        line = b""
        while True:
            data = self.read(None)
            if data is None:
                return
            for b in data:
                c = bytes([b])
                if c == b"\x04" and not line:
                    out("\r\nbye\r\n")
                    return
                if c in (b"\r", b"\n"):
                    if line.strip():
                        self.turn()
                    line = b""
                    self.prompt()
                    break
                if c == b"\x7f":
                    if line:
                        line = line[:-1]
                        out("\b \b")
                elif b >= 0x20:
                    line += c
                    out(c.decode("latin1"))


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--log", required=True)
    p.add_argument("--work", type=float, default=0.6)
    p.add_argument("--menus", type=int, default=1)
    p.add_argument("--ask", choices=["menu", "yn"], default="menu")
    a = p.parse_args()
    old = termios.tcgetattr(sys.stdin.fileno())
    tty.setraw(sys.stdin.fileno())
    try:
        Agent(a.log, a.work, a.menus, a.ask).run()
    finally:
        termios.tcsetattr(sys.stdin.fileno(), termios.TCSADRAIN, old)


if __name__ == "__main__":
    main()
