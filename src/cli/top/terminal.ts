// `top`'s hold on the person's terminal: raw keys, the alternate screen (their shell's screen comes back as it
// was), no cursor, no autowrap (a row never spills onto the next), bracketed paste. Whatever way top ends — q, a
// signal, an uncaught error — the terminal is given back: raw mode off, paste marks and autowrap restored, cursor
// shown, alternate screen left. Written synchronously, because an 'exit' handler cannot wait for a stream.
import { writeSync } from 'node:fs';
import type { ReadStream, WriteStream } from 'node:tty';
import { restoreOnExit } from '../restore-on-exit.js';

const ENTER = '\x1b[?1049h\x1b[?25l\x1b[?7l\x1b[?2004h\x1b[H\x1b[2J';
const LEAVE = '\x1b[?2004l\x1b[?7h\x1b[0m\x1b[?25h\x1b[?1049l';
/** The shell's convention for "ended by signal N": 128 + N. */
const SIGNAL_EXIT: Partial<Record<NodeJS.Signals, number>> = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 };

export interface TerminalSession {
  /** Gives the terminal back; idempotent, safe from any exit path. */
  restore(): void;
}

export function holdTerminal(stdin: ReadStream, stdout: WriteStream): TerminalSession {
  const fd = (stdout as unknown as { fd?: number }).fd ?? 1;
  stdin.setRawMode(true);
  writeSync(fd, ENTER);
  const restore = restoreOnExit(() => {
    for (const s of Object.keys(SIGNAL_EXIT) as NodeJS.Signals[]) process.off(s, onSignal);
    try {
      writeSync(fd, LEAVE);
    } catch {
      // the terminal is gone (hangup): nothing to give back
    }
    try {
      stdin.setRawMode(false);
    } catch {
      // same
    }
    stdin.pause();
  });
  const onSignal = (sig: NodeJS.Signals): void => {
    restore();
    process.exit(SIGNAL_EXIT[sig] ?? 1);
  };
  // An uncaught error: restoreOnExit's monitor runs before node prints it, so the error lands on the normal screen.
  for (const s of Object.keys(SIGNAL_EXIT) as NodeJS.Signals[]) process.on(s, onSignal);
  return { restore };
}
