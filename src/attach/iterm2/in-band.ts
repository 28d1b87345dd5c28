// iTerm2's own view of a session (its PromptMonitor, the window title, submitting keys) written as the bytes a
// terminal would have carried, so the daemon's pipeline reads them exactly as it reads a `run` pane: prompt
// events become OSC 133 marks (Tier 1 shell integration, parsed by the pane's screen), the title an OSC 2, keys
// typed input.
import type { Iterm2Key, PromptEvent } from './protocol.js';

/** Controls in a title would end the OSC early and smuggle bytes into the stream. */
const CONTROLS = /[\u0000-\u001f\u007f-\u009f]/g;

/** OSC 133 for a PromptMonitor event: A prompt shown, C command started, D;status command ended. */
export function promptMark(event: PromptEvent, status?: number | null): string {
  switch (event) {
    case 'prompt':
      return '\x1b]133;A\x07';
    case 'command_start':
      return '\x1b]133;C\x07';
    case 'command_end':
      // No status known: the command ended all the same (read as done, like a shell that reports no code).
      return status == null ? '\x1b]133;D\x07' : `\x1b]133;D;${status}\x07`;
  }
}

/** OSC 2: the session's window title (iTerm2's terminalWindowName), as the program set it. */
export function titleBytes(title: string): string {
  return `\x1b]2;${title.replace(CONTROLS, '')}\x07`;
}

/** The bytes a key sends: Enter arms a turn anchor; Esc and Ctrl-C interrupt. */
export const KEY_BYTES: Record<Iterm2Key, string> = { enter: '\r', escape: '\x1b', interrupt: '\x03' };
