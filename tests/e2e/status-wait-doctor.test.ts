// `status`, `wait` and `doctor` as a person and a script use them: the built CLI against a real daemon process (its
// own XDG dirs, a free port, real SQLite) with a real `run` pane, and with no daemon at all.
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../helpers/build.js';
import { BIN } from './harness.js';
import { daemonScratch, DaemonProcess, runCli, runWrapper, until, type DaemonDirs } from './daemon-harness.js';
import { LATEST_VERSION } from '../../src/store/migrations.js';
import { PALETTE, xterm256 } from '../../src/cli/colors.js';
import type { PaneView, TransitionView } from '../../src/web/api-types.js';
import type { Check } from '../../src/cli/doctor-checks.js';

const { cleanups, dirs } = daemonScratch();
beforeAll(() => ensureBuilt(), 120_000);

/** The test's environment, with a home of its own: doctor reads the agents' settings under it. */
function env(d: DaemonDirs, extra: Record<string, string> = {}): Record<string, string> {
  const home = join(d.dir, 'home');
  mkdirSync(home, { recursive: true });
  const e: Record<string, string> = { ...d.env, HOME: home, ...extra };
  for (const k of ['CLAUDE_CONFIG_DIR', 'CODEX_HOME', 'NO_COLOR', 'FORCE_COLOR']) if (!(k in extra)) delete e[k];
  return e;
}
const ts = (d: DaemonDirs, args: string[], extra: Record<string, string> = {}) => runCli([process.execPath, BIN, ...args], env(d, extra));
const doctorJson = async (d: DaemonDirs) => {
  const r = await ts(d, ['doctor', '--json']);
  return { code: r.code, report: JSON.parse(r.stdout) as { ok: boolean; checks: Check[] } };
};
const check = (checks: Check[], id: string) => checks.find((c) => c.id === id);

/** A loopback port that was free a moment ago (listened on, then closed). */
async function closedPort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const { port } = srv.address() as AddressInfo;
  await new Promise((r) => srv.close(r));
  return port;
}

describe('status, wait and doctor', () => {
  it('with no daemon: each says so; doctor still checks the rest and exits 1', async () => {
    const d = dirs();
    const status = await ts(d, ['status']);
    expect(status.code).toBe(1);
    expect(status.stderr).toContain('no running daemon found');
    const wait = await ts(d, ['wait', 'api', '--until', 'done']);
    expect(wait.code).toBe(1);
    expect(wait.stderr).toContain('no running daemon found');

    // doctor also looks on the configured port (a daemon of this machine may hold 7878): one nobody listens on.
    const port = await closedPort();
    const cfgFile = join(d.dir, 'config', 'termsupervisor', 'config.json');
    mkdirSync(join(d.dir, 'config', 'termsupervisor'), { recursive: true });
    writeFileSync(cfgFile, JSON.stringify({ daemon: { port } }));
    const doctor = await ts(d, ['doctor', '--no-color']);
    expect(doctor.code).toBe(1);
    expect(doctor.stdout).toMatch(new RegExp(`FAIL\\s+daemon\\s+no running daemon \\(no live runtime file at .*, nothing at http://127.0.0.1:${port}\\)`));
    expect(doctor.stdout).toMatch(/fix: start it: `termsupervisor daemon`/);
    expect(doctor.stdout).toMatch(new RegExp(`ok\\s+config\\s+valid: ${cfgFile}`));
    expect(doctor.stdout).not.toContain('\x1b[');

    // A broken config is reported with the loader's own words.
    const bad = join(d.dir, 'bad.json');
    writeFileSync(bad, '{"thresholds": {"tick_ss": 1}}');
    const r = await ts(d, ['doctor', '--json', '--config', bad]);
    expect(r.code).toBe(1);
    expect(check((JSON.parse(r.stdout) as { checks: Check[] }).checks, 'config')).toMatchObject({ status: 'fail', detail: expect.stringContaining('thresholds.tick_ss: unknown key') });
  });

  it('against a real daemon: status lines and colours, wait for DONE, timeout, unknown pane, FAILED, and doctor', async () => {
    const d = dirs();
    const dm = await DaemonProcess.start(d);
    cleanups.push(async () => void (await dm.stop('SIGKILL')));
    const w = runWrapper(d, ['--name', 'e2e'], ['bash', '--norc', '--noprofile']);
    cleanups.push(() => void w.kill('SIGKILL'));
    const panes = async () => JSON.parse((await ts(d, ['status', '--json'])).stdout) as PaneView[];
    const view = await until('the pane to join', async () => (await panes()).find((p) => p.name === 'e2e'), () => dm.diag() + w.out);
    expect(view).toMatchObject({ name: 'e2e', state: 'IDLE', alive: true, program: 'shell', shellIntegration: false });
    const id = view.id;

    const plain = await ts(d, ['status', '--no-color']);
    expect(plain.code).toBe(0);
    expect(plain.stdout).toMatch(new RegExp(`○ IDLE +\\d+s +e2e +shell .*\\[${id}\\]`));

    // doctor before any shell integration: the pane is a shell without marks.
    let doc = await doctorJson(d);
    // Nothing fails that this test set up (tmux is the machine's: too old a tmux would fail, rightly).
    expect(doc.report.checks.filter((c) => c.status === 'fail' && c.id !== 'tmux')).toEqual([]);
    expect(doc.code).toBe(doc.report.ok ? 0 : 1);
    expect(check(doc.report.checks, 'daemon')).toMatchObject({ status: 'ok', detail: expect.stringContaining(dm.url) });
    expect(check(doc.report.checks, 'token')).toMatchObject({ status: 'ok', detail: expect.stringContaining('accepted') });
    // The daemon's own database (it was started with --db), read from its runtime file.
    expect(check(doc.report.checks, 'database')).toMatchObject({ status: 'ok', detail: `${d.db}: writable, schema version ${LATEST_VERSION}` });
    expect(check(doc.report.checks, 'hooks.claude')).toMatchObject({ status: 'n/a' });
    expect(check(doc.report.checks, `shell.${id}`)).toMatchObject({ status: 'warn', fix: expect.stringContaining('shell-integration') });

    // wait follows the feed: started while IDLE, it returns once the command is DONE.
    const waiting = ts(d, ['wait', 'e2e', '--until', 'done', '--timeout', '60']);
    await new Promise((r) => setTimeout(r, 500)); // let it connect first (if not, it sees DONE at once: same result)
    w.stdin!.write('sleep 1; echo ok\n');
    const done = await waiting;
    expect(done.code, done.stderr + w.out).toBe(0);
    const history = async () => JSON.stringify(await dm.get<TransitionView[]>(`/api/panes/${encodeURIComponent(id)}/transitions`)) + w.out;
    expect((await panes()).find((p) => p.id === id)?.state, await history()).toBe('DONE');

    // Already there: at once. By id too.
    expect((await ts(d, ['wait', id, '--until', 'done'])).code).toBe(0);
    const timeout = await ts(d, ['wait', 'e2e', '--until', 'idle', '--timeout', '0.5']);
    expect(timeout.code).toBe(1);
    expect(timeout.stderr).toContain(`timed out after 0.5s: pane ${id} is DONE, not idle`);
    const unknown = await ts(d, ['wait', 'nope', '--until', 'done']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('no pane "nope"');
    expect(unknown.stderr).toContain(`${id}  e2e  DONE`);

    // Colours: the dashboard's DONE green, as a 256-colour code when forced; none with NO_COLOR.
    const [r, g, b] = [0x3f, 0xb9, 0x50];
    expect(PALETTE.done).toBe('#3fb950');
    const coloured = await ts(d, ['status'], { FORCE_COLOR: '1', COLORTERM: '' });
    expect(coloured.stdout).toContain(`\x1b[1;38;5;${xterm256(r, g, b)}m✓ DONE`);
    expect(coloured.stdout).toContain('● needs you');
    const truecolor = await ts(d, ['status'], { FORCE_COLOR: '1', COLORTERM: 'truecolor' });
    expect(truecolor.stdout).toContain(`\x1b[1;38;2;${r};${g};${b}m✓ DONE`);
    expect((await ts(d, ['status'], { FORCE_COLOR: '1', NO_COLOR: '1' })).stdout).not.toContain('\x1b[');

    // Shell integration marks (OSC 133) in the order one command makes (a prompt, its start, its end with exit 1):
    // FAILED (Tier 1), and the pane now reports its marks.
    w.stdin!.write("printf '\\e]133;A\\a\\e]133;C\\a'; sleep 1; printf '\\e]133;D;1\\a\\e]133;A\\a$ \\e]133;B\\a'\n");
    const failedView = await until('FAILED', async () => (await panes()).find((p) => p.id === id && p.state === 'FAILED'), () => w.out);
    expect(failedView).toMatchObject({ state: 'FAILED', shellIntegration: true, needsYou: true });
    const failed = await ts(d, ['wait', 'e2e', '--until', 'done']);
    expect(failed.code).toBe(3);
    expect(failed.stderr).toContain('FAILED');
    expect((await ts(d, ['wait', 'e2e', '--until', 'failed'])).code).toBe(0);

    doc = await doctorJson(d);
    expect(check(doc.report.checks, `shell.${id}`)).toMatchObject({ status: 'ok', detail: expect.stringContaining('marks seen') });

    // From another set of XDG dirs the runtime file is not found, but the daemon on the configured port is: said so.
    const other = dirs();
    const cfgFile = join(other.dir, 'port.json');
    writeFileSync(cfgFile, JSON.stringify({ daemon: { port: Number(new URL(dm.url).port) } }));
    const elsewhere = JSON.parse((await ts(other, ['doctor', '--json', '--config', cfgFile])).stdout) as { checks: Check[] };
    expect(check(elsewhere.checks, 'daemon')).toMatchObject({ status: 'fail', detail: expect.stringContaining(`answers at ${dm.url}: it runs with other XDG dirs`) });

    // The pane closes: a wait on it ends with 4 (FAILED does not end a wait for running).
    const onClosed = ts(d, ['wait', 'e2e', '--until', 'running', '--timeout', '60']);
    await new Promise((r) => setTimeout(r, 500));
    w.stdin!.write('exit\n');
    const closed = await onClosed;
    expect(closed.code, closed.stderr).toBe(4);
    // Issue 26 item 20: a wait on the closed pane says how it ended, not only "is closed".
    const last = (JSON.parse((await ts(d, ['status', '--json', '--all'])).stdout) as PaneView[]).find((p) => p.id === id)!;
    expect(last.alive).toBe(false);
    const after = await ts(d, ['wait', 'e2e', '--until', 'running']);
    expect(after.code).toBe(4);
    expect(after.stderr).toMatch(new RegExp(`pane ${id} is closed: it ended ${last.state} \\d+s ago`));
  }, 120_000);
});
