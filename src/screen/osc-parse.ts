// Pure parsers for the OSC payloads we listen to. Each returns null for a payload it does not understand,
// so a hostile or newer sequence is ignored rather than thrown on.
import type { InBandSignal } from './types.js';

/** The option that carries the mark nonce of a shell we started with integration (`133;D;0;nonce=…`). */
export const NONCE_OPTION = 'nonce';
/** A nonce is a short token; anything longer is no nonce of ours (and is not kept). */
const MAX_NONCE_CHARS = 128;

/** OSC 133 (FinalTerm) and OSC 633 (VS Code): A prompt, B input, C executed, D[;exit] finished, 633 E;cmdline.
 * `key=value` options may follow the letter (FinalTerm's `aid=`, our `nonce=`); the exit code is D's first field
 * that is not one. VS Code's 633 E carries its nonce as the field after the command line. */
export function parseShellIntegration(protocol: 'osc133' | 'osc633', data: string): InBandSignal | null {
  const [code, ...rest] = data.split(';');
  const nonce = code === 'E' ? rest[1] : option(rest, NONCE_OPTION);
  const signed = nonce !== undefined && nonce.length > 0 && nonce.length <= MAX_NONCE_CHARS ? { nonce } : {};
  switch (code) {
    case 'A':
      return { kind: 'prompt-start', protocol, ...signed };
    case 'B':
      return { kind: 'command-input', protocol, ...signed };
    case 'C':
      return { kind: 'command-executed', protocol, ...signed };
    case 'D': {
      const raw = rest.find((f) => !f.includes('='));
      const exit = raw !== undefined && /^-?\d+$/.test(raw.trim()) ? Number(raw.trim()) : undefined;
      return { kind: 'command-finished', protocol, exitCode: exit, ...signed };
    }
    case 'E':
      return protocol === 'osc633' ? { kind: 'command-line', protocol, commandLine: unescape633(rest[0] ?? ''), ...signed } : null;
    default:
      return null;
  }
}

/** The value of the first `key=value` field named `key`. */
function option(fields: readonly string[], key: string): string | undefined {
  const prefix = `${key}=`;
  const f = fields.find((x) => x.startsWith(prefix));
  return f === undefined ? undefined : f.slice(prefix.length);
}

/** VS Code escapes `;` and control chars in 633 E as \xAB; decode those, leave anything else as is. */
function unescape633(s: string): string {
  return s.replace(/\\x([0-9a-fA-F]{2})|\\\\/g, (_m, hex: string | undefined) => (hex ? String.fromCharCode(parseInt(hex, 16)) : '\\'));
}

/** OSC 1337 (iTerm2): SetUserVar=name=base64, CurrentDir=path; other keys are not state-bearing. */
export function parseIterm(data: string): InBandSignal | null {
  const eq = data.indexOf('=');
  if (eq < 0) return null;
  const key = data.slice(0, eq);
  const value = data.slice(eq + 1);
  if (key === 'SetUserVar') {
    const eq2 = value.indexOf('=');
    if (eq2 < 0) return null;
    let decoded = '';
    try {
      decoded = Buffer.from(value.slice(eq2 + 1), 'base64').toString('utf8');
    } catch {
      return null;
    }
    return { kind: 'user-var', name: value.slice(0, eq2), value: decoded };
  }
  if (key === 'CurrentDir') return { kind: 'cwd', path: value };
  return null;
}

/** An OSC 7501 key or value: a short word (`working`, `permission`, `codex`). */
const WORD = /^[\w.-]{1,32}$/;
/** Fields read from one OSC 7501 payload. */
const MAX_7501_FIELDS = 8;

/** Codex OSC 7501: `state=working:app=codex[:kind=permission]`. */
export function parseAgentState(data: string): InBandSignal | null {
  const extra: Record<string, string> = {};
  for (const part of data.split(':', MAX_7501_FIELDS)) {
    const eq = part.indexOf('=');
    if (eq <= 0) continue;
    const key = part.slice(0, eq);
    const value = part.slice(eq + 1);
    // Keys and values become rule names and counter keys downstream: only short words are believed.
    if (WORD.test(key) && WORD.test(value)) extra[key] = value;
  }
  const state = extra['state'];
  if (!state) return null;
  delete extra['state'];
  return { kind: 'agent-state', protocol: 'osc7501', state, extra };
}

/** OSC 9 (growl-style; `9;4;…` is ConEmu progress, not a notification) and OSC 777 `notify;title;body`. */
export function parseNotification(ident: 9 | 777, data: string): InBandSignal | null {
  if (ident === 9) {
    if (/^4;/.test(data)) return null;
    return { kind: 'notification', protocol: 'osc9', title: '', body: data };
  }
  const [verb, title = '', ...body] = data.split(';');
  if (verb !== 'notify') return null;
  return { kind: 'notification', protocol: 'osc777', title, body: body.join(';') };
}
