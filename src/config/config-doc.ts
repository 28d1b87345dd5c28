// Generates docs/config.md from config/default.jsonc: every key with its default and its meaning, the meaning being
// the `//` comment written above the key. A key without one is an error (tests/unit/config-doc.test.ts fails), so
// a new key cannot ship undocumented. The one exception: a key repeated under sibling objects (each agent's
// `detection` rule, the same pattern list for several agents) may be described once, at its first occurrence.
import { parseJsonc } from './jsonc.js';

export interface DocEntry {
  /** Dotted key path: `thresholds.tick_s`. */
  path: string;
  /** The comment above it, joined into one paragraph ('' for none). */
  comment: string;
  value: unknown;
}

export class UndocumentedKeys extends Error {
  constructor(readonly paths: string[]) {
    super(`config/default.jsonc: these keys have no comment above them (add one, then regenerate docs/config.md):\n  ${paths.join('\n  ')}`);
  }
}

/** Every key of the JSONC text in order (objects too), with the comment block directly above it. */
export function commentedKeys(text: string): DocEntry[] {
  const root = parseJsonc(text, 'config') as Record<string, unknown>;
  const out: DocEntry[] = [];
  const stack: Array<{ kind: 'object' | 'array'; path: string }> = [];
  let comment: string[] = [];
  let lastKey = '';
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (c === '/' && text[i + 1] === '/') {
      const end = text.indexOf('\n', i);
      comment.push(text.slice(i + 2, end < 0 ? text.length : end).trim());
      i = end < 0 ? text.length : end;
    } else if (c === '"') {
      const end = stringEnd(text, i);
      const top = stack[stack.length - 1];
      const after = text.slice(end + 1).match(/^\s*:/);
      if (top?.kind === 'object' && after) {
        lastKey = top.path ? `${top.path}.${JSON.parse(text.slice(i, end + 1)) as string}` : (JSON.parse(text.slice(i, end + 1)) as string);
        out.push({ path: lastKey, comment: comment.join(' ').trim(), value: valueAt(root, lastKey) });
      }
      comment = [];
      i = end + 1;
    } else if (c === '{' || c === '[') {
      // The root object has no key; nested containers belong to the key just read.
      stack.push({ kind: c === '{' ? 'object' : 'array', path: stack.length === 0 ? '' : lastKey });
      comment = []; // what preceded the brace (the file's header) describes no key inside
      i++;
    } else if (c === '}' || c === ']') {
      stack.pop();
      comment = [];
      i++;
    } else if (c === '\n' && /^\n[ \t]*\n/.test(text.slice(i, i + 200))) {
      comment = []; // a blank line ends a comment block: it belongs to nothing below
      i++;
    } else {
      i++;
    }
  }
  return out;
}

function stringEnd(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === '"') return i;
  }
  return text.length;
}

function valueAt(root: Record<string, unknown>, path: string): unknown {
  return path.split('.').reduce<unknown>((o, k) => (o && typeof o === 'object' ? (o as Record<string, unknown>)[k] : undefined), root);
}

/** The file's opening comment (before the first `{`). */
function header(text: string): string {
  return text
    .slice(0, text.indexOf('{'))
    .split('\n')
    .map((l) => l.replace(/^\s*\/\/\s?/, '').trim())
    .filter(Boolean)
    .join(' ');
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Entries with each undocumented leaf filled from a same-named sibling; throws listing those still bare. */
export function documented(text: string): DocEntry[] {
  const entries = commentedKeys(text);
  const bare: string[] = [];
  for (const e of entries) {
    if (e.comment) continue;
    const parts = e.path.split('.');
    const sibling = parts.length >= 3 ? entries.find((o) => o.comment && o.path !== e.path && samePlaceInSibling(o.path.split('.'), parts)) : undefined;
    if (sibling) e.comment = sibling.comment;
    else if (!isObject(e.value) || parts.length === 1) bare.push(e.path);
  }
  if (bare.length) throw new UndocumentedKeys(bare);
  return entries;
}

/** a.X.k and a.Y.k: the same key under two siblings. */
function samePlaceInSibling(a: string[], b: string[]): boolean {
  return a.length === b.length && a[a.length - 1] === b[b.length - 1] && a.slice(0, -2).join('.') === b.slice(0, -2).join('.');
}

/** Markdown inline code that survives backticks inside. */
function code(s: string): string {
  const ticks = Math.max(0, ...(s.match(/`+/g) ?? []).map((t) => t.length));
  const fence = '`'.repeat(ticks + 1);
  return ticks ? `${fence} ${s} ${fence}` : `${fence}${s}${fence}`;
}

function defaultText(v: unknown): string {
  if (typeof v === 'string') return v === '' ? '`""` (empty)' : code(v);
  if (Array.isArray(v)) {
    if (v.length === 0) return '`[]` (empty)';
    return v.every((x) => typeof x === 'string' && x.length <= 24) ? v.map((x) => code(String(x))).join(', ') : '';
  }
  return code(JSON.stringify(v));
}

export const CONFIG_DOC_COMMAND = 'npm run build && node scripts/gen-config-doc.mjs';

export function configDoc(text: string): string {
  const entries = documented(text);
  const lines = [
    '# Configuration reference',
    '',
    `<!-- Generated from config/default.jsonc by \`${CONFIG_DOC_COMMAND}\`. Do not edit: change the comments in`,
    '     config/default.jsonc and regenerate; tests/unit/config-doc.test.ts fails when the two disagree. -->',
    '',
    header(text),
    '',
    'Put overrides in `$XDG_CONFIG_HOME/termsupervisor/config.json` (default `~/.config/termsupervisor/config.json`) or',
    'pass `--config PATH`; only the keys you set change. `termsupervisor doctor` validates the file the way the daemon',
    'does. Regexes below are shown as the regex itself (in the file they are JSON strings, so `\\` is written `\\\\`).',
    '',
  ];
  for (const e of entries) {
    const depth = e.path.split('.').length;
    if (isObject(e.value)) {
      lines.push('', `${'#'.repeat(Math.min(depth + 1, 4))} \`${e.path}\``, '');
      if (e.comment) lines.push(e.comment, '');
      continue;
    }
    const dflt = defaultText(e.value);
    lines.push(`- **\`${e.path}\`**${dflt ? ` — default ${dflt}` : ''}: ${e.comment}`);
    if (!dflt && Array.isArray(e.value)) {
      lines.push('', '  ```', ...e.value.map((x) => `  ${String(x)}`), '  ```', '');
    }
  }
  return lines.join('\n').replace(/\n{3,}/g, '\n\n').trimEnd() + '\n';
}
