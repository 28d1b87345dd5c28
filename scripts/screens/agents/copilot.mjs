// GitHub Copilot CLI (`copilot`, closed source). What it draws, from its issues and other supervisors' detectors
// (docs/agents.md, "GitHub Copilot CLI"): an inline TUI on the main screen; the input row "❯ Type @ to mention
// files …" between two rules and a status bar with "shift+tab switch mode" and "Remaining reqs.: N%"; while it
// works a row "◉ Thinking (Esc to cancel · 668 B)" whose first glyph cycles through ◎ ○ ◉ ● (newer builds: "◉
// <activity> esc cancel"; shuntaka9576/agentoast src-tauri/src/sessions/agents/copilot.rs); a command asks in a box
// "Do you want to run this command?" with "❯ 1. Yes", "2. Yes, and approve `sed` for the rest of the running
// session", "3. No, and tell Copilot what to do differently (Esc)" (github/copilot-cli issue 757) and "Confirm
// with number keys or ↑↓ keys and Enter, Cancel with Esc" (kbwo/ccmanager github-copilot.ts: "confirm with .+
// enter"). The glyph cadence (120 ms) and the answer's "●" bullet are assumptions.
import { Script, dim, fg, pad, typePrompt } from '../screen-script.mjs';

const COLS = 100;
const ROWS = 30;
const GLYPHS = ['◎', '○', '◉', '●'];

function liveRows(st) {
  const rows = [];
  if (st.working) rows.push(`${fg(141, st.working.glyph)} ${st.working.label} ${dim(`(Esc to cancel · ${st.working.bytes} B)`)}`, '');
  rows.push(dim('─'.repeat(COLS)), `${fg(141, '❯')} ${st.text || dim('Type @ to mention files, # for issues/PRs, / for commands, or ? for shortcuts')}`, dim('─'.repeat(COLS)));
  rows.push(pad(dim(' shift+tab switch mode'), COLS - 22) + dim('Remaining reqs.: 98%'));
  return rows;
}

function session(name, scenario, body) {
  const s = new Script({ cols: COLS, rows: ROWS, source: 'copilot (GitHub Copilot CLI, closed source; frame script from its issues and peers\' detectors)', scenario, seed: 13 });
  const st = { working: null, text: '' };
  const draw = (above = []) => {
    const rows = liveRows(st);
    s.live(rows, { above, cursor: st.working ? null : [rows.length - 3, 2 + [...st.text].length], hideCursor: !!st.working });
  };
  s.at(0.6);
  draw([` ${fg(141, 'GitHub Copilot')} v0.0.354`, dim(' Describe a task to get started.'), '']);
  body(s, st, draw);
  return { name, script: s };
}

function submit(s, st, draw, prompt) {
  const enter = typePrompt(s, st, draw, prompt);
  st.working = { glyph: GLYPHS[0], label: 'Thinking', bytes: 0 };
  draw([`${dim('>')} ${prompt}`, '']);
  return enter;
}

function work(s, st, draw, seconds, label) {
  s.animate(seconds, 0.12, (i) => {
    st.working = { glyph: GLYPHS[i % 4], label, bytes: (st.working?.bytes ?? 0) + 37 };
    draw();
  });
}

function done(s, st, draw, answer) {
  s.truth('turn_complete', { source: 'script: the final answer was printed' });
  s.wait(0.05);
  st.working = null;
  draw([`${fg(141, '●')} ${answer[0]}`, ...answer.slice(1).map((l) => `  ${l}`), '']);
}

export const scenarios = [
  session('copilot-turn', 'One prompt; 3 s of "◉ Thinking (Esc to cancel · N B)"; the answer; the input row back; 6 s rest.', (s, st, draw) => {
    submit(s, st, draw, 'what does the Makefile build');
    work(s, st, draw, 3, 'Thinking');
    done(s, st, draw, ['It builds the server binary into bin/ and the web assets into dist/.']);
    s.wait(6);
  }),
  session('copilot-approval', 'One prompt; 2 s thinking; "Do you want to run this command?" with a numbered menu waits 4 s, still; Enter on "1. Yes"; 1.5 s running; the answer; 6 s rest.', (s, st, draw) => {
    submit(s, st, draw, 'run the linter');
    work(s, st, draw, 2, 'Thinking');
    s.truth('approval_requested', { source: 'script: the tool call needs permission' });
    st.working = null;
    const w = COLS - 2;
    const row = (t) => `│ ${pad(t, w - 2)}│`;
    s.live(
      [
        `╭${'─'.repeat(w - 1)}╮`,
        row('Run command'),
        row(''),
        row(fg(250, 'npm run lint')),
        row(dim('Runs the project\'s linter')),
        row(''),
        row('Do you want to run this command?'),
        row(''),
        row(`${fg(141, '❯ 1. Yes')}`),
        row('  2. Yes, and approve `npm` for the rest of the running session'),
        row('  3. No, and tell Copilot what to do differently (Esc)'),
        row(''),
        row(dim('Confirm with number keys or ↑↓ keys and Enter, Cancel with Esc')),
        `╰${'─'.repeat(w - 1)}╯`,
      ],
      { hideCursor: true },
    );
    s.wait(4);
    s.answer('\r', 'approval_given', 'Enter on "1. Yes"');
    s.wait(0.05);
    st.working = { glyph: GLYPHS[0], label: 'Running npm run lint', bytes: 0 };
    draw([`${fg(141, '●')} ${fg(250, 'npm run lint')}`, dim('  ✔ 0 problems'), '']);
    work(s, st, draw, 1.5, 'Thinking');
    done(s, st, draw, ['The linter reports no problems.']);
    s.wait(6);
  }),
];
