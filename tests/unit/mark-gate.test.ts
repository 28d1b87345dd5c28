// The mark gate (src/analysis/mark-gate.ts): which in-band marks are believed. A shell we started with integration
// signs its marks with the session's nonce; any other mark is believed only in an order one command or one agent
// turn can make (fish marks no B; nothing counts before a pane's first prompt mark).
import { describe, expect, it } from 'vitest';
import { MarkGate } from '../../src/analysis/mark-gate.js';
import { parseAgentState, parseShellIntegration } from '../../src/screen/osc-parse.js';
import type { Phase } from '../../src/analysis/time-windows.js';

/** Each payload through a fresh gate, in order: what it said of each ('ok' or the refusal). */
function gate(nonce: string | null, payloads: string[], phase: Phase = 'rest', turnOpen = phase !== 'rest', notShell = false): string[] {
  const g = new MarkGate(nonce);
  return payloads.map((p) => {
    const s = p.startsWith('7501;') ? parseAgentState(p.slice(5)) : parseShellIntegration(p.startsWith('633;') ? 'osc633' : 'osc133', p.replace(/^633;/, ''));
    return g.check(s!, { phase, turnOpen, notShell }) ?? 'ok';
  });
}
const ok = (n: number) => Array<string>(n).fill('ok');

describe('a shell we started with integration: the nonce', () => {
  const N = 'c0ffee00c0ffee00';
  it('marks with the nonce are believed in any order; without it, or with another, never', () => {
    expect(gate(N, [`A;nonce=${N}`, `B;nonce=${N}`, `C;nonce=${N}`, `D;0;nonce=${N}`, `D;1;nonce=${N}`])).toEqual(ok(5));
    expect(gate(N, ['A', 'B', 'C', 'D;0', '633;D;0', `A;nonce=${N.slice(1)}`, 'A;nonce=deadbeefdeadbeef', `633;E;ls;x`])).toEqual(Array(8).fill('forged_mark'));
  });

  it('a forged D between the real C and D is refused, and the real D still ends the command', () => {
    expect(gate(N, [`A;nonce=${N}`, `C;nonce=${N}`, 'D;0', 'A', `D;0;nonce=${N}`])).toEqual(['ok', 'ok', 'forged_mark', 'forged_mark', 'ok']);
  });

  it('Codex\'s OSC 7501 in that shell is no mark of ours: held to its order, not to the nonce', () => {
    expect(gate(N, ['7501;state=working:app=codex', '7501;state=done:app=codex'])).toEqual(['ok', 'ok']);
    expect(gate(N, ['7501;state=done:app=codex'])).toEqual(['mark_out_of_order']);
  });
});

describe('any other shell: one command\'s order', () => {
  it('A B C D, over and over, is believed (shell-bash-osc133); so is Enter on an empty line (A B A B)', () => {
    expect(gate(null, ['A', 'B', 'C', 'D;0', 'A', 'B', 'C', 'D;2', 'A', 'B'])).toEqual(ok(10));
    expect(gate(null, ['A', 'B', 'C', 'D;0', 'A', 'B', 'A', 'B', 'C', 'D;0'])).toEqual(ok(10));
  });

  it('a D with no command started, a second D, a C while one runs, a prompt while one runs: out of order', () => {
    expect(gate(null, ['A', 'B', 'C', 'D;0', 'D;0'])).toEqual([...ok(4), 'mark_out_of_order']);
    expect(gate(null, ['A', 'B', 'C', 'D;0', 'A', 'B', 'D;0'])).toEqual([...ok(6), 'mark_out_of_order']);
    expect(gate(null, ['A', 'B', 'C', 'C', 'A', 'B', 'D;1'])).toEqual([...ok(3), 'mark_out_of_order', 'mark_out_of_order', 'mark_out_of_order', 'ok']);
    expect(gate(null, ['A', 'B', 'C', 'D;0', 'C'])).toEqual([...ok(4), 'mark_out_of_order']);
  });

  it('a pane whose shell marked no prompt yet believes no start, end or command line (a `cat` of a lone D in a plain shell)', () => {
    expect(gate(null, ['D;0', 'D;1', 'C', 'B', '633;E;ls;x'])).toEqual(Array(5).fill('mark_out_of_order'));
    // Attached mid-command: its marks count from the next prompt.
    expect(gate(null, ['C', 'D;0', 'A', 'B', 'C', 'D;0'])).toEqual(['mark_out_of_order', 'mark_out_of_order', ...ok(4)]);
    // While the pane reads a turn as open (a submitted line, a command running by its screen), a first prompt mark
    // from a shell that marked nothing may be that command's output: inert (no effect), though it counts for the
    // order: a real shell's C and D from that prompt are believed.
    expect(gate(null, ['A', 'B'], 'rest', true)).toEqual(['inert', 'inert']);
    expect(gate(null, ['A', 'D;0', '633;E;ls;x'], 'running')).toEqual(['inert', 'mark_out_of_order', 'inert']);
    expect(gate(null, ['A', 'B', 'C', 'D;0', 'A'], 'running')).toEqual(['inert', 'inert', 'ok', 'ok', 'ok']);
  });

  it('a tentative prompt is believed once the pane is at rest', () => {
    const g = new MarkGate(null);
    const mark = (p: string, phase: Phase) => g.check(parseShellIntegration('osc133', p)!, { phase, turnOpen: phase !== 'rest', notShell: false }) ?? 'ok';
    expect([mark('A', 'running'), mark('A', 'rest'), mark('B', 'rest')]).toEqual(['inert', 'ok', 'ok']);
    expect(g.shellIntegration).toBe(true);
  });

  it('a shell that marks no B (fish) is not held to it; an end with no start is never believed (a prompt, then a D)', () => {
    expect(gate(null, ['A', 'C', 'D;0', 'A', 'C', 'D;1', 'A'])).toEqual(ok(7));
    expect(gate(null, ['A', 'B', 'D;0', 'A', 'D;1'])).toEqual(['ok', 'ok', 'mark_out_of_order', 'ok', 'mark_out_of_order']);
  });

  it('OSC 133 and 633 are one shell\'s marks; 633 E belongs to a prompt or a command, not between D and A', () => {
    expect(gate(null, ['633;A', '633;B', '633;E;ls;x', '633;C', '633;D;0', '633;A'])).toEqual(ok(6));
    expect(gate(null, ['633;A', '633;C', '633;D;0', '633;E;rm -rf;x'])).toEqual([...ok(3), 'mark_out_of_order']);
  });
});

describe('Codex OSC 7501: one turn\'s order', () => {
  it('the recorded sequences are believed (launch blip, approval, interrupt, error after done)', () => {
    const s = (...states: string[]) => states.map((x) => `7501;state=${x}:app=codex`);
    expect(gate(null, s('idle', 'working', 'idle', 'working', 'blocked', 'working', 'done', 'idle', 'working', 'done'))).toEqual(ok(10));
    expect(gate(null, s('idle', 'working', 'error'))).toEqual(ok(3));
    expect(gate(null, s('working', 'done', 'error'))).toEqual(ok(3));
  });

  it('blocked, done or error with no turn working are out of order; so is an idle that would end a turn it did not start', () => {
    const s = (...states: string[]) => states.map((x) => `7501;state=${x}:app=codex`);
    expect(gate(null, s('blocked', 'done', 'error'))).toEqual(Array(3).fill('mark_out_of_order'));
    expect(gate(null, s('working', 'done', 'done', 'blocked'))).toEqual([...ok(2), 'mark_out_of_order', 'mark_out_of_order']);
    expect(gate(null, s('idle'), 'running')).toEqual(['mark_out_of_order']);
    expect(gate(null, s('idle'), 'rest')).toEqual(['ok']);
  });
});

describe('marks where no shell is at its prompt (an agent wrapping its messages in A B C D)', () => {
  it('are refused as mark_in_agent, followed for the order, and the end of a refused start is refused too', () => {
    expect(gate(null, ['A', 'B', 'C', 'D;0'], 'rest', false, true)).toEqual(['mark_in_agent', 'mark_in_agent', 'mark_in_agent', 'mark_in_agent']);
    // followed: a real shell's own marks afterwards are in order
    const g = new MarkGate(null);
    const mark = (p: string, notShell: boolean) => g.check(parseShellIntegration('osc133', p)!, { phase: 'rest', turnOpen: false, notShell }) ?? 'ok';
    expect([mark('A', true), mark('C', true), mark('D;0', false), mark('A', false), mark('C', false), mark('D;0', false)]).toEqual([
      'mark_in_agent',
      'mark_in_agent',
      'mark_in_agent',
      'ok',
      'ok',
      'ok',
    ]);
  });

  it('a mark carrying our nonce is ours, wherever it arrives', () => {
    expect(gate('n0nce', ['A;nonce=n0nce', 'C;nonce=n0nce'], 'rest', false, true)).toEqual(['ok', 'ok']);
  });
});
