// Sets and removes Codex's top-level `notify` key in config.toml. The file is read with smol-toml (a TOML 1.0
// parser), so what is there is known exactly; the edit is one line added, replaced or removed, and kept only if
// smol-toml then reads the file as before with `notify` alone changed. Everything else stays byte for byte (the
// TOML editors that keep formatting were tried and lost: @decimalturn/toml-patch dropped a person's comment above
// the line it removed and wrote its own array style). A `notify` that is not ours, or that we cannot read, is kept
// and explained, never overwritten: Codex runs only one notify program.
import { parse, TomlError } from 'smol-toml';
import type { EditResult } from './settings-json.js';

/** Written above our line, so a person reading config.toml knows where it came from and how to remove it. */
export const CODEX_MARKER = '# termsupervisor: Codex turn ends → the daemon (remove with: termsupervisor hooks uninstall codex)';

/** A line that may set the top-level notify key (bare or quoted): smol-toml has the last word on what it sets. */
const NOTIFY_LINE = /^\s*(?:notify|"notify"|'notify')\s*=/;
/** A line that may open a table (`[x]`, `[[x]]`), the place a top-level key must come before. */
const HEADER_LINE = /^\s*\[/;

type Doc = Record<string, unknown>;

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
  const doc = readToml(src);
  if (typeof doc === 'string') return { status: 'refused', reason: doc };
  const want = codexArgv(program);
  const line = `notify = ${tomlArray(want)}`;
  const edit = new TomlLines(src, doc);
  const current = doc['notify'];
  if (current !== undefined) {
    const argv = stringArray(current);
    if (isTable(current)) return { status: 'refused', reason: 'config.toml sets notify as a table ([notify] or a dotted key notify.x); termsupervisor will not edit it' };
    if (!argv) return { status: 'refused', reason: `notify is already set to something termsupervisor cannot read; it was kept. ${chainHint(program)}` };
    if (!isOurArgv(argv)) return { status: 'refused', reason: `notify is already set to ${tomlArray(argv)} (line ${(edit.notifyLine() ?? -1) + 1}); Codex runs only one notify program, so it was kept. ${chainHint(program)}` };
    if (argv[0] === program) return { status: 'unchanged', text: src, notes: [] };
    const j = edit.notifyLine();
    const out = j === null ? null : edit.replaced(j, line + edit.trailingComment(j));
    if (out === null || !edit.keeps(out, want)) return { status: 'refused', reason: `notify is ours but written over several lines; set it by hand to: ${line}` };
    return { status: 'changed', text: out, notes: ['updated the program path in notify'] };
  }
  // A top-level key must come before the first table header: our lines go just above it (and above the comment
  // lines directly on top of it, which describe it), or at the end of a file without tables. A line that only
  // looks like a header (inside a multi-line string or array) fails the check and the next one is tried.
  for (const at of [...edit.headerLines(), null]) {
    const out = edit.inserted(at, [CODEX_MARKER, line]);
    if (edit.keeps(out, want)) return { status: 'changed', text: out, notes: [] };
  }
  return { status: 'refused', reason: `termsupervisor could not place notify in config.toml safely; add this line above the first table by hand: ${line}` };
}

export function uninstallCodexNotify(text: string | null): EditResult {
  if (text === null) return { status: 'unchanged', text: '', notes: ['no config file'] };
  const doc = readToml(text);
  if (typeof doc === 'string') return { status: 'refused', reason: doc };
  const argv = stringArray(doc['notify']);
  if (doc['notify'] === undefined) return { status: 'unchanged', text, notes: [] };
  if (!argv || !isOurArgv(argv)) return { status: 'unchanged', text, notes: ["notify is not termsupervisor's; it was left alone"] };
  const edit = new TomlLines(text, doc);
  const j = edit.notifyLine();
  const out = j === null ? null : edit.removed(j, CODEX_MARKER);
  if (out === null || !edit.keeps(out, undefined)) return { status: 'refused', reason: 'our notify is written over several lines; remove it by hand' };
  return { status: 'changed', text: out, notes: [] };
}

/** What `notify` is set to at the top level: null when unset, the argv when it is one string array, else undefined. */
export function currentNotify(text: string | null): string[] | null | undefined {
  if (text === null) return null;
  const doc = readToml(text);
  if (typeof doc === 'string') return undefined;
  if (doc['notify'] === undefined) return null;
  return stringArray(doc['notify']) ?? undefined;
}

/** A TOML array of basic strings (JSON's string escapes are valid TOML ones). */
export function tomlArray(argv: readonly string[]): string {
  return `[${argv.map((a) => JSON.stringify(a)).join(', ')}]`;
}

function chainHint(program: string): string {
  return `To have both, make your notify program also run: ${program} hook codex "<the JSON argument>"`;
}

/** The parsed file, or why it cannot be edited ("… (line 3, column 7)"). */
function readToml(text: string): Doc | string {
  try {
    return parse(text) as Doc;
  } catch (e) {
    if (!(e instanceof TomlError)) throw e;
    const why = e.message.split('\n')[0]!.replace(/^Invalid TOML document: /, '');
    return `config.toml is not valid TOML (${why}, line ${e.line}, column ${e.column}); fix it first`;
  }
}

function stringArray(v: unknown): string[] | null {
  return Array.isArray(v) && v.every((x) => typeof x === 'string') ? (v as string[]) : null;
}

function isTable(v: unknown): boolean {
  return v !== null && typeof v === 'object' && !Array.isArray(v) && !(v instanceof Date);
}

/** The file as lines (its own line ending kept), and the checks every edit passes. */
class TomlLines {
  private readonly lines: string[];
  private readonly eol: string;

  constructor(
    text: string,
    private readonly doc: Doc,
  ) {
    this.eol = text.includes('\r\n') ? '\r\n' : '\n';
    this.lines = text.split(/\r?\n/);
  }

  /** The one line that sets the top-level notify by itself, or null (written over several lines, or not found). */
  notifyLine(): number | null {
    for (let j = 0; j < this.lines.length; j++) {
      if (!NOTIFY_LINE.test(this.lines[j]!)) continue;
      const alone = readToml(this.lines[j]!);
      if (typeof alone !== 'string' && JSON.stringify(alone['notify']) === JSON.stringify(this.doc['notify'])) return j;
    }
    return null;
  }

  headerLines(): number[] {
    return this.lines.flatMap((l, j) => (HEADER_LINE.test(l) ? [j] : []));
  }

  /** The comment after line j's value (with the spacing before it), or ''. */
  trailingComment(j: number): string {
    const line = this.lines[j]!;
    for (let p = line.indexOf('#'); p >= 0; p = line.indexOf('#', p + 1)) {
      const head = readToml(line.slice(0, p));
      if (typeof head !== 'string' && JSON.stringify(head['notify']) === JSON.stringify(this.doc['notify'])) {
        return line.slice(line.slice(0, p).trimEnd().length).trimEnd();
      }
    }
    return '';
  }

  replaced(j: number, line: string): string {
    const lines = [...this.lines];
    lines[j] = line;
    return lines.join(this.eol);
  }

  /** `block` above line `header` (and the comment lines on top of it), then a blank line; or at the end of the file. */
  inserted(header: number | null, block: string[]): string {
    const lines = [...this.lines];
    let at: number;
    const add = [...block];
    if (header !== null) {
      at = header;
      while (at > 0 && /^\s*#/.test(lines[at - 1]!)) at--;
      add.push('');
    } else {
      at = lines.length && lines[lines.length - 1] === '' ? lines.length - 1 : lines.length; // before the final newline
      if (at > 0 && lines[at - 1]!.trim() !== '') add.unshift('');
    }
    lines.splice(at, 0, ...add);
    const out = lines.join(this.eol);
    return out.endsWith(this.eol) ? out : out + this.eol;
  }

  /** Line j and the marker above it gone, with the blank line inserted() put beside them. */
  removed(j: number, marker: string): string {
    const lines = [...this.lines];
    let first = j;
    if (first > 0 && lines[first - 1] === marker) first--;
    let count = j - first + 1;
    const next = lines[j + 2];
    if (lines[j + 1] === '' && next !== undefined && /^\s*[[#]/.test(next)) count++;
    lines.splice(first, count);
    const atEnd = lines.slice(first).every((l) => l === '');
    if (atEnd && first > 0 && lines[first - 1] === '') lines.splice(first - 1, 1);
    return lines.join(this.eol);
  }

  /** `out` reads as the file did, with notify set to `notify` (or unset) and nothing else changed. */
  keeps(out: string, notify: string[] | undefined): boolean {
    const after = readToml(out);
    if (typeof after === 'string') return false;
    const { notify: got, ...rest } = after;
    const { notify: _before, ...was } = this.doc;
    return JSON.stringify(got) === JSON.stringify(notify) && JSON.stringify(rest) === JSON.stringify(was);
  }
}
