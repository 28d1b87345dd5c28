// `top`'s frame and how it reaches the terminal: every row exactly the terminal's width (hostile and wide text
// included), the question's choices under the list, the input line with the cursor at its end; the diff writer
// puts frames into a real @xterm/headless terminal, which then shows exactly the frame, having been sent only the
// rows that changed.
import { describe, expect, it } from 'vitest';
import xterm from '@xterm/headless';
import { render, type Frame } from '../../src/cli/top/render.js';
import { DiffWriter } from '../../src/cli/top/diff-writer.js';
import { cells } from '../../src/cli/top/cells.js';
import { emptyModel, settle, type TopModel } from '../../src/cli/top/model.js';
import { painter } from '../../src/cli/colors.js';
import { fakePane } from '../helpers/web-fake-api.js';
import type { PaneView } from '../../src/web/api-types.js';

const NOW = 1_700_000_000_000;
const plain = painter('none');
const SGR = /\x1b\[[0-9;]*m/g;

function model(panes: PaneView[], over: Partial<TopModel> = {}): TopModel {
  return settle({ ...emptyModel(), connected: true, panes: new Map(panes.map((p) => [p.id, p])), ...over });
}

const ASK = fakePane('run-1', {
  name: 'api', program: 'claude', state: 'WAITING_APPROVAL', needsYou: true, since: NOW - 5_000, startedAt: NOW - 272_000, rev: 9,
  question: { text: 'Do you want to make this edit to foo.ts?', options: [{ id: '1', label: 'Yes', keys: '1' }, { id: '2', label: "Yes, and don't ask again", keys: '2' }, { id: '3', label: 'No', keys: '3' }] },
  where: { host: 'box', tty: '/dev/pts/4', pid: 4242 },
});
const DONE = fakePane('tmux:s@1:%2', { name: 'work:0.2', state: 'DONE', needsYou: true, since: NOW - 120_000, startedAt: NOW - 125_000, edge: ['$ make', 'ok', '$ '] });
const IDLE = fakePane('run-2', { name: '\x1b]0;evil\x07名前', state: 'IDLE', since: NOW - 30_000, edge: ['>>> '] });

describe('top frame', () => {
  it('title, column heads, panes by urgency with how long and the question or last line, the choices, the keys', () => {
    const f = render(model([IDLE, DONE, ASK]), { cols: 110, rows: 12 }, NOW, plain, 'http://127.0.0.1:7878');
    const t = f.rows.map((r) => r.replace(SGR, '').trimEnd());
    expect(t[0]).toBe(' termsupervisor top · http://127.0.0.1:7878 · 3 live panes · 2 need you');
    expect(t[1]).toMatch(/^ STATE +TIME  NAME +PROGRAM +WHAT$/);
    // the turn's runtime (4m 32s), not the time in WAITING (5s)
    expect(t[2]).toMatch(/^▶\? WAITING_APPROVAL +4m 32s  api +claude +asks: Do you want to make this edit to foo\.ts\?$/);
    expect(t[3]).toMatch(/^ ✓ DONE +5s  work:0\.2 +shell +finished 2m 00s ago · \$$/);
    // a hostile name shows as text; the wide characters count two cells
    expect(t[4]).toMatch(/^ ○ IDLE +30s  \\e\]0;evil\\x07名前 +shell +>>>$/);
    expect(t[8]).toBe(' api · claude · run-1 · /dev/pts/4 pid 4242 on box · shell.prompt "$"');
    expect(t[9]).toBe(" answer: 1 Yes · 2 Yes, and don't ask again · 3 No   (digit / y / n · i interrupt · ⏎ jump)");
    expect(t[11]).toMatch(/^ ↑↓\/jk move  ⏎ jump .* q quit$/);
    expect(f.cursor).toBeNull();
    for (const r of f.rows) expect(cells(r.replace(SGR, ''))).toBe(110);
  });

  it('every row fits a narrow terminal exactly (program column left out, text cut with an ellipsis)', () => {
    for (const cols of [20, 45, 69, 70]) {
      const f = render(model([IDLE, DONE, ASK]), { cols, rows: 10 }, NOW, painter('truecolor'), 'http://127.0.0.1:7878');
      expect(f.rows).toHaveLength(10);
      for (const r of f.rows) expect(cells(r.replace(SGR, '')), `${cols}: ${r}`).toBe(cols);
      expect(f.rows[1]!.includes('PROGRAM')).toBe(cols >= 70);
    }
  });

  it('the list scrolls to keep the selected pane in view', () => {
    const many = Array.from({ length: 20 }, (_, i) => fakePane(`p${String(i).padStart(2, '0')}`, { state: 'IDLE', since: NOW - i * 1000 }));
    const f = render(model(many, { selected: 'p15' }), { cols: 80, rows: 10 }, NOW, plain, 'u');
    const list = f.rows.slice(2, 6).map((r) => r.replace(SGR, '').trim().split(/\s+/)[3]);
    expect(list).toEqual(['p12', 'p13', 'p14', 'p15']);
  });

  it('the reply line shows the text being typed with the cursor after it; a long one keeps its end in view', () => {
    const m = model([DONE], { mode: { kind: 'reply', paneId: DONE.id, rev: 1, text: 'fix it' } });
    const f = render(m, { cols: 60, rows: 10 }, NOW, plain, 'u');
    expect(f.rows[9]!.trimEnd()).toBe('reply to work:0.2> fix it');
    expect(f.cursor).toEqual({ row: 9, col: 'reply to work:0.2> fix it'.length });
    const long = render({ ...m, mode: { kind: 'reply', paneId: DONE.id, rev: 1, text: 'x'.repeat(100) + 'END' } }, { cols: 60, rows: 10 }, NOW, plain, 'u');
    expect(long.rows[9]).toMatch(/^…x+END $/); // the last cell is the cursor's
    expect(long.cursor).toEqual({ row: 9, col: 59 });
  });

  it('says when the feed is lost, and what to do with no panes', () => {
    const f = render({ ...emptyModel(), connected: false }, { cols: 100, rows: 8 }, NOW, plain, 'u');
    expect(f.rows[2]).toMatch(/no panes: start one with `(\S*\/)?termsupervisor run -- <command>`/);
    expect(f.rows[6]).toMatch(/lost the daemon: reconnecting…/);
  });
});

/** A real terminal the writer draws into; its visible rows as text. */
function terminal(cols: number, rows: number) {
  const term = new xterm.Terminal({ cols, rows, allowProposedApi: true });
  const lines = () => Array.from({ length: rows }, (_, i) => term.buffer.active.getLine(term.buffer.active.viewportY + i)!.translateToString(true).trimEnd());
  const write = (s: string) => new Promise<void>((r) => term.write(s, r));
  return { term, lines, write };
}

const text = (f: Frame) => f.rows.map((r) => r.replace(SGR, '').trimEnd());

describe('diff writer', () => {
  it('the terminal shows the frame; the next frame rewrites only the rows that changed; a resize redraws all', async () => {
    const { term, lines, write } = terminal(90, 10);
    const out: string[] = [];
    const w = new DiffWriter((s) => out.push(s));
    const m = model([ASK, DONE]);
    const f1 = render(m, { cols: 90, rows: 10 }, NOW, painter('256'), 'u');
    expect(w.draw(f1)).toBe(10);
    await write(out.join(''));
    expect(lines()).toEqual(text(f1));
    // one second later only the two timers' rows differ (the turn's runtime, "finished … ago"): only they are sent
    const f2 = render(m, { cols: 90, rows: 10 }, NOW + 1000, painter('256'), 'u');
    out.length = 0;
    expect(f2.rows.filter((r, i) => r !== f1.rows[i])).toHaveLength(2);
    expect(w.draw(f2)).toBe(2);
    expect(out.join('').match(/\x1b\[\d+;1H/g)).toEqual(['\x1b[3;1H', '\x1b[4;1H']);
    await write(out.join(''));
    expect(lines()).toEqual(text(f2));
    expect(lines()[2]).toContain('4m 33s');
    // nothing changed: nothing written
    out.length = 0;
    expect(w.draw(f2)).toBe(0);
    expect(out).toEqual([]);
    // a resize: the screen is redrawn whole at the new size
    term.resize(70, 8);
    w.invalidate();
    const f3 = render(m, { cols: 70, rows: 8 }, NOW + 1000, painter('256'), 'u');
    expect(w.draw(f3)).toBe(8);
    await write(out.join(''));
    expect(Array.from({ length: 8 }, (_, i) => term.buffer.active.getLine(term.buffer.active.viewportY + i)!.translateToString(true).trimEnd())).toEqual(text(f3));
  });

  it('shows the cursor at the input line while typing and hides it again after', async () => {
    const { term, write } = terminal(60, 10);
    let out = '';
    const w = new DiffWriter((s) => (out += s));
    const reply = model([DONE], { mode: { kind: 'reply', paneId: DONE.id, rev: 1, text: 'go' } });
    w.draw(render(reply, { cols: 60, rows: 10 }, NOW, plain, 'u'));
    await write('\x1b[?25l' + out);
    expect([term.buffer.active.cursorY, term.buffer.active.cursorX]).toEqual([9, 'reply to work:0.2> go'.length]);
    expect(out).toContain('\x1b[?25h');
    out = '';
    w.draw(render({ ...reply, mode: { kind: 'list' } }, { cols: 60, rows: 10 }, NOW, plain, 'u'));
    expect(out).toContain('\x1b[?25l');
  });
});

describe('top with panes of other machines', () => {
  it('groups the rows by host (this machine first) in a HOST column; an unreachable pane says so, its detail since when', () => {
    const REMOTE = fakePane('devbox:%3', { name: 'work:0.3', state: 'WAITING_APPROVAL', needsYou: true, since: NOW - 5_000, startedAt: NOW - 9_000, host: 'devbox', unreachable: { since: NOW - 3_000, reason: 'the ssh connection to devbox was lost' }, line: 'Proceed? [y/N]' });
    const GPU = fakePane('gpu:%1', { name: 'train:0.0', state: 'IDLE', since: NOW - 5_000, host: 'gpu', edge: ['$ '] });
    const f = render(model([GPU, REMOTE, DONE]), { cols: 130, rows: 12 }, NOW, plain, 'http://127.0.0.1:7878');
    const t = f.rows.map((r) => r.replace(SGR, '').trimEnd());
    expect(t[1]).toMatch(/^ STATE +TIME  HOST +NAME +PROGRAM +WHAT$/);
    // this machine's DONE first although the remote question is more urgent: grouped by host, then by urgency
    expect(t[2]).toMatch(/^▶✓ DONE +5s  local +work:0\.2 /);
    expect(t[3]).toMatch(/^ \? WAITING_APPROVAL +9s  devbox +work:0\.3 +shell +host unreachable \(stale\) · asks: Proceed\? \[y\/N\]$/);
    expect(t[4]).toMatch(/^ ○ IDLE +5s  gpu +train:0\.0 /);
    for (const r of f.rows) expect(cells(r.replace(SGR, ''))).toBe(130);
    const sel = render(model([GPU, REMOTE, DONE], { selected: 'devbox:%3' }), { cols: 200, rows: 12 }, NOW, plain, 'x');
    const at = new Date(NOW - 3_000).toTimeString().slice(0, 8);
    expect(sel.rows.map((r) => r.replace(SGR, '')).join('\n')).toContain(`host unreachable since ${at} (the ssh connection to devbox was lost)`);
  });
});
