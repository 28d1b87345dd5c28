// Sets and removes Codex's top-level `notify` key in config.toml without a TOML library: a small scanner finds where
// each top-level statement starts and ends (strings, multi-line strings, arrays and inline tables are skipped over
// correctly), then one line is added, replaced or removed. Everything else in the file stays byte for byte. A
// `notify` that is not ours, or that we cannot read, is kept and explained, never overwritten: Codex runs only one
// notify program.
import type { EditResult } from './settings-json.js';

/** Written above our line, so a person reading config.toml knows where it came from and how to remove it. */
export const CODEX_MARKER = '# termsupervisor: Codex turn ends → the daemon (remove with: termsupervisor hooks uninstall codex)';

interface Statement {
  /** First and last line index (inclusive). */
  first: number;
  last: number;
  kind: 'table' | 'keyval';
  /** The key as written before `=` (trimmed), for keyval; the header text for a table. */
  key: string;
  /** Text after the `=` (keyval), spanning all its lines. */
  value: string;
}

/** The argv our notify line runs: the program, then `hook codex` (Codex appends the JSON payload). */
export function codexArgv(program: string): string[] {
  return [program, 'hook', 'codex'];
}

export function isOurArgv(argv: readonly string[]): boolean {
  const prog = argv[0] ?? '';
  return argv.length === 3 && /^termsupervisor/.test(prog.slice(prog.lastIndexOf('/') + 1)) && argv[1] === 'hook' && argv[2] === 'codex';
}

export function installCodexNotify(text: string | null, program: string): EditResult {
  const src = text ?? '';
  const eol = src.includes('\r\n') ? '\r\n' : '\n';
  const want = `notify = ${tomlArray(codexArgv(program))}`;
  const scan = scanTopLevel(src);
  if (typeof scan === 'string') return { status: 'refused', reason: scan };
  const lines = splitLines(src);
  const found = findNotify(scan.statements);
  if (typeof found === 'string') return { status: 'refused', reason: found };
  if (found) {
    const argv = found.first === found.last ? parseStringArray(found.value) : null;
    if (!argv) return { status: 'refused', reason: `notify is already set (line ${found.first + 1}) to something termsupervisor cannot read; it was kept. ${chainHint(program)}` };
    if (!isOurArgv(argv)) return { status: 'refused', reason: `notify is already set to ${tomlArray(argv)} (line ${found.first + 1}); Codex runs only one notify program, so it was kept. ${chainHint(program)}` };
    if (argv[0] === program) return { status: 'unchanged', text: src, notes: [] };
    lines[found.first] = want + trailingComment(lines[found.first]!);
    return { status: 'changed', text: lines.join(eol), notes: ['updated the program path in notify'] };
  }
  // A top-level key must come before the first table header: our lines go just above it (and above the comment
  // lines directly on top of it, which describe it), or at the end of a file without tables.
  const header = scan.statements.find((s) => s.kind === 'table');
  let at = header ? header.first : lines.length;
  if (header) while (at > 0 && /^\s*#/.test(lines[at - 1]!)) at--;
  else if (lines.length && lines[lines.length - 1] === '') at = lines.length - 1; // before the final newline
  const block = [CODEX_MARKER, want];
  if (header) block.push('');
  else if (at > 0 && lines[at - 1]!.trim() !== '') block.unshift('');
  lines.splice(at, 0, ...block);
  let out = lines.join(eol);
  if (!out.endsWith(eol)) out += eol;
  return { status: 'changed', text: out, notes: [] };
}

export function uninstallCodexNotify(text: string | null): EditResult {
  if (text === null) return { status: 'unchanged', text: '', notes: ['no config file'] };
  const scan = scanTopLevel(text);
  if (typeof scan === 'string') return { status: 'refused', reason: scan };
  const found = findNotify(scan.statements);
  if (typeof found === 'string') return { status: 'refused', reason: found };
  if (!found) return { status: 'unchanged', text, notes: [] };
  const argv = found.first === found.last ? parseStringArray(found.value) : null;
  if (!argv || !isOurArgv(argv)) return { status: 'unchanged', text, notes: ['notify is not termsupervisor\'s; it was left alone'] };
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const lines = splitLines(text);
  let first = found.first;
  if (first > 0 && lines[first - 1] === CODEX_MARKER) first--;
  let count = found.last - first + 1;
  // Install put a blank line between our lines and a table below them, or one before them at the end of a file.
  const next = lines[found.last + 2];
  if (lines[found.last + 1] === '' && next !== undefined && /^\s*[[#]/.test(next)) count++;
  lines.splice(first, count);
  const atEnd = lines.slice(first).every((l) => l === '');
  if (atEnd && first > 0 && lines[first - 1] === '') lines.splice(first - 1, 1);
  return { status: 'changed', text: lines.join(eol), notes: [] };
}

/** What `notify` is set to at the top level: null when unset, the argv when it is one string array, else undefined. */
export function currentNotify(text: string | null): string[] | null | undefined {
  if (text === null) return null;
  const scan = scanTopLevel(text);
  if (typeof scan === 'string') return undefined;
  const found = findNotify(scan.statements);
  if (found === null) return null;
  if (typeof found === 'string' || found.first !== found.last) return undefined;
  return parseStringArray(found.value) ?? undefined;
}

function chainHint(program: string): string {
  return `To have both, make your notify program also run: ${program} hook codex "<the JSON argument>"`;
}

function findNotify(statements: Statement[]): Statement | null | string {
  let found: Statement | null = null;
  for (const s of statements) {
    if (s.kind === 'table') {
      if (/^\[\s*("notify"|'notify'|notify)\s*[\].]/.test(s.key)) return `config.toml has a [notify] table (line ${s.first + 1}); termsupervisor will not edit it`;
      break; // keys after the first table header belong to a table
    }
    const k = unquoteKey(s.key);
    if (k === 'notify') found = s;
    else if (/^\s*("notify"|'notify'|notify)\s*\./.test(s.key)) return `config.toml sets notify with a dotted key (line ${s.first + 1}); termsupervisor will not edit it`;
  }
  return found;
}

function unquoteKey(k: string): string {
  const m = /^(?:"([^"\\]*)"|'([^']*)'|([A-Za-z0-9_-]+))$/.exec(k.trim());
  return m ? (m[1] ?? m[2] ?? m[3]!) : '';
}

/**
 * The file's statements up to and including the first table header (later ones are not needed), each with its
 * line span. Refuses (a string) when the text ends inside a string or bracket.
 */
function scanTopLevel(text: string): { statements: Statement[] } | string {
  const statements: Statement[] = [];
  let i = 0;
  let line = 0;
  const n = text.length;
  const skipLine = (): void => {
    while (i < n && text[i] !== '\n') i++;
  };
  while (i < n) {
    // start of a line
    const lineStart = i;
    while (i < n && (text[i] === ' ' || text[i] === '\t')) i++;
    if (i >= n) break;
    const c = text[i]!;
    if (c === '\n' || c === '\r' || c === '#') {
      skipLine();
      if (i < n) {
        i++;
        line++;
      }
      continue;
    }
    if (c === '[') {
      const start = line;
      skipLine();
      statements.push({ first: start, last: start, kind: 'table', key: text.slice(lineStart, i).trim(), value: '' });
      return { statements };
    }
    // key = value
    const first = line;
    const eq = findEquals(text, i);
    if (eq < 0) return `line ${line + 1} is not a key = value line termsupervisor can read`;
    const key = text.slice(i, eq).trim();
    i = eq + 1;
    const valueStart = i;
    const end = skipValue(text, i);
    if (typeof end === 'string') return `${end} (from line ${first + 1})`;
    for (let k = valueStart; k < end; k++) if (text[k] === '\n') line++;
    i = end;
    const value = text.slice(valueStart, i);
    statements.push({ first, last: line, kind: 'keyval', key, value });
    skipLine(); // the rest is a comment
    if (i < n) {
      i++;
      line++;
    }
  }
  return { statements };
}

/** The `=` of a key = value line: keys may be quoted and dotted. -1 if the line has none before its end. */
function findEquals(text: string, i: number): number {
  while (i < text.length && text[i] !== '\n') {
    const c = text[i]!;
    if (c === '=') return i;
    if (c === '"' || c === "'") {
      const close = text.indexOf(c, i + 1);
      if (close < 0) return -1;
      i = close + 1;
      continue;
    }
    i++;
  }
  return -1;
}

/** Index just after the value starting at i (strings, arrays and inline tables may span lines). */
function skipValue(text: string, i: number): number | string {
  let depth = 0;
  const n = text.length;
  while (i < n) {
    const c = text[i]!;
    if (text.startsWith('"""', i) || text.startsWith("'''", i)) {
      const q = text.slice(i, i + 3);
      let close = text.indexOf(q, i + 3);
      // A basic multi-line string may escape its quotes.
      while (q === '"""' && close > 0 && escaped(text, close)) close = text.indexOf(q, close + 1);
      if (close < 0) return 'an unclosed multi-line string';
      i = close + 3;
      while (text[i] === q[0]) i++; // up to two quotes may end the content
      continue;
    }
    if (c === '"') {
      let j = i + 1;
      while (j < n && text[j] !== '"' && text[j] !== '\n') j += text[j] === '\\' ? 2 : 1;
      if (text[j] !== '"') return 'an unclosed string';
      i = j + 1;
      continue;
    }
    if (c === "'") {
      const close = text.indexOf("'", i + 1);
      if (close < 0 || text.slice(i, close).includes('\n')) return 'an unclosed string';
      i = close + 1;
      continue;
    }
    if (c === '#') {
      // A comment inside an array runs to the end of its line; after the value it ends the statement.
      if (depth === 0) return i;
      while (i < n && text[i] !== '\n') i++;
      continue;
    }
    if (c === '[' || c === '{') depth++;
    else if (c === ']' || c === '}') depth--;
    else if (c === '\n' && depth === 0) return text[i - 1] === '\r' ? i - 1 : i;
    i++;
  }
  if (depth > 0) return 'an unclosed array or table';
  return i;
}

function escaped(text: string, at: number): boolean {
  let k = at - 1;
  let slashes = 0;
  while (k >= 0 && text[k] === '\\') {
    slashes++;
    k--;
  }
  return slashes % 2 === 1;
}

/** A one-line TOML array of strings (`["a", 'b'] # comment`), or null if the value is anything else. */
export function parseStringArray(value: string): string[] | null {
  let i = 0;
  const s = value;
  const ws = (): void => {
    while (i < s.length && (s[i] === ' ' || s[i] === '\t')) i++;
  };
  ws();
  if (s[i] !== '[') return null;
  i++;
  const out: string[] = [];
  for (;;) {
    ws();
    if (s[i] === ']') {
      i++;
      break;
    }
    const str = readString();
    if (str === null) return null;
    out.push(str);
    ws();
    if (s[i] === ',') {
      i++;
      continue;
    }
    ws();
    if (s[i] !== ']') return null;
    i++;
    break;
  }
  ws();
  return i >= s.length || s[i] === '#' || s.slice(i).trim() === '' ? out : null;

  function readString(): string | null {
    if (s[i] === "'") {
      const close = s.indexOf("'", i + 1);
      if (close < 0) return null;
      const v = s.slice(i + 1, close);
      i = close + 1;
      return v;
    }
    if (s[i] !== '"') return null;
    let v = '';
    i++;
    while (i < s.length && s[i] !== '"') {
      if (s[i] !== '\\') {
        v += s[i++];
        continue;
      }
      const e = s[i + 1];
      const simple: Record<string, string> = { b: '\b', t: '\t', n: '\n', f: '\f', r: '\r', '"': '"', '\\': '\\' };
      if (e !== undefined && simple[e] !== undefined) {
        v += simple[e];
        i += 2;
      } else if (e === 'u' || e === 'U') {
        const len = e === 'u' ? 4 : 8;
        const hex = s.slice(i + 2, i + 2 + len);
        if (!/^[0-9a-fA-F]+$/.test(hex) || hex.length !== len) return null;
        v += String.fromCodePoint(parseInt(hex, 16));
        i += 2 + len;
      } else return null;
    }
    if (s[i] !== '"') return null;
    i++;
    return v;
  }
}

/** A TOML array of basic strings (JSON's string escapes are valid TOML ones). */
export function tomlArray(argv: readonly string[]): string {
  return `[${argv.map((a) => JSON.stringify(a)).join(', ')}]`;
}

function trailingComment(line: string): string {
  const scan = skipValue(line, line.indexOf('=') + 1);
  if (typeof scan === 'string') return '';
  let from = scan;
  while (from > 0 && /\s/.test(line[from - 1]!)) from--; // the spacing before the comment stays too
  const rest = line.slice(from);
  return /^\s*#/.test(rest) ? rest.replace(/\s*$/, '') : '';
}

function splitLines(text: string): string[] {
  return text.split(/\r?\n/);
}
