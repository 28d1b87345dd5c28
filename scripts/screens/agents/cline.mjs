// Cline CLI 2.x (`cline`, an Ink TUI; cline/cline cli/src/components). What it draws (docs/agents.md, "Cline"):
// inline on the main screen; before the first message an animated robot over "What can I do for you?"
// (ChatView.tsx: AsciiMotionCli, shown until the person interacts; its frames here are stand-ins); the input in a
// round-bordered box; under it "/ for commands · @ for files … ○ Plan ● Act (Tab)", the model row with a context
// bar "████░░░░ (12,345) | $0.012", the folder row and "Auto-approve all disabled (Shift+Tab)" (ChatView.tsx);
// while it works, above the box, " ⠋ Acting... (3s · esc to interrupt)": a braille spinner every 80 ms, a bold
// shimmer moving every 100 ms, the elapsed time every second (ThinkingIndicator.tsx); a tool or command asks with
// full-width buttons " Run Command (1) " / " Reject (2) " (ActionButtons.tsx); a finished task offers
// " Start New Task (1) " / " Exit (2) ", a failed request " Retry (1) " / " Start New Task (2) " (ActionButtons.tsx).
// The message rows' exact words are approximations.
import { Script, bg, bold, dim, fg, pad } from '../screen-script.mjs';
import { BRAILLE } from '../screen-script.mjs';

const COLS = 100;
const ROWS = 30;
const ROBOT = [
  ['      ▄▀▀▀▄      ', '     █ ● ● █     ', '      ▀▄▄▄▀      '],
  ['      ▄▀▀▀▄      ', '     █ ◉ ◉ █     ', '      ▀▄▄▄▀      '],
  ['      ▄▀▀▀▄      ', '     █ - - █     ', '      ▀▄▄▄▀      '],
];

const center = (t) => pad(' '.repeat(Math.max(0, Math.floor((COLS - t.length) / 2))) + t, COLS);

function buttons(a, b) {
  const wdt = Math.floor((COLS - 3) / 2);
  const btn = (label) => {
    const p = Math.max(0, wdt - label.length);
    return bg(39, fg(0, ' '.repeat(Math.floor(p / 2)) + label + ' '.repeat(p - Math.floor(p / 2))));
  };
  return ` ${btn(` ${a} `)} ${btn(` ${b} `)}`;
}

function liveRows(st) {
  const rows = [];
  if (st.robot !== null) rows.push(...ROBOT[st.robot].map((l) => center(l)), '', bold(center('What can I do for you?')), '');
  if (st.thinking) rows.push(st.thinking);
  if (st.buttons) rows.push(st.buttons);
  rows.push(`╭${'─'.repeat(COLS - 2)}╮`, `│ ${pad(st.text, COLS - 4)} │`, `╰${'─'.repeat(COLS - 2)}╯`);
  rows.push(pad(dim(' / for commands · @ for files'), COLS - 20) + `${dim('○ Plan')} ${bold(fg(39, '● Act'))} ${dim('(Tab)')}`);
  rows.push(` claude-sonnet-4-5 ${st.bar} ${dim(`(${st.tokens}) | $${st.cost}`)}`);
  rows.push(' app (main)');
  rows.push(dim(' Auto-approve all disabled (Shift+Tab)'));
  return rows;
}

function session(name, scenario, body) {
  const s = new Script({ cols: COLS, rows: ROWS, source: 'cline CLI 2.x (cline/cline cli/src, frame script)', scenario, seed: 17 });
  const st = { robot: 0, thinking: null, buttons: null, text: '', bar: '░░░░░░░░', tokens: '0', cost: '0.000' };
  const draw = (above = []) => {
    const rows = liveRows(st);
    const inputRow = rows.length - 6;
    s.live(rows, { above, cursor: [inputRow, 2 + [...st.text].length], hideCursor: !!st.thinking });
  };
  s.at(0.5);
  draw();
  body(s, st, draw);
  return { name, script: s };
}

/** The welcome robot animates until the first key (frames every 0.5 s: a stand-in for Cline's own). */
function idle(s, st, draw, until) {
  let i = 0;
  while (s.t + 0.5 < until) {
    s.wait(0.5);
    st.robot = ++i % ROBOT.length;
    draw();
  }
  s.at(until);
}

function submit(s, st, draw, prompt) {
  idle(s, st, draw, 3);
  st.robot = null;
  const enter = s.type(prompt, (typed) => {
    st.text = typed;
    draw();
  });
  s.wait(0.05);
  st.text = '';
  draw([`${fg(39, '>')} ${prompt}`, '']);
  return enter;
}

function work(s, st, draw, seconds, turnStart, mode = 'Acting') {
  const text = `${'⠋'} ${mode}...`;
  s.animate(seconds, 0.02, (i, dt) => {
    // three clocks of their own: spinner 80 ms, shimmer 100 ms, elapsed 1 s; a frame is drawn when one ticks
    const t = s.t - turnStart;
    if (i % 4 !== 0 && i % 5 !== 0 && i % 50 !== 0) return;
    const spin = BRAILLE[Math.floor(dt / 0.08) % BRAILLE.length];
    const shimmer = (Math.floor(dt / 0.1) % (text.length + 6)) - 3;
    const chars = [...`${spin} ${mode}...`].map((c, k) => (Math.abs(k - shimmer) <= 3 ? bold(fg(39, c)) : dim(fg(39, c)))).join('');
    st.thinking = ` ${chars}${dim(` (${Math.floor(t)}s · esc to interrupt)`)}`;
    draw();
  });
  st.thinking = null;
}

export const scenarios = [
  session('cline-idle', 'Start-up: the welcome robot animates over "What can I do for you?" for 14 s; nothing is typed (IDLE throughout).', (s, st, draw) => {
    idle(s, st, draw, 14.5);
  }),
  session('cline-turn', 'Welcome robot animating until the first key; one prompt; 3 s of "⠋ Acting... (Ns · esc to interrupt)"; the completion message with the "Start New Task (1)" / "Exit (2)" buttons (the task is done); 6 s rest.', (s, st, draw) => {
    const enter = submit(s, st, draw, 'add a health check endpoint');
    work(s, st, draw, 3, enter);
    s.truth('turn_complete', { source: 'script: the task completed (completion_result)' });
    s.wait(0.05);
    st.bar = '█░░░░░░░';
    st.tokens = '12,345';
    st.cost = '0.012';
    st.buttons = buttons('Start New Task (1)', 'Exit (2)');
    draw([`${fg(34, '✓')} ${bold('Task Completed')}`, '  Added GET /health returning {"status":"ok"} and a test for it.', '']);
    s.wait(6);
  }),
  session('cline-approval', 'One prompt; 2 s of work; a command asks with "Run Command (1)" / "Reject (2)" buttons, still for 4 s; 1; 1.5 s more work; completion buttons; 6 s rest.', (s, st, draw) => {
    const enter = submit(s, st, draw, 'run the unit tests');
    work(s, st, draw, 2, enter);
    s.truth('approval_requested', { source: 'script: ask "command"' });
    st.buttons = buttons('Run Command (1)', 'Reject (2)');
    draw([`${fg(214, '$')} Cline wants to execute this command:`, `  ${fg(250, 'npm test')}`, '']);
    s.wait(4);
    s.answer('1', 'approval_given', '1: Run Command');
    s.wait(0.05);
    st.buttons = null;
    draw([dim('  12 passing (340ms)'), '']);
    work(s, st, draw, 1.5, enter);
    s.truth('turn_complete', { source: 'script: the task completed (completion_result)' });
    s.wait(0.05);
    st.buttons = buttons('Start New Task (1)', 'Exit (2)');
    draw([`${fg(34, '✓')} ${bold('Task Completed')}`, '  All 12 unit tests pass.', '']);
    s.wait(6);
  }),
  session('cline-error', 'One prompt; 2 s of work; the API request fails: the error and "Retry (1)" / "Start New Task (2)" buttons; 6 s rest.', (s, st, draw) => {
    const enter = submit(s, st, draw, 'summarize the changelog');
    work(s, st, draw, 2, enter);
    s.truth('turn_failed', { source: 'script: ask "api_req_failed"', note: 'API request failed' });
    st.buttons = buttons('Retry (1)', 'Start New Task (2)');
    draw([`${fg(196, '✗')} ${fg(196, 'API Request Failed')}`, dim('  401 Unauthorized: invalid API key'), '']);
    s.wait(6);
  }),
];
