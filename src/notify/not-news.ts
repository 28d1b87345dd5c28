// What is not news to the person: what they did themselves (their own Ctrl-C or Esc) and a program starting up
// (a REPL or an agent reaching its first prompt after the command that launched it). Read from the transition's
// rule, line and program, and the pane's facts; no screen is re-read here.
import type { NotifyEvent } from './types.js';

export type NotNews = 'own_interrupt' | 'startup';

/** An interrupt key typed this long before the end is what ended it (the program's exit takes a moment). */
export const OWN_KEY_WINDOW_MS = 5_000;
/** The exit status of a process ended by SIGINT (128 + 2): what a Ctrl-C leaves. */
const SIGINT_EXIT = 130;
/** An agent's own word for the person's interrupt: `claude.interrupted`, `gemini.cancelled`, `generic.interrupt_gone`. */
const INTERRUPT_RULE = /\.(?:interrupted|cancelled)$|^generic\.interrupt_gone$/;
/** The terminal's echo of a Ctrl-C, at the end of a row (`^C`, `sleep 30^C`). */
const CTRL_C_ECHO = /\^C\s*$/;
/** Rows above the prompt searched for that echo: the prompt comes back right below it. */
const ECHO_ROWS = 3;
/** A REPL's prompt rule (profiles/shell.ts): `shell.repl_prompt`, `shell.repl_continuation`. */
const REPL_RULE = /\.repl_(?:prompt|continuation)$/;

/** Per pane: where it last came to rest (the rule and program of its last DONE, FAILED or IDLE). */
export class RestMemory {
  private readonly rest = new Map<string, { rule: string; program: string }>();

  note(paneId: string, to: string, rule: string, program: string): void {
    if (to === 'DONE' || to === 'FAILED' || to === 'IDLE') this.rest.set(paneId, { rule, program });
  }

  last(paneId: string): { rule: string; program: string } | undefined {
    return this.rest.get(paneId);
  }

  forget(paneId: string): void {
    this.rest.delete(paneId);
  }
}

/** Why this event is not news, or null when it is. `before` is where the pane rested before this event. */
export function notNews(ev: NotifyEvent, before: { rule: string; program: string } | undefined): NotNews | null {
  if (ev.kind !== 'DONE' && ev.kind !== 'FAILED') return null;
  if (ownInterrupt(ev)) return 'own_interrupt';
  if (ev.kind === 'DONE' && startup(ev, before)) return 'startup';
  return null;
}

export function ownInterrupt(ev: NotifyEvent): boolean {
  const f = ev.facts ?? {};
  if (INTERRUPT_RULE.test(ev.rule) || f.interruptedOnScreen) return true;
  const keyed = f.interruptKeyAt != null && ev.at - f.interruptKeyAt <= OWN_KEY_WINDOW_MS && ev.at >= f.interruptKeyAt - 1000;
  const lineExit = /^exit (\d+)\b/.exec(ev.line.trim());
  const exit = f.exitCode ?? (lineExit ? Number(lineExit[1]) : null);
  if (exit === SIGINT_EXIT && (keyed || CTRL_C_ECHO.test(ev.line))) return true;
  // A shell back at its prompt right under the ^C echo (tmux shows no keys, but the terminal echoed it).
  const rows = (f.edge ?? []).map((r) => r.trimEnd()).filter((r) => r !== '');
  const above = rows.slice(-1 - ECHO_ROWS, -1);
  if (above.some((r) => CTRL_C_ECHO.test(r)) && (ev.program === 'shell' || keyed)) return true;
  // A screen end right after their interrupt key, on an agent's TUI (Esc) or a shell (Ctrl-C).
  return keyed && ev.tier !== 1;
}

/** The program the last command launched reached its first prompt: a REPL's `>>>` after a shell prompt, an
 * agent's first rest after the shell's. Nothing was asked of it yet, so nothing is done. */
function startup(ev: NotifyEvent, before: { rule: string; program: string } | undefined): boolean {
  const wasRepl = before !== undefined && REPL_RULE.test(before.rule);
  if (REPL_RULE.test(ev.rule)) return !wasRepl;
  if (before === undefined || before.program !== 'shell' || ev.program === 'shell' || ev.program === 'generic') return false;
  // Only the turn that launched it: its command names the program (`claude`, `$ npx codex`).
  const words = (ev.facts?.command ?? '').toLowerCase().split(/[\s/]+/);
  return words.includes(ev.program.toLowerCase());
}
