// The part of a pane's screen a task's criteria read. "edge" is what the turn wrote: the rows below the last row
// showing the prompt the task typed, so a goal named in the prompt ("make all tests pass") never matches itself,
// and old scrollback from earlier turns is not read again. Pure.
import type { Region } from './task-types.js';

/** Rows read when the prompt's row is no longer on screen (it scrolled away under a long answer). */
export const EDGE_FALLBACK_ROWS = 15;
/** The prompt is looked for by its start: a long prompt wraps, and the wrapped rows are not its first one. */
const PROMPT_KEY_CHARS = 40;

export class RegionError extends Error {}

/** `edge`, `last:N`, or `rows:A-B[,C-D…]` (1-based, inclusive, counted from the top of the visible screen). */
export function parseRegion(text: string): Region {
  const s = text.trim();
  if (s === '' || s === 'edge') return { kind: 'edge' };
  let m = /^last:(\d+)$/.exec(s);
  if (m) {
    const lines = Number(m[1]);
    if (lines < 1) throw new RegionError(`region ${JSON.stringify(text)}: last:N needs N ≥ 1`);
    return { kind: 'last', lines };
  }
  m = /^rows:(.+)$/.exec(s);
  if (m) {
    const ranges: Array<[number, number]> = [];
    for (const part of m[1]!.split(',')) {
      const r = /^\s*(\d+)\s*(?:-\s*(\d+))?\s*$/.exec(part);
      const a = r ? Number(r[1]) : 0;
      const b = r ? Number(r[2] ?? r[1]) : 0;
      if (!r || a < 1 || b < a) throw new RegionError(`region ${JSON.stringify(text)}: "${part.trim()}" is not a row range like 3-10`);
      ranges.push([a, b]);
    }
    return { kind: 'rows', ranges };
  }
  throw new RegionError(`region ${JSON.stringify(text)}: expected edge, last:N or rows:A-B[,C-D]`);
}

export function formatRegion(r: Region): string {
  if (r.kind === 'edge') return 'edge';
  if (r.kind === 'last') return `last:${r.lines}`;
  return 'rows:' + r.ranges.map(([a, b]) => (a === b ? `${a}` : `${a}-${b}`)).join(',');
}

/** The region's rows of `screen` (the visible rows, top first), trailing blank rows dropped. */
export function regionText(screen: string, region: Region, prompt: string): string {
  const rows = screen.split('\n');
  while (rows.length && rows[rows.length - 1]!.trim() === '') rows.pop();
  let picked: string[];
  if (region.kind === 'last') picked = rows.slice(-region.lines);
  else if (region.kind === 'rows') picked = region.ranges.flatMap(([a, b]) => rows.slice(a - 1, b));
  else {
    const at = lastPromptRow(rows, prompt);
    picked = at < 0 ? rows.slice(-EDGE_FALLBACK_ROWS) : rows.slice(at + 1);
  }
  return picked.join('\n');
}

function lastPromptRow(rows: string[], prompt: string): number {
  const key = prompt.replace(/\s+/g, ' ').trim().slice(0, PROMPT_KEY_CHARS);
  if (!key) return -1;
  for (let i = rows.length - 1; i >= 0; i--) if (rows[i]!.replace(/\s+/g, ' ').includes(key)) return i;
  return -1;
}
