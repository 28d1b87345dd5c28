// The decision side of the agent screens (tests/fixtures/screens): each screen shown after a real turn's start
// (the agent at rest, a prompt typed and sent, its working frames) in a PaneMonitor driven in virtual time. A menu
// must become WAITING_APPROVAL within half a second, a working screen must keep the pane RUNNING (never DONE), a
// ready screen ends the turn (DONE), a failed one FAILS it.
import { afterEach, describe, expect, it } from 'vitest';
import { PaneDriver } from '../helpers/driver.js';
import { loadScreenFixtures, paint, type ScreenAgent, type ScreenFixture } from '../helpers/screen-fixtures.js';

/** How soon a menu on screen must be WAITING_APPROVAL (issue 12: "within 0.5 s"). */
const WAIT_WITHIN_S = 0.5;
/** How long a screen is held (redrawn as the agents do) before the pane's state is read. */
const HOLD_S = 4;
/** Redraw period while a screen is held (spinners, blinking markers). */
const REDRAW_S = 0.25;

const drivers: PaneDriver[] = [];
afterEach(() => {
  for (const d of drivers.splice(0)) d.stop();
});

/** Each agent's own frames around a turn: at rest, the prompt typed, working (n = seconds elapsed). */
interface Frames {
  alt: boolean;
  rest: (cols: number) => string[];
  typed: (cols: number) => string[];
  working: (cols: number, n: number) => string[];
}

const rule = (ch: string, cols: number) => ch.repeat(cols);

/** opencode and Kilo (the same TUI): the input box in a ┃ column over a ╹▀ edge, the status row under it; the turn's
 * header `▣  Agent · Model` above while it runs, the scanner and `esc interrupt` in the status row. */
const opencodeFrames = (agent: string): Frames => {
  const box = (c: number, text: string) => ['  ┃', `  ┃  ${text}`, '  ┃', `  ┃  ${agent} · Fake Model Fake`, '  ╹' + rule('▀', Math.min(40, c - 4))];
  const scanner = (n: number) => '■■■■■■■■⬝⬝⬝⬝⬝⬝⬝⬝'.slice(n % 8, (n % 8) + 8);
  return {
    alt: true,
    rest: (c) => ['', ...box(c, 'Ask anything'), '                  tab agents  ctrl+p commands'],
    typed: (c) => ['', ...box(c, 'hi'), '                  tab agents  ctrl+p commands'],
    working: (c, n) => ['  ┃', '  ┃  hi', '  ┃', '', `     ▣  ${agent} · Fake Model`, '', ...box(c, ''), `   ${scanner(n)}  esc interrupt      tab agents  ctrl+p commands`],
  };
};

const FRAMES: Record<ScreenAgent, Frames> = {
  opencode: opencodeFrames('Build'),
  kilo: opencodeFrames('Code'),
  claude: {
    alt: true,
    rest: (c) => ['', rule('─', c), '❯ ', rule('─', c), '  ? for shortcuts'],
    typed: (c) => ['', rule('─', c), '❯ hi', rule('─', c), '  ? for shortcuts'],
    working: (c, n) => ['❯ hi', '', `✶ Pondering… (${n}s)`, '', rule('─', c), '❯ ', rule('─', c), '  esc to interrupt'],
  },
  codex: {
    alt: true,
    rest: () => ['  >_ OpenAI Codex (v0.168.0)', '', '› Ask Codex to do anything', '', '  gpt-5.5 medium · ~/proj'],
    typed: () => ['  >_ OpenAI Codex (v0.168.0)', '', '› hi', '', '  gpt-5.5 medium · ~/proj'],
    working: (_c, n) => ['› hi', '', `• Working (${n}s • esc to interrupt)`, '', '› Ask Codex to do anything', '', '  gpt-5.5 medium · ~/proj'],
  },
  gemini: {
    alt: false,
    rest: (c) => [rule('▄', c), ' >   Type your message or @path/to/file', rule('▀', c), ' ~/proj   no sandbox   Auto'],
    typed: (c) => [rule('▄', c), ' > hi', rule('▀', c), ' ~/proj   no sandbox   Auto'],
    working: (c, n) => [
      rule('▄', c),
      ' > hi',
      rule('▀', c),
      '',
      ` ⠋ Thinking... (esc to cancel, ${n}s)`,
      '',
      rule('▄', c),
      ' >   Type your message or @path/to/file',
      rule('▀', c),
      ' ~/proj   no sandbox   Auto',
    ],
  },
};

/** A turn started the way a person starts one, then the fixture's screen from `shownAt`, held and redrawn. */
async function showAfterTurn(f: ScreenFixture): Promise<{ d: PaneDriver; shownAt: number }> {
  const d = new PaneDriver({ agent: f.agent, cols: f.cols, rows: f.rows });
  drivers.push(d);
  const fr = FRAMES[f.agent];
  await d.out(0.1, (fr.alt ? '\x1b[?1049h' : '') + paint(fr.rest(f.cols)));
  await d.out(1.0, paint(fr.typed(f.cols)));
  await d.input(1.5, '\r');
  for (let i = 0; i < 8; i++) await d.out(1.6 + i * 0.2, paint(fr.working(f.cols, Math.floor(i * 0.2))));
  const shownAt = 3.3;
  for (let t = shownAt; t < shownAt + HOLD_S; t += REDRAW_S) await d.out(t, paint(f.body));
  await d.until(shownAt + HOLD_S + 1);
  return { d, shownAt };
}

const fixtures = loadScreenFixtures();

describe('a menu on screen is WAITING_APPROVAL within 0.5 s', () => {
  for (const f of fixtures.filter((x) => x.verdict === 'waiting')) {
    it(`${f.agent}/${f.name}`, async () => {
      const { d, shownAt } = await showAfterTurn(f);
      expect(d.first('RUNNING'), d.describe()).toBeDefined();
      const wait = d.first('WAITING_APPROVAL');
      expect(wait, d.describe()).toMatchObject({ rule: f.rule });
      expect(wait!.t - shownAt, d.describe()).toBeLessThanOrEqual(WAIT_WITHIN_S);
      expect(d.state, d.describe()).toBe('WAITING_APPROVAL');
    });
  }
});

describe('a working screen keeps the turn RUNNING, never DONE', () => {
  for (const f of fixtures.filter((x) => x.verdict === 'working')) {
    it(`${f.agent}/${f.name}`, async () => {
      const { d } = await showAfterTurn(f);
      expect(d.states, d.describe()).toEqual(['RUNNING']);
    });
  }
});

describe('a ready screen ends the turn, a failed one fails it', () => {
  for (const f of fixtures.filter((x) => x.verdict === 'ready' || x.verdict === 'failed')) {
    it(`${f.agent}/${f.name} → ${f.verdict === 'ready' ? 'DONE' : 'FAILED'}`, async () => {
      const { d, shownAt } = await showAfterTurn(f);
      const end = f.verdict === 'ready' ? 'DONE' : 'FAILED';
      expect(d.states, d.describe()).toEqual(['RUNNING', end]);
      expect(d.first(end)!.t, d.describe()).toBeGreaterThanOrEqual(shownAt);
    });
  }
});

describe('a screen that says nothing (a panel the person opened) never makes a WAITING_APPROVAL', () => {
  for (const f of fixtures.filter((x) => x.verdict === 'unknown')) {
    it(`${f.agent}/${f.name}`, async () => {
      const { d } = await showAfterTurn(f);
      expect(d.states, d.describe()).not.toContain('WAITING_APPROVAL');
    });
  }
});
