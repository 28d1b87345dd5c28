// One readable line per event-log record, for `make loghook`: time, pane, from → state, tier, rule, screen line.
// Anything that is not a record we know is shown as it is (control characters escaped), so a damaged or newer log
// is still readable. Every field passes through str(), which makes it printable.
import { printable, printableJson } from './printable.js';
import { redactText } from '../daemon/redact.js';

/** Pane names are padded to this width so the state column lines up across panes. */
const NAME_WIDTH = 14;
/** "WAITING_APPROVAL", the longest state, plus the arrow's room. */
const STATE_WIDTH = 16;
/** Screen lines are cut here so one event stays one terminal row on a typical screen. */
const LINE_MAX = 100;

const ANSI = { reset: '\x1b[0m', dim: '\x1b[2m', bold: '\x1b[1m', red: '\x1b[31m', green: '\x1b[32m', yellow: '\x1b[33m', magenta: '\x1b[35m', cyan: '\x1b[36m' };

/** The colour a person should notice each state with: needs-you states stand out, IDLE recedes. */
const STATE_COLOUR: Record<string, string> = {
  RUNNING: ANSI.yellow,
  LONG_RUNNING: ANSI.yellow,
  WAITING_APPROVAL: ANSI.bold + ANSI.magenta,
  DONE: ANSI.green,
  FAILED: ANSI.bold + ANSI.red,
  IDLE: ANSI.dim,
};

type Rec = Record<string, unknown>;

export function formatEventLine(raw: string, colour: boolean): string {
  let rec: unknown;
  try {
    rec = JSON.parse(raw);
  } catch {
    return printable(raw);
  }
  if (!rec || typeof rec !== 'object' || Array.isArray(rec)) return printable(raw);
  const r = rec as Rec;
  const paint = (code: string | undefined, s: string) => (colour && code ? code + s + ANSI.reset : s);
  const head = `${clock(r['ts'])}  ${str(r['name'] ?? r['pane']).padEnd(NAME_WIDTH)}`;
  switch (r['kind']) {
    case 'pane_start': {
      const cmd = Array.isArray(r['command']) ? printable(r['command'].join(' ')) : str(r['command']);
      return `${head}  ${paint(ANSI.cyan, 'started')}  ${cmd}  (${str(r['pane'])}, ${str(r['cols'])}x${str(r['rows'])}, ${str(r['program'])})`;
    }
    case 'pane_exit': {
      const how = r['signal'] ? `signal ${str(r['signal'])}` : `code ${str(r['code'])}`;
      return `${head}  ${paint(ANSI.cyan, 'exited')}   ${how}, exit status ${str(r['exit_code'])}, last state ${paint(STATE_COLOUR[str(r['state'])], str(r['state']))}`;
    }
    case 'daemon_link':
      return `${head}  ${paint(ANSI.cyan, str(r['status']))}  daemon ${str(r['url'])}${r['why'] ? '  ' + paint(ANSI.dim, str(r['why'])) : ''}`;
    case 'analysis_error':
      return `${head}  ${paint(ANSI.bold + ANSI.red, 'analysis error')}  ${str(r['stage'])}.${str(r['step'])}  ${str(r['error'])}  (${str(r['count'])} so far; the pane is still watched)`;
    case 'transition': {
      const state = str(r['state']);
      const shown = r['stalled'] ? `${state} (stalled)` : state;
      const move = `${str(r['from']).padStart(STATE_WIDTH)} → ${paint(STATE_COLOUR[state], shown.padEnd(STATE_WIDTH))}`;
      // Masked again when shown: a log written by an older wrapper (or by hand) may hold a key in full.
      const line = redactText(typeof r['line'] === 'string' ? r['line'] : str(r['line'])); // made printable as JSON below
      const cut = line.length > LINE_MAX ? line.slice(0, LINE_MAX - 1) + '…' : line;
      return `${head}  ${move}  tier ${str(r['tier'])}  ${str(r['rule'])}${cut ? '  ' + paint(ANSI.dim, printableJson(cut)) : ''}`;
    }
    default:
      return printable(raw);
  }
}

/** Local wall time HH:MM:SS.mmm of an ISO timestamp or epoch ms (the date is rarely what one looks for in a tail). */
export function clock(ts: unknown): string {
  const d = new Date(typeof ts === 'string' || typeof ts === 'number' ? ts : NaN);
  if (Number.isNaN(d.getTime())) return '--:--:--.---';
  const p = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}.${p(d.getMilliseconds(), 3)}`;
}

export function str(v: unknown): string {
  if (v === undefined || v === null) return '-';
  return typeof v === 'string' ? printable(v) : printableJson(v);
}
