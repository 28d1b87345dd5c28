#!/usr/bin/env python3
"""A scripted stand-in for a coding agent in a terminal, for end-to-end tests of supervised runs.

It looks like a real agent to termsupervisor's generic (Tier 3) heuristic: a `> ` input prompt with bracketed
paste on when ready (as readline-based CLIs do), a braille spinner with "esc to interrupt" rewritten in place
with \\r while it works, output lines, then a result block and the prompt again. Options script what each prompt
does (finish, fail, loop, ask for approval, hang) and leave files behind for tests to assert on.
stdlib only; reads lines in the terminal's canonical mode (the terminal echoes what is typed).
"""
import argparse
import os
import sys
import time

SPINNER = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"
# Spinner redraw period: about what real agents do (Gemini ~30/s, Claude ~8/s); slower would look stalled.
FRAME_S = 0.1
# xterm bracketed paste on/off: on while waiting at the prompt, off once a line is accepted (readline does this,
# and termsupervisor reads "prompt back with bracketed paste on" as an explicit ready marker).
PASTE_ON = "\x1b[?2004h"
PASTE_OFF = "\x1b[?2004l"
CLEAR_LINE = "\r\x1b[K"


def out(text):
    sys.stdout.write(text)
    sys.stdout.flush()


def count_lines(path):
    if not path or not os.path.exists(path):
        return 0
    with open(path, encoding="utf-8") as f:
        return sum(1 for line in f if line.strip())


def append_line(path, text):
    if path:
        with open(path, "a", encoding="utf-8") as f:
            f.write(text + "\n")


def read_line():
    """One line from the terminal, or None at end of input (Ctrl-D, closed pty)."""
    line = sys.stdin.readline()
    if line == "":
        return None
    return line.rstrip("\r\n")


def work(seconds, steps):
    """The busy phase: a spinner rewritten in place, with output lines printed between frames."""
    start = time.monotonic()
    pending = list(steps)
    frame = 0
    while True:
        elapsed = time.monotonic() - start
        if elapsed >= seconds:
            break
        # Print the next step once its share of the work time has passed.
        if pending and elapsed >= seconds * (len(steps) - len(pending) + 1) / (len(steps) + 1):
            out(CLEAR_LINE + "  " + pending.pop(0) + "\r\n")
        out(CLEAR_LINE + "%s Working… (%ds · esc to interrupt)" % (SPINNER[frame % len(SPINNER)], int(elapsed)))
        frame += 1
        time.sleep(FRAME_S)
    for step in pending:
        out(CLEAR_LINE + "  " + step + "\r\n")
    out(CLEAR_LINE)


def ask_approval(command):
    """A y/n question at the cursor; re-asked until the answer is y or n. Returns True for yes, None at EOF."""
    while True:
        out("Allow command `%s`? [y/n] " % command + PASTE_ON)
        answer = read_line()
        out(PASTE_OFF)
        if answer is None:
            return None
        a = answer.strip().lower()
        if a in ("y", "yes"):
            out("Approved.\r\n")
            return True
        if a in ("n", "no"):
            out("Denied.\r\n")
            return False
        out("Please answer y or n.\r\n")


def result_for(n, prompt, opts):
    """The result block of the nth prompt (1-based, counted across restarts through --state)."""
    if opts.loop:
        return ["● I looked at the code and made the change.", "  Ran the checks; see above."]
    if opts.fail_after and n == opts.fail_after:
        return ["FATAL: build failed", "● Task failed."]
    if opts.finish_after and n > opts.finish_after:
        return ["● Nothing left to do."]
    if opts.finish_after and n == opts.finish_after:
        return ["● RESULT: all tests pass", "● Task complete."]
    return ["● Step %d of the task is in place (prompt was %d chars)." % (n, len(prompt)), "  More remains to do."]


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--work", type=float, default=1.5, help="seconds each prompt works (default 1.5)")
    p.add_argument("--finish-after", type=int, default=0, help="the Nth prompt completes the task")
    p.add_argument("--fail-after", type=int, default=0, help="the Nth prompt fails the build")
    p.add_argument("--loop", action="store_true", help="every prompt prints the same result")
    p.add_argument("--approve-on", type=int, default=0, help="the Nth prompt asks a y/n approval first")
    p.add_argument("--state", default="", help="append one line per completed prompt; counting resumes from it")
    p.add_argument("--echo-prompts", default="", help="append each received prompt to this file")
    p.add_argument("--silent-hang-on", type=int, default=0, help="the Nth prompt prints nothing and sleeps forever")
    opts = p.parse_args()

    done = count_lines(opts.state)
    out("Fake Agent v1.0 — a scripted coding agent for tests\r\n")
    out("Type a task and press Enter. Ctrl-D quits.\r\n\r\n")
    while True:
        out("> " + PASTE_ON)
        prompt = read_line()
        out(PASTE_OFF)
        if prompt is None:
            out("\r\nBye.\r\n")
            return 0
        if not prompt.strip():
            continue
        n = done + 1
        append_line(opts.echo_prompts, prompt)
        if opts.silent_hang_on and n == opts.silent_hang_on:
            # A wedged agent: not even its own echo of the prompt, no spinner, never back at the prompt.
            while True:
                time.sleep(3600)
        out("● Task: %s\r\n" % prompt)
        steps = ["Reading files (3 found)", "Editing src/main.py", "Running tests"]
        if opts.approve_on and n == opts.approve_on:
            work(opts.work / 2, steps[:1])
            approved = ask_approval("rm -rf build")
            if approved is None:
                return 0
            work(opts.work / 2, steps[1:] if approved else ["Skipping the cleanup"])
        else:
            work(opts.work, steps)
        for line in result_for(n, prompt, opts):
            out(line + "\r\n")
        out("\r\n")
        done = n
        append_line(opts.state, "prompt %d done" % n)


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:
        out("\r\nInterrupted.\r\n")
        sys.exit(130)
