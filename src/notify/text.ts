// The words of a notification: "claude · api-pane needs you: approval", and a body that says what to act on: the
// question with its choices and the command it wants to run, the command that ended and how (exit code, or that
// nobody knows it), how long it took. Everything shown passes through redactText and loses its control
// characters: a pane name or a screen line could carry a secret, or an escape sequence a terminal would obey.
import stripAnsi from 'strip-ansi';
import { cut, redactText } from '../daemon/redact.js';
import type { Notification, NotifyEvent, NotifyKind } from './types.js';
import { wantedCommand } from './wanted-command.js';

/** The body, all lines together, is cut to this: a lock screen or phone banner shows about this much. */
export const BODY_MAX = 300;
/** One line of the body (the question, the command, a screen line) is cut to this. */
const LINE_MAX = 120;
/** A pane name longer than this is cut so the title keeps its verdict visible in a narrow banner. */
const NAME_MAX = 40;
/** Choices listed in the body; a longer menu ends with "…". */
const OPTIONS_MAX = 4;

/** What the title says after the pane, per kind. */
const VERDICT: Record<NotifyKind, string> = {
  WAITING_APPROVAL: 'needs you: approval',
  FAILED: 'needs you: failed',
  STALLED: 'needs you: stalled (no output)',
  DONE: 'is done',
  TASK_FINISHED: 'finished its task',
  TASK_NEEDS_YOU: 'needs you: task stopped',
};

/** Box-drawing and block characters an agent's dialog is drawn with: frames, not words. */
const BOX_DRAWING = /[\u2500-\u259f]/g;
/** A hook's own event name (`Stop`, `AfterAgent`) is what the line holds for a hook's end: no news to a person. */
const HOOK_EVENT_LINE = /^[A-Z][A-Za-z]+(?:[._][A-Za-z_]+)?$/;

/** A prompt and nothing else (`$`, `bash-5.2#`, `>>>`): the screen line of a shell's end, which says nothing. */
const BARE_PROMPT = /^(?:\S*[$#%❯›]|>>>|>)$/;

/** Kinds where the person is blocking the agent (urgent); DONE can wait. */
export function isUrgent(kind: NotifyKind): boolean {
  return kind !== 'DONE' && kind !== 'TASK_FINISHED';
}

export function notificationFor(ev: NotifyEvent, url?: string): Notification {
  const f = ev.facts ?? {};
  const name = cut(clean(ev.paneName) || ev.paneId, NAME_MAX);
  const line = clean(ev.line).trim();
  const exitCode = f.exitCode ?? exitFromLine(ev.rule, line);
  const command = f.command ? cut(clean(f.command).trim(), LINE_MAX) : '';
  const lines: string[] = [];
  let question: string | undefined;
  let options: string[] | undefined;
  let verdict = VERDICT[ev.kind];
  const extras: string[] = [];
  if (ev.kind === 'WAITING_APPROVAL') {
    question = cut(clean(f.question?.text ?? line).trim(), LINE_MAX) || undefined;
    options = f.question?.options.map((o) => cut(clean(o).trim(), LINE_MAX)).filter(Boolean);
    // A shell's question is its command's own (`read -p`): only an agent asks to run something.
    const wants = f.edge && question && ev.program !== 'shell' ? wantedCommand(f.edge.map(clean), question) : null;
    if (question) lines.push(question);
    if (wants) lines.push(`wants to run: ${cut(wants, LINE_MAX)}`);
    if (options?.length) lines.push(options.slice(0, OPTIONS_MAX).join(' / ') + (options.length > OPTIONS_MAX ? ' / …' : ''));
  } else {
    if (ev.kind === 'DONE' && f.exitCodeUnknown) verdict = 'finished, exit code unknown';
    if (exitCode !== null && exitCode !== undefined) extras.push(`exit ${exitCode}`);
    if ((ev.kind === 'DONE' || ev.kind === 'FAILED') && ev.turnDurationS !== null) extras.push(formatDuration(ev.turnDurationS));
    if (ev.kind === 'STALLED' && f.silentS != null) extras.push(`silent ${formatDuration(f.silentS)}`);
    if (command) lines.push(command);
    // A stall's line is the cursor's row, often blank: the last words on screen say where it stopped.
    const shown = ev.kind === 'STALLED' && !line ? lastWords(f.edge) : shownLine(ev, line, f.edge);
    if (shown && shown !== command) lines.push(shown);
  }
  const took = extras.length ? ` (${extras.join(', ')})` : '';
  return {
    title: `${clean(ev.program) || 'pane'} · ${name} ${verdict}${took}`,
    body: cut(lines.filter(Boolean).join('\n'), BODY_MAX),
    kind: ev.kind,
    paneId: ev.paneId,
    paneName: name,
    program: ev.program,
    at: ev.at,
    tier: ev.tier,
    rule: ev.rule,
    urgent: isUrgent(ev.kind),
    ...(question ? { question } : {}),
    ...(options?.length ? { options } : {}),
    ...(command ? { command } : {}),
    exitCode: exitCode ?? null,
    durationS: ev.turnDurationS,
    ...(url ? { url } : {}),
  };
}

/** The screen line worth showing: not a hook's event name (the last words on screen instead). */
function shownLine(ev: NotifyEvent, line: string, edge: readonly string[] | undefined): string {
  if (ev.rule.startsWith('hook.') && (line === '' || HOOK_EVENT_LINE.test(line))) return lastWords(edge);
  return BARE_PROMPT.test(line) ? '' : cut(line, LINE_MAX);
}

/** The last row on screen that is not blank or a bare prompt. */
function lastWords(edge: readonly string[] | undefined): string {
  const last = [...(edge ?? [])].reverse().map(clean).map((r) => r.trim()).find((r) => r !== '' && !BARE_PROMPT.test(r) && !/^[>›❯$#%]\s*$/.test(r));
  return last ? cut(last, LINE_MAX) : '';
}

/** A Tier 1 end's line is `exit N` or `exit N: …` (tier1-inputs.ts). */
function exitFromLine(rule: string, line: string): number | null {
  if (!/\.command_(finished|failed)$/.test(rule)) return null;
  const m = /^exit (\d+)\b/.exec(line);
  return m ? Number(m[1]) : null;
}

/** Redacted, one line, no escape sequences, control or box-drawing characters, runs of spaces collapsed. */
export function clean(s: string): string {
  return redactText(stripAnsi(s).replace(/[\u0000-\u001f\u007f-\u009f]+/g, ' '))
    .replace(BOX_DRAWING, ' ')
    .replace(/ {2,}/g, ' ');
}

/** 42 → "42s", 125 → "2m 05s", 3725 → "1h 02m". */
export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s}s`;
  const p = (n: number) => String(n).padStart(2, '0');
  if (s < 3600) return `${Math.floor(s / 60)}m ${p(s % 60)}s`;
  return `${Math.floor(s / 3600)}h ${p(Math.floor((s % 3600) / 60))}m`;
}
