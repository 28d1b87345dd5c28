// Which of a waiting pane's options a key or a word names, for `top` (a digit, y, n) and `answer PANE OPTION`.
// The option ids come from the daemon (PaneView.question); a person's y/n also means an agent menu's "Yes"/"No"
// line, and y alone means a lone "Press Enter" prompt. Pure.
import type { QuestionOption, QuestionView } from '../web/api-types.js';

export function pickOption(q: QuestionView | null | undefined, input: string): QuestionOption | null {
  if (!q) return null;
  const want = input.trim().toLowerCase();
  const exact = q.options.find((o) => o.id.toLowerCase() === want);
  if (exact) return exact;
  if (want === 'y' || want === 'yes') return q.options.find((o) => /^\s*yes\b/i.test(o.label)) ?? (q.options.length === 1 ? q.options[0]! : null);
  if (want === 'n' || want === 'no') return q.options.find((o) => /^\s*no\b/i.test(o.label)) ?? null;
  return null;
}

/** "1 Yes · 2 Yes, and don't ask again · 3 No": the choices as one line. */
export function optionsLine(q: QuestionView): string {
  return q.options.map((o) => `${o.id} ${o.label}`).join(' · ');
}
