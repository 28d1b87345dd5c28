// Secrets masked on the logical line (issue 27): a key the terminal wrapped over two rows is masked in both rows of
// the screen, the edge, and in text read from one of those rows (a question's, a transition's line). A real
// @xterm/headless screen (PaneScreen) does the wrapping; the keys are fake but shaped like real ones.
import { describe, expect, it } from 'vitest';
import { PaneScreen } from '../../src/screen/pane-screen.js';
import { screenFragments, shownEdge, shownLine, shownScreen } from '../../src/daemon/shown-screen.js';
import { hiddenChars, maskFragments, redactRows } from '../../src/daemon/redact-lines.js';
import { redactText } from '../../src/daemon/redact.js';

const COLS = 40;
const GHP = 'ghp_' + 'A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8S9t0'.slice(0, 36); // 40 characters
const AKIA = 'AKIAIOSFODNN7EXAMPLE';
const SK_ANT = 'sk-ant-api03-' + 'Zx9Yw8Vu7Ts6Rq5Po4Nm3Lk2Ji1Hg0Fe9Dc8Ba7'.repeat(2);

function screenWith(text: string, cols = COLS): Promise<PaneScreen> {
  const s = new PaneScreen({ cols, rows: 12 });
  return new Promise((resolve) => s.write(text, () => resolve(s)));
}

/** Every piece of `secret` at least `min` long that could be read off a screen or a line. */
function leaks(shown: string, secret: string, min = 8): string[] {
  const out: string[] = [];
  for (let i = 0; i + min <= secret.length; i++) if (shown.includes(secret.slice(i, i + min))) out.push(secret.slice(i, i + min));
  return out;
}

describe('a key split by a line wrap', () => {
  it('a ghp_ token split 18/22 is masked in both rows of /screen and of the edge', async () => {
    // The prefix fills the row up to 18 characters of the token; the rest wraps to the next row.
    const prefix = 'x'.repeat(COLS - 19) + ' ';
    const s = await screenWith(`export T=1\r\n${prefix}${GHP} after\r\n$ `);
    const raw = s.text();
    expect(raw.split('\n')[1]).toBe(prefix + GHP.slice(0, 18)); // the wrap is where the test says
    expect(redactText(raw.split('\n')[1]!)).toContain(GHP.slice(4, 18)); // no row alone looks like a key
    const screen = shownScreen(s);
    expect(leaks(screen, GHP), screen).toEqual([]);
    expect(screen.split('\n')).toHaveLength(raw.split('\n').length); // rows stay rows
    expect(screen.split('\n')[2]).toMatch(/^\*\*\* after$/);
    const edge = shownEdge(s, 3);
    expect(leaks(edge.join('\n'), GHP), edge.join('\n')).toEqual([]);
    s.dispose();
  });

  it('an AKIA id split 10/10 and the tail of an sk-ant- key on the next row are masked', async () => {
    const s = await screenWith(`${'y'.repeat(COLS - 11)} ${AKIA}\r\n${'z'.repeat(COLS - 21)} ${SK_ANT}\r\n`);
    const screen = shownScreen(s);
    expect(leaks(screen, AKIA, 6), screen).toEqual([]);
    expect(leaks(screen, SK_ANT), screen).toEqual([]);
    s.dispose();
  });

  it('a line read from one wrapped row (a question, a transition) is masked with the pieces the wrap split', async () => {
    const prefix = 'Use token ';
    const s = await screenWith(`${prefix}${'w'.repeat(COLS - prefix.length - 19)} ${GHP}? [y/N] `);
    const second = s.text().split('\n')[1]!;
    expect(second.startsWith(GHP.slice(18))).toBe(true);
    expect(redactText(second)).toContain(GHP.slice(18, 30)); // alone, the tail is no key
    expect(leaks(shownLine(s, second), GHP)).toEqual([]);
    expect(screenFragments(s).length).toBeGreaterThan(0);
    s.dispose();
  });

  it('rows that do not wrap are masked exactly as redactText masks them, and give no fragments', async () => {
    const lines = ['plain text', `token: ${GHP}`, 'Authorization: Bearer abc123def456', 'a/b/c.txt 0123456789abcdef'];
    const s = await screenWith(lines.join('\r\n'), 80);
    expect(shownScreen(s).split('\n')).toEqual(lines.map(redactText));
    expect(screenFragments(s)).toEqual([]);
    s.dispose();
  });
});

describe('masking on joined rows', () => {
  it('aws_secret_access_key = … with spaces and "/" is masked, in a row and split over two', () => {
    const line = 'aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY';
    expect(redactText(line)).toBe('aws_secret_access_key = ***');
    const r = redactRows([
      { text: line.slice(0, 30), wrapped: false },
      { text: line.slice(30), wrapped: true },
    ]);
    expect(leaks(r.rows.join('\n'), 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY', 6)).toEqual([]);
    expect(r.rows[0]).toBe('aws_secret_access_key = ***');
    expect(r.rows[1]).toBe('***');
  });

  it('hiddenChars marks exactly what redactText drops', () => {
    const s = `x --token=abcdef123456 y ${AKIA} z`;
    const h = hiddenChars(s);
    const kept = [...s].filter((_, i) => !h[i]).join('');
    expect(kept).toBe('x --token= y AKIA z'.replace('AKIA', 'AKIA'.slice(0, 4)));
  });

  it('fragments are masked in text read elsewhere, longest first; short pieces are left', () => {
    expect(maskFragments('see Xy12345678 and Xy12', ['Xy12345678'])).toBe('see *** and Xy12');
    const r = redactRows([
      { text: 'k'.repeat(37) + 'gh', wrapped: false },
      { text: 'p_' + 'Ab1'.repeat(12), wrapped: true },
    ]);
    expect(r.fragments.every((f) => f.length >= 4)).toBe(true);
  });

  it('a screen-long wrapped line costs linear time', () => {
    const rows = Array.from({ length: 1000 }, (_, i) => ({ text: 'a1B2c3D4/'.repeat(111).slice(0, 1000), wrapped: i > 0 }));
    const t0 = performance.now();
    const r = redactRows(rows);
    expect(r.rows).toHaveLength(1000);
    // 1 MB of text: seconds would mean a quadratic join (measured ~0.3 s here on a busy machine).
    expect(performance.now() - t0).toBeLessThan(5000);
  });
});
