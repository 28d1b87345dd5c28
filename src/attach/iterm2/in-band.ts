// iTerm2's own view of a session (its PromptMonitor, the window title, submitting keys) written as the bytes a
// terminal would have carried, so the daemon's pipeline reads them exactly as it reads a `run` pane: prompt
// events become OSC 133 marks (Tier 1 shell integration, parsed by the pane's screen), the title an OSC 2, keys
// typed input.
import type { Iterm2Key, PromptEvent } from './protocol.js';

/** Controls in a title would end the OSC early and smuggle bytes into the stream. */
const CONTROLS = /[\u0000-\u001f\u007f-\u009f]/g;

/**
 * OSC 133 for a PromptMonitor event: A prompt shown, C command started, D;status command ended. With `nonce` (the
 * pane's, see src/analysis/mark-gate.ts) the mark carries it: iTerm2 said so, whatever order its events come in
 * (the bridge may attach mid-command), while any mark inside the session's text is only text.
 */
export function promptMark(event: PromptEvent, status?: number | null, nonce?: string): string {
  const sign = nonce ? `;nonce=${nonce}` : '';
  switch (event) {
    case 'prompt':
      return `\x1b]133;A${sign}\x07`;
    case 'command_start':
      return `\x1b]133;C${sign}\x07`;
    case 'command_end':
      // No status known: the command ended all the same (read as done, like a shell that reports no code).
      return status == null ? `\x1b]133;D${sign}\x07` : `\x1b]133;D;${status}${sign}\x07`;
  }
}

/** OSC 2: the session's window title (iTerm2's terminalWindowName), as the program set it. */
export function titleBytes(title: string): string {
  return `\x1b]2;${title.replace(CONTROLS, '')}\x07`;
}

/** The bytes a key sends: Enter arms a turn anchor; Esc and Ctrl-C interrupt. */
export const KEY_BYTES: Record<Iterm2Key, string> = { enter: '\r', escape: '\x1b', interrupt: '\x03' };
