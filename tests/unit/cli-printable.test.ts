// Everything the CLI prints of other programs' text shows control characters as escapes (issue 14, item 7): a pane
// named `\e]0;evil\a\e[2J` must not retitle or clear the person's terminal through `status`, `logs`, `task`,
// `wait` or `doctor`. The helper, then each printer that takes foreign text.
import { describe, expect, it } from 'vitest';
import { printable, printableFile, printableJson, printableLines } from '../../src/cli/printable.js';
import { statusLines } from '../../src/cli/status.js';
import { formatEventLine } from '../../src/cli/event-format.js';
import { renderLine } from '../../src/cli/loghook.js';
import { painter } from '../../src/cli/colors.js';
import { fakePane } from '../helpers/web-fake-api.js';

const EVIL = '\x1b]0;evil\x07\x1b[2J';
/** Anything a terminal acts on: C0 (but none of our own colour codes are used here), DEL, C1, bidi overrides. */
const ACTIVE = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\u2028\u2029]/;

describe('printable', () => {
  it('shows every control character as an escape and leaves other text alone', () => {
    expect(printable(EVIL)).toBe('\\e]0;evil\\x07\\e[2J');
    expect(printable('a\tb\r\nc\x9b31m\x7f\u202eéλ✓')).toBe('a\\tb\\r\\nc\\x9b31m\\x7f\\u202eéλ✓');
    expect(printable('plain work:0.1 ✻ Churned')).toBe('plain work:0.1 ✻ Churned');
    expect(printableLines(`one ${EVIL}\ntwo`)).toBe('one \\e]0;evil\\x07\\e[2J\ntwo');
  });

  it('JSON stays the same value, with nothing a terminal acts on', () => {
    const v = { name: EVIL, csi: '\x9b2J', bidi: '\u202e', list: ['\x85'] };
    const s = printableJson(v, 2);
    expect(s).not.toMatch(/[\u007f-\u009f\u202a-\u202e]/);
    expect(s.replace(/\n/g, '')).not.toMatch(ACTIVE);
    expect(JSON.parse(s)).toEqual(v);
  });
});

describe('printers of foreign text', () => {
  it('status lines', () => {
    const [line] = statusLines([fakePane(`run-1-${EVIL}`, { name: EVIL, program: `sh${EVIL}`, rule: `r${EVIL}`, line: `out ${EVIL}\x9b2J` })], Date.now(), painter('none'));
    expect(line).not.toMatch(ACTIVE);
    expect(line).toContain('\\e]0;evil\\x07\\e[2J');
  });

  it('the run event log and the daemon log as `logs` shows them', () => {
    const ev = JSON.stringify({ ts: new Date().toISOString(), kind: 'transition', pane: 'p', name: EVIL, state: 'DONE', from: 'RUNNING', tier: 1, rule: 'r', line: `x${EVIL}\x9b` });
    const daemonRec = JSON.stringify({ level: 'info', time: Date.now(), kind: 'signal', pane: 'p', name: EVIL, type: 'done', tier: 2, rule: EVIL, line: EVIL });
    const started = JSON.stringify({ ts: new Date().toISOString(), kind: 'pane_start', pane: 'p', name: 'n', command: ['echo', EVIL], cols: 80, rows: 24, program: 'shell' });
    const lines = [formatEventLine(ev, false), formatEventLine(started, false), formatEventLine(`not json ${EVIL}`, false), formatEventLine(JSON.stringify({ other: EVIL }), false)];
    lines.push(renderLine(daemonRec, { pane: null, kinds: null }, false)!, renderLine(`garbage ${EVIL}`, { pane: null, kinds: null }, false)!);
    for (const l of lines) {
      expect(l, l).not.toMatch(ACTIVE);
      expect(l, l).toContain('evil');
    }
  });
});

describe('printableFile', () => {
  it('keeps a file\'s tabs and line breaks, and escapes every other control character', () => {
    expect(printableFile('[a]\n\tkey = 1\x1b]0;evil\x07\r\n')).toBe('[a]\n\tkey = 1\\e]0;evil\\x07\\r\n');
  });
});
