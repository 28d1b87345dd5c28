// Whole-element edits of a JSONC text, placed by jsonc-parser's syntax tree and written in the file's own style, so
// that removing an element we appended gives back the text as it was, byte for byte. jsonc-parser's own modify()
// re-formats every line an edit touches: a one-line (minified) file came back reformatted whole, `{}` came back as
// `{\n}`, and a person's line next to our entry was re-spaced, so the edit itself is made here.
import { findNodeAtLocation, parseTree, type JSONPath, type Node } from 'jsonc-parser';
import { JSONC_OPTIONS } from '../config/jsonc.js';

/** Indentation when the file has none to copy (Claude Code and Gemini CLI write two spaces). */
const DEFAULT_INDENT = '  ';

export class JsoncText {
  /** One level of the file's indentation ('' for a one-line file), and its line ending. */
  private readonly unit: string;
  private readonly eol: string;

  constructor(public text: string) {
    // A file written on one line (minified) gets our entries on one line too.
    const lines = text.split('\n').filter((l) => l.trim()).length;
    this.unit = /\n([ \t]+)\S/.exec(text)?.[1] ?? (lines > 1 ? DEFAULT_INDENT : '');
    this.eol = text.includes('\r\n') ? '\r\n' : '\n';
  }

  /** The node at `path` (an object's property value or an array's element), or undefined. */
  node(path: JSONPath): Node | undefined {
    const root = parseTree(this.text, [], JSONC_OPTIONS);
    return root && findNodeAtLocation(root, path);
  }

  /** Appends `value` to the array at `path`, or `key: value` to the object there. On a line of its own after the
   * last element's line (its comment stays with it), with a trailing comma when the file writes them. */
  append(path: JSONPath, value: unknown, key?: string): void {
    const c = this.node(path);
    if (!c || (c.type !== 'array' && c.type !== 'object')) throw new Error(`no ${key === undefined ? 'array' : 'object'} at ${path.join('.')}`);
    const kids = c.children ?? [];
    const close = c.offset + c.length - 1;
    const inside = this.text.slice(c.offset + 1, close);
    if (kids.length === 0 && inside.trim()) {
      // Only comments inside: the element goes on a line of its own after them.
      const at = c.offset + 1 + inside.trimEnd().length;
      const indent = this.indentAt(c.offset) + this.unit;
      this.splice(at, 0, this.eol + indent + this.element(value, key, indent));
      return;
    }
    if (kids.length === 0) {
      // An empty container opens on its own lines, at its line's indentation plus one level.
      const outer = this.indentAt(c.offset);
      const inner = this.unit ? this.eol + outer + this.unit : '';
      const element = this.element(value, key, outer + this.unit);
      this.splice(c.offset + 1, close - c.offset - 1, inner + element + (this.unit ? this.eol + outer : ''));
      return;
    }
    const last = kids[kids.length - 1]!;
    const lastEnd = last.offset + last.length;
    if (!this.ownLine(last)) {
      // A one-line container: `, value` right after the last element.
      const sep = this.text[kids[0]!.offset - 1] === ' ' ? ' ' : '';
      this.splice(lastEnd, 0, ',' + sep + this.element(value, key, ''));
      return;
    }
    const indent = this.indentAt(last.offset);
    const comma = this.commaAfter(lastEnd);
    const lineEnd = this.lineEnd(comma ?? lastEnd);
    const element = this.eol + indent + this.element(value, key, indent) + (comma !== null ? ',' : '');
    this.splice(lineEnd, 0, element);
    if (comma === null) this.splice(lastEnd, 0, ',');
  }

  /** Removes the array element or object property at `path` with its separator: the inverse of append(). The
   * person's comments around it stay. */
  remove(path: JSONPath): void {
    const target = this.node(path);
    if (!target) return;
    const item = target.parent?.type === 'property' ? target.parent : target;
    const c = item.parent!;
    const kids = c.children!;
    const i = kids.indexOf(item);
    const itemEnd = item.offset + item.length;
    const open = c.offset + 1;
    const close = c.offset + c.length - 1;
    if (kids.length === 1 && !this.text.slice(open, item.offset).trim() && !this.text.slice(itemEnd, close).trim()) {
      this.splice(open, close - open, ''); // its only element, nothing else inside: `{}` / `[]`
      return;
    }
    const trailing = this.commaAfter(itemEnd);
    if (this.ownLine(item)) {
      // Its line goes (the line break before it, its text, its own trailing comma); the comma that joined it to
      // the element before goes too when it was the last one written without a trailing comma.
      const from = this.lineStart(item.offset) - this.eolBefore(this.lineStart(item.offset));
      this.splice(from, (trailing ?? itemEnd - 1) + 1 - from, '');
      if (trailing === null && i === kids.length - 1 && i > 0) {
        const prev = kids[i - 1]!;
        const comma = this.commaAfter(prev.offset + prev.length);
        if (comma !== null) this.splice(comma, 1, '');
      }
      return;
    }
    if (i > 0) {
      const prev = kids[i - 1]!;
      this.splice(prev.offset + prev.length, itemEnd - (prev.offset + prev.length), '');
    } else if (kids.length > 1) {
      this.splice(item.offset, kids[1]!.offset - item.offset, '');
    } else {
      this.splice(item.offset, (trailing ?? itemEnd - 1) + 1 - item.offset, '');
    }
  }

  /** The node starts its own line (only whitespace before it) and a line break separates it from the container's
   * opening or from the element before it. */
  private ownLine(n: Node): boolean {
    const start = this.lineStart(n.offset);
    return start > 0 && !this.text.slice(start, n.offset).trim();
  }

  /** The offset of the comma right after `offset` (only spaces and tabs between), or null. */
  private commaAfter(offset: number): number | null {
    const m = /^[ \t]*,/.exec(this.text.slice(offset, offset + 256));
    return m ? offset + m[0].length - 1 : null;
  }

  private lineStart(offset: number): number {
    return this.text.lastIndexOf('\n', offset - 1) + 1;
  }

  /** The end of the line holding `offset` (before its line break). */
  private lineEnd(offset: number): number {
    const nl = this.text.indexOf('\n', offset);
    if (nl < 0) return this.text.length;
    return this.text[nl - 1] === '\r' ? nl - 1 : nl;
  }

  /** Length of the line break that ends just before `lineStart` (0 at the start of the text). */
  private eolBefore(lineStart: number): number {
    if (lineStart === 0) return 0;
    return this.text[lineStart - 2] === '\r' ? 2 : 1;
  }

  /** `value` (or `"key": value`) as text, its inner lines indented from `indent`. */
  private element(value: unknown, key: string | undefined, indent: string): string {
    const json = (JSON.stringify(value, null, this.unit) ?? 'null').replace(/\n/g, this.eol + indent);
    if (key === undefined) return json;
    return JSON.stringify(key) + (this.unit ? ': ' : ':') + json;
  }

  /** The whitespace that starts the line holding `offset`. */
  private indentAt(offset: number): string {
    const start = this.text.lastIndexOf('\n', offset - 1) + 1;
    return /^[ \t]*/.exec(this.text.slice(start, offset))![0];
  }

  private splice(offset: number, length: number, content: string): void {
    this.text = this.text.slice(0, offset) + content + this.text.slice(offset + length);
  }
}
