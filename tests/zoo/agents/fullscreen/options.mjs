// The fullscreen zoo agent's options: every look and behaviour knob with its default, merged from ZOO_OPTIONS.
// A turn list says what each Enter does; the rest says how it looks. Unknown keys are kept (harmless).

/** Spinner frames per glyph set ('none': no glyph, the status line still says what it does). */
export const SPINNERS = {
  braille: ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'],
  dots: ['∙∙∙', '●∙∙', '∙●∙', '∙∙●'],
  stars: ['✶', '✸', '✹', '✺', '✹', '✷'],
  bar: ['▏', '▎', '▍', '▌', '▋', '▊', '▉', '█', '▉', '▊', '▋', '▌', '▍', '▎'],
  none: [''],
};

/** The turn used once the options' turn list is spent. */
export const FALLBACK_TURN = { work_s: 1.5, shape: 'answer', answer_lines: 2 };

export const DEFAULTS = {
  turns: [],
  // start-up splash: null or { lines: [...], ms }
  splash: null,
  // window title: 'none' | 'static' | 'animated' (spinner frame in the title while working)
  title: 'static',
  title_text: 'zoo agent',
  // mouse tracking (blessed's modes 1000/1002/1003/1005), plus SGR reports (1006) when mouse_sgr
  mouse: true,
  mouse_sgr: true,
  sync: true,
  spinner: 'braille',
  frame_ms: 80,
  verb: 'Working',
  // 'elapsed' | 'tokens' | 'both' | 'none'
  counter: 'elapsed',
  // interrupt hint after the counter, or null
  hint: 'esc to interrupt',
  // input box: 'box' (bordered), 'line' (a rule above a prompt row), 'bar' (one inverse row)
  input_style: 'box',
  prompt: '>',
  placeholder: 'Ask anything, or type / for commands',
  // status bar at the bottom, or null
  footer: 'zoo-1 · ~/project · ? for shortcuts',
  // question look: 'numbered' | 'arrows' | 'buttons' | 'yn' | 'checkboxes' | 'checkmarks'; place: 'modal' | 'inline'
  question_style: 'numbered',
  question_place: 'inline',
  // error look: 'banner' | 'answer' | 'bullet' | 'toast'
  error_style: 'bullet',
  toast_s: 4,
  retries: 2,
  max_retries: 3,
  retry_delay_s: 2,
  backoff_s: 4,
  // the answer streams in chunks of chunk_chars every chunk_ms into the message pane
  chunk_chars: 14,
  chunk_ms: 50,
  answer_bullet: '●',
  // message pane: 'top' (lines flow down from the top) or 'bottom' (the newest line right above the spinner line)
  pane_anchor: 'top',
  user_prefix: '>',
  quit_window_ms: 2000,
  // exit by itself this long (s) after the last listed turn ended (the zoo recorder ends a recording at the exit),
  // or null: run until Ctrl-D / Ctrl-C twice
  linger_s: null,
  // exit by itself after this long (s) whatever happens, or null
  max_s: null,
};

export const DEFAULT_QUESTION = {
  title: 'Bash command',
  text: 'Do you want to run `rm -rf build`?',
  detail: 'rm -rf build  # clean the build directory',
  options: ['Yes', "Yes, and don't ask again this session", 'No, and tell me what to do differently'],
};

export function loadOptions(env = process.env) {
  let given = {};
  if (env.ZOO_OPTIONS) given = JSON.parse(env.ZOO_OPTIONS);
  const o = { ...DEFAULTS, ...given };
  if (!SPINNERS[o.spinner]) throw new Error(`unknown spinner ${o.spinner}`);
  return o;
}

/** A turn's full description: its own fields over the fallback, its question over the default question. */
export function turnAt(o, n) {
  const t = { ...FALLBACK_TURN, ...(o.turns[n] ?? {}) };
  t.question = { ...DEFAULT_QUESTION, style: o.question_style, place: o.question_place, ...(t.question ?? {}) };
  t.error_style ??= o.error_style;
  return t;
}
