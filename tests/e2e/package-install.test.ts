// The bar for a new user: what npm gives them works. Packs this checkout (npm pack), installs the tarball globally
// into a scratch prefix — npm 11 runs the install scripts of node-pty and better-sqlite3 (native builds; may
// compile from source, a minute or two) only when allowed, hence --allow-scripts — then, from another directory,
// runs the installed command: --version, a daemon on a free port with its own XDG dirs, a `run` pane joining it,
// and `doctor` and `status` against it. Slow (an install): one test, a generous timeout, nothing timed.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../helpers/build.js';
import { ensureWebBuilt } from '../helpers/browser-build.js';
import { ROOT } from './harness.js';
import { daemonDirs, DaemonProcess, runCli, until, type DaemonDirs } from './daemon-harness.js';
import type { Check } from '../../src/cli/doctor-checks.js';
import type { PaneView } from '../../src/web/api-types.js';

/** The native dependencies whose install scripts must run (prebuilt binary or a node-gyp build). */
const NATIVE = ['node-pty', 'better-sqlite3'];
const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

let scratch = '';
let dirs: DaemonDirs | null = null;
const stops: Array<() => unknown> = [];
beforeAll(() => {
  ensureBuilt();
  ensureWebBuilt();
  scratch = mkdtempSync(join(tmpdir(), 'ts-package-'));
}, 180_000);
afterAll(async () => {
  for (const s of stops.reverse()) await s();
  dirs?.cleanup();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

/**
 * npm as the person runs it: none of the npm_* variables of the npm/npx that started the tests leak in. Async: a
 * minutes-long install must not block the test worker (vitest's own messages would time out).
 */
async function npm(args: string[], cwd: string): Promise<string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !/^npm_/i.test(k)) env[k] = v;
  const r = await runCli(['npm', ...args], env, cwd);
  if (r.code !== 0) throw new Error(`npm ${args.join(' ')} failed (exit ${r.code}):\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
}

describe('the npm package', () => {
  it('packs, installs globally with its native deps built, and the installed command runs a daemon, doctor and status', async () => {
    // --json's array is the last thing printed (a prepack script may print before it).
    const packOut = await npm(['pack', '--json', '--pack-destination', scratch], ROOT);
    const packed = JSON.parse(packOut.slice(packOut.search(/^\[\s*\{/m))) as Array<{ filename: string; files: Array<{ path: string }> }>;
    const tgz = join(scratch, packed[0]!.filename);
    const files = packed[0]!.files.map((f) => f.path);
    expect(files).toEqual(expect.arrayContaining(['bin/termsupervisor', 'dist/cli/main.js', 'config/default.jsonc', 'dist/web/index.html', 'README.md']));

    const prefix = join(scratch, 'prefix');
    await npm(['install', '--global', '--prefix', prefix, '--prefer-offline', '--no-audit', '--no-fund', `--allow-scripts=${NATIVE.join(',')}`, tgz], scratch);
    const bin = join(prefix, 'bin', 'termsupervisor');
    const elsewhere = join(scratch, 'elsewhere');
    mkdirSync(elsewhere);

    dirs = daemonDirs();
    const env = { ...dirs.env, HOME: join(dirs.dir, 'home') };
    mkdirSync(env.HOME);
    const version = await runCli([bin, '--version'], env, elsewhere);
    expect(version).toMatchObject({ code: 0, stdout: `${VERSION}\n` });

    // The installed daemon: better-sqlite3 (history), fastify, the built dashboard.
    const dm = await DaemonProcess.start(dirs, [], { argv: [bin], cwd: elsewhere });
    stops.push(() => dm.stop('SIGKILL'));
    expect(await dm.get<{ ok: boolean; version: string }>('/healthz')).toMatchObject({ ok: true, version: VERSION, history: { status: 'ok' } });
    expect(await (await fetch(dm.url + '/')).text()).toContain('<title>');

    // The installed `run` (node-pty) joins it.
    const wrapper = spawn(bin, ['run', '--name', 'installed', '--', 'bash', '--norc', '--noprofile'], { cwd: elsewhere, env, stdio: ['pipe', 'pipe', 'pipe'] });
    stops.push(() => wrapper.kill('SIGKILL'));
    let out = '';
    wrapper.stdout.on('data', (b: Buffer) => (out += b.toString()));
    wrapper.stderr.on('data', (b: Buffer) => (out += b.toString()));
    const pane = await until('the installed run pane to join', async () => (await dm.get<PaneView[]>('/api/panes')).find((p) => p.name === 'installed'), () => dm.diag() + out);
    wrapper.stdin.write('echo from-the-package\n');
    await until('its output on the daemon', async () => (await dm.get<{ text: string }>(`/api/panes/${pane.id}/screen`)).text.includes('from-the-package') || null, () => out);

    const doctor = await runCli([bin, 'doctor', '--json'], env, elsewhere);
    const report = JSON.parse(doctor.stdout) as { version: string; ok: boolean; checks: Check[] };
    const byId = (id: string) => report.checks.find((c) => c.id === id);
    expect(report.version).toBe(VERSION);
    expect(byId('daemon')).toMatchObject({ status: 'ok', detail: expect.stringContaining(dm.url) });
    expect(byId('token')).toMatchObject({ status: 'ok', detail: expect.stringContaining('accepted') });
    expect(byId('database')).toMatchObject({ status: 'ok', detail: expect.stringContaining(`${dirs.db}: writable, schema version`) });
    expect(byId('config')).toMatchObject({ status: 'ok' });
    expect(byId(`shell.${pane.id}`)).toMatchObject({ status: 'warn', detail: expect.stringContaining('installed') });
    expect(doctor.code).toBe(report.ok ? 0 : 1);

    const status = await runCli([bin, 'status', '--no-color'], env, elsewhere);
    expect(status.code).toBe(0);
    expect(status.stdout).toMatch(new RegExp(`installed +shell .*\\[${pane.id.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\]`));
  }, 900_000);
});
