// The real daemon and its history file: a damaged page at start is refused in one paragraph naming the file and
// the way out (no stack trace), and `doctor` names it; a read-only file is said to be read-only; and a kill -9
// during a burst of 100 panes loses nothing any websocket client was shown (publish after commit).
import Database from 'better-sqlite3';
import { closeSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { WebSocket } from 'ws';
import { describe, expect, it } from 'vitest';
import { HistoryStore } from '../../src/store/history-store.js';
import type { TransitionView, WsMessage } from '../../src/web/api-types.js';
import { LINK_PROTOCOL_VERSION } from '../../src/attach/link-protocol.js';
import { BIN } from './harness.js';
import { daemonScratch, DaemonProcess, runCli, until } from './daemon-harness.js';
import { pane, transition } from '../helpers/store-fixtures.js';
import { smallDisk } from '../helpers/small-disk.js';

const { cleanups, dirs } = daemonScratch();

/** A history file with a few pages of rows, then one data page overwritten with garbage. */
function damagedHistory(path: string): void {
  const s = HistoryStore.open(path);
  s.upsertPane(pane());
  for (let i = 0; i < 2000; i++) s.addTransition(transition({ at: i, line: `row ${i} ${'z'.repeat(100)}` }));
  s.close();
  const raw = new Database(path);
  raw.pragma('wal_checkpoint(TRUNCATE)');
  const pageSize = raw.pragma('page_size', { simple: true }) as number;
  const pages = raw.pragma('page_count', { simple: true }) as number;
  raw.close();
  const fd = openSync(path, 'r+');
  writeSync(fd, Buffer.alloc(pageSize, 0xa5), 0, pageSize, pageSize * Math.floor(pages / 2));
  closeSync(fd);
}

describe('the history file at start', () => {
  it('a damaged page: refused in one paragraph naming the file and the way out; doctor names it', async () => {
    const d = dirs();
    damagedHistory(d.db);
    const p = new DaemonProcess(d);
    const end = await p.exited;
    expect(end.code).toBe(2);
    expect(p.stderr).toContain(`the history database ${d.db} is damaged`);
    expect(p.stderr).toContain(`mv '${d.db}' '${d.db}.damaged'`);
    expect(p.stderr).not.toMatch(/\n\s+at /); // no stack trace
    expect(p.stderr).not.toMatch(/SqliteError/);

    const doc = await runCli([process.execPath, BIN, 'doctor', '--db', d.db, '--json'], d.env);
    const db = (JSON.parse(doc.stdout) as { checks: Array<{ id: string; status: string; detail: string; fix?: string }> }).checks.find((c) => c.id === 'database')!;
    expect(db.status).toBe('fail');
    expect(db.detail).toContain(`${d.db} is damaged`);
    expect(db.fix).toMatch(/move it aside/);
  }, 60_000);

  it('a read-only file is reported as read-only, not as a file that is not ours', async () => {
    const disk = smallDisk();
    cleanups.push(() => disk.cleanup());
    const d = dirs();
    const db = join(disk.dir, 'history.sqlite');
    HistoryStore.open(db).close();
    if (!disk.readOnly()) return void console.info('read-only test skipped: no read-only mount here');
    const p = new DaemonProcess(d, ['--db', db]);
    const end = await p.exited;
    expect(end.code).toBe(2);
    expect(p.stderr).toContain(`the history database ${db} is read-only`);
    expect(p.stderr).not.toMatch(/not a termsupervisor history database/);
  }, 60_000);
});

/** Panes linked at once, each printing shell-integration marks in a loop: a steady burst of transitions. */
const PANES = 100;
/** Transitions the feed must have seen before the kill: the burst is well under way. */
const KILL_AFTER = 400;
const CYCLE_MS = 40;

function paneLink(url: string, token: string, i: number): { stop(): void } {
  const ws = new WebSocket(url.replace(/^http/, 'ws') + '/api/pane-link', { headers: { authorization: `Bearer ${token}` } });
  let timer: NodeJS.Timeout | undefined;
  ws.on('error', () => {});
  ws.on('open', () => {
    ws.send(JSON.stringify({ type: 'hello', v: LINK_PROTOCOL_VERSION, id: `burst-${i}`, name: `burst ${i}`, agent: 'auto', command: 'bash', cols: 80, rows: 24 }));
    const marks = ['\x1b]133;A\x07$ \x1b]133;B\x07', 'true\r\n\x1b]133;C\x07', 'ok\r\n\x1b]133;D;0\x07'];
    let k = i % marks.length;
    timer = setInterval(() => {
      if (ws.readyState === ws.OPEN) ws.send(JSON.stringify({ type: 'output', data: marks[k++ % marks.length] }));
    }, CYCLE_MS);
  });
  return {
    stop() {
      clearInterval(timer);
      ws.terminate();
    },
  };
}

describe('publish after commit', () => {
  it('kill -9 during a burst of 100 panes: every transition a websocket client saw is in history', async () => {
    const d = dirs();
    const dm = await DaemonProcess.start(d);
    cleanups.push(() => void dm.stop('SIGKILL'));
    const seen: TransitionView[] = [];
    const feed = new WebSocket(dm.url.replace('http', 'ws') + '/ws');
    feed.on('message', (b) => {
      const m = JSON.parse(b.toString()) as WsMessage;
      if (m.type === 'transition') seen.push(m.transition);
    });
    feed.on('error', () => {});
    const links = Array.from({ length: PANES }, (_, i) => paneLink(dm.url, dm.token, i));
    cleanups.push(() => links.forEach((l) => l.stop()));
    await until(`${KILL_AFTER} transitions on the feed`, async () => seen.length >= KILL_AFTER, () => dm.diag(), 45_000);
    await dm.stop('SIGKILL'); // mid-burst: the panes keep sending, transitions are being committed
    const shown = [...seen];
    feed.terminate();
    expect(new Set(shown.map((t) => t.paneId)).size).toBeGreaterThan(PANES / 2);

    const s = HistoryStore.open(d.db); // recovers the WAL as the next daemon would
    try {
      const raw = new Database(d.db, { readonly: true });
      const rows = raw.prepare('SELECT pane_id AS paneId, at, from_state AS "from", to_state AS "to" FROM transitions').all() as Array<{ paneId: string; at: number; from: string; to: string }>;
      raw.close();
      const kept = new Set(rows.map((r) => `${r.paneId} ${r.at} ${r.from} ${r.to}`));
      const lost = shown.filter((t) => !kept.has(`${t.paneId} ${t.at} ${t.from} ${t.to}`));
      expect(lost).toEqual([]);
    } finally {
      s.close();
    }
  }, 90_000);
});
