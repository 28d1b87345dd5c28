// Refuses patterns whose matching can take exponential time in a backtracking engine (V8's): a person's
// `{"patterns":{"generic":{"interactivity":"(a+)+$"}}}` hung the daemon on one screen row of `a`s. A regex
// backtracks catastrophically when one stretch of text can be matched in many ways by a repetition, which takes two
// shapes; both are looked for here, in every pattern the config holds, when it loads (`doctor` loads it too):
//   - a repetition inside a repetition, nothing in the outer one marking where each of its rounds ends:
//     (a+)+, (\s*\w+)*, (x?y*)* — but not (,\s*\w+)*, whose every round must start with a comma \w cannot match;
//   - a repeated alternation whose branches can match the same text: (a|aa)+, (\w|\d)*.
// Characters are compared on a sample alphabet (ASCII, a few letters, digits, spaces, box drawing and symbols from
// other scripts), each atom tested with the engine itself, so classes, escapes and \p{…} need no set algebra of
// their own. This is a safety net for what people write, not a proof: what passes still runs on screen rows, whose
// length the pane bounds.
//
// safe-regex2 (fastify's, already in node_modules) was tried: it refuses any star height above one, counting `?` as
// a repetition, and refused 37 of the 257 built-in patterns (`python3(\.\d+)?`, `\d+(?:\.\d+)?%`, …).

/** An outer repetition allowing at least this many rounds counts as a loop: fewer bound the ways to split a run to
 * a polynomial of that degree (the built-in `(?:\s{2,}\S[^\n]*?){1,5}` reads a row of buttons), on rows as long as
 * a pane is wide. */
const LOOP_MIN_ROUNDS = 10;

type Node =
  | { t: 'atom'; src: string }
  | { t: 'assert' }
  | { t: 'group'; alts: Node[][]; look: boolean }
  | { t: 'rep'; node: Node; min: number; max: number; src: string };

/** Why `src` (a valid regex with the u flag) can take exponential time, or null when no such shape is found. */
export function catastrophicShape(src: string): string | null {
  let tree: Node;
  try {
    tree = new Parser(src).parse();
  } catch {
    return null; // a syntax this parser does not know: the engine compiled it; nothing found
  }
  return findShape(tree);
}

function findShape(n: Node): string | null {
  if (n.t === 'group') {
    for (const alt of n.alts) for (const m of alt) {
      const why = findShape(m);
      if (why) return why;
    }
    return null;
  }
  if (n.t !== 'rep') return null;
  if (n.max >= LOOP_MIN_ROUNDS) {
    const body = n.node.t === 'group' ? n.node.alts : [[n.node]];
    const inner = unseparatedInnerRep(body);
    if (inner) return `the repetition ${inner} inside the repetition ${n.src}: a run of the same characters splits between their rounds in exponentially many ways`;
    const pair = overlappingBranches(body);
    if (pair) return `the branches ${pair} of the repetition ${n.src} can match the same text`;
  }
  return findShape(n.node);
}

/** A repetition inside `alts` whose characters nothing mandatory in its round keeps apart. */
function unseparatedInnerRep(alts: Node[][]): string | null {
  for (const seq of alts) {
    for (let i = 0; i < seq.length; i++) {
      const found = innerReps(seq[i]!);
      for (const rep of found) {
        const cs = chars(rep.node);
        const separated = seq.some((m, j) => j !== i && !nullable(m) && disjoint(chars(m), cs)) || separatedWithin(seq[i]!, rep, cs);
        if (!separated && !nullable(rep.node)) return rep.src;
      }
    }
  }
  return null;
}

/** Repetitions (of more than one round) in `n`, n itself included, not looking into lookarounds. */
function innerReps(n: Node): Array<Extract<Node, { t: 'rep' }>> {
  if (n.t === 'rep') return [...(n.max > 1 ? [n] : []), ...innerReps(n.node)];
  if (n.t === 'group' && !n.look) return n.alts.flatMap((alt) => alt.flatMap(innerReps));
  return [];
}

/** Inside `outer` (a group holding `rep` deeper down), a mandatory sibling on the way to `rep` keeps it apart. */
function separatedWithin(outer: Node, rep: Node, cs: bigint): boolean {
  if (outer === rep || outer.t !== 'group') return outer.t === 'rep' && outer !== rep && separatedWithin(outer.node, rep, cs);
  for (const seq of outer.alts) {
    const i = seq.findIndex((m) => contains(m, rep));
    if (i < 0) continue;
    if (seq.some((m, j) => j !== i && !nullable(m) && disjoint(chars(m), cs))) return true;
    return separatedWithin(seq[i]!, rep, cs);
  }
  return false;
}

function contains(n: Node, target: Node): boolean {
  if (n === target) return true;
  if (n.t === 'rep') return contains(n.node, target);
  if (n.t === 'group') return n.alts.some((alt) => alt.some((m) => contains(m, target)));
  return false;
}

/** Two branches that can start alike and hold nothing the other cannot match. */
function overlappingBranches(alts: Node[][]): string | null {
  const info = alts.map((seq) => ({ seq, first: firstOf(seq), all: seq.reduce((a, m) => a | chars(m), 0n) }));
  for (let i = 0; i < info.length; i++) {
    for (let j = i + 1; j < info.length; j++) {
      const a = info[i]!;
      const b = info[j]!;
      if (a.seq.every(nullable) || b.seq.every(nullable) || disjoint(a.first, b.first)) continue;
      const within = (x: typeof a, y: typeof a) => x.seq.every((m) => nullable(m) || !disjoint(chars(m), y.all));
      if (within(a, b) && within(b, a)) return `#${i + 1} and #${j + 1}`;
    }
  }
  return null;
}

function nullable(n: Node): boolean {
  switch (n.t) {
    case 'atom':
      return false;
    case 'assert':
      return true;
    case 'rep':
      return n.min === 0 || nullable(n.node);
    case 'group':
      return n.look || n.alts.some((alt) => alt.every(nullable));
  }
}

/** The characters a match of `n` can hold (a bit per sample character). */
function chars(n: Node): bigint {
  switch (n.t) {
    case 'atom':
      return atomChars(n.src);
    case 'assert':
      return 0n;
    case 'rep':
      return chars(n.node);
    case 'group':
      return n.look ? 0n : n.alts.reduce((a, alt) => alt.reduce((b, m) => b | chars(m), a), 0n);
  }
}

/** The characters a match of the sequence can start with. */
function firstOf(seq: Node[]): bigint {
  let out = 0n;
  for (const m of seq) {
    out |= m.t === 'group' && !m.look ? m.alts.reduce((a, alt) => a | firstOf(alt), 0n) : m.t === 'rep' ? firstOf([m.node]) : chars(m);
    if (!nullable(m)) break;
  }
  return out;
}

const disjoint = (a: bigint, b: bigint) => (a & b) === 0n;

/** ASCII and a few characters of other kinds a screen shows: enough to tell the usual classes apart. */
const SAMPLE = [...Array.from({ length: 127 }, (_, i) => String.fromCharCode(i + 1)), 'é', 'ß', 'Ж', 'ア', '中', '٣', '\u00a0', '\u3000', '─', '│', '❯', '●', '✓', '…', '\u{1F600}', '\uFE0E'];
const atomMemo = new Map<string, bigint>();

function atomChars(src: string): bigint {
  let bits = atomMemo.get(src);
  if (bits !== undefined) return bits;
  bits = 0n;
  try {
    const re = new RegExp(`^(?:${src})$`, 'u');
    SAMPLE.forEach((c, i) => {
      if (re.test(c)) bits! |= 1n << BigInt(i);
    });
  } catch {
    bits = (1n << BigInt(SAMPLE.length)) - 1n; // unknown: may match anything
  }
  atomMemo.set(src, bits);
  return bits;
}

/** A parser of the regex syntax (u flag) into atoms, assertions, groups and repetitions. */
class Parser {
  private i = 0;
  constructor(private readonly s: string) {}

  parse(): Node {
    const g = this.alternation(false);
    if (this.i < this.s.length) throw new Error('unbalanced )');
    return g;
  }

  private alternation(look: boolean): Extract<Node, { t: 'group' }> {
    const alts: Node[][] = [[]];
    while (this.i < this.s.length && this.s[this.i] !== ')') {
      if (this.s[this.i] === '|') {
        this.i++;
        alts.push([]);
        continue;
      }
      const start = this.i;
      let n = this.term();
      n = this.quantified(n, start);
      alts[alts.length - 1]!.push(n);
    }
    return { t: 'group', alts, look };
  }

  private term(): Node {
    const s = this.s;
    const c = s[this.i]!;
    if (c === '^' || c === '$') {
      this.i++;
      return { t: 'assert' };
    }
    if (c === '(') {
      this.i++;
      let look = false;
      if (s.startsWith('?:', this.i)) this.i += 2;
      else if (s.startsWith('?=', this.i) || s.startsWith('?!', this.i)) (this.i += 2), (look = true);
      else if (s.startsWith('?<=', this.i) || s.startsWith('?<!', this.i)) (this.i += 3), (look = true);
      else if (s.startsWith('?<', this.i)) this.i = s.indexOf('>', this.i) + 1;
      const g = this.alternation(look);
      if (s[this.i] !== ')') throw new Error('unclosed (');
      this.i++;
      return g;
    }
    const start = this.i;
    if (c === '[') {
      this.i++;
      while (this.i < s.length && s[this.i] !== ']') this.i += s[this.i] === '\\' ? 2 : 1;
      this.i++;
      return { t: 'atom', src: s.slice(start, this.i) };
    }
    if (c === '\\') {
      const e = s[this.i + 1]!;
      if (e === 'b' || e === 'B') {
        this.i += 2;
        return { t: 'assert' };
      }
      if (/[1-9]/.test(e) || e === 'k') throw new Error('back-reference'); // their text is another group's: not judged
      if ((e === 'p' || e === 'P' || e === 'u') && s[this.i + 2] === '{') this.i = s.indexOf('}', this.i) + 1;
      else if (e === 'u') this.i += 6;
      else if (e === 'x') this.i += 4;
      else if (e === 'c') this.i += 3;
      else this.i += 2;
      return { t: 'atom', src: s.slice(start, this.i) };
    }
    this.i += c.codePointAt(0)! > 0xffff ? 2 : 1;
    return { t: 'atom', src: s.slice(start, this.i) };
  }

  private quantified(n: Node, start: number): Node {
    for (;;) {
      const s = this.s;
      const c = s[this.i];
      let min: number;
      let max: number;
      if (c === '*' || c === '+' || c === '?') {
        this.i++;
        [min, max] = c === '*' ? [0, Infinity] : c === '+' ? [1, Infinity] : [0, 1];
      } else if (c === '{') {
        const m = /^\{(\d+)(,(\d*))?\}/.exec(s.slice(this.i));
        if (!m) return n;
        this.i += m[0].length;
        min = Number(m[1]);
        max = m[2] === undefined ? min : m[3] ? Number(m[3]) : Infinity;
      } else return n;
      if (s[this.i] === '?') this.i++; // lazy: the same ways to match, tried in another order
      n = { t: 'rep', node: n, min, max, src: s.slice(start, this.i) };
    }
  }
}
