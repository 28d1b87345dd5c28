// The agents whose own hooks termsupervisor listens to, and the hook events it installs for each. Pure data, no
// imports: the lean `termsupervisor hook` path loads this.
//
// Sources (see tests/fixtures/hooks/README.md for the payloads recorded from them):
//   Claude Code  https://code.claude.com/docs/en/hooks (settings.json `hooks`, JSON on stdin)
//   Codex CLI    https://github.com/openai/codex/blob/main/docs/config.md#notify (config.toml `notify`, one JSON
//                argument appended to argv, stdin null; `agent-turn-complete` is the only type)
//   Gemini CLI   https://github.com/google-gemini/gemini-cli/blob/main/docs/hooks/reference.md (settings.json
//                `hooks`, JSON on stdin, stdout must be JSON or nothing, timeouts in milliseconds)
//   Qwen Code    https://github.com/QwenLM/qwen-code (docs/users/features/hooks.md; settings.json `hooks` in Claude
//                Code's shape, JSON on stdin, timeouts in seconds; event names as in 0.24.4's HookEventName)

//   opencode     https://opencode.ai/docs/plugins/ (a JS module in <config>/opencode/plugin/, loaded at start; its
//                `event` handler receives every bus event {id, type, properties}; the `chat.message` hook each new
//                user message). Checked against opencode-ai 1.18.33: plugins are globbed from `{plugin,plugins}/*.{ts,js}`.
//   Kilo Code    the same plugin API (an opencode fork), in <config>/kilo/plugin/.


export const HOOK_AGENTS = ['claude', 'codex', 'gemini', 'qwen', 'opencode', 'kilo'] as const;
export type HookAgent = (typeof HOOK_AGENTS)[number];

export function isHookAgent(s: unknown): s is HookAgent {
  return typeof s === 'string' && (HOOK_AGENTS as readonly string[]).includes(s);
}

/** Claude Code events installed: turn start, tool use, the permission dialog, notifications, turn end, session. */
export const CLAUDE_EVENTS = ['UserPromptSubmit', 'PreToolUse', 'PermissionRequest', 'Notification', 'Stop', 'SessionStart', 'SessionEnd'] as const;
/** Claude events whose matcher is a tool name: `*` matches every tool. The others take no matcher. */
export const CLAUDE_TOOL_EVENTS: readonly string[] = ['PreToolUse', 'PermissionRequest'];

/** Gemini CLI events installed: turn start and end, the tool-permission notification, session. */
export const GEMINI_EVENTS = ['BeforeAgent', 'AfterAgent', 'Notification', 'SessionStart', 'SessionEnd'] as const;

/** Qwen Code events installed: Claude Code's, and StopFailure (an API error ended the turn, in place of Stop). */
export const QWEN_EVENTS = ['UserPromptSubmit', 'PreToolUse', 'PermissionRequest', 'Notification', 'Stop', 'StopFailure', 'SessionStart', 'SessionEnd'] as const;
/** Qwen events whose matcher is a tool name (`*`: every tool). */
export const QWEN_TOOL_EVENTS: readonly string[] = ['PreToolUse', 'PermissionRequest'];
/** opencode and Kilo events the plugin forwards: a new user message (the turn's start), the session's status
 * (busy, retry, idle = the turn is over), a failure, the permission dialog and its answer, the question tool. */
export const OPENCODE_EVENTS = ['chat.message', 'session.status', 'session.error', 'permission.asked', 'permission.replied', 'question.asked', 'question.replied', 'question.rejected'] as const;

/** An event or sub-kind name as the agents spell them (PascalCase, kebab-case, snake_case): nothing else passes. */
export const EVENT_NAME = /^[A-Za-z][A-Za-z0-9_.-]{0,63}$/;
