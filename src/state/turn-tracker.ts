// Turns from transitions: a turn opens when a pane goes to work from rest (its start time reset), and closes as
// done (DONE), failed (FAILED) or interrupted (back to IDLE while busy). The prompt is the last line the person
// submitted before the turn began, reconstructed from typed keys. Pure: pane-clock seconds in, records out.
import type { MachineState } from '../analysis/types.js';
import type { Transition } from './pane-machine.js';
import { TypedLine } from '../analysis/typed-line.js';

export interface Turn {
  start: number;
  end: number | null;
  result: 'done' | 'failed' | 'interrupted' | null;
  prompt: string | null;
}

const BUSY: ReadonlySet<MachineState> = new Set(['RUNNING', 'LONG_RUNNING', 'WAITING_APPROVAL']);
/** A prompt line longer than this is kept as its start: the record is an excerpt, not a transcript. */
const MAX_PROMPT_CHARS = 200;

export class TurnTracker {
  private readonly typed = new TypedLine();
  private submitted: string | null = null;
  private open: Turn | null = null;

  /** Keys typed into the pane. */
  input(data: string): void {
    for (const line of this.typed.input(data)) if (line) this.submitted = line;
  }

  /** The turns this transition opened or closed (to save), oldest first. */
  transition(tr: Transition): Turn[] {
    const out: Turn[] = [];
    const busy = BUSY.has(tr.to);
    // Work that starts afresh while a turn is open (a new prompt sent mid-turn) ends that turn as interrupted.
    if (this.open && (!busy || !tr.startedAtKept)) {
      const result = tr.to === 'DONE' ? 'done' : tr.to === 'FAILED' ? 'failed' : 'interrupted';
      out.push({ ...this.open, end: tr.t, result: busy ? 'interrupted' : result });
      this.open = null;
    }
    if (busy && !this.open) {
      this.open = { start: tr.startedAt, end: null, result: null, prompt: this.takePrompt() };
      out.push({ ...this.open });
    }
    return out;
  }

  /** The pane went away: an open turn ends there, unfinished. */
  end(t: number): Turn | null {
    if (!this.open) return null;
    const done: Turn = { ...this.open, end: t, result: 'interrupted' };
    this.open = null;
    return done;
  }

  get current(): Turn | null {
    return this.open ? { ...this.open } : null;
  }

  private takePrompt(): string | null {
    const p = this.submitted;
    this.submitted = null;
    if (p === null || p.length <= MAX_PROMPT_CHARS) return p;
    const end = MAX_PROMPT_CHARS - 1;
    return p.slice(0, /[\ud800-\udbff]/.test(p[end - 1]!) ? end - 1 : end) + '…'; // never half a character
  }
}
