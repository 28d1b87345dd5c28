// Loads config/default.jsonc, checks a user file against config/schema.json (made from the defaults: see
// config-schema.ts), overlays it, and compiles the pattern library. A bad key or regex is refused with its key path
// and the reason: never half-applied.
import { readFileSync, existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import { parseJsonc } from './jsonc.js';
import { isRegexPath, MENU_KEYS as MENU_KEY_WORDS } from './config-schema.js';
import { configProblems } from './config-validate.js';
import type { PeerConfig } from './peers.js';
import type { QuestionPatterns, DetectionRule, GenericPatterns, ClaudePatterns, CodexPatterns, GeminiPatterns, OpencodePatterns, KiloPatterns, QwenPatterns } from './pattern-types.js';
import { catastrophicShape } from './regex-safety.js';
export type { QuestionPatterns, DetectionRule, GenericPatterns, ClaudePatterns, CodexPatterns, GeminiPatterns, OpencodePatterns, KiloPatterns, QwenPatterns } from './pattern-types.js';

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid configuration:\n  ${problems.join('\n  ')}`);
  }
}

export const DEFAULT_CONFIG_PATH = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'config', 'default.jsonc');

export type Raw = { [k: string]: unknown };

export function readDefaultRaw(): Raw {
  return parseJsonc(readFileSync(DEFAULT_CONFIG_PATH, 'utf8'), DEFAULT_CONFIG_PATH) as Raw;
}

/** `user` (already checked against the schema) laid over `base`: objects key by key, anything else replaced. A
 * user file's own `$schema` (its editor's) is not a setting. */
function overlay(base: unknown, user: unknown): unknown {
  if (!isObject(base) || !isObject(user)) return user;
  const out: Raw = { ...base };
  for (const [k, v] of Object.entries(user)) if (k !== '$schema') out[k] = overlay(base[k], v);
  return out;
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

function compileRegex(src: string, path: string, problems: string[]): RegExp {
  try {
    const re = new RegExp(src, 'u');
    // Patterns run on every screen row of every pane, on V8's backtracking engine: one that can take exponential
    // time would hang the daemon on the first row that sets it off (regex-safety.ts). The built-in ones are checked
    // by a test instead (checking them all at every start would cost each CLI command tens of ms).
    const why = builtInPatterns().has(src) ? null : catastrophicShape(src);
    if (why) {
      problems.push(`${path}: the regular expression ${JSON.stringify(src)} can take exponential time (${why}); rewrite it so each round of a repetition starts with something its inner repetition cannot match`);
      return /(?!)/u;
    }
    return re;
  } catch (e) {
    problems.push(`${path}: invalid regular expression ${JSON.stringify(src)}: ${(e as Error).message.replace(/^Invalid regular expression: /, '')}`);
    return /(?!)/u;
  }
}

let builtIn: Set<string> | null = null;
/** Every regex string of config/default.jsonc. */
function builtInPatterns(): Set<string> {
  if (builtIn) return builtIn;
  const out = new Set<string>();
  const walk = (node: unknown): void => {
    if (typeof node === 'string') out.add(node);
    else if (Array.isArray(node)) node.forEach(walk);
    else if (isObject(node)) Object.values(node).forEach(walk);
  };
  walk(readDefaultRaw());
  return (builtIn = out);
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
    problems.push(...configProblems(user));
    merged = overlay(merged, user);
  }
  if (opts.overrides) {
    problems.push(...configProblems(opts.overrides));
    merged = overlay(merged, opts.overrides);
  }
  // Regexes are compiled whatever the schema said, so every problem is reported at once.
  const compiled = compileTree(merged, '', problems);
  if (problems.length) throw new ConfigError(file ? problems.map((p) => `${file}: ${p}`) : problems);
  return compiled as Config;
}

function isObject(x: unknown): x is Raw {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
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
  hook_end_failure_s: number;
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
  peers: PeerConfig[];
}

/** How a question's option is typed into a program (section `actions.keys`). */
export type MenuKeys = 'digit' | 'digit_enter' | 'arrows' | 'buttons';
export const MENU_KEYS: readonly MenuKeys[] = MENU_KEY_WORDS;

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
  /** Show the panes' states in tmux (user options) and acknowledge what a person's client shows (issue 29). */
  presence: boolean;
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
  group_s: number;
  retries: number;
  retry_base_s: number;
  webhook_timeout_s: number;
  command: string;
  command_states: string[];
  dashboard_url: string;
}

export interface LogConfig {
  level: string;
  max_bytes: number;
  keep: number;
}
