// A waiting pane's question as buttons: one per option the daemon read from the screen (its label and the keys it
// sends), then Esc (deny / cancel, sent as an interrupt). Shared by the card and the detail view.
// A button acts only for the pane and screen it was drawn for (issue 26): each carries the pane snapshot it shows,
// and a pointer's click counts only on the very button the pointer went down on, still on the page. A press that
// began elsewhere (another card's button that a re-sort or a redraw moved away) types nothing.
import type { PaneView, QuestionOption } from '../../src/web/api-types.js';
import { el } from './dom.js';

/** What the person picked: an option's id, or null for Esc. */
export type Choice = string | null;

/** Told the pane as the buttons showed it (its id and revision) and the pick. */
export type OnPick = (shown: PaneView, pick: Choice) => void;

/** The answer button the pointer last went down on (null: none, or already clicked). */
let pressed: HTMLButtonElement | null = null;
addEventListener('pointerdown', (e) => (pressed = e.target instanceof Element ? e.target.closest<HTMLButtonElement>('button.answer') : null), { capture: true });

/** A click on `b` that the person aimed at it: from the keyboard (detail 0), or a pointer pressed on `b` itself. */
function aimedAt(b: HTMLButtonElement, e: MouseEvent): boolean {
  const ok = b.isConnected && (e.detail === 0 || pressed === b);
  pressed = null;
  return ok;
}

function button(cls: string, option: string, p: PaneView, pick: Choice, onPick: OnPick): HTMLButtonElement {
  const b = el('button', cls);
  b.type = 'button';
  b.dataset.option = option;
  // the pane and screen this button answers (read by tests and by the person's devtools)
  b.dataset.pane = p.id;
  b.dataset.rev = String(p.rev ?? '');
  b.addEventListener('click', (e) => {
    if (aimedAt(b, e)) onPick(p, pick);
  });
  return b;
}

/** Identifies what the buttons show, so they are rebuilt only when the question (or its screen) changes. */
export function questionKey(p: PaneView): string {
  if (!p.alive || p.state !== 'WAITING_APPROVAL') return '';
  return `${p.rev ?? ''}|${p.question ? JSON.stringify(p.question) : ''}`;
}

function optionButton(o: QuestionOption, p: PaneView, onPick: OnPick): HTMLButtonElement {
  const b = button('answer', o.id, p, o.id, onPick);
  b.append(el('span', 'answer-label', o.label), el('kbd', 'keys', o.keys));
  b.title = `answer "${o.label}": types ${o.keys}`;
  return b;
}

/** Fills `box` with the pane's options and Esc; empty when the pane does not wait. */
export function renderQuestion(box: HTMLElement, p: PaneView, onPick: OnPick): void {
  if (!questionKey(p)) {
    box.replaceChildren();
    return;
  }
  const buttons = (p.question?.options ?? []).map((o) => optionButton(o, p, onPick));
  const esc = button('answer deny', 'esc', p, null, onPick);
  esc.append(el('span', 'answer-label', 'deny / cancel'), el('kbd', 'keys', 'Esc'));
  esc.title = 'deny or cancel: types Esc';
  box.replaceChildren(...buttons, esc);
}

/** Disables the buttons while an answer is on its way (one click, one answer). */
export function setBusy(box: HTMLElement, busy: boolean): void {
  for (const b of box.querySelectorAll('button')) b.disabled = busy;
}
