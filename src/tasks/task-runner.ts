// One supervised task's loop: wait until the pane is ready, type the prompt, wait for that turn to really end,
// decide (screen criteria, check command, judge), then continue or stop, under guardrails. Every step is saved
// before the next one acts, so a restarted daemon resumes from the last checkpoint. IO comes in through
// RunnerDeps (runner-deps.ts: the daemon wires the registry, the store, the judge); what follows a turn is
// turn-decision.ts, the shared steps runner-core.ts; decisions are the pure modules beside them.
import { hasScreenCriteria } from './criteria.js';
import { estimateTokens, keepLastHour, limitBeforeSend, waitBeforeSend } from './guardrails.js';
import { progressKey } from './loop-detect.js';
import { Halt, POLL_MS } from './runner-core.js';
import type { RunnerDeps } from './runner-deps.js';
import { TurnDecision, type TurnOutcome } from './turn-decision.js';
import type { IterationRecord, TaskRecord } from './task-types.js';

export { POLL_MS } from './runner-core.js';
export { MAX_EXCERPT_CHARS } from './turn-decision.js';
export type { JudgeAnswer, PaneAccess, RunnerDeps, TaskJudge } from './runner-deps.js';

/** Clock skew between a pane's transition times and the task's send time (both wall clock, one process). */
const SEND_SLACK_MS = 50;

const BUSY = new Set(['RUNNING', 'LONG_RUNNING', 'WAITING_APPROVAL']);
const AT_REST = new Set(['IDLE', 'DONE', 'FAILED']);

export class TaskRunner extends TurnDecision {
  /** Picked up with a prompt already sent (a restarted daemon, a resumed pause): that turn's start went unseen. */
  private resumedMidTurn: boolean;
  /** Settles when the loop has unwound. */
  readonly done: Promise<void>;

  constructor(t: TaskRecord, d: RunnerDeps) {
    super(t, d);
    this.resumedMidTurn = t.phase === 'sent';
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
}
