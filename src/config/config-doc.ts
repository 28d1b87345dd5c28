// Generates docs/config.md from the configuration's JSON Schema (config-schema.ts, made from config/default.jsonc):
// every key with its default and its meaning, the meaning being the `//` comment written above the key. A key without one is an error (tests/unit/config-doc.test.ts fails), so
// a new key cannot ship undocumented. The one exception: a key repeated under sibling objects (each agent's
// `detection` rule, the same pattern list for several agents) may be described once, at its first occurrence.
import { visit } from 'jsonc-parser';
import { JSONC_OPTIONS, parseJsonc } from './jsonc.js';
import { configSchema, type JsonSchema } from './config-schema.js';

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

/** Every key of the JSONC text in order (objects too), with the comment block directly above it (jsonc-parser's
 * visitor: a block is consecutive comment lines, and it belongs to a key on the next line only). */
export function commentedKeys(text: string): DocEntry[] {
  const root = parseJsonc(text, 'config') as Record<string, unknown>;
  const out: DocEntry[] = [];
  let block: { last: number; lines: string[] } | null = null;
  visit(
    text,
    {
      onComment(offset, length, startLine) {
        const raw = text.slice(offset, offset + length);
        const last = startLine + (raw.match(/\n/g)?.length ?? 0);
        const body = raw.startsWith('//') ? raw.slice(2).trim() : raw.slice(2, -2).split('\n').map((l) => l.replace(/^\s*\*?\s?/, '').trim()).join(' ').trim();
        if (block && startLine <= block.last + 1) {
          block.lines.push(body);
          block.last = last;
        } else block = { last, lines: [body] };
      },
      onObjectProperty(property, _offset, _length, startLine, _character, pathSupplier) {
        const path = [...pathSupplier().filter((k) => typeof k === 'string'), property].join('.');
        const comment = block && block.last >= startLine - 1 ? block.lines.join(' ').trim() : '';
        out.push({ path, comment, value: valueAt(root, path) });
        block = null;
      },
    },
    JSONC_OPTIONS,
  );
  return out;
}

function valueAt(root: Record<string, unknown>, path: string): unknown {
  return path.split('.').reduce<unknown>((o, k) => (o && typeof o === 'object' ? (o as Record<string, unknown>)[k] : undefined), root);
}

/** The file's opening comment (before the first `{`). */
export function header(text: string): string {
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

/** docs/config.md, from the schema made of `text` (config/default.jsonc): every key with its default and meaning. */
export function configDoc(text: string): string {
  return docFromSchema(configSchema(text));
}

function docFromSchema(schema: JsonSchema): string {
  const lines = [
    '# Configuration reference',
    '',
    `<!-- Generated from config/default.jsonc (through config/schema.json) by \`${CONFIG_DOC_COMMAND}\`. Do not edit:`,
    '     change the comments in config/default.jsonc and regenerate; tests/unit/config-doc.test.ts fails when they disagree. -->',
    '',
    String(schema['description']),
    '',
    'Put overrides in `$XDG_CONFIG_HOME/termsupervisor/config.json` (default `~/.config/termsupervisor/config.json`) or',
    'pass `--config PATH`; only the keys you set change. `termsupervisor doctor` validates the file the way the daemon',
    'does. Regexes below are shown as the regex itself (in the file they are JSON strings, so `\\` is written `\\\\`).',
    '',
    '## Completion and checks in your editor',
    '',
    'The package ships this reference as a JSON Schema, `config/schema.json`, which the daemon itself validates',
    'with. Name it in your file and editors that read JSON Schema (VS Code, JetBrains IDEs, Neovim with a JSON',
    'language server) complete keys, show each one\'s meaning and default, and underline mistakes as you type:',
    '',
    '```jsonc',
    '{',
    '  "$schema": "/usr/lib/node_modules/termsupervisor/config/schema.json", // `npm root -g` tells where yours is',
    '  "thresholds": { "stability_s": 2 }',
    '}',
    '```',
    '',
    'In a checkout it is `config/schema.json` of the repository. Regexes are checked when the daemon starts (a schema',
    'cannot compile them): a broken one is refused with its key path, and so is one that can take exponential time on',
    'a backtracking engine (a repetition inside a repetition with nothing to tell their rounds apart, `(a+)+$`,',
    '`(\\s*\\w+)*`; a repeated alternation whose branches match alike, `(a|aa)+`); `doctor` says the same.',
    '',
  ];
  const walk = (node: JsonSchema, path: string) => {
    for (const [key, child] of Object.entries((node['properties'] as Record<string, JsonSchema> | undefined) ?? {})) {
      if (key === '$schema') continue;
      const p = path ? `${path}.${key}` : key;
      const depth = p.split('.').length;
      const description = String(child['description'] ?? '');
      if (child['type'] === 'object') {
        lines.push('', `${'#'.repeat(Math.min(depth + 1, 4))} \`${p}\``, '');
        if (description) lines.push(description, '');
        walk(child, p);
        continue;
      }
      const dflt = defaultText(child['default']);
      const allowed = (child['enum'] ?? (child['items'] as JsonSchema | undefined)?.['enum']) as string[] | undefined;
      const one = allowed ? ` One of ${allowed.map((a) => code(a)).join(', ')}.` : '';
      lines.push(`- **\`${p}\`**${dflt ? ` — default ${dflt}` : ''}: ${description}${one}`);
      if (!dflt && Array.isArray(child['default'])) {
        lines.push('', '  ```', ...(child['default'] as unknown[]).map((x) => `  ${String(x)}`), '  ```', '');
      }
    }
  };
  walk(schema, '');
  return lines.join('\n').replace(/\n{3,}/g, '\n\n').trimEnd() + '\n';
}
