// Hostile input never crashes or hangs a pane: megabytes of random and malformed output, escape-sequence floods,
// absurd resizes and damaged recordings go through the whole pipeline (PaneMonitor in virtual time, or replayCast),
// and afterwards the pane still answers — a plain bash command with shell integration still reads RUNNING → DONE.
// Seeded, so any failure reproduces. The bound on "never hangs" is vitest's per-test timeout; nothing is timed.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CastFormatError, parseCast } from '../../src/attach/asciicast.js';
import { ReplaySource } from '../../src/attach/replay-source.js';
import { loadConfig } from '../../src/config/config.js';
import { replayCast } from '../../src/daemon/replay.js';
import type { Transition } from '../../src/state/pane-machine.js';
import { PaneFeeder, VALID_STATES } from '../helpers/pane-feeder.js';
import { Prng, brokenUtf8, printable, randomBytes, randomStrings, splitString } from '../helpers/hostile-streams.js';

/** Generous: each case takes a second or two; a hang would blow well past this. */
const CASE_TIMEOUT_MS = 60_000;
const SEED = 0x0badf00d;
const MiB = 1 << 20;

const BEL = '\x07';
const ST = '\x1b\\';
const BP_ON = '\x1b[?2004h';
const BP_OFF = '\x1b[?2004l';
const osc133 = (x: string) => `\x1b]133;${x}${BEL}`;
/** What `reset` would undo: CAN aborts an open OSC/DCS, ST closes one; leave the alternate screen and a sync
 * frame, reset margins, colours and character sets. Hostile bytes may leave any of these open, as on a real tty. */
const RECOVER = `\x18${ST}\x1b[?2026l\x1b[?1049l\x1b[r\x1b[0m\x1b(B\x0f\r\n`;

const feeders: PaneFeeder[] = [];
beforeEach(() => {
  // xterm logs every parse error, with a dump of its parser state, to console.error: hundreds of thousands of
  // lines for these streams. Kept out of the test output (and reported as a finding of its own).
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => {
  for (const f of feeders.splice(0)) f.stop();
  vi.restoreAllMocks();
});
function pane(opts: ConstructorParameters<typeof PaneFeeder>[0] = {}): PaneFeeder {
  const f = new PaneFeeder(opts);
  feeders.push(f);
  return f;
}

/** The events of a plain `ls` in bash with OSC 133, as [delay ms, kind, data]. */
const BASH_LS: Array<[number, 'o' | 'i', string]> = [
  [50, 'o', `${BP_ON}${osc133('A')}$ ${osc133('B')}`],
  [500, 'i', 'l'],
  [10, 'o', 'l'],
  [80, 'i', 's'],
  [10, 'o', 's'],
  [100, 'i', '\r'],
  [5, 'o', `${BP_OFF}\r\n${osc133('C')}`],
  [200, 'o', 'file1  file2\r\n'],
  [50, 'o', `${osc133('D;0')}${BP_ON}${osc133('A')}$ ${osc133('B')}`],
];

function expectValid(transitions: readonly Transition[]): void {
  for (const tr of transitions) {
    expect(VALID_STATES).toContain(tr.to);
    expect(Number.isFinite(tr.t)).toBe(true);
  }
}

/** The pane still answers: a state, a screen, a classification; then a bash command reads RUNNING → DONE. */
async function expectSane(f: PaneFeeder): Promise<void> {
  await f.settle(1000);
  expect(VALID_STATES).toContain(f.state);
  expect(f.monitor.screen.snapshot().lines.length).toBeGreaterThan(0);
  f.monitor.analyzer.classifyNow();
  expectValid(f.monitor.transitions);

  const seen: Transition[] = [];
  f.monitor.onTransition((tr) => seen.push(tr));
  await f.output(RECOVER);
  for (const [ms, kind, data] of BASH_LS) await (kind === 'o' ? f.output(data, ms) : f.input(data, ms));
  await f.settle(1000);
  expectValid(seen);
  const moves = seen.filter((tr) => tr.from !== tr.to);
  expect(moves.at(-1)).toMatchObject({ to: 'DONE', rule: 'osc133.command_finished' });
  expect(f.state).toBe('DONE');
  expect(f.monitor.screen.cursorLine()).toMatch(/^\$/);
}

async function feedAll(f: PaneFeeder, chunks: Iterable<string | Uint8Array>, r: Prng, maxGapMs = 20): Promise<void> {
  for (const c of chunks) await f.output(c, r.range(0, maxGapMs));
}

describe('hostile output never crashes or hangs a pane', () => {
  it('random bytes, as Uint8Array reads', { timeout: CASE_TIMEOUT_MS }, async () => {
    const r = new Prng(SEED);
    const f = pane();
    await feedAll(f, randomBytes(r, 2 * MiB), r);
    await expectSane(f);
  });

  it('random UTF-16 strings: controls, C1, lone surrogates, noncharacters', { timeout: CASE_TIMEOUT_MS }, async () => {
    const r = new Prng(SEED + 1);
    const f = pane();
    await feedAll(f, randomStrings(r, 2 * MiB), r);
    await expectSane(f);
  });

  it('broken UTF-8, truncated sequences split across reads', { timeout: CASE_TIMEOUT_MS }, async () => {
    const r = new Prng(SEED + 2);
    const f = pane();
    await feedAll(f, brokenUtf8(r, MiB), r);
    // a read that ends mid-sequence, then a plain string: the decoder must not carry the stray bytes into it
    await f.output(new Uint8Array([0xf0, 0x9f]));
    await f.output('plain text\r\n');
    await expectSane(f);
  });

  it('a 5 MB line without a newline', { timeout: CASE_TIMEOUT_MS }, async () => {
    const r = new Prng(SEED + 3);
    const f = pane();
    await feedAll(f, splitString(r, printable(r, 5 * MiB)), r, 2);
    await expectSane(f);
  });

  it('a 10 MB burst in one event', { timeout: CASE_TIMEOUT_MS }, async () => {
    const r = new Prng(SEED + 4);
    const f = pane();
    const line = () => `${printable(r, r.int(0, 200))}\r\n`;
    let burst = '';
    while (burst.length < 10 * MiB) burst += line().repeat(64);
    await f.output(burst);
    await expectSane(f);
  });

  it("unterminated OSC strings, one past xterm's 10 MB payload limit", { timeout: CASE_TIMEOUT_MS }, async () => {
    const r = new Prng(SEED + 5);
    const f = pane();
    await f.output(`\x1b]0;${printable(r, 100_000)}`); // never closed: the next ESC aborts it
    await f.output(`\x1b]133;D;${printable(r, 1000)}`);
    await feedAll(f, splitString(r, `\x1b]1337;SetUserVar=x=${printable(r, 11 * MiB)}`), r, 2);
    await expectSane(f);
  });

  it('huge CSI parameter lists and values', { timeout: CASE_TIMEOUT_MS }, async () => {
    const r = new Prng(SEED + 6);
    const f = pane();
    // Finals whose count xterm clamps to the screen, and (looping) those xterm 5.5 runs once per count: the
    // screen clamps these before xterm sees them, or 2147483647 would block the process for hours.
    const clamped = ['H', 'f', 'A', 'B', 'C', 'D', 'E', 'F', 'G', 'J', 'K', 'X', 'P', '@', 'd', '`', 'r', 'm', 'h', 'l', 'n', 'c', 'g', 't', 'q', ' q', '"q', "'}", "'~"];
    const looping = ['S', 'T', 'L', 'M', 'b', 'I', 'Z'];
    const floods = [
      `\x1b[${'1;'.repeat(200_000)}m`, // 400 KB of parameters (xterm keeps 32)
      `\x1b[${'9'.repeat(100_000)}H`, // one value past any integer
      `\x1b[?${'2004;2026;'.repeat(50_000)}h`, // modes our own handler walks
      `\x1b[38:2${':255'.repeat(100_000)}m`, // endless sub-parameters
      `\x1b[1${' !"#$%&'.repeat(10_000)}q`, // intermediates
      ...clamped.flatMap((c) => [`\x1b[2147483647;2147483647${c}`, `\x1b[?2147483647${c}`, `\x1b[>2147483647${c}`]),
      ...looping.map((c) => `x\x1b[500${c}`),
      ...looping.map((c) => `x\x1b[2147483647${c}`),
    ];
    for (const seq of floods) await feedAll(f, splitString(r, `${seq}text ${r.int(0, 99)}\r\n`), r, 5);
    await expectSane(f);
  });

  it('OSC 133/633/7501/1337/9/777 with garbage payloads', { timeout: CASE_TIMEOUT_MS }, async () => {
    const r = new Prng(SEED + 7);
    const f = pane();
    const junk = () => (r.chance(0.1) ? printable(r, r.int(1000, 64_000)) : printable(r, r.int(0, 80)));
    const rawJunk = () => Buffer.from(r.bytes(r.int(0, 80))).toString('latin1'); // controls included: may end it early
    const payloads: Record<number, () => string> = {
      133: () => r.pick(['A', 'B', 'C', 'D', 'D;', 'E', '']) + (r.chance(0.5) ? `;${r.pick(['0', '-1', '99999999999999999999', 'NaN', junk()])}` : junk()),
      633: () => r.pick(['A', 'C', 'D;1', 'E;', 'P;']) + r.pick(['\\x', '\\xZZ', '\\\\', '\\x3b\\x0']) + junk(),
      7501: () => `state=${r.pick(['working', 'blocked', 'done', 'error', 'idle', '', junk()])}:kind=${printable(r, r.int(0, 16))}:app=${r.pick(['codex', '', printable(r, 8)])}:${junk()}`,
      1337: () => r.pick(['SetUserVar=', 'SetUserVar=a=', 'CurrentDir=', 'File=', '=', '']) + junk(),
      9: () => r.pick(['4;', '4;1;', '']) + junk(),
      777: () => r.pick(['notify;', 'notify;;', 'notify', '']) + `${junk()};${junk()}`,
    };
    const idents = Object.keys(payloads).map(Number);
    for (let i = 0; i < 1800; i++) {
      const id = r.pick(idents);
      const body = r.chance(0.2) ? rawJunk() : payloads[id]!();
      const end = r.pick([BEL, ST, '']);
      await f.output(`\x1b]${id};${body}${end}${r.chance(0.3) ? `${printable(r, 20)}\r\n` : ''}`, r.range(0, 30));
    }
    await expectSane(f);
  });

  it('thousands of title changes, some long, some naming an agent', { timeout: CASE_TIMEOUT_MS }, async () => {
    const r = new Prng(SEED + 8);
    const f = pane();
    const agentTitles = ['✳ Claude Code', '✦  Working…', '✋  Action Required', '◇  Ready', '[ ! ] Action Required', '⠋ codex'];
    for (let batch = 0; batch < 50; batch++) {
      let data = '';
      for (let i = 0; i < 100; i++) {
        const text = r.chance(0.1) ? r.pick(agentTitles) : r.chance(0.005) ? printable(r, 64_000) : printable(r, r.int(0, 100));
        data += `\x1b]${r.pick([0, 1, 2])};${text}${r.pick([BEL, ST])}`;
      }
      await f.output(data, r.range(0, 50));
    }
    await expectSane(f);
  });

  it('alternate screen and synchronized-output toggles, one frame left open', { timeout: CASE_TIMEOUT_MS }, async () => {
    const r = new Prng(SEED + 9);
    const f = pane();
    const modes = ['?1049', '?47', '?1047', '?1048', '?2026', '?2004', '?25'];
    for (let batch = 0; batch < 50; batch++) {
      let data = '';
      for (let i = 0; i < 100; i++) data += `\x1b[${r.pick(modes)}${r.pick(['h', 'l'])}${printable(r, r.int(0, 30))}${r.chance(0.2) ? '\r\n' : ''}`;
      await f.output(data, r.range(0, 50));
    }
    await f.output('\x1b[?2026hhalf a frame, never finished');
    await f.settle(3000); // longer than a sync frame may stay open
    await expectSane(f);
  });

  it('resizes to absurd sizes: 0x0, 100000x100000, NaN, negative, infinite, fractional', { timeout: CASE_TIMEOUT_MS }, async () => {
    const r = new Prng(SEED + 10);
    const f = pane();
    const sizes = [[0, 0], [NaN, NaN], [-1, -5], [Infinity, Infinity], [1.5, 2.5], [1, 1], [2, 2], [1000, 1], [1, 1000], [2 ** 53, 3], [100000, 100000]];
    for (const [cols, rows] of sizes) {
      await f.feed({ kind: 'resize', cols: cols!, rows: rows! });
      await f.output(`${printable(r, 300)}\r\n\x1b[999;999H${printable(r, 50)}\x1b[H`);
    }
    await expectSane(f);
  });

  it('garbage process names, exit codes, typed input and acks', { timeout: CASE_TIMEOUT_MS }, async () => {
    const r = new Prng(SEED + 11);
    const f = pane();
    const names = ['', ' ', '\0', 'claude', 'codex-x', 'sleep', printable(r, MiB), Buffer.from(r.bytes(64)).toString('latin1')];
    for (const name of names) {
      await f.feed({ kind: 'process', name });
      await f.input(r.pick(['\r', '\x1b', '\n\n\r', printable(r, r.int(0, 100)), printable(r, 100_000) + '\r']));
      await f.output(`${printable(r, 100)}\r\n`);
      f.monitor.ack(r.pick(['user', '', printable(r, 1000)]));
    }
    for (const code of [null, -1, NaN, 2 ** 53, 255]) await f.feed({ kind: 'exit', code });
    await expectSane(f);
  });
});

describe('a damaged recording replays without crashing', () => {
  it('bad lines, wrong types, negative and decreasing stamps, garbage resizes are skipped or held', { timeout: CASE_TIMEOUT_MS }, async () => {
    const r = new Prng(SEED + 12);
    const bad = [
      'not json',
      '[',
      '{}',
      'null',
      '[1]',
      '[1,"o"]',
      '["1","o","x"]',
      '[1,"o",5]',
      '[1,"x","y"]',
      '[null,"o","x"]',
      '[1e400,"o","infinite stamp"]',
      '[NaN,"o","x"]',
      printable(r, MiB), // one endless junk line
      ...Array.from({ length: 200 }, () => `x${printable(r, r.int(0, 200))}`), // never blank (blank lines are not counted)
    ];
    const odd = [
      '[-5,"o","negative stamp\\r\\n"]',
      '[3,"o","later\\r\\n"]',
      '[2,"o","earlier\\r\\n"]',
      '[2.5,"o","\\ud800 lone surrogate \\udfff\\r\\n"]',
      '[3,"r","NaNxNaN"]',
      '[3,"r","100000x100000"]',
      '[3,"r","0x0"]',
      '[3,"r",""]',
      '[3,"m","a marker"]',
      '[3,"i","\\r"]',
      '[3,"o","extra fields",1,2,3]',
    ];
    let t = 10;
    const sane = BASH_LS.map(([ms, code, data]) => JSON.stringify([(t += ms / 1000), code, data]));
    const lines = [
      JSON.stringify({ version: 2, width: 'wide', height: -3, duration: 'long' }),
      ...shuffle(r, [...bad, ...odd]),
      JSON.stringify([9.9, 'o', RECOVER]),
      ...sane,
    ];
    const cast = parseCast(lines.join(r.chance(0.5) ? '\r\n' : '\n'));
    expect(cast.skipped).toBe(bad.length);
    let last = 0;
    for (const e of cast.events) {
      expect(Number.isFinite(e.t) && e.t >= last).toBe(true);
      last = e.t;
    }

    const res = await replayCast(new ReplaySource(cast, 'hostile'), loadConfig(), 'auto');
    expectValid(res.transitions);
    const moves = res.transitions.filter((tr) => tr.from !== tr.to);
    expect(moves.at(-1)).toMatchObject({ to: 'DONE', rule: 'osc133.command_finished' });
  });

  it('a wall-clock stamp or an absurd duration does not make replay tick through years', { timeout: CASE_TIMEOUT_MS }, async () => {
    const lines = [
      JSON.stringify({ version: 2, width: 80, height: 24, duration: 1.7e9 }),
      JSON.stringify([0.1, 'o', '$ ']),
      JSON.stringify([1.7e9, 'o', 'from the wrong clock']),
      JSON.stringify([1e5, 'o', 'a long quiet day later\r\n$ ']),
    ];
    const res = await replayCast(new ReplaySource(parseCast(lines.join('\n')), 'clock'), loadConfig(), 'auto');
    expectValid(res.transitions);
    expect(res.endTime).toBeLessThanOrEqual(1e5 + 600);
  });

  it('a file with no asciicast v2 header is refused with a CastFormatError, not a crash', () => {
    for (const text of ['', '\n\n', 'garbage', '[2,"o","x"]', '{"version":1}', '{"version":"2"}', 'null', '42']) {
      expect(() => parseCast(text), JSON.stringify(text)).toThrow(CastFormatError);
    }
  });
});

function shuffle<T>(r: Prng, xs: T[]): T[] {
  for (let i = xs.length - 1; i > 0; i--) {
    const j = r.int(0, i);
    [xs[i], xs[j]] = [xs[j]!, xs[i]!];
  }
  return xs;
}
