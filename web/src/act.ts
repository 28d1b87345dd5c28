// Typing into a pane from the page. Every action carries the revision of the screen the person acted on (the one
// the page showed when they clicked); the daemon refuses a stale one with 409 and the fresh pane, which replaces
// the page's copy at once so the person sees what changed. 401/403 is the read-only notice.
import type { ActionResult, PaneView } from '../../src/web/api-types.js';
import { api, isAuthError, isStale, READ_ONLY, STALE } from './api.js';
import type { Choice } from './question.js';

/** Whether snapshot `a` is older than `b` of the same pane: an action's answer can arrive after the feed already
 * pushed what the keys did, and must not put the old screen back. State times and, within a state, revisions only
 * grow while the pane is open; a pane that closed (or came back) is news whatever its numbers. */
export function olderThan(a: Pick<PaneView, 'rev' | 'since' | 'alive'>, b: Pick<PaneView, 'rev' | 'since' | 'alive'>): boolean {
  return a.alive === b.alive && (a.since < b.since || (a.since === b.since && (a.rev ?? 0) < (b.rev ?? 0)));
}

/** Where an action's outcome is said (a card's or the detail view's status line). */
export type Say = (text: string, warn: boolean) => void;

export class PaneActs {
  /** `fresh`: a pane snapshot the daemon sent back (after the action, or with a 409): the board takes it. */
  constructor(private readonly fresh: (p: PaneView) => void) {}

  /** Runs one action; true when the daemon took it. */
  async run(call: () => Promise<ActionResult>, say: Say, done: (r: ActionResult) => string): Promise<boolean> {
    try {
      const r = await call();
      this.fresh(r.pane);
      say(done(r), false);
      return true;
    } catch (e) {
      if (isStale(e)) {
        if (e.pane) this.fresh(e.pane);
        say(STALE, true);
      } else say(isAuthError(e) ? READ_ONLY : `failed: ${(e as Error).message}`, true);
      return false;
    }
  }

  /** An option of the question shown at `rev`, or Esc (null: deny / cancel, an interrupt). */
  answer(p: PaneView, choice: Choice, say: Say): Promise<boolean> {
    const rev = p.rev ?? 0;
    if (choice === null) return this.interrupt(p, say);
    return this.run(() => api.answer(p.id, choice, rev), say, (r) => `sent ${r.action.keys || choice}`);
  }

  interrupt(p: PaneView, say: Say): Promise<boolean> {
    return this.run(() => api.interrupt(p.id, p.rev ?? 0), say, (r) => `sent ${r.action.keys}`);
  }

  reply(p: PaneView, text: string, say: Say): Promise<boolean> {
    return this.run(() => api.reply(p.id, text, p.rev ?? 0), say, () => 'reply sent');
  }
}
