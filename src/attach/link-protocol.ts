// The pane link: how a `termsupervisor run` wrapper streams its pane to the daemon over a websocket. JSON
// messages, one per frame. The wrapper says hello once, then sends what its pty did; the daemon stamps each
// message with its own clock on arrival (two clocks never need to agree). Validated field by field: a bad
// message is refused with a reason, never trusted.
import { AGENT_CHOICES, type AgentChoice } from '../config/config.js';
import { fieldReader, type Obj } from './message-fields.js';

export const LINK_PROTOCOL_VERSION = 1;

export type LinkHello = {
  type: 'hello';
  v: number;
  /** Chosen by the wrapper, kept across reconnects: the daemon's history follows the pane, not the socket. */
  id: string;
  name: string;
  agent: AgentChoice;
  command: string;
  cols: number;
  rows: number;
  /** The program's pid, and where the wrapper runs (its host name and terminal), for the person to find it. */
  pid?: number;
  host?: string;
  tty?: string;
  /** The nonce on the marks of the shell the wrapper started with integration: its marks without it are forged. */
  markNonce?: string;
  /** The wrapper runs in a tmux pane (its $TMUX_PANE, "%3", and its server's socket path): a jump goes through
   * tmux, and the daemon's tmux watcher leaves that pane to the wrapper (attach/tmux/ours.ts). */
  tmuxPane?: string;
  tmuxSocket?: string;
};

export type LinkMessage =
  | LinkHello
  | { type: 'output'; data: string }
  | { type: 'input'; data: string }
  | { type: 'resize'; cols: number; rows: number }
  /** `names`: what else the process goes by (its executable's, script's, package's name); `reading`: it sits
   * blocked reading the terminal. */
  | { type: 'process'; name: string; pid?: number; names?: string[]; reading?: boolean }
  /** The wrapper's program, run as one command, started or ended (with its exit status): Tier 1. */
  | { type: 'command'; phase: 'executed' }
  | { type: 'command'; phase: 'finished'; exitCode: number }
  | { type: 'exit'; code: number | null; signal?: number | null };

/** What the daemon sends back down the link. */
export type LinkReply =
  | { type: 'welcome'; v: number; id: string }
  /** A notification for the person's own terminal (opt-in terminal bell): bytes to write to stdout. */
  | { type: 'bell'; data: string }
  /** Keys for the pane's program, as if the person typed them (a supervised task's prompt). */
  | { type: 'send'; data: string }
  | { type: 'error'; message: string };

/** Pane ids travel in URLs and logs: short and plain ("." and ".." are path segments, not ids). */
const PANE_ID = /^(?!\.{1,2}$)[A-Za-z0-9._:@-]{1,80}$/;
/** A mark nonce: the hex `run` makes (src/shell/inject.ts). */
const NONCE = /^[0-9a-f]{16,64}$/;
const MAX_NONCE = 64;
/** Names and commands are shown, not parsed: cap them. */
const MAX_NAME = 80;
const MAX_COMMAND = 4096;
const MAX_PROCESS_NAME = 256;
/** A process goes by a handful of names (process-identity.ts); more is a corrupt message. */
const MAX_PROCESS_NAMES = 16;
/** A host name is at most 253 characters (DNS); a tty path is short (/dev/pts/12, /dev/ttys003). */
const MAX_HOST = 253;
const MAX_TTY = 256;
/** A tmux pane id: %N. */
const TMUX_PANE = /^%\d{1,9}$/;
const MAX_TMUX_PANE = 10;
/** Exit statuses run from 0 to 255 (128+N for a signal N). */
const MAX_EXIT_STATUS = 255;
/** A terminal larger than this is a corrupt message, not a screen. */
const MAX_DIMENSION = 2000;

export class LinkMessageError extends Error {}

/** The JSON object a link message must be. */
function jsonObject(raw: string): Record<string, unknown> {
  let m: unknown;
  try {
    m = JSON.parse(raw);
  } catch {
    throw new LinkMessageError('not JSON');
  }
  if (typeof m !== 'object' || m === null || Array.isArray(m)) throw new LinkMessageError('not an object');
  return m as Record<string, unknown>;
}

export function parseLinkMessage(raw: string): LinkMessage {
  const o = jsonObject(raw);
  switch (o['type']) {
    case 'hello': {
      if (o['v'] !== LINK_PROTOCOL_VERSION) throw new LinkMessageError(`protocol version ${String(o['v'])} is not ${LINK_PROTOCOL_VERSION}`);
      const agent = o['agent'] ?? 'auto';
      if (!(AGENT_CHOICES as readonly unknown[]).includes(agent)) throw new LinkMessageError(`agent must be one of ${AGENT_CHOICES.join(', ')}`);
      return {
        type: 'hello',
        v: LINK_PROTOCOL_VERSION,
        id: str(o, 'id', 80, PANE_ID),
        name: str(o, 'name', MAX_NAME),
        agent: agent as AgentChoice,
        command: str(o, 'command', MAX_COMMAND),
        cols: dim(o, 'cols'),
        rows: dim(o, 'rows'),
        ...(o['pid'] !== undefined && { pid: int(o, 'pid') }),
        ...(o['host'] !== undefined && { host: str(o, 'host', MAX_HOST) }),
        ...(o['tty'] !== undefined && { tty: str(o, 'tty', MAX_TTY) }),
        ...(o['markNonce'] !== undefined && { markNonce: str(o, 'markNonce', MAX_NONCE, NONCE) }),
        ...(o['tmuxPane'] !== undefined && { tmuxPane: str(o, 'tmuxPane', MAX_TMUX_PANE, TMUX_PANE) }),
        ...(o['tmuxSocket'] !== undefined && { tmuxSocket: str(o, 'tmuxSocket', MAX_TTY) }),
      };
    }
    case 'output':
    case 'input':
      if (typeof o['data'] !== 'string') throw new LinkMessageError(`${o['type']}: data must be a string`);
      return { type: o['type'], data: o['data'] };
    case 'resize':
      return { type: 'resize', cols: dim(o, 'cols'), rows: dim(o, 'rows') };
    case 'process':
      return {
        type: 'process',
        name: str(o, 'name', MAX_PROCESS_NAME),
        ...(o['pid'] !== undefined && { pid: int(o, 'pid') }),
        ...(o['names'] !== undefined && { names: processNames(o) }),
        ...(o['reading'] !== undefined && { reading: bool(o, 'reading') }),
      };
    case 'command':
      if (o['phase'] === 'executed') return { type: 'command', phase: 'executed' };
      if (o['phase'] === 'finished') return { type: 'command', phase: 'finished', exitCode: range(o, 'exitCode', 0, MAX_EXIT_STATUS) };
      throw new LinkMessageError('command: phase must be executed or finished');
    case 'exit':
      return { type: 'exit', code: o['code'] === null ? null : int(o, 'code'), signal: o['signal'] == null ? null : int(o, 'signal') };
    default:
      throw new LinkMessageError(`unknown message type ${JSON.stringify(o['type'])?.slice(0, 40)}`);
  }
}

const { str, int, range } = fieldReader((m) => new LinkMessageError(m));

/** A bell notification is a BEL or one OSC title/notification line: far below this. */
const MAX_BELL_CHARS = 4096;
/** Keys a supervised task types in one go (a prompt). */
const MAX_SEND_CHARS = 64 << 10;
/** A daemon's error message, shown in the wrapper's log. */
const MAX_ERROR_CHARS = 1000;

/** A daemon's reply, checked in the wrapper as the daemon checks the wrapper's messages: it writes to the person's
 * terminal and types into their program, so a malformed one is refused (LinkMessageError), never half-used. */
export function parseLinkReply(raw: string): LinkReply {
  const o = jsonObject(raw) as Obj;
  switch (o['type']) {
    case 'welcome':
      return { type: 'welcome', v: int(o, 'v'), id: str(o, 'id', 80, PANE_ID) };
    case 'bell':
      return { type: 'bell', data: str(o, 'data', MAX_BELL_CHARS) };
    case 'send':
      return { type: 'send', data: str(o, 'data', MAX_SEND_CHARS) };
    case 'error':
      return { type: 'error', message: str(o, 'message', MAX_ERROR_CHARS) };
    default:
      throw new LinkMessageError(`unknown reply type ${JSON.stringify(o['type'])?.slice(0, 40)}`);
  }
}

function processNames(o: Obj): string[] {
  const v = o['names'];
  if (!Array.isArray(v) || v.length > MAX_PROCESS_NAMES) throw new LinkMessageError(`names: expected at most ${MAX_PROCESS_NAMES} strings`);
  for (const n of v) if (typeof n !== 'string' || n.length > MAX_PROCESS_NAME) throw new LinkMessageError(`names: expected strings of at most ${MAX_PROCESS_NAME} characters`);
  return v as string[];
}

function bool(o: Obj, k: string): boolean {
  if (typeof o[k] !== 'boolean') throw new LinkMessageError(`${k}: expected true or false`);
  return o[k] as boolean;
}

function dim(o: Obj, k: string): number {
  return range(o, k, 1, MAX_DIMENSION);
}
