// Cursor Agent (cursor-agent, closed source). What it draws, from other supervisors' tests of real panes
// (docs/agents.md, "Cursor Agent"): an inline TUI on the main screen; the live region at the bottom is the input row
// "→ Add a follow-up", with "ctrl+c to stop" at its right while a turn runs, and the model row "Composer 2.5 ·
// 48.2%  …  Auto-run" (njbrake/agent-of-empires src/tmux/status_detection.rs tests); while it works a row above
// them animates a two-cell braille glyph with a verb and a token count, "⠘⠣ Reading  6.66k tokens" (same tests;
// older builds "⬡ Grepping..", kbwo/ccmanager cursor.test.ts); a command outside the allowlist asks "Run this
// command?", "Not in allowlist: …", "→ Run (once) (y)", "Run Everything (shift+tab)", "Skip (esc or n)"
// (ccmanager cursor.test.ts; herdrdev/herdr src/detect/manifests/cursor.toml). The glyph cadence (100 ms) and the
// first prompt's placeholder are assumptions (not in any source).
import { Script, dim, fg, bold, pad, typePrompt } from '../screen-script.mjs';

const COLS = 100;
const ROWS = 30;
const GLYPHS = ['⠘⠣', '⠀⠞', '⠘⠆', '⠈⠳', '⠐⠣', '⠠⠞'];

function liveRows(st) {
  const rows = [];
  if (st.activity) rows.push(` ${fg(39, st.activity.glyph)} ${st.activity.verb}  ${dim(st.activity.tokens)}`, '');
  const input = `  → ${st.text || dim(st.first ? 'Plan, search, build anything' : 'Add a follow-up')}`;
  rows.push(st.busy ? pad(input, COLS - 18) + dim('ctrl+c to stop') : input, '');
  rows.push(pad(`  ${dim(`Composer 2.5 · ${st.context}`)}`, COLS - 12) + dim('Auto-run'));
  return rows;
}

function session(name, scenario, body) {
  const s = new Script({ cols: COLS, rows: ROWS, source: 'cursor-agent (closed source; frame script from peers\' tests)', scenario, seed: 11 });
  const st = { activity: null, text: '', busy: false, first: true, context: '100%' };
  const draw = (above = []) => {
    const rows = liveRows(st);
    const inputRow = st.activity ? 2 : 0;
    s.live(rows, { above, cursor: st.busy ? null : [inputRow, 4 + [...st.text].length], hideCursor: st.busy });
  };
  s.at(0.5);
  draw([`${bold('Cursor Agent')}`, dim('~/work/app · main'), '']);
  body(s, st, draw);
  return { name, script: s };
}

function submit(s, st, draw, prompt) {
  const enter = typePrompt(s, st, draw, prompt);
  st.first = false;
  st.busy = true;
  st.activity = { glyph: GLYPHS[0], verb: 'Thinking', tokens: '' };
  draw([`  ${fg(245, '›')} ${prompt}`, '']);
  return enter;
}

function work(s, st, draw, seconds, verb, tokens0) {
  let tokens = tokens0;
  s.animate(seconds, 0.1, (i) => {
    tokens += 0.04;
    st.activity = { glyph: GLYPHS[i % GLYPHS.length], verb, tokens: `${tokens.toFixed(2)}k tokens` };
    draw();
  });
  return tokens;
}

function done(s, st, draw, answer) {
  s.truth('turn_complete', { source: 'script: the final answer was printed' });
  s.wait(0.05);
  st.busy = false;
  st.activity = null;
  st.context = '97.1% · 1 file edited';
  draw(answer.map((l) => `  ${l}`).concat(''));
}

export const scenarios = [
  session('cursor-turn', 'One prompt; 2 s "Thinking", a file read, 1.5 s "Reading"; the answer; the follow-up row back without "ctrl+c to stop"; 6 s rest.', (s, st, draw) => {
    submit(s, st, draw, 'explain the retry logic');
    let tk = work(s, st, draw, 2, 'Thinking', 2.1);
    draw([`  ${dim('Read')} src/retry.ts`, '']);
    tk = work(s, st, draw, 1.5, 'Reading', tk);
    done(s, st, draw, ['The client retries a failed request three times,', 'doubling the delay each time (200 ms, 400 ms, 800 ms).']);
    s.wait(6);
  }),
  session('cursor-approval', 'One prompt; 2 s "Thinking"; the command is not in the allowlist: "Run this command?" waits 4 s, still; y; 1.5 s "Running", the answer; 6 s rest.', (s, st, draw) => {
    submit(s, st, draw, 'run the tests');
    const tk = work(s, st, draw, 2, 'Thinking', 3.4);
    s.truth('approval_requested', { source: 'script: the command is not in the allowlist' });
    st.activity = null;
    st.busy = false;
    const box = [`  ┌${'─'.repeat(40)}┐`, `  │ ${pad('$ npm run test  in ~/work/app', 38)} │`, `  └${'─'.repeat(40)}┘`];
    s.live([...box, '  Run this command?', dim('  Not in allowlist: npm run test'), `   ${fg(39, '→ Run (once) (y)')}`, '     Run Everything (shift+tab)', '     Skip (esc or n)'], { hideCursor: true });
    s.wait(4);
    s.answer('y', 'approval_given', 'y: Run (once)');
    s.wait(0.05);
    st.busy = true;
    st.activity = { glyph: GLYPHS[0], verb: 'Running', tokens: `${tk.toFixed(2)}k tokens` };
    draw([...box, dim('  ✓ 12 passed (1.2s)'), '']);
    work(s, st, draw, 1.5, 'Running', tk);
    done(s, st, draw, ['All 12 tests pass.']);
    s.wait(6);
  }),
];
