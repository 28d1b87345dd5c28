// One zoo agent run in a real PTY (node-pty) whose output feeds a real @xterm/headless terminal: the test types keys,
// reads the screen as a person would see it, reads the agent's timeline file (the zoo protocol), and keeps the raw
// bytes for checks on the escape sequences used. No timed assertions: every wait polls with a generous deadline.
import pty from 'node-pty';
import type { IPty } from 'node-pty';
import xtermHeadless from '@xterm/headless';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const { Terminal } = xtermHeadless;
/** How often a wait re-checks its condition. */
const POLL_MS = 40;
/** Deadline for one condition: met within a second or two normally; the rest is room for a loaded 2-core box. */
const WAIT_MS = 15_000;

export interface TimelineEvent {
  t: number;
  kind: string;
  [k: string]: unknown;
}

export class ZooPtySession {
  readonly pty: IPty;
  readonly term: InstanceType<typeof Terminal>;
  readonly dir: string;
  readonly timelinePath: string;
  raw = '';
  exit: number | null = null;
  private parsed = Promise.resolve();

  constructor(script: string, options: unknown, cols = 90, rows = 24) {
    this.dir = mkdtempSync(join(tmpdir(), 'zoo-pty-'));
    this.timelinePath = join(this.dir, 'timeline.jsonl');
    this.term = new Terminal({ cols, rows, allowProposedApi: true, logLevel: 'off' });
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
    Object.assign(env, { TERM: 'xterm-256color', ZOO_OPTIONS: JSON.stringify(options), ZOO_TIMELINE: this.timelinePath });
    this.pty = pty.spawn(process.execPath, [script], { cols, rows, cwd: this.dir, env });
    this.pty.onData((d) => {
      this.raw += d;
      this.parsed = this.parsed.then(() => new Promise<void>((r) => this.term.write(d, r)));
    });
    this.pty.onExit((e) => (this.exit = e.exitCode));
  }

  /** The screen's rows as text (trailing blanks trimmed), after all output received so far is parsed. */
  async lines(): Promise<string[]> {
    await this.parsed;
    const buf = this.term.buffer.active;
    const out: string[] = [];
    for (let y = 0; y < this.term.rows; y++) out.push(buf.getLine(buf.viewportY + y)?.translateToString(true) ?? '');
    return out;
  }

  async screen(): Promise<string> {
    return (await this.lines()).join('\n');
  }

  get altScreen(): boolean {
    return this.term.buffer.active.type === 'alternate';
  }

  events(): TimelineEvent[] {
    if (!existsSync(this.timelinePath)) return [];
    return readFileSync(this.timelinePath, 'utf8')
      .split('\n')
      .filter((l) => l.trim())
      .map((l) => JSON.parse(l) as TimelineEvent);
  }

  kinds(): string[] {
    return this.events().map((e) => e.kind);
  }

  /** Wait until the screen matches `re`; returns the screen then. */
  async waitScreen(what: string, re: RegExp): Promise<string> {
    return this.poll(`the screen to show ${what} (${re})`, async () => {
      const s = await this.screen();
      return re.test(s) ? s : null;
    });
  }

  /** Wait until the timeline holds `n` events of `kind`. */
  async waitEvent(kind: string, n = 1): Promise<TimelineEvent> {
    return this.poll(`timeline event ${kind} #${n}`, async () => this.events().filter((e) => e.kind === kind)[n - 1] ?? null);
  }

  async waitExit(): Promise<number> {
    return this.poll('the agent to exit', async () => this.exit);
  }

  type(keys: string): void {
    this.pty.write(keys);
  }

  /** Type text one key at a time, as a person would. */
  async typeSlowly(text: string, gapMs = 15): Promise<void> {
    for (const ch of text) {
      this.pty.write(ch);
      await new Promise((r) => setTimeout(r, gapMs));
    }
  }

  async diag(): Promise<string> {
    return `--- screen ---\n${await this.screen()}\n--- timeline ---\n${this.kinds().join(' ')}`;
  }

  private async poll<T>(what: string, probe: () => Promise<T | null>): Promise<T> {
    const deadline = Date.now() + WAIT_MS;
    for (;;) {
      const v = await probe();
      if (v !== null && v !== undefined) return v;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}\n${await this.diag()}`);
      await new Promise((r) => setTimeout(r, POLL_MS));
    }
  }

  close(): void {
    if (this.exit === null) this.pty.kill();
    this.term.dispose();
    rmSync(this.dir, { recursive: true, force: true });
  }
}

const ESU_OR_BSU = /\x1b\[\?2026([hl])/g;
// Escape sequences (CSI, OSC, charset and two-byte ESC forms): what is left after them is drawn text.
const ESCAPES = /\x1b\[[0-9;?<>=!]*[ -\/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[()][0-9A-Za-z]|\x1b[78=>DEHMNOc]/g;

/** Synchronized-output frames in a byte stream: how many, whether begin/end alternate, and the text drawn outside. */
export function syncFrames(raw: string): { frames: number; balanced: boolean; drawnOutside: string } {
  let open = false;
  let balanced = true;
  let frames = 0;
  let last = 0;
  let outside = '';
  for (const m of raw.matchAll(ESU_OR_BSU)) {
    const begin = m[1] === 'h';
    if (begin === open) balanced = false;
    if (begin) outside += raw.slice(last, m.index);
    else frames++;
    open = begin;
    last = m.index! + m[0].length;
  }
  if (open) balanced = false;
  else outside += raw.slice(last);
  return { frames, balanced, drawnOutside: outside.replace(ESCAPES, '').replace(/[\r\n\x07]/g, '') };
}
