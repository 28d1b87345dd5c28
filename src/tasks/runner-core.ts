// The parts of a task runner every step uses: its record and deps, checkpoints and events, the live pane, and the
// ways the loop stops (end, pause, halt), each unwinding it with Halt. The loop is TaskRunner's (task-runner.ts);
// what follows a turn is TurnDecision's (turn-decision.ts).
import type { PaneView } from '../web/api-types.js';
import { compileCriteria, type CompiledCriteria } from './criteria.js';
import type { Verdict } from './guardrails.js';
import type { RunnerDeps } from './runner-deps.js';
import type { IterationRecord, ReasonCode, TaskRecord, TaskStatus } from './task-types.js';

/** How often a task looks at its pane: fast enough that a 1 s turn is seen, cheap for a handful of tasks. */
export const POLL_MS = 200;

/** Unwinds the loop once the task has ended, paused or been stopped. */
export class Halt extends Error {}

export abstract class RunnerCore {
  protected readonly abort = new AbortController();
  protected criteria: CompiledCriteria;
  /** The approvals this task may answer itself, compiled once (they are checked on every poll of a question). */
  protected readonly approve: RegExp[];

  constructor(
    protected readonly t: TaskRecord,
    protected readonly d: RunnerDeps,
  ) {
    this.criteria = this.compile();
    this.approve = t.spec.approve.map((p) => new RegExp(p, 'u'));
  }

  /** The pane, alive; waits for it to come back (pane_wait_s) and pauses the task if it does not. */
  protected async livePane(onReturn?: () => void): Promise<PaneView> {
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

  protected mayApprove(v: PaneView): boolean {
    if (!this.approve.length) return false;
    const text = [v.line, ...v.edge].join('\n');
    return this.approve.some((re) => re.test(text));
  }

  protected stalled(quietMs: number): never {
    const reason = `no screen progress for ${Math.round(quietMs / 1000)} s while the agent was working (heartbeat ${this.t.spec.limits.heartbeatS} s)`;
    if (this.t.spec.limits.onStall === 'fail') this.end('FAILED', { code: 'stalled', reason });
    this.pause({ code: 'stalled', reason });
  }

  protected addAgentTime(ms: number): void {
    this.t.agentMs += ms;
  }

  protected current(): IterationRecord {
    const it = this.d.iterations(this.t.id).find((i) => i.n === this.t.iterations);
    if (!it) throw new Error(`iteration ${this.t.iterations} of task ${this.t.id} is missing`);
    return it;
  }

  protected compile(): CompiledCriteria {
    const c = this.t.spec.criteria;
    const p = this.t.proposed;
    return compileCriteria(p ? { ...c, success: [...c.success, ...p.success], failure: [...c.failure, ...p.failure] } : c, []);
  }

  protected end(status: Extract<TaskStatus, 'FINISHED' | 'FAILED' | 'EXHAUSTED'>, v: Verdict): never {
    this.set({ status, reason: v.reason, reasonCode: v.code, endedAt: this.d.now() });
    this.event(status.toLowerCase(), v.reason);
    this.d.notify(this.t, status === 'FINISHED' ? 'finished' : 'needs_you');
    throw new Halt();
  }

  protected pause(v: { code: ReasonCode; reason: string }): never {
    this.set({ status: 'PAUSED', reason: v.reason, reasonCode: v.code });
    this.event('paused', v.reason);
    this.d.notify(this.t, 'needs_you');
    throw new Halt();
  }

  protected checkAbort(): void {
    if (this.abort.signal.aborted) throw new Halt();
  }

  protected sleep(ms: number): Promise<void> {
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

  protected set(patch: Partial<TaskRecord>): void {
    Object.assign(this.t, patch);
    this.save();
  }

  protected save(): void {
    if (this.abort.signal.aborted) return; // stopped: the manager wrote the final record
    this.t.updatedAt = this.d.now();
    this.d.save(this.t);
  }

  protected event(kind: string, detail: string): void {
    if (this.abort.signal.aborted) return;
    this.d.event({ taskId: this.t.id, at: this.d.now(), kind, detail: this.d.redact(detail).slice(0, 500) });
  }
}
