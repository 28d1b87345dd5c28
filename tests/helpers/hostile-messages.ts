// Hostile variants of the messages that reach the daemon from outside its process (a peer daemon's /ws feed, a `run`
// wrapper's pane link and the daemon's replies to it, the iTerm2 bridge, hook POSTs): each valid sample with one
// field, anywhere in it, replaced by null, a wrong type, a huge string or a huge list, or removed; and whole
// messages that are not objects at all. Seeded, so a failure names a case that reproduces.
import { Prng } from '../../src/bench/prng.js';

/** A string far beyond any field's bound (1 MiB). */
export const HUGE_STRING = 'A'.repeat(1 << 20);
/** A list far beyond any count's bound. */
export const HUGE_COUNT = 100_000;

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

const pane = (id: string): Json => ({
  id, name: 'api', program: 'claude', state: 'RUNNING', since: 5000, startedAt: 4000, source: 'profile', tier: 2, rule: 'claude.spinner',
  line: '✳ Thinking', stalled: false, cols: 80, rows: 24, attach: 'run', command: 'claude', alive: true, needsYou: false, edge: ['✳ Thinking'],
  shellIntegration: false, exitCodeUnknown: false, analysisError: null, rev: 3, question: { text: 'Proceed?', options: [{ id: '1', label: 'Yes', keys: 'Enter' }] },
  where: { host: 'box', tty: '/dev/pts/3', pid: 42 },
});
const transition: Json = { paneId: 'run-1', at: 6000, from: 'RUNNING', to: 'DONE', tier: 2, source: 'profile', rule: 'claude.done', line: '✓ done', stalled: false, startedAt: 4000, startedAtKept: true };

export const PEER_SAMPLES: Json[] = [
  { type: 'hello', version: '0.1.0', panes: [pane('run-1'), pane('run-2')] },
  { type: 'pane', pane: pane('run-1') },
  { type: 'transition', transition },
  { type: 'pane_removed', id: 'run-2' },
  { type: 'action', action: { paneId: 'run-1', at: 7000, kind: 'reply', origin: 'cli', from: '127.0.0.1', keys: 'go Enter', detail: 'go', rev: 3 } },
];

export const LINK_SAMPLES: Json[] = [
  { type: 'hello', v: 1, id: 'run-fuzz-1', name: 'fuzz', agent: 'auto', command: 'bash', cols: 80, rows: 24, pid: 42, host: 'box', tty: '/dev/pts/3' },
  { type: 'output', data: 'hello\r\n$ ' },
  { type: 'input', data: 'ls\r' },
  { type: 'resize', cols: 100, rows: 30 },
  { type: 'process', name: 'node', pid: 43, names: ['node', 'claude'], reading: true },
  { type: 'command', phase: 'finished', exitCode: 0 },
  { type: 'exit', code: 0, signal: null },
];

export const LINK_REPLY_SAMPLES: Json[] = [
  { type: 'welcome', v: 1, id: 'run-fuzz-1' },
  { type: 'bell', data: '\x07' },
  { type: 'send', data: 'fix the tests\r' },
  { type: 'error', message: 'bad' },
];

export const BRIDGE_SAMPLES: Json[] = [
  { type: 'hello', v: 1, bridge: '1.0', iterm2: '3.5' },
  { type: 'sessions', sessions: [{ session: 'w0t0p0:ABC', name: 'zsh', cols: 80, rows: 24, command: 'zsh' }] },
  { type: 'screen', session: 'w0t0p0:ABC', rows: ['$ ls', 'a b c'], cursor: { x: 2, y: 0 }, cols: 80 },
  { type: 'prompt', session: 'w0t0p0:ABC', event: 'command_end', command: 'ls', status: 0 },
  { type: 'variable', session: 'w0t0p0:ABC', name: 'jobName', value: 'vim' },
  { type: 'focus', session: 'w0t0p0:ABC' },
  { type: 'key', session: 'w0t0p0:ABC', key: 'enter' },
  { type: 'activated', session: 'w0t0p0:ABC', id: 1, ok: false, error: 'gone' },
];

export const HOOK_SAMPLES: Json[] = [
  { v: 1, agent: 'claude', event: 'Stop', detail: '', message: 'done', session: 's1', input: '', cwd: '/tmp', pane: { id: 'run-fuzz-1', tty: '/dev/pts/3' } },
  { v: 1, agent: 'codex', event: 'agent-turn-complete', pane: { tmuxPane: '%3', tmuxSocket: '/tmp/tmux-0/default' } },
];

/** What a field may be replaced with. `big`: include the huge values (slower to serialise). */
function hostileValue(r: Prng, big: boolean): Json | undefined {
  const small: Array<Json | undefined> = [null, undefined, 0, -1, 1.5, 1e308, -1e308, true, false, '', 'x', '\u0000\u001b[201~', [], {}, [null], { type: null }, '__proto__', 9007199254740993];
  if (big && r.next() < 0.15) return r.next() < 0.5 ? HUGE_STRING : new Array<Json>(HUGE_COUNT).fill(null);
  return small[r.int(0, small.length - 1)];
}

/** Every path to a value in `v` (object keys and list indexes). */
function paths(v: Json, at: Array<string | number> = [], out: Array<Array<string | number>> = []): Array<Array<string | number>> {
  if (v !== null && typeof v === 'object') {
    for (const [k, x] of Array.isArray(v) ? v.map((x, i) => [i, x] as const) : Object.entries(v)) {
      out.push([...at, k]);
      paths(x as Json, [...at, k], out);
    }
  }
  return out;
}

/** `sample` with the value at one random path replaced (or removed). */
export function mutate(sample: Json, r: Prng, big = true): Json {
  const copy = JSON.parse(JSON.stringify(sample)) as Json;
  const all = paths(copy);
  if (!all.length || r.next() < 0.05) return hostileValue(r, big) ?? null;
  const path = all[r.int(0, all.length - 1)]!;
  let parent = copy as Record<string | number, Json>;
  for (const k of path.slice(0, -1)) parent = parent[k] as Record<string | number, Json>;
  const last = path[path.length - 1]!;
  const v = hostileValue(r, big);
  if (v === undefined && !Array.isArray(parent)) delete parent[last];
  else parent[last] = v ?? null;
  return copy;
}

/** `n` hostile variants of `samples`, as JSON text (whole non-objects among them). */
export function hostileTexts(samples: Json[], n: number, seed: number, big = true): string[] {
  const r = new Prng(seed);
  const out = ['null', '[]', '42', '"hello"', '{}', '{"type":null}', 'not json', '{"type":"hello","panes":"notarray"}'];
  while (out.length < n) out.push(JSON.stringify(mutate(samples[r.int(0, samples.length - 1)]!, r, big)));
  return out;
}
