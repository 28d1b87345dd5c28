// `termsupervisor classify [--agent A] [file|-]`: one screen's text (plain or with ANSI) → the Tier 2/3 verdict.
import { readFile } from 'node:fs/promises';
import stripAnsi from 'strip-ansi';
import { AGENT_CHOICES } from '../config/config.js';
import { PaneScreen } from '../screen/pane-screen.js';
import { classifyWith, detectProgram, forcedProgram } from '../analysis/profiles/index.js';
import { oneOf, parseArgs, UsageError } from './args.js';
import { configFor } from './load-config.js';
import type { Classification } from '../analysis/types.js';
import type { Config } from '../config/config.js';
import type { AgentChoice } from '../config/config.js';
import { printableJson, printableLines } from './printable.js';

export const CLASSIFY_USAGE = `usage: termsupervisor classify [--agent ${AGENT_CHOICES.join('|')}] [--title TEXT] [--config PATH] [file|-]

Reads one screen's text (with or without ANSI escapes; stdin when no file or "-") and prints the verdict the
screen tiers reach, as JSON: {"verdict": working|waiting|ready|failed|resting|unknown, "rule", "line", "program"}.
The cursor is taken to be where the text ends, as it would be on a terminal.
  --agent    program profile (default auto: detected from the text and the title)
  --title    the window title the pane had (some profiles read it)
  --config   a config file (default: $XDG_CONFIG_HOME/termsupervisor/config.json if present)
examples:
  tmux capture-pane -p -e -t %3 | termsupervisor classify --agent claude
  termsupervisor classify screen.txt --title '✳ Claude Code'`;

/** Screens are at most this many rows/columns (a pasted log is cut to its last rows). */
const MAX_ROWS = 200;
const MAX_COLS = 500;
/** A row holds at most this many characters, escapes included (its last ones are kept, from an escape on): a
 * capture with colours takes 10-20 a cell, while a row of 10 MB of scroll pairs took classify 42 s to parse. */
const MAX_ROW_CHARS = MAX_COLS * 32;
/** Exit status when a profile fails on the screen (the command line itself was fine). */
const EXIT_ANALYSIS_ERROR = 1;

export async function classifyCommand(argv: string[], out: NodeJS.WritableStream): Promise<number> {
  const a = parseArgs(argv, { values: ['agent', 'config', 'title'], flags: ['help'] });
  if (a.options.has('help')) {
    out.write(CLASSIFY_USAGE + '\n');
    return 0;
  }
  if (a.positional.length > 1) throw new UsageError('classify reads one file\n' + CLASSIFY_USAGE);
  const agent = oneOf(a.options.get('agent'), AGENT_CHOICES, 'agent', 'auto');
  const cfg = configFor(a.options.get('config'));
  const src = a.positional[0];
  const text = !src || src === '-' ? await readStdin() : await readFile(src, 'utf8');
  const title = a.options.get('title');
  let result: Classification;
  try {
    result = await classifyText(text, cfg, agent, typeof title === 'string' ? title : '');
  } catch (e) {
    // A profile's bug on this screen: one clear line (the screen is the report to file), not a stack trace.
    process.stderr.write(`termsupervisor: classify: analysis error on this screen: ${printableLines(String(e))} (a bug: please report it with the screen)\n`);
    return EXIT_ANALYSIS_ERROR;
  }
  out.write(printableJson({ verdict: result.verdict, rule: result.rule, line: result.line, program: result.program, explicit: result.explicit }) + '\n');
  return 0;
}

export async function classifyText(text: string, cfg: Config, agent: AgentChoice, title = ''): Promise<Classification> {
  const rows = text.replace(/\r?\n$/, '').split(/\r?\n/);
  const visible = rows.slice(-MAX_ROWS).map(rowTail);
  const plainWidth = visible.reduce((w, r) => Math.max(w, stripAnsi(r).length), 0);
  const screen = new PaneScreen({ cols: Math.min(MAX_COLS, Math.max(80, plainWidth + 1)), rows: Math.max(24, visible.length), scrollback: 0 });
  try {
    await new Promise<void>((resolve) => screen.write(visible.join('\r\n'), resolve));
    const snap = screen.snapshot();
    if (title) snap.title = title;
    const program = forcedProgram(agent) ?? detectProgram(cfg, { title: snap.title, lines: snap.lines })?.program ?? 'shell';
    return classifyWith(program, snap, { cfg, titleAnimating: false, bracketedPasteSeen: snap.bracketedPaste, foregroundPrompted: false });
  } finally {
    screen.dispose();
  }
}

/** The row's last MAX_ROW_CHARS characters, from the first escape among them (no sequence cut in half is printed). */
function rowTail(row: string): string {
  if (row.length <= MAX_ROW_CHARS) return row;
  const tail = row.slice(-MAX_ROW_CHARS);
  const esc = tail.indexOf('\x1b');
  return esc > 0 ? tail.slice(esc) : tail;
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
