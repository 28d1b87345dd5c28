// Charm's Crush (charmbracelet/crush, a Go bubbletea TUI). What it draws, from its source at commit 37f36e9
// (docs/agents.md, "Crush"): the alternate screen, the title "crush <cwd>" (internal/ui/model/ui.go), a header
// "Charm™ CRUSH ╱╱╱…" (model/header.go), the editor prompt "  > " with a random placeholder ("Ready for
// instructions" at rest, "Working..." while busy, ui.go), the help row gaining "esc cancel" while the agent is
// busy (ui.go ShortHelp), the working animation of internal/ui/anim: 15 cells cycling through
// "0123456789abcdefABCDEF~!@#$£€%^&*()+=_" at 20 fps, the label "Thinking" while the model reasons with a cycling
// ellipsis (".", "..", "...", "" every 400 ms) and the turn's elapsed time ("3s", common/timer.go); the
// permission dialog "Permission Required" with Tool/Path/Desc rows, the buttons Allow, Allow for Session, Deny
// and the keys "enter confirm  a allow  s allow session  d deny" (dialog/permissions.go); the finished turn's
// line "◇ <model> via <provider> in <duration>" (chat/messages.go); an error as "ERROR <message>" (chat/assistant.go).
import { Script, bg, bold, dim, fg, pad, width } from '../screen-script.mjs';

const COLS = 100;
const ROWS = 30;
const CHARS = [...'0123456789abcdefABCDEF~!@#$£€%^&*()+=_'];
const ELLIPSIS = ['.', '..', '...', ''];
const FPS = 20;

function header() {
  const left = ` ${fg(244, 'Charm™')} ${bold(fg(212, 'CRUSH'))} `;
  const right = ` ~/work/app • 2% • ctrl+d open `;
  return left + fg(99, '╱'.repeat(COLS - width(left) - width(right))) + dim(right);
}

/** The whole screen for a state: chat rows, an optional animation row, the editor, the help row, a dialog. */
function screen(st) {
  const rows = new Array(ROWS).fill('');
  rows[0] = header();
  const chat = [...st.chat];
  if (st.anim) chat.push(st.anim);
  const top = 2;
  const bottom = ROWS - 7;
  const shown = chat.slice(Math.max(0, chat.length - (bottom - top)));
  shown.forEach((l, i) => (rows[top + i] = l));
  const editorRow = ROWS - 5;
  rows[editorRow] = `  > ${st.text || dim(st.placeholder)}`;
  rows[editorRow + 1] = dim('::: ');
  rows[editorRow + 2] = dim('::: ');
  rows[ROWS - 1] = dim(`  ${st.busy ? (st.canceling ? 'esc press again to cancel  ' : 'esc cancel  ') : ''}/ or ctrl+p commands  ctrl+n new session  ctrl+f add attachment  ctrl+c quit`);
  if (st.dialog) {
    const w = 64;
    const x = Math.floor((COLS - w) / 2);
    const y = 7;
    st.dialog.forEach((l, i) => {
      const inner = i === 0 ? `╭${'─'.repeat(w - 2)}╮` : i === st.dialog.length - 1 ? `╰${'─'.repeat(w - 2)}╯` : `│ ${pad(l, w - 4)} │`;
      rows[y + i] = pad(rows[y + i].slice(0, x), x) + inner;
    });
  }
  const cursor = st.dialog || st.busy ? null : [editorRow, 4 + [...st.text].length];
  return { rows, cursor };
}

function permissionDialog(selected) {
  const button = (label, i) => (i === selected ? bg(212, fg(0, ` ${label} `)) : fg(250, ` ${label} `));
  return [
    '',
    `${bold(fg(212, 'Permission Required'))} ${fg(99, '╱'.repeat(40))}`,
    '',
    `${dim('Tool')}  bash`,
    `${dim('Path')}  ~/work/app`,
    `${dim('Desc')}  List the files of the project`,
    '',
    fg(250, 'ls -la'),
    '',
    `        ${button('Allow', 0)}  ${button('Allow for Session', 1)}  ${button('Deny', 2)}`,
    '',
    dim('←/→ choose  enter confirm  a allow  s allow session  d deny'),
    '',
  ];
}

function session(name, scenario, body) {
  const s = new Script({ cols: COLS, rows: ROWS, alt: true, source: 'crush (charmbracelet/crush 37f36e9, frame script)', scenario, seed: 7 });
  s.title('crush ~/work/app');
  const st = { chat: [], anim: null, text: '', placeholder: 'Ready for instructions', busy: false, dialog: null };
  const draw = () => {
    const { rows, cursor } = screen(st);
    s.frame(rows, cursor);
  };
  s.at(0.4);
  draw();
  body(s, st, draw);
  return { name, script: s };
}

/** The working animation for `seconds` at 20 fps: 15 cycling cells, the label, the ellipsis, the elapsed time. */
function work(s, st, draw, seconds, label, turnStart) {
  s.animate(seconds, 1 / FPS, (i) => {
    const cells = Array.from({ length: 15 }, () => fg(99 + Math.floor(s.random() * 6) * 18, CHARS[Math.floor(s.random() * CHARS.length)])).join('');
    const ell = label ? ELLIPSIS[Math.floor(i / 8) % 4] : '';
    st.anim = `  ${cells} ${label}${ell} ${fg(244, `${Math.floor(s.t - turnStart)}s`)}`;
    draw();
  });
  st.anim = null;
}

function submit(s, st, draw, prompt) {
  s.at(2.5);
  const enter = s.type(prompt, (typed) => {
    st.text = typed;
    draw();
  });
  s.wait(0.03);
  st.text = '';
  st.chat.push(`  ${fg(212, '│')} ${prompt}`, '');
  st.placeholder = 'Working...';
  st.busy = true;
  draw();
  return enter;
}

function finish(s, st, draw, enter, model = 'Claude Sonnet 4') {
  st.chat.push('', `  ${fg(244, '◇')} ${model} ${dim('via Anthropic')} ${dim(`in ${Math.round(s.t - enter)}s`)} ${fg(238, '─'.repeat(50))}`);
  st.placeholder = 'Ready?';
  st.busy = false;
  draw();
}

function stream(s, st, draw, lines, gap = 0.18) {
  for (const l of lines) {
    st.chat.push(`  ${l}`);
    draw();
    s.wait(gap);
  }
}

export const scenarios = [
  session('crush-turn', 'One prompt; 3 s of the working animation (no reasoning: cells and timer only); the answer streams in 3 rows; the model line under it; 6 s rest.', (s, st, draw) => {
    const enter = submit(s, st, draw, 'what does main.go do');
    work(s, st, draw, 3, '', enter);
    stream(s, st, draw, ['main.go starts the HTTP server on :8080', 'and registers the /health and /api routes.', 'Configuration is read from config.yaml.']);
    s.truth('turn_complete', { source: 'script: the last answer chunk was drawn' });
    s.wait(0.06);
    finish(s, st, draw, enter);
    s.wait(6);
    draw();
  }),
  session('crush-approval', 'One prompt; the model reasons 2 s ("Thinking…"), calls bash; the permission dialog waits 4 s, still; Enter on Allow; the command runs, 1.5 s more work, the answer; 6 s rest.', (s, st, draw) => {
    const enter = submit(s, st, draw, 'list the files here');
    work(s, st, draw, 2, 'Thinking', enter);
    st.chat.push(`  ${fg(244, 'Thought for 2s')}`, '', `  ${fg(36, '●')} ${bold('Bash')} ls -la`, `    ${fg(214, 'Requesting permission...')}`);
    draw();
    s.wait(0.1);
    s.truth('approval_requested', { source: 'script: the tool call asked for permission' });
    st.dialog = permissionDialog(0);
    draw();
    s.wait(4);
    s.answer('\r', 'approval_given', 'Enter on "Allow"');
    s.wait(0.04);
    st.dialog = null;
    st.chat.splice(st.chat.length - 2, 2, `  ${fg(36, '✓')} ${bold('Bash')} ls -la`, dim('    total 24'), dim('    -rw-r--r-- 1 me me  812 go.mod'), dim('    -rw-r--r-- 1 me me 2210 main.go'), '');
    draw();
    work(s, st, draw, 1.5, '', enter);
    stream(s, st, draw, ['The project has two files: go.mod and main.go.']);
    s.truth('turn_complete', { source: 'script: the last answer chunk was drawn' });
    s.wait(0.06);
    finish(s, st, draw, enter);
    s.wait(6);
    draw();
  }),
  session('crush-interrupt', 'One prompt; 3 s of the working animation; Esc (the help row: "esc press again to cancel"), the animation goes on 1 s; Esc again: "Canceled", the editor back; 6 s rest.', (s, st, draw) => {
    const enter = submit(s, st, draw, 'rewrite the tests in table style');
    work(s, st, draw, 3, '', enter);
    s.input('\x1b');
    st.canceling = true;
    work(s, st, draw, 1, '', enter);
    s.input('\x1b');
    s.truth('turn_complete', { source: 'script: the second Esc cancelled the turn', interrupted: true });
    s.wait(0.05);
    st.chat.push(`  ${dim('Canceled')}`);
    st.placeholder = 'Ready...';
    st.busy = false;
    st.canceling = false;
    draw();
    s.wait(6);
  }),
  session('crush-error', 'One prompt; 2 s of the working animation; the provider answers 401: an ERROR block, the editor back; 6 s rest.', (s, st, draw) => {
    const enter = submit(s, st, draw, 'refactor the router');
    work(s, st, draw, 2, '', enter);
    s.truth('turn_failed', { source: 'script: the provider refused the request', note: 'provider error' });
    st.chat.push(`  ${bg(196, fg(15, ' ERROR '))} ${fg(196, 'Unauthorized: invalid x-api-key')}`, '', dim('  The provider returned 401. Check the API key for Anthropic.'));
    st.placeholder = 'Ready!';
    st.busy = false;
    draw();
    s.wait(6);
    draw();
  }),
];
