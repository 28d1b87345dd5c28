// Generated screens for fuzzing the profiles: every agent's markers (the rows of the screen fixtures, the words of
// /work/shared/research/markers.md, the config's own pattern vocabulary), boxes, menus, prompts and spinners, laid
// out in random rows and orders on screens from 1x1 to 300x100, with empty and full screens, wide characters and
// very long rows; titles and the analyzer's facts (ProfileContext) drawn at random too. Seeded: a failing screen is
// reproduced from its seed and index.
import type { ScreenSnapshot } from '../../src/screen/types.js';
import type { ProfileContext } from '../../src/analysis/profiles/index.js';
import type { Config } from '../../src/config/config.js';
import { Prng } from '../../src/bench/prng.js';
import { loadScreenFixtures } from './screen-fixtures.js';

export { Prng };

/** Rows every agent's screen is made of, by agent, as markers.md and the fixtures show them. */
const MARKERS: readonly string[] = [
  // Claude Code
  '❯ ', '❯ fix the tests', '? for shortcuts', '⏸ manual mode on', '⏵⏵ auto mode on (shift+tab to cycle)',
  '✻ Cooking… (12s · ↓ 1.2k tokens · esc to interrupt)', '· Thinking…', '✢ Brewing… (3s · thinking)', '● Running …',
  '  ⎿ $ npm test (12s)', '(ctrl+b to run in background)', '✻ 500 Internal server error · retrying in 9s · attempt 5/10',
  '● Here is the answer.', '✻ Cooked for 3s · done 12:07 AM', ' Bash command', ' Do you want to proceed?', ' ❯ 1. Yes',
  '   2. Yes, and always allow access', '   3. No', ' Esc to cancel · Tab to amend', '☐ Pick one',
  'Enter to select · ↑/↓ to navigate · Esc to cancel', '● API Error: 500 {"type":"error"}', '❯ Resend your message to try again',
  '  ⎿ Interrupted · What should Claude do instead?', 'Did not run 1 call', '╭───╮', '│ > │', '╰───╯',
  // Codex CLI
  '› Ask Codex to do anything', '⚠ 2 warnings', '• Working (12s • esc to interrupt)', '• Reconnecting... 2/5 (6s • esc to interrupt)',
  'Would you like to run the following command?', '$ rm -rf build', '› 1. Yes, proceed (y)', "  2. Yes, and don't ask again",
  '  3. No, and tell Codex what to do differently (esc)', 'Press enter to confirm or esc to cancel', 'Worked for 1m 05s • 12:07',
  '─ Worked for 3s ─────', "■ We're currently experiencing high demand", '■ exceeded retry limit, last status: 429 Too Many Requests',
  '■ Conversation interrupted - tell the model what to do differently', '  gpt-5 high · 80% context left · ~/src',
  // Gemini CLI, Qwen Code
  ' >   Type your message or @path/to/file', ' > /quit', ' > ', '⠼ Thinking... (esc to cancel, 6s)', '⠏ Reading files (esc to cancel, 1m 5s)',
  '? Shell ls -la', 'Allow execution of [Shell]?', '● 1. Allow once', '  2. Allow for this session', '  3. No, suggest changes (esc)',
  '✦ Done. The tests pass.', '✕ [API Error: 500]', 'ℹ This request failed. Press F2 for feedback', 'ℹ Request cancelled.',
  'Usage limit reached for gemini-2.5-pro.', '● 1. Keep trying', '  2. Stop', '~/src (main*)   no sandbox   gemini-2.5-pro (99% context left)',
  'Agent powering down. Goodbye!', 'Interaction Summary', 'Tool Calls:  3 ( ✓ 3 x 0 )', '│ > │',
  // opencode, kilo and the generic agents
  '┃  Build  claude-sonnet', 'esc interrupt', 'ctrl+c to stop', 'Esc to cancel', 'waiting for confirmation', '[y/n]', '(Y)es/(N)o',
  'Allow   Allow always   Reject', '> 1. Approve', 'Error: request failed with status 500', 'Thinking...', '⬝⬝⬝■■■■',
  // shells and ordinary programs
  '$ ', '$ sleep 25', 'user@host:~/src$ ', '% ', '# ', '>>> ', '... ', '>>> print(1)', 'Proceed? [y/N] ', 'Do you want to continue? [Y/n] ',
  'Press Enter to continue', 'Password:', 'Processing...', 'INCOMPLETE', 'already done', 'error: build failed', 'DONE', '[####----] 50%',
  'PASS  tests/a.test.ts', 'FAIL  tests/b.test.ts', 'Traceback (most recent call last):', 'Segmentation fault (core dumped)',
];

/** Glyphs that draw boxes, rules and cursors in the agents' TUIs. */
const RULES = ['─', '━', '▄', '▀', '═', '╌', '-', '=', '_', '·'];
const CORNERS: ReadonlyArray<[string, string, string, string]> = [['╭', '╮', '╰', '╯'], ['┌', '┐', '└', '┘'], ['+', '+', '+', '+'], ['', '', '', '']];
const SIDES = ['│', '┃', '|', ''];
const AGENT_BOXES: ReadonlyArray<{ top: string; bottom: string; corners: [string, string, string, string]; side: string }> = [
  { top: '▄', bottom: '▀', corners: ['', '', '', ''], side: '' },
  { top: '─', bottom: '─', corners: ['', '', '', ''], side: '' },
  { top: '─', bottom: '─', corners: ['╭', '╮', '╰', '╯'], side: '│' },
];
const PROMPTS = ['> ', '❯ ', '› ', '$ ', '>>> ', '... ', ' > ', '│ > ', '┃ ', '% ', '# ', '? ', ': '];
const CURSORS = ['❯', '●', '›', '>', '→', '▶', '*', '◉', '○', '•'];
const SPINNERS = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏', '·', '✢', '✳', '✶', '✻', '✽', '*', '◐', '◓', '◑', '◒', '|', '/', '-', '\\'];
const WIDE = ['漢', '字', '😀', '🚀', '한', 'ｱ', '　', '👩‍💻', 'é', 'e\u0301', '\u200b', '\u200d', '\ufe0f', '\u{1f1ef}\u{1f1f5}'];
const ODD = ['\x00', '\x07', '\t', '\x1b', '\u2028', '\ufffd', '\ud800', '\\', '$', '(', ')', '[', ']', '{', '}', '^', '.', '*', '+', '?', '|'];
const TITLES = ['', '✳ Claude Code', '⠂ Claude Code', '◐ Claude Code', '◇ Ready (src)', '✦ Working… (src)', '✋ Action Required (src)', 'Gemini CLI', 'Qwen Code',
  'codex', 'opencode', 'Kilo Code', 'bash', 'vim', '⠋ Working', 'user@host: ~/src', 'x'.repeat(500), '漢字😀'];

/** A pool of rows: the built-in markers, every screen fixture's rows, and words taken from the config's patterns. */
export function markerPool(cfg: Config): string[] {
  const pool = new Set<string>(MARKERS);
  for (const f of loadScreenFixtures()) for (const row of f.body) if (row.trim()) pool.add(row);
  // The config's regex sources hold the words each profile looks for: their literal runs make rows too.
  const words = JSON.stringify(cfg.patterns).match(/[A-Za-z][A-Za-z' ]{3,30}/g) ?? [];
  for (const w of words.slice(0, 400)) pool.add(w);
  return [...pool];
}

export interface FuzzScreen {
  snap: ScreenSnapshot;
  /** The analyzer's facts a profile may read, without the config. */
  ctx: Omit<ProfileContext, 'cfg'>;
  /** How the screen was made, for a failure message. */
  how: string;
}

export class ScreenFuzzer {
  constructor(
    private readonly r: Prng,
    private readonly pool: readonly string[],
  ) {}

  /** One screen: a size, a layout of blocks (or an empty or full screen), a cursor, a title and the context. */
  screen(): FuzzScreen {
    const r = this.r;
    const tiny = r.chance(0.1);
    const cols = tiny ? r.int(1, 4) : r.int(1, 300);
    const rows = tiny ? r.int(1, 4) : r.int(1, 100);
    const kind = r.pick(['blocks', 'blocks', 'blocks', 'blocks', 'empty', 'full', 'noise'] as const);
    let lines: string[];
    if (kind === 'empty') lines = Array.from({ length: rows }, () => '');
    else if (kind === 'full') lines = Array.from({ length: rows }, () => this.fill(cols));
    else if (kind === 'noise') lines = Array.from({ length: rows }, () => this.noise(r.int(0, cols)));
    else lines = this.layout(cols, rows);
    const snap: ScreenSnapshot = {
      cols,
      rows,
      lines,
      ...(r.chance(0.3) && { changedRows: Array.from({ length: r.int(0, rows) }, () => r.int(0, rows - 1)) }),
      cursorX: r.int(0, cols),
      cursorY: r.chance(0.5) ? lastNonEmpty(lines) : r.int(0, rows - 1),
      baseY: r.chance(0.5) ? 0 : r.int(0, 5000),
      altScreen: r.chance(0.4),
      bracketedPaste: r.chance(0.5),
      title: r.chance(0.2) ? this.noise(r.int(0, 60)) : r.pick(TITLES),
    };
    const ctx: Omit<ProfileContext, 'cfg'> = {
      titleAnimating: r.chance(0.3),
      ...(r.chance(0.5) && { titleSpinning: r.chance(0.5) }),
      ...(r.chance(0.4) && { prompt: r.chance(0.5) ? r.pick(this.pool) : this.noise(r.int(0, 40)) }),
      bracketedPasteSeen: r.chance(0.5),
      foregroundPrompted: r.chance(0.3),
      ...(r.chance(0.5) && { anchorRow: r.int(-3, snap.baseY + rows + 3) }),
      ...(r.chance(0.5) && { fullscreen: r.pick(['animating', 'resting', null] as const) }),
    };
    return { snap, ctx, how: `${cols}x${rows} ${kind}` };
  }

  /** Rows made of blocks (markers, boxes, menus, prompts, spinners, noise, long rows) in random order and places. */
  private layout(cols: number, rows: number): string[] {
    const r = this.r;
    const out: string[] = [];
    while (out.length < rows) {
      if (r.chance(0.25)) out.push('');
      else out.push(...this.block(cols));
    }
    // Blocks may overrun the screen: keep the bottom (the live edge) or the top, as a terminal would show either.
    return r.chance(0.7) ? out.slice(out.length - rows) : out.slice(0, rows);
  }

  private block(cols: number): string[] {
    const r = this.r;
    switch (r.int(0, 8)) {
      case 0:
      case 1:
        return [this.decorate(r.pick(this.pool))];
      case 2:
        return this.box(cols);
      case 3:
        return this.menu();
      case 4:
        return [r.pick(PROMPTS) + (r.chance(0.5) ? '' : this.decorate(r.pick(this.pool)))];
      case 5:
        return [`${r.pick(SPINNERS)} ${r.pick(['Thinking...', 'Working', 'Cooking…', this.noise(10)])} (${r.int(0, 3600)}s${r.chance(0.5) ? ' · esc to interrupt' : ''})`];
      case 6:
        return [this.noise(r.int(0, cols * 2))];
      case 7:
        // very long rows: a pasted log line, a minified file
        return [r.pick(this.pool).repeat(r.int(50, 400)).slice(0, r.int(1000, 20000))];
      default:
        return [r.pick(RULES).repeat(r.int(0, cols + 5))];
    }
  }

  /** An input box or a dialog: a top rule, one or more rows inside (a prompt, a marker, a menu), a bottom rule. */
  private box(cols: number): string[] {
    const r = this.r;
    // Half the boxes are drawn as the agents draw theirs (Gemini's ▄/▀ input box, Claude's and Qwen's ─ rules,
    // rounded dialogs), wide enough for their patterns; the rest from any glyphs.
    const agentBox = r.chance(0.5) ? r.pick(AGENT_BOXES) : null;
    const [tl, tr, bl, br] = agentBox ? agentBox.corners : r.pick(CORNERS);
    const side = agentBox ? agentBox.side : r.pick(SIDES);
    const width = agentBox ? r.int(20, Math.max(20, cols)) : r.int(0, cols);
    const rule = agentBox ? agentBox.top : r.pick(RULES);
    const inner: string[] = [];
    for (let i = r.int(0, 4); i >= 0; i--) inner.push(r.chance(0.5) ? r.pick(PROMPTS) + (r.chance(0.5) ? r.pick(this.pool) : '') : r.pick(this.pool));
    if (r.chance(0.3)) inner.push(...this.menu());
    const rows = [tl + rule.repeat(width) + tr, ...inner.map((l) => `${side} ${l}${r.chance(0.5) ? ` ${side}` : ''}`), bl + (agentBox ? agentBox.bottom : r.chance(0.8) ? rule : r.pick(RULES)).repeat(width) + br];
    // A box cut short (its bottom rule scrolled off, a rule alone) is a screen too.
    return r.chance(0.15) ? rows.slice(0, r.int(1, rows.length)) : rows;
  }

  /** A selection menu: a cursor row, numbered or worded options, description rows between, a key hint. */
  private menu(): string[] {
    const r = this.r;
    const n = r.int(0, 5);
    const cursorAt = r.int(0, Math.max(0, n - 1));
    const numbered = r.chance(0.7);
    const out: string[] = [];
    if (r.chance(0.5)) out.push(r.pick(this.pool));
    for (let i = 0; i < n; i++) {
      const label = numbered ? `${i + 1}. ${r.pick(['Yes', 'No', 'Allow once', 'Keep trying', this.noise(8)])}` : r.pick(['Yes', 'No', 'Allow', 'Reject', this.noise(6)]);
      out.push(i === cursorAt ? `${' '.repeat(r.int(0, 3))}${r.pick(CURSORS)} ${label}` : `${' '.repeat(r.int(0, 5))}${label}`);
      if (r.chance(0.2)) out.push(`     ${this.noise(r.int(0, 30))}`);
    }
    if (r.chance(0.5)) out.push(r.pick(['Esc to cancel', 'Enter to select · ↑/↓ to navigate · Esc to cancel', 'Press enter to confirm or esc to cancel', '(esc)']));
    return out;
  }

  /** A marker with wide characters or odd characters mixed in, padded, or as it is. */
  private decorate(s: string): string {
    const r = this.r;
    if (r.chance(0.6)) return s;
    const at = r.int(0, s.length);
    const extra = Array.from({ length: r.int(1, 4) }, () => r.pick(r.chance(0.6) ? WIDE : ODD)).join('');
    return ' '.repeat(r.int(0, 4)) + s.slice(0, at) + extra + s.slice(at);
  }

  private fill(cols: number): string {
    const r = this.r;
    const ch = r.pick([...RULES, ...WIDE, 'x', ' ', '█']);
    return ch.repeat(Math.max(1, Math.ceil(cols / Math.max(1, ch.length))));
  }

  /** Random characters: printable ASCII, box drawing, braille, wide and odd ones. */
  private noise(n: number): string {
    const r = this.r;
    let s = '';
    for (let i = 0; i < n; i++) {
      const k = r.int(0, 9);
      if (k < 5) s += String.fromCharCode(r.int(0x20, 0x7e));
      else if (k === 5) s += String.fromCharCode(r.int(0x2500, 0x257f));
      else if (k === 6) s += String.fromCharCode(r.int(0x2800, 0x28ff));
      else if (k === 7) s += r.pick(WIDE);
      else if (k === 8) s += r.pick(ODD);
      else s += r.pick(CURSORS);
    }
    return s;
  }
}

function lastNonEmpty(lines: readonly string[]): number {
  for (let i = lines.length - 1; i >= 0; i--) if (lines[i]!.trim()) return i;
  return Math.max(0, lines.length - 1);
}
