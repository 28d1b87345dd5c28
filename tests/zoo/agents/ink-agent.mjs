#!/usr/bin/env node
// The zoo's Ink agent: a fake coding agent built on Ink (the React TUI library real agents use), whose look comes
// from options and whose turns come from a script. It writes its own timeline (the truth) as it goes.
// Protocol (tests/zoo/README.md): options as JSON in env ZOO_OPTIONS; timeline as JSON lines appended to the file
// named by env ZOO_TIMELINE: {"t": Date.now(), "kind": ...}.
import { appendFileSync } from 'node:fs';
import React from 'react';
import { Box, Static, Text, render, useCursor, useInput } from 'ink';
import { answerRows, errorRows, logoRows, questionKey, questionRows, spinnerFrame, statusRow, toolRow } from './ink-look.mjs';

const h = React.createElement;
const O = { screen: 'main', cursor: 'end', spinner: 'braille', frame_ms: 100, box: 'round', turns: [], linger_s: 4, max_s: 40, ...JSON.parse(process.env.ZOO_OPTIONS ?? '{}') };
const TIMELINE = process.env.ZOO_TIMELINE;
const COLS = process.stdout.columns || 80;
const VERBS = O.verbs ?? ['Thinking', 'Working', 'Pondering', 'Reasoning'];
const OSC = (s) => `\x1b]133;${s}\x07`;

function mark(kind, extra = {}) {
  if (TIMELINE) appendFileSync(TIMELINE, JSON.stringify({ t: Date.now(), kind, ...extra }) + '\n');
}
function title(text) {
  if (O.title && O.title !== 'none') process.stdout.write(`\x1b]0;${text}\x07`);
}

// ---- the store: plain state the turn script changes and the view draws ----
const S = {
  phase: 'starting', // starting | idle | working | question
  history: [], // {id, rows: [{text, color, bg, dim, bold}]}
  input: '',
  queued: [],
  frame: 0,
  startedAt: 0,
  tokens: 0,
  verb: VERBS[0],
  silent: false,
  question: null, // {style, q, sel, checked, resolve}
  above: [], // rows above the input (retry countdown, "failed after")
  toast: null,
  streaming: null, // rows of the answer being streamed
};
let bump = () => {};
const set = (patch) => {
  Object.assign(S, patch);
  bump();
};
let nextId = 0;
function addBlock(rows) {
  if (O.osc133 && rows.length) {
    rows = rows.map((r) => ({ ...r }));
    rows[0].text = OSC('A') + rows[0].text.replace(/^(\S+ )/, `$1${OSC('B')}${OSC('C')}`);
    rows[rows.length - 1].text += OSC('D;0');
  }
  set({ history: [...S.history, { id: nextId++, rows }] });
}

// ---- turns ----
const CANCEL = Symbol('cancel');
let turnNo = 0;
let cur = null; // the running turn's token: {cancelled, wake}
const sleep = (ms, tok) =>
  new Promise((res, rej) => {
    const t = setTimeout(() => {
      tok.wake = null;
      tok.cancelled ? rej(CANCEL) : res();
    }, ms);
    tok.wake = () => {
      clearTimeout(t);
      rej(CANCEL);
    };
    if (tok.cancelled) tok.wake();
  });

async function work(s, tok, spec) {
  const end = Date.now() + s * 1000;
  let tool = 0;
  const tools = spec.tools ?? 0;
  const step = s / (tools + 1);
  while (Date.now() < end) {
    await sleep(Math.min(250, end - Date.now()), tok);
    if (!S.silent) set({ tokens: S.tokens + Math.floor(20 + Math.random() * 80) });
    if (tool < tools && Date.now() >= end - s * 1000 + step * 1000 * (tool + 1)) addBlock([{ text: toolRow(turnNo + tool++, O.glyph ?? '●'), color: 'green' }]);
  }
}

async function answer(spec, tok) {
  const rows = answerRows(spec.answer_lines ?? 2, O.glyph ?? '●');
  if (O.stream) {
    // streamed in chunks: a few words at a time, then the whole answer goes into the history
    const words = rows.join('\n').split(' ');
    let shown = 0;
    while (shown < words.length) {
      shown = Math.min(words.length, shown + 2 + Math.floor(Math.random() * 4));
      set({ streaming: words.slice(0, shown).join(' ').split('\n') });
      await sleep(O.stream_ms ?? 80, tok);
    }
    set({ streaming: null });
  }
  addBlock(rows.map((text) => ({ text })));
}

async function ask(spec, tok) {
  const style = spec.question?.style ?? O.question ?? 'numbered';
  mark('approval_requested', { style });
  return new Promise((resolve) => {
    set({ phase: 'question', question: { style, q: { ...(O.question_look ?? {}), ...(spec.question ?? {}), width: COLS - 4 }, sel: 0, checked: [true, false], resolve } });
    tok.wake = () => resolve(null);
  });
}

async function retries(spec, tok, n) {
  for (let i = 1; i <= n; i++) {
    const wait = spec.retry_wait_s ?? 2;
    mark('retry', { attempt: i, of: n });
    for (let left = wait; left > 0; left--) {
      set({ above: [{ text: 'Error: 500 Internal Server Error', color: 'red' }, { text: `Retrying (${i}/${n}) in ${left}s…`, dim: true }] });
      await sleep(1000, tok);
    }
    set({ above: [] });
    await work(spec.retry_work_s ?? 0.5, tok, {});
  }
}

async function runTurn(text) {
  const spec = O.turns[turnNo] ?? { work_s: 1, shape: 'answer', answer_lines: 1 };
  turnNo++;
  const tok = { cancelled: false, wake: null };
  cur = tok;
  addBlock([{ text: `${O.user_glyph ?? '>'} ${text}`, dim: O.user_dim }]);
  set({ phase: 'working', startedAt: Date.now(), tokens: 0, verb: VERBS[turnNo % VERBS.length], silent: false, above: [], toast: null });
  try {
    const s = spec.work_s ?? 1;
    switch (spec.shape) {
      case 'question': {
        const at = spec.question?.at_s ?? s / 2;
        await work(at, tok, spec);
        const ok = await ask(spec, tok);
        if (ok === null) throw CANCEL;
        set({ phase: 'working', question: null });
        if (!ok) {
          addBlock([{ text: `${O.glyph ?? '●'} ${spec.deny_text ?? 'Okay, I will not run it.'}`, dim: true }]);
          return end(tok, 'turn_complete');
        }
        await work(Math.max(0.3, s - at), tok, {});
        await answer(spec, tok);
        return end(tok, 'turn_complete');
      }
      case 'error':
        await work(s, tok, spec);
        return fail(spec, tok, 1);
      case 'retry_then_answer':
        await work(s / 2, tok, spec);
        await retries(spec, tok, spec.retries ?? 2);
        await answer(spec, tok);
        return end(tok, 'turn_complete');
      case 'retry_then_fail':
        await work(s / 2, tok, spec);
        await retries(spec, tok, spec.retries ?? 2);
        return fail(spec, tok, (spec.retries ?? 2) + 1);
      case 'silent_backoff':
        await work(Math.min(1, s / 4), tok, {});
        set({ silent: true });
        await work(s, tok, {});
        set({ silent: false });
        await answer(spec, tok);
        return end(tok, 'turn_complete');
      default:
        await work(s, tok, spec);
        await answer(spec, tok);
        return end(tok, 'turn_complete');
    }
  } catch (e) {
    if (e !== CANCEL) throw e;
  }
}

function fail(spec, tok, attempts) {
  const e = errorRows(spec.error_style ?? O.error_style ?? 'bullet', attempts);
  if (e.at === 'history') addBlock(e.rows);
  else if (e.at === 'above') set({ above: e.rows });
  else {
    set({ toast: e.rows[0] });
    setTimeout(() => set({ toast: null }), (O.toast_s ?? 3) * 1000);
  }
  end(tok, 'turn_failed');
}

/** The turn is over: its end in the timeline, then the next queued prompt (same instant) or rest. */
function end(tok, kind) {
  if (cur !== tok) return;
  cur = null;
  const t = Date.now();
  mark(kind, { t });
  set({ phase: 'idle', question: null, streaming: null, silent: false });
  title(O.title_rest ?? 'project');
  if (S.queued.length) {
    const next = S.queued.shift();
    mark('prompt_submitted', { t, queued: true });
    void runTurn(next);
  } else lingerOrExit();
}

function interrupt() {
  const tok = cur;
  if (!tok) return;
  mark('turn_interrupted');
  tok.cancelled = true;
  tok.wake?.();
  addBlock([{ text: `  ${O.interrupted_text ?? '⎿ Interrupted by user'}`, color: 'red' }]);
  if (S.queued.length) set({ input: S.queued.join(' '), queued: [] });
  end(tok, 'turn_complete');
}

let lingerTimer = null;
function lingerOrExit() {
  if (turnNo < O.turns.length) return;
  clearTimeout(lingerTimer);
  lingerTimer = setTimeout(() => process.exit(0), O.linger_s * 1000);
}
setTimeout(() => process.exit(0), O.max_s * 1000);

// ---- the view ----
function Row({ r }) {
  return h(Text, { color: r.color, backgroundColor: r.bg, dimColor: r.dim, bold: r.bold, wrap: 'truncate' }, r.text || ' ');
}

function inputBox(o, st) {
  const glyph = o.prompt_glyph ?? '>';
  const ph = !st.input && o.placeholder;
  const text = h(Text, { wrap: 'truncate' }, `${glyph} `, ph ? h(Text, { dimColor: true }, o.placeholder) : st.input);
  const x = glyph.length + 1 + st.input.length;
  if (o.box === 'round' || o.box === 'square') {
    const el = h(Box, { borderStyle: o.box === 'round' ? 'round' : 'single', borderColor: 'gray', paddingX: 1, width: COLS - (o.box_margin ?? 0) }, text);
    return { el, rows: 3, y: 1, x: x + 2 };
  }
  if (o.box === 'rules') {
    const rule = h(Text, { dimColor: true }, '─'.repeat(COLS));
    return { el: h(Box, { flexDirection: 'column' }, rule, text, rule), rows: 3, y: 1, x };
  }
  return { el: text, rows: 1, y: 0, x };
}

function App() {
  const [, setN] = React.useState(0);
  bump = () => setN((n) => n + 1);
  const { setCursorPosition } = useCursor();
  React.useEffect(() => {
    if (!O.spinner || O.spinner === 'none') {
      if (!O.title || O.title !== 'animated') return undefined;
    }
    const id = setInterval(() => {
      if (S.phase !== 'working' && S.phase !== 'starting' && !(S.phase === 'question' && S.question?.q.pos === 'with_spinner')) return;
      S.frame++;
      if (O.title === 'animated') title(`${spinnerFrame(O.spinner === 'none' ? 'braille' : O.spinner, S.frame)} ${S.verb}`);
      bump();
    }, O.frame_ms);
    return () => clearInterval(id);
  }, []);

  useInput((input, key) => {
    // Keys typed quickly (or read late on a loaded machine) come as one chunk ("fix it\r"): one key at a time.
    if (input.length > 1 && !key.escape && /[\r\n ]/.test(input)) {
      for (const ch of input) onKey(ch === '\r' || ch === '\n' ? '' : ch, ch === '\r' || ch === '\n' ? { return: true } : {});
      return;
    }
    onKey(input, key);
  });

  return view(setCursorPosition);
}

function onKey(input, key) {
  if (S.phase === 'starting') return;
  if (S.phase === 'question') {
    const q = S.question;
    const r = questionKey(q.style, q, input, key);
    if (!r) return;
    if (r.move !== undefined) return set({ question: { ...q, sel: r.move } });
    if (r.toggle !== undefined) return set({ question: { ...q, checked: q.checked.map((c, i) => (i === r.toggle ? !c : c)) } });
    mark(r.answer ? 'approval_given' : 'approval_dismissed', { key: input || Object.keys(key).find((k) => key[k]) });
    q.resolve(r.answer);
    return;
  }
  if ((key.escape || (key.ctrl && input === 'c')) && S.phase === 'working') return interrupt();
  if (key.return) {
    const text = S.input.trim();
    if (!text) return;
    if (S.phase === 'working') return set({ input: '', queued: [...S.queued, text] });
    clearTimeout(lingerTimer);
    mark('prompt_submitted', { text });
    set({ input: '' });
    title(O.title_work ?? 'working');
    void runTurn(text);
    return;
  }
  if (key.backspace || key.delete) return set({ input: S.input.slice(0, -1) });
  if (input && !key.ctrl && !key.meta && !key.escape) set({ input: S.input + input });
}

function view(setCursorPosition) {
  const rows = [];
  let y = 0;
  const push = (el, n) => {
    rows.push(el);
    y += n;
  };
  let k = 0;
  const key = () => `r${k++}`;
  const working = S.phase === 'working' || (S.phase === 'question' && S.question?.q.pos === 'with_spinner');
  if (S.streaming) for (const line of S.streaming) push(h(Row, { key: key(), r: { text: line } }), 1);
  if (S.phase === 'starting' && O.startup_s) push(h(Row, { key: key(), r: { text: `${spinnerFrame(O.spinner === 'none' ? 'dots' : O.spinner, S.frame)} ${O.startup_text ?? 'Starting…'}`, dim: true } }), 1);
  for (const r of S.above) push(h(Row, { key: key(), r }), 1);
  if (working && S.above.length === 0 && !(O.spinner === 'none' && !O.timer && !O.hint)) {
    if (O.status_gap) push(h(Row, { key: key(), r: { text: ' ' } }), 1);
    push(h(Row, { key: key(), r: { text: statusRow(O, S), color: O.status_color ?? 'yellow' } }), 1);
  } else if (S.phase === 'working' && S.above.length && O.hint && O.hint_at !== 'footer') push(h(Row, { key: key(), r: { text: O.hint, dim: true } }), 1);
  let qSel = null;
  if (S.phase === 'question') {
    for (const r of questionRows(S.question.style, S.question.q, S.question)) {
      if (r.selRow) qSel = y;
      push(h(Row, { key: key(), r }), 1);
    }
  }
  for (const q of S.queued) push(h(Row, { key: key(), r: { text: `  ↳ ${q}`, dim: true } }), 1);
  if (S.toast) push(h(Row, { key: key(), r: S.toast }), 1);
  const showBox = S.phase !== 'starting' && !(S.phase === 'question' && S.question.q.pos === 'replace_box');
  let cursor;
  if (showBox) {
    const b = inputBox(O, S);
    cursor = { x: b.x, y: y + b.y };
    push(h(Box, { key: key() }, b.el), b.rows);
  }
  if (S.phase !== 'starting') {
    const footer = S.phase === 'working' && O.hint && O.hint_at === 'footer' ? O.hint : O.footer;
    if (footer) push(h(Row, { key: key(), r: { text: `  ${footer}`, dim: true } }), 1);
  }
  if (O.cursor === 'below_footer') {
    push(h(Row, { key: key(), r: { text: ' ' } }), 1);
    cursor = { x: 0, y: y - 1 };
  }
  if (!showBox && qSel !== null && O.cursor === 'in_box') cursor = { x: 0, y: qSel };
  if (O.cursor !== 'end' && cursor && S.phase !== 'starting') setCursorPosition(cursor);
  else setCursorPosition(undefined);

  return h(
    React.Fragment,
    null,
    h(Static, { items: S.history }, (b) => h(Box, { key: b.id, flexDirection: 'column', marginTop: O.block_gap ? 1 : 0 }, ...b.rows.map((r, i) => h(Row, { key: i, r })))),
    h(Box, { flexDirection: 'column' }, ...rows),
  );
}

// ---- start-up: what a real CLI prints before its TUI draws, then the TUI ----
if (O.screen === 'alt') process.stdout.write('\x1b[?1049h\x1b[H\x1b[2J');
if (O.warning) process.stdout.write(`${O.warning}\r\n`);
if (O.update_fail) process.stdout.write('Failed to check for updates: getaddrinfo ENOTFOUND registry.example.invalid\r\n');
if (O.logo_lines) process.stdout.write(logoRows(O.logo_lines, COLS, O.logo_kind).join('\r\n') + '\r\n');
if (O.banner) S.history.push({ id: nextId++, rows: [{ text: O.banner, bold: true }, { text: `  cwd: ~/project`, dim: true }] });
title(O.title_rest ?? 'project');
render(h(App), { exitOnCtrlC: false, patchConsole: false, incrementalRendering: !!O.incremental, maxFps: O.max_fps ?? 30 });
setTimeout(
  () => {
    set({ phase: 'idle' });
    mark('ready');
  },
  (O.startup_s ?? 0) * 1000,
);
