// A waiting pane's question as buttons: one per option the daemon read from the screen (its label and the keys it
// sends), then Esc (deny / cancel, sent as an interrupt). Shared by the card and the detail view.
import type { PaneView, QuestionOption } from '../../src/web/api-types.js';
import { el } from './dom.js';

/** What the person picked: an option's id, or null for Esc. */
export type Choice = string | null;

/** Identifies what the buttons show, so they are rebuilt only when the question (or its screen) changes. */
export function questionKey(p: PaneView): string {
  if (!p.alive || p.state !== 'WAITING_APPROVAL') return '';
  return `${p.rev ?? ''}|${p.question ? JSON.stringify(p.question) : ''}`;
}

function optionButton(o: QuestionOption, onPick: (pick: Choice) => void): HTMLButtonElement {
  const b = el('button', 'answer');
  b.type = 'button';
  b.dataset.option = o.id;
  b.append(el('span', 'answer-label', o.label), el('kbd', 'keys', o.keys));
  b.title = `answer "${o.label}": types ${o.keys}`;
  b.addEventListener('click', () => onPick(o.id));
  return b;
}

/** Fills `box` with the pane's options and Esc; empty when the pane does not wait. */
export function renderQuestion(box: HTMLElement, p: PaneView, onPick: (pick: Choice) => void): void {
  if (!questionKey(p)) {
    box.replaceChildren();
    return;
  }
  const buttons = (p.question?.options ?? []).map((o) => optionButton(o, onPick));
  const esc = el('button', 'answer deny');
  esc.type = 'button';
  esc.dataset.option = 'esc';
  esc.append(el('span', 'answer-label', 'deny / cancel'), el('kbd', 'keys', 'Esc'));
  esc.title = 'deny or cancel: types Esc';
  esc.addEventListener('click', () => onPick(null));
  box.replaceChildren(...buttons, esc);
}

/** Disables the buttons while an answer is on its way (one click, one answer). */
export function setBusy(box: HTMLElement, busy: boolean): void {
  for (const b of box.querySelectorAll('button')) b.disabled = busy;
}
