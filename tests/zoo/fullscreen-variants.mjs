// The fullscreen zoo agent's recorded variants: each an option set for the agent (its look and its turns) and a
// driver plan, one step per turn (what the person types, and how they answer a question or cut the work short).
// Together they cover every spinner, counter, hint, input style, question look and place, error style and turn shape.
//   step: { prompt, answer?: [keys...] (after think_s at the question), interrupt?: { after_s, key } }

const Q = (style, place) => ({ question_style: style, question_place: place });

export const VARIANTS = [
  {
    about: 'defaults (braille, box input, footer); an answer, an inline numbered question approved with Enter, an answer',
    options: { turns: [{ work_s: 3, shape: 'answer', answer_lines: 3 }, { work_s: 4, shape: 'question' }, { work_s: 2, shape: 'answer' }] },
    plan: [{ prompt: 'explain the build' }, { prompt: 'clean the build dir', answer: ['Enter'], think_s: 3 }, { prompt: 'thanks' }],
  },
  {
    about: 'dots, token counter, "Esc to cancel"; a modal numbered question approved with 1',
    options: { spinner: 'dots', counter: 'tokens', hint: 'Esc to cancel', ...Q('numbered', 'modal'), turns: [{ work_s: 5, shape: 'question', answer_lines: 4 }] },
    plan: [{ prompt: 'delete the cache', answer: ['1'], think_s: 4 }],
  },
  {
    about: 'stars, both counters, "ctrl+c to stop"; inline buttons approved with y, then an answer',
    options: { spinner: 'stars', counter: 'both', hint: 'ctrl+c to stop', ...Q('buttons', 'inline'), turns: [{ work_s: 3, shape: 'question' }, { work_s: 4, shape: 'answer' }] },
    plan: [{ prompt: 'run the migrations', answer: ['y'], think_s: 2.5 }, { prompt: 'and now?' }],
  },
  {
    about: 'bar spinner, no counter, no hint; an inline y/n question denied with n, then an answer',
    options: { spinner: 'bar', counter: 'none', hint: null, ...Q('yn', 'inline'), turns: [{ work_s: 2, shape: 'question' }, { work_s: 3, shape: 'answer' }] },
    plan: [{ prompt: 'force push main', answer: ['n'], think_s: 3 }, { prompt: 'ok, open a PR instead' }],
  },
  {
    about: 'no spinner glyph (verb and timer only); a modal arrow list, moved down and approved',
    options: { spinner: 'none', ...Q('arrows', 'modal'), turns: [{ work_s: 4, shape: 'question', answer_lines: 3 }] },
    plan: [{ prompt: 'install the deps', answer: ['Down', 'Enter'], think_s: 3.5 }],
  },
  {
    about: 'inline checkboxes approved, then an error shown as a bullet',
    options: { ...Q('checkboxes', 'inline'), error_style: 'bullet', turns: [{ work_s: 3, shape: 'question' }, { work_s: 3, shape: 'error' }] },
    plan: [{ prompt: 'write the config', answer: ['Enter'], think_s: 2 }, { prompt: 'deploy it' }],
  },
  {
    about: 'modal checkmarks denied with Esc, then an answer',
    options: { ...Q('checkmarks', 'modal'), turns: [{ work_s: 3, shape: 'question' }, { work_s: 3, shape: 'answer' }] },
    plan: [{ prompt: 'drop the table', answer: ['Esc'], think_s: 4 }, { prompt: 'show the schema' }],
  },
  {
    about: 'an error as a red banner, then an answer that clears it',
    options: { error_style: 'banner', turns: [{ work_s: 4, shape: 'error' }, { work_s: 3, shape: 'answer' }] },
    plan: [{ prompt: 'summarise the logs' }, { prompt: 'try again' }],
  },
  {
    about: 'an error as a toast that vanishes, then an answer',
    options: { error_style: 'toast', toast_s: 3, spinner: 'stars', turns: [{ work_s: 3, shape: 'error' }, { work_s: 4, shape: 'answer' }] },
    plan: [{ prompt: 'fetch the issue list' }, { prompt: 'again please' }],
  },
  {
    about: 'an error as an answer line "API error 500 {...}", then an answer',
    options: { error_style: 'answer', counter: 'tokens', turns: [{ work_s: 3, shape: 'error' }, { work_s: 3, shape: 'answer' }] },
    plan: [{ prompt: 'refactor utils' }, { prompt: 'retry' }],
  },
  {
    about: 'two retries with a countdown above "Error: 500", then the answer',
    options: { turns: [{ work_s: 2, shape: 'retry_then_answer', retries: 2, retry_delay_s: 3, answer_lines: 4 }] },
    plan: [{ prompt: 'write the tests' }],
  },
  {
    about: 'retries exhausted, then a banner error; then an answer',
    options: { error_style: 'banner', spinner: 'dots', turns: [{ work_s: 2, shape: 'retry_then_fail', max_retries: 3, retry_delay_s: 2 }, { work_s: 2, shape: 'answer' }] },
    plan: [{ prompt: 'call the API' }, { prompt: 'once more' }],
  },
  {
    about: 'a silent back-off: only the braille spinner for 8 s, then the answer',
    options: { turns: [{ work_s: 2, shape: 'silent_backoff', backoff_s: 8, answer_lines: 3 }] },
    plan: [{ prompt: 'think hard' }],
  },
  {
    about: 'a silent back-off with stars and no counter, then an inline numbered question approved',
    options: { spinner: 'stars', counter: 'none', turns: [{ work_s: 1, shape: 'silent_backoff', backoff_s: 6 }, { work_s: 3, shape: 'question' }] },
    plan: [{ prompt: 'plan the release' }, { prompt: 'tag it', answer: ['Enter'], think_s: 3 }],
  },
  {
    about: 'long work interrupted with Esc, then an answer',
    options: { turns: [{ work_s: 30, shape: 'answer' }, { work_s: 3, shape: 'answer' }] },
    plan: [{ prompt: 'rewrite everything', interrupt: { after_s: 6, key: 'Esc' } }, { prompt: 'just the parser' }],
  },
  {
    about: 'bar input, no footer; long work interrupted with Ctrl-C, then an error bullet',
    options: { input_style: 'bar', footer: null, hint: 'ctrl+c to stop', turns: [{ work_s: 30, shape: 'answer' }, { work_s: 3, shape: 'error' }] },
    plan: [{ prompt: 'index the repo', interrupt: { after_s: 5, key: 'C-c' } }, { prompt: 'only src/' }],
  },
  {
    about: 'no sync output, no mouse, line input, no placeholder; an inline y/n approved with y',
    options: { sync: false, mouse: false, input_style: 'line', placeholder: null, ...Q('yn', 'inline'), turns: [{ work_s: 3, shape: 'question' }, { work_s: 2, shape: 'answer' }] },
    plan: [{ prompt: 'run make', answer: ['y'], think_s: 3 }, { prompt: 'and the tests' }],
  },
  {
    about: 'a splash at start, animated title; a long answer streamed slowly through the scrolling pane',
    options: { splash: { ms: 1500, lines: ['╔═╗╔═╗╔═╗', '╔═╝║ ║║ ║', '╚═╝╚═╝╚═╝', 'zoo agent v0.1'] }, title: 'animated', chunk_ms: 80, chunk_chars: 10, turns: [{ work_s: 3, shape: 'answer', answer_lines: 40 }] },
    plan: [{ prompt: 'write the docs' }],
  },
  {
    about: 'pane anchored at the bottom; an inline numbered question denied with 3, then an answer',
    options: { pane_anchor: 'bottom', ...Q('numbered', 'inline'), turns: [{ work_s: 3, shape: 'question' }, { work_s: 3, shape: 'answer' }] },
    plan: [{ prompt: 'rm the old logs', answer: ['3'], think_s: 3 }, { prompt: 'archive them then' }],
  },
  {
    about: 'long work (12 s) then a modal buttons question approved with y; then retries exhausted, error as an answer line',
    cols: 100,
    rows: 30,
    options: { title: 'none', ...Q('buttons', 'modal'), error_style: 'answer', turns: [{ work_s: 14, shape: 'question' }, { work_s: 2, shape: 'retry_then_fail', max_retries: 2, retry_delay_s: 3 }] },
    plan: [{ prompt: 'upgrade the framework', answer: ['y'], think_s: 5 }, { prompt: 'push it' }],
  },
];
