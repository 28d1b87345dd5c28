// `termsupervisor replay <file.cast>`: the whole pipeline in virtual time, one line per state transition.
import { AGENT_CHOICES } from '../config/config.js';
import { ReplaySource } from '../attach/replay-source.js';
import { replayCast } from '../daemon/replay.js';
import type { Transition } from '../state/pane-machine.js';
import { oneOf, parseArgs, UsageError } from './args.js';
import { configFor } from './load-config.js';
import { printable, printableJson } from './printable.js';

export const REPLAY_USAGE = `usage: termsupervisor replay <file.cast> [--agent ${AGENT_CHOICES.join('|')}] [--format jsonl|table] [--config PATH]

Runs a recording through the whole pipeline in virtual time and prints one line per state transition.
  --agent    program profile (default auto: detected from the screen and title)
  --format   jsonl (default; {"t","state","from","tier","rule","line",...}) or table
  --config   a config file (default: $XDG_CONFIG_HOME/termsupervisor/config.json if present)
examples:
  termsupervisor replay session.cast --format table
  termsupervisor replay session.cast --agent codex --format jsonl`;

export async function replayCommand(argv: string[], out: NodeJS.WritableStream): Promise<number> {
  const a = parseArgs(argv, { values: ['agent', 'format', 'config'], flags: ['help'] });
  if (a.options.has('help')) {
    out.write(REPLAY_USAGE + '\n');
    return 0;
  }
  const file = a.positional[0];
  if (!file || a.positional.length > 1) throw new UsageError('replay needs exactly one recording file\n' + REPLAY_USAGE);
  const agent = oneOf(a.options.get('agent'), AGENT_CHOICES, 'agent', 'auto');
  const format = oneOf(a.options.get('format'), ['jsonl', 'table'] as const, 'format', 'jsonl');
  const cfg = configFor(a.options.get('config'));
  const source = await ReplaySource.fromFile(file);
  const print = format === 'jsonl' ? (tr: Transition) => out.write(printableJson(jsonl(tr)) + '\n') : (tr: Transition) => out.write(tableRow(tr) + '\n');
  if (format === 'table') out.write(`${'t'.padStart(9)}  ${'from'.padEnd(16)} ${'state'.padEnd(16)} tier rule${' '.repeat(34)} line\n`);
  const res = await replayCast(source, cfg, agent, print);
  if (res.skippedLines > 0) process.stderr.write(`termsupervisor: ${res.skippedLines} unreadable line(s) in ${file} were skipped\n`);
  // Caught at the pane, so the replay went on; the transitions after it are what the pipeline made of the rest.
  const fault = res.monitor.faults.summary();
  if (fault) process.stderr.write(`termsupervisor: ${fault.count} analysis error(s) in ${file}; the last at t=${fault.t.toFixed(3)}: ${fault.stage}.${fault.step} (${fault.program}): ${fault.message}\n`);
  return 0;
}

export function jsonl(tr: Transition) {
  return {
    // Rounded up to the millisecond: a decision is never reported before the output that caused it.
    t: Math.ceil(tr.t * 1000 - 1e-6) / 1000,
    state: tr.to,
    from: tr.from,
    tier: tr.tier,
    rule: tr.rule,
    line: tr.line,
    started_at: Number(tr.startedAt.toFixed(3)),
    stalled: tr.stalled,
    // The turn's phase and rule that decided it (docs/architecture.md, "How a decision is reached").
    ...(tr.step ? { step: tr.step } : {}),
  };
}

function tableRow(tr: Transition): string {
  const state = tr.stalled ? `${tr.to}*stalled` : tr.to;
  return `${tr.t.toFixed(3).padStart(9)}  ${tr.from.padEnd(16)} ${state.padEnd(16)} ${String(tr.tier).padEnd(4)} ${printable(tr.rule).padEnd(38)} ${printable(tr.line)}`;
}
