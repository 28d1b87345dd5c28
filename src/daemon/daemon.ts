// `termsupervisor daemon`: the background service. Opens the history, makes the token, builds the web app, and
// listens (the only listen() in the daemon); panes join over pane links. close() shuts down cleanly: stop
// accepting, close panes, flush history, remove the runtime file.
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import type { Config } from '../config/config.js';
import { defaultDbPath } from '../config/paths.js';
import { HistoryStore } from '../store/history-store.js';
import type { HistoryHealth } from '../store/store-health.js';
import { Auth, isLoopbackAddress } from '../web/auth.js';
import { buildApp, type App } from '../web/build-app.js';
import { DaemonNotify } from './daemon-notify.js';
import type { Logger } from './logger.js';
import { PaneRegistry } from './pane-registry.js';
import { PaneLinks } from './pane-links.js';
import { TmuxPanes } from './tmux-panes.js';
import { Iterm2Bridges } from './iterm2-bridge.js';
import { loadOrCreateToken, tokenPath } from './token.js';
import { removeRuntimeFile, runtimeFilePath, writeRuntimeFile } from './runtime-file.js';
import { claimInstance, type InstanceClaim } from './single-instance.js';
import { TaskManager } from '../tasks/task-manager.js';
import { runCheck } from '../tasks/check-command.js';
import { taskJudge } from '../tasks/task-judge.js';
import { taskPanes } from './task-panes.js';
import { PaneActions } from './pane-actions.js';
import { PeerPanes } from './peer-panes.js';
import { resolvePeers, type PeerSpec } from '../config/peers.js';
import { redactText } from './redact.js';
import { remoteSpecs } from './remotes.js';
import { startMemoryReturn } from './memory-return.js';
import { mallocTrim } from './malloc-trim.js';

export interface DaemonOptions {
  cfg: Config;
  version: string;
  host?: string;
  port?: number;
  db?: string;
  env?: NodeJS.ProcessEnv;
  log: Logger;
  /** Overrides config `tmux` (the CLI's --tmux, --no-tmux, --tmux-socket). */
  tmux?: { enabled?: boolean; sockets?: string[] };
  /** `--remote [user@]host[:port]` destinations, added to config `remotes`. */
  remotes?: string[];
  /** Peer daemons whose panes this one shows (the CLI's --peer with config `peers`); default: config `peers`. */
  peers?: PeerSpec[];
}

export interface Daemon {
  url: string;
  registry: PaneRegistry;
  app: App;
  store: HistoryStore;
  auth: Auth;
  /** A fresh one-time dashboard link. */
  dashboardUrl(): string;
  close(): Promise<void>;
}

/** The built dashboard: dist/web next to this file's folder. */
const WEB_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', 'web');
/** Retention is applied at start and then this often (ms). */
const PRUNE_EVERY_MS = 6 * 3600_000;

export async function startDaemon(o: DaemonOptions): Promise<Daemon> {
  const env = o.env ?? process.env;
  const d = o.cfg.daemon;
  const host = o.host ?? d.host;
  const port = o.port ?? d.port;
  const loopback = isLoopbackAddress(host);
  const dbPath = o.db ?? defaultDbPath(env);
  const runtimePath = runtimeFilePath(env);
  // Before anything is opened or bound: a second daemon on the same files refuses at once, whatever its port.
  // Checked before anything starts: a bad remote is a configuration error, not a half-started daemon.
  const remotes = remoteSpecs(o.cfg, o.remotes ?? [], dirname(runtimePath), env);
  const claim = claimInstance(dbPath, runtimePath);
  try {
    return await startClaimed(o, { env, host, port, loopback, dbPath, runtimePath, claim, remotes });
  } catch (e) {
    claim.release();
    throw e;
  }
}

interface Place {
  env: NodeJS.ProcessEnv;
  host: string;
  port: number;
  loopback: boolean;
  dbPath: string;
  runtimePath: string;
  claim: InstanceClaim;
  remotes: ReturnType<typeof remoteSpecs>;
}

async function startClaimed(o: DaemonOptions, { env, host, port, loopback, dbPath, runtimePath, claim, remotes }: Place): Promise<Daemon> {
  const d = o.cfg.daemon;
  const token = loadOrCreateToken(tokenPath(env));
  const auth = new Auth(token, loopback);
  /** History health changes go to the dashboards once the registry (their feed) exists. */
  let publishHealth: (h: HistoryHealth) => void = () => {};
  const store = HistoryStore.open(dbPath, {
    flushMs: d.store_flush_s * 1000,
    publishFlushMs: d.publish_flush_s * 1000,
    retentionDays: d.retention_days,
    onError: (err) => o.log.error({ kind: 'daemon', err: String(err) }, 'history write failed'),
    onHealth: ({ health, degradedMs }) => {
      if (health.status === 'degraded') o.log.error({ kind: 'history', event: 'degraded', db: dbPath, ...health }, `history degraded: ${health.cause}`);
      else o.log.info({ kind: 'history', event: 'recovered', db: dbPath, degradedS: (degradedMs ?? 0) / 1000 }, 'history recovered: writes go through again');
      publishHealth(health);
    },
  });
  // From here on a storage error never ends the daemon: it reports history degraded and keeps supervising.
  store.prune();
  closeLeftovers(store, o.log);

  let links: PaneLinks | null = null;
  let bridges: Iterm2Bridges | null = null;
  let tmux: TmuxPanes | null = null;
  let tasks: TaskManager | null = null;
  const notify = new DaemonNotify({
    cfg: o.cfg,
    store,
    log: o.log,
    dbPath,
    paneWrite: (id, bytes) => void links?.bell(id, bytes),
    focus: (id) => void registry.focus(id, 'api', 'notification').catch(() => {}),
    driving: (id) => tasks?.driving(id) ?? false,
    paneState: (id) => {
      const p = registry.pane(id);
      return p?.alive ? p.state : null;
    },
  });
  const registry = new PaneRegistry({
    cfg: o.cfg,
    store,
    version: o.version,
    log: o.log,
    notify: (ev) => notify.handle(ev),
    noteState: (id, to, rule, program) => notify.notifier.noteState(id, to, rule, program),
    notifyFacts: notify.facts,
    notifyHealth: () => notify.health(),
    onLink: (kind, ws, remote) => (kind === 'iterm2' ? bridges!.accept(ws, remote) : links!.accept(ws, remote)),
    sendText: (id, text) => {
      if (links?.send(id, text)) return true; // the wrapper reports the keys back as the pane's input
      const sent = (tmux?.sendText(id, text) || bridges?.sendText(id, text)) ?? false;
      if (sent) registry.feed(id, { kind: 'input', data: text }); // these sources do not echo our keys as input
      return sent;
    },
    onClose: (id) => notify.forget(id),
    typingRefusal: (id) => tmux?.typingRefusal(id) ?? null,
    focusDoors: { tmux: (id) => tmux?.focus(id) ?? null, iterm2: (id) => bridges?.activate(id) ?? null },
    nameDoors: { tmux: (id, name) => tmux?.setName(id, name) ?? Promise.resolve(false), ssh: (id, name) => tmux?.setName(id, name) ?? Promise.resolve(false) },
  });
  const actions = new PaneActions({ registry, store, cfg: o.cfg, enterDelayS: o.cfg.tasks.enter_delay_s, publish: (m) => registry.broadcast(m) });
  registry.actions = actions;
  links = new PaneLinks(registry, o.log);
  bridges = new Iterm2Bridges(registry, o.log);
  tasks = new TaskManager({
    store: store.tasks,
    cfg: o.cfg.tasks,
    panes: taskPanes(registry, o.cfg.tasks.enter_delay_s, (id, text) => actions.taskTyped(id, text)),
    judge: taskJudge(o.cfg.tasks.judge, env),
    check: (cmd, cwd, timeoutMs, signal) => runCheck(cmd, { cwd, timeoutMs, signal, env }),
    redact: redactText,
    now: Date.now,
    paneKnown: (id) => registry.pane(id) !== null,
    publish: (m) => registry.broadcast(m),
    notify: (t, kind) => {
      const pane = registry.pane(t.spec.pane);
      registry.notifyTask({
        paneId: t.spec.pane,
        paneName: pane?.name ?? t.spec.pane,
        program: pane?.program ?? '',
        kind: kind === 'finished' ? 'TASK_FINISHED' : 'TASK_NEEDS_YOU',
        at: Date.now(),
        tier: 0,
        rule: `task.${t.reasonCode ?? t.status.toLowerCase()}`,
        line: `${t.id} ${t.status}: ${t.reason}`,
        turnDurationS: null,
        key: `task:${t.id}`,
      });
    },
  });
  registry.tasks = tasks;
  const peerSpecs = o.peers ?? resolvePeers(o.cfg.peers, { peers: [], tokenFiles: [] });
  const peers = peerSpecs.length
    ? new PeerPanes(peerSpecs, { store, log: o.log, emit: (m) => registry.broadcast(m), notify: (ev) => registry.notifyTask(ev), noteState: (id, to, rule, program) => notify.notifier.noteState(id, to, rule, program) })
    : null;
  if (peers) registry.peers = peers;
  publishHealth = (history) => registry.broadcast({ type: 'history', history });

  const app = buildApp({
    api: registry,
    auth,
    webDir: WEB_DIR,
    loopback,
    hub: { coalesceMs: d.ws_coalesce_s * 1000, maxBufferedBytes: d.ws_max_buffered_bytes, slowDropMs: d.ws_slow_drop_s * 1000 },
  });
  await app.fastify.listen({ host, port });
  const addr = app.fastify.server.address();
  const bound = typeof addr === 'object' && addr ? addr.port : port;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${bound}`;
  notify.listening(url);
  writeRuntimeFile({ url, pid: process.pid, startedAt: Date.now(), version: o.version, db: dbPath }, runtimePath);
  const pruneTimer = setInterval(() => {
    try {
      store.prune(); // a storage failure is reported as history degraded, and tried again by the store
    } catch (e) {
      o.log.error({ kind: 'history', err: String(e) }, 'history retention prune failed');
    }
  }, PRUNE_EVERY_MS);
  pruneTimer.unref();
  // After a storm the heap is mostly empty but kept: it is given back (memory-return.ts).
  const memory = startMemoryReturn({
    onCollect: (freed) => o.log.info({ kind: 'daemon', event: 'heap_compacted', freedMb: Math.round(freed / 2 ** 20) }, 'empty heap given back'),
    onTrim: (free, ms) => o.log.debug({ kind: 'daemon', event: 'malloc_trimmed', freeMb: Math.round(free / 2 ** 20), ms: Math.round(ms * 10) / 10 }, 'free malloc memory given back'),
    malloc: mallocTrim((why) => o.log.warn({ kind: 'daemon', event: 'malloc_trim_missing', why }, 'the malloc-trim helper is missing: memory freed after a storm stays resident')),
  });
  // A closed pane's terminal is garbage now: the heap in use the last collection saw is no floor any more.
  registry.subscribe((m) => m.type === 'pane' && !m.pane.alive && memory.forget());
  o.log.info({ kind: 'daemon', event: 'started', url, pid: process.pid, loopback }, 'daemon started');
  const tmuxCfg = { ...o.cfg.tmux, ...o.tmux };
  tmux = tmuxCfg.enabled || remotes.length ? new TmuxPanes(registry, o.log, { sockets: tmuxCfg.sockets, env, remotes, local: tmuxCfg.enabled, programs: o.cfg.programs, presence: o.cfg.tmux.presence }) : null;
  tmux?.start();
  peers?.start();
  const resumed = tasks.resumeAll();
  if (resumed) o.log.info({ kind: 'task', event: 'resumed', count: resumed }, 'tasks resumed from their checkpoints');

  let closing: Promise<void> | null = null;
  return {
    url,
    registry,
    app,
    store,
    auth,
    dashboardUrl: () => `${url}/auth?code=${auth.issueCode()}`,
    close() {
      closing ??= (async () => {
        notify.stopping();
        clearInterval(pruneTimer);
        memory.stop();
        await tasks!.closeAll();
        await tmux?.stop();
        peers?.stop();
        links!.closeAll();
        bridges!.closeAll();
        registry.closeAll('daemon stopping');
        await app.close();
        await notify.close();
        store.close();
        removeRuntimeFile(process.pid, runtimePath);
        claim.release();
        o.log.info({ kind: 'daemon', event: 'stopped' }, 'daemon stopped');
      })();
      return closing;
    },
  };
}

/** Panes the previous daemon had attached are not attached to this one until their source comes back. */
function closeLeftovers(store: HistoryStore, log: Logger): void {
  const now = Date.now();
  let panes;
  try {
    panes = store.panes();
  } catch (e) {
    return void log.error({ kind: 'history', err: String(e) }, 'history unreadable: panes of the previous daemon not closed');
  }
  for (const p of panes) if (p.closedAt === null) store.upsertPane({ ...p, closedAt: now, rule: 'daemon.restarted' });
}
