// Conformance: the bridge with the REAL `iterm2` library (not the project's fake of it), a pretend iTerm2 speaking
// iTerm2's own protocol on the library's unix socket (bridge/tests/iterm2_protocol_server.py), and a real daemon.
// Step by step: the pane attaches; a command goes RUNNING then DONE by prompt marks; an approval menu is WAITING
// with its options; a jump brings the session forward; an answer types into it; looking at it acknowledges it;
// iTerm2 quits and comes back (a new single-use cookie, through AppleScript); a session created after the return
// is seen. Skipped — loudly — when no Python here imports the real library (see tests/helpers/iterm2-real.ts).
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config.js';
import { startDaemon, type Daemon } from '../../src/daemon/daemon.js';
import { closeLogger } from '../../src/daemon/logger.js';
import { readToken, tokenPath } from '../../src/daemon/token.js';
import type { FocusResult, PaneView, TransitionView } from '../../src/web/api-types.js';
import { MemLog } from '../helpers/web-registry.js';
import { findRealLibrary, RealLibraryBridge } from '../helpers/iterm2-real.js';
import { until } from './daemon-harness.js';
import { testEnv, waitFor } from './harness.js';

const lib = findRealLibrary();
if (typeof lib === 'string') console.warn(`termsupervisor: WARNING: the iTerm2 real-library conformance test is SKIPPED: ${lib}`);
else console.info(`termsupervisor: iTerm2 conformance with the real iterm2 ${lib.version} (${lib.path})`);

const S1 = 'iterm2:S1';
const R = '─'.repeat(60);
// Claude Code's screens (as in tests/unit/hooks-answer.test.ts, recorded from the real CLI).
const AT_REST = ['', R, '❯ ', R, '  ⏸ manual mode on · ? for shortcuts'];
const TYPED = ['', R, '❯ create hello.txt', R, '  ⏸ manual mode on · ? for shortcuts'];
const spinner = (s: number) => ['❯ create hello.txt', '', `✶ Pondering… (${s}s)`, '', R, '❯ ', R, '  ⏸ manual mode on · esc to interrupt'];
const MENU = [
  '❯ create hello.txt', '', '● Creating hello.txt', '  ⎿  $ touch hello.txt', R, ' Bash command', '   touch hello.txt',
  ' Do you want to proceed?', ' ❯ 1. Yes', '   2. Yes, and always allow access', '   3. No', '', ' Esc to cancel · Tab to amend',
];
/** macOS virtual key code of Return (keyboard.py Keycode.RETURN). */
const RETURN = 0x24;

let dir = '';
let daemon: Daemon;
let log: MemLog;
let b: RealLibraryBridge;
const transitions: TransitionView[] = [];
const diag = () => `${b.diag()}\ndaemon transitions: ${JSON.stringify(transitions.slice(-6).map((t) => [t.paneId, t.to, t.rule]))}`;
const to = (pane: string, state: string) => transitions.filter((t) => t.paneId === pane && t.to === state);

async function api<T>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> {
  const token = readToken(tokenPath(testEnv(dir)));
  const r = await fetch(`${daemon.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'x-termsupervisor-client': 'dashboard', ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  return { status: r.status, body: (await r.json()) as T };
}
const pane = async (id: string) => (await api<PaneView>('GET', `/api/panes/${encodeURIComponent(id)}`)).body;

describe.skipIf(typeof lib === 'string').sequential('iTerm2 bridge with the real iterm2 library ↔ pretend iTerm2 ↔ daemon', () => {
  beforeAll(async () => {
    if (typeof lib === 'string') return;
    dir = mkdtempSync(join(tmpdir(), 'ts-it2real-'));
    mkdirSync(join(dir, 'run'), { recursive: true, mode: 0o700 });
    mkdirSync(join(dir, 'state'));
    const env = { ...testEnv(dir), HOME: dir };
    log = new MemLog(join(dir, 'daemon.log'));
    daemon = await startDaemon({ cfg: loadConfig(), version: '9.9.9-e2e', port: 0, db: join(dir, 'history.sqlite'), env, log: log.logger });
    daemon.registry.subscribe((m) => void (m.type === 'transition' && transitions.push(m.transition)));
    b = await RealLibraryBridge.start(lib, env, join(dir, 'state'), { w1: [['S1', 'zsh', 80, 24]] });
  }, 30_000);

  afterAll(async () => {
    await b?.stop();
    await daemon?.close();
    if (log) closeLogger(log.logger);
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('attach: the session becomes a pane, the hello names the real library', async () => {
    await waitFor('the pane to attach', () => daemon.registry.pane(S1)?.alive, diag);
    const hello = await log.waitFor((e) => e.obj['event'] === 'bridge_connected', 'the bridge connected');
    expect(hello.obj).toMatchObject({ bridge: 'iterm2_bridge/0.1.0', iterm2: (lib as { version: string }).version });
    expect(daemon.registry.pane(S1)).toMatchObject({ name: 'zsh', attach: 'iterm2', cols: 80, rows: 24 });
  });

  it('RUNNING then DONE by prompt marks', async () => {
    await b.show('S1', ['~ % ']);
    await b.do({ op: 'prompt', session: 'S1', mode: 'PROMPT' });
    await b.show('S1', ['~ % make']);
    await b.do({ op: 'key', session: 'S1', chars: '\r', keycode: RETURN });
    await b.do({ op: 'prompt', session: 'S1', mode: 'COMMAND_START', value: 'make' });
    await b.show('S1', ['~ % make', 'compiling']);
    await waitFor('RUNNING', () => to(S1, 'RUNNING')[0], diag);
    await b.do({ op: 'prompt', session: 'S1', mode: 'COMMAND_END', value: 0 });
    await b.show('S1', ['~ % make', 'compiling', '~ % ']);
    const done = await waitFor('DONE', () => to(S1, 'DONE')[0], diag);
    expect(done).toMatchObject({ tier: 1, source: 'in-band', rule: 'osc133.command_finished' });
  });

  it('focus-ack: window focus changes (a Reason enum in the library) keep the watch; looking at the session acknowledges it', async () => {
    await b.do({ op: 'focus', update: { window: ['w1', 2] } }); // resigned key
    await b.do({ op: 'focus', update: { application_active: false } });
    await b.do({ op: 'focus', update: { window: ['w1', 0] } }); // became key
    await b.do({ op: 'focus', update: { application_active: true } });
    await waitFor('IDLE after focus', () => to(S1, 'IDLE')[0], diag);
    expect(daemon.registry.pane(S1)?.alive).toBe(true);
  });

  it('WAITING with options: an approval menu on screen', async () => {
    await b.do({ op: 'var', session: 'S1', name: 'jobName', value: 'claude' });
    await waitFor('claude from jobName', () => daemon.registry.livePane(S1)?.monitor.analyzer.currentProgram.program === 'claude', diag);
    await b.show('S1', AT_REST);
    await b.show('S1', TYPED);
    await b.do({ op: 'key', session: 'S1', chars: '\r', keycode: RETURN });
    await b.show('S1', spinner(1));
    await b.show('S1', spinner(2));
    await b.show('S1', MENU);
    await waitFor('WAITING_APPROVAL', () => to(S1, 'WAITING_APPROVAL')[0], diag);
    const q = await until('the question', async () => (await pane(S1)).question, diag);
    expect(q.options.map((o) => o.label)).toEqual(['Yes', 'Yes, and always allow access', 'No']);
  });

  it('jump: the session and iTerm2 brought forward', async () => {
    const r = await api<FocusResult>('POST', `/api/panes/${encodeURIComponent(S1)}/focus`, {});
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.focused).toBe(true);
    expect(b.eventsOf('activated')).toEqual([
      expect.objectContaining({ session: 'S1', app: false, select_tab: true, order_window_front: true }),
      expect.objectContaining({ session: null, app: true }),
    ]);
  });

  it('answer: the option typed into the session', async () => {
    const now = await pane(S1);
    const r = await api<{ action: { keys: string } }>('POST', `/api/panes/${encodeURIComponent(S1)}/answer`, { option: '1', rev: now.rev });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const typed = await waitFor('the answer typed in iTerm2', () => b.eventsOf('sent_text')[0], diag);
    expect(typed).toMatchObject({ session: 'S1', suppress_broadcast: true });
    expect(String(typed['text']).length).toBeGreaterThan(0);
  });

  it('iTerm2 quits and comes back: the pane closes, then returns (a new cookie through AppleScript)', async () => {
    await b.do({ op: 'quit' });
    await waitFor('the pane closed when iTerm2 quit', () => daemon.registry.pane(S1)?.alive === false, diag);
    await b.do({ op: 'start' });
    await waitFor('the pane back', () => daemon.registry.pane(S1)?.alive === true, diag);
    expect(b.eventsOf('connected').length).toBe(2);
    expect(b.eventsOf('refused')).toEqual([]);
    await b.show('S1', ['~ % echo back', 'back', '~ % ']);
    await waitFor('the screen after the return', () => daemon.registry.screen(S1)?.includes('echo back'), diag);
  });

  it('a session created after the return is seen', async () => {
    await b.do({ op: 'new_session', session: 'S2', window: 'w2', name: 'claude' });
    await waitFor('the new pane', () => daemon.registry.pane('iterm2:S2')?.alive, diag);
    await b.show('S2', ['~ % ls', 'README.md', '~ % ']);
    await waitFor('its screen', () => daemon.registry.screen('iterm2:S2')?.includes('README.md'), diag);
  });
});
