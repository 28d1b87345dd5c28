// The service definitions `service install` writes, read as text (systemd unit) and through a real plist parser
// (Python's plistlib, when python3 is there).
import { describe, expect, it } from 'vitest';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execOf, LAUNCHD_LABEL, launchdPlist, systemdUnit, WRITTEN_BY, type ServiceSpec } from '../../src/service/unit-text.js';
import { PACKAGE_BIN, serviceFile, serviceSpec, type ServiceContext } from '../../src/service/service-manager.js';

const SPEC: ServiceSpec = {
  node: '/opt/node 20/bin/node', // a space: must be quoted
  bin: '/usr/lib/node_modules/termsupervisor/bin/termsupervisor',
  args: ['daemon', '--port', '7979'],
  env: { PATH: '/usr/bin:/bin', XDG_STATE_HOME: '/home/u/100%/state' }, // a %: a systemd specifier unless doubled
  unset: ['XDG_RUNTIME_DIR'],
  logFile: '/home/u/.local/state/termsupervisor/service.log',
};

function has(cmd: string, args: string[]): boolean {
  return spawnSync(cmd, args, { stdio: 'ignore' }).status === 0;
}

function hasPython(): boolean {
  try {
    execFileSync('python3', ['-c', 'import plistlib'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

describe('systemd user unit', () => {
  const unit = systemdUnit(SPEC);
  it('runs the absolute node and bin as `daemon`, restarts on failure, logs where `termsupervisor logs` reads', () => {
    const lines = unit.split('\n');
    expect(lines[0]).toBe(`# ${WRITTEN_BY}`);
    expect(lines).toContain('ExecStart="/opt/node 20/bin/node" /usr/lib/node_modules/termsupervisor/bin/termsupervisor daemon --port 7979');
    expect(lines).toContain('Restart=on-failure');
    expect(lines).toContain('RestartPreventExitStatus=2');
    expect(lines).toContain('Environment=PATH=/usr/bin:/bin');
    expect(lines).toContain('Environment=XDG_STATE_HOME=/home/u/100%%/state');
    expect(lines).toContain('UnsetEnvironment=XDG_RUNTIME_DIR');
    expect(lines).toContain('StandardOutput=append:/home/u/.local/state/termsupervisor/service.log');
    expect(lines).toContain('StandardError=append:/home/u/.local/state/termsupervisor/service.log');
    expect(unit).toMatch(/\[Install\]\nWantedBy=default\.target\n$/);
    expect(unit.indexOf('[Unit]')).toBeLessThan(unit.indexOf('[Service]'));
  });

  it('reads its command line back', () => {
    expect(execOf(unit)).toEqual([SPEC.node, SPEC.bin, 'daemon', '--port', '7979']);
  });

  // systemd's own checker: every key known, the program there. It needs a runtime dir, not a running systemd.
  it.skipIf(!has('systemd-analyze', ['--version']))('passes systemd-analyze verify --user', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ts-unit-'));
    try {
      const run = join(dir, 'run');
      mkdirSync(run, { mode: 0o700 });
      const file = join(dir, 'termsupervisor.service');
      writeFileSync(file, systemdUnit({ ...SPEC, node: process.execPath, bin: PACKAGE_BIN, logFile: join(dir, 'service.log') }));
      const r = spawnSync('systemd-analyze', ['verify', '--user', file], { env: { ...process.env, XDG_RUNTIME_DIR: run }, encoding: 'utf8' });
      expect(r.stderr + r.stdout).toBe('');
      expect(r.status).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses a log path systemd cannot append to', () => {
    expect(() => systemdUnit({ ...SPEC, logFile: '/home/my user/service.log' })).toThrow(/white space/);
  });
});

describe('launchd agent plist', () => {
  const spec = { ...SPEC, env: { ...SPEC.env, ODD: 'a&b<c>' } };
  const plist = launchdPlist(spec);
  it('is a plist with the label, the program, RunAtLoad, KeepAlive and the log paths', () => {
    expect(plist).toContain(`<!-- ${WRITTEN_BY} -->`);
    expect(plist).toContain('<string>a&amp;b&lt;c&gt;</string>');
    expect(execOf(plist)).toEqual([SPEC.node, SPEC.bin, 'daemon', '--port', '7979']);
  });

  it.skipIf(!hasPython())('parses as a property list with the right values', () => {
    const parsed = JSON.parse(execFileSync('python3', ['-c', 'import plistlib,sys,json; print(json.dumps(plistlib.loads(sys.stdin.buffer.read())))'], { input: plist, encoding: 'utf8' }));
    expect(parsed).toEqual({
      Label: LAUNCHD_LABEL,
      ProgramArguments: [SPEC.node, SPEC.bin, 'daemon', '--port', '7979'],
      EnvironmentVariables: { PATH: '/usr/bin:/bin', XDG_STATE_HOME: '/home/u/100%/state', ODD: 'a&b<c>' },
      RunAtLoad: true,
      KeepAlive: { SuccessfulExit: false },
      ThrottleInterval: 10,
      StandardOutPath: SPEC.logFile,
      StandardErrorPath: SPEC.logFile,
    });
  });
});

describe('what the service runs and where its file goes', () => {
  const ctx = (env: NodeJS.ProcessEnv, platform: 'linux' | 'darwin'): ServiceContext => ({ env, platform, node: '/n/node', bin: '/p/bin/termsupervisor', out: () => {}, err: () => {} });
  it('passes the PATH and the XDG dirs that are set; unsets XDG_RUNTIME_DIR on Linux when the shell has none', () => {
    const s = serviceSpec(ctx({ HOME: '/h', PATH: '/a:/b', XDG_STATE_HOME: '/s' }, 'linux'), undefined);
    expect(s).toEqual({ node: '/n/node', bin: '/p/bin/termsupervisor', args: ['daemon'], env: { PATH: '/a:/b', XDG_STATE_HOME: '/s' }, unset: ['XDG_RUNTIME_DIR'], logFile: '/s/termsupervisor/service.log' });
    const r = serviceSpec(ctx({ HOME: '/h', XDG_RUNTIME_DIR: '/run/user/1', XDG_CONFIG_HOME: '/c' }, 'linux'), 8000);
    expect(r.env).toEqual({ XDG_RUNTIME_DIR: '/run/user/1', XDG_CONFIG_HOME: '/c' });
    expect(r.unset).toEqual([]);
    expect(r.args).toEqual(['daemon', '--port', '8000']);
    expect(serviceSpec(ctx({ HOME: '/h' }, 'darwin'), undefined).unset).toEqual([]);
  });

  it('puts the unit under XDG_CONFIG_HOME and the plist under ~/Library/LaunchAgents', () => {
    expect(serviceFile({ env: { HOME: '/h' }, platform: 'linux' })).toBe('/h/.config/systemd/user/termsupervisor.service');
    expect(serviceFile({ env: { HOME: '/h', XDG_CONFIG_HOME: '/c' }, platform: 'linux' })).toBe('/c/systemd/user/termsupervisor.service');
    expect(serviceFile({ env: { HOME: '/h' }, platform: 'darwin' })).toBe(`/h/Library/LaunchAgents/${LAUNCHD_LABEL}.plist`);
  });
});
