// Every profile, fuzzed with generated screens (tests/helpers/screen-fuzz.ts: each agent's markers, boxes, menus and
// prompts in random rows, sizes from 1x1 to 300x100 and orders, empty and full screens, wide characters, very long
// rows, random titles and analyzer facts): no profile throws, and each answers a well-formed classification. Then
// the same kind of screens go through the whole pane pipeline (a real headless terminal, the analyzer, the state
// machine, in virtual time) under every agent choice, with keys, titles, resizes and quiet in between: no exception
// is caught at the pane. Seeded: a failure names the seed and the screen's index, which reproduce it.
import { describe, expect, it } from 'vitest';
import { AGENT_CHOICES, GENERIC_AGENTS, loadConfig, type AgentChoice, type ProgramId } from '../../src/config/config.js';
import { classifyWith, detectProgram } from '../../src/analysis/profiles/index.js';
import { classifyText } from '../../src/cli/classify.js';
import type { Classification } from '../../src/analysis/types.js';
import { markerPool, Prng, ScreenFuzzer } from '../helpers/screen-fuzz.js';
import { PaneFeeder, VALID_STATES } from '../helpers/pane-feeder.js';

const SEED = 0x5afe_14;
/** Screens per profile: a few thousand, bounded to a couple of seconds on a loaded two-core machine. */
const SCREENS = 2500;
/** Screens per agent choice through the whole pipeline (each one painted, keyed and waited on). */
const PIPELINE_SCREENS = 40;
/** Hooks of every agent, with their events and details and some that no agent sends (prototype names too). */
const HOOK_AGENTS = ['claude', 'codex', 'gemini', 'qwen', 'opencode', 'kilo'] as const;
const HOOK_EVENTS = ['Stop', 'StopFailure', 'PreToolUse', 'PostToolUse', 'Notification', 'UserPromptSubmit', 'PermissionRequest', 'SessionStart', 'SessionEnd',
  'AfterAgent', 'BeforeAgent', 'agent-turn-complete', 'chat.message', 'session.status', 'session.idle', 'session.error', 'permission.asked', 'permission.replied',
  'question.asked', 'question.replied', '__proto__', 'constructor', 'toString', '', 'x'.repeat(300)];
const HOOK_DETAILS = ['', 'permission_prompt', 'idle_prompt', 'elicitation_dialog', 'busy', 'idle', 'retry', 'reject', 'once', 'MessageAbortedError', '__proto__', 'constructor'];
/** In-band marks in every shape, valid or not: shell integration, Codex's OSC 7501, notifications. */
const IN_BAND: ReadonlyArray<(r: Prng) => string> = [
  (r) => `\x1b]133;${r.pick(['A', 'B', 'C', 'D', 'D;0', 'D;1', 'D;x', 'E;ls', 'P;k=v', 'Z', ''])}\x07`,
  (r) => `\x1b]633;${r.pick(['A', 'B', 'C', 'D;2', 'E;make\\x20test;nonce', 'P;Cwd=/tmp', ''])}\x07`,
  (r) => `\x1b]7501;${r.pick(['working', 'blocked', 'done', 'error', 'idle', 'nonsense', ''])}${r.chance(0.5) ? ';reason=x;=;;k' : ''}\x07`,
  (r) => `\x1b]${r.pick(['9', '777;notify'])};${r.pick(['title', '', ';;;'])};body\x07`,
];
const VERDICTS = new Set(['working', 'waiting', 'ready', 'failed', 'unknown', 'resting']);

const cfg = loadConfig();
const pool = markerPool(cfg);
/** The profiles with code of their own; the generic agents share the generic tier's, taken in turn. */
const OWN: ProgramId[] = ['claude', 'codex', 'gemini', 'qwen', 'opencode', 'kilo', 'shell', 'generic'];

function malformed(c: Classification, program: ProgramId): string | null {
  if (!VERDICTS.has(c.verdict)) return `verdict ${String(c.verdict)}`;
  if (typeof c.rule !== 'string' || !c.rule) return `rule ${String(c.rule)}`;
  if (typeof c.line !== 'string') return `line ${String(c.line)}`;
  if (c.program !== program) return `program ${c.program} (asked ${program})`;
  return null;
}

describe('profiles under generated screens', () => {
  it(`${SCREENS} screens × every profile: no exception, a well-formed answer`, () => {
    const fuzz = new ScreenFuzzer(new Prng(SEED), pool);
    const failures: string[] = [];
    for (let i = 0; i < SCREENS && failures.length < 10; i++) {
      const s = fuzz.screen();
      const ctx = { ...s.ctx, cfg };
      for (const program of [...OWN, GENERIC_AGENTS[i % GENERIC_AGENTS.length]!]) {
        try {
          const bad = malformed(classifyWith(program, s.snap, ctx), program);
          if (bad) failures.push(`seed ${SEED} screen ${i} (${s.how}) ${program}: ${bad}`);
        } catch (e) {
          failures.push(`seed ${SEED} screen ${i} (${s.how}) ${program}: ${(e as Error).stack?.split('\n').slice(0, 3).join(' ')}`);
        }
      }
      try {
        detectProgram(cfg, { title: s.snap.title, lines: s.snap.lines, command: s.snap.lines[0] ?? '', process: s.snap.title });
      } catch (e) {
        failures.push(`seed ${SEED} screen ${i} (${s.how}) detection: ${(e as Error).message}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it('the screen Gemini CLI leaves after /quit (issue 14: it threw from the profile) classifies without throwing', async () => {
    // As issue 14 gives it: the input box with /quit, then the session summary printed below it.
    const text = `${'▄'.repeat(60)}\n > /quit\n${'▀'.repeat(60)}\n${[1, 2, 3, 4, 5, 6, 7, 8].map((i) => `  summary ${i}`).join('\n')}\n`;
    const c = await classifyText(text, cfg, 'gemini');
    expect(c).toMatchObject({ program: 'gemini', verdict: 'unknown', line: '' });
    // The box is an echo now (the CLI has gone): nothing on this screen says it is ready.
    expect(c.rule).toBe('gemini.no_marker');
  });
});

describe('the pane pipeline under generated screens', () => {
  const choices = AGENT_CHOICES.filter((a) => a === 'auto' || !(GENERIC_AGENTS as readonly string[]).includes(a) || a === GENERIC_AGENTS[0]) as AgentChoice[];

  it.each(choices)('--agent %s: painted, keyed, resized and left quiet, no exception reaches the pane', async (agent) => {
    const r = new Prng(SEED ^ agent.length ^ agent.charCodeAt(0));
    const fuzz = new ScreenFuzzer(r, pool);
    const feeder = new PaneFeeder({ agent });
    const faults: string[] = [];
    feeder.monitor.onFault((f) => faults.push(`${f.stage}.${f.step} (${f.program}): ${f.error.stack?.split('\n').slice(0, 3).join(' ')}`));
    try {
      for (let i = 0; i < PIPELINE_SCREENS; i++) {
        const s = fuzz.screen();
        await feeder.feed({ kind: 'resize', cols: s.snap.cols, rows: s.snap.rows }, r.int(0, 50));
        if (r.chance(0.3)) await feeder.output(`\x1b]0;${s.snap.title}\x07`, r.int(0, 20));
        if (r.chance(0.2)) await feeder.output(r.chance(0.5) ? '\x1b[?1049h' : '\x1b[?1049l');
        if (r.chance(0.3)) await feeder.output(r.chance(0.5) ? '\x1b[?2004h' : '\x1b[?2004l');
        await feeder.output('\x1b[H\x1b[2J' + s.snap.lines.join('\r\n'), r.int(0, 300));
        if (r.chance(0.4)) await feeder.input(r.pick(['\r', '\x1b', '\x03', 'y', 'hello\r', '\t', '1']), r.int(0, 500));
        if (r.chance(0.2)) await feeder.feed({ kind: 'process', name: r.pick(['bash', 'claude', 'node', 'gemini', 'vim', 'sleep']) }, r.int(0, 100));
        if (r.chance(0.15)) feeder.monitor.hook(feeder.t, { kind: 'hook', agent: r.pick(HOOK_AGENTS), event: r.pick(HOOK_EVENTS), detail: r.pick(HOOK_DETAILS), session: r.pick(['', 's1', 's2']) }, r.pick(pool));
        if (r.chance(0.15)) await feeder.output(r.pick(IN_BAND)(r), r.int(0, 50));
        if (r.chance(0.2)) await feeder.settle(r.int(0, 20_000));
      }
      await feeder.settle(30_000);
    } finally {
      feeder.stop();
    }
    expect(faults).toEqual([]);
    expect(VALID_STATES).toContain(feeder.state);
  });
});
