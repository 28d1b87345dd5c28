// Agent hook events (Tier 1) as a decision table, like Codex's OSC 7501 in agent-state.ts. Pure: it lives with the analysis it feeds.
// First: what each event means (EFFECTS). Then: what that meaning does in the pane's current state (hookAction).
import type { MachineState, SignalType } from './types.js';
import type { HookAgent } from '../hooks/agents.js';
import { CONTINUATION } from '../hooks/payload.js';

/** What a hook event says about the agent, whatever the pane's state. */
export type HookEffect =
  /** A prompt was submitted: a turn starts (and is anchored, like Enter). */
  | 'turn_start'
  /** The agent is working (a tool is about to run or just ran). */
  | 'work'
  /** The agent asks the person (a permission dialog, a question). */
  | 'wait'
  /** The agent reminds the person of a question it put a while ago (Claude's permission_prompt notification, ~6 s
   * after the dialog opened): news only while that question is still open (hook-turns.ts). */
  | 'wait_reminder'
  /** The agent finished its turn. */
  | 'turn_end'
  /** An error ended the agent's turn (Qwen Code's StopFailure: the API error it gave up retrying; opencode's
   * session.error): FAILED. */
  | 'turn_failed'
  /** The agent has sat at its prompt for a while (Claude's idle_prompt, sent after 60 s). */
  | 'at_rest'
  /** The agent's session ended (exit, /clear, logout). */
  | 'session_end'
  /** Nothing about the state (a session starting, a compaction, an unknown event). */
  | 'none';

type EffectOf = HookEffect | ((detail: string) => HookEffect);

/** Claude Code notification types that put a dialog in front of the person. permission_prompt comes ~6 s after
 * the dialog opened (PermissionRequest said so at once), and still comes when the person answers just then. */
const CLAUDE_ASKS: Record<string, HookEffect> = { permission_prompt: 'wait_reminder', elicitation_dialog: 'wait' };

/** Qwen Code notification types. permission_prompt: the dialog PermissionRequest announced is open (news only while
 * it still is). idle_prompt: sent as the CLI goes idle after a turn (Stop, StopFailure or a cancel before it): a turn
 * we still think runs is over. */
const QWEN_ASKS: Record<string, HookEffect> = { permission_prompt: 'wait_reminder', idle_prompt: 'at_rest' };
/** opencode (and Kilo, its fork): bus events forwarded by our plugin (src/hooks/opencode-plugin.ts). */
const OPENCODE: Record<string, EffectOf> = {
  // The plugin's chat.message hook: a new user message, the turn's start.
  'chat.message': 'turn_start',
  // busy (working; again after a permission is answered), retry (an HTTP error being retried: still working),
  // idle (the turn is over, whether it completed, was interrupted or a command was rejected).
  'session.status': (d) => (d === 'busy' || d === 'retry' ? 'work' : d === 'idle' ? 'turn_end' : 'none'),
  // The older name of status idle: the same end.
  'session.idle': 'turn_end',
  // An interrupt (Esc, Esc) aborts the request with MessageAbortedError: not a failure, the idle after it ends the turn.
  'session.error': (d) => (d === 'MessageAbortedError' ? 'none' : 'turn_failed'),
  'permission.asked': 'wait',
  // Allowed: the tool runs. Rejected: opencode ends the turn (the idle that follows says so).
  'permission.replied': (d) => (d === 'reject' ? 'none' : 'work'),
  'question.asked': 'wait',
  'question.replied': 'work',
  'question.rejected': 'none',
};

export const EFFECTS: Record<HookAgent, Record<string, EffectOf>> = {
  opencode: OPENCODE,
  kilo: OPENCODE,
  claude: {
    UserPromptSubmit: 'turn_start',
    PreToolUse: 'work',
    // Not installed (it fires after every tool), but if a user's own settings send it, it means the same.
    PostToolUse: 'work',
    PermissionRequest: 'wait',
    Notification: (d) => (Object.hasOwn(CLAUDE_ASKS, d) ? CLAUDE_ASKS[d]! : d === 'idle_prompt' ? 'at_rest' : 'none'),
    Stop: 'turn_end',
    // SessionStart also fires on compaction, in the middle of a turn: it says nothing about the state.
    SessionStart: 'none',
    SessionEnd: 'session_end',
  },
  gemini: {
    BeforeAgent: 'turn_start',
    BeforeTool: 'work',
    AfterTool: 'work',
    // Gemini's only notification type is ToolPermission.
    Notification: 'wait',
    AfterAgent: 'turn_end',
    SessionStart: 'none',
    SessionEnd: 'session_end',
  },
  qwen: {
    // With an empty prompt (detail "continuation") it is the turn's tool results going back to the model: work.
    UserPromptSubmit: (d) => (d === CONTINUATION ? 'work' : 'turn_start'),
    PreToolUse: 'work',
    // Not installed (they fire after every tool), but if a user's own settings send them, they mean the same.
    PostToolUse: 'work',
    PostToolUseFailure: 'work',
    // Fired before the dialog opens (a hook may answer it); Notification permission_prompt follows when it is open.
    PermissionRequest: 'wait',
    Notification: (d) => (Object.hasOwn(QWEN_ASKS, d) ? QWEN_ASKS[d]! : 'none'),
    Stop: 'turn_end',
    // In place of Stop when an API error ended the turn (after its own retries; a retried 429 fires nothing).
    StopFailure: 'turn_failed',
    SessionStart: 'none',
    SessionEnd: 'session_end',
  },
  codex: {
    // Codex's notify program hears of turn ends only; its turns start on screen and through OSC 7501.
    'agent-turn-complete': 'turn_end',
  },
};

/** What Gemini CLI's AfterAgent gives as `prompt_response` when the model gave no text (packages/core, 0.61). */
const NO_RESPONSE_TEXT = '[no response text]';

/** A turn-end hook's line carries the agent's answer (Gemini's prompt_response, Codex's last assistant message): the
 * model answered, so an error still on screen is an older turn's. An end with no answer may be a failure's. */
export function endCarriesAnswer(line: string): boolean {
  const text = line.trim();
  return text !== '' && text !== NO_RESPONSE_TEXT;
}

export type HookAction =
  | { kind: 'signal'; type: SignalType; rule: string; effect: HookEffect }
  | { kind: 'none'; rule: string; effect: HookEffect };

export function hookEffect(agent: HookAgent, event: string, detail: string): HookEffect {
  const e = Object.hasOwn(EFFECTS[agent], event) ? EFFECTS[agent][event] : undefined;
  if (e === undefined) return 'none';
  return typeof e === 'function' ? e(detail) : e;
}

/** Events whose sub-kind is part of the rule: it is what they say. */
const KIND_EVENTS: readonly string[] = ['Notification', 'session.status', 'permission.replied', 'session.error'];

/** `hook.claude.stop`, `hook.claude.notification.permission_prompt`, `hook.codex.agent_turn_complete`,
 * `hook.opencode.session_status.idle`. */
export function hookRule(agent: HookAgent, event: string, detail: string): string {
  const name = snake(event);
  return detail && KIND_EVENTS.includes(event) ? `hook.${agent}.${name}.${snake(detail)}` : `hook.${agent}.${name}`;
}

export function hookAction(agent: HookAgent, event: string, detail: string, state: MachineState): HookAction {
  const effect = hookEffect(agent, event, detail);
  const rule = hookRule(agent, event, detail);
  const signal = (type: SignalType): HookAction => ({ kind: 'signal', type, rule, effect });
  const none: HookAction = { kind: 'none', rule, effect };
  const busy = state === 'RUNNING' || state === 'LONG_RUNNING' || state === 'WAITING_APPROVAL';
  switch (effect) {
    case 'turn_start':
    case 'work':
      return signal('run');
    case 'wait':
    case 'wait_reminder':
      return signal('wait');
    case 'turn_end':
      // DONE already: the screen said it first (notify once). FAILED: the screen saw this turn fail, and an end
      // hook does not overrule it. IDLE: a turn whose start we missed (joined mid-turn) still ended: news.
      return state === 'DONE' || state === 'FAILED' ? none : signal('done');
    case 'turn_failed':
      // The agent's own word that the turn failed outranks a DONE the screen guessed; said once.
      return state === 'FAILED' ? none : signal('failed');
    case 'at_rest':
      // Only a turn we still think is running is corrected; a DONE or FAILED the person has not seen stays.
      // IDLE rather than DONE: no Stop came, so the turn was interrupted or failed, and the screen (which has had
      // a minute to say which) did not: a "done" now would be a guess.
      return state === 'RUNNING' || state === 'LONG_RUNNING' ? signal('idle') : none;
    case 'session_end':
      // The person quit the agent (or cleared it): whatever it showed, they are at it now.
      return busy || state === 'DONE' || state === 'FAILED' ? signal('idle') : none;
    case 'none':
      return none;
  }
}

function snake(s: string): string {
  return s
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/[^A-Za-z0-9]+/g, '_')
    .toLowerCase();
}
