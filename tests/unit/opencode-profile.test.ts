// The opencode profile (also Kilo Code CLI's) on screens painted into a real headless terminal: what is read where
// (the status row, the dialog below the turn's footer, the current turn's footer), what is never read (older turns,
// an answer quoting the words), Kilo's own words added to opencode's, and which program the detection names.
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config.js';
import { classifyWith, detectProgram } from '../../src/analysis/profiles/index.js';
import { paint } from '../helpers/screen-fixtures.js';
import { ctx, screenOf } from '../helpers/screen.js';

const cfg = loadConfig();
const COLS = 100;

const box = (agent = 'Build') => ['  ┃', '  ┃', '  ┃', `  ┃  ${agent} · Fake Model Fake`, '  ╹' + '▀'.repeat(60)];
const atRest = '   ~/proj                                              120 (0%)  ctrl+p commands';
const working = '   ■■■■⬝⬝⬝⬝  esc interrupt                              tab agents  ctrl+p commands';
const turn = (prompt: string, ...rows: string[]) => ['  ┃', `  ┃  ${prompt}`, '  ┃', '', ...rows];

async function classify(rows: string[], program: 'opencode' | 'kilo' = 'opencode', size: [number, number] = [COLS, 30]) {
  const snap = await screenOf('\x1b[?1049h' + paint(rows), size[0], size[1]);
  return classifyWith(program, snap, ctx(cfg));
}

describe('opencode profile: the live edge', () => {
  it('the scanner and "esc interrupt" in the status row under the input box: working', async () => {
    const cls = await classify([...turn('hi', '     ▣  Build · Fake Model'), '', ...box(), working]);
    expect(cls).toMatchObject({ verdict: 'working', rule: 'opencode.status_row' });
  });

  it('a retry in the status row is still working', async () => {
    const cls = await classify([...turn('hi', '     ▣  Build · Fake Model'), '', ...box(), '   ⬝⬝⬝⬝⬝⬝⬝⬝ Rate limit reached [retrying in 2s attempt #1]  esc']);
    expect(cls).toMatchObject({ verdict: 'working', rule: 'opencode.status_row' });
  });

  it('"esc interrupt" quoted in an answer is not read as working', async () => {
    const cls = await classify([...turn('what does esc do?', '     Press esc interrupt twice to stop a turn.', '', '     ▣  Build · Fake Model · 2.1s'), '', ...box(), atRest]);
    expect(cls).toMatchObject({ verdict: 'ready', rule: 'opencode.done_marker', explicit: true });
  });

  it('the footer with a duration and the input box back: DONE, explicitly', async () => {
    const cls = await classify([...turn('hi', '     Hello!', '', '     ▣  Build · Fake Model · 850ms'), '', ...box(), atRest]);
    expect(cls).toMatchObject({ verdict: 'ready', rule: 'opencode.done_marker', line: '▣  Build · Fake Model · 850ms' });
  });

  it('an older turn\'s finished footer is not this turn\'s: the current footer has no duration yet', async () => {
    const rows = [...turn('first', '     First answer.', '', '     ▣  Build · Fake Model · 4.3s'), ...turn('second', '     $ rm -rf build', '', '     ▣  Build · Fake Model'), '', ...box(), atRest];
    const cls = await classify(rows);
    expect(cls).toMatchObject({ verdict: 'ready', rule: 'opencode.turn_stopped', explicit: false });
    expect(cls.liveEdge.join('\n')).not.toContain('First answer');
  });

  it('an error block right above a footer without duration: FAILED (a block further up is not)', async () => {
    const error = await classify([...turn('hi', '  ┃  Invalid request: the model rejected the prompt', '  ┃', '', '     ▣  Build · Fake Model'), '', ...box(), atRest]);
    expect(error).toMatchObject({ verdict: 'failed', rule: 'opencode.error_block', line: '┃  Invalid request: the model rejected the prompt' });
    const toolThenRejected = await classify([...turn('hi', '  ┃  $ ls', '  ┃  a.txt', '  ┃', '', '     $ rm -rf build', '', '     ▣  Build · Fake Model'), '', ...box(), atRest]);
    expect(toolThenRejected).toMatchObject({ verdict: 'ready', rule: 'opencode.turn_stopped' });
  });

  it('an interrupted footer: the turn is over (DONE)', async () => {
    const cls = await classify([...turn('hi', '     + Thought: 3.7s', '', '     ▣  Build · Fake Model · interrupted'), '', ...box(), atRest]);
    expect(cls).toMatchObject({ verdict: 'ready', rule: 'opencode.interrupted', explicit: true });
  });

  it('the permission dialog in place of the input box: waiting', async () => {
    const dialog = ['  ┃', '  ┃  △ Permission required', '  ┃    # Shell command', '  ┃', '  ┃  $ ls -la', '  ┃', '  ┃   Allow once   Allow always   Reject        ⇆ select  enter confirm'];
    const cls = await classify([...turn('list', '     $ ls -la', '', '     ▣  Build · Fake Model'), '', ...dialog]);
    expect(cls).toMatchObject({ verdict: 'waiting', rule: 'opencode.permission_dialog', explicit: true });
  });

  it('the dialog\'s words quoted in an answer, with the input box on screen, are no dialog', async () => {
    const cls = await classify([...turn('what does it ask?', '     It shows △ Permission required and Allow once   Allow always   Reject.', '', '     ▣  Build · Fake Model · 1.0s'), '', ...box(), atRest]);
    expect(cls.verdict).toBe('ready');
  });

  it('no turn on screen yet (the start screen, or the first prompt just sent): says nothing', async () => {
    const cls = await classify(['', '', '              opencode', '', ...box(), '                     tab agents  ctrl+p commands']);
    expect(cls).toMatchObject({ verdict: 'unknown', rule: 'opencode.no_turn_yet' });
  });
});

describe('Kilo Code CLI: opencode\'s profile with its own words added', () => {
  const reject = ['  ┃', '  ┃  Tell Kilo what to do differently', '  ┃'];
  it('its reject follow-up question is waiting for Kilo, and means nothing to opencode', async () => {
    const rows = [...turn('clean', '     $ rm -rf build', '', '     ▣  Code · Fake Model'), '', ...reject];
    expect(await classify(rows, 'kilo')).toMatchObject({ verdict: 'waiting', rule: 'kilo.permission_dialog' });
    expect((await classify(rows, 'opencode')).verdict).toBe('unknown');
  });

  it('reads opencode\'s markers under its own name', async () => {
    const cls = await classify([...turn('hi', '     Hello!', '', '     ▣  Code · Fake Model · 1.4s'), '', ...box('Code'), atRest], 'kilo');
    expect(cls).toMatchObject({ verdict: 'ready', rule: 'kilo.done_marker', program: 'kilo' });
  });
});

describe('detection: opencode and Kilo each named as themselves', () => {
  const cases: Array<[string, Parameters<typeof detectProgram>[1], string | null]> = [
    ['opencode process', { process: 'opencode' }, 'opencode'],
    ['opencode started by its file name', { process: 'opencode.exe' }, 'opencode'],
    ['Kilo native binary', { process: '.kilo' }, 'kilo'],
    ['Kilo npm wrapper is a node process: a shell-like runtime, not opencode', { process: 'node' }, 'shell'],
    ['opencode command line', { command: '/usr/local/bin/opencode --continue' }, 'opencode'],
    ['Kilo command line', { command: 'kilo' }, 'kilo'],
    ['kilocode command line', { command: '/usr/lib/node_modules/.bin/kilocode run' }, 'kilo'],
    ['opencode title at start', { title: 'OpenCode' }, 'opencode'],
    ['opencode title with a session', { title: 'OC | Fake session' }, 'opencode'],
    ['Kilo title', { title: 'Kilo CLI | Fake session' }, 'kilo'],
    ['a title merely mentioning opencode', { title: 'notes about OpenCode plugins' }, null],
    ['opencode placeholder', { lines: ['  ┃  Ask anything… "Fix a TODO in the codebase"'] }, 'opencode'],
    ['Kilo placeholder', { lines: ['  ┃  Ask anything... "Fix broken tests"'] }, 'kilo'],
    ['the status row both draw', { lines: ['   ~/proj      120 (0%)  ctrl+p commands'] }, 'opencode'],
  ];
  for (const [what, input, program] of cases) {
    it(`${what} → ${program ?? 'nothing'}`, () => {
      expect(detectProgram(cfg, input)?.program ?? null).toBe(program);
    });
  }

  it('Kilo\'s title wins over the screen it shares with opencode', () => {
    expect(detectProgram(cfg, { title: 'Kilo CLI', lines: ['   tab agents  ctrl+p commands'] })?.program).toBe('kilo');
  });
});
