// One supervised task drawn for the detail view: its status line, its timeline (every event, oldest first) and
// its iterations (what was typed, how the turn ended, what decided; the screen excerpt folded away). Text only
// through textContent: prompts, reasons and excerpts come from terminals.
import type { IterationView, TaskEventView, TaskView } from '../../src/web/api-types.js';
import { el } from './dom.js';
import { clock, duration } from './format.js';
import { progress, TASK_ICON } from './task-model.js';

/** The status as a coloured pill with its icon and name. */
export function statusBadge(t: Pick<TaskView, 'status'>): HTMLElement {
  const b = el('span', 'task-status', `${TASK_ICON[t.status]} ${t.status}`);
  b.dataset.status = t.status;
  return b;
}

function field(label: string, value: string): HTMLElement {
  const d = el('div', 'task-field');
  d.append(el('span', 'task-label', label), el('span', 'task-value', value));
  return d;
}

export function taskSummary(t: TaskView): HTMLElement {
  const box = el('div', 'task-summary');
  const head = el('div', 'task-summary-head');
  head.append(statusBadge(t), el('code', 'task-id', t.id), el('span', 'task-reason', t.reason));
  const p = progress(t);
  const c = t.spec.criteria;
  const criteria = [
    c.until && `until /${c.until}/`,
    c.success.length && `success ${c.success.map((r) => `/${r}/`).join(' ')}`,
    c.failure.length && `failure ${c.failure.map((r) => `/${r}/`).join(' ')}`,
    c.check && `check \`${c.check}\``,
    t.spec.judge && 'judge',
  ].filter(Boolean) as string[];
  box.append(
    head,
    field('prompt', t.spec.prompt),
    field('criteria', criteria.join(' · ') || 'none (the judge or the limits end it)'),
    field('progress', `${p.iterations} iterations · ${p.tokens} tokens · agent ${duration(t.agentMs)}`),
  );
  if (t.warnings.length) box.append(field('warnings', t.warnings.join(' · ')));
  return box;
}

/** The timeline: one row per event, its kind as a tag (coloured by kind in the stylesheet). */
export function taskTimeline(events: readonly TaskEventView[]): HTMLElement {
  const wrap = el('div', 'task-timeline-box');
  wrap.append(el('h4', '', `Task timeline (${events.length} event${events.length === 1 ? '' : 's'})`));
  if (!events.length) {
    wrap.append(el('p', 'none', 'no events yet'));
    return wrap;
  }
  const ol = el('ol', 'task-timeline');
  for (const e of events) {
    const li = el('li');
    li.dataset.kind = e.kind;
    const time = el('time', 'task-time', clock(e.at));
    time.dateTime = new Date(e.at).toISOString();
    li.append(time, el('span', 'task-kind', e.kind.replace(/_/g, ' ')), el('span', 'task-detail', e.detail));
    ol.append(li);
  }
  wrap.append(ol);
  return wrap;
}

function iterationTook(it: IterationView, now: number): string {
  if (it.endedAt !== null) return duration(it.endedAt - it.sentAt);
  return `${duration(now - it.sentAt)} so far`;
}

/** The iterations, newest first; `open` holds the numbers whose excerpt the person unfolded (kept across redraws). */
export function taskIterations(iterations: readonly IterationView[], open: Set<number>): HTMLElement {
  const wrap = el('div', 'task-iterations');
  wrap.append(el('h4', '', `Iterations (${iterations.length})`));
  if (!iterations.length) {
    wrap.append(el('p', 'none', 'nothing sent yet'));
    return wrap;
  }
  const now = Date.now();
  for (const it of [...iterations].sort((a, b) => b.n - a.n)) {
    const d = el('details', 'iteration');
    d.dataset.n = String(it.n);
    d.open = open.has(it.n);
    d.addEventListener('toggle', () => (d.open ? open.add(it.n) : open.delete(it.n)));
    const sum = el('summary');
    // remembered at the click itself: a live redraw may replace this element before its toggle event fires
    sum.addEventListener('click', () => (d.open ? open.delete(it.n) : open.add(it.n)));
    sum.append(
      el('span', 'it-n', `#${it.n}`),
      el('span', 'it-prompt', it.prompt),
      el('span', 'it-result', it.result ?? 'open'),
      el('span', 'it-decision', it.decision ?? '…'),
      el('span', 'it-took', iterationTook(it, now)),
    );
    d.append(sum, field('sent', `${clock(it.sentAt)} · ${it.charsTyped} chars typed, ${it.charsRead} read · ${it.tokens} tokens`));
    if (it.judge) d.append(field('judge', `${it.judge.complete ? 'complete' : 'continue'} (confidence ${it.judge.confidence}, risk ${it.judge.risk}): ${it.judge.reason}${it.judge.continuation ? ` → “${it.judge.continuation}”` : ''}`));
    if (it.check) d.append(field('check', `exit ${it.check.exitCode ?? 'none'}${it.check.output ? `: ${it.check.output}` : ''}`));
    d.append(el('pre', 'it-excerpt', it.excerpt || '(no excerpt)'));
    wrap.append(d);
  }
  return wrap;
}
