// `node dist/bench/profile-summary.js <file.cpuprofile> [top]`: where a `node --cpu-prof` run spent its time, by
// function, self and inclusive, with positions mapped back to src/*.ts through the build's source maps.
import { existsSync, readFileSync } from 'node:fs';
import { SourceMap, type SourceMapping } from 'node:module';
import { fileURLToPath } from 'node:url';
import { dirname, relative, resolve } from 'node:path';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
  columnNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** Rows printed per table unless told otherwise. */
const DEFAULT_TOP = 25;
/** Per generated file: its source map and the folder its relative source paths start from. */
const maps = new Map<string, { map: SourceMap; dir: string } | null>();

function sourceMapFor(url: string): { map: SourceMap; dir: string } | null {
  if (!maps.has(url)) {
    let found: { map: SourceMap; dir: string } | null = null;
    try {
      const file = fileURLToPath(url) + '.map';
      if (existsSync(file)) found = { map: new SourceMap(JSON.parse(readFileSync(file, 'utf8'))), dir: dirname(file) };
    } catch {
      found = null;
    }
    maps.set(url, found);
  }
  return maps.get(url)!;
}

/** "name path:line", the path relative to the working directory and mapped to the .ts source when possible. */
function label(cf: CallFrame): string {
  const name = cf.functionName || '(anonymous)';
  if (!cf.url) return name;
  const sm = cf.url.startsWith('file:') ? sourceMapFor(cf.url) : null;
  const entry = sm?.map.findEntry(cf.lineNumber, cf.columnNumber);
  const { originalSource: source, originalLine } = (entry ?? {}) as Partial<SourceMapping>;
  if (sm && typeof source === 'string' && typeof originalLine === 'number') {
    const src = source.startsWith('file:') ? fileURLToPath(source) : source.includes(':') ? source : resolve(sm.dir, source);
    return `${name} ${source.includes(':') && !source.startsWith('file:') ? src : relative(process.cwd(), src)}:${originalLine + 1}`;
  }
  const path = cf.url.startsWith('file:') ? relative(process.cwd(), fileURLToPath(cf.url)) : cf.url;
  return `${name} ${path}:${cf.lineNumber + 1}`;
}

function summarise(p: Profile, top: number): string {
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const sampled = new Map<number, number>();
  let total = 0;
  p.samples.forEach((id, i) => {
    const dt = p.timeDeltas[i] ?? 0;
    sampled.set(id, (sampled.get(id) ?? 0) + dt);
    total += dt;
  });
  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  for (const [id, dt] of sampled) {
    const k = label(byId.get(id)!.callFrame);
    self.set(k, (self.get(k) ?? 0) + dt);
    const seen = new Set<string>(); // recursion counts once per sample
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const kk = label(byId.get(cur)!.callFrame);
      if (seen.has(kk)) continue;
      seen.add(kk);
      inclusive.set(kk, (inclusive.get(kk) ?? 0) + dt);
    }
  }
  const table = (m: Map<string, number>) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([k, v]) => `${((100 * v) / total).toFixed(1).padStart(5)}%  ${k}`)
      .join('\n');
  return `total ${(total / 1e6).toFixed(1)} s sampled\n\nself time\n${table(self)}\n\ninclusive time\n${table(inclusive)}\n`;
}

const [file, topArg] = process.argv.slice(2);
if (!file) {
  process.stderr.write('usage: node dist/bench/profile-summary.js <file.cpuprofile> [top]\n');
  process.exitCode = 2;
} else {
  process.stdout.write(summarise(JSON.parse(readFileSync(file, 'utf8')) as Profile, Number(topArg) || DEFAULT_TOP));
}
