// Our screen against a bare @xterm/headless terminal, buffer by buffer: the helpers of the tests that check a
// screen's own way of doing xterm's work (fast scrolls, blank lines by copy, line-feed scrolls) leaves the very
// buffer xterm's own way leaves.
import xtermHeadless from '@xterm/headless';
import type { Terminal } from '@xterm/headless';
import { PaneScreen } from '../../src/screen/pane-screen.js';

/** Disposes what ours()/bare() made: call it from afterEach. */
export function makeScreens(scrollback = 50) {
  const disposers: Array<() => void> = [];
  return {
    ours(cols: number, rows: number): PaneScreen {
      const s = new PaneScreen({ cols, rows, scrollback });
      disposers.push(() => s.dispose());
      return s;
    },
    bare(cols: number, rows: number): Terminal {
      const t = new xtermHeadless.Terminal({ cols, rows, scrollback, allowProposedApi: true, logLevel: 'off' });
      disposers.push(() => t.dispose());
      return t;
    },
    dispose(): void {
      for (const d of disposers.splice(0)) d();
    },
  };
}

export const writeOurs = (s: PaneScreen, d: string) => new Promise<void>((r) => s.write(d, r));
export const writeBare = (t: Terminal, d: string) => new Promise<void>((r) => t.write(d, r));

interface CoreLine {
  _data: Uint32Array;
  isWrapped: boolean;
  translateToString(trim: boolean): string;
}
export interface CoreBuf {
  lines: { length: number; get(i: number): CoreLine | undefined };
  ybase: number;
  ydisp: number;
  y: number;
  x: number;
}
export const core = (t: Terminal) => (t as unknown as { _core: { buffers: { normal: CoreBuf; alt: CoreBuf; active: CoreBuf } } })._core.buffers;

/** Every line of both buffers: words, wrap flag, text; and where the cursor and the viewport are. */
export function dump(t: Terminal): string[] {
  const out: string[] = [];
  const bufs = core(t);
  for (const [name, b] of [['normal', bufs.normal], ['alt', bufs.alt]] as const) {
    out.push(`${name} ybase ${b.ybase} ydisp ${b.ydisp} cursor ${b.x},${b.y} lines ${b.lines.length} active ${bufs.active === b}`);
    for (let i = 0; i < b.lines.length; i++) {
      const l = b.lines.get(i)!;
      out.push(`${i} ${l.isWrapped ? 'w' : '-'} ${Array.from(l._data).join(',')} ${JSON.stringify(l.translateToString(false))}`);
    }
  }
  return out;
}
