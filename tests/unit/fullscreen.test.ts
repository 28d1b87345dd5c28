// Full-screen programs (the alternate screen): a pager or editor waiting on the person's keys is at rest (IDLE, never
// LONG_RUNNING or stalled) and its end is the command's end (DONE); a program redrawing by itself (watch) is RUNNING.
// Output that answers a key is told from output the program makes on its own.
import { describe, expect, it } from 'vitest';
import { PaneDriver, useDrivers } from '../helpers/driver.js';

const driver = useDrivers({ agent: 'auto', cols: 80, rows: 24 });

const BP_ON = '\x1b[?2004h';
const BP_OFF = '\x1b[?2004l';
const ALT_ON = '\x1b[?1049h\x1b[H\x1b[2J';
const ALT_OFF = '\x1b[?1049l';
const PS1 = 'user@box:~$ ';
const page = (first: number, prompt: string): string =>
  Array.from({ length: 23 }, (_, i) => `line ${first + i} of the file`).join('\r\n') + `\r\n${prompt}`;

/** bash: the prompt with bracketed paste on, the command typed, Enter, bracketed paste off. */
async function bashCommand(d: PaneDriver, t: number, cmd: string, keys = true): Promise<number> {
  await d.out(t, `${BP_ON}${PS1}`);
  if (keys) {
    const end = await d.type(t + 0.2, cmd);
    await d.input(end + 0.1, '\r');
    await d.out(end + 0.11, `${BP_OFF}\r\n`);
    return end + 0.11;
  }
  // A tmux pane: no key events, only the shell echoing what was typed.
  await d.out(t + 0.5, `${cmd}${BP_OFF}\r\n`);
  return t + 0.5;
}

describe('full-screen programs waiting on keys', () => {
  it('less: RUNNING while it starts, IDLE while the person reads, pages by keys stay IDLE, q → DONE', async () => {
    const d = driver();
    const enter = await bashCommand(d, 0.1, 'less notes.txt');
    await d.out(enter + 0.03, ALT_ON + page(1, ':'));
    await d.until(enter + 10);
    expect(d.states, d.describe()).toEqual(['RUNNING', 'IDLE']);
    const idle = d.first('IDLE')!;
    expect(idle.rule).toBe('fullscreen.waiting_on_keys');
    expect(idle.t - enter).toBeLessThanOrEqual(d.cfg.thresholds.fullscreen_rest_s + 0.2);
    // Paging: each key's answer comes within milliseconds.
    for (let k = 0; k < 5; k++) {
      const t = enter + 12 + k * 1.3;
      await d.input(t, ' ');
      await d.out(t + 0.02, '\x1b[H\x1b[2J' + page(24 * (k + 1), ':'));
    }
    await d.input(enter + 20, '/');
    await d.out(enter + 20.01, '\r\x1b[K/');
    await d.type(enter + 20.1, 'error');
    await d.input(enter + 21, '\r');
    await d.out(enter + 21.02, '\x1b[H\x1b[2J' + page(300, ':'));
    // Minutes of reading: no LONG_RUNNING, no stall.
    await d.until(enter + 300);
    expect(d.states, d.describe()).toEqual(['RUNNING', 'IDLE']);
    expect(d.transitions.some((tr) => tr.stalled)).toBe(false);
    await d.input(enter + 301, 'q');
    await d.out(enter + 301.01, `${ALT_OFF}${BP_ON}${PS1}`);
    await d.until(enter + 305);
    expect(d.states, d.describe()).toEqual(['RUNNING', 'IDLE', 'DONE']);
    expect(d.transitions.at(-1)).toMatchObject({ to: 'DONE', rule: 'shell.prompt_bracketed_paste' });
  });

  it('vim: Enter inside the editor is a key to it, not a new turn', async () => {
    const d = driver();
    const enter = await bashCommand(d, 0.1, 'vim notes.txt');
    await d.out(enter + 0.05, ALT_ON + 'hello\r\n~\r\n~\x1b[24;1H"notes.txt" 1L, 6B\x1b[1;1H');
    await d.until(enter + 5);
    await d.input(enter + 6, 'o');
    await d.out(enter + 6.01, '\x1b[24;1H-- INSERT --\x1b[2;1H');
    let t = await d.type(enter + 6.5, 'more text');
    for (let k = 0; k < 4; k++) {
      await d.input(t, '\r');
      await d.out(t + 0.01, '\r\n');
      t = await d.type(t + 0.3, `row ${k}`);
    }
    await d.input(t + 1, '\x1b');
    await d.out(t + 1.01, '\x1b[24;1H\x1b[K\x1b[6;5H');
    await d.until(t + 20);
    expect(d.states, d.describe()).toEqual(['RUNNING', 'IDLE']);
    const quit = await d.type(t + 21, ':wq');
    await d.input(quit, '\r');
    await d.out(quit + 0.02, `${ALT_OFF}${BP_ON}${PS1}`);
    await d.until(quit + 3);
    expect(d.states, d.describe()).toEqual(['RUNNING', 'IDLE', 'DONE']);
  });

  it('watch: a program redrawing itself every 2 s stays RUNNING (then LONG_RUNNING), and is DONE at the prompt', async () => {
    const d = driver();
    const enter = await bashCommand(d, 0.1, 'watch date');
    await d.out(enter + 0.05, `${ALT_ON}Every 2.0s: date\r\n\r\nTue Nov 24 15:00:00 UTC 2026`);
    let t = enter + 0.05;
    for (let k = 1; k <= 40; k++) {
      t = enter + 0.05 + 2 * k;
      await d.out(t, `\x1b[3;18H${String(k % 60).padStart(2, '0')}`);
    }
    await d.until(t + 0.5);
    expect(d.states, d.describe()).toEqual(['RUNNING', 'LONG_RUNNING']);
    await d.input(t + 1, '\x03');
    await d.out(t + 1.01, `${ALT_OFF}${BP_ON}${PS1}`);
    await d.until(t + 4);
    expect(d.states, d.describe()).toEqual(['RUNNING', 'LONG_RUNNING', 'DONE']);
  });

  it('a tmux pane (no key events): the pager rests, a person paging now and then does not make it RUNNING again', async () => {
    const d = driver();
    const enter = await bashCommand(d, 0.1, 'less notes.txt', false);
    await d.out(enter + 0.03, ALT_ON + page(1, ':'));
    await d.until(enter + 6);
    expect(d.states, d.describe()).toEqual(['RUNNING', 'IDLE']);
    await d.out(enter + 9, '\x1b[H\x1b[2J' + page(24, ':'));
    await d.out(enter + 20, '\x1b[H\x1b[2J' + page(48, ':'));
    await d.until(enter + 40);
    expect(d.states, d.describe()).toEqual(['RUNNING', 'IDLE']);
    await d.out(enter + 41, `${ALT_OFF}${BP_ON}${PS1}`);
    await d.until(enter + 44);
    expect(d.states, d.describe()).toEqual(['RUNNING', 'IDLE', 'DONE']);
  });

  it('a slow monitor (a redraw every 5 s) is read as RUNNING once its steady pace is seen', async () => {
    const d = driver();
    const enter = await bashCommand(d, 0.1, 'watch -n 5 date');
    await d.out(enter + 0.05, `${ALT_ON}Every 5.0s: date\r\n\r\nTue Nov 24 15:00:00 UTC 2026`);
    let t = enter;
    for (let k = 1; k <= 8; k++) {
      t = enter + 0.05 + 5 * k;
      await d.out(t, `\x1b[3;18H${String(k * 5).padStart(2, '0')}`);
    }
    await d.until(t + 1);
    // Resting until the pace shows (two equal gaps), then RUNNING for good.
    expect(d.states, d.describe()).toEqual(['RUNNING', 'IDLE', 'RUNNING']);
    expect(d.transitions.at(-1)!.rule).toBe('shell.fullscreen_animating');
  });

  it('an agent TUI without a profile: Enter, its spinner animates, then stops → DONE (the turn is over)', async () => {
    const d = driver({ agent: 'generic' });
    await d.out(0.1, `${ALT_ON}\x1b[22;1H> \x1b[22;3H`);
    const end = await d.type(1, 'fix the bug');
    await d.input(end + 0.1, '\r');
    await d.out(end + 0.12, '\x1b[2;1Hfix the bug\x1b[22;1H> \x1b[K');
    const frames = '⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏';
    let t = end + 0.2;
    // 12.5 frames a second with an elapsed timer, as agents draw them.
    for (let k = 0; k < 75; k++, t += 0.08) await d.out(t, `\x1b[20;1H${frames[k % 10]} Thinking (${Math.floor(k * 0.08)}s)`);
    await d.out(t, '\x1b[20;1H\x1b[K\x1b[4;1HThe bug was an off-by-one.\x1b[22;3H');
    await d.until(t + 6);
    expect(d.states, d.describe()).toEqual(['RUNNING', 'DONE']);
    expect(d.first('RUNNING')!.t).toBeLessThan(end + 1.5);
    expect(d.first('DONE')).toMatchObject({ rule: 'fullscreen.animation_stopped' });
  });
});
