// Which program a pane runs, and so which profile reads it: forced by --agent, else detected from the command it
// was started with, its foreground process, its title, a signature on screen, or an agent's own report (hook, OSC).
// Pure.
import { profileOf, type Config, type ProgramId } from '../config/config.js';
import { detectProgram, forkOf, refinable, type DetectionInput } from './profiles/index.js';
import { programName } from './program-identity.js';

/** The rule naming a pane's program "generic" from its screen alone (see tuiScreen). */
export const TUI_SCREEN_RULE = 'detect.generic.screen';

export class ProgramTracker {
  /** The profile that reads the pane: an agent with none of its own (Crush, Aider …) is read as `generic`. */
  program: ProgramId;
  /** The program's own name, as `status` and `classify` show it (the profile's id for agents that have one). */
  name: ProgramId;
  rule: string;
  /** --agent named the program: nothing on screen or in the process table changes it. */
  readonly locked: boolean;
  /** The foreground process's name, once a source reported one. */
  processName: string | undefined;

  constructor(private readonly cfg: Config, forced: ProgramId | null, command?: string) {
    this.name = forced ?? 'shell';
    this.program = profileOf(this.name);
    this.rule = forced ? 'forced' : 'default';
    this.locked = forced !== null;
    if (!this.locked && command) this.fromEvidence({ command });
  }

  /** Still reading the pane as a shell (or as a TUI nothing named yet, or as a parent agent through a signature its
   * fork shares): a title or a screen row could name the program behind it. */
  get open(): boolean {
    return !this.locked && (this.program === 'shell' || this.rule === TUI_SCREEN_RULE || refinable(this.program, this.rule));
  }

  /** The screen is a TUI and no sign of a shell (a line editor, shell integration, a process) was ever seen: a
   * program we have no profile for runs here, read by the generic tier until something names it. */
  tuiScreen(): boolean {
    if (this.locked || this.program !== 'shell' || this.rule !== 'default' || this.processName !== undefined) return false;
    return this.set('generic', TUI_SCREEN_RULE);
  }

  /** The foreground process changed. `names`: what else it goes by (its executable's, script's, package's name:
   * `node` running @google/gemini-cli is Gemini). Returns whether the program changed. */
  fromProcess(name: string, names: readonly string[] = []): boolean {
    this.processName = name;
    if (this.locked) return false;
    for (const n of names) {
      const agent = detectProgram(this.cfg, { process: n });
      if (agent && agent.program !== 'shell' && agent.program !== 'generic') return this.set(agent.program, agent.rule);
    }
    const det = detectProgram(this.cfg, { process: name });
    // An agent named by the pane's own command runs under its launcher's runtime (Codex's npm entry point is a `node`
    // process, the native program its child): that name says nothing against the agent. A real shell still does.
    if (det?.program === 'shell' && this.rule.endsWith('.command') && !this.cfg.job_gate.shells.includes(name)) return false;
    // An unknown process under a program already read by the generic tier is its child: the name stays.
    if (det?.program === 'generic' && this.program === 'generic') return false;
    // A shell running an ordinary job (sleep, make) stays read as a shell: its prompt tells when the job ends.
    if (det && (det.program !== 'generic' || this.program !== 'shell')) return this.set(det.program, det.rule);
    return false;
  }

  /** A command line, title or screen rows that may name an agent. Returns whether the program changed. */
  fromEvidence(input: DetectionInput): boolean {
    const det = detectProgram(this.cfg, input);
    if (!det || det.program === 'shell' || det.program === 'generic') return false;
    if (this.program !== 'shell' && refinable(this.program, this.rule)) {
      // Read as a parent through a shared signature: only the fork's own evidence changes that; the parent's own
      // (its title, its banner) settles it.
      if (det.program === this.program && det.rule !== this.rule) this.rule = det.rule;
      return forkOf(det, this.program) ? this.set(det.program, det.rule) : false;
    }
    return this.set(det.program, det.rule);
  }

  /** The program said who it is (a hook, an OSC report). Returns whether the program changed. */
  claim(program: ProgramId, rule: string): boolean {
    return !this.locked && this.set(program, rule);
  }

  private set(program: ProgramId, rule: string): boolean {
    if (program === this.name) return false;
    this.name = program;
    this.program = profileOf(program);
    this.rule = rule;
    return true;
  }
}

/**
 * The foreground went from a shell to a job that is not a shell: a command the person gave it started. Jobs are
 * told by name (a login shell reports itself as "-bash"); a shell starting a shell is a new prompt, not a command,
 * and a session program it starts (vim, less, an agent: config `programs.sessions`, by any name it goes by, `names`)
 * tells its own turns on screen.
 */
export function jobStarted(cfg: Config, before: string | undefined, after: string, names: readonly string[] = []): boolean {
  if (before === undefined) return false;
  const shells = cfg.job_gate.shells;
  if (!shells.includes(before.replace(/^-/, '')) || shells.includes(after.replace(/^-/, ''))) return false;
  const sessions = cfg.programs.sessions;
  return !sessions.includes(programName(after)) && !names.some((n) => sessions.includes(n));
}
