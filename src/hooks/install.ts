// Installs and removes termsupervisor's hooks in each agent's own settings file: where the file is, what goes in it
// (src/hooks/settings-json.ts, src/hooks/codex-toml.ts decide the edit), and writing it safely: a timestamped
// backup of the previous version, then an atomic replace that keeps the file's mode (and writes through a symlink).
import { rmSync } from 'node:fs';
import { readOrNull, writeWithBackup } from '../config/write-with-backup.js';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { CLAUDE_EVENTS, CLAUDE_TOOL_EVENTS, GEMINI_EVENTS, OPENCODE_EVENTS, QWEN_EVENTS, QWEN_TOOL_EVENTS, type HookAgent } from './agents.js';
import { installPlugin, pluginEvents, pluginFile, uninstallPlugin } from './opencode-plugin.js';
import { installedEvents, installJsonHooks, uninstallJsonHooks, type EditResult, type JsonHookSpec } from './settings-json.js';
import { currentNotify, installCodexNotify, isOurArgv, uninstallCodexNotify } from './codex-toml.js';

/** Claude Code kills a hook after this many seconds (ours exits within a second; this only bounds a wedged node). */
export const CLAUDE_HOOK_TIMEOUT_S = 5;
/** The same bound for Gemini CLI, which counts in milliseconds. */
export const GEMINI_HOOK_TIMEOUT_MS = 5000;
/** The same bound for Qwen Code, in seconds like Claude Code (its default is 60 s). */
export const QWEN_HOOK_TIMEOUT_S = 5;

export interface HookPlaces {
  /** Stands in for the home directory (tests, a second account); the agents' own variables are then ignored. */
  home?: string;
  env?: NodeJS.ProcessEnv;
}

export interface Plan {
  agent: HookAgent;
  file: string;
  action: 'install' | 'uninstall';
  /** The file's text now (null: no file). */
  before: string | null;
  result: EditResult;
  /** The file goes altogether (uninstalling opencode's or Kilo's plugin, a file of ours alone). */
  remove?: boolean;
  /** What a person should know even when it worked (hooks disabled in the agent, a key left alone). */
  warnings: string[];
}

/** The settings file each agent reads its hooks from. */
export function settingsFile(agent: HookAgent, places: HookPlaces = {}): string {
  const env = places.env ?? process.env;
  const home = places.home ?? homedir();
  switch (agent) {
    case 'claude':
      return join(places.home === undefined && env['CLAUDE_CONFIG_DIR'] ? env['CLAUDE_CONFIG_DIR'] : join(home, '.claude'), 'settings.json');
    case 'codex':
      return join(places.home === undefined && env['CODEX_HOME'] ? env['CODEX_HOME'] : join(home, '.codex'), 'config.toml');
    case 'gemini':
      return join(home, '.gemini', 'settings.json');
    case 'qwen':
      return join(places.home === undefined && env['QWEN_HOME'] ? env['QWEN_HOME'] : join(home, '.qwen'), 'settings.json');
    case 'opencode':
    case 'kilo':
      return pluginFile(agent, places.home, env);
  }
}

/** The shell command a Claude/Gemini hook runs for `event`. */
export function hookCommandLine(program: string, agent: HookAgent, event: string): string {
  return `${shellQuote(program)} hook ${agent} ${event}`;
}

export function planInstall(agent: HookAgent, program: string, places: HookPlaces = {}): Plan {
  const file = settingsFile(agent, places);
  const before = readOrNull(file);
  let result: EditResult;
  if (agent === 'codex') result = installCodexNotify(before, program);
  else if (agent === 'opencode' || agent === 'kilo') result = installPlugin(before, agent, program);
  else result = installJsonHooks(before, jsonSpec(agent, program));
  const warnings = agent === 'gemini' ? geminiWarnings(before) : agent === 'qwen' ? qwenWarnings(before) : [];
  return { agent, file, action: 'install', before, result, warnings };
}

export function planUninstall(agent: HookAgent, places: HookPlaces = {}): Plan {
  const file = settingsFile(agent, places);
  const before = readOrNull(file);
  if (agent === 'opencode' || agent === 'kilo') {
    const r = uninstallPlugin(before);
    if (r.status === 'remove') return { agent, file, action: 'uninstall', before, result: { status: 'changed', text: '', notes: r.notes }, remove: true, warnings: [] };
    return { agent, file, action: 'uninstall', before, result: r, warnings: [] };
  }
  const result = agent === 'codex' ? uninstallCodexNotify(before) : uninstallJsonHooks(before);
  return { agent, file, action: 'uninstall', before, result, warnings: [] };
}

/** Writes a changed plan: backs up the file as it was (when there was one), then replaces it. Returns the backup. */
export function applyPlan(plan: Plan, now: Date = new Date()): { backup: string | null } {
  if (plan.result.status !== 'changed') return { backup: null };
  if (plan.remove) {
    rmSync(plan.file, { force: true });
    return { backup: null };
  }
  // Our own plugin file is replaced whole: no backup of a file we wrote (and none beside the person's plugins).
  if (plan.agent === 'opencode' || plan.agent === 'kilo') return writeWithBackup(plan.file, null, plan.result.text, now, 0o644);
  return writeWithBackup(plan.file, plan.before, plan.result.text, now);
}

export interface AgentStatus {
  agent: HookAgent;
  file: string;
  exists: boolean;
  /** Claude/Gemini: the events our hook is in. Codex: ['notify'] when notify is ours. */
  installed: string[];
  /** Events still missing for a full install. */
  missing: string[];
  /** Codex: notify set to someone else's program. */
  foreign?: string;
}

export function hookStatus(agent: HookAgent, places: HookPlaces = {}): AgentStatus {
  const file = settingsFile(agent, places);
  const text = readOrNull(file);
  if (agent === 'codex') {
    const argv = currentNotify(text);
    const ours = Array.isArray(argv) && isOurArgv(argv);
    const foreign = argv === undefined ? 'unreadable' : argv && !ours ? JSON.stringify(argv) : undefined;
    return { agent, file, exists: text !== null, installed: ours ? ['notify'] : [], missing: ours ? [] : ['notify'], ...(foreign && { foreign }) };
  }
  if (agent === 'opencode' || agent === 'kilo') {
    const events = pluginEvents(text);
    const installed = text === null ? [] : OPENCODE_EVENTS.filter((e) => e === 'chat.message' ? events.length > 0 : events.includes(e));
    return { agent, file, exists: text !== null, installed, missing: OPENCODE_EVENTS.filter((e) => !installed.includes(e)) };
  }
  const installed = installedEvents(text);
  const all: readonly string[] = agent === 'claude' ? CLAUDE_EVENTS : agent === 'qwen' ? QWEN_EVENTS : GEMINI_EVENTS;
  return { agent, file, exists: text !== null, installed, missing: all.filter((e) => !installed.includes(e)) };
}

function jsonSpec(agent: 'claude' | 'gemini' | 'qwen', program: string): JsonHookSpec {
  if (agent === 'qwen') {
    return {
      events: QWEN_EVENTS,
      entry: (event) => ({ type: 'command', command: hookCommandLine(program, 'qwen', event), timeout: QWEN_HOOK_TIMEOUT_S }),
      matcher: (event) => (QWEN_TOOL_EVENTS.includes(event) ? '*' : undefined),
    };
  }
  if (agent === 'claude') {
    return {
      events: CLAUDE_EVENTS,
      entry: (event) => ({ type: 'command', command: hookCommandLine(program, 'claude', event), timeout: CLAUDE_HOOK_TIMEOUT_S }),
      matcher: (event) => (CLAUDE_TOOL_EVENTS.includes(event) ? '*' : undefined),
    };
  }
  return {
    events: GEMINI_EVENTS,
    entry: (event) => ({ name: `termsupervisor-${event}`, type: 'command', command: hookCommandLine(program, 'gemini', event), timeout: GEMINI_HOOK_TIMEOUT_MS }),
    matcher: () => undefined,
  };
}

/** Gemini runs no hooks at all when the person turned them off: say so rather than install silently. */
function geminiWarnings(text: string | null): string[] {
  if (text === null) return [];
  try {
    const cfg = JSON.parse(text) as { hooksConfig?: { enabled?: unknown } };
    if (cfg?.hooksConfig?.enabled === false) return ['hooks are turned off in this file (hooksConfig.enabled is false): Gemini CLI will not run them until you turn them on'];
  } catch {
    // refused elsewhere
  }
  return [];
}

/** Qwen Code runs no hooks when the person turned them all off: say so rather than install silently. */
function qwenWarnings(text: string | null): string[] {
  if (text === null) return [];
  try {
    const cfg = JSON.parse(text) as { disableAllHooks?: unknown };
    if (cfg?.disableAllHooks === true) return ['hooks are turned off in this file (disableAllHooks is true): Qwen Code will not run them until you turn them on'];
  } catch {
    // refused elsewhere
  }
  return [];
}

/** The program path as one shell word. */
export function shellQuote(s: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}
