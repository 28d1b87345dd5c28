// Kimi Code CLI (MoonshotAI/kimi-cli, Python: prompt_toolkit for the input, rich Live for the turn; commit 4a550ef).
// What it draws (docs/agents.md, "Kimi Code CLI"): inline on the main screen; the input row "✨ " ("💫 " with
// thinking on) between "─" rules and a toolbar row "agent (<model> ○)  <folder>" (src/kimi_cli/ui/shell/prompt.py);
// while a turn runs a moon spinner alone on its row (rich Spinner "moon", an 80 ms frame, Live refreshed 10 times
// a second: src/kimi_cli/ui/shell/visualize/_live_view.py; herdrdev/herdr manifests/kimi.toml moon_spinner_working);
// a tool as "Using Shell (ls -la)", "Used …" when done; the answer behind a "•" bullet (visualize/_blocks.py);
// a command asks in a yellow panel titled "approval": "Shell is requesting approval to run command:", the command,
// "→ [1] Approve once", "[2] Approve for this session", "[3] Reject", "[4] Reject, tell the model what to do
// instead", "▲/▼ select  1/2/3/4 choose  ↵ confirm" (visualize/_approval_panel.py, tools/shell/__init__.py).
// The echo of the person's prompt in the transcript is an approximation.
import { Script, dim, fg, bold, pad, typePrompt } from '../screen-script.mjs';

const COLS = 100;
const ROWS = 30;
const MOON = ['🌑', '🌒', '🌓', '🌔', '🌕', '🌖', '🌗', '🌘'];

function inputRows(st) {
  return [dim('─'.repeat(COLS)), `${'✨'} ${st.text}`, dim('─'.repeat(COLS)), dim(' agent (kimi-k2 ○)  ~/work/app')];
}

function session(name, scenario, body) {
  const s = new Script({ cols: COLS, rows: ROWS, source: 'kimi (MoonshotAI/kimi-cli 4a550ef, frame script)', scenario, seed: 29 });
  const st = { text: '', moon: null };
  const draw = (above = []) => {
    const rows = [...(st.moon ? [st.moon, ''] : []), ...inputRows(st)];
    const inputRow = rows.length - 3;
    s.live(rows, { above, cursor: [inputRow, 3 + [...st.text].length], hideCursor: false });
  };
  s.at(0.7);
  draw([bold(' Welcome to Kimi Code CLI!'), dim(' Send /help for help information.'), '']);
  body(s, st, draw);
  return { name, script: s };
}

function submit(s, st, draw, prompt) {
  const enter = typePrompt(s, st, draw, prompt);
  st.moon = MOON[0];
  draw([`✨ ${prompt}`, '']);
  return enter;
}

/** The Live view repaints 10 times a second; the moon's frame follows its own 80 ms clock. */
function work(s, st, draw, seconds) {
  const start = s.t;
  s.animate(seconds, 0.1, (_i, dt) => {
    st.moon = MOON[Math.floor(dt / 0.08) % MOON.length];
    draw();
  });
  return s.t - start;
}

function done(s, st, draw, answer) {
  s.truth('turn_complete', { source: 'script: the answer finished' });
  s.wait(0.05);
  st.moon = null;
  draw([`${'•'} ${answer[0]}`, ...answer.slice(1).map((l) => `  ${l}`), '']);
}

export const scenarios = [
  session('kimi-turn', 'One prompt; 3 s of the moon spinner; the answer behind "•"; the input back; 6 s rest.', (s, st, draw) => {
    submit(s, st, draw, 'what is in the scripts folder');
    work(s, st, draw, 3);
    done(s, st, draw, ['Three scripts: build.sh, release.sh and a Python helper', 'that bumps the version in pyproject.toml.']);
    s.wait(6);
  }),
  session('kimi-approval', 'One prompt; 2 s of the moon; the approval panel for a shell command waits 4 s, still; 1; "Using Shell" 1.5 s; the answer; 6 s rest.', (s, st, draw) => {
    submit(s, st, draw, 'clean the build artefacts');
    work(s, st, draw, 2);
    s.truth('approval_requested', { source: 'script: Shell asked for approval' });
    st.moon = null;
    const w = COLS;
    const row = (t) => `${fg(214, '│')} ${pad(t, w - 4)} ${fg(214, '│')}`;
    s.live(
      [
        fg(214, `╭─ ${bold('approval')} ${'─'.repeat(w - 14)}╮`),
        row(fg(214, 'Shell is requesting approval to run command:')),
        row(''),
        row(fg(244, 'rm -rf build dist')),
        row(''),
        row(fg(37, '→ [1] Approve once')),
        row(fg(244, '  [2] Approve for this session')),
        row(fg(244, '  [3] Reject')),
        row(fg(244, '  [4] Reject, tell the model what to do instead')),
        row(''),
        row(dim('  ▲/▼ select  1/2/3/4 choose  ↵ confirm')),
        fg(214, `╰${'─'.repeat(w - 2)}╯`),
        // a modal replaces the input rows (prompt.py: no separator and prompt while a modal delegate is active)
        dim('─'.repeat(COLS)),
        dim(' agent (kimi-k2 ○)  ~/work/app'),
      ],
      { hideCursor: true },
    );
    s.wait(4);
    s.answer('1', 'approval_given', '1: Approve once');
    s.wait(0.05);
    st.moon = MOON[0];
    draw([`${fg(37, '•')} Used ${fg(33, 'Shell')} ${dim('(rm -rf build dist)')}`, '']);
    work(s, st, draw, 1.5);
    done(s, st, draw, ['Removed build/ and dist/.']);
    s.wait(6);
  }),
];
