// A peer daemon's /ws message checked before this daemon uses it: a peer is another machine, and what it sends is
// untrusted (a bug, a version skew, or a hostile process on its port). Every field the mirror reads is typed and
// bounded, unknown fields are dropped, and a message that fails is a PeerMessageError: the link to that peer closes
// with the reason logged, and this daemon carries on. Fields added to PaneView after the first peers shipped get
// their default when absent, so an older peer still works.
import type { ActionView, AnalysisErrorView, PaneView, PaneWhereView, QuestionView, TransitionView, WsMessage } from '../web/api-types.js';
import type { ActionKind, ActionOrigin, AttachKind, SignalSource } from '../store/records.js';
import type { MachineState, Tier } from '../analysis/types.js';

export class PeerMessageError extends Error {}

/** Panes one peer may show here (a hello's list, and every pane id met since): a daemon watching more than this is
 * a corrupt or hostile peer (100,000 panes once took 608 MB and an 8 s stall). */
export const MAX_PEER_PANES = 2000;
/** A pane id (the peer's own, possibly itself `remote:%3`) is short: ours are at most 80 characters. */
const MAX_ID = 160;
/** Names, programs, rules: shown in one line of a card (a tmux session may be named at length: room to spare). */
const MAX_NAME = 1000;
/** A screen line (the transition's line, an edge row): a row is at most 1000 cells, a few code points each. */
const MAX_LINE = 4000;
/** A terminal larger than this is a corrupt message, not a screen. */
const MAX_DIMENSION = 2000;
/** Edge rows a pane view carries (a handful, config daemon.edge_lines): never more than a screen's rows. */
const MAX_EDGE_ROWS = MAX_DIMENSION;
/** A redacted command line is at most 50 characters on the peer; longer is still fine to show, cut here. */
const MAX_COMMAND = 4096;
/** Options of one question (a menu on a screen): at most one per row. */
const MAX_OPTIONS = MAX_DIMENSION;
/** The error message of an analysis fault, an unreachable reason, an action's detail. */
const MAX_MESSAGE = 2000;

const STATES: readonly MachineState[] = ['IDLE', 'RUNNING', 'LONG_RUNNING', 'WAITING_APPROVAL', 'DONE', 'FAILED'];
const SOURCES: readonly SignalSource[] = ['in-band', 'hook', 'process', 'profile', 'heuristic', 'timer', 'user'];
const ATTACH: readonly AttachKind[] = ['run', 'tmux', 'ssh', 'iterm2', 'replay'];
const TIERS: readonly (Tier | 0)[] = [0, 1, 2, 3];
const ACTION_KINDS: readonly ActionKind[] = ['answer', 'reply', 'interrupt', 'ack', 'focus', 'keys'];
const ORIGINS: readonly ActionOrigin[] = ['dashboard', 'cli', 'top', 'task', 'api'];
/** Messages a peer sends that the mirror has no use for (its history's health and tasks are its own board's). */
const IGNORED = new Set(['history', 'task', 'task_event']);

type Obj = Record<string, unknown>;

/** The message as the mirror may use it; null for a message it ignores (a known unused type, or a newer one). */
export function parsePeerMessage(raw: unknown): WsMessage | null {
  const o = obj(raw, 'message');
  const type = o['type'];
  if (typeof type !== 'string') throw new PeerMessageError('message: type must be a string');
  switch (type) {
    case 'hello': {
      const panes = o['panes'];
      if (!Array.isArray(panes)) throw new PeerMessageError('hello: panes must be a list');
      if (panes.length > MAX_PEER_PANES) throw new PeerMessageError(`hello: ${panes.length} panes is more than ${MAX_PEER_PANES}`);
      return { type: 'hello', version: str(o, 'version', MAX_NAME, 'hello'), panes: panes.map((p, i) => parsePaneView(p, `hello.panes[${i}]`)) };
    }
    case 'pane':
      return { type: 'pane', pane: parsePaneView(o['pane'], 'pane') };
    case 'transition':
      return { type: 'transition', transition: parseTransition(o['transition'], 'transition'), ...(o['unsaved'] === true && { unsaved: true as const }) };
    case 'pane_removed':
      return { type: 'pane_removed', id: id(o, 'id', 'pane_removed') };
    case 'action':
      return { type: 'action', action: parseAction(o['action'], 'action') };
    default:
      if (IGNORED.has(type) || type.length <= MAX_NAME) return null;
      throw new PeerMessageError('message: type is not a name');
  }
}

export function parsePaneView(raw: unknown, at: string): PaneView {
  const o = obj(raw, at);
  const v: PaneView = {
    id: id(o, 'id', at),
    name: str(o, 'name', MAX_NAME, at),
    program: str(o, 'program', MAX_NAME, at),
    state: oneOf(o, 'state', STATES, at),
    since: time(o, 'since', at),
    startedAt: time(o, 'startedAt', at),
    source: oneOf(o, 'source', SOURCES, at),
    tier: oneOf(o, 'tier', TIERS, at),
    rule: str(o, 'rule', MAX_NAME, at),
    line: str(o, 'line', MAX_LINE, at),
    stalled: bool(o, 'stalled', at),
    cols: whole(o, 'cols', 0, MAX_DIMENSION, at),
    rows: whole(o, 'rows', 0, MAX_DIMENSION, at),
    attach: oneOf(o, 'attach', ATTACH, at),
    command: str(o, 'command', MAX_COMMAND, at),
    alive: bool(o, 'alive', at),
    needsYou: bool(o, 'needsYou', at),
    edge: strings(o, 'edge', MAX_EDGE_ROWS, MAX_LINE, at),
    shellIntegration: o['shellIntegration'] === undefined ? false : bool(o, 'shellIntegration', at),
    exitCodeUnknown: o['exitCodeUnknown'] === undefined ? false : bool(o, 'exitCodeUnknown', at),
    analysisError: o['analysisError'] == null ? null : analysisError(o['analysisError'], `${at}.analysisError`),
    rev: o['rev'] === undefined ? 0 : whole(o, 'rev', 0, Number.MAX_SAFE_INTEGER, at),
    question: o['question'] == null ? null : question(o['question'], `${at}.question`),
  };
  if (o['interruptKeys'] !== undefined) v.interruptKeys = str(o, 'interruptKeys', MAX_NAME, at);
  if (o['host'] !== undefined) v.host = str(o, 'host', MAX_NAME, at);
  if (o['unreachable'] != null) {
    const u = obj(o['unreachable'], `${at}.unreachable`);
    v.unreachable = { since: time(u, 'since', `${at}.unreachable`), reason: str(u, 'reason', MAX_MESSAGE, `${at}.unreachable`) };
  }
  if (o['where'] != null) v.where = where(o['where'], `${at}.where`);
  return v;
}

export function parseTransition(raw: unknown, at: string): TransitionView {
  const o = obj(raw, at);
  return {
    paneId: id(o, 'paneId', at),
    at: time(o, 'at', at),
    from: oneOf(o, 'from', STATES, at),
    to: oneOf(o, 'to', STATES, at),
    tier: oneOf(o, 'tier', TIERS, at),
    source: oneOf(o, 'source', SOURCES, at),
    rule: str(o, 'rule', MAX_NAME, at),
    line: str(o, 'line', MAX_LINE, at),
    stalled: bool(o, 'stalled', at),
    startedAt: time(o, 'startedAt', at),
    startedAtKept: o['startedAtKept'] === undefined ? true : bool(o, 'startedAtKept', at),
  };
}

function parseAction(raw: unknown, at: string): ActionView {
  const o = obj(raw, at);
  return {
    paneId: id(o, 'paneId', at),
    at: time(o, 'at', at),
    kind: oneOf(o, 'kind', ACTION_KINDS, at),
    origin: oneOf(o, 'origin', ORIGINS, at),
    from: str(o, 'from', MAX_NAME, at),
    keys: str(o, 'keys', MAX_MESSAGE, at),
    detail: str(o, 'detail', MAX_MESSAGE, at),
    rev: o['rev'] == null ? null : whole(o, 'rev', 0, Number.MAX_SAFE_INTEGER, at),
  };
}

function analysisError(raw: unknown, at: string): AnalysisErrorView {
  const o = obj(raw, at);
  return {
    at: time(o, 'at', at),
    stage: str(o, 'stage', MAX_NAME, at),
    step: str(o, 'step', MAX_NAME, at),
    program: str(o, 'program', MAX_NAME, at),
    message: str(o, 'message', MAX_MESSAGE, at),
    count: whole(o, 'count', 0, Number.MAX_SAFE_INTEGER, at),
  };
}

function question(raw: unknown, at: string): QuestionView {
  const o = obj(raw, at);
  const opts = o['options'];
  if (!Array.isArray(opts) || opts.length > MAX_OPTIONS) throw new PeerMessageError(`${at}.options: expected a list of at most ${MAX_OPTIONS}`);
  return {
    text: str(o, 'text', MAX_LINE, at),
    options: opts.map((x, i) => {
      const p = obj(x, `${at}.options[${i}]`);
      const w = `${at}.options[${i}]`;
      return { id: str(p, 'id', MAX_NAME, w), label: str(p, 'label', MAX_LINE, w), keys: str(p, 'keys', MAX_NAME, w) };
    }),
  };
}

function where(raw: unknown, at: string): PaneWhereView {
  const o = obj(raw, at);
  const w: PaneWhereView = {};
  for (const k of ['host', 'tty', 'session', 'window', 'pane', 'sessionId'] as const) if (o[k] !== undefined) w[k] = str(o, k, MAX_NAME, at);
  if (o['pid'] !== undefined) w.pid = whole(o, 'pid', 0, Number.MAX_SAFE_INTEGER, at);
  return w;
}

function obj(x: unknown, at: string): Obj {
  if (typeof x !== 'object' || x === null || Array.isArray(x)) throw new PeerMessageError(`${at}: expected an object`);
  return x as Obj;
}

function str(o: Obj, k: string, max: number, at: string): string {
  const v = o[k];
  if (typeof v !== 'string' || v.length > max) throw new PeerMessageError(`${at}.${k}: expected a string of at most ${max} characters`);
  return v;
}

/** A pane id: not empty, no control characters (it names the pane in logs; URLs carry it encoded). A tmux socket's
 * name may hold a space, so nothing printable is refused. */
function id(o: Obj, k: string, at: string): string {
  const v = str(o, k, MAX_ID, at);
  if (!v || /[\u0000-\u001f\u007f-\u009f]/.test(v)) throw new PeerMessageError(`${at}.${k}: expected a pane id`);
  return v;
}

function bool(o: Obj, k: string, at: string): boolean {
  if (typeof o[k] !== 'boolean') throw new PeerMessageError(`${at}.${k}: expected true or false`);
  return o[k] as boolean;
}

function whole(o: Obj, k: string, lo: number, hi: number, at: string): number {
  const v = o[k];
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < lo || v > hi) throw new PeerMessageError(`${at}.${k}: expected a whole number from ${lo} to ${hi}`);
  return v;
}

/** Epoch milliseconds (fractions allowed: the pane clock is finer). */
function time(o: Obj, k: string, at: string): number {
  const v = o[k];
  if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) throw new PeerMessageError(`${at}.${k}: expected a time`);
  return v;
}

function oneOf<T>(o: Obj, k: string, allowed: readonly T[], at: string): T {
  const v = o[k];
  if (!allowed.includes(v as T)) throw new PeerMessageError(`${at}.${k}: expected one of ${allowed.join(', ')}`);
  return v as T;
}

function strings(o: Obj, k: string, maxItems: number, maxLen: number, at: string): string[] {
  const v = o[k];
  if (v === undefined) return [];
  if (!Array.isArray(v) || v.length > maxItems) throw new PeerMessageError(`${at}.${k}: expected a list of at most ${maxItems} strings`);
  for (const s of v) if (typeof s !== 'string' || s.length > maxLen) throw new PeerMessageError(`${at}.${k}: expected strings of at most ${maxLen} characters`);
  return v as string[];
}
