// Which program a pane runs, and so which profile reads it: forced by --agent, else detected from the command it
// was started with, its foreground process, its title, a signature on screen, or an agent's own report (hook, OSC).
// Pure.
import type { Config, ProgramId } from '../config/config.js';
import { detectProgram, type DetectionInput } from './profiles/index.js';
import { programName } from './program-kind.js';

/** The rule naming a pane's program "generic" from its screen alone (see tuiScreen). */
export const TUI_SCREEN_RULE = 'detect.generic.screen';

export class ProgramTracker {
  program: ProgramId;
  rule: string;
  /** --agent named the program: nothing on screen or in the process table changes it. */
  readonly locked: boolean;
  /** The foreground process's name, once a source reported one. */
  processName: string | undefined;

  constructor(private readonly cfg: Config, forced: ProgramId | null, command?: string) {
    this.program = forced ?? 'shell';
    this.rule = forced ? 'forced' : 'default';
    this.locked = forced !== null;
    if (!this.locked && command) this.fromEvidence({ command });
  }

  /** Still reading the pane as a shell (or as a TUI nothing named yet): a title or a screen row could name the
   * program behind it. */
  get open(): boolean {
    return !this.locked && (this.program === 'shell' || this.rule === TUI_SCREEN_RULE);
  }

  /** The screen is a TUI and no sign of a shell (a line editor, shell integration, a process) was ever seen: a
   * program we have no profile for runs here, read by the generic tier until something names it. */
  tuiScreen(): boolean {
    if (this.locked || this.program !== 'shell' || this.rule !== 'default' || this.processName !== undefined) return false;
    return this.set('generic', TUI_SCREEN_RULE);
  }

  /** The foreground process changed. Returns whether the program changed. */
  fromProcess(name: string): boolean {
    this.processName = name;
    if (this.locked) return false;
    const det = detectProgram(this.cfg, { process: name });
    // An agent named by the pane's own command runs under its launcher's runtime (Codex's npm entry point is a `node`
    // process, the native program its child): that name says nothing against the agent. A real shell still does.
    if (det?.program === 'shell' && this.rule.endsWith('.command') && !this.cfg.job_gate.shells.includes(name)) return false;
    // A shell running an ordinary job (sleep, make) stays read as a shell: its prompt tells when the job ends.
    if (det && (det.program !== 'generic' || this.program !== 'shell')) return this.set(det.program, det.rule);
    return false;
  }

  /** A command line, title or screen rows that may name an agent. Returns whether the program changed. */
  fromEvidence(input: DetectionInput): boolean {
    const det = detectProgram(this.cfg, input);
    if (det && det.program !== 'shell' && det.program !== 'generic') return this.set(det.program, det.rule);
    return false;
  }

  /** The program said who it is (a hook, an OSC report). Returns whether the program changed. */
  claim(program: ProgramId, rule: string): boolean {
    return !this.locked && this.set(program, rule);
  }

  private set(program: ProgramId, rule: string): boolean {
    if (program === this.program) return false;
    this.program = program;
    this.rule = rule;
    return true;
  }
}

/**
 * The foreground went from a shell to a job that is not a shell: a command the person gave it started. Jobs are
 * told by name (a login shell reports itself as "-bash"); a shell starting a shell is a new prompt, not a command,
 * and a session program it starts (vim, less, an agent: config `programs.sessions`) tells its own turns on screen.
 */
export function jobStarted(cfg: Config, before: string | undefined, after: string): boolean {
  if (before === undefined) return false;
  const shells = cfg.job_gate.shells;
  if (!shells.includes(before.replace(/^-/, '')) || shells.includes(after.replace(/^-/, ''))) return false;
  return !cfg.programs.sessions.includes(programName(after));
}
