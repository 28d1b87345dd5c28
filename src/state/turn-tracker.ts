// Turns from transitions: a turn opens when a pane goes to work from rest (its start time reset), and closes as
// done (DONE), failed (FAILED) or interrupted (back to IDLE while busy). The prompt is the last line the person
// submitted before the turn began, reconstructed from typed keys. Pure: pane-clock seconds in, records out.
import type { MachineState } from '../analysis/types.js';
import type { Transition } from './pane-machine.js';

export interface Turn {
  start: number;
  end: number | null;
  result: 'done' | 'failed' | 'interrupted' | null;
  prompt: string | null;
}

const BUSY: ReadonlySet<MachineState> = new Set(['RUNNING', 'LONG_RUNNING', 'WAITING_APPROVAL']);
/** A prompt line longer than this is kept as its start: the record is an excerpt, not a transcript. */
const MAX_PROMPT_CHARS = 200;
/** Keys typed without Enter stop growing the line here (a paste of a whole file is not a prompt line). */
const MAX_LINE_BUFFER = 4096;
/** Escape sequences the keyboard sends (arrows, function keys, bracketed-paste markers): not text. */
const KEY_SEQUENCE = /\x1b(?:\[[0-9;?]*[ -/]*[@-~]|O.|.)/g;
/** A control sequence cut off at the end of a read: kept for the next one, so its tail is not taken for text. */
const CUT_SEQUENCE = /\x1b\[[0-9;?]*[ -/]*$/;
const PASTE_START = '\x1b[200~';
const PASTE_END = '\x1b[201~';

export class TurnTracker {
  private line = '';
  private submitted: string | null = null;
  private open: Turn | null = null;
  private carry = '';
  /** Inside a bracketed paste: its line breaks are text, not Enter. */
  private pasting = false;
  /** A line break was pasted: what follows, up to Enter, is not on the prompt's first line. */
  private pastedBreak = false;

  /** Keys typed into the pane. */
  input(data: string): void {
    data = this.carry + data;
    this.carry = '';
    const cut = CUT_SEQUENCE.exec(data);
    if (cut && cut[0].length <= 32) {
      this.carry = cut[0];
      data = data.slice(0, cut.index);
    }
    let at = 0;
    for (const m of data.matchAll(KEY_SEQUENCE)) {
      this.keys(data.slice(at, m.index));
      at = m.index + m[0].length;
      if (m[0] === PASTE_START) this.pasting = true;
      else if (m[0] === PASTE_END) this.pasting = false;
    }
    this.keys(data.slice(at));
  }

  private keys(text: string): void {
    for (const ch of text) {
      const enter = ch === '\r' || ch === '\n';
      if (enter && this.pasting) this.pastedBreak = true;
      else if (enter) {
        if (this.line.trim()) this.submitted = this.line.trim();
        this.line = '';
        this.pastedBreak = false;
      } else if (ch === '\x15' || ch === '\x03') {
        this.line = ''; // Ctrl-U, Ctrl-C: the line is gone
        this.pastedBreak = false;
      } else if (this.pastedBreak) continue; // a later line of a multi-line prompt
      else if (ch === '\x7f' || ch === '\b') this.line = this.line.slice(0, /[\udc00-\udfff]$/.test(this.line) ? -2 : -1);
      else if (ch >= ' ' && this.line.length < MAX_LINE_BUFFER) this.line += ch;
    }
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
