// Piped input has ended: the pane should see end-of-file, as a person pressing Ctrl-D would give it. A Ctrl-D only
// means EOF to whoever is reading at that moment, though: sent while a command runs (or before the shell's line
// editor has started) it lands in the tty's canonical buffer, and the editor's switch to raw mode turns it into a
// NUL byte. So it is sent when the pane is at rest (quiet, and its own program in the foreground or the detector
// at rest), and sent again at the next rest while the program lives on (a REPL exits, the shell under it remains),
// the way a pipe at EOF keeps answering EOF.

/** Output must have been quiet this long: the program has drawn its prompt and is reading. */
export const EOF_SETTLE_MS = 300;
/** How often the rest condition is checked once input has ended. */
const EOF_POLL_MS = 100;
/** A Ctrl-D that produced nothing is repeated no sooner than this. */
const EOF_RETRY_MS = 1000;

export interface EofDeps {
  /** Milliseconds on the pane clock. */
  now(): number;
  /** When the pane last printed anything (pane-clock ms). */
  lastOutputAt(): number;
  /** The program we started is reading (it is the foreground job, or the detector sees the pane at rest). */
  atRest(): boolean;
  sendEof(): void;
}

export class EofWhenIdle {
  private timer: NodeJS.Timeout | null = null;
  private lastSentAt = -Infinity;

  constructor(private readonly deps: EofDeps) {}

  /** Input has ended: start offering EOF. */
  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => this.check(), EOF_POLL_MS);
    this.timer.unref();
    this.check();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  private check(): void {
    const d = this.deps;
    const now = d.now();
    const last = d.lastOutputAt();
    if (now - last < EOF_SETTLE_MS) return;
    // A Ctrl-D the program reacted to (it printed since) is followed up at the next rest; one it ignored (or that
    // was lost) only after a while.
    if (last < this.lastSentAt && now - this.lastSentAt < EOF_RETRY_MS) return;
    if (!d.atRest()) return;
    this.lastSentAt = now;
    d.sendEof();
  }
}
