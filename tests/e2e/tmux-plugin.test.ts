// The tmux plugin (tmux/termsupervisor.tmux, loaded the way TPM or a `run-shell` line loads it) in a clean tmux
// (-f /dev/null): it changes the status line's and window list's formats and binds prefix N and prefix T, nothing
// else (no other option, hook, key or environment; no shell command on a timer), keeps what the person had, and
// loading it twice adds nothing twice. `termsupervisor tmux snippet` prints the lines it loads.
import { beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { ensureBuilt } from '../helpers/build.js';
import { daemonDirs } from './daemon-harness.js';
import { BIN, ROOT } from './harness.js';
import { BASH, TestTmux, tmuxMissing } from '../helpers/tmux-server.js';

const missing = tmuxMissing();
const PLUGIN = join(ROOT, 'tmux', 'termsupervisor.tmux');

beforeAll(() => ensureBuilt(), 120_000);

/** Everything a plugin could change: options at every scope, key tables, hooks, the global environment. */
function snapshot(tmux: TestTmux): Map<string, string> {
  const out = new Map<string, string>();
  const add = (kind: string, lines: string) => {
    for (const l of lines.split('\n').filter(Boolean)) out.set(`${kind} ${l.split(' ')[0]} ${kind === 'key' ? l : ''}`, l);
  };
  add('server', tmux.run('show-options', '-s'));
  add('session', tmux.run('show-options', '-g'));
  add('window', tmux.run('show-options', '-gw'));
  add('key', tmux.run('list-keys').replace(/ +/g, ' '));
  add('hook', tmux.run('show-hooks', '-g'));
  add('env', tmux.run('show-environment', '-g'));
  return out;
}

function diff(before: Map<string, string>, after: Map<string, string>): string[] {
  const keys = new Set([...before.keys(), ...after.keys()]);
  return [...keys].filter((k) => before.get(k) !== after.get(k)).map((k) => after.get(k) ?? `removed: ${before.get(k)}`).sort();
}

describe.skipIf(missing !== null)('the tmux plugin', () => {
  it('adds the marks to the formats and two keys, nothing else; twice is once; keys off is no keys', () => {
    const d = daemonDirs();
    const tmux = new TestTmux(d.env);
    try {
      tmux.newSession('s', BASH, 80, 24);
      tmux.run('set', '-g', 'status-right', 'mine');
      const before = snapshot(tmux);
      tmux.run('run-shell', PLUGIN);
      const once = snapshot(tmux);
      const changed = diff(before, once);
      expect(changed.map((l) => l.split(' ').slice(0, l.startsWith('bind-key') ? 4 : 1).join(' '))).toEqual([
        '@termsupervisor_bin',
        'bind-key -T prefix N',
        'bind-key -T prefix T',
        'status-right',
        'window-status-current-format',
        'window-status-format',
      ]);
      // The person's own status-right stays, after ours; the window formats keep theirs, with the mark after it.
      expect(tmux.run('show', '-gv', 'status-right').trim()).toBe('#{@termsupervisor_status}mine');
      expect(tmux.run('show', '-gv', 'window-status-format').trim()).toBe('#I:#W#{?window_flags,#{window_flags}, }#{?#{@termsupervisor_mark},#{@termsupervisor_mark},}');
      // The command is this checkout's; the keys run it (no shell command anywhere in the status line).
      expect(tmux.run('show', '-gv', '@termsupervisor_bin').trim()).toBe(BIN);
      expect(once.get('session status-interval ')).toBe(before.get('session status-interval '));
      expect(tmux.run('show', '-gv', 'status-right') + tmux.run('show', '-gv', 'window-status-format')).not.toContain('#(');
      // Twice: the same.
      tmux.run('run-shell', PLUGIN);
      expect(diff(once, snapshot(tmux))).toEqual([]);
    } finally {
      tmux.kill(true);
    }
    // With @termsupervisor_keys off: the formats only.
    const t2 = new TestTmux(d.env);
    try {
      t2.newSession('s', BASH, 80, 24);
      t2.run('set', '-g', '@termsupervisor_keys', 'off');
      const before = snapshot(t2);
      // Loaded as TPM loads it: the repository's top-level termsupervisor.tmux.
      t2.run('run-shell', join(ROOT, 'termsupervisor.tmux'));
      const changed = diff(before, snapshot(t2));
      expect(changed.filter((l) => l.startsWith('bind-key'))).toEqual([]);
      expect(changed.map((l) => l.split(' ')[0])).toEqual(['@termsupervisor_bin', 'status-right', 'window-status-current-format', 'window-status-format']);
    } finally {
      t2.kill(true);
      d.cleanup();
    }
  });

  it('`tmux snippet` prints the lines the plugin loads', () => {
    const printed = execFileSync(process.execPath, [BIN, 'tmux', 'snippet'], { encoding: 'utf8' });
    expect(printed.endsWith(readFileSync(join(ROOT, 'tmux', 'termsupervisor.conf'), 'utf8'))).toBe(true);
    expect(printed).toContain(`set -g @termsupervisor_bin "${BIN}"`);
  });

  it('docs/tmux.md shows the lines as they are', () => {
    expect(readFileSync(join(ROOT, 'docs', 'tmux.md'), 'utf8')).toContain('```tmux\n' + readFileSync(join(ROOT, 'tmux', 'termsupervisor.conf'), 'utf8') + '```');
  });
});
