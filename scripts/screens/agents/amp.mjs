// Sourcegraph's Amp CLI (`amp`, closed source). What it draws, from other supervisors' detection rules (docs/agents.md,
// "Amp"): the input in a rounded box whose top border carries "37% of 168k · $1.24 (free)" and the mode "smart" and
// whose bottom border carries the folder and branch (noamsto/houston docs/AMP_AGENT_SUPPORT.md); while a turn runs
// the bottom border starts with a state, "╰ ⠋ thinking ─" (also streaming, running tools, waiting), "esc to
// cancel" shows, and the window title starts with a braille spinner glyph; at rest the title reads
// "<thread> - amp - <folder>" (herdrdev/herdr src/detect/manifests/amp.toml); a tool asks "Run this command?" with
// "Approve", "Allow All for This Session", "Allow All for Every Session", "Deny with feedback" and the state
// "waiting for approval" (same manifest). The row layout, the hint's place and the cadence (80 ms) are assumptions.
import { Script, BRAILLE, dim, fg, bold, pad, width, typePrompt } from '../screen-script.mjs';

const COLS = 100;
const ROWS = 30;

function inputBox(st) {
  const top = `╭─${dim(`${st.ctx}% of 168k · $${st.cost} (free)`)}`;
  const topRight = `${fg(208, 'smart')}─╮`;
  const bottomLeft = st.state ? `╰ ${st.state} ─` : '╰─';
  const bottomRight = `${dim('~/work/app (main)')}─╯`;
  const line = (l, r) => l + '─'.repeat(Math.max(0, COLS - width(l) - width(r))) + r;
  return [line(top, topRight), `│ ${pad(`${fg(208, '❯')} ${st.text}`, COLS - 4)} │`, line(bottomLeft, bottomRight)];
}

function session(name, scenario, body) {
  const s = new Script({ cols: COLS, rows: ROWS, source: 'amp (Sourcegraph Amp CLI, closed source; frame script from peers\' rules)', scenario, seed: 19 });
  const st = { text: '', state: '', ctx: 0, cost: '0.00', hint: false };
  const draw = (above = []) => {
    const rows = [...(st.hint ? [dim('  esc to cancel')] : ['']), ...inputBox(st)];
    s.live(rows, { above, cursor: st.state ? null : [2, 4 + [...st.text].length], hideCursor: !!st.state });
  };
  s.title('New thread - amp - app');
  s.at(0.5);
  draw([`  ${bold(fg(208, 'Amp'))}  ${dim('Welcome to Amp. Ctrl+O for help')}`, '']);
  body(s, st, draw);
  return { name, script: s };
}

function submit(s, st, draw, prompt) {
  const enter = typePrompt(s, st, draw, prompt);
  st.hint = true;
  st.state = `${BRAILLE[0]} thinking`;
  draw([`${fg(208, '❯')} ${prompt}`, '']);
  return enter;
}

function work(s, st, draw, seconds, word, thread) {
  s.animate(seconds, 0.08, (i) => {
    const g = BRAILLE[i % BRAILLE.length];
    st.state = `${fg(208, g)} ${word}`;
    s.title(`${g} ${thread} - amp - app`);
    draw();
  });
}

function done(s, st, draw, thread, answer) {
  s.truth('turn_complete', { source: 'script: the final answer was printed' });
  s.wait(0.05);
  st.state = '';
  st.hint = false;
  st.ctx = 4;
  st.cost = '0.07';
  s.title(`${thread} - amp - app`);
  draw(answer.map((l) => `  ${l}`).concat(''));
}

export const scenarios = [
  session('amp-turn', 'One prompt; 2 s "thinking", 1 s "streaming" (the border state and the title glyph animating); the answer; 6 s rest.', (s, st, draw) => {
    submit(s, st, draw, 'where is the config loaded');
    work(s, st, draw, 2, 'thinking', 'Config loading');
    draw(['  The config is loaded in src/config.ts by loadConfig(),']);
    work(s, st, draw, 1, 'streaming', 'Config loading');
    done(s, st, draw, 'Config loading', ['which merges ~/.app.json over the defaults.']);
    s.wait(6);
  }),
  session('amp-approval', 'One prompt; 2 s thinking; "Run this command?" with Approve / Allow All … / Deny with feedback waits 4 s, still; Enter; 1.5 s running tools; the answer; 6 s rest.', (s, st, draw) => {
    submit(s, st, draw, 'clean the build folder');
    work(s, st, draw, 2, 'thinking', 'Clean build');
    s.truth('approval_requested', { source: 'script: permission rule "ask" for Bash' });
    st.state = 'waiting for approval';
    st.hint = false;
    s.title('Clean build - amp - app');
    s.live(
      [
        `  ${bold('Run this command?')}`,
        `  ${fg(250, 'rm -rf build')}`,
        '',
        `  ${fg(208, '▸ Approve')}`,
        '    Allow All for This Session',
        '    Allow All for Every Session',
        '    Deny with feedback',
        '',
        ...inputBox(st),
      ],
      { hideCursor: true },
    );
    s.wait(4);
    s.answer('\r', 'approval_given', 'Enter on "Approve"');
    s.wait(0.05);
    st.hint = true;
    draw([`  ${fg(34, '✓')} ${fg(250, 'rm -rf build')}`, '']);
    work(s, st, draw, 1.5, 'running tools', 'Clean build');
    done(s, st, draw, 'Clean build', ['Removed the build folder.']);
    s.wait(6);
  }),
];
