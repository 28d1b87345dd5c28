#!/usr/bin/env python3
"""Plays a recording's output (asciicast v2 "o" events) into its terminal at the recorded times, and logs when
each key typed into it arrives (seconds since the start, then the keys as JSON), one line each. A stand-in for a
real agent whose every moment is known from the recording's truth.json: tests check when keys were typed.
After the last event it keeps the screen up until its input ends or it is killed."""
import json
import os
import select
import sys
import time
import tty


def main():
    cast, keys_log = sys.argv[1], sys.argv[2]
    with open(cast, encoding="utf-8") as f:
        f.readline()  # header
        events = [json.loads(line) for line in f if line.strip()]
    output = [(float(e[0]), e[2]) for e in events if e[1] == "o"]
    fd = sys.stdin.fileno()
    tty.setraw(fd)  # every key as it comes, with its own time; no echo (the recording has its own screen)
    start = time.monotonic()
    log = open(keys_log, "a", encoding="utf-8")
    i = 0
    while True:
        now = time.monotonic() - start
        while i < len(output) and output[i][0] <= now:
            os.write(1, output[i][1].encode("utf-8"))
            i += 1
        wait = max(0.0, output[i][0] - now) if i < len(output) else 3600.0
        ready, _, _ = select.select([fd], [], [], wait)
        if ready:
            data = os.read(fd, 4096)
            if not data:
                return 0
            log.write("%.3f\t%s\n" % (time.monotonic() - start, json.dumps(data.decode("utf-8", "replace"))))
            log.flush()


if __name__ == "__main__":
    sys.exit(main())
