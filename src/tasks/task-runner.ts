// One supervised task's loop: wait until the pane is ready, type the prompt, wait for that turn to really end,
// decide (screen criteria, check command, judge), then continue or stop, under guardrails. Every step is saved
// before the next one acts, so a restarted daemon resumes from the last checkpoint. IO comes in through
// RunnerDeps (the daemon wires the registry, the store, the judge); decisions are the pure modules beside it.
import type { TasksConfig } from '../config/config.js';
import type { PaneView } from '../web/api-types.js';
import { compileCriteria, hasScreenCriteria, matchCriteria, type CompiledCriteria } from './criteria.js';
import { regionText } from './region.js';
import { estimateTokens, keepLastHour, limitBeforeSend, overBudget, waitBeforeSend, type Verdict } from './guardrails.js';
import { loopIn, progressKey, remember } from './loop-detect.js';
import { assessProgress } from './reflection.js';
import type { CheckResult } from './check-command.js';
import type { IterationRecord, JudgeNote, ReasonCode, TaskEvent, TaskRecord, TaskStatus } from './task-types.js';

/** How often a task looks at its pane: fast enough that a 1 s turn is seen, cheap for a handful of tasks. */
export const POLL_MS = 200;
/** Region text kept per iteration: the end of a turn, not a transcript. */
export const MAX_EXCERPT_CHARS = 4000;
/** Clock skew between a pane's transition times and the task's send time (both wall clock, one process). */
const SEND_SLACK_MS = 50;

const BUSY = new Set(['RUNNING', 'LONG_RUNNING', 'WAITING_APPROVAL']);
const AT_REST = new Set(['IDLE', 'DONE', 'FAILED']);

export interface PaneAccess {
  view(id: string): PaneView | null;
  screen(id: string): string | null;
  /** The detector's verdict on the screen now (working | waiting | ready | failed | resting | unknown), or null. */
  verdict(id: string): string | null;
  /** Types `text` (then Enter when `enter`) through the pane's source; false when it cannot. */
  type(id: string, text: string, enter: boolean): Promise<boolean>;
}

export interface JudgeAnswer {
  continuation: string;
  risk: number;
  complete: boolean;
  reason: string;
  confidence: number;
  parsedBy: string;
  tokens: number;
}

/** The LLM judge; `signal` aborts a call when the task stops (a daemon shutting down must not wait on it). */
export interface TaskJudge {
  ask(req: { goal: string; criteria: { success: string[]; failure: string[]; until?: string; check?: string }; screen: string; iteration: number; recentPrompts: string[] }, signal: AbortSignal): Promise<JudgeAnswer>;
  propose(goal: string, signal: AbortSignal): Promise<{ success: string[]; failure: string[]; tokens: number }>;
  reflect(input: { goal: string; iterations: Array<{ prompt: string; screenExcerpt: string; verdict?: string }> }, signal: AbortSignal): Promise<{
    goalAchieved: boolean;
    progress: 'good' | 'slow' | 'stuck';
    looping: boolean;
    suggestions: string[];
    tokens: number;
  }>;
}

export interface RunnerDeps {
  panes: PaneAccess;
  save(t: TaskRecord): void;
  saveIteration(it: IterationRecord): void;
  iterations(taskId: string): IterationRecord[];
  event(e: TaskEvent): void;
  /** The task ended or needs the person. */
  notify(t: TaskRecord, kind: 'finished' | 'needs_you'): void;
  cfg: TasksConfig;
  /** Null: no judge configured. */
  judge: TaskJudge | null;
  check(cmd: string, cwd: string | null, timeoutMs: number, signal: AbortSignal): Promise<CheckResult>;
  redact(text: string): string;
  now(): number;
}

/** Unwinds the loop once the task has ended, paused or been stopped. */
class Halt extends Error {}

interface TurnOutcome {
  result: 'done' | 'failed' | 'interrupted' | 'no_response' | 'resumed';
  startedAt: number | null;
  endedAt: number;
  approvalMs: number;
}

export class TaskRunner {
  private readonly abort = new AbortController();
  private criteria: CompiledCriteria;
  /** The approvals this task may answer itself, compiled once (they are checked on every poll of a question). */
  private readonly approve: RegExp[];
  /** Picked up with a prompt already sent (a restarted daemon, a resumed pause): that turn's start went unseen. */
  private resumedMidTurn: boolean;
  /** Settles when the loop has unwound. */
  readonly done: Promise<void>;

  constructor(
    private readonly t: TaskRecord,
    private readonly d: RunnerDeps,
  ) {
    this.criteria = this.compile();
    this.resumedMidTurn = t.phase === 'sent';
    this.approve = t.spec.approve.map((p) => new RegExp(p, 'u'));
    this.done = this.run();
  }

  get record(): TaskRecord {
    return this.t;
  }

  /** The person stopped it (or the daemon is going): the loop unwinds at its next step. */
  halt(): void {
    this.abort.abort();
  }

  // ---- the loop --------------------------------------------------------------------------------------------

  private async run(): Promise<void> {
    try {
      if (this.t.status === 'PENDING') {
        this.set({ status: 'RUNNING', reason: 'started', reasonCode: null });
        this.event('started', this.t.spec.prompt);
      }
      await this.criteriaUpFront();
      for (;;) {
        if (this.t.phase !== 'sent') {
          const limit = limitBeforeSend(this.t);
          if (limit) this.end('EXHAUSTED', limit);
          await this.waitReady();
          await this.send();
        }
        const turn = await this.awaitTurn();
        await this.afterTurn(turn);
      }
    } catch (e) {
      if (e instanceof Halt || this.abort.signal.aborted) return;
      this.event('error', String((e as Error).stack ?? e));
      this.pause({ code: 'stalled', reason: `the supervisor hit an internal error: ${(e as Error).message}` });
    }
  }

  private async criteriaUpFront(): Promise<void> {
    const c = this.t.spec.criteria;
    if (hasScreenCriteria(this.criteria) || c.check || this.t.proposed || this.t.warnings.length) return;
    if (this.t.spec.judge && this.d.judge) {
      try {
        const p = await this.d.judge.propose(this.t.spec.goal, this.abort.signal);
        this.checkAbort();
        this.t.tokensUsed += p.tokens;
        this.t.proposed = { success: p.success, failure: p.failure };
        this.criteria = this.compile();
        this.event('criteria_proposed', `success: ${p.success.join(' | ') || '-'}; failure: ${p.failure.join(' | ') || '-'}`);
        this.save();
        return;
      } catch (e) {
        if (this.abort.signal.aborted) throw new Halt();
        this.event('judge_error', (e as Error).message);
      }
    }
    if (!this.t.spec.judge || !this.d.judge) {
      this.t.warnings.push('no ending criteria (no --until, --success, --fail, --check or judge): only the limits will stop this task');
      this.event('warning', this.t.warnings[this.t.warnings.length - 1]!);
      this.save();
    }
  }

  /** Until the pane is alive, at rest, not asking anything, with an unchanged screen; and cooldowns are over. */
  private async waitReady(): Promise<void> {
    this.set({ phase: 'ready' });
    const stableMs = this.d.cfg.ready_stable_s * 1000;
    let last: string | null = null;
    let stableSince = this.d.now();
    let told = '';
    for (;;) {
      const v = await this.livePane();
      const now = this.d.now();
      const screen = this.d.panes.screen(v.id) ?? '';
      if (screen !== last) {
        last = screen;
        stableSince = now;
      }
      const verdict = this.d.panes.verdict(v.id);
      const wait = waitBeforeSend(this.t, this.t.lastTurnEnd, now);
      let why = '';
      if (!AT_REST.has(v.state)) why = `the pane is ${v.state}`;
      else if (verdict === 'working' || verdict === 'waiting' || verdict === 'resting') why = `the screen reads as ${verdict}`;
      else if (now - stableSince < stableMs) why = 'the screen is still changing';
      else if (wait.ms > 0) why = wait.why;
      if (!why) return;
      if (why !== told && !why.startsWith('the screen is still')) this.event('waiting', why);
      told = why;
      await this.sleep(POLL_MS);
    }
  }

  private async send(): Promise<void> {
    const now = this.d.now();
    const prompt = this.t.nextPrompt;
    const n = this.t.iterations + 1;
    const it: IterationRecord = {
      taskId: this.t.id,
      n,
      prompt,
      sentAt: now,
      turnStartedAt: null,
      endedAt: null,
      result: null,
      excerpt: '',
      decision: null,
      judge: null,
      check: null,
      charsTyped: prompt.length + 1,
      charsRead: 0,
      tokens: estimateTokens(prompt.length + 1),
      approvalMs: 0,
    };
    // Saved before typing: a daemon killed between the two resumes by waiting for this turn, never types twice.
    this.d.saveIteration(it);
    this.set({ phase: 'sent', iterations: n, tokensUsed: this.t.tokensUsed + it.tokens, recentSends: [...keepLastHour(this.t.recentSends, now), now] });
    this.event('sent', `#${n}: ${prompt}`);
    const ok = await this.d.panes.type(this.t.spec.pane, prompt, true);
    this.checkAbort();
    if (!ok) this.pause({ code: 'pane_cannot_type', reason: 'this pane cannot be typed into (its source takes no input: attach it with `termsupervisor run`, tmux or the iTerm2 bridge)' });
  }

  /** Until the turn the last prompt started has ended, and its screen has settled. */
  private async awaitTurn(): Promise<TurnOutcome> {
    const it = this.current();
    const sentAt = it.sentAt;
    // Resumed during a turn its beginning was not seen: the pane at rest (and settled) means the turn is over.
    let resumed = this.resumedMidTurn;
    this.resumedMidTurn = false;
    let started = it.turnStartedAt !== null;
    let startedAt = it.turnStartedAt;
    let approvalMs = it.approvalMs;
    let answered = -1;
    let askedPerson = -1;
    let lastKey = '';
    let lastProgress = this.d.now();
    let settledSince: number | null = null;
    let tick = this.d.now();
    for (;;) {
      const v = await this.livePane(() => (resumed = true));
      const now = this.d.now();
      const dt = now - tick;
      tick = now;
      const screen = this.d.panes.screen(v.id) ?? '';
      const key = progressKey(screen);
      if (key !== lastKey) {
        lastKey = key;
        lastProgress = now;
        settledSince = null;
      }
      if (BUSY.has(v.state) || (AT_REST.has(v.state) && v.state !== 'IDLE' && v.since >= sentAt - SEND_SLACK_MS && v.startedAt >= sentAt - SEND_SLACK_MS)) {
        if (!started) {
          started = true;
          startedAt = Math.max(v.startedAt, sentAt);
          it.turnStartedAt = startedAt;
          this.d.saveIteration(it);
          this.event('turn_started', v.line);
        }
      }
      if (v.state === 'WAITING_APPROVAL') {
        lastProgress = now; // a question waiting on an answer is not a stall
        if (this.mayApprove(v)) {
          if (answered !== v.since) {
            answered = v.since;
            this.event('approved', v.line);
            await this.d.panes.type(v.id, this.d.cfg.approve_keys, false);
            this.checkAbort();
          }
          this.addAgentTime(dt);
        } else {
          approvalMs += dt;
          if (askedPerson !== v.since) {
            askedPerson = v.since;
            // The pane's own WAITING_APPROVAL notification tells the person; a second ping would only be noise.
            this.event('approval_waiting', `waiting for the person to answer: ${v.line}`);
          }
        }
      } else if (BUSY.has(v.state)) {
        this.addAgentTime(dt);
        if (now - lastProgress >= this.t.spec.limits.heartbeatS * 1000) this.stalled(now - lastProgress);
      } else if (started || resumed) {
        settledSince ??= now;
        const verdict = this.d.panes.verdict(v.id);
        if (now - settledSince >= this.d.cfg.settle_s * 1000 && verdict !== 'working' && verdict !== 'waiting' && verdict !== 'resting') {
          const result = !started ? 'resumed' : v.state === 'DONE' ? 'done' : v.state === 'FAILED' ? 'failed' : 'interrupted';
          return { result, startedAt, endedAt: now, approvalMs };
        }
      } else if (now - sentAt >= this.d.cfg.turn_start_timeout_s * 1000) {
        return { result: 'no_response', startedAt: null, endedAt: now, approvalMs };
      }
      const maxMs = this.t.spec.limits.maxRuntimeS * 1000;
      if (this.t.agentMs >= maxMs) this.end('EXHAUSTED', { code: 'max_runtime', reason: `agent time reached the limit of ${this.t.spec.limits.maxRuntimeS} s during turn #${it.n}` });
      it.approvalMs = approvalMs;
      await this.sleep(POLL_MS);
    }
  }

  private async afterTurn(turn: TurnOutcome): Promise<void> {
    const it = this.current();
    const screen = this.d.panes.screen(this.t.spec.pane) ?? '';
    const region = regionText(screen, this.t.spec.criteria.region, it.prompt);
    it.result = turn.result;
    it.turnStartedAt = turn.startedAt;
    it.endedAt = turn.endedAt;
    it.approvalMs = turn.approvalMs;
    it.excerpt = this.d.redact(region).slice(-MAX_EXCERPT_CHARS);
    it.charsRead = region.length;
    it.tokens += estimateTokens(region.length);
    this.t.tokensUsed += estimateTokens(region.length);
    this.t.lastTurnEnd = turn.endedAt;
    this.event('turn_ended', `#${it.n}: ${turn.result}`);
    const failedTurn = turn.result === 'failed' || turn.result === 'no_response';
    this.t.consecutiveFailures = failedTurn ? this.t.consecutiveFailures + 1 : 0;

    const decided = (decision: string) => {
      it.decision = decision;
      this.d.saveIteration(it);
    };
    // 1. The screen's own criteria: failure first, then until, then success.
    const m = matchCriteria(this.criteria, region);
    if (m) {
      decided(`${m.kind}_matched`);
      if (m.kind === 'failure') this.end('FAILED', { code: 'failure_matched', reason: `failure pattern ${JSON.stringify(m.pattern)} matched: ${m.line}` });
      this.end('FINISHED', { code: m.kind === 'until' ? 'until_matched' : 'success_matched', reason: `${m.kind === 'until' ? 'until' : 'success pattern'} ${JSON.stringify(m.pattern)} matched: ${m.line}` });
    }
    // 2. The check command.
    const check = this.t.spec.criteria.check;
    if (check) {
      const r = await this.d.check(check, this.t.spec.cwd, this.d.cfg.check_timeout_s * 1000, this.abort.signal);
      this.checkAbort();
      it.check = { exitCode: r.exitCode, output: this.d.redact(r.output) };
      this.event('check', `exit ${r.exitCode ?? 'none'}`);
      if (r.exitCode === 0) {
        decided('check_passed');
        this.end('FINISHED', { code: 'check_passed', reason: `check command passed: ${check}` });
      }
    }
    // 3. The judge.
    let next = this.t.spec.continueText;
    let fromJudge = false;
    if (this.t.spec.judge && this.d.judge) {
      const note = await this.askJudge(it, region);
      if (note) {
        it.judge = note;
        if (note.complete && note.confidence >= this.d.cfg.complete_confidence) {
          decided('judge_complete');
          this.end('FINISHED', { code: 'judge_complete', reason: `the judge says the goal is met (confidence ${note.confidence}): ${note.reason}` });
        }
        if (note.continuation.trim()) {
          next = note.continuation.trim();
          fromJudge = true;
        }
        if (fromJudge && note.risk > this.t.spec.limits.riskThreshold) {
          decided('risky_continuation');
          this.t.nextPrompt = next;
          this.t.phase = 'decided';
          this.pause({ code: 'risky_continuation', reason: `the judge's next prompt is risky (${note.risk} > ${this.t.spec.limits.riskThreshold}); resume to send it: ${next}` });
        }
      }
    }
    // 4. Guardrails after the turn.
    if (this.t.consecutiveFailures >= this.t.spec.limits.maxConsecutiveFailures) {
      decided('agent_failed');
      this.end('FAILED', { code: 'agent_failed', reason: `${this.t.consecutiveFailures} turns in a row failed or got no response` });
    }
    const budget = overBudget(this.t);
    if (budget) {
      decided('token_budget');
      this.end('EXHAUSTED', budget);
    }
    const mem = {
      edges: remember(this.t.loop.edges, progressKey(region)),
      continuations: fromJudge ? remember(this.t.loop.continuations, next) : [],
    };
    this.t.loop = mem;
    this.t.nextPrompt = next;
    this.t.phase = 'decided';
    const loop = loopIn(mem, this.t.spec.limits.loopTurns);
    if (loop) {
      decided('loop');
      this.pause({ code: 'loop', reason: `stuck: ${loop.detail}. Look at the pane, change the prompt or the criteria, then resume` });
    }
    if (this.t.iterations % this.t.spec.limits.reflectEvery === 0) {
      this.d.saveIteration(it); // the reflection reads this turn too
      await this.reflect();
    }
    decided(fromJudge ? 'continue_judge' : 'continue');
    this.save();
  }

  private async askJudge(it: IterationRecord, region: string): Promise<JudgeNote | null> {
    const c = this.t.spec.criteria;
    const recent = this.d.iterations(this.t.id).slice(-3).map((x) => x.prompt);
    try {
      const a = await this.d.judge!.ask({
        goal: this.t.spec.goal,
        criteria: {
          success: [...c.success, ...c.successWords, ...(this.t.proposed?.success ?? [])],
          failure: [...c.failure, ...c.failureWords, ...(this.t.proposed?.failure ?? [])],
          ...(c.until !== null && { until: c.until }),
          ...(c.check !== null && { check: c.check }),
        },
        screen: region,
        iteration: it.n,
        recentPrompts: recent,
      }, this.abort.signal);
      this.checkAbort();
      this.t.tokensUsed += a.tokens;
      it.tokens += a.tokens;
      this.event('judge', `${a.complete ? 'complete' : 'continue'} (confidence ${a.confidence}, risk ${a.risk}, by ${a.parsedBy}): ${a.reason}`);
      return { complete: a.complete, confidence: a.confidence, reason: a.reason, continuation: a.continuation, risk: a.risk, parsedBy: a.parsedBy, tokens: a.tokens };
    } catch (e) {
      if (this.abort.signal.aborted) throw new Halt();
      this.event('judge_error', (e as Error).message);
      return null;
    }
  }

  /** Every reflect_every iterations: is the task getting anywhere? */
  private async reflect(): Promise<void> {
    const its = this.d.iterations(this.t.id);
    const n = this.t.spec.limits.reflectEvery;
    const window = its.slice(-n);
    let progress: 'good' | 'slow' | 'stuck';
    let looping: boolean;
    let suggestions: string[] = [];
    let how: string;
    if (this.t.spec.judge && this.d.judge) {
      try {
        const r = await this.d.judge.reflect({ goal: this.t.spec.goal, iterations: window.map((i) => ({ prompt: i.prompt, screenExcerpt: i.excerpt, ...(i.judge && { verdict: i.judge.reason }) })) }, this.abort.signal);
        this.checkAbort();
        this.t.tokensUsed += r.tokens;
        if (r.goalAchieved) this.end('FINISHED', { code: 'reflection_complete', reason: 'the judge, reflecting on the last iterations, says the goal is met' });
        ({ progress, looping, suggestions } = r);
        how = 'judge';
      } catch (e) {
        if (this.abort.signal.aborted) throw new Halt();
        this.event('judge_error', (e as Error).message);
        ({ progress, looping } = assessProgress(window.map((i) => i.excerpt), its.slice(0, -n).map((i) => i.excerpt)));
        how = 'screen novelty';
      }
    } else {
      const a = assessProgress(window.map((i) => i.excerpt), its.slice(0, -n).map((i) => i.excerpt));
      ({ progress, looping } = a);
      how = `screen novelty ${a.novelty.toFixed(2)}, repeated ${a.repeated.toFixed(2)}`;
    }
    this.event('reflection', `${progress}${looping ? ', looping' : ''} (${how})${suggestions.length ? `; suggestions: ${suggestions.join('; ')}` : ''}`);
    if (progress === 'stuck' && looping) {
      const tips = suggestions.length ? suggestions : ['rephrase the prompt with a concrete next step', 'add --until or --check so the task knows when it is done'];
      this.pause({ code: 'loop', reason: `stuck and looping over the last ${window.length} iterations; suggestions: ${tips.join('; ')}` });
    }
    this.t.slowReflections = progress === 'good' ? 0 : this.t.slowReflections + 1;
    if (this.t.slowReflections >= this.d.cfg.slow_reflections) {
      this.t.slowReflections = 0;
      this.pause({ code: 'slow_progress', reason: `${this.d.cfg.slow_reflections} reflections in a row found slow progress` });
    }
  }

  // ---- helpers ---------------------------------------------------------------------------------------------

  /** The pane, alive; waits for it to come back (pane_wait_s) and pauses the task if it does not. */
  private async livePane(onReturn?: () => void): Promise<PaneView> {
    let goneAt: number | null = null;
    for (;;) {
      this.checkAbort();
      const v = this.d.panes.view(this.t.spec.pane);
      if (v?.alive) {
        if (goneAt !== null) {
          this.event('pane_back', '');
          onReturn?.();
        }
        return v;
      }
      const now = this.d.now();
      if (goneAt === null) {
        goneAt = now;
        this.event('pane_gone', v ? 'its source went away' : 'the daemon does not know this pane (yet)');
      }
      if (now - goneAt >= this.d.cfg.pane_wait_s * 1000) {
        this.pause({ code: 'pane_gone', reason: `the pane ${this.t.spec.pane} has not been attached for ${this.d.cfg.pane_wait_s} s` });
      }
      await this.sleep(POLL_MS);
    }
  }

  private mayApprove(v: PaneView): boolean {
    if (!this.approve.length) return false;
    const text = [v.line, ...v.edge].join('\n');
    return this.approve.some((re) => re.test(text));
  }

  private stalled(quietMs: number): never {
    const reason = `no screen progress for ${Math.round(quietMs / 1000)} s while the agent was working (heartbeat ${this.t.spec.limits.heartbeatS} s)`;
    if (this.t.spec.limits.onStall === 'fail') this.end('FAILED', { code: 'stalled', reason });
    this.pause({ code: 'stalled', reason });
  }

  private addAgentTime(ms: number): void {
    this.t.agentMs += ms;
  }

  private current(): IterationRecord {
    const it = this.d.iterations(this.t.id).find((i) => i.n === this.t.iterations);
    if (!it) throw new Error(`iteration ${this.t.iterations} of task ${this.t.id} is missing`);
    return it;
  }

  private compile(): CompiledCriteria {
    const c = this.t.spec.criteria;
    const p = this.t.proposed;
    return compileCriteria(p ? { ...c, success: [...c.success, ...p.success], failure: [...c.failure, ...p.failure] } : c, []);
  }

  private end(status: Extract<TaskStatus, 'FINISHED' | 'FAILED' | 'EXHAUSTED'>, v: Verdict): never {
    this.set({ status, reason: v.reason, reasonCode: v.code, endedAt: this.d.now() });
    this.event(status.toLowerCase(), v.reason);
    this.d.notify(this.t, status === 'FINISHED' ? 'finished' : 'needs_you');
    throw new Halt();
  }

  private pause(v: { code: ReasonCode; reason: string }): never {
    this.set({ status: 'PAUSED', reason: v.reason, reasonCode: v.code });
    this.event('paused', v.reason);
    this.d.notify(this.t, 'needs_you');
    throw new Halt();
  }

  private checkAbort(): void {
    if (this.abort.signal.aborted) throw new Halt();
  }

  private sleep(ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      if (this.abort.signal.aborted) return resolve();
      const timer = setTimeout(done, ms);
      const signal = this.abort.signal;
      function done() {
        clearTimeout(timer);
        signal.removeEventListener('abort', done);
        resolve();
      }
      signal.addEventListener('abort', done, { once: true });
    }).then(() => this.checkAbort());
  }

  private set(patch: Partial<TaskRecord>): void {
    Object.assign(this.t, patch);
    this.save();
  }

  private save(): void {
    if (this.abort.signal.aborted) return; // stopped: the manager wrote the final record
    this.t.updatedAt = this.d.now();
    this.d.save(this.t);
  }

  private event(kind: string, detail: string): void {
    if (this.abort.signal.aborted) return;
    this.d.event({ taskId: this.t.id, at: this.d.now(), kind, detail: this.d.redact(detail).slice(0, 500) });
  }
}
