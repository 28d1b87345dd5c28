// A real tmux server on a private socket (`tmux -L test-…`) for the tmux tests, driven the way a person would
// drive it (new sessions, splits, keys, kill-server), and a player that writes a corpus recording into a pane at
// its own timestamps. Nothing here touches any other tmux server.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseCast, type Cast } from '../../src/attach/asciicast.js';
import { tmuxSocketDir } from '../../src/attach/tmux/tmux-socket.js';
import { serverLife } from '../../src/attach/tmux/pane-list.js';
import { ROOT } from './screen.js';

/** tmux on PATH, new enough for control-mode subscriptions and client flags (3.2); else why not. */
export function tmuxMissing(): string | null {
  try {
    const v = execFileSync('tmux', ['-V'], { encoding: 'utf8' }).trim();
    const m = /(\d+)\.(\d+)/.exec(v);
    return m && Number(m[1]) + Number(m[2]) / 10 < 3.2 ? `${v} is older than 3.2` : null;
  } catch {
    return 'tmux is not installed (make test installs it when run as root)';
  }
}

export function pythonMissing(): boolean {
  try {
    execFileSync('python3', ['-c', 'pass'], { stdio: 'ignore' });
    return false;
  } catch {
    return true;
  }
}

export class TestTmux {
  readonly socket = `test-${process.pid}-${randomBytes(3).toString('hex')}`;
  /** The run of the server the latest session was made in (its panes' ids carry it); kept after a kill. */
  life = '';

  constructor(readonly env: Record<string, string>) {}

  /** A tmux command on this server; its stdout. */
  run(...args: string[]): string {
    return execFileSync('tmux', ['-L', this.socket, ...args], { encoding: 'utf8', env: this.env, stdio: ['ignore', 'pipe', 'pipe'] });
  }

  /** A detached session (the first starts the server, with no config file), size fixed; returns its pane id. */
  newSession(name: string, command: string, cols = 100, rows = 30): string {
    const [pane = '', pid = '', start = ''] = this.run('-f', '/dev/null', 'new-session', '-d', '-P', '-F', '#{pane_id} #{pid} #{start_time}', '-s', name, '-x', String(cols), '-y', String(rows), command).trim().split(' ');
    this.life = serverLife(pid, start);
    return pane;
  }

  /** The daemon's id of one of this server's panes, in the server's latest run. */
  paneId(pane: string): string {
    return `tmux:${this.socket}@${this.life}:${pane}`;
  }

  split(target: string, command: string): string {
    return this.run('split-window', '-d', '-P', '-F', '#{pane_id}', '-t', target, command).trim();
  }

  /** Keys into a pane, as the person at the keyboard (tmux's key names: 'Enter', 'C-c'). */
  keys(pane: string, ...keys: string[]): void {
    this.run('send-keys', '-t', pane, ...keys);
  }

  /** Types a line and presses Enter. */
  type(pane: string, line: string): void {
    this.run('send-keys', '-t', pane, '-l', line);
    this.keys(pane, 'Enter');
  }

  /** One tmux format for one target (display-message -p). */
  show(target: string, format: string): string {
    return this.run('display-message', '-p', '-t', target, format).trim();
  }

  screen(pane: string): string {
    return this.run('capture-pane', '-p', '-t', pane);
  }

  alive(): boolean {
    try {
      this.run('list-sessions');
      return true;
    } catch {
      return false;
    }
  }

  /** Ends the server (tmux leaves its socket file behind: removed too, unless a restart is coming). */
  kill(removeSocket = false): void {
    try {
      this.run('kill-server');
    } catch {
      // already gone
    }
    if (removeSocket) rmSync(join(tmuxSocketDir(this.env), this.socket), { force: true });
  }
}

/** A bash as the tests want it: no rc files, a plain `$ ` prompt, no history file. */
export const BASH = "env PS1='$ ' HISTFILE=/dev/null INPUTRC=/dev/null bash --norc --noprofile";

// ---- recordings played into a pane ---------------------------------------------------------------------------

/**
 * The player, written to a scratch folder: puts its terminal in raw mode (output bytes unchanged, no echo), waits
 * for one key, then writes each output event of the recording at its timestamp, and stays until killed.
 */
const PLAYER_JS = `import { readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
const events = readFileSync(process.argv[2], 'utf8').split('\\n').filter(Boolean).slice(1).map((l) => JSON.parse(l)).filter((e) => e[1] === 'o');
spawnSync('stty', ['raw', '-echo'], { stdio: ['inherit', 'ignore', 'ignore'] });
process.stdin.once('data', () => {
  process.stdin.pause();
  const start = performance.now();
  let i = 0;
  const step = () => {
    const now = (performance.now() - start) / 1000;
    while (i < events.length && events[i][0] <= now) process.stdout.write(events[i++][2]);
    if (i < events.length) setTimeout(step, Math.max(0, (events[i][0] - (performance.now() - start) / 1000) * 1000));
  };
  step();
  setInterval(() => {}, 1 << 30);
});
process.stdin.resume();
`;

export interface Playback {
  name: string;
  /** The recording as the pane will show it: its output events only (a tmux pane never reports typed keys). */
  cast: Cast;
  /** The pane's command: the player, under the recorded program's name (what tmux reports as the pane's command). */
  command: string;
  duration: number;
}

/** Writes the player and `name`'s output-only recording into `dir`. */
export function playback(dir: string, name: string): Playback {
  const player = join(dir, 'player.mjs');
  writeFileSync(player, PLAYER_JS);
  const cast = parseCast(readFileSync(join(ROOT, 'tests', 'fixtures', 'corpus', name, 'session.cast'), 'utf8'));
  const events = cast.events.filter((e) => e.code === 'o');
  const path = join(dir, `${name}.cast`);
  writeFileSync(path, [JSON.stringify(cast.header), ...events.map((e) => JSON.stringify([e.t, 'o', e.data]))].join('\n') + '\n');
  const family = name.split('-')[0]!;
  const program = family === 'shell' ? 'bash' : family;
  return {
    name,
    cast: { ...cast, events },
    command: `bash -c 'exec -a ${program} ${process.execPath} ${player} ${path}'`,
    duration: events[events.length - 1]?.t ?? 0,
  };
}
