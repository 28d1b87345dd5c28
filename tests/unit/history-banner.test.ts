// The dashboard's history banner text (pure): hidden while history is kept; the cause, how long, what waits and
// what was lost while degraded; a damaged file points at doctor.
import { describe, expect, it } from 'vitest';
import { historyBannerText } from '../../web/src/history-banner.js';
import type { HistoryHealth } from '../../src/web/api-types.js';

const ok: HistoryHealth = { status: 'ok', cause: null, op: null, since: null, damaged: false, queued: 0, dropped: 0, recoveries: 0, failures: 0 };

describe('history banner', () => {
  it('says nothing while history is kept', () => {
    expect(historyBannerText(undefined)).toBeNull();
    expect(historyBannerText(ok)).toBeNull();
  });
  it('names the cause, how long, and what waits in memory', () => {
    const h: HistoryHealth = { ...ok, status: 'degraded', op: 'write', cause: 'SQLITE_FULL: database or disk is full', since: 1_000, queued: 12, dropped: 3 };
    expect(historyBannerText(h, 31_000)).toBe('History degraded for 30 s: SQLITE_FULL: database or disk is full; 12 changes wait in memory; 3 lost. Panes are still watched and shown; history catches up by itself once the cause is gone.');
  });
  it('a damaged file points at doctor', () => {
    expect(historyBannerText({ ...ok, status: 'degraded', op: 'read', cause: 'SQLITE_CORRUPT: database disk image is malformed', since: 0, damaged: true }, 0)).toMatch(/damaged: `termsupervisor doctor` names it/);
  });
});
