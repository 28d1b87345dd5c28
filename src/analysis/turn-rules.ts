// The turn's rules: in each phase of the turn (turn-phase.ts), the named guards that read the evidence and what each
// decides. A decision is reached by walking the table of the phase the turn is in, in order: the first rule whose
// guard holds acts (it may speak a signal, which still passes the gates of turn-gates.ts) and says whether the walk
// ends there or goes on to the table of the phase the turn is now in. A new shape of a program is a new named rule
// here, with its test; docs/architecture.md ("How a decision is reached") lists them. Pure.
import { clip } from './text.js';
import { genericWhileRunning } from './generic-heuristic.js';
import { ANCHOR_RULE } from './turn-anchor.js';
import type { TurnPhase } from './turn-phase.js';
import type { TurnView } from './turn-view.js';

/** After a rule acts: the evaluation is over ('stop'), or goes on to the next table the turn's phase reaches. */
export type Next = 'stop' | 'on';

export interface TurnRule {
  /** Named in the signal it speaks (Signal.step) and in a suppression's record. */
  readonly name: string;
  /** The phases it decides in (documentation, and checked by tests against its guard). */
  readonly phases: readonly TurnPhase[];
  readonly when: (v: TurnView) => boolean;
  readonly then: (v: TurnView) => Next;
}

/** A rest rule's end: still at rest, the long-idle re-emit and stop; else the turn began, and the rules under way
 * read the same screen at once. */
function restOrOn(v: TurnView): Next {
  if (v.phase() !== 'rest') return 'on';
  v.reemitIdle();
  return 'stop';
}

/** At rest: the turn is over, or armed by a prompt the person submitted and not yet seen working. */
export const REST_RULES: readonly TurnRule[] = [
  {
    name: 'rest.question',
    phases: ['over', 'armed'],
    when: (v) => v.cls.verdict === 'waiting' && v.waitConfirmed(),
    then: (v) => (v.speak('wait', v.cls.rule, v.cls.line), 'stop'),
  },
  {
    // The pager or editor that held the foreground has gone and the prompt is back: that command ended.
    name: 'rest.parked_program_left',
    phases: ['over', 'armed'],
    when: (v) => v.parked() && (v.cls.verdict === 'ready' || v.cls.verdict === 'failed') && !v.cls.continuation,
    then: (v) => {
      const window = v.cls.atPrompt ? v.th.prompt_stability_s : v.th.stability_s;
      if (v.cls.explicit || v.stable(window)) v.speak(v.cls.verdict === 'failed' ? 'failed' : 'done', v.cls.rule, v.cls.line);
      return 'stop';
    },
  },
  {
    // A parked pager or editor redrawn once (a person paging where keys are not seen) is still at rest.
    name: 'rest.parked_redraw',
    phases: ['over', 'armed'],
    when: (v) => v.parked() && v.cls.verdict === 'working' && !v.cls.rule.endsWith('.fullscreen_animating'),
    then: () => 'stop',
  },
  {
    name: 'rest.work_after_prompt',
    phases: ['armed'],
    when: (v) => v.cls.verdict === 'working' && v.anchor() !== null,
    then: (v) => (v.speak('run', v.cls.rule, v.cls.line), restOrOn(v)),
  },
  {
    // Work right after a DONE with no key typed is a queued message's turn, which the agent started by itself.
    name: 'rest.follow_up_work',
    phases: ['over'],
    when: (v) => v.cls.verdict === 'working' && v.followUpDue(),
    then: (v) => (v.speak('run', v.cls.rule, v.cls.line), restOrOn(v)),
  },
  {
    // No prompt seen (a tmux pane's keys are not): work held unanchored_screen_confirm_s. An agent's TUI animates at
    // start-up and on its own redraws: there, and while any program starts up, only an interrupt hint says a turn runs.
    name: 'rest.work_unprompted',
    phases: ['over'],
    when: (v) =>
      v.cls.verdict === 'working' &&
      ((!v.genericTui() && !v.startingUp()) || v.interruptHint()) &&
      v.workingFor() >= v.th.unanchored_screen_confirm_s,
    then: (v) => (v.speak('run', v.cls.rule, v.cls.line), restOrOn(v)),
  },
  {
    // The screen moved after the prompt (ANCHOR_RULE): the turn's work, whatever it reads as.
    name: 'rest.anchor_evidence',
    phases: ['armed'],
    when: (v) => v.cls.verdict !== 'working' && (v.anchor()?.evidence ?? null) !== null && v.cls.verdict !== 'waiting' && v.cls.verdict !== 'resting',
    then: (v) => (v.speak('run', ANCHOR_RULE, clip(v.cls.line || v.cursorRow()), 3), restOrOn(v)),
  },
  {
    // Output no prompt was seen for (heuristic_run): lines enough, and a burst big enough. Never a program's start-up,
    // never a TUI without a profile drawing its frames.
    name: 'rest.newline_gate',
    phases: ['over', 'armed'],
    when: (v) =>
      v.cls.verdict === 'unknown' &&
      (v.anchor()?.evidence ?? null) === null &&
      !v.startingUp() &&
      (v.tier === 3 || !v.bracketedPasteSeen()) &&
      !(v.unprofiled() && v.tuiDrawing()),
    then: (v) => {
      const latest = v.recentOutput();
      if (latest) v.speak('run', 'generic.newline_gate', latest, 3);
      return restOrOn(v);
    },
  },
  { name: 'rest.holds', phases: ['over', 'armed'], when: () => true, then: restOrOn },
];

/** Asking: the program put a question to the person. Until they answer, only the question's going away counts. */
export const ASK_RULES: readonly TurnRule[] = [
  {
    // Keys typed at the question (echoed, not submitted) answer nothing: only Enter, Esc, Ctrl-C or real output does.
    name: 'ask.unanswered',
    phases: ['asking'],
    when: (v) => !v.answered() && v.cls.verdict !== 'waiting',
    then: () => 'stop',
  },
  { name: 'ask.still_asked', phases: ['asking'], when: (v) => v.cls.verdict === 'waiting', then: () => 'stop' },
  {
    // An agent's TUI whose frames stayed still after the answer: the turn ended there (a refusal).
    name: 'ask.refused_on_tui',
    phases: ['asking'],
    when: (v) => v.cls.verdict === 'resting' && v.tier === 3 && v.genericTui(),
    then: () => 'on',
  },
  { name: 'ask.keys_awaited', phases: ['asking'], when: (v) => v.cls.verdict === 'resting', then: () => 'stop' },
  {
    name: 'ask.answer_works',
    phases: ['asking'],
    when: (v) => v.cls.verdict === 'working',
    then: (v) => (v.speak('run', v.cls.rule, v.cls.line), 'stop'),
  },
  {
    name: 'ask.answer_redrawn',
    phases: ['asking'],
    when: (v) => v.cls.verdict === 'unknown',
    then: (v) => {
      if (v.changedSinceAsked() && v.redrawnSinceAsked()) v.speak('run', 'wait.content_update', clip(v.cursorRow()), 3);
      return 'stop';
    },
  },
  // A ready or failed screen: the question was answered and the turn ended; the rules under way say how.
  { name: 'ask.turn_ended', phases: ['asking'], when: () => true, then: () => 'on' },
];

/** Under way: the turn works (or settles: a ready or failed screen holding still), or an answered question ended it. */
export const WORK_RULES: readonly TurnRule[] = [
  {
    // The person's own interrupt ended this turn on an agent's TUI: what they did themselves is no failure.
    name: 'turn.own_interrupt',
    phases: ['working', 'settling', 'asking'],
    when: (v) => v.cls.verdict === 'failed' && v.tier === 3 && v.interruptSeen() && v.genericTui(),
    then: (v) => {
      if (v.cls.explicit || v.stable(v.cls.atPrompt ? v.th.prompt_stability_s : v.th.stability_s)) v.speak('done', v.cls.rule, v.cls.line);
      return 'stop';
    },
  },
  {
    name: 'turn.failure_held',
    phases: ['working', 'settling', 'asking'],
    when: (v) => v.cls.verdict === 'failed',
    then: (v) => {
      if (v.cls.explicit || v.stable(v.cls.atPrompt ? v.th.prompt_stability_s : v.th.stability_s)) v.speak('failed', v.cls.rule, v.cls.line);
      return 'stop';
    },
  },
  {
    name: 'turn.question',
    phases: ['working', 'settling'],
    when: (v) => v.cls.verdict === 'waiting',
    then: (v) => {
      if (v.waitConfirmed()) v.speak('wait', v.cls.rule, v.cls.line);
      return 'stop';
    },
  },
  {
    // A REPL continuation prompt: the statement has not run yet; the pane is at rest, not done.
    name: 'turn.continuation',
    phases: ['working', 'settling', 'asking'],
    when: (v) => v.cls.verdict === 'ready' && v.cls.continuation === true,
    then: (v) => {
      if (v.stable(v.th.prompt_stability_s)) v.speak('idle', v.cls.rule, v.cls.line);
      return 'stop';
    },
  },
  {
    // A ready marker already on screen when the prompt was submitted says nothing about this turn: it must hold
    // through the full stability window like any unconfirmed ready screen.
    name: 'turn.ready_held',
    phases: ['working', 'settling', 'asking'],
    when: (v) => v.cls.verdict === 'ready',
    then: (v) => {
      const a = v.anchor();
      const stale = a !== null && !a.moved;
      const window = !stale && v.cls.atPrompt ? v.th.prompt_stability_s : v.th.stability_s;
      if ((v.cls.explicit && !stale) || v.stable(window)) v.speak('done', v.cls.rule, v.cls.line);
      return 'stop';
    },
  },
  {
    // On an agent's TUI an interrupt hint (or a spinning title) is as good as frames: the turn ran, and ends when
    // they stop.
    name: 'turn.works',
    phases: ['working', 'settling'],
    when: (v) => v.cls.verdict === 'working',
    then: (v) => {
      v.workSeen();
      const r = v.cls.rule;
      if (r.endsWith('.fullscreen_animating') || r === 'generic.interrupt_hint' || r === 'generic.title_spinner') v.markAnimated();
      v.checkStall();
      return 'stop';
    },
  },
  {
    // Its own frames stopped: a turn that animated (or showed its interrupt hint on an agent's TUI) is over.
    name: 'turn.frames_stopped',
    phases: ['working', 'settling', 'asking'],
    when: (v) => v.cls.verdict === 'resting' && v.animated(),
    then: (v) => (v.speak('done', 'fullscreen.animation_stopped', v.cls.line), 'stop'),
  },
  {
    // On an agent's TUI a turn that showed only a frame or two of work is over once quiet long enough.
    name: 'turn.tui_quiet',
    phases: ['working', 'settling', 'asking'],
    when: (v) => v.cls.verdict === 'resting' && v.tier === 3 && v.genericTui(),
    then: (v) => {
      if (v.quietFor() >= v.th.quiet_done_s) v.speak('done', v.cls.rule, v.cls.line);
      return 'stop';
    },
  },
  {
    // A pager or editor waits on the person's keys: at rest, parked until the prompt comes back.
    name: 'turn.keys_awaited',
    phases: ['working', 'settling'],
    when: (v) => v.cls.verdict === 'resting',
    then: (v) => {
      v.speak('idle', 'fullscreen.waiting_on_keys', v.cls.line);
      if (v.phase() === 'rest') v.park();
      return 'stop';
    },
  },
  {
    // No profile knows this screen: completion words at the live edge, an interrupt hint gone, quiet at a prompt.
    name: 'turn.generic',
    phases: ['working', 'settling'],
    when: (v) => v.cls.verdict === 'unknown',
    then: (v) => {
      const g = genericWhileRunning({
        cfg: v.cfg(),
        quiet: v.quietFor(),
        row: v.cursorRow(),
        liveEdge: v.cls.liveEdge,
        screen: v.screen(),
        interruptSeen: v.interruptSeen(),
      });
      // On an agent's TUI a turn under way that has gone quiet is over (a refused command, a step that ended with no
      // frames): DONE, not merely at rest.
      if (g && g.type === 'idle' && v.tier === 3 && v.genericTui()) v.speak('done', 'generic.turn_quiet', g.line, 3);
      else if (g) v.speak(g.type, g.rule, g.line, 3);
      v.checkStall();
      return 'stop';
    },
  },
];

/** Walk one table: the first rule whose guard holds acts. `onRule` hears which one did (the signal's step). */
export function walk(rules: readonly TurnRule[], v: TurnView, onRule: (name: string) => void): Next {
  for (const rule of rules) {
    if (!rule.when(v)) continue;
    onRule(rule.name);
    return rule.then(v);
  }
  return 'stop';
}
