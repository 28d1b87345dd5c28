// Bytes that draw a screen as it stands: its rows, cursor, title and the modes a detector reads (alternate
// screen, bracketed paste). A `run` wrapper sends them when it joins a daemon that missed the pane's past (the
// daemon restarted): otherwise the new daemon reads a blank screen as idle, and a task could type into an
// approval question it cannot see. Text only: colours do not decide any state.
import type { ScreenSnapshot } from './types.js';

export type RepaintInput = Pick<ScreenSnapshot, 'lines' | 'cursorX' | 'cursorY' | 'altScreen' | 'bracketedPaste' | 'title'>;

export function repaint(s: RepaintInput): string {
  const out: string[] = [s.altScreen ? '\x1b[?1049h' : '\x1b[?1049l', '\x1b[H\x1b[2J'];
  s.lines.forEach((line, y) => {
    if (line) out.push(`\x1b[${y + 1};1H`, line.replace(/[\x00-\x1f\x7f]/g, ' '));
  });
  if (s.title) out.push(`\x1b]2;${s.title.replace(/[\x00-\x1f\x7f]/g, '')}\x07`);
  out.push(s.bracketedPaste ? '\x1b[?2004h' : '\x1b[?2004l', `\x1b[${s.cursorY + 1};${s.cursorX + 1}H`);
  return out.join('');
}
