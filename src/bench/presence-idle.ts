// `node dist/bench/presence-idle.js [--panes 50] [--seconds 20]`: the idle cost of tmux presence (issue 29). A real
// daemon watches a private tmux server (its own socket folder) with N settled bash panes, measured twice — config
// tmux.presence false, then true — over the same window: the daemon's CPU and wake-ups, the tmux server's CPU, and
// the @termsupervisor_* options set (nothing at rest). A measurement, never a test: nothing here asserts.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cpuSeconds, CpuWindow, startDaemonProcess, type DaemonProcess } from './daemon-proc.js';

/** Panes spread over this many sessions, as the tmux bench does. */
const SESSIONS = 5;
/** After every pane is attached: seeds parsed, first rest ticks and the first option writes done. */
const SETTLE_S = 10;
const ATTACH_TIMEOUT_MS = 60_000;

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) || fallback : fallback;
}

async function measure(panes: number, seconds: number, presence: boolean): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'ts-bench-presence-'));
  const env: NodeJS.ProcessEnv = { ...process.env, TMUX_TMPDIR: dir };
  delete env['TMUX'];
  const tmux = (...a: string[]) => execFileSync('tmux', a, { env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  let d: DaemonProcess | null = null;
  const saved = process.env['TMUX_TMPDIR'];
  try {
    for (let i = 0; i < panes; i++) {
      const s = `bench${i % SESSIONS}`;
      if (i < SESSIONS) tmux('-f', '/dev/null', 'new-session', '-d', '-s', s, '-x', '120', '-y', '40', "env PS1='$ ' bash --norc --noprofile");
      else tmux('new-window', '-d', '-t', s, "env PS1='$ ' bash --norc --noprofile");
    }
    process.env['TMUX_TMPDIR'] = dir;
    d = await startDaemonProcess({ tmux: true, config: { tmux: { enabled: true, presence } } });
    const deadline = Date.now() + ATTACH_TIMEOUT_MS;
    for (;;) {
      const views = (await (await fetch(`${d.url}/api/panes`)).json()) as Array<{ alive: boolean }>;
      if (views.filter((v) => v.alive).length >= panes) break;
      if (Date.now() > deadline) throw new Error('panes did not attach');
      await new Promise((r) => setTimeout(r, 500));
    }
    await new Promise((r) => setTimeout(r, SETTLE_S * 1000));
    const tmuxPid = Number(tmux('display-message', '-p', '#{pid}').trim());
    const t0 = cpuSeconds(tmuxPid);
    const w = new CpuWindow(d.pid);
    await new Promise((r) => setTimeout(r, seconds * 1000));
    const r = w.end();
    const tmuxPct = ((cpuSeconds(tmuxPid) - t0) / r.wallS) * 100;
    const set = tmux('show-options', '-g').split('\n').filter((l) => l.startsWith('@termsupervisor')).length;
    return `presence ${presence ? 'on ' : 'off'}: ${panes} panes, ${r.wallS.toFixed(1)} s idle: daemon CPU ${r.pct.toFixed(3)} %, ${r.wakeupsPerS.toFixed(1)} wake-ups/s; tmux server CPU ${tmuxPct.toFixed(3)} %; global @termsupervisor options set: ${set}`;
  } finally {
    if (saved === undefined) delete process.env['TMUX_TMPDIR'];
    else process.env['TMUX_TMPDIR'] = saved;
    await d?.stop();
    try {
      tmux('kill-server');
    } catch {
      // gone
    }
    rmSync(dir, { recursive: true, force: true });
  }
}

const panes = arg('panes', 50);
const seconds = arg('seconds', 20);
for (const presence of [false, true]) process.stdout.write((await measure(panes, seconds, presence)) + '\n');
