// Terminal colours for the CLI's state lines: the dashboard's palette (web/style.css, kept equal by a test) as
// truecolor where the terminal says it has it, else the nearest of the 256 xterm colours. None at all when the
// output is not a terminal, NO_COLOR is set, or --no-color was given; FORCE_COLOR turns them on anyway.
import type { MachineState } from '../analysis/types.js';

/** The dashboard's state colours (web/style.css :root). */
export const PALETTE = {
  idle: '#8b949e',
  running: '#58a6ff',
  long: '#2f6fd6',
  waiting: '#f0b429',
  done: '#3fb950',
  failed: '#f85149',
  stalled: '#d2a8ff',
  dim: '#8b949e',
} as const;
export type PaletteName = keyof typeof PALETTE;

export const STATE_COLOR: Record<MachineState, PaletteName> = {
  IDLE: 'idle',
  RUNNING: 'running',
  LONG_RUNNING: 'long',
  WAITING_APPROVAL: 'waiting',
  DONE: 'done',
  FAILED: 'failed',
};

export type ColorMode = 'none' | '256' | 'truecolor';

export function colorMode(stream: { isTTY?: boolean }, noColorFlag: boolean, env: NodeJS.ProcessEnv = process.env): ColorMode {
  if (noColorFlag || env['NO_COLOR']) return 'none';
  if (!stream.isTTY && !env['FORCE_COLOR']) return 'none';
  return /^(truecolor|24bit)$/i.test(env['COLORTERM'] ?? '') ? 'truecolor' : '256';
}

export interface Paint {
  (name: PaletteName, text: string, bold?: boolean): string;
  readonly mode: ColorMode;
}

export function painter(mode: ColorMode): Paint {
  const f = (name: PaletteName, text: string, bold = false) => {
    if (mode === 'none') return text;
    const [r, g, b] = rgb(PALETTE[name]);
    const fg = mode === 'truecolor' ? `38;2;${r};${g};${b}` : `38;5;${xterm256(r, g, b)}`;
    return `\x1b[${bold ? '1;' : ''}${fg}m${text}\x1b[0m`;
  };
  return Object.assign(f, { mode });
}

function rgb(hex: string): [number, number, number] {
  const n = parseInt(hex.slice(1), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

/** The nearest colour of xterm's 6×6×6 cube or its grey ramp. */
export function xterm256(r: number, g: number, b: number): number {
  const levels = [0, 95, 135, 175, 215, 255];
  const near = (v: number) => levels.reduce((best, l, i) => (Math.abs(l - v) < Math.abs(levels[best]! - v) ? i : best), 0);
  const [ci, cj, ck] = [near(r), near(g), near(b)];
  const cube = 16 + 36 * ci + 6 * cj + ck;
  const cubeErr = (levels[ci]! - r) ** 2 + (levels[cj]! - g) ** 2 + (levels[ck]! - b) ** 2;
  const grey = Math.min(23, Math.max(0, Math.round(((r + g + b) / 3 - 8) / 10)));
  const gv = 8 + grey * 10;
  const greyErr = (gv - r) ** 2 + (gv - g) ** 2 + (gv - b) ** 2;
  return greyErr < cubeErr ? 232 + grey : cube;
}
