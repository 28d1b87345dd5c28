// The daemon's end of tmux: one TmuxWatcher per configured server, its panes opened in the registry like any
// other attach source (attach 'tmux', id `tmux:<server>:%N`, so history follows a pane across restarts), and one
// per remote server reached over ssh (attach 'ssh', id `<host>:%N`; marked unreachable, not closed, when the link
// fails).
import { resolveTmuxSocket } from '../attach/tmux/tmux-socket.js';
import { TmuxWatcher } from '../attach/tmux/tmux-watcher.js';
import type { TmuxSink } from '../attach/tmux/tmux-sink.js';
import { sshRunner, type RemoteTmux } from '../attach/tmux/tmux-runner.js';
import { sshFailure } from '../attach/ssh/ssh-command.js';
import type { Logger } from './logger.js';
import type { PaneRegistry } from './pane-registry.js';
import type { LivePane } from './live-pane.js';
import { focusTmuxPane } from '../attach/tmux/tmux-focus.js';
import type { FocusOutcome } from './pane-focus.js';
import type { ProgramsConfig } from '../config/config.js';
import { foregroundNames } from '../attach/foreground.js';
import { TmuxPresence } from './tmux-presence.js';
import { PANE_NAME_OPTION } from '../attach/tmux/pane-list.js';

export interface TmuxPanesOptions {
  /** Socket names or paths; empty: the default server. */
  sockets: string[];
  env?: NodeJS.ProcessEnv;
  /** The tmux binary (tests); default `tmux` on PATH. */
  tmux?: string;
  /** Remote servers over ssh, and whether typing into each one's panes is allowed. */
  remotes?: Array<RemoteTmux & { allowTyping: boolean }>;
  /** false: no local server is watched (remotes only). */
  local?: boolean;
  /** With these lists a local pane's foreground job is also known by what the process is (its executable, script,
   * npm package: src/attach/process-identity.ts), read from /proc when tmux reports the job. */
  programs?: ProgramsConfig;
  /** Show the panes' states in tmux itself and acknowledge what a person's client shows (config tmux.presence). */
  presence?: boolean;
}

/** A seed not read within this long releases the pane's held output anyway (a pane closed meanwhile, a stopped
 * monitor): holding it longer would only delay what the person's pane shows. */
const SEED_READ_MAX_MS = 2000;

export class TmuxPanes {
  readonly watchers: TmuxWatcher[];
  /** Resolvers waiting for a pane's next screen read (its seed's). */
  private readonly reads = new Map<LivePane, Array<() => void>>();

  /** Remote name → whether its panes may be typed into. */
  private readonly typing = new Map<string, boolean>();

  private readonly programs: ProgramsConfig | null;
  /** One per watcher when presence is on (issue 29), in the watchers' order. */
  private readonly presences: TmuxPresence[] = [];

  constructor(private readonly registry: PaneRegistry, private readonly log: Logger, o: TmuxPanesOptions) {
    this.programs = o.programs ?? null;
    const specs = o.local === false ? [] : o.sockets.length ? [...new Set(o.sockets)] : [''];
    this.watchers = specs.map((spec) => {
      const socket = resolveTmuxSocket(spec, o.env);
      return new TmuxWatcher({ socket, sink: this.sink('tmux'), log, env: o.env ?? process.env, ...(o.tmux && { tmux: o.tmux }), ...this.presence(o) });
    });
    for (const r of o.remotes ?? []) {
      this.typing.set(r.name, r.allowTyping);
      // Each remote has its own watcher, processes and timers: a slow or dead host delays nobody else.
      this.watchers.push(
        new TmuxWatcher({
          socket: { args: [], path: '', key: r.name },
          sink: this.sink('ssh'),
          log,
          env: o.env ?? process.env,
          runner: sshRunner(r),
          describeFailure: (stderr) => sshFailure(stderr, r.dest),
          ...this.presence(o),
        }),
      );
    }
    if (this.presences.length) {
      registry.subscribe((m) => {
        if (m.type === 'pane') for (const p of this.presences) p.paneChanged(m.pane.id, m.pane);
      });
    }
  }

  /** The watcher's presence (its events), when presence is on: made lazily, since it talks to the watcher. */
  private presence(o: TmuxPanesOptions): { events?: NonNullable<ConstructorParameters<typeof TmuxWatcher>[0]['events']> } {
    if (!o.presence) return {};
    const index = this.presences.length;
    const host = {
      state: (id: string) => this.registry.livePane(id)?.view() ?? null,
      ack: (id: string) => void this.registry.ack(id, 'focus'),
      log: this.log,
    };
    this.presences.push(new TmuxPresence({ places: () => this.watchers[index]!.places(), runEach: (c) => this.watchers[index]!.runEach(c), run: (c) => this.watchers[index]!.run(c) }, host));
    const p = this.presences[index]!;
    return { events: { topology: () => p.topology(), views: () => p.views(), connected: () => p.connected() } };
  }

  /** Names a tmux pane in tmux itself (the pane option @termsupervisor_name; '' removes it): the name outlives the
   * daemon, and the next list-panes keeps it. False when no watcher follows the pane. */
  async setName(id: string, name: string): Promise<boolean> {
    for (const w of this.watchers) {
      const pane = w.tmuxPane(id);
      if (!pane) continue;
      const [r] = await w.run([name ? ['set-option', '-p', '-t', pane, PANE_NAME_OPTION, name] : ['set-option', '-p', '-u', '-t', pane, PANE_NAME_OPTION]]);
      w.resync(); // setting an option sends no notification: the listing that says the name back is asked for
      return r?.ok ?? false;
    }
    return false;
  }

  /** Why keys may not be typed into this pane (a remote whose config does not allow it), or null. */
  typingRefusal(id: string): string | null {
    const host = this.watchers.find((w) => w.host !== null && id.startsWith(`${w.host}:`))?.host;
    if (host === undefined || host === null || this.typing.get(host)) return null;
    return `typing into ${host}'s panes is not allowed (config remotes[].allow_typing is false for "${host}")`;
  }

  start(): void {
    for (const w of this.watchers) void w.start();
  }

  async stop(): Promise<void> {
    await Promise.all(this.presences.map((p) => p.clear()));
    await Promise.all(this.watchers.map((w) => w.stop('daemon stopping')));
  }

  /** Types into a tmux pane (supervised runs); false when no watcher follows it. */
  sendText(id: string, text: string): boolean {
    return this.watchers.some((w) => w.sendText(id, text));
  }

  /** Makes the person's tmux client show the pane (a jump); null when no watcher follows it. */
  focus(id: string): Promise<FocusOutcome> | null {
    for (const w of this.watchers) {
      const pane = w.tmuxPane(id);
      if (pane) return focusTmuxPane((cmds) => w.run(cmds), pane);
    }
    return null;
  }

  private sink(attach: 'tmux' | 'ssh'): TmuxSink {
    const r = this.registry;
    return {
      open: (p) => void r.open({ id: p.id, name: p.name, attach, command: p.command, cols: p.cols, rows: p.rows, agent: 'auto', where: p.where }),
      where: (id, where) => r.setWhere(id, where),
      unreachable: (id, since, reason) => r.markUnreachable(id, since, reason),
      reachable: (id) => r.markReachable(id),
      output: (id, data) => r.feed(id, { kind: 'output', data }),
      seed: (id, data) => {
        const pane = r.livePane(id);
        if (!pane) return null;
        r.feed(id, { kind: 'output', data });
        return this.nextRead(pane);
      },
      process: (id, name, panePid) => {
        // A local server's panes run on this host: /proc says what the job is (a remote's pids are not ours).
        const names = attach === 'tmux' && panePid !== undefined && this.programs ? foregroundNames(panePid, name, this.programs) : [];
        r.feed(id, { kind: 'process', name, ...(names.length > 0 && { names }) });
      },
      resize: (id, cols, rows) => r.feed(id, { kind: 'resize', cols, rows }),
      exit: (id, code) => r.feed(id, { kind: 'exit', code }),
      rename: (id, name) => r.renamed(id, name),
      close: (id, why) => {
        const pane = r.livePane(id);
        r.close(id, why);
        if (!pane) return;
        this.release(pane);
        this.reads.delete(pane);
      },
      backlog: (id) => {
        const m = r.livePane(id)?.monitor;
        return m?.backlogged ? m.drain() : null;
      },
    };
  }

  /** Resolves after the pane's next screen read (or SEED_READ_MAX_MS). */
  private nextRead(pane: LivePane): Promise<void> {
    return new Promise((resolve) => {
      let waiting = this.reads.get(pane);
      if (!waiting) {
        waiting = [];
        this.reads.set(pane, waiting);
        pane.monitor.onScreenChange(() => this.release(pane));
      }
      const timer = setTimeout(resolve, SEED_READ_MAX_MS);
      waiting.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  private release(pane: LivePane): void {
    const waiting = this.reads.get(pane);
    if (!waiting?.length) return;
    this.reads.set(pane, []);
    for (const w of waiting) w();
  }
}
