// Real screens for classifier tests: a corpus recording (or one of ours) replayed into a headless terminal up to a moment, or raw
// bytes written into one. Nothing is mocked: this is the same PaneScreen the monitor uses.
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseCast, type Cast } from '../../src/attach/asciicast.js';
import { PaneScreen } from '../../src/screen/pane-screen.js';
import type { InBandSignal, ScreenSnapshot } from '../../src/screen/types.js';
import type { Config } from '../../src/config/config.js';
import type { ProfileContext } from '../../src/analysis/profiles/context.js';
import type { Classification } from '../../src/analysis/types.js';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const CORPUS = join(ROOT, 'tests', 'fixtures', 'corpus');

/** Names of the corpus recordings that have a ground truth. */
export function corpusNames(): string[] {
  return readdirSync(CORPUS)
    .filter((d) => existsSync(join(CORPUS, d, 'truth.json')) && existsSync(join(CORPUS, d, 'session.cast')))
    .sort();
}

/** Our own recordings (tests/fixtures/recordings): read when the shared corpus has no recording of that name. */
export const RECORDINGS = join(ROOT, 'tests', 'fixtures', 'recordings');

export function castPath(name: string): string {
  const corpus = join(CORPUS, name, 'session.cast');
  return existsSync(corpus) ? corpus : join(RECORDINGS, name, 'session.cast');
}

const castCache = new Map<string, Cast>();
export function loadCast(name: string): Cast {
  let c = castCache.get(name);
  if (!c) castCache.set(name, (c = parseCast(readFileSync(castPath(name), 'utf8'))));
  return c;
}

export function write(screen: PaneScreen, data: string): Promise<void> {
  return new Promise((r) => screen.write(data, r));
}

export interface ScreenAt {
  snap: ScreenSnapshot;
  /** Bracketed paste was switched on at least once before T (what the analyzer tracks as bracketedPasteSeen). */
  bracketedPasteSeen: boolean;
  signals: InBandSignal[];
}

/** Replay a corpus recording's output (and resizes) with t <= T into a fresh terminal and snapshot it. */
export async function screenAt(name: string, T: number): Promise<ScreenAt> {
  const cast = loadCast(name);
  const screen = new PaneScreen({ cols: cast.header.width, rows: cast.header.height });
  const signals: InBandSignal[] = [];
  screen.onSignal((s) => signals.push(s));
  try {
    // Output between resizes goes in as one write: the same bytes in the same order, parsed far faster.
    let pending = '';
    for (const ev of cast.events) {
      if (ev.t > T) break;
      if (ev.code === 'o') pending += ev.data;
      else if (ev.code === 'r') {
        const m = /^(\d+)x(\d+)$/.exec(ev.data.trim());
        if (!m) continue;
        await write(screen, pending);
        pending = '';
        screen.resize(Number(m[1]), Number(m[2]));
      }
    }
    await write(screen, pending);
    const snap = screen.snapshot();
    const bracketedPasteSeen = signals.some((s) => s.kind === 'bracketed-paste' && s.on);
    return { snap, bracketedPasteSeen, signals };
  } finally {
    screen.dispose();
  }
}

/** Write raw bytes into a fresh terminal and snapshot it: the cursor is exactly where the bytes leave it. */
export async function screenOf(data: string, cols = 100, rows = 24): Promise<ScreenSnapshot> {
  const screen = new PaneScreen({ cols, rows });
  try {
    await write(screen, data);
    return screen.snapshot();
  } finally {
    screen.dispose();
  }
}

export function ctx(cfg: Config, over: Partial<Omit<ProfileContext, 'cfg'>> = {}): ProfileContext {
  return { cfg, titleAnimating: false, bracketedPasteSeen: false, foregroundPrompted: false, ...over };
}

/** One profile test case: a recording's screen at a moment and what it must be classified as. */
export interface ScreenCase {
  rec: string;
  t: number;
  verdict: Classification['verdict'];
  rule: string;
  explicit?: boolean;
  line?: RegExp;
  /** Something the screen itself must show at that moment (the case really is what its name says). */
  shows?: RegExp;
}
