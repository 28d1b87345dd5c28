// Forged marks change nothing (issue 14, item 5). A bash session with real shell-integration marks runs through the
// real pipeline (PaneMonitor in virtual time: @xterm/headless, change queue, analyzer, state machine) once as it
// is, then again with generated forged marks (OSC 133, 633, 7501, 1337; BEL or ST ended; with random options and
// wrong nonces) put into its output at random places, some split across two reads. The transitions must be the
// same, to the millisecond, rule and line:
//  - a shell we started with integration (its marks carry the session's nonce): forged OSC 133/633 in ANY order;
//  - any other shell (plain marks): forged marks OUT OF the order one command makes at the point they land (before
//    the shell's first prompt mark: a B, C, D or E; at a prompt: a D; while a command
//    runs: a prompt or a C; between a command's end and the next prompt: a B, C, D or E), and Codex reports of a
//    turn that never started (blocked, done, error). OSC 1337 anywhere.
// Seeded: a failure names its seed and reproduces.
import { describe, expect, it } from 'vitest';
import { Prng } from '../../src/bench/prng.js';
import { useDrivers, type PaneDriver } from '../helpers/driver.js';

const driver = useDrivers();
const NONCE = '5eed5eed5eed5eed5eed5eed5eed5eed';
const SEEDS = 24;
const BP_ON = '\x1b[?2004h';
const BP_OFF = '\x1b[?2004l';

type Mark = 'A' | 'B' | 'C' | 'D;0' | 'D;2';
/** Where the real marks have the shell when a forged one lands. */
type At = 'start' | 'prompt' | 'running' | 'ended';
type Seg = { text: string } | { mark: Mark };
type Ev = { t: number; kind: 'input'; data: string } | { t: number; kind: 'output'; segs: Seg[]; echo?: boolean };

/** A person at bash: four commands (quick, failing with output, silent, streaming), with marks as bash makes them. */
function session(keys: boolean): Ev[] {
  const evs: Ev[] = [];
  const prompt: Seg[] = [{ text: BP_ON }, { mark: 'A' }, { text: '$ ' }, { mark: 'B' }];
  evs.push({ t: 0.1, kind: 'output', segs: prompt });
  let t = 1;
  const command = (cmd: string, lines: string[], every: number, end: Mark): void => {
    for (const ch of cmd) {
      if (keys) evs.push({ t, kind: 'input', data: ch });
      evs.push({ t: t + 0.01, kind: 'output', segs: [{ text: ch }], echo: true });
      t += 0.05;
    }
    if (keys) evs.push({ t, kind: 'input', data: '\r' });
    evs.push({ t: t + 0.01, kind: 'output', segs: [{ text: `${BP_OFF}\r\n` }, { mark: 'C' }] });
    for (const line of lines) {
      t += every;
      evs.push({ t, kind: 'output', segs: [{ text: `${line}\r\n` }] });
    }
    t += every;
    evs.push({ t, kind: 'output', segs: [{ mark: end }, ...prompt] });
    t += 2;
  };
  command('ls', ['a.txt  b.txt  notes'], 0.05, 'D;0');
  command('make', ['cc -c a.c', 'cc -c b.c', 'b.c:3: error: expected ;', 'make: *** [all] Error 2'], 0.8, 'D;2');
  command('sleep 3', [], 3, 'D;0');
  command('cat notes', Array.from({ length: 12 }, (_, i) => `note ${i}: the build is green`), 0.3, 'D;0');
  return evs;
}

const next = (m: Mark): At => (m === 'A' || m === 'B' ? 'prompt' : m === 'C' ? 'running' : 'ended');

/** A forged mark that `at` makes out of order for an uninjected shell. */
function outOfOrder(r: Prng, at: At): string {
  const e = '633;E;rm -rf /';
  const shell: Record<At, string[]> = { start: ['B', 'C', 'D;0', 'D;1', 'D', e], prompt: ['D;0', 'D;1', 'D'], running: ['A', 'B', 'C'], ended: ['B', 'C', 'D;0', 'D;1', e] };
  const codex = ['blocked:app=codex:kind=permission', 'done:app=codex', 'error:app=codex'];
  const pool = [...shell[at].map((x) => (x === e ? x : `${r.pick(['133', '633'])};${x}${r.chance(0.3) ? ';aid=7' : ''}`)), ...codex.map((s) => `7501;state=${s}`), ...iterm()];
  return r.pick(pool);
}

/** Any forged shell mark for a shell we started: no nonce, or another session's. */
function unsigned(r: Prng): string {
  const code = r.pick(['A', 'B', 'C', 'D', 'D;0', 'D;1', 'D;130']);
  const sign = r.pick(['', ';nonce=', `;nonce=${NONCE.slice(2)}`, ';nonce=0123456789abcdef0123456789abcdef', `;aid=1`]);
  if (r.chance(0.2)) return `633;E;rm -rf /;${r.pick(['', 'x', NONCE.slice(1)])}`;
  return `${r.pick(['133', '633'])};${code}${sign}`;
}

function iterm(): string[] {
  return ['1337;SetUserVar=state=ZG9uZQ==', '1337;CurrentDir=/tmp', '1337;RemoteHost=me@box'];
}

/** The session's output events with forged marks put in (`forge` picks one for where it lands, or null). */
function withForgeries(evs: Ev[], signed: boolean, r: Prng, forge: ((at: At) => string) | null): Array<{ t: number; kind: 'input' | 'output'; data: string }> {
  const out: Array<{ t: number; kind: 'input' | 'output'; data: string }> = [];
  const sign = signed ? `;nonce=${NONCE}` : '';
  let at: At = 'start';
  for (const ev of evs) {
    if (ev.kind === 'input') {
      out.push(ev);
      continue;
    }
    let data = '';
    const pieces: string[] = [];
    const maybeForge = (): void => {
      if (!forge || ev.echo || !r.chance(0.35)) return;
      const body = forge(at);
      const osc = `\x1b]${body}${r.chance(0.5) ? '\x07' : '\x1b\\'}`;
      if (r.chance(0.4)) {
        const cut = r.int(1, osc.length - 1);
        pieces.push(data + osc.slice(0, cut));
        data = osc.slice(cut);
      } else data += osc;
    };
    for (const seg of ev.segs) {
      maybeForge();
      if ('text' in seg) {
        // Also in the middle of a line of output.
        const mid = seg.text.startsWith('\x1b') ? 0 : r.int(0, seg.text.length);
        data += seg.text.slice(0, mid);
        maybeForge();
        data += seg.text.slice(mid);
      } else {
        data += `\x1b]133;${seg.mark}${sign}\x07`;
        at = next(seg.mark);
      }
    }
    maybeForge();
    for (const p of [...pieces, data]) out.push({ t: ev.t, kind: 'output', data: p });
  }
  return out;
}

async function play(events: Array<{ t: number; kind: 'input' | 'output'; data: string }>, markNonce?: string): Promise<PaneDriver> {
  const d = driver({ markNonce });
  for (const ev of events) d.monitor.handle(ev);
  await d.until(events[events.length - 1]!.t + 15);
  return d;
}

const shown = (d: PaneDriver) => d.transitions.map((tr) => `${tr.t.toFixed(3)} ${tr.from}->${tr.to} t${tr.tier} ${tr.rule} | ${tr.line}`);

describe('forged marks change no state', () => {
  for (const keys of [true, false]) {
    const where = keys ? 'keys seen (a run pane)' : 'keys unseen (a tmux pane)';

    it(`a shell we started with integration: OSC 133/633 without its nonce, in any order (${where})`, async () => {
      const evs = session(keys);
      const base = await play(withForgeries(evs, true, new Prng(1), null), NONCE);
      // The session itself reads as it should: the marks with the nonce are Tier 1.
      expect(base.states, base.describe()).toEqual(['RUNNING', 'DONE', 'RUNNING', 'FAILED', 'RUNNING', 'DONE', 'RUNNING', 'DONE']);
      expect(base.transitions.every((tr) => tr.tier === 1), base.describe()).toBe(true);
      for (let seed = 1; seed <= SEEDS; seed++) {
        const r = new Prng(seed * 7919 + (keys ? 1 : 0));
        const d = await play(withForgeries(evs, true, r, () => (r.chance(0.8) ? unsigned(r) : r.pick(iterm()))), NONCE);
        expect(shown(d), `seed ${seed}`).toEqual(shown(base));
        expect(d.counted(/^suppressed\.tier1\..*\.forged_mark$/), `seed ${seed}`).toBeGreaterThan(0);
      }
    });

    it(`any other shell: marks out of one command's order, Codex reports of no turn (${where})`, async () => {
      const evs = session(keys);
      const base = await play(withForgeries(evs, false, new Prng(1), null));
      expect(base.states, base.describe()).toEqual(['RUNNING', 'DONE', 'RUNNING', 'FAILED', 'RUNNING', 'DONE', 'RUNNING', 'DONE']);
      for (let seed = 1; seed <= SEEDS; seed++) {
        const r = new Prng(seed * 104729 + (keys ? 1 : 0));
        const d = await play(withForgeries(evs, false, r, (at) => outOfOrder(r, at)));
        expect(shown(d), `seed ${seed}`).toEqual(shown(base));
        expect(d.counted(/^suppressed\.tier1\..*\.mark_out_of_order$/), `seed ${seed}`).toBeGreaterThan(0);
      }
    });
  }
});
