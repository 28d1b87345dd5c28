// The fullscreen zoo agent's side of the seeded generator (variants.mjs): its look (agents/README.md's look options,
// each drawn at random), its turns, their rough cost, and the keys a person presses at each of its question styles.

/** The keys a person presses at each of the agent's question styles, to approve or to deny (fullscreen/question.mjs
 * agrees: Esc and the last choice deny; y / n, digits, arrows and Enter as each look offers them). */
export const FULLSCREEN_ANSWER_KEYS = {
  numbered: { approve: [['Enter'], ['1'], ['2'], ['Down', 'Enter']], deny: [['Esc'], ['3'], ['Down', 'Down', 'Enter']] },
  arrows: { approve: [['Enter'], ['Down', 'Enter']], deny: [['Esc'], ['Down', 'Down', 'Enter']] },
  buttons: { approve: [['y'], ['Enter']], deny: [['n'], ['Esc'], ['Right', 'Enter']] },
  yn: { approve: [['y'], ['Enter']], deny: [['n'], ['Esc']] },
  checkboxes: { approve: [['Enter'], ['1']], deny: [['Esc'], ['3'], ['Down', 'Down', 'Enter']] },
  checkmarks: { approve: [['Enter'], ['1']], deny: [['Esc'], ['2'], ['Down', 'Enter']] },
};

const SPLASHES = [
  ['╔═╗╔═╗╔═╗', '╔═╝║ ║║ ║', '╚═╝╚═╝╚═╝', 'zoo agent v0.1'],
  ['~ zoo ~', 'loading your workspace'],
  ['▗▄▖ ▗▄▖', '▐▌▐▌▐▌▐▌', '▝▀▘ ▝▀▘', 'Pangolin 1.2'],
];

/** A random look for agents/fullscreen-agent.mjs. */
export function fullscreenLook(P) {
  const splash = P.weighted([[null, 3], [{ lines: P.pick(SPLASHES), ms: P.int(400, 1500) }, 1]]);
  return {
    spinner: P.pick(['braille', 'dots', 'stars', 'bar', 'none']),
    frame_ms: P.int(60, 200),
    verb: P.pick(['Working', 'Thinking', 'Processing', 'Brewing']),
    counter: P.pick(['elapsed', 'tokens', 'both', 'none']),
    hint: P.pick(['esc to interrupt', 'Esc to cancel', 'ctrl+c to stop', 'esc: stop', null]),
    input_style: P.pick(['box', 'line', 'bar']),
    prompt: P.pick(['>', '❯', '›']),
    placeholder: P.pick([null, 'Ask anything, or type / for commands', 'Describe a change…', 'What should we build?', 'Send a message (/ for commands)']),
    footer: P.pick([null, 'zoo-1 · ~/project · ? for shortcuts', '~/project (main) · model-9 · 64% context', 'ctrl+p palette · tab switch mode']),
    splash,
    title: P.pick(['none', 'static', 'animated']),
    title_text: P.pick(['zoo agent', 'project · zoo', 'zoo: ~/project']),
    mouse: P.chance(0.7),
    mouse_sgr: P.chance(0.7),
    sync: P.chance(0.75),
    question_style: P.pick(Object.keys(FULLSCREEN_ANSWER_KEYS)),
    question_place: P.pick(['inline', 'modal']),
    error_style: P.pick(['bullet', 'answer', 'banner', 'toast']),
    toast_s: P.range(2, 4),
    retries: P.int(1, 2),
    max_retries: P.int(2, 3),
    retry_delay_s: P.int(1, 2),
    backoff_s: P.range(2, 4.5),
    chunk_chars: P.int(6, 20),
    chunk_ms: P.int(30, 90),
    answer_bullet: P.pick(['●', '⏺', '✦', '•']),
    user_prefix: P.pick(['>', '›', '❯', '│']),
    pane_anchor: P.pick(['top', 'bottom']),
    linger_s: P.range(3.2, 4.2),
    max_s: 40,
    startup_s: splash ? splash.ms / 1000 : 0,
  };
}

/** A random turn for it. */
export function fullscreenTurn(P) {
  const shape = P.weighted([['answer', 30], ['question', 25], ['error', 12], ['retry_then_answer', 10], ['retry_then_fail', 8], ['silent_backoff', 8]]);
  const t = { shape, work_s: P.range(0.8, 3), answer_lines: P.int(1, 5) };
  if (shape === 'question') t.question = { after_s: P.range(0.4, t.work_s * 0.7) };
  if (shape === 'error' || shape === 'retry_then_fail') {
    if (P.chance(0.3)) t.error_style = P.pick(['bullet', 'answer', 'banner', 'toast']);
  }
  if (shape.startsWith('retry')) Object.assign(t, { work_s: P.range(0.8, 2), retry_delay_s: P.int(1, 2) });
  if (shape === 'silent_backoff') Object.assign(t, { work_s: P.range(0.5, 1.5), backoff_s: P.range(2.5, 5) });
  return t;
}

/** Rough length of a turn (s) for the session budget. */
export function fullscreenTurnCost(t, o) {
  const chars = 70 * t.answer_lines;
  let s = t.work_s + 1.2 + ((chars / o.chunk_chars) * o.chunk_ms) / 1000;
  if (t.shape === 'question') s += 2;
  if (t.shape === 'retry_then_answer') s += (o.retries ?? 2) * (t.retry_delay_s ?? o.retry_delay_s);
  if (t.shape === 'retry_then_fail') s += (o.max_retries ?? 3) * (t.retry_delay_s ?? o.retry_delay_s);
  if (t.shape === 'silent_backoff') s += t.backoff_s ?? o.backoff_s;
  return s;
}

/** A turn made cheaper by one step (its work shortened, then its back-off). */
export function fullscreenShorten(t) {
  if (t.work_s > 0.8) t.work_s = Number(Math.max(0.8, t.work_s - 0.4).toFixed(1));
  else if (t.backoff_s > 2) t.backoff_s = Number(Math.max(2, t.backoff_s - 0.5).toFixed(1));
  else return false;
  return true;
}

export function fullscreenScenario(turns, notes, o) {
  return `${turns.map((t) => t.shape).join(', ')}${notes.length ? ` [${notes.join(', ')}]` : ''}; input ${o.input_style}, spinner ${o.spinner}, counter ${o.counter}, hint ${o.hint ?? 'none'}, error ${o.error_style}, question ${o.question_style}/${o.question_place}, title ${o.title}${o.mouse ? '' : ', no mouse'}${o.sync ? '' : ', no sync'}${o.splash ? `, splash ${o.splash.ms}ms` : ''}${o.footer ? '' : ', no footer'}`;
}
