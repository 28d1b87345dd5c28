// The configuration described as a JSON Schema (draft-07), made from config/default.jsonc: every key's type and
// default from its value, its description from the `//` comment above it, allowed words and formats from the rules
// below. Published as config/schema.json (`node scripts/gen-config-doc.mjs` writes it with docs/config.md), used by
// the loader's validation (config-validate.ts), and named by a user's file (`"$schema"`) for editor completion.
import { documented, header, type DocEntry } from './config-doc.js';

export type JsonSchema = { [k: string]: unknown };

/** Keys whose strings are literal words, not regexes. */
export const LITERAL_STRING_KEYS = new Set(['job_gate.whitelist', 'job_gate.shells', 'patterns.generic.completion_tokens']);

/** Strings and lists under these are regular expressions (compiled with the u flag by the loader). */
export function isRegexPath(path: string): boolean {
  const base = path.replace(/\[\d+\]$/, '');
  return (base.startsWith('patterns.') || base.startsWith('detection.')) && !LITERAL_STRING_KEYS.has(base) && !base.endsWith('use_bracketed_paste');
}

/** How a menu takes its keys (actions.keys.<program>.menu). */
export const MENU_KEYS = ['digit', 'digit_enter', 'arrows', 'buttons'] as const;

/** Settings that take one of a few words. */
const CHOICES: Record<string, readonly string[]> = {
  'notify.states': ['WAITING_APPROVAL', 'FAILED', 'STALLED', 'DONE', 'TASK_FINISHED', 'TASK_NEEDS_YOU'],
  'notify.webhook_format': ['json', 'ntfy'],
  'notify.command_states': ['WAITING_APPROVAL', 'FAILED', 'STALLED', 'DONE', 'TASK_FINISHED', 'TASK_NEEDS_YOU'],
  'log.level': ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'],
  'tasks.on_stall': ['pause', 'fail'],
};

/** A host's name as it prefixes its panes' ids (`devbox:%3`) and shows on their badge: a host name's characters. */
const HOST_NAME = '[A-Za-z0-9][A-Za-z0-9._-]{0,62}';

/** One item of `remotes` (its defaults are the loader's: src/daemon/remotes.ts). The name is the host part of its
 * panes' ids (`devbox:%3`) and their badge: a host name's characters. */
const REMOTE_ITEM: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['name', 'destination'],
  properties: {
    name: { type: 'string', pattern: `^${HOST_NAME}$`, description: 'The host part of its panes\' ids and their badge.' },
    destination: { type: 'string', minLength: 1, description: '[user@]host[:port], or a Host of your ssh config.' },
    identity_file: { type: 'string', default: '', description: "A key for ssh's -i; empty: your ssh config and agent decide." },
    socket: { type: 'string', default: '', description: "The far side's tmux server: a name (-L) or a path (-S); empty: its default one." },
    tmux: { type: 'string', default: 'tmux', description: 'The tmux program on the far side.' },
    allow_typing: { type: 'boolean', default: false, description: 'Tasks, answers, replies and interrupts may type into its panes.' },
  },
};

/** One peer daemon (config `peers`): its name prefixes pane ids (`name:…`), so no colon; its url is checked when
 * the daemon starts (src/config/peers.ts). */
const PEER_ITEM: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['url', 'token_file'],
  properties: {
    name: { type: 'string', pattern: `^$|^${HOST_NAME}$`, description: "Shown as its panes' host; default: the URL's host." },
    url: { type: 'string', minLength: 1, description: "The peer daemon's address, e.g. http://127.0.0.1:7879 through ssh -L." },
    token_file: { type: 'string', minLength: 1, description: "A file holding the peer's token (never logged or shown)." },
    allow_typing: { type: 'boolean', default: false, description: 'Answers, replies and interrupts made here are forwarded to the peer.' },
  },
};

/** Rules a value's type cannot say, by key path (`*` matches one key). */
const EXTRA: Array<[RegExp, JsonSchema]> = [
  [/^daemon\.port$/, { type: 'integer', maximum: 65535, 'x-expected': 'a port number 0-65535' }],
  [/^notify\.quiet_hours$/, { pattern: '^$|^([01]\\d|2[0-3]):[0-5]\\d-([01]\\d|2[0-3]):[0-5]\\d$', 'x-expected': '"HH:MM-HH:MM" or ""' }],
  [/^actions\.keys\.[^.]+\.menu$/, { enum: [...MENU_KEYS] }],
  [/^remotes$/, { items: REMOTE_ITEM }],
  [/^peers$/, { items: PEER_ITEM }],
];

/** The schema of the configuration whose defaults and comments are `text` (config/default.jsonc). */
export function configSchema(text: string): JsonSchema {
  const entries = documented(text);
  const root: JsonSchema = {
    $schema: 'http://json-schema.org/draft-07/schema#',
    title: 'termsupervisor configuration',
    description: header(text),
    type: 'object',
    additionalProperties: false,
    properties: { $schema: { type: 'string', description: 'The schema this file follows (editor completion and checks).' } },
  };
  const byPath = new Map<string, JsonSchema>([['', root]]);
  for (const e of entries) {
    const parent = byPath.get(e.path.slice(0, Math.max(0, e.path.lastIndexOf('.'))))!;
    const node = schemaOf(e);
    (parent['properties'] as JsonSchema)[e.path.slice(e.path.lastIndexOf('.') + 1)] = node;
    byPath.set(e.path, node);
  }
  return root;
}

function schemaOf(e: DocEntry): JsonSchema {
  const v = e.value;
  const s: JsonSchema = { description: e.comment };
  if (v !== null && typeof v === 'object' && !Array.isArray(v)) {
    Object.assign(s, { type: 'object', additionalProperties: false, properties: {} });
  } else if (Array.isArray(v)) {
    const items: JsonSchema = { type: 'string', ...(CHOICES[e.path] && { enum: [...CHOICES[e.path]!] }) };
    Object.assign(s, { type: 'array', items, default: v });
  } else if (typeof v === 'number') {
    Object.assign(s, { type: 'number', minimum: 0, default: v });
  } else {
    Object.assign(s, { type: typeof v, default: v, ...(typeof v === 'string' && CHOICES[e.path] && { enum: [...CHOICES[e.path]!] }) });
  }
  if (isRegexPath(e.path)) s['x-regex'] = true;
  for (const [re, extra] of EXTRA) if (re.test(e.path)) Object.assign(s, extra);
  return s;
}

/** config/schema.json's text: two-space JSON with a final newline. */
export function schemaText(schema: JsonSchema): string {
  return JSON.stringify(schema, null, 2) + '\n';
}
