// The "Start a task" form of the detail view: POST /api/tasks for the open pane. What the page can check itself
// (a prompt, a whole number) it says at once; everything else the daemon checks, and its 400 problems are listed
// under the form as it wrote them.
import type { TaskView } from '../../src/web/api-types.js';
import { api, HttpError, isAuthError, READ_ONLY } from './api.js';
import { byId, el } from './dom.js';
import { taskRequest } from './task-model.js';

export class TaskForm {
  private readonly form = byId<HTMLFormElement>('task-form');
  private readonly box = byId<HTMLDetailsElement>('task-form-box');
  private readonly prompt = byId<HTMLInputElement>('task-prompt');
  private readonly until = byId<HTMLInputElement>('task-until');
  private readonly failure = byId<HTMLInputElement>('task-failure');
  private readonly check = byId<HTMLInputElement>('task-check');
  private readonly max = byId<HTMLInputElement>('task-max');
  private readonly judge = byId<HTMLInputElement>('task-judge');
  private readonly submit = byId<HTMLButtonElement>('task-submit');
  private readonly problems = byId('task-form-problems');
  private pane: string | null = null;

  constructor(private readonly onStarted: (t: TaskView) => void) {
    this.form.addEventListener('submit', (e) => {
      e.preventDefault();
      void this.send();
    });
  }

  /** The form now starts tasks on `pane` (null: no pane open); what was typed for another pane is cleared. */
  setPane(pane: string | null): void {
    if (pane === this.pane) return;
    this.pane = pane;
    this.form.reset();
    this.show([]);
  }

  /** Hidden when the daemon runs no tasks. */
  set available(yes: boolean) {
    this.box.hidden = !yes;
  }

  private show(problems: string[]): void {
    this.problems.replaceChildren(...problems.map((p) => el('li', '', p)));
    this.prompt.setAttribute('aria-invalid', String(problems.some((p) => p.startsWith('prompt'))));
  }

  private async send(): Promise<void> {
    const pane = this.pane;
    if (!pane) return;
    const { body, problems } = taskRequest(pane, {
      prompt: this.prompt.value,
      until: this.until.value,
      failure: this.failure.value,
      check: this.check.value,
      maxIterations: this.max.value,
      judge: this.judge.checked,
    });
    this.show(problems);
    if (problems.length) {
      if (problems[0]!.startsWith('prompt')) this.prompt.focus();
      return;
    }
    this.submit.disabled = true;
    try {
      const t = await api.startTask(body);
      if (pane !== this.pane) return;
      this.form.reset();
      this.box.open = false;
      this.onStarted(t);
    } catch (e) {
      if (pane !== this.pane) return;
      if (isAuthError(e)) this.show([READ_ONLY]);
      else if (e instanceof HttpError && e.problems.length) this.show(e.problems);
      else this.show([`could not start the task: ${(e as Error).message}`]);
    } finally {
      this.submit.disabled = false;
    }
  }
}
