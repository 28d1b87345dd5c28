// The generic tier's reading of an agent's TUI (profiles/generic-tui.ts) on real terminal screens built from bytes:
// shapes every agent shares, in several agents' wordings, and the traps (an answer quoting a hint, typed text).
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config.js';
import { classifyGenericTui, tuiLike } from '../../src/analysis/profiles/generic-tui.js';
import { classifyWith } from '../../src/analysis/profiles/index.js';
import { ctx, screenOf } from '../helpers/screen.js';
import { useDrivers } from '../helpers/driver.js';

const cfg = loadConfig();
const ALT = '\x1b[?1049h';
/** Rows written top-down from row 1, then the cursor put at (row, col), 1-based. */
const rows = (lines: string[], cursor: [number, number], alt = true): string =>
  (alt ? ALT : '') + lines.map((l, i) => `\x1b[${i + 1};1H${l}`).join('') + `\x1b[${cursor[0]};${cursor[1]}H`;
/** An input box with a footer under it, the cursor in the box. */
const box = (above: string[], footer = '  ctrl+p commands'): string =>
  rows([...above, '', '┃  ', '┃', '╹▀▀▀▀▀▀▀▀▀▀▀▀', footer], [above.length + 2, 4]);

async function read(data: string, over: Parameters<typeof ctx>[1] = {}) {
  const snap = await screenOf(data);
  return { snap, cls: classifyGenericTui(snap, ctx(cfg, over)) };
}

describe('what is a TUI', () => {
  it('the alternate screen, or rows below the cursor (an input box with a footer); not a shell line', async () => {
    expect(tuiLike(await screenOf(rows(['hello'], [2, 1])))).toBe(true);
    expect(tuiLike(await screenOf(rows(['> ', '  ? for shortcuts'], [1, 3], false)))).toBe(true);
    expect(tuiLike(await screenOf('$ make\r\nok\r\n$ '))).toBe(false);
  });
});

describe('questions put to the person, whatever the agent', () => {
  const menus: Record<string, string[]> = {
    'Claude-style ❯ menu': [' Do you want to proceed?', ' ❯ 1. Yes', '   2. No'],
    'Qwen/Codex-style › menu': ["Allow execution of: 'echo'?", '› 1. Yes, allow once', '  2. No, suggest changes (esc)'],
    'Gemini-style ● menu in a box': ['│ Allow execution of [Shell]?', '│ ● 1. Allow once', '│   2. Allow for this session'],
  };
  for (const [name, lines] of Object.entries(menus)) {
    it(`${name} → waiting (choice_list, explicit)`, async () => {
      const { cls } = await read(box(['answer text', ...lines]));
      expect(cls).toMatchObject({ verdict: 'waiting', rule: 'generic.choice_list', explicit: true });
    });
  }

  it('a row of choice buttons (no numbers, selection by colour) → waiting', async () => {
    const { cls } = await read(box(['△ Permission required', '$ rm -rf build', '', '  Allow once   Allow always   Reject']));
    expect(cls).toMatchObject({ verdict: 'waiting', rule: 'generic.question_shape' });
  });

  it('y/n keys, "waiting for confirmation", a dialog footer → waiting', async () => {
    for (const q of ['Overwrite main.py? (y/n)', 'Waiting for user confirmation...', '  enter confirm  esc cancel']) {
      const { cls } = await read(box(['some work', q]));
      expect(cls?.verdict, q).toBe('waiting');
    }
  });

  it("an answer's bullet before a numbered list is no selection marker (● only inside a dialog's border)", async () => {
    const { cls } = await read(box(['● 1. Step 1 of the plan: check the inputs.', '  2. Step 2: write the change.', '  3. Step 3: run the tests.']));
    expect(cls?.verdict).not.toBe('waiting');
  });

  it('a numbered list in an answer is no menu (no selection marker); the selected row may hold the cursor', async () => {
    const list = await read(box(['Steps:', '1. Yes, install it', '2. Run the tests']));
    expect(list.cls?.verdict).not.toBe('waiting');
    const onMenu = await read(rows([' Do you want to proceed?', ' ❯ 1. Yes', '   2. No', '', ' Esc to cancel'], [2, 2]));
    expect(onMenu.cls).toMatchObject({ verdict: 'waiting', rule: 'generic.choice_list' });
  });

  it('what the person typed at the cursor is not a question to them', async () => {
    const { cls } = await read(rows(['answer', '', '> should I say (y/n)', '  footer'], [3, 21]));
    expect(cls?.verdict).not.toBe('waiting');
  });

  it('a line-oriented screen: an answered [y/n] above what the program printed next is no question', async () => {
    const answered = await screenOf(['Allow command `rm -rf build`? [y/n] y', 'Approved.', '⠋ Working… (0s · esc to interrupt)'].join('\r\n'));
    expect(classifyGenericTui(answered, ctx(cfg))).toBeNull();
    const boxed = await screenOf(['╭──────────', '│ Run it?', '│ ❯ 1. Yes', '│   2. No', '│ Confirm with Enter, cancel with Esc', '╰──────────'].join('\r\n'));
    expect(classifyGenericTui(boxed, ctx(cfg))).toMatchObject({ verdict: 'waiting', rule: 'generic.choice_list' });
  });

  it('a line-oriented screen: a menu just above the cursor is a question, an old one far above is not', async () => {
    const near = await screenOf(['? Pick one:', '❯ 1. Blue', '  2. Red', ''].join('\r\n'));
    expect(classifyGenericTui(near, ctx(cfg))).toMatchObject({ verdict: 'waiting', rule: 'generic.choice_list' });
    const far = await screenOf(['❯ 1. Blue', '  2. Red', ...Array.from({ length: 14 }, (_, i) => `line ${i}`), '$ '].join('\r\n'));
    expect(classifyGenericTui(far, ctx(cfg))).toBeNull();
  });
});

describe('work and its end', () => {
  const hints = ['⠙ Thinking (3s · esc to cancel)', '■■■⬝⬝⬝  esc interrupt', '✶ Pondering… (esc to interrupt)', 'Working… (Ctrl-C to stop)', 'esc again to interrupt'];
  it.each(hints)('an interrupt hint in a status row near the input box → working: %s', async (hint) => {
    const { cls } = await read(box(['answer so far', hint]));
    expect(cls).toMatchObject({ verdict: 'working', rule: 'generic.interrupt_hint' });
  });

  it('prose naming a key is no status, even next to the input box', async () => {
    const { cls } = await read(box(['Start it with npm run dev; press Ctrl+C to stop the server.']), { fullscreen: 'resting' });
    expect(cls?.verdict).toBe('resting');
  });

  it('an answer quoting a hint far above the input box is no status', async () => {
    const { cls } = await read(box(['Press esc to interrupt the agent.', ...Array.from({ length: 8 }, (_, i) => `more ${i}`)]), { fullscreen: 'resting' });
    expect(cls).toMatchObject({ verdict: 'resting', rule: 'generic.own_frames_stopped' });
  });

  it('own frames animating → working; a spinning title → working; frames stopped → resting; not known yet → unknown', async () => {
    expect((await read(box(['x']), { fullscreen: 'animating' })).cls?.rule).toBe('generic.fullscreen_animating');
    expect((await read(box(['x']), { titleSpinning: true })).cls?.rule).toBe('generic.title_spinner');
    expect((await read(box(['x']), { titleAnimating: true })).cls?.verdict).toBe('unknown');
    expect((await read(box(['x']), { fullscreen: 'resting' })).cls?.verdict).toBe('resting');
    expect((await read(box(['x']), { fullscreen: null })).cls?.rule).toBe('generic.tui_settling');
  });

  it('frames stopped with an error as the last message → failed', async () => {
    for (const e of ['✕ [API Error: 500 Internal Server Error]', '■ unexpected status 400 Bad Request', 'Error: connection refused']) {
      const { cls } = await read(box(['> say hello', e]), { fullscreen: 'resting' });
      expect(cls, e).toMatchObject({ verdict: 'failed', rule: 'generic.error_block' });
    }
    const old = await read(box(['✕ [API Error: 500]', ...Array.from({ length: 8 }, (_, i) => `answer ${i}`)]), { fullscreen: 'resting' });
    expect(old.cls?.verdict).toBe('resting');
  });

  it('the generic program reads a line-oriented screen as a shell line (prompt, question at the cursor)', async () => {
    const snap = await screenOf('$ make\r\nok\r\n$ ');
    expect(classifyWith('generic', snap, ctx(cfg)).rule).toBe('generic.prompt_anchor');
  });
});

describe('auto-detection: a TUI nothing names is read by the generic tier', () => {
  const driver = useDrivers();
  const spinnerTurn = async (d: ReturnType<typeof driver>, from: number): Promise<number> => {
    const end = await d.type(from, 'fix the bug');
    await d.input(end + 0.1, '\r');
    let t = end + 0.2;
    for (let k = 0; k < 40; k++, t += 0.1) await d.out(t, `\x1b[20;1H${'⠋⠙⠹⠸'[k % 4]} Working (${Math.floor(k / 10)}s · esc to interrupt)\x1b[22;4H`);
    await d.out(t, '\x1b[20;1H\x1b[K\x1b[4;1HFixed.\x1b[22;4H');
    return t;
  };

  it('an agent started on its own (no shell prompt ever) → generic, and its turn is RUNNING then DONE', async () => {
    const d = driver();
    await d.out(0.1, rows(['Some Agent v1', '', '', '', '', ''], [1, 1]) + '\x1b[22;1H┃  \x1b[23;1H  ctrl+p commands\x1b[22;4H');
    expect(d.monitor.analyzer.currentProgram).toEqual({ program: 'generic', rule: 'detect.generic.screen' });
    const end = await spinnerTurn(d, 1);
    await d.until(end + 4);
    expect(d.states, d.describe()).toEqual(['RUNNING', 'DONE']);
  });

  it('a shell that showed its prompt keeps its profile when a full-screen program starts', async () => {
    const d = driver();
    await d.out(0.1, '\x1b[?2004hme@host:~$ ');
    await d.type(0.5, 'vim notes');
    await d.input(1.2, '\r');
    await d.out(1.25, '\x1b[?2004l\r\n' + rows(['~', '~', '"notes" 0L'], [1, 1]));
    expect(d.monitor.analyzer.currentProgram.program).toBe('shell');
  });
});

describe("the person's own words are no question to them", () => {
  it('the echo of a prompt with y/n keys or choice words in it is not a question (ctx.prompt)', async () => {
    const prompt = 'add a (y/n) confirmation before Allow   Deny buttons';
    const screen = box(['┃  add a (y/n) confirmation before Allow   Deny buttons', '', 'answer so far', '⠙ Working (esc to interrupt)']);
    expect((await read(screen)).cls?.verdict).toBe('waiting');
    expect((await read(screen, { prompt })).cls).toMatchObject({ verdict: 'working', rule: 'generic.interrupt_hint' });
  });

  const driver = useDrivers();
  it('a turn whose prompt asks for a (y/n) prompt: RUNNING then DONE, never WAITING', async () => {
    const d = driver({ agent: 'generic' });
    await d.out(0.1, rows(['Agent', '', '', ''], [1, 1]) + '\x1b[22;1H┃  \x1b[23;1H  ctrl+p commands\x1b[22;4H');
    const end = await d.type(1, 'add a [y/N] question to setup.sh');
    await d.input(end + 0.1, '\r');
    await d.out(end + 0.12, '\x1b[2;1H┃  add a [y/N] question to setup.sh\x1b[22;4H\x1b[K');
    let t = end + 0.2;
    for (let k = 0; k < 30; k++, t += 0.1) await d.out(t, `\x1b[21;1H${'⠋⠙⠹⠸'[k % 4]} Working (esc to interrupt)\x1b[22;4H`);
    await d.out(t, '\x1b[21;1H\x1b[K\x1b[4;1HAdded the question.\x1b[22;4H');
    await d.until(t + 4);
    expect(d.states, d.describe()).toEqual(['RUNNING', 'DONE']);
  });
});
