// What follows a task's turn: the screen's criteria, the check command, the judge, the guardrails and loop
// detection, and every reflect_every turns a reflection; each one may end or pause the task. Extended by TaskRunner
// (task-runner.ts), whose loop calls afterTurn once a turn has really ended.
import { matchCriteria } from './criteria.js';
import { regionText } from './region.js';
import { estimateTokens, overBudget } from './guardrails.js';
import { loopIn, progressKey, remember } from './loop-detect.js';
import { assessProgress } from './reflection.js';
import { Halt, RunnerCore } from './runner-core.js';
import type { IterationRecord, JudgeNote } from './task-types.js';

/** Region text kept per iteration: the end of a turn, not a transcript. */
export const MAX_EXCERPT_CHARS = 4000;

export interface TurnOutcome {
  result: 'done' | 'failed' | 'interrupted' | 'no_response' | 'resumed';
  startedAt: number | null;
  endedAt: number;
  approvalMs: number;
}

export abstract class TurnDecision extends RunnerCore {
  protected async afterTurn(turn: TurnOutcome): Promise<void> {
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

  protected async askJudge(it: IterationRecord, region: string): Promise<JudgeNote | null> {
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
  protected async reflect(): Promise<void> {
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
}
