// `top`'s pure model: urgency order, the filter, a selection that follows its pane, and what each key asks for —
// an answer carries the option and the revision the person saw; reply and interrupt only where they make sense.
import { describe, expect, it } from 'vitest';
import { applyFeed, emptyModel, onKey, selectedPane, settle, visible, type TopModel } from '../../src/cli/top/model.js';
import { parseKeys, type Key } from '../../src/cli/top/keys.js';
import { pickOption } from '../../src/cli/question-pick.js';
import { fakePane } from '../helpers/web-fake-api.js';
import type { PaneView, QuestionView } from '../../src/web/api-types.js';

const MENU: QuestionView = {
  text: 'Do you want to make this edit to foo.ts?',
  options: [
    { id: '1', label: 'Yes', keys: '1' },
    { id: '2', label: "Yes, and don't ask again this session", keys: '2' },
    { id: '3', label: 'No, and tell Claude what to do differently', keys: '3' },
  ],
};

function model(panes: PaneView[]): TopModel {
  return settle({ ...emptyModel(), connected: true, panes: new Map(panes.map((p) => [p.id, p])) });
}

/** Types keys (as a terminal sends them) into the model; the effects they asked for. */
function press(m: TopModel, bytes: string): { model: TopModel; effects: unknown[] } {
  const effects: unknown[] = [];
  for (const k of parseKeys(bytes)) {
    const r = onKey(m, k);
    m = r.model;
    if (r.effect) effects.push(r.effect);
  }
  return { model: m, effects };
}

const PANES = [
  fakePane('idle', { state: 'IDLE', since: 9_000 }),
  fakePane('run', { state: 'RUNNING', since: 8_000 }),
  fakePane('gone', { state: 'WAITING_APPROVAL', alive: false, since: 9_999 }),
  fakePane('done-old', { state: 'DONE', since: 1_000, needsYou: true }),
  fakePane('done-new', { state: 'DONE', since: 5_000, needsYou: true }),
  fakePane('stuck', { state: 'LONG_RUNNING', stalled: true, since: 2_000 }),
  fakePane('fail', { state: 'FAILED', since: 3_000, needsYou: true }),
  fakePane('ask', { state: 'WAITING_APPROVAL', since: 4_000, needsYou: true, program: 'claude', rev: 17, question: MENU }),
];

describe('top model', () => {
  it('orders by urgency: WAITING, FAILED, stalled, DONE (newest first), running, idle; closed last', () => {
    expect(visible(model(PANES)).map((p) => p.id)).toEqual(['ask', 'fail', 'stuck', 'done-new', 'done-old', 'run', 'idle', 'gone']);
    expect(model(PANES).selected).toBe('ask');
  });

  it('the selection follows its pane when the order changes, and moves with arrows, j/k, g/G', () => {
    let m = press(model(PANES), 'jj').model;
    expect(m.selected).toBe('stuck');
    // the selected pane becomes the most urgent one: the cursor stays on it
    m = applyFeed(m, { type: 'pane', pane: { ...m.panes.get('stuck')!, state: 'WAITING_APPROVAL', since: 10_000, stalled: false } });
    expect(visible(m)[0]!.id).toBe('stuck');
    expect(m.selected).toBe('stuck');
    expect(press(m, '\x1b[B').model.selected).toBe('ask');
    expect(press(m, 'G').model.selected).toBe('gone');
    expect(press(press(m, 'G').model, 'g').model.selected).toBe('stuck');
    expect(press(m, 'k').model.selected).toBe('stuck'); // top row: stays
    // the selected pane goes away: the first row is selected
    expect(applyFeed(m, { type: 'pane_removed', id: 'stuck' }).selected).toBe('ask');
  });

  it('/ filters by name, program or state as typed; Enter keeps it, Esc undoes it', () => {
    let m = press(model(PANES), '/clau').model;
    expect(m.mode.kind).toBe('filter');
    expect(visible(m).map((p) => p.id)).toEqual(['ask']);
    m = press(m, '\x7f\x7f\x7f\x7fdone\r').model;
    expect(m.mode.kind).toBe('list');
    expect(visible(m).map((p) => p.id)).toEqual(['done-new', 'done-old']);
    expect(m.selected).toBe('done-new');
    expect(press(m, '/x\x1b').model.filter).toBe('done'); // Esc: back to the filter before this edit
    expect(press(m, '\x1b').model.filter).toBe(''); // Esc in the list clears it
  });

  it("a digit or y/n answers the selected pane's question with that option and the revision shown", () => {
    const m = model(PANES);
    const two = press(m, '2').effects[0] as { kind: string; option: { id: string }; rev: number; pane: PaneView };
    expect(two).toMatchObject({ kind: 'answer', option: { id: '2' }, rev: 17 });
    expect(two.pane.id).toBe('ask');
    expect(press(m, 'y').effects[0]).toMatchObject({ option: { id: '1' } });
    expect(press(m, 'n').effects[0]).toMatchObject({ option: { id: '3' } });
    const nine = press(m, '9');
    expect(nine.effects).toEqual([]);
    expect(nine.model.notice).toMatchObject({ tone: 'error', text: expect.stringContaining('no option 9: 1, 2, 3') });
    // a pane that asks nothing is not answered
    const run = press(m, 'G').model;
    expect(press({ ...run, selected: 'run' }, '1').effects).toEqual([]);
  });

  it('Enter jumps, a acks, q and Ctrl-C quit', () => {
    const m = model(PANES);
    expect(press(m, '\r').effects).toMatchObject([{ kind: 'focus', pane: { id: 'ask' } }]);
    expect(press(m, 'ja').effects).toMatchObject([{ kind: 'ack', pane: { id: 'fail' } }]);
    expect(press(m, 'q').effects).toEqual([{ kind: 'quit' }]);
    expect(press(m, '\x03').effects).toEqual([{ kind: 'quit' }]);
  });

  it('r opens a one-line reply for a pane at rest and sends it with the revision of the screen it was opened on', () => {
    const m = model([fakePane('agent', { state: 'DONE', rev: 5, needsYou: true })]);
    let r = press(m, 'rfix the tests');
    expect(r.model.mode).toEqual({ kind: 'reply', paneId: 'agent', rev: 5, text: 'fix the tests' });
    // the pane's screen moves on while the person types: the reply still names the screen they replied to
    r = { ...r, model: applyFeed(r.model, { type: 'pane', pane: fakePane('agent', { state: 'DONE', rev: 6 }) }) };
    r = press(r.model, '\x17\x17\x1b[200~now\nlinx\x1b[201~\x7ft\r'); // Ctrl-W twice, a pasted line break, Backspace
    expect(r.effects).toMatchObject([{ kind: 'reply', text: 'fix now lint', rev: 5 }]);
    expect(r.model.mode.kind).toBe('list');
    // q while typing is text, not quit; Esc cancels; a running pane takes no reply
    expect(press(m, 'rq').effects).toEqual([]);
    expect(press(m, 'rabc\x1b').model.mode.kind).toBe('list');
    const busy = press(model([fakePane('b', { state: 'RUNNING' })]), 'rhello');
    expect(busy.model.mode.kind).toBe('list');
    expect(busy.model.notice?.text).toMatch(/only at rest/);
  });

  it('i asks y/n first; only y interrupts, with the revision shown when i was pressed', () => {
    const m = model([fakePane('a', { state: 'RUNNING', rev: 3 }), fakePane('i', { state: 'IDLE', since: 0 })]);
    expect(press(m, 'i').model.mode).toEqual({ kind: 'confirm-interrupt', paneId: 'a', rev: 3 });
    expect(press(m, 'iy').effects).toMatchObject([{ kind: 'interrupt', pane: { id: 'a' }, rev: 3 }]);
    expect(press(m, 'in').effects).toEqual([]);
    expect(press(m, 'i\r').effects).toEqual([]);
    expect(press(m, 'ji').model.notice?.text).toMatch(/nothing to interrupt/);
  });

  it('hello replaces every pane (a reconnect), pane upserts, selection kept when possible', () => {
    const m = applyFeed(model(PANES), { type: 'hello', version: 'x', panes: [fakePane('new', { state: 'DONE' }), PANES[7]!] });
    expect(visible(m).map((p) => p.id)).toEqual(['ask', 'new']);
    expect(selectedPane(m)?.id).toBe('ask');
  });
});

describe('options picked by key or word', () => {
  it('an id as given, y/n as the Yes/No line, y alone for a lone "Press Enter"', () => {
    expect(pickOption(MENU, '3')?.label).toMatch(/^No/);
    expect(pickOption(MENU, 'yes')?.id).toBe('1');
    expect(pickOption({ text: 'Delete? [y/N]', options: [{ id: 'y', label: 'y', keys: 'y Enter' }, { id: 'n', label: 'N', keys: 'n Enter' }] }, 'N')?.id).toBe('n');
    expect(pickOption({ text: 'Press Enter to continue', options: [{ id: 'enter', label: 'Press Enter', keys: 'Enter' }] }, 'y')?.id).toBe('enter');
    expect(pickOption(MENU, '4')).toBeNull();
    expect(pickOption(null, '1')).toBeNull();
  });
});

describe('keys', () => {
  it('reads arrows in both cursor modes, paging, Enter, a lone Esc, paste, and characters beyond ASCII', () => {
    const names = (s: string) => parseKeys(s).map((k: Key) => (k.name === 'char' ? k.ch : k.name === 'paste' ? `paste:${k.text}` : k.name));
    expect(names('\x1b[A\x1bOB\x1b[5~\x1b[6~\x1b[1~\x1b[F')).toEqual(['up', 'down', 'pageup', 'pagedown', 'home', 'end']);
    expect(names('\r\x1b')).toEqual(['enter', 'escape']);
    expect(names('a\x1b[200~x\ry\x1b[201~é😀')).toEqual(['a', 'paste:x\ry', 'é', '😀']);
    expect(names('\x03\x15\x17\x7f')).toEqual(['ctrl-c', 'ctrl-u', 'ctrl-w', 'backspace']);
  });
});
