// The iTerm2 bridge link: how `bridge/iterm2_bridge.py` (running next to iTerm2, on its Python API) streams
// iTerm2's sessions to the daemon over a websocket at /bridge/iterm2. JSON messages, one per frame. The bridge says
// hello once, then sends the set of sessions whenever it changes and, per session, screens, prompt events, session
// variables, focus and submitting keys. The daemon stamps each message with its own clock on arrival. Validated
// field by field: a bad message is refused with a reason, never trusted. The protocol is described in
// docs/iterm2-bridge.md; a change in meaning bumps the version, a new optional field does not.
import { fieldReader, type Obj } from '../message-fields.js';

export const ITERM2_PROTOCOL_VERSION = 1;

/** iTerm2's session variables the bridge forwards (their names as iTerm2 spells them). */
export const ITERM2_VARIABLES = ['jobName', 'jobPid', 'commandLine', 'tty', 'terminalWindowName'] as const;
export type Iterm2Variable = (typeof ITERM2_VARIABLES)[number];

/** Keys that end or start a turn, named rather than sent as bytes: the bridge never forwards what was typed. */
export const ITERM2_KEYS = ['enter', 'escape', 'interrupt'] as const;
export type Iterm2Key = (typeof ITERM2_KEYS)[number];

export const PROMPT_EVENTS = ['prompt', 'command_start', 'command_end'] as const;
export type PromptEvent = (typeof PROMPT_EVENTS)[number];

export interface BridgeSession {
  /** iTerm2's session id (a GUID); the daemon's pane id is `iterm2:<session>`, the same across reconnects. */
  session: string;
  name: string;
  cols: number;
  rows: number;
  /** The session's command line when the bridge knows it (raw: the daemon redacts it on arrival). */
  command?: string;
}

export type BridgeMessage =
  | { type: 'hello'; v: number; bridge: string; iterm2?: string }
  /** Every session iTerm2 has now: sent on connect and on every layout change. Absent sessions are closed. */
  | { type: 'sessions'; sessions: BridgeSession[] }
  /** The visible screen: one string per row, top to bottom, and the cursor (0-based, on the screen). */
  | { type: 'screen'; session: string; rows: string[]; cursor: { x: number; y: number }; cols?: number }
  /** iTerm2's PromptMonitor (shell integration): prompt shown, command started, command ended with its status. */
  | { type: 'prompt'; session: string; event: PromptEvent; command?: string | null; status?: number | null }
  | { type: 'variable'; session: string; name: Iterm2Variable; value: string | number | null }
  /** The session became the one the person is looking at (key window, selected tab, active pane). */
  | { type: 'focus'; session: string }
  | { type: 'key'; session: string; key: Iterm2Key }
  /** The answer to an `activate`: whether iTerm2 did it (`error` says why not). */
  | { type: 'activated'; session: string; id: number; ok: boolean; error?: string };

/** What the daemon sends to the bridge. */
export type DaemonToBridge =
  | { type: 'welcome'; v: number; daemon: string }
  /** Type `text` into the session as if the person had (only for supervised runs the person asked for). */
  | { type: 'send_text'; session: string; text: string }
  /** Show the session to the person (a jump): select its tab, bring its window to the front. Answered by `activated`
   * with the same `id`. */
  | { type: 'activate'; session: string; id: number };

/** iTerm2 session ids are GUIDs; "iterm2:" + this must still be a pane id (at most 80 characters). */
const SESSION_ID = /^[A-Za-z0-9._:@-]{1,64}$/;
/** The bridge's own version string, for the log. */
const MAX_VERSION = 64;
/** Names are shown, not parsed: the bridge cuts longer titles before sending. */
const MAX_NAME = 80;
const MAX_COMMAND = 4096;
/** A variable's value (a command line, a title) beyond this is a corrupt message, not a value. */
const MAX_VARIABLE_CHARS = 4096;
/** More sessions than this in one iTerm2 is a corrupt message, not a workspace. */
const MAX_SESSIONS = 256;
/** Screens larger than the daemon's own terminal limit (PaneScreen clamps to 1000) are refused. */
const MAX_DIMENSION = 1000;
/** A row holds at most MAX_DIMENSION cells; combining marks and emoji take several code points per cell. */
const MAX_ROW_CHARS = 4 * MAX_DIMENSION;
/** Why iTerm2 refused an activate: a message, shown to the person. */
const MAX_ERROR = 500;
/** Text a supervised run may type in one message. */
export const MAX_SEND_TEXT = 64 << 10;

export class BridgeMessageError extends Error {}


export function parseBridgeMessage(raw: string): BridgeMessage {
  let m: unknown;
  try {
    m = JSON.parse(raw);
  } catch {
    throw new BridgeMessageError('not JSON');
  }
  const o = obj(m, 'message');
  switch (o['type']) {
    case 'hello': {
      if (o['v'] !== ITERM2_PROTOCOL_VERSION) throw new BridgeMessageError(`protocol version ${JSON.stringify(o['v'])?.slice(0, 20)} is not ${ITERM2_PROTOCOL_VERSION}`);
      return {
        type: 'hello',
        v: ITERM2_PROTOCOL_VERSION,
        bridge: str(o, 'bridge', MAX_VERSION),
        ...(o['iterm2'] !== undefined && { iterm2: str(o, 'iterm2', MAX_VERSION) }),
      };
    }
    case 'sessions': {
      const list = o['sessions'];
      if (!Array.isArray(list) || list.length > MAX_SESSIONS) throw new BridgeMessageError(`sessions: expected a list of at most ${MAX_SESSIONS}`);
      const seen = new Set<string>();
      const sessions = list.map((s, i) => {
        const e = obj(s, `sessions[${i}]`);
        const id = sessionId(e);
        if (seen.has(id)) throw new BridgeMessageError(`sessions[${i}]: session ${id} listed twice`);
        seen.add(id);
        return {
          session: id,
          name: str(e, 'name', MAX_NAME),
          cols: dim(e, 'cols'),
          rows: dim(e, 'rows'),
          ...(e['command'] != null && { command: str(e, 'command', MAX_COMMAND) }),
        };
      });
      return { type: 'sessions', sessions };
    }
    case 'screen': {
      const rows = o['rows'];
      if (!Array.isArray(rows) || rows.length < 1 || rows.length > MAX_DIMENSION) throw new BridgeMessageError(`rows: expected a list of 1 to ${MAX_DIMENSION} rows`);
      for (const r of rows) {
        if (typeof r !== 'string' || r.length > MAX_ROW_CHARS) throw new BridgeMessageError(`rows: expected strings of at most ${MAX_ROW_CHARS} characters`);
      }
      const c = obj(o['cursor'], 'cursor');
      return {
        type: 'screen',
        session: sessionId(o),
        rows: rows as string[],
        cursor: { x: coord(c, 'x'), y: coord(c, 'y') },
        ...(o['cols'] != null && { cols: dim(o, 'cols') }),
      };
    }
    case 'prompt': {
      const event = oneOf(o, 'event', PROMPT_EVENTS);
      const session = sessionId(o);
      if (event === 'command_start') return { type: 'prompt', session, event, command: o['command'] == null ? null : str(o, 'command', MAX_COMMAND) };
      if (event === 'command_end') return { type: 'prompt', session, event, status: o['status'] == null ? null : int(o, 'status') };
      return { type: 'prompt', session, event };
    }
    case 'variable': {
      const name = oneOf(o, 'name', ITERM2_VARIABLES);
      const v = o['value'];
      let value: string | number | null;
      if (v === null || v === undefined) value = null;
      else if (name === 'jobPid') value = int(o, 'value');
      else value = str(o, 'value', MAX_VARIABLE_CHARS);
      return { type: 'variable', session: sessionId(o), name, value };
    }
    case 'focus':
      return { type: 'focus', session: sessionId(o) };
    case 'key':
      return { type: 'key', session: sessionId(o), key: oneOf(o, 'key', ITERM2_KEYS) };
    case 'activated': {
      if (typeof o['ok'] !== 'boolean') throw new BridgeMessageError('ok: expected true or false');
      return {
        type: 'activated',
        session: sessionId(o),
        id: range(o, 'id', 1, Number.MAX_SAFE_INTEGER),
        ok: o['ok'],
        ...(o['error'] != null && { error: str(o, 'error', MAX_ERROR) }),
      };
    }
    default:
      throw new BridgeMessageError(`unknown message type ${JSON.stringify(o['type'])?.slice(0, 40)}`);
  }
}

function obj(v: unknown, what: string): Obj {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new BridgeMessageError(`${what}: not an object`);
  return v as Obj;
}

function sessionId(o: Obj): string {
  const v = o['session'];
  if (typeof v !== 'string' || !SESSION_ID.test(v)) throw new BridgeMessageError('session: expected a plain id of at most 64 characters');
  return v;
}

const { str, int, range } = fieldReader((m) => new BridgeMessageError(m));

function dim(o: Obj, k: string): number {
  return range(o, k, 1, MAX_DIMENSION);
}

function coord(o: Obj, k: string): number {
  return range(o, k, 0, MAX_DIMENSION - 1, `cursor.${k}`);
}

function oneOf<T extends string>(o: Obj, k: string, allowed: readonly T[]): T {
  const v = o[k];
  if (!(allowed as readonly unknown[]).includes(v)) throw new BridgeMessageError(`${k}: expected one of ${allowed.join(', ')}`);
  return v as T;
}
