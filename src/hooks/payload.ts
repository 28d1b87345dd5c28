// An agent's hook payload, as the agent documents it, reduced to what the daemon needs: the event, its sub-kind and
// one short line for people. Pure and small: it runs inside `termsupervisor hook`, on every hook an agent fires.
import { EVENT_NAME, type HookAgent } from './agents.js';

/** What a hook said, agent-neutral. `event` keeps the agent's own name for it (Stop, AfterAgent, agent-turn-complete). */
export interface HookEvent {
  agent: HookAgent;
  event: string;
  /** Sub-kind: Claude/Gemini/Qwen `notification_type`, SessionStart `source`, SessionEnd `reason`, Qwen StopFailure
   * `error`; '' if none. */
  detail: string;
  /** The agent's session (Claude/Gemini `session_id`, Codex `thread-id`); '' if none. */
  session: string;
  /** One line for people (the prompt, the tool and its command, the notification's message); '' if none. */
  message: string;
  /** Codex: the first line of the request's last input message (what the turn was asked); '' otherwise. Codex's own
   * side requests (a task title on a thread of its own) fire notify too, and this tells them apart. */
  input?: string;
  /** The agent's working directory as the payload gives it (`cwd`); '' if none. */
  cwd?: string;
}

/** The detail of a UserPromptSubmit that carries no prompt: the agent going on with its own turn. */
export const CONTINUATION = 'continuation';

/** A working directory longer than this is not kept. */
export const CWD_MAX = 1024;

/** A message is one line of at most this many characters (the daemon clips transition lines further). */
export const HOOK_MESSAGE_MAX = 200;
/** A session id longer than this is not one. */
export const SESSION_MAX = 128;

type Json = Record<string, unknown>;

/**
 * The event in `raw` (the parsed hook JSON, or undefined when there was none or it did not parse), with `eventArg`
 * (the event name the installed command passes) as the fallback for its name. An error string when neither names
 * an event.
 */
export function hookEventFrom(agent: HookAgent, raw: unknown, eventArg?: string): HookEvent | string {
  const p: Json = raw !== null && typeof raw === 'object' && !Array.isArray(raw) ? (raw as Json) : {};
  if (agent === 'opencode' || agent === 'kilo') return opencodeEvent(agent, p, raw, eventArg);
  // Claude and Gemini name the event in the payload; Codex calls it `type`.
  const named = agent === 'codex' ? str(p['type']) : str(p['hook_event_name']);
  const event = EVENT_NAME.test(named) ? named : (eventArg ?? '');
  if (!EVENT_NAME.test(event)) return `no hook event named (payload ${raw === undefined ? 'missing or not JSON' : 'without one'}, and no event argument)`;
  const session = str(agent === 'codex' ? p['thread-id'] : p['session_id']);
  const cwd = str(p['cwd']);
  return {
    agent,
    event,
    detail: detailOf(agent, event, p),
    session: session.length <= SESSION_MAX ? session : '',
    message: oneLine(messageOf(agent, event, p)),
    input: agent === 'codex' ? oneLine(lastString(p['input-messages'])) : '',
    cwd: cwd.length <= CWD_MAX ? cwd : '',
  };
}

/** opencode and Kilo: the plugin hands on the bus event as it came, `{id, type, properties}` (chat.message: the
 * hook's input as `properties`). */
function opencodeEvent(agent: 'opencode' | 'kilo', p: Json, raw: unknown, eventArg?: string): HookEvent | string {
  const named = str(p['type']);
  const event = EVENT_NAME.test(named) ? named : (eventArg ?? '');
  if (!EVENT_NAME.test(event)) return `no hook event named (payload ${raw === undefined ? 'missing or not JSON' : 'without one'}, and no event argument)`;
  const props = obj(p['properties']);
  const session = str(props['sessionID']);
  const { detail, message } = opencodeDetail(event, props);
  return { agent, event, detail: EVENT_NAME.test(detail) ? detail : '', session: session.length <= SESSION_MAX ? session : '', message: oneLine(message), input: '', cwd: '' };
}

/** Sub-kind and line of an opencode event: the status (busy, retry, idle), the answer (once, always, reject), the
 * error's name. */
function opencodeDetail(event: string, props: Json): { detail: string; message: string } {
  switch (event) {
    case 'session.status': {
      const s = obj(props['status']);
      return { detail: str(s['type']), message: str(s['message']) };
    }
    case 'permission.asked': {
      const patterns = Array.isArray(props['patterns']) ? props['patterns'].filter((x): x is string => typeof x === 'string') : [];
      return { detail: '', message: [str(props['permission']), patterns.join(' ')].filter(Boolean).join(': ') };
    }
    case 'permission.replied':
      return { detail: str(props['reply']), message: str(props['reply']) };
    case 'session.error': {
      const e = obj(props['error']);
      return { detail: str(e['name']), message: str(obj(e['data'])['message']) || str(e['name']) };
    }
    case 'question.asked': {
      const q = Array.isArray(props['questions']) ? obj(props['questions'][0]) : {};
      return { detail: '', message: str(q['question']) || str(q['header']) };
    }
    default:
      return { detail: '', message: '' };
  }
}

function obj(v: unknown): Json {
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : {};
}

function lastString(v: unknown): string {
  return Array.isArray(v) && v.length > 0 ? str(v[v.length - 1]) : '';
}

function detailOf(agent: HookAgent, event: string, p: Json): string {
  if (agent === 'codex') return '';
  let d = '';
  if (event === 'Notification') d = str(p['notification_type']);
  else if (event === 'SessionStart') d = str(p['source']) || str(p['trigger']);
  else if (event === 'SessionEnd') d = str(p['reason']) || str(p['trigger']);
  // Qwen Code: the kind of error that ended the turn (rate_limit, server_error, loop_detected, …).
  else if (event === 'StopFailure') d = str(p['error']);
  // A prompt event without a prompt: Qwen Code fires UserPromptSubmit (prompt "", the turn's prompt_id) as it sends a
  // tool's results back to the model within the same turn. No person typed anything.
  else if (event === 'UserPromptSubmit' && typeof p['prompt'] === 'string' && p['prompt'] === '') d = CONTINUATION;
  return EVENT_NAME.test(d) ? d : '';
}

function messageOf(agent: HookAgent, event: string, p: Json): string {
  if (agent === 'codex') return str(p['last-assistant-message']);
  switch (event) {
    case 'UserPromptSubmit':
    case 'BeforeAgent':
      return str(p['prompt']);
    case 'AfterAgent':
      return str(p['prompt_response']);
    // Qwen Code: the error as the person saw it, else its details.
    case 'StopFailure':
      return str(p['last_assistant_message']) || str(p['error_details']);
    case 'Notification':
      return str(p['message']);
    case 'PreToolUse':
    case 'PostToolUse':
    case 'PermissionRequest':
    case 'BeforeTool':
    case 'AfterTool':
      return toolLine(p);
    case 'SessionStart':
    case 'SessionEnd':
      return detailOf(agent, event, p);
    default:
      return '';
  }
}

/** `Bash: npm test`: the tool and the one argument that says what it does. */
function toolLine(p: Json): string {
  const tool = str(p['tool_name']);
  const input = p['tool_input'];
  let arg = '';
  if (input !== null && typeof input === 'object') {
    const i = input as Json;
    arg = str(i['command']) || str(i['file_path']) || str(i['path']) || str(i['pattern']) || str(i['url']) || str(i['query']);
  }
  return arg ? `${tool}: ${arg}` : tool;
}

function str(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

/** The first non-blank line, without control characters, cut to HOOK_MESSAGE_MAX. */
export function oneLine(s: string): string {
  const first = s.split(/\r?\n/).find((l) => l.trim() !== '') ?? '';
  // eslint-disable-next-line no-control-regex
  const clean = first.replace(/[\x00-\x1f\x7f]/g, ' ').trim();
  return clean.length > HOOK_MESSAGE_MAX ? clean.slice(0, HOOK_MESSAGE_MAX - 1) + '…' : clean;
}
