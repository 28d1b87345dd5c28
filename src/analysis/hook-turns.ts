// What a hook means given the hooks before it in the same stretch of work and what the pane shows now (the table in
// hook-table.ts says what each event means on its own). Pure.
//   - A turn end while a prompt the person queued is still to come is not a finish: Claude Code (and others) take
//     a message typed during a turn (UserPromptSubmit fires as it is typed) and send it by themselves the moment the
//     turn ends. Prompts and ends are counted from the last rest; the held end hands the decision to the screen,
//     which shows the queued turn at work, or the turn over when the message was taken into the turn itself.
//   - A reminder of a question (Claude's permission_prompt notification) is stale once the person has answered it:
//     it can run just as they answer (it is sent ~6 s after the dialog opened), or reach the daemon after the screen
//     showed the answer. Stale = no menu on screen and the pane has left this turn's wait (or is at rest).
import type { MachineState } from './types.js';
import type { HookEffect } from './hook-table.js';

export type HookReview =
  | { kind: 'apply' }
  /** Not acted on; `toScreen`: the screen decides from now on (the Tier 1 silence ends). */
  | { kind: 'suppress'; reason: string; toScreen: boolean };

export interface HookFacts {
  state: MachineState;
  /** The screen shows an explicit menu or question (asked only when it matters). */
  menuOnScreen(): boolean;
  /** The pane waited in this turn and the wait has ended (answered). */
  waitAnswered: boolean;
}

const APPLY: HookReview = { kind: 'apply' };

export class HookTurns {
  /** Prompts submitted since the pane was last at rest, less turn ends: more than one = one is queued. */
  private open = 0;

  /** The pane is at rest: whatever was counted belongs to a stretch of work that is over. */
  rest(): void {
    this.open = 0;
  }

  review(effect: HookEffect, f: HookFacts): HookReview {
    switch (effect) {
      case 'turn_start':
        this.open++;
        return APPLY;
      case 'turn_failed':
        this.open = 0;
        return APPLY;
      case 'turn_end':
        if (this.open > 1) {
          this.open--;
          return { kind: 'suppress', reason: 'queued_prompt_follows', toScreen: true };
        }
        this.open = 0;
        return APPLY;
      case 'wait_reminder': {
        if (f.state === 'WAITING_APPROVAL' || f.menuOnScreen()) return APPLY;
        const rest = f.state === 'IDLE' || f.state === 'DONE' || f.state === 'FAILED';
        return rest || f.waitAnswered ? { kind: 'suppress', reason: 'question_answered', toScreen: false } : APPLY;
      }
      default:
        return APPLY;
    }
  }
}
