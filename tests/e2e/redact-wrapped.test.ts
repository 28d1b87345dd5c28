// A key split by a line wrap leaves the process masked everywhere (issue 27): GET /api/panes/:id/screen, the /ws
// edge, the transition's line in the daemon's history and in the `run` wrapper's own events.jsonl, and `logs`. A
// real daemon, a real `run` wrapper at 40 columns, a program that prints a ghp_ token split 18/22 by the wrap (the
// token reaches it through the environment, so no command line holds it).
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../helpers/build.js';
import { join } from 'node:path';
import { BIN, ROOT, waitFor } from './harness.js';
import { daemonScratch, DaemonProcess, runCli, runWrapper, until } from './daemon-harness.js';
import type { PaneView, TransitionView } from '../../src/web/api-types.js';

const COLS = 40;
const TOKEN = 'ghp_' + 'Q7r8S9t0A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6'.slice(0, 36);
const { cleanups, dirs } = daemonScratch();
beforeAll(() => ensureBuilt(), 120_000);

/** Pieces of the token 8 characters long found in `text`. */
function leaks(text: string): string[] {
  const out: string[] = [];
  for (let i = 0; i + 8 <= TOKEN.length; i++) if (text.includes(TOKEN.slice(i, i + 8))) out.push(TOKEN.slice(i, i + 8));
  return out;
}

describe('a token split by the wrap', () => {
  it('is masked in /screen, the /ws edge, the transition lines, run\'s events.jsonl and logs', async () => {
    const d = dirs();
    const dm = await DaemonProcess.start(d);
    cleanups.push(async () => void (await dm.stop('SIGKILL')));
    const feed = await dm.feed();
    cleanups.push(() => feed.ws.close());
    // "Use token " + 11 + " " + 18 characters of the token fill the 40 columns; its other 22 wrap to the next row.
    const script = `printf 'Use token %s %s now\\n' xxxxxxxxxxx "$TS_TEST_TOKEN"; sleep 1.5`;
    const w = runWrapper({ ...d, env: { ...d.env, TS_TEST_TOKEN: TOKEN } }, ['--name', 'leaky', '--cols', String(COLS), '--rows', '10'], ['sh', '-c', script]);
    cleanups.push(() => void w.kill('SIGKILL'));
    const diag = () => `${dm.diag()}\nwrapper:\n${w.out}`;
    const pane = await waitFor('the pane on the feed', () => feed.messages.find((m) => m.type === 'pane')?.['pane'] as PaneView | undefined, diag);
    const screen = await until('the token on the screen', async () => {
      const r = await dm.get<{ text: string }>(`/api/panes/${pane.id}/screen`);
      return r.text.includes('now') ? r.text : null;
    }, diag);
    // Rows stay rows: the wrapped line is two rows, each masked.
    expect(screen.split('\n').slice(0, 2)).toEqual(['Use token xxxxxxxxxxx gh***', '*** now']);
    expect(leaks(screen)).toEqual([]);

    await waitFor('DONE on the feed', () => feed.messages.some((m) => m.type === 'transition' && (m['transition'] as TransitionView).to === 'DONE'), diag);
    await waitFor('the wrapper to exit', () => w.exitCode !== null, diag);
    const edges = feed.messages.filter((m) => m.type === 'pane').flatMap((m) => (m['pane'] as PaneView).edge);
    expect(edges.some((e) => e.includes('now'))).toBe(true);
    expect(leaks(edges.join('\n')), edges.join('\n')).toEqual([]);
    const history = await dm.get<TransitionView[]>(`/api/panes/${pane.id}/transitions`);
    expect(leaks(JSON.stringify(history))).toEqual([]);
    expect(leaks(JSON.stringify(feed.messages))).toEqual([]);

    const events = readFileSync(`${d.dir}/events.jsonl`, 'utf8');
    const done = events.split('\n').filter(Boolean).map((l) => JSON.parse(l) as { kind: string; state?: string; line?: string }).find((e) => e.kind === 'transition' && e.state === 'DONE');
    expect(done?.line, events).toMatch(/\*\*\* now$/);
    expect(leaks(events), events).toEqual([]);
    const logs = await runCli([process.execPath, BIN, 'logs', '--file', `${d.dir}/events.jsonl`], d.env);
    expect(logs.stdout).toContain('now');
    expect(leaks(logs.stdout), logs.stdout).toEqual([]);
  }, 60_000);

  it('is masked in question.text when the question\'s row holds only the token\'s tail', async () => {
    const d = dirs();
    const dm = await DaemonProcess.start(d);
    cleanups.push(async () => void (await dm.stop('SIGKILL')));
    const feed = await dm.feed();
    cleanups.push(() => feed.ws.close());
    // " Use token " + 10 + " " + 18 characters of the token fill the row; the tail and "? [y/N]" are the next row.
    const question = `Use token xxxxxxxxx ${TOKEN}?`;
    const agent = join(ROOT, 'tests', 'helpers', 'fake-menu-agent.py');
    const w = runWrapper({ ...d, env: { ...d.env, FAKE_AGENT_QUESTION: question } }, ['--name', 'asks', '--agent', 'generic', '--cols', String(COLS), '--rows', '12'], ['python3', agent, '--log', join(d.dir, 'keys.jsonl'), '--ask', 'yn']);
    cleanups.push(() => void w.kill('SIGKILL'));
    const diag = () => `${dm.diag()}\nwrapper:\n${w.out}`;
    const pane = await waitFor('the pane on the feed', () => feed.messages.find((m) => m.type === 'pane')?.['pane'] as PaneView | undefined, diag);
    await until('the agent at its input box', async () => ((await dm.get<PaneView>(`/api/panes/${pane.id}`)).edge.join('\n').includes('> ') ? true : null), diag);
    w.stdin!.write('deploy it\r');
    const asked = await until('the question read from the screen', async () => (await dm.get<PaneView>(`/api/panes/${pane.id}`)).question, diag);
    expect(asked.text).toContain('[y/N]');
    expect(leaks(asked.text), asked.text).toEqual([]);
    expect(leaks(JSON.stringify(await dm.get<PaneView>(`/api/panes/${pane.id}`)))).toEqual([]);
    expect(leaks(JSON.stringify(feed.messages))).toEqual([]);
  }, 60_000);
});
