// One attached pane inside the daemon: its pipeline (PaneMonitor on the wall clock), its turns, and its record.
// Events arrive without times; the pane stamps them with its own clock on arrival.
import { readlinkSync } from 'node:fs';
import type { AgentChoice, Config } from '../config/config.js';
import type { PaneEvent } from '../attach/source.js';
import { RealClock } from '../state/clock.js';
import { TurnTracker, type Turn } from '../state/turn-tracker.js';
import type { Transition } from '../state/pane-machine.js';
import type { AttachKind, PaneRecord, TransitionRecord, TurnRecord } from '../store/records.js';
import type { AnalysisErrorView, PaneView, PaneWhereView, QuestionView } from '../web/api-types.js';
import { paneQuestion } from './pane-question.js';
import { PaneMonitor } from './pane-monitor.js';
import { redactCommand, redactText } from './redact.js';
import { maskFragments } from './redact-lines.js';
import { screenFragments, shownEdge, shownLine, shownScreen } from './shown-screen.js';
import { signalSource } from './signal-source.js';
import { PaneAttention, type Attention } from '../state/needs-you.js';

export type UntimedEvent = PaneEvent extends infer E ? (E extends PaneEvent ? Omit<E, 't'> : never) : never;

export interface LivePaneHooks {
  transition(p: LivePane, tr: TransitionRecord, raw: Transition): void;
  turn(p: LivePane, turn: TurnRecord): void;
  /** The screen was read (coalesced): the live edge may have moved. */
  screen(p: LivePane): void;
}

export interface LivePaneOptions {
  id: string;
  name: string;
  attach: AttachKind;
  command: string;
  cols: number;
  rows: number;
  agent: AgentChoice;
  cfg: Config;
  /** The stored record of the same pane from before (a wrapper reconnecting, a daemon restart). */
  previous?: PaneRecord | null;
  /** The nonce on the marks of a shell started with integration (a `run` pane's): its marks without it are forged. */
  markNonce?: string | null;
  hooks: LivePaneHooks;
}

const NEEDS_YOU = new Set(['WAITING_APPROVAL', 'FAILED', 'DONE']);
/** The rule a REPL's prompt decides a rest with (profiles/shell.ts `ready('repl_prompt')`), after the program. */
const REPL_PROMPT_RULE = '.repl_prompt';

/** The part of a pane's record a transition changes. */
export type PaneState = Pick<PaneRecord, 'program' | 'state' | 'since' | 'startedAt' | 'tier' | 'source' | 'rule' | 'line' | 'stalled'>;

function stateOf(r: PaneRecord): PaneState {
  const { program, state, since, startedAt, tier, source, rule, line, stalled } = r;
  return { program, state, since, startedAt, tier, source, rule, line, stalled };
}

export class LivePane {
  readonly id: string;
  readonly monitor: PaneMonitor;
  readonly record: PaneRecord;
  private readonly clock = new RealClock();
  /** Epoch ms at pane-clock 0. */
  private readonly origin = Date.now();
  private readonly turns = new TurnTracker();
  private readonly edgeLines: number;
  /** The pane's foreground process as its source last reported it (run panes): its cwd tells Codex panes apart. */
  private fgPid: number | undefined;
  /** The prompt of the pane's latest turn (open or just ended), when its keys were seen. */
  private latestPrompt: string | null = null;
  /** The state the person is shown (view()): the record's as of the last transition published, which happens
   * once its row is committed, so nobody is shown a state a crash could take back. */
  private shown: PaneState;
  /** Its host cannot be reached (a remote's ssh link failed): the state shown is the last one known. */
  unreachable: { since: number; reason: string } | null = null;
  /** Where the pane runs, as its source told (a `run` wrapper's host, tty and pid; tmux's session, window and
   * pane; an iTerm2 session), for a jump. */
  where: PaneWhereView | undefined;
  private readonly cfg: Config;
  /** The revision at which the shown state began: an interrupt is checked against it (pane-actions.ts). */
  private stateRevision = 0;
  /** The question read at a revision (views are built often; the screen is read once per revision). */
  private asked: { rev: number; question: QuestionView | null } | null = null;
  /** Epoch ms of the last interrupt key (Ctrl-C, a lone Esc) typed into the pane, when its keys are seen: an end
   * right after it is the person's own doing, not news (src/notify/not-news.ts). */
  interruptKeyAt: number | null = null;
  /** Whether the pane needs the person (src/state/needs-you.ts): its turns, keys, acks, and what a restart carried. */
  readonly attention: PaneAttention;
  private readonly hooks: LivePaneHooks | undefined;
  /** The verdict on the latest transition (for a notification: `turn_ended`, `question` and `stalled` are news;
   * `carried`, `startup`, `own_interrupt` and `reconnected` ends are not). */
  lastAttention: Attention = { needsYou: false, why: 'seen' };

  constructor(opts: LivePaneOptions) {
    this.id = opts.id;
    this.edgeLines = opts.cfg.daemon.edge_lines;
    this.cfg = opts.cfg;
    this.monitor = new PaneMonitor({ cfg: opts.cfg, clock: this.clock, cols: opts.cols, rows: opts.rows, agent: opts.agent, command: opts.command, markNonce: opts.markNonce ?? null });
    const now = this.origin;
    const prev = opts.previous;
    this.record = {
      id: opts.id,
      name: opts.name,
      program: this.monitor.analyzer.currentProgram.program,
      attach: opts.attach,
      command: redactCommand(opts.command),
      cols: opts.cols,
      rows: opts.rows,
      createdAt: prev?.createdAt ?? now,
      lastSeenAt: now,
      closedAt: null,
      state: 'IDLE',
      since: now,
      startedAt: now,
      tier: 0,
      source: 'timer',
      rule: prev ? 'attach.reconnected' : 'attach.new',
      line: '',
      stalled: false,
    };
    // An end nobody saw before the daemon restarted (or the wrapper reconnected) is shown as it was, unseen, until
    // it is acked or a new turn begins: not turned into IDLE by the new attachment.
    const carried = prev && (prev.state === 'DONE' || prev.state === 'FAILED') ? prev : null;
    this.attention = new PaneAttention({ now, previous: prev ? (carried ?? { state: prev.state, since: prev.since }) : null });
    if (carried) {
      const { state, since, startedAt, tier, source, rule, line } = carried;
      Object.assign(this.record, { state, since, startedAt, tier, source, rule, line });
    }
    this.shown = stateOf(this.record);
    this.hooks = opts.hooks;
    this.monitor.onTransition((tr) => this.onTransition(tr, opts.hooks));
    this.monitor.onScreenChange(() => opts.hooks.screen(this));
  }

  /** Pane-clock seconds now. */
  get t(): number {
    return this.clock.now() / 1000;
  }

  wall(t: number): number {
    return Math.round(this.origin + t * 1000);
  }

  handle(ev: UntimedEvent): void {
    const e = { ...ev, t: this.t } as PaneEvent;
    this.record.lastSeenAt = Date.now();
    if (e.kind === 'input') {
      this.turns.input(e.data);
      if (e.data.includes('\x03') || e.data === '\x1b') this.interruptKeyAt = Date.now();
      this.attention.keys(e.data);
    }
    if (e.kind === 'process' && e.pid !== undefined) this.fgPid = e.pid;
    if (e.kind === 'resize') {
      this.record.cols = e.cols;
      this.record.rows = e.rows;
    }
    this.monitor.handle(e);
  }

  /** The first line of the prompt of the latest turn, as typed (not redacted: it is compared, never shown). */
  get prompt(): string | null {
    return this.latestPrompt;
  }

  /** The working directory of the pane's foreground process, when the source reported one and /proc shows it. */
  cwd(): string | undefined {
    if (this.fgPid === undefined) return undefined;
    try {
      return readlinkSync(`/proc/${this.fgPid}/cwd`);
    } catch {
      return undefined; // gone, not ours, or no /proc
    }
  }

  ack(by: string): void {
    this.attention.ack();
    // A carried end (the machine itself began at IDLE on this attachment): the ack is the record's own move.
    if (this.monitor.state.state === 'IDLE' && (this.record.state === 'DONE' || this.record.state === 'FAILED') && this.hooks) {
      const t = this.t;
      this.onTransition({ from: this.record.state, to: 'IDLE', t, startedAt: t, tier: 0, rule: `ack.${by}`, line: '', stalled: false, startedAtKept: false }, this.hooks);
      return;
    }
    this.monitor.ack(by);
  }

  screenText(): string {
    try {
      return this.monitor.screen.text();
    } catch (e) {
      this.monitor.faults.report(e, 'screen', 'screen text');
      return '';
    }
  }

  /** The visible screen as it may be shown: secrets masked on the logical line (a key wrapped over two rows too). */
  shownScreenText(): string {
    try {
      return shownScreen(this.monitor.screen);
    } catch (e) {
      this.monitor.faults.report(e, 'screen', 'screen text');
      return '';
    }
  }

  /** A line read from the screen (a transition's), masked as the screen it came from; a screen that cannot be read
   * leaves it to redactText alone. */
  private shownLine(line: string): string {
    try {
      return shownLine(this.monitor.screen, line);
    } catch (e) {
      this.monitor.faults.report(e, 'screen', 'line');
      return redactText(line);
    }
  }

  /** The pane as the API shows it; a screen that cannot be read shows no edge (one pane never fails a listing). */
  view(): PaneView {
    let edge: string[] = [];
    try {
      edge = shownEdge(this.monitor.screen, this.edgeLines);
    } catch (e) {
      this.monitor.faults.report(e, 'screen', 'view');
    }
    const f = this.monitor.faults.summary();
    const error = f && { at: this.wall(f.t), stage: f.stage, step: f.step, program: f.program, message: f.message, count: f.count };
    // A believed OSC 133/633 mark: the shell reports its own commands (Tier 1), `doctor` tells the person.
    const keys = this.cfg.actions.keys;
    // The program reading the pane now: found from its process or title before any transition (an idle agent in a
    // tmux pane is that agent at once, not a shell until its first hook).
    const program = this.monitor.analyzer.currentProgram.program;
    const needsYou = this.attention.now(this.shown.state, this.shown.stalled).needsYou;
    const live = { rev: this.monitor.revision.value, question: this.question(), interruptKeys: (keys[program] ?? keys['default'])?.interrupt, needsYou };
    const v = paneView({ ...this.record, ...this.shown, program }, edge, true, this.monitor.analyzer.shellIntegration, error, live);
    if (this.unreachable) v.unreachable = { ...this.unreachable };
    const flood = this.monitor.flooding;
    if (flood) v.flooding = { since: this.wall(flood.since), held: flood.held };
    return this.where ? { ...v, where: { ...this.where } } : v;
  }

  /** The revision at which the pane entered the state it shows. */
  get stateRev(): number {
    return this.stateRevision;
  }

  /** The state the person is shown now. */
  get shownState(): PaneState {
    return this.shown;
  }

  /** What a WAITING_APPROVAL pane asks, read from its live edge (redacted, as the edge is); null otherwise. */
  question(): QuestionView | null {
    if (this.shown.state !== 'WAITING_APPROVAL') return null;
    const rev = this.monitor.revision.value;
    if (this.asked?.rev === rev) return this.asked.question;
    let question: QuestionView | null = null;
    try {
      const q = paneQuestion(this.monitor, this.record.program, this.cfg);
      // Its text and labels are rows of the screen: masked with what a wrap split there, as the screen is.
      const parts = q ? screenFragments(this.monitor.screen) : [];
      question = q && { text: maskFragments(q.text, parts), options: q.options.map((o) => ({ ...o, label: maskFragments(o.label, parts) })) };
    } catch (e) {
      this.monitor.faults.report(e, 'analysis', 'question');
    }
    this.asked = { rev, question };
    return question;
  }

  /** The record's state now (handed to the transition hook, shown once published). */
  stateNow(): PaneState {
    return stateOf(this.record);
  }

  /** A transition was published: views show its state from now on. */
  show(s: PaneState): void {
    // A new state makes what the person saw stale (a click on a RUNNING card must not land on the question that
    // followed it); LONG_RUNNING is the same work going on.
    const working = (x: string) => x === 'RUNNING' || x === 'LONG_RUNNING';
    if (s.state !== this.shown.state && !(working(s.state) && working(this.shown.state))) {
      this.monitor.revision.bump();
      this.stateRevision = this.monitor.revision.value;
    }
    this.shown = s;
  }

  /** The source went away; returns the turn it cut short, if one was open. */
  close(): TurnRecord | null {
    const open = this.turns.end(this.t);
    this.record.closedAt = Date.now();
    this.monitor.stop();
    return open ? this.turnRecord(open) : null;
  }

  private onTransition(tr: Transition, hooks: LivePaneHooks): void {
    const r = this.record;
    this.lastAttention = this.attention.transition({ from: tr.from, to: tr.to, rule: tr.rule, stalled: tr.stalled, at: this.wall(tr.t) });
    r.program = this.monitor.analyzer.currentProgram.program;
    r.state = tr.to;
    r.since = this.wall(tr.t);
    r.startedAt = this.wall(tr.startedAt);
    r.tier = tr.tier;
    r.source = signalSource(tr.tier, tr.rule);
    r.rule = tr.rule;
    r.line = this.shownLine(tr.line);
    r.stalled = tr.stalled;
    const rec: TransitionRecord = {
      paneId: this.id,
      at: r.since,
      from: tr.from,
      to: tr.to,
      tier: tr.tier,
      source: r.source,
      rule: tr.rule,
      line: r.line,
      stalled: tr.stalled,
      startedAt: r.startedAt,
      startedAtKept: tr.startedAtKept,
    };
    if (tr.step) rec.step = tr.step;
    hooks.transition(this, rec, tr);
    for (const turn of this.turns.transition(tr)) {
      if (turn.end === null) this.latestPrompt = turn.prompt;
      hooks.turn(this, this.turnRecord(turn));
    }
  }

  private turnRecord(t: Turn): TurnRecord {
    const start = this.wall(t.start);
    const end = t.end === null ? null : this.wall(t.end);
    return {
      paneId: this.id,
      start,
      end,
      durationS: end === null ? null : Math.round(end - start) / 1000,
      result: t.result,
      prompt: t.prompt === null ? null : redactText(t.prompt),
    };
  }
}

/** A pane as the API shows it; `edge` empty for a closed pane. */
export function paneView(
  r: PaneRecord,
  edge: string[],
  alive: boolean,
  shellIntegration = false,
  analysisError: AnalysisErrorView | null = null,
  live: { rev: number; question: QuestionView | null; interruptKeys?: string | undefined; needsYou?: boolean } = { rev: 0, question: null },
): PaneView {
  return {
    id: r.id,
    name: r.name,
    program: r.program,
    state: r.state,
    since: r.since,
    startedAt: r.startedAt,
    source: r.source,
    tier: r.tier,
    rule: r.rule,
    line: r.line,
    stalled: r.stalled,
    cols: r.cols,
    rows: r.rows,
    attach: r.attach,
    command: r.command,
    alive,
    // A live pane says (its PaneAttention); a record without one (history) by its state alone.
    needsYou: alive && (live.needsYou ?? (NEEDS_YOU.has(r.state) || r.stalled)),
    edge: alive ? edge.map(redactText) : [],
    shellIntegration,
    exitCodeUnknown: exitCodeUnknown(r, shellIntegration),
    analysisError: alive ? analysisError : null,
    rev: live.rev,
    question: alive ? live.question : null,
    ...(alive && live.interruptKeys ? { interruptKeys: live.interruptKeys } : {}),
    ...(r.host ? { host: r.host } : r.attach === 'ssh' ? { host: paneHost(r.id) } : {}),
  };
}

/** A remote pane's host: its id's part before the tmux pane id (`devbox` of `devbox:%3`). */
export function paneHost(id: string): string {
  const i = id.lastIndexOf(':');
  return i > 0 ? id.slice(0, i) : id;
}

/** A shell's DONE that its screen decided (no exit code came with it): a prompt came back, nothing says whether
 * the command succeeded. Tier 1 ends (shell integration, `run`'s own exit status) carry the code. */
function exitCodeUnknown(r: PaneRecord, shellIntegration: boolean): boolean {
  // At a REPL's prompt (python, irb, pdb: `<program>.repl_prompt`) no shell's exit code could apply, integration or not.
  return r.state === 'DONE' && r.program === 'shell' && r.tier !== 1 && !shellIntegration && !r.rule.endsWith(REPL_PROMPT_RULE);
}
