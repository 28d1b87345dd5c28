// Agent screens kept as text files: tests/fixtures/screens/<agent>/<name>.txt, a small header of `key: value`
// lines, a `---` line, then the screen's rows. The header says what the screen must classify as and where the
// screen comes from (docs/agents.md lists the same sources).
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Verdict } from '../../src/analysis/types.js';
import { ROOT } from './screen.js';

export const SCREENS = join(ROOT, 'tests', 'fixtures', 'screens');
export const SCREEN_AGENTS = ['claude', 'codex', 'gemini', 'opencode', 'kilo'] as const;
export type ScreenAgent = (typeof SCREEN_AGENTS)[number];

export interface ScreenFixture {
  agent: ScreenAgent;
  name: string;
  verdict: Verdict;
  rule: string;
  cols: number;
  rows: number;
  /** The window title the pane had ('' = none: older versions and tmux without titles). */
  title: string;
  /** Text the classification's line must contain. */
  line?: string;
  source: string;
  versions: string;
  /** The screen's rows, top to bottom. */
  body: string[];
}

const VERDICTS: readonly Verdict[] = ['working', 'waiting', 'ready', 'failed', 'unknown'];

export function parseScreenFixture(agent: ScreenAgent, name: string, text: string): ScreenFixture {
  const lines = text.replace(/\n$/, '').split('\n');
  const sep = lines.indexOf('---');
  if (sep < 0) throw new Error(`${agent}/${name}: no --- line after the header`);
  const head = new Map<string, string>();
  for (const l of lines.slice(0, sep)) {
    const m = /^([a-z]+):\s?(.*)$/.exec(l);
    if (!m) throw new Error(`${agent}/${name}: bad header line ${JSON.stringify(l)}`);
    head.set(m[1]!, m[2]!);
  }
  const need = (k: string): string => {
    const v = head.get(k);
    if (!v) throw new Error(`${agent}/${name}: header "${k}" missing`);
    return v;
  };
  const verdict = need('verdict') as Verdict;
  if (!VERDICTS.includes(verdict)) throw new Error(`${agent}/${name}: unknown verdict ${verdict}`);
  const size = /^(\d+)x(\d+)$/.exec(need('size'));
  if (!size) throw new Error(`${agent}/${name}: size must be COLSxROWS`);
  const body = lines.slice(sep + 1);
  const rows = Number(size[2]);
  if (body.length > rows) throw new Error(`${agent}/${name}: ${body.length} rows do not fit ${rows}`);
  return {
    agent,
    name,
    verdict,
    rule: need('rule'),
    cols: Number(size[1]),
    rows,
    title: head.get('title') ?? '',
    line: head.get('line') || undefined,
    source: need('source'),
    versions: need('versions'),
    body,
  };
}

export function loadScreenFixtures(): ScreenFixture[] {
  const out: ScreenFixture[] = [];
  for (const agent of SCREEN_AGENTS) {
    for (const f of readdirSync(join(SCREENS, agent)).filter((x) => x.endsWith('.txt')).sort()) {
      out.push(parseScreenFixture(agent, f.replace(/\.txt$/, ''), readFileSync(join(SCREENS, agent, f), 'utf8')));
    }
  }
  return out;
}

/** The bytes that paint the screen from the top-left corner (cursor left where the last row ends). */
export function paint(body: readonly string[]): string {
  return '\x1b[H\x1b[2J' + body.join('\r\n');
}
