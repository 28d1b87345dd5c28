// Adds and removes termsupervisor's hooks in a JSON settings file (Claude Code's, Gemini CLI's and Qwen Code's
// settings.json share one shape: {"hooks": {"<Event>": [{"matcher"?: "...", "hooks": [{"type": "command", "command": "..."}]}]}}).
// Pure text in, text out. The file is read with jsonc-parser (what VS Code uses for its own settings.json) and edited
// in place (json-edit.ts): comments, trailing commas, order, indentation and line endings outside our entries stay
// byte for byte, and uninstalling removes exactly what installing added. A shape we cannot edit safely is refused
// with the reason, never rewritten.
import { parse, type ParseError } from 'jsonc-parser';
import { describeParseError, JSONC_OPTIONS } from '../config/jsonc.js';
import { JsoncText } from './json-edit.js';

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

const UNFORESEEN_STYLE = 'its layout is one termsupervisor cannot edit in place safely; add the hooks by hand (see --dry-run on a copy)';

export function isOurCommand(cmd: unknown): boolean {
  return typeof cmd === 'string' && OUR_COMMAND.test(cmd);
}

export function installJsonHooks(text: string | null, spec: JsonHookSpec): EditResult {
  const doc = parseSettings(text);
  if ('refused' in doc) return { status: 'refused', reason: doc.refused };
  // A missing or blank file is written whole.
  if (text === null || text.trim() === '') {
    const hooks: Obj = {};
    for (const event of spec.events) hooks[event] = [ourGroup(spec, event)];
    return { status: 'changed', text: JSON.stringify({ hooks }, null, DEFAULT_INDENT) + '\n', notes: [] };
  }
  const shape = hooksObject(doc.root, true);
  if (typeof shape === 'string') return { status: 'refused', reason: shape };
  const editor = new SettingsEditor(text);
  for (const event of spec.events) {
    const groups = (editor.root()['hooks'] as Obj | undefined)?.[event] ?? [];
    if (!Array.isArray(groups)) return { status: 'refused', reason: `hooks.${event} is not a list; termsupervisor will not rewrite it` };
    const want = spec.entry(event);
    const matcher = spec.matcher(event);
    const ours = groups.flatMap((g) => (isGroup(g) ? g.hooks.filter((h) => isObj(h) && isOurCommand(h['command'])) : []));
    const group = ours.length === 1 ? groups.find((g) => isGroup(g) && g.hooks.includes(ours[0])) : undefined;
    // Already there, the same, alone in its own group with our matcher: nothing to do.
    if (ours.length === 1 && sameJson(ours[0], want) && isGroup(group) && group.hooks.length === 1 && group['matcher'] === matcher) continue;
    editor.removeOurs(event);
    editor.append(event, ourGroup(spec, event));
  }
  if (editor.text === text) return { status: 'unchanged', text, notes: [] };
  if (!editor.valid()) return { status: 'refused', reason: UNFORESEEN_STYLE };
  return { status: 'changed', text: editor.text, notes: [] };
}

export function uninstallJsonHooks(text: string | null): EditResult {
  if (text === null) return { status: 'unchanged', text: '', notes: ['no settings file'] };
  const doc = parseSettings(text);
  if ('refused' in doc) return { status: 'refused', reason: doc.refused };
  const hooks = hooksObject(doc.root, false);
  if (typeof hooks === 'string') return { status: 'refused', reason: hooks };
  if (hooks === null) return { status: 'unchanged', text, notes: [] };
  const editor = new SettingsEditor(text);
  let removed = 0;
  for (const [event, groups] of Object.entries(hooks)) {
    if (!Array.isArray(groups)) continue; // not ours, whatever it is
    const n = editor.removeOurs(event);
    if (n === 0) continue;
    removed += n;
    if (editor.groups(event).length === 0) editor.remove(['hooks', event]);
  }
  if (removed === 0) return { status: 'unchanged', text, notes: [] };
  // An empty hooks object left behind by us goes too (a user's own empty one was never touched).
  if (Object.keys((editor.root()['hooks'] as Obj | undefined) ?? {}).length === 0) editor.remove(['hooks']);
  if (!editor.valid()) return { status: 'refused', reason: UNFORESEEN_STYLE };
  return { status: 'changed', text: editor.text, notes: [] };
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

/** Edits one settings text in place, re-reading it after each edit (offsets move). */
class SettingsEditor {
  private readonly doc: JsoncText;

  constructor(text: string) {
    this.doc = new JsoncText(text);
  }

  get text(): string {
    return this.doc.text;
  }

  root(): Obj {
    return parse(this.doc.text, [], JSONC_OPTIONS) as Obj;
  }

  groups(event: string): unknown[] {
    const g = (this.root()['hooks'] as Obj | undefined)?.[event];
    return Array.isArray(g) ? g : [];
  }

  /** Removes our hooks from one event's groups: a group left with none of the person's hooks goes whole, a shared
   * group keeps theirs. Returns how many hooks were ours. */
  removeOurs(event: string): number {
    let removed = 0;
    const groups = this.groups(event);
    for (let i = groups.length - 1; i >= 0; i--) {
      const g = groups[i];
      if (!isGroup(g)) continue;
      const ours = g.hooks.map((h, j) => (isObj(h) && isOurCommand(h['command']) ? j : -1)).filter((j) => j >= 0);
      if (!ours.length) continue;
      removed += ours.length;
      if (ours.length === g.hooks.length) this.remove(['hooks', event, i]);
      else for (const j of ours.reverse()) this.remove(['hooks', event, i, 'hooks', j]);
    }
    return removed;
  }

  /** Our group after the person's groups of the event (the event, and "hooks", made when missing). */
  append(event: string, group: Obj): void {
    const hooks = this.root()['hooks'];
    if (hooks === undefined) this.doc.append([], { [event]: [group] }, 'hooks');
    else if ((hooks as Obj)[event] === undefined) this.doc.append(['hooks'], [group], event);
    else this.doc.append(['hooks', event], group);
  }

  remove(path: Array<string | number>): void {
    this.doc.remove(path);
  }

  /** The edited text still reads as JSONC (a style the edits did not foresee is refused, not written broken). */
  valid(): boolean {
    const errors: ParseError[] = [];
    parse(this.doc.text, errors, JSONC_OPTIONS);
    return errors.length === 0;
  }
}

function ourGroup(spec: JsonHookSpec, event: string): Obj {
  const matcher = spec.matcher(event);
  const want = spec.entry(event);
  return matcher === undefined ? { hooks: [want] } : { matcher, hooks: [want] };
}

function parseSettings(text: string | null): { root: Obj } | { refused: string } {
  if (text === null || text.trim() === '') return { root: {} };
  const errors: ParseError[] = [];
  const v: unknown = parse(text, errors, JSONC_OPTIONS);
  if (errors.length) return { refused: `it is not valid JSON (${describeParseError(text, errors[0]!)}); fix it first` };
  if (!isObj(v)) return { refused: 'its top level is not a JSON object' };
  return { root: v };
}

function hooksObject(root: Obj, create: boolean): Obj | null | string {
  const h = root['hooks'];
  if (h === undefined) return create ? {} : null;
  if (!isObj(h)) return '"hooks" is not an object; termsupervisor will not rewrite it';
  return h;
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
