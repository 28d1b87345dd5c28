// What a pane knows beyond its transition, for the notification about it: the question and its choices, the
// command of the turn, the rows above the cursor (an interrupt's ^C echo), the person's last interrupt key. Read
// once per notified transition, after its row is committed (the publisher's order).
import type { PaneFacts } from '../notify/types.js';
import type { TransitionRecord } from '../store/records.js';
import type { LivePane } from './live-pane.js';
import { redactText } from './redact.js';

/** Rows of the screen kept with the event: the dialog above a question, the echo above a prompt. */
const EDGE_ROWS = 24;
/** Rows above the end searched for the program's own "interrupted" notice (Codex's "■ Conversation interrupted",
 * above its input box and footer): an older turn's notice is further up. */
const INTERRUPT_ROWS = 8;
/** A prompt in front of the command on a turn's first row (`$ `, `user@host:~/x$ `, `❯ `). */
const PROMPT_PREFIX = /^.*?[$#%❯›>] +(?=\S)/;

/** The command line on screen that started the program named `name` (tmux reports only the process's name, as
 * `sleep`; the screen still shows `$ sleep 4` above the output): the last prompt row whose command is it. */
export function typedOnScreen(edge: readonly string[], name: string): string | null {
  for (let i = edge.length - 2; i >= 0; i--) {
    const row = edge[i]!;
    if (!PROMPT_PREFIX.test(row)) continue;
    const cmd = row.replace(PROMPT_PREFIX, '').trim();
    const first = cmd.split(/\s+/)[0] ?? '';
    if (first === name || first.endsWith(`/${name}`)) return cmd;
  }
  return null;
}

/** The program's "interrupted" notice below the turn's prompt (or in the last rows when the prompt is unknown). */
export function saysInterrupted(edge: readonly string[], prompt: string | null, patterns: readonly RegExp[]): boolean {
  if (!patterns.length) return false;
  let from = Math.max(0, edge.length - INTERRUPT_ROWS);
  const needle = prompt?.slice(0, 40);
  if (needle) for (let i = edge.length - 1; i >= 0; i--) if (edge[i]!.includes(needle)) { from = i + 1; break; }
  return edge.slice(from).some((row) => patterns.some((re) => re.test(row.trim()) || re.test(row)));
}

export class NotifyFacts {
  /** pane → the line its current turn started with (tmux's `$ make test`, `job.started`'s `sleep`). */
  private readonly turnLine = new Map<string, string>();

  /** `interrupted`: a program's patterns for its own word that the person interrupted the turn (config
   * patterns.<program>.interrupted). */
  constructor(
    private readonly stallAfterS: () => number,
    private readonly interrupted: (program: string) => readonly RegExp[] = () => [],
  ) {}

  /** Every transition: a turn's start remembers what it ran. */
  note(paneId: string, rec: TransitionRecord): void {
    if ((rec.to === 'RUNNING' || rec.to === 'LONG_RUNNING') && rec.from !== 'RUNNING' && rec.from !== 'LONG_RUNNING' && rec.from !== 'WAITING_APPROVAL') {
      this.turnLine.set(paneId, rec.line.replace(PROMPT_PREFIX, '').trim());
    }
  }

  forget(paneId: string): void {
    this.turnLine.delete(paneId);
  }

  facts(pane: LivePane, rec: TransitionRecord): PaneFacts {
    const view = pane.view();
    const q = view.question;
    const typed = pane.prompt?.trim();
    const started = this.turnLine.get(pane.id) ?? null;
    const command = typed ? redactText(typed) : started && !/\s/.test(started) ? (typedOnScreen(view.edge, started) ?? started) : started;
    return {
      question: q ? { text: q.text, options: q.options.map((o) => (/^\d+$/.test(o.id) ? `${o.id}. ${o.label}` : o.label)) } : null,
      command: command || null,
      exitCodeUnknown: view.exitCodeUnknown === true && rec.to === 'DONE',
      edge: view.edge.slice(-EDGE_ROWS),
      interruptKeyAt: pane.interruptKeyAt,
      interruptedOnScreen: (rec.to === 'DONE' || rec.to === 'FAILED') && saysInterrupted(view.edge, typed ?? null, this.interrupted(pane.record.program)),
      silentS: rec.stalled ? this.stallAfterS() : null,
      cwd: pane.cwd() ?? null,
    };
  }
}
