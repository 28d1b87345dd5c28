// The daemon as a person runs it: a real process on a free loopback port, real `run` wrappers joining it, its
// REST API, websocket feed, token, XDG files, restart after kill -9, and clean shutdown.
import { spawn, type ChildProcess } from 'node:child_process';
import { statSync, writeFileSync } from 'node:fs';
import Database from 'better-sqlite3';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../helpers/build.js';
import { BIN, ROOT, waitFor } from './harness.js';
import { daemonScratch, DaemonProcess, runWrapper, until, type DaemonDirs } from './daemon-harness.js';
import type { PaneView, TransitionView, TurnView } from '../../src/web/api-types.js';

const { cleanups, dirs } = daemonScratch();

beforeAll(() => ensureBuilt(), 120_000);

async function daemon(d: DaemonDirs, args: string[] = []): Promise<DaemonProcess> {
  const p = await DaemonProcess.start(d, args);
  cleanups.push(async () => void (await p.stop('SIGKILL')));
  return p;
}

/** A `run` wrapper without a terminal, killed after the test. */
function wrapper(d: DaemonDirs, args: string[], command: string[]): ChildProcess & { out: string } {
  const child = runWrapper(d, args, command);
  cleanups.push(() => void child.kill('SIGKILL'));
  return child;
}

const BASH = ['bash', '--norc', '--noprofile'];

describe('termsupervisor daemon', () => {
  it('starts with owner-only files, serves the API, and a run pane joins it: RUNNING → DONE, turn with its prompt, ack', async () => {
    const d = dirs();
    const dm = await daemon(d);
    expect((statSync(`${d.dir}/config/termsupervisor/token`).mode & 0o777).toString(8)).toBe('600');
    expect(dm.runtimeFileExists()).toBe(true);
    expect(await dm.get<{ ok: boolean }>('/healthz')).toMatchObject({ ok: true });
    expect(await dm.get<PaneView[]>('/api/panes')).toEqual([]);

    const feed = await dm.feed();
    cleanups.push(() => feed.ws.close());
    const w = wrapper(d, ['--name', 'e2e'], BASH);
    const pane = await waitFor('the pane to join', () => feed.messages.find((m) => m.type === 'pane')?.['pane'] as PaneView | undefined, () => dm.diag() + w.out);
    expect(pane).toMatchObject({ name: 'e2e', attach: 'run', alive: true, command: 'bash --norc --noprofile' });
    // Typed once the shell shows its prompt, as a person types: keys typed ahead of a slow shell's start are echoed
    // by the terminal before the prompt, then again by the shell (a different screen, a different test).
    await waitFor('the shell prompt', () => w.out.includes('$ '), () => w.out);
    w.stdin!.write('sleep 1; echo ok\n');
    const transitions = () => feed.messages.filter((m) => m.type === 'transition').map((m) => m['transition'] as TransitionView);
    await waitFor('DONE on the feed', () => transitions().some((t) => t.to === 'DONE'), () => JSON.stringify(transitions()) + w.out);
    expect(transitions().map((t) => t.to)).toEqual(['RUNNING', 'DONE']);

    const [view] = await dm.get<PaneView[]>('/api/panes');
    expect(view).toMatchObject({ state: 'DONE', needsYou: true, alive: true });
    expect(view!.edge.join('\n')).toContain('ok');
    expect((await dm.get<{ text: string }>(`/api/panes/${view!.id}/screen`)).text).toContain('sleep 1; echo ok');
    const turns = await dm.get<TurnView[]>(`/api/panes/${view!.id}/turns`);
    expect(turns[0]).toMatchObject({ result: 'done', prompt: 'sleep 1; echo ok' });
    // The turn lasts from its RUNNING's start to its DONE, as the transitions say (on a loaded CI machine the
    // daemon may read the command's start late, so the `sleep 1` itself is not the measure).
    const kept = await dm.get<TransitionView[]>(`/api/panes/${view!.id}/transitions`);
    const doneAt = kept.find((t) => t.to === 'DONE')!.at;
    const runningStart = kept.find((t) => t.to === 'RUNNING')!.startedAt;
    expect(turns[0]!.durationS).toBe(Math.round(doneAt - runningStart) / 1000);
    expect(turns[0]!.durationS).toBeGreaterThanOrEqual(0);

    expect((await dm.post(`/api/panes/${view!.id}/ack`, null)).status).toBe(401);
    const acked = await dm.post(`/api/panes/${view!.id}/ack`, dm.token);
    expect(acked.status).toBe(200);
    expect(((await acked.json()) as PaneView).state).toBe('IDLE');
    const stored = await dm.get<TransitionView[]>(`/api/panes/${view!.id}/transitions`);
    // The start is read from the screen: the shell profile's verdict, or, when a loaded machine hands over the
    // submit's echo before the command's first redraw, the submitted turn's own evidence (tier 3). Both are screen
    // reads; a hook, timer or in-band source here would be wrong.
    const sources = stored.map((t) => `${t.from}>${t.to}:${t.source}`);
    expect(sources.slice(0, 2)).toEqual(['DONE>IDLE:user', 'RUNNING>DONE:profile']);
    expect(sources[2]).toMatch(/^IDLE>RUNNING:(?:profile|heuristic)$/);
    expect(sources).toHaveLength(3);
    const stats = await dm.get<{ counters: Record<string, number> }>('/api/stats');
    expect(Object.keys(stats.counters).some((k) => k.startsWith('fired.'))).toBe(true);

    w.stdin!.write('exit\n');
    await waitFor('the pane to close', () => feed.messages.some((m) => m.type === 'pane' && (m['pane'] as PaneView).alive === false), () => w.out);
    expect((await dm.get<PaneView[]>('/api/panes'))[0]).toMatchObject({ alive: false, needsYou: false });
  }, 60_000);

  it('keeps every committed transition across kill -9, and the wrapper comes back to the restarted daemon', async () => {
    const d = dirs();
    const first = await daemon(d);
    // Tier 1 marks in a loop, in the order commands make them (prompt, start, end): a steady burst of transitions
    // (RUNNING, DONE, RUNNING, ...).
    const burst = "import sys,time\nwhile True:\n  for m in ('A','C','D;0'):\n    sys.stdout.write('\\x1b]133;%s\\x07' % m); sys.stdout.flush(); time.sleep(0.05)\n";
    writeFileSync(`${d.dir}/burst.py`, burst);
    const w = wrapper(d, ['--name', 'burst'], ['python3', `${d.dir}/burst.py`]);
    const id = await until('the pane to join', async () => (await first.get<PaneView[]>('/api/panes'))[0]?.id, () => first.diag() + w.out);
    // Reading the transitions commits what is queued: from here these are on disk.
    const committed = await until('20 committed transitions', async () => {
      const n = (await first.get<TransitionView[]>(`/api/panes/${id}/transitions?limit=1000`)).length;
      return n >= 20 && n;
    }, () => first.diag() + w.out);
    await first.stop('SIGKILL'); // mid-burst: the wrapper keeps sending

    const second = await daemon(d);
    const after = await second.get<TransitionView[]>(`/api/panes/${id}/transitions?limit=1000`);
    expect(after.length).toBeGreaterThanOrEqual(committed);
    expect((await second.get<PaneView[]>('/api/panes')).map((p) => p.id)).toContain(id);
    // The wrapper reconnects by itself with the same pane id: its history continues.
    await until('the wrapper to rejoin', async () => (await second.get<PaneView[]>('/api/panes')).find((p) => p.id === id && p.alive), () => second.diag() + w.out);
    const more = await until('new transitions after the restart', async () => {
      const n = (await second.get<TransitionView[]>(`/api/panes/${id}/transitions?limit=1000`)).length;
      return n > after.length && n;
    });
    expect(more).toBeGreaterThan(after.length);
    w.kill('SIGTERM');
  }, 90_000);

  it('notifies through the wrapper: an opt-in bell and OSC 9 on the person\'s own terminal when the turn is DONE', async () => {
    const d = dirs();
    writeFileSync(`${d.dir}/bell.json`, JSON.stringify({ notify: { terminal_bell: true, desktop: false, done_min_turn_s: 0 } }));
    const dm = await daemon(d, ['--config', `${d.dir}/bell.json`]);
    const w = wrapper(d, ['--name', 'bell'], BASH);
    await until('the pane to join', async () => (await dm.get<PaneView[]>('/api/panes'))[0], () => dm.diag());
    w.stdin!.write('sleep 1; echo ok\n');
    await waitFor('the bell on the wrapper\'s stdout', () => w.out.includes('\x1b]9;'), () => dm.diag() + JSON.stringify(w.out));
    expect(w.out).toContain('\x07');
    expect(w.out).toMatch(/\x1b\]9;[^\x07]*bell[^\x07]*\x07/);
    const stats = await dm.get<{ counters: Record<string, number> }>('/api/stats');
    expect(stats.counters['notify.sent']).toBeGreaterThanOrEqual(1);
  }, 60_000);

  it('two daemons with different XDG dirs and ports share nothing', async () => {
    const a = await daemon(dirs());
    const b = await daemon(dirs());
    expect(a.url).not.toBe(b.url);
    expect(a.token).not.toBe(b.token);
    expect(a.runtimeFile).not.toBe(b.runtimeFile);
    expect((await a.post('/api/auth/code', b.token)).status).toBe(401);
    expect((await a.post('/api/auth/code', a.token)).status).toBe(200);
  }, 60_000);

  it('refuses a database written by a newer termsupervisor, with a clear message, and leaves it alone', async () => {
    const d = dirs();
    const db = new Database(d.db);
    db.pragma('user_version = 999');
    db.close();
    const before = statSync(d.db).mtimeMs;
    const p = new DaemonProcess(d);
    const end = await p.exited;
    expect(end.code).toBe(2);
    expect(p.stderr).toMatch(/newer termsupervisor/);
    expect(statSync(d.db).mtimeMs).toBe(before);
  }, 30_000);

  it('shuts down cleanly on SIGTERM (runtime file removed); a second signal forces the exit', async () => {
    const d = dirs();
    const dm = await daemon(d);
    expect(dm.runtimeFileExists()).toBe(true);
    expect(await dm.stop('SIGTERM')).toEqual({ code: 0, signal: null });
    expect(dm.runtimeFileExists()).toBe(false);
    expect(dm.stderr).toMatch(/SIGTERM: shutting down/);

    const again = await daemon(d);
    again.child.kill('SIGINT');
    again.child.kill('SIGINT');
    const end = await again.exited;
    expect(end.code === 0 || end.code === 130).toBe(true);
  }, 60_000);

  it('a one-time dashboard link sets the cookie once; the page and its websocket work with it', async () => {
    const dm = await daemon(dirs());
    const first = await fetch(`${dm.url}/auth?code=${dm.code}`, { redirect: 'manual' });
    expect(first.status).toBe(302);
    const cookie = first.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/^ts_token=[^;]+; HttpOnly; SameSite=Strict/);
    expect((await fetch(`${dm.url}/auth?code=${dm.code}`, { redirect: 'manual' })).status).toBe(403);
    const ack = await fetch(`${dm.url}/api/auth/code`, { method: 'POST', headers: { cookie: cookie.split(';')[0]!, origin: dm.url } });
    expect(ack.status).toBe(200);
    const foreign = await fetch(`${dm.url}/api/auth/code`, { method: 'POST', headers: { cookie: cookie.split(';')[0]!, origin: 'http://evil.example' } });
    expect(foreign.status).toBe(403);
  }, 30_000);

  it('`termsupervisor dashboard` finds the running daemon and prints a fresh link that works once', async () => {
    const d = dirs();
    const dm = await daemon(d);
    const out = await new Promise<string>((resolve, reject) => {
      const c = spawn(process.execPath, [BIN, 'dashboard'], { cwd: ROOT, env: d.env });
      let s = '';
      c.stdout.on('data', (b: Buffer) => (s += b.toString()));
      c.on('exit', (code) => (code === 0 ? resolve(s.trim()) : reject(new Error(`exit ${code}: ${s}`))));
    });
    expect(out).toMatch(new RegExp(`^${dm.url}/auth\\?code=\\S+$`));
    expect((await fetch(out, { redirect: 'manual' })).status).toBe(302);
    expect((await fetch(out, { redirect: 'manual' })).status).toBe(403);
  }, 30_000);
});
