// The zoo's Ink agent's look: what each look option draws, as plain strings and row lists (no React here). Every
// agent in the zoo draws these things its own way; these tables are the ways this one knows.

export const SPINNERS = {
  braille: ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'],
  dots: ['∙∙∙', '●∙∙', '∙●∙', '∙∙●'],
  stars: ['✻', '✶', '✳', '✢', '·', '✢', '✳', '✶'],
  bar: ['▁', '▃', '▄', '▅', '▆', '▇', '▆', '▅', '▄', '▃'],
  none: null,
};

/** The spinner's frame `n` (empty when the look has none). */
export function spinnerFrame(kind, n) {
  const f = SPINNERS[kind];
  return f ? f[n % f.length] : '';
}

/** Elapsed time as the look shows it. */
export function elapsed(ms, style) {
  const s = Math.floor(ms / 1000);
  if (style === 'clock') return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
  if (style === 'tenths') return `${(ms / 1000).toFixed(1)}s`;
  return `${s}s`;
}

/** The status row under work: glyph, verb, then timer / tokens / hint in the look's arrangement. */
export function statusRow(o, st) {
  const glyph = spinnerFrame(o.spinner, st.frame);
  const parts = [];
  if (o.timer && !st.silent) parts.push(elapsed(Date.now() - st.startedAt, o.timer));
  if (o.tokens && !st.silent) parts.push(`${o.tokens === 'arrow' ? '↓ ' : ''}${st.tokens} tokens`);
  if (o.hint && o.hint_at !== 'footer') parts.push(o.hint);
  const verb = st.silent ? o.silent_verb ?? st.verb : st.verb;
  const head = `${glyph ? glyph + ' ' : ''}${verb}${o.ellipsis ?? '…'}`;
  if (!parts.length) return head;
  return o.status_join === 'dot' ? `${head} · ${parts.join(' · ')}` : `${head} (${parts.join(' · ')})`;
}

/** Start-up ASCII art: `n` rows of a pattern no wider than `width`. */
export function logoRows(n, width, kind) {
  const cells = kind === 'slashes' ? ['/', '\\', '_', ' ', '|'] : kind === 'hash' ? ['#', ' ', '#', '=', ' '] : ['█', '▀', '▄', ' ', '░'];
  const w = Math.max(8, Math.min(width - 4, 60));
  const rows = [];
  for (let y = 0; y < n; y++) {
    let r = '';
    for (let x = 0; x < w; x++) r += cells[(x * 7 + y * 3 + ((x * y) % 5)) % cells.length];
    rows.push('  ' + r.trimEnd());
  }
  return rows;
}

/** What the question says and offers, by shape. `approve`: picking the option approves. */
export function questionSpec(style, q) {
  const cmd = q.command ?? 'npm test';
  const title = q.title ?? `Run \`${cmd}\`?`;
  switch (style) {
    case 'numbered':
      return { title, options: [['Yes', true], ["Yes, and don't ask again this session", true], ['No, and tell me what to do differently (esc)', false]], keys: 'list' };
    case 'arrow':
      return { title, options: [['Allow once', true], ['Allow always', true], ['Deny', false]], keys: 'list' };
    case 'marks':
      return { title, options: [['✓ Yes, run it', true], ['✗ No, skip it', false]], keys: 'list' };
    case 'tabs':
      return { title, options: [['Allow', true], ['Always', true], ['Deny', false]], keys: 'tabs' };
    case 'checkbox':
      return { title, options: [[`Run ${cmd}`, true], ['Also run the linter', true]], keys: 'checkbox' };
    case 'buttons':
      return { title, options: [['[y] Approve', true], ['[n] Deny', false]], keys: 'yn' };
    case 'continue':
      return { title, options: [], keys: 'continue' };
    case 'yn':
    default:
      return { title: `${title} (y/n)`, options: [], keys: 'yn' };
  }
}

/** The question's rows as drawn, with the selected option `sel` (and checked boxes, the tab). */
export function questionRows(style, q, st) {
  const spec = questionSpec(style, q);
  const rows = [];
  const mark = q.cursor_glyph ?? '❯';
  if (q.frame) rows.push({ text: '─'.repeat(Math.min(q.width ?? 60, 60)), dim: true });
  if (style === 'tabs') {
    rows.push({ text: spec.title, bold: true });
    rows.push({ text: spec.options.map(([l], i) => (i === st.sel ? `[${l}]` : ` ${l} `)).join(' │ '), selRow: true });
    rows.push({ text: '←/→ to choose · enter to confirm · esc to cancel', dim: true });
  } else if (style === 'buttons') {
    rows.push({ text: spec.title, bold: true });
    rows.push({ text: spec.options.map(([l]) => l).join('   '), selRow: true });
  } else if (style === 'continue') {
    rows.push({ text: spec.title, bold: true });
    rows.push({ text: `  ${cmdLine(q)}`, dim: true });
    rows.push({ text: 'Continue (tab)   ·   Cancel (esc)', selRow: true });
  } else if (style === 'yn') {
    rows.push({ text: spec.title, bold: true, selRow: true });
  } else if (style === 'checkbox') {
    rows.push({ text: spec.title, bold: true });
    spec.options.forEach(([l], i) => rows.push({ text: `${i === st.sel ? mark : ' '} [${st.checked[i] ? 'x' : ' '}] ${l}`, selRow: i === st.sel }));
    rows.push({ text: 'space to toggle · enter to confirm · esc to cancel', dim: true });
  } else {
    rows.push({ text: spec.title, bold: true });
    if (q.show_command) rows.push({ text: `  ${cmdLine(q)}`, dim: true });
    spec.options.forEach(([l], i) => {
      const n = style === 'numbered' ? `${i + 1}. ` : '';
      const pointer = style === 'arrow' ? '→' : mark;
      rows.push({ text: `${i === st.sel ? pointer : ' '} ${n}${l}`, selRow: i === st.sel, color: i === st.sel ? 'cyan' : undefined });
    });
    if (q.hint_row) rows.push({ text: q.hint_row, dim: true });
  }
  if (q.frame) rows.push({ text: '─'.repeat(Math.min(q.width ?? 60, 60)), dim: true });
  return rows;
}

function cmdLine(q) {
  return `$ ${q.command ?? 'npm test'}`;
}

/**
 * A key at the question: { move } (selection changes, still asking), { toggle }, { answer: true|false }, or null
 * (ignored). Esc always denies.
 */
export function questionKey(style, st, input, key) {
  const spec = questionSpec(style, {});
  if (key.escape) return { answer: false };
  if (spec.keys === 'yn') {
    if (input === 'y' || input === 'Y') return { answer: true };
    if (input === 'n' || input === 'N') return { answer: false };
    return null;
  }
  if (spec.keys === 'continue') {
    if (key.tab || key.return) return { answer: true };
    return null;
  }
  const n = spec.options.length;
  if (spec.keys === 'checkbox') {
    if (input === ' ') return { toggle: st.sel };
    if (key.upArrow) return { move: Math.max(0, st.sel - 1) };
    if (key.downArrow) return { move: Math.min(n - 1, st.sel + 1) };
    if (key.return) return { answer: true };
    return null;
  }
  const back = spec.keys === 'tabs' ? key.leftArrow : key.upArrow;
  const fwd = spec.keys === 'tabs' ? key.rightArrow || key.tab : key.downArrow;
  if (back) return { move: Math.max(0, st.sel - 1) };
  if (fwd) return { move: Math.min(n - 1, st.sel + 1) };
  if (key.return) return { answer: spec.options[st.sel][1] };
  if (style === 'numbered' && /^[1-9]$/.test(input) && Number(input) <= n) return { answer: spec.options[Number(input) - 1][1] };
  return null;
}

/** An error as the look shows it: rows, and where ('history': a message; 'above': above the input; 'toast'). */
export function errorRows(style, attempts) {
  switch (style) {
    case 'banner':
      return { at: 'history', rows: [{ text: ' ✖ Error: 500 Internal Server Error ', color: 'white', bg: 'red' }, { text: '  The request could not be completed.', dim: true }] };
    case 'sorry':
      return { at: 'history', rows: [{ text: "● I'm sorry, an API error occurred: 500 Internal Server Error" }] };
    case 'bullet':
      return { at: 'history', rows: [{ text: '• Error: Request failed with status code 500', color: 'red' }] };
    case 'server':
      return { at: 'history', rows: [{ text: 'Server error: 500', color: 'red' }, { text: '  {"error":{"type":"internal","message":"upstream unavailable"}}', dim: true }] };
    case 'badrequest':
      return { at: 'history', rows: [{ text: 'Bad request: 400', color: 'red' }, { text: '  {"error":{"message":"invalid request body"}}', dim: true }] };
    case 'failed_after':
      return { at: 'above', rows: [{ text: `✗ Request failed after ${attempts} attempts. Try again later.`, color: 'red' }] };
    case 'toast':
    default:
      return { at: 'toast', rows: [{ text: '  ⚠ Something went wrong (500). ', color: 'black', bg: 'yellow' }] };
  }
}

/** The answer's rows: `n` lines of plain prose (a turn's reply). */
export function answerRows(n, glyph) {
  const prose = [
    'I looked at the project and made the change you asked for.',
    'The tests in the package pass with the new behaviour.',
    'Two files changed: the parser and its unit test.',
    'Nothing else needed touching; the build is clean.',
    'You may want to review the edge case around empty input.',
    'Let me know if you want the same change in the other module.',
  ];
  const rows = [];
  for (let i = 0; i < n; i++) rows.push((i === 0 ? `${glyph} ` : '  ') + prose[i % prose.length]);
  return rows;
}

/** A tool step shown while working (informative: it is part of the turn). */
export function toolRow(i, glyph) {
  const tools = ['Read(src/index.ts)', 'Search("parseArgs")', 'Edit(src/parser.ts)', 'Bash(npm run build)', 'Read(package.json)'];
  return `${glyph} ${tools[i % tools.length]}`;
}
