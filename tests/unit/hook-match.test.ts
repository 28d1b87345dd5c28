// Which pane a hook lands on (src/hooks/match-hook.ts). Claude Code and Gemini CLI hooks run in the pane's own
// process tree: their environment names the pane. Codex notify comes from a background app-server whose environment
// is that of whichever pane started it: matched by thread, then by which Codex pane has a turn running (or just
// ended one), told apart by cwd and by the prompt the turn answered; never by that environment.
import { describe, expect, it } from 'vitest';
import { matchHookPane, type PaneFacts } from '../../src/hooks/match-hook.js';
import type { HookBody } from '../../src/hooks/hook-body.js';

const NOW = 1_000_000;
const RECENT_MS = 10_000;
const codexHook = (over: Partial<HookBody> = {}): HookBody => ({
  v: 1, agent: 'codex', event: 'agent-turn-complete', detail: '', session: 'thread-1', message: 'Done.', input: 'fix the parser', cwd: '/p', pane: { id: 'A' }, ...over,
});
const pane = (id: string, over: Partial<PaneFacts> = {}): PaneFacts => ({ id, program: 'codex', state: 'IDLE', since: NOW - 60_000, prompt: null, ...over });
const match = (body: HookBody, panes: PaneFacts[], threads = new Map<string, string>(), cwd: Record<string, string> = {}) =>
  matchHookPane(body, panes, threads, NOW, RECENT_MS, (id) => cwd[id]);

describe('Codex notify (from the app-server)', () => {
  it("goes to the Codex pane with a turn running, not to the pane its environment names", () => {
    expect(match(codexHook(), [pane('A'), pane('B', { state: 'RUNNING' })])).toEqual({ pane: 'B', how: 'running' });
  });

  it('finds its pane when the pane in its environment is gone', () => {
    expect(match(codexHook({ pane: { id: 'gone' } }), [pane('B', { state: 'WAITING_APPROVAL' })])).toEqual({ pane: 'B', how: 'running' });
  });

  it('a known thread goes to its pane, whatever that pane shows now', () => {
    const threads = new Map([['thread-1', 'C']]);
    expect(match(codexHook(), [pane('B', { state: 'RUNNING' }), pane('C', { state: 'DONE' })], threads)).toEqual({ pane: 'C', how: 'thread' });
  });

  it('a pane whose screen ended the turn a moment before the hook still gets it; long ago, no pane does', () => {
    expect(match(codexHook(), [pane('A'), pane('B', { state: 'DONE', since: NOW - 2_000 })])).toEqual({ pane: 'B', how: 'recent' });
    expect(match(codexHook(), [pane('A'), pane('B', { state: 'DONE', since: NOW - 60_000 })])).toEqual({ pane: null, how: 'none' });
  });

  it('two Codex panes working: the one in the hook’s cwd, else the one whose prompt it answered, else none', () => {
    const both = [pane('A', { state: 'RUNNING', prompt: 'add a test' }), pane('B', { state: 'RUNNING', prompt: 'fix the parser' })];
    expect(match(codexHook(), both, new Map(), { A: '/p', B: '/q' })).toEqual({ pane: 'A', how: 'running' });
    expect(match(codexHook(), both, new Map(), { A: '/p', B: '/p' })).toEqual({ pane: 'B', how: 'running' });
    expect(match(codexHook({ input: 'something else' }), both)).toEqual({ pane: null, how: 'ambiguous' });
  });

  it('only Codex panes are candidates', () => {
    expect(match(codexHook(), [pane('A', { program: 'claude', state: 'RUNNING' })])).toEqual({ pane: null, how: 'none' });
  });
});

describe('Claude Code and Gemini CLI hooks (run in the pane)', () => {
  it('go to the pane their environment names, as before', () => {
    const body: HookBody = { v: 1, agent: 'gemini', event: 'AfterAgent', detail: '', session: 's', message: '', pane: { id: 'A' } };
    expect(match(body, [pane('A', { program: 'gemini' }), pane('B', { program: 'gemini', state: 'RUNNING' })])).toEqual({ pane: 'A', how: 'env' });
  });
});
