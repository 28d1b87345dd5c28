// Adds and removes termsupervisor's hooks in a JSON settings file (Claude Code's, Gemini CLI's and Qwen Code's
// settings.json share one shape: {"hooks": {"<Event>": [{"matcher"?: "...", "hooks": [{"type": "command", "command": "..."}]}]}}).
// Pure text in, text out. Everything not ours is kept as it was; a file whose shape we cannot edit safely is
// refused with the reason, never rewritten.
import { parseJsonc } from '../config/jsonc.js';

export type EditResult =
  | { status: 'changed' | 'unchanged'; text: string; notes: string[] }
  | { status: 'refused'; reason: string };

export interface JsonHookSpec {
  events: readonly string[];
  /** Our hook configuration for one event ({type, command, timeout, …}). */
  entry(event: string): Record<string, unknown>;
  /** The matcher our group carries for the event, or undefined for none. */
  matcher(event: string): string | undefined;
}

/** A hook command is ours when it runs `termsupervisor… hook <agent>` (any path to the program, quoted or not). */
const OUR_COMMAND = /(?:^|[\s/'"])termsupervisor[^\s/'"]*['"]?\s+hook\s+(?:claude|codex|gemini|qwen)(?:\s|$)/;
/** Indentation when the file has none to copy (Claude Code and Gemini CLI write two spaces). */
const DEFAULT_INDENT = '  ';

type Obj = Record<string, unknown>;

export function isOurCommand(cmd: unknown): boolean {
  return typeof cmd === 'string' && OUR_COMMAND.test(cmd);
}

export function installJsonHooks(text: string | null, spec: JsonHookSpec): EditResult {
  const doc = parseSettings(text);
  if ('refused' in doc) return { status: 'refused', reason: doc.refused };
  const { root } = doc;
  const hooks = hooksObject(root, true) ?? {};
  if (typeof hooks === 'string') return { status: 'refused', reason: hooks };
  let changed = false;
  for (const event of spec.events) {
    const groups = hooks[event] ?? [];
    if (!Array.isArray(groups)) return { status: 'refused', reason: `hooks.${event} is not a list; termsupervisor will not rewrite it` };
    const want = spec.entry(event);
    const matcher = spec.matcher(event);
    const ours = groups.flatMap((g) => (isGroup(g) ? g.hooks.filter((h) => isObj(h) && isOurCommand(h['command'])) : []));
    const group = ours.length === 1 ? groups.find((g) => isGroup(g) && g.hooks.includes(ours[0])) : undefined;
    // Already there, the same, alone in its own group with our matcher: nothing to do.
    if (ours.length === 1 && sameJson(ours[0], want) && isGroup(group) && group.hooks.length === 1 && group['matcher'] === matcher) continue;
    const kept = withoutOurs(groups).groups;
    kept.push(matcher === undefined ? { hooks: [want] } : { matcher, hooks: [want] });
    hooks[event] = kept;
    changed = true;
  }
  if (!changed) return { status: 'unchanged', text: text ?? '', notes: [] };
  if (root['hooks'] !== hooks) root['hooks'] = hooks;
  return { status: 'changed', text: render(root, text), notes: [] };
}

export function uninstallJsonHooks(text: string | null): EditResult {
  if (text === null) return { status: 'unchanged', text: '', notes: ['no settings file'] };
  const doc = parseSettings(text);
  if ('refused' in doc) return { status: 'refused', reason: doc.refused };
  const { root } = doc;
  const hooks = hooksObject(root, false);
  if (typeof hooks === 'string') return { status: 'refused', reason: hooks };
  if (hooks === null) return { status: 'unchanged', text, notes: [] };
  let removed = 0;
  for (const [event, groups] of Object.entries(hooks)) {
    if (!Array.isArray(groups)) continue; // not ours, whatever it is
    const r = withoutOurs(groups);
    if (r.removed === 0) continue;
    removed += r.removed;
    if (r.groups.length) hooks[event] = r.groups;
    else delete hooks[event];
  }
  if (removed === 0) return { status: 'unchanged', text, notes: [] };
  // An empty hooks object left behind by us goes too (a user's own empty one was never touched).
  if (Object.keys(hooks).length === 0) delete root['hooks'];
  return { status: 'changed', text: render(root, text), notes: [] };
}

/** The events in which one of our hooks is present. */
export function installedEvents(text: string | null): string[] {
  if (text === null) return [];
  const doc = parseSettings(text);
  if ('refused' in doc) return [];
  const hooks = hooksObject(doc.root, false);
  if (hooks === null || typeof hooks === 'string') return [];
  return Object.entries(hooks)
    .filter(([, groups]) => Array.isArray(groups) && groups.some((g) => isGroup(g) && g.hooks.some((h) => isObj(h) && isOurCommand(h['command']))))
    .map(([e]) => e);
}

function parseSettings(text: string | null): { root: Obj } | { refused: string } {
  if (text === null || text.trim() === '') return { root: {} };
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    try {
      parseJsonc(text, 'settings');
    } catch {
      return { refused: `it is not valid JSON (${(e as Error).message}); fix it first` };
    }
    return { refused: 'it has comments; rewriting it would drop them, so add the hooks by hand (see --dry-run on a copy without comments)' };
  }
  if (!isObj(v)) return { refused: 'its top level is not a JSON object' };
  return { root: v };
}

function hooksObject(root: Obj, create: boolean): Obj | null | string {
  const h = root['hooks'];
  if (h === undefined) return create ? {} : null;
  if (!isObj(h)) return '"hooks" is not an object; termsupervisor will not rewrite it';
  return h;
}

/** The groups without our hooks: groups left empty by that are dropped, everything else is kept as it was. */
function withoutOurs(groups: unknown[]): { groups: unknown[]; removed: number } {
  let removed = 0;
  const out: unknown[] = [];
  for (const g of groups) {
    if (!isGroup(g)) {
      out.push(g);
      continue;
    }
    const rest = g.hooks.filter((h) => !(isObj(h) && isOurCommand(h['command'])));
    const n = g.hooks.length - rest.length;
    removed += n;
    if (n === 0) out.push(g);
    else if (rest.length) out.push({ ...g, hooks: rest });
  }
  return { groups: out, removed };
}

function isObj(v: unknown): v is Obj {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function isGroup(g: unknown): g is Obj & { hooks: unknown[] } {
  return isObj(g) && Array.isArray(g['hooks']);
}

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** Pretty JSON in the file's own indentation and line ending, with its final newline. */
function render(root: Obj, original: string | null): string {
  const indent = /\n([ \t]+)"/.exec(original ?? '')?.[1] ?? DEFAULT_INDENT;
  const eol = original?.includes('\r\n') ? '\r\n' : '\n';
  return JSON.stringify(root, null, indent).replace(/\n/g, eol) + eol;
}
