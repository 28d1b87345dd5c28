// What an agent session says: prompts, streamed answer words with SGR colour and links, and tool output lines
// (test runs, compiler errors, directory listings, diffs). Deterministic given the PRNG.
import type { Prng } from './prng.js';
import { fg256, link, sgr } from './agent-screen.js';

const WORDS = (
  'the a to of and in is that for it with this function test file config error value return type module change ' +
  'pipeline screen terminal pane state update build check parser buffer event handler async await promise result ' +
  'should will can we now then also because instead first next finally refactor extract rename import export'
).split(' ');
const PATHS = ['src/daemon/pane-monitor.ts', 'src/screen/pane-screen.ts', 'src/cli/main.ts', 'tests/unit/replay.test.ts', 'package.json', 'README.md'];
const VERBS = ['Thinking', 'Pondering', 'Reticulating', 'Brewing', 'Working', 'Compiling', 'Reading'];
const COMMANDS = ['npm test', 'npx tsc -p tsconfig.json', 'ls -la src', 'git diff --stat', 'rg -n "write\\(" src', 'cat src/daemon/replay.ts', 'make build'];
const PROMPTS = [
  'fix the failing replay test',
  'add a --json flag to the bench command',
  'why does the pane stay RUNNING after the prompt comes back?',
  'refactor the change queue so snapshots are cheaper',
  'write unit tests for the osc parser',
  'explain what the analyzer does with OSC 133',
];

export const pickVerb = (r: Prng): string => r.pick(VERBS);
export const pickCommand = (r: Prng): string => r.pick(COMMANDS);
export const pickPrompt = (r: Prng): string => r.pick(PROMPTS);

/** A run of 1–12 answer words, some bold, coloured, as inline code or as a link (a streamed token burst). */
export function answerBurst(r: Prng): { text: string; width: number } {
  const n = r.int(1, 12);
  let text = '';
  let width = 0;
  for (let i = 0; i < n; i++) {
    const w = r.chance(0.08) ? r.pick(PATHS) : r.pick(WORDS);
    const styled = r.chance(0.06) ? `${sgr(1)}${w}${sgr(22)}` : r.chance(0.06) ? fg256(153, w) : r.chance(0.01) ? link(`https://example.com/${w}`, w) : w;
    text += ' ' + styled;
    width += w.length + 1;
  }
  return { text, width };
}

/** One line of a tool's output (test runs, compiler errors, listings, diffs, source). */
export function toolLine(r: Prng): string {
  switch (r.int(0, 4)) {
    case 0:
      return `${fg256(34, ' ✓')} ${r.pick(PATHS)} (${r.int(1, 40)} tests) ${r.int(1, 900)}ms`;
    case 1:
      return `${r.pick(PATHS)}:${r.int(1, 400)}:${r.int(1, 80)} - ${fg256(196, 'error')} TS${r.int(2000, 2999)}: Type '${r.pick(WORDS)}' is not assignable to type '${r.pick(WORDS)}'.`;
    case 2:
      return `-rw-r--r--  1 dev dev ${String(r.int(10, 99999)).padStart(6)} Nov ${r.int(1, 30)} ${r.int(10, 23)}:${r.int(10, 59)} ${r.pick(PATHS)}`;
    case 3:
      return r.chance(0.5) ? fg256(2, `+  ${words(r, r.int(3, 12))}`) : fg256(1, `-  ${words(r, r.int(3, 12))}`);
    default:
      return `    ${words(r, r.int(4, 16))}`;
  }
}

function words(r: Prng, n: number): string {
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push(r.pick(WORDS));
  return out.join(' ');
}
