// The detail view's actions on its pane: the question's options (and Esc), a reply box for an agent at rest, an
// interrupt that asks for a confirmation first, and jump. Each action carries the revision of the pane as this view
// last showed it (act.ts), so a click on a screen that has since changed is refused, not typed.
import type { PaneView } from '../../src/web/api-types.js';
import type { PaneActs, Say } from './act.js';
import { api, HttpError, isAuthError, READ_ONLY } from './api.js';
import { asks, canInterrupt, canReply, interruptKeys } from './card-words.js';
import { byId } from './dom.js';
import { questionKey, renderQuestion, setBusy } from './question.js';

export class DetailActs {
  private readonly asks = byId('detail-asks');
  private readonly answers = byId('detail-answers');
  private readonly reply = byId<HTMLFormElement>('detail-reply');
  private readonly replyText = byId<HTMLInputElement>('detail-reply-text');
  private readonly interrupt = byId<HTMLButtonElement>('detail-interrupt');
  private readonly confirm = byId('detail-interrupt-confirm');
  private readonly confirmWhat = byId('detail-interrupt-what');
  private readonly jump = byId<HTMLButtonElement>('detail-jump');
  private readonly jumpHow = byId('detail-jump-how');
  /** The pane as shown; the actions carry its revision. */
  private pane: PaneView | null = null;
  private shownQuestion = '';

  constructor(
    private readonly acts: PaneActs,
    private readonly say: Say,
  ) {
    this.reply.addEventListener('submit', (e) => {
      e.preventDefault();
      void this.sendReply();
    });
    this.interrupt.addEventListener('click', () => this.askConfirm());
    byId('detail-interrupt-no').addEventListener('click', () => this.dropConfirm(true));
    byId('detail-interrupt-yes').addEventListener('click', () => void this.sendInterrupt());
    this.jump.addEventListener('click', () => void this.sendJump());
  }

  /** Another pane (or none) is open: nothing of the last one's carries over. */
  reset(): void {
    this.pane = null;
    this.shownQuestion = '';
    // the last pane's question and its buttons go with it (issue 26: they stayed, wired to that pane)
    this.asks.textContent = '';
    this.answers.replaceChildren();
    this.replyText.value = '';
    this.jumpHow.textContent = '';
    this.confirm.hidden = true;
  }

  show(p: PaneView): void {
    this.pane = p;
    const waiting = p.alive && p.state === 'WAITING_APPROVAL';
    this.asks.textContent = waiting ? asks(p) : '';
    const qk = questionKey(p);
    if (qk !== this.shownQuestion) {
      this.shownQuestion = qk;
      renderQuestion(this.answers, p, (shown, choice) => {
        // a button acts only on the pane whose view it is drawn in
        if (this.pane?.id !== shown.id) return;
        setBusy(this.answers, true);
        void this.acts.answer(shown, choice, this.say).finally(() => setBusy(this.answers, false));
      });
    }
    this.reply.hidden = !canReply(p);
    const interruptible = canInterrupt(p);
    const keys = interruptKeys(p);
    this.interrupt.textContent = `Interrupt (${keys})`;
    this.interrupt.hidden = !interruptible || !this.confirm.hidden;
    if (!interruptible) this.dropConfirm(false);
    else this.confirmWhat.textContent = `Send ${keys} to ${p.name || p.id}?`;
    this.jump.disabled = !p.alive;
  }

  private askConfirm(): void {
    if (!this.pane) return;
    this.confirm.hidden = false;
    this.interrupt.hidden = true;
    this.show(this.pane);
    byId('detail-interrupt-no').focus();
  }

  private dropConfirm(refocus: boolean): void {
    if (this.confirm.hidden) return;
    this.confirm.hidden = true;
    if (this.pane) this.interrupt.hidden = !canInterrupt(this.pane);
    if (refocus && !this.interrupt.hidden) this.interrupt.focus();
  }

  private async sendInterrupt(): Promise<void> {
    const p = this.pane;
    if (!p) return;
    this.dropConfirm(false);
    await this.acts.interrupt(p, this.say);
  }

  private async sendReply(): Promise<void> {
    const p = this.pane;
    const text = this.replyText.value.trim();
    if (!p || !text) return;
    const ok = await this.acts.reply(p, text, this.say);
    if (ok && this.pane?.id === p.id) this.replyText.value = '';
  }

  private async sendJump(): Promise<void> {
    const p = this.pane;
    if (!p) return;
    this.jumpHow.textContent = '';
    try {
      const r = await api.focus(p.id);
      if (this.pane?.id === p.id) this.jumpHow.textContent = r.focused ? `shown: ${r.how}` : r.how;
    } catch (e) {
      if (this.pane?.id !== p.id) return;
      const missing = e instanceof HttpError && (e.status === 404 || e.status === 501);
      this.jumpHow.textContent = isAuthError(e) ? READ_ONLY : missing && !e.reason.includes('pane') ? 'this daemon cannot jump to panes' : `jump failed: ${(e as Error).message}`;
    }
  }
}
