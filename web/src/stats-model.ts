// Groups the daemon's flat signal counters ("fired.tier2.done.claude.done_marker",
// "suppressed.tier3.run.debounce") into the tables the stats view shows. Pure.
import type { Counters } from '../../src/web/api-types.js';

export interface CounterRow {
  tier: string;
  signal: string;
  /** The rule (fired) or the reason (suppressed). */
  what: string;
  count: number;
}

export interface CounterTables {
  firedByTier: Array<{ tier: string; count: number }>;
  suppressedByTier: Array<{ tier: string; count: number }>;
  fired: CounterRow[];
  suppressed: CounterRow[];
  /** Keys of another shape, shown as they are. */
  other: Array<{ key: string; count: number }>;
}

const KEY = /^(fired|suppressed)\.(tier\d)\.([^.]+)\.(.+)$/;

function byTier(rows: CounterRow[]): Array<{ tier: string; count: number }> {
  const m = new Map<string, number>();
  for (const r of rows) m.set(r.tier, (m.get(r.tier) ?? 0) + r.count);
  return [...m].sort((a, b) => a[0].localeCompare(b[0])).map(([tier, count]) => ({ tier, count }));
}

const busiestFirst = (a: CounterRow, b: CounterRow) => b.count - a.count || a.tier.localeCompare(b.tier) || a.what.localeCompare(b.what);

export function groupCounters(counters: Counters): CounterTables {
  const fired: CounterRow[] = [];
  const suppressed: CounterRow[] = [];
  const other: CounterTables['other'] = [];
  for (const [key, count] of Object.entries(counters)) {
    const m = KEY.exec(key);
    if (!m) other.push({ key, count });
    else (m[1] === 'fired' ? fired : suppressed).push({ tier: m[2]!, signal: m[3]!, what: m[4]!, count });
  }
  fired.sort(busiestFirst);
  suppressed.sort(busiestFirst);
  other.sort((a, b) => b.count - a.count || a.key.localeCompare(b.key));
  return { firedByTier: byTier(fired), suppressedByTier: byTier(suppressed), fired, suppressed, other };
}
