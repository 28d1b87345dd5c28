// Which in-band marks to believe. A mark is a few bytes in the pane's output, and any program's output can hold
// such bytes (a `cat` of a file holding ESC]133;D;0, a test printing escapes, a log of another session), so a mark
// is believed only where it can have come from what makes it:
//  - a shell `run` started with integration (src/shell/inject.ts) puts the session's nonce on every mark it makes,
//    as VS Code's terminals do: its OSC 133/633 marks without that nonce are forged;
//  - any other mark (a person's own shell integration, a tmux pane, the iTerm2 bridge's, Codex's OSC 7501) is
//    believed only in an order one command or one agent turn can make: a command starts (C) only at a prompt (after
//    A or B), ends (D) only after it started, a prompt does not start while
//    a command runs; an agent turn is blocked, done or failed only after it was working. So a lone D (the `cat` above) in a pane whose shell marked nothing is ignored, and the
//    marks of a pane attached mid-command count from its next prompt. A first prompt mark that comes while the pane
//    reads a turn as open is inert (see MarkVerdict): it may be that turn's output. What no order can tell apart
//    is a whole forged command (A C D in one file), or a forged D after the real C: the nonce answers those.
// A mark refused is ignored whole (counted and logged by the analyzer, see tier1-inputs.ts). Pure.
import type { InBandSignal } from '../screen/types.js';
import type { Phase } from './time-windows.js';

export type MarkRefusal = 'forged_mark' | 'mark_out_of_order' | 'mark_in_agent';
/** null: believe the mark. 'inert': it counts for the order but does nothing (a prompt mark from a shell that has
 * marked nothing yet, arriving while the pane reads a turn as open: the turn's own output may hold it; a real
 * shell's C from that prompt makes its marks count again). Otherwise: ignore it, for this reason. */
export type MarkVerdict = MarkRefusal | 'inert' | null;

/** What the pane's own reading says when a mark arrives. */
export interface PaneNow {
  phase: Phase;
  /** A turn is open: running or waiting, or a prompt was submitted (Enter) and its turn has not ended. */
  turnOpen: boolean;
  /** The mark cannot be a shell's at its prompt (PaneFacts.markNotFromShell): a prompt mark while a submitted
   * prompt's turn is open, a command started with no Enter since the prompt, or, where keys are not seen, an agent's
   * screen. Some agents wrap each message block in A B C D;0: inside an agent's TUI a mark is at most a hint, never
   * a command's start or end. */
  notShell: boolean;
}

/** Where the shell's marks have it: before any prompt mark, at its prompt (A), reading the command line (B),
 * running a command (C), or the command reported ended (D). */
type ShellAt = 'unknown' | 'prompt' | 'input' | 'running' | 'ended';
/** Codex's reports: no turn open, working on one (working, blocked), or the turn just done. */
type AgentAt = 'none' | 'turn' | 'done';
type ShellMark = 'prompt-start' | 'command-input' | 'command-executed' | 'command-finished' | 'command-line';

export class MarkGate {
  private shell: ShellAt = 'unknown';
  private agent: AgentAt = 'none';
  /** The shell's prompt marks since its last believed C are inert (see MarkVerdict). */
  private tentative = false;
  /** A shell-integration mark was believed: the shell reports its own commands (Tier 1). */
  shellIntegration = false;
  /** The last command start was refused as no shell's (mark_in_agent): its end is not believed either. */
  private startRefused = false;

  /** `nonce`: the one a shell we started with integration puts on its marks (null: we started none). */
  constructor(private readonly nonce: string | null) {}

  /** What to make of a mark (the gate takes in any it does not refuse). Signals that are no marks always pass. */
  check(s: InBandSignal, pane: PaneNow): MarkVerdict {
    switch (s.kind) {
      case 'prompt-start':
      case 'command-input':
      case 'command-executed':
      case 'command-finished':
      case 'command-line': {
        if (s.protocol === 'run') return null; // the wrapper saw its own program start and end: no bytes involved
        if (this.nonce !== null && s.nonce !== this.nonce) return 'forged_mark';
        if (this.nonce !== null) return this.shellTake(s.kind, false);
        const order = this.shellOrder(s.kind);
        if (order) return order;
        // Followed for the order (the shell's own marks after the agent exits still make sense), believed not; the
        // end of a command whose start was not believed is not believed either.
        if (pane.notShell || (s.kind === 'command-finished' && this.startRefused)) {
          this.startRefused = s.kind === 'command-executed';
          this.follow(s.kind);
          return 'mark_in_agent';
        }
        this.startRefused = false;
        return this.shellTake(s.kind, this.inert(s.kind, pane));
      }
      case 'agent-state': {
        const refusal = this.agentOrder(s.state, pane.phase);
        if (refusal === null) this.agentTake(s.state);
        return refusal;
      }
      default:
        return null;
    }
  }

  private shellOrder(kind: ShellMark): MarkRefusal | null {
    const at = this.shell;
    const atPrompt = at === 'prompt' || at === 'input';
    let ok: boolean;
    switch (kind) {
      case 'prompt-start':
        ok = at !== 'running';
        break;
      case 'command-input':
      case 'command-executed':
        ok = atPrompt;
        break;
      case 'command-finished':
        ok = at === 'running';
        break;
      case 'command-line':
        ok = atPrompt || at === 'running';
        break;
    }
    return ok ? null : 'mark_out_of_order';
  }

  /** A prompt, input or command-line mark while the shell's prompt is tentative: first from a shell that marked
   * nothing yet, while the pane reads a turn as open (its command's output may hold anything). */
  private inert(kind: ShellMark, pane: PaneNow): boolean {
    if (kind === 'prompt-start') return (this.shell === 'unknown' || this.tentative) && pane.turnOpen;
    return this.tentative && (kind === 'command-input' || kind === 'command-line');
  }

  private shellTake(kind: ShellMark, inert: boolean): MarkVerdict {
    this.tentative = inert;
    if (inert) {
      if (kind === 'prompt-start') this.shell = 'prompt';
      else if (kind === 'command-input') this.shell = 'input';
      return 'inert';
    }
    this.shellIntegration = true;
    this.follow(kind);
    return null;
  }

  /** Where a mark leaves the shell's order. */
  private follow(kind: ShellMark): void {
    if (kind === 'prompt-start') this.shell = 'prompt';
    else if (kind === 'command-input') this.shell = 'input';
    else if (kind === 'command-executed') this.shell = 'running';
    else if (kind === 'command-finished') this.shell = 'ended';
  }

  private agentOrder(state: string, phase: Phase): MarkRefusal | null {
    const at = this.agent;
    switch (state) {
      case 'blocked':
      case 'done':
        return at === 'turn' ? null : 'mark_out_of_order';
      case 'error':
        // An error right after done still fails that turn (agent-state.ts).
        return at !== 'none' ? null : 'mark_out_of_order';
      case 'idle':
        // Codex says idle at launch and after an interrupt; outside a turn of its own an idle may not end the
        // pane's turn (a shell command's, say).
        return at !== 'none' || phase === 'rest' ? null : 'mark_out_of_order';
      default:
        return null; // working starts a turn anywhere; a state we do not know does nothing
    }
  }

  private agentTake(state: string): void {
    if (state === 'working' || state === 'blocked') this.agent = 'turn';
    else if (state === 'done') this.agent = 'done';
    else if (state === 'idle' || state === 'error') this.agent = 'none';
  }
}
