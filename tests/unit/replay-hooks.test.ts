// Hook calls recorded beside the bytes ("h" events in the cast) reach the pane in replay as the daemon delivers them.
import { describe, expect, it } from 'vitest';
import { parseCast } from '../../src/attach/asciicast.js';
import { ReplaySource } from '../../src/attach/replay-source.js';
import { replayCast } from '../../src/daemon/replay.js';
import { loadConfig } from '../../src/config/config.js';

function cast(events: unknown[]): string {
  return [JSON.stringify({ version: 2, width: 80, height: 24 }), ...events.map((e) => JSON.stringify(e))].join('\n') + '\n';
}
const hook = (agent: string, event: string, payload: unknown): string => JSON.stringify({ agent, event, payload });

describe('replay of recorded hook calls', () => {
  it('feeds each "h" event to the pane at its time, as a Tier 1 hook', async () => {
    const text = cast([
      [0.1, 'o', 'agent> '],
      [1.0, 'h', hook('claude', 'UserPromptSubmit', { hook_event_name: 'UserPromptSubmit', session_id: 's1', prompt: 'fix it' })],
      [1.2, 'o', 'working\r\n'],
      [3.0, 'h', hook('claude', 'Stop', { hook_event_name: 'Stop', session_id: 's1' })],
      [3.1, 'o', 'agent> '],
    ]);
    const res = await replayCast(new ReplaySource(parseCast(text), 'hooks.cast'), loadConfig(), 'auto');
    const moves = res.transitions.map((tr) => [tr.t, tr.to, tr.tier, tr.rule]);
    expect(moves).toEqual([
      [1.0, 'RUNNING', 1, 'hook.claude.user_prompt_submit'],
      [3.0, 'DONE', 1, 'hook.claude.stop'],
    ]);
    expect(res.transitions[0]!.line).toBe('fix it');
  });

  it('takes the event from the payload when the argument is empty, and counts calls that name none', async () => {
    const text = cast([
      [0.5, 'h', hook('gemini', '', { hook_event_name: 'BeforeAgent', prompt: 'go' })],
      [0.6, 'h', '{not json'],
      [0.7, 'h', hook('nobody', 'Stop', {})],
      [2.0, 'h', hook('gemini', 'AfterAgent', { hook_event_name: 'AfterAgent' })],
    ]);
    const source = new ReplaySource(parseCast(text), 'hooks.cast');
    const res = await replayCast(source, loadConfig(), 'auto');
    expect(res.transitions.map((tr) => tr.to)).toEqual(['RUNNING', 'DONE']);
    expect(source.badHooks).toBe(2);
    expect(res.skippedLines).toBe(0);
  });
});
