// Wires one pane's pipeline: source events → screen (headless terminal) → change queue → analyzer → state
// machine. The only place these stages meet. Every event goes through the terminal's write queue so output,
// typed input and process changes are seen in the order they happened, and in-band signals carry the time of the
// chunk that held them.
import type { AgentChoice, Config } from '../config/config.js';
import type { PaneEvent } from '../attach/source.js';
import { PaneScreen } from '../screen/pane-screen.js';
import type { InBandSignal, TimedSignal } from '../screen/types.js';
import { PaneChangeQueue } from '../queue/pane-change-queue.js';
import { PaneAnalyzer } from '../analysis/pane-analyzer.js';
import { forcedProgram } from '../analysis/profiles/index.js';
import type { Signal } from '../analysis/types.js';
import { signalEvent, type Transition } from '../state/pane-machine.js';
import { RealClock, type Clock } from '../state/clock.js';
import { redactCommand } from './redact.js';
import { FaultTracker, type FaultListener } from './pane-fault.js';
import { PaneStateHost } from './pane-state-host.js';
import { Fifo } from './fifo.js';
import { TitleKind } from './title-kind.js';
import { WriteBacklog } from './write-backlog.js';
import { PaneTicker } from './pane-ticker.js';
import { ScreenRevision } from './screen-revision.js';
import { CoalesceTimer } from './coalesce-timer.js';
import { TransitionFlood, type FloodState } from './transition-flood.js';
import { ReadPace } from './read-pace.js';
import { PaneListeners, type IgnoredMarkListener, type SignalListener, type TransitionListener } from './pane-listeners.js';

/** Keys that submit, interrupt or answer (Enter, Esc, Ctrl-C, Ctrl-D, Tab): a turn may start or end with them. */
const CONTROL_KEYS = /[\r\n\x1b\x03\x04\t]/;
/** Keys that submit a line: the echo after them is the line break alone. */
const SUBMIT_KEYS = /[\r\n]/;
/** A synchronized-output frame left open longer than this is read anyway (a crashed program never closes it). */
const SYNC_FRAME_MAX_S = 1;
export { WRITE_HIGH_WATER, MAX_QUEUED_EVENTS } from './write-backlog.js';

export interface PaneMonitorOptions {
  cfg: Config;
  clock: Clock;
  cols: number;
  rows: number;
  agent: AgentChoice;
  command?: string;
  /** Called before each event is applied with its time (replay advances its virtual clock here). */
  beforeEvent?: (tSeconds: number) => void;
  /** The nonce a shell `run` started with integration puts on its marks (src/shell/inject.ts). */
  markNonce?: string | null;
}

/** What waits in the terminal's write queue: a source event, or an agent's hook delivered out of band. */
type QueuedEvent = PaneEvent | { kind: 'hook'; t: number; signal: Extract<InBandSignal, { kind: 'hook' }>; line: string };

export type { TransitionListener, SignalListener, IgnoredMark, IgnoredMarkListener } from './pane-listeners.js';

export class PaneMonitor {
  readonly screen: PaneScreen;
  readonly queue: PaneChangeQueue;
  readonly analyzer: PaneAnalyzer;
  /** Exceptions caught in this pane's pipeline: the pane goes on with its next event (see pane-fault.ts). */
  readonly faults: FaultTracker;
  private readonly machine: PaneStateHost;
  private readonly clock: Clock;
  private readonly listeners: PaneListeners;
  /** Events queued in the terminal, oldest first: the head is the chunk being parsed. */
  private readonly inFlight = new Fifo<QueuedEvent>();
  private readonly backlog = new WriteBacklog(() => this.inFlight.size);
  private held = false;
  private readonly ticker: PaneTicker;
  private readonly coalesce: CoalesceTimer;
  private syncSince: number | null = null;
  /** A slow pane's unforced reads wait (read-pace.ts). */
  private readonly pace: ReadPace;
  private readonly titleKind = new TitleKind();
  /** Bounds what this pane publishes (transition-flood.ts); the machine and analyzer still see every move. */
  private readonly flood: TransitionFlood;
  private stopped = false;
  /** The screen's revision (PaneView.rev, screen-revision.ts). */
  readonly revision = new ScreenRevision();
  exited: { t: number; code: number | null } | null = null;

  constructor(private readonly opts: PaneMonitorOptions) {
    this.clock = opts.clock;
    this.pace = new ReadPace(opts.clock instanceof RealClock);
    const th = opts.cfg.thresholds;
    this.screen = new PaneScreen({ cols: opts.cols, rows: opts.rows });
    this.queue = new PaneChangeQueue(th);
    this.analyzer = new PaneAnalyzer({ cfg: opts.cfg, forced: forcedProgram(opts.agent), command: opts.command, markNonce: opts.markNonce ?? null });
    this.faults = new FaultTracker(() => this.nowS(), () => this.analyzer.currentProgram.program);
    this.listeners = new PaneListeners(this.faults);
    this.flood = new TransitionFlood(opts.clock, (tr) => this.publish(tr), () => this.changed());
    this.machine = new PaneStateHost({ clock: opts.clock, longRunningS: th.long_running_s, waitingFallbackIdleS: th.waiting_fallback_idle_s, faults: this.faults, onTransition: (tr) => this.recordTransition(tr) });
    this.screen.onSignal((signal, line) => {
      // Inside xterm's parser: an exception here would stop this terminal's write queue for good.
      const f = this.faults;
      const outer = f.step;
      f.begin('signal');
      try {
        const t = this.inFlight.head?.t ?? this.nowS();
        const ts: TimedSignal = { t, signal, line };
        // A forged, out-of-order or inert mark is ignored whole: it does not even hasten the next screen read.
        const verdict = this.analyzer.admit(ts);
        if (verdict) {
          if (verdict !== 'inert') this.listeners.markIgnored({ ...ts, reason: verdict });
        } else {
          if (signal.kind !== 'title' || this.titleKind.changed(signal.title)) this.queue.noteEvent(t);
          this.apply(this.analyzer.signal(ts));
          this.ticker.refresh();
        }
      } catch (e) {
        f.report(e);
      }
      f.begin(outer);
    });
    this.screen.onFault((e) => this.faults.report(e, 'screen'));
    this.ticker = new PaneTicker({
      clock: opts.clock,
      tickS: th.tick_s,
      restTickS: th.rest_tick_s,
      nowS: () => this.nowS(),
      wantsTicks: (now) => this.analyzer.wantsTicks(now),
      nextDeadline: (now) => this.analyzer.nextDeadline(now),
      dirty: () => this.queue.isDirty,
      tick: () => this.tick(),
      report: (e) => this.faults.report(e),
    });
    this.ticker.start();
    this.coalesce = new CoalesceTimer({
      clock: opts.clock,
      cfg: opts.cfg,
      faults: this.faults,
      nowS: () => this.nowS(),
      dirty: () => this.queue.isDirty,
      dueAt: (now) => this.queue.dueAt(now),
      read: (now) => this.maybeTake(now, false),
    });
  }

  onTransition(l: TransitionListener): void {
    this.listeners.transition.push(l);
  }

  onSignal(l: SignalListener): void {
    this.listeners.signal.push(l);
  }

  /** An exception was caught in this pane's pipeline (logged, counted, shown by whoever listens). */
  onFault(l: FaultListener): void {
    this.faults.onFault(l);
  }

  /** Each mark ignored as forged or out of order. */
  onIgnoredMark(l: IgnoredMarkListener): void {
    this.listeners.ignored.push(l);
  }

  /** After each coalesced screen read (the daemon pushes the live edge from here, not per write). */
  onScreenChange(l: () => void): void {
    this.listeners.change.push(l);
  }

  /** The pane's latest published transitions, oldest first. */
  get transitions(): Transition[] {
    return this.listeners.transitions;
  }

  get state() {
    return this.machine.context;
  }

  /** Non-null while the pane makes transitions faster than they are published (transition-flood.ts). */
  get flooding(): FloodState | null {
    return this.flood.flooding;
  }

  /** Feed one source event. Cheap: the work happens as the terminal parses it. */
  handle(ev: PaneEvent): void {
    this.enqueue(ev);
  }

  /**
   * An agent's hook event (the daemon received it out of band, or a recording carries it), at pane time `t`. It
   * queues behind what the terminal has yet to parse, so it is applied in order with the pane's output, on a freshly
   * read screen, with the clock moved to its time first as for any event.
   */
  hook(t: number, signal: Extract<InBandSignal, { kind: 'hook' }>, line: string): void {
    this.enqueue({ kind: 'hook', t, signal, line });
  }

  private enqueue(ev: QueuedEvent): void {
    if (this.stopped) return;
    // The clock must reach an event's time before the event is parsed: done here when the terminal is idle,
    // otherwise by the callback of the event queued just before it (see parsed()).
    if (this.opts.beforeEvent && this.inFlight.size === 0) this.opts.beforeEvent(ev.t);
    this.inFlight.push(ev);
    if (ev.kind === 'output') {
      this.backlog.bytes += ev.data.length;
      this.screen.write(ev.data, this.parsed);
    } else {
      this.screen.write('', this.parsed);
    }
  }

  /** Events handed in and not yet applied. */
  get pendingEvents(): number {
    return this.inFlight.size;
  }

  /** A feeder should await drain() before handing in more (too many bytes or events queued). */
  get backlogged(): boolean {
    return this.backlog.backlogged;
  }

  /** Runs when the terminal has parsed the oldest queued event (one shared callback: no closure per write). */
  private readonly parsed = (): void => {
    const ev = this.inFlight.shift();
    if (!ev || this.stopped) return; // stopped: writes queued before stop() finish parsing, unanalysed
    if (ev.kind === 'output') this.backlog.bytes -= ev.data.length;
    // xterm runs this callback: an exception escaping it would kill the process and stall the write queue.
    this.faults.begin(ev.kind);
    try {
      if (ev.kind === 'output') {
        this.afterOutput(ev.t, ev.data);
      } else {
        this.afterOther(ev);
        this.ticker.refresh();
      }
    } catch (e) {
      this.faults.report(e);
    }
    const next = this.inFlight.head;
    if (next !== undefined && this.opts.beforeEvent) this.opts.beforeEvent(next.t);
    this.backlog.settle();
  };

  /** Bytes handed to the terminal and not parsed yet. */
  get pendingBytes(): number {
    return this.backlog.bytes;
  }

  /** Resolves once the terminal has caught up below half the high-water mark. */
  drain(): Promise<void> {
    return this.backlog.drain();
  }

  /** Resolves once everything handed in so far has been parsed and analysed. */
  flush(): Promise<void> {
    return new Promise((resolve) => this.screen.write('', () => resolve()));
  }

  /** The person has seen the pane (dashboard ack, focus). */
  ack(by = 'user'): void {
    this.faults.guard('ack', () => {
      this.faults.stage = 'state';
      this.machine.send({ type: 'ACK', t: this.nowS(), by });
      this.analyzer.setState(this.state.state);
    });
  }

  /** The revision once output parsed since the last read is read too (an action compares against it). */
  freshRev(): number {
    this.faults.guard('read', () => this.maybeTake(this.nowS(), true));
    return this.revision.value;
  }

  /** Take a snapshot now if the screen changed, then run the analyzer's timers. */
  tick(): void {
    if (this.held) return;
    // faults.guard inlined: a tick runs ten times a second of pane time, a closure each would be garbage.
    const f = this.faults;
    f.begin('tick');
    try {
      const t = this.nowS();
      // While a decision waits on the next read (analyzer.deciding), output not read yet may settle it: read it now
      // rather than at the steady pace, so a window never closes on a stale screen and a turn shows its work at once.
      this.maybeTake(t, this.analyzer.deciding(t));
      f.stage = 'analysis';
      this.apply(this.analyzer.tick(t));
    } catch (e) {
      f.report(e);
    }
  }

  /** While held (the pane's host is unreachable) time alone decides nothing: a screen nobody can see change is
   * not a quiet one. Released by the repaint that brings the pane back. */
  hold(on: boolean): void {
    if (this.held === on) return;
    this.held = on;
    this.faults.guard('hold', () => this.machine.send({ type: on ? 'HOLD' : 'RESUME' }));
  }

  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.ticker.stop();
    this.coalesce.stop();
    this.flood.stop();
    this.machine.stop();
    this.screen.dispose();
    this.backlog.release();
  }

  private nowS(): number {
    return this.clock.now() / 1000;
  }

  private afterOutput(t: number, data: string | Uint8Array): void {
    this.queue.noteOutput(t, data);
    this.maybeTake(t, false);
    this.coalesce.arm(t);
  }

  private afterOther(ev: QueuedEvent): void {
    switch (ev.kind) {
      case 'hook':
        this.queue.noteEvent(ev.t);
        this.maybeTake(ev.t, true);
        this.apply(this.analyzer.signal({ t: ev.t, signal: ev.signal, line: ev.line }));
        break;
      case 'input': {
        // Enter, Esc, Ctrl-C and friends end or start turns: read the screen as it was just before them, and
        // read it promptly afterwards. Plain typing only echoes: it waits for the ordinary coalescing.
        const control = CONTROL_KEYS.test(ev.data);
        this.queue.noteInput(ev.t, control, SUBMIT_KEYS.test(ev.data), ev.data);
        if (control) {
          this.maybeTake(ev.t, true);
          this.queue.releaseWindow();
        }
        this.apply(this.analyzer.input(ev.t, ev.data));
        break;
      }
      case 'resize':
        this.screen.resize(ev.cols, ev.rows);
        break;
      case 'process':
        // Reading the terminal is judged on the screen as it is now (is a prompt at the cursor?).
        if (ev.reading) this.maybeTake(ev.t, true);
        this.apply(this.analyzer.process(ev.t, ev.name, { ...(ev.names && { names: ev.names }), ...(ev.reading !== undefined && { reading: ev.reading }) }));
        break;
      case 'command': {
        // The source's own word on its program (Tier 1): read on a fresh screen, like a shell's OSC 133 mark.
        this.queue.noteEvent(ev.t);
        this.maybeTake(ev.t, true);
        const signal: InBandSignal =
          ev.phase === 'executed' ? { kind: 'command-executed', protocol: 'run' } : { kind: 'command-finished', protocol: 'run', exitCode: ev.exitCode };
        // Started: the command it runs; ended: its last words on screen (the summary a person looks for).
        const line = ev.phase === 'executed' ? redactCommand(this.opts.command ?? '') : (this.screen.edge(1)[0]?.trim() ?? '');
        this.apply(this.analyzer.signal({ t: ev.t, signal, line }));
        break;
      }
      case 'exit':
        this.exited = { t: ev.t, code: ev.code };
        this.maybeTake(ev.t, true);
        break;
      default:
        break;
    }
  }

  private maybeTake(t: number, force: boolean): void {
    if (!this.queue.isDirty) return;
    if (!force && (this.pace.waits(t) || !this.queue.due(t))) return;
    if (this.screen.inSyncFrame) {
      this.syncSince ??= t;
      if (t - this.syncSince < SYNC_FRAME_MAX_S) return;
    }
    this.syncSince = null;
    this.pace.start();
    this.faults.stage = 'screen';
    const change = this.queue.take(t, this.screen.snapshot());
    this.revision.read(change.hash);
    this.faults.stage = 'analysis';
    this.apply(this.analyzer.change(change));
    this.pace.done(t);
    this.ticker.refresh();
    this.changed();
  }

  private changed(): void {
    this.listeners.screenRead();
  }

  private apply(signals: Signal[]): void {
    const f = this.faults;
    for (const s of signals) {
      f.stage = 'state';
      this.listeners.heardSignal(s);
      this.machine.send(signalEvent(s));
      this.analyzer.setState(this.state.state);
      f.stage = 'analysis';
    }
  }

  private recordTransition(tr: Transition): void {
    // The analyzer learns timer-driven moves (LONG_RUNNING, waiting fallback) too.
    this.analyzer.setState(tr.to);
    this.flood.offer(tr);
  }

  /** A transition that leaves the pane (all of them, but for a flood's: transition-flood.ts). */
  private publish(tr: Transition): void {
    this.listeners.published(tr);
  }
}
