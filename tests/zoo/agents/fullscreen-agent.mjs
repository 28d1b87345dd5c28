#!/usr/bin/env node
// A parametric fake coding agent on a full-screen terminal framework (blessed): alternate screen, mouse tracking and
// synchronized output (DEC 2026 around every frame), a scrolling message pane, an input box, a spinner line, a status
// bar. Its look and each turn's behaviour come from JSON in $ZOO_OPTIONS (see fullscreen/options.mjs and README.md);
// what it does and when goes to $ZOO_TIMELINE as JSON lines (the zoo protocol), so a recorder can build the truth.
import blessed from 'blessed';
import { loadOptions, turnAt, SPINNERS } from './fullscreen/options.mjs';
import { timeline } from './fullscreen/timeline.mjs';
import { Question } from './fullscreen/question.mjs';
import { answerText, BANNER_TEXT, errorLines, inputRow, retryLines, statusLine, TOAST_TEXT } from './fullscreen/look.mjs';

const o = loadOptions();
const emit = timeline();
const esc = (s) => blessed.escape(String(s));
const BSU = '\x1b[?2026h'; // begin synchronized update
const ESU = '\x1b[?2026l'; // end synchronized update

const screen = blessed.screen({ smartCSR: true, fullUnicode: true, warnings: false, autoPadding: true });
const program = screen.program;

// Each frame leaves blessed as one write; with sync on, wrapped in DEC 2026 so the terminal shows it whole.
const draw = screen.draw.bind(screen);
screen.draw = (start, end) => {
  const write = program._write;
  let frame = '';
  program._write = (text) => {
    frame += text;
  };
  try {
    draw(start, end);
  } finally {
    program._write = write;
  }
  if (frame) write.call(program, o.sync ? BSU + frame + ESU : frame);
};

// ---- widgets ----
const box = (opts) => blessed.box({ parent: screen, tags: true, left: 0, width: '100%', ...opts });
const pane = box({ top: 0, height: 1, scrollable: true, alwaysScroll: true, mouse: o.mouse, wrap: true });
const banner = box({ top: 0, height: 1, hidden: true, style: { bg: 'red', fg: 'white', bold: true } });
const status = box({ top: 0, height: 1 });
const INPUT_HEIGHT = { box: 3, line: 2, bar: 1 };
const input = box({
  top: 0,
  height: INPUT_HEIGHT[o.input_style],
  ...(o.input_style === 'box' ? { border: { type: 'line' }, style: { border: { fg: 'gray' } } } : {}),
  ...(o.input_style === 'bar' ? { style: { bg: 'blue', fg: 'white' } } : {}),
});
const footer = box({ top: 0, height: 1, hidden: !o.footer, style: { inverse: true } });
const modal = box({ top: 'center', left: 'center', width: 60, height: 8, hidden: true, border: { type: 'line' }, style: { border: { fg: 'yellow' } } });
const toast = box({ top: 1, left: undefined, right: 1, width: TOAST_TEXT.length + 4, height: 3, hidden: true, border: { type: 'line' }, style: { fg: 'red', border: { fg: 'red' } } });
const splash = box({ top: 0, height: '100%', hidden: true, align: 'center', valign: 'middle', style: { fg: 'cyan' } });
if (o.mouse) {
  screen.enableMouse();
  if (o.mouse_sgr) program.setMouse({ sgrMouse: true }, true); // SGR reports (1006) as most current agents ask
}

// ---- state ----
let phase = 'starting'; // starting | idle | working | question
let text = ''; // the input box's text
const committed = []; // the message pane's finished lines
let live = []; // lines under them that are redrawn each frame (retry countdown, inline question)
let work = null; // { startedAt, frame, tokens, silent, paused }
let question = null; // { model, resolve }
let ctl = null; // the running turn's interrupt control
let turnNo = 0;
let ctrlCAt = 0;
let frameTimer = null;
let lastTitle = '';

function setTitle(t) {
  if (o.title === 'none' || t === lastTitle) return;
  lastTitle = t;
  screen.title = t;
}

function layout() {
  const H = screen.height;
  const footH = o.footer ? 1 : 0;
  const inH = INPUT_HEIGHT[o.input_style];
  footer.top = H - footH;
  input.top = H - footH - inH;
  status.top = H - footH - inH - 1;
  pane.top = banner.hidden ? 0 : 1;
  pane.height = Math.max(1, status.top - pane.top);
}

function render() {
  layout();
  if (o.footer) footer.setContent(` ${esc(o.footer)}`);
  const modalQ = question && question.model.q.place === 'modal';
  const inline = question && !modalQ ? ['', ...question.model.lines(false)] : [];
  const shown = [...committed, ...live, ...inline];
  // anchored at the bottom, the newest line sits right above the spinner line (as in a chat); at the top, lines flow down
  const pad = o.pane_anchor === 'bottom' ? Math.max(0, pane.height - shown.length) : 0;
  pane.setContent([...Array(pad).fill(''), ...shown].join('\n'));
  pane.setScrollPerc(100);
  if (modalQ) {
    const lines = question.model.lines(true);
    const widest = Math.max(...lines.map((l) => blessed.stripTags(l).length));
    modal.setLabel(` ${esc(question.model.q.title)} `);
    modal.setContent(lines.map((l) => ` ${l}`).join('\n'));
    modal.width = Math.min(screen.width - 2, widest + 6);
    modal.height = Math.min(screen.height - 2, lines.length + 2);
    modal.show();
    modal.setFront();
  } else modal.hide();
  if (work && !work.paused) status.setContent(statusLine(o, work));
  else if (Date.now() - ctrlCAt < o.quit_window_ms) status.setContent('{gray-fg}Press Ctrl-C again to exit{/gray-fg}');
  else status.setContent('');
  const row = inputRow(o, text, { placeholder: phase === 'idle' });
  input.setContent(o.input_style === 'line' ? `{gray-fg}${'─'.repeat(screen.width)}{/gray-fg}\n${row}` : row);
  const frames = SPINNERS[o.spinner];
  if (o.title === 'animated' && work && !work.paused) setTitle(`${frames[work.frame % frames.length] || '…'} ${o.title_text}`);
  else setTitle(o.title_text);
  screen.render();
}

// ---- work: the spinner runs while a turn works ----
function startWork() {
  work = { startedAt: Date.now(), frame: 0, tokens: 0, silent: false, paused: false };
  frameTimer = setInterval(() => {
    work.frame++;
    if (!work.paused) render();
  }, o.frame_ms);
}

function stopWork() {
  clearInterval(frameTimer);
  work = null;
  live = [];
}

const INTERRUPT = Symbol('interrupt');
function wait(ms) {
  return new Promise((resolve, reject) => {
    if (ctl.interrupted) return reject(INTERRUPT);
    const timer = setTimeout(resolve, ms);
    ctl.wake = () => {
      clearTimeout(timer);
      reject(INTERRUPT);
    };
  });
}

/** Stream `answer` into the pane in chunks; the spinner keeps running until the last chunk. */
async function stream(answer) {
  const at = committed.length;
  for (let n = o.chunk_chars; ; n += o.chunk_chars) {
    const sofar = answer.slice(0, n);
    const lines = sofar.split('\n').map((l, i) => (i === 0 ? `{white-fg}${esc(o.answer_bullet)}{/white-fg} ${esc(l)}` : `  ${esc(l)}`));
    committed.splice(at, Infinity, ...lines);
    work.tokens += Math.ceil(o.chunk_chars / 4);
    render();
    if (n >= answer.length) break;
    await wait(o.chunk_ms);
  }
}

/** Ask the turn's question and block until it is answered: true when approved. */
function ask(q) {
  work.paused = true;
  status.setContent('');
  emit('approval_requested', { turn: turnNo, style: q.style, place: q.place });
  phase = 'question';
  return new Promise((resolve) => {
    question = { model: new Question(q), resolve };
    render();
  });
}

function answerQuestion(a) {
  const { resolve } = question;
  question = null;
  phase = 'working';
  work.paused = false;
  emit(a === 'approve' ? 'approval_given' : 'approval_dismissed', { turn: turnNo });
  resolve(a === 'approve');
}

async function retries(count, max, delayS) {
  for (let attempt = 1; attempt <= count; attempt++) {
    emit('retry', { turn: turnNo, attempt, max });
    for (let left = delayS; left > 0; left--) {
      live = retryLines(attempt, max, left);
      render();
      await wait(1000);
    }
  }
  live = [];
}

function showError(style) {
  committed.push(...errorLines(style));
  if (style === 'banner') {
    banner.setContent(BANNER_TEXT);
    banner.show();
  } else if (style === 'toast') {
    toast.setContent(` ${TOAST_TEXT}`);
    toast.show();
    setTimeout(() => {
      toast.hide();
      render();
    }, o.toast_s * 1000).unref();
  }
}

let lingerTimer = null;
function endTurn(kind, extra = {}) {
  stopWork();
  ctl = null;
  phase = 'idle';
  committed.push('');
  render();
  emit(kind, { turn: turnNo, ...extra });
  if (o.linger_s != null && turnNo >= o.turns.length) lingerTimer = setTimeout(() => quit(), o.linger_s * 1000);
}

async function runTurn(prompt, t) {
  ctl = { interrupted: false, wake: null };
  startWork();
  render();
  const answer = answerText(prompt, t.answer_lines);
  try {
    switch (t.shape) {
      case 'answer':
        await wait(t.work_s * 1000);
        await stream(answer);
        return endTurn('turn_complete');
      case 'question': {
        const before = (t.question.after_s ?? t.work_s / 2) * 1000;
        await wait(before);
        if (!(await ask(t.question))) {
          committed.push('{red-fg}  ⎿ Denied.{/red-fg} {gray-fg}The command was not run.{/gray-fg}');
          return endTurn('turn_complete', { denied: true });
        }
        committed.push('{green-fg}  ⎿ Approved.{/green-fg}');
        await wait(Math.max(300, t.work_s * 1000 - before));
        await stream(answer);
        return endTurn('turn_complete');
      }
      case 'error':
        await wait(t.work_s * 1000);
        showError(t.error_style);
        return endTurn('turn_failed', { style: t.error_style });
      case 'retry_then_answer':
        await wait(t.work_s * 1000);
        await retries(t.retries ?? o.retries, t.max_retries ?? o.max_retries, t.retry_delay_s ?? o.retry_delay_s);
        await stream(answer);
        return endTurn('turn_complete');
      case 'retry_then_fail': {
        const max = t.max_retries ?? o.max_retries;
        await wait(t.work_s * 1000);
        await retries(max, max, t.retry_delay_s ?? o.retry_delay_s);
        showError(t.error_style);
        return endTurn('turn_failed', { style: t.error_style });
      }
      case 'silent_backoff':
        await wait(t.work_s * 1000);
        emit('retry', { turn: turnNo, silent: true });
        work.silent = true;
        await wait((t.backoff_s ?? o.backoff_s) * 1000);
        work.silent = false;
        await stream(answer);
        return endTurn('turn_complete');
      default:
        throw new Error(`unknown turn shape ${t.shape}`);
    }
  } catch (e) {
    if (e !== INTERRUPT) throw e;
    emit('turn_interrupted', { turn: turnNo });
    committed.push('{red-fg}  ⎿ Interrupted · What should I do instead?{/red-fg}');
    return endTurn('turn_complete', { interrupted: true });
  }
}

function submit() {
  clearTimeout(lingerTimer);
  const prompt = text.trim();
  text = '';
  turnNo++;
  const t = turnAt(o, turnNo - 1);
  emit('prompt_submitted', { turn: turnNo, shape: t.shape });
  banner.hide();
  toast.hide();
  committed.push(`{gray-fg}${esc(o.user_prefix)} ${esc(prompt)}{/gray-fg}`, '');
  phase = 'working';
  runTurn(prompt, t).catch((e) => quit(e));
}

function interrupt() {
  if (!ctl) return;
  ctl.interrupted = true;
  ctl.wake?.();
}

function quit(err) {
  clearInterval(frameTimer);
  screen.destroy();
  if (err) console.error(err);
  process.exit(err ? 1 : 0);
}

// ---- keys ----
screen.on('keypress', (ch, key = {}) => {
  const seq = key.sequence ?? ch ?? '';
  if (seq.startsWith('\x1b[<') || seq.startsWith('\x1b[M')) return; // mouse reports are not keys
  if (phase === 'starting') return;
  if (key.full === 'C-d') return quit();
  if (key.full === 'C-c') {
    if (phase === 'question') return answerQuestion('deny');
    if (phase === 'working') return interrupt();
    if (text) text = '';
    else if (Date.now() - ctrlCAt < o.quit_window_ms) return quit();
    else {
      ctrlCAt = Date.now();
      setTimeout(render, o.quit_window_ms + 10).unref();
    }
    return render();
  }
  if (phase === 'question') {
    const a = question.model.key(ch, key);
    if (a) answerQuestion(a);
    else render();
    return;
  }
  if (key.name === 'escape') return phase === 'working' ? interrupt() : undefined;
  if (key.name === 'enter') {
    if (phase === 'idle' && text.trim()) submit();
    return;
  }
  if (key.name === 'backspace') {
    text = text.slice(0, -1);
    return render();
  }
  if (ch && !key.ctrl && !key.meta && ch >= ' ' && ch !== '\x7f' && key.name !== 'return' && key.name !== 'linefeed') {
    text += ch;
    render();
  }
});

screen.on('resize', () => render());

// ---- start ----
function ready() {
  splash.hide();
  phase = 'idle';
  render();
  emit('ready', { cols: screen.width, rows: screen.height });
}

if (o.max_s != null) setTimeout(() => quit(), o.max_s * 1000).unref();

if (o.splash) {
  splash.setContent((o.splash.lines ?? ['ZOO AGENT', 'v0.1']).map(esc).join('\n'));
  splash.show();
  splash.setFront();
  setTitle(o.title_text);
  screen.render();
  setTimeout(ready, o.splash.ms ?? 800);
} else ready();
