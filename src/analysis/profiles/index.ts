// Profile selection: forced by --agent, or detected from the foreground process, command, title, then a
// signature on screen. Pure.
import { GENERIC_AGENTS, type AgentChoice, type Config, type ProgramId } from '../../config/config.js';
import type { ScreenSnapshot } from '../../screen/types.js';
import type { Classification } from '../types.js';
import { classifyClaude } from './claude.js';
import { classifyCodex } from './codex.js';
import { classifyGemini } from './gemini.js';
import { classifyQwen } from './qwen.js';
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
    case 'qwen':
      return classifyQwen(snap, ctx);
    case 'opencode':
    case 'kilo':
      return classifyOpencode(snap, ctx, program);
    case 'generic':
      return classifyGenericTui(snap, ctx) ?? classifyShell(snap, ctx, 'generic');
    case 'shell':
      return classifyShell(snap, ctx, 'shell');
    default:
      // An agent with no profile of its own (GENERIC_AGENTS): the generic tier reads it, under its own name.
      return { ...classifyWith('generic', snap, ctx), program };
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

/** In this order at each level: a fork before its parent, whose screen words it shares (Qwen Code's input row is
 * Gemini CLI's; Kilo's screen is opencode's: their own titles and words tell them apart). */
const AGENTS = ['claude', 'codex', 'qwen', 'gemini', 'kilo', 'opencode'] as const;
/** Agents with a profile first, then the ones the generic tier reads under their own name. */
const NAMED = [...AGENTS, ...GENERIC_AGENTS] as const;

/** Forks whose screen shares a signature with their parent's (Qwen Code's input row is Gemini CLI's word for word):
 * a pane read as the parent through that signature alone may still turn out to be the fork (its title, its banner). */
const FORK_OF: Partial<Record<ProgramId, ProgramId>> = { qwen: 'gemini' };

/** `program`, detected by `rule`, may yet be refined into a fork of it by better evidence. */
export function refinable(program: ProgramId, rule: string): boolean {
  return rule === `detect.${program}.screen` && Object.values(FORK_OF).includes(program);
}

/** `det` names a fork of `program`. */
export function forkOf(det: Detection, program: ProgramId): boolean {
  return FORK_OF[det.program] === program;
}

/** The program behind a pane, or null when nothing identifies it yet. */
export function detectProgram(cfg: Config, input: DetectionInput): Detection | null {
  const d = cfg.detection;
  const proc = input.process?.trim();
  if (proc) {
    for (const a of NAMED) if (d[a].process.test(proc)) return { program: a, rule: `detect.${a}.process` };
  }
  if (input.command) {
    for (const a of NAMED) if (d[a].command.test(input.command)) return { program: a, rule: `detect.${a}.command` };
  }
  if (input.title) {
    for (const a of NAMED) if (d[a].title.test(input.title.trim())) return { program: a, rule: `detect.${a}.title` };
  }
  const lines = input.lines;
  if (lines) {
    // Plain loops: asked with the changed rows of every read while a pane is still open, a closure per agent was garbage.
    for (let k = 0; k < NAMED.length; k++) {
      const a = NAMED[k]!;
      const re = d[a].screen;
      for (let i = 0; i < lines.length; i++) if (re.test(lines[i]!)) return { program: a, rule: `detect.${a}.screen` };
    }
  }
  if (proc && d.shell.process.test(proc)) return { program: 'shell', rule: 'detect.shell.process' };
  if (proc) return { program: 'generic', rule: 'detect.generic.process' };
  return null;
}

export function forcedProgram(choice: AgentChoice): ProgramId | null {
  return choice === 'auto' ? null : choice;
}
