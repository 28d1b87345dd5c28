// Keys that tmux's send-keys cannot take literally (-l) but knows by name: a pane action types one key per write
// (src/daemon/pane-actions.ts), so a write that is exactly one of these is sent as tmux's key, anything else with a
// control character in it is refused (the caller says the pane cannot be typed into).
const NAMED: Record<string, string> = {
  '\x1b': 'Escape',
  '\x03': 'C-c',
  '\x04': 'C-d',
  '\x1b[A': 'Up',
  '\x1b[B': 'Down',
  '\x1b[C': 'Right',
  '\x1b[D': 'Left',
  '\x1bOA': 'Up',
  '\x1bOB': 'Down',
  '\x1bOC': 'Right',
  '\x1bOD': 'Left',
};

/** tmux's name for a write that is one named key, or null. */
export function tmuxKeyName(text: string): string | null {
  return NAMED[text] ?? null;
}
