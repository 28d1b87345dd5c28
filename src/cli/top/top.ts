// `termsupervisor top`: the live full-screen view. Wires the pure parts (model, render) to the world: the daemon's
// API and /ws feed, the keyboard, the terminal (held and always given back), a redraw that writes only changed
// rows, on every feed message, key, resize, and once a second for the timers.
import type { ReadStream, WriteStream } from 'node:tty';
import type { PaneView, WsMessage } from '../../web/api-types.js';
import { markOwnTmuxPane } from '../../attach/tmux/ours.js';
import { parseArgs, UsageError } from '../args.js';
import { colorMode, painter } from '../colors.js';
import { DAEMON_OPTION_HELP, DaemonUnavailable, daemonJson, daemonTarget } from '../daemon-client.js';
import type { DaemonTarget } from '../daemon-link.js';
import { paneAction, STALE, type ActOutcome } from '../pane-actions.js';
import { DiffWriter } from './diff-writer.js';
import { followFeed } from './feed.js';
import { parseKeys } from './keys.js';
import { applyFeed, emptyModel, notify, onKey, settle, withPane, type Effect, type TopModel } from './model.js';
import { listRows, render } from './render.js';

export const TOP_USAGE = `usage: termsupervisor top [--no-color] [--daemon URL]

A live full-screen view of every pane, the ones that need you first (WAITING_APPROVAL, FAILED, stalled, DONE,
then running, idle; closed last): state, how long (the turn's runtime), the question or the last line.
  ↑ ↓ or j k    move (PgUp PgDn, g G: first, last)
  Enter         jump to the pane (tmux: your client shows it; a \`run\` pane: where it runs)
  1-9, y, n     answer the selected pane's question with that option (y/n: its Yes/No line)
  r             reply: type a line at the bottom, Enter sends it (DONE, FAILED or IDLE panes)
  i             interrupt (Esc for agents, Ctrl-C for shells), after a y/n confirmation
  a             acknowledge (DONE/FAILED/WAITING → IDLE)
  /             filter by name, program or state (Enter keeps it, Esc undoes it)
  q, Ctrl-C     quit
Keys go in only if the pane still shows the screen you acted on: otherwise "the pane changed — look again".
Everything sent is in the pane's history (GET /api/panes/:id/actions) as sent by \`top\`.
  --no-color  no colours (also when NO_COLOR is set)
${DAEMON_OPTION_HELP}
Needs a terminal (stdin and stdout). Exit status: 0, 1 when no daemon answers, 2 usage or no terminal.
examples:
  termsupervisor top
  termsupervisor top --daemon http://127.0.0.1:7979`;

/** The timers on screen count seconds. */
const TICK_MS = 1000;

export async function topCommand(argv: string[], stdin: NodeJS.ReadStream = process.stdin, stdout: NodeJS.WriteStream = process.stdout): Promise<number> {
  const a = parseArgs(argv, { values: ['daemon'], flags: ['help', 'no-color'] });
  if (a.options.has('help')) return void stdout.write(TOP_USAGE + '\n'), 0;
  if (a.positional.length) throw new UsageError(`top takes no arguments\n\n${TOP_USAGE}`);
  if (!stdout.isTTY || !stdin.isTTY) throw new UsageError(`top needs a terminal: its ${!stdout.isTTY ? 'output' : 'input'} is not one (for scripts: \`termsupervisor status --json\`)`);
  const target = daemonTarget(a.options.get('daemon'));
  // Asked before the screen is taken: no daemon is said on the normal screen, with the usual exit 1.
  const first = await daemonJson<PaneView[]>(target, '/api/panes');
  const { holdTerminal } = await import('./terminal.js');
  const session = holdTerminal(stdin as ReadStream, stdout as WriteStream);
  // Our own view is no work: a daemon watching this tmux pane leaves it alone while top holds it (attach/tmux/ours.ts).
  const unmarkTmux = markOwnTmuxPane('top');
  try {
    return await new TopLoop(target, stdin, stdout, colorMode(stdout, a.options.has('no-color')), first).run();
  } finally {
    unmarkTmux();
    session.restore();
  }
}

class TopLoop {
  private model: TopModel;
  private readonly writer: DiffWriter;
  private readonly paint;
  private pending = false;
  private finish: (code: number) => void = () => {};

  constructor(private readonly target: DaemonTarget, private readonly stdin: NodeJS.ReadStream, private readonly stdout: NodeJS.WriteStream, mode: ReturnType<typeof colorMode>, first: PaneView[]) {
    this.model = settle({ ...emptyModel(), panes: new Map(first.map((p) => [p.id, p])) });
    this.writer = new DiffWriter((s) => stdout.write(s));
    this.paint = painter(mode);
  }

  run(): Promise<number> {
    return new Promise<number>((resolve) => {
      const feed = followFeed(this.target, 'top', {
        message: (m: WsMessage) => this.update(applyFeed(this.model, m)),
        connected: (up) => this.update({ ...this.model, connected: up }),
      });
      const onData = (d: Buffer | string) => this.keys(d.toString());
      const onResize = () => {
        this.writer.invalidate();
        this.redraw();
      };
      const tick = setInterval(() => this.redraw(), TICK_MS);
      this.stdin.on('data', onData);
      this.stdin.resume();
      this.stdout.on('resize', onResize);
      this.finish = (code) => {
        clearInterval(tick);
        feed.close();
        this.stdin.off('data', onData);
        this.stdout.off('resize', onResize);
        resolve(code);
      };
      this.redraw();
    });
  }

  private keys(data: string): void {
    for (const key of parseKeys(data)) {
      if (key.name === 'ctrl-l') {
        this.writer.invalidate();
        continue;
      }
      const { model, effect } = onKey(this.model, key, listRows(this.size().rows));
      this.model = model;
      if (effect?.kind === 'quit') return this.finish(0);
      if (effect) void this.perform(effect);
    }
    this.redraw();
  }

  /** Sends an action to the daemon; its answer (done, refused, the fresh pane) shows in the notice line. */
  private async perform(e: Exclude<Effect, { kind: 'quit' }>): Promise<void> {
    const body = e.kind === 'answer' ? { option: e.option.id, rev: e.rev } : e.kind === 'reply' ? { text: e.text, rev: e.rev } : e.kind === 'interrupt' ? { rev: e.rev } : {};
    let r: ActOutcome;
    try {
      r = await paneAction(this.target, 'top', e.pane.id, e.kind, body);
    } catch (err) {
      return this.update(notify(this.model, err instanceof DaemonUnavailable ? err.message : `${e.kind} failed: ${(err as Error).message}`, 'error'));
    }
    let m = r.pane ? settle(withPane(this.model, r.pane)) : this.model;
    // 409: the daemon's own words ("the pane changed — look again", or the state that does not take it)
    if (!r.ok) m = notify(m, r.status === 409 ? `${e.pane.name}: ${r.error || STALE}` : `${e.kind} ${e.pane.name}: refused (HTTP ${r.status}): ${r.error}`, 'error');
    else m = notify(m, done(e, r));
    this.update(m);
  }

  private update(m: TopModel): void {
    this.model = m;
    this.redraw();
  }

  /** Redraws once per turn of the event loop, however many messages arrived in it. */
  private redraw(): void {
    if (this.pending) return;
    this.pending = true;
    setImmediate(() => {
      this.pending = false;
      this.writer.draw(render(this.model, this.size(), Date.now(), this.paint, this.target.url));
    });
  }

  private size(): { cols: number; rows: number } {
    return { cols: this.stdout.columns || 80, rows: this.stdout.rows || 24 };
  }
}

function done(e: Exclude<Effect, { kind: 'quit' }>, r: Extract<ActOutcome, { ok: true }>): string {
  const keys = r.action?.keys ? ` (keys: ${r.action.keys})` : '';
  switch (e.kind) {
    case 'answer':
      return `answered ${e.pane.name}: ${e.option.label}${keys}`;
    case 'reply':
      return `sent to ${e.pane.name}${keys}`;
    case 'interrupt':
      return `interrupted ${e.pane.name}${keys}`;
    case 'ack':
      return `acknowledged ${e.pane.name}`;
    case 'focus':
      return r.how ? `${e.pane.name}: ${r.how}` : r.focused === false ? `${e.pane.name} cannot be shown from here` : `jumped to ${e.pane.name}`;
  }
}
