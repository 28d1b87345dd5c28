// A menu left drawn after the agent moved on (issue 26 item 9): the person picks an option, the agent prints what
// it picked, works, ends its turn and draws its input box again, the answered menu still on screen above. The
// pane used to go back to WAITING_APPROVAL on that menu (for a minute and more, its buttons offering to type `1`
// into the agent's prompt). The BUILT `run` wrapper in a real terminal, the fake menu agent, read by the generic tier.
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, ROOT, scratch, testEnv, waitFor, Wrapped } from './harness.js';

const MENU_AGENT = join(ROOT, 'tests', 'helpers', 'fake-menu-agent.py');
const open: Wrapped[] = [];
const dirs: Array<() => void> = [];
beforeAll(() => assertBuilt());
afterEach(() => {
  for (const w of open.splice(0)) w.kill();
  for (const c of dirs.splice(0)) c();
});

describe('an answered menu left on screen', () => {
  it('asks nothing once answered: the pane does not go back to WAITING_APPROVAL on it', async () => {
    const s = scratch();
    dirs.push(s.cleanup);
    const w = new Wrapped(s.log, ['--name', 'menu', '--agent', 'generic', '--', 'python3', MENU_AGENT, '--log', join(s.dir, 'keys.jsonl'), '--work', '1'], testEnv(s.dir));
    open.push(w);
    await w.waitOutput('the input box', (o) => o.includes('? for shortcuts'));
    w.term.write('deploy it\r');
    await w.waitOutput('the menu', (o) => o.includes('1-3 to pick'));
    const waiting = await w.transition('WAITING_APPROVAL', (e) => e.state === 'WAITING_APPROVAL');
    w.term.write('1');
    await w.waitOutput('the turn done, the input box back', (o) => o.includes('✓ done'));
    // Two seconds of the agent resting at its input box under the answered menu.
    await new Promise((r) => setTimeout(r, 2500));
    const after = w.transitions().slice(waiting + 1);
    expect(after.length, JSON.stringify(after)).toBeGreaterThan(0);
    expect(after.filter((e) => e.state === 'WAITING_APPROVAL'), JSON.stringify(after.map((e) => [e.t, e.state, e.rule, e.line]))).toEqual([]);
    await waitFor('the screen to say the turn is done', () => w.output.includes('✓ done'));
  }, 60_000);
});
