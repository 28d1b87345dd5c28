// An exception in one pane's screen, analysis or state code is that pane's fault, never the process's: PaneMonitor
// catches it where the pane's work starts (a parsed write, a timer, a hook, an ack), reports it here, and goes on
// with the next event. What was reported is kept for the pane's view ("analysis error") and handed to listeners
// (the daemon's log and metrics, run's event log).

/** The pipeline stage that threw: reading the screen, judging it, or moving the state machine (and delivering
 * the transition). */
export type FaultStage = 'screen' | 'analysis' | 'state';

export interface PaneFault {
  /** Pane-clock seconds. */
  t: number;
  stage: FaultStage;
  /** What the pane was doing: the event being applied (output, input, hook, process, command, resize, exit), a
   * signal from the terminal, a tick, a coalesced read, an ack. */
  step: string;
  /** The profile reading the pane at the time (the rule family that failed). */
  program: string;
  error: Error;
}

/** The pane's last fault and how many it has had, as the API shows it. */
export interface FaultSummary {
  /** Pane-clock seconds of the last one. */
  t: number;
  stage: FaultStage;
  step: string;
  program: string;
  /** The error's name and message (no stack: the daemon's log has it). */
  message: string;
  count: number;
}

export type FaultListener = (f: PaneFault) => void;

/** The stage and step a pane is in, and the faults it has had. Set by PaneMonitor as it goes (plain field writes:
 * this is on the path of every write). */
export class FaultTracker {
  stage: FaultStage = 'analysis';
  step = 'start';
  count = 0;
  last: PaneFault | null = null;
  private readonly listeners: FaultListener[] = [];
  /** A listener is being told: a fault it causes (reading the pane's view again) is counted, not told again. */
  private reporting = false;

  constructor(
    private readonly now: () => number,
    private readonly program: () => string,
  ) {}

  onFault(l: FaultListener): void {
    this.listeners.push(l);
  }

  /** Where the pane's work starts: what it is doing, at the analysis stage until a step says otherwise. */
  begin(step: string): void {
    this.step = step;
    this.stage = 'analysis';
  }

  /** Runs `fn` as `step`, reporting what it throws (off the per-write path: it costs a closure per call). */
  guard(step: string, fn: () => void): void {
    this.begin(step);
    try {
      fn();
    } catch (e) {
      this.report(e);
    }
  }

  /** An exception caught at the pane: kept, counted and passed on. Never throws. */
  report(e: unknown, stage: FaultStage = this.stage, step: string = this.step): void {
    let program = 'unknown';
    try {
      program = this.program();
    } catch {
      // the analyzer that failed may not even say which profile it was reading with
    }
    let t = NaN;
    try {
      t = this.now();
    } catch {
      // no clock, no time: the fault is still worth keeping
    }
    const f: PaneFault = { t, stage, step, program, error: toError(e) };
    this.count++;
    this.last = f;
    if (this.reporting) return;
    this.reporting = true;
    for (const l of this.listeners) {
      try {
        l(f);
      } catch {
        // a listener that fails on a fault must not turn it into a crash
      }
    }
    this.reporting = false;
  }

  summary(): FaultSummary | null {
    const f = this.last;
    return f && { t: f.t, stage: f.stage, step: f.step, program: f.program, message: describe(f.error), count: this.count };
  }
}

/** Anything thrown, as an Error (a thrown string or object too). */
export function toError(e: unknown): Error {
  if (e instanceof Error) return e;
  try {
    return new Error(typeof e === 'string' ? e : JSON.stringify(e));
  } catch {
    return new Error(String(e));
  }
}

/** "TypeError: Cannot read properties of undefined (reading 'trim')", cut to a line a card can show. */
export function describe(e: Error): string {
  const text = `${e.name}: ${e.message}`.replace(/\s+/g, ' ');
  return text.length > MESSAGE_MAX ? text.slice(0, MESSAGE_MAX - 1) + '…' : text;
}

/** An error's message on the pane is cut here: it is a label on a card, the log holds the whole error. */
const MESSAGE_MAX = 200;
