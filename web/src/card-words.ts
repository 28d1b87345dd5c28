// What a card says in plain words ("asks: Delete 3 stale branches? [y/N]", "finished 2 m ago · exit 0",
// "running 4 m 30 s"). Rule names stay in the detail view. Pure: shared by the cards and the unit tests.
import type { PaneView } from '../../src/web/api-types.js';

/** "12 s", "4 m 30 s", "2 h 05 m", "3 d 4 h": how long, spelled with spaces so it reads as words. */
export function spoken(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} m ${String(s % 60).padStart(2, '0')} s`;
  const h = Math.floor(m / 60);
  if (h < 24) return `${h} h ${String(m % 60).padStart(2, '0')} m`;
  return `${Math.floor(h / 24)} d ${h % 24} h`;
}

/** "just now", "40 s ago", "2 m ago", "3 h ago", "2 d ago": the largest unit only (a glance, not a stopwatch). */
export function ago(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 5) return 'just now';
  if (s < 60) return `${s} s ago`;
  if (s < 3600) return `${Math.floor(s / 60)} m ago`;
  if (s < 86_400) return `${Math.floor(s / 3600)} h ago`;
  return `${Math.floor(s / 86_400)} d ago`;
}

// Tier 1 marks that carry the exit status name their rule `<protocol>.command_finished|failed` and write the line
// as "exit N" or "exit N: <screen line>" (src/analysis/tier1-inputs.ts, exitLine). Nothing else says an exit code.
const EXIT_RULE = /\.command_(?:finished|failed)$/;
const EXIT_LINE = /^exit (\d{1,3})(?::|$)/;

/** The finished command's exit code, when the pane's last transition carried one; null when not known. */
export function exitCodeOf(p: Pick<PaneView, 'state' | 'tier' | 'rule' | 'line'>): number | null {
  if ((p.state !== 'DONE' && p.state !== 'FAILED') || p.tier !== 1 || !EXIT_RULE.test(p.rule)) return null;
  const m = EXIT_LINE.exec(p.line);
  return m ? Number(m[1]) : null;
}

/** A question's text, or failing that the line that put the pane in WAITING_APPROVAL. */
export function asks(p: Pick<PaneView, 'question' | 'line'>): string {
  const text = p.question?.text.trim() || p.line.trim();
  return text ? `asks: ${text}` : 'asks for your approval';
}

/** The card's "how long": the turn's runtime while busy (startedAt survives LONG_RUNNING, waits and stalls), how
 * long ago it ended once at rest. A closed pane says nothing about time: it is history. */
export function howLong(p: Pick<PaneView, 'state' | 'since' | 'startedAt' | 'alive' | 'tier' | 'rule' | 'line'>, now: number): string {
  if (!p.alive) return '';
  switch (p.state) {
    case 'RUNNING':
    case 'LONG_RUNNING':
      return `running ${spoken(now - p.startedAt)}`;
    case 'WAITING_APPROVAL':
      return `waiting ${spoken(now - p.since)}`;
    case 'DONE':
    case 'FAILED': {
      const code = exitCodeOf(p);
      return `${p.state === 'DONE' ? 'finished' : 'failed'} ${ago(now - p.since)}${code === null ? '' : ` · exit ${code}`}`;
    }
    case 'IDLE':
      return `idle ${spoken(now - p.since)}`;
  }
}

/** Where the pane runs, in words, for the detail view ("devbox · /dev/pts/3 · pid 4242", "tmux work:2 %5"). */
export function whereText(w: PaneView['where']): string {
  if (!w) return '';
  if (w.session !== undefined || w.pane !== undefined) return `tmux ${w.session ?? '?'}:${w.window ?? '?'} ${w.pane ?? ''}`.trim();
  if (w.sessionId) return `iTerm2 session ${w.sessionId}`;
  return [w.host, w.tty, w.pid !== undefined ? `pid ${w.pid}` : ''].filter(Boolean).join(' · ');
}

/** The keys an interrupt sends: the daemon says (PaneView.interruptKeys, from config `actions.keys`); a daemon
 * from before issue 15 does not, and then agents take Esc, shells and other programs Ctrl-C. */
export function interruptKeys(p: Pick<PaneView, 'program' | 'interruptKeys'>): string {
  return p.interruptKeys ?? (p.program !== 'shell' && p.program !== 'generic' ? 'Esc' : 'Ctrl-C');
}

/** Interrupt: while the pane works or waits. */
export function canInterrupt(p: Pick<PaneView, 'state' | 'alive'>): boolean {
  return p.alive && (p.state === 'RUNNING' || p.state === 'LONG_RUNNING' || p.state === 'WAITING_APPROVAL');
}

/** Reply: a program at rest takes a new prompt (an agent; any program that is not a shell, whose "prompt" would be a
 * command line: that is a task's or a terminal's job). */
export function canReply(p: Pick<PaneView, 'state' | 'alive' | 'program'>): boolean {
  return p.alive && (p.state === 'DONE' || p.state === 'FAILED' || p.state === 'IDLE') && p.program !== 'shell';
}
