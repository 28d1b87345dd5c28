// `termsupervisor logs`: the BUILT command reads the run event log, the daemon log and the service log from the XDG
// state dir (where `service install` sends the daemon's output), prints them once, or follows them with --follow.
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { assertBuilt, BIN, waitFor } from './harness.js';

const run = promisify(execFile);
const dirs: string[] = [];
const procs: ChildProcess[] = [];
beforeAll(() => assertBuilt());
afterEach(() => {
  for (const p of procs.splice(0)) p.kill('SIGKILL');
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function state(): { env: Record<string, string>; dir: string } {
  const root = mkdtempSync(join(tmpdir(), 'ts-logs-'));
  dirs.push(root);
  const dir = join(root, 'state', 'termsupervisor');
  mkdirSync(dir, { recursive: true });
  return { dir, env: { PATH: process.env['PATH'] ?? '', HOME: root, XDG_STATE_HOME: join(root, 'state'), XDG_CONFIG_HOME: join(root, 'config') } };
}

const TRANSITION = JSON.stringify({ ts: '2026-01-02T03:04:05.678Z', kind: 'transition', pane: 'run-1', name: 'api', program: 'shell', t: 1, state: 'DONE', from: 'RUNNING', tier: 1, rule: 'osc133.command_finished', line: '' });

describe('termsupervisor logs', () => {
  it('prints the run log and the service output, then exits', async () => {
    const s = state();
    writeFileSync(join(s.dir, 'events.jsonl'), TRANSITION + '\n');
    writeFileSync(join(s.dir, 'service.log'), 'termsupervisor 0.1.0: daemon listening on http://127.0.0.1:7878\n');
    const r = await run(process.execPath, [BIN, 'logs'], { env: s.env, cwd: '/' });
    expect(r.stdout).toMatch(/api .*RUNNING.*DONE.*osc133\.command_finished/);
    expect(r.stdout).toContain('daemon listening on http://127.0.0.1:7878');
  });

  it('exits 1 saying where it looked when there is no log', async () => {
    const s = state();
    const r = await run(process.execPath, [BIN, 'logs'], { env: s.env }).then(
      () => ({ code: 0, stderr: '' }),
      (e: { code: number; stderr: string }) => e,
    );
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`no log at ${join(s.dir, 'events.jsonl')}`);
    expect(r.stderr).toContain(join(s.dir, 'service.log'));
  });

  it('follows appends with --follow', async () => {
    const s = state();
    const p = spawn(process.execPath, [BIN, 'logs', '--follow'], { env: s.env });
    procs.push(p);
    let out = '';
    p.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    p.stderr!.on('data', (d: Buffer) => (out += d.toString()));
    await waitFor('the waiting message', () => out.includes('waiting for'), () => out);
    appendFileSync(join(s.dir, 'service.log'), 'first line from the service\n');
    await waitFor('the first line', () => out.includes('first line from the service'), () => out);
    appendFileSync(join(s.dir, 'events.jsonl'), TRANSITION + '\n');
    await waitFor('the transition', () => /osc133\.command_finished/.test(out), () => out);
    expect(p.exitCode).toBe(null);
  });

  // Issue 26 item 17: --follow dumped the whole history first; an idle pane's re-read every 30 s was most of the
  // log; --pane with a name no line has printed nothing and exited 0.
  it('--follow starts with the latest lines; idle re-reads are left out; an unknown --pane is said', async () => {
    const s = state();
    const at = (i: number) => new Date(Date.UTC(2026, 0, 2, 3, 0, i)).toISOString();
    const lines = Array.from({ length: 50 }, (_, i) => JSON.stringify({ ts: at(i), kind: 'transition', pane: 'run-1', name: 'api', program: 'shell', t: i, state: i % 2 ? 'DONE' : 'RUNNING', from: i % 2 ? 'RUNNING' : 'DONE', tier: 1, rule: `rule.n${i}`, line: '' }));
    writeFileSync(join(s.dir, 'events.jsonl'), lines.join('\n') + '\n');
    const reemit = (i: number) => JSON.stringify({ level: 'debug', time: at(i), kind: 'signal', pane: 'tmux:x:%1', name: 'work:0.0', type: 'idle', tier: 3, rule: 'generic.idle_reemit', line: '' });
    writeFileSync(join(s.dir, 'daemon.log'), [reemit(10), reemit(40)].join('\n') + '\n');

    const once = await run(process.execPath, [BIN, 'logs'], { env: s.env });
    expect(once.stdout).toContain('rule.n0');
    expect(once.stdout).not.toContain('idle_reemit');
    const signals = await run(process.execPath, [BIN, 'logs', '--kind', 'signal'], { env: s.env });
    expect(signals.stdout).toContain('generic.idle_reemit');

    const nosuch = await run(process.execPath, [BIN, 'logs', '--pane', 'nosuch'], { env: s.env }).then(() => ({ code: 0, stderr: '' }), (e: { code: number; stderr: string }) => e);
    expect(nosuch.code).toBe(1);
    expect(nosuch.stderr).toContain('no line of pane "nosuch" in the logs (panes in them: api, work:0.0)');

    const p = spawn(process.execPath, [BIN, 'logs', '--follow'], { env: s.env });
    procs.push(p);
    let out = '';
    p.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    await waitFor('the latest lines', () => out.includes('rule.n49'), () => out);
    await new Promise((r) => setTimeout(r, 600));
    expect(out).not.toContain('rule.n29');
    expect(out).toContain('rule.n30');
    expect(out.trim().split('\n')).toHaveLength(20);
    appendFileSync(join(s.dir, 'events.jsonl'), lines[0]!.replace('rule.n0', 'rule.appended') + '\n');
    await waitFor('the appended line', () => out.includes('rule.appended'), () => out);
  });
});
