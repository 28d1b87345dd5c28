// The pure parts of `status` and `wait`: a pane's line (columns, marks, colour only when asked) and which pane a
// PANE argument names (an id, else the one live pane of that name; ambiguity and absence are explained).
import { describe, expect, it } from 'vitest';
import { choosePanes, statusLines } from '../../src/cli/status.js';
import { resolvePane } from '../../src/cli/wait.js';
import { painter } from '../../src/cli/colors.js';
import { fakePane } from '../helpers/web-fake-api.js';

const NOW = 1_700_000_000_000;

describe('status lines', () => {
  it('state, age, name, program, needs-you, why and id, aligned; stalled and closed marked', () => {
    const lines = statusLines(
      [
        fakePane('run-1', { name: 'api', program: 'claude', state: 'DONE', needsYou: true, since: NOW - 42_000, rule: 'claude.done_marker', line: '✻ Churned for 3s' }),
        fakePane('tmux:default:%1', { name: 'work:0.1', program: 'shell', state: 'RUNNING', stalled: true, since: NOW - 187_000, startedAt: NOW - 187_000, rule: 'shell.command_running', line: 'npm test' }),
        fakePane('old', { name: 'old', state: 'IDLE', alive: false, since: NOW - 90_000_000, rule: 'daemon.restarted', line: '' }),
      ],
      NOW,
      painter('none'),
    );
    expect(lines[0]).toBe('✓ DONE                  42s  api       claude   ● needs you  claude.done_marker "✻ Churned for 3s"  [run-1]');
    expect(lines[1]).toBe('◐ RUNNING            3m 07s  work:0.1  shell                 ⚠ stalled  shell.command_running "npm test"  [tmux:default:%1]');
    expect(lines[2]).toBe('○ IDLE                1d 1h  old       shell                 closed  daemon.restarted  [old]');
  });

  it("a shell's DONE read from its screen says that its exit code is not known", () => {
    const [line] = statusLines([fakePane('tmux:default:%2', { name: 'work:0.2', state: 'DONE', needsYou: true, since: NOW - 5_000, rule: 'shell.prompt_bracketed_paste', line: '$', exitCodeUnknown: true })], NOW, painter('none'));
    expect(line).toBe('✓ DONE                   5s  work:0.2  shell    ● needs you  exit codes unknown: install shell integration  shell.prompt_bracketed_paste "$"  [tmux:default:%2]');
  });

  it('a pane whose analysis threw says so, with the stage', () => {
    const analysisError = { at: NOW - 1_000, stage: 'analysis', step: 'output', program: 'gemini', message: "TypeError: Cannot read properties of undefined (reading 'trim')", count: 3 };
    const [line] = statusLines([fakePane('run-2', { name: 'gem', program: 'gemini', state: 'RUNNING', since: NOW - 5_000, startedAt: NOW - 5_000, rule: 'gemini.working_marker', line: '', analysisError })], NOW, painter('none'));
    expect(line).toBe('◐ RUNNING                5s  gem   gemini                analysis error (analysis)  gemini.working_marker  [run-2]');
  });

  it('colours the state and the needs-you mark in the dashboard colour of the state', () => {
    const [line] = statusLines([fakePane('p', { state: 'FAILED', needsYou: true })], NOW, painter('truecolor'));
    expect(line).toContain('\x1b[1;38;2;248;81;73m✗ FAILED');
    expect(line).toContain('\x1b[1;38;2;248;81;73m● needs you\x1b[0m');
  });
});

// Issue 26 item 15: with 20 panes the WAITING rows were lines 7, 13, 14; a LONG_RUNNING pane said "2s ⚠ stalled"
// (since it became LONG_RUNNING) where its card said "running 2 m 09 s" (since its work began).
describe('status order and time', () => {
  const panes = [
    fakePane('i', { state: 'IDLE', since: NOW - 50_000 }),
    fakePane('r', { state: 'RUNNING', since: NOW - 10_000 }),
    fakePane('w1', { state: 'WAITING_APPROVAL', needsYou: true, since: NOW - 30_000 }),
    fakePane('d', { state: 'DONE', needsYou: true, since: NOW - 5_000 }),
    fakePane('c', { state: 'DONE', alive: false, since: NOW - 1_000 }),
    fakePane('f', { state: 'FAILED', needsYou: true, since: NOW - 40_000 }),
    fakePane('w2', { state: 'WAITING_APPROVAL', needsYou: true, since: NOW - 2_000 }),
    fakePane('s', { state: 'LONG_RUNNING', stalled: true, needsYou: true, since: NOW - 2_000, startedAt: NOW - 129_000 }),
  ];

  it('lists the panes that need you first, by urgency, newest first within each; closed only with --all', () => {
    expect(choosePanes(panes, { all: false, needsYou: false }).map((p) => p.id)).toEqual(['w2', 'w1', 'f', 's', 'd', 'r', 'i']);
    expect(choosePanes(panes, { all: true, needsYou: false }).map((p) => p.id).at(-1)).toBe('c');
    expect(choosePanes(panes, { all: true, needsYou: true }).map((p) => p.id)).toEqual(['w2', 'w1', 'f', 's', 'd']);
  });

  it("a busy pane's time is its work's, as on its card", () => {
    const [line] = statusLines([panes.at(-1)!], NOW, painter('none'));
    expect(line).toMatch(/^◕ LONG_RUNNING +2m 09s /);
    expect(line).toContain('⚠ stalled');
  });
});

describe('status grouped by host', () => {
  it('lists this machine first, then each host under its name; an unreachable host says since when and why', () => {
    const at = new Date(NOW - 30_000).toTimeString().slice(0, 8);
    const lines = statusLines(
      [
        fakePane('run-1', { name: 'api', state: 'IDLE', since: NOW - 5_000, rule: 'attach.new', line: '' }),
        fakePane('devbox:%3', { name: 'work:0.3', state: 'DONE', needsYou: true, since: NOW - 90_000, host: 'devbox', unreachable: { since: NOW - 30_000, reason: 'the ssh connection to devbox was lost' }, rule: 'shell.prompt_bracketed_paste', line: '$' }),
        fakePane('gpu:%1', { name: 'train:0.0', state: 'RUNNING', since: NOW - 60_000, startedAt: NOW - 60_000, host: 'gpu', rule: 'job.started', line: 'python' }),
      ],
      NOW,
      painter('none'),
    );
    expect(lines.map((l) => l.replace(/\s+/g, ' '))).toEqual([
      '── this machine ──',
      '○ IDLE 5s api shell attach.new [run-1]',
      `── devbox ── unreachable since ${at} (the ssh connection to devbox was lost): last states shown`,
      '✓ DONE 1m 30s work:0.3 shell ● needs you stale shell.prompt_bracketed_paste "$" [devbox:%3]',
      '── gpu ──',
      '◐ RUNNING 1m 00s train:0.0 shell job.started "python" [gpu:%1]',
    ]);
  });
});

describe('wait: which pane', () => {
  const panes = [fakePane('run-1', { name: 'api' }), fakePane('run-2', { name: 'api', alive: false }), fakePane('run-3', { name: 'twin' }), fakePane('run-4', { name: 'twin' })];

  it('an id, else the one live pane of that name', () => {
    expect(resolvePane('run-2', panes)).toMatchObject({ id: 'run-2' });
    expect(resolvePane('api', panes)).toMatchObject({ id: 'run-1' });
  });

  it('explains an ambiguous or unknown name, listing the panes', () => {
    expect(resolvePane('twin', panes)).toBe('"twin" names 2 panes: use an id\n  run-3  twin  IDLE\n  run-4  twin  IDLE');
    const unknown = resolvePane('nope', panes) as string;
    expect(unknown).toMatch(/^no pane "nope"; known panes \(id, name, state\):/);
    expect(unknown).toContain('  run-2  api  IDLE (closed)');
    expect(resolvePane('nope', [])).toBe('no pane "nope": the daemon has no panes');
  });
});
