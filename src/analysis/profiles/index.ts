// Profile selection: forced by --agent, or detected from the foreground process, command, title, then a
// signature on screen. Pure.
import type { AgentChoice, Config, ProgramId } from '../../config/config.js';
import type { ScreenSnapshot } from '../../screen/types.js';
import type { Classification } from '../types.js';
import { classifyClaude } from './claude.js';
import { classifyCodex } from './codex.js';
import { classifyGemini } from './gemini.js';
import { classifyOpencode } from './opencode.js';
import { classifyShell } from './shell.js';
import { classifyGenericTui } from './generic-tui.js';
import type { ProfileContext } from './context.js';

export type { ProfileContext } from './context.js';

export function classifyWith(program: ProgramId, snap: ScreenSnapshot, ctx: ProfileContext): Classification {
  switch (program) {
    case 'claude':
      return classifyClaude(snap, ctx);
    case 'codex':
      return classifyCodex(snap, ctx);
    case 'gemini':
      return classifyGemini(snap, ctx);
    case 'opencode':
    case 'kilo':
      return classifyOpencode(snap, ctx, program);
    case 'generic':
      return classifyGenericTui(snap, ctx) ?? classifyShell(snap, ctx, 'generic');
    default:
      return classifyShell(snap, ctx, 'shell');
  }
}

export interface DetectionInput {
  process?: string;
  command?: string;
  title?: string;
  lines?: readonly string[];
}

export interface Detection {
  program: ProgramId;
  rule: string;
}

/** In this order at each level: Kilo before opencode, whose screen it shares (its own title and words tell it apart). */
const AGENTS = ['claude', 'codex', 'gemini', 'kilo', 'opencode'] as const;

/** The program behind a pane, or null when nothing identifies it yet. */
export function detectProgram(cfg: Config, input: DetectionInput): Detection | null {
  const d = cfg.detection;
  const proc = input.process?.trim();
  if (proc) {
    for (const a of AGENTS) if (d[a].process.test(proc)) return { program: a, rule: `detect.${a}.process` };
  }
  if (input.command) {
    for (const a of AGENTS) if (d[a].command.test(input.command)) return { program: a, rule: `detect.${a}.command` };
  }
  if (input.title) {
    for (const a of AGENTS) if (d[a].title.test(input.title.trim())) return { program: a, rule: `detect.${a}.title` };
  }
  if (input.lines) {
    for (const a of AGENTS) if (input.lines.some((l) => d[a].screen.test(l))) return { program: a, rule: `detect.${a}.screen` };
  }
  if (proc && d.shell.process.test(proc)) return { program: 'shell', rule: 'detect.shell.process' };
  if (proc) return { program: 'generic', rule: 'detect.generic.process' };
  return null;
}

export function forcedProgram(choice: AgentChoice): ProgramId | null {
  return choice === 'auto' ? null : choice;
}
