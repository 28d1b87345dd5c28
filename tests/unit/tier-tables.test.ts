// The pure decision tables split out of the analyzer: Codex OSC 7501 states and the Tier 3 running heuristic.
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config.js';
import { agentStateAction } from '../../src/analysis/agent-state.js';
import { genericWhileRunning } from '../../src/analysis/generic-heuristic.js';

const cfg = loadConfig();

describe('OSC 7501 decision table', () => {
  const rest = { phase: 'rest' as const, justDone: false, anchored: false };
  it('working: RUNNING after a submitted prompt, pending without one, nothing new while running', () => {
    expect(agentStateAction('working', {}, { ...rest, anchored: true })).toEqual({ kind: 'signal', type: 'run', rule: 'osc7501.working' });
    expect(agentStateAction('working', {}, rest)).toEqual({ kind: 'pending' });
    expect(agentStateAction('working', {}, { ...rest, phase: 'running' })).toEqual({ kind: 'none' });
    expect(agentStateAction('working', {}, { ...rest, phase: 'waiting' })).toMatchObject({ type: 'run' });
  });
  it('blocked waits (rule names the kind); done and idle end a turn; error fails it, even right after DONE', () => {
    expect(agentStateAction('blocked', { kind: 'permission' }, rest)).toEqual({ kind: 'signal', type: 'wait', rule: 'osc7501.blocked.permission' });
    expect(agentStateAction('done', {}, { ...rest, phase: 'running' })).toMatchObject({ type: 'done' });
    expect(agentStateAction('idle', {}, { ...rest, phase: 'waiting' })).toMatchObject({ type: 'done', rule: 'osc7501.idle' });
    expect(agentStateAction('idle', {}, rest)).toEqual({ kind: 'none' });
    expect(agentStateAction('error', {}, { ...rest, justDone: true })).toMatchObject({ type: 'failed' });
    expect(agentStateAction('error', {}, rest)).toEqual({ kind: 'none' });
    expect(agentStateAction('mystery', {}, { ...rest, phase: 'running' })).toEqual({ kind: 'none' });
  });
});

describe('Tier 3 while running', () => {
  const base = { cfg, quiet: 0, row: '', liveEdge: [] as string[], screen: [] as string[], interruptSeen: false };
  const th = cfg.thresholds;
  it('a whole-word completion token at the cursor after the quiet window is DONE; a negated one is not', () => {
    expect(genericWhileRunning({ ...base, quiet: th.quiet_done_s, row: 'Build finished' })).toMatchObject({ type: 'done', rule: 'generic.completion_token.finished' });
    expect(genericWhileRunning({ ...base, quiet: th.quiet_done_s, row: 'Build not finished' })).toBeNull();
    expect(genericWhileRunning({ ...base, quiet: th.quiet_done_s / 2, row: 'Build finished' })).toBeNull();
    expect(genericWhileRunning({ ...base, quiet: th.quiet_done_s, row: 'INCOMPLETE' })).toBeNull();
  });
  it('an empty cursor row is a silent job: never done, never idle', () => {
    expect(genericWhileRunning({ ...base, quiet: 1000, row: '', liveEdge: ['done'] })).toBeNull();
  });
  it('an interrupt keyword gone after Esc is DONE; quiet with an unknown prompt is IDLE; a spinner is neither', () => {
    expect(genericWhileRunning({ ...base, quiet: th.quiet_done_s, row: 'app> ', interruptSeen: true, screen: ['app> '] })).toMatchObject({ rule: 'generic.interrupt_gone' });
    expect(genericWhileRunning({ ...base, quiet: th.quiet_done_s, row: 'x', interruptSeen: true, screen: ['esc to interrupt'] })).toBeNull();
    expect(genericWhileRunning({ ...base, quiet: th.quiet_idle_s, row: 'menu>' })).toMatchObject({ type: 'idle' });
    expect(genericWhileRunning({ ...base, quiet: th.quiet_idle_s, row: 'downloading 45%' })).toBeNull();
  });
});
