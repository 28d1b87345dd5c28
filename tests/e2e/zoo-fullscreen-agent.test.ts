// The fullscreen zoo agent (tests/zoo/agents/fullscreen-agent.mjs, on blessed) in a real PTY read through a real
// @xterm/headless: driven with keys per option set, its timeline must hold the protocol's events in order, the screen
// must show the input box, the question and the answer when they are due, and the byte stream must use the
// alternate screen and synchronized output (DEC 2026) around every frame — or none of it when the options say so.
import { afterEach, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { ROOT } from './harness.js';
import { syncFrames, ZooPtySession } from '../helpers/zoo-pty-session.js';

const AGENT = join(ROOT, 'tests', 'zoo', 'agents', 'fullscreen-agent.mjs');
const open: ZooPtySession[] = [];
function start(options: unknown): ZooPtySession {
  const s = new ZooPtySession(AGENT, options);
  open.push(s);
  return s;
}
afterEach(() => {
  for (const s of open.splice(0)) s.close();
});

const PLACEHOLDER = /│> +Ask anything, or type \/ for commands +│/;
const ANSWER = (prompt: string) => new RegExp(`● Sure — about "${prompt}"`);

/** Full-screen and sync checks on a whole run's bytes (after it quit). */
function expectFullScreen(s: ZooPtySession, sync: boolean): void {
  expect(s.raw).toContain('\x1b[?1049h');
  expect(s.raw.lastIndexOf('\x1b[?1049l')).toBeGreaterThan(s.raw.indexOf('\x1b[?1049h'));
  const f = syncFrames(s.raw);
  if (sync) {
    expect(f.balanced).toBe(true);
    expect(f.frames).toBeGreaterThan(5);
    // every character drawn is inside a frame: a terminal never shows one half drawn
    expect(f.drawnOutside).toBe('');
  } else expect(f.frames).toBe(0);
}

describe('fullscreen zoo agent in a real PTY', () => {
  it('a quick answer: input box, spinner while working, the streamed answer, then the box again', async () => {
    const s = start({ turns: [{ work_s: 1.2, shape: 'answer', answer_lines: 3 }] });
    const first = await s.waitScreen('the input box with its placeholder', PLACEHOLDER);
    expect(first).toContain('zoo-1 · ~/project · ? for shortcuts'); // status bar
    await s.waitEvent('ready');
    expect(s.altScreen).toBe(true);
    await s.typeSlowly('hello');
    await s.waitScreen('the typed prompt', /│> hello/);
    s.type('\r');
    const working = await s.waitScreen('the spinner line', /[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] Working… \(\d+s · esc to interrupt\)/);
    expect(working).not.toMatch(ANSWER('hello'));
    await s.waitEvent('turn_complete');
    const done = await s.waitScreen('the answer and the empty box', new RegExp(`${ANSWER('hello').source}[^]*Point 3:[^]*${PLACEHOLDER.source}`));
    expect(done).not.toContain('Working…');
    expect(done).toContain('> hello');
    expect(s.kinds()).toEqual(['ready', 'prompt_submitted', 'turn_complete']);
    // mouse tracking on (blessed's modes plus SGR reports)
    expect(s.raw).toContain('\x1b[?1000h');
    expect(s.raw).toContain('\x1b[?1006h');
    s.type('\x04'); // Ctrl-D quits
    expect(await s.waitExit()).toBe(0);
    expect(s.altScreen).toBe(false);
    expectFullScreen(s, true);
  });

  it('a question in a modal dialog, moved with an arrow and approved with Enter', async () => {
    const s = start({ question_place: 'modal', splash: { ms: 300, lines: ['ZOO', 'fullscreen agent'] }, title: 'animated', turns: [{ work_s: 1, shape: 'question', answer_lines: 2 }] });
    await s.waitScreen('the splash', /fullscreen agent/);
    await s.waitEvent('ready');
    await s.waitScreen('the input box', PLACEHOLDER);
    await s.typeSlowly('clean up');
    s.type('\r');
    await s.waitEvent('approval_requested');
    const asked = await s.waitScreen('the dialog', /┌─ Bash command ─+┐[^]*Do you want to run `rm -rf build`\?[^]*❯ 1\. Yes/);
    expect(asked).toMatch(/│ +3\. No, and tell me what to do differently +│/);
    expect(asked).not.toMatch(ANSWER('clean up'));
    s.type('\x1b[B'); // down
    await s.waitScreen('the cursor on option 2', /❯ 2\. Yes, and don't ask again/);
    expect(s.kinds()).not.toContain('approval_given');
    s.type('\r');
    await s.waitEvent('approval_given');
    await s.waitEvent('turn_complete');
    const done = await s.waitScreen('the answer', new RegExp(`Approved\\.[^]*${ANSWER('clean up').source}`));
    expect(done).not.toContain('Bash command'); // the dialog is gone
    expect(s.kinds()).toEqual(['ready', 'prompt_submitted', 'approval_requested', 'approval_given', 'turn_complete']);
    expect(s.term.buffer.active.type).toBe('alternate');
    s.type('\x03');
    await s.waitScreen('the quit hint', /Press Ctrl-C again to exit/);
    s.type('\x03');
    expect(await s.waitExit()).toBe(0);
    expect(s.raw).toMatch(/\x1b\]0;[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] zoo agent\x07/); // the animated window title
    expectFullScreen(s, true);
  });

  it('errors: a retry countdown above the error, then a failed turn; a banner on the next', async () => {
    const s = start({ error_style: 'bullet', turns: [{ work_s: 0.5, shape: 'retry_then_fail', max_retries: 2, retry_delay_s: 1 }, { work_s: 0.5, shape: 'error', error_style: 'banner' }] });
    await s.waitScreen('the input box', PLACEHOLDER);
    await s.typeSlowly('build it');
    s.type('\r');
    await s.waitScreen('the retry countdown', /⎿ Retrying \(1\/2\) in 1s…\n +Error: 500 Internal Server Error/);
    await s.waitEvent('turn_failed');
    const failed = await s.waitScreen('the error bullet', /● Error: Request failed with status code 500[^]*│> +Ask anything/);
    expect(failed).not.toContain('Retrying');
    await s.typeSlowly('again');
    s.type('\r');
    await s.waitEvent('turn_failed', 2);
    const banner = await s.waitScreen('the banner on the top row', /^ ✗ API Error · 500 Internal Server Error/);
    expect(banner).toMatch(PLACEHOLDER);
    expect(s.kinds()).toEqual(['ready', 'prompt_submitted', 'retry', 'retry', 'turn_failed', 'prompt_submitted', 'turn_failed']);
    s.type('\x04');
    expect(await s.waitExit()).toBe(0);
    expectFullScreen(s, true);
  });

  it('a y/n question denied, work interrupted with Esc; no sync output and no mouse when the options say so', async () => {
    const s = start({ sync: false, mouse: false, question_style: 'yn', pane_anchor: 'bottom', input_style: 'line', footer: null, placeholder: null, turns: [{ work_s: 0.6, shape: 'question' }, { work_s: 20, shape: 'answer' }] });
    await s.waitEvent('ready');
    await s.waitScreen('the line input', /─{80,}\n> +$/m);
    await s.typeSlowly('remove it');
    s.type('\r');
    await s.waitEvent('approval_requested');
    await s.waitScreen('the y/n question above the input', /Do you want to run `rm -rf build`\? \(y\/n\)\n *\n─{80,}/);
    s.type('n');
    await s.waitEvent('approval_dismissed');
    await s.waitScreen('the denial', /⎿ Denied\./);
    await s.typeSlowly('slow one');
    s.type('\r');
    await s.waitScreen('the spinner', /Working…/);
    s.type('\x1b');
    await s.waitEvent('turn_interrupted');
    await s.waitScreen('the interruption', /⎿ Interrupted · What should I do instead\?/);
    expect(s.kinds()).toEqual(['ready', 'prompt_submitted', 'approval_requested', 'approval_dismissed', 'turn_complete', 'prompt_submitted', 'turn_interrupted', 'turn_complete']);
    s.type('\x04');
    expect(await s.waitExit()).toBe(0);
    expect(s.raw).not.toContain('\x1b[?1000h');
    expect(s.raw).not.toContain('\x1b[?1006h');
    expectFullScreen(s, false);
  });
});
