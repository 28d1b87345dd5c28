// Per-program screen classifiers on real screens (corpus recordings replayed into a headless terminal up to a
// moment) and on synthetic screens for the known traps in markers.md.
import { describe, expect, it } from 'vitest';
import { loadConfig, type ProgramId } from '../../src/config/config.js';
import { classifyWith, detectProgram } from '../../src/analysis/profiles/index.js';
import { hasWholeWord } from '../../src/analysis/text.js';
import { classifyText } from '../../src/cli/classify.js';
import type { Classification } from '../../src/analysis/types.js';
import type { ProfileContext } from '../../src/analysis/profiles/context.js';
import { ctx, screenAt, screenOf, type ScreenCase } from '../helpers/screen.js';

const cfg = loadConfig();

interface Case extends ScreenCase {
  ctx?: Partial<Omit<ProfileContext, 'cfg'>>;
}

async function classifyAt(program: ProgramId, c: Case): Promise<{ cls: Classification; text: string }> {
  const { snap, bracketedPasteSeen } = await screenAt(c.rec, c.t);
  const cls = classifyWith(program, snap, ctx(cfg, { bracketedPasteSeen, ...c.ctx }));
  return { cls, text: [...snap.lines, `title: ${snap.title}`].join('\n') };
}

function table(program: ProgramId, cases: Record<string, Case>): void {
  for (const [name, c] of Object.entries(cases)) {
    it(`${name} (${c.rec} @ ${c.t}s) → ${c.verdict} ${c.rule}`, async () => {
      const { cls, text } = await classifyAt(program, c);
      const why = `${c.rec} @ ${c.t}s classified ${cls.verdict} ${cls.rule} "${cls.line}"\n${text}`;
      if (c.shows) expect(text, `the screen should show ${c.shows}`).toMatch(c.shows);
      expect({ verdict: cls.verdict, rule: cls.rule }, why).toEqual({ verdict: c.verdict, rule: c.rule });
      if (c.explicit !== undefined) expect(cls.explicit, why).toBe(c.explicit);
      if (c.line) expect(cls.line, why).toMatch(c.line);
      expect(cls.program).toBe(program);
    });
  }
}

describe('claude (real screens)', () => {
  table('claude', {
    'at rest, empty input box': { rec: 'claude-idle-startup', t: 6, verdict: 'ready', rule: 'claude.input_box', explicit: false, shows: /\? for shortcuts/ },
    'typed but not sent is still at rest': { rec: 'claude-quick-answer', t: 3.5, verdict: 'ready', rule: 'claude.input_box', line: /What is the capital of France\?/ },
    'running: spinner + esc to interrupt': {
      rec: 'claude-quick-answer',
      t: 5,
      verdict: 'working',
      rule: 'claude.working_marker',
      explicit: false,
      line: /esc to interrupt/,
      shows: /^[·✢✳✶✻✽*] \S+…/m,
    },
    'running: long thinking': { rec: 'claude-long-thinking', t: 25, verdict: 'working', rule: 'claude.working_marker' },
    'running: retrying after 429': { rec: 'claude-error-429-recovers', t: 8, verdict: 'working', rule: 'claude.working_marker' },
    'approval menu': { rec: 'claude-approval', t: 9, verdict: 'waiting', rule: 'claude.approval_menu', explicit: true, shows: /Do you want to proceed\?/ },
    'question dialog (AskUserQuestion)': { rec: 'claude-ask-user-question', t: 9, verdict: 'waiting', rule: 'claude.approval_menu', explicit: true, shows: /Enter to select/ },
    'running again after the approval': { rec: 'claude-approval', t: 14.5, verdict: 'working', rule: 'claude.working_marker' },
    'done line': { rec: 'claude-quick-answer', t: 10, verdict: 'ready', rule: 'claude.done_marker', explicit: true, line: /^✻ \p{L}+ for \d+s · done/u },
    'done after an approval': { rec: 'claude-approval', t: 20, verdict: 'ready', rule: 'claude.done_marker', explicit: true },
    'API error': { rec: 'claude-error-500', t: 10, verdict: 'failed', rule: 'claude.api_error', explicit: true, line: /^● API Error: 500/ },
    interrupted: { rec: 'claude-interrupt', t: 14, verdict: 'ready', rule: 'claude.interrupted', explicit: true, line: /Interrupted/ },
  });
});

describe('codex (real screens)', () => {
  table('codex', {
    'at rest: placeholder composer (no explicit marker)': { rec: 'codex-idle-startup', t: 6, verdict: 'ready', rule: 'codex.composer', explicit: false },
    'working: status line': { rec: 'codex-quick-answer', t: 7.25, verdict: 'working', rule: 'codex.working_marker', line: /^• Working \(\d+s • esc to interrupt\)/ },
    'working: reasoning summary, silent backend': { rec: 'codex-long-thinking', t: 30, verdict: 'working', rule: 'codex.working_marker', line: /I need to think/ },
    'streaming answer (status gone) with the title spinner animating': {
      rec: 'codex-quick-answer',
      t: 8,
      verdict: 'working',
      rule: 'codex.title_spinner',
      ctx: { titleAnimating: true },
    },
    'approval menu': { rec: 'codex-approval', t: 12, verdict: 'waiting', rule: 'codex.approval_menu', explicit: true, shows: /Would you like to run the following command\?/ },
    done: { rec: 'codex-quick-answer', t: 15, verdict: 'ready', rule: 'codex.done_marker', explicit: true, line: /^Worked for \d+s/ },
    'done after an approval': { rec: 'codex-approval', t: 25, verdict: 'ready', rule: 'codex.done_marker', explicit: true },
    error: { rec: 'codex-error-429', t: 10, verdict: 'failed', rule: 'codex.error', explicit: true, line: /^■ exceeded retry limit/ },
    interrupted: { rec: 'codex-interrupt', t: 15, verdict: 'ready', rule: 'codex.interrupted', explicit: true, line: /^■ Conversation interrupted/ },
  });
});

describe('gemini (real screens)', () => {
  table('gemini', {
    'ready (title)': { rec: 'gemini-idle-startup', t: 6, verdict: 'ready', rule: 'gemini.title_ready', explicit: true, shows: /Type your message/ },
    working: { rec: 'gemini-quick-answer', t: 7, verdict: 'working', rule: 'gemini.working_marker', line: /\(esc to cancel, \d+s\)/ },
    'working: long thought': { rec: 'gemini-long-thinking', t: 25, verdict: 'working', rule: 'gemini.working_marker' },
    'approval menu': { rec: 'gemini-approval', t: 10, verdict: 'waiting', rule: 'gemini.approval_menu', explicit: true, shows: /Allow execution of/ },
    'API error': { rec: 'gemini-error-400', t: 10, verdict: 'failed', rule: 'gemini.api_error', explicit: true },
    cancelled: { rec: 'gemini-interrupt', t: 15, verdict: 'ready', rule: 'gemini.cancelled', explicit: true, line: /^ℹ Request cancelled\./ },
    'ready after an answer': { rec: 'gemini-quick-answer', t: 12, verdict: 'ready', rule: 'gemini.title_ready' },
  });

  it('without a title, the live input box alone reads as ready', async () => {
    const { snap } = await screenAt('gemini-idle-startup', 6);
    const cls = classifyWith('gemini', { ...snap, title: '' }, ctx(cfg));
    expect([cls.verdict, cls.rule]).toEqual(['ready', 'gemini.input_box']);
  });

  it('the approval menu wins over a title still saying Working', async () => {
    const { snap } = await screenAt('gemini-approval', 10);
    const cls = classifyWith('gemini', { ...snap, title: '✦  Working… (dir)' }, ctx(cfg));
    expect([cls.verdict, cls.rule]).toEqual(['waiting', 'gemini.approval_menu']);
  });
});

describe('shell (real screens)', () => {
  table('shell', {
    'bash prompt with bracketed paste on': {
      rec: 'shell-bash-plain',
      t: 2,
      verdict: 'ready',
      rule: 'shell.prompt_bracketed_paste',
      explicit: true,
      line: /^\$$/,
    },
    'a command running (bracketed paste off)': { rec: 'shell-bash-plain', t: 6, verdict: 'working', rule: 'shell.command_running' },
    'a failed command back at the prompt': { rec: 'shell-bash-plain', t: 25, verdict: 'failed', rule: 'shell.failure_line', line: /No such file or directory/ },
    'an older failure above the last command is not read': { rec: 'shell-bash-osc133', t: 12, verdict: 'ready', rule: 'shell.prompt_bracketed_paste' },
    'python >>> ': { rec: 'shell-python-repl', t: 5, verdict: 'ready', rule: 'shell.repl_prompt', line: /^>>>$/, ctx: { foregroundPrompted: true } },
    'python ... continuation': { rec: 'shell-python-repl', t: 31.6, verdict: 'ready', rule: 'shell.repl_continuation', line: /^\.\.\.$/, ctx: { foregroundPrompted: true } },
    'python traceback at >>> ': { rec: 'shell-python-repl', t: 48, verdict: 'failed', rule: 'shell.failure_line', line: /^ZeroDivisionError/, ctx: { foregroundPrompted: true } },
    'y/N prompt': { rec: 'shell-yes-no-prompt', t: 8, verdict: 'waiting', rule: 'shell.yes_no_prompt', explicit: true, line: /Proceed\? \[y\/N\]/ },
    'Y/n prompt': { rec: 'shell-yes-no-prompt', t: 16, verdict: 'waiting', rule: 'shell.yes_no_prompt', line: /\[Y\/n\]/ },
    'Press Enter to continue': { rec: 'shell-yes-no-prompt', t: 26, verdict: 'waiting', rule: 'shell.yes_no_prompt', line: /Press Enter/ },
    'progress bar': { rec: 'shell-progress-bar', t: 12, verdict: 'working', rule: 'shell.command_running', line: /%/ },
    spinner: { rec: 'shell-spinner', t: 12, verdict: 'working', rule: 'shell.command_running', line: /^[⠁-⣿] / },
    'a silent job': { rec: 'shell-silent-long-job', t: 15, verdict: 'working', rule: 'shell.command_running' },
  });
});

describe('generic (real screens, no bracketed-paste hint)', () => {
  table('generic', {
    'bash prompt: ready, but not explicit': { rec: 'shell-bash-plain', t: 2, verdict: 'ready', rule: 'generic.prompt_anchor', explicit: false },
    'python >>> ': { rec: 'shell-python-repl', t: 5, verdict: 'ready', rule: 'generic.repl_prompt' },
    'y/N prompt': { rec: 'shell-yes-no-prompt', t: 8, verdict: 'waiting', rule: 'generic.yes_no_prompt', explicit: true },
    'progress bar': { rec: 'shell-progress-bar', t: 12, verdict: 'working', rule: 'generic.spinner' },
    spinner: { rec: 'shell-spinner', t: 12, verdict: 'working', rule: 'generic.spinner' },
    'a silent job is not at rest': { rec: 'shell-silent-long-job', t: 15, verdict: 'unknown', rule: 'generic.empty_cursor_row' },
    'a traceback back at >>> ': { rec: 'shell-python-repl', t: 48, verdict: 'failed', rule: 'generic.failure_line' },
  });
});

describe('program detection from a real screen', () => {
  for (const [rec, program] of [
    ['claude-idle-startup', 'claude'],
    ['codex-idle-startup', 'codex'],
    ['gemini-idle-startup', 'gemini'],
  ] as const) {
    it(`${rec} → ${program}`, async () => {
      const { snap } = await screenAt(rec, 6);
      expect(detectProgram(cfg, { title: snap.title, lines: snap.lines })?.program).toBe(program);
    });
  }

  it('a bash prompt is no agent', async () => {
    const { snap } = await screenAt('shell-bash-plain', 2);
    expect(detectProgram(cfg, { title: snap.title, lines: snap.lines })).toBeNull();
  });

  it('process names are matched exactly', () => {
    expect(detectProgram(cfg, { process: 'claude' })?.program).toBe('claude');
    expect(detectProgram(cfg, { process: 'bash' })?.program).toBe('shell');
    expect(detectProgram(cfg, { process: 'python3.11' })?.program).toBe('shell');
    expect(detectProgram(cfg, { process: 'sleep' })?.program).toBe('generic');
    expect(detectProgram(cfg, { process: 'claudette' })?.program).toBe('generic');
  });
});

// ---- Known traps (markers.md) ----------------------------------------------------------------------------

const RULE = '─'.repeat(60);
const CLAUDE_BOX = [RULE, '❯ ', RULE, '  ? for shortcuts'];
const claude = (rows: string[]) => classifyText(rows.join('\n'), cfg, 'claude');
const codex = (rows: string[]) => classifyText(rows.join('\n'), cfg, 'codex');
const GEM_BOX = ['▄'.repeat(60), ' >   Type your message or @path/to/file', '▀'.repeat(60), ' ~/p   no sandbox   gemini-2.5-pro'];
const gemEcho = (text: string) => ['▄'.repeat(60), ` > ${text}`, '▀'.repeat(60)];

describe('trap: old markers in scrollback above the live edge do not decide', () => {
  it('claude: an old spinner, esc to interrupt and API error above the last prompt; the current turn is done', async () => {
    const cls = await claude([
      '❯ first question',
      '● API Error: 500 Internal server error',
      '✶ Pondering… (3s · ↓ 10 tokens)',
      '  ⏸ manual mode on · esc to interrupt',
      '❯ second question',
      '',
      '● Paris.',
      '',
      '✻ Cooked for 3s · done 12:07 AM',
      '',
      ...CLAUDE_BOX,
    ]);
    expect([cls.verdict, cls.rule]).toEqual(['ready', 'claude.done_marker']);
  });

  it('claude: an old done line and API error above; the current turn is running', async () => {
    const cls = await claude([
      '❯ first',
      '● Paris.',
      '✻ Cooked for 3s · done 12:07 AM',
      '● API Error: 500 Internal server error',
      '❯ second',
      '',
      '✶ Pondering… (5s · ↓ 10 tokens)',
      '',
      RULE,
      '❯ ',
      RULE,
      '  ⏸ manual mode on · esc to interrupt',
    ]);
    expect([cls.verdict, cls.rule]).toEqual(['working', 'claude.working_marker']);
  });

  it('claude: an old API error above; the current turn answered and is at rest', async () => {
    const cls = await claude(['❯ first', '● API Error: 500 boom', '❯ second', '', '● Hello.', '', ...CLAUDE_BOX]);
    expect(cls.verdict).toBe('ready');
  });

  it('claude: an old answer quoting "esc to interrupt" above the last prompt', async () => {
    const cls = await claude(['❯ how do I stop you?', '', '● Press Esc: the footer says "esc to interrupt".', '', '❯ thanks', '', '● You are welcome.', '', ...CLAUDE_BOX]);
    expect(cls.verdict).toBe('ready');
  });

  it('claude: the current answer quoting "esc to interrupt" above its own done line is not working', async () => {
    // markers.md, Known traps: "an answer that quotes 'esc to interrupt' flip[s] the state".
    const cls = await claude(['❯ how do I stop you?', '', '● Press Esc: the footer says "esc to interrupt".', '', '✻ Cooked for 3s · done 12:07 AM', '', ...CLAUDE_BOX]);
    expect([cls.verdict, cls.rule]).toEqual(['ready', 'claude.done_marker']);
  });

  it('codex: an old "Worked for" line above the last prompt while the next turn works', async () => {
    const cls = await codex(['› first', '', '• Paris.', '', '  Worked for 3s • 00:05', '', '› second', '', '• Working (2s • esc to interrupt)', '', '› Ask Codex to do anything', '', '  gpt · ~/p']);
    expect([cls.verdict, cls.rule]).toEqual(['working', 'codex.working_marker']);
  });

  it('codex: an old "Worked for" line is no done marker for a turn still streaming its answer', async () => {
    const cls = await codex(['› first', '', '• Paris.', '', '  Worked for 3s • 00:05', '', '› second', '', '• Streaming the answer to the second', '', '› Ask Codex to do anything']);
    expect(cls.rule).not.toBe('codex.done_marker');
    expect(cls.explicit).toBe(false);
  });

  it('codex: an old error and old status line above; the current turn is done', async () => {
    const cls = await codex([
      '› first',
      '• Working (2s • esc to interrupt)',
      '■ exceeded retry limit, last status: 429 Too Many Requests',
      '',
      '› second',
      '',
      '• Hi.',
      '',
      '  Worked for 1s • 00:01',
      '',
      '› Ask Codex to do anything',
    ]);
    expect([cls.verdict, cls.rule]).toEqual(['ready', 'codex.done_marker']);
  });

  it('gemini: an old API error and spinner above the last prompt box; the current answer is in', async () => {
    const rows = [
      '',
      ...gemEcho('first'),
      '✕ [API Error: 400 bad request]',
      'ℹ This request failed. Press F12 for diagnostics',
      '⠼ Thinking... (esc to cancel, 6s)',
      ...gemEcho('second'),
      '',
      '✦ Hello there.',
      '',
      ...GEM_BOX,
    ];
    const cls = await classifyText(rows.join('\n'), cfg, 'gemini');
    expect(cls.verdict).toBe('ready');
  });

  it('gemini: an old cancellation above; the current turn failed', async () => {
    const rows = ['', ...gemEcho('first'), 'ℹ Request cancelled.', ...gemEcho('second'), '✕ [API Error: 400 bad request]', '', ...GEM_BOX];
    const cls = await classifyText(rows.join('\n'), cfg, 'gemini');
    expect([cls.verdict, cls.rule]).toEqual(['failed', 'gemini.api_error']);
  });

  it('shell: an old failure above the last command is not this command’s failure', async () => {
    const snap = await screenOf("\x1b[?2004h$ ls /nope\r\nls: cannot access '/nope': No such file or directory\r\n$ ls\r\na  b\r\n$ ");
    const cls = classifyWith('shell', snap, ctx(cfg, { bracketedPasteSeen: true }));
    expect([cls.verdict, cls.rule]).toEqual(['ready', 'shell.prompt_bracketed_paste']);
  });

  it('shell: an old spinner line above the prompt does not make it working', async () => {
    const snap = await screenOf('$ make\r\n⠙ building (3s)\r\nbuilt.\r\n$ ');
    for (const p of ['shell', 'generic'] as const) expect(classifyWith(p, snap, ctx(cfg)).verdict).toBe('ready');
  });
});

describe('markers.md facts: retries are working, a quota menu is waiting', () => {
  it('claude: "500 Internal server error · retrying in 9s · attempt 5/10" is still working', async () => {
    const cls = await claude(['❯ hello', '', '✻ 500 Internal server error · retrying in 9s · attempt 5/10', '', RULE, '❯ ', RULE, '  ⏸ manual mode on · esc to interrupt']);
    expect(cls.verdict).toBe('working');
  });

  it('codex: "• Reconnecting... 2/5 (6s • esc to interrupt)" is working', async () => {
    const cls = await codex(['› hello', '', '• Reconnecting... 2/5 (6s • esc to interrupt)', '', '› Ask Codex to do anything']);
    expect([cls.verdict, cls.rule]).toEqual(['working', 'codex.working_marker']);
  });

  it('gemini: "Usage limit reached" with "1. Keep trying" waits for the person while the title still says Working', async () => {
    const rows = ['', ...gemEcho('hello'), '', '╭────────────────────────────────────╮', '│ Usage limit reached for gemini-2.5-pro. │', '│ ● 1. Keep trying                   │', '│   2. Stop                          │', '╰────────────────────────────────────╯', '', ' ~/p   no sandbox   gemini-2.5-pro'];
    const cls = await classifyText(rows.join('\n'), cfg, 'gemini', '✦  Working… (p)');
    expect([cls.verdict, cls.explicit]).toEqual(['waiting', true]);
  });
});

describe('trap: completion tokens are whole words', () => {
  const tokens = cfg.patterns.generic.completion_tokens;
  it('INCOMPLETE is not complete, already is not ready, undone is not done', () => {
    expect(hasWholeWord('Build INCOMPLETE', tokens)).toBeNull();
    expect(hasWholeWord('Already up to date.', tokens)).toBeNull();
    expect(hasWholeWord('3 changes undone', tokens)).toBeNull();
    expect(hasWholeWord('unfinished business', tokens)).toBeNull();
    expect(hasWholeWord('exit code 01', tokens)).toBeNull();
  });

  it('whole words match, in any case', () => {
    expect(hasWholeWord('Build complete.', tokens)).toBe('complete');
    expect(hasWholeWord('READY', tokens)).toBe('ready');
    expect(hasWholeWord('all done!', tokens)).toBe('done');
    expect(hasWholeWord('process finished with exit code 0', tokens)).not.toBeNull();
  });

  it('negated completions are blocked by the negative patterns', () => {
    const neg = cfg.patterns.generic.negative;
    for (const l of ['build incomplete', 'job unfinished', 'server not ready']) expect(neg.some((n) => n.test(l)), l).toBe(true);
    expect(neg.some((n) => n.test('Build complete'))).toBe(false);
  });

  it('"not complete" / "not finished" / "not done" (with a space) are negated completions too', () => {
    // hasWholeWord finds "complete" in "Task not complete": only the negative patterns stand between it and DONE.
    const neg = cfg.patterns.generic.negative;
    for (const l of ['Task not complete', 'Migration not finished', 'not done yet']) expect(neg.some((n) => n.test(l)), l).toBe(true);
  });

  it('a row with "INCOMPLETE" or "already" at the cursor is not read as at rest', async () => {
    for (const text of ['Build INCOMPLETE', 'Already up to date.']) {
      const snap = await screenOf(text);
      for (const p of ['shell', 'generic'] as const) expect(classifyWith(p, snap, ctx(cfg)).verdict, `${p}: ${text}`).not.toBe('ready');
    }
  });
});

describe('trap: "Processing..." at the cursor is not a prompt', () => {
  for (const text of ['Processing...', 'working\r\nProcessing... ', 'Loading...>', '⠋ building> ']) {
    it(JSON.stringify(text), async () => {
      const snap = await screenOf(text);
      for (const p of ['shell', 'generic'] as const) expect(classifyWith(p, snap, ctx(cfg)).verdict, p).not.toBe('ready');
    });
  }

  it('while "... " alone is the Python continuation prompt', async () => {
    const snap = await screenOf('>>> def f():\r\n... ');
    expect(classifyWith('generic', snap, ctx(cfg)).rule).toBe('generic.repl_continuation');
  });
});

describe('trap: a "?" or ":" line is a question only where the cursor waits', () => {
  for (const text of ['Continue?\r\nworking on it\r\n', 'Enter the path:\r\n', 'Proceed?\r\n\r\nstep 2 of 3', 'Is it done? yes']) {
    it(`not a question: ${JSON.stringify(text)}`, async () => {
      const snap = await screenOf(text);
      for (const p of ['shell', 'generic'] as const) expect(classifyWith(p, snap, ctx(cfg)).verdict, p).not.toBe('waiting');
      // while a shell command runs (bracketed paste seen, now off) it is still just running
      expect(classifyWith('shell', snap, ctx(cfg, { bracketedPasteSeen: true })).verdict).toBe('working');
    });
  }

  for (const text of ['Enter your name: ', 'Really delete everything? ']) {
    it(`a question at the cursor: ${JSON.stringify(text)} (weak: it must also wait out the quiet window)`, async () => {
      const snap = await screenOf(`installing\r\n${text}`);
      for (const p of ['shell', 'generic'] as const) {
        const cls = classifyWith(p, snap, ctx(cfg));
        expect([cls.verdict, cls.weak], p).toEqual(['waiting', true]);
      }
    });
  }

  it('claude: "Interrupted · What should Claude do instead?" reads like a question but is back at the prompt', async () => {
    const cls = await claude(['❯ write an essay', '', '  ⎿  Interrupted · What should Claude do instead?', '', ...CLAUDE_BOX]);
    expect([cls.verdict, cls.rule]).toEqual(['ready', 'claude.interrupted']);
  });
});

describe('trap: a progress bar is working, never waiting', () => {
  for (const text of [
    'dataset.tar.gz [=========>          ]  45%  12.3 MB/s  ETA 8s',
    '[#####     ] 50% eta:',
    'Downloading 45% ... continue?',
    '██████░░░░ 60%',
    'Progress: 3.2 MiB/s',
  ]) {
    it(JSON.stringify(text), async () => {
      const snap = await screenOf(`$ fetch\r\n${text}`);
      for (const p of ['shell', 'generic'] as const) expect(classifyWith(p, snap, ctx(cfg)).verdict, p).toBe('working');
      expect(classifyWith('shell', snap, ctx(cfg, { bracketedPasteSeen: true })).verdict).toBe('working');
    });
  }
});
