// The command an agent's approval dialog asks to run, read from the rows above its question: Codex's `$ cmd`,
// Claude's "Bash command" block, a tool call `Bash(cmd)`. Shown in the notification so the person can decide
// from it; null when the dialog names none (an edit, a fetch).

/** Rows above the question searched for the command: a dialog is short. */
const ROWS_ABOVE = 12;
/** Box-drawing borders and blanks around a dialog's row (as question-options.ts strips them). */
const BORDERS = /^[\s│┃|╭╮╰╯─━┌┐└┘]+|[\s│┃|╭╮╰╯─━┌┐└┘]+$/g;
/** A dialog title whose next non-blank row is the command. */
const COMMAND_TITLE = /^(?:Bash|Shell|Run|Execute)(?: command)?:?$/i;
/** A tool call line naming the command: `⏺ Bash(npm test)`, `Shell(ls -la)`. */
const TOOL_CALL = /\b(?:Bash|Shell|run_shell_command)\((.+)\)\s*$/;
/** Codex's command row. */
const DOLLAR = /^\$ (.+)$/;

export function wantedCommand(edge: readonly string[], questionText: string): string | null {
  const rows = edge.map((r) => r.replace(BORDERS, ''));
  let q = -1;
  const needle = questionText.trim();
  for (let i = rows.length - 1; i >= 0; i--) if (needle && rows[i]!.includes(needle)) { q = i; break; }
  const end = q >= 0 ? q : rows.length;
  const from = Math.max(0, end - ROWS_ABOVE);
  for (let i = end - 1; i >= from; i--) {
    const r = rows[i]!.trim();
    const d = DOLLAR.exec(r);
    if (d) return d[1]!.trim();
    if (COMMAND_TITLE.test(r)) {
      const next = rows.slice(i + 1, end).find((x) => x.trim() !== '');
      if (next) return next.trim();
    }
  }
  for (let i = end - 1; i >= Math.max(0, end - ROWS_ABOVE * 2); i--) {
    const m = TOOL_CALL.exec(rows[i]!.trim());
    if (m) return m[1]!.trim();
  }
  return null;
}
