// The line a person is typing into a pane, rebuilt from the keys they press (escape sequences, bracketed pastes,
// Backspace, Ctrl-U and Ctrl-C understood), and the lines they submit with Enter. Pure.
import type { Config, ProgramId } from '../config/config.js';

/** Keys typed without Enter stop growing the line here (a paste of a whole file is not a prompt line). */
const MAX_LINE_BUFFER = 4096;
/** Escape sequences the keyboard sends (arrows, function keys, bracketed-paste markers): not text. */
// eslint-disable-next-line no-control-regex
const KEY_SEQUENCE = /\x1b(?:\[[0-9;?]*[ -/]*[@-~]|O.|.)/g;
/** A control sequence cut off at the end of a read: kept for the next one, so its tail is not taken for text. */
// eslint-disable-next-line no-control-regex
const CUT_SEQUENCE = /\x1b\[[0-9;?]*[ -/]*$/;
const PASTE_START = '\x1b[200~';
const PASTE_END = '\x1b[201~';

export class TypedLine {
  private line = '';
  private carry = '';
  /** Inside a bracketed paste: its line breaks are text, not Enter. */
  private pasting = false;
  /** A line break was pasted: what follows, up to Enter, is not on the prompt's first line. */
  private pastedBreak = false;

  /** Keys typed into the pane; returns the lines they submitted (Enter), trimmed, in order (often none). */
  input(data: string): string[] {
    const submitted: string[] = [];
    data = this.carry + data;
    this.carry = '';
    const cut = CUT_SEQUENCE.exec(data);
    if (cut && cut[0].length <= 32) {
      this.carry = cut[0];
      data = data.slice(0, cut.index);
    }
    let at = 0;
    for (const m of data.matchAll(KEY_SEQUENCE)) {
      this.keys(data.slice(at, m.index), submitted);
      at = m.index + m[0].length;
      if (m[0] === PASTE_START) this.pasting = true;
      else if (m[0] === PASTE_END) this.pasting = false;
    }
    this.keys(data.slice(at), submitted);
    return submitted;
  }

  /** The line as typed so far (not submitted). */
  get current(): string {
    return this.line;
  }

  private keys(text: string, submitted: string[]): void {
    for (const ch of text) {
      const enter = ch === '\r' || ch === '\n';
      if (enter && this.pasting) this.pastedBreak = true;
      else if (enter) {
        submitted.push(this.line.trim());
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
}

/** A submitted line the agent's CLI handles itself (/quit, /status), where its profile knows the form: no turn. */
export function localCommand(cfg: Config, program: ProgramId, line: string): boolean {
  const re = program === 'codex' || program === 'gemini' || program === 'qwen' ? cfg.patterns[program].local_command : null;
  return re !== null && re.test(line);
}
