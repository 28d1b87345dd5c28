// Loads config/default.jsonc, overlays a user file, validates every key against the defaults' shape and compiles
// the pattern library. A bad key or regex is refused with its key path and the reason: never half-applied.
import { readFileSync, existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import { parseJsonc } from './jsonc.js';
import type { QuestionPatterns, DetectionRule, GenericPatterns, ClaudePatterns, CodexPatterns, GeminiPatterns, OpencodePatterns, KiloPatterns, QwenPatterns } from './pattern-types.js';
export type { QuestionPatterns, DetectionRule, GenericPatterns, ClaudePatterns, CodexPatterns, GeminiPatterns, OpencodePatterns, KiloPatterns, QwenPatterns } from './pattern-types.js';

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid configuration:\n  ${problems.join('\n  ')}`);
  }
}

/** Key paths whose strings are literal words, not regexes. */
const LITERAL_STRING_KEYS = new Set(['job_gate.whitelist', 'job_gate.shells', 'patterns.generic.completion_tokens']);

export const DEFAULT_CONFIG_PATH = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'config', 'default.jsonc');

export type Raw = { [k: string]: unknown };

export function readDefaultRaw(): Raw {
  return parseJsonc(readFileSync(DEFAULT_CONFIG_PATH, 'utf8'), DEFAULT_CONFIG_PATH) as Raw;
}

/** Overlay `user` onto `base`, checking every user key against the base's shape. */
export function mergeChecked(base: unknown, user: unknown, path: string, problems: string[]): unknown {
  if (isObject(base)) {
    if (!isObject(user)) {
      problems.push(`${path || '(top)'}: expected an object, got ${describe(user)}`);
      return base;
    }
    const out: Raw = { ...base };
    for (const [k, v] of Object.entries(user)) {
      const p = path ? `${path}.${k}` : k;
      if (!(k in base)) {
        problems.push(`${p}: unknown key${suggest(k, Object.keys(base))}`);
        continue;
      }
      out[k] = mergeChecked(base[k], v, p, problems);
    }
    return out;
  }
  if (Array.isArray(base)) {
    const item = LIST_ITEMS[path];
    if (item) return checkItems(item, user, path, problems);
    if (!Array.isArray(user) || user.some((x) => typeof x !== 'string')) {
      problems.push(`${path}: expected a list of strings, got ${describe(user)}`);
      return base;
    }
    return user;
  }
  if (typeof base !== typeof user) {
    problems.push(`${path}: expected a ${typeof base}, got ${describe(user)}`);
    return base;
  }
  if (typeof user === 'number' && (!Number.isFinite(user) || user < 0)) {
    problems.push(`${path}: expected a non-negative number, got ${user}`);
    return base;
  }
  return user;
}

/** Every regex in the tree must compile; returns the tree with RegExp objects in place of regex strings. */
function compileTree(node: unknown, path: string, problems: string[]): unknown {
  if (typeof node === 'string') {
    if (!isRegexPath(path)) return node;
    return compileRegex(node, path, problems);
  }
  if (Array.isArray(node)) {
    if (!isRegexPath(path)) return node;
    return node.map((s, i) => compileRegex(String(s), `${path}[${i}]`, problems));
  }
  if (isObject(node)) {
    // Built in one go, not key by key: V8 turns an object grown by many computed-key stores into a hash table,
    // and thresholds are read on every tick of every pane.
    return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, compileTree(v, path ? `${path}.${k}` : k, problems)]));
  }
  return node;
}

function isRegexPath(path: string): boolean {
  const base = path.replace(/\[\d+\]$/, '');
  return (base.startsWith('patterns.') || base.startsWith('detection.')) && !LITERAL_STRING_KEYS.has(base) && !base.endsWith('use_bracketed_paste');
}

function compileRegex(src: string, path: string, problems: string[]): RegExp {
  try {
    return new RegExp(src, 'u');
  } catch (e) {
    problems.push(`${path}: invalid regular expression ${JSON.stringify(src)}: ${(e as Error).message.replace(/^Invalid regular expression: /, '')}`);
    return /(?!)/u;
  }
}

export interface LoadOptions {
  /** Explicit user config file; a missing explicit file is an error. */
  path?: string;
  /** Default location checked when no explicit path is given; a missing default file is fine. */
  defaultUserPath?: string;
  /** In-memory overrides (tests, flags), applied after the file. */
  overrides?: Raw;
}

export function loadConfig(opts: LoadOptions = {}): Config {
  const problems: string[] = [];
  let merged: unknown = readDefaultRaw();
  const file = opts.path ?? (opts.defaultUserPath && existsSync(opts.defaultUserPath) ? opts.defaultUserPath : undefined);
  if (file) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (e) {
      throw new ConfigError([`${file}: cannot read: ${(e as Error).message}`]);
    }
    let user: unknown;
    try {
      user = parseJsonc(text, file);
    } catch (e) {
      throw new ConfigError([(e as Error).message]);
    }
    merged = mergeChecked(merged, user, '', problems);
  }
  if (opts.overrides) merged = mergeChecked(merged, opts.overrides, '', problems);
  const compiled = compileTree(merged, '', problems);
  checkChoices(compiled as Raw, problems);
  if (problems.length) throw new ConfigError(file ? problems.map((p) => `${file}: ${p}`) : problems);
  return compiled as Config;
}

/** Lists of objects (empty by default): each item's keys, with their types and defaults, and which must be set. */
interface ListItem {
  shape: Raw;
  required: string[];
}
const LIST_ITEMS: Record<string, ListItem> = {
  remotes: {
    shape: { name: '', destination: '', identity_file: '', socket: '', tmux: 'tmux', allow_typing: false },
    required: ['name', 'destination'],
  },
};
/** A remote's name is the host part of its panes' ids (`devbox:%3`) and is shown as their badge. */
const HOST_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$/;

function checkItems(item: ListItem, user: unknown, path: string, problems: string[]): unknown {
  if (!Array.isArray(user)) {
    problems.push(`${path}: expected a list, got ${describe(user)}`);
    return [];
  }
  const names = new Set<string>();
  return user.map((u, i) => {
    const p = `${path}[${i}]`;
    const merged = mergeChecked(item.shape, u, p, problems) as Raw;
    for (const k of item.required) if (!merged[k]) problems.push(`${p}.${k}: must be set`);
    const name = merged['name'];
    if (typeof name === 'string' && name) {
      if (!HOST_NAME.test(name)) problems.push(`${p}.name: ${JSON.stringify(name)} is not a host name (letters, digits, . _ -)`);
      if (names.has(name)) problems.push(`${p}.name: ${JSON.stringify(name)} is used twice`);
      names.add(name);
    }
    return merged;
  });
}

/** Settings that take one of a few words (or a fixed format): refused with the list of what is allowed. */
const CHOICES: Record<string, readonly string[]> = {
  'notify.states': ['WAITING_APPROVAL', 'FAILED', 'STALLED', 'DONE', 'TASK_FINISHED', 'TASK_NEEDS_YOU'],
  'notify.webhook_format': ['json', 'ntfy'],
  'log.level': ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'],
  'tasks.on_stall': ['pause', 'fail'],
};
/** "HH:MM-HH:MM", or empty for none. */
const QUIET_HOURS = /^$|^([01]\d|2[0-3]):[0-5]\d-([01]\d|2[0-3]):[0-5]\d$/;

function checkChoices(cfg: Raw, problems: string[]): void {
  for (const [path, allowed] of Object.entries(CHOICES)) {
    const v = path.split('.').reduce<unknown>((o, k) => (isObject(o) ? o[k] : undefined), cfg);
    for (const x of Array.isArray(v) ? v : [v]) {
      if (typeof x === 'string' && !allowed.includes(x)) problems.push(`${path}: ${JSON.stringify(x)} is not one of ${allowed.join(', ')}`);
    }
  }
  const keys = ((cfg['actions'] as Raw | undefined)?.['keys'] ?? {}) as Raw;
  for (const [program, v] of Object.entries(keys)) {
    const menu = isObject(v) ? v['menu'] : undefined;
    if (!(MENU_KEYS as readonly unknown[]).includes(menu)) problems.push(`actions.keys.${program}.menu: ${JSON.stringify(menu)} is not one of ${MENU_KEYS.join(', ')}`);
  }
  const quiet = (cfg['notify'] as Raw | undefined)?.['quiet_hours'];
  if (typeof quiet === 'string' && !QUIET_HOURS.test(quiet)) problems.push(`notify.quiet_hours: expected "HH:MM-HH:MM" or "", got ${JSON.stringify(quiet)}`);
  const port = (cfg['daemon'] as Raw | undefined)?.['port'];
  if (typeof port === 'number' && (!Number.isInteger(port) || port > 65535)) problems.push(`daemon.port: expected a port number 0-65535, got ${port}`);
}

function isObject(x: unknown): x is Raw {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

function describe(x: unknown): string {
  if (Array.isArray(x)) return 'a list';
  if (x === null) return 'null';
  return `${typeof x} ${JSON.stringify(x)?.slice(0, 40)}`;
}

function suggest(k: string, known: string[]): string {
  const near = known.find((c) => c.toLowerCase() === k.toLowerCase() || c.replace(/_/g, '') === k.replace(/[_-]/g, '').toLowerCase());
  return near ? ` (did you mean "${near}"?)` : ` (known: ${known.join(', ')})`;
}

// ---- The compiled shape -------------------------------------------------------------------------------------

export interface Thresholds {
  tick_s: number;
  rest_tick_s: number;
  coalesce_s: number;
  steady_coalesce_s: number;
  steady_after_s: number;
  settle_s: number;
  quiet_done_s: number;
  quiet_idle_s: number;
  quiet_wait_s: number;
  stability_s: number;
  prompt_stability_s: number;
  debounce_s: number;
  idle_reemit_s: number;
  prompt_silence_s: number;
  long_running_s: number;
  stall_after_s: number;
  newline_gate: number;
  burst_chars: number;
  line_rate_window_s: number;
  unanchored_working_confirm_s: number;
  unanchored_screen_confirm_s: number;
  queued_follow_up_s: number;
  queued_late_end_s: number;
  wait_confirm_s: number;
  waiting_fallback_idle_s: number;
  echo_window_s: number;
  key_response_s: number;
  fullscreen_rest_s: number;
  fullscreen_period_factor: number;
  fullscreen_max_period_s: number;
  fullscreen_cadence_tolerance: number;
  fullscreen_animation_s: number;
  turn_rest_s: number;
  turn_input_rest_s: number;
  generic_startup_s: number;
  anchor_evidence_window_s: number;
  title_animation_s: number;
  history_size: number;
}

/** Agents detected and named (`classify`, `status`) but with no profile of their own: the generic tier (Tier 3)
 * reads them. Their detection rules are in config section `detection`; docs/agents.md lists what each draws. */
export const GENERIC_AGENTS = ['crush', 'cursor', 'copilot', 'cline', 'amp', 'aider', 'kimi', 'goose'] as const;
export type GenericAgentId = (typeof GENERIC_AGENTS)[number];
export type ProgramId = 'claude' | 'codex' | 'gemini' | 'qwen' | 'opencode' | 'kilo' | 'shell' | 'generic' | GenericAgentId;
export const AGENT_CHOICES = ['auto', 'claude', 'codex', 'gemini', 'qwen', 'opencode', 'kilo', 'shell', 'generic', ...GENERIC_AGENTS] as const;

export function isGenericAgent(program: string): program is GenericAgentId {
  return (GENERIC_AGENTS as readonly string[]).includes(program);
}

/** The profile that reads a program: its own, or the generic tier's for an agent that has none. */
export function profileOf(program: ProgramId): Exclude<ProgramId, GenericAgentId> {
  return isGenericAgent(program) ? 'generic' : program;
}
export type AgentChoice = (typeof AGENT_CHOICES)[number];

export interface Config {
  thresholds: Thresholds;
  job_gate: { enabled: boolean; whitelist: string[]; shells: string[] };
  detection: { claude: DetectionRule; codex: DetectionRule; gemini: DetectionRule; qwen: DetectionRule; opencode: DetectionRule; kilo: DetectionRule; shell: DetectionRule } & Record<GenericAgentId, DetectionRule>;
  patterns: {
    generic: GenericPatterns;
    claude: ClaudePatterns;
    codex: CodexPatterns;
    gemini: GeminiPatterns;
    qwen: QwenPatterns;
    opencode: OpencodePatterns;
    kilo: KiloPatterns;
    shell: { use_bracketed_paste: boolean };
    questions: QuestionPatterns;
  };
  actions: ActionsConfig;
  daemon: DaemonConfig;
  notify: NotifyConfig;
  log: LogConfig;
  tmux: TmuxConfig;
  remotes: RemoteConfig[];
  ssh: SshConfig;
  tasks: TasksConfig;
  programs: ProgramsConfig;
  run: { shell_integration: boolean };
}

/** How a question's option is typed into a program (section `actions.keys`). */
export type MenuKeys = 'digit' | 'digit_enter' | 'arrows' | 'buttons';
export const MENU_KEYS: readonly MenuKeys[] = ['digit', 'digit_enter', 'arrows', 'buttons'];

/** Acting on panes from the dashboard, `top` and the CLI (section `actions`). */
export interface ActionsConfig {
  /** Per program, and "default": how its menu takes a choice, and its interrupt key (printable: "Esc", "Ctrl-C"). */
  keys: Record<string, { menu: MenuKeys; interrupt: string }>;
  max_reply_chars: number;
}

/** Which programs are sessions and which are one thing to do (section `programs`, src/analysis/program-kind.ts). */
export interface ProgramsConfig {
  launchers: string[];
  interpreters: string[];
  interpreter_value_options: string[];
  interactive_flags: string[];
  sessions: string[];
  session_one_shot_args: string[];
}

/** Supervised runs: defaults of every task's guardrails, and the LLM judge (config section `tasks`). */
export interface TasksConfig {
  max_iterations: number;
  max_runtime_s: number;
  heartbeat_s: number;
  on_stall: 'pause' | 'fail';
  max_consecutive_failures: number;
  cooldown_s: number;
  max_activations_per_hour: number;
  token_budget: number;
  loop_turns: number;
  reflect_every: number;
  slow_reflections: number;
  risk_threshold: number;
  complete_confidence: number;
  continue_text: string;
  retry_iterations: number;
  ready_stable_s: number;
  turn_start_timeout_s: number;
  settle_s: number;
  pane_wait_s: number;
  enter_delay_s: number;
  approve_keys: string;
  check_timeout_s: number;
  judge: { base_url: string; model: string; api_key_env: string; timeout_s: number; max_retries: number; temperature: number };
}

/** One remote tmux server reached over ssh (config `remotes`, `daemon --remote`). */
export interface RemoteConfig {
  name: string;
  destination: string;
  identity_file: string;
  socket: string;
  tmux: string;
  allow_typing: boolean;
}

export interface SshConfig {
  ssh_command: string;
  alive_interval_s: number;
  alive_count_max: number;
  connect_timeout_s: number;
  control_persist_s: number;
}

export interface TmuxConfig {
  enabled: boolean;
  sockets: string[];
}

export interface DaemonConfig {
  host: string;
  port: number;
  retention_days: number;
  store_flush_s: number;
  publish_flush_s: number;
  ws_coalesce_s: number;
  ws_max_buffered_bytes: number;
  ws_slow_drop_s: number;
  closed_pane_keep_s: number;
  edge_lines: number;
  hook_recent_turn_s: number;
}

export interface NotifyConfig {
  states: string[];
  desktop: boolean;
  terminal_bell: boolean;
  webhook_url: string;
  webhook_format: string;
  min_interval_s: number;
  dedupe_s: number;
  done_min_turn_s: number;
  quiet_hours: string;
}

export interface LogConfig {
  level: string;
  max_bytes: number;
  keep: number;
}
