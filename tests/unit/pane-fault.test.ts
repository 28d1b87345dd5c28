// An exception anywhere in one pane's pipeline is caught at the pane (PaneMonitor), reported once with its stage
// and step, and the pane goes on: the next event is read and judged as ever. Each stage's fault is injected where
// that stage runs, on a real pipeline (headless terminal, analyzer, XState machine) in virtual time; a bash command
// with shell integration must then read RUNNING → DONE as if nothing had happened.
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { PaneFault } from '../../src/daemon/pane-fault.js';
import { FaultLog } from '../../src/daemon/fault-log.js';
import { renderMetrics } from '../../src/daemon/metrics.js';
import type { Transition } from '../../src/state/pane-machine.js';
import { PaneFeeder } from '../helpers/pane-feeder.js';
import { OSC133, testRegistry } from '../helpers/web-registry.js';

const BEL = '\x07';
const osc133 = (x: string) => `\x1b]133;${x}${BEL}`;
const PROMPT = `\x1b[?2004h${osc133('A')}$ ${osc133('B')}`;
const THROWN = "Cannot read properties of undefined (reading 'trim')";

const feeders: PaneFeeder[] = [];
const undo: Array<() => unknown> = [];
afterEach(async () => {
  for (const f of feeders.splice(0)) f.stop();
  vi.restoreAllMocks();
  for (const u of undo.splice(0).reverse()) await u();
});

function pane(): { f: PaneFeeder; faults: PaneFault[]; moves: Transition[] } {
  const f = new PaneFeeder({ agent: 'shell' });
  feeders.push(f);
  const faults: PaneFault[] = [];
  const moves: Transition[] = [];
  f.monitor.onFault((x) => faults.push(x));
  f.monitor.onTransition((tr) => tr.from !== tr.to && moves.push(tr));
  return { f, faults, moves };
}

/** `ls` typed at a shell-integrated bash prompt: Tier 1 RUNNING at C, DONE at D. */
async function command(f: PaneFeeder): Promise<void> {
  await f.input('ls', 300);
  await f.output('ls', 10);
  await f.input('\r', 100);
  await f.output(`\x1b[?2004l\r\n${osc133('C')}`, 5);
  await f.output('file1  file2\r\n', 200);
  await f.output(`${osc133('D;0')}${PROMPT}`, 50);
  await f.settle(1000);
}

/** The pane still reads a command as ever after its fault. */
async function expectWatched(f: PaneFeeder, moves: Transition[]): Promise<void> {
  const before = moves.length;
  await command(f);
  expect(moves.slice(before).map((m) => `${m.to} ${m.rule}`)).toEqual(['RUNNING osc133.command_executed', 'DONE osc133.command_finished']);
}

function fail(): never {
  throw new TypeError(THROWN);
}

describe('a pane whose pipeline throws', () => {
  it('analysis: a screen read that throws is reported (analysis, output) and the next output is judged again', async () => {
    const { f, faults, moves } = pane();
    await f.output(PROMPT);
    await f.settle(500);
    const spy = vi.spyOn(f.monitor.analyzer, 'change').mockImplementationOnce(fail);
    await f.output('some output\r\n', 100);
    await f.settle(500);
    expect(spy).toHaveBeenCalled();
    expect(faults).toHaveLength(1);
    expect(faults[0]).toMatchObject({ stage: 'analysis', program: 'shell', error: { message: THROWN } });
    expect(['output', 'read']).toContain(faults[0]!.step);
    expect(f.monitor.faults.summary()).toMatchObject({ stage: 'analysis', count: 1, message: `TypeError: ${THROWN}` });
    await expectWatched(f, moves);
  });

  it('analysis: an in-band signal whose analysis throws (inside the terminal\'s parser) does not stop parsing', async () => {
    const { f, faults, moves } = pane();
    await f.output(PROMPT);
    vi.spyOn(f.monitor.analyzer, 'signal').mockImplementationOnce(fail);
    await f.output(osc133('A'), 50);
    await f.settle(100);
    expect(faults.map((x) => `${x.stage}.${x.step}`)).toEqual(['analysis.signal']);
    // The write after it was parsed: the terminal's write queue did not stall on the exception.
    await f.output('still parsed', 10);
    await f.settle(100);
    expect(f.monitor.screen.cursorLine()).toContain('still parsed');
    await f.output(`\r\n${PROMPT}`, 10);
    await expectWatched(f, moves);
  });

  it('screen: a listener of the terminal\'s signals that throws is reported (screen) and parsing goes on', async () => {
    const { f, faults, moves } = pane();
    let throws = true;
    f.monitor.screen.onSignal(() => {
      if (throws) {
        throws = false;
        fail();
      }
    });
    await f.output(PROMPT);
    await f.settle(100);
    expect(faults.map((x) => x.stage)).toEqual(['screen']);
    await expectWatched(f, moves);
  });

  it('analysis: a tick that throws is reported (tick) and the pane keeps ticking', async () => {
    const { f, faults, moves } = pane();
    await f.output(PROMPT);
    const spy = vi.spyOn(f.monitor.analyzer, 'tick').mockImplementationOnce(fail);
    await f.settle(3000);
    expect(faults.map((x) => `${x.stage}.${x.step}`)).toEqual(['analysis.tick']);
    expect(spy.mock.calls.length).toBeGreaterThan(1);
    await expectWatched(f, moves);
  });

  it('state: a transition listener that throws is reported (state) and the machine goes on', async () => {
    const { f, faults, moves } = pane();
    let throws = true;
    f.monitor.onTransition(() => {
      if (throws) {
        throws = false;
        fail();
      }
    });
    await f.output(PROMPT);
    await command(f);
    expect(faults.map((x) => x.stage)).toEqual(['state']);
    expect(moves.map((m) => m.to)).toEqual(['RUNNING', 'DONE']);
    await expectWatched(f, moves);
  });

  it('state: a machine whose own action throws is restarted in the state it had reached', async () => {
    const { f, faults, moves } = pane();
    await f.output(PROMPT);
    await command(f);
    expect(f.state).toBe('DONE');
    // setState runs inside the machine's transition action (recordTransition): XState stops an actor that throws.
    vi.spyOn(f.monitor.analyzer, 'setState').mockImplementationOnce(fail);
    f.monitor.ack('test');
    expect(faults.map((x) => x.stage)).toEqual(['state']);
    await expectWatched(f, moves);
  });

  it('ack: an ack whose state change throws is reported (ack), never thrown at the caller', async () => {
    const { f, faults } = pane();
    await f.output(PROMPT);
    await command(f);
    vi.spyOn(f.monitor.analyzer, 'setState').mockImplementation(fail);
    expect(() => f.monitor.ack('test')).not.toThrow();
    expect(faults.length).toBeGreaterThan(0);
    expect(faults.every((x) => x.step === 'ack')).toBe(true);
  });
});

describe('the daemon\'s record of pane faults', () => {
  it('one pane that throws: the registry logs it at error, counts it, shows it on that pane only, and lists every pane', async () => {
    const r = testRegistry();
    undo.push(() => r.close());
    const shell = (id: string) => ({ id, name: id, attach: 'run' as const, command: 'bash', cols: 80, rows: 24, agent: 'shell' as const });
    const bad = r.registry.open(shell('bad'));
    r.registry.open(shell('good'));
    vi.spyOn(bad.monitor.analyzer, 'signal').mockImplementation(fail);
    // its screen cannot be read either: the listing (GET /api/panes) must not fail with it
    vi.spyOn(bad.monitor.screen, 'edge').mockImplementation(fail);
    vi.spyOn(bad.monitor.screen, 'edgeRows').mockImplementation(fail);
    r.registry.feed('bad', { kind: 'output', data: `${OSC133.prompt}$ ${OSC133.input}` });
    r.registry.feed('good', { kind: 'output', data: `${OSC133.prompt}$ ${OSC133.input}` });
    const logged = await r.log.waitFor((e) => e.obj['event'] === 'analysis_error', 'the analysis error');
    expect(logged.level).toBe('error');
    expect(logged.obj).toMatchObject({ kind: 'pane', pane: 'bad', stage: 'analysis', step: 'signal', rule: 'analysis.signal', profile: 'shell', err: { type: 'TypeError', message: THROWN } });
    await bad.monitor.flush();
    const views = r.registry.panes();
    expect(views.map((v) => v.id).sort()).toEqual(['bad', 'good']);
    expect(views.find((v) => v.id === 'bad')).toMatchObject({ edge: [], analysisError: { program: 'shell', message: `TypeError: ${THROWN}` } });
    expect(views.find((v) => v.id === 'good')).toMatchObject({ analysisError: null });
    expect(r.registry.metrics()).toMatch(/^termsupervisor_analysis_errors_total\{stage="analysis",program="shell"\} [1-9]\d*$/m);
    expect(r.registry.metrics()).toMatch(/^termsupervisor_analysis_errors_total\{stage="screen",program="shell"\} [1-9]\d*$/m);
  });

  const fault = (over: Partial<PaneFault> = {}): PaneFault => ({ t: 1, stage: 'analysis', step: 'output', program: 'gemini', error: new TypeError(THROWN), ...over });

  it('logs the first of a run of the same error at error level and counts every one for /metrics', () => {
    let now = 0;
    const log = new FaultLog(() => now);
    const lines: Array<Record<string, unknown>> = [];
    const logger = { error: (o: Record<string, unknown>) => lines.push(o) } as never;
    for (let i = 0; i < 5; i++) log.record('p1', logger, fault());
    log.record('p1', logger, fault({ stage: 'state', step: 'tick' }));
    now = 61_000;
    log.record('p1', logger, fault({ stage: 'state', step: 'tick' }));
    expect(lines.map((l) => `${String(l['stage'])}.${String(l['step'])}`)).toEqual(['analysis.output', 'state.tick', 'state.tick']);
    expect(lines[0]).toMatchObject({ kind: 'pane', event: 'analysis_error', rule: 'analysis.output', profile: 'gemini' });
    const text = renderMetrics({ panes: [], counters: {}, transitionsByTo: new Map(), storeDropped: 0, analysisErrors: log.counts });
    expect(text).toContain('termsupervisor_analysis_errors_total{stage="analysis",program="gemini"} 5');
    expect(text).toContain('termsupervisor_analysis_errors_total{stage="state",program="gemini"} 2');
  });
});
