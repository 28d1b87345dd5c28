// The choices a waiting pane offers, read from its live edge (src/analysis/question-options.ts through
// src/daemon/pane-question.ts): real recordings replayed through the whole pipeline (real @xterm/headless, the
// analyzer, the state machine, virtual time) up to the moment the person answered, and screens written as bytes.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config.js';
import { virtualPane } from '../../src/daemon/replay.js';
import { paneQuestion } from '../../src/daemon/pane-question.js';
import { readQuestion } from '../../src/analysis/question-options.js';
import type { Question } from '../../src/analysis/question-options.js';
import { castPath, loadCast, screenOf } from '../helpers/screen.js';

const cfg = loadConfig();

/** The recording replayed up to just before the person's first key in its first WAITING_APPROVAL stretch. */
async function askedIn(name: string): Promise<{ state: string; program: string; question: Question | null }> {
  const truth = JSON.parse(readFileSync(join(castPath(name), '..', 'truth.json'), 'utf8')) as { segments: Array<{ start: number; end: number; state: string }> };
  const seg = truth.segments.find((s) => s.state === 'WAITING_APPROVAL')!;
  const cast = loadCast(name);
  const answer = cast.events.find((e) => e.code === 'i' && e.t > seg.start);
  const T = Math.min(seg.end, answer?.t ?? Infinity) - 0.02;
  const { clock, monitor } = virtualPane({ cfg, cols: cast.header.width, rows: cast.header.height, agent: 'auto' });
  try {
    for (const e of cast.events) {
      if (e.t > T) break;
      if (e.code === 'o') monitor.handle({ kind: 'output', t: e.t, data: e.data });
      else if (e.code === 'i') monitor.handle({ kind: 'input', t: e.t, data: e.data });
      else continue;
      await monitor.flush();
    }
    clock.advanceTo(T * 1000);
    await monitor.flush();
    const program = monitor.analyzer.currentProgram.program;
    return { state: monitor.state.state, program, question: paneQuestion(monitor, program, cfg) };
  } finally {
    monitor.stop();
  }
}

const pick = (q: Question | null) => q?.options.map((o) => [o.id, o.label, o.keys]);

describe('question options read from real recordings at the waiting moment', () => {
  it('Claude Code: its numbered permission menu, picked by the digit alone', async () => {
    const r = await askedIn('claude-approval-esc');
    expect(r).toMatchObject({ state: 'WAITING_APPROVAL', program: 'claude' });
    expect(r.question!.text).toBe('Do you want to proceed?');
    expect(pick(r.question)!.map(([id, , keys]) => [id, keys])).toEqual([['1', '1'], ['2', '2'], ['3', '3'], ['4', '4']]);
    expect(r.question!.options[0]!.label).toBe('Yes');
    expect(r.question!.options[3]!.label).toBe('No');
    // A label wrapped onto the next row is joined (the path is the option's, not a row of its own).
    expect(r.question!.options[1]!.label).toMatch(/^Yes, and always allow access to \/\S+\/project from this project$/);
  });

  it("Claude Code's question tool: a rule before its last choice, descriptions under the labels not part of them", async () => {
    const r = await askedIn('claude-ask-user-question');
    expect(r).toMatchObject({ state: 'WAITING_APPROVAL', program: 'claude' });
    expect(r.question).toEqual({
      text: 'Which color should the logo use?',
      options: [
        { id: '1', label: 'Blue', keys: '1' },
        { id: '2', label: 'Orange', keys: '2' },
        { id: '3', label: 'Type something.', keys: '3' },
        { id: '4', label: 'Chat about this', keys: '4' },
      ],
    });
  });

  it('Codex: its approval list, digits pick (the list takes them), the labels keep their key hints', async () => {
    const r = await askedIn('codex-hooks-approval');
    expect(r).toMatchObject({ state: 'WAITING_APPROVAL', program: 'codex' });
    expect(pick(r.question)).toEqual([
      ['1', 'Yes, proceed (y)', '1'],
      ['2', "Yes, and don't ask again for commands that start with `ls -la` (p)", '2'],
      ['3', 'No, and tell Codex what to do differently (esc)', '3'],
    ]);
  });

  it('Gemini CLI and Qwen Code: the radio list with its question', async () => {
    const g = await askedIn('gemini-approval-esc');
    expect(g).toMatchObject({ state: 'WAITING_APPROVAL', program: 'gemini' });
    expect(g.question).toEqual({
      text: 'Allow execution of [Shell]?',
      options: [
        { id: '1', label: 'Allow once', keys: '1' },
        { id: '2', label: 'Allow for this session', keys: '2' },
        { id: '3', label: 'No, suggest changes (esc)', keys: '3' },
      ],
    });
    const q = await askedIn('qwen-approval');
    expect(q).toMatchObject({ state: 'WAITING_APPROVAL', program: 'qwen' });
    expect(q.question!.text).toBe("Allow execution of: 'echo'?");
    expect(pick(q.question)!.map(([id, label]) => [id, label])).toEqual([
      ['1', 'Yes, allow once'],
      ['2', "Always allow run 'echo *' commands in this project"],
      ['3', "Always allow run 'echo *' commands for this user"],
      ['4', 'No, suggest changes (esc)'],
    ]);
  });

  it('opencode and Kilo: the row of buttons, → from the first, key hints after it left out', async () => {
    for (const name of ['opencode-approval', 'kilo-approval']) {
      const r = await askedIn(name);
      expect(r.state).toBe('WAITING_APPROVAL');
      expect(pick(r.question)).toEqual([
        ['1', 'Allow once', 'Enter'],
        ['2', 'Allow always', '→ Enter'],
        ['3', 'Reject', '→ → Enter'],
      ]);
    }
  });

  it("a shell's line questions: [y/N] with its default, (yes/no/[fingerprint]), git's [y,n,q,a,d,e,?], typed as lines", async () => {
    const yn = await askedIn('shell-yes-no-prompt');
    expect(yn).toMatchObject({ state: 'WAITING_APPROVAL', program: 'shell' });
    expect(yn.question).toEqual({
      text: 'Proceed? [y/N]',
      options: [
        { id: 'y', label: 'Yes', keys: 'y Enter' },
        { id: 'n', label: 'No (default)', keys: 'n Enter' },
      ],
    });
    const ssh = await askedIn('shell-ask-ssh-hostkey');
    expect(pick(ssh.question)).toEqual([
      ['yes', 'Yes', 'yes Enter'],
      ['no', 'No', 'no Enter'],
    ]);
    const git = await askedIn('shell-ask-git-add-p');
    expect(git.question!.text).toBe('(1/1) Stage this hunk [y,n,q,a,d,e,?]?');
    expect(git.question!.options.map((o) => o.id)).toEqual(['y', 'n', 'q', 'a', 'd', 'e']);
    // A question for free text has no choices to offer.
    expect((await askedIn('shell-ask-password')).question).toBeNull();
  });
});

/** The question on a screen written as bytes (real xterm), for the program given. */
async function onScreen(bytes: string, program: string): Promise<Question | null> {
  const snap = await screenOf(bytes, 80, 24);
  const rows = snap.lines.slice(0, snap.cursorY + 1);
  return readQuestion({ program, rows, cursorLine: snap.lines[snap.cursorY]!, cols: 80 }, cfg.patterns.questions, cfg.actions);
}

describe('question options on written screens', () => {
  it("bash select's #? menu: the number, then Enter", async () => {
    const q = await onScreen('$ ./pick.sh\r\nWhich environment?\r\n1) staging\r\n2) production\r\n3) quit\r\n#? ', 'shell');
    expect(q).toEqual({
      text: 'Which environment?',
      options: [
        { id: '1', label: 'staging', keys: '1 Enter' },
        { id: '2', label: 'production', keys: '2 Enter' },
        { id: '3', label: 'quit', keys: '3 Enter' },
      ],
    });
  });

  it('a numbered list with no selection marker and no prompt of its own is an answer, not a menu', async () => {
    expect(await onScreen('Steps:\r\n1. install\r\n2. build\r\n$ ', 'shell')).toBeNull();
  });

  it('Press Enter to continue: one option, Enter', async () => {
    expect(await onScreen('Installed 3 packages.\r\nPress Enter to continue', 'shell')).toEqual({
      text: 'Press Enter to continue',
      options: [{ id: 'enter', label: 'Continue', keys: 'Enter' }],
    });
  });

  it('a TUI that takes no digits: arrows from the selected row, up or down, then Enter', async () => {
    const q = await onScreen(' Run this command?\r\n   1. Run once\r\n › 2. Always run\r\n   3. Deny\r\n', 'crush');
    expect(pick(q)).toEqual([
      ['1', 'Run once', '↑ Enter'],
      ['2', 'Always run', 'Enter'],
      ['3', 'Deny', '↓ Enter'],
    ]);
    expect(q!.text).toBe('Run this command?');
  });

  it('a digit menu past nine options is answered with arrows', async () => {
    const rows = Array.from({ length: 11 }, (_, i) => `${i === 0 ? '❯' : ' '} ${i + 1}. model ${i + 1}`).join('\r\n');
    const q = await onScreen(`Pick a model?\r\n${rows}\r\n`, 'claude');
    expect(q!.options).toHaveLength(11);
    expect(q!.options[10]).toEqual({ id: '11', label: 'model 11', keys: '↓ ↓ ↓ ↓ ↓ ↓ ↓ ↓ ↓ ↓ Enter' });
  });
});
