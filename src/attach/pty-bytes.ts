// node-pty gives a pty's output as bytes only with `encoding: null`, and that option also leaves IUTF8 off the
// pty's termios (node-pty sets it only for 'utf8'): the kernel's line editing (cooked mode: `cat`, `read`) would then
// erase half a character on Backspace. So the pty is made with the default 'utf8' (IUTF8 on) and its read stream's
// decoder is taken off again: reads arrive as Buffers, exactly the bytes the program wrote.
import { closeSync, constants, openSync } from 'node:fs';
import type { IPty } from 'node-pty';

interface DecodingState {
  decoder: unknown;
  encoding: string | null;
}

/** Turns `term`'s reads back into Buffers; false when this node-pty or Node does not allow it (reads stay strings,
 * decoded as UTF-8: the pass-through then writes their UTF-8 bytes, as before). */
export function rawPtyBytes(term: IPty): boolean {
  const socket = (term as unknown as { _socket?: { _readableState?: DecodingState; readableEncoding?: string | null } })._socket;
  const state = socket?._readableState;
  if (!socket || !state || !('decoder' in state)) return false;
  state.decoder = null;
  state.encoding = null;
  return socket.readableEncoding === null || socket.readableEncoding === undefined;
}

/** Once the program has exited, how often the reads are checked for quiet (ms). */
const DRAIN_POLL_MS = 10;
/** After the program exited, the last read is this long past before the far side is let go (ms): by then the
 * kernel has handed over everything the program wrote. The wrapper's exit waits this much longer. */
const DRAIN_QUIET_MS = 30;

/**
 * Linux: a program that exits the instant it wrote loses its last few KiB to the reader (its side of the pty closes
 * while the kernel still holds bytes not yet readable, and the read that follows fails with EIO: `cat` of 1 MB
 * straight under node-pty arrives 4-6 KiB short). So the wrapper holds the pty's far side open itself, and lets go
 * only once the program has exited and the reads have gone quiet. `lastReadAt` says when output last arrived,
 * `paused` whether reading is held back (back-pressure). Nothing runs while the program does: node-pty's own mark
 * that it saw the program exit (and now waits for the reads to end) starts the wait for quiet. Returns a stop
 * function (it also lets go); null where this is not needed or not possible (reads end as before).
 */
export function holdUntilDrained(term: IPty, lastReadAt: () => number, paused: () => boolean): (() => void) | null {
  const path = (term as unknown as { _pty?: string })._pty;
  if (process.platform !== 'linux' || !path || !('_boundClose' in term)) return null;
  let fd: number | null;
  try {
    fd = openSync(path, constants.O_RDWR | constants.O_NOCTTY);
  } catch {
    return null;
  }
  let timer: NodeJS.Timeout | null = null;
  const letGo = (): void => {
    if (timer) clearInterval(timer);
    if (fd === null) return;
    closeSync(fd);
    fd = null;
  };
  const exited = (): void => {
    if (timer || fd === null) return;
    timer = setInterval(() => {
      // Quiet while reads are paused (the person's terminal is behind) is not drained: wait for them to resume.
      if (!paused() && Date.now() - lastReadAt() >= DRAIN_QUIET_MS) letGo();
    }, DRAIN_POLL_MS);
    timer.unref();
  };
  let marked = (term as unknown as { _boundClose: unknown })._boundClose;
  try {
    Object.defineProperty(term, '_boundClose', {
      configurable: true,
      get: () => marked,
      set: (v: unknown) => {
        marked = v;
        if (v) exited();
      },
    });
  } catch {
    letGo();
    return null;
  }
  return letGo;
}
