// `termsupervisor service`: the BUILT command installing, inspecting and removing its systemd user unit in a temp
// HOME/XDG_CONFIG_HOME, against a stand-in systemctl (no systemd runs here) and against none at all; the launchd
// side through the same code with a stand-in launchctl. Real files, real processes.
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { execFile, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { assertBuilt, BIN, ROOT, waitFor } from './harness.js';
import { fakeServiceManager } from '../helpers/fake-service-manager.js';
import { installService, serviceStatus, uninstallService, type ServiceContext } from '../../src/service/service-manager.js';
import { execOf, LAUNCHD_LABEL } from '../../src/service/unit-text.js';

const run = promisify(execFile);
const dirs: string[] = [];
beforeAll(() => assertBuilt());
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function home(): { dir: string; env: Record<string, string>; unit: string; log: string } {
  const dir = mkdtempSync(join(tmpdir(), 'ts-service-'));
  dirs.push(dir);
  const env: Record<string, string> = { HOME: dir, XDG_CONFIG_HOME: join(dir, 'config'), XDG_STATE_HOME: join(dir, 'state'), LANG: 'C' };
  return { dir, env, unit: join(dir, 'config', 'systemd', 'user', 'termsupervisor.service'), log: join(dir, 'state', 'termsupervisor', 'service.log') };
}

async function cli(args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  return run(process.execPath, [BIN, ...args], { env, cwd: '/' }).then(
    (r) => ({ code: 0, ...r }),
    (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, stdout: e.stdout, stderr: e.stderr }),
  );
}

describe('service on Linux (systemd user unit)', () => {
  it('installs, starts, reports, reinstalls idempotently, and uninstalls only its own file', async () => {
    const h = home();
    const sm = fakeServiceManager(h.dir, 'systemctl');
    const env = sm.env(h.env);
    const other = join(h.dir, 'config', 'systemd', 'user', 'other.service');
    mkdirSync(join(h.dir, 'config', 'systemd', 'user'), { recursive: true });
    writeFileSync(other, '[Service]\nExecStart=/bin/true\n');

    const first = await cli(['service', 'install'], env);
    expect(first.code, first.stderr).toBe(0);
    const unit = readFileSync(h.unit, 'utf8');
    expect(unit).toContain(`ExecStart=${process.execPath} ${join(ROOT, 'bin', 'termsupervisor')} daemon\n`);
    expect(unit).toContain(`Environment=XDG_STATE_HOME=${h.env['XDG_STATE_HOME']}\n`);
    expect(unit).toContain(`StandardOutput=append:${h.log}\n`);
    expect(statSync(h.log).mode & 0o777).toBe(0o600);
    expect(sm.calls()).toEqual(['--user daemon-reload', '--user enable termsupervisor.service', '--user restart termsupervisor.service']);

    const status = await cli(['service', 'status'], env);
    expect(status.code).toBe(0);
    expect(status.stdout).toMatch(/^installed: yes, /m);
    expect(status.stdout).toMatch(/^enabled: +yes \(enabled\)$/m);
    expect(status.stdout).toMatch(/^running: +yes \(active\)$/m);

    sm.reset();
    const again = await cli(['service', 'install'], env);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('already up to date');
    expect(readFileSync(h.unit, 'utf8')).toBe(unit);
    expect(sm.calls()).toEqual(['--user daemon-reload', '--user enable termsupervisor.service', '--user start termsupervisor.service']);

    sm.reset();
    expect((await cli(['service', 'install', '--port', '7979'], env)).code).toBe(0);
    expect(readFileSync(h.unit, 'utf8')).toContain(' daemon --port 7979\n');
    expect(sm.calls().at(-1)).toBe('--user restart termsupervisor.service'); // the new command line takes effect

    sm.reset();
    const gone = await cli(['service', 'uninstall'], env);
    expect(gone.code, gone.stderr).toBe(0);
    expect(existsSync(h.unit)).toBe(false);
    expect(existsSync(other)).toBe(true);
    expect(existsSync(h.log)).toBe(true);
    expect(sm.calls()).toEqual(['--user disable --now termsupervisor.service', '--user daemon-reload']);
    const after = await cli(['service', 'status'], env);
    expect(after.stdout).toMatch(/^installed: no /m);
    expect(after.stdout).toMatch(/^enabled: +no \(not installed\)$/m);
    expect(after.stdout).toMatch(/^running: +no \(inactive\)$/m);
    expect((await cli(['service', 'uninstall'], env)).stdout).toContain('not installed');
  });

  it('without systemctl: writes the unit, says it is not started and what to run (exit 1); status says it cannot tell', async () => {
    const h = home();
    const empty = join(h.dir, 'empty-bin');
    mkdirSync(empty);
    const env = { ...h.env, PATH: empty };
    const r = await cli(['service', 'install'], env);
    expect(r.code).toBe(1);
    expect(existsSync(h.unit)).toBe(true);
    expect(r.stderr).toContain('systemctl was not found');
    expect(r.stderr).toContain('NOT started');
    expect(r.stderr).toContain('systemctl --user enable --now termsupervisor.service');
    const s = await cli(['service', 'status'], env);
    expect(s.stdout).toMatch(/^enabled: +unknown \(systemctl not found/m);
    expect(s.stdout).toMatch(/^running: +unknown \(systemctl not found/m);
  });

  it('leaves a unit it did not write alone, and --dry-run changes nothing', async () => {
    const h = home();
    const sm = fakeServiceManager(h.dir, 'systemctl');
    const env = sm.env(h.env);
    const dry = await cli(['service', 'install', '--dry-run'], env);
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain(`would write ${h.unit}:`);
    expect(dry.stdout).toContain('systemctl --user enable termsupervisor.service');
    expect(existsSync(h.unit)).toBe(false);
    expect(sm.calls()).toEqual([]);

    mkdirSync(join(h.dir, 'config', 'systemd', 'user'), { recursive: true });
    writeFileSync(h.unit, '[Service]\nExecStart=/usr/bin/mine\n');
    for (const verb of ['install', 'uninstall']) {
      const r = await cli(['service', verb], env);
      expect(r.code, verb).toBe(1);
      expect(r.stderr).toMatch(/not written by termsupervisor/);
    }
    expect(readFileSync(h.unit, 'utf8')).toBe('[Service]\nExecStart=/usr/bin/mine\n');
    expect(sm.calls()).toEqual([]);
  });

  it('refuses bad command lines with exit 2', async () => {
    const h = home();
    for (const args of [[], ['frob'], ['install', '--port', '0'], ['install', '--port', 'x'], ['status', '--port', '1'], ['status', '--dry-run'], ['install', 'extra'], ['install', '--bogus']]) {
      const r = await cli(['service', ...args], h.env);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(/^termsupervisor: /);
    }
  });
});

/** A port nothing listens on right now. */
async function freePort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const port = (srv.address() as { port: number }).port;
  await new Promise((r) => srv.close(r));
  return port;
}

/** The environment systemd would give the unit's process: its own few variables, then the unit's settings. */
function unitEnv(unit: string, base: Record<string, string>): Record<string, string> {
  const env: Record<string, string> = { ...base };
  for (const m of unit.matchAll(/^Environment=(.*)$/gm)) {
    const kv = m[1]!.replace(/^"(.*)"$/, '$1');
    env[kv.slice(0, kv.indexOf('='))] = kv.slice(kv.indexOf('=') + 1);
  }
  for (const m of unit.matchAll(/^UnsetEnvironment=(.*)$/gm)) for (const k of m[1]!.split(' ')) delete env[k];
  return env;
}

describe('the daemon the unit starts', () => {
  it('is found by the person\'s CLI: same token, same runtime file, whether or not the shell has XDG_RUNTIME_DIR', async () => {
    const h = home();
    const sm = fakeServiceManager(h.dir, 'systemctl');
    const port = await freePort();
    mkdirSync(join(h.dir, 'tmux'), { mode: 0o700 });
    // The person's shell: no XDG_RUNTIME_DIR (an ssh login without a systemd session), a private tmux dir.
    const person = { ...sm.env(h.env), TMUX_TMPDIR: join(h.dir, 'tmux') };
    expect((await cli(['service', 'install', '--port', String(port)], person)).code).toBe(0);
    const unit = readFileSync(h.unit, 'utf8');
    const argv = execOf(unit)!;
    // systemd itself sets XDG_RUNTIME_DIR for a user service; the unit must take it away again.
    const env = unitEnv(unit, { HOME: h.dir, XDG_RUNTIME_DIR: join(h.dir, 'systemd-run'), TMUX_TMPDIR: join(h.dir, 'tmux') });
    const daemon = spawn(argv[0]!, argv.slice(1), { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    daemon.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    daemon.stderr!.on('data', (d: Buffer) => (out += d.toString()));
    try {
      await waitFor('the daemon to listen', () => out.includes(`http://127.0.0.1:${port}`), () => out);
      const link = await cli(['dashboard'], person);
      expect(link.code, link.stderr).toBe(0);
      expect(link.stdout).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${port}/auth\\?code=`));
    } finally {
      daemon.kill('SIGTERM');
      await waitFor('the daemon to stop', () => daemon.exitCode !== null || daemon.signalCode !== null, () => out);
    }
  });
});

describe('service on macOS (launchd agent), through a stand-in launchctl', () => {
  it('bootstraps the plist once, reports it running, and boots it out on uninstall', () => {
    const h = home();
    const sm = fakeServiceManager(h.dir, 'launchctl');
    const out: string[] = [];
    const ctx: ServiceContext = { env: sm.env(h.env), platform: 'darwin', out: (l) => out.push(l), err: (l) => out.push(l) };
    const plist = join(h.dir, 'Library', 'LaunchAgents', `${LAUNCHD_LABEL}.plist`);
    const domain = `gui/${process.getuid!()}`;

    expect(installService(ctx, { dryRun: false }), out.join('\n')).toBe(0);
    expect(readFileSync(plist, 'utf8')).toContain('<key>RunAtLoad</key>');
    expect(sm.calls()).toEqual([`print ${domain}/${LAUNCHD_LABEL}`, `bootstrap ${domain} ${plist}`]);

    sm.reset();
    expect(installService(ctx, { dryRun: false })).toBe(0);
    expect(sm.calls()).toEqual([`print ${domain}/${LAUNCHD_LABEL}`]); // loaded and unchanged: nothing to do

    out.length = 0;
    serviceStatus(ctx);
    expect(out).toContain('loaded:    yes (starts at login)');
    expect(out).toContain('running:   yes (pid 4242)');

    sm.reset();
    expect(uninstallService(ctx, { dryRun: false })).toBe(0);
    expect(sm.calls()).toEqual([`print ${domain}/${LAUNCHD_LABEL}`, `bootout ${domain}/${LAUNCHD_LABEL}`]);
    expect(existsSync(plist)).toBe(false);
  });
});
