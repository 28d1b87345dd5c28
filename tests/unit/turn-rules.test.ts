// The turn as an explicit machine (analysis/turn-phase.ts, turn-rules.ts, turn-gates.ts): every rule named once and
// documented, every decision recorded with the phase and rule that made it, each rule acting only in the phases it
// claims (checked on every recording we have, in auto mode and under the generic tier), and the rules no recording
// reaches driven here through a real PaneMonitor.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ASK_RULES, REST_RULES, WORK_RULES, type TurnRule } from '../../src/analysis/turn-rules.js';
import { TURN_GATES } from '../../src/analysis/turn-gates.js';
import { TURN_PHASES, turnPhase, type TurnPhase } from '../../src/analysis/turn-phase.js';
import { ReplaySource } from '../../src/attach/replay-source.js';
import { replayCast } from '../../src/daemon/replay.js';
import { loadConfig } from '../../src/config/config.js';
import { useDrivers } from '../helpers/driver.js';

const RULES: readonly TurnRule[] = [...REST_RULES, ...ASK_RULES, ...WORK_RULES];
const byName = new Map(RULES.map((r) => [r.name, r]));
const ROOT = path.resolve(__dirname, '../..');
const driver = useDrivers();

/** `working/turn.ready_held (screen_moved)` → phase and rule. */
function parseStep(step: string): { phase: TurnPhase; rule: string } {
  const m = /^(\w+)\/([\w.]+)(?: \((\w+)\))?$/.exec(step);
  if (!m) throw new Error(`unreadable step ${step}`);
  return { phase: m[1] as TurnPhase, rule: m[2]! };
}

describe('the turn machine: its tables', () => {
  it('every rule is named once, in the phases that exist, and each table ends with a rule that always holds', () => {
    expect(new Set(RULES.map((r) => r.name)).size).toBe(RULES.length);
    for (const r of RULES) {
      expect(r.phases.length, r.name).toBeGreaterThan(0);
      for (const p of r.phases) expect(TURN_PHASES, r.name).toContain(p);
    }
    // A table whose last rule can fail to hold would leave a screen undecided without saying so.
    expect(REST_RULES.at(-1)!.name).toBe('rest.holds');
    expect(ASK_RULES.at(-1)!.name).toBe('ask.turn_ended');
  });

  it('docs/architecture.md says how a decision is reached, naming every phase, rule and gate', () => {
    const doc = fs.readFileSync(path.join(ROOT, 'docs/architecture.md'), 'utf8');
    const section = doc.slice(doc.indexOf('## How a decision is reached'));
    expect(section.length).toBeGreaterThan(0);
    expect(doc).toContain('## How a decision is reached');
    for (const p of TURN_PHASES) expect(section, p).toContain(`\`${p}\``);
    for (const r of RULES) expect(section, r.name).toContain(`\`${r.name}\``);
    for (const g of TURN_GATES) expect(section, g.reason).toContain(`\`${g.reason}\``);
  });

  it('the phase is read from the facts that move it', () => {
    expect(turnPhase('rest', false, false)).toBe('over');
    expect(turnPhase('rest', true, false)).toBe('armed');
    expect(turnPhase('running', true, false)).toBe('working');
    expect(turnPhase('running', true, true)).toBe('settling');
    expect(turnPhase('waiting', true, true)).toBe('asking');
  });
});

describe('the turn machine on every recording', () => {
  it('each decision names the phase it was made in and a rule that claims that phase', async () => {
    const cfg = loadConfig();
    const dirs = ['tests/fixtures/recordings', 'tests/fixtures/unseen', 'tests/fixtures/corpus'].flatMap((d) =>
      fs.readdirSync(path.join(ROOT, d)).map((n) => path.join(ROOT, d, n, 'session.cast')),
    );
    const seen = new Map<string, number>();
    let decisions = 0;
    for (const cast of dirs.filter((c) => fs.existsSync(c))) {
      for (const agent of ['auto', 'generic'] as const) {
        const res = await replayCast(await ReplaySource.fromFile(cast), cfg, agent);
        for (const tr of res.transitions) {
          if (!tr.step) continue;
          decisions++;
          const { phase, rule } = parseStep(tr.step);
          const r = byName.get(rule);
          expect(r, `${cast} ${agent}: ${tr.step}`).toBeDefined();
          expect(r!.phases, `${cast} ${agent} t=${tr.t}: ${tr.step}`).toContain(phase);
          seen.set(rule, (seen.get(rule) ?? 0) + 1);
        }
      }
    }
    // The screen's rules decide most transitions of a recording (the rest are Tier 1's and timers').
    expect(decisions).toBeGreaterThan(900);
    for (const r of ['rest.work_after_prompt', 'rest.anchor_evidence', 'ask.answer_works', 'turn.ready_held', 'turn.frames_stopped', 'turn.question']) {
      expect(seen.get(r) ?? 0, r).toBeGreaterThan(0);
    }
  }, 240_000);
});

describe('the rules no recording reaches', () => {
  const PS1 = 'user@box:~$ ';
  const lines = (n: number, w = 'compiling module') => Array.from({ length: n }, (_, i) => `${w} ${i}\r\n`).join('');

  it('rest.newline_gate: output no prompt was seen for, after a first turn, is RUNNING (no keys since)', async () => {
    const d = driver({ agent: 'generic' });
    await d.out(0.1, PS1);
    const end = await d.type(1, 'make');
    await d.input(end + 0.1, '\r');
    await d.out(end + 0.2, '\r\nbuilt\r\n' + PS1);
    await d.until(end + 6);
    expect(d.state).toBe('DONE');
    await d.out(end + 8, lines(6));
    await d.until(end + 9);
    const run = d.transitions.at(-1)!;
    expect(run).toMatchObject({ to: 'RUNNING', rule: 'generic.newline_gate', step: 'over/rest.newline_gate' });
  });

  it('rest.work_unprompted: a program starting up animates; a turn with no Enter seen runs only by its interrupt hint', async () => {
    const d = driver({ agent: 'generic' });
    // A spinner with an interrupt hint, drawn for longer than unanchored_screen_confirm_s with no key seen.
    for (let i = 0; i < 20; i++) await d.out(0.2 + i * 0.1, `\r${'⠋⠙⠹⠸'[i % 4]} Thinking… (esc to interrupt)`);
    await d.until(3);
    const run = d.first('RUNNING');
    expect(run, d.describe()).toBeDefined();
    expect(run!.step).toBe('over/rest.work_unprompted');
  });

  it('turn.generic: Esc, then the interrupt hint gone: DONE', async () => {
    const d = driver({ agent: 'generic' });
    await d.out(0.1, 'app> ');
    const end = await d.type(1, 'hi');
    await d.input(end + 0.1, '\r');
    for (let i = 0; i < 12; i++) await d.out(end + 0.2 + i * 0.1, `\r${'⠋⠙⠹⠸'[i % 4]} Working (esc to interrupt)\x1b[K`);
    await d.input(end + 1.5, '\x1b');
    await d.out(end + 1.6, `\rError: Request interrupted by user\x1b[K`);
    await d.until(end + 8);
    const last = d.transitions.at(-1)!;
    expect(last, d.describe()).toMatchObject({ to: 'DONE', rule: 'generic.interrupt_gone', step: 'working/turn.generic' });
  });

  it('turn.own_interrupt: Esc on an agent TUI the generic tier reads, then its error: DONE, not FAILED', async () => {
    const d = driver({ agent: 'generic' });
    // An input box the cursor rests in, a status row below it: the generic tier reads a TUI.
    const frame = (status: string, said = '') => `\x1b[H\x1b[2J${said}\r\n╭──────────────────────────────╮\r\n│ >                            │\r\n╰──────────────────────────────╯\r\n${status}\x1b[3;5H`;
    await d.out(0.1, frame('? for shortcuts'));
    await d.input(1, 'h');
    await d.out(1.01, '\x1b[3;5Hh');
    await d.input(1.2, '\r');
    for (let i = 0; i < 12; i++) await d.out(1.3 + i * 0.1, frame(`${'⠋⠙⠹⠸'[i % 4]} Working (esc to interrupt)`));
    await d.input(2.6, '\x1b');
    for (let i = 0; i < 4; i++) await d.out(2.7 + i * 0.1, frame(`${'⠋⠙⠹⠸'[i % 4]} Working (esc to interrupt)`, '✖ Error: request aborted (status 499)'));
    await d.out(3.2, frame('? for shortcuts', '✖ Error: request aborted (status 499)'));
    await d.until(10);
    const last = d.transitions.at(-1)!;
    expect(last, d.describe()).toMatchObject({ to: 'DONE', step: 'working/turn.own_interrupt' });
  });
});
