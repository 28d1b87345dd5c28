// `termsupervisor service install|uninstall|status`: writes the unit/plist (src/service/unit-text.ts), hands it to
// systemd (`systemctl --user`) or launchd (`launchctl`), and reports honestly what it could and could not do. The
// service manager is only asked, never assumed: when it is missing or unreachable, the person is told what to run.
import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serviceLogPath } from '../daemon/logger.js';
import { readOrNull } from '../config/write-with-backup.js';
import { execOf, LAUNCHD_LABEL, launchdPlist, SYSTEMD_UNIT_NAME, systemdUnit, WRITTEN_BY, type ServiceSpec } from './unit-text.js';

export type Platform = 'linux' | 'darwin';

export interface ServiceContext {
  env: NodeJS.ProcessEnv;
  platform: Platform;
  /** The node that runs the daemon (default: this one). */
  node?: string;
  /** bin/termsupervisor (default: the one of this installed package). */
  bin?: string;
  out: (line: string) => void;
  err: (line: string) => void;
}

/** This package's bin/termsupervisor (dist/service/ → the package root), so the unit runs the installed copy. */
export const PACKAGE_BIN = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', 'bin', 'termsupervisor');

/** A service's file holds no secret; the service manager reads it. */
const UNIT_MODE = 0o644;
/** The service log holds the dashboard's one-time link: owner-only, like the token. */
const LOG_MODE = 0o600;

export function serviceFile(ctx: Pick<ServiceContext, 'env' | 'platform'>): string {
  const home = ctx.env['HOME'] || homedir();
  if (ctx.platform === 'darwin') return join(home, 'Library', 'LaunchAgents', `${LAUNCHD_LABEL}.plist`);
  return join(ctx.env['XDG_CONFIG_HOME'] || join(home, '.config'), 'systemd', 'user', SYSTEMD_UNIT_NAME);
}

/** What the service runs: this node and bin, `daemon [--port N]`, with the person's PATH and XDG dirs. */
export function serviceSpec(ctx: ServiceContext, port: number | undefined): ServiceSpec {
  const env: Record<string, string> = {};
  // The daemon runs tmux and notify-send/osascript: give it the PATH it would have in the person's shell.
  if (ctx.env['PATH']) env['PATH'] = ctx.env['PATH'];
  for (const k of ['XDG_CONFIG_HOME', 'XDG_STATE_HOME', 'XDG_RUNTIME_DIR']) if (ctx.env[k]) env[k] = ctx.env[k]!;
  // systemd sets XDG_RUNTIME_DIR for its services; a shell without it looks for the daemon's runtime file in the
  // state dir instead, so the daemon must not have it either or the CLI would never find it.
  const unset = ctx.platform === 'linux' && !ctx.env['XDG_RUNTIME_DIR'] ? ['XDG_RUNTIME_DIR'] : [];
  return {
    node: ctx.node ?? process.execPath,
    bin: ctx.bin ?? PACKAGE_BIN,
    args: ['daemon', ...(port !== undefined ? ['--port', String(port)] : [])],
    env,
    unset,
    logFile: serviceLogPath(ctx.env),
  };
}

export function serviceText(ctx: ServiceContext, spec: ServiceSpec): string {
  return ctx.platform === 'darwin' ? launchdPlist(spec) : systemdUnit(spec);
}

// ---- The service manager ------------------------------------------------------------------------------------

interface Ran {
  /** False: the program is not installed (not on PATH). */
  found: boolean;
  code: number;
  stdout: string;
  stderr: string;
}

/** How long one systemctl/launchctl call may take before it is given up on (a hung bus must not hang us). */
const MANAGER_TIMEOUT_MS = 30_000;

function runTool(ctx: ServiceContext, cmd: string, args: string[]): Ran {
  const r = spawnSync(cmd, args, { env: ctx.env, encoding: 'utf8', timeout: MANAGER_TIMEOUT_MS });
  if (r.error) {
    const code = (r.error as NodeJS.ErrnoException).code;
    return { found: code !== 'ENOENT', code: -1, stdout: '', stderr: code === 'ENOENT' ? `${cmd} not found` : r.error.message };
  }
  return { found: true, code: r.status ?? -1, stdout: r.stdout ?? '', stderr: r.stderr ?? '' };
}

function firstLine(s: string): string {
  return s.trim().split('\n')[0] ?? '';
}

/** The commands that start (or stop) the service, as the person would type them. */
function manualSteps(ctx: ServiceContext, action: 'install' | 'uninstall', file: string): string[] {
  if (ctx.platform === 'darwin') {
    const domain = `gui/$(id -u)`;
    return action === 'install' ? [`launchctl bootstrap ${domain} ${file}`] : [`launchctl bootout ${domain}/${LAUNCHD_LABEL}`];
  }
  return action === 'install'
    ? ['systemctl --user daemon-reload', `systemctl --user enable --now ${SYSTEMD_UNIT_NAME}`]
    : [`systemctl --user disable --now ${SYSTEMD_UNIT_NAME}`, 'systemctl --user daemon-reload'];
}

/** Runs the steps in order; on the first failure says what failed and what to run by hand. Returns success. */
function steps(ctx: ServiceContext, tool: string, list: string[][], action: 'install' | 'uninstall', file: string): boolean {
  for (const args of list) {
    const r = runTool(ctx, tool, args);
    if (r.found && r.code === 0) continue;
    const why = r.found ? `'${tool} ${args.join(' ')}' failed: ${firstLine(r.stderr) || `exit ${r.code}`}` : `${tool} was not found`;
    ctx.err(`termsupervisor: ${why}`);
    ctx.err(`termsupervisor: the service is ${action === 'install' ? 'NOT started' : 'perhaps still running'}; to do it by hand, run:`);
    for (const s of manualSteps(ctx, action, file)) ctx.err(`  ${s}`);
    return false;
  }
  return true;
}

function launchdDomain(): string {
  return `gui/${process.getuid?.() ?? 0}`;
}

function launchdLoaded(ctx: ServiceContext): Ran {
  return runTool(ctx, 'launchctl', ['print', `${launchdDomain()}/${LAUNCHD_LABEL}`]);
}

// ---- install / uninstall / status ---------------------------------------------------------------------------

export interface InstallOptions {
  port?: number;
  dryRun: boolean;
}

/** Exit status: 0 written and started (or nothing to do), 1 not done (the reason and the manual steps are printed). */
export function installService(ctx: ServiceContext, opts: InstallOptions): number {
  const file = serviceFile(ctx);
  const spec = serviceSpec(ctx, opts.port);
  const text = serviceText(ctx, spec);
  const before = readOrNull(file);
  if (before !== null && !before.includes(WRITTEN_BY)) {
    ctx.err(`termsupervisor: ${file} exists and was not written by termsupervisor: left alone (remove or rename it first)`);
    return 1;
  }
  const changed = before !== text;
  const tool = ctx.platform === 'darwin' ? 'launchctl' : 'systemctl';
  const list = ctx.platform === 'darwin' ? launchdSteps(ctx, file, changed) : systemdSteps(changed);
  if (opts.dryRun) {
    ctx.out(changed ? `would write ${file}:` : `${file} is already up to date:`);
    ctx.out(text.trimEnd());
    ctx.out(`would create ${spec.logFile} (0600) for the daemon's output, then run:`);
    for (const args of list) ctx.out(`  ${tool} ${args.join(' ')}`);
    return 0;
  }
  if (changed) {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, text, { mode: UNIT_MODE });
  }
  mkdirSync(dirname(spec.logFile), { recursive: true, mode: 0o700 });
  closeSync(openSync(spec.logFile, 'a', LOG_MODE));
  ctx.out(changed ? `wrote ${file}` : `${file} is already up to date`);
  if (!steps(ctx, tool, list, 'install', file)) return 1;
  ctx.out(`the daemon runs as a ${ctx.platform === 'darwin' ? 'launchd agent' : 'systemd user service'} (${[spec.node, spec.bin, ...spec.args].join(' ')})`);
  ctx.out(`its output: ${spec.logFile}; follow everything with 'termsupervisor logs --follow'; the dashboard link: 'termsupervisor dashboard'`);
  return 0;
}

function systemdSteps(changed: boolean): string[][] {
  // restart, not start, after a change: a running daemon would otherwise keep the old command line.
  return [['--user', 'daemon-reload'], ['--user', 'enable', SYSTEMD_UNIT_NAME], ['--user', changed ? 'restart' : 'start', SYSTEMD_UNIT_NAME]];
}

function launchdSteps(ctx: ServiceContext, file: string, changed: boolean): string[][] {
  const loaded = launchdLoaded(ctx);
  if (loaded.found && loaded.code === 0) return changed ? [['bootout', `${launchdDomain()}/${LAUNCHD_LABEL}`], ['bootstrap', launchdDomain(), file]] : [];
  return [['bootstrap', launchdDomain(), file]];
}

export function uninstallService(ctx: ServiceContext, opts: { dryRun: boolean }): number {
  const file = serviceFile(ctx);
  const before = readOrNull(file);
  if (before === null) {
    ctx.out(`not installed (no ${file})`);
    return 0;
  }
  if (!before.includes(WRITTEN_BY)) {
    ctx.err(`termsupervisor: ${file} was not written by termsupervisor: left alone`);
    return 1;
  }
  const tool = ctx.platform === 'darwin' ? 'launchctl' : 'systemctl';
  const stop =
    ctx.platform === 'darwin'
      ? launchdLoaded(ctx).code === 0
        ? [['bootout', `${launchdDomain()}/${LAUNCHD_LABEL}`]]
        : []
      : [['--user', 'disable', '--now', SYSTEMD_UNIT_NAME]];
  if (opts.dryRun) {
    for (const args of stop) ctx.out(`would run: ${tool} ${args.join(' ')}`);
    ctx.out(`would remove ${file}`);
    if (ctx.platform === 'linux') ctx.out(`would run: ${tool} --user daemon-reload`);
    return 0;
  }
  const stopped = steps(ctx, tool, stop, 'uninstall', file);
  rmSync(file);
  ctx.out(`removed ${file}`);
  const reloaded = ctx.platform === 'linux' && stopped ? steps(ctx, tool, [['--user', 'daemon-reload']], 'uninstall', file) : true;
  ctx.out(`kept: the logs in ${dirname(serviceLogPath(ctx.env))} and your configuration`);
  return stopped && reloaded ? 0 : 1;
}

/** Answers installed? enabled? running? — each only as far as it can be known here. Always exit 0. */
export function serviceStatus(ctx: ServiceContext): number {
  const file = serviceFile(ctx);
  const text = readOrNull(file);
  const kind = ctx.platform === 'darwin' ? `launchd agent ${LAUNCHD_LABEL}` : `systemd user unit ${SYSTEMD_UNIT_NAME}`;
  ctx.out(`service:   ${kind}`);
  if (text === null) ctx.out(`installed: no (no ${file})`);
  else if (!text.includes(WRITTEN_BY)) ctx.out(`installed: a file not written by termsupervisor is at ${file}`);
  else {
    const exec = execOf(text) ?? [];
    const gone = exec.slice(0, 2).filter((p) => !existsSync(p));
    ctx.out(`installed: yes, ${file}`);
    ctx.out(`runs:      ${exec.join(' ')}`);
    if (gone.length) ctx.out(`           but ${gone.join(' and ')} no longer exist${gone.length > 1 ? '' : 's'}: run 'termsupervisor service install' again`);
  }
  if (ctx.platform === 'darwin') {
    const r = launchdLoaded(ctx);
    if (!r.found) ctx.out('loaded:    unknown (launchctl not found)');
    else if (r.code !== 0) ctx.out('loaded:    no');
    else {
      ctx.out('loaded:    yes (starts at login)');
      const pid = /^\s*pid = (\d+)/m.exec(r.stdout)?.[1];
      const state = /^\s*state = (\S+)/m.exec(r.stdout)?.[1] ?? 'unknown';
      ctx.out(`running:   ${state === 'running' ? `yes${pid ? ` (pid ${pid})` : ''}` : `no (${state})`}`);
    }
  } else {
    for (const [label, verb, yes] of [
      ['enabled:  ', 'is-enabled', 'enabled'],
      ['running:  ', 'is-active', 'active'],
    ] as const) {
      if (verb === 'is-enabled' && text === null) {
        ctx.out(`${label} no (not installed)`);
        continue;
      }
      const r = runTool(ctx, 'systemctl', ['--user', verb, SYSTEMD_UNIT_NAME]);
      const answer = r.stdout.trim();
      if (!r.found) ctx.out(`${label} unknown (systemctl not found: no systemd here?)`);
      else if (!answer) ctx.out(`${label} unknown (systemctl --user ${verb}: ${firstLine(r.stderr) || `exit ${r.code}`})`);
      else ctx.out(`${label} ${answer === yes ? 'yes' : 'no'} (${answer})`);
    }
  }
  ctx.out(`output:    ${serviceLogPath(ctx.env)} (and the daemon's log beside it: termsupervisor logs)`);
  return 0;
}
