// The live feed on /ws and the link doors, on a real listening app with real `ws` clients: hello, transitions at
// once and in order, snapshots coalesced per pane, who may connect, and what a client that stops reading costs.
import { afterEach, describe, expect, it } from 'vitest';
import type { HubOptions } from '../../src/web/ws-hub.js';
import { fakePane, fakeTransition, listeningApp, TOKEN } from '../helpers/web-fake-api.js';
import { upgradeStatus, until, WsProbe, type Msg } from '../helpers/web-ws.js';
import { FEED_FULL_CLOSE_CODE, MAX_OPEN_FEEDS } from '../../src/web/feed-slots.js';

type Listening = Awaited<ReturnType<typeof listeningApp>>;
let cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const c of cleanups.reverse()) await c();
  cleanups = [];
});

async function start(hub: Partial<HubOptions> = {}, loopback = true): Promise<Listening> {
  const t = await listeningApp({ hub, loopback });
  t.api.add(fakePane('p1'));
  t.api.add(fakePane('p2', { state: 'DONE', needsYou: true }));
  cleanups.push(() => t.close());
  return t;
}

async function client(t: Listening, headers: Record<string, string> = {}): Promise<WsProbe> {
  const c = await WsProbe.open(`${t.ws}/ws`, { headers });
  cleanups.push(() => c.close());
  await c.waitFor((m) => m.type === 'hello', 'hello');
  return c;
}

const isTransition = (rule: string) => (m: Msg) => m.type === 'transition' && m.transition.rule === rule;
const rules = (c: WsProbe) => c.ofType('transition').map((m) => m.transition.rule as string);
const range = (n: number, from = 0) => Array.from({ length: n - from }, (_, i) => `rule.${i + from}`);
/** A pane snapshot of about 200 KB: a big live edge. */
const bigPane = (i: number) => fakePane('p1', { rule: `r${i}`, edge: [`${i}:`.padEnd(200_000, 'x')] });
const tick = () => new Promise((r) => setImmediate(r));

describe('feed', () => {
  it('says hello with the panes on connect', async () => {
    const t = await start();
    const c = await client(t);
    expect(c.messages[0]).toEqual({ type: 'hello', version: '9.9.9-test', panes: [fakePane('p1'), fakePane('p2', { state: 'DONE', needsYou: true })] });
    expect(t.app.hub.size).toBe(1);
  });

  it('sends transitions at once (no coalescing window) and in order', async () => {
    const t = await start({ coalesceMs: 60_000 });
    const a = await client(t);
    const b = await client(t);
    for (let i = 0; i < 200; i++) t.api.emit({ type: 'transition', transition: fakeTransition(i % 2 ? 'p1' : 'p2', i) });
    await a.waitFor(isTransition('rule.199'), 'last transition (a)');
    await b.waitFor(isTransition('rule.199'), 'last transition (b)');
    expect(rules(a)).toEqual(range(200));
    expect(rules(b)).toEqual(range(200));
    expect(a.ofType('transition')[7].transition).toEqual(fakeTransition('p1', 7));
  });

  it('coalesces a burst of snapshots of one pane into one message with the latest content', async () => {
    const t = await start({ coalesceMs: 50 });
    const c = await client(t);
    for (let i = 0; i < 100; i++) {
      t.api.emit({ type: 'pane', pane: fakePane('p1', { rule: `r${i}`, edge: [`line ${i}`] }) });
      t.api.emit({ type: 'pane', pane: fakePane('p2', { rule: `s${i}` }) });
    }
    await c.waitFor((m) => m.type === 'pane' && m.pane.id === 'p1', 'p1 snapshot');
    await c.waitFor((m) => m.type === 'pane' && m.pane.id === 'p2', 'p2 snapshot');
    // A later burst is a later message.
    t.api.emit({ type: 'pane', pane: fakePane('p1', { rule: 'later' }) });
    await c.waitFor((m) => m.type === 'pane' && m.pane.rule === 'later', 'later snapshot');
    const p1 = c.ofType('pane').filter((m) => m.pane.id === 'p1');
    expect(p1.map((m) => m.pane.rule)).toEqual(['r99', 'later']);
    expect(p1[0].pane.edge).toEqual(['line 99']);
    expect(c.ofType('pane').filter((m) => m.pane.id === 'p2').map((m) => m.pane.rule)).toEqual(['s99']);
  });

  it("a transition takes its pane's pending snapshot with it, so card and event agree", async () => {
    const t = await start({ coalesceMs: 60_000 });
    const c = await client(t);
    t.api.emit({ type: 'pane', pane: fakePane('p1', { state: 'DONE', rule: 'with-transition' }) });
    t.api.emit({ type: 'transition', transition: fakeTransition('p1', 1, { from: 'RUNNING', to: 'DONE' }) });
    const p = await c.waitFor((m) => m.type === 'pane', 'snapshot flushed by the transition');
    expect(p.pane.rule).toBe('with-transition');
    expect(c.messages.slice(1).map((m) => m.type)).toEqual(['transition', 'pane']);
  });

  it('reports a removed pane, and drops its pending snapshot', async () => {
    const t = await start({ coalesceMs: 30 });
    const c = await client(t);
    t.api.emit({ type: 'pane', pane: fakePane('p3') });
    t.api.emit({ type: 'pane_removed', id: 'p3' });
    t.api.emit({ type: 'pane', pane: fakePane('p1', { rule: 'marker' }) });
    await c.waitFor((m) => m.type === 'pane_removed' && m.id === 'p3', 'pane_removed');
    await c.waitFor((m) => m.type === 'pane' && m.pane.rule === 'marker', 'marker');
    expect(c.ofType('pane').map((m) => m.pane.id)).toEqual(['p1']);
    // Removed, then back within one window: the snapshot wins.
    t.api.emit({ type: 'pane_removed', id: 'p2' });
    t.api.emit({ type: 'pane', pane: fakePane('p2', { rule: 'back' }) });
    await c.waitFor((m) => m.type === 'pane' && m.pane.rule === 'back', 'p2 back');
    expect(c.ofType('pane_removed').map((m) => m.id)).toEqual(['p3']);
  });

  it('ignores what a dashboard sends, and closes one that sends too much', async () => {
    const t = await start();
    const c = await client(t);
    c.send({ type: 'whatever' });
    c.send('x'.repeat(8 << 10));
    const closed = await c.closed;
    expect(closed.code).toBe(1009);
    await until(() => t.app.hub.size === 0, 'hub forgets the closed client');
    const d = await client(t);
    t.api.emit({ type: 'transition', transition: fakeTransition('p1', 1) });
    await d.waitFor(isTransition('rule.1'), 'transition after');
  });

  it('says goodbye (1001) when the app closes', async () => {
    const t = await start();
    const c = await client(t);
    await t.app.close();
    expect((await c.closed).code).toBe(1001);
    expect(t.api.subscribers).toBe(0);
  });
});

describe('who may connect', () => {
  it('on loopback: the CLI and our own page without a token, a foreign page only with it', async () => {
    const t = await start();
    const url = `${t.ws}/ws`;
    expect(await upgradeStatus(url)).toBe('open');
    expect(await upgradeStatus(url, { Origin: t.http })).toBe('open');
    expect(await upgradeStatus(url, { Origin: 'http://evil.example' })).toBe(401);
    expect(await upgradeStatus(url, { Origin: 'null' })).toBe(401);
    expect(await upgradeStatus(url, { Origin: 'http://evil.example', Authorization: `Bearer ${TOKEN}` })).toBe('open');
    expect(await upgradeStatus(url, { Origin: 'http://evil.example', Authorization: `Bearer nope` })).toBe(401);
    expect(await upgradeStatus(url, { Host: 'evil.example:7878' })).toBe(403);
    expect(await upgradeStatus(url, { Host: 'evil.example:7878', Authorization: `Bearer ${TOKEN}` })).toBe(403);
  });

  it('a malformed token cookie on an upgrade is no token, and the daemon lives on', async () => {
    const t = await start();
    expect(await upgradeStatus(`${t.ws}/ws`, { Origin: 'http://evil.example', Cookie: 'ts_token=%E0%A4%A' })).toBe(401);
    expect(await upgradeStatus(`${t.ws}/api/pane-link`, { Cookie: 'ts_token=%' })).toBe(401);
    expect(await upgradeStatus(`${t.ws}/ws`)).toBe('open');
  });

  it('off loopback: the token, always', async () => {
    const t = await start({}, false);
    const url = `${t.ws}/ws`;
    expect(await upgradeStatus(url)).toBe(401);
    expect(await upgradeStatus(url, { Origin: t.http })).toBe(401);
    expect(await upgradeStatus(url, { Authorization: `Bearer ${TOKEN}` })).toBe('open');
    expect(await upgradeStatus(url, { Cookie: `ts_token=${TOKEN}`, Origin: t.http })).toBe('open');
  });

  it('a pane link needs the token; with it the socket goes to the daemon', async () => {
    const t = await start();
    const url = `${t.ws}/api/pane-link`;
    expect(await upgradeStatus(url)).toBe(401);
    expect(await upgradeStatus(url, { Origin: t.http })).toBe(401);
    expect(await upgradeStatus(url, { Cookie: `ts_token=${TOKEN}`, Origin: 'http://evil.example' })).toBe(401);
    expect(t.api.links).toHaveLength(0);
    const link = await WsProbe.open(url, { headers: { Authorization: `Bearer ${TOKEN}` } });
    cleanups.push(() => link.close());
    await link.waitFor((m) => m.type === 'welcome', 'welcome from the fake daemon');
    expect(t.api.links.map((l) => [l.kind, l.remote])).toEqual([['pane', '127.0.0.1']]);
  });

  it('caps open feeds per kind of client: past the cap a feed is closed at once with 1013 and why; a closed one frees its slot', async () => {
    const t = await start();
    const open: WsProbe[] = [];
    for (let i = 0; i < MAX_OPEN_FEEDS; i++) open.push(await client(t));
    const over = await WsProbe.open(`${t.ws}/ws`);
    cleanups.push(() => over.close());
    expect(await over.closed).toEqual({ code: FEED_FULL_CLOSE_CODE, reason: `too many live feeds without the token (${MAX_OPEN_FEEDS})` });
    expect(over.messages).toHaveLength(0);
    expect(t.app.hub.size).toBe(MAX_OPEN_FEEDS);
    // The token's clients have their own share; a feed that closes gives its slot back.
    await client(t, { Authorization: `Bearer ${TOKEN}` });
    await open[0]!.close();
    await until(() => t.app.hub.size === MAX_OPEN_FEEDS, 'the closed feed leaving the hub');
    await client(t);
    const metrics = await (await fetch(`${t.http}/metrics`)).text();
    expect(metrics).toContain('termsupervisor_ws_refused_total 1');
  });

  it('other paths are 404, including names every object has', async () => {
    const t = await start();
    const auth = { Authorization: `Bearer ${TOKEN}` };
    for (const path of ['/nope', '/api/panes', '/toString', '/constructor', '/__proto__', '/hasOwnProperty']) {
      expect(await upgradeStatus(`${t.ws}${path}`, auth), path).toBe(404);
    }
    expect(t.api.links).toHaveLength(0);
  });
});

describe('a client that stops reading', () => {
  it('is skipped, then dropped, while a reading client gets every transition', async () => {
    const t = await start({ coalesceMs: 10, maxBufferedBytes: 64 << 10, slowDropMs: 300 });
    const fast = await client(t);
    const slow = await client(t);
    slow.ws.pause();
    let i = 0;
    for (; t.app.hub.dropped === 0 && i < 2000; i++) {
      t.api.emit({ type: 'pane', pane: bigPane(i) });
      t.api.emit({ type: 'transition', transition: fakeTransition('p1', i) });
      await fast.waitFor(isTransition(`rule.${i}`), `transition ${i} (fast)`);
    }
    expect(t.app.hub.dropped).toBe(1);
    expect(t.app.hub.skipped).toBeGreaterThan(0);
    expect(t.app.hub.size).toBe(1);
    expect(rules(fast)).toEqual(range(i));
    // The reading client goes on as before.
    t.api.emit({ type: 'transition', transition: fakeTransition('p1', i) });
    await fast.waitFor(isTransition(`rule.${i}`), 'transition after the drop');
    expect(fast.isClosed).toBe(false);
    // The slow one, reading again, finds itself closed, having been sent far less than was published.
    slow.ws.resume();
    await slow.closed;
    expect(slow.ofType('pane').length).toBeLessThan(i);
  });

  it('catching up, gets every transition in order and only the latest snapshot of what it missed', async () => {
    const t = await start({ coalesceMs: 10, maxBufferedBytes: 64 << 10, slowDropMs: 600_000 });
    const fast = await client(t);
    const slow = await client(t);
    slow.ws.pause();
    let i = 0;
    let behindAt = -1;
    const step = async () => {
      t.api.emit({ type: 'pane', pane: bigPane(i) });
      t.api.emit({ type: 'transition', transition: fakeTransition('p1', i) });
      await fast.waitFor(isTransition(`rule.${i}`), `transition ${i} (fast)`);
      i++;
    };
    while (t.app.hub.skipped === 0 && i < 2000) await step();
    behindAt = i;
    for (let k = 0; k < 20; k++) await step();
    const last = i - 1;
    slow.ws.resume();
    await slow.waitFor((m) => m.type === 'pane' && m.pane.rule === `r${last}`, 'latest snapshot');
    await slow.waitFor(isTransition(`rule.${last}`), 'last transition');
    expect(rules(slow)).toEqual(range(i));
    const panes = slow.ofType('pane').map((m) => m.pane.rule as string);
    expect(panes.at(-1)).toBe(`r${last}`);
    // Sent before it fell behind, plus one snapshot after: the 20 it missed were never queued for it.
    expect(panes.length).toBeLessThanOrEqual(behindAt + 1);
    expect(t.app.hub.dropped).toBe(0);
    expect(rules(fast)).toEqual(range(i));
  });

  it('a transition sent right after it catches up comes after the ones it missed', async () => {
    // No flush timer fires in this test: only publishing sends anything.
    const t = await start({ coalesceMs: 600_000, maxBufferedBytes: 64 << 10, slowDropMs: 600_000 });
    const slow = await client(t);
    slow.ws.pause();
    const big = 'x'.repeat(200_000);
    let i = 0;
    let sentDirectly = -1;
    for (; i < 2000; i++) {
      const before = t.app.hub.sent;
      t.api.emit({ type: 'transition', transition: fakeTransition('p1', i, { line: big }) });
      if (t.app.hub.sent === before) break; // queued: the client is behind
      sentDirectly = i;
      await tick();
    }
    expect(sentDirectly).toBeGreaterThanOrEqual(0);
    for (let k = 0; k < 3; k++) t.api.emit({ type: 'transition', transition: fakeTransition('p1', ++i) });
    slow.ws.resume();
    // Everything written to the socket has arrived: nothing is buffered for it any more.
    await slow.waitFor(isTransition(`rule.${sentDirectly}`), 'the last transition sent before it fell behind');
    t.api.emit({ type: 'transition', transition: fakeTransition('p1', ++i) });
    await slow.waitFor(isTransition(`rule.${i}`), 'the new transition');
    expect(rules(slow)).toEqual(range(i + 1));
  });

  it('is dropped when too many transitions wait for it', async () => {
    const t = await start({ coalesceMs: 600_000, maxBufferedBytes: 64 << 10, slowDropMs: 600_000 });
    const slow = await client(t);
    slow.ws.pause();
    const big = 'x'.repeat(200_000);
    let i = 0;
    for (; i < 2000; i++) {
      const before = t.app.hub.sent;
      t.api.emit({ type: 'transition', transition: fakeTransition('p1', i, { line: big }) });
      if (t.app.hub.sent === before) break;
      await tick();
    }
    for (let k = 0; k < 1100 && t.app.hub.dropped === 0; k++) t.api.emit({ type: 'transition', transition: fakeTransition('p1', ++i) });
    expect(t.app.hub.dropped).toBe(1);
    expect(t.app.hub.size).toBe(0);
    slow.ws.resume();
    await slow.closed;
  });
});
