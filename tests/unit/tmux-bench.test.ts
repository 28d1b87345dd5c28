// The tmux bench's options and report (the measurement itself runs with `npm run bench -- --only tmux`).
import { describe, expect, it } from 'vitest';
import { tmuxJson, tmuxLines, tmuxOptions, type TmuxBenchResult } from '../../src/bench/tmux-load.js';

const result: TmuxBenchResult = {
  panes: 50,
  sessions: 5,
  idle: { seconds: 60, cpuPct: 0.37, wakeupsPerS: 1.9, rssMb: 82.6, tmuxCpuPct: 0.13 },
  stream: { seconds: 60, cpuPct: 5.2, rssMb: 135, matched: 49, total: 50, mismatches: [{ pane: '%7', recording: 'shell-spinner', want: ['RUNNING', 'DONE'], got: ['RUNNING'] }] },
};

describe('tmux bench', () => {
  it('reads its options, refusing what is not a positive whole number', () => {
    expect(tmuxOptions(new Map())).toEqual({ panes: 50, idleSeconds: 30 });
    expect(tmuxOptions(new Map([['tmux-panes', '8'], ['tmux-idle-seconds', '5']]))).toEqual({ panes: 8, idleSeconds: 5 });
    expect(() => tmuxOptions(new Map([['tmux-panes', '0']]))).toThrow(/--tmux-panes must be a positive whole number/);
    expect(() => tmuxOptions(new Map([['tmux-idle-seconds', true]]))).toThrow(/--tmux-idle-seconds/);
  });

  it('reports the figures in words and as JSON, with each pane whose states differ from replay', () => {
    const text = tmuxLines(result);
    expect(text).toContain('daemon 0.37% of one core (target < 0.5%)');
    expect(text).toContain('states equal to replay in 49/50 panes');
    expect(text).toContain('%7 shell-spinner: replay RUNNING DONE | tmux RUNNING');
    expect(tmuxJson(result)).toMatchObject({ tmux_idle_cpu_pct: 0.37, tmux_idle_meets_target: true, tmux_stream_states_matched: 49, tmux_stream_states_total: 50 });
  });
});
