// `status` with panes of other machines (peer daemons, remote tmux): this machine's panes first, then each host's
// under its name, columns aligned across all; a host that cannot be reached says so once, its panes marked stale.
import { describe, expect, it } from 'vitest';
import { statusLines } from '../../src/cli/status.js';
import { painter } from '../../src/cli/colors.js';
import { fakePane } from '../helpers/web-fake-api.js';

const NOW = 1_700_000_000_000;

describe('status grouped by host', () => {
  it('lists this machine, then each host in the order met, with an unreachable host said once', () => {
    const down = { since: NOW - 30_000, reason: 'its feed closed (1006: connection lost)' };
    const lines = statusLines(
      [
        fakePane('mac:run-1', { name: 'api', program: 'claude', state: 'DONE', needsYou: true, since: NOW - 42_000, rule: 'claude.done_marker', line: '', host: 'mac' }),
        fakePane('run-2', { name: 'tests', program: 'shell', state: 'RUNNING', since: NOW - 5_000, startedAt: NOW - 5_000, rule: 'run.command_executed', line: '' }),
        fakePane('devbox:%3', { name: 'build:0.1', program: 'shell', state: 'IDLE', since: NOW - 60_000, rule: 'attach.new', line: '', host: 'devbox', unreachable: down }),
        fakePane('mac:run-7', { name: 'review', program: 'codex', state: 'RUNNING', since: NOW - 3_000, startedAt: NOW - 3_000, rule: 'codex.working', line: '', host: 'mac' }),
      ],
      NOW,
      painter('none'),
    );
    expect(lines.map((l) => l.replace(/since \d\d:\d\d:\d\d /, 'since T '))).toEqual([
      '── this machine ──',
      '◐ RUNNING                5s  tests      shell                 run.command_executed  [run-2]',
      '── mac ──',
      '✓ DONE                  42s  api        claude   ● needs you  claude.done_marker  [mac:run-1]',
      '◐ RUNNING                3s  review     codex                 codex.working  [mac:run-7]',
      '── devbox ──  unreachable since T (its feed closed (1006: connection lost)): last states shown',
      '○ IDLE               1m 00s  build:0.1  shell                 stale  attach.new  [devbox:%3]',
    ]);
  });

  it('stays one flat list when every pane is this machine\'s', () => {
    const lines = statusLines([fakePane('run-2', { name: 'tests', state: 'IDLE', since: NOW - 5_000, rule: 'attach.new', line: '' })], NOW, painter('none'));
    expect(lines).toEqual(['○ IDLE                   5s  tests  shell                 attach.new  [run-2]']);
  });
});
