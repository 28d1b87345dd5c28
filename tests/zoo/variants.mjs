// The zoo's variants: a seeded generator of short sessions (1-3 turns, about 15 s at most), each a look for the
// agent, its turns, the driver's steps (what a person types, when) and a terminal size. Same seed, same variants.
import { prng } from '../../scripts/record/keys.mjs';
import { logoRows } from './agents/ink-look.mjs';
import { FULLSCREEN_ANSWER_KEYS, fullscreenLook, fullscreenScenario, fullscreenShorten, fullscreenTurn, fullscreenTurnCost } from './fullscreen-variants.mjs';
import { detectionRules, signaturesIn, stringsIn } from './signatures.mjs';

/** The detector's signatures (config `detection.*.screen` / `.title`): no zoo text may carry one. */
const RULES = await detectionRules();

/** A session's estimated length (s) is kept under this: a few hundred record in reasonable time and stay small. */
export const SESSION_MAX_S = 15;
const SIZES = [
  [80, 24],
  [100, 30],
  [120, 40],
];
/** The turn's end, as the driver waits for it. */
const ENDS = ['turn_complete', 'turn_failed'];
const PROMPTS = ['fix the failing test', 'add a --verbose flag', 'why is the build slow?', 'rename foo to bar', 'explain parseArgs', 'write a changelog entry', 'make the linter happy', 'update the deps'];

/** The keys a person presses at each question shape, to approve or to deny (the agent's questionKey agrees). */
export const ANSWER_KEYS = {
  numbered: { approve: [['Enter'], ['1'], ['Down', 'Enter']], deny: [['Esc'], ['3'], ['Down', 'Down', 'Enter']] },
  arrow: { approve: [['Enter'], ['Down', 'Enter']], deny: [['Esc'], ['Down', 'Down', 'Enter']] },
  marks: { approve: [['Enter']], deny: [['Down', 'Enter'], ['Esc']] },
  tabs: { approve: [['Enter'], ['Right', 'Enter']], deny: [['Right', 'Right', 'Enter'], ['Esc']] },
  checkbox: { approve: [['Space', 'Enter'], ['Enter']], deny: [['Esc']] },
  buttons: { approve: [['y']], deny: [['n'], ['Esc']] },
  continue: { approve: [['Tab']], deny: [['Esc']] },
  yn: { approve: [['y']], deny: [['n']] },
};

function hashSeed(...xs) {
  let h = 2166136261;
  for (const c of xs.join(':')) h = Math.imul(h ^ c.charCodeAt(0), 16777619);
  return h >>> 0;
}

function picker(rand) {
  const pick = (xs) => xs[Math.floor(rand() * xs.length)];
  const chance = (p) => rand() < p;
  const range = (a, b, digits = 1) => Number((a + rand() * (b - a)).toFixed(digits));
  const int = (a, b) => a + Math.floor(rand() * (b - a + 1));
  /** weighted: [[value, weight], ...] */
  const weighted = (pairs) => {
    let r = rand() * pairs.reduce((a, [, w]) => a + w, 0);
    for (const [v, w] of pairs) if ((r -= w) < 0) return v;
    return pairs[pairs.length - 1][0];
  };
  return { pick, chance, range, int, weighted };
}

function look(P) {
  const hint = P.pick(['esc to interrupt', 'Esc to cancel', 'ctrl+c to stop', '(esc) stop', null]);
  return {
    screen: P.weighted([['main', 7], ['alt', 3]]),
    cursor: P.pick(['in_box', 'below_footer', 'end']),
    spinner: P.pick(['braille', 'dots', 'stars', 'bar', 'none']),
    frame_ms: P.int(60, 250),
    timer: P.pick([null, 's', 'clock', 'tenths']),
    tokens: P.pick([null, 'arrow', 'plain']),
    hint,
    hint_at: P.weighted([['status', 3], ['footer', 1]]),
    status_join: P.pick(['parens', 'dot']),
    status_gap: P.chance(0.3),
    status_color: P.pick(['yellow', 'magenta', 'cyan', undefined]),
    verbs: P.pick([['Thinking', 'Working'], ['Pondering', 'Reasoning', 'Crafting'], ['Generating'], ['Analyzing', 'Planning']]),
    ellipsis: P.pick(['…', '...', '']),
    box: P.pick(['round', 'square', 'plain', 'rules']),
    prompt_glyph: P.pick(['>', '❯', '›']),
    placeholder: P.pick([null, 'Ask anything…', 'Type a task, or @ to add a file', 'Try "refactor <filepath>"']),
    footer: P.pick([null, '? for shortcuts', '~/project  (main*)   model-7b   78% context left', 'shift+tab to cycle modes']),
    logo_lines: P.weighted([[0, 4], [P.int(1, 12), 4], [P.int(13, 200), 2]]),
    logo_kind: P.pick(['blocks', 'slashes', 'hash']),
    banner: P.pick([null, '✦ Welcome to Acme Agent v0.3.1', 'Moth CLI 2.4 — /help for help']),
    warning: P.weighted([[null, 6], ['Warning: this directory is not a git repository', 1], ['(node:4242) ExperimentalWarning: Fetch is an experimental feature', 1]]),
    update_fail: P.chance(0.2),
    startup_s: P.weighted([[0, 6], [P.range(0.3, 2), 4]]),
    startup_text: P.pick(['Starting…', 'Loading tools…', 'Connecting to 2 servers…']),
    question: P.pick(Object.keys(ANSWER_KEYS)),
    question_look: {
      pos: P.pick(['above_box', 'replace_box', 'with_spinner']),
      frame: P.chance(0.4),
      show_command: P.chance(0.5),
      cursor_glyph: P.pick(['❯', '›', '▶']),
      hint_row: P.pick([null, 'Esc to cancel · Tab to amend', 'enter to select · esc to go back']),
    },
    error_style: P.pick(['banner', 'sorry', 'bullet', 'server', 'badrequest', 'failed_after', 'toast']),
    toast_s: P.range(2, 4),
    osc133: P.chance(0.15),
    title: P.pick(['none', 'static', 'animated']),
    stream: P.chance(0.5),
    stream_ms: P.int(40, 120),
    // (Ink's incrementalRendering is left off: in Ink 6.8 each update lands one row lower than the last, a bug no
    // agent ships with.)
    block_gap: P.chance(0.5),
    glyph: P.pick(['●', '⏺', '✦', '•']),
    user_glyph: P.pick(['>', '›', '❯', '│']),
    linger_s: P.range(3.2, 4.2),
    max_s: 40,
  };
}

function turn(P) {
  const shape = P.weighted([['answer', 30], ['question', 25], ['error', 12], ['retry_then_answer', 10], ['retry_then_fail', 8], ['silent_backoff', 8]]);
  const t = { shape, work_s: shape === 'silent_backoff' ? P.range(2.5, 4) : P.range(0.8, 3), answer_lines: P.int(1, 5), tools: P.int(0, 3) };
  if (shape === 'question') t.question = { at_s: P.range(0.4, t.work_s * 0.7) };
  if (shape.startsWith('retry')) Object.assign(t, { retries: P.int(1, 2), retry_wait_s: P.int(1, 2), work_s: P.range(1, 2.5) });
  return t;
}

/** Rough length of a turn (s) for the session budget. */
function turnCost(t, o) {
  let s = t.work_s + 1.2 + (o.stream ? (t.answer_lines * 10 * (o.stream_ms ?? 80)) / 3000 : 0);
  if (t.shape === 'question') s += 2;
  if (t.retries) s += t.retries * (t.retry_wait_s + 0.5);
  return s;
}

/** How each zoo agent's variants are drawn: its look, a turn, a turn's cost, how to shorten one, its answer keys. */
const AGENTS = {
  ink: {
    look,
    turn,
    cost: turnCost,
    shorten: (t) => {
      if (t.work_s <= 0.8) return false;
      t.work_s = Number(Math.max(0.8, t.work_s - 0.4).toFixed(1));
      return true;
    },
    keys: (o) => ANSWER_KEYS[o.question],
    style: (o) => o.question,
    // the agent queues a prompt typed and entered during work
    follow: [['fresh', 6], ['typeahead', 2], ['queued', 2]],
    interruptable: (t) => ['answer', 'silent_backoff', 'retry_then_answer'].includes(t.shape) && t.work_s >= 2,
    scenario: (turns, notes, o) =>
      `${turns.map((t) => t.shape).join(', ')}${notes.length ? ` [${notes.join(', ')}]` : ''}; ${o.screen} screen, cursor ${o.cursor}, box ${o.box}, spinner ${o.spinner}, error ${o.error_style}, question ${o.question}/${o.question_look.pos}${o.osc133 ? ', OSC 133' : ''}${o.logo_lines ? `, logo ${o.logo_lines}` : ''}${o.startup_s ? `, start-up ${o.startup_s}s` : ''}`,
    drawn: (o, cols) => (o.logo_lines ? logoRows(o.logo_lines, cols, o.logo_kind) : []),
  },
  fullscreen: {
    look: fullscreenLook,
    turn: fullscreenTurn,
    cost: fullscreenTurnCost,
    shorten: fullscreenShorten,
    keys: (o) => FULLSCREEN_ANSWER_KEYS[o.question_style],
    style: (o) => `${o.question_style}/${o.question_place}`,
    // Enter during work is not queued by this agent: a person types ahead and sends it once the turn ended
    follow: [['fresh', 6], ['typeahead', 3]],
    interruptable: (t) => ['answer', 'silent_backoff', 'retry_then_answer'].includes(t.shape) && t.work_s + (t.backoff_s ?? 0) >= 2,
    scenario: fullscreenScenario,
    drawn: () => [],
  },
};

/** Refuses a variant any of whose texts (options, typed prompts, drawn logo rows) carries a real agent's signature. */
export function refuseSignatures(v, extra = []) {
  const found = signaturesIn([...stringsIn(v.options), ...stringsIn(v.steps), ...extra], RULES);
  if (found.length) throw new Error(`zoo variant ${v.name} carries a real agent's signature: ${found.map((f) => `${JSON.stringify(f.text)} matches detection.${f.agent}.${f.field} as ${JSON.stringify(f.form)}`).join('; ')}`);
  return v;
}

/** Variant `i` of a zoo of `agent` seeded `seed`. */
export function variant(agent, seed, i) {
  const A = AGENTS[agent];
  if (!A) throw new Error(`unknown zoo agent ${agent} (known: ${Object.keys(AGENTS).join(', ')})`);
  const vseed = hashSeed(agent, seed, i);
  const P = picker(prng(vseed));
  const [cols, rows] = P.pick(SIZES);
  const o = A.look(P);
  const turns = [];
  const n = P.weighted([[1, 4], [2, 4], [3, 2]]);
  let budget = SESSION_MAX_S - 0.8 - o.startup_s - o.linger_s;
  for (let k = 0; k < n; k++) {
    const t = A.turn(P);
    while (A.cost(t, o) > budget && A.shorten(t));
    if (t.question?.at_s !== undefined) t.question.at_s = Math.min(t.question.at_s, Number((t.work_s * 0.7).toFixed(1)));
    if (t.question?.after_s !== undefined) t.question.after_s = Math.min(t.question.after_s, Number((t.work_s * 0.7).toFixed(1)));
    if (A.cost(t, o) > budget && k > 0) break;
    budget -= A.cost(t, o);
    turns.push(t);
  }
  o.turns = turns;

  const steps = [];
  const notes = [];
  let questions = 0;
  let prevPlain = false; // the previous turn can take typing during its work (no question, not interrupted)
  for (let k = 0; k < turns.length; k++) {
    const t = turns[k];
    const text = P.pick(PROMPTS);
    const how = k > 0 && prevPlain ? P.weighted(A.follow) : 'fresh';
    if (k === 0) steps.push({ wait: 'ready' }, { sleep: P.range(0.3, 1.5) }, { type: text }, { press: 'Enter' });
    else if (how === 'fresh') steps.push({ wait: 'event', kind: ENDS, n: k }, { sleep: P.range(0.4, 2) }, { type: text }, { press: 'Enter' });
    else if (how === 'typeahead') steps.push({ wait: 'event', kind: 'prompt_submitted', n: k }, { sleep: P.range(0.3, 0.8) }, { type: text }, { wait: 'event', kind: ENDS, n: k }, { sleep: P.range(0.3, 1) }, { press: 'Enter' });
    else steps.push({ wait: 'event', kind: 'prompt_submitted', n: k }, { sleep: P.range(0.3, 0.6) }, { type: text }, { press: 'Enter' });
    if (how !== 'fresh') notes.push(how);
    prevPlain = t.shape !== 'question';
    if (t.shape === 'question') {
      const deny = P.chance(0.3);
      steps.push({ wait: 'event', kind: 'approval_requested', n: ++questions }, { sleep: P.range(1, 3) }, { press: P.pick(A.keys(o)[deny ? 'deny' : 'approve']) });
      notes.push(`${A.style(o)}${deny ? ' deny' : ''}`);
    } else if (A.interruptable(t) && P.chance(0.2)) {
      steps.push({ wait: 'event', kind: 'prompt_submitted', n: k + 1 }, { sleep: P.range(0.8, Math.max(0.9, t.work_s * 0.7)) }, { press: o.hint?.startsWith('ctrl') ? 'C-c' : 'Esc' });
      notes.push('interrupt');
      prevPlain = false;
    }
  }
  const v = { name: `${agent}-${String(i).padStart(3, '0')}`, agent, seed: vseed, cols, rows, options: o, steps, scenario: A.scenario(turns, notes, o) };
  return refuseSignatures(v, A.drawn(o, cols));
}

export function variants(agent, seed, count, start = 0) {
  return Array.from({ length: count }, (_, k) => variant(agent, seed, start + k));
}
