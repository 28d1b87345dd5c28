// Text of the fullscreen zoo agent's pieces, as blessed tag strings: status line, input row, answer, errors.
import blessed from 'blessed';
import { SPINNERS } from './options.mjs';

const esc = (s) => blessed.escape(String(s));

/** The spinner/status line while working: glyph, verb, then (counter · hint). `silent`: the glyph alone. */
export function statusLine(o, { frame, startedAt, tokens, silent }) {
  const frames = SPINNERS[o.spinner];
  const glyph = frames[frame % frames.length];
  if (silent) return glyph ? `{magenta-fg}${glyph}{/magenta-fg}` : '';
  const secs = Math.floor((Date.now() - startedAt) / 1000);
  const parts = [];
  if (o.counter === 'elapsed' || o.counter === 'both') parts.push(`${secs}s`);
  if (o.counter === 'tokens' || o.counter === 'both') parts.push(`↓ ${tokens >= 1000 ? (tokens / 1000).toFixed(1) + 'k' : tokens} tokens`);
  if (o.hint) parts.push(esc(o.hint));
  const tail = parts.length ? ` {gray-fg}(${parts.join(' · ')}){/gray-fg}` : '';
  return `${glyph ? `{magenta-fg}${glyph}{/magenta-fg} ` : ''}{bold}${esc(o.verb)}…{/bold}${tail}`;
}

/** The input row: prompt, typed text, a block cursor; the placeholder in grey when empty (and nothing to show). */
export function inputRow(o, text, { placeholder }) {
  const cur = '{inverse} {/inverse}';
  if (!text && placeholder && o.placeholder) return `${esc(o.prompt)} ${cur}{gray-fg}${esc(o.placeholder)}{/gray-fg}`;
  return `${esc(o.prompt)} ${esc(text)}${cur}`;
}

/** The answer's lines for a prompt: deterministic text, `n` lines. */
export function answerText(prompt, n) {
  const lines = [];
  for (let i = 1; i <= n; i++) {
    lines.push(i === 1 ? `Sure — about "${prompt}": I looked at the project and here is what I found.` : `Point ${i}: the change in step ${i} keeps the tests green and the API the same.`);
  }
  return lines.join('\n');
}

export const ERROR_TEXT = 'API error 500 {"type":"error","error":{"type":"api_error","message":"Internal server error"}}';

/** Committed message lines for an error shown in the pane ('answer', 'bullet'); [] for the styles drawn elsewhere. */
export function errorLines(style) {
  if (style === 'answer') return [`{red-fg}${esc(ERROR_TEXT)}{/red-fg}`];
  if (style === 'bullet') return ['{red-fg}●{/red-fg} {red-fg}Error:{/red-fg} Request failed with status code 500 (Internal Server Error)'];
  return [];
}

export const BANNER_TEXT = ' ✗ API Error · 500 Internal Server Error · the request failed; type to try again';
export const TOAST_TEXT = '✗ Request failed (500)';

/** The live retry block: the countdown above the error it retries. */
export function retryLines(attempt, max, left) {
  return [
    `{yellow-fg}  ⎿ Retrying (${attempt}/${max}) in ${left}s…{/yellow-fg}`,
    `{red-fg}    Error: 500 Internal Server Error{/red-fg}`,
  ];
}
