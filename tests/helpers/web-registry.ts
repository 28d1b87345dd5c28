// A real PaneRegistry on a real HistoryStore in a temporary SQLite file, a log that keeps what it is told, and
// awaiting the registry's live feed (a transition, a pane view) with a generous bound.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig, type Config } from '../../src/config/config.js';
import { HistoryStore } from '../../src/store/history-store.js';
import { PaneRegistry, type RegistryOptions } from '../../src/daemon/pane-registry.js';
import { closeLogger, createLogger, type Logger } from '../../src/daemon/logger.js';
import type { WsMessage } from '../../src/web/api-types.js';
import { WAIT_MS } from './web-ws.js';

export interface LogEntry {
  level: string;
  /** The whole JSON line as the daemon's logger wrote it. */
  obj: Record<string, unknown>;
}

/** The daemon's real logger (pino, createLogger) writing to a temp file and, line by line, to this memory. */
export class MemLog {
  readonly entries: LogEntry[] = [];
  readonly logger: Logger;
  private waiters: Array<{ pred: (e: LogEntry) => boolean; resolve: (e: LogEntry) => void }> = [];

  constructor(file: string, level = 'info') {
    this.logger = createLogger({ file, level, maxBytes: 1 << 20, keep: 1, also: { write: (line: string) => this.add(line) } });
  }

  waitFor(pred: (e: LogEntry) => boolean, what: string, ms = WAIT_MS): Promise<LogEntry> {
    const found = this.entries.find(pred);
    if (found) return Promise.resolve(found);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no log entry: ${what}`)), ms);
      this.waiters.push({ pred, resolve: (e) => (clearTimeout(timer), resolve(e)) });
    });
  }

  private add(line: string): void {
    const obj = JSON.parse(line) as Record<string, unknown>;
    const e: LogEntry = { level: String(obj['level']), obj };
    this.entries.push(e);
    this.waiters = this.waiters.filter((w) => (w.pred(e) ? (w.resolve(e), false) : true));
  }
}

/** Everything the registry pushed to its subscribers, and a way to await the next matching message. */
export class Feed {
  readonly messages: WsMessage[] = [];
  private waiters: Array<{ pred: (m: WsMessage) => boolean; resolve: (m: WsMessage) => void }> = [];

  constructor(registry: PaneRegistry) {
    registry.subscribe((m) => {
      this.messages.push(m);
      this.waiters = this.waiters.filter((w) => (w.pred(m) ? (w.resolve(m), false) : true));
    });
  }

  /** The first message from index `from` on that matches. */
  waitFor<T extends WsMessage>(pred: (m: WsMessage) => m is T, what: string, from = 0, ms = WAIT_MS): Promise<T> {
    const found = this.messages.slice(from).find(pred);
    if (found) return Promise.resolve(found as T);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no feed message: ${what} (got ${this.messages.map((m) => m.type).join(',')})`)), ms);
      this.waiters.push({ pred, resolve: (m) => (clearTimeout(timer), resolve(m as T)) });
    });
  }

  transitionTo(paneId: string, to: string, from = 0): Promise<Extract<WsMessage, { type: 'transition' }>> {
    return this.waitFor(
      (m): m is Extract<WsMessage, { type: 'transition' }> => m.type === 'transition' && m.transition.paneId === paneId && m.transition.to === to,
      `${paneId} → ${to}`,
      from,
    );
  }

  paneView(paneId: string, pred: (p: Extract<WsMessage, { type: 'pane' }>['pane']) => boolean, what: string, from = 0) {
    return this.waitFor((m): m is Extract<WsMessage, { type: 'pane' }> => m.type === 'pane' && m.pane.id === paneId && pred(m.pane), what, from);
  }
}

export interface TestRegistry {
  registry: PaneRegistry;
  store: HistoryStore;
  log: MemLog;
  feed: Feed;
  cfg: Config;
  dbPath: string;
  close(): void;
}

export function testRegistry(over: Partial<RegistryOptions> = {}): TestRegistry {
  const dir = mkdtempSync(join(tmpdir(), 'ts-registry-'));
  const dbPath = join(dir, 'history.sqlite');
  const log = new MemLog(join(dir, 'daemon.log'));
  const store = HistoryStore.open(dbPath, { flushMs: 20, onError: (e) => log.logger.warn({ kind: 'daemon', err: String(e) }, 'store') });
  const cfg = loadConfig();
  const registry = new PaneRegistry({ cfg, store, version: '9.9.9-test', log: log.logger, ...over });
  const feed = new Feed(registry);
  let closed = false;
  return {
    registry,
    store,
    log,
    feed,
    cfg,
    dbPath,
    close() {
      if (closed) return;
      closed = true;
      registry.closeAll('test done');
      store.close();
      closeLogger(log.logger);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** OSC 133 shell integration marks: prompt start, input start, command executed, command finished. */
export const OSC133 = {
  prompt: '\x1b]133;A\x07',
  input: '\x1b]133;B\x07',
  executed: '\x1b]133;C\x07',
  finished: (code: number) => `\x1b]133;D;${code}\x07`,
};
