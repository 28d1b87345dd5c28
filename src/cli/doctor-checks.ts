// What `termsupervisor doctor` looks at, one check per function, each ending in ok / warn / fail / n/a with a
// one-line fix. Reuses the daemon's own pieces (config loader, runtime file, token, hooks status, tmux version
// rule, desktop notifier choice, read-only store inspection), so doctor and the daemon never disagree. Works with
// no daemon running: what needs one says so.
import { execFile } from 'node:child_process';
import { accessSync, constants, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConfigError, loadConfig, type Config } from '../config/config.js';
import { defaultDbPath, userConfigPath } from '../config/paths.js';
import { readRuntimeFile, runtimeFilePath } from '../daemon/runtime-file.js';
import { readToken, tokenPath } from '../daemon/token.js';
import { HOOK_AGENTS, type HookAgent } from '../hooks/agents.js';
import { hookStatus } from '../hooks/install.js';
import { MIN_TMUX_VERSION, tmuxVersionSupported } from '../attach/tmux/tmux-version.js';
import { desktopProgram } from '../notify/desktop.js';
import { inspectDb } from '../store/inspect-db.js';
import { damagedAdvice, isDamaged, StoreError } from '../store/store-error.js';
import type { HealthView } from '../web/api-types.js';
import type { PaneView } from '../web/api-types.js';
import { findDaemon, type DaemonTarget } from './daemon-link.js';
import { daemonNotifyChecks } from './doctor-notify.js';
import { hookStatusText } from './hooks.js';
import { configFor } from './load-config.js';
import { VERSION } from './version.js';
import { findExecutable } from './which.js';

export type CheckStatus = 'ok' | 'warn' | 'fail' | 'n/a';

export interface Check {
  /** Stable name for scripts (--json): config, daemon, token, tmux, iterm2, hooks.<agent>, shell.<pane>, notify, history, database. */
  id: string;
  status: CheckStatus;
  detail: string;
  /** One line saying what to do (warn and fail). */
  fix?: string;
}

export interface DoctorOptions {
  daemon?: string;
  config?: string;
  db?: string;
  platform?: NodeJS.Platform;
}

/** A daemon that does not answer /healthz within this long is reported as not answering. */
const PROBE_TIMEOUT_MS = 3000;
const AGENT_NAMES: Record<HookAgent, string> = { claude: 'Claude Code', codex: 'Codex CLI', gemini: 'Gemini CLI', qwen: 'Qwen Code', opencode: 'opencode', kilo: 'Kilo Code CLI' };
const BRIDGE_SCRIPT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'bridge', 'iterm2_bridge.py');

/** What the checks learnt about the daemon: reachable (with its panes), or not. */
interface DaemonSeen {
  target: DaemonTarget | null;
  reachable: boolean;
  panes: PaneView[] | null;
  /** The running daemon's history health (null: no daemon, or one too old to say). */
  history?: HealthView['history'] | null;
}

export async function runChecks(o: DoctorOptions = {}): Promise<Check[]> {
  const platform = o.platform ?? process.platform;
  const { check: configCheck, cfg } = checkConfig(o.config);
  const { check: daemonCheck, seen } = await checkDaemon(o.daemon, cfg);
  const checks = [configCheck, daemonCheck, await checkToken(seen), await checkTmux(cfg, seen), checkIterm2(platform, seen)];
  for (const agent of HOOK_AGENTS) checks.push(checkHooks(agent));
  // The daemon's own channels when one answers; else what this shell's config and PATH would give.
  const fromDaemon = seen.reachable && seen.target ? await daemonNotifyChecks(seen.target, PROBE_TIMEOUT_MS) : null;
  checks.push(...checkShellIntegration(seen), ...(fromDaemon ?? [checkNotify(cfg, platform)]), ...checkHistory(seen), checkDatabase(o.db));
  return checks;
}

function checkConfig(path: string | undefined): { check: Check; cfg: Config } {
  try {
    const cfg = configFor(path);
    const file = path ?? (existsSync(userConfigPath()) ? userConfigPath() : null);
    return { check: { id: 'config', status: 'ok', detail: file ? `valid: ${file}` : `defaults only (no ${userConfigPath()})` }, cfg };
  } catch (e) {
    if (!(e instanceof ConfigError)) throw e;
    const check: Check = { id: 'config', status: 'fail', detail: e.problems.join('; '), fix: 'correct the key named above (docs/config.md lists every key); the daemon refuses to start with it' };
    return { check, cfg: loadConfig() };
  }
}

async function checkDaemon(flag: string | undefined, cfg: Config): Promise<{ check: Check; seen: DaemonSeen }> {
  const target = findDaemon(flag);
  if (!target) {
    const none = { target: null, reachable: false, panes: null };
    // A daemon on the configured port that wrote its runtime file elsewhere runs with other XDG dirs.
    const port = `http://${cfg.daemon.host.includes(':') ? `[${cfg.daemon.host}]` : cfg.daemon.host}:${cfg.daemon.port}`;
    const other = await fetch(`${port}/healthz`, { signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) }).then((r) => r.json() as Promise<{ version?: string }>).catch(() => null);
    if (other?.version) {
      return { check: { id: 'daemon', status: 'fail', detail: `no runtime file at ${runtimeFilePath()}, but a termsupervisor daemon (${other.version}) answers at ${port}: it runs with other XDG dirs`, fix: `run this in the daemon's environment (XDG_RUNTIME_DIR, XDG_CONFIG_HOME), or pass --daemon ${port}` }, seen: none };
    }
    const check: Check = { id: 'daemon', status: 'fail', detail: `no running daemon (no live runtime file at ${runtimeFilePath()}, nothing at ${port})`, fix: 'start it: `termsupervisor daemon` (or `make run`); or point at one with --daemon URL / $TERMSUPERVISOR_DAEMON' };
    return { check, seen: none };
  }
  const url = target.url.replace(/\/+$/, '');
  const from = { flag: '--daemon', env: '$TERMSUPERVISOR_DAEMON', 'runtime-file': 'the runtime file' }[target.from];
  try {
    const health = (await (await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) })).json()) as Partial<HealthView>;
    const panes = await fetch(`${url}/api/panes`, { headers: auth(target), signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) }).then((r) => (r.ok ? (r.json() as Promise<PaneView[]>) : null));
    const seen = { target: { ...target, url }, reachable: true, panes, history: health.history ?? null };
    if (health.version !== VERSION) {
      return { check: { id: 'daemon', status: 'warn', detail: `reachable at ${url}, but it is version ${health.version} and this command ${VERSION}`, fix: 'restart the daemon so both are the same build' }, seen };
    }
    return { check: { id: 'daemon', status: 'ok', detail: `reachable at ${url} (version ${VERSION}, found through ${from})` }, seen };
  } catch (e) {
    const why = (e as { cause?: { code?: string } }).cause?.code ?? (e as Error).name;
    const fix = target.from === 'runtime-file' ? `its process is alive but does not answer: see its log, or restart it` : `check ${from}, or start a daemon there`;
    return { check: { id: 'daemon', status: 'fail', detail: `nothing answers at ${url} (${why}; found through ${from})`, fix }, seen: { target, reachable: false, panes: null } };
  }
}

async function checkToken(seen: DaemonSeen): Promise<Check> {
  const path = tokenPath();
  if (!readToken(path)) {
    const what = existsSync(path) ? `${path} does not hold a token` : `no token at ${path}`;
    return { id: 'token', status: 'fail', detail: what, fix: 'start the daemon once as this user (it creates the token); `run` and hooks need it to join' };
  }
  if (!seen.reachable || !seen.target) return { id: 'token', status: 'ok', detail: `present at ${path} (not checked: no daemon answers)` };
  // Asking for a dashboard code is the cheapest request that needs the token, and changes nothing.
  const res = await fetch(`${seen.target.url}/api/auth/code`, { method: 'POST', headers: auth(seen.target), signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) }).catch(() => null);
  if (res?.ok) return { id: 'token', status: 'ok', detail: `present at ${path} and accepted by the daemon` };
  return { id: 'token', status: 'fail', detail: `the daemon refused the token in ${path} (${res ? `HTTP ${res.status}` : 'no answer'})`, fix: 'the daemon runs as another user or with another XDG_CONFIG_HOME: run doctor in its environment, or restart it as you' };
}

async function checkTmux(cfg: Config, seen: DaemonSeen): Promise<Check> {
  if (!cfg.tmux.enabled) return { id: 'tmux', status: 'n/a', detail: 'off in the config (tmux.enabled is false)' };
  const line = await new Promise<string | null>((resolve) => {
    execFile('tmux', ['-V'], { timeout: PROBE_TIMEOUT_MS }, (err, stdout) => resolve(err ? null : String(stdout).trim()));
  });
  if (line === null) return { id: 'tmux', status: 'warn', detail: 'tmux not found: tmux panes are not watched', fix: `if you use tmux, install ${MIN_TMUX_VERSION} or newer (apt install tmux, brew install tmux)` };
  if (!tmuxVersionSupported(line)) return { id: 'tmux', status: 'fail', detail: `${line} is too old: tmux panes are not watched (${MIN_TMUX_VERSION} or newer needed)`, fix: `upgrade tmux to ${MIN_TMUX_VERSION}+ and restart the daemon` };
  const followed = seen.panes?.filter((p) => p.attach === 'tmux' && p.alive).length;
  return { id: 'tmux', status: 'ok', detail: `${line} (${MIN_TMUX_VERSION}+ needed)${followed === undefined ? '' : `; the daemon follows ${followed} tmux pane${followed === 1 ? '' : 's'}`}` };
}

function checkIterm2(platform: NodeJS.Platform, seen: DaemonSeen): Check {
  if (platform !== 'darwin') return { id: 'iterm2', status: 'n/a', detail: 'not applicable: the iTerm2 bridge is for macOS' };
  if (!seen.panes) return { id: 'iterm2', status: 'n/a', detail: 'no daemon to ask' };
  const sessions = seen.panes.filter((p) => p.attach === 'iterm2' && p.alive).length;
  if (sessions) return { id: 'iterm2', status: 'ok', detail: `bridge connected: ${sessions} iTerm2 session${sessions === 1 ? '' : 's'}` };
  return { id: 'iterm2', status: 'warn', detail: 'no iTerm2 bridge connected (no iTerm2 sessions on the daemon)', fix: `if you use iTerm2: python3 ${BRIDGE_SCRIPT} (docs/iterm2-bridge.md)` };
}

function checkHooks(agent: HookAgent): Check {
  const s = hookStatus(agent);
  const id = `hooks.${agent}`;
  const name = AGENT_NAMES[agent];
  if (!s.exists && !existsSync(dirname(s.file))) return { id, status: 'n/a', detail: `${name} not set up here (no ${dirname(s.file)})` };
  const detail = `${name}: ${hookStatusText(s)} (${s.file})`;
  if (s.missing.length === 0 && !s.foreign) return { id, status: 'ok', detail };
  const fix = s.foreign ? `make that program also run \`termsupervisor hook codex "$1"\` (docs/hooks.md)` : `termsupervisor hooks install ${agent}, then restart ${name}`;
  return { id, status: 'warn', detail, fix };
}

function checkShellIntegration(seen: DaemonSeen): Check[] {
  if (!seen.panes) return [{ id: 'shell', status: 'n/a', detail: 'shell integration: no daemon to ask' }];
  const live = seen.panes.filter((p) => p.alive);
  if (!live.length) return [{ id: 'shell', status: 'n/a', detail: 'shell integration: no live panes' }];
  return live.map((p): Check => {
    const id = `shell.${p.id}`;
    const pane = `pane ${p.name}`; // the id is in the check's own id
    if (p.shellIntegration === undefined) return { id, status: 'n/a', detail: `${pane}: the daemon is too old to say` };
    if (p.shellIntegration) return { id, status: 'ok', detail: `${pane}: shell integration marks seen (Tier 1)` };
    if (p.program !== 'shell') return { id, status: 'n/a', detail: `${pane}: ${p.program}, no shell prompt to mark` };
    return { id, status: 'warn', detail: `${pane}: no shell integration marks (OSC 133/633) seen: commands are read from the screen only`, fix: 'load shell integration in that shell: termsupervisor shell-integration bash|zsh|fish --install, or your terminal\'s own' };
  });
}

function checkNotify(cfg: Config, platform: NodeJS.Platform): Check {
  const webhook = cfg.notify.webhook_url ? `; webhook ${cfg.notify.webhook_format} on` : '';
  if (!cfg.notify.desktop) return { id: 'notify', status: 'n/a', detail: `desktop notifications off in the config (notify.desktop)${webhook}` };
  const program = desktopProgram(platform);
  const bin = findExecutable(program);
  if (bin) return { id: 'notify', status: 'ok', detail: `desktop notifications through ${bin}${webhook} (no daemon to ask: this shell's PATH and config)` };
  const fix = program === 'notify-send' ? 'install it (apt install libnotify-bin, dnf install libnotify), or set notify.desktop to false' : 'osascript comes with macOS: check PATH';
  return { id: 'notify', status: 'warn', detail: `${program} not found on PATH: no desktop notifications${webhook}`, fix };
}

/** The running daemon's own word on its history: kept, or degraded with the cause (a full disk, a damaged file). */
function checkHistory(seen: DaemonSeen): Check[] {
  const h = seen.history;
  if (!h) return [];
  if (h.status === 'ok') return [{ id: 'history', status: 'ok', detail: `the daemon keeps history (${h.recoveries ? `recovered ${h.recoveries} time${h.recoveries === 1 ? '' : 's'} by itself` : 'no failures'})` }];
  const since = h.since === null ? '' : ` for ${Math.round((Date.now() - h.since) / 1000)} s`;
  const detail = `history degraded${since}: ${h.op} failed: ${h.cause}; ${h.queued} writes wait in memory${h.dropped ? `, ${h.dropped} lost` : ''} (panes are still watched)`;
  const fix = h.damaged
    ? 'the database file is damaged: stop the daemon and see the database check below for the way out'
    : /FULL/.test(h.cause ?? '') ? 'free disk space where the database lives: history catches up by itself' : 'see the daemon log (termsupervisor logs); history catches up by itself once the cause is gone';
  return [{ id: 'history', status: 'fail', detail, fix }];
}

function checkDatabase(explicit: string | undefined): Check {
  const path = explicit ?? readRuntimeFile()?.db ?? defaultDbPath();
  if (!existsSync(path)) {
    return { id: 'database', status: 'warn', detail: `no history database at ${path} yet`, fix: 'the daemon creates it on start; a daemon started with --db uses that file: termsupervisor doctor --db PATH' };
  }
  try {
    accessSync(path, constants.R_OK | constants.W_OK);
    accessSync(dirname(path), constants.W_OK); // SQLite writes its -wal and -shm files beside it
  } catch (e) {
    return { id: 'database', status: 'fail', detail: `${path} is not writable (${(e as NodeJS.ErrnoException).code})`, fix: 'give it back to your user (chown, chmod u+w), or start the daemon with --db elsewhere' };
  }
  try {
    const { version, latest } = inspectDb(path);
    const when = version < latest ? `, migrated to ${latest} on the daemon's next start` : '';
    return { id: 'database', status: 'ok', detail: `${path}: writable, schema version ${version}${when}` };
  } catch (e) {
    if (!(e instanceof StoreError)) throw e;
    const fix = isDamaged(e.cause) || / is damaged /.test(e.message) ? damagedAdvice(path) : 'move the file away, or start the daemon with --db elsewhere';
    return { id: 'database', status: 'fail', detail: e.message, fix };
  }
}

function auth(t: DaemonTarget): Record<string, string> {
  return t.token ? { authorization: `Bearer ${t.token}` } : {};
}
