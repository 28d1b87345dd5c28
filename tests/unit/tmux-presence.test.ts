// tmux presence's pure parts: which option each place gets for its panes' states (presence-marks.ts), the writes
// that take tmux from what was written to what should be (only changes; everything once for a place not yet
// written), which panes the person's clients show, and the order `focus --next` jumps in.
import { describe, expect, it } from 'vitest';
import { markOf, presenceOptions, statusText, emptyCounts, type Mark } from '../../src/attach/tmux/presence-marks.js';
import { diffOptions, personPanes } from '../../src/daemon/tmux-presence.js';
import { nextPane } from '../../src/cli/commands/focus-next.js';
import { tmuxStatusLine } from '../../src/cli/commands/status-tmux.js';
import type { PaneView } from '../../src/web/api-types.js';

const places = [
  { pane: '%1', window: '@1', sessions: ['$0'] },
  { pane: '%2', window: '@1', sessions: ['$0'] },
  { pane: '%3', window: '@2', sessions: ['$0', '$1'] }, // a window linked into two sessions
  { pane: '%4', window: '@3', sessions: ['$1'] },
];

describe('presence options', () => {
  it('a pane its state, a window its most urgent pane, sessions and the server their counts; rest shows nothing', () => {
    const marks: Record<string, Mark | null> = { '%1': 'running', '%2': 'done', '%3': 'waiting', '%4': null };
    const t = presenceOptions(places, (p) => marks[p] ?? null);
    expect(Object.fromEntries(t.get('p:%1')!)).toEqual({ '@termsupervisor_state': 'running' });
    expect(Object.fromEntries(t.get('p:%4')!)).toEqual({});
    expect(Object.fromEntries(t.get('w:@1')!)).toEqual({ '@termsupervisor_state': 'done', '@termsupervisor_mark': '#[fg=#3fb950,bg=#161b22] ✓ #[default]' });
    expect(Object.fromEntries(t.get('w:@3')!)).toEqual({});
    expect(Object.fromEntries(t.get('s:$0')!)).toEqual({ '@termsupervisor_running': '1', '@termsupervisor_done': '1', '@termsupervisor_waiting': '1', '@termsupervisor_needs': '2' });
    expect(Object.fromEntries(t.get('s:$1')!)).toEqual({ '@termsupervisor_waiting': '1', '@termsupervisor_needs': '1' });
    expect(t.get('g:')!.get('@termsupervisor_status')).toBe('#[fg=#f0b429,bg=#161b22] ? 1#[fg=#3fb950,bg=#161b22] ✓ 1#[fg=#58a6ff,bg=#161b22] ◐ 1 #[default] ');
    expect(t.get('g:')!.get('@termsupervisor_needs')).toBe('2');
  });

  it('marks: a question, a failure, a stall, a finished turn, work; nothing at rest or closed', () => {
    expect(markOf({ state: 'WAITING_APPROVAL', stalled: false, alive: true })).toBe('waiting');
    expect(markOf({ state: 'LONG_RUNNING', stalled: true, alive: true })).toBe('stalled');
    expect(markOf({ state: 'LONG_RUNNING', stalled: false, alive: true })).toBe('running');
    expect(markOf({ state: 'IDLE', stalled: false, alive: true })).toBeNull();
    expect(markOf({ state: 'DONE', stalled: false, alive: false })).toBeNull();
    expect(statusText(emptyCounts())).toBe('');
    expect(statusText({ ...emptyCounts(), failed: 2 }, false)).toBe('✗ 2 ');
  });
});

describe('option writes', () => {
  it('writes every option of a place not written yet, then only what changed; a place gone is unset', () => {
    const written = new Map();
    let marks: Record<string, Mark | null> = { '%1': 'running', '%2': null, '%3': null, '%4': null };
    const first = diffOptions(written, presenceOptions(places, (p) => marks[p] ?? null));
    // 4 panes + 3 windows × 2 + 2 sessions × 6 + the server's 7: every one said once (set or unset).
    expect(first).toHaveLength(4 + 6 + 12 + 7);
    expect(first).toContainEqual(['set-option', '-p', '-t', '%1', '@termsupervisor_state', 'running']);
    expect(first).toContainEqual(['set-option', '-u', '-p', '-t', '%2', '@termsupervisor_state']);
    // Nothing changed: nothing written (an idle server costs nothing).
    expect(diffOptions(written, presenceOptions(places, (p) => marks[p] ?? null))).toEqual([]);
    // %1 finishes: its pane, its window, its session's and the server's counts and the status text.
    marks = { ...marks, '%1': 'done' };
    const next = diffOptions(written, presenceOptions(places, (p) => marks[p] ?? null));
    expect(next).toEqual(
      expect.arrayContaining([
        ['set-option', '-p', '-t', '%1', '@termsupervisor_state', 'done'],
        ['set-option', '-w', '-t', '@1', '@termsupervisor_mark', '#[fg=#3fb950,bg=#161b22] ✓ #[default]'],
        ['set-option', '-t', '$0', '@termsupervisor_done', '1'],
        ['set-option', '-u', '-t', '$0', '@termsupervisor_running'],
        ['set-option', '-g', '@termsupervisor_status', '#[fg=#3fb950,bg=#161b22] ✓ 1 #[default] '],
      ]),
    );
    expect(next.some((c) => c.includes('%2') || c.includes('$1'))).toBe(false);
    // Window @1's panes close: the window's marks are unset (it may live on with other panes); the panes' are not.
    const left = diffOptions(written, presenceOptions(places.slice(2), (p) => marks[p] ?? null));
    expect(left).toContainEqual(['set-option', '-u', '-w', '-t', '@1', '@termsupervisor_mark']);
    expect(left.some((c) => c.includes('%1'))).toBe(false);
  });

  it('the panes shown are those of clients not in control mode; seen, of those whose terminal has focus', () => {
    const rows = ['/dev/pts/3\x1f0\x1f%4\x1fattached,focused,UTF-8\x1f3.3a', 'client-9\x1f1\x1f%1\x1fattached,focused,control-mode\x1f3.3a', '/dev/pts/5\x1f0\x1f%5\x1fattached,UTF-8\x1f3.3a', '/dev/pts/6\x1f0\x1f%2\x1fattached\x1f3.2a'];
    expect([...personPanes(rows)]).toEqual(['%4', '%5', '%2']);
    // %5's terminal lost focus; a 3.2 server says nothing of focus, so its client counts as looking.
    expect([...personPanes(rows, true)]).toEqual(['%4', '%2']);
  });
});

function pane(id: string, state: PaneView['state'], since: number, tmuxPane: string, extra: Partial<PaneView> = {}): PaneView {
  return { id, name: id, state, since, alive: true, needsYou: state === 'WAITING_APPROVAL' || state === 'DONE' || state === 'FAILED', stalled: false, attach: 'tmux', where: { session: 's', window: '0', pane: tmuxPane }, ...extra } as PaneView;
}

describe('focus --next', () => {
  const panes = [pane('done-old', 'DONE', 1, '%1'), pane('wait', 'WAITING_APPROVAL', 5, '%2'), pane('failed', 'FAILED', 3, '%3'), pane('done-new', 'DONE', 4, '%4'), pane('busy', 'RUNNING', 9, '%5')];
  it('urgency order: waiting, failed, then done newest first; from the pane shown, the one after it, round', () => {
    expect(nextPane(panes, null)!.id).toBe('wait');
    expect(nextPane(panes, '%5')!.id).toBe('wait'); // shown pane needs nothing: the first
    expect(nextPane(panes, '%2')!.id).toBe('failed');
    expect(nextPane(panes, '%3')!.id).toBe('done-new');
    expect(nextPane(panes, '%4')!.id).toBe('done-old');
    expect(nextPane(panes, '%1')!.id).toBe('wait');
  });
  it('nothing needs you, or only the pane shown: nowhere to go', () => {
    expect(nextPane([pane('busy', 'RUNNING', 1, '%1')], null)).toBeNull();
    expect(nextPane([pane('wait', 'WAITING_APPROVAL', 1, '%1')], '%1')).toBeNull();
  });
  it('status --format tmux counts the same way', () => {
    expect(tmuxStatusLine(panes)).toBe('#[fg=#f0b429,bg=#161b22] ? 1#[fg=#f85149,bg=#161b22] ✗ 1#[fg=#3fb950,bg=#161b22] ✓ 2#[fg=#58a6ff,bg=#161b22] ◐ 1 #[default] ');
  });
});
