// The body of POST /api/hooks: one hook event and the pane it came from. Built by `termsupervisor hook`, checked
// field by field by the daemon (anything the agent or a stranger sent is untrusted), never thrown on.
import { EVENT_NAME, HOOK_AGENTS, isHookAgent } from './agents.js';
import { CWD_MAX, HOOK_MESSAGE_MAX, SESSION_MAX, type HookEvent } from './payload.js';
import type { PaneRef } from './pane-ref.js';

export const HOOK_BODY_VERSION = 1;

export interface HookBody extends HookEvent {
  v: typeof HOOK_BODY_VERSION;
  pane: PaneRef;
}

/** A pane reference field (an id, a socket path, a tty) longer than this is not one. */
const MAX_REF_CHARS = 512;
const PANE_REF_KEYS = ['id', 'tmuxPane', 'tmuxSocket', 'itermSession', 'tty'] as const;

export type ParsedHookBody = { ok: true; body: HookBody } | { ok: false; reason: string };

export function parseHookBody(raw: unknown): ParsedHookBody {
  const bad = (reason: string): ParsedHookBody => ({ ok: false, reason });
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return bad('the body must be a JSON object');
  const b = raw as Record<string, unknown>;
  if (b['v'] !== HOOK_BODY_VERSION) return bad(`v must be ${HOOK_BODY_VERSION}`);
  if (!isHookAgent(b['agent'])) return bad(`agent must be one of ${HOOK_AGENTS.join(', ')}`);
  if (typeof b['event'] !== 'string' || !EVENT_NAME.test(b['event'])) return bad('event must be a hook event name');
  const detail = b['detail'] ?? '';
  if (typeof detail !== 'string' || (detail !== '' && !EVENT_NAME.test(detail))) return bad('detail must be a name or empty');
  const message = b['message'] ?? '';
  if (typeof message !== 'string' || message.length > HOOK_MESSAGE_MAX) return bad(`message must be a string of at most ${HOOK_MESSAGE_MAX} characters`);
  const session = b['session'] ?? '';
  if (typeof session !== 'string' || session.length > SESSION_MAX) return bad(`session must be a string of at most ${SESSION_MAX} characters`);
  // Added later than the rest: a hook command of an older termsupervisor sends neither.
  const input = b['input'] ?? '';
  if (typeof input !== 'string' || input.length > HOOK_MESSAGE_MAX) return bad(`input must be a string of at most ${HOOK_MESSAGE_MAX} characters`);
  const cwd = b['cwd'] ?? '';
  if (typeof cwd !== 'string' || cwd.length > CWD_MAX) return bad(`cwd must be a string of at most ${CWD_MAX} characters`);
  const p = b['pane'];
  if (p === null || typeof p !== 'object' || Array.isArray(p)) return bad('pane must be an object');
  const pane: PaneRef = {};
  for (const k of PANE_REF_KEYS) {
    const v = (p as Record<string, unknown>)[k];
    if (v === undefined) continue;
    if (typeof v !== 'string' || v.length > MAX_REF_CHARS) return bad(`pane.${k} must be a string of at most ${MAX_REF_CHARS} characters`);
    if (v) pane[k] = v;
  }
  return { ok: true, body: { v: HOOK_BODY_VERSION, agent: b['agent'], event: b['event'], detail, message, session, input, cwd, pane } };
}
