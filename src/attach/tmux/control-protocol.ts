// The wire format of tmux control mode (`tmux -C`), parsed: one line per message. Pure: bytes in, callbacks out.
//
//   %begin TIME NUM FLAGS … %end|%error TIME NUM FLAGS   the reply to one command (FLAGS 1: a command we sent;
//                                                         0: the attach itself, or commands tmux ran for us)
//   %output %PANE DATA                                   what the pane's program wrote (no flow control)
//   %extended-output %PANE AGE … : DATA                  the same with flow control (pause-after) on
//   %NAME ARGS                                           every other notification (%layout-change, %exit, …)
//
// DATA is the program's bytes with every byte below 0x20 and the backslash written as \ooo (octal); other bytes,
// UTF-8 included, are sent as they are. Lines inside a reply may begin with `%` (list-panes prints `%3 …`), so
// only a matching %end/%error closes a reply, and notifications never arrive inside one.

const NL = 0x0a;
const CR = 0x0d;
const BACKSLASH = 0x5c;
const SPACE = 0x20;
const OUTPUT = Buffer.from('%output %');
const EXTENDED_OUTPUT = Buffer.from('%extended-output %');
/** Separates %extended-output's arguments from the data. */
const EXTENDED_DATA = Buffer.from(' : ');

export interface Reply {
  /** false for %error: the lines are tmux's message. */
  ok: boolean;
  /** 1 when this client sent the command. */
  flags: number;
  lines: string[];
}

export interface ControlHandlers {
  /** A pane's output, unescaped: raw bytes, possibly ending inside a UTF-8 character. */
  output(pane: string, data: Buffer): void;
  reply(reply: Reply): void;
  /** `name` with its `%`, `args` the rest of the line after one space (may be empty). */
  notification(name: string, args: string): void;
}

/** Splits a byte stream into control-mode lines and routes them; keeps a partial last line for the next chunk. */
export class ControlParser {
  private partial: Buffer | null = null;
  /** The open reply's number and lines, while between %begin and its %end/%error. */
  private block: { num: string; flags: number; lines: string[] } | null = null;

  constructor(private readonly on: ControlHandlers) {}

  push(chunk: Buffer): void {
    let buf = chunk;
    if (this.partial) {
      buf = Buffer.concat([this.partial, chunk]);
      this.partial = null;
    }
    let from = 0;
    for (let nl = buf.indexOf(NL, from); nl >= 0; nl = buf.indexOf(NL, from)) {
      const end = nl > from && buf[nl - 1] === CR ? nl - 1 : nl;
      this.line(buf, from, end);
      from = nl + 1;
    }
    // Copied: the rest of a pooled chunk must not be pinned by a short partial line.
    if (from < buf.length) this.partial = Buffer.from(buf.subarray(from));
  }

  private line(buf: Buffer, start: number, end: number): void {
    if (this.block) {
      const text = buf.toString('utf8', start, end);
      const m = /^%(end|error) \S+ (\S+) (\d+)$/.exec(text);
      if (m && m[2] === this.block.num) {
        const b = this.block;
        this.block = null;
        this.on.reply({ ok: m[1] === 'end', flags: b.flags, lines: b.lines });
      } else {
        this.block.lines.push(text);
      }
      return;
    }
    if (startsWith(buf, start, end, OUTPUT)) return this.output(buf, start + OUTPUT.length - 1, end, false);
    if (startsWith(buf, start, end, EXTENDED_OUTPUT)) return this.output(buf, start + EXTENDED_OUTPUT.length - 1, end, true);
    const text = buf.toString('utf8', start, end);
    if (text.startsWith('%begin ')) {
      const [, , num = '', flags = '0'] = text.split(' ');
      this.block = { num, flags: Number(flags), lines: [] };
      return;
    }
    if (!text.startsWith('%')) return; // nothing else is sent outside a reply; tolerated, not trusted
    const sp = text.indexOf(' ');
    this.on.notification(sp < 0 ? text : text.slice(0, sp), sp < 0 ? '' : text.slice(sp + 1));
  }

  /** `at` points at the pane id's `%`. */
  private output(buf: Buffer, at: number, end: number, extended: boolean): void {
    const sp = buf.indexOf(SPACE, at);
    if (sp < 0 || sp >= end) return;
    const pane = buf.toString('latin1', at, sp);
    let data = sp + 1;
    if (extended) {
      const sep = buf.indexOf(EXTENDED_DATA, sp);
      if (sep < 0 || sep > end) return;
      data = sep + EXTENDED_DATA.length;
    }
    this.on.output(pane, unescapeOutput(buf, data, end));
  }
}

function startsWith(buf: Buffer, start: number, end: number, prefix: Buffer): boolean {
  return end - start >= prefix.length && buf.compare(prefix, 0, prefix.length, start, start + prefix.length) === 0;
}

/** Undoes control mode's \ooo escaping of buf[start, end). A view of buf when nothing was escaped. */
export function unescapeOutput(buf: Buffer, start = 0, end = buf.length): Buffer {
  let bs = buf.indexOf(BACKSLASH, start);
  if (bs < 0 || bs >= end) return buf.subarray(start, end);
  const out = Buffer.allocUnsafe(end - start);
  let o = 0;
  let from = start;
  while (bs >= 0 && bs < end) {
    o += buf.copy(out, o, from, bs);
    if (bs + 3 < end && isOctal(buf[bs + 1]!) && isOctal(buf[bs + 2]!) && isOctal(buf[bs + 3]!)) {
      out[o++] = (((buf[bs + 1]! - 48) << 6) | ((buf[bs + 2]! - 48) << 3) | (buf[bs + 3]! - 48)) & 0xff;
      from = bs + 4;
    } else {
      out[o++] = BACKSLASH; // tmux always escapes a backslash; a lone one is kept rather than lost
      from = bs + 1;
    }
    bs = buf.indexOf(BACKSLASH, from);
  }
  o += buf.copy(out, o, from, end);
  return out.subarray(0, o);
}

function isOctal(c: number): boolean {
  return c >= 48 && c <= 55;
}

/** Leaves of a tmux layout string (`c196,80x24,0,0[80x12,0,0,0,80x11,0,13,3]`): pane id → size. A leaf is
 * `WxH,X,Y,ID`; a split is `WxH,X,Y{…}` or `[…]`, so only leaves have a fourth number. */
export function layoutPanes(layout: string): Map<string, { cols: number; rows: number }> {
  const out = new Map<string, { cols: number; rows: number }>();
  const leaf = /(\d+)x(\d+),\d+,\d+,(\d+)/g;
  for (let m = leaf.exec(layout); m; m = leaf.exec(layout)) out.set(`%${m[3]}`, { cols: Number(m[1]), rows: Number(m[2]) });
  return out;
}
