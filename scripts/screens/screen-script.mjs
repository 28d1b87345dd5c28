// A frame script: a synthetic session of an agent we cannot record here, written as the agent's real screens at
// their real cadence (scripts/screens/agents/*.mjs say what each draws and where that is known from). It produces
// an asciicast v2 (output and "i" input events) and a truth.json in the shared corpus FORMAT whose events come from
// the script's own timeline (the Enter it sends, the moment its "backend" finishes), never from reading the screen.
import { segments, round } from '../record/truth.mjs';

const ESC = '\x1b';
const CSI = `${ESC}[`;

export class Script {
  /**
   * @param {{cols: number, rows: number, alt?: boolean, source: string, scenario: string, seed?: number}} o
   *   alt: a full-screen program on the alternate screen (repainted by rows); else an inline program (a transcript
   *   printed once and a live region at the bottom redrawn in place, the way Ink and prompt_toolkit do it).
   */
  constructor(o) {
    this.cols = o.cols;
    this.rows = o.rows;
    this.alt = !!o.alt;
    this.meta = { source: o.source, scenario: o.scenario };
    this.t = 0;
    this.events = []; // cast events
    this.truthEvents = [];
    this.seed = o.seed ?? 1;
    // full-screen state
    this.painted = [];
    // inline state
    this.liveHeight = 0;
    this.liveCursorRow = 0;
    if (this.alt) this.out(`${CSI}?1049h${CSI}?2004h${CSI}H${CSI}2J`);
    else this.out(`${CSI}?2004h`);
  }

  /** Deterministic pseudo-random numbers (mulberry32): the same script writes the same cast. */
  random() {
    let x = (this.seed = (this.seed + 0x6d2b79f5) | 0);
    x = Math.imul(x ^ (x >>> 15), x | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  }

  at(t) {
    if (t < this.t - 1e-9) throw new Error(`time goes back: ${t} < ${this.t}`);
    this.t = t;
    return this;
  }

  wait(dt) {
    return this.at(this.t + dt);
  }

  out(data) {
    if (data) this.events.push([round(this.t), 'o', data]);
  }

  input(data) {
    this.events.push([round(this.t), 'i', data]);
  }

  /** A truth event at the current time (the script's clock: what it sent or what its backend finished). */
  truth(kind, extra = {}) {
    this.truthEvents.push({ t: round(this.t), kind, ...extra });
  }

  /** OSC 0: the window title, where the program sets one. */
  title(text) {
    this.out(`${ESC}]0;${text}\x07`);
  }

  // ---- full screen (alternate screen): repaint the rows that changed -------------------------------------------

  /** Paint a whole frame: `rows` (strings with SGR), the cursor at [row, col] (0-based) or hidden (null). */
  frame(rows, cursor = null) {
    if (!this.alt) throw new Error('frame() is for full-screen programs');
    let data = '';
    for (let y = 0; y < this.rows; y++) {
      const row = rows[y] ?? '';
      if (this.painted[y] === row) continue;
      data += `${CSI}${y + 1};1H${row}${CSI}0m${CSI}K`;
      this.painted[y] = row;
    }
    const where = cursor ? `${cursor[0]},${cursor[1]}` : 'hidden';
    if (!data && where === this.cursorAt) return; // nothing changed: a real renderer writes nothing either
    this.cursorAt = where;
    if (cursor) data += `${CSI}${cursor[0] + 1};${cursor[1] + 1}H${CSI}?25h`;
    this.out(`${CSI}?2026h${CSI}?25l${data}${CSI}?2026l`);
  }

  // ---- inline (main screen): a transcript above a live region --------------------------------------------------

  /** Redraw the live region (the rows at the bottom the program owns), printing `above` into the transcript first.
   * The cursor ends at [row within the region, col], or at the end of the last row when not given. */
  live(rows, { above = [], cursor = null, hideCursor = false } = {}) {
    if (this.alt) throw new Error('live() is for inline programs');
    let data = hideCursor ? `${CSI}?25l` : '';
    if (this.liveHeight > 0) {
      data += '\r';
      if (this.liveCursorRow > 0) data += `${CSI}${this.liveCursorRow}A`;
      data += `${CSI}J`;
    }
    const all = [...above, ...rows];
    data += all.join('\r\n');
    this.liveHeight = rows.length;
    const last = rows.length - 1;
    if (cursor && rows.length) {
      const up = last - cursor[0];
      if (up > 0) data += `${CSI}${up}A`;
      data += `\r${cursor[1] > 0 ? `${CSI}${cursor[1]}C` : ''}`;
      this.liveCursorRow = cursor[0];
    } else {
      this.liveCursorRow = Math.max(0, last);
    }
    if (!hideCursor) data += `${CSI}?25h`;
    this.out(data);
  }

  /** Print rows into the transcript with no live region below them (the program printed and moved on). */
  print(rows) {
    this.live([], { above: rows });
    this.liveHeight = 0;
    this.liveCursorRow = 0;
    this.out('\r\n');
  }

  /** The live region stays as it is and becomes transcript (a line editor's Enter); the cursor goes below it. */
  commit() {
    const down = this.liveHeight - 1 - this.liveCursorRow;
    this.out(`${down > 0 ? `${CSI}${down}B` : ''}\r\n`);
    this.liveHeight = 0;
    this.liveCursorRow = 0;
  }

  // ---- the person -----------------------------------------------------------------------------------------------

  /** The person types `text` (a key every `gap` s), `echo(typedSoFar)` redrawing the input after each key; then
   * Enter. Returns the time of the Enter. */
  type(text, echo, { gap = 0.09, enter = true, lag = 0.012 } = {}) {
    let typed = '';
    for (const ch of text) {
      this.input(ch);
      typed += ch;
      this.wait(lag);
      echo(typed);
      this.wait(gap - lag);
    }
    if (enter) {
      this.input('\r');
      this.truth('prompt_submitted', { text });
    }
    return this.t;
  }

  /** A key that answers a question (approve or deny). */
  answer(key, kind, note) {
    this.input(key);
    this.truth(kind, note ? { note } : {});
  }

  /** Animate: call `draw(i, elapsedSinceStart)` every `every` seconds for `seconds`. */
  animate(seconds, every, draw) {
    const start = this.t;
    const n = Math.max(1, Math.round(seconds / every));
    for (let i = 0; i < n; i++) {
      this.at(start + i * every);
      draw(i, this.t - start);
    }
    this.at(start + n * every);
  }

  // ---- output files ---------------------------------------------------------------------------------------------

  cast() {
    const header = { version: 2, width: this.cols, height: this.rows, timestamp: 1795500000, duration: round(this.t), env: { TERM: 'xterm-256color', SHELL: '/bin/bash' } };
    return [JSON.stringify(header), ...this.events.map((e) => JSON.stringify(e))].join('\n') + '\n';
  }

  truthJson() {
    const duration = round(this.t);
    return {
      source: this.meta.source,
      scenario: this.meta.scenario,
      cols: this.cols,
      rows: this.rows,
      duration,
      synthetic: 'frame script (scripts/screens): the agent cannot be recorded here; its screens come from its public source and other supervisors\' tests (docs/agents.md)',
      events: this.truthEvents,
      segments: segments(this.truthEvents, duration),
    };
  }
}

// ---- small drawing helpers ---------------------------------------------------------------------------------------

/** The person types `prompt` into the input row at `at` (st.text follows each key) and presses Enter; the row is
 * cleared 40 ms later, as an agent takes the prompt. Returns the Enter's time. */
export function typePrompt(s, st, draw, prompt, at = 2.5) {
  s.at(at);
  const enter = s.type(prompt, (typed) => {
    st.text = typed;
    draw();
  });
  s.wait(0.04);
  st.text = '';
  return enter;
}

export const sgr = (codes, text) => `${CSI}${codes}m${text}${CSI}0m`;
export const dim = (text) => sgr('2', text);
export const bold = (text) => sgr('1', text);
export const fg = (n, text) => sgr(`38;5;${n}`, text);
export const bg = (n, text) => sgr(`48;5;${n}`, text);
export const inverse = (text) => sgr('7', text);

/** Visible width of a string (SGR stripped; every code point one cell, which holds for the glyphs used here). */
export function width(s) {
  return [...s.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '')].length;
}

export function pad(s, w) {
  return s + ' '.repeat(Math.max(0, w - width(s)));
}

/** A rounded box of `w` columns around `lines`. */
export function box(lines, w, { top = '', bottom = '' } = {}) {
  const inner = w - 2;
  const edge = (label, l, r) => `${l}${label}${'─'.repeat(Math.max(0, inner - width(label)))}${r}`;
  return [edge(top, '╭', '╮'), ...lines.map((l) => `│${pad(l, inner)}│`), edge(bottom, '╰', '╯')];
}

export const BRAILLE = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
