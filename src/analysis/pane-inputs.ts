// How one pane's analyzer takes its inputs: in-band signals, typed keys, foreground-process changes, coalesced
// screen changes and clock ticks (all stamped with pane-clock seconds). Each updates the facts PaneFacts keeps
// (pane-facts.ts) and asks evaluate() for a decision; the decisions are PaneAnalyzer's (pane-analyzer.ts), which
// extends this. Pure.
import type { TimedSignal } from '../screen/types.js';
import type { PaneChange } from '../queue/pane-change-queue.js';
import type { Signal } from './types.js';
import type { MarkVerdict } from './mark-gate.js';
import { jobStarted } from './program-tracker.js';
import { lastMatch } from './text.js';
import { queuedMarker } from './follow-up.js';
import { localCommand } from './typed-line.js';
import { openAnchor, UNSEEN_RULE } from './turn-anchor.js';
import { PaneFacts } from './pane-facts.js';
import { READS_TERMINAL_RULE, restingPrompt } from './terminal-read.js';

/** The rule suffix of a REPL's own prompt (profiles/shell.ts). */
const REPL_PROMPT_RULE = '.repl_prompt';

/** What a source saw of the foreground process besides its name (src/attach/foreground.ts). */
export interface ForegroundFacts {
  /** The names it goes by besides its title (its executable's, its script's, its package's). */
  names?: readonly string[];
  /** It sits blocked reading the terminal. */
  reading?: boolean;
}

export type { AnalyzerOptions } from './pane-facts.js';
export { ANCHOR_RULE } from './turn-anchor.js';

export abstract class PaneInputs extends PaneFacts {
  /** The foreground program sits blocked reading the terminal, as its source last said (until a line is typed:
   * then it has the line, and the source says when it reads again). Its prompt may reach the screen after the
   * source saw it read: each screen read looks again. */
  private terminalRead = false;
  // ---- inputs --------------------------------------------------------------------------------------------

  /** Whether an in-band signal is believed (null; a forged or out-of-order mark is not, an inert one changes
   * nothing: mark-gate.ts). Only a believed one may be handed to signal(); a refused one is counted and kept. */
  admit(ts: TimedSignal): MarkVerdict {
    this.now = Math.max(this.now, ts.t);
    return this.tier1.admit(ts);
  }

  /** A shell-integration mark was believed: the shell reports its commands' ends and exit codes (Tier 1). */
  get shellIntegration(): boolean {
    return this.tier1.shellIntegration;
  }

  signal(ts: TimedSignal): Signal[] {
    this.now = Math.max(this.now, ts.t);
    const s = ts.signal;
    const out: Signal[] = [];
    switch (s.kind) {
      case 'title':
        this.reader.noteTitle(ts.t);
        if (this.prog.open) this.programChanged(this.prog.fromEvidence({ title: s.title }));
        return out;
      case 'bracketed-paste':
        this.reader.noteBracketedPaste(s.on);
        if (!s.on) this.lineAcceptedAt = ts.t;
        return out;
      case 'alt-screen':
        this.fullscreen.noteAltScreen(ts.t, s.on);
        // An agent leaving its full-screen TUI has exited (/exit, /quit) or handed the terminal over: the Enter
        // that preceded it was no prompt to a turn, and the screen it leaves behind is no work.
        if (!s.on && !this.readsFullscreen()) this.anchor = null;
        return out;
      default:
        this.tier1.signal(ts, out);
        return out;
    }
  }

  input(t: number, data: string): Signal[] {
    this.now = Math.max(this.now, t);
    this.keysSeen = true;
    // The first key at rest: the input area as the program shows it waiting for a prompt.
    if (this.phase() === 'rest' && this.anchor === null && this.snap && this.typed.current === '') this.tui.noteRestKey(this.snap);
    // Keys typed ahead into an agent's input box while its turn runs are no key for the program to answer: its
    // frames stopping still ends the turn on time.
    if (!(this.phase() === 'running' && this.genericTui(this.snap))) this.fullscreen.noteKey(t);
    const lines = this.typed.input(data);
    if (/[\r\n]/.test(data)) {
      this.terminalRead = false;
      const last = lines[lines.length - 1];
      if (last) this.reader.notePrompt(last);
      if (this.snap) this.reader.noteEnter(this.snap.lines);
      this.armAnchor(t);
      if (last !== undefined && localCommand(this.cfg, this.prog.program, last)) this.anchor!.local = true;
    }
    if (data === '\x1b' && this.phase() === 'running') this.interruptSeen = true;
    if (this.phase() === 'waiting') this.question.noteKey(t, data, this.snap?.lines);
    return [];
  }

  process(t: number, name: string, facts: ForegroundFacts = {}): Signal[] {
    this.now = Math.max(this.now, t);
    const out: Signal[] = [];
    const names = facts.names ?? [];
    // The shell gave the terminal to a job: the person's command started (a tmux pane's only sign of its Enter).
    // Anchored like Enter, so the prompt still on screen at this instant cannot end the turn. Not a job already
    // waiting at a REPL's prompt (`python3` whose `>>>` was read before the process table said so): a session
    // that has started, whose start the screen has already told.
    if (jobStarted(this.cfg, this.prog.processName, name, names) && this.phase() !== 'running' && !this.atReplPrompt(t)) {
      const age = this.anchorAge(t);
      if (age === null || age > this.cfg.thresholds.anchor_evidence_window_s) this.armJobAnchor(t);
      this.emit(out, t, 'run', 1, 'job.started', name);
    }
    this.programChanged(this.prog.fromProcess(name, names));
    this.terminalRead = facts.reading === true;
    this.readsTerminal(t, out);
    out.push(...this.evaluate(t));
    return out;
  }

  /** The foreground program blocked reading the terminal: at a prompt that is no question, the turn it was read as
   * is over (terminal-read.ts); for programs no profile reads. A shell reading at its own prompt is left to its marks and its screen, which know
   * the exit code; unless it is the program `run` started as one thing to do (`bash repl.sh`). */
  private readsTerminal(t: number, out: Signal[]): void {
    if (!this.terminalRead || this.phase() !== 'running' || !this.snap) return;
    // The person is typing their next line at it (keys seen, not submitted yet): their Enter starts the next turn;
    // an end said now would be a race with their typing (which of the two the read was seen after).
    if (this.keysSeen && this.typed.current !== '') return;
    // An agent with a profile is read by it and by its hooks, which know its turns (a read between its answer and
    // its Stop hook is no end of its own).
    if (this.prog.program !== 'shell' && this.prog.program !== 'generic') return;
    const name = this.prog.processName ?? '';
    if (!this.tier1.endAssured && this.cfg.job_gate.shells.includes(name.replace(/^-/, ''))) return;
    const cls = this.reclassify(t);
    const prompt = restingPrompt(this.snap, cls);
    if (prompt === null) return;
    // It reads the person: a session, whatever it was taken for. Its exit still reports. A turn whose last output
    // names a failure ("FATAL: build failed") ended FAILED, though the program went back to its prompt.
    this.tier1.programIsSession();
    const failure = cls.verdict === 'failed' ? { index: 0, line: cls.line } : lastMatch(cls.liveEdge, this.cfg.patterns.generic.failure);
    this.emit(out, t, failure ? 'failed' : 'done', 1, READS_TERMINAL_RULE, failure ? failure.line : prompt);
    // The next line typed starts a turn only the screen sees: no Tier 1 silence may hide it.
    this.tier1.yieldToScreen(t);
  }

  change(ch: PaneChange): Signal[] {
    this.now = Math.max(this.now, ch.t);
    this.tui.noteChange(ch.t, ch.snapshot, this.reader.current);
    this.snap = ch.snapshot;
    this.lastChange = ch;
    this.hash = ch.hash;
    this.lastOutputAt = ch.lastOutputAt;
    // Any redraw counts as a frame here, a clock's digits too (folded away from `meaningful`, which guards stalls).
    const rows = ch.snapshot.changedRows;
    if (this.ownFramesRead(ch.snapshot)) this.fullscreen.noteChange(ch.t, ch.selfDriven, rows === undefined || rows.length > 0);
    if (ch.meaningful) {
      this.lastMeaningfulAt = ch.lastMeaningfulAt;
      // Any change read after the anchor was armed is after it (events arrive in order; a live clock may give
      // the key and its echo the same millisecond). On a full-screen program's screen only its own animation is
      // work: a redraw answering a key (Enter in an editor, a late one after Esc) is not.
      const answer = ch.snapshot.altScreen && this.readsFullscreen() && this.fullscreenMode(ch.t) !== 'animating';
      if (!this.genericTui(ch.snapshot) && openAnchor(this.anchor) && ch.hash !== this.anchor.hash && !answer) this.anchor.evidence = 'screen_moved';
    }
    // The generic tier reading an agent's TUI takes any frame the program drew by itself after the prompt (not a
    // key's answer) as the turn's work, a spinner's frame too (which `meaningful` folds away).
    if (this.genericTui(ch.snapshot) && openAnchor(this.anchor)) {
      // ...and the prompt taken into its transcript (the input cleared, the words now a message): a turn began,
      // though it may draw nothing more until its answer.
      if (ch.selfDriven && (rows === undefined || rows.length > 0)) this.anchor.evidence = 'own_frames';
      else if (this.reader.promptTaken(ch.snapshot.lines)) this.anchor.evidence = 'prompt_taken';
    }
    this.reader.pruneAnswered(ch.snapshot.lines);
    // The program redrew after the person's answer: the question's rows as they stood then ask nothing any more.
    if (this.phase() === 'waiting' && this.ownFramesRead(ch.snapshot) && (rows === undefined || rows.length > 0)) {
      const answered = this.question.answeredRows(ch.t);
      if (answered) this.reader.noteAnswered(answered, ch.snapshot.lines);
    }
    if (this.phase() === 'running') this.followUp.noteScreen(ch.t, queuedMarker(this.cfg, this.prog.program, ch.snapshot.lines) !== null);
    if (this.prog.open) {
      // Only rows that changed can newly show a program's signature (titles are checked as they arrive).
      const rows = ch.snapshot.changedRows;
      this.programChanged(this.prog.fromEvidence({ lines: rows ? rows.map((y) => ch.snapshot.lines[y]!) : ch.snapshot.lines }));
      // No profile named it, and no shell ever showed itself here (its prompt, shell integration): a TUI on
      // screen is an agent we do not know, read by the generic tier.
      if (this.tui.unnamedAgent(ch.snapshot, this.tier1.lastAt > -Infinity)) this.programChanged(this.prog.tuiScreen(), true);
    }
    const out = this.unseenCommand(ch);
    this.tier1.screenRead(ch.t, out);
    this.readsTerminal(ch.t, out);
    out.push(...this.evaluate(ch.t));
    if (this.stalled && ch.meaningful && this.phase() === 'running') {
      this.stalled = false;
      this.emit(out, ch.t, 'activity', 3, 'stall.recovered', '');
    }
    return out;
  }

  tick(t: number): Signal[] {
    this.now = Math.max(this.now, t);
    const out: Signal[] = [];
    const th = this.cfg.thresholds;
    this.tier1.tick(t, out);
    const held = this.followUp.due(t);
    if (held) this.emit(out, t, 'done', held.tier, held.rule, held.line);
    if (this.anchor && !this.anchor.evidence && t - this.anchor.t > th.anchor_evidence_window_s) this.anchor = null;
    if (this.timeMatters(t)) out.push(...this.evaluate(t));
    return out;
  }

  /** The pane rests at a REPL's prompt (the shell profile's `repl_prompt`: `>>>`, `irb>`, `>` of node). */
  private atReplPrompt(t: number): boolean {
    return this.phase() === 'rest' && this.snap !== null && this.reclassify(t).rule.endsWith(REPL_PROMPT_RULE);
  }

  /** Where keys are not seen, a line-oriented program back at a prompt below a command that ran unseen: a turn,
   * anchored on the command's row (its live edge is what the command printed). */
  protected unseenCommand(ch: PaneChange): Signal[] {
    const out: Signal[] = [];
    const program = this.prog.program;
    if (this.keysSeen || (program !== 'shell' && program !== 'generic')) return out;
    const ran = this.unseen.observe(ch.snapshot, this.reclassify(ch.t));
    if (!ran || this.phase() !== 'rest') return out;
    // With shell integration the shell reports each command itself (Tier 1): nothing is left to infer.
    if (this.tier1.lastAt > -Infinity) {
      this.suppress(ch.t, 'run', 3, UNSEEN_RULE, 'shell_integration');
      return out;
    }
    this.anchor = { t: ch.t, hash: ch.hash, evidence: 'unseen_command', baseline: '', moved: true, row: ran.row };
    this.emit(out, ch.t, 'run', 3, UNSEEN_RULE, ran.line);
    return out;
  }

  /** Decide on the screen as it reads now: the signals the state machine should act on. */
  protected abstract evaluate(t: number): Signal[];
}
