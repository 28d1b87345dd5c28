// Loop detection: the same continuation, or the same live edge, turn after turn means the agent is going round
// in circles (or the judge is). Edges are compared by a key that ignores what changes every run without meaning
// anything: numbers (timers, counts, ids) and spinner glyphs. Pure.

/** Keys remembered per task: enough for any sensible loop_turns, bounded whatever it is set to. */
export const MAX_REMEMBERED = 20;
const SPINNER_GLYPHS = /[\u2800-\u28ff◐◓◑◒✻✶✳✢·*⏺●○◯⣾⣽⣻⢿⡿⣟⣯⣷|/\\-]/g;

/** What the screen says, without numbers, spinner frames and spacing. */
export function progressKey(text: string): string {
  return text.replace(/\d+/g, '#').replace(SPINNER_GLYPHS, '').replace(/\s+/g, ' ').trim();
}

export interface LoopMemory {
  edges: string[];
  continuations: string[];
}

export function remember(list: string[], key: string): string[] {
  return [...list, key].slice(-MAX_REMEMBERED);
}

/** The kind of loop the last `turns` entries show, or null. */
export function loopIn(mem: LoopMemory, turns: number): { kind: 'edge' | 'continuation'; detail: string } | null {
  const same = (list: string[]) => list.length >= turns && list.slice(-turns).every((k) => k === list[list.length - 1]);
  if (same(mem.continuations)) return { kind: 'continuation', detail: `the judge asked for the same continuation ${turns} turns in a row` };
  if (same(mem.edges)) return { kind: 'edge', detail: `the screen after the turn was the same ${turns} turns in a row` };
  return null;
}
